//! Printing by plan: the vector ALU encodings (VOP1, VOP2, VOPC, VOP3)
//! printed from a plan per instruction and operand texts per code, made
//! once per generation and dialect by the general printer's own functions
//! (with its checks), so that the text is the general path's by
//! construction.
//!
//! Why: the general path walks the row's signature, matches each operand's
//! role to a field, and runs the exactness checks of
//! [`Printer::write_checked`] operand by operand. A plan holds what one line
//! needs in one cache line (the mnemonic with its suffix, the operands as
//! steps), and an operand is one look-up of a text already checked. It is
//! used where the checks run (listings: 8-13 % fewer instructions per
//! listing, random forms and clang's kernels); without them the general
//! path is as cheap or cheaper (clang's kernels: +10 % by plan).
//!
//! A plan prints only what it can print exactly as the general path would,
//! with nothing the checks would call lossy: an operand code with no text
//! here (literals, `src_*` names, lossy registers), a modifier it does not
//! write (`op_sel`), or two different scalar reads make it hand the
//! instruction back to the general path (nothing written). The test below
//! holds the two paths to the same text on random words of every form.

use super::{llvm_suffix, vop3_interp, Dialect, Pr, Printer, MODDED, OMOD};
use crate::decode::Instr;
use crate::gen::{Gen, GEN_COUNT};
use crate::layout::{position_mask, Enc, Field};
use crate::optext::{pack16_bytes, pack_concat, push_packed, Packed, Packed16};
use crate::table::{flag, Family, OpInfo, Role, Ty, OPS};
use std::sync::OnceLock;

/// One operand of a [`Plan`], in printing order.
#[derive(Clone, Copy)]
enum Step {
    /// A VGPR (range) of `dwords` in `field`.
    Vgpr(Field, u8),
    /// `vcc`, named by the opcode (VOPC's destination, VOP2's carry).
    Vcc,
    /// A scalar register (range) of `dwords` in `field`.
    Sreg(Field, u8),
    /// Source `n` (SRC0..SRC2, and bit `n` of NEG and ABS) of type `ty`
    /// and `dwords`; `bus`: it counts on the constant bus; `plain`:
    /// printed without modifiers (VOP3's carry-in).
    Src {
        n: u8,
        ty: Ty,
        dwords: u8,
        bus: bool,
        plain: bool,
    },
}

/// What a VOP3 line of one instruction needs (`len` 0: no plan, the
/// general path prints it).
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Plan {
    /// The mnemonic with the dialect's suffix, zero-padded (one copy).
    name: [u8; NAME_MAX],
    len: u8,
    /// The operands as [`Word`]s, in printing order.
    steps: [Word; STEPS_MAX],
    n_steps: u8,
    /// CLRX's ` vop3` after the modifiers (an op with a short encoding).
    vop3_tail: bool,
    /// LLVM's VOP3b forms of this op take no output modifier.
    omod_lossy_b: bool,
    /// The op reads VCC without naming it (VOP2's carry-in): a scalar
    /// source is a second scalar read.
    reads_vcc: bool,
    /// The number of sources (A, B, C): the length of CLRX's `abs:[..]`
    /// and `neg:[..]`.
    n_src: u8,
}

const NAME_MAX: usize = 32;
const STEPS_MAX: usize = 5;

const NO_PLAN: Plan = Plan {
    name: [0; NAME_MAX],
    len: 0,
    steps: [0; STEPS_MAX],
    n_steps: 0,
    vop3_tail: false,
    omod_lossy_b: false,
    reads_vcc: false,
    n_src: 0,
};

/// The texts and plans of one generation in one dialect. A text is 0
/// where the general path must print the operand.
struct Tables {
    /// The operand texts by table (a step's [`Word`] names one) and code:
    /// `vcc` (code 0), VGPRs and scalar registers by width, and sources
    /// by width and type (the float constants' text depends on it).
    texts: Box<[[Packed16; 512]; TABLES_MAX]>,
    /// VOP3 plans by [`crate::table::OpId`].
    vop3: Box<[Plan]>,
    /// VOP1, VOP2 and VOPC plans by [`crate::table::OpId`].
    short: Box<[Plan]>,
}

/// A [`Step`] as a plan holds it, its field's place in the words
/// included, so that printing an operand takes no branch: the parts at
/// the bits [`word`] names.
type Word = u32;

