//! Operand lexing: registers, constants, expressions and source modifiers.
//!
//! An operand is read into an [`Opd`]: a register (as its operand code), an
//! integer, a float literal, a value pending on later symbols, or `off`,
//! together with the negate/absolute/sign-extend modifiers around it. What
//! the operand may be is checked later, by the encoder, against the
//! instruction's signature.

use crate::names::{gen_list, FastMap};
use risa_asm_core::lex::parse_float_literal;
use risa_asm_core::{Assembler, Cursor, Expr, ExprResult, FloatLit, Value};
use risa_gcn::operand::{sgpr_count, special_name, special_pair_name, ttmp_range};
use risa_gcn::{Gen, ALL_GENS};
use std::sync::OnceLock;

/// The registers a program uses: highest VGPR + 1, highest numbered SGPR + 1.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RegUse {
    /// VGPRs.
    pub vgprs: u32,
    /// SGPRs (s0..; special registers not counted).
    pub sgprs: u32,
}

impl RegUse {
    /// Records the register range at operand `code`.
    #[inline]
    pub fn note(&mut self, gen: Gen, code: u32, count: u32) {
        let end = code + count.max(1);
        if code >= 256 {
            self.vgprs = self.vgprs.max(end - 256);
        } else if code < sgpr_count(gen) {
            self.sgprs = self.sgprs.max(end);
        }
    }
}

/// An error that was already reported through the assembler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported;

/// The value of one operand.
#[derive(Debug, Clone)]
pub enum Val<'a> {
    /// A register range: first operand code (0..=127 scalar, 235..=254
    /// special sources, 256.. VGPRs) and number of registers (0: a special
    /// source that fits any width).
    Reg {
        /// Operand code of the first register.
        code: u32,
        /// Number of registers (0 = any).
        count: u32,
    },
    /// A known value (absolute, or section-relative for labels).
    Num(Value),
    /// A floating-point literal.
    Float(FloatLit<'a>),
    /// An expression that refers to symbols not defined yet.
    Pending(Expr),
    /// The word `off`.
    Off,
    /// A symbol with a relocation specifier (`sym@rel32@lo+4`): the value is
    /// filled in by the linker or loader.
    Reloc(Box<Reloc>),
}

/// A relocated operand: ELF relocation type, the symbol part, the addend.
#[derive(Debug, Clone)]
pub struct Reloc {
    /// `R_AMDGPU_*` type.
    pub kind: u32,
    /// The symbol's value (section-relative) if known now.
    pub value: Option<Value>,
    /// The symbol expression if it is defined later.
    pub pending: Option<Expr>,
    /// Constant added to the symbol.
    pub addend: i64,
}

/// `@rel32@lo` and friends: the AMDGPU relocation types (AMDGPUUsage).
fn reloc_kind(spec: &str) -> Option<u32> {
    Some(match spec {
        "abs32@lo" => 1,
        "abs32@hi" => 2,
        "abs64" => 3,
        "rel32" => 4,
        "rel64" => 5,
        "abs32" => 6,
        "gotpcrel" => 7,
        "gotpcrel32@lo" => 8,
        "gotpcrel32@hi" => 9,
        "rel32@lo" => 10,
        "rel32@hi" => 11,
        _ => return None,
    })
}

/// One parsed operand with its modifiers and source text.
#[derive(Debug, Clone)]
pub struct Opd<'a> {
    /// The value.
    pub v: Val<'a>,
    /// `-x` or `neg(x)`.
    pub neg: bool,
    /// `|x|` or `abs(x)`.
    pub abs: bool,
    /// `sext(x)`.
    pub sext: bool,
    /// `lit(x)`: encode the constant as a literal even if it is an inline constant.
    pub lit: bool,
    /// The operand's text (for diagnostics).
    pub at: &'a str,
}

impl<'a> Opd<'a> {
    /// A register range with no modifiers, written as `at`.
    #[inline(always)]
    pub(crate) fn register(code: u32, count: u32, at: &'a str) -> Self {
        Opd {
            v: Val::Reg { code, count },
            neg: false,
            abs: false,
            sext: false,
            lit: false,
            at,
        }
    }

