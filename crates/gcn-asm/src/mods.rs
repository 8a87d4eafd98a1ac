//! Instruction modifiers after the operands: `offset:16 glc`, `dmask:0xf`,
//! `dst_sel:WORD_1`, `quad_perm:[0,1,2,3]`, `op_sel:[0,1]`, `mul:2`, `vop3`...
//!
//! Both dialects' spellings are accepted (`dst_sel:WORD_1` / `dst_sel:word1`,
//! `bound_ctrl:0` / `bound_ctrl`, `format:[BUF_DATA_FORMAT_32]` / `format:[4,0]`).

use crate::nameset::NameSet;
use risa_asm_core::{Assembler, Cursor};
use risa_gcn::operand::{DFMT_NAMES, NFMT_NAMES};

/// Modifier kinds; the discriminant is a bit in [`Mods::seen`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum M {
    Offset,
    Offset0,
    Offset1,
    Glc,
    Slc,
    Gds,
    Tfe,
    Lds,
    Nv,
    Idxen,
    Offen,
    Addr64,
    Format,
    Dmask,
    Unorm,
    Da,
    R128,
    Lwe,
    D16,
    Done,
    Compr,
    Vm,
    Clamp,
    Omod,
    Vop3,
    /// `high`: VOP3-encoded 16-bit interpolation reads the attribute's high half.
    High,
    OpSel,
    OpSelHi,
    NegLo,
    NegHi,
    DstSel,
    DstUnused,
    Src0Sel,
    Src1Sel,
    DppCtrl,
    RowMask,
    BankMask,
    BoundCtrl,
    /// CLRX's `sdwa`: the SDWA encoding with every select at its default.
    Sdwa,
    /// CLRX `neg:N` / `neg:[..]`: a bit per source operand.
    Neg,
    /// CLRX `abs:N` / `abs:[..]`.
    Abs,
    /// CLRX `sext:N` / `sext:[..]`.
    Sext,
}

/// A modifier's name, as [`NAMES`] tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name {
    /// A flag (`glc`, or CLRX's `glc:1`).
    Flag(M),
    DstSel,
    Src0Sel,
    Src1Sel,
    DstUnused,
    Mul,
    Div,
    BoundCtrl,
    Offset,
    InstOffset,
    Offset0,
    Offset1,
    Dmask,
    RowMask,
    BankMask,
    DppCtrl,
    RowShl,
    RowShr,
    RowRor,
    WaveShl,
    WaveRol,
    WaveShr,
    WaveRor,
    RowBcast,
    Dfmt,
    Nfmt,
    RowBcast15,
    RowBcast31,
    Neg,
    Abs,
    Sext,
    Omod,
    RowMirror,
    RowHalfMirror,
    QuadPerm,
    OpSel,
    OpSelHi,
    NegLo,
    NegHi,
    Format,
    /// Not a modifier.
    Other,
}