/// Where the parts of a [`Word`] lie (the lowest bit of each; the
/// field's position is bits 0-5).
mod word {
    /// The field's width (4 bits).
    pub(super) const WIDTH: u32 = 6;
    /// The text table (6 bits, [`super::TABLES_MAX`]).
    pub(super) const TABLE: u32 = 10;
    /// The source number whose NEG and ABS bits apply, 3 for none (2 bits).
    pub(super) const SOURCE: u32 = 16;
    /// Whether the operand counts on the constant bus.
    pub(super) const BUS: u32 = 18;
    /// Whether modifiers on it are lossy (an integer type, LLVM's syntax).
    pub(super) const INT: u32 = 19;
    /// Its dwords (2 bits: part of the constant-bus key).
    pub(super) const DWORDS: u32 = 20;
}

/// The most text tables a [`Word`] can name.
const TABLES_MAX: usize = 64;

/// Per generation, CLRX's tables then LLVM's, made on first use.
static TABLES: [[OnceLock<Box<Tables>>; 2]; GEN_COUNT] =
    [const { [const { OnceLock::new() }; 2] }; GEN_COUNT];

/// Where the plan of row `op` in `enc` lies (any address for an encoding
/// with no plans: for a prefetch), once the tables are made.
#[inline(always)]
pub(super) fn row_address(
    op: crate::table::OpId,
    enc: Enc,
    gen: Gen,
    dialect: Dialect,
) -> Option<*const i8> {
    let t = TABLES[gen as usize][usize::from(dialect == Dialect::Llvm)].get()?;
    // (No branch on the encoding: short plans for any but VOP3's.)
    let vop3 = u8::from(matches!(enc, Enc::Vop3 | Enc::Vop3b));
    let rows = [&t.short, &t.vop3][usize::from(vop3)];
    Some(rows.as_ptr().wrapping_add(op as usize).cast::<i8>())
}

impl<const L: bool, const C: bool> Pr<'_, '_, L, C> {
    /// Prints a VOP1, VOP2, VOPC or VOP3-encoded instruction by its plan
    /// and returns true, or writes nothing and returns false: the general
    /// path prints it (and every other encoding).
    #[inline(always)]
    pub(super) fn by_plan(&self, i: &Instr, out: &mut Vec<u8>) -> bool {
        match i.enc {
            Enc::Vop3 | Enc::Vop3b => self.by_plan_of::<true>(i, out),
            Enc::Vop1 | Enc::Vop2 | Enc::Vopc => self.by_plan_of::<false>(i, out),
            _ => false,
        }
    }

