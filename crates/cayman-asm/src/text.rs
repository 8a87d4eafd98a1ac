//! Small lexical helpers shared by the line parsers: errors that point into
//! the source, depth-aware splitting, numbers, field stores with range checks.

use risa_cayman::fields::Field;

/// A parse error: the slice of the source line it is about, and why.
///
/// An empty `msg` means the error was already reported (by the expression
/// evaluator of the assembler core) and must not be reported again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PErr<'a> {
    /// Where (a sub-slice of the parsed text).
    pub at: &'a str,
    /// What and why.
    pub msg: String,
}

/// Result of the line parsers.
pub type PResult<'a, T> = Result<T, PErr<'a>>;

/// Build an error.
pub fn err<'a, T>(at: &'a str, msg: impl Into<String>) -> PResult<'a, T> {
    Err(PErr {
        at,
        msg: msg.into(),
    })
}

/// Evaluates the numbers written in operands and fields. The assembler
/// evaluates them as core expressions (symbols, `.set`, arithmetic); the
/// stand-alone parsers use [`Plain`].
pub trait Numbers<'a> {
    /// The value of `text` (an absolute expression).
    fn num(&mut self, text: &'a str) -> PResult<'a, i64>;
}

/// Plain integers only: decimal, `0x` hex, `0b` binary, with an optional sign.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl<'a> Numbers<'a> for Plain {
    fn num(&mut self, text: &'a str) -> PResult<'a, i64> {
        parse_int(text).ok_or_else(|| PErr {
            at: text,
            msg: format!("expected a number, found '{text}'"),
        })
    }
}

/// Parse a plain integer literal.
pub fn parse_int(t: &str) -> Option<i64> {
    let t = t.trim();
    let (neg, d) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = if let Some(h) = d.strip_prefix("0x").or_else(|| d.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = d.strip_prefix("0b").or_else(|| d.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()?
    } else {
        if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        d.parse::<u64>().ok()?
    };
    let v = v as i64;
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Split at top-level `sep` (outside `()`, `[]`), trimming the pieces.
/// Returns an empty list for blank text.
pub fn split_top(s: &str, sep: u8) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if c == sep && depth <= 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

/// Split at top-level whitespace (outside `()`, `[]`), dropping empty pieces.
pub fn split_ws(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut start: Option<usize> = None;
    for (i, &c) in b.iter().enumerate() {
        let ws = c == b' ' || c == b'\t' || c == b'\r';
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ => {}
        }
        if ws && depth <= 0 {
            if let Some(s0) = start.take() {
                out.push(&s[s0..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s0) = start {
        out.push(&s[s0..]);
    }
    out
}

/// `NAME(args)` → `Some(args)` when `tok` is `NAME(` … `)`.
pub fn call<'a>(tok: &'a str, name: &str) -> Option<&'a str> {
    let r = tok.strip_prefix(name)?;
    let r = r.strip_prefix('(')?;
    r.strip_suffix(')')
}

/// Store `v` into field `f` of `w`, or report that it does not fit.
pub fn setf<'a>(w: &mut u32, f: Field, v: i64, at: &'a str) -> PResult<'a, ()> {
    if v < 0 || v as u64 > f.max() as u64 {
        return err(
            at,
            format!("{} = {v} is out of range (0..={})", f.name, f.max()),
        );
    }
    f.set(w, v as u32);
    Ok(())
}

/// Evaluate `text` and store it into field `f`.
pub fn setn<'a>(n: &mut dyn Numbers<'a>, w: &mut u32, f: Field, text: &'a str) -> PResult<'a, ()> {
    let v = n.num(text)?;
    setf(w, f, v, text)
}

/// Index of a channel letter.
pub fn chan_of(c: u8) -> Option<u32> {
    match c {
        b'x' | b'X' => Some(0),
        b'y' | b'Y' => Some(1),
        b'z' | b'Z' => Some(2),
        b'w' | b'W' => Some(3),
        _ => None,
    }
}

/// Index of a select letter of a swizzle (`x y z w 0 1 ? _`).
pub fn sel_of(c: u8) -> Option<u32> {
    match c {
        b'0' => Some(4),
        b'1' => Some(5),
        b'?' => Some(6),
        b'_' => Some(7),
        _ => chan_of(c),
    }
}

/// `R<n>` → n (0..=127).
pub fn gpr<'a>(t: &'a str) -> PResult<'a, u32> {
    let d = t
        .strip_prefix('R')
        .or_else(|| t.strip_prefix('r'))
        .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    match d.and_then(|d| d.parse::<u32>().ok()) {
        Some(v) if v < 128 => Ok(v),
        Some(_) => err(t, "GPR index out of range (R0..R127)"),
        None => err(t, format!("expected a register R0..R127, found '{t}'")),
    }
}

/// `R<n>` or `R<n>[AL]` → (n, relative).
pub fn gpr_rel<'a>(t: &'a str) -> PResult<'a, (u32, bool)> {
    match t.strip_suffix("[AL]") {
        Some(g) => Ok((gpr(g)?, true)),
        None => Ok((gpr(t)?, false)),
    }
}