/// The modifier names (matched without regard to case).
static NAMES: NameSet<Name, 128> = NameSet::new(
    &[
        ("vop3", Name::Flag(M::Vop3)),
        ("gds", Name::Flag(M::Gds)),
        ("glc", Name::Flag(M::Glc)),
        ("clamp", Name::Flag(M::Clamp)),
        ("slc", Name::Flag(M::Slc)),
        ("unorm", Name::Flag(M::Unorm)),
        ("lwe", Name::Flag(M::Lwe)),
        ("da", Name::Flag(M::Da)),
        ("idxen", Name::Flag(M::Idxen)),
        ("offen", Name::Flag(M::Offen)),
        ("tfe", Name::Flag(M::Tfe)),
        ("lds", Name::Flag(M::Lds)),
        ("nv", Name::Flag(M::Nv)),
        ("addr64", Name::Flag(M::Addr64)),
        ("r128", Name::Flag(M::R128)),
        ("a16", Name::Flag(M::R128)),
        ("d16", Name::Flag(M::D16)),
        ("done", Name::Flag(M::Done)),
        ("compr", Name::Flag(M::Compr)),
        ("vm", Name::Flag(M::Vm)),
        ("high", Name::Flag(M::High)),
        ("sdwa", Name::Flag(M::Sdwa)),
        ("dst_sel", Name::DstSel),
        ("src0_sel", Name::Src0Sel),
        ("src1_sel", Name::Src1Sel),
        ("dst_unused", Name::DstUnused),
        ("mul", Name::Mul),
        ("div", Name::Div),
        ("bound_ctrl", Name::BoundCtrl),
        ("offset", Name::Offset),
        ("inst_offset", Name::InstOffset),
        ("offset0", Name::Offset0),
        ("offset1", Name::Offset1),
        ("dmask", Name::Dmask),
        ("row_mask", Name::RowMask),
        ("bank_mask", Name::BankMask),
        ("dpp_ctrl", Name::DppCtrl),
        ("row_shl", Name::RowShl),
        ("row_shr", Name::RowShr),
        ("row_ror", Name::RowRor),
        ("wave_shl", Name::WaveShl),
        ("wave_rol", Name::WaveRol),
        ("wave_shr", Name::WaveShr),
        ("wave_ror", Name::WaveRor),
        ("row_bcast", Name::RowBcast),
        ("dfmt", Name::Dfmt),
        ("nfmt", Name::Nfmt),
        ("row_bcast15", Name::RowBcast15),
        ("row_bcast31", Name::RowBcast31),
        ("neg", Name::Neg),
        ("abs", Name::Abs),
        ("sext", Name::Sext),
        ("omod", Name::Omod),
        ("row_mirror", Name::RowMirror),
        ("row_half_mirror", Name::RowHalfMirror),
        ("quad_perm", Name::QuadPerm),
        ("op_sel", Name::OpSel),
        ("op_sel_hi", Name::OpSelHi),
        ("neg_lo", Name::NegLo),
        ("neg_hi", Name::NegHi),
        ("format", Name::Format),
    ],
    Name::Other,
);

/// A value list `[a,b,...]` of 0/1 elements or (CLRX) a number: the bits,
/// with the element count in bits 8.. (0xff: a number, any count).
fn bits_value(asm: &mut Assembler, c: &mut Cursor<'_>, name: &str, clrx: bool) -> Option<u32> {
    c.skip_ws();
    if c.peek() != Some(b'[') {
        let at = c.rest();
        let v = number(asm, c)?;
        if v > 0xff {
            let lname = name.to_ascii_lowercase();
            asm.error(at, format!("{lname} value {v:#x} out of range"));
            return None;
        }
        return Some(v as u32 | 0xff << 8);
    }
    let mut l = [0; 4];
    let at = c.rest();
    let n = list(asm, c, &mut l)?;
    if clrx && l.iter().any(|&x| x > 1) {
        // clrxasm keeps the low bit of each element, with a warning.
        asm.warning(at, "list elements truncated to their low bit");
        l.iter_mut().for_each(|x| *x &= 1);
    }
    if l.iter().any(|&x| x > 1) {
        asm.error(at, "list elements must be 0 or 1");
        return None;
    }
    let mut v = 0;
    for (i, b) in l[..n].iter().enumerate() {
        v |= b << i;
    }
    Some(v | (n as u32) << 8)
}

/// Bit of a modifier kind in masks.
pub const fn bit(m: M) -> u64 {
    1 << m as u32
}

/// Modifiers that select the SDWA encoding.
pub const SDWA: u64 =
    bit(M::DstSel) | bit(M::DstUnused) | bit(M::Src0Sel) | bit(M::Src1Sel) | bit(M::Sdwa);
/// Modifiers that select the DPP encoding.
pub const DPP: u64 = bit(M::DppCtrl) | bit(M::RowMask) | bit(M::BankMask) | bit(M::BoundCtrl);

/// At most this many modifiers per instruction (a repeated one counts once).
const MAX_MODS: usize = 12;

/// One modifier as given. All fields are plain integers without padding, so
/// the empty list of [`Mods::new`] is a single block fill (made for every
/// statement).
#[derive(Clone, Copy)]
struct Ent {
    kind: u32,
    value: u32,
    /// The span of its text.
    start: u16,
    end: u16,
}