    /// [`Pr::by_plan`] of an instruction of VOP3's encodings (`VOP3`) or
    /// of the short ones, which have none of the modifier fields: their
    /// printing leaves the modifiers out at compile time.
    #[inline(always)]
    fn by_plan_of<const VOP3: bool>(&self, i: &Instr, out: &mut Vec<u8>) -> bool {
        let t = TABLES[i.gen as usize][usize::from(L)].get_or_init(|| Box::new(tables::<L>(i.gen)));
        let p = &[&t.short, &t.vop3][usize::from(VOP3)][i.op as usize];
        let field = |f: Field| if VOP3 { i.field(f) } else { 0 };
        if p.len == 0 || field(Field::OpSel) != 0 {
            return false;
        }
        let omod = field(Field::Omod);
        if omod != 0 && p.omod_lossy_b && i.enc == Enc::Vop3b {
            return false;
        }
        let (neg, abs) = (field(Field::Neg), field(Field::Abs));
        // The modifier bits (neg | abs << 1) of sources 0, 1, 2, and none
        // for the operands they do not apply to.
        let mods = [
            neg & 1 | (abs & 1) << 1,
            neg >> 1 & 1 | abs & 2,
            neg >> 2 & 1 | abs >> 1 & 2,
            0,
        ];
        // One capacity check for the line: the steps write through `line`.
        let mut line = Line::new(out);
        line.name(&p.name, p.len);
        // The first scalar read (code and width): reading it again is free.
        let mut bus = if p.reads_vcc { IMPLICIT } else { u32::MAX };
        // CLRX's modifier bits of constants (neg | abs << 1 at bit 2n for
        // source n), written as lists after the operands.
        let mut moved_mods = 0;
        // Nonzero if a text is missing, an integer operand has modifiers
        // (LLVM) or a second scalar source is read: the general path
        // decides, and nothing is written. (Flags rather than branches:
        // random code takes each way at random.)
        let mut refuse = 0;
        let mut sep = SEPARATOR[0];
        for &s in &p.steps[..usize::from(p.n_steps)] {
            let code = (i.raw >> (s & 63)) as u32 & ((1 << (s >> word::WIDTH & 15)) - 1);
            let text = t.texts[(s >> word::TABLE & 63) as usize][code as usize & 511];
            let n = s >> word::SOURCE & 3;
            let mut wrap = mods[n as usize];
            // (Of the codes with a text, only the numbers are constants
            // to the modifiers.)
            let constant =
                u32::from(code.wrapping_sub(128) <= 208 - 128 || code.wrapping_sub(240) <= 8);
            let wrapped = u32::from(wrap != 0);
            if L {
                // LLVM: no neg/abs on an integer operand.
                refuse |= wrapped & s >> word::INT & 1;
            } else {
                // CLRX writes a constant's bits after the operands.
                let moved = wrap & 0u32.wrapping_sub(constant);
                moved_mods |= moved << (2 * n);
                wrap ^= moved;
            }
            let scalar = s >> word::BUS & 1 & u32::from(code < 128);
            let key = code | (s >> word::DWORDS & 3) << 9;
            refuse |= scalar & u32::from(bus != u32::MAX) & u32::from(bus != key);
            bus = if scalar != 0 { key } else { bus };
            refuse |= u32::from(text == 0);
            let [neg_pre, abs_pre, post] = MODDED[usize::from(L)][(wrap | constant << 2) as usize];
            line.put(sep);
            sep = SEPARATOR[1];
            line.put(neg_pre);
            line.put(abs_pre);
            line.put16(text);
            line.put(post);
        }
        // (Bits 0, 2, 4: neg; 1, 3, 5: abs.)
        let const_neg = pext_even(moved_mods);
        let const_abs = pext_even(moved_mods >> 1);
        if refuse != 0 {
            return false;
        }
        // CLRX writes `mul:2 clamp`, LLVM `clamp mul:2` (texts of no
        // length where a modifier is not set: no branch on the bits).
        let clamp = CLAMP * Packed::from(field(Field::Clamp) != 0);
        let (first, second) = if L {
            (clamp, OMOD[omod as usize & 3])
        } else {
            (OMOD[omod as usize & 3], clamp)
        };
        line.put(first);
        line.put(second);
        if const_abs | const_neg == 0 {
            line.put(VOP3_TAIL * Packed::from(p.vop3_tail));
            line.commit(out);
            return true;
        }
        line.commit(out);
        if const_abs != 0 {
            push_bits(out, ABS_LIST, const_abs, p.n_src);
        }
        if const_neg != 0 {
            push_bits(out, NEG_LIST, const_neg, p.n_src);
        }
        if p.vop3_tail {
            push_packed(out, VOP3_TAIL);
        }
        true
    }
}

const SRC: [Field; 3] = [Field::Src0, Field::Src1, Field::Src2];

/// Bits 0, 2 and 4 of `v` as bits 0, 1 and 2.
#[inline(always)]
fn pext_even(v: u32) -> u32 {
    v & 1 | v >> 1 & 2 | v >> 2 & 4
}
/// The key of the implicit VCC read among the scalar reads (no operand's).
const IMPLICIT: u32 = 1 << 16;
const VCC: Packed16 = pack16_bytes(b"vcc");
const SEPARATOR: [Packed; 2] = [pack_concat(" ", ""), pack_concat(", ", "")];
const CLAMP: Packed = pack_concat(" clamp", "");
const VOP3_TAIL: Packed = pack_concat(" vop3", "");
const ABS_LIST: Packed = pack_concat(" abs:[", "");
const NEG_LIST: Packed = pack_concat(" neg:[", "");

/// Room for every [`Ty`] as an index.
const TY_SLOTS: usize = 64;

/// `head` (` abs:[`), then the low `n` bits of `v` (`1,0,1`) and `]`.
#[inline(never)]
fn push_bits(out: &mut Vec<u8>, head: Packed, v: u32, n: u8) {
    push_packed(out, head);
    for k in 0..n {
        if k > 0 {
            out.push(b',');
        }
        out.push(b'0' + (v >> k & 1) as u8);
    }
    out.push(b']');
}

