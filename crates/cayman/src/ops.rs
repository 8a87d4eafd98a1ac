//! Instruction tables of chapter 8, as data: one row per instruction
//! (`name`, opcode value in its encoding field, flags). Decisions where the
//! guide contradicts itself are documented in `docs/cayman-table-decisions.md`.
//! ALU rows also name their semantics ([`Sem`], module [`crate::sem`]).

use crate::sem::{Cmp, InterpKind, Sem};

/// One instruction: mnemonic, opcode value and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// Mnemonic (the guide's name without its `CF_INST_`/`OP2_INST_`/... prefix).
    pub name: &'static str,
    /// Value of the opcode field.
    pub code: u16,
    /// `F_*` flags; for ALU and LDS rows the low two bits are the source count.
    pub flags: u16,
    /// ALU rows ([`ALU_OP2`], [`ALU_OP3`]): what the instruction computes,
    /// named in the row so that no instruction can lack semantics (the
    /// emulator maps each [`Sem`] to its lane loop). `None` in the other
    /// tables.
    pub sem: Option<Sem>,
}

/// Mask of the source-operand count in `Op::flags` (ALU OP2/OP3, LDS).
pub const F_NSRC: u16 = 3;
/// CF: starts a fetch clause through the texture cache.
pub const F_TC: u16 = 1 << 2;
/// CF: starts a global-data-share clause.
pub const F_GDS: u16 = 1 << 3;
/// CF: ADDR is a CF instruction index (jump/loop/call target).
pub const F_JUMP: u16 = 1 << 4;
/// Export: second dword is CF_ALLOC_EXPORT_WORD1_SWIZ (else _BUF).
pub const F_SWIZ: u16 = 1 << 5;
/// Export: first dword is CF_ALLOC_EXPORT_WORD0_RAT.
pub const F_RAT: u16 = 1 << 6;
/// ALU: PRED_SET*/KILL* that may use the ALU_WORD1_OP2_EXECUTE_MASK format.
pub const F_EXEC: u16 = 1 << 7;
/// ALU: MOVA_INT (ALU_WORD1_OP2_MOVA format).
pub const F_MOVA: u16 = 1 << 8;
/// ALU: double-precision operation.
pub const F_64: u16 = 1 << 9;
/// LDS: returns a value in the LDS output queue.
pub const F_RET: u16 = 1 << 10;
/// VTX: uses VTX_WORD1_SEM (else VTX_WORD1_GPR).
pub const F_SEM: u16 = 1 << 11;
/// CF_ALU: the ALU_EXTENDED prefix.
pub const F_EXT: u16 = 1 << 12;
/// ALU: a second opcode for an instruction the guide lists twice (kept for decoding).
pub const F_ALT: u16 = 1 << 13;

const fn op(name: &'static str, code: u16, flags: u16) -> Op {
    Op {
        name,
        code,
        flags,
        sem: None,
    }
}

/// An ALU row: an [`op`] that names its semantics.
const fn alu(name: &'static str, code: u16, flags: u16, sem: Sem) -> Op {
    Op {
        name,
        code,
        flags,
        sem: Some(sem),
    }
}

/// CF_WORD1 `CF_INST` values (8 bits, \[29:22\]) of general CF instructions.
pub const CF_OPS: &[Op] = &[
    op("NOP", 0, 0),
    op("TC", 1, F_TC),
    op("GDS", 3, F_GDS),
    op("LOOP_START", 4, F_JUMP),
    op("LOOP_END", 5, F_JUMP),
    op("LOOP_START_DX10", 6, F_JUMP),
    op("LOOP_START_NO_AL", 7, F_JUMP),
    op("LOOP_CONTINUE", 8, F_JUMP),
    op("LOOP_BREAK", 9, F_JUMP),
    op("JUMP", 10, F_JUMP),
    op("PUSH", 11, F_JUMP),
    op("ELSE", 13, F_JUMP),
    op("POP", 14, F_JUMP),
    op("CALL", 18, F_JUMP),
    op("CALL_FS", 19, 0),
    op("RETURN", 20, 0),
    op("EMIT_VERTEX", 21, 0),
    op("EMIT_CUT_VERTEX", 22, 0),
    op("CUT_VERTEX", 23, 0),
    op("KILL", 24, F_JUMP),
    op("WAIT_ACK", 26, 0),
    op("TC_ACK", 27, F_TC),
    op("JUMPTABLE", 29, F_JUMP),
    op("GLOBAL_WAVE_SYNC", 30, 0),
    op("HALT", 31, 0),
    op("END", 32, 0),
    op("LDS_DEALLOC", 33, 0),
    op("PUSH_WQM", 34, F_JUMP),
    op("POP_WQM", 35, F_JUMP),
    op("ELSE_WQM", 36, F_JUMP),
    op("JUMP_ANY", 37, F_JUMP),
    op("REACTIVATE", 38, 0),
    op("REACTIVATE_WQM", 39, 0),
    op("INTERRUPT", 40, 0),
    op("INTERRUPT_AND_SLEEP", 41, 0),
    op("SET_PRIORITY", 42, 0),
];

