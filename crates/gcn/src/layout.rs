//! Physical encodings and where each field sits in them, per generation.
//!
//! The layouts are data: a field is a (bit position, width) pair in the
//! 64-bit value made of an instruction's first two dwords. Generations that
//! move a field simply have a different row; no code branches on generation.

use crate::gen::{Gen, GEN_COUNT};

/// A physical encoding: how the bits of an instruction are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Enc {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smrd,
    Smem,
    Vop2,
    Vop1,
    Vopc,
    /// VOP3a: VOP3-only instructions and the `_e64` forms of VOP1/VOP2/VOPC.
    Vop3,
    /// VOP3b: VOP3 with a scalar destination instead of ABS/CLAMP.
    Vop3b,
    Vop3p,
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Exp,
    /// FLAT, and on GCN 1.4 also GLOBAL and SCRATCH (told apart by SEG).
    Flat,
    Vop2Sdwa,
    Vop1Sdwa,
    VopcSdwa,
    Vop2Dpp,
    Vop1Dpp,
    VopcDpp,
}

/// Number of [`Enc`] variants.
pub const ENC_COUNT: usize = Enc::VopcDpp as usize + 1;

/// Every encoding, in declaration order (`ENCS[e as usize] == e`).
pub(crate) const ENCS: [Enc; ENC_COUNT] = [
    Enc::Sop2,
    Enc::Sopk,
    Enc::Sop1,
    Enc::Sopc,
    Enc::Sopp,
    Enc::Smrd,
    Enc::Smem,
    Enc::Vop2,
    Enc::Vop1,
    Enc::Vopc,
    Enc::Vop3,
    Enc::Vop3b,
    Enc::Vop3p,
    Enc::Vintrp,
    Enc::Ds,
    Enc::Mubuf,
    Enc::Mtbuf,
    Enc::Mimg,
    Enc::Exp,
    Enc::Flat,
    Enc::Vop2Sdwa,
    Enc::Vop1Sdwa,
    Enc::VopcSdwa,
    Enc::Vop2Dpp,
    Enc::Vop1Dpp,
    Enc::VopcDpp,
];

/// A named bit field of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Field {
    Op,
    Sdst,
    Ssrc0,
    Ssrc1,
    Simm16,
    Vdst,
    Src0,
    Vsrc1,
    Src1,
    Src2,
    Abs,
    Neg,
    Clamp,
    Omod,
    OpSel,
    OpSelHi,
    OpSelHi2,
    NegHi,
    Sdst3,
    Sbase,
    Imm,
    Offset,
    Glc,
    Nv,
    Soe,
    Soffset,
    Offset0,
    Offset1,
    Gds,
    Addr,
    Data0,
    Data1,
    Offen,
    Idxen,
    Addr64,
    Lds,
    Slc,
    Tfe,
    Vaddr,
    Vdata,
    Srsrc,
    Dfmt,
    Nfmt,
    Dmask,
    Unorm,
    Da,
    R128,
    Lwe,
    D16,
    Ssamp,
    En,
    Tgt,
    Compr,
    Done,
    Vm,
    Vsrc0,
    Vsrc1e,
    Vsrc2,
    Vsrc3,
    Seg,
    Saddr,
    Attr,
    AttrChan,
    DstSel,
    DstUnused,
    Src0Sel,
    Src0Sext,
    Src0Neg,
    Src0Abs,
    S0,
    Src1Sel,
    Src1Sext,
    Src1Neg,
    Src1Abs,
    S1,
    SdwaSdst,
    SdwaSd,
    DppCtrl,
    BoundCtrl,
    DppNeg0,
    DppAbs0,
    DppNeg1,
    DppAbs1,
    BankMask,
    RowMask,
}

/// Number of [`Field`] variants.
pub const FIELD_COUNT: usize = Field::RowMask as usize + 1;

/// Where every field sits in one encoding of one generation: `pos | width << 6`
/// (width 0: the field does not exist).
pub type Layout = [u16; FIELD_COUNT];

type Spec = &'static [(Field, u8, u8)];