/// The most a plan writes before [`Line::commit`]: the name, and per step
/// a separator, two prefixes, the text and a suffix (each stored whole,
/// 8 or 16 bytes), then three modifiers.
const LINE_ROOM: usize = NAME_MAX + STEPS_MAX * (8 + 8 + 8 + 16 + 8) + 3 * 8;

/// A line being written into the spare capacity of a buffer, with no
/// capacity check per piece: the buffer's length moves only at
/// [`Line::commit`], so a plan that gives up has written nothing.
struct Line {
    ptr: *mut u8,
    at: usize,
}

impl Line {
    /// Makes room for [`LINE_ROOM`] bytes past `out`'s text.
    #[inline(always)]
    fn new(out: &mut Vec<u8>) -> Line {
        out.reserve(LINE_ROOM);
        Line {
            ptr: out.as_mut_ptr(),
            at: out.len(),
        }
    }

    /// The first `len` bytes of a zero-padded name (one copy of all).
    #[inline(always)]
    fn name(&mut self, name: &[u8; NAME_MAX], len: u8) {
        // SAFETY: `new` reserved LINE_ROOM bytes past the text and this is
        // the first piece: NAME_MAX of them are in room.
        unsafe {
            std::ptr::copy_nonoverlapping(name.as_ptr(), self.ptr.add(self.at), NAME_MAX);
        }
        self.at += usize::from(len);
    }

    /// A [`Packed`] text (one 8-byte store).
    #[inline(always)]
    fn put(&mut self, t: Packed) {
        // SAFETY: a plan stores at most LINE_ROOM bytes from the start of
        // the line (see LINE_ROOM), each piece whole, so the 8 bytes are in
        // the room `new` reserved.
        unsafe {
            self.ptr
                .add(self.at)
                .cast::<u64>()
                .write_unaligned(t.to_le())
        };
        self.at += (t >> 56) as usize;
    }

    /// A [`Packed16`] text (one 16-byte store).
    #[inline(always)]
    fn put16(&mut self, t: Packed16) {
        // SAFETY: as in `put`, with 16 bytes.
        unsafe {
            self.ptr
                .add(self.at)
                .cast::<u128>()
                .write_unaligned(t.to_le())
        };
        self.at += (t >> 120) as usize;
    }

    /// Makes the line part of `out`'s text (the buffer `new` was given).
    #[inline(always)]
    fn commit(self, out: &mut Vec<u8>) {
        debug_assert!(self.at <= out.capacity() && self.ptr == out.as_mut_ptr());
        // SAFETY: `out` is the buffer `new` took (not reallocated since: the
        // line holds no borrow, but nothing else writes to it meanwhile) and
        // every byte up to `at` was written by a piece.
        unsafe { out.set_len(self.at) };
    }
}

