//! Low-level lexing helpers: a byte cursor over one statement, literal
//! parsers (integers, characters, strings, floats) and character classes.
//!
//! Everything here borrows from the source text; nothing allocates except
//! the decoding of string literals.

/// Character classes as a table (the lexer's hot loops test one byte at a time).
const CLASS_START: u8 = 1;
const CLASS_CONT: u8 = 2;
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphabetic() || b == b'_' || b == b'.' || b == b'$' {
            t[c] = CLASS_START | CLASS_CONT;
        } else if b.is_ascii_digit() {
            t[c] = CLASS_CONT;
        }
        c += 1;
    }
    t
};

/// Is `c` a character that may start a symbol name (`A-Z a-z _ .`)?
#[inline]
pub fn is_ident_start(c: u8) -> bool {
    CLASS[c as usize] & CLASS_START != 0
}

/// Is `c` a character that may continue a symbol name (`A-Z a-z 0-9 _ .`)?
#[inline]
pub fn is_ident_char(c: u8) -> bool {
    CLASS[c as usize] & CLASS_CONT != 0
}

/// The end of the run of name characters starting at `p`: the first
/// position at or after `p` whose byte cannot continue a name. Eight bytes
/// per step, unrolled (names are read for every mnemonic and operand).
#[inline]
fn ident_end(b: &[u8], mut p: usize) -> usize {
    while let Some(chunk) = b.get(p..p + 8) {
        for (k, &c) in chunk.iter().enumerate() {
            if !is_ident_char(c) {
                return p + k;
            }
        }
        p += 8;
    }
    while p < b.len() && is_ident_char(b[p]) {
        p += 1;
    }
    p
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `w` that is zero (exact for the lowest one).
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(LO) & !w & HI
}

/// Position of the first byte of `b` at or after `from` for which `stop[byte]`
/// is true (`b.len()` if none): the fast skip of the line scanners. Eight
/// bytes at a time are tested against the patterns `pats`: a byte `x` matches
/// `(ignore, value)` when `x & !ignore == value`, so one pattern can stand for
/// several stop bytes (each test costs the same, and every line is scanned).
/// Every byte `stop` marks must match a pattern (see [`covers`]); a byte that
/// matches without being a stop byte only ends the fast part early.
#[inline]
pub(crate) fn skip_until(b: &[u8], from: usize, stop: &[bool; 256], pats: &[(u8, u8)]) -> usize {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let mut hit = 0;
        for &(ignore, value) in pats {
            hit |= zero_bytes((w & !(LO * u64::from(ignore))) ^ (LO * u64::from(value)));
        }
        if hit != 0 {
            break;
        }
        i += 8;
    }
    while i < b.len() && !stop[b[i] as usize] {
        i += 1;
    }
    i
}

/// Whether every byte of `set` matches one of the [`skip_until`] patterns
/// `pats` (checked at compile time where the patterns are made).
pub(crate) const fn covers(set: &[u8], pats: &[(u8, u8)]) -> bool {
    let mut i = 0;
    while i < set.len() {
        let mut j = 0;
        let mut hit = false;
        while j < pats.len() {
            if set[i] & !pats[j].0 == pats[j].1 {
                hit = true;
            }
            j += 1;
        }
        if !hit {
            return false;
        }
        i += 1;
    }
    true
}

