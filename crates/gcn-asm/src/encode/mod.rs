//! From a statement to machine words: operands are read in the order of the
//! instruction's signature (its table row) and written into the fields of
//! the chosen encoding through `risa_gcn::layout`. One function per encoding
//! family, mirroring the printer; no code is specific to one instruction.

use crate::mods::{self, bit, Mods, M};
use crate::names::{self, gen_list, Found};
use crate::opnd::{self, Opd, Val};
use risa_asm_core::{Assembler, Cursor, Expr, Statement};
use risa_gcn::layout::{Enc, Field, Layout, LAYOUTS};
use risa_gcn::operand::{float_inline_code, int_inline_code, int_operand_bits};
use risa_gcn::table::{Family, OpId, OpInfo, Ty, OPS};
use risa_gcn::EncodeError;
use risa_gcn::{Gen, Instr, Target};

mod mem;
mod scalar;
mod vop;

/// A value that is not known yet and is patched in at the end.
#[derive(Debug, Clone)]
pub enum Pending {
    /// The 32-bit literal dword.
    Literal(Expr),
    /// A 16-bit immediate (SIMM16).
    Imm16(Expr),
    /// A branch target: SIMM16 = (target - next instruction) / 4.
    Branch(Expr),
    /// A relocation of the literal dword.
    Reloc(Box<opnd::Reloc>),
    /// A field of the instruction's first two dwords (an offset written
    /// with a later symbol): `entry` is its layout entry (position | width
    /// << 6); `signed` fields take negative values in two's complement.
    Field {
        /// The value.
        expr: Expr,
        /// Position | width << 6.
        entry: u32,
        /// Whether negative values are allowed.
        signed: bool,
    },
}

/// The result of assembling one instruction.
#[derive(Debug, Clone)]
pub struct Encoded {
    /// The words (1 to 3).
    pub words: [u32; 3],
    /// Number of words.
    pub len: usize,
    /// A value to patch in later.
    pub pending: Option<Pending>,
    /// The row that was assembled.
    pub op: OpId,
    /// Highest VGPR referenced + 1 (0: none).
    pub vgprs: u32,
    /// Highest numbered SGPR referenced + 1 (0: none).
    pub sgprs: u32,
}

/// The little-endian bytes of an encoding's words.
pub(crate) struct Bytes {
    buf: [u8; 12],
    len: usize,
}