const fn layout(a: Spec, b: Spec) -> Layout {
    let mut l = [0u16; FIELD_COUNT];
    let mut i = 0;
    while i < a.len() {
        l[a[i].0 as usize] = a[i].1 as u16 | (a[i].2 as u16) << 6;
        i += 1;
    }
    let mut i = 0;
    while i < b.len() {
        l[b[i].0 as usize] = b[i].1 as u16 | (b[i].2 as u16) << 6;
        i += 1;
    }
    l
}

use Field::*;

const SOP2: Spec = &[(Ssrc0, 0, 8), (Ssrc1, 8, 8), (Sdst, 16, 7), (Op, 23, 7)];
const SOPK: Spec = &[(Simm16, 0, 16), (Sdst, 16, 7), (Op, 23, 5)];
const SOP1: Spec = &[(Ssrc0, 0, 8), (Op, 8, 8), (Sdst, 16, 7)];
const SOPC: Spec = &[(Ssrc0, 0, 8), (Ssrc1, 8, 8), (Op, 16, 7)];
const SOPP: Spec = &[(Simm16, 0, 16), (Op, 16, 7)];
const SMRD: Spec = &[
    (Offset, 0, 8),
    (Imm, 8, 1),
    (Sbase, 9, 6),
    (Sdst, 15, 7),
    (Op, 22, 5),
];
const SMEM8: Spec = &[
    (Sbase, 0, 6),
    (Sdst, 6, 7),
    (Glc, 16, 1),
    (Imm, 17, 1),
    (Op, 18, 8),
    (Offset, 32, 20),
];
const SMEM9: Spec = &[
    (Sbase, 0, 6),
    (Sdst, 6, 7),
    (Soe, 14, 1),
    (Nv, 15, 1),
    (Glc, 16, 1),
    (Imm, 17, 1),
    (Op, 18, 8),
    (Offset, 32, 21),
    (Soffset, 57, 7),
];
const VOP2: Spec = &[(Src0, 0, 9), (Vsrc1, 9, 8), (Vdst, 17, 8), (Op, 25, 6)];
const VOP1: Spec = &[(Src0, 0, 9), (Op, 9, 8), (Vdst, 17, 8)];
const VOPC: Spec = &[(Src0, 0, 9), (Vsrc1, 9, 8), (Op, 17, 8)];
const VOP3_SRCS: Spec = &[
    (Src0, 32, 9),
    (Src1, 41, 9),
    (Src2, 50, 9),
    (Omod, 59, 2),
    (Neg, 61, 3),
];
const VOP3A6: Spec = &[(Vdst, 0, 8), (Abs, 8, 3), (Clamp, 11, 1), (Op, 17, 9)];
const VOP3B6: Spec = &[(Vdst, 0, 8), (Sdst3, 8, 7), (Op, 17, 9)];
const VOP3A8: Spec = &[(Vdst, 0, 8), (Abs, 8, 3), (Clamp, 15, 1), (Op, 16, 10)];
const VOP3A9: Spec = &[
    (Vdst, 0, 8),
    (Abs, 8, 3),
    (OpSel, 11, 4),
    (Clamp, 15, 1),
    (Op, 16, 10),
];
const VOP3B8: Spec = &[(Vdst, 0, 8), (Sdst3, 8, 7), (Clamp, 15, 1), (Op, 16, 10)];
const VOP3P: Spec = &[
    (Vdst, 0, 8),
    (NegHi, 8, 3),
    (OpSel, 11, 3),
    (OpSelHi2, 14, 1),
    (Clamp, 15, 1),
    (Op, 16, 7),
    (Src0, 32, 9),
    (Src1, 41, 9),
    (Src2, 50, 9),
    (OpSelHi, 59, 2),
    (Neg, 61, 3),
];
const VINTRP: Spec = &[
    (Src0, 0, 8),
    (AttrChan, 8, 2),
    (Attr, 10, 6),
    (Op, 16, 2),
    (Vdst, 18, 8),
];
const DS_WORD1: Spec = &[(Addr, 32, 8), (Data0, 40, 8), (Data1, 48, 8), (Vdst, 56, 8)];
const DS6: Spec = &[
    (Offset, 0, 16),
    (Offset0, 0, 8),
    (Offset1, 8, 8),
    (Gds, 17, 1),
    (Op, 18, 8),
];
const DS8: Spec = &[
    (Offset, 0, 16),
    (Offset0, 0, 8),
    (Offset1, 8, 8),
    (Gds, 16, 1),
    (Op, 17, 8),
];
const BUF_WORD1: Spec = &[
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Tfe, 55, 1),
    (Soffset, 56, 8),
];
const MUBUF6: Spec = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Addr64, 15, 1),
    (Lds, 16, 1),
    (Op, 18, 7),
    (Slc, 54, 1),
];
const MUBUF8: Spec = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Lds, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
];
const MTBUF6: Spec = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Addr64, 15, 1),
    (Op, 16, 3),
    (Dfmt, 19, 4),
    (Nfmt, 23, 3),
    (Slc, 54, 1),
];
const MTBUF8: Spec = &[
    (Offset, 0, 12),
    (Offen, 12, 1),
    (Idxen, 13, 1),
    (Glc, 14, 1),
    (Op, 15, 4),
    (Dfmt, 19, 4),
    (Nfmt, 23, 3),
    (Slc, 54, 1),
];
const MIMG6: Spec = &[
    (Dmask, 8, 4),
    (Unorm, 12, 1),
    (Glc, 13, 1),
    (Da, 14, 1),
    (R128, 15, 1),
    (Tfe, 16, 1),
    (Lwe, 17, 1),
    (Op, 18, 7),
    (Slc, 25, 1),
    (Vaddr, 32, 8),
    (Vdata, 40, 8),
    (Srsrc, 48, 5),
    (Ssamp, 53, 5),
];
const MIMG8: Spec = &[(D16, 63, 1)];
const EXP: Spec = &[
    (En, 0, 4),
    (Tgt, 4, 6),
    (Compr, 10, 1),
    (Done, 11, 1),
    (Vm, 12, 1),
    (Vsrc0, 32, 8),
    (Vsrc1e, 40, 8),
    (Vsrc2, 48, 8),
    (Vsrc3, 56, 8),
];
const FLAT7: Spec = &[
    (Glc, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
    (Addr, 32, 8),
    (Data0, 40, 8),
    (Tfe, 55, 1),
    (Vdst, 56, 8),
];
const FLAT9: Spec = &[
    (Offset, 0, 13),
    (Lds, 13, 1),
    (Seg, 14, 2),
    (Glc, 16, 1),
    (Slc, 17, 1),
    (Op, 18, 7),
    (Addr, 32, 8),
    (Data0, 40, 8),
    (Saddr, 48, 7),
    (Nv, 55, 1),
    (Vdst, 56, 8),
];
const SDWA8: Spec = &[
    (Src0, 32, 8),
    (DstSel, 40, 3),
    (DstUnused, 43, 2),
    (Clamp, 45, 1),
    (Src0Sel, 48, 3),
    (Src0Sext, 51, 1),
    (Src0Neg, 52, 1),
    (Src0Abs, 53, 1),
    (Src1Sel, 56, 3),
    (Src1Sext, 59, 1),
    (Src1Neg, 60, 1),
    (Src1Abs, 61, 1),
];
const SDWA9: Spec = &[
    (Src0, 32, 8),
    (DstSel, 40, 3),
    (DstUnused, 43, 2),
    (Clamp, 45, 1),
    (Omod, 46, 2),
    (Src0Sel, 48, 3),
    (Src0Sext, 51, 1),
    (Src0Neg, 52, 1),
    (Src0Abs, 53, 1),
    (S0, 55, 1),
    (Src1Sel, 56, 3),
    (Src1Sext, 59, 1),
    (Src1Neg, 60, 1),
    (Src1Abs, 61, 1),
    (S1, 63, 1),
];
const SDWAC8: Spec = &[
    (Src0, 32, 8),
    // No vector destination, but CLRX writes (and prints) DST_SEL and
    // DST_UNUSED here as in the other SDWA encodings; LLVM writes 0.
    (DstSel, 40, 3),
    (DstUnused, 43, 2),
    (Clamp, 45, 1),
    (Src0Sel, 48, 3),
    (Src0Sext, 51, 1),
    (Src0Neg, 52, 1),
    (Src0Abs, 53, 1),
    (Src1Sel, 56, 3),
    (Src1Sext, 59, 1),
    (Src1Neg, 60, 1),
    (Src1Abs, 61, 1),
];
const SDWAC9: Spec = &[
    (Src0, 32, 8),
    (SdwaSdst, 40, 7),
    (SdwaSd, 47, 1),
    (Src0Sel, 48, 3),
    (Src0Sext, 51, 1),
    (Src0Neg, 52, 1),
    (Src0Abs, 53, 1),
    (S0, 55, 1),
    (Src1Sel, 56, 3),
    (Src1Sext, 59, 1),
    (Src1Neg, 60, 1),
    (Src1Abs, 61, 1),
    (S1, 63, 1),
];
const DPP: Spec = &[
    (Src0, 32, 8),
    (DppCtrl, 40, 9),
    (BoundCtrl, 51, 1),
    (DppNeg0, 52, 1),
    (DppAbs0, 53, 1),
    (DppNeg1, 54, 1),
    (DppAbs1, 55, 1),
    (BankMask, 56, 4),
    (RowMask, 60, 4),
];
const VOP2_NOSRC: Spec = &[(Vsrc1, 9, 8), (Vdst, 17, 8), (Op, 25, 6)];
const VOP1_NOSRC: Spec = &[(Op, 9, 8), (Vdst, 17, 8)];
const VOPC_NOSRC: Spec = &[(Vsrc1, 9, 8), (Op, 17, 8)];
const NONE: Spec = &[];

const fn all(a: Spec, b: Spec) -> [Layout; GEN_COUNT] {
    let l = layout(a, b);
    [l, l, l, l]
}
const fn split(a6: Spec, b6: Spec, a8: Spec, b8: Spec) -> [Layout; GEN_COUNT] {
    let l6 = layout(a6, b6);
    let l8 = layout(a8, b8);
    [l6, l6, l8, l8]
}
const fn per_gen(g6: [Spec; 2], g8: [Spec; 2], g9: [Spec; 2]) -> [Layout; GEN_COUNT] {
    let l6 = layout(g6[0], g6[1]);
    [l6, l6, layout(g8[0], g8[1]), layout(g9[0], g9[1])]
}

/// Field layouts, indexed by `[Enc as usize][Gen as usize]`.
pub static LAYOUTS: [[Layout; GEN_COUNT]; ENC_COUNT] = LAYOUT_DATA;

// A const (not only the static above) so that const fns can derive tables
// from it at compile time; it is never used at run time.
#[allow(clippy::large_const_arrays)]
pub(crate) const LAYOUT_DATA: [[Layout; GEN_COUNT]; ENC_COUNT] = [
    all(SOP2, NONE),
    all(SOPK, NONE),
    all(SOP1, NONE),
    all(SOPC, NONE),
    all(SOPP, NONE),
    all(SMRD, NONE),
    per_gen([NONE, NONE], [SMEM8, NONE], [SMEM9, NONE]),
    all(VOP2, NONE),
    all(VOP1, NONE),
    all(VOPC, NONE),
    per_gen(
        [VOP3A6, VOP3_SRCS],
        [VOP3A8, VOP3_SRCS],
        [VOP3A9, VOP3_SRCS],
    ),
    split(VOP3B6, VOP3_SRCS, VOP3B8, VOP3_SRCS),
    all(VOP3P, NONE),
    all(VINTRP, NONE),
    split(DS6, DS_WORD1, DS8, DS_WORD1),
    split(MUBUF6, BUF_WORD1, MUBUF8, BUF_WORD1),
    split(MTBUF6, BUF_WORD1, MTBUF8, BUF_WORD1),
    split(MIMG6, NONE, MIMG6, MIMG8),
    all(EXP, NONE),
    per_gen([FLAT7, NONE], [FLAT7, NONE], [FLAT9, NONE]),
    per_gen(
        [VOP2_NOSRC, SDWA8],
        [VOP2_NOSRC, SDWA8],
        [VOP2_NOSRC, SDWA9],
    ),
    per_gen(
        [VOP1_NOSRC, SDWA8],
        [VOP1_NOSRC, SDWA8],
        [VOP1_NOSRC, SDWA9],
    ),
    per_gen(
        [VOPC_NOSRC, SDWAC8],
        [VOPC_NOSRC, SDWAC8],
        [VOPC_NOSRC, SDWAC9],
    ),
    all(VOP2_NOSRC, DPP),
    all(VOP1_NOSRC, DPP),
    all(VOPC_NOSRC, DPP),
];

/// An encoding and the fixed bits of its first dword: (encoding, mask, value).
type Prefix = (Enc, u32, u32);

/// The fixed bits that identify an encoding: (encoding, mask, value) of the
/// first dword. The scalar and 32-bit vector encodings are the same in every
/// generation; the 64-bit ones move. Checked in order; the first match wins.
const PREFIXES: [[&[Prefix]; 2]; GEN_COUNT] = [
    [SCALAR_VOP, PREFIX6],
    [SCALAR_VOP, PREFIX6],
    [SCALAR_VOP, PREFIX8],
    [SCALAR_VOP, PREFIX9],
];

const SCALAR_VOP: &[Prefix] = &[
    (Enc::Sop1, 0xff80_0000, 0xbe80_0000),
    (Enc::Sopc, 0xff80_0000, 0xbf00_0000),
    (Enc::Sopp, 0xff80_0000, 0xbf80_0000),
    (Enc::Sopk, 0xf000_0000, 0xb000_0000),
    (Enc::Sop2, 0xc000_0000, 0x8000_0000),
    (Enc::Vop1, 0xfe00_0000, 0x7e00_0000),
    (Enc::Vopc, 0xfe00_0000, 0x7c00_0000),
    (Enc::Vop2, 0x8000_0000, 0x0000_0000),
];

const PREFIX6: &[Prefix] = &[
    (Enc::Smrd, 0xf800_0000, 0xc000_0000),
    (Enc::Vintrp, 0xfc00_0000, 0xc800_0000),
    (Enc::Vop3, 0xfc00_0000, 0xd000_0000),
    (Enc::Ds, 0xfc00_0000, 0xd800_0000),
    (Enc::Flat, 0xfc00_0000, 0xdc00_0000),
    (Enc::Mubuf, 0xfc00_0000, 0xe000_0000),
    (Enc::Mtbuf, 0xfc00_0000, 0xe800_0000),
    (Enc::Mimg, 0xfc00_0000, 0xf000_0000),
    (Enc::Exp, 0xfc00_0000, 0xf800_0000),
];
const PREFIX8: &[Prefix] = &[
    (Enc::Smem, 0xfc00_0000, 0xc000_0000),
    (Enc::Exp, 0xfc00_0000, 0xc400_0000),
    (Enc::Vintrp, 0xfc00_0000, 0xd400_0000),
    (Enc::Vop3, 0xfc00_0000, 0xd000_0000),
    (Enc::Ds, 0xfc00_0000, 0xd800_0000),
    (Enc::Flat, 0xfc00_0000, 0xdc00_0000),
    (Enc::Mubuf, 0xfc00_0000, 0xe000_0000),
    (Enc::Mtbuf, 0xfc00_0000, 0xe800_0000),
    (Enc::Mimg, 0xfc00_0000, 0xf000_0000),
];
const PREFIX9: &[Prefix] = &[
    (Enc::Smem, 0xfc00_0000, 0xc000_0000),
    (Enc::Exp, 0xfc00_0000, 0xc400_0000),
    (Enc::Vintrp, 0xfc00_0000, 0xd400_0000),
    (Enc::Vop3p, 0xff80_0000, 0xd380_0000),
    (Enc::Vop3, 0xfc00_0000, 0xd000_0000),
    (Enc::Ds, 0xfc00_0000, 0xd800_0000),
    (Enc::Flat, 0xfc00_0000, 0xdc00_0000),
    (Enc::Mubuf, 0xfc00_0000, 0xe000_0000),
    (Enc::Mtbuf, 0xfc00_0000, 0xe800_0000),
    (Enc::Mimg, 0xfc00_0000, 0xf000_0000),
];

/// Every prefix mask lies within the top 9 bits, so the first matching
/// prefix of a dword is a function of `w0 >> 23`: tabulated at compile time
/// (the decoder's first step becomes one load).
static CLASSIFY: [[Option<Enc>; 512]; GEN_COUNT] = [
    classify_table(0),
    classify_table(1),
    classify_table(2),
    classify_table(3),
];

const fn classify_table(gen: usize) -> [Option<Enc>; 512] {
    let mut table = [None; 512];
    let mut top = 0;
    while top < 512 {
        let w0 = (top as u32) << 23;
        let mut list = 0;
        'search: while list < 2 {
            let prefixes = PREFIXES[gen][list];
            let mut k = 0;
            while k < prefixes.len() {
                let (enc, mask, val) = prefixes[k];
                assert!(mask & !0xff80_0000 == 0, "prefix mask wider than 9 bits");
                if w0 & mask == val {
                    table[top] = Some(enc);
                    break 'search;
                }
                k += 1;
            }
            list += 1;
        }
        top += 1;
    }
    table
}