/// CF_GWS_WORD0 `GWS_OPCODE` values (with CF_INST = GLOBAL_WAVE_SYNC).
pub const GWS_OPS: &[Op] = &[
    op("GWS_SEMA_V", 0, 0),
    op("GWS_SEMA_P", 1, 0),
    op("GWS_BARRIER", 2, 0),
    op("GWS_INIT", 3, 0),
];

/// CF_ALU_WORD1 `CF_INST` values (4 bits, \[29:26\]).
pub const CF_ALU_OPS: &[Op] = &[
    op("ALU", 8, 0),
    op("ALU_PUSH_BEFORE", 9, 0),
    op("ALU_POP_AFTER", 10, 0),
    op("ALU_POP2_AFTER", 11, 0),
    op("ALU_EXTENDED", 12, F_EXT),
    op("ALU_REACTIVATE_BEFORE", 13, 0),
    op("ALU_VALID_PIXEL_MODE", 14, 0),
    op("ALU_ELSE_AFTER", 15, 0),
];

/// CF_ALLOC_EXPORT_WORD1_{BUF,SWIZ} `CF_INST` values.
pub const EXPORT_OPS: &[Op] = &[
    op("MEM_STREAM0_BUF0", 64, 0),
    op("MEM_STREAM0_BUF1", 65, 0),
    op("MEM_STREAM0_BUF2", 66, 0),
    op("MEM_STREAM0_BUF3", 67, 0),
    op("MEM_STREAM1_BUF0", 68, 0),
    op("MEM_STREAM1_BUF1", 69, 0),
    op("MEM_STREAM1_BUF2", 70, 0),
    op("MEM_STREAM1_BUF3", 71, 0),
    op("MEM_STREAM2_BUF0", 72, 0),
    op("MEM_STREAM2_BUF1", 73, 0),
    op("MEM_STREAM2_BUF2", 74, 0),
    op("MEM_STREAM2_BUF3", 75, 0),
    op("MEM_STREAM3_BUF0", 76, 0),
    op("MEM_STREAM3_BUF1", 77, 0),
    op("MEM_STREAM3_BUF2", 78, 0),
    op("MEM_STREAM3_BUF3", 79, 0),
    op("MEM_WR_SCRATCH", 80, 0),
    op("MEM_RING", 82, 0),
    op("EXPORT", 83, F_SWIZ),
    op("EXPORT_DONE", 84, F_SWIZ),
    op("MEM_EXPORT", 85, 0),
    op("MEM_RAT", 86, F_RAT),
    op("MEM_RAT_CACHELESS", 87, F_RAT),
    op("MEM_RING1", 88, 0),
    op("MEM_RING2", 89, 0),
    op("MEM_RING3", 90, 0),
    op("MEM_EXPORT_COMBINED", 91, 0),
    op("MEM_RAT_COMBINED_CACHELESS", 92, F_RAT),
];

/// CF_ALLOC_EXPORT_WORD0_RAT `RAT_INST` values.
pub const RAT_OPS: &[Op] = &[
    op("NOP", 0, 0),
    op("STORE_TYPED", 1, 0),
    op("CMPXCHG_INT", 4, 0),
    op("ADD", 7, 0),
    op("SUB", 8, 0),
    op("RSUB", 9, 0),
    op("MIN_INT", 10, 0),
    op("MIN_UINT", 11, 0),
    op("MAX_INT", 12, 0),
    op("MAX_UINT", 13, 0),
    op("AND", 14, 0),
    op("OR", 15, 0),
    op("XOR", 16, 0),
    op("MSKOR", 17, 0),
    op("INC_UINT", 18, 0),
    op("DEC_UINT", 19, 0),
    op("STORE_DWORD", 20, 0),
    op("STORE_SHORT", 21, 0),
    op("STORE_BYTE", 22, 0),
    op("NOP_RTN", 32, F_RET),
    op("XCHG_RTN", 34, F_RET),
    op("CMPXCHG_INT_RTN", 36, F_RET),
    op("ADD_RTN", 39, F_RET),
    op("SUB_RTN", 40, F_RET),
    op("RSUB_RTN", 41, F_RET),
    op("MIN_INT_RTN", 42, F_RET),
    op("MIN_UINT_RTN", 43, F_RET),
    op("MAX_INT_RTN", 44, F_RET),
    op("MAX_UINT_RTN", 45, F_RET),
    op("AND_RTN", 46, F_RET),
    op("OR_RTN", 47, F_RET),
    op("XOR_RTN", 48, F_RET),
    op("MSKOR_RTN", 49, F_RET),
    op("INC_UINT_RTN", 50, F_RET),
    op("DEC_UINT_RTN", 51, F_RET),
];