/// Builds a stop table for [`skip_until`].
pub(crate) const fn stop_table(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// Position of the first `\n` at or after `from` (`b.len()` if none),
/// eight bytes at a time.
#[inline]
pub(crate) fn find_newline(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let z = zero_bytes(w ^ (LO * b'\n' as u64));
        if z != 0 {
            return i + (z.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

/// `s.trim()`, with the common all-ASCII edges handled without decoding
/// characters (statements are trimmed once each; `str::trim` decodes UTF-8
/// at both ends). Where an edge byte is not ASCII, `str::trim` decides.
#[inline(always)]
pub fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    // Mostly there is nothing to trim (the callers start after the white
    // space they skipped): then no scan. (A non-ASCII edge may be Unicode
    // white space: the path below decides.) Inline, the test is cheaper
    // than the call it was.
    if let (Some(&f), Some(&l)) = (b.first(), b.last()) {
        if f.is_ascii() && l.is_ascii() && !is_trim_space(f) && !is_trim_space(l) {
            return s;
        }
    }
    trim_edges(s)
}

/// [`trim`] when an edge byte is white space or not ASCII (or `s` is empty).
#[inline(never)]
fn trim_edges(s: &str) -> &str {
    let b = s.as_bytes();
    let mut start = 0;
    while start < b.len() && is_trim_space(b[start]) {
        start += 1;
    }
    let mut end = b.len();
    while end > start && is_trim_space(b[end - 1]) {
        end -= 1;
    }
    let t = &s[start..end];
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(&f), Some(&l)) if f >= 0x80 || l >= 0x80 => t.trim(),
        _ => t,
    }
}

/// The ASCII characters `char::is_whitespace` accepts
/// (`u8::is_ascii_whitespace` leaves out vertical tab).
#[inline(always)]
fn is_trim_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Horizontal white space (space, tab, CR, vertical tab, form feed).
#[inline]
pub fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Where the name of `stmt` starts and ends when the statement is the
/// common `name operands`: after white space, a name that starts with a
/// letter and ends at white space (or the end), and no `=` after it. Such a
/// statement has no label (`name:`), scope path (`a::b`) or assignment, and
/// is no pseudo-op (`.name`) or local label (`1:`). The third position is
/// where the white space after the name ends.
#[inline]
pub(crate) fn plain_instruction_name(stmt: &str) -> Option<(usize, usize, usize)> {
    let b = stmt.as_bytes();
    let mut start = 0;
    while start < b.len() && is_space(b[start]) {
        start += 1;
    }
    if !b.get(start)?.is_ascii_alphabetic() {
        return None;
    }
    let end = ident_end(b, start + 1);
    let mut i = end;
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    match b.get(i) {
        Some(b'=') => None,
        // (Only white space ends the name: not `:`, `(`, `,`.)
        Some(_) if i == end => None,
        _ => Some((start, end, i)),
    }
}

/// A lexing error: byte offset inside the cursor's text and a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{msg}")]
pub struct LexError {
    /// Byte offset (relative to the start of the cursor text) of the error.
    pub pos: usize,
    /// Human readable message.
    pub msg: String,
}

impl LexError {
    pub(crate) fn new(pos: usize, msg: impl Into<String>) -> Self {
        LexError {
            pos,
            msg: msg.into(),
        }
    }
}

/// A cursor over the text of one statement (or any slice of it).
///
/// Back ends use it to parse their operands; the assembler context's
/// expression methods consume expressions from it. Positions are byte
/// offsets into the cursor's text; because the text is a sub-slice of the
/// source line, the assembler can map any slice back to a column.
///
/// ```
/// use risa_asm_core::Cursor;
/// let mut c = Cursor::new("  v1, 12");
/// assert_eq!(c.ident(), Some("v1"));
/// assert!(c.eat(b','));
/// c.skip_ws();
/// assert_eq!(c.rest(), "12");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Cursor { src, pos: 0 }
    }
    /// The whole text of the cursor.
    #[inline]
    pub fn text(&self) -> &'a str {
        self.src
    }
    /// Current byte offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Move to byte offset `pos` (clamped to the text length and to a char boundary).
    #[inline]
    pub fn set_pos(&mut self, pos: usize) {
        let mut p = pos.min(self.src.len());
        while !self.src.is_char_boundary(p) {
            p -= 1;
        }
        self.pos = p;
    }
    /// The bytes of [`Cursor::rest`], for looking ahead byte by byte
    /// (without the character-boundary check of slicing the text).
    #[inline]
    pub fn rest_bytes(&self) -> &'a [u8] {
        &self.src.as_bytes()[self.pos..]
    }
    /// Text from the current position to the end.
    #[inline]
    pub fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }
    /// Slice of the text between two offsets.
    #[inline]
    pub fn slice(&self, from: usize, to: usize) -> &'a str {
        let to = to.min(self.src.len());
        let from = from.min(to);
        self.src.get(from..to).unwrap_or("")
    }
    /// Consumes the next `n` bytes and returns them: bytes looked at with
    /// [`Cursor::rest_bytes`] (ASCII, so `n` ends at a character boundary).
    #[inline]
    pub fn take(&mut self, n: usize) -> &'a str {
        let s = &self.src[self.pos..self.pos + n];
        self.pos += n;
        s
    }
    /// Next byte, without consuming it.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }
    /// Byte at `pos + n`.
    #[inline]
    pub fn peek_at(&self, n: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + n).copied()
    }
    /// Consume one character (a whole UTF-8 sequence).
    #[inline]
    pub fn bump(&mut self) {
        if let Some(c) = self.rest().chars().next() {
            self.pos += c.len_utf8();
        }
    }
    /// Skip horizontal white space.
    #[inline]
    pub fn skip_ws(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() && is_space(b[self.pos]) {
            self.pos += 1;
        }
    }
    /// True when only white space remains.
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.src.len()
    }
    /// Skip white space, then consume byte `c` if it is next.
    #[inline]
    pub fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    /// Skip white space, then consume `s` (ASCII case-insensitive) if it is next.
    pub fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        let r = self.rest_bytes();
        if r.len() >= s.len() && r[..s.len()].eq_ignore_ascii_case(s.as_bytes()) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    /// Skip white space and read a plain name (`[A-Za-z_.$][A-Za-z0-9_.$]*`).
    #[inline]
    pub fn ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let start = self.pos;
        if start < b.len() && is_ident_start(b[start]) {
            let p = ident_end(b, start + 1);
            self.pos = p;
            Some(&self.src[start..p])
        } else {
            None
        }
    }
    /// Skip white space and read a symbol name that may carry a scope path
    /// (`::a::b::name`, `a::name`). Returns the whole path text.
    pub fn symbol_path(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let start = self.pos;
        let mut p = start;
        let mut any = false;
        loop {
            if b.get(p) == Some(&b':') && b.get(p + 1) == Some(&b':') {
                p += 2;
                any = true;
                continue;
            }
            if p < b.len() && is_ident_start(b[p]) {
                p = ident_end(b, p + 1);
                any = true;
                if b.get(p) == Some(&b':') && b.get(p + 1) == Some(&b':') {
                    continue;
                }
                break;
            }
            break;
        }
        if !any {
            return None;
        }
        self.pos = p;
        Some(&self.src[start..p])
    }
    /// Skip white space and read a run of non-space characters.
    pub fn word(&mut self) -> &'a str {
        self.skip_ws();
        let b = self.src.as_bytes();
        let start = self.pos;
        while self.pos < b.len() && !is_space(b[self.pos]) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }
    /// Read up to (not including) the next top-level comma (outside
    /// parentheses, brackets and quotes); the result is trimmed.
    pub fn until_comma(&mut self) -> &'a str {
        let start = self.pos;
        let end = find_top_level(self.rest_bytes(), b',')
            .map(|e| self.pos + e)
            .unwrap_or(self.src.len());
        self.pos = end;
        self.src[start..end].trim()
    }
    /// Skip white space and parse a double-quoted string literal, decoding
    /// escapes into bytes.
    pub fn string_literal(&mut self) -> Result<Vec<u8>, LexError> {
        self.skip_ws();
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(LexError::new(start, "expected string literal"));
        }
        let mut out = Vec::new();
        let b = self.src.as_bytes();
        let mut p = start + 1;
        loop {
            match b.get(p) {
                None => return Err(LexError::new(start, "unterminated string")),
                Some(b'"') => {
                    p += 1;
                    break;
                }
                Some(b'\\') => {
                    let (v, np) = parse_escape(b, p + 1).map_err(|e| LexError::new(p, e))?;
                    out.push(v as u8);
                    p = np;
                }
                Some(&c) => {
                    out.push(c);
                    p += 1;
                }
            }
        }
        self.pos = p;
        Ok(out)
    }
    /// Skip white space and parse a floating point literal (decimal or
    /// hexadecimal, optional sign, optional `l`/`h`/`s` suffix).
    pub fn float_literal(&mut self) -> Option<FloatLit<'a>> {
        self.skip_ws();
        let (lit, len) = parse_float_literal(self.rest())?;
        self.pos += len;
        Some(lit)
    }
}