    /// The VGPR number if the operand is a VGPR range of `count` registers.
    pub fn vgpr(&self) -> Option<(u32, u32)> {
        match self.v {
            Val::Reg { code, count } if code >= 256 => Some((code - 256, count)),
            _ => None,
        }
    }
    /// True when the operand is exactly VCC (the pair).
    pub fn is_vcc(&self) -> bool {
        matches!(
            self.v,
            Val::Reg {
                code: 106,
                count: 2
            }
        ) && !self.neg
            && !self.abs
            && !self.sext
    }
}

/// Named special registers: name → (code, count) per generation.
fn specials() -> &'static FastMap<String, [(u32, u32); 4]> {
    static T: OnceLock<FastMap<String, [(u32, u32); 4]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut m: FastMap<String, [(u32, u32); 4]> = FastMap::default();
        let mut add = |name: &str, g: Gen, code: u32, count: u32| {
            let e = m.entry(name.to_string()).or_insert([(u32::MAX, 0); 4]);
            if e[g as usize].0 == u32::MAX {
                e[g as usize] = (code, count);
            }
        };
        for g in ALL_GENS {
            for code in 0..=255u32 {
                if let Some(n) = special_name(g, code) {
                    let any = code >= 235;
                    let count = if any { 0 } else { 1 };
                    add(n, g, code, count);
                    if let Some(s) = n.strip_prefix("src_") {
                        add(s, g, code, count);
                    }
                    if code == 254 {
                        // CLRX: `lds` for LDS_DIRECT.
                        add("lds", g, code, count);
                    }
                }
                if code < 128 && code % 2 == 0 {
                    if let Some(n) = special_pair_name(g, code) {
                        add(n, g, code, 2);
                    }
                }
            }
        }
        m
    })
}

/// Encodes a register range as a register-symbol payload.
pub fn reg_payload(code: u32, count: u32) -> u64 {
    u64::from(code) | u64::from(count) << 16
}

