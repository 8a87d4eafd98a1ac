//! Pre-decoded programs: a CF program is lowered once into [`CfOp`]s, ALU
//! clauses into groups of [`AluInstr`] (literals resolved into constants),
//! fetch clauses into [`FetchOp`]s. Words that do not decode are kept as
//! `Invalid` and fault only if execution reaches them.

use crate::alu::Sem;
use risa_cayman::codec::{decode_alu, decode_cf, decode_fetch, AluForm, CfForm, FetchForm};
use risa_cayman::fields::*;
use risa_cayman::ops;

/// Where an ALU source comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcKind {
    /// GPR 0..127.
    Gpr(u8),
    /// Kcache constant: bank 0..3, index 0..31 within the locked lines.
    Kcache(u8, u8),
    /// A literal or inline constant (already resolved).
    Const(u32),
    /// Previous vector result (PV).
    Pv,
    /// Previous scalar result (PS): Cayman has no T slot, so it faults.
    Ps,
    /// LDS output queue A/B (OQA/OQB, OQAP/OQBP).
    Oq {
        /// Queue B rather than queue A.
        b: bool,
        /// Pop the value read (the `P` forms).
        pop: bool,
    },
    /// The loop index aL (LOOP_IDX).
    LoopIdx,
    /// LDS direct read (ALU_SRC_LDS_DIRECT_A/B, guide 7.3.1): lane l reads
    /// LDS dword `offset + stride * l`.
    LdsDirect {
        /// OFFSET_A/B (dwords).
        offset: u16,
        /// STRIDE_A/B (dwords per lane).
        stride: u8,
        /// THREAD_REL_A/B (the same dwords as absolute addresses in risa).
        thread_rel: bool,
    },
    /// Thread position based values and other special selects.
    Special(u16),
}

/// One decoded ALU source operand.
#[derive(Clone, Copy, Debug)]
pub struct Src {
    /// Origin.
    pub kind: SrcKind,
    /// Element 0..3.
    pub chan: u8,
    /// Relative addressing (INDEX_MODE of the instruction).
    pub rel: bool,
    /// Negate (sign flip after abs).
    pub neg: bool,
    /// Absolute value.
    pub abs: bool,
}

/// An LDS_IDX_OP operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdsOp {
    /// Mnemonic of the LDS_OP row (e.g. `READ_RET`).
    pub name: &'static str,
    /// Index offset (IDX_OFFSET_0..5).
    pub offset: u8,
}

/// One pre-decoded ALU instruction (a slot of a group).
#[derive(Clone, Copy, Debug)]
pub struct AluInstr {
    /// What it computes.
    pub sem: Sem,
    /// Mnemonic (for faults and traces).
    pub name: &'static str,
    /// Slot / destination element (0..3 = x..w).
    pub slot: u8,
    /// Sources (unused ones are zero constants).
    pub src: [Src; 3],
    /// Destination GPR.
    pub dst_gpr: u8,
    /// Destination relative.
    pub dst_rel: bool,
    /// GPR write enabled (WRITE_MASK for OP2; always for OP3).
    pub write: bool,
    /// Output modifier (OP2 only).
    pub omod: u8,
    /// Clamp to [0, 1].
    pub clamp: bool,
    /// PRED_SEL: 0 off, 2 zero, 3 one (1 reserved).
    pub pred_sel: u8,
    /// INDEX_MODE.
    pub index_mode: u8,
    /// UPDATE_EXEC_MASK.
    pub update_exec: bool,
    /// UPDATE_PRED.
    pub update_pred: bool,
    /// EXECUTE_MASK_OP when update_exec (0 deactivate, 1 break, 2 continue, 3 kill).
    pub exec_op: u8,
    /// LDS operation for LDS_IDX_OP.
    pub lds: Option<LdsOp>,
    /// Sources the instruction reads (the rest are not fetched).
    pub nsrc: u8,
    /// How the engine executes it (derived from `sem`).
    pub class: Class,
    /// The SET_MODE modes in effect (guide 4.13.1: from the SET_MODE's group
    /// to the next SET_MODE or the clause's end): single precision
    /// (SRC0_SEL bits 3:0) and double precision (SRC1_SEL bits 3:0); 0 is
    /// the default (round to nearest even, denormals flushed).
    pub mode: [u8; 2],
    /// Nothing observes the result: no GPR write, no side effect, and the
    /// next group of the clause does not read this slot's PV (PV does not
    /// outlive the clause, guide 4.6.2). The engine skips it.
    pub dead: bool,
    /// The next group of the clause reads this slot's PV.
    pub pv_live: bool,
    /// Where the engine finds each source: a row of the wave's register
    /// file (GPR, PV or the materialized source), or `CONST_LOC | n` for
    /// splatted constant n of the clause.
    pub loc: [u16; 3],
}

/// Row of a wave's register file where PV.X..W live (GPR r element c is row 4r + c).
pub const PV_ROW: u16 = 512;
/// First row of the per-group materialized sources (slot s, source k: row TMP_ROW + 3s + k).
pub const TMP_ROW: u16 = 516;
/// Rows in a wave's register file.
pub const ROWS: usize = 528;
/// Flag of a source location that indexes [`AluClause::consts`] instead of a row.
pub const CONST_LOC: u16 = 0x8000;

/// Execution class of an ALU instruction: decides which engine path runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// NOP, GROUP_BARRIER, GROUP_SEQ_*: no result.
    Nop,
    /// A per-slot lane-wise operation ([`crate::alu::exec_slot`]).
    Plain,
    /// PRED_SET*.
    PredSet,
    /// KILL*.
    Kill,
    /// MOVA_INT.
    Mova,
    /// DOT4, DOT4_IEEE, MAX4: reductions over the slots holding the same op.
    Reduce,
    /// Two-slot double operations (X/Y or Z/W pair).
    Double,
    /// FLT32_TO_FLT64 (slot pair).
    F32ToF64,
    /// FLT64_TO_FLT32 (slot pair).
    F64ToF32,
    /// LDS_IDX_OP.
    Lds,
    /// `_PREV` ops (and MBCNT_32HI_INT): run after the group's other slots,
    /// from W down to X, each seeing the next slot's result.
    Prev,
    /// Four-slot ops (FREXP_64, CUBE, FLT_TO_UINT4): every slot's result
    /// depends on all four slots' sources.
    Quad,
    /// Writes wave state, not a GPR: SET_CF_IDX0/1, SET_LDS_SIZE.
    WaveState,
    /// STORE_FLAGS, LOAD_STORE_FLAGS: run after the group's other slots
    /// (their flags are included).
    Flags,
    /// INTERP_*: parameter reads from LDS and interpolation across slots.
    Interp,
    /// A one-slot float op under a non-default SET_MODE mode
    /// ([`crate::fmode::exec_slot`]).
    Moded,
    /// Not implemented: faults when executed.
    Unsupported,
}

impl Class {
    /// The class of a semantic.
    pub fn of(sem: Sem) -> Class {
        match sem {
            Sem::Nop | Sem::GroupBarrier | Sem::GroupSeqBegin | Sem::GroupSeqEnd => Class::Nop,
            Sem::Lds => Class::Lds,
            Sem::PredSet64(_) => Class::Double,
            s if s.is_pred_set() => Class::PredSet,
            s if s.is_kill() => Class::Kill,
            Sem::MovaInt => Class::Mova,
            Sem::Dot4 | Sem::Dot4Ieee | Sem::Max4 => Class::Reduce,
            Sem::Add64
            | Sem::Mul64
            | Sem::Min64
            | Sem::Max64
            | Sem::Fma64
            | Sem::Cndne64
            | Sem::Fract64
            | Sem::Ldexp64
            | Sem::Set64(_) => Class::Double,
            Sem::AddPrev
            | Sem::MulPrev
            | Sem::MulIeeePrev
            | Sem::MuladdPrev
            | Sem::MuladdIeeePrev
            | Sem::Dot
            | Sem::DotIeee
            | Sem::BcntAccumPrev
            | Sem::Mbcnt32LoAccumPrev
            | Sem::SadAccumPrev
            | Sem::Mbcnt32Hi => Class::Prev,
            Sem::Frexp64 | Sem::Cube | Sem::FltToUint4 => Class::Quad,
            Sem::SetCfIdx(_) | Sem::SetLdsSize => Class::WaveState,
            Sem::StoreFlags | Sem::LoadStoreFlags => Class::Flags,
            Sem::InterpLoad(_) | Sem::Interp(_) => Class::Interp,
            Sem::Flt32ToFlt64 => Class::F32ToF64,
            Sem::Flt64ToFlt32 => Class::F64ToF32,
            s if crate::alu::is_per_slot(s) => Class::Plain,
            _ => Class::Unsupported,
        }
    }
}