/// Find byte `want` at nesting level zero (outside `()`, `[]`, `{}` and quotes).
pub fn find_top_level(b: &[u8], want: u8) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                i = skip_string(b, i);
                continue;
            }
            b'\'' => {
                i = skip_char_lit(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if c == want && depth <= 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Split `s` at top-level commas; each part is trimmed. An empty string
/// yields no parts.
///
/// ```
/// use risa_asm_core::lex::split_operands;
/// let v: Vec<&str> = split_operands("v1, s[0:1], (1,2)").collect();
/// assert_eq!(v, ["v1", "s[0:1]", "(1,2)"]);
/// ```
pub fn split_operands(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    if s.trim().is_empty() {
        rest = None;
    }
    std::iter::from_fn(move || {
        let r = rest?;
        match find_top_level(r.as_bytes(), b',') {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(r[..i].trim())
            }
            None => {
                rest = None;
                Some(r.trim())
            }
        }
    })
}

/// Given `b[i] == '"'`, return the index after the closing quote (or the end).
pub(crate) fn skip_string(b: &[u8], i: usize) -> usize {
    let mut p = i + 1;
    while p < b.len() {
        match b[p] {
            b'\\' => p += 2,
            b'"' => return p + 1,
            _ => p += 1,
        }
    }
    b.len()
}

/// Given `b[i] == '\''`, skip a character literal if one is there; otherwise
/// just the quote.
pub(crate) fn skip_char_lit(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'\\') {
        let mut p = i + 2;
        while p < b.len() && p < i + 12 {
            if b[p] == b'\'' {
                return p + 1;
            }
            p += 1;
        }
        i + 1
    } else if b.get(i + 2) == Some(&b'\'') {
        i + 3
    } else {
        i + 1
    }
}