/// The tables of `gen` in dialect `L`, from the general path's functions
/// on a probe instruction (a VOP3 one: the checks of register ranges
/// differ in vector ALU instructions).
fn tables<const L: bool>(gen: Gen) -> Tables {
    let printer = Printer::new(if L { Dialect::Llvm } else { Dialect::Clrx });
    let pr = Pr::<L, true>(&printer);
    let probe = Instr {
        op: 0,
        enc: Enc::Vop3,
        gen,
        len: 2,
        raw: 0,
        lit: None,
    };
    let mut buf = Vec::new();
    // The text `print` writes if the checks pass, else 0.
    let mut checked = |print: &dyn Fn(&mut Vec<u8>)| {
        buf.clear();
        printer.lossy.set(false);
        print(&mut buf);
        if printer.lossy.get() {
            0
        } else {
            pack16_bytes(&buf)
        }
    };
    // The texts by width (dwords - 1) and code.
    let mut src = [[0; 512]; 2];
    let mut sreg = [[0; 512]; 2];
    let mut vgpr = [[0; 512]; 2];
    for (d, ty) in [Ty::B32, Ty::B64].into_iter().enumerate() {
        let dwords = d as u32 + 1;
        for code in 0..512u32 {
            // Registers and integer constants: the codes whose text
            // depends on nothing but the code and the width.
            if matches!(code, 0..=208 | 256..=511) {
                src[d][code as usize] = checked(&|b| pr.push_src(b, &probe, code, ty, None));
            }
        }
        for code in 0..256u32 {
            sreg[d][code as usize] = checked(&|b| pr.sreg(b, &probe, code, dwords));
            vgpr[d][code as usize] = checked(&|b| pr.vgpr(b, code, dwords));
        }
    }
    let mut vcc = [0; 512];
    vcc[0] = VCC;
    let mut texts = Texts {
        tables: vec![vcc, vgpr[0], vgpr[1], sreg[0], sreg[1]],
        sources: Vec::new(),
    };
    let mut vop3 = vec![NO_PLAN; OPS.len()].into_boxed_slice();
    let mut short = vec![NO_PLAN; OPS.len()].into_boxed_slice();
    // The float constants' texts by type (codes 240..=248).
    let mut floats: Vec<Option<[Packed16; 9]>> = vec![None; TY_SLOTS];
    let mut source_table = |dwords: u8, ty: Ty| {
        let f = *floats[ty as usize].get_or_insert_with(|| {
            std::array::from_fn(|k| checked(&|b| pr.push_src(b, &probe, 240 + k as u32, ty, None)))
        });
        let d = usize::from(dwords - 1);
        texts.source(d, &src[d], f)
    };
    for (op, info) in OPS.iter().enumerate() {
        if let Some((mut p, steps)) = vop3_plan::<L>(info) {
            if compile::<L>(&mut p, &steps, gen, Enc::Vop3, &mut source_table).is_some() {
                vop3[op] = p;
            }
        }
        if let Some((mut p, steps)) = short_plan::<L>(info) {
            let enc = match info.family {
                Family::Vop1 => Enc::Vop1,
                Family::Vop2 => Enc::Vop2,
                _ => Enc::Vopc,
            };
            if compile::<L>(&mut p, &steps, gen, enc, &mut source_table).is_some() {
                short[op] = p;
            }
        }
    }
    // (A fixed number of tables, so that a word's table needs no bounds
    // check; on the heap, 512 KiB, most of it never touched.)
    texts.tables.resize(TABLES_MAX, [0; 512]);
    let Ok(all) = texts.tables.into_boxed_slice().try_into() else {
        unreachable!("a vector of TABLES_MAX tables")
    };
    Tables {
        texts: all,
        vop3,
        short,
    }
}

/// The text tables of [`Tables::texts`] being made: the first five are
/// fixed ([`T_VCC`], [`T_VGPR`], [`T_SREG`]), then one per distinct set of
/// source texts (the float constants differ by type).
struct Texts {
    tables: Vec<[Packed16; 512]>,
    /// The float constants' texts and the width of each source table.
    sources: Vec<(usize, [Packed16; 9], usize)>,
}

/// A [`Word`]'s source number for an operand without modifiers.
const NO_MODS: u32 = 3 << word::SOURCE;

const T_VCC: u32 = 0;
const T_VGPR: u32 = 1;
const T_SREG: u32 = 3;

impl Texts {
    /// The table of sources of `width` (dwords - 1) with these float
    /// constants (`base`: the other codes' texts for this width), if a
    /// [`Word`] can name it.
    fn source(
        &mut self,
        width: usize,
        base: &[Packed16; 512],
        floats: [Packed16; 9],
    ) -> Option<u32> {
        if let Some(&(_, _, k)) = self.sources.iter().find(|s| s.0 == width && s.1 == floats) {
            return Some(k as u32);
        }
        if self.tables.len() == TABLES_MAX {
            return None;
        }
        let mut table = *base;
        table[240..=248].copy_from_slice(&floats);
        self.sources.push((width, floats, self.tables.len()));
        self.tables.push(table);
        Some(self.tables.len() as u32 - 1)
    }
}