/// One instruction group.
#[derive(Clone, Copy, Debug)]
pub struct AluGroup {
    /// Index of the first instruction in [`AluClause::instrs`].
    pub first: u32,
    /// Number of instructions (1..4).
    pub len: u8,
    /// Contains GROUP_BARRIER.
    pub barrier: bool,
    /// Slot offset (64-bit units) of the group within the clause, for faults.
    pub at: u32,
    /// Sources to materialize before the group runs: bit 3·p + k is source
    /// k of the group's p-th instruction (the ones read from `TMP_ROW` rows).
    pub dyn_srcs: u16,
}

/// A pre-decoded ALU clause.
#[derive(Clone, Debug, Default)]
pub struct AluClause {
    /// All instructions, group after group.
    pub instrs: Vec<AluInstr>,
    /// The groups.
    pub groups: Vec<AluGroup>,
    /// Literal and inline constants splatted over 64 lanes.
    pub consts: Vec<[u32; 64]>,
    /// The clause reads the exception flags (STORE_FLAGS/LOAD_STORE_FLAGS):
    /// only then are they computed (they are cleared at each clause start,
    /// guide 4.13.2, so no other clause can observe them).
    pub flags: bool,
}

/// One fetch-clause instruction.
#[derive(Clone, Debug)]
pub enum FetchOp {
    /// VTX fetch through buffer `buffer`.
    Vtx {
        /// BUFFER_ID.
        buffer: u8,
        /// BUFFER_INDEX_MODE: 0 none, 1/2 add CF_IDX0/1 to BUFFER_ID, 3 invalid.
        buffer_index_mode: u8,
        /// FETCH_TYPE (0 vertex, 1 instance, 2 no index offset).
        fetch_type: u8,
        /// Source GPR and element.
        src_gpr: u8,
        /// Source relative (loop index).
        src_rel: bool,
        /// SRC_SEL_X.
        src_sel: u8,
        /// Destination GPR.
        dst_gpr: u8,
        /// Destination relative.
        dst_rel: bool,
        /// DST_SEL_X..W (0-3 element, 4 zero, 5 one, 7 masked).
        dst_sel: [u8; 4],
        /// DATA_FORMAT.
        format: u8,
        /// NUM_FORMAT_ALL (0 norm, 1 int, 2 scaled).
        num_format: u8,
        /// FORMAT_COMP_ALL (signed).
        signed: bool,
        /// OFFSET (bytes).
        offset: u32,
        /// ENDIAN_SWAP.
        endian: u8,
        /// USE_CONST_FIELDS: take the format from the bound resource.
        use_const: bool,
        /// FETCH_WHOLE_QUAD.
        fwq: bool,
    },
    /// GET_BUFFER_RESINFO (VC_INST 14): the number of elements of buffer `buffer`.
    BufferResinfo {
        /// BUFFER_ID.
        buffer: u8,
        /// Destination GPR.
        dst_gpr: u8,
        /// Destination relative.
        dst_rel: bool,
        /// DST_SEL_X..W.
        dst_sel: [u8; 4],
    },
    /// A texture-clause instruction (TEX_WORD0..2).
    Tex(TexFetch),
    /// MEM_RD_SCRATCH: read the thread's scratch buffer (guide 3.4.3, 9.5);
    /// with `global`, MEM_RD_SCATTER: read the export memory (the global pool).
    ScratchRead {
        /// MEM_RD_SCATTER (global pool; ARRAY_SIZE has no effect).
        global: bool,
        /// ARRAY_BASE (elements).
        base: u16,
        /// ARRAY_SIZE (elements; reads past base + size return 0).
        size: u16,
        /// INDEXED: add SRC_GPR.SRC_SEL_X to the base.
        indexed: bool,
        /// SRC_GPR.
        src_gpr: u8,
        /// SRC_REL.
        src_rel: bool,
        /// SRC_SEL_X.
        src_sel: u8,
        /// DST_GPR.
        dst_gpr: u8,
        /// DST_REL.
        dst_rel: bool,
        /// DST_SEL_X..W (0-3 element dword, 4 zero, 5 one, 7 masked).
        dst_sel: [u8; 4],
        /// ELEM_SIZE (dwords per element minus one).
        elem_size: u8,
        /// BURST_COUNT (elements read into consecutive GPRs).
        burst: u8,
    },
    /// MEM_GDS: a global data share operation (guide 9.6).
    Gds {
        /// GDS_OP mnemonic (the LDS operation table).
        op: &'static str,
        /// SRC_GPR.
        src_gpr: u8,
        /// SRC_REL_MODE is REL_LOOP (REL_GLOBAL reads as REL_NONE: see README).
        src_rel: bool,
        /// SRC_SEL_X/Y/Z: address, data 0, data 1 (0-3 element, 4 zero, 5 one).
        src_sel: [u8; 3],
        /// DST_GPR.
        dst_gpr: u8,
        /// DST_REL_MODE is REL_LOOP.
        dst_rel: bool,
        /// DST_SEL_X..W (0 the first returned value, 1 the second, 4 zero,
        /// 5 one, 7 masked).
        dst_sel: [u8; 4],
        /// MEM_GDS_WORD1 \[22:16\]: the dword offset of the `_REL` / `2` ops.
        offset: u8,
        /// BCAST_FIRST_REQ: only the first active lane's request; its result goes to all lanes.
        bcast_first: bool,
        /// ALLOC_CONSUME: a returning op works on append/consume counter
        /// `uav_id` instead of GDS memory (guide 9.6 MEM_GDS_WORD1).
        alloc_consume: bool,
        /// UAV_ID: the append/consume counter (0-15).
        uav_id: u8,
        /// UAV_INDEX_MODE: 0, or 1/2 to add CF_IDX0/1 to `uav_id`.
        uav_index_mode: u8,
    },
    /// Anything else a TC clause may hold: faults with its name.
    Unsupported(&'static str),
    /// Undecodable words.
    Invalid(String),
}

/// What a TEX instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexOp {
    /// LD: unfiltered element at unsigned integer X, Y, Z (W = LOD).
    Ld,
    /// GET_TEXTURE_RESINFO: width, height, depth, mip levels.
    GetTextureResinfo,
    /// GET_NUMBER_OF_SAMPLES.
    GetNumberOfSamples,
    /// SET_TEXTURE_OFFSETS, SET_GRADIENTS_H, SET_GRADIENTS_V: per-lane state
    /// for later sampling instructions (index into the wave's TEX state).
    SetState(u8),
    /// An instruction that needs a sampler (filtering, LOD, gradients):
    /// faults with its name.
    NeedsSampler(&'static str),
}

/// One decoded TEX instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexFetch {
    /// Operation.
    pub op: TexOp,
    /// INST_MOD.
    pub inst_mod: u8,
    /// FETCH_WHOLE_QUAD.
    pub fwq: bool,
    /// RESOURCE_ID.
    pub resource: u8,
    /// RESOURCE_INDEX_MODE.
    pub rim: u8,
    /// SAMPLER_ID (only the sampling instructions, which fault, use it).
    pub sampler: u8,
    /// SRC_GPR.
    pub src_gpr: u8,
    /// SRC_REL.
    pub src_rel: bool,
    /// SRC_SEL_X..W (0-3 element, 4 zero, 5 one).
    pub src_sel: [u8; 4],
    /// DST_GPR.
    pub dst_gpr: u8,
    /// DST_REL.
    pub dst_rel: bool,
    /// DST_SEL_X..W (0-3 element, 4 zero, 5 one, 7 masked).
    pub dst_sel: [u8; 4],
    /// OFFSET_X/Y/Z (texels, -8..7).
    pub offset: [i8; 3],
}