/// Decode an escape sequence; `p` points after the backslash. Returns the
/// value and the index after the escape.
pub(crate) fn parse_escape(b: &[u8], p: usize) -> Result<(u64, usize), CharLiteralError> {
    let c = *b.get(p).ok_or(CharLiteralError::UnterminatedEscape)?;
    Ok(match c {
        b'a' => (7, p + 1),
        b'b' => (8, p + 1),
        b't' => (9, p + 1),
        b'n' => (10, p + 1),
        b'v' => (11, p + 1),
        b'f' => (12, p + 1),
        b'r' => (13, p + 1),
        b'x' | b'X' => {
            let mut q = p + 1;
            let mut v: u64 = 0;
            while q < b.len() && b[q].is_ascii_hexdigit() {
                v = (v << 4) | (b[q] as char).to_digit(16).unwrap_or(0) as u64;
                q += 1;
            }
            if q == p + 1 {
                return Err(CharLiteralError::HexDigits);
            }
            (v & 0xff, q)
        }
        b'0'..=b'7' => {
            let mut q = p;
            let mut v: u64 = 0;
            while q < b.len() && q < p + 3 && (b'0'..=b'7').contains(&b[q]) {
                v = (v << 3) | (b[q] - b'0') as u64;
                q += 1;
            }
            (v & 0xff, q)
        }
        _ => {
            // any other character stands for itself (\\, \", \', ...)
            let s = std::str::from_utf8(&b[p..]).unwrap_or("");
            match s.chars().next() {
                Some(ch) => (ch as u64, p + ch.len_utf8()),
                None => (c as u64, p + 1),
            }
        }
    })
}

