//! The YAML subset of `.amdgpu_metadata` blocks (what LLVM writes: block
//! mappings and sequences, plain and quoted scalars) and its translation to
//! the MessagePack of the `NT_AMDGPU_METADATA` note.

/// A YAML value.
#[derive(Debug, Clone, PartialEq)]
pub enum Yaml {
    /// A mapping, in source order.
    Map(Vec<(String, Yaml)>),
    /// A sequence.
    Seq(Vec<Yaml>),
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

struct Line<'a> {
    indent: usize,
    text: &'a str,
    no: usize,
}

/// Parses the document between `---` and `...`. Errors name the line (1-based, in the block).
pub fn parse(src: &str) -> Result<Yaml, String> {
    let mut lines = Vec::new();
    for (no, raw) in src.lines().enumerate() {
        let t = raw.trim_end();
        let body = t.trim_start();
        if body.is_empty() || body.starts_with('#') || body == "---" || body == "..." {
            continue;
        }
        lines.push(Line {
            indent: t.len() - body.len(),
            text: body,
            no: no + 1,
        });
    }
    if lines.is_empty() {
        return Ok(Yaml::Map(Vec::new()));
    }
    let indent = lines[0].indent;
    let mut i = 0;
    let v = node(&mut lines, &mut i, indent, 0)?;
    if i < lines.len() {
        return Err(format!("line {}: unexpected indentation", lines[i].no));
    }
    Ok(v)
}

fn node(
    lines: &mut Vec<Line<'_>>,
    i: &mut usize,
    indent: usize,
    depth: u32,
) -> Result<Yaml, String> {
    if depth > 64 {
        return Err("nesting too deep".into());
    }
    if lines[*i].text == "-" || lines[*i].text.starts_with("- ") {
        let mut seq = Vec::new();
        while *i < lines.len()
            && lines[*i].indent == indent
            && (lines[*i].text == "-" || lines[*i].text.starts_with("- "))
        {
            let rest = lines[*i].text[1..].trim_start();
            let inner = indent + 1 + (lines[*i].text.len() - 1 - rest.len());
            if rest.is_empty() {
                *i += 1;
                if *i < lines.len() && lines[*i].indent > indent {
                    let ind = lines[*i].indent;
                    seq.push(node(lines, i, ind, depth + 1)?);
                } else {
                    seq.push(Yaml::Str(String::new()));
                }
                continue;
            }
            if !rest.contains(": ") && !rest.ends_with(':') {
                seq.push(scalar(rest));
                *i += 1;
                continue;
            }
            // `- key: value`: a mapping whose keys sit at the column after "- ".
            lines[*i].indent = inner;
            lines[*i].text = rest;
            seq.push(node(lines, i, inner, depth + 1)?);
        }
        return Ok(Yaml::Seq(seq));
    }
    let mut map = Vec::new();
    while *i < lines.len() && lines[*i].indent == indent {
        let t = lines[*i].text;
        if t.starts_with("- ") {
            return Err(format!(
                "line {}: a sequence item where a key was expected",
                lines[*i].no
            ));
        }
        let (k, v) = match t.find(": ") {
            Some(p) => (&t[..p], t[p + 2..].trim()),
            None if t.ends_with(':') => (&t[..t.len() - 1], ""),
            None => return Err(format!("line {}: expected 'key: value'", lines[*i].no)),
        };
        let key = unquote(k.trim());
        *i += 1;
        let value = if !v.is_empty() {
            scalar(v)
        } else if *i < lines.len()
            && (lines[*i].indent > indent
                || (lines[*i].indent == indent && lines[*i].text.starts_with("- ")))
        {
            let ind = lines[*i].indent;
            node(lines, i, ind, depth + 1)?
        } else {
            Yaml::Str(String::new())
        };
        map.push((key, value));
    }
    Ok(Yaml::Map(map))
}

fn unquote(s: &str) -> String {
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        return s[1..s.len() - 1].replace("''", "'");
    }
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        return s[1..s.len() - 1]
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
    }
    s.to_string()
}

fn scalar(s: &str) -> Yaml {
    match s {
        "true" => return Yaml::Bool(true),
        "false" => return Yaml::Bool(false),
        "[]" => return Yaml::Seq(Vec::new()),
        "{}" => return Yaml::Map(Vec::new()),
        _ => {}
    }
    if s.starts_with('\'') || s.starts_with('"') {
        return Yaml::Str(unquote(s));
    }
    let digits = s.strip_prefix('-').unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = s.parse::<i64>() {
            return Yaml::Int(v);
        }
    }
    if let Some(h) = s.strip_prefix("0x") {
        if let Ok(v) = i64::from_str_radix(h, 16) {
            return Yaml::Int(v);
        }
    }
    Yaml::Str(s.to_string())
}

