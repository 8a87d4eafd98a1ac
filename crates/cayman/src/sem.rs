//! What each ALU instruction computes: the [`Sem`] an ALU table row names
//! (`ops::ALU_OP2`, `ops::ALU_OP3`).
//!
//! The tables are the one place an instruction's semantics are chosen: every
//! ALU row names a [`Sem`] (the row constructor requires one), and the
//! emulator (`risa-cayman-emu`, module `alu`) owns the lane loops, keyed by
//! [`Sem`]; its tests walk every row. This module only names operations and
//! the facts about them that several layers use (predicate, kill, float
//! result, interpolation slots); it depends on nothing below it.

/// What an ALU instruction computes. One variant per instruction (or per
/// family whose members differ only in a parameter).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sem {
    // float arithmetic
    Add,
    Mul,
    MulIeee,
    Max,
    Min,
    MaxDx10,
    MinDx10,
    /// SETcc (float compare, float 1.0/0.0 result) and SETcc_DX10 (integer ~0/0 result).
    SetF(Cmp, bool),
    SetI(Cmp),
    SetU(Cmp),
    Fract,
    Trunc,
    Ceil,
    Rndne,
    Floor,
    AshrInt,
    LshrInt,
    LshlInt,
    Mov,
    Nop,
    /// PRED_SETcc (float), PRED_SETcc_INT, PRED_SETcc_UINT.
    PredSetF(Cmp),
    PredSetI(Cmp),
    PredSetU(Cmp),
    PredSetInv,
    PredSetPop,
    PredSetClr,
    PredSetRestore,
    /// PRED_SETcc_PUSH (float) and _PUSH_INT.
    PredSetPushF(Cmp),
    PredSetPushI(Cmp),
    KillF(Cmp),
    KillI(Cmp),
    KillU(Cmp),
    AndInt,
    OrInt,
    XorInt,
    NotInt,
    AddInt,
    SubInt,
    MaxInt,
    MinInt,
    MaxUint,
    MinUint,
    FltToInt,
    BfrevInt,
    AddcUint,
    SubbUint,
    GroupBarrier,
    GroupSeqBegin,
    GroupSeqEnd,
    MulInt24,
    MulhiInt24,
    ExpIeee,
    LogClamped,
    LogIeee,
    RecipClamped,
    RecipFf,
    RecipIeee,
    RecipsqrtClamped,
    RecipsqrtFf,
    RecipsqrtIeee,
    SqrtIeee,
    Sin,
    Cos,
    MulloInt,
    MulhiInt,
    MulloUint,
    MulhiUint,
    RecipInt,
    RecipUint,
    FltToUint,
    IntToFlt,
    UintToFlt,
    BfmInt,
    Flt32ToFlt16,
    Flt16ToFlt32,
    UbyteFlt(u8),
    BcntInt,
    FfbhUint,
    FfblInt,
    FfbhInt,
    FltToUint4,
    FltToIntRpi,
    FltToIntFloor,
    MulhiUint24,
    MulUint24,
    MovaInt,
    Dot4,
    Dot4Ieee,
    Max4,
    Cube,
    // double precision (two-slot pairs)
    Add64,
    Mul64,
    Min64,
    Max64,
    Set64(Cmp),
    PredSet64(Cmp),
    Flt64ToFlt32,
    Flt32ToFlt64,
    Fract64,
    /// LDEXP_64 (two slots: double in src1, exponent in the X/Z slot's src0).
    Ldexp64,
    /// FREXP_64 (four slots).
    Frexp64,
    /// RECIP_64, RECIP_CLAMPED_64, RECIPSQRT_64, RECIPSQRT_CLAMPED_64,
    /// SQRT_64: one slot, double from (src0 = high, src1 = low), result =
    /// the high dword (guide 8.2).
    Recip64(bool),
    Rsq64(bool),
    Sqrt64,
    OffsetToFlt,
    /// Ops that use the result of the next slot of the group (w → z → y → x):
    /// ADD_PREV, MUL_PREV, MUL_IEEE_PREV, MULADD_PREV, MULADD_IEEE_PREV,
    /// DOT, DOT_IEEE, BCNT_ACCUM_PREV_INT, MBCNT_32LO_ACCUM_PREV_INT,
    /// SAD_ACCUM_PREV_UINT.
    AddPrev,
    MulPrev,
    MulIeeePrev,
    MuladdPrev,
    MuladdIeeePrev,
    Dot,
    DotIeee,
    BcntAccumPrev,
    Mbcnt32LoAccumPrev,
    SadAccumPrev,
    /// MBCNT_32HI_INT (depends on the lane's position).
    Mbcnt32Hi,
    // OP3
    MulLit,
    BfeUint,
    BfeInt,
    BfiInt,
    Fma,
    MuladdInt24,
    LerpUint,
    BitAlignInt,
    ByteAlignInt,
    SadAccumUint,
    SadAccumHiUint,
    MuladdUint24,
    /// MULADD with its output scale (0 none, 1 ×2, 2 ×4, 3 ÷2).
    Muladd(u8),
    MuladdIeee,
    Cnd(Cmp),
    CndInt(Cmp),
    Fma64,
    Cndne64,
    /// LDS_IDX_OP (the LDS operation is decoded separately).
    Lds,
    /// SET_CF_IDX0/1: CF index register 0/1 from src0.
    SetCfIdx(u8),
    /// SET_LDS_SIZE: src0 = LDS size, src1 = global mode.
    SetLdsSize,
    /// STORE_FLAGS: dst = the exception flags (guide 4.13.2).
    StoreFlags,
    /// LOAD_STORE_FLAGS: dst = the exception flags, then flags = src0.
    LoadStoreFlags,
    /// INTERP_LOAD_P0 / P10 / P20 (0, 1, 2): a parameter's P0, P1 − P0 or
    /// P2 − P0 element from LDS.
    InterpLoad(u8),
    /// INTERP_XY, INTERP_ZW, INTERP_X, INTERP_Z: P0 + (P1 − P0)·i + (P2 − P0)·j.
    Interp(InterpKind),
}