/// Bits of each encoding (first dword low) that no field and no fixed
/// prefix bit covers: reserved, so a word with any of them set is not an
/// instruction (printing it would silently drop those bits).
static RESERVED: [[u64; GEN_COUNT]; ENC_COUNT] = reserved_table();

const fn reserved_table() -> [[u64; GEN_COUNT]; ENC_COUNT] {
    let mut out = [[0u64; GEN_COUNT]; ENC_COUNT];
    let mut enc = 0;
    while enc < ENC_COUNT {
        let mut gen = 0;
        while gen < 4 {
            let layout = &LAYOUT_DATA[enc][gen];
            let mut used = 0u64;
            let mut f = 0;
            while f < FIELD_COUNT {
                let (pos, width) = ((layout[f] & 63) as u32, (layout[f] >> 6) as u32);
                if width != 0 {
                    used |= ((1u64 << width) - 1) << pos;
                }
                f += 1;
            }
            let dwords = ENCS[enc].base_dwords();
            let all = if dwords == 2 { u64::MAX } else { 0xffff_ffff };
            let fixed = match prefix_in(ENCS[enc], gen) {
                Some((mask, _)) => mask as u64,
                None => 0,
            };
            out[enc][gen] = all & !used & !fixed;
            gen += 1;
        }
        enc += 1;
    }
    out
}