/// MessagePack of a value, in the smallest formats (as LLVM's writer does).
pub fn to_msgpack(v: &Yaml, out: &mut Vec<u8>) {
    match v {
        Yaml::Map(m) => {
            len_prefix(out, m.len(), 0x80, 0xde, 0xdf);
            for (k, v) in m {
                str(out, k);
                to_msgpack(v, out);
            }
        }
        Yaml::Seq(s) => {
            len_prefix(out, s.len(), 0x90, 0xdc, 0xdd);
            for v in s {
                to_msgpack(v, out);
            }
        }
        Yaml::Str(s) => str(out, s),
        Yaml::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Yaml::Int(i) if *i >= 0 => uint(out, *i as u64),
        Yaml::Int(i) => {
            let i = *i;
            if i >= -32 {
                out.push(i as i8 as u8);
            } else if i >= i64::from(i8::MIN) {
                out.extend_from_slice(&[0xd0, i as i8 as u8]);
            } else if i >= i64::from(i16::MIN) {
                out.push(0xd1);
                out.extend_from_slice(&(i as i16).to_be_bytes());
            } else if i >= i64::from(i32::MIN) {
                out.push(0xd2);
                out.extend_from_slice(&(i as i32).to_be_bytes());
            } else {
                out.push(0xd3);
                out.extend_from_slice(&i.to_be_bytes());
            }
        }
    }
}