/// Which channels an interpolation instruction produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpKind {
    /// INTERP_XY: all four slots; x and y.
    Xy,
    /// INTERP_ZW: all four slots; z and w.
    Zw,
    /// INTERP_X: slots x and y; x.
    X,
    /// INTERP_Z: slots z and w; z.
    Z,
}

impl InterpKind {
    /// The slots the instruction must occupy (bit c = slot c).
    #[inline]
    pub fn slots(self) -> u8 {
        match self {
            InterpKind::Xy | InterpKind::Zw => 0b1111,
            InterpKind::X => 0b0011,
            InterpKind::Z => 0b1100,
        }
    }
    /// The outputs: (result slot = parameter element, first slot of the
    /// slot pair whose sources give i (first slot's src0), j (second
    /// slot's src0) and the parameter (first slot's src1)).
    #[inline]
    pub fn outputs(self) -> &'static [(usize, usize)] {
        match self {
            InterpKind::Xy => &[(0, 0), (1, 2)],
            InterpKind::Zw => &[(2, 2), (3, 0)],
            InterpKind::X => &[(0, 0)],
            InterpKind::Z => &[(2, 2)],
        }
    }
}

/// A comparison.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    E,
    Gt,
    Ge,
    Ne,
    Lt,
    Le,
}

impl Cmp {
    /// Whether `a CMP b` holds (IEEE comparisons for floats: false on NaN,
    /// except `Ne`).
    #[inline(always)]
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::E => a == b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
        }
    }
}

impl Sem {
    /// True for instructions that compute a predicate (PRED_SET*).
    #[inline]
    pub fn is_pred_set(self) -> bool {
        matches!(
            self,
            Sem::PredSetF(_)
                | Sem::PredSetI(_)
                | Sem::PredSetU(_)
                | Sem::PredSetInv
                | Sem::PredSetPop
                | Sem::PredSetClr
                | Sem::PredSetRestore
                | Sem::PredSetPushF(_)
                | Sem::PredSetPushI(_)
                | Sem::PredSet64(_)
        )
    }
    /// True for KILL*.
    #[inline]
    pub fn is_kill(self) -> bool {
        matches!(self, Sem::KillF(_) | Sem::KillI(_) | Sem::KillU(_))
    }
    /// True for results the output modifier and clamp apply to (float results).
    #[inline]
    pub fn float_result(self) -> bool {
        use Sem::*;
        matches!(
            self,
            Add | Mul
                | MulIeee
                | Max
                | Min
                | MaxDx10
                | MinDx10
                | SetF(_, false)
                | Fract
                | Trunc
                | Ceil
                | Rndne
                | Floor
                | ExpIeee
                | LogClamped
                | LogIeee
                | RecipClamped
                | RecipFf
                | RecipIeee
                | RecipsqrtClamped
                | RecipsqrtFf
                | RecipsqrtIeee
                | SqrtIeee
                | Sin
                | Cos
                | IntToFlt
                | UintToFlt
                | Flt16ToFlt32
                | UbyteFlt(_)
                | Dot4
                | Dot4Ieee
                | Max4
                | Fma
                | Muladd(_)
                | MuladdIeee
                | Cnd(_)
                | MulLit
                | OffsetToFlt
                | AddPrev
                | MulPrev
                | MulIeeePrev
                | MuladdPrev
                | MuladdIeeePrev
                | Dot
                | DotIeee
        )
    }
}