/// Kcache lock of one bank: constant buffer, first line, mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kcache {
    /// Constant buffer id.
    pub bank: u8,
    /// KCACHE_MODE (0 none, 1 lock one line, 2 lock two, 3 lock loop-index relative).
    pub mode: u8,
    /// KCACHE_ADDR (line = 16 constants).
    pub addr: u8,
    /// KCACHE_BANK_INDEX_MODE (ALU_EXTENDED only): 0 none, 1/2 add CF_IDX0/1
    /// to the bank, 3 invalid.
    pub index_mode: u8,
}

/// ALU clause initiation variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluKind {
    /// ALU.
    Plain,
    /// ALU_PUSH_BEFORE.
    PushBefore,
    /// ALU_POP_AFTER.
    PopAfter,
    /// ALU_POP2_AFTER.
    Pop2After,
    /// ALU_REACTIVATE_BEFORE (CF_ALU 13 on Cayman, which has no
    /// ALU_CONTINUE/ALU_BREAK: docs/cayman-table-decisions.md, decision 2).
    ReactivateBefore,
    /// ALU_VALID_PIXEL_MODE (CF_ALU 14 on Cayman).
    ValidPixelMode,
    /// ALU_ELSE_AFTER.
    ElseAfter,
}

/// What a CF instruction does.
#[derive(Clone, Debug)]
pub enum CfKind {
    /// NOP, WAIT_ACK, LDS_DEALLOC, SET_PRIORITY: nothing to emulate.
    Nop,
    /// ALU clause.
    Alu {
        /// Variant.
        kind: AluKind,
        /// Index of the clause in [`Program::alu`].
        clause: u32,
        /// Kcache locks of banks 0..3.
        kcache: [Kcache; 4],
        /// WHOLE_QUAD_MODE.
        wqm: bool,
    },
    /// TC (or TC_ACK) fetch clause: index in [`Program::fetch`].
    Tc(u32),
    /// GDS clause: index in [`Program::fetch`].
    Gds(u32),
    /// LOOP_START (DX9, 0), LOOP_START_DX10 (1), LOOP_START_NO_AL (2).
    LoopStart(u8),
    /// LOOP_END.
    LoopEnd,
    /// LOOP_CONTINUE.
    LoopContinue,
    /// LOOP_BREAK.
    LoopBreak,
    /// JUMP.
    Jump,
    /// JUMP_ANY.
    JumpAny,
    /// JUMPTABLE with its JUMPTABLE_SEL.
    JumpTable(u8),
    /// PUSH / PUSH_WQM.
    Push(bool),
    /// ELSE / ELSE_WQM.
    Else(bool),
    /// POP / POP_WQM.
    Pop(bool),
    /// CALL.
    Call,
    /// RETURN.
    Return,
    /// KILL.
    Kill,
    /// REACTIVATE / REACTIVATE_WQM.
    Reactivate,
    /// END (CF_END).
    End,
    /// MEM_RAT / MEM_RAT_CACHELESS / MEM_RAT_COMBINED_CACHELESS.
    Rat {
        /// RAT_ID.
        rat_id: u8,
        /// RAT_INST mnemonic.
        inst: &'static str,
        /// TYPE (0 write, 1 write-ind, 2 write-ack, 3 write-ind-ack).
        ty: u8,
        /// RW_GPR.
        rw_gpr: u8,
        /// RW_REL.
        rw_rel: bool,
        /// INDEX_GPR.
        index_gpr: u8,
        /// COMP_MASK.
        comp_mask: u8,
        /// BURST_COUNT (writes of BURST_COUNT + 1 consecutive GPRs).
        burst: u8,
        /// ELEM_SIZE (dwords per element minus one).
        elem_size: u8,
    },
    /// MEM_WR_SCRATCH: write GPRs to the thread's scratch buffer (guide
    /// 3.4.2); with `global`, MEM_EXPORT: scatter writes to the export
    /// memory, which risa binds to the global pool at byte 0.
    ScratchWrite {
        /// MEM_EXPORT (global pool) rather than the per-thread scratch buffer.
        global: bool,
        /// ARRAY_BASE (elements).
        base: u16,
        /// ARRAY_SIZE (elements; writes past base + size are dropped).
        size: u16,
        /// TYPE bit 0: add INDEX_GPR.X to the base.
        indexed: bool,
        /// RW_GPR.
        rw_gpr: u8,
        /// RW_REL.
        rw_rel: bool,
        /// INDEX_GPR.
        index_gpr: u8,
        /// ELEM_SIZE (dwords per element minus one).
        elem_size: u8,
        /// COMP_MASK.
        comp_mask: u8,
        /// BURST_COUNT.
        burst: u8,
    },
    /// MEM_EXPORT_COMBINED: X (and Y unless COMP_MASK.y is clear) to export
    /// dwords ARRAY_BASE + RW_GPR.W and the next (guide 8.1).
    ExportCombined {
        /// ARRAY_BASE (dwords).
        base: u16,
        /// ARRAY_SIZE (dwords; writes at or past base + size are dropped).
        size: u16,
        /// RW_GPR.
        rw_gpr: u8,
        /// RW_REL.
        rw_rel: bool,
        /// COMP_MASK.
        comp_mask: u8,
        /// BURST_COUNT (must be 0).
        burst: u8,
        /// TYPE (must not be indexed).
        ty: u8,
    },
    /// GWS_SEMA_V / GWS_SEMA_P / GWS_BARRIER / GWS_INIT (guide 8.1, CF_GWS_WORD0).
    Gws {
        /// GWS_OPCODE: 0 SEMA_V, 1 SEMA_P, 2 BARRIER, 3 INIT.
        op: u8,
        /// RESOURCE (0-31).
        resource: u8,
        /// VALUE (10 bits): the barrier's wave count, INIT's value.
        value: u16,
        /// SIGN: the resource counts -512..511 instead of 0..1023.
        sign: bool,
        /// VAL_INDEX_MODE and RSRC_INDEX_MODE (CF index registers).
        index_modes: u8,
    },
    /// A CF instruction compute programs cannot use: faults with the reason.
    Illegal(&'static str, &'static str),
    /// A CF instruction compute programs cannot use (exports, GWS, ...).
    Unsupported(&'static str),
    /// Undecodable words.
    Invalid(String),
}

/// One CF instruction with its common fields.
#[derive(Clone, Debug)]
pub struct CfOp {
    /// Behaviour.
    pub kind: CfKind,
    /// ADDR (jump target, in 64-bit slots = CF indices).
    pub addr: u32,
    /// POP_COUNT.
    pub pop_count: u8,
    /// COND.
    pub cond: u8,
    /// CF_CONST.
    pub cf_const: u8,
    /// VALID_PIXEL_MODE.
    pub vpm: bool,
    /// WHOLE_QUAD_MODE (for PUSH_WQM etc. and the ALU bit).
    pub wqm: bool,
    /// BARRIER (bit 31 of the second word of every CF format, guide 3.2):
    /// all prior CF instructions complete before this one runs; clear, a
    /// clause may run alongside the clauses of another type before it.
    pub barrier: bool,
    /// Resource index mode (RAT_INDEX_MODE of RAT exports): 0 none, 1/2 add
    /// CF_IDX0/1 to the resource id, 3 invalid. For ALU clause
    /// instructions: non-zero when a kcache bank is indexed
    /// ([`Kcache::index_mode`]).
    pub res_index_mode: u8,
}

/// Why an ALU clause does not decode (groups and slots count 64-bit slots
/// from the clause start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AluClauseError {
    /// The clause extends beyond the code.
    #[error("ALU clause @{addr} ({count} slots) runs past the end of the code ({slots} slots)")]
    PastEnd {
        /// Clause start slot.
        addr: usize,
        /// Clause length in slots.
        count: usize,
        /// Code length in slots.
        slots: usize,
    },
    /// The group at this slot has no instruction with LAST set.
    #[error("group at slot {0} has no LAST bit before the clause ends")]
    NoLast(usize),
    /// The instruction at `slot` does not decode.
    #[error("slot {slot}: {source}")]
    Decode {
        /// Its slot.
        slot: usize,
        /// Why.
        source: risa_cayman::codec::DecodeError,
    },
    /// The group at this slot has more than 4 instructions.
    #[error("group at slot {0} has more than 4 instructions")]
    TooMany(usize),
    /// The group's literal constants run past the clause end.
    #[error("group at slot {0}: literal constants run past the clause")]
    LiteralsPastEnd(usize),
    /// Two instructions of a group write the same vector slot.
    #[error("group at slot {group}: two instructions in slot {slot}")]
    SlotTwice {
        /// The group's slot.
        group: usize,
        /// The vector slot (x, y, z, w).
        slot: char,
    },
    /// A source reads a literal channel the group does not carry.
    #[error("group at slot {group}: literal .{chan} is missing")]
    MissingLiteral {
        /// The group's slot.
        group: usize,
        /// The literal channel.
        chan: u32,
    },
    /// An opcode without emulator semantics (this name).
    #[error("{0} is not an ALU operation")]
    NotAlu(&'static str),
}

/// A pre-decoded CF program with its clauses.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// CF instructions, index = 64-bit slot from the program start.
    pub cf: Vec<CfOp>,
    /// ALU clauses (each `Err` holds why it does not decode).
    pub alu: Vec<Result<AluClause, AluClauseError>>,
    /// Clause start slot of each ALU clause (for faults).
    pub alu_addr: Vec<u32>,
    /// Fetch clauses.
    pub fetch: Vec<Vec<FetchOp>>,
    /// Clause start slot of each fetch clause.
    pub fetch_addr: Vec<u32>,
    /// The program waits on other waves of the dispatch (GWS instructions,
    /// GDS ATOMIC_ORDERED_ALLOC_RET): it runs with every wave resident.
    pub uses_sync: bool,
}