/// Parses a register name at the cursor (`s5`, `v[2:3]`, `ttmp[4:7]`, `vcc`,
/// `exec_lo`, `src_scc`, a register symbol). `Ok(None)`: not a register (the
/// cursor is left where it was).
///
/// `align`: check that scalar ranges are aligned (LLVM syntax; CLRX checks
/// alignment only where a scalar instruction reads the range).
pub fn register<'a>(
    asm: &mut Assembler,
    gen: Gen,
    c: &mut Cursor<'a>,
    align: bool,
) -> Result<Option<(u32, u32)>, Reported> {
    let save = *c;
    let Some(id) = c.ident() else {
        return Ok(None);
    };
    let b = id.as_bytes();
    let lower0 = b[0].to_ascii_lowercase();
    // s<N>, v<N>, ttmp<N> and the bracketed ranges.
    let (kind, digits) = match lower0 {
        b's' => (b's', &id[1..]),
        b'v' => (b'v', &id[1..]),
        b't' if id.len() >= 4 && id[..4].eq_ignore_ascii_case("ttmp") => (b't', &id[4..]),
        _ => (0, ""),
    };
    if kind != 0 {
        if !digits.is_empty() && digits.bytes().all(|d| d.is_ascii_digit()) {
            let n: u32 = digits.parse().unwrap_or(u32::MAX);
            return reg_range(asm, gen, id, kind, n, 1, align).map(Some);
        }
        if digits.is_empty() && c.peek() == Some(b'[') {
            c.bump();
            let Some(first) = known_uint(asm, c, b":]") else {
                return Err(Reported);
            };
            let last = if c.eat(b':') {
                let Some(l) = known_uint(asm, c, b"]") else {
                    return Err(Reported);
                };
                l
            } else {
                first
            };
            if !c.eat(b']') {
                asm.error(c.rest(), "expected ']' to close the register range");
                return Err(Reported);
            }
            let at = c.slice(save.pos(), c.pos());
            let at = at.trim_start();
            if last < first || last - first >= 32 || first > 1024 {
                asm.error(at, format!("invalid register range [{first}:{last}]"));
                return Err(Reported);
            }
            return reg_range(
                asm,
                gen,
                at,
                kind,
                first as u32,
                (last - first + 1) as u32,
                align,
            )
            .map(Some);
        }
    }
    let mut buf = [0u8; 32];
    if id.len() <= buf.len() {
        let lb = &mut buf[..id.len()];
        lb.copy_from_slice(b);
        lb.make_ascii_lowercase();
        let lname = std::str::from_utf8(lb).unwrap_or("");
        if let Some(e) = specials().get(lname) {
            let (code, count) = e[gen as usize];
            if code != u32::MAX {
                if count >= 1 && c.peek() == Some(b'[') {
                    // CLRX: `vcc[0:1]`, `exec[1]`: registers of a named range.
                    return subscript(asm, c, save, code, count).map(Some);
                }
                return Ok(Some((code, count)));
            }
            let gens: Vec<Gen> = ALL_GENS
                .into_iter()
                .filter(|g| e[*g as usize].0 != u32::MAX)
                .collect();
            asm.error(
                id,
                format!("register '{id}' exists only on {}", gen_list(&gens)),
            );
            return Err(Reported);
        }
        if let Some(n) = lname.strip_prefix("src_reserved_") {
            if let Ok(code) = n.parse::<u32>() {
                if code < 256 {
                    return Ok(Some((code, 0)));
                }
            }
        }
    }
    if let Some(p) = asm.register_symbol(id) {
        let (code, count) = ((p & 0xffff) as u32, (p >> 16 & 0xffff) as u32);
        if c.peek() != Some(b'[') {
            return Ok(Some((code, count)));
        }
        // (CLRX does not bound the index by the symbol's range.)
        let _ = count;
        return subscript(asm, c, save, code, 0).map(Some);
    }
    *c = save;
    Ok(None)
}

/// `[i]` or `[i:j]` after a register symbol or a named range (at the cursor):
/// registers i..=j of the range at `code` (of `count` registers, 0: not
/// checked).
fn subscript(
    asm: &mut Assembler,
    c: &mut Cursor<'_>,
    save: Cursor<'_>,
    code: u32,
    count: u32,
) -> Result<(u32, u32), Reported> {
    c.bump();
    let first = known_uint(asm, c, b":]").ok_or(Reported)?;
    c.skip_ws();
    let last = if c.eat(b':') {
        known_uint(asm, c, b"]").ok_or(Reported)?
    } else {
        first
    };
    c.skip_ws();
    if !c.eat(b']') {
        asm.error(c.rest(), "expected ']' after the register index");
        return Err(Reported);
    }
    if last < first || last - first >= 32 || code as u64 + last > 511 {
        asm.error(c.slice(save.pos(), c.pos()), "invalid register index");
        return Err(Reported);
    }
    if count > 0 && last >= u64::from(count) {
        asm.error(
            c.slice(save.pos(), c.pos()),
            format!("register index {last} beyond the range's {count} registers"),
        );
        return Err(Reported);
    }
    Ok((code + first as u32, (last - first + 1) as u32))
}

/// Checks a numbered register range and turns it into an operand code.
// (Inline: every `v[N:M]`/`s[N:M]` operand passes here with seven arguments.)
#[inline]
fn reg_range(
    asm: &mut Assembler,
    gen: Gen,
    at: &str,
    kind: u8,
    first: u32,
    count: u32,
    align: bool,
) -> Result<(u32, u32), Reported> {
    let last = first.saturating_add(count - 1);
    match kind {
        b'v' => {
            if last > 255 {
                asm.error(at, "VGPR number out of range (v0..v255)");
                return Err(Reported);
            }
            Ok((256 + first, count))
        }
        b's' => {
            let n = sgpr_count(gen);
            if last >= n {
                asm.error(
                    at,
                    format!("SGPR number out of range (s0..s{} on {gen})", n - 1),
                );
                return Err(Reported);
            }
            if align {
                check_align(asm, at, first, count)?;
            }
            Ok((first, count))
        }
        _ => {
            let (t0, tn) = ttmp_range(gen);
            if last >= tn {
                asm.error(
                    at,
                    format!("TTMP number out of range (ttmp0..ttmp{} on {gen})", tn - 1),
                );
                return Err(Reported);
            }
            if align {
                check_align(asm, at, first, count)?;
            }
            Ok((t0 + first, count))
        }
    }
}