impl Ent {
    const EMPTY: Ent = Ent {
        kind: 0,
        value: 0,
        start: 0,
        end: 0,
    };
}

/// The modifiers of one instruction (a small inline list: most statements
/// have none or a few).
pub struct Mods<'a> {
    /// Bit set of the kinds present.
    pub seen: u64,
    /// In order of appearance.
    ent: [Ent; MAX_MODS],
    n: usize,
    /// The text the spans refer to.
    text: &'a str,
    /// A signed offset (FLAT on GCN 1.4).
    pub offset_i: i64,
    /// CLRX dialect (`format:[32]` names a data format).
    pub clrx: bool,
    /// Kinds given at all (also `glc:0`), for the validity check.
    pub given: u64,
    /// The offset was spelled `inst_offset:` (FLAT only).
    pub inst_offset: bool,
    /// An offset that refers to a later symbol (filled in by a fixup).
    pub pending: Option<(M, risa_asm_core::Expr)>,
}

impl<'a> Mods<'a> {
    /// No modifiers yet; spans refer to `text`.
    #[inline]
    pub fn new(text: &'a str) -> Self {
        Mods {
            seen: 0,
            ent: [Ent::EMPTY; MAX_MODS],
            n: 0,
            text,
            offset_i: 0,
            clrx: false,
            given: 0,
            inst_offset: false,
            pending: None,
        }
    }
    fn find(&self, m: M) -> Option<&Ent> {
        self.ent[..self.n].iter().find(|e| e.kind == m as u32)
    }
    /// Whether modifier `m` was given.
    #[inline]
    pub fn has(&self, m: M) -> bool {
        self.seen & bit(m) != 0
    }
    /// The value of `m`, or `default`.
    #[inline]
    pub fn get(&self, m: M, default: u32) -> u32 {
        if self.has(m) {
            self.find(m).map_or(default, |e| e.value)
        } else {
            default
        }
    }
    /// The value of a flag (0 or 1).
    #[inline]
    pub fn flag(&self, m: M) -> u32 {
        self.get(m, 0)
    }
    /// The source text of modifier `m` ("" if absent).
    // (Always inline: mostly asked for a field's error message only, and
    // inlined the unused look-up can be left out.)
    #[inline(always)]
    pub fn at(&self, m: M) -> &'a str {
        // (Asked for every field written, mostly of absent modifiers.)
        if !self.has(m) {
            return "";
        }
        match self.find(m) {
            Some(e) => self
                .text
                .get(e.start as usize..e.end as usize)
                .unwrap_or(""),
            None => "",
        }
    }
    /// Reports the first modifier present that is not in `allowed`; false if there was one.
    #[inline]
    pub fn check(&self, asm: &mut Assembler, allowed: u64, mnemonic: &str) -> bool {
        // (Inline: every statement asks, and nearly all pass.)
        let bad = (self.seen | self.given) & !allowed;
        bad == 0 || self.report_bad(asm, bad, mnemonic)
    }

    /// [`Mods::check`]'s report of the modifiers in `bad`.
    #[cold]
    #[inline(never)]
    fn report_bad(&self, asm: &mut Assembler, bad: u64, mnemonic: &str) -> bool {
        let Some(e) = self.ent[..self.n].iter().find(|e| bad & 1 << e.kind != 0) else {
            return true;
        };
        let at = self
            .text
            .get(e.start as usize..e.end as usize)
            .unwrap_or("");
        let name = at.split(':').next().unwrap_or(at);
        asm.error(
            at,
            format!("modifier '{name}' is not valid for '{mnemonic}'"),
        );
        false
    }
}

/// A decimal selector value below `limit` (the numeric spelling), of at
/// most 24 digits: selectors were read through a 24-byte buffer, which
/// left longer spellings (`dst_sel:0000000000000000000000005`) invalid.
fn small_number(l: &[u8], limit: u32) -> Option<u32> {
    if l.len() > 24 {
        return None;
    }
    std::str::from_utf8(l)
        .ok()?
        .parse()
        .ok()
        .filter(|&v| v < limit)
}

