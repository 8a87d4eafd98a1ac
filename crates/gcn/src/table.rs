//! The instruction tables: every GCN instruction as one row of data.
//!
//! The rows live in `tables/*.tbl` (see `tables/README.md`); `build.rs` turns
//! them into [`OPS`] and the per-generation opcode lookups used here.

use crate::gen::{Gen, GEN_COUNT};
use crate::processor::{Feature, Features, Target};

/// What an operand is, as far as the printer, parser and emulator care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Ty {
    B16,
    B32,
    B64,
    B96,
    B128,
    B160,
    B256,
    B512,
    I16,
    I32,
    I64,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    V2F16,
    V2I16,
    V2U16,
    D16x1,
    D16x2,
    D16x3,
    D16x4,
    /// A branch offset in dwords relative to the next instruction.
    Label,
    /// `hwreg(reg, offset, size)` in a SOPK immediate.
    Hwreg,
    /// `sendmsg(...)` in a SOPP immediate.
    Sendmsg,
    /// `vmcnt(..) expcnt(..) lgkmcnt(..)` in a SOPP immediate.
    Waitcnt,
    /// A raw 16-bit immediate.
    Imm16,
    /// A signed 16-bit immediate.
    Simm16,
    /// `s_set_gpr_idx_on` mode bits.
    Gpridx,
    /// Interpolation attribute and channel.
    Attr,
    /// Interpolation parameter (`p10`, `p20`, `p0`).
    Param,
}

impl Ty {
    /// How many 32-bit registers a value of this type occupies (at least 1).
    #[inline]
    pub const fn dwords(self) -> u32 {
        // A load, not the jump table the `match` compiled to: the printer
        // asks for every operand, of instructions in any order, and the
        // table's jump missed the prediction a third of the time.
        const DWORDS: [u8; 64] = {
            let mut t = [1; 64];
            t[Ty::B64 as usize] = 2;
            t[Ty::I64 as usize] = 2;
            t[Ty::U64 as usize] = 2;
            t[Ty::F64 as usize] = 2;
            t[Ty::B96 as usize] = 3;
            t[Ty::B128 as usize] = 4;
            t[Ty::B160 as usize] = 5;
            t[Ty::B256 as usize] = 8;
            t[Ty::B512 as usize] = 16;
            t
        };
        DWORDS[self as usize] as u32
    }

    /// Whether inline constants of this operand are floating-point values.
    pub const fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64 | Ty::V2F16)
    }

    /// Whether the operand is 16 bits wide (inline float constants are halves).
    pub const fn is_16bit(self) -> bool {
        matches!(
            self,
            Ty::F16 | Ty::I16 | Ty::U16 | Ty::B16 | Ty::V2F16 | Ty::V2I16 | Ty::V2U16
        )
    }

    /// Registers memory data of this type occupies in `gen`: `d16` halves are
    /// packed two to a register on GCN 1.4 and one per register before.
    pub fn data_dwords(self, gen: Gen) -> u32 {
        match self.d16_halves() {
            0 => self.dwords(),
            h if !gen.has(Feature::UnpackedD16Vmem) => h.div_ceil(2),
            h => h,
        }
    }

    /// Number of 16-bit halves of a `d16` memory operand (0 for other types).
    pub const fn d16_halves(self) -> u32 {
        match self {
            Ty::D16x1 => 1,
            Ty::D16x2 => 2,
            Ty::D16x3 => 3,
            Ty::D16x4 => 4,
            _ => 0,
        }
    }
}

/// Which encoding field an operand lives in (see `tables/README.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The destination (SDST / VDST / SDATA).
    D,
    /// A scalar destination beside the vector one: VOP2 carry-out (VCC) or the VOP3b SDST.
    SD,
    /// First source (SSRC0 / SRC0 / ADDR / SBASE).
    A,
    /// Second source (SSRC1 / VSRC1 / SRC1 / DATA0).
    B,
    /// Third source (SRC2 / DATA1).
    C,
    /// Carry-in or condition: VCC in VOP2, SRC2 in VOP3.
    SC,
    /// A 32-bit literal constant that is always present.
    L,
    /// The 16-bit immediate of SOPK/SOPP.
    K,
    /// The scalar memory offset.
    O,
    /// Memory data (VDATA).
    V,
    /// Interpolation parameter.
    P,
    /// Interpolation attribute.
    T,
}