/// Scalar register ranges should be aligned: pairs to 2, larger ranges to
/// 4. A misaligned range in an operand field that holds any register code
/// is encodable (and occurs in machine code: a disassembly must assemble
/// back), so it is a warning; fields that hold the register number divided
/// by 2 or 4 (SBASE, SRSRC, SSAMP) reject it where they are encoded.
fn check_align(asm: &mut Assembler, at: &str, first: u32, count: u32) -> Result<(), Reported> {
    // (A power of two: a mask test, not a division.)
    let a = match count {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    };
    if first & (a - 1) != 0 {
        asm.warning(
            at,
            format!("misaligned scalar register range: should start at a multiple of {a}"),
        );
    }
    Ok(())
}

/// Skips white space and consumes `word(` (case-insensitive) if it is next.
fn eat_call(c: &mut Cursor<'_>, word: &str) -> bool {
    c.skip_ws();
    let r = c.rest_bytes();
    let n = word.len();
    if r.len() <= n || !r[..n].eq_ignore_ascii_case(word.as_bytes()) {
        return false;
    }
    // (CLRX allows spaces before the parenthesis: `abs (v1)`.)
    let mut i = n;
    while r.get(i).is_some_and(|&x| risa_asm_core::lex::is_space(x)) {
        i += 1;
    }
    if r.get(i) == Some(&b'(') {
        c.set_pos(c.pos() + i + 1);
        true
    } else {
        false
    }
}

/// Reads one operand at the cursor. Reports an error and returns `None` if
/// it cannot be read.
pub fn operand<'a>(
    asm: &mut Assembler,
    gen: Gen,
    c: &mut Cursor<'a>,
    used: &mut RegUse,
    align: bool,
) -> Option<Opd<'a>> {
    let mut o = None;
    operand_into(asm, gen, c, used, &mut o, align);
    o
}