/// The SDWA operand selects (matched without regard to case).
static SELS: NameSet<u8, 64> = NameSet::new(
    &[
        ("byte_0", 0),
        ("byte0", 0),
        ("b0", 0),
        ("byte_1", 1),
        ("byte1", 1),
        ("b1", 1),
        ("byte_2", 2),
        ("byte2", 2),
        ("b2", 2),
        ("byte_3", 3),
        ("byte3", 3),
        ("b3", 3),
        ("word_0", 4),
        ("word0", 4),
        ("w0", 4),
        ("word_1", 5),
        ("word1", 5),
        ("w1", 5),
        ("dword", 6),
        ("dw", 6),
    ],
    0,
);

/// `dst_unused` values (matched without regard to case).
static UNUSED: NameSet<u8, 16> = NameSet::new(
    &[
        ("unused_pad", 0),
        ("pad", 0),
        ("unused_sext", 1),
        ("sext", 1),
        ("unused_preserve", 2),
        ("preserve", 2),
    ],
    0,
);

fn sel_value(w: &str) -> Option<u32> {
    match SELS.get(w.as_bytes()) {
        Some(v) => Some(v.into()),
        None => small_number(w.as_bytes(), 8),
    }
}

fn unused_value(w: &str) -> Option<u32> {
    match UNUSED.get(w.as_bytes()) {
        Some(v) => Some(v.into()),
        None => small_number(w.as_bytes(), 4),
    }
}

/// The DPP control of a `wave_*` name.
fn wave_ctrl(nm: Name) -> u32 {
    match nm {
        Name::WaveShl => 0x130,
        Name::WaveRol => 0x134,
        Name::WaveShr => 0x138,
        _ => 0x13c,
    }
}

/// A buffer format name: `Some((is_nfmt, value))`.
fn format_name(w: &str) -> Option<(bool, u32)> {
    let u = w.to_ascii_uppercase();
    if let Some(d) = u.strip_prefix("BUF_DATA_FORMAT_") {
        return DFMT_NAMES
            .iter()
            .position(|n| *n == d)
            .map(|p| (false, p as u32));
    }
    if let Some(n) = u.strip_prefix("BUF_NUM_FORMAT_") {
        return NFMT_NAMES
            .iter()
            .position(|x| *x == n)
            .map(|p| (true, p as u32));
    }
    if let Some(p) = NFMT_NAMES.iter().position(|x| *x == u) {
        return Some((true, p as u32));
    }
    None
}

/// CLRX's `format:[DFMT, NFMT]` (either part may be left out; a part not
/// given keeps its earlier value): names, where a number names a data format
/// (`32`, `8_8_8_8`), or `@expr` for the field value (truncated with a
/// warning, as clrxasm does). Returns `dfmt | nfmt << 4`.
fn clrx_format(asm: &mut Assembler, c: &mut Cursor<'_>, old: u32) -> Option<u32> {
    c.skip_ws();
    if !c.eat(b'[') {
        asm.error(c.rest(), "expected '[' after format:");
        return None;
    }
    let (mut d, mut n) = (old & 15, old >> 4 & 7);
    // `[D,N]` with two plain numbers is not CLRX (its second element must be
    // a name): risa reads it as the field values, with a warning.
    {
        let mut t = *c;
        let mut nums = [0u64; 2];
        let mut ok = true;
        for (k, slot) in nums.iter_mut().enumerate() {
            t.skip_ws();
            match crate::opnd::fast_uint(t.rest_bytes()) {
                Some((v, len)) => {
                    t.set_pos(t.pos() + len);
                    *slot = v;
                }
                None => ok = false,
            }
            t.skip_ws();
            if !ok || !t.eat(if k == 0 { b',' } else { b']' }) {
                ok = false;
                break;
            }
        }
        if ok {
            let at = c.rest();
            if nums[0] > 15 || nums[1] > 7 {
                asm.error(at, "format:[DFMT,NFMT] takes 0..15 and 0..7");
                return None;
            }
            asm.warning(
                at,
                "format:[DFMT,NFMT] as numbers (clrxasm rejects this; it names formats: format:[32,float] or format:[@4,@7])",
            );
            *c = t;
            return Some(nums[0] as u32 | (nums[1] as u32) << 4);
        }
    }
    let mut k = 0;
    loop {
        c.skip_ws();
        let at = c.rest();
        if c.eat(b'@') {
            let v = asm.abs_expr(c)?;
            let (bits, name) = if k == 0 { (15, "data") } else { (7, "number") };
            if v > bits {
                asm.warning(
                    at,
                    format!("{name} format {v:#x} truncated to {:#x}", v & bits),
                );
            }
            if k == 0 {
                d = (v & bits) as u32;
            } else {
                n = (v & bits) as u32;
            }
        } else {
            let s = c.pos();
            while c
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                c.bump();
            }
            let w = c.slice(s, c.pos()).to_ascii_uppercase();
            let w = w.as_str();
            let dn = w.strip_prefix("BUF_DATA_FORMAT_").unwrap_or(w);
            let nn = w.strip_prefix("BUF_NUM_FORMAT_").unwrap_or(w);
            let nn = if nn == "SNORM_OGL" { "RESERVED_6" } else { nn };
            let dpos = DFMT_NAMES[1..15].iter().position(|x| *x == dn);
            let npos = NFMT_NAMES.iter().position(|x| *x == nn);
            match (dpos, npos) {
                (Some(p), _) if k == 0 => d = p as u32 + 1,
                (_, Some(p)) => {
                    n = p as u32;
                    k = 1;
                }
                _ => {
                    asm.error(at, "unknown data/number format");
                    return None;
                }
            }
        }
        k += 1;
        c.skip_ws();
        if c.eat(b']') {
            return Some(d | n << 4);
        }
        if k >= 2 || !c.eat(b',') {
            asm.error(c.rest(), "expected ']' after the format");
            return None;
        }
    }
}