/// Parse a character literal at the start of `b` (`'a'`, `'\n'`, `'\x41'`).
/// Returns value and length.
pub(crate) fn parse_char_literal(b: &[u8]) -> Result<(u64, usize), CharLiteralError> {
    debug_assert_eq!(b.first(), Some(&b'\''));
    let (v, p) = match b.get(1) {
        None => return Err(CharLiteralError::Unterminated),
        Some(b'\\') => parse_escape(b, 2)?,
        Some(_) => {
            let s = std::str::from_utf8(&b[1..]).unwrap_or("");
            match s.chars().next() {
                Some(ch) => (ch as u64, 1 + ch.len_utf8()),
                None => return Err(CharLiteralError::Bad),
            }
        }
    };
    if b.get(p) != Some(&b'\'') {
        return Err(CharLiteralError::Unterminated);
    }
    Ok((v, p + 1))
}

/// Parse an integer literal (decimal, `0x` hex, `0` octal, `0b` binary) at
/// the start of `b`, as a 128-bit value. Returns value and length.
///
/// ```
/// use risa_asm_core::lex::parse_int_literal;
/// assert_eq!(parse_int_literal(b"0x354,"), Ok((0x354, 5)));
/// assert_eq!(parse_int_literal(b"0246"), Ok((0o246, 4)));
/// assert_eq!(parse_int_literal(b"0b101"), Ok((5, 5)));
/// ```
pub fn parse_int_literal(b: &[u8]) -> Result<(u128, usize), IntLiteralError> {
    let (radix, start) = if b.first() == Some(&b'0') {
        match b.get(1) {
            Some(b'x') | Some(b'X') => (16, 2),
            Some(b'b') | Some(b'B') => (2, 2),
            _ => (8, 1),
        }
    } else {
        (10, 0)
    };
    let mut p = start;
    let mut v: u128 = 0;
    let mut overflow = false;
    while p < b.len() {
        let c = b[p];
        let d = match c {
            b'0'..=b'9' => (c - b'0') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 10,
            b'A'..=b'Z' => (c - b'A') as u32 + 10,
            b'_' => return Err(IntLiteralError::InvalidChar),
            _ => break,
        };
        if d >= radix {
            return Err(IntLiteralError::InvalidDigit(c as char));
        }
        match v
            .checked_mul(radix as u128)
            .and_then(|x| x.checked_add(d as u128))
        {
            Some(nv) => v = nv,
            None => overflow = true,
        }
        p += 1;
    }
    if p == start && radix != 8 {
        return Err(IntLiteralError::MissingDigits);
    }
    if overflow {
        return Err(IntLiteralError::TooBig);
    }
    Ok((v, p))
}

/// Why an escape sequence or a character literal was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CharLiteralError {
    /// A backslash at the end of the text.
    #[error("unterminated escape")]
    UnterminatedEscape,
    /// `\x` without hex digits.
    #[error("expected hexadecimal digits after \\x")]
    HexDigits,
    /// No closing quote.
    #[error("unterminated character literal")]
    Unterminated,
    /// Bytes after the quote that are no UTF-8 character.
    #[error("bad character literal")]
    Bad,
}

impl From<CharLiteralError> for String {
    fn from(e: CharLiteralError) -> String {
        e.to_string()
    }
}

/// Why [`parse_int_literal`] refused a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IntLiteralError {
    /// A `_` inside the digits.
    #[error("invalid character in number")]
    InvalidChar,
    /// A digit the radix does not have (`08`, `0b2`).
    #[error("invalid digit '{0}' in number")]
    InvalidDigit(char),
    /// A radix prefix without digits (`0x`).
    #[error("missing digits in number")]
    MissingDigits,
    /// More than 128 bits.
    #[error("number is too big")]
    TooBig,
}

