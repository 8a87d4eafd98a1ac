//! Instruction modifiers after the operands: `offset:16 glc`, `dmask:0xf`,
//! `dst_sel:WORD_1`, `quad_perm:[0,1,2,3]`, `op_sel:[0,1]`, `mul:2`, `vop3`...
//!
//! Both dialects' spellings are accepted (`dst_sel:WORD_1` / `dst_sel:word1`,
//! `bound_ctrl:0` / `bound_ctrl`, `format:[BUF_DATA_FORMAT_32]` / `format:[4,0]`).

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

/// The kind of a flag modifier (`glc`, or CLRX's `glc:1`).
fn flag_kind(lname: &str) -> Option<M> {
    Some(match lname {
        "vop3" => M::Vop3,
        "gds" => M::Gds,
        "glc" => M::Glc,
        "clamp" => M::Clamp,
        "slc" => M::Slc,
        "unorm" => M::Unorm,
        "lwe" => M::Lwe,
        "da" => M::Da,
        "idxen" => M::Idxen,
        "offen" => M::Offen,
        "tfe" => M::Tfe,
        "lds" => M::Lds,
        "nv" => M::Nv,
        "addr64" => M::Addr64,
        "r128" | "a16" => M::R128,
        "d16" => M::D16,
        "done" => M::Done,
        "compr" => M::Compr,
        "vm" => M::Vm,
        "high" => M::High,
        "sdwa" => M::Sdwa,
        _ => return None,
    })
}