const S0: u16 = 0;
const S1: u16 = 1;
const S2: u16 = 2;
const S3: u16 = 3;

/// ALU_WORD1_OP2 `ALU_INST` values (11 bits, \[17:7\]).
pub const ALU_OP2: &[Op] = &[
    alu("ADD", 0, S2, Sem::Add),
    alu("MUL", 1, S2, Sem::Mul),
    alu("MUL_IEEE", 2, S2, Sem::MulIeee),
    alu("MAX", 3, S2, Sem::Max),
    alu("MIN", 4, S2, Sem::Min),
    alu("MAX_DX10", 5, S2, Sem::MaxDx10),
    alu("MIN_DX10", 6, S2, Sem::MinDx10),
    alu("SETE", 8, S2, Sem::SetF(Cmp::E, false)),
    alu("SETGT", 9, S2, Sem::SetF(Cmp::Gt, false)),
    alu("SETGE", 10, S2, Sem::SetF(Cmp::Ge, false)),
    alu("SETNE", 11, S2, Sem::SetF(Cmp::Ne, false)),
    alu("SETE_DX10", 12, S2, Sem::SetF(Cmp::E, true)),
    alu("SETGT_DX10", 13, S2, Sem::SetF(Cmp::Gt, true)),
    alu("SETGE_DX10", 14, S2, Sem::SetF(Cmp::Ge, true)),
    alu("SETNE_DX10", 15, S2, Sem::SetF(Cmp::Ne, true)),
    alu("FRACT", 16, S1, Sem::Fract),
    alu("TRUNC", 17, S1, Sem::Trunc),
    alu("CEIL", 18, S1, Sem::Ceil),
    alu("RNDNE", 19, S1, Sem::Rndne),
    alu("FLOOR", 20, S1, Sem::Floor),
    alu("ASHR_INT", 21, S2, Sem::AshrInt),
    alu("LSHR_INT", 22, S2, Sem::LshrInt),
    alu("LSHL_INT", 23, S2, Sem::LshlInt),
    alu("MOV", 25, S1, Sem::Mov),
    alu("NOP", 26, S0, Sem::Nop),
    // R700 numbering, listed by the guide too; Cayman uses 202/205/206 (see the decisions doc)
    alu("MUL_64_ALT", 27, S2 | F_64 | F_ALT, Sem::Mul64),
    alu(
        "FLT64_TO_FLT32_ALT",
        28,
        S1 | F_64 | F_ALT,
        Sem::Flt64ToFlt32,
    ),
    alu(
        "FLT32_TO_FLT64_ALT",
        29,
        S1 | F_64 | F_ALT,
        Sem::Flt32ToFlt64,
    ),
    alu("PRED_SETGT_UINT", 30, S2 | F_EXEC, Sem::PredSetU(Cmp::Gt)),
    alu("PRED_SETGE_UINT", 31, S2 | F_EXEC, Sem::PredSetU(Cmp::Ge)),
    alu("PRED_SETE", 32, S2 | F_EXEC, Sem::PredSetF(Cmp::E)),
    alu("PRED_SETGT", 33, S2 | F_EXEC, Sem::PredSetF(Cmp::Gt)),
    alu("PRED_SETGE", 34, S2 | F_EXEC, Sem::PredSetF(Cmp::Ge)),
    alu("PRED_SETNE", 35, S2 | F_EXEC, Sem::PredSetF(Cmp::Ne)),
    alu("PRED_SET_INV", 36, S1 | F_EXEC, Sem::PredSetInv),
    alu("PRED_SET_POP", 37, S2 | F_EXEC, Sem::PredSetPop),
    alu("PRED_SET_CLR", 38, S0 | F_EXEC, Sem::PredSetClr),
    alu("PRED_SET_RESTORE", 39, S1 | F_EXEC, Sem::PredSetRestore),
    alu("PRED_SETE_PUSH", 40, S2 | F_EXEC, Sem::PredSetPushF(Cmp::E)),
    alu(
        "PRED_SETGT_PUSH",
        41,
        S2 | F_EXEC,
        Sem::PredSetPushF(Cmp::Gt),
    ),
    alu(
        "PRED_SETGE_PUSH",
        42,
        S2 | F_EXEC,
        Sem::PredSetPushF(Cmp::Ge),
    ),
    alu(
        "PRED_SETNE_PUSH",
        43,
        S2 | F_EXEC,
        Sem::PredSetPushF(Cmp::Ne),
    ),
    alu("KILLE", 44, S2 | F_EXEC, Sem::KillF(Cmp::E)),
    alu("KILLGT", 45, S2 | F_EXEC, Sem::KillF(Cmp::Gt)),
    alu("KILLGE", 46, S2 | F_EXEC, Sem::KillF(Cmp::Ge)),
    alu("KILLNE", 47, S2 | F_EXEC, Sem::KillF(Cmp::Ne)),
    alu("AND_INT", 48, S2, Sem::AndInt),
    alu("OR_INT", 49, S2, Sem::OrInt),
    alu("XOR_INT", 50, S2, Sem::XorInt),
    alu("NOT_INT", 51, S1, Sem::NotInt),
    alu("ADD_INT", 52, S2, Sem::AddInt),
    alu("SUB_INT", 53, S2, Sem::SubInt),
    alu("MAX_INT", 54, S2, Sem::MaxInt),
    alu("MIN_INT", 55, S2, Sem::MinInt),
    alu("MAX_UINT", 56, S2, Sem::MaxUint),
    alu("MIN_UINT", 57, S2, Sem::MinUint),
    alu("SETE_INT", 58, S2, Sem::SetI(Cmp::E)),
    alu("SETGT_INT", 59, S2, Sem::SetI(Cmp::Gt)),
    alu("SETGE_INT", 60, S2, Sem::SetI(Cmp::Ge)),
    alu("SETNE_INT", 61, S2, Sem::SetI(Cmp::Ne)),
    alu("SETGT_UINT", 62, S2, Sem::SetU(Cmp::Gt)),
    alu("SETGE_UINT", 63, S2, Sem::SetU(Cmp::Ge)),
    alu("KILLGT_UINT", 64, S2 | F_EXEC, Sem::KillU(Cmp::Gt)),
    alu("KILLGE_UINT", 65, S2 | F_EXEC, Sem::KillU(Cmp::Ge)),
    alu("PRED_SETE_INT", 66, S2 | F_EXEC, Sem::PredSetI(Cmp::E)),
    alu("PRED_SETGT_INT", 67, S2 | F_EXEC, Sem::PredSetI(Cmp::Gt)),
    alu("PRED_SETGE_INT", 68, S2 | F_EXEC, Sem::PredSetI(Cmp::Ge)),
    alu("PRED_SETNE_INT", 69, S2 | F_EXEC, Sem::PredSetI(Cmp::Ne)),
    alu("KILLE_INT", 70, S2 | F_EXEC, Sem::KillI(Cmp::E)),
    alu("KILLGT_INT", 71, S2 | F_EXEC, Sem::KillI(Cmp::Gt)),
    alu("KILLGE_INT", 72, S2 | F_EXEC, Sem::KillI(Cmp::Ge)),
    alu("KILLNE_INT", 73, S2 | F_EXEC, Sem::KillI(Cmp::Ne)),
    alu(
        "PRED_SETE_PUSH_INT",
        74,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::E),
    ),
    alu(
        "PRED_SETGT_PUSH_INT",
        75,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::Gt),
    ),
    alu(
        "PRED_SETGE_PUSH_INT",
        76,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::Ge),
    ),
    alu(
        "PRED_SETNE_PUSH_INT",
        77,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::Ne),
    ),
    alu(
        "PRED_SETLT_PUSH_INT",
        78,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::Lt),
    ),
    alu(
        "PRED_SETLE_PUSH_INT",
        79,
        S2 | F_EXEC,
        Sem::PredSetPushI(Cmp::Le),
    ),
    alu("FLT_TO_INT", 80, S1, Sem::FltToInt),
    alu("BFREV_INT", 81, S1, Sem::BfrevInt),
    alu("ADDC_UINT", 82, S2, Sem::AddcUint),
    alu("SUBB_UINT", 83, S2, Sem::SubbUint),
    alu("GROUP_BARRIER", 84, S0, Sem::GroupBarrier),
    alu("GROUP_SEQ_BEGIN", 85, S0, Sem::GroupSeqBegin),
    alu("GROUP_SEQ_END", 86, S0, Sem::GroupSeqEnd),
    // The mode sits in the source select fields; the emulator resolves it at
    // decode time into the instructions it governs, so running it does nothing.
    alu("SET_MODE", 87, S2, Sem::Nop),
    alu("SET_CF_IDX0", 88, S1, Sem::SetCfIdx(0)),
    alu("SET_CF_IDX1", 89, S1, Sem::SetCfIdx(1)),
    alu("SET_LDS_SIZE", 90, S1, Sem::SetLdsSize),
    alu("MUL_INT24", 91, S2, Sem::MulInt24),
    alu("MULHI_INT24", 92, S2, Sem::MulhiInt24),
    alu("EXP_IEEE", 129, S1, Sem::ExpIeee),
    alu("LOG_CLAMPED", 130, S1, Sem::LogClamped),
    alu("LOG_IEEE", 131, S1, Sem::LogIeee),
    alu("RECIP_CLAMPED", 132, S1, Sem::RecipClamped),
    alu("RECIP_FF", 133, S1, Sem::RecipFf),
    alu("RECIP_IEEE", 134, S1, Sem::RecipIeee),
    alu("RECIPSQRT_CLAMPED", 135, S1, Sem::RecipsqrtClamped),
    alu("RECIPSQRT_FF", 136, S1, Sem::RecipsqrtFf),
    alu("RECIPSQRT_IEEE", 137, S1, Sem::RecipsqrtIeee),
    alu("SQRT_IEEE", 138, S1, Sem::SqrtIeee),
    alu("SIN", 141, S1, Sem::Sin),
    alu("COS", 142, S1, Sem::Cos),
    alu("MULLO_INT", 143, S2, Sem::MulloInt),
    alu("MULHI_INT", 144, S2, Sem::MulhiInt),
    alu("MULLO_UINT", 145, S2, Sem::MulloUint),
    alu("MULHI_UINT", 146, S2, Sem::MulhiUint),
    alu("RECIP_INT", 147, S1, Sem::RecipInt),
    alu("RECIP_UINT", 148, S1, Sem::RecipUint),
    alu("RECIP_64", 149, S2 | F_64, Sem::Recip64(false)),
    alu("RECIP_CLAMPED_64", 150, S2 | F_64, Sem::Recip64(true)),
    alu("RECIPSQRT_64", 151, S2 | F_64, Sem::Rsq64(false)),
    alu("RECIPSQRT_CLAMPED_64", 152, S2 | F_64, Sem::Rsq64(true)),
    alu("SQRT_64", 153, S2 | F_64, Sem::Sqrt64),
    alu("FLT_TO_UINT", 154, S1, Sem::FltToUint),
    alu("INT_TO_FLT", 155, S1, Sem::IntToFlt),
    alu("UINT_TO_FLT", 156, S1, Sem::UintToFlt),
    alu("BFM_INT", 160, S2, Sem::BfmInt),
    alu("FLT32_TO_FLT16", 162, S1, Sem::Flt32ToFlt16),
    alu("FLT16_TO_FLT32", 163, S1, Sem::Flt16ToFlt32),
    alu("UBYTE0_FLT", 164, S1, Sem::UbyteFlt(0)),
    alu("UBYTE1_FLT", 165, S1, Sem::UbyteFlt(1)),
    alu("UBYTE2_FLT", 166, S1, Sem::UbyteFlt(2)),
    alu("UBYTE3_FLT", 167, S1, Sem::UbyteFlt(3)),
    alu("BCNT_INT", 170, S1, Sem::BcntInt),
    alu("FFBH_UINT", 171, S1, Sem::FfbhUint),
    alu("FFBL_INT", 172, S1, Sem::FfblInt),
    alu("FFBH_INT", 173, S1, Sem::FfbhInt),
    alu("FLT_TO_UINT4", 174, S1, Sem::FltToUint4),
    alu("DOT_IEEE", 175, S2, Sem::DotIeee),
    alu("FLT_TO_INT_RPI", 176, S1, Sem::FltToIntRpi),
    alu("FLT_TO_INT_FLOOR", 177, S1, Sem::FltToIntFloor),
    alu("MULHI_UINT24", 178, S2, Sem::MulhiUint24),
    alu("MBCNT_32HI_INT", 179, S1, Sem::Mbcnt32Hi),
    alu("OFFSET_TO_FLT", 180, S1, Sem::OffsetToFlt),
    alu("MUL_UINT24", 181, S2, Sem::MulUint24),
    alu("BCNT_ACCUM_PREV_INT", 182, S1, Sem::BcntAccumPrev),
    alu(
        "MBCNT_32LO_ACCUM_PREV_INT",
        183,
        S1,
        Sem::Mbcnt32LoAccumPrev,
    ),
    alu("SETE_64", 184, S2 | F_64, Sem::Set64(Cmp::E)),
    alu("SETNE_64", 185, S2 | F_64, Sem::Set64(Cmp::Ne)),
    alu("SETGT_64", 186, S2 | F_64, Sem::Set64(Cmp::Gt)),
    alu("SETGE_64", 187, S2 | F_64, Sem::Set64(Cmp::Ge)),
    alu("MIN_64", 188, S2 | F_64, Sem::Min64),
    alu("MAX_64", 189, S2 | F_64, Sem::Max64),
    alu("DOT4", 190, S2, Sem::Dot4),
    alu("DOT4_IEEE", 191, S2, Sem::Dot4Ieee),
    alu("CUBE", 192, S2, Sem::Cube),
    alu("MAX4", 193, S1, Sem::Max4),
    alu("FREXP_64", 196, S1 | F_64, Sem::Frexp64),
    alu("LDEXP_64", 197, S2 | F_64, Sem::Ldexp64),
    alu("FRACT_64", 198, S1 | F_64, Sem::Fract64),
    alu(
        "PRED_SETGT_64",
        199,
        S2 | F_64 | F_EXEC,
        Sem::PredSet64(Cmp::Gt),
    ),
    alu(
        "PRED_SETE_64",
        200,
        S2 | F_64 | F_EXEC,
        Sem::PredSet64(Cmp::E),
    ),
    alu(
        "PRED_SETGE_64",
        201,
        S2 | F_64 | F_EXEC,
        Sem::PredSet64(Cmp::Ge),
    ),
    alu("MUL_64", 202, S2 | F_64, Sem::Mul64),
    alu("ADD_64", 203, S2 | F_64, Sem::Add64),
    alu("MOVA_INT", 204, S1 | F_MOVA, Sem::MovaInt),
    alu("FLT64_TO_FLT32", 205, S1 | F_64, Sem::Flt64ToFlt32),
    alu("FLT32_TO_FLT64", 206, S1 | F_64, Sem::Flt32ToFlt64),
    alu("SAD_ACCUM_PREV_UINT", 207, S2, Sem::SadAccumPrev),
    alu("DOT", 208, S2, Sem::Dot),
    alu("MUL_PREV", 209, S1, Sem::MulPrev),
    alu("MUL_IEEE_PREV", 210, S1, Sem::MulIeeePrev),
    alu("ADD_PREV", 211, S1, Sem::AddPrev),
    alu("MULADD_PREV", 212, S2, Sem::MuladdPrev),
    alu("MULADD_IEEE_PREV", 213, S2, Sem::MuladdIeeePrev),
    alu("INTERP_XY", 214, S2, Sem::Interp(InterpKind::Xy)),
    alu("INTERP_ZW", 215, S2, Sem::Interp(InterpKind::Zw)),
    alu("INTERP_X", 216, S2, Sem::Interp(InterpKind::X)),
    alu("INTERP_Z", 217, S2, Sem::Interp(InterpKind::Z)),
    alu("STORE_FLAGS", 218, S1, Sem::StoreFlags),
    alu("LOAD_STORE_FLAGS", 219, S1, Sem::LoadStoreFlags),
    alu("INTERP_LOAD_P0", 224, S1, Sem::InterpLoad(0)),
    alu("INTERP_LOAD_P10", 225, S1, Sem::InterpLoad(1)),
    alu("INTERP_LOAD_P20", 226, S1, Sem::InterpLoad(2)),
];