/// [`operand`] writing into `out` (where the caller keeps it: built in
/// place, not copied). False if it could not be read (reported).
#[inline]
pub fn operand_into<'a>(
    asm: &mut Assembler,
    gen: Gen,
    c: &mut Cursor<'a>,
    used: &mut RegUse,
    out: &mut Option<Opd<'a>>,
    align: bool,
) -> bool {
    c.skip_ws();
    let start = c.pos();
    if let Some((code, count, n)) = fast_reg(c.rest_bytes(), gen) {
        used.note(gen, code, count);
        // (`at` first: the value is then built in place, not copied from a
        // temporary just written, which stalls store forwarding.)
        let at = c.take(n);
        *out = Some(Opd::register(code, count, at));
        return true;
    }
    if let Some((kind, first, last, n)) = fast_range(c.rest_bytes()) {
        // (On an error the statement is dropped: where the cursor is then
        // does not matter.)
        let at = c.take(n);
        let Ok((code, count)) = reg_range(asm, gen, at, kind, first, last - first + 1, align)
        else {
            return false;
        };
        used.note(gen, code, count);
        *out = Some(Opd::register(code, count, at));
        return true;
    }
    let (mut neg, mut abs, mut sext, mut lit) = (false, false, false, false);
    let mut closers: [u8; 4] = [0; 4];
    let mut nclose = 0;
    // Only look for modifiers when the text can start one.
    let may_modify = {
        let b = c.rest_bytes();
        match b.first() {
            Some(b'|' | b'-') => true,
            Some(_) => {
                let w = b.iter().take(12).position(|&x| x == b'(');
                matches!(w, Some(3..=11)) && b[..3].iter().all(|x| x.is_ascii_alphabetic())
            }
            None => false,
        }
    };
    loop {
        if !may_modify || nclose == closers.len() {
            break;
        }
        // The first letter picks the only call name that can match.
        c.skip_ws();
        let call = match c.peek().map(|b| b.to_ascii_lowercase()) {
            Some(b'n') => Some(("neg", &mut neg)),
            Some(b'a') => Some(("abs", &mut abs)),
            Some(b's') => Some(("sext", &mut sext)),
            Some(b'l') => Some(("lit", &mut lit)),
            _ => None,
        };
        if let Some((_, flag)) = call.filter(|(word, _)| eat_call(c, word)) {
            *flag = true;
        } else if c.peek() == Some(b'|') {
            c.bump();
            abs = true;
            closers[nclose] = b'|';
            nclose += 1;
            continue;
        } else if c.peek() == Some(b'-') && !neg && negates_register(asm, gen, c) {
            c.bump();
            neg = true;
            continue;
        } else {
            break;
        }
        closers[nclose] = b')';
        nclose += 1;
    }
    c.skip_ws();
    let vstart = c.pos();
    // `@expr`: an expression even if it reads like a register.
    let forced_expr = c.peek() == Some(b'@');
    if forced_expr {
        c.bump();
    }
    let v = if forced_expr {
        match asm.expr(c) {
            ExprResult::Value(v) => Val::Num(v),
            ExprResult::Pending(e) => Val::Pending(e),
            ExprResult::Error => return false,
        }
    } else if c
        .rest_bytes()
        .get(..3)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"off"))
        && !c.peek_at(3).is_some_and(risa_asm_core::lex::is_ident_char)
    {
        c.set_pos(c.pos() + 3);
        Val::Off
    } else if let Some((code, count, n)) = fast_reg(c.rest_bytes(), gen) {
        // (Inside `abs(..)`, `|..|`, `-..`: the common registers again
        // without the general path.)
        used.note(gen, code, count);
        c.set_pos(c.pos() + n);
        Val::Reg { code, count }
    } else {
        match fast_int(c) {
            Some(v) => Val::Num(Value::abs(v)),
            None => match register(asm, gen, c, align) {
                Err(Reported) => return false,
                Ok(Some((code, count))) => {
                    used.note(gen, code, count);
                    Val::Reg { code, count }
                }
                Ok(None) => match float_at(c) {
                    Some(f) => Val::Float(f),
                    None => {
                        let v = match asm.expr(c) {
                            ExprResult::Value(v) => Val::Num(v),
                            ExprResult::Pending(e) => Val::Pending(e),
                            ExprResult::Error => return false,
                        };
                        if c.peek() == Some(b'@') {
                            match reloc_suffix(asm, c, v) {
                                Some(r) => r,
                                None => return false,
                            }
                        } else {
                            v
                        }
                    }
                },
            },
        }
    };
    if c.pos() == vstart {
        asm.error(c.rest(), "expected an operand");
        return false;
    }
    while nclose > 0 {
        nclose -= 1;
        if !c.eat(closers[nclose]) {
            asm.error(
                c.rest(),
                format!("expected '{}' after the operand", closers[nclose] as char),
            );
            return false;
        }
    }
    let at = c.slice(start, c.pos());
    *out = Some(Opd {
        v,
        neg,
        abs,
        sext,
        lit,
        at,
    });
    true
}