/// A value list `[a,b,...]` of 0/1 elements or (CLRX) a number: the bits,
/// with the element count in bits 8.. (0xff: a number, any count).
fn bits_value(asm: &mut Assembler, c: &mut Cursor<'_>, lname: &str, clrx: bool) -> Option<u32> {
    c.skip_ws();
    if c.peek() != Some(b'[') {
        let at = c.rest();
        let v = number(asm, c)?;
        if v > 0xff {
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
    #[inline]
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
    pub fn check(&self, asm: &mut Assembler, allowed: u64, mnemonic: &str) -> bool {
        let bad = (self.seen | self.given) & !allowed;
        if bad == 0 {
            return true;
        }
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

/// Lower-cases a short word into `buf` (no allocation); empty if too long.
/// Bytes, not `str`: the names are matched as bytes (no UTF-8 check).
fn lower<'b>(w: &'b str, buf: &'b mut [u8; 24]) -> &'b [u8] {
    if w.len() > buf.len() {
        return &[];
    }
    // Mostly written in lower case already: then no copy.
    if !w.bytes().any(|b| b.is_ascii_uppercase()) {
        return w.as_bytes();
    }
    let l = &mut buf[..w.len()];
    l.copy_from_slice(w.as_bytes());
    l.make_ascii_lowercase();
    l
}

/// A decimal selector value below `limit` (the numeric spelling).
fn small_number(l: &[u8], limit: u32) -> Option<u32> {
    std::str::from_utf8(l)
        .ok()?
        .parse()
        .ok()
        .filter(|&v| v < limit)
}

fn sel_value(w: &str) -> Option<u32> {
    let mut buf = [0u8; 24];
    let l = lower(w, &mut buf);
    Some(match l {
        b"byte_0" | b"byte0" | b"b0" => 0,
        b"byte_1" | b"byte1" | b"b1" => 1,
        b"byte_2" | b"byte2" | b"b2" => 2,
        b"byte_3" | b"byte3" | b"b3" => 3,
        b"word_0" | b"word0" | b"w0" => 4,
        b"word_1" | b"word1" | b"w1" => 5,
        b"dword" | b"dw" => 6,
        _ => return small_number(l, 8),
    })
}

fn unused_value(w: &str) -> Option<u32> {
    let mut buf = [0u8; 24];
    let l = lower(w, &mut buf);
    Some(match l {
        b"unused_pad" | b"pad" => 0,
        b"unused_sext" | b"sext" => 1,
        b"unused_preserve" | b"preserve" => 2,
        _ => return small_number(l, 4),
    })
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

/// Reads a value: a number/expression (must be known now).
fn number(asm: &mut Assembler, c: &mut Cursor<'_>) -> Option<u64> {
    crate::opnd::known_uint(asm, c, b" ,]")
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
        if c.at_end() {
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
        let mut lbuf = [0u8; 24];
        let lname: &str = if !name.bytes().any(|b| b.is_ascii_uppercase()) {
            name
        } else if name.len() <= lbuf.len() {
            let l = &mut lbuf[..name.len()];
            l.copy_from_slice(name.as_bytes());
            l.make_ascii_lowercase();
            std::str::from_utf8(l).unwrap_or("")
        } else {
            "?"
        };
        // CLRX allows spaces before the colon (`offset :16`).
        let before = *c;
        c.skip_ws();
        let spaced = c.pos() != before.pos();
        let has_colon = c.peek() == Some(b':');
        if has_colon
            && spaced
            && m.clrx
            && matches!(
                lname,
                "neg" | "abs" | "sext" | "op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi"
            )
        {
            // clrxasm takes no space before the colon of these VOP modifiers.
            asm.error(
                c.rest(),
                format!("no space is allowed before ':' of {lname}"),
            );
            return None;
        }
        if has_colon {
            c.bump();
            c.skip_ws();
        } else {
            *c = before;
        }
        let lname = if lname == "inst_offset" {
            m.inst_offset = true;
            "offset"
        } else {
            lname
        };
        // Flags without a value (`glc`, `offen`, `clamp`) are the most
        // common modifiers: one look-up instead of the names below first.
        let plain_flag = if has_colon { None } else { flag_kind(lname) };
        // The names are tested in the order of the arms: the common ones
        // first (no two arms take the same name, so the order is free).
        let (kind, value): (M, u32) = match lname {
            _ if plain_flag.is_some() => (plain_flag.unwrap_or(M::Glc), 1),
            "dst_sel" | "src0_sel" | "src1_sel" | "dst_unused" if has_colon => {
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
                let (k, v) = match lname {
                    "dst_sel" => (M::DstSel, sel_value(w)),
                    "src0_sel" => (M::Src0Sel, sel_value(w)),
                    "src1_sel" => (M::Src1Sel, sel_value(w)),
                    _ => (M::DstUnused, unused_value(w)),
                };
                match v {
                    Some(v) => (k, v),
                    None => {
                        asm.error(at, format!("invalid {lname} value '{w}'"));
                        return None;
                    }
                }
            }
            "mul" | "div" if has_colon => {
                let at = c.rest();
                let v = number(asm, c)?;
                let o = match (lname, v) {
                    ("mul", 1) | ("div", 1) => 0,
                    ("mul", 2) => 1,
                    ("mul", 4) => 2,
                    ("div", 2) => 3,
                    _ => {
                        asm.error(at, "output modifier must be mul:2, mul:4 or div:2");
                        return None;
                    }
                };
                (M::Omod, o)
            }
            "bound_ctrl" => {
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
            "offset" | "offset0" | "offset1" | "dmask" | "row_mask" | "bank_mask" | "dpp_ctrl"
            | "row_shl" | "row_shr" | "row_ror" | "wave_shl" | "wave_rol" | "wave_shr"
            | "wave_ror" | "row_bcast" | "dfmt" | "nfmt"
                if has_colon =>
            {
                let at = c.rest();
                let k0 = match lname {
                    "offset" => Some(M::Offset),
                    "offset0" => Some(M::Offset0),
                    "offset1" => Some(M::Offset1),
                    _ => None,
                };
                let v = match k0 {
                    // Offsets may refer to later symbols (a fixup fills them in).
                    Some(k) => {
                        c.skip_ws();
                        match crate::opnd::fast_uint(c.rest_bytes()) {
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
                let k = match lname {
                    "offset" => M::Offset,
                    "offset0" => M::Offset0,
                    "offset1" => M::Offset1,
                    "dmask" => M::Dmask,
                    "row_mask" => M::RowMask,
                    "bank_mask" => M::BankMask,
                    "dfmt" | "nfmt" => M::Format,
                    _ => M::DppCtrl,
                };
                let v32 = match lname {
                    "offset" => {
                        m.offset_i = v as i64;
                        v as u32
                    }
                    "row_shl" | "row_shr" | "row_ror" => {
                        if !(1..=15).contains(&v) {
                            asm.error(at, format!("{lname} takes 1..15"));
                            return None;
                        }
                        let base = match lname {
                            "row_shl" => 0x100,
                            "row_shr" => 0x110,
                            _ => 0x120,
                        };
                        base + v as u32
                    }
                    "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" => {
                        if v != 1 {
                            asm.error(at, format!("{lname} takes only 1"));
                            return None;
                        }
                        match lname {
                            "wave_shl" => 0x130,
                            "wave_rol" => 0x134,
                            "wave_shr" => 0x138,
                            _ => 0x13c,
                        }
                    }
                    "row_bcast" => match v {
                        15 => 0x142,
                        31 => 0x143,
                        _ => {
                            asm.error(at, "row_bcast takes 15 or 31");
                            return None;
                        }
                    },
                    "dfmt" | "nfmt" => {
                        let old = m.get(M::Format, 1);
                        if lname == "dfmt" {
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
            "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" if !has_colon => (
                M::DppCtrl,
                match lname {
                    "wave_shl" => 0x130,
                    "wave_rol" => 0x134,
                    "wave_shr" => 0x138,
                    _ => 0x13c,
                },
            ),
            "row_bcast15" if !has_colon => (M::DppCtrl, 0x142),
            "row_bcast31" if !has_colon => (M::DppCtrl, 0x143),
            "neg" | "abs" | "sext" if has_colon => {
                let v = bits_value(asm, c, lname, m.clrx)?;
                let k = match lname {
                    "neg" => M::Neg,
                    "abs" => M::Abs,
                    _ => M::Sext,
                };
                (k, v)
            }
            "omod" if has_colon => {
                let at = c.rest();
                let v = number(asm, c)?;
                if v > 3 {
                    asm.error(at, "omod takes 0..3");
                    return None;
                }
                (M::Omod, v as u32)
            }
            _ if has_colon && flag_kind(lname).is_some() => {
                let v = number(asm, c)?;
                (flag_kind(lname)?, u32::from(v != 0))
            }
            "row_mirror" => (M::DppCtrl, 0x140),
            "row_half_mirror" => (M::DppCtrl, 0x141),
            "quad_perm" if has_colon => {
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
            "op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi" if has_colon => {
                // The element count rides in bits 8.. so the encoder can place
                // the last bit (0xff: CLRX's number, the field's bits as given).
                let v = bits_value(asm, c, lname, m.clrx)?;
                let k = match lname {
                    "op_sel" => M::OpSel,
                    "op_sel_hi" => M::OpSelHi,
                    "neg_lo" => M::NegLo,
                    _ => M::NegHi,
                };
                (k, v)
            }
            "format" if has_colon && m.clrx => {
                let old = m.get(M::Format, 1);
                (M::Format, clrx_format(asm, c, old)?)
            }
            "format" if has_colon => {
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
                let k = match flag_kind(lname) {
                    Some(k) => k,
                    _ if comma => {
                        asm.error(name, format!("unexpected extra operand '{name}'"));
                        return None;
                    }
                    _ => {
                        asm.error(name, format!("unknown modifier '{name}'"));
                        return None;
                    }
                };
                (k, 1)
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
        // (The name is matched again only for a zero: most flags are 1.)
        if value == 0 && (matches!(kind, M::Neg | M::Abs | M::Sext) || flag_kind(lname).is_some()) {
            m.seen &= !bit(kind);
        } else {
            m.seen |= bit(kind);
        }
    }
}