/// The fixed bits (mask, value) of every encoding in every generation.
static PREFIX_OF: [[Option<(u32, u32)>; GEN_COUNT]; ENC_COUNT] = prefix_table();

const fn prefix_table() -> [[Option<(u32, u32)>; GEN_COUNT]; ENC_COUNT] {
    let mut out = [[None; GEN_COUNT]; ENC_COUNT];
    let mut enc = 0;
    while enc < ENC_COUNT {
        let mut gen = 0;
        while gen < 4 {
            out[enc][gen] = prefix_in(ENCS[enc], gen);
            gen += 1;
        }
        enc += 1;
    }
    out
}

/// The fixed bits of `enc` in generation index `gen`, from [`PREFIXES`].
pub(crate) const fn prefix_in(enc: Enc, gen: usize) -> Option<(u32, u32)> {
    // SDWA and DPP are marked by a reserved SRC0 value in the first dword.
    let (base, marker) = match enc {
        Enc::Vop3b => (Enc::Vop3, None),
        Enc::Vop2Sdwa => (Enc::Vop2, Some(0xf9)),
        Enc::Vop1Sdwa => (Enc::Vop1, Some(0xf9)),
        Enc::VopcSdwa => (Enc::Vopc, Some(0xf9)),
        Enc::Vop2Dpp => (Enc::Vop2, Some(0xfa)),
        Enc::Vop1Dpp => (Enc::Vop1, Some(0xfa)),
        Enc::VopcDpp => (Enc::Vopc, Some(0xfa)),
        e => (e, None),
    };
    let mut list = 0;
    while list < 2 {
        let prefixes = PREFIXES[gen][list];
        let mut k = 0;
        while k < prefixes.len() {
            let (e, mask, val) = prefixes[k];
            if e as u8 == base as u8 {
                return Some(match marker {
                    Some(m) => (mask | 0x1ff, val | m),
                    None => (mask, val),
                });
            }
            k += 1;
        }
        list += 1;
    }
    None
}