fn words(code: &[u8]) -> Vec<u32> {
    code.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Inline-constant and special ALU source selects (chapter 9, ALU_WORD0 SRC0_SEL).
fn special(sel: u32) -> SrcKind {
    match sel {
        219 => SrcKind::Oq {
            b: false,
            pop: false,
        },
        220 => SrcKind::Oq {
            b: true,
            pop: false,
        },
        221 => SrcKind::Oq {
            b: false,
            pop: true,
        },
        222 => SrcKind::Oq { b: true, pop: true },
        238 => SrcKind::LoopIdx,
        // ALU_SRC_1_DBL_L/M, 0_5_DBL_L/M: halves of 1.0 and 0.5 in double precision
        244 => SrcKind::Const(0),
        245 => SrcKind::Const(0x3ff0_0000),
        246 => SrcKind::Const(0),
        247 => SrcKind::Const(0x3fe0_0000),
        248 => SrcKind::Const(0),
        249 => SrcKind::Const(0x3f80_0000),
        250 => SrcKind::Const(1),
        251 => SrcKind::Const(u32::MAX),
        252 => SrcKind::Const(0x3f00_0000),
        254 => SrcKind::Pv,
        255 => SrcKind::Ps,
        s => SrcKind::Special(s as u16),
    }
}

/// The semantics an ALU row names (every ALU_OP2/ALU_OP3 row has one).
fn alu_sem(op: &risa_cayman::ops::Op) -> Result<Sem, AluClauseError> {
    op.sem.ok_or(AluClauseError::NotAlu(op.name))
}

/// The source operand `s` of a group with literals `lits`; the error is the
/// channel of a literal the group lacks.
fn lower_src(s: risa_cayman::codec::Src, lits: &[u32]) -> Result<Src, u32> {
    let kind = match s.sel {
        0..=127 => SrcKind::Gpr(s.sel as u8),
        128..=159 => SrcKind::Kcache(0, (s.sel - 128) as u8),
        160..=191 => SrcKind::Kcache(1, (s.sel - 160) as u8),
        256..=287 => SrcKind::Kcache(2, (s.sel - 256) as u8),
        288..=319 => SrcKind::Kcache(3, (s.sel - 288) as u8),
        223 | 224 => {
            let w = lits[(s.sel - 223) as usize];
            SrcKind::LdsDirect {
                offset: ALU_WORD1_LDS_DIRECT_LITERAL_LO::OFFSET_A.get(w) as u16,
                stride: ALU_WORD1_LDS_DIRECT_LITERAL_LO::STRIDE_A.get(w) as u8,
                thread_rel: ALU_WORD1_LDS_DIRECT_LITERAL_LO::THREAD_REL_A.get(w) != 0,
            }
        }
        253 => SrcKind::Const(*lits.get(s.chan as usize).ok_or(s.chan)?),
        sel => special(sel),
    };
    if let SrcKind::Const(v) = kind {
        // fold the modifiers into the constant once (abs, then negate)
        let v = if s.abs { v & 0x7fff_ffff } else { v };
        let v = if s.neg { v ^ 0x8000_0000 } else { v };
        return Ok(Src {
            kind: SrcKind::Const(v),
            chan: s.chan as u8,
            rel: false,
            neg: false,
            abs: false,
        });
    }
    Ok(Src {
        kind,
        chan: s.chan as u8,
        rel: s.rel,
        neg: s.neg,
        abs: s.abs,
    })
}

/// Decode an ALU clause of `count` 64-bit slots starting at slot `addr`.
pub fn decode_alu_clause(
    w: &[u32],
    addr: usize,
    count: usize,
) -> Result<AluClause, AluClauseError> {
    let start = addr * 2;
    let end = (addr + count) * 2;
    if end > w.len() {
        return Err(AluClauseError::PastEnd {
            addr,
            count,
            slots: w.len() / 2,
        });
    }
    let mut cl = AluClause::default();
    let mut p = start;
    let mut mode = [0u8; 2];
    while p < end {
        let gstart = p;
        let mut raw = Vec::with_capacity(4);
        let mut need_lit = 0usize;
        loop {
            if p >= end {
                return Err(AluClauseError::NoLast((gstart - start) / 2));
            }
            let i = decode_alu(w[p], w[p + 1]).map_err(|source| AluClauseError::Decode {
                slot: (p - start) / 2,
                source,
            })?;
            for k in 0..i.src_slots() {
                let s = i.src(k);
                if s.sel == 253 {
                    need_lit = need_lit.max(if s.chan >= 2 { 4 } else { 2 });
                }
                if s.sel == 223 || s.sel == 224 {
                    // LDS direct reads take their address from literal 0 (x, y) (guide 7.3.1)
                    need_lit = need_lit.max(2);
                }
            }
            p += 2;
            let last = i.last();
            raw.push(i);
            if last {
                break;
            }
            if raw.len() > 4 {
                return Err(AluClauseError::TooMany((gstart - start) / 2));
            }
        }
        if p + need_lit > end {
            return Err(AluClauseError::LiteralsPastEnd((gstart - start) / 2));
        }
        let lits = &w[p..p + need_lit];
        let first = cl.instrs.len() as u32;
        let mut barrier = false;
        let mut used = 0u8;
        for i in &raw {
            let w1 = i.words[1];
            let w0 = i.words[0];
            let slot = i.dst_chan() as u8;
            if used & (1 << slot) != 0 {
                return Err(AluClauseError::SlotTwice {
                    group: (gstart - start) / 2,
                    slot: ['x', 'y', 'z', 'w'][slot as usize],
                });
            }
            used |= 1 << slot;
            let mut src = [Src {
                kind: SrcKind::Const(0),
                chan: 0,
                rel: false,
                neg: false,
                abs: false,
            }; 3];
            for (k, s) in src.iter_mut().enumerate().take(i.src_slots()) {
                *s = lower_src(i.src(k), lits).map_err(|chan| AluClauseError::MissingLiteral {
                    group: (gstart - start) / 2,
                    chan,
                })?;
            }
            // ALU_WORD1_OP2_MOVA: bits 27:21 are MOVA_DST (AR, CF_PC,
            // CF_IDX0/1, CLAUSE_GLOBAL bytes), not a GPR: no GPR write
            let (sem, write, omod, update_exec, update_pred, exec_op, lds) = match i.form {
                AluForm::Op3 => (alu_sem(i.op)?, true, 0, false, false, 0, None),
                AluForm::Lds => (
                    Sem::Lds,
                    false,
                    0,
                    false,
                    false,
                    0,
                    Some(LdsOp {
                        name: i.op.name,
                        offset: i.lds_offset() as u8,
                    }),
                ),
                AluForm::ExecMask => (
                    alu_sem(i.op)?,
                    ALU_WORD1_OP2::WRITE_MASK.get(w1) != 0,
                    0,
                    true,
                    ALU_WORD1_OP2::UPDATE_PRED.get(w1) != 0,
                    ALU_WORD1_OP2_EXECUTE_MASK::EXECUTE_MASK_OP.get(w1) as u8,
                    None,
                ),
                AluForm::Mova => (
                    alu_sem(i.op)?,
                    false,
                    ALU_WORD1_OP2::OMOD.get(w1) as u8,
                    false,
                    ALU_WORD1_OP2::UPDATE_PRED.get(w1) != 0,
                    0,
                    None,
                ),
                AluForm::Op2 => (
                    // SET_MODE (guide 4.13.1, 8.2): its row names Nop; the mode
                    // (source select fields) is resolved here for the
                    // instructions it governs (`AluInstr::mode`)
                    alu_sem(i.op)?,
                    ALU_WORD1_OP2::WRITE_MASK.get(w1) != 0,
                    ALU_WORD1_OP2::OMOD.get(w1) as u8,
                    false,
                    ALU_WORD1_OP2::UPDATE_PRED.get(w1) != 0,
                    0,
                    None,
                ),
            };
            if sem == Sem::GroupBarrier {
                barrier = true;
            }
            let clamp = i.form != AluForm::Lds && ALU_WORD1_OP2::CLAMP.get(w1) != 0;
            cl.instrs.push(AluInstr {
                sem,
                name: i.op.name,
                slot,
                src,
                dst_gpr: ALU_WORD1_OP2::DST_GPR.get(w1) as u8,
                dst_rel: i.form != AluForm::Lds && ALU_WORD1_OP2::DST_REL.get(w1) != 0,
                write: write && i.form != AluForm::Lds,
                omod,
                clamp,
                pred_sel: ALU_WORD0::PRED_SEL.get(w0) as u8,
                index_mode: ALU_WORD0::INDEX_MODE.get(w0) as u8,
                update_exec,
                update_pred,
                exec_op,
                lds,
                nsrc: if i.form == AluForm::Lds {
                    3
                } else if sem == Sem::SetLdsSize {
                    // guide 8.2: "SRC0 = size, SRC1 = global mode" (the
                    // codec's table lists one source)
                    2
                } else {
                    i.nsrc().max(1).min(i.src_slots()) as u8
                },
                class: Class::of(sem),
                mode: [0; 2],
                dead: false,
                pv_live: true,
                loc: [0, 1, 2].map(|k| TMP_ROW + 3 * slot as u16 + k),
            });
        }
        // SET_MODE: the whole group (4.13.1: "affects other instructions in
        // the current group") and the groups after it in this clause
        if let Some(sm) = raw.iter().find(|i| i.op.name == "SET_MODE") {
            mode = [
                (ALU_WORD0::SRC0_SEL.get(sm.words[0]) & 15) as u8,
                (ALU_WORD0::SRC1_SEL.get(sm.words[0]) & 15) as u8,
            ];
        }
        for i in &mut cl.instrs[first as usize..] {
            i.mode = mode;
            i.class = moded_class(i.class, i.sem, mode);
        }
        cl.groups.push(AluGroup {
            first,
            len: raw.len() as u8,
            barrier,
            at: ((gstart - start) / 2) as u32,
            dyn_srcs: 0,
        });
        p += need_lit;
    }
    cl.flags = cl
        .instrs
        .iter()
        .any(|i| matches!(i.sem, Sem::StoreFlags | Sem::LoadStoreFlags));
    if cl.flags {
        // the one-slot doubles' flags come from fmode (alu::fp_flags is
        // single-precision), which computes the default mode's results too
        for i in &mut cl.instrs {
            if i.class == Class::Plain && crate::fmode::double_slot(i.sem) {
                i.class = Class::Moded;
            }
        }
    }
    mark_liveness(&mut cl);
    Ok(cl)
}

/// The class of an instruction under SET_MODE modes `mode` (single, double).
/// The one-slot ops a non-default mode changes take [`Class::Moded`]
/// ([`crate::fmode::exec_slot`]): the single-precision float ops under a
/// non-default single mode, RECIP/RECIPSQRT/SQRT_64 under a non-default
/// double mode. The multi-slot classes (predicates, kills, reductions,
/// `_PREV`, CUBE, doubles, conversions, interpolation) keep their class and
/// look at `mode` when they run.
fn moded_class(class: Class, sem: Sem, mode: [u8; 2]) -> Class {
    if class != Class::Plain {
        return class;
    }
    if (mode[0] != 0 && crate::fmode::single_affected(sem))
        || (mode[1] != 0 && crate::fmode::double_slot(sem))
    {
        Class::Moded
    } else {
        class
    }
}

/// Sets `pv_live` and `dead` (see [`AluInstr`]): a slot's PV is live when
/// the next group of the clause reads it.
fn mark_liveness(cl: &mut AluClause) {
    for gi in 0..cl.groups.len() {
        let mut pv_read = 0u8;
        if let Some(n) = cl.groups.get(gi + 1) {
            for j in &cl.instrs[n.first as usize..(n.first + n.len as u32) as usize] {
                for s in &j.src[..j.nsrc as usize] {
                    if s.kind == SrcKind::Pv {
                        pv_read |= 1 << (s.chan & 3);
                    }
                }
            }
        }
        let g = cl.groups[gi];
        for i in &mut cl.instrs[g.first as usize..(g.first + g.len as u32) as usize] {
            i.pv_live = pv_read >> i.slot & 1 != 0;
            // only lane-wise ops whose sources cannot fault or have side effects
            let pure_srcs = i.src[..i.nsrc as usize].iter().all(|s| match s.kind {
                SrcKind::Gpr(_) => !s.rel,
                SrcKind::Const(_) | SrcKind::Pv | SrcKind::LoopIdx => true,
                _ => false,
            });
            i.dead = i.class == Class::Plain && !i.write && !i.pv_live && pure_srcs;
        }
        // source locations
        let mut dyn_srcs = 0u16;
        for p in 0..g.len as usize {
            let i = &mut cl.instrs[g.first as usize + p];
            if i.dead {
                continue;
            }
            for k in 0..i.nsrc as usize {
                let s = i.src[k];
                let plain = !s.abs && !s.neg && !s.rel && i.class != Class::Lds;
                i.loc[k] = match s.kind {
                    SrcKind::Gpr(r) if plain => 4 * (r as u16 & 127) + (s.chan as u16 & 3),
                    SrcKind::Pv if plain => PV_ROW + (s.chan as u16 & 3),
                    SrcKind::Const(v) if i.class != Class::Lds => {
                        let at = match cl.consts.iter().position(|c| c[0] == v) {
                            Some(at) => at,
                            None => {
                                cl.consts.push([v; 64]);
                                cl.consts.len() - 1
                            }
                        };
                        CONST_LOC | at as u16
                    }
                    _ => {
                        dyn_srcs |= 1 << (3 * p + k);
                        TMP_ROW + 3 * i.slot as u16 + k as u16
                    }
                };
            }
        }
        cl.groups[gi].dyn_srcs = dyn_srcs;
    }
}

fn decode_fetch_clause(w: &[u32], addr: usize, count: usize) -> Vec<FetchOp> {
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let p = addr * 2 + k * 4;
        if p + 4 > w.len() {
            out.push(FetchOp::Invalid(format!(
                "fetch {k} of the clause at @{addr} lies past the end of the code"
            )));
            continue;
        }
        let ws = [w[p], w[p + 1], w[p + 2], w[p + 3]];
        match decode_fetch(ws, false) {
            Ok(i) if i.form == FetchForm::Vtx && i.op.name == "VFETCH" => {
                let (w0, w1, w2) = (ws[0], ws[1], ws[2]);
                out.push(FetchOp::Vtx {
                    buffer: VTX_WORD0::BUFFER_ID.get(w0) as u8,
                    buffer_index_mode: VTX_WORD2::BUFFER_INDEX_MODE.get(w2) as u8,
                    fetch_type: VTX_WORD0::FETCH_TYPE.get(w0) as u8,
                    src_gpr: VTX_WORD0::SRC_GPR.get(w0) as u8,
                    src_rel: VTX_WORD0::SRC_REL.get(w0) != 0,
                    src_sel: VTX_WORD0::SRC_SEL_X.get(w0) as u8,
                    dst_gpr: VTX_WORD1_GPR::DST_GPR.get(w1) as u8,
                    dst_rel: VTX_WORD1_GPR::DST_REL.get(w1) != 0,
                    dst_sel: [
                        VTX_WORD1_GPR::DST_SEL_X.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_Y.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_Z.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_W.get(w1) as u8,
                    ],
                    format: VTX_WORD1_GPR::DATA_FORMAT.get(w1) as u8,
                    num_format: VTX_WORD1_GPR::NUM_FORMAT_ALL.get(w1) as u8,
                    signed: VTX_WORD1_GPR::FORMAT_COMP_ALL.get(w1) != 0,
                    offset: VTX_WORD2::OFFSET.get(w2),
                    endian: VTX_WORD2::ENDIAN_SWAP.get(w2) as u8,
                    use_const: VTX_WORD1_GPR::USE_CONST_FIELDS.get(w1) != 0,
                    fwq: VTX_WORD0::FETCH_WHOLE_QUAD.get(w0) != 0,
                });
            }
            Ok(i) if i.form == FetchForm::Vtx && i.op.name == "GET_BUFFER_RESINFO" => {
                let (w0, w1) = (ws[0], ws[1]);
                out.push(FetchOp::BufferResinfo {
                    buffer: VTX_WORD0::BUFFER_ID.get(w0) as u8,
                    dst_gpr: VTX_WORD1_GPR::DST_GPR.get(w1) as u8,
                    dst_rel: VTX_WORD1_GPR::DST_REL.get(w1) != 0,
                    dst_sel: [
                        VTX_WORD1_GPR::DST_SEL_X.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_Y.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_Z.get(w1) as u8,
                        VTX_WORD1_GPR::DST_SEL_W.get(w1) as u8,
                    ],
                });
            }
            Ok(i) if i.form == FetchForm::Tex => out.push(FetchOp::Tex(decode_tex(ws, i.op.name))),
            Ok(i) if i.form == FetchForm::VtxSem => out.push(FetchOp::Unsupported(
                "VFETCH_SEMANTIC (semantic ids name vertex-shader inputs; compute programs have none)",
            )),
            Ok(i) if i.form == FetchForm::MemRd => {
                let (w0, w1, w2) = (ws[0], ws[1], ws[2]);
                out.push(FetchOp::ScratchRead {
                    global: i.op.name == "MEM_RD_SCATTER",
                    base: MEM_RD_WORD2::ARRAY_BASE.get(w2) as u16,
                    size: MEM_RD_WORD2::ARRAY_SIZE.get(w2) as u16,
                    indexed: MEM_RD_WORD0::INDEXED.get(w0) != 0,
                    src_gpr: MEM_RD_WORD0::SRC_GPR.get(w0) as u8,
                    src_rel: MEM_RD_WORD0::SRC_REL.get(w0) != 0,
                    src_sel: MEM_RD_WORD0::SRC_SEL_X.get(w0) as u8,
                    dst_gpr: MEM_RD_WORD1::DST_GPR.get(w1) as u8,
                    dst_rel: MEM_RD_WORD1::DST_REL.get(w1) != 0,
                    dst_sel: [
                        MEM_RD_WORD1::DST_SEL_X.get(w1) as u8,
                        MEM_RD_WORD1::DST_SEL_Y.get(w1) as u8,
                        MEM_RD_WORD1::DST_SEL_Z.get(w1) as u8,
                        MEM_RD_WORD1::DST_SEL_W.get(w1) as u8,
                    ],
                    elem_size: MEM_RD_WORD0::ELEM_SIZE.get(w0) as u8,
                    burst: MEM_RD_WORD0::BURST_COUNT.get(w0) as u8,
                });
            }
            Ok(i) => out.push(FetchOp::Unsupported(i.op.name)),
            Err(e) => out.push(FetchOp::Invalid(e.to_string())),
        }
    }
    out
}