/// What may follow a plain number of a modifier.
const NUMBER_ENDS: &[u8] = b" ,]";

/// Reads a value: a number/expression (must be known now).
fn number(asm: &mut Assembler, c: &mut Cursor<'_>) -> Option<u64> {
    crate::opnd::known_uint(asm, c, NUMBER_ENDS)
}

/// Reads a bracketed list `[a,b,...]` of known values.
fn list(asm: &mut Assembler, c: &mut Cursor<'_>, out: &mut [u32; 4]) -> Option<usize> {
    if !c.eat(b'[') {
        asm.error(c.rest(), "expected '['");
        return None;
    }
    let mut n = 0;
    loop {
        if n == 0 && c.eat(b']') {
            return Some(0);
        }
        let at = c.rest();
        let v = number(asm, c)?;
        if n == out.len() {
            asm.error(at, "too many list elements");
            return None;
        }
        out[n] = v as u32;
        n += 1;
        if c.eat(b']') {
            return Some(n);
        }
        if !c.eat(b',') {
            asm.error(c.rest(), "expected ',' or ']'");
            return None;
        }
    }
}

/// Parses the modifiers in the rest of the cursor into `m` (made by [`Mods::new`]).
pub fn parse<'a>(asm: &mut Assembler, c: &mut Cursor<'a>, m: &mut Mods<'a>) -> Option<()> {
    loop {
        c.skip_ws();
        let comma = c.peek() == Some(b',');
        if comma {
            // CLRX tolerates a comma before modifiers.
            c.bump();
            c.skip_ws();
        }
        // (White space skipped just above.)
        if c.rest_bytes().is_empty() {
            return Some(());
        }
        let start = c.pos();
        let Some(name) = c.ident() else {
            let msg = if comma {
                "unexpected extra operand"
            } else {
                "expected a modifier"
            };
            asm.error(c.rest(), msg);
            return None;
        };
        let nm = NAMES.get(name.as_bytes()).unwrap_or(Name::Other);
        // (Messages name a modifier in lower case.)
        let lname = || name.to_ascii_lowercase();
        // CLRX allows spaces before the colon (`offset :16`).
        let before = *c;
        c.skip_ws();
        let spaced = c.pos() != before.pos();
        let has_colon = c.peek() == Some(b':');
        if has_colon
            && spaced
            && m.clrx
            && matches!(
                nm,
                Name::Neg
                    | Name::Abs
                    | Name::Sext
                    | Name::OpSel
                    | Name::OpSelHi
                    | Name::NegLo
                    | Name::NegHi
            )
        {
            // clrxasm takes no space before the colon of these VOP modifiers.
            asm.error(
                c.rest(),
                format!("no space is allowed before ':' of {}", lname()),
            );
            return None;
        }
        if has_colon {
            c.bump();
            c.skip_ws();
        } else {
            *c = before;
        }
        let nm = if nm == Name::InstOffset {
            m.inst_offset = true;
            Name::Offset
        } else {
            nm
        };
        let (kind, value): (M, u32) = match nm {
            Name::Flag(k) if !has_colon => (k, 1),
            Name::DstSel | Name::Src0Sel | Name::Src1Sel | Name::DstUnused if has_colon => {
                let at = c.rest();
                let w = match c.ident() {
                    Some(w) => w,
                    None => {
                        let s = c.pos();
                        while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                            c.bump();
                        }
                        c.slice(s, c.pos())
                    }
                };
                let (k, v) = match nm {
                    Name::DstSel => (M::DstSel, sel_value(w)),
                    Name::Src0Sel => (M::Src0Sel, sel_value(w)),
                    Name::Src1Sel => (M::Src1Sel, sel_value(w)),
                    _ => (M::DstUnused, unused_value(w)),
                };
                match v {
                    Some(v) => (k, v),
                    None => {
                        asm.error(at, format!("invalid {} value '{w}'", lname()));
                        return None;
                    }
                }
            }
            Name::Mul | Name::Div if has_colon => {
                let at = c.rest();
                let v = number(asm, c)?;
                let o = match (nm, v) {
                    (Name::Mul, 1) | (Name::Div, 1) => 0,
                    (Name::Mul, 2) => 1,
                    (Name::Mul, 4) => 2,
                    (Name::Div, 2) => 3,
                    _ => {
                        asm.error(at, "output modifier must be mul:2, mul:4 or div:2");
                        return None;
                    }
                };
                (M::Omod, o)
            }
            Name::BoundCtrl => {
                if has_colon {
                    let at = c.rest();
                    let v = number(asm, c)?;
                    // clrxasm takes only the digits 0 and 1 here (or 0:expr/1:expr).
                    let lit01 = at.starts_with('0') || at.starts_with('1');
                    if m.clrx && (v > 1 || !lit01) {
                        asm.error(at, "bound_ctrl takes 0 or 1");
                        return None;
                    }
                    if m.clrx && c.peek() == Some(b':') {
                        c.bump();
                        number(asm, c)?;
                    }
                }
                (M::BoundCtrl, 1)
            }
            Name::Offset
            | Name::Offset0
            | Name::Offset1
            | Name::Dmask
            | Name::RowMask
            | Name::BankMask
            | Name::DppCtrl
            | Name::RowShl
            | Name::RowShr
            | Name::RowRor
            | Name::WaveShl
            | Name::WaveRol
            | Name::WaveShr
            | Name::WaveRor
            | Name::RowBcast
            | Name::Dfmt
            | Name::Nfmt
                if has_colon =>
            {
                let at = c.rest();
                let k0 = match nm {
                    Name::Offset => Some(M::Offset),
                    Name::Offset0 => Some(M::Offset0),
                    Name::Offset1 => Some(M::Offset1),
                    _ => None,
                };
                let v = match k0 {
                    // Offsets may refer to later symbols (a fixup fills them in).
                    Some(k) => {
                        c.skip_ws();
                        let b = c.rest_bytes();
                        match crate::opnd::fast_uint(b) {
                            Some((v, n)) if crate::opnd::ends_uint(b, n, NUMBER_ENDS) => {
                                c.set_pos(c.pos() + n);
                                v
                            }
                            Some(_) => number(asm, c)?,
                            None => match asm.expr(c) {
                                risa_asm_core::ExprResult::Value(v) if v.is_abs() => v.value,
                                risa_asm_core::ExprResult::Value(_) => {
                                    asm.error(at, "expected an absolute value");
                                    return None;
                                }
                                risa_asm_core::ExprResult::Pending(e) => {
                                    m.pending = Some((k, e));
                                    0
                                }
                                risa_asm_core::ExprResult::Error => return None,
                            },
                        }
                    }
                    None => number(asm, c)?,
                };
                let k = match nm {
                    Name::Offset => M::Offset,
                    Name::Offset0 => M::Offset0,
                    Name::Offset1 => M::Offset1,
                    Name::Dmask => M::Dmask,
                    Name::RowMask => M::RowMask,
                    Name::BankMask => M::BankMask,
                    Name::Dfmt | Name::Nfmt => M::Format,
                    _ => M::DppCtrl,
                };
                let v32 = match nm {
                    Name::Offset => {
                        m.offset_i = v as i64;
                        v as u32
                    }
                    Name::RowShl | Name::RowShr | Name::RowRor => {
                        if !(1..=15).contains(&v) {
                            asm.error(at, format!("{} takes 1..15", lname()));
                            return None;
                        }
                        let base = match nm {
                            Name::RowShl => 0x100,
                            Name::RowShr => 0x110,
                            _ => 0x120,
                        };
                        base + v as u32
                    }
                    Name::WaveShl | Name::WaveRol | Name::WaveShr | Name::WaveRor => {
                        if v != 1 {
                            asm.error(at, format!("{} takes only 1", lname()));
                            return None;
                        }
                        wave_ctrl(nm)
                    }
                    Name::RowBcast => match v {
                        15 => 0x142,
                        31 => 0x143,
                        _ => {
                            asm.error(at, "row_bcast takes 15 or 31");
                            return None;
                        }
                    },
                    Name::Dfmt | Name::Nfmt => {
                        let old = m.get(M::Format, 1);
                        if nm == Name::Dfmt {
                            if v > 15 {
                                asm.error(at, "dfmt takes 0..15");
                                return None;
                            }
                            (old & !15) | v as u32
                        } else {
                            if v > 7 {
                                asm.error(at, "nfmt takes 0..7");
                                return None;
                            }
                            (old & 15) | (v as u32) << 4
                        }
                    }
                    _ => {
                        if v > u64::from(u32::MAX) && (v as i64) < i64::from(i32::MIN) {
                            asm.error(at, "value out of range");
                            return None;
                        }
                        v as u32
                    }
                };
                (k, v32)
            }
            Name::WaveShl | Name::WaveRol | Name::WaveShr | Name::WaveRor if !has_colon => {
                (M::DppCtrl, wave_ctrl(nm))
            }
            Name::RowBcast15 if !has_colon => (M::DppCtrl, 0x142),
            Name::RowBcast31 if !has_colon => (M::DppCtrl, 0x143),
            Name::Neg | Name::Abs | Name::Sext if has_colon => {
                let v = bits_value(asm, c, name, m.clrx)?;
                let k = match nm {
                    Name::Neg => M::Neg,
                    Name::Abs => M::Abs,
                    _ => M::Sext,
                };
                (k, v)
            }
            Name::Omod if has_colon => {
                let at = c.rest();
                let v = number(asm, c)?;
                if v > 3 {
                    asm.error(at, "omod takes 0..3");
                    return None;
                }
                (M::Omod, v as u32)
            }
            Name::Flag(k) => {
                let v = number(asm, c)?;
                (k, u32::from(v != 0))
            }
            Name::RowMirror => (M::DppCtrl, 0x140),
            Name::RowHalfMirror => (M::DppCtrl, 0x141),
            Name::QuadPerm if has_colon => {
                let mut l = [0; 4];
                let at = c.rest();
                let n = list(asm, c, &mut l)?;
                if m.clrx && n == 4 && l.iter().any(|&x| x > 3) {
                    // clrxasm keeps the low two bits, with a warning.
                    asm.warning(at, "quad_perm lane numbers truncated to 0..3");
                    l.iter_mut().for_each(|x| *x &= 3);
                }
                if n != 4 || l.iter().any(|&x| x > 3) {
                    asm.error(at, "quad_perm takes four lane numbers 0..3");
                    return None;
                }
                (M::DppCtrl, l[0] | l[1] << 2 | l[2] << 4 | l[3] << 6)
            }
            Name::OpSel | Name::OpSelHi | Name::NegLo | Name::NegHi if has_colon => {
                // The element count rides in bits 8.. so the encoder can place
                // the last bit (0xff: CLRX's number, the field's bits as given).
                let v = bits_value(asm, c, name, m.clrx)?;
                let k = match nm {
                    Name::OpSel => M::OpSel,
                    Name::OpSelHi => M::OpSelHi,
                    Name::NegLo => M::NegLo,
                    _ => M::NegHi,
                };
                (k, v)
            }
            Name::Format if has_colon && m.clrx => {
                let old = m.get(M::Format, 1);
                (M::Format, clrx_format(asm, c, old)?)
            }
            Name::Format if has_colon => {
                let at = c.rest();
                if !c.eat(b'[') {
                    asm.error(at, "expected '[' after format:");
                    return None;
                }
                let (mut d, mut n) = (1u32, 0u32);
                let mut k = 0;
                loop {
                    c.skip_ws();
                    let eat_at = c.rest();
                    let save = *c;
                    // CLRX's names: `format:[2_10_10_10,float]`, `format:[16]`.
                    let word_len = c
                        .rest()
                        .bytes()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                        .count();
                    let word = c.rest()[..word_len].to_ascii_lowercase();
                    // CLRX's names are LLVM's in lower case; 0 and 15 have none.
                    let dfmt = risa_gcn::operand::DFMT_NAMES[1..15]
                        .iter()
                        .position(|n| n.eq_ignore_ascii_case(&word))
                        .map(|v| v + 1);
                    if let Some(v) = dfmt {
                        d = v as u32;
                        k += 1;
                        for _ in 0..word_len {
                            c.bump();
                        }
                    } else if let Some(v) =
                        risa_gcn::print::CLRX_NFMT.iter().position(|n| *n == word)
                    {
                        n = v as u32;
                        k += 1;
                        for _ in 0..word_len {
                            c.bump();
                        }
                    } else if let Some(w) = c.ident() {
                        if let Some((is_n, v)) = format_name(w) {
                            if is_n {
                                n = v
                            } else {
                                d = v
                            }
                            k += 1;
                        } else {
                            *c = save;
                        }
                    }
                    if c.pos() == save.pos() {
                        let v = number(asm, c)?;
                        if k == 0 {
                            if v > 15 {
                                asm.error(eat_at, "data format takes 0..15");
                                return None;
                            }
                            d = v as u32;
                        } else {
                            if v > 7 {
                                asm.error(eat_at, "number format takes 0..7");
                                return None;
                            }
                            n = v as u32;
                        }
                        k += 1;
                    }
                    if c.eat(b']') {
                        break;
                    }
                    if !c.eat(b',') || k >= 2 {
                        asm.error(c.rest(), "expected ']'");
                        return None;
                    }
                }
                (M::Format, d | n << 4)
            }
            _ if !has_colon => {
                let msg = if comma {
                    format!("unexpected extra operand '{name}'")
                } else {
                    format!("unknown modifier '{name}'")
                };
                asm.error(name, msg);
                return None;
            }
            _ => {
                asm.error(name, format!("unknown modifier '{name}:'"));
                return None;
            }
        };
        let span = (start.min(0xffff) as u16, c.pos().min(0xffff) as u16);
        let e = Ent {
            kind: kind as u32,
            value,
            start: span.0,
            end: span.1,
        };
        match m.ent[..m.n].iter().position(|x| x.kind == kind as u32) {
            Some(k) => m.ent[k] = e,
            None if m.n < MAX_MODS => {
                m.ent[m.n] = e;
                m.n += 1;
            }
            None => {
                asm.error(c.slice(start, c.pos()), "too many modifiers");
                return None;
            }
        }
        // A flag or per-source mask given as 0 (`glc:0`, `neg:0`) is absent.
        m.given |= bit(kind);
        if value == 0 && (matches!(kind, M::Neg | M::Abs | M::Sext) || matches!(nm, Name::Flag(_)))
        {
            m.seen &= !bit(kind);
        } else {
            m.seen |= bit(kind);
        }
    }
}