impl From<IntLiteralError> for String {
    fn from(e: IntLiteralError) -> String {
        e.to_string()
    }
}

/// A parsed floating point literal; convert with [`FloatLit::to_f64_bits`],
/// [`FloatLit::to_f32_bits`] or [`FloatLit::to_f16_bits`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatLit<'a> {
    /// Negative sign was given.
    pub neg: bool,
    /// Body of the literal, without sign and suffix.
    pub body: &'a str,
    /// Optional suffix: `l` (double), `h` (half) or `s` (single).
    pub suffix: Option<u8>,
}

/// Try to parse a float literal at the start of `s`: optional sign, then
/// decimal (`10.2`, `.45`, `1.5e`, `100e-6`, `1e5`) or hexadecimal
/// (`0x1a2.4b5p5`) form, optional `l`/`h`/`s` suffix. Plain integers are
/// not float literals. Returns the literal and its length.
///
/// ```
/// use risa_asm_core::lex::parse_float_literal;
/// let (f, n) = parse_float_literal("+1.5e, 2").unwrap();
/// assert_eq!((f.to_f32_bits(), n), (1.5f32.to_bits(), 5));
/// assert!(parse_float_literal("42").is_none());
/// ```
pub fn parse_float_literal(s: &str) -> Option<(FloatLit<'_>, usize)> {
    let b = s.as_bytes();
    let mut p = 0;
    let mut neg = false;
    if p < b.len() && (b[p] == b'-' || b[p] == b'+') {
        neg = b[p] == b'-';
        p += 1;
    }
    let body_start = p;
    let is_float;
    if b.get(p) == Some(&b'0') && matches!(b.get(p + 1), Some(b'x') | Some(b'X')) {
        p += 2;
        let ds = p;
        while p < b.len() && b[p].is_ascii_hexdigit() {
            p += 1;
        }
        let mut nd = p - ds;
        if b.get(p) == Some(&b'.') {
            p += 1;
            let fs = p;
            while p < b.len() && b[p].is_ascii_hexdigit() {
                p += 1;
            }
            nd += p - fs;
        }
        if nd == 0 || !matches!(b.get(p), Some(b'p') | Some(b'P')) {
            return None;
        }
        p += 1;
        if matches!(b.get(p), Some(b'+') | Some(b'-')) {
            p += 1;
        }
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        is_float = true;
    } else {
        let ds = p;
        while p < b.len() && b[p].is_ascii_digit() {
            p += 1;
        }
        let mut nd = p - ds;
        let mut has_dot = false;
        if b.get(p) == Some(&b'.') {
            has_dot = true;
            p += 1;
            let fs = p;
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
            nd += p - fs;
        }
        if nd == 0 {
            return None;
        }
        let mut has_exp = false;
        if matches!(b.get(p), Some(b'e') | Some(b'E')) {
            // an exponent; digits may be missing (`1.5e` means exponent 0)
            let save = p;
            p += 1;
            if matches!(b.get(p), Some(b'+') | Some(b'-')) {
                p += 1;
            }
            let es = p;
            while p < b.len() && b[p].is_ascii_digit() {
                p += 1;
            }
            if p == es && p < b.len() && is_ident_char(b[p]) {
                p = save;
            } else {
                has_exp = true;
            }
        }
        is_float = has_dot || has_exp;
    }
    if !is_float {
        return None;
    }
    let body_end = p;
    let mut suffix = None;
    if let Some(&c) = b.get(p) {
        let lc = c.to_ascii_lowercase();
        if matches!(lc, b'l' | b'h' | b's') && !b.get(p + 1).is_some_and(|&n| is_ident_char(n)) {
            suffix = Some(lc);
            p += 1;
        }
    }
    if b.get(p).is_some_and(|&n| is_ident_char(n)) {
        return None;
    }
    Some((
        FloatLit {
            neg,
            body: &s[body_start..body_end],
            suffix,
        },
        p,
    ))
}