/// One operand of an instruction signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opnd {
    /// The field it lives in.
    pub role: Role,
    /// Its type.
    pub ty: Ty,
    /// The operand is a scalar register: in a VGPR field, the field names an SGPR
    /// (`v_readlane_b32`'s VDST); in a scalar source field, constants are not allowed.
    pub sgpr: bool,
    /// The operand must be a VGPR although the field could name other sources.
    pub vgpr: bool,
}

/// Flags of table rows; the meaning of each is in `tables/README.md`.
#[allow(missing_docs)]
pub mod flag {
    pub const NOLLVM: u32 = 1 << 0;
    pub const NOOFFSET: u32 = 1 << 1;
    pub const STORE: u32 = 1 << 2;
    pub const ATOMIC: u32 = 1 << 3;
    pub const IMM_D: u32 = 1 << 4;
    pub const TIED: u32 = 1 << 5;
    pub const NOVOP3: u32 = 1 << 6;
    pub const NOSDWA: u32 = 1 << 7;
    pub const NODPP: u32 = 1 << 8;
    pub const CMPX: u32 = 1 << 9;
    pub const VOP3B: u32 = 1 << 10;
    pub const NOOMOD: u32 = 1 << 11;
    pub const MIX: u32 = 1 << 12;
    pub const OFF2: u32 = 1 << 13;
    pub const GDS: u32 = 1 << 14;
    pub const NOGDS: u32 = 1 << 15;
    pub const LDS: u32 = 1 << 16;
    pub const NOARGS: u32 = 1 << 17;
    pub const SAMPLER: u32 = 1 << 18;
    pub const GATHER4: u32 = 1 << 19;
    pub const NORET: u32 = 1 << 20;
    /// Reads VCC or M0 implicitly: that read takes the one scalar-source slot.
    pub const SREAD: u32 = 1 << 21;
    /// Derived by `build.rs`: the row has an always-present literal (role `L`).
    pub const LIT: u32 = 1 << 22;
    /// LLVM 14 has no VOP3 (`_e64`) form of this VOP1/VOP2 row (CLRX has).
    pub const NOLLVM64: u32 = 1 << 23;
    /// CLRX's syntax writes operand B as 64 bits, where the hardware reads
    /// 32 (clrxasm requires `v[n:n+1]` for the class mask of
    /// `v_cmp_class_f64`: "Required 2 vector registers").
    pub const CLRXB64: u32 = 1 << 24;
    /// Derived by `build.rs`: an operand is a branch offset (type `label`):
    /// listings test it for every instruction.
    pub const BRANCH: u32 = 1 << 25;
}

/// One instruction: a row of a table.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// Mnemonic as LLVM spells it.
    pub name: &'static str,
    /// Mnemonic as CLRX spells it.
    pub clrx: &'static str,
    /// The table (encoding family) the row belongs to.
    pub family: Family,
    /// Opcode per generation (`u16::MAX`: not in that generation).
    pub opc: [u16; GEN_COUNT],
    /// Operands in printed order.
    pub sig: &'static [Opnd],
    /// [`flag`] bits.
    pub flags: u32,
    /// The chip features the instruction needs beside its generation
    /// (`feat=` in the table; empty for most rows).
    pub feat: Features,
}

impl OpInfo {
    /// Whether the row has flag `f`.
    #[inline]
    pub const fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }

    /// The operand in `role`, if the instruction has one.
    #[inline]
    pub fn operand(&self, role: Role) -> Option<Opnd> {
        self.sig.iter().copied().find(|o| o.role == role)
    }

    /// The opcode in generation `gen`, if the instruction exists there.
    #[inline]
    pub fn opcode(&self, gen: Gen) -> Option<u16> {
        let o = self.opc[gen as usize];
        (o != u16::MAX).then_some(o)
    }

    /// Whether the instruction exists on `target`: in its generation, with
    /// the features it needs.
    #[inline]
    pub fn available(&self, target: Target) -> bool {
        self.opcode(target.gen).is_some() && target.features.contains(self.feat)
    }

    /// The scalar register a [`flag::SREAD`] row reads without naming it,
    /// as (operand code, dwords): M0 in the VOP1 table (`v_movrel*`), VCC
    /// in the VOP3 one (`v_div_fmas_*`).
    #[inline]
    pub fn implicit_read(&self) -> Option<(u32, u32)> {
        if !self.has(flag::SREAD) {
            return None;
        }
        Some(if self.family == Family::Vop1 {
            (124, 1)
        } else {
            (106, 2)
        })
    }

    /// The VOP3 (`_e64`) opcode of a VOP1/VOP2/VOPC instruction in `gen`.
    #[inline]
    pub fn vop3_opcode(&self, gen: Gen) -> Option<u16> {
        if self.has(flag::NOVOP3) {
            return None;
        }
        let base = match self.family {
            Family::Vop2 => VOP3_BASE_VOP2,
            Family::Vop1 => VOP3_BASE_VOP1,
            Family::Vopc => VOP3_BASE_VOPC,
            Family::Vintrp => VOP3_BASE_VINTRP,
            Family::Vop3 => return self.opcode(gen),
            _ => return None,
        };
        let b = base[gen as usize];
        self.opcode(gen).filter(|_| b != u16::MAX).map(|o| o + b)
    }
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// The [`flag`] bits of every row of [`OPS`], apart: a decoder reads a
/// row's flags for every instruction (its length depends on them), and
/// this table (5 KB) stays in the first-level cache where the rows
/// (97 KB) do not.
pub(crate) static OP_FLAGS: [u32; OPS.len()] = {
    let mut t = [0; OPS.len()];
    let mut k = 0;
    while k < OPS.len() {
        t[k] = OPS[k].flags;
        k += 1;
    }
    t
};

