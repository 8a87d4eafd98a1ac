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
    fn bad_yaml_is_an_error_not_a_panic() {
        for s in ["a: 1\n  - b", "- a\nb: 1", "a: 1\n   b: 2\n  c: 3", "x"] {
            let _ = parse(s);
        }
        assert!(parse("a: 1\n b: 2").is_err());
    }
}