/// ALU_WORD1_OP3 `ALU_INST` values (5 bits, \[17:13\]); 17 selects the LDS_IDX_OP format.
pub const ALU_OP3: &[Op] = &[
    alu("BFE_UINT", 4, S3, Sem::BfeUint),
    alu("BFE_INT", 5, S3, Sem::BfeInt),
    alu("BFI_INT", 6, S3, Sem::BfiInt),
    alu("FMA", 7, S3, Sem::Fma),
    alu("MULADD_INT24", 8, S3, Sem::MuladdInt24),
    alu("CNDNE_64", 9, S3 | F_64, Sem::Cndne64),
    alu("FMA_64", 10, S3 | F_64, Sem::Fma64),
    alu("LERP_UINT", 11, S3, Sem::LerpUint),
    alu("BIT_ALIGN_INT", 12, S3, Sem::BitAlignInt),
    alu("BYTE_ALIGN_INT", 13, S3, Sem::ByteAlignInt),
    alu("SAD_ACCUM_UINT", 14, S3, Sem::SadAccumUint),
    alu("SAD_ACCUM_HI_UINT", 15, S3, Sem::SadAccumHiUint),
    alu("MULADD_UINT24", 16, S3, Sem::MuladdUint24),
    alu("MULADD", 20, S3, Sem::Muladd(0)),
    alu("MULADD_M2", 21, S3, Sem::Muladd(1)),
    alu("MULADD_M4", 22, S3, Sem::Muladd(2)),
    alu("MULADD_D2", 23, S3, Sem::Muladd(3)),
    alu("MULADD_IEEE", 24, S3, Sem::MuladdIeee),
    alu("CNDE", 25, S3, Sem::Cnd(Cmp::E)),
    alu("CNDGT", 26, S3, Sem::Cnd(Cmp::Gt)),
    alu("CNDGE", 27, S3, Sem::Cnd(Cmp::Ge)),
    alu("CNDE_INT", 28, S3, Sem::CndInt(Cmp::E)),
    alu("CNDGT_INT", 29, S3, Sem::CndInt(Cmp::Gt)),
    alu("CNDGE_INT", 30, S3, Sem::CndInt(Cmp::Ge)),
    alu("MUL_LIT", 31, S3, Sem::MulLit),
];