/// Whether row `op` has flag `f` (from [`OP_FLAGS`]).
#[inline(always)]
pub(crate) fn op_has(op: OpId, f: u32) -> bool {
    OP_FLAGS[op as usize] & f != 0
}

/// Bit 15 of a [`LOOKUP`] entry: the row needs chip features.
const GATED: u16 = 0x8000;

/// Index of an instruction in [`OPS`].
pub type OpId = u16;

/// The instruction of `family` with `opcode` on `target`, if there is one.
#[inline]
pub fn lookup(family: Family, target: Target, opcode: u32) -> Option<OpId> {
    let t = LOOKUP[family as usize][target.gen as usize];
    match t.get(opcode as usize) {
        Some(&e) if e != 0 && e & GATED == 0 => Some(e - 1),
        Some(&e) if e != 0 => lookup_gated(family, target, opcode, e & !GATED),
        _ => None,
    }
}

/// The rows of family number `family` in `gen` by opcode: `Some(row)` where
/// the opcode names a row that needs no chip feature (what [`lookup`]
/// finds for every chip), `None` where it names no row or a
/// feature-gated one (which only [`lookup`] with a chip tells apart).
pub(crate) fn ungated_rows(family: usize, gen: Gen) -> impl Iterator<Item = Option<OpId>> {
    LOOKUP[family][gen as usize]
        .iter()
        .map(|&e| (e != 0 && e & GATED == 0).then(|| e - 1))
}

/// How many families [`ungated_rows`] knows.
pub(crate) const FAMILY_COUNT: usize = LOOKUP.len();

/// The feature-gated rows that share an opcode with the row in the lookup
/// table (e.g. gfx906's `v_fma_mix_f32` and gfx900's `v_mad_mix_f32`).
#[cold]
fn lookup_gated(family: Family, target: Target, opcode: u32, entry: u16) -> Option<OpId> {
    let first = entry - 1;
    if target.features.contains(OPS[first as usize].feat) {
        return Some(first);
    }
    ALTS.iter()
        .find(|&&(f, g, o, i)| {
            f == family
                && g == target.gen as u8
                && u32::from(o) == opcode
                && target.features.contains(OPS[i as usize].feat)
        })
        .map(|a| a.3)
}

impl Family {
    /// The SEG field value that selects this family in the FLAT encoding
    /// (GCN 1.4 GLOBAL and SCRATCH share it with FLAT).
    pub fn flat_seg(self) -> u32 {
        match self {
            Family::Scratch => 1,
            Family::Global => 2,
            _ => 0,
        }
    }

    /// The table file this family comes from (`"vop2"` for `tables/vop2.tbl`).
    pub fn file(self) -> &'static str {
        FAMILY_FILES[self as usize]
    }

    /// Width of the opcode field in bits.
    pub fn opcode_bits(self) -> u32 {
        FAMILY_OPBITS[self as usize]
    }
}

/// All instructions named `name` (LLVM or CLRX spelling) that exist on `target`.
pub fn find_by_name(
    name: &str,
    target: impl Into<Target>,
) -> impl Iterator<Item = (OpId, &'static OpInfo)> + '_ {
    let target = target.into();
    OPS.iter()
        .enumerate()
        .filter(move |(_, o)| (o.name == name || o.clrx == name) && o.available(target))
        .map(|(i, o)| (i as OpId, o))
}