/// Reserved bits of `raw` in encoding `enc` of `gen` (0 for a clean word).
#[inline]
pub fn reserved_bits(enc: Enc, gen: Gen, raw: u64) -> u64 {
    raw & RESERVED[enc as usize][gen as usize]
}

impl Enc {
    /// The encoding of the first dword `w0` in `gen`, before SDWA/DPP and VOP3b are told apart.
    #[inline]
    pub fn classify(gen: Gen, w0: u32) -> Option<Enc> {
        CLASSIFY[gen as usize][(w0 >> 23) as usize]
    }

    /// The fixed bits of this encoding in `gen` (mask, value), if it exists there.
    #[inline]
    pub fn prefix(self, gen: Gen) -> Option<(u32, u32)> {
        PREFIX_OF[self as usize][gen as usize]
    }

    /// Length in dwords without a literal.
    #[inline]
    pub const fn base_dwords(self) -> u32 {
        // A bit test, not branches: the decoder asks for every
        // instruction, of encodings in any order.
        const ONE_DWORD: u32 = 1 << Enc::Sop2 as u32
            | 1 << Enc::Sopk as u32
            | 1 << Enc::Sop1 as u32
            | 1 << Enc::Sopc as u32
            | 1 << Enc::Sopp as u32
            | 1 << Enc::Smrd as u32
            | 1 << Enc::Vop2 as u32
            | 1 << Enc::Vop1 as u32
            | 1 << Enc::Vopc as u32
            | 1 << Enc::Vintrp as u32;
        2 - (ONE_DWORD >> self as u32 & 1)
    }
}