/// `@rel32@lo+4` after a symbol: the relocation type and an optional addend.
fn reloc_suffix<'a>(asm: &mut Assembler, c: &mut Cursor<'a>, sym: Val<'a>) -> Option<Val<'a>> {
    let start = c.pos();
    let mut spec = String::new();
    while c.peek() == Some(b'@') {
        c.bump();
        let w = c.ident().unwrap_or("");
        if !spec.is_empty() {
            spec.push('@');
        }
        spec.push_str(&w.to_ascii_lowercase());
    }
    let Some(kind) = reloc_kind(&spec) else {
        asm.error(
            c.slice(start, c.pos()),
            format!("unknown relocation specifier '@{spec}'"),
        );
        return None;
    };
    c.skip_ws();
    let addend = match c.peek() {
        Some(b'+') | Some(b'-') => {
            let v = asm.abs_expr(c)?;
            v as i64
        }
        _ => 0,
    };
    let (value, pending) = match sym {
        Val::Num(v) => (Some(v), None),
        Val::Pending(e) => (None, Some(e)),
        _ => {
            asm.error(c.slice(start, c.pos()), "a relocation needs a symbol");
            return None;
        }
    };
    Some(Val::Reloc(Box::new(Reloc {
        kind,
        value,
        pending,
        addend,
    })))
}

/// Whether `x` may follow a register that [`fast_reg`] reads: what ends
/// the operand (`,`, white space, the end) or a modifier around it (`)`,
/// `|`). Anything else leaves the text to the general path.
#[inline(always)]
fn ends_fast_reg(x: Option<&u8>) -> bool {
    match x {
        None | Some(b',' | b')' | b'|') => true,
        Some(&x) => risa_asm_core::lex::is_space(x),
    }
}

/// Operand code of `vcc` (the pair) in every generation.
const VCC: u32 = 106;

/// A single `vN` or `sN` (decimal, no range) or `vcc` that ends at a
/// delimiter: (operand code, count, length). The common cases, read without
/// the general path (which reads them the same way: numbered registers and
/// the named ones before register symbols).
#[inline(always)]
fn fast_reg(b: &[u8], gen: Gen) -> Option<(u32, u32, usize)> {
    let kind = *b.first()?;
    if kind != b'v' && kind != b's' {
        return None;
    }
    if b.get(1..3) == Some(b"cc") {
        return (kind == b'v' && ends_fast_reg(b.get(3))).then_some((VCC, 2, 3));
    }
    let mut n = 0u32;
    let mut i = 1;
    while i < b.len() && i <= 4 && b[i].is_ascii_digit() {
        n = n * 10 + u32::from(b[i] - b'0');
        i += 1;
    }
    if i == 1 || i > 4 || (i > 2 && b[1] == b'0') || !ends_fast_reg(b.get(i)) {
        return None;
    }
    match kind {
        b'v' if n < 256 => Some((256 + n, 1, i)),
        b's' if n < sgpr_count(gen) => Some((n, 1, i)),
        _ => None,
    }
}

/// A bracketed `v[N:M]` or `s[N:M]` (decimal, no spaces) that ends at a
/// delimiter and is a plausible range: (kind, first, last, length). The
/// common form, read without the general path (which handles everything
/// else, and reports a bad range the same way through `reg_range`).
#[inline]
fn fast_range(b: &[u8]) -> Option<(u8, u32, u32, usize)> {
    let kind = *b.first()?;
    if (kind != b'v' && kind != b's') || b.get(1) != Some(&b'[') {
        return None;
    }
    let (first, i) = fast_dec(b, 2)?;
    if b.get(i) != Some(&b':') {
        return None;
    }
    let (last, j) = fast_dec(b, i + 1)?;
    if b.get(j) != Some(&b']') {
        return None;
    }
    let n = j + 1;
    match b.get(n) {
        None | Some(b',') => {}
        Some(&x) if risa_asm_core::lex::is_space(x) => {}
        _ => return None,
    }
    if last < first || last - first >= 32 || first > 1024 {
        return None;
    }
    Some((kind, first, last, n))
}

/// One to four decimal digits at `b[at..]` (no leading zero, which would
/// read as octal): (value, end).
// (Always inline: twice per `v[N:M]`, where a call was a third of its cost.)
#[inline(always)]
fn fast_dec(b: &[u8], at: usize) -> Option<(u32, usize)> {
    let mut v = 0u32;
    let mut i = at;
    while i < b.len() && i - at < 4 && b[i].is_ascii_digit() {
        v = v * 10 + u32::from(b[i] - b'0');
        i += 1;
    }
    let n = i - at;
    if n == 0 || (n > 1 && b[at] == b'0') || b.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((v, i))
}