/// The VOP3 plan of `info` in dialect `L`, if it has one (the general
/// path prints interpolation rows, implicit reads, CLRX's widened second
/// operands and rows llvm-mc does not know).
fn vop3_plan<const L: bool>(info: &OpInfo) -> Option<(Plan, Vec<Step>)> {
    if vop3_interp(info)
        || info.implicit_read().is_some()
        || (L && info.has(flag::NOLLVM))
        || (!L && info.has(flag::CLRXB64))
    {
        return None;
    }
    let mut p = named::<L>(info, Enc::Vop3)?;
    let mut steps = Vec::new();
    if info.family == Family::Vopc {
        steps.push(Step::Sreg(Field::Vdst, 2));
    }
    for op in info.sig {
        let dwords = op.ty.dwords();
        if dwords > 2 {
            return None;
        }
        let dwords = dwords as u8;
        let src = |n, plain| Step::Src {
            n,
            // (The carry-in is printed as a pair whatever its type.)
            ty: if plain { Ty::B64 } else { op.ty },
            dwords: if plain { 2 } else { dwords },
            bus: !op.sgpr,
            plain,
        };
        steps.push(match op.role {
            Role::D if op.sgpr => Step::Sreg(Field::Vdst, dwords),
            Role::D => Step::Vgpr(Field::Vdst, dwords),
            Role::SD => Step::Sreg(Field::Sdst3, 2),
            Role::A => src(0, false),
            Role::B => src(1, false),
            Role::C => src(2, false),
            Role::SC => src(2, true),
            _ => return None,
        });
    }
    // (Interpolation rows, marked too in the general path, have no plan.)
    p.vop3_tail = !L && matches!(info.family, Family::Vop2 | Family::Vop1 | Family::Vopc);
    p.n_src = info
        .sig
        .iter()
        .filter(|s| matches!(s.role, Role::A | Role::B | Role::C))
        .count() as u8;
    p.omod_lossy_b = L
        && !info
            .sig
            .iter()
            .any(|s| s.role == Role::A && s.ty.is_float());
    Some((p, steps))
}

/// The VOP1, VOP2 or VOPC plan of `info` in dialect `L`, if it has one
/// (the general path prints literals, implicit reads, lane selects,
/// CLRX's widened second operands, rows llvm-mc does not know and, in
/// LLVM's syntax, sources that must be VGPRs or SGPRs).
fn short_plan<const L: bool>(info: &OpInfo) -> Option<(Plan, Vec<Step>)> {
    if !matches!(info.family, Family::Vop2 | Family::Vop1 | Family::Vopc)
        || (L && info.has(flag::NOLLVM))
        || (!L && info.has(flag::CLRXB64))
        || info.implicit_read().is_some()
    {
        return None;
    }
    let mut p = named::<L>(info, Enc::Vop1)?;
    let mut steps = Vec::new();
    if info.family == Family::Vopc {
        steps.push(Step::Vcc);
    }
    for op in info.sig {
        let dwords = op.ty.dwords();
        if dwords > 2 {
            return None;
        }
        let dwords = dwords as u8;
        steps.push(match op.role {
            Role::D if op.sgpr => Step::Sreg(Field::Vdst, dwords),
            Role::D => Step::Vgpr(Field::Vdst, dwords),
            Role::SD => Step::Vcc,
            Role::SC => {
                p.reads_vcc = true;
                Step::Vcc
            }
            Role::A if L && (op.vgpr || op.sgpr) => return None,
            Role::A => Step::Src {
                n: 0,
                ty: op.ty,
                dwords,
                bus: true,
                plain: true,
            },
            Role::B if !op.sgpr => Step::Vgpr(Field::Vsrc1, dwords),
            _ => return None,
        });
    }
    Some((p, steps))
}

/// A plan with no operands yet, named as the dialect names `info` in
/// `enc` (none if the name does not fit). (The gen only matters for VINTRP,
/// which has no plan.)
fn named<const L: bool>(info: &OpInfo, enc: Enc) -> Option<Plan> {
    let (name, suffix) = if L {
        (info.name, llvm_suffix(info, enc, Gen::Gcn10))
    } else {
        (info.clrx, "")
    };
    let len = name.len() + suffix.len();
    if len > NAME_MAX {
        return None;
    }
    let mut p = NO_PLAN;
    p.name[..name.len()].copy_from_slice(name.as_bytes());
    p.name[name.len()..len].copy_from_slice(suffix.as_bytes());
    p.len = len as u8;
    Some(p)
}