/// The OP3 opcode that selects the ALU_WORD*_LDS_IDX_OP format.
pub const OP3_LDS_IDX_OP: u32 = 17;
/// The OP2 opcode of MOVA_INT.
pub const OP2_MOVA_INT: u32 = 204;

/// ALU_WORD1_LDS_IDX_OP `LDS_OP` values (6 bits). Also the GDS_OP values of MEM_GDS_WORD1.
/// The source count is the number of ALU sources the operation reads (address, data...).
pub const LDS_OPS: &[Op] = &[
    op("ADD", 0, S2),
    op("SUB", 1, S2),
    op("RSUB", 2, S2),
    op("INC", 3, S2),
    op("DEC", 4, S2),
    op("MIN_INT", 5, S2),
    op("MAX_INT", 6, S2),
    op("MIN_UINT", 7, S2),
    op("MAX_UINT", 8, S2),
    op("AND", 9, S2),
    op("OR", 10, S2),
    op("XOR", 11, S2),
    op("MSKOR", 12, S3),
    op("WRITE", 13, S2),
    op("WRITE_REL", 14, S3),
    op("WRITE2", 15, S3),
    op("CMP_STORE", 16, S3),
    op("CMP_STORE_SPF", 17, S3),
    op("BYTE_WRITE", 18, S2),
    op("SHORT_WRITE", 19, S2),
    op("ADD_RET", 32, S2 | F_RET),
    op("SUB_RET", 33, S2 | F_RET),
    op("RSUB_RET", 34, S2 | F_RET),
    op("INC_RET", 35, S2 | F_RET),
    op("DEC_RET", 36, S2 | F_RET),
    op("MIN_INT_RET", 37, S2 | F_RET),
    op("MAX_INT_RET", 38, S2 | F_RET),
    op("MIN_UINT_RET", 39, S2 | F_RET),
    op("MAX_UINT_RET", 40, S2 | F_RET),
    op("AND_RET", 41, S2 | F_RET),
    op("OR_RET", 42, S2 | F_RET),
    op("XOR_RET", 43, S2 | F_RET),
    op("MSKOR_RET", 44, S3 | F_RET),
    op("XCHG_RET", 45, S2 | F_RET),
    op("XCHG_REL_RET", 46, S3 | F_RET),
    op("XCHG2_RET", 47, S3 | F_RET),
    op("CMP_XCHG_RET", 48, S3 | F_RET),
    op("CMP_XCHG_SPF_RET", 49, S3 | F_RET),
    op("READ_RET", 50, S1 | F_RET),
    op("READ_REL_RET", 51, S1 | F_RET),
    op("READ2_RET", 52, S2 | F_RET),
    op("READWRITE_RET", 53, S3 | F_RET),
    op("BYTE_READ_RET", 54, S1 | F_RET),
    op("UBYTE_READ_RET", 55, S1 | F_RET),
    op("SHORT_READ_RET", 56, S1 | F_RET),
    op("USHORT_READ_RET", 57, S1 | F_RET),
    op("ATOMIC_ORDERED_ALLOC_RET", 63, S1 | F_RET),
];