/// A plain unsigned literal at the start of `b`: decimal (no leading zero,
/// which would be octal) or `0x` hex, that fits in 64 bits: (value, length).
#[inline]
pub fn fast_uint(b: &[u8]) -> Option<(u64, usize)> {
    match b {
        [b'0', b'x' | b'X', rest @ ..] => {
            let mut v = 0u64;
            let mut n = 0;
            while n < rest.len() && n < 16 {
                let d = match rest[n] {
                    x @ b'0'..=b'9' => x - b'0',
                    x @ b'a'..=b'f' => x - b'a' + 10,
                    x @ b'A'..=b'F' => x - b'A' + 10,
                    _ => break,
                };
                v = v << 4 | u64::from(d);
                n += 1;
            }
            if n == 0 || rest.get(n).is_some_and(u8::is_ascii_hexdigit) {
                return None;
            }
            Some((v, n + 2))
        }
        [b'0', x, ..] if x.is_ascii_alphanumeric() => None,
        [d, ..] if d.is_ascii_digit() => {
            let mut v = 0u64;
            let mut n = 0;
            while n < b.len() && n < 19 && b[n].is_ascii_digit() {
                v = v * 10 + u64::from(b[n] - b'0');
                n += 1;
            }
            if b.get(n).is_some_and(u8::is_ascii_digit) {
                return None;
            }
            Some((v, n))
        }
        _ => None,
    }
}

/// A known absolute value: a plain unsigned literal followed by one of
/// `ends` (read directly), or else any expression.
#[inline]
pub fn known_uint(asm: &mut Assembler, c: &mut Cursor<'_>, ends: &[u8]) -> Option<u64> {
    c.skip_ws();
    let b = c.rest_bytes();
    if let Some((v, n)) = fast_uint(b) {
        if ends_uint(b, n, ends) {
            c.set_pos(c.pos() + n);
            return Some(v);
        }
    }
    asm.abs_expr(c)
}

/// Whether the plain literal [`fast_uint`] read as the first `n` bytes of
/// `b` is the whole value: the end, or one of `ends` next (a space in
/// `ends` stands for any white space).
#[inline]
pub fn ends_uint(b: &[u8], n: usize, ends: &[u8]) -> bool {
    match b.get(n).copied() {
        None => true,
        Some(x) => ends.contains(&x) || risa_asm_core::lex::is_space(x) && ends.contains(&b' '),
    }
}

/// A plain integer literal (`12`, `-16`, `0x1f`) that is the whole operand
/// value (followed by `,`, `)`, `|`, a modifier or the end), read without
/// the expression parser. `None` (cursor unchanged) otherwise.
#[inline]
fn fast_int(c: &mut Cursor<'_>) -> Option<u64> {
    let b = c.rest_bytes();
    let (neg, p) = match b.first()? {
        b'-' => (true, 1),
        d if d.is_ascii_digit() => (false, 0),
        _ => return None,
    };
    if !b.get(p)?.is_ascii_digit() {
        return None;
    }
    let (v, n) = fast_uint(&b[p..])?;
    let mut e = p + n;
    // The literal must end here: not `1.5`, `1e3`, `2f`, `1+2`.
    match b.get(e) {
        None | Some(b',') | Some(b')') | Some(b'|') => {}
        Some(&x) if risa_asm_core::lex::is_space(x) => {
            while b.get(e).is_some_and(|&x| risa_asm_core::lex::is_space(x)) {
                e += 1;
            }
            match b.get(e) {
                None | Some(b',') | Some(b')') | Some(b'|') => {}
                Some(&x) if x.is_ascii_alphabetic() => {}
                _ => return None,
            }
        }
        _ => return None,
    }
    c.set_pos(c.pos() + p + n);
    Some(if neg { v.wrapping_neg() } else { v })
}