/// TEX_WORD0..2 (guide 9.4).
fn decode_tex(ws: [u32; 4], name: &'static str) -> TexFetch {
    let (w0, w1, w2) = (ws[0], ws[1], ws[2]);
    let op = match name {
        "LD" => TexOp::Ld,
        "GET_TEXTURE_RESINFO" => TexOp::GetTextureResinfo,
        "GET_NUMBER_OF_SAMPLES" => TexOp::GetNumberOfSamples,
        "SET_TEXTURE_OFFSETS" => TexOp::SetState(0),
        "SET_GRADIENTS_H" => TexOp::SetState(1),
        "SET_GRADIENTS_V" => TexOp::SetState(2),
        other => TexOp::NeedsSampler(other),
    };
    // OFFSET_X/Y/Z: 5-bit two's complement texel offsets
    let off = |v: u32| ((v << 27) as i32 >> 27) as i8;
    TexFetch {
        op,
        inst_mod: TEX_WORD0::INST_MOD.get(w0) as u8,
        fwq: TEX_WORD0::FETCH_WHOLE_QUAD.get(w0) != 0,
        resource: TEX_WORD0::RESOURCE_ID.get(w0) as u8,
        rim: TEX_WORD0::RESOURCE_INDEX_MODE.get(w0) as u8,
        sampler: TEX_WORD2::SAMPLER_ID.get(w2) as u8,
        src_gpr: TEX_WORD0::SRC_GPR.get(w0) as u8,
        src_rel: TEX_WORD0::SRC_REL.get(w0) != 0,
        src_sel: [
            TEX_WORD2::SRC_SEL_X.get(w2) as u8,
            TEX_WORD2::SRC_SEL_Y.get(w2) as u8,
            TEX_WORD2::SRC_SEL_Z.get(w2) as u8,
            TEX_WORD2::SRC_SEL_W.get(w2) as u8,
        ],
        dst_gpr: TEX_WORD1::DST_GPR.get(w1) as u8,
        dst_rel: TEX_WORD1::DST_REL.get(w1) != 0,
        dst_sel: [
            TEX_WORD1::DST_SEL_X.get(w1) as u8,
            TEX_WORD1::DST_SEL_Y.get(w1) as u8,
            TEX_WORD1::DST_SEL_Z.get(w1) as u8,
            TEX_WORD1::DST_SEL_W.get(w1) as u8,
        ],
        offset: [
            off(TEX_WORD2::OFFSET_X.get(w2)),
            off(TEX_WORD2::OFFSET_Y.get(w2)),
            off(TEX_WORD2::OFFSET_Z.get(w2)),
        ],
    }
}