/// VTX_WORD0 `VC_INST` values.
pub const VTX_OPS: &[Op] = &[
    op("VFETCH", 0, 0),
    op("VFETCH_SEMANTIC", 1, F_SEM),
    op("GET_BUFFER_RESINFO", 14, 0),
];

/// The `MEM_INST` value of memory reads and GDS operations (MEM_INST_MEM).
pub const MEM_INST_MEM: u32 = 2;

/// TEX_WORD0 `TEX_INST` values.
pub const TEX_OPS: &[Op] = &[
    op("LD", 3, 0),
    op("GET_TEXTURE_RESINFO", 4, 0),
    op("GET_NUMBER_OF_SAMPLES", 5, 0),
    op("GET_COMP_TEX_LOD", 6, 0),
    op("GET_GRADIENTS_H", 7, 0),
    op("GET_GRADIENTS_V", 8, 0),
    op("SET_TEXTURE_OFFSETS", 9, 0),
    op("KEEP_GRADIENTS", 10, 0),
    op("SET_GRADIENTS_H", 11, 0),
    op("SET_GRADIENTS_V", 12, 0),
    op("SAMPLE", 16, 0),
    op("SAMPLE_L", 17, 0),
    op("SAMPLE_LB", 18, 0),
    op("SAMPLE_LZ", 19, 0),
    op("SAMPLE_G", 20, 0),
    op("GATHER4", 21, 0),
    op("SAMPLE_G_LB", 22, 0),
    op("GATHER4_O", 23, 0),
    op("SAMPLE_C", 24, 0),
    op("SAMPLE_C_L", 25, 0),
    op("SAMPLE_C_LB", 26, 0),
    op("SAMPLE_C_LZ", 27, 0),
    op("SAMPLE_C_G", 28, 0),
    op("GATHER4_C", 29, 0),
    op("SAMPLE_C_G_LB", 30, 0),
    op("GATHER4_C_O", 31, 0),
];