impl Bytes {
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Encoded {
    /// The words as bytes, in the order they are emitted.
    pub(crate) fn bytes(&self) -> Bytes {
        let mut buf = [0u8; 12];
        for (k, w) in self.words[..self.len].iter().enumerate() {
            buf[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
        Bytes {
            buf,
            len: 4 * self.len,
        }
    }
}

/// How the mnemonic asked for an encoding (LLVM suffixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Any,
    E32,
    E64,
    Sdwa,
    Dpp,
}

/// True when `b` holds an ASCII capital. Mnemonics are mostly 9 to 20
/// bytes and nearly always lower case, so this tests eight bytes at a time
/// (the last word overlaps the one before) instead of one per byte.
fn has_upper(b: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    // With the top bit of each byte cleared, adding at most 0x3f cannot
    // carry into the next byte: a byte's top bit then says `x >= 'A'`
    // (first sum) or `x > 'Z'` (second); `!w` drops bytes >= 0x80.
    let upper = |w: u64| {
        let x = w & !HI;
        (x + (0x80 - u64::from(b'A')) * LO) & !(x + (0x7f - u64::from(b'Z')) * LO) & !w & HI != 0
    };
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    if b.len() < 8 {
        return b.iter().any(u8::is_ascii_uppercase);
    }
    let mut i = 0;
    while i + 8 < b.len() {
        if upper(word(i)) {
            return true;
        }
        i += 8;
    }
    upper(word(b.len() - 8))
}

/// Splits `_e32`/`_e64`/`_sdwa`/`_dpp` off a lower-case mnemonic.
fn split_suffix(name: &str) -> (&str, Want) {
    for (s, w) in [
        ("_e32", Want::E32),
        ("_e64", Want::E64),
        ("_sdwa", Want::Sdwa),
        ("_dpp", Want::Dpp),
    ] {
        if let Some(b) = name.strip_suffix(s) {
            return (b, w);
        }
    }
    (name, Want::Any)
}

/// Assembles one instruction statement at byte offset `pc` of its section.
/// Errors are reported through `asm`; `None` means nothing is emitted.
/// `clrx` selects CLRX's defaults and meanings where the dialects differ
/// (see docs/gcn-asm.md, "Dialects").
pub fn assemble(
    asm: &mut Assembler,
    target: Target,
    st: &Statement<'_>,
    pc: u64,
    clrx: bool,
) -> Option<Encoded> {
    let gen = target.gen;
    let mut op_gen = gen;
    // Mnemonics are nearly always written in lower case, as the table has
    // them (a test checks): the name as written is looked up first, and
    // only a name not found so is lower-cased and looked up in full.
    let (raw_base, raw_want) = split_suffix(st.name);
    let (op, want) = match names::find_op(raw_base, target) {
        Some(op) => (op, raw_want),
        None => find_mnemonic(asm, target, st, clrx, &mut op_gen)?,
    };
    let info = &OPS[op as usize];
    let mut b = Build {
        asm,
        gen,
        info,
        i: Instr {
            op,
            enc: Enc::Sopp,
            gen,
            len: 1,
            raw: 0,
            lit: None,
        },
        row: &LAYOUTS[Enc::Sopp as usize][gen as usize],
        pending: None,
        c: Cursor::new(st.args),
        st,
        first: true,
        pc,
        used: opnd::RegUse::default(),
        reads: [0; 4],
        n_reads: 0,
        xreads: [0; 4],
        n_xreads: 0,
        clrx,
        op_gen,
    };
    b.run(want)?;
    let (words, len) = if b.op_gen == gen {
        match risa_gcn::encode(&b.i) {
            Ok(w) => w.to_array(),
            Err(e) => return encode_error(b.asm, st, e),
        }
    } else {
        // A CLRX-borrowed opcode of another generation (whose layout of
        // these fields is the same): words this generation's decoder does
        // not read back as the row, so not `encode`'s to check.
        let fixed = risa_gcn::encode::fixed_bits(op, b.i.enc, b.op_gen);
        let (mask, value) = match fixed {
            Ok(f) => f,
            Err(e) => return encode_error(b.asm, st, e),
        };
        b.i.raw = (b.i.raw & !mask) | value;
        b.i.len = b.i.enc.base_dwords() as u8 + u8::from(b.i.lit.is_some());
        let (w, n) = b.i.words();
        ([w[0], w[1], 0], n)
    };
    Some(Encoded {
        words,
        len,
        pending: b.pending,
        op,
        vgprs: b.used.vgprs,
        sgprs: b.used.sgprs,
    })
}

/// The row and encoding [`assemble`] takes for a mnemonic not found as
/// written (in upper case, unknown, or of another generation); `None`
/// when that is reported.
#[cold]
#[inline(never)]
fn find_mnemonic(
    asm: &mut Assembler,
    target: Target,
    st: &Statement<'_>,
    clrx: bool,
    op_gen: &mut Gen,
) -> Option<(OpId, Want)> {
    let gen = target.gen;
    let mut buf = [0u8; 48];
    let lname: String;
    let name = if !has_upper(st.name.as_bytes()) {
        st.name
    } else if st.name.len() <= buf.len() {
        let b = &mut buf[..st.name.len()];
        b.copy_from_slice(st.name.as_bytes());
        b.make_ascii_lowercase();
        std::str::from_utf8(b).unwrap_or("")
    } else {
        lname = st.name.to_ascii_lowercase();
        &lname
    };
    // LLVM spells most vector instructions with an encoding suffix: try the
    // base name first, then the whole name (no mnemonic ends in a suffix).
    let (base, want) = split_suffix(name);
    let (op, want) = match (want, names::find(base, target)) {
        (Want::Any, Found::Op(op)) => (op, Want::Any),
        (Want::Any, Found::OtherGens(_)) if clrx && names::clrx_borrowed(base, gen).is_some() => {
            let from = names::clrx_borrowed(base, gen).unwrap_or(gen);
            let Found::Op(op) = names::find(base, from.into()) else {
                return unknown(asm, st, Found::Unknown);
            };
            asm.warning(
                st.name,
                format!(
                    "'{}' does not exist on {gen}; encoded with the {from} opcode as clrxasm does",
                    st.name
                ),
            );
            *op_gen = from;
            (op, Want::Any)
        }
        (Want::Any, found) => return unknown(asm, st, found),
        (_, Found::Op(op)) => (op, want),
        (_, base_found) => match names::find(name, target) {
            Found::Op(op) => (op, Want::Any),
            Found::Unknown => return unknown(asm, st, base_found),
            found => return unknown(asm, st, found),
        },
    };
    Some((op, want))
}

/// Reports why the built instruction does not encode.
#[cold]
fn encode_error(asm: &mut Assembler, st: &Statement<'_>, e: EncodeError) -> Option<Encoded> {
    match e {
        EncodeError::NoForm { enc, gen, .. } => asm.error(
            st.name,
            format!("'{}' has no {enc:?} form on {gen}", st.name),
        ),
        EncodeError::NoEncoding { .. } => asm.error(st.name, e.to_string()),
        _ => asm.error(st.args, e.to_string()),
    }
    None
}

fn unknown<T>(asm: &mut Assembler, st: &Statement<'_>, found: Found) -> Option<T> {
    match found {
        Found::OtherGens(g) => asm.error(
            st.name,
            format!("instruction '{}' exists only on {}", st.name, gen_list(&g)),
        ),
        Found::NeedsFeatures(f) => asm.error(
            st.name,
            format!(
                "instruction '{}' needs {f}, which this chip lacks; chips that have it: {}",
                st.name,
                risa_gcn::Processor::with_features(f)
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        _ => asm.error(st.name, format!("unknown instruction '{}'", st.name)),
    }
    None
}

struct Build<'a, 's, 't> {
    asm: &'s mut Assembler,
    gen: Gen,
    info: &'static OpInfo,
    /// The instruction being built: `risa_gcn::encode` turns it into words.
    i: Instr,
    /// The field layout of (`i.enc`, `gen`), looked up once in [`Build::begin`].
    row: &'static Layout,
    pending: Option<Pending>,
    c: Cursor<'a>,
    st: &'t Statement<'a>,
    first: bool,
    pc: u64,
    used: opnd::RegUse,
    reads: [u32; 4],
    n_reads: usize,
    /// Scalar reads only CLRX's constant-bus rule counts.
    xreads: [u32; 4],
    n_xreads: usize,
    /// CLRX dialect: CLRX's defaults and meanings where the dialects differ.
    clrx: bool,
    /// The generation whose opcode is used (`gen`, except for
    /// [`names::CLRX_BORROWED`] instructions).
    op_gen: Gen,
}

/// Modifiers every VOP3 (VOP3a) form takes.
const VOP3_MODS: u64 = bit(M::Clamp) | bit(M::Omod) | bit(M::Vop3) | bit(M::OpSel);

impl<'a> Build<'a, '_, '_> {
    fn err(&mut self, at: &str, msg: impl Into<String>) -> Option<()> {
        self.asm.error(at, msg);
        None
    }

    /// Chooses the encoding. The packers write operand fields only; the
    /// bits the instruction's identity fixes (prefix, opcode, FLAT segment)
    /// are `risa_gcn::encode`'s, which also reports a form that does not
    /// exist (`'v_nop_e64' has no Vop3 form`).
    #[inline]
    fn begin(&mut self, enc: Enc) -> Option<()> {
        self.row = &LAYOUTS[enc as usize][self.gen as usize];
        self.i.enc = enc;
        Some(())
    }

    /// Writes a field whose value is known to fit.
    // (Always inline: a handful of instructions, written ~2 times per
    // statement; as a call it was about a third of its own cost.)
    #[inline(always)]
    fn put(&mut self, f: Field, v: u32) {
        self.set(f, v);
    }

    /// [`risa_gcn::layout::set`] through the cached row: writes `v` into field `f`
    /// unless the field is absent or `v` does not fit (then returns false).
    #[inline(always)]
    fn set(&mut self, f: Field, v: u32) -> bool {
        risa_gcn::layout::set_in(self.row, &mut self.i.raw, f, v)
    }

    /// Writes the value of modifier `k` into field `f` (0 if absent), or,
    /// when it refers to a later symbol, leaves the field to a fixup.
    pub(super) fn mfield(&mut self, m: &Mods<'_>, f: Field, k: M, what: &str) -> Option<()> {
        if let Some((pk, e)) = &m.pending {
            if *pk == k {
                return self.field_later(f, e.clone(), m.at(k), false);
            }
        }
        let v = m.flag(k);
        let width = u32::from(self.row[f as usize]) >> 6;
        if self.clrx && width > 0 && width < 32 && v >> width != 0 {
            // clrxasm keeps the bits that fit, with a warning.
            let t = v & ((1 << width) - 1);
            self.asm
                .warning(m.at(k), format!("{what} value {v:#x} truncated to {t:#x}"));
            return self.field(f, t, m.at(k), what);
        }
        self.field(f, v, m.at(k), what)
    }

    /// Leaves field `f` to be filled in when `e` is known.
    pub(super) fn field_later(&mut self, f: Field, e: Expr, at: &str, signed: bool) -> Option<()> {
        let entry = u32::from(self.row[f as usize]);
        if entry >> 6 == 0 {
            return self.err(at, "this field is not available in this encoding");
        }
        if self.pending.is_some() {
            return self.err(
                at,
                "only one value per instruction may refer to a later symbol",
            );
        }
        self.pending = Some(Pending::Field {
            expr: e,
            entry,
            signed,
        });
        Some(())
    }

    /// Writes a user-supplied value into a field, reporting what does not fit.
    // (Always inline, as `put`: the report is out of line.)
    #[inline(always)]
    fn field(&mut self, f: Field, v: u32, at: &str, what: &str) -> Option<()> {
        if self.row[f as usize] >> 6 == 0 {
            if v == 0 {
                return Some(());
            }
            return self.field_error(f, v, at, what);
        }
        if !self.set(f, v) {
            return self.field_error(f, v, at, what);
        }
        Some(())
    }

    /// The error of [`Build::field`] (out of line: the messages are built
    /// only when a field is absent or too narrow).
    #[cold]
    #[inline(never)]
    fn field_error(&mut self, f: Field, v: u32, at: &str, what: &str) -> Option<()> {
        if self.row[f as usize] >> 6 == 0 {
            return self.err(
                at,
                format!("{what} is not available in this encoding on {}", self.gen),
            );
        }
        self.err(at, format!("{what} value {v} does not fit its field"))
    }

    /// Expects the separator before the next operand and reads it.
    #[inline]
    fn operand(&mut self) -> Option<Opd<'a>> {
        if !self.first && !self.c.eat(b',') {
            let at = self.c.rest();
            let at = if at.trim().is_empty() {
                self.st.args
            } else {
                at
            };
            self.asm.error(at, "expected ',' and another operand");
            return None;
        }
        self.first = false;
        opnd::operand(self.asm, self.gen, &mut self.c, &mut self.used, !self.clrx)
    }

    /// [`Build::operand`] into a slot of the caller.
    #[inline]
    pub(super) fn operand_into(&mut self, out: &mut Option<Opd<'a>>) -> Option<()> {
        if !self.first && !self.c.eat(b',') {
            let at = self.c.rest();
            let at = if at.trim().is_empty() {
                self.st.args
            } else {
                at
            };
            self.asm.error(at, "expected ',' and another operand");
            return None;
        }
        self.first = false;
        opnd::operand_into(
            self.asm,
            self.gen,
            &mut self.c,
            &mut self.used,
            out,
            !self.clrx,
        )
        .then_some(())
    }

    /// Expects the separator and returns a cursor positioned at the next operand's text.
    #[inline]
    fn sep(&mut self) -> Option<()> {
        if !self.first && !self.c.eat(b',') {
            let at = self.c.rest();
            self.asm.error(at, "expected ',' and another operand");
            return None;
        }
        self.first = false;
        self.c.skip_ws();
        Some(())
    }

    /// Parses the modifiers after the operands into `m`.
    #[inline]
    fn mods(&mut self, m: &mut Mods<'a>) -> Option<()> {
        if self.c.at_end() {
            return Some(());
        }
        m.clrx = self.clrx;
        mods::parse(self.asm, &mut self.c, m)
    }

    // (Always inline: once per statement, and nearly always a pass.)
    #[inline(always)]
    fn check_mods(&mut self, m: &Mods<'_>, allowed: u64) -> Option<()> {
        m.check(self.asm, allowed, self.st.name).then_some(())
    }

    // (Always inline: a test of three flags, once per register operand.)
    #[inline(always)]
    fn no_operand_mods(&mut self, o: &Opd<'_>) -> Option<()> {
        if o.neg || o.abs || o.sext {
            return self.err(
                o.at,
                "neg/abs/sext modifiers are not allowed on this operand",
            );
        }
        Some(())
    }

    /// A register range of exactly `count` registers (`count` 0: any).
    #[inline]
    fn check_count(&mut self, o: &Opd<'_>, have: u32, count: u32) -> Option<()> {
        if have != 0 && count != 0 && have != count {
            let s = if count == 1 { "" } else { "s" };
            return self.err(o.at, format!("expected {count} register{s}, got {have}"));
        }
        Some(())
    }

    /// CLRX syntax: an SGPR range a scalar instruction reads must be aligned
    /// (pairs to 2, larger ranges to 4); TTMP ranges and the ranges of vector
    /// instructions are not checked (as clrxasm does). LLVM syntax checks
    /// every range when it is read.
    pub(super) fn clrx_align(&mut self, o: &Opd<'_>) -> Option<()> {
        if let Val::Reg { code, count } = o.v {
            if self.clrx && count >= 2 && code < risa_gcn::operand::sgpr_count(self.gen) {
                let a = if count == 2 { 2 } else { 4 };
                if !code.is_multiple_of(a) {
                    return self.err(
                        o.at,
                        format!(
                            "misaligned scalar register range: must start at a multiple of {a}"
                        ),
                    );
                }
            }
        }
        Some(())
    }

    /// A register-block field (`code / unit`): misaligned TTMP blocks are
    /// rounded down in CLRX syntax (as clrxasm does), else an error.
    pub(super) fn block(&mut self, o: &Opd<'_>, code: u32, unit: u32, what: &str) -> Option<u32> {
        if !code.is_multiple_of(unit) {
            if self.clrx && code >= risa_gcn::operand::sgpr_count(self.gen) {
                return Some(code / unit);
            }
            self.err(o.at, what)?;
        }
        Some(code / unit)
    }

    /// `inst_offset:` is FLAT's spelling of the offset.
    pub(super) fn no_inst_offset(&mut self, m: &Mods<'_>) -> Option<()> {
        if m.inst_offset {
            return self.err(m.at(M::Offset), "inst_offset: is for FLAT instructions");
        }
        Some(())
    }

    /// CLRX syntax: `lit()` only on sources that have a literal slot.
    pub(super) fn no_lit(&mut self, o: &Opd<'_>) -> Option<()> {
        if self.clrx && o.lit {
            return self.err(
                o.at,
                "lit() is only for source operands with a literal slot",
            );
        }
        Some(())
    }

    /// A VGPR range of `count` registers; returns its number.
    // (Always inline: once per VGPR operand; the errors are calls.)
    #[inline(always)]
    fn vgpr(&mut self, o: &Opd<'_>, count: u32) -> Option<u32> {
        self.no_operand_mods(o)?;
        match o.vgpr() {
            Some((n, have)) => {
                self.check_count(o, have, count)?;
                Some(n)
            }
            None => {
                self.err(o.at, "expected a vector register (v0..v255)")?;
                None
            }
        }
    }

    /// A scalar register range (code 0..=127) of `count` registers.
    #[inline]
    fn sreg(&mut self, o: &Opd<'_>, count: u32) -> Option<u32> {
        self.no_operand_mods(o)?;
        match o.v {
            Val::Reg { code, count: have } if code < 128 => {
                self.check_count(o, have, count)?;
                Some(code)
            }
            _ => {
                self.err(o.at, "expected a scalar register")?;
                None
            }
        }
    }

    /// A known absolute value.
    fn value(&mut self, o: &Opd<'_>) -> Option<u64> {
        self.no_operand_mods(o)?;
        match &o.v {
            Val::Num(v) if v.is_abs() => Some(v.value),
            Val::Num(_) => {
                self.err(o.at, "expected an absolute value, not an address")?;
                None
            }
            Val::Pending(_) => {
                self.err(o.at, "value must be known here (symbol defined later)")?;
                None
            }
            Val::Float(_) => {
                self.err(o.at, "expected an integer")?;
                None
            }
            _ => {
                self.err(o.at, "expected a constant")?;
                None
            }
        }
    }

    /// Sets the literal dword, which one instruction has at most once.
    #[inline]
    fn set_lit(&mut self, v: u32, at: &str) -> Option<()> {
        match self.i.lit {
            Some(old) if old != v => self.err(at, "only one literal constant per instruction"),
            _ => {
                self.i.lit = Some(v);
                Some(())
            }
        }
    }

    /// The operand code (9-bit space) of a source of type `ty`: register,
    /// inline constant, or 255 with the literal set (when `lit` allows it).
    fn src(&mut self, o: &Opd<'_>, ty: Ty, count: u32, lit: bool) -> Option<u32> {
        let wide = ty.dwords() == 2;
        match &o.v {
            Val::Reg { code, count: have } => {
                if self.clrx && *code == 124 && *have == 1 && count == 2 {
                    // clrxasm takes M0 as a 64-bit source.
                    return Some(124);
                }
                self.check_count(o, *have, count)?;
                Some(*code)
            }
            Val::Off => {
                self.err(o.at, "'off' is not allowed here")?;
                None
            }
            Val::Num(v) => {
                if !v.is_abs() {
                    self.err(o.at, "an address is not allowed here")?;
                    return None;
                }
                let raw = v.value;
                if o.lit {
                    if !lit {
                        self.err(o.at, "a literal constant is not allowed here")?;
                        return None;
                    }
                    self.set_lit(raw as u32, o.at)?;
                    return Some(255);
                }
                let sv = raw as i64;
                let fits_16 = ty.is_16bit() && (-0x8000..=0xffff).contains(&sv);
                if !(wide || fits_16) && (sv < i64::from(i32::MIN) || sv > i64::from(u32::MAX)) {
                    self.asm
                        .warning(o.at, format!("value {raw:#x} truncated to 32 bits"));
                }
                if let Some(code) = int_inline_code(self.gen, raw, ty) {
                    return Some(code);
                }
                let bits = int_operand_bits(raw, ty);
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                let l = if wide {
                    if sv < i64::from(i32::MIN) || sv > i64::from(u32::MAX) {
                        self.err(o.at, "64-bit value does not fit a 32-bit literal")?;
                        return None;
                    }
                    raw as u32
                } else if self.clrx && ty.is_16bit() {
                    // clrxasm writes the value's 32 bits (-17: 0xffffffef);
                    // llvm-mc the 16-bit value (0x0000ffef).
                    raw as u32
                } else {
                    bits as u32
                };
                self.set_lit(l, o.at)?;
                Some(255)
            }
            Val::Float(f) if f.suffix.is_some() => {
                // CLRX: `1.5h`, `1.5s`, `1.5l` give the precision explicitly;
                // the value's bits are then the constant.
                let bits = match f.suffix {
                    Some(b'h') => u64::from(f.to_f16_bits()),
                    Some(b's') => u64::from(f.to_f32_bits()),
                    _ => f.to_f64_bits(),
                };
                let as_int = Opd {
                    v: Val::Num(risa_asm_core::Value::abs(bits)),
                    ..o.clone()
                };
                self.src(&as_int, ty, count, lit)
            }
            Val::Float(f) => {
                let bits = if ty.is_16bit() {
                    u64::from(f.to_f16_bits())
                } else if wide {
                    f.to_f64_bits()
                } else {
                    u64::from(f.to_f32_bits())
                };
                if bits == 0 && !o.lit {
                    return Some(128);
                }
                if self.clrx
                    && wide
                    && !o.lit
                    && self.gen.has(risa_gcn::Feature::Inv2PiInlineImm)
                    && f.to_f32_bits() == 0x3e22_f983
                {
                    // clrxasm takes 1/(2*pi) written to single precision
                    // (0.15915494, as it prints it) as the 64-bit constant.
                    return Some(248);
                }
                if let Some(code) = float_inline_code(self.gen, ty, bits).filter(|_| !o.lit) {
                    return Some(code);
                }
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                let l = if wide {
                    if bits as u32 != 0 {
                        self.asm
                            .warning(o.at, "double literal truncated to its high 32 bits");
                    }
                    (bits >> 32) as u32
                } else {
                    bits as u32
                };
                self.set_lit(l, o.at)?;
                Some(255)
            }
            Val::Reloc(r) => {
                if !lit {
                    self.err(
                        o.at,
                        "a relocated value needs a literal slot, not allowed here",
                    )?;
                    return None;
                }
                if self.pending.is_some() || self.i.lit.is_some() {
                    self.err(o.at, "only one literal constant per instruction")?;
                    return None;
                }
                self.pending = Some(Pending::Reloc(r.clone()));
                self.i.lit = Some(0);
                Some(255)
            }
            Val::Pending(e) => {
                if !lit {
                    self.err(o.at, "a literal constant is not allowed here")?;
                    return None;
                }
                if self.pending.is_some() || self.i.lit.is_some() {
                    self.err(o.at, "only one literal constant per instruction")?;
                    return None;
                }
                self.pending = Some(Pending::Literal(e.clone()));
                self.i.lit = Some(0);
                Some(255)
            }
        }
    }

    /// A 16-bit immediate of SOPK/SOPP of type `ty`.
    fn run(&mut self, want: Want) -> Option<()> {
        let fam = self.info.family;
        let is_vop = matches!(
            fam,
            Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p
        ) || (fam == Family::Vintrp && (want == Want::E64));
        if want != Want::Any && !is_vop && !(fam == Family::Vintrp && want == Want::E32) {
            return self.err(
                self.st.name,
                "encoding suffix not valid for this instruction",
            );
        }
        match fam {
            Family::Sop2 => self.scalar(Enc::Sop2),
            Family::Sop1 => self.scalar(Enc::Sop1),
            Family::Sopc => self.scalar(Enc::Sopc),
            Family::Sopk => self.scalar(Enc::Sopk),
            Family::Sopp => self.scalar(Enc::Sopp),
            Family::Smrd => self.smem(Enc::Smrd),
            Family::Smem => self.smem(Enc::Smem),
            Family::Ds => self.ds(),
            Family::Mubuf => self.buf(Enc::Mubuf),
            Family::Mtbuf => self.buf(Enc::Mtbuf),
            Family::Mimg => self.mimg(),
            Family::Exp => self.exp(),
            Family::Flat | Family::Global | Family::Scratch => self.flat(),
            Family::Vop3p => self.vop3p(),
            Family::Vintrp if want != Want::E64 => self.vintrp(),
            _ => self.vop(want),
        }
    }

    fn end_no_mods(&mut self) -> Option<()> {
        let mut m = Mods::new(self.c.text());
        self.mods(&mut m)?;
        self.check_mods(&m, 0)
    }
}

/// A branch distance in bytes as the SIMM16 dword offset.
pub fn branch_offset(bytes: i64) -> Result<u32, BranchError> {
    if bytes % 4 != 0 {
        return Err(BranchError::Unaligned(bytes));
    }
    let d = bytes / 4;
    if !(-32768..=32767).contains(&d) {
        return Err(BranchError::OutOfRange(d));
    }
    Ok((d as u16) as u32)
}

/// Why [`branch_offset`] cannot encode a distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BranchError {
    /// The distance in bytes is not a multiple of 4.
    #[error("branch target is not dword aligned ({0} bytes away)")]
    Unaligned(i64),
    /// The distance in dwords does not fit SIMM16.
    #[error("branch target out of range: {0} dwords (must be -32768..32767)")]
    OutOfRange(i64),
}

impl From<BranchError> for String {
    fn from(e: BranchError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod has_upper_tests {
    use super::has_upper;

    #[test]
    fn agrees_with_bytewise_test() {
        // Every byte value at every position of names of 1 to 24 bytes,
        // over lower-case filler and over filler of high bytes.
        for fill in [b'a', b'_', 0xff, 0x80, b'@', b'['] {
            for len in 1..=24 {
                for pos in 0..len {
                    for c in 0..=255u8 {
                        let mut v = vec![fill; len];
                        v[pos] = c;
                        assert_eq!(has_upper(&v), v.iter().any(u8::is_ascii_uppercase));
                    }
                }
            }
        }
    }
}