/// Why a non-RAT export cannot run in a compute program (guide 3.4.1, 3.4.2).
fn illegal_export(name: &str) -> &'static str {
    match name {
        "EXPORT" | "EXPORT_DONE" => {
            "pixel, position and parameter exports can be used only by VS and PS programs (guide 3.4.1)"
        }
        n if n.starts_with("MEM_STREAM") => {
            "stream buffers are available only to VS programs (guide 3.4.2)"
        }
        n if n.starts_with("MEM_RING") => {
            "ring buffers are available to GS, DC, PS and VS programs, not compute (guide 3.4.2)"
        }
        _ => "not available to compute programs",
    }
}

fn decode_gds_clause(w: &[u32], addr: usize, count: usize) -> Vec<FetchOp> {
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let p = addr * 2 + k * 4;
        let Some(ws) = w.get(p..p + 4) else {
            out.push(FetchOp::Invalid(format!(
                "GDS instruction {k} of the clause at @{addr} lies past the end of the code"
            )));
            continue;
        };
        let ws = [ws[0], ws[1], ws[2], ws[3]];
        match decode_fetch(ws, true) {
            Ok(i) if i.op.name == "MEM_GDS" => {
                let (w0, w1, w2) = (ws[0], ws[1], ws[2]);
                let srm = MEM_GDS_WORD0::SRC_REL_MODE.get(w0);
                let drm = MEM_GDS_WORD1::DST_REL_MODE.get(w1);
                if srm == 3 || drm == 3 {
                    out.push(FetchOp::Invalid(
                        "MEM_GDS SRC_REL_MODE/DST_REL_MODE 3 is reserved".into(),
                    ));
                    continue;
                }
                out.push(FetchOp::Gds {
                    op: i.ds.map_or("?", |d| d.name),
                    src_gpr: MEM_GDS_WORD0::SRC_GPR.get(w0) as u8,
                    src_rel: srm == 1,
                    src_sel: [
                        MEM_GDS_WORD0::SRC_SEL_X.get(w0) as u8,
                        MEM_GDS_WORD0::SRC_SEL_Y.get(w0) as u8,
                        MEM_GDS_WORD0::SRC_SEL_Z.get(w0) as u8,
                    ],
                    dst_gpr: MEM_GDS_WORD1::DST_GPR.get(w1) as u8,
                    dst_rel: drm == 1,
                    dst_sel: [
                        MEM_GDS_WORD2::DST_SEL_X.get(w2) as u8,
                        MEM_GDS_WORD2::DST_SEL_Y.get(w2) as u8,
                        MEM_GDS_WORD2::DST_SEL_Z.get(w2) as u8,
                        MEM_GDS_WORD2::DST_SEL_W.get(w2) as u8,
                    ],
                    offset: MEM_GDS_WORD1::SRC_GPR.get(w1) as u8,
                    bcast_first: MEM_GDS_WORD1::BCAST_FIRST_REQ.get(w1) != 0,
                    alloc_consume: MEM_GDS_WORD1::ALLOC_CONSUME.get(w1) != 0,
                    uav_id: MEM_GDS_WORD1::UAV_ID.get(w1) as u8,
                    uav_index_mode: MEM_GDS_WORD1::UAV_INDEX_MODE.get(w1) as u8,
                });
            }
            Ok(i) if i.op.name == "MEM_TF_WRITE" => out.push(FetchOp::Unsupported(
                "MEM_TF_WRITE (tessellation-factor writes belong to hull shaders)",
            )),
            Ok(i) => out.push(FetchOp::Unsupported(i.op.name)),
            Err(e) => out.push(FetchOp::Invalid(e.to_string())),
        }
    }
    out
}