/// MEM_RD_WORD0 `MEM_OP` values.
pub const MEM_RD_OPS: &[Op] = &[op("MEM_RD_SCRATCH", 0, 0), op("MEM_RD_SCATTER", 2, 0)];

/// MEM_GDS_WORD0 `MEM_OP` values.
pub const MEM_GDS_OPS: &[Op] = &[op("MEM_GDS", 4, 0), op("MEM_TF_WRITE", 5, 0)];

/// Every instruction table, with the width of its opcode field and its name.
pub const ALL_TABLES: &[(&str, u8, &[Op])] = &[
    ("CF", 8, CF_OPS),
    ("GWS", 2, GWS_OPS),
    ("CF_ALU", 4, CF_ALU_OPS),
    ("EXPORT", 8, EXPORT_OPS),
    ("RAT", 6, RAT_OPS),
    ("ALU_OP2", 11, ALU_OP2),
    ("ALU_OP3", 5, ALU_OP3),
    ("LDS", 6, LDS_OPS),
    ("VTX", 5, VTX_OPS),
    ("TEX", 5, TEX_OPS),
    ("MEM_RD", 3, MEM_RD_OPS),
    ("MEM_GDS", 3, MEM_GDS_OPS),
];

/// Opcode → row index lookup, built at compile time (`u16::MAX` = no row).
pub struct OpIndex<const N: usize> {
    idx: [u16; N],
    table: &'static [Op],
}

