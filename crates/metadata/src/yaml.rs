//! The YAML text of a metadata document: read with `yaml-rust2`'s event
//! parser, written by hand in the block style LLVM writes.
//!
//! Reading builds the [`Value`] from the parser's events with an explicit
//! stack (no recursion, nesting limited to [`MAX_DEPTH`]). Plain scalars are
//! typed as LLVM's metadata uses them: `true`/`false`, decimal and `0x`
//! integers; every other scalar, and every quoted one, is a string (so
//! `1.5` or `null` stay the strings they were in the source, and a key
//! without a value is the empty string).
//!
//! Writing is not `yaml-rust2`'s emitter: that one quotes every scalar that
//! starts with `.`, i.e. every key of the AMDGPU metadata (`".args":`),
//! where LLVM and risa's listings write them plain.

use crate::{Error, Value, MAX_DEPTH};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Parses a `.amdgpu_metadata` block (between `---` and `...`; the markers
/// are optional). The document must be a mapping; empty text is an empty one.
pub fn from_yaml(src: &str) -> Result<Value, Error> {
    if let Some(line) = too_deep(src) {
        return Err(Error::Yaml {
            line,
            message: Error::TooDeep.to_string(),
        });
    }
    let mut b = Builder::default();
    Parser::new_from_str(src)
        .load(&mut b, false)
        .map_err(|e| Error::Yaml {
            line: e.marker().line(),
            message: e.info().to_string(),
        })?;
    if let Some(e) = b.error {
        return Err(e);
    }
    match b.done {
        None => Ok(Value::Map(Vec::new())),
        Some(v @ Value::Map(_)) => Ok(v),
        Some(_) => Err(Error::Yaml {
            line: 1,
            message: "the metadata is not a mapping".into(),
        }),
    }
}

/// The first line (1-based) past which the text may nest deeper than twice
/// [`MAX_DEPTH`]: `yaml-rust2`'s parser recurses once per level, so deeper
/// text could overflow the stack before [`Builder`] sees it. A block level
/// needs a deeper indentation or an indicator (`- `, `? `, `: `) on its line,
/// a flow level a bracket, so counting those bounds the depth from above.
fn too_deep(src: &str) -> Option<usize> {
    let limit = 2 * MAX_DEPTH;
    let mut flow = 0usize;
    for (no, line) in src.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let indicators = line
            .as_bytes()
            .windows(2)
            .filter(|w| matches!(w, [b'-' | b'?' | b':', b' ']))
            .count();
        for c in line.bytes() {
            match c {
                b'[' | b'{' => flow += 1,
                b']' | b'}' => flow = flow.saturating_sub(1),
                _ => {}
            }
        }
        if indent + indicators + flow > limit {
            return Some(no + 1);
        }
    }
    None
}

/// A container being filled.
enum Frame {
    Seq(Vec<Value>),
    /// The entries so far and the key waiting for its value.
    Map(Vec<(Value, Value)>, Option<Value>),
}

/// Turns parser events into one [`Value`] (the first document).
#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    done: Option<Value>,
    error: Option<Error>,
}

impl Builder {
    /// Places a finished value in the container on top, or ends the document.
    fn put(&mut self, v: Value) {
        match self.stack.last_mut() {
            None => {
                if self.done.is_none() {
                    self.done = Some(v);
                }
            }
            Some(Frame::Seq(s)) => s.push(v),
            Some(Frame::Map(m, key)) => match key.take() {
                None => *key = Some(v),
                Some(k) => m.push((k, v)),
            },
        }
    }

    fn open(&mut self, f: Frame, mark: Marker) {
        if self.stack.len() >= MAX_DEPTH && self.error.is_none() {
            self.error = Some(Error::Yaml {
                line: mark.line(),
                message: Error::TooDeep.to_string(),
            });
        }
        self.stack.push(f);
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() || self.done.is_some() {
            return;
        }
        match ev {
            Event::Scalar(s, style, ..) => self.put(scalar(s, style)),
            Event::SequenceStart(..) => self.open(Frame::Seq(Vec::new()), mark),
            Event::MappingStart(..) => self.open(Frame::Map(Vec::new(), None), mark),
            Event::SequenceEnd | Event::MappingEnd => {
                let v = match self.stack.pop() {
                    Some(Frame::Seq(s)) => Value::Array(s),
                    Some(Frame::Map(m, _)) => Value::Map(m),
                    None => return,
                };
                self.put(v);
            }
            Event::Alias(_) => {
                self.error = Some(Error::Yaml {
                    line: mark.line(),
                    message: "aliases are not supported in metadata".into(),
                })
            }
            _ => {}
        }
    }
}