impl FloatLit<'_> {
    /// Decompose into (mantissa, sticky, binary exponent) for hex literals.
    fn hex_parts(&self) -> (u64, bool, i64) {
        let b = self.body.as_bytes();
        let mut p = 2;
        let mut mant: u64 = 0;
        let mut sticky = false;
        let mut exp: i64 = 0;
        let mut after_dot = false;
        while p < b.len() && b[p] != b'p' && b[p] != b'P' {
            if b[p] == b'.' {
                after_dot = true;
            } else {
                let d = (b[p] as char).to_digit(16).unwrap_or(0) as u64;
                if mant >> 58 == 0 {
                    mant = (mant << 4) | d;
                    if after_dot {
                        exp -= 4;
                    }
                } else {
                    sticky |= d != 0;
                    if !after_dot {
                        exp += 4;
                    }
                }
            }
            p += 1;
        }
        p += 1;
        let mut eneg = false;
        if p < b.len() && (b[p] == b'+' || b[p] == b'-') {
            eneg = b[p] == b'-';
            p += 1;
        }
        let mut e: i64 = 0;
        while p < b.len() {
            e = (e * 10 + (b[p] - b'0') as i64).min(1 << 40);
            p += 1;
        }
        (mant, sticky, exp + if eneg { -e } else { e })
    }
    fn is_hex(&self) -> bool {
        self.body.len() > 1 && matches!(self.body.as_bytes()[1], b'x' | b'X')
    }
    fn decimal_f64(&self) -> f64 {
        let t = self.body.trim_end_matches(['e', 'E', '+', '-']);
        t.parse::<f64>().unwrap_or(0.0)
    }
    /// IEEE double bits.
    pub fn to_f64_bits(&self) -> u64 {
        let bits = if self.is_hex() {
            let (m, s, e) = self.hex_parts();
            make_float(m, s, e, 52, 11)
        } else {
            self.decimal_f64().to_bits()
        };
        bits | ((self.neg as u64) << 63)
    }
    /// IEEE single bits.
    pub fn to_f32_bits(&self) -> u32 {
        let bits = if self.is_hex() {
            let (m, s, e) = self.hex_parts();
            make_float(m, s, e, 23, 8) as u32
        } else {
            let t = self.body.trim_end_matches(['e', 'E', '+', '-']);
            t.parse::<f32>().unwrap_or(0.0).to_bits()
        };
        bits | ((self.neg as u32) << 31)
    }
    /// IEEE half bits.
    pub fn to_f16_bits(&self) -> u16 {
        let bits = if self.is_hex() {
            let (m, s, e) = self.hex_parts();
            make_float(m, s, e, 10, 5) as u16
        } else {
            f64_to_f16_bits(self.decimal_f64())
        };
        bits | ((self.neg as u16) << 15)
    }
}