/// A float literal at the cursor (consumed), if there is one.
fn float_at<'a>(c: &mut Cursor<'a>) -> Option<FloatLit<'a>> {
    let r = c.rest();
    let b = r.as_bytes();
    // Fast reject: float literals start with a digit, '.', '-' or '+'.
    match b.first() {
        Some(d) if d.is_ascii_digit() || *d == b'.' || *d == b'-' || *d == b'+' => {}
        _ => return None,
    }
    let (f, n) = parse_float_literal(r)?;
    // `1.0` followed by more expression text is not a plain literal.
    c.set_pos(c.pos() + n);
    Some(f)
}

/// Whether the `-` at the cursor negates a register (`-v1`, `-|v1|`, `-abs(..)`)
/// rather than starting a negative number.
fn negates_register(asm: &mut Assembler, gen: Gen, c: &Cursor<'_>) -> bool {
    let mut t = *c;
    t.bump();
    t.skip_ws();
    match t.peek() {
        Some(b'|') => true,
        Some(ch) if risa_asm_core::lex::is_ident_start(ch) => {
            if fast_reg(t.rest_bytes(), gen).is_some() {
                return true;
            }
            let r = t.rest();
            if r.len() > 4
                && (r.as_bytes()[..4].eq_ignore_ascii_case(b"abs(")
                    || r.as_bytes()[..4].eq_ignore_ascii_case(b"neg("))
            {
                return true;
            }
            // A register name (no diagnostics: this is only a look-ahead).
            let Some(id) = t.ident() else { return false };
            looks_like_register(asm, id, t.peek())
        }
        _ => false,
    }
}

/// Number of comma-separated operands in `args` (modifiers after the last
/// operand are part of it; brackets and parentheses protect their commas).
pub fn count_operands(args: &str) -> usize {
    count_operands_upto(args, usize::MAX)
}

/// [`count_operands`], but at most `limit`: the scan stops there (callers
/// that ask whether an optional operand is present need not read the
/// modifiers after the operands).
pub fn count_operands_upto(args: &str, limit: usize) -> usize {
    if args.trim().is_empty() {
        return 0;
    }
    let mut depth = 0i32;
    let mut n = 1;
    for &b in args.as_bytes() {
        if n >= limit {
            break;
        }
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth <= 0 => n += 1,
            _ => {}
        }
    }
    n.min(limit)
}

/// Whether identifier `id` (followed by byte `next`) names a register, without reporting anything.
fn looks_like_register(asm: &mut Assembler, id: &str, next: Option<u8>) -> bool {
    let mut buf = [0u8; 32];
    if id.len() > buf.len() {
        return asm.register_symbol(id).is_some();
    }
    let lb = &mut buf[..id.len()];
    lb.copy_from_slice(id.as_bytes());
    lb.make_ascii_lowercase();
    let l = std::str::from_utf8(lb).unwrap_or("");
    let digits = if let Some(d) = l.strip_prefix("ttmp") {
        Some(d)
    } else {
        l.strip_prefix('s').or_else(|| l.strip_prefix('v'))
    };
    if let Some(d) = digits {
        if (d.is_empty() && next == Some(b'['))
            || (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        {
            return true;
        }
    }
    specials().contains_key(l)
        || l.starts_with("src_reserved_")
        || asm.register_symbol(id).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fast_reg` reads `vcc` without the table: the table must agree.
    #[test]
    fn vcc_is_the_same_pair_everywhere() {
        let e = specials().get("vcc").copied();
        assert_eq!(e, Some([(VCC, 2); 4]));
        for g in ALL_GENS {
            assert_eq!(fast_reg(b"vcc, v1", g), Some((VCC, 2, 3)));
            assert_eq!(fast_reg(b"vcc)", g), Some((VCC, 2, 3)));
            assert_eq!(fast_reg(b"vcc_lo", g), None);
            assert_eq!(fast_reg(b"scc", g), None);
            assert_eq!(fast_reg(b"v7|", g), Some((263, 1, 2)));
        }
    }
}