/// The value of a scalar: quoted ones are strings; plain ones as [`plain`].
fn scalar(s: String, style: TScalarStyle) -> Value {
    match style {
        TScalarStyle::Plain => plain(s),
        _ => Value::from(s),
    }
}

/// The value of a plain scalar: booleans, decimal and `0x` integers; the
/// parser's `~` for a key without a value is the empty string; the rest
/// are strings.
fn plain(s: String) -> Value {
    match s.as_str() {
        "true" => return Value::Boolean(true),
        "false" => return Value::Boolean(false),
        "~" => return Value::from(""),
        _ => {}
    }
    let digits = s.strip_prefix('-').unwrap_or(&s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = s.parse::<i64>() {
            return Value::from(v);
        }
    }
    if let Some(h) = s.strip_prefix("0x") {
        if let Ok(v) = i64::from_str_radix(h, 16) {
            return Value::from(v);
        }
    }
    Value::from(s)
}

/// YAML text of a document in the block style LLVM writes (`---` ... `...`).
/// [`from_yaml`] reads it back to the same value; values YAML cannot hold as
/// they are (binary, extension types, floats, nil, integers above
/// `i64::MAX`, keys that are not strings) are an error.
pub fn to_yaml(v: &Value) -> Result<String, Error> {
    let mut out = String::from("---\n");
    if is_block(v) {
        block(v, 0, &mut out)?;
    } else {
        out.push_str(&inline(v)?);
        out.push('\n');
    }
    out.push_str("...\n");
    Ok(out)
}