impl<const N: usize> OpIndex<N> {
    /// Build the lookup for `table`; opcodes must be < N.
    pub const fn new(table: &'static [Op]) -> Self {
        let mut idx = [u16::MAX; N];
        let mut i = 0;
        while i < table.len() {
            let c = table[i].code as usize;
            if c < N {
                idx[c] = i as u16;
            }
            i += 1;
        }
        OpIndex { idx, table }
    }
    /// The row for opcode `code`, if any.
    #[inline]
    pub fn get(&self, code: u32) -> Option<&'static Op> {
        let i = *self.idx.get(code as usize)?;
        if i == u16::MAX {
            None
        } else {
            self.table.get(i as usize)
        }
    }
}

/// Lookup for [`CF_OPS`].
pub static CF_INDEX: OpIndex<256> = OpIndex::new(CF_OPS);
/// Lookup for [`GWS_OPS`].
pub static GWS_INDEX: OpIndex<4> = OpIndex::new(GWS_OPS);
/// Lookup for [`CF_ALU_OPS`].
pub static CF_ALU_INDEX: OpIndex<16> = OpIndex::new(CF_ALU_OPS);
/// Lookup for [`EXPORT_OPS`].
pub static EXPORT_INDEX: OpIndex<256> = OpIndex::new(EXPORT_OPS);
/// Lookup for [`RAT_OPS`].
pub static RAT_INDEX: OpIndex<64> = OpIndex::new(RAT_OPS);
/// Lookup for [`ALU_OP2`].
pub static OP2_INDEX: OpIndex<2048> = OpIndex::new(ALU_OP2);
/// Lookup for [`ALU_OP3`].
pub static OP3_INDEX: OpIndex<32> = OpIndex::new(ALU_OP3);
/// Lookup for [`LDS_OPS`].
pub static LDS_INDEX: OpIndex<64> = OpIndex::new(LDS_OPS);
/// Lookup for [`VTX_OPS`].
pub static VTX_INDEX: OpIndex<32> = OpIndex::new(VTX_OPS);
/// Lookup for [`TEX_OPS`].
pub static TEX_INDEX: OpIndex<32> = OpIndex::new(TEX_OPS);
/// Lookup for [`MEM_RD_OPS`].
pub static MEM_RD_INDEX: OpIndex<8> = OpIndex::new(MEM_RD_OPS);
/// Lookup for [`MEM_GDS_OPS`].
pub static MEM_GDS_INDEX: OpIndex<8> = OpIndex::new(MEM_GDS_OPS);

/// Find a row by mnemonic in a table.
pub fn by_name(table: &'static [Op], name: &str) -> Option<&'static Op> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The semantics of the ALU row named `name` ([`ALU_OP2`], then [`ALU_OP3`]).
pub fn alu_sem(name: &str) -> Option<Sem> {
    by_name(ALU_OP2, name)
        .or_else(|| by_name(ALU_OP3, name))
        .and_then(|o| o.sem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_unique_and_fit() {
        for (t, bits, rows) in ALL_TABLES {
            for (i, a) in rows.iter().enumerate() {
                assert!((a.code as u32) < (1u32 << bits), "{t} {}", a.name);
                for b in &rows[i + 1..] {
                    assert_ne!(a.code, b.code, "{t}: {} {}", a.name, b.name);
                    assert_ne!(a.name, b.name, "{t}");
                }
            }
        }
        // OP2 opcodes must leave ALU_WORD1 bits [17:15] clear (the OP2/OP3 discriminator).
        assert!(ALU_OP2.iter().all(|o| o.code < 256));
        assert!(ALU_OP3.iter().all(|o| o.code >= 4));
    }
}