/// Reads field `f` of `raw` (first dword in the low half) in encoding `enc` of `gen`; 0 if absent.
#[inline(always)]
pub fn get(enc: Enc, gen: Gen, raw: u64, f: Field) -> u32 {
    let e = EXTRACT[enc as usize][gen as usize][f as usize];
    (raw >> (e & 63)) as u32 & (e >> 32) as u32
}

/// Where field `f` lies in encoding `enc` of `gen`: its position and its
/// mask (0 if absent), for code that reads the same field of many words
/// (printing plans).
#[inline]
pub(crate) fn position_mask(enc: Enc, gen: Gen, f: Field) -> (u32, u32) {
    let e = EXTRACT[enc as usize][gen as usize][f as usize];
    ((e & 63) as u32, (e >> 32) as u32)
}

/// The field layouts as (position | mask << 32): the hottest operation of
/// decoding and printing becomes one load, two shifts and an and.
static EXTRACT: [[[u64; FIELD_COUNT]; GEN_COUNT]; ENC_COUNT] = extract_table();

const fn extract_table() -> [[[u64; FIELD_COUNT]; GEN_COUNT]; ENC_COUNT] {
    let mut out = [[[0u64; FIELD_COUNT]; GEN_COUNT]; ENC_COUNT];
    let mut enc = 0;
    while enc < ENC_COUNT {
        let mut gen = 0;
        while gen < 4 {
            let mut f = 0;
            while f < FIELD_COUNT {
                let e = LAYOUT_DATA[enc][gen][f];
                let (pos, width) = ((e & 63) as u64, (e >> 6) as u32);
                assert!(width <= 32, "a field wider than 32 bits");
                let mask = if width == 32 {
                    u32::MAX
                } else {
                    (1u32 << width) - 1
                };
                out[enc][gen][f] = pos | (mask as u64) << 32;
                f += 1;
            }
            gen += 1;
        }
        enc += 1;
    }
    out
}

/// Whether encoding `enc` of `gen` has field `f`.
#[inline]
pub fn has(enc: Enc, gen: Gen, f: Field) -> bool {
    LAYOUTS[enc as usize][gen as usize][f as usize] >> 6 != 0
}

/// Writes `value` into field `f`; returns false (and writes nothing) if the field is absent or the value does not fit.
#[inline]
pub fn set(enc: Enc, gen: Gen, raw: &mut u64, f: Field, value: u32) -> bool {
    set_in(&LAYOUTS[enc as usize][gen as usize], raw, f, value)
}

/// [`set`] through a layout row the caller already looked up (an encoder
/// writing many fields of one instruction).
#[inline(always)]
pub fn set_in(row: &Layout, raw: &mut u64, f: Field, value: u32) -> bool {
    let e = row[f as usize];
    let pos = e & 63;
    let width = e >> 6;
    if width == 0 || u64::from(value) >> width != 0 {
        return false;
    }
    let mask = ((1u64 << width) - 1) << pos;
    *raw = (*raw & !mask) | (u64::from(value) << pos);
    true
}