/// Puts `steps` in `p` as [`Word`]s, their fields where encoding `enc`
/// (VOP3's, or the short one of the row) of `gen` has them; `source`
/// gives the text table of a source of some width and type. None if
/// there are too many steps or a field or table has no place in a word.
fn compile<const L: bool>(
    p: &mut Plan,
    steps: &[Step],
    gen: Gen,
    enc: Enc,
    source: &mut impl FnMut(u8, Ty) -> Option<u32>,
) -> Option<()> {
    if steps.len() > STEPS_MAX {
        return None;
    }
    for (k, step) in steps.iter().enumerate() {
        let (field, table, src) = match *step {
            Step::Vgpr(f, d) => (Some(f), T_VGPR + u32::from(d) - 1, NO_MODS),
            Step::Vcc => (None, T_VCC, NO_MODS),
            Step::Sreg(f, d) => (Some(f), T_SREG + u32::from(d) - 1, NO_MODS),
            Step::Src {
                n,
                ty,
                dwords,
                bus,
                plain,
            } => {
                let bits = u32::from(if plain { 3 } else { n }) << word::SOURCE
                    | u32::from(bus) << word::BUS
                    | u32::from(L && !ty.is_float()) << word::INT
                    | u32::from(dwords) << word::DWORDS;
                (Some(SRC[usize::from(n)]), source(dwords, ty)?, bits)
            }
        };
        let (pos, mask) = match field {
            None => (0, 0),
            // (VOP3b rows: the scalar destination is theirs alone, the
            // other fields lie where VOP3 has them.)
            Some(Field::Sdst3) => position_mask(Enc::Vop3b, gen, Field::Sdst3),
            Some(f) if enc == Enc::Vop3 => {
                let at = position_mask(enc, gen, f);
                (at == position_mask(Enc::Vop3b, gen, f)).then_some(at)?
            }
            Some(f) => position_mask(enc, gen, f),
        };
        let width = mask.count_ones();
        if (field.is_some() && mask == 0) || mask != (1 << width) - 1 || width > 9 {
            return None;
        }
        p.steps[k] = pos | width << word::WIDTH | table << word::TABLE | src;
    }
    p.n_steps = steps.len() as u8;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::gen::ALL_GENS;
    use crate::random;

    /// Where a plan prints an instruction, it prints what the general path
    /// prints, and the general path's checks call that text exact: on
    /// random words biased to every form (odd registers, reserved codes,
    /// modifiers on anything) and on valid instructions of every form, in
    /// both dialects. The plans must also print most valid lines.
    #[test]
    fn plans_print_what_the_general_path_prints() {
        for gen in ALL_GENS {
            let garbage = random::garbage_cases(gen, 40_000, 0x91a2 + gen as u64);
            let forms = random::all_forms(gen);
            let mut rng = random::Rng::new(7);
            let valid: Vec<Vec<u8>> = (0..20_000)
                .map(|_| {
                    let i = random::random_of(&mut rng, gen.into(), &forms);
                    let (w, n) = i.words();
                    w[..n].iter().flat_map(|x| x.to_le_bytes()).collect()
                })
                .collect();
            for dialect in [Dialect::Llvm, Dialect::Clrx] {
                let compare = match dialect {
                    Dialect::Llvm => compare::<true>,
                    Dialect::Clrx => compare::<false>,
                };
                compare(gen, &garbage);
                let (planned, alu) = compare(gen, &valid);
                assert!(
                    planned * 10 > alu * 9,
                    "{gen:?} {dialect:?}: {planned} of {alu} valid vector ALU lines by plan"
                );
            }
        }
    }

    /// Checks every case; returns how many vector ALU instructions (VOP1,
    /// VOP2, VOPC, VOP3) were printed by plan, and how many there were.
    fn compare<const L: bool>(gen: Gen, cases: &[Vec<u8>]) -> (usize, usize) {
        let dialect = if L { Dialect::Llvm } else { Dialect::Clrx };
        let mut general = Printer::new(dialect);
        general.plans = false;
        let planner = Printer::new(dialect);
        let (mut planned, mut alu) = (0, 0);
        for case in cases {
            let Ok(i) = decode_bytes(gen, case) else {
                continue;
            };
            if !matches!(
                i.enc,
                Enc::Vop3 | Enc::Vop3b | Enc::Vop1 | Enc::Vop2 | Enc::Vopc
            ) {
                continue;
            }
            alu += 1;
            let mut by_plan = Vec::new();
            if !Pr::<L, true>(&planner).by_plan(&i, &mut by_plan) {
                assert!(by_plan.is_empty());
                continue;
            }
            planned += 1;
            let mut text = String::new();
            let exact = general.write_checked(&i, &mut text);
            assert_eq!(
                String::from_utf8_lossy(&by_plan),
                text,
                "{gen:?} {dialect:?} {:#018x}",
                i.raw
            );
            assert!(exact, "{gen:?} {dialect:?} {text}: planned but lossy");
            // And through the printer's entry point.
            let mut b = String::new();
            assert!(planner.write_checked(&i, &mut b));
            assert_eq!(b, text);
        }
        (planned, alu)
    }
}