fn len_prefix(out: &mut Vec<u8>, n: usize, fix: u8, m16: u8, m32: u8) {
    if n < 16 {
        out.push(fix | n as u8);
    } else if n < 65536 {
        out.push(m16);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(m32);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

fn str(out: &mut Vec<u8>, s: &str) {
    let n = s.len();
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n < 256 {
        out.extend_from_slice(&[0xd9, n as u8]);
    } else if n < 65536 {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(s.as_bytes());
}

/// Unsigned integer in the smallest MessagePack format.
pub fn uint(out: &mut Vec<u8>, v: u64) {
    if v < 128 {
        out.push(v as u8);
    } else if v < 256 {
        out.extend_from_slice(&[0xcc, v as u8]);
    } else if v < 65536 {
        out.push(0xcd);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= u64::from(u32::MAX) {
        out.push(0xce);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// Reads a MessagePack value (the subset [`to_msgpack`] writes: maps with
/// string keys, arrays, strings, integers, booleans); the rest of `bytes`
/// must be empty.
pub fn from_msgpack(bytes: &[u8]) -> Result<Yaml, String> {
    let mut at = 0;
    let v = unpack(bytes, &mut at, 0)?;
    if at != bytes.len() {
        return Err(format!("{} bytes after the value", bytes.len() - at));
    }
    Ok(v)
}

fn take<'a>(b: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], String> {
    let end = at
        .checked_add(n)
        .filter(|&e| e <= b.len())
        .ok_or_else(|| format!("truncated at byte {at}"))?;
    let s = &b[*at..end];
    *at = end;
    Ok(s)
}

fn be(b: &[u8], at: &mut usize, n: usize) -> Result<u64, String> {
    Ok(take(b, at, n)?
        .iter()
        .fold(0u64, |v, &x| v << 8 | u64::from(x)))
}

fn unpack(b: &[u8], at: &mut usize, depth: u32) -> Result<Yaml, String> {
    if depth > 64 {
        return Err("nesting too deep".into());
    }
    let start = *at;
    let t = take(b, at, 1)?[0];
    let len = |at: &mut usize, n: usize| be(b, at, n).map(|v| v as usize);
    let (kind, n) = match t {
        0x00..=0x7f => return Ok(Yaml::Int(i64::from(t))),
        0xe0..=0xff => return Ok(Yaml::Int(i64::from(t as i8))),
        0x80..=0x8f => (b'm', usize::from(t & 15)),
        0x90..=0x9f => (b'a', usize::from(t & 15)),
        0xa0..=0xbf => (b's', usize::from(t & 31)),
        0xc2 => return Ok(Yaml::Bool(false)),
        0xc3 => return Ok(Yaml::Bool(true)),
        0xcc..=0xcf => {
            let v = be(b, at, 1 << (t - 0xcc))?;
            return i64::try_from(v)
                .map(Yaml::Int)
                .map_err(|_| format!("byte {start}: integer {v} too large"));
        }
        0xd0..=0xd3 => {
            let n = 1usize << (t - 0xd0);
            let v = be(b, at, n)?;
            let shift = 64 - 8 * n as u32;
            return Ok(Yaml::Int(((v << shift) as i64) >> shift));
        }
        0xd9..=0xdb => (b's', len(at, 1 << (t - 0xd9))?),
        0xdc | 0xdd => (b'a', len(at, 2 << (t - 0xdc))?),
        0xde | 0xdf => (b'm', len(at, 2 << (t - 0xde))?),
        _ => {
            return Err(format!(
                "byte {start}: MessagePack type {t:#04x} is not supported"
            ))
        }
    };
    match kind {
        b's' => String::from_utf8(take(b, at, n)?.to_vec())
            .map(Yaml::Str)
            .map_err(|_| format!("byte {start}: string is not UTF-8")),
        b'a' => {
            let mut v = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                v.push(unpack(b, at, depth + 1)?);
            }
            Ok(Yaml::Seq(v))
        }
        _ => {
            let mut m = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                let k = match unpack(b, at, depth + 1)? {
                    Yaml::Str(k) => k,
                    _ => return Err(format!("byte {start}: a map key that is not a string")),
                };
                m.push((k, unpack(b, at, depth + 1)?));
            }
            Ok(Yaml::Map(m))
        }
    }
}

/// A scalar as YAML text: plain where [`parse`] reads it back as the same
/// string, else single-quoted.
fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && scalar(s) == Yaml::Str(s.to_string())
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`".contains(c))
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains('\n');
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// YAML text of a value, in the block style LLVM writes (`---` ... `...`).
/// [`parse`] reads it back; callers that need the same MessagePack bytes
/// check by converting back (strings with line breaks are not expressible).
pub fn to_text(v: &Yaml) -> String {
    let mut out = String::from("---\n");
    match v {
        Yaml::Map(m) if !m.is_empty() => block_map(m, 0, &mut out),
        Yaml::Seq(s) if !s.is_empty() => block_seq(s, 0, &mut out),
        other => {
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
    out.push_str("...\n");
    out
}

fn inline(v: &Yaml) -> String {
    match v {
        Yaml::Map(_) => "{}".into(),
        Yaml::Seq(_) => "[]".into(),
        Yaml::Str(s) => quote(s),
        Yaml::Int(i) => i.to_string(),
        Yaml::Bool(b) => b.to_string(),
    }
}

fn is_block(v: &Yaml) -> bool {
    matches!(v, Yaml::Map(m) if !m.is_empty()) || matches!(v, Yaml::Seq(s) if !s.is_empty())
}

fn block_map(m: &[(String, Yaml)], indent: usize, out: &mut String) {
    for (i, (k, v)) in m.iter().enumerate() {
        // The first key of a map inside a sequence follows its "- ".
        if !(i == 0 && out.ends_with("- ")) {
            out.extend(std::iter::repeat_n(' ', indent));
        }
        out.push_str(&quote(k));
        out.push(':');
        match v {
            Yaml::Map(c) if !c.is_empty() => {
                out.push('\n');
                block_map(c, indent + 2, out);
            }
            Yaml::Seq(c) if !c.is_empty() => {
                out.push('\n');
                block_seq(c, indent + 2, out);
            }
            v => {
                out.push(' ');
                out.push_str(&inline(v));
                out.push('\n');
            }
        }
    }
}

fn block_seq(s: &[Yaml], indent: usize, out: &mut String) {
    for v in s {
        out.extend(std::iter::repeat_n(' ', indent));
        out.push_str("- ");
        match v {
            Yaml::Map(m) if !m.is_empty() => block_map(m, indent + 2, out),
            v if is_block(v) => {
                // A sequence in a sequence: not in the subset `parse` reads.
                out.push_str("[]\n");
            }
            v => {
                out.push_str(&inline(v));
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llvm_metadata_shape() {
        let y = "---\namdhsa.kernels:\n  - .args:\n      - .offset:  0\n        .type_name: 'float*'\n        .is_const: true\n    .name: k\n    .language_version:\n      - 1\n      - 2\namdhsa.version:\n  - 1\n  - 1\n...\n";
        let v = parse(y).unwrap();
        let want = Yaml::Map(vec![
            (
                "amdhsa.kernels".into(),
                Yaml::Seq(vec![Yaml::Map(vec![
                    (
                        ".args".into(),
                        Yaml::Seq(vec![Yaml::Map(vec![
                            (".offset".into(), Yaml::Int(0)),
                            (".type_name".into(), Yaml::Str("float*".into())),
                            (".is_const".into(), Yaml::Bool(true)),
                        ])]),
                    ),
                    (".name".into(), Yaml::Str("k".into())),
                    (
                        ".language_version".into(),
                        Yaml::Seq(vec![Yaml::Int(1), Yaml::Int(2)]),
                    ),
                ])]),
            ),
            (
                "amdhsa.version".into(),
                Yaml::Seq(vec![Yaml::Int(1), Yaml::Int(1)]),
            ),
        ]);
        assert_eq!(v, want);
    }

    #[test]
    fn msgpack_to_yaml_and_back() {
        let y = "---\namdhsa.kernels:\n  - .args:\n      - .offset: 0\n        .type_name: 'float*'\n        .is_const: true\n    .name: k\n    .language: OpenCL C\n    .x: ''\n    .y: '12'\n    .z: -5\n    .e: []\namdhsa.version:\n  - 1\n  - 1\n...\n";
        let v = parse(y).unwrap();
        let mut mp = Vec::new();
        to_msgpack(&v, &mut mp);
        let back = from_msgpack(&mp).unwrap();
        assert_eq!(back, v);
        let text = to_text(&back);
        assert_eq!(parse(&text).unwrap(), v, "{text}");
        assert!(from_msgpack(&mp[..mp.len() - 1]).is_err());
    }

    #[test]
    fn bad_yaml_is_an_error_not_a_panic() {
        for s in ["a: 1\n  - b", "- a\nb: 1", "a: 1\n   b: 2\n  c: 3", "x"] {
            let _ = parse(s);
        }
        assert!(parse("a: 1\n b: 2").is_err());
    }
}