impl Program {
    /// Lower a CF program (the kernel's code, starting at its CF slot 0).
    /// Never fails: undecodable parts fault when executed.
    pub fn lower(code: &[u8]) -> Program {
        let w = words(code);
        let nslots = w.len() / 2;
        let mut prog = Program::default();
        let mut limit = nslots;
        let mut slot = 0;
        // ALU_EXTENDED prefix: kcache banks 2/3 and the bank index modes of banks 0/1
        let mut ext: Option<([Kcache; 2], [u8; 2])> = None;
        while slot < limit {
            let (w0, w1) = (w[slot * 2], w[slot * 2 + 1]);
            let mut op = CfOp {
                kind: CfKind::Nop,
                addr: CF_WORD0::ADDR.get(w0),
                pop_count: CF_WORD1::POP_COUNT.get(w1) as u8,
                cond: CF_WORD1::COND.get(w1) as u8,
                cf_const: CF_WORD1::CF_CONST.get(w1) as u8,
                vpm: CF_WORD1::VALID_PIXEL_MODE.get(w1) != 0,
                wqm: false,
                res_index_mode: 0,
                barrier: w1 >> 31 != 0,
            };
            match decode_cf(w0, w1) {
                Err(e) => op.kind = CfKind::Invalid(e.to_string()),
                Ok(i) => match i.form {
                    CfForm::AluExt => {
                        // prefix: kcache banks 2 and 3 for the next ALU instruction
                        ext = Some((
                            [
                                Kcache {
                                    bank: CF_ALU_WORD0_EXT::KCACHE_BANK2.get(w0) as u8,
                                    mode: CF_ALU_WORD0_EXT::KCACHE_MODE2.get(w0) as u8,
                                    addr: CF_ALU_WORD1_EXT::KCACHE_ADDR2.get(w1) as u8,
                                    index_mode: CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE2.get(w0)
                                        as u8,
                                },
                                Kcache {
                                    bank: CF_ALU_WORD0_EXT::KCACHE_BANK3.get(w0) as u8,
                                    mode: CF_ALU_WORD1_EXT::KCACHE_MODE3.get(w1) as u8,
                                    addr: CF_ALU_WORD1_EXT::KCACHE_ADDR3.get(w1) as u8,
                                    index_mode: CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE3.get(w0)
                                        as u8,
                                },
                            ],
                            [
                                CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE0.get(w0) as u8,
                                CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE1.get(w0) as u8,
                            ],
                        ));
                        op.kind = CfKind::Nop;
                        prog.cf.push(op);
                        slot += 1;
                        continue;
                    }
                    CfForm::Alu => {
                        let addr = CF_ALU_WORD0::ADDR.get(w0) as usize;
                        let cnt = CF_ALU_WORD1::COUNT.get(w1) as usize + 1;
                        if addr > slot {
                            limit = limit.min(addr);
                        }
                        let idx = prog.alu.len() as u32;
                        prog.alu.push(decode_alu_clause(&w, addr, cnt));
                        prog.alu_addr.push(addr as u32);
                        let (e, im) = ext.take().unwrap_or_default();
                        let kind = match i.op.name {
                            "ALU_PUSH_BEFORE" => AluKind::PushBefore,
                            "ALU_POP_AFTER" => AluKind::PopAfter,
                            "ALU_POP2_AFTER" => AluKind::Pop2After,
                            "ALU_REACTIVATE_BEFORE" => AluKind::ReactivateBefore,
                            "ALU_VALID_PIXEL_MODE" => AluKind::ValidPixelMode,
                            "ALU_ELSE_AFTER" => AluKind::ElseAfter,
                            _ => AluKind::Plain,
                        };
                        let wqm = CF_ALU_WORD1::WHOLE_QUAD_MODE.get(w1) != 0;
                        op.addr = addr as u32;
                        op.pop_count = 0;
                        op.cond = 0;
                        op.vpm = false;
                        op.wqm = wqm;
                        op.res_index_mode = im[0] | im[1] | e[0].index_mode | e[1].index_mode;
                        op.kind = CfKind::Alu {
                            kind,
                            clause: idx,
                            kcache: [
                                Kcache {
                                    bank: CF_ALU_WORD0::KCACHE_BANK0.get(w0) as u8,
                                    mode: CF_ALU_WORD0::KCACHE_MODE0.get(w0) as u8,
                                    addr: CF_ALU_WORD1::KCACHE_ADDR0.get(w1) as u8,
                                    index_mode: im[0],
                                },
                                Kcache {
                                    bank: CF_ALU_WORD0::KCACHE_BANK1.get(w0) as u8,
                                    mode: CF_ALU_WORD1::KCACHE_MODE1.get(w1) as u8,
                                    addr: CF_ALU_WORD1::KCACHE_ADDR1.get(w1) as u8,
                                    index_mode: im[1],
                                },
                                e[0],
                                e[1],
                            ],
                            wqm,
                        };
                    }
                    CfForm::Export => {
                        // CF_ALLOC_EXPORT_WORD1 has ARRAY_SIZE where CF_WORD1 has
                        // POP_COUNT/CF_CONST/COND: exports run on the active lanes
                        op.pop_count = 0;
                        op.cf_const = 0;
                        op.cond = 0;
                        if let Some(r) = i.rat {
                            op.res_index_mode =
                                CF_ALLOC_EXPORT_WORD0_RAT::RAT_INDEX_MODE.get(w0) as u8;
                            op.kind = CfKind::Rat {
                                rat_id: CF_ALLOC_EXPORT_WORD0_RAT::RAT_ID.get(w0) as u8,
                                inst: r.name,
                                ty: CF_ALLOC_EXPORT_WORD0_RAT::TYPE.get(w0) as u8,
                                rw_gpr: CF_ALLOC_EXPORT_WORD0_RAT::RW_GPR.get(w0) as u8,
                                rw_rel: CF_ALLOC_EXPORT_WORD0_RAT::RW_REL.get(w0) != 0,
                                index_gpr: CF_ALLOC_EXPORT_WORD0_RAT::INDEX_GPR.get(w0) as u8,
                                comp_mask: CF_ALLOC_EXPORT_WORD1_BUF::COMP_MASK.get(w1) as u8,
                                burst: CF_ALLOC_EXPORT_WORD1_BUF::BURST_COUNT.get(w1) as u8,
                                elem_size: CF_ALLOC_EXPORT_WORD0_RAT::ELEM_SIZE.get(w0) as u8,
                            };
                        } else if i.op.name == "MEM_WR_SCRATCH" || i.op.name == "MEM_EXPORT" {
                            op.kind = CfKind::ScratchWrite {
                                global: i.op.name == "MEM_EXPORT",
                                base: CF_ALLOC_EXPORT_WORD0::ARRAY_BASE.get(w0) as u16,
                                size: CF_ALLOC_EXPORT_WORD1_BUF::ARRAY_SIZE.get(w1) as u16,
                                indexed: CF_ALLOC_EXPORT_WORD0::TYPE.get(w0) & 1 != 0,
                                rw_gpr: CF_ALLOC_EXPORT_WORD0::RW_GPR.get(w0) as u8,
                                rw_rel: CF_ALLOC_EXPORT_WORD0::RW_REL.get(w0) != 0,
                                index_gpr: CF_ALLOC_EXPORT_WORD0::INDEX_GPR.get(w0) as u8,
                                elem_size: CF_ALLOC_EXPORT_WORD0::ELEM_SIZE.get(w0) as u8,
                                comp_mask: CF_ALLOC_EXPORT_WORD1_BUF::COMP_MASK.get(w1) as u8,
                                burst: CF_ALLOC_EXPORT_WORD1_BUF::BURST_COUNT.get(w1) as u8,
                            };
                        } else if i.op.name == "MEM_EXPORT_COMBINED" {
                            op.kind = CfKind::ExportCombined {
                                base: CF_ALLOC_EXPORT_WORD0::ARRAY_BASE.get(w0) as u16,
                                size: CF_ALLOC_EXPORT_WORD1_BUF::ARRAY_SIZE.get(w1) as u16,
                                rw_gpr: CF_ALLOC_EXPORT_WORD0::RW_GPR.get(w0) as u8,
                                rw_rel: CF_ALLOC_EXPORT_WORD0::RW_REL.get(w0) != 0,
                                comp_mask: CF_ALLOC_EXPORT_WORD1_BUF::COMP_MASK.get(w1) as u8,
                                burst: CF_ALLOC_EXPORT_WORD1_BUF::BURST_COUNT.get(w1) as u8,
                                ty: CF_ALLOC_EXPORT_WORD0::TYPE.get(w0) as u8,
                            };
                        } else {
                            op.kind = CfKind::Illegal(i.op.name, illegal_export(i.op.name));
                        }
                        op.vpm = CF_ALLOC_EXPORT_WORD1_BUF::VALID_PIXEL_MODE.get(w1) != 0;
                    }
                    CfForm::Gws => {
                        op.kind = CfKind::Gws {
                            op: CF_GWS_WORD0::GWS_OPCODE.get(w0) as u8,
                            resource: CF_GWS_WORD0::RESOURCE.get(w0) as u8,
                            value: CF_GWS_WORD0::VALUE.get(w0) as u16,
                            sign: CF_GWS_WORD0::SIGN.get(w0) != 0,
                            index_modes: (CF_GWS_WORD0::VAL_INDEX_MODE.get(w0)
                                | CF_GWS_WORD0::RSRC_INDEX_MODE.get(w0) << 2)
                                as u8,
                        };
                        prog.uses_sync = true;
                    }
                    CfForm::Cf => {
                        op.kind = match i.op.name {
                            "NOP" | "WAIT_ACK" | "LDS_DEALLOC" | "SET_PRIORITY" => CfKind::Nop,
                            "TC" | "TC_ACK" => {
                                let addr = op.addr as usize;
                                let cnt = CF_WORD1::COUNT.get(w1) as usize + 1;
                                if addr > slot {
                                    limit = limit.min(addr);
                                }
                                let idx = prog.fetch.len() as u32;
                                prog.fetch.push(decode_fetch_clause(&w, addr, cnt));
                                prog.fetch_addr.push(addr as u32);
                                CfKind::Tc(idx)
                            }
                            "GDS" => {
                                let addr = op.addr as usize;
                                let cnt = CF_WORD1::COUNT.get(w1) as usize + 1;
                                if addr > slot {
                                    limit = limit.min(addr);
                                }
                                let idx = prog.fetch.len() as u32;
                                let clause = decode_gds_clause(&w, addr, cnt);
                                // ordered append waits for earlier waves
                                prog.uses_sync |= clause.iter().any(|f| {
                                    matches!(f, FetchOp::Gds { op, .. } if *op == "ATOMIC_ORDERED_ALLOC_RET")
                                });
                                prog.fetch.push(clause);
                                prog.fetch_addr.push(addr as u32);
                                CfKind::Gds(idx)
                            }
                            "LOOP_START" => CfKind::LoopStart(0),
                            "LOOP_START_DX10" => CfKind::LoopStart(1),
                            "LOOP_START_NO_AL" => CfKind::LoopStart(2),
                            "LOOP_END" => CfKind::LoopEnd,
                            "LOOP_CONTINUE" => CfKind::LoopContinue,
                            "LOOP_BREAK" => CfKind::LoopBreak,
                            "JUMP" => CfKind::Jump,
                            "JUMP_ANY" => CfKind::JumpAny,
                            "JUMPTABLE" => CfKind::JumpTable(CF_WORD0::JUMPTABLE_SEL.get(w0) as u8),
                            "PUSH" => CfKind::Push(false),
                            "PUSH_WQM" => CfKind::Push(true),
                            "ELSE" => CfKind::Else(false),
                            "ELSE_WQM" => CfKind::Else(true),
                            "POP" => CfKind::Pop(false),
                            "POP_WQM" => CfKind::Pop(true),
                            "CALL" => CfKind::Call,
                            "RETURN" => CfKind::Return,
                            "KILL" => CfKind::Kill,
                            "REACTIVATE" | "REACTIVATE_WQM" => CfKind::Reactivate,
                            "END" => CfKind::End,
                            // guide 3.7.6 / 2.1: "Only a vertex shader (VS)
                            // program can call an FS subroutine"
                            "CALL_FS" => CfKind::Illegal(
                                "CALL_FS",
                                "only a vertex shader can call a fetch subroutine (guide 3.7.6)",
                            ),
                            "EMIT_VERTEX" | "EMIT_CUT_VERTEX" | "CUT_VERTEX" => CfKind::Illegal(
                                i.op.name,
                                "vertex emission belongs to geometry shaders (guide 2.1.3)",
                            ),
                            other => CfKind::Unsupported(other),
                        };
                    }
                },
            }
            if ext.is_some() && !matches!(op.kind, CfKind::Nop) {
                // ALU_EXTENDED not followed by an ALU clause instruction
                ext = None;
            }
            prog.cf.push(op);
            slot += 1;
        }
        let _ = ops::F_RET;
        prog
    }
}