/// Round `mant * 2^exp` (plus a sticky bit below `mant`) to the nearest
/// (ties to even) value of a binary float format with `mbits` fraction bits
/// and `ebits` exponent bits; returns the (positive) bit pattern.
pub(crate) fn make_float(mant: u64, sticky: bool, exp: i64, mbits: u32, ebits: u32) -> u64 {
    if mant == 0 {
        return 0;
    }
    let bias = (1i64 << (ebits - 1)) - 1;
    let emax_field = (1u64 << ebits) - 1;
    // normalise: value = mant * 2^exp, mant has top bit at position `top`
    let top = 63 - mant.leading_zeros() as i64;
    // unbiased exponent of the leading one
    let e = exp + top;
    let mut field_e = e + bias;
    // number of bits to drop from mant to keep mbits after the leading one
    let mut shift = top - mbits as i64;
    if field_e <= 0 {
        // subnormal: the leading bit goes below the implicit position
        shift += 1 - field_e;
        field_e = 0;
    }
    let (mut m, rest_nonzero, half) = if shift <= 0 {
        let s = (-shift).min(63) as u32;
        (mant << s, false, false)
    } else if shift >= 64 {
        (0u64, true, false)
    } else {
        let s = shift as u32;
        let kept = mant >> s;
        let dropped = mant & ((1u64 << s) - 1);
        let halfway = 1u64 << (s - 1);
        (
            kept,
            dropped & (halfway - 1) != 0 || sticky,
            dropped & halfway != 0,
        )
    };
    let rest_nonzero = rest_nonzero || (shift <= 0 && sticky);
    if half && (rest_nonzero || (m & 1) == 1) {
        m += 1;
    }
    // m now holds (implicit one +) fraction; handle carries
    if field_e == 0 {
        if m >> mbits != 0 {
            field_e = 1;
        }
    } else if m >> (mbits + 1) != 0 {
        m >>= 1;
        field_e += 1;
    }
    if field_e as u64 >= emax_field {
        return emax_field << mbits; // infinity
    }
    ((field_e as u64) << mbits) | (m & ((1u64 << mbits) - 1))
}

/// Convert an `f64` to IEEE half bits, rounding to nearest even.
pub fn f64_to_f16_bits(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 63) as u16) << 15;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return sign | 0x7c00 | if frac != 0 { 0x200 } else { 0 };
    }
    if exp == 0 && frac == 0 {
        return sign;
    }
    let (mant, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    sign | make_float(mant, false, e, 10, 5) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn floats() {
        let f = |s: &str| parse_float_literal(s).map(|(f, _)| f.to_f64_bits());
        assert_eq!(f("10.2"), Some(10.2f64.to_bits()));
        assert_eq!(f(".45"), Some(0.45f64.to_bits()));
        assert_eq!(f("100e-6"), Some(100e-6f64.to_bits()));
        assert_eq!(f("-2.5"), Some((-2.5f64).to_bits()));
        assert_eq!(f("0x1.8p1"), Some(3.0f64.to_bits()));
        assert_eq!(
            f("0x1a2.4b5p5"),
            Some((0x1a24b5 as f64 / 4096.0 * 32.0).to_bits())
        );
        assert_eq!(f("5"), None);
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f64_to_f16_bits(5.960464477539063e-8), 1);
        assert_eq!(f64_to_f16_bits(-0.5), 0xb800);
        let (h, _) = parse_float_literal("0x1p-24").unwrap();
        assert_eq!(h.to_f16_bits(), 1);
        let (s, _) = parse_float_literal("0x1.fffffffffffffffp0").unwrap();
        assert_eq!(s.to_f32_bits(), 2.0f32.to_bits());
    }
    #[test]
    fn ints() {
        assert_eq!(parse_int_literal(b"0"), Ok((0, 1)));
        assert!(parse_int_literal(b"08").is_err());
        assert_eq!(parse_int_literal(b"0xDAB"), Ok((0xdab, 5)));
        assert_eq!(parse_char_literal(b"'\\x41'"), Ok((0x41, 6)));
        assert_eq!(parse_char_literal(b"'\\123'"), Ok((0o123, 6)));
        assert_eq!(parse_char_literal(b"'-'"), Ok((b'-' as u64, 3)));
    }
}

#[cfg(test)]
mod trim_tests {
    /// The fast trim agrees with `str::trim` (the reference) everywhere,
    /// including Unicode white space at the edges.
    #[test]
    fn trim_matches_str_trim() {
        let cases = [
            "",
            " ",
            "\t\x0b\x0c\r\n",
            "  v0, v1 ",
            "a",
            "\u{a0}v0\u{a0}",
            " \u{2003} x \u{3000}",
            "x\u{85}",
            "é ",
            " é",
            "\u{2003}",
            " \u{a0} ",
        ];
        for s in cases {
            assert_eq!(super::trim(s), s.trim(), "{s:?}");
        }
    }
}