/// A string as YAML: plain where [`plain`] reads it back as the same string
/// and no YAML indicator or comment could change its meaning, else single-quoted.
fn quote(s: &str) -> String {
    let plain_ok = !s.is_empty()
        && plain(s.to_string()).as_str() == Some(s)
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`".contains(c))
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains(['\n', '\r', '\t']);
    if plain_ok {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// A scalar, or an empty map or sequence, on one line.
fn inline(v: &Value) -> Result<String, Error> {
    Ok(match v {
        Value::Map(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => match i.as_i64() {
            Some(i) => i.to_string(),
            None => return Err(Error::NotYaml("an integer above i64::MAX")),
        },
        Value::String(s) => match s.as_str() {
            Some(s) if !s.contains(['\n', '\r']) => quote(s),
            Some(_) => return Err(Error::NotYaml("a string with a line break")),
            None => return Err(Error::NotYaml("a string that is not UTF-8")),
        },
        Value::Nil => return Err(Error::NotYaml("nil")),
        Value::F32(_) | Value::F64(_) => return Err(Error::NotYaml("a float")),
        Value::Binary(_) => return Err(Error::NotYaml("binary data")),
        Value::Ext(..) => return Err(Error::NotYaml("an extension type")),
    })
}

/// A non-empty map or sequence.
fn is_block(v: &Value) -> bool {
    matches!(v, Value::Map(m) if !m.is_empty()) || matches!(v, Value::Array(s) if !s.is_empty())
}

/// A non-empty map or sequence at `indent`; its first line follows what is
/// already on the current line when that ends with `- ` (an item of a sequence).
fn block(v: &Value, indent: usize, out: &mut String) -> Result<(), Error> {
    let items: Vec<(Option<&Value>, &Value)> = match v {
        Value::Map(m) => m.iter().map(|(k, v)| (Some(k), v)).collect(),
        Value::Array(s) => s.iter().map(|v| (None, v)).collect(),
        _ => return Ok(()),
    };
    for (i, (key, v)) in items.into_iter().enumerate() {
        if !(i == 0 && out.ends_with("- ")) {
            out.extend(std::iter::repeat_n(' ', indent));
        }
        match key {
            Some(k) => {
                let k = k
                    .as_str()
                    .ok_or(Error::NotYaml("a key that is not a string"))?;
                out.push_str(&quote(k));
                out.push(':');
                if is_block(v) {
                    out.push('\n');
                    block(v, indent + 2, out)?;
                    continue;
                }
                out.push(' ');
            }
            None => {
                out.push_str("- ");
                if is_block(v) {
                    block(v, indent + 2, out)?;
                    continue;
                }
            }
        }
        out.push_str(&inline(v)?);
        out.push('\n');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(kv: Vec<(&str, Value)>) -> Value {
        Value::Map(kv.into_iter().map(|(k, v)| (Value::from(k), v)).collect())
    }

    #[test]
    fn llvm_metadata_shape() {
        let y = "---\namdhsa.kernels:\n  - .args:\n      - .offset:  0\n        .type_name: 'float*'\n        .is_const: true\n    .name: k\n    .language_version:\n      - 1\n      - 2\namdhsa.version:\n  - 1\n  - 1\n...\n";
        let want = map(vec![
            (
                "amdhsa.kernels",
                Value::Array(vec![map(vec![
                    (
                        ".args",
                        Value::Array(vec![map(vec![
                            (".offset", Value::from(0)),
                            (".type_name", Value::from("float*")),
                            (".is_const", Value::from(true)),
                        ])]),
                    ),
                    (".name", Value::from("k")),
                    (
                        ".language_version",
                        Value::Array(vec![Value::from(1), Value::from(2)]),
                    ),
                ])]),
            ),
            (
                "amdhsa.version",
                Value::Array(vec![Value::from(1), Value::from(1)]),
            ),
        ]);
        assert_eq!(from_yaml(y).unwrap(), want);
    }

    #[test]
    fn scalars_are_typed_as_llvm_metadata_uses_them() {
        let y = "a: 0x10\nb: -5\nc: '12'\nd: 1.5\ne:\nf: null\ng: \"x y\"\nh: false\n";
        let v = from_yaml(y).unwrap();
        let get = |k| crate::field(&v, k).cloned().unwrap();
        assert_eq!(get("a"), Value::from(16));
        assert_eq!(get("b"), Value::from(-5));
        assert_eq!(get("c"), Value::from("12"));
        assert_eq!(get("d"), Value::from("1.5"));
        assert_eq!(get("e"), Value::from(""));
        assert_eq!(get("f"), Value::from("null"));
        assert_eq!(get("g"), Value::from("x y"));
        assert_eq!(get("h"), Value::from(false));
    }

    #[test]
    fn text_reads_back_to_the_same_value() {
        let y = "---\namdhsa.kernels:\n  - .args:\n      - .offset: 0\n        .type_name: 'float*'\n        .is_const: true\n    .name: k\n    .language: OpenCL C\n    .x: ''\n    .y: '12'\n    .z: -5\n    .e: []\n    .q: 'it''s: #1'\n    .nested:\n      - - 1\n        - 2\n      - []\namdhsa.version:\n  - 1\n  - 1\n...\n";
        let v = from_yaml(y).unwrap();
        let text = to_yaml(&v).unwrap();
        assert_eq!(from_yaml(&text).unwrap(), v, "{text}");
        let back = crate::from_msgpack(&crate::to_msgpack(&v)).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn bad_yaml_is_an_error_not_a_panic() {
        for s in [
            "a: 1\n  - b",
            "- a\nb: 1",
            "a: 1\n   b: 2\n  c: 3",
            "x",
            "[[[[",
            "*a",
        ] {
            let _ = from_yaml(s);
        }
        let e = from_yaml("a: 1\nb: [1, 2\nc: 3\n").unwrap_err();
        // Lines are 1-based: the unclosed flow sequence is found on line 3.
        assert_eq!(e.to_string(), "line 3: illegal placement of ':' indicator");
        assert!(matches!(from_yaml("a: 1\n b: 2"), Err(Error::Yaml { .. })));
        assert!(matches!(
            from_yaml("- 1\n- 2"),
            Err(Error::Yaml { line: 1, .. })
        ));
        let deep = "- ".repeat(MAX_DEPTH + 1) + "1";
        assert!(from_yaml(&format!("a:\n  {deep}")).is_err());
        for deep in [
            "- ".repeat(100_000),
            "[".repeat(100_000),
            " ".repeat(100_000) + "- ",
        ] {
            assert!(from_yaml(&format!("a:\n{deep}1")).is_err());
        }
        // As deep as the guard lets through: parsed (and refused) without overflowing.
        let deep = "- ".repeat(2 * MAX_DEPTH - 2);
        assert!(from_yaml(&format!("a:\n {deep}1")).is_err());
        let deep = "[".repeat(2 * MAX_DEPTH - 1);
        assert!(from_yaml(&format!("a: {deep}")).is_err());
        assert!(to_yaml(&Value::F64(1.0)).is_err());
    }
}
