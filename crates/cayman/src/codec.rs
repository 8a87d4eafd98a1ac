//! Table-driven decoder and encoder. A decoded instruction keeps its raw
//! dwords (so encoding is exact), the encoding form chosen from the opcode
//! fields, and the table row; all field access goes through `fields`.

use crate::fields::*;
use crate::ops::{self, Op};

/// Why a word sequence is not an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Unknown CF_INST value (8-bit CF_WORD1 field).
    #[error("unknown CF_INST {0}")]
    CfOpcode(u32),
    /// Unknown CF_ALU CF_INST value.
    #[error("unknown CF_ALU CF_INST {0}")]
    CfAluOpcode(u32),
    /// Unknown GWS opcode.
    #[error("unknown GWS_OPCODE {0}")]
    GwsOpcode(u32),
    /// Unknown RAT_INST value.
    #[error("unknown RAT_INST {0}")]
    RatOpcode(u32),
    /// Unknown OP2 ALU_INST value.
    #[error("unknown OP2 ALU_INST {0}")]
    Op2(u32),
    /// Unknown OP3 ALU_INST value.
    #[error("unknown OP3 ALU_INST {0}")]
    Op3(u32),
    /// Unknown LDS_OP value.
    #[error("unknown LDS_OP {0}")]
    LdsOp(u32),
    /// Unknown VTX/TEX/MEM instruction value in a fetch clause.
    #[error("unknown fetch instruction {0}")]
    Fetch(u32),
    /// Unknown MEM_OP of a memory read or GDS operation.
    #[error("unknown MEM_OP {0}")]
    MemOp(u32),
    /// Not enough words.
    #[error("truncated instruction")]
    Truncated,
}

/// Encoding form of a CF instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfForm {
    /// CF_WORD0 + CF_WORD1.
    Cf,
    /// CF_GWS_WORD0 + CF_WORD1 (CF_INST = GLOBAL_WAVE_SYNC).
    Gws,
    /// CF_ALU_WORD0 + CF_ALU_WORD1.
    Alu,
    /// CF_ALU_WORD0_EXT + CF_ALU_WORD1_EXT (the ALU_EXTENDED prefix).
    AluExt,
    /// CF_ALLOC_EXPORT_WORD0\[_RAT\] + CF_ALLOC_EXPORT_WORD1_{BUF,SWIZ}.
    Export,
}

/// A decoded CF instruction (64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfInst {
    /// The two dwords.
    pub words: [u32; 2],
    /// Encoding form.
    pub form: CfForm,
    /// The CF/CF_ALU/export/GWS table row.
    pub op: &'static Op,
    /// For RAT exports, the RAT_INST row.
    pub rat: Option<&'static Op>,
}

/// The CF_INST value of GLOBAL_WAVE_SYNC.
const CF_GLOBAL_WAVE_SYNC: u32 = 30;

/// Decode one CF instruction.
pub fn decode_cf(w0: u32, w1: u32) -> Result<CfInst, DecodeError> {
    // CF_ALU_WORD1 CF_INST [29:26] holds 8..15, i.e. bit 29 set; the 8-bit
    // CF_INST of the other CF formats never reaches 128.
    if w1 & (1 << 29) != 0 {
        let code = CF_ALU_WORD1::CF_INST.get(w1);
        let op = ops::CF_ALU_INDEX
            .get(code)
            .ok_or(DecodeError::CfAluOpcode(code))?;
        let form = if op.flags & ops::F_EXT != 0 {
            CfForm::AluExt
        } else {
            CfForm::Alu
        };
        return Ok(CfInst {
            words: [w0, w1],
            form,
            op,
            rat: None,
        });
    }
    let code = CF_WORD1::CF_INST.get(w1);
    if let Some(op) = ops::EXPORT_INDEX.get(code) {
        let rat = if op.flags & ops::F_RAT != 0 {
            let r = CF_ALLOC_EXPORT_WORD0_RAT::RAT_INST.get(w0);
            Some(ops::RAT_INDEX.get(r).ok_or(DecodeError::RatOpcode(r))?)
        } else {
            None
        };
        return Ok(CfInst {
            words: [w0, w1],
            form: CfForm::Export,
            op,
            rat,
        });
    }
    if code == CF_GLOBAL_WAVE_SYNC {
        let g = CF_GWS_WORD0::GWS_OPCODE.get(w0);
        let op = ops::GWS_INDEX.get(g).ok_or(DecodeError::GwsOpcode(g))?;
        return Ok(CfInst {
            words: [w0, w1],
            form: CfForm::Gws,
            op,
            rat: None,
        });
    }
    let op = ops::CF_INDEX.get(code).ok_or(DecodeError::CfOpcode(code))?;
    Ok(CfInst {
        words: [w0, w1],
        form: CfForm::Cf,
        op,
        rat: None,
    })
}

/// Encoding form of an ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluForm {
    /// ALU_WORD0 + ALU_WORD1_OP2.
    Op2,
    /// ALU_WORD0 + ALU_WORD1_OP3.
    Op3,
    /// ALU_WORD0 + ALU_WORD1_OP2_MOVA.
    Mova,
    /// ALU_WORD0 + ALU_WORD1_OP2_EXECUTE_MASK.
    ExecMask,
    /// ALU_WORD0_LDS_IDX_OP + ALU_WORD1_LDS_IDX_OP.
    Lds,
}

/// A decoded ALU instruction (64 bits, literals not included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluInst {
    /// The two dwords.
    pub words: [u32; 2],
    /// Encoding form.
    pub form: AluForm,
    /// The OP2, OP3 or LDS table row.
    pub op: &'static Op,
}

/// One ALU source operand, as encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Src {
    /// SRC*_SEL (9 bits).
    pub sel: u32,
    /// SRC*_REL.
    pub rel: bool,
    /// SRC*_CHAN.
    pub chan: u32,
    /// SRC*_NEG (not in the LDS form).
    pub neg: bool,
    /// SRC*_ABS (OP2 forms, sources 0 and 1 only).
    pub abs: bool,
}

impl Src {
    /// True if every field is zero.
    pub fn is_zero(&self) -> bool {
        *self == Src::default()
    }
}

/// Decode one ALU instruction.
pub fn decode_alu(w0: u32, w1: u32) -> Result<AluInst, DecodeError> {
    let op3 = ALU_WORD1_OP3::ALU_INST.get(w1);
    if op3 >= 4 {
        if op3 == ops::OP3_LDS_IDX_OP {
            let l = ALU_WORD1_LDS_IDX_OP::LDS_OP.get(w1);
            let op = ops::LDS_INDEX.get(l).ok_or(DecodeError::LdsOp(l))?;
            return Ok(AluInst {
                words: [w0, w1],
                form: AluForm::Lds,
                op,
            });
        }
        let op = ops::OP3_INDEX.get(op3).ok_or(DecodeError::Op3(op3))?;
        return Ok(AluInst {
            words: [w0, w1],
            form: AluForm::Op3,
            op,
        });
    }
    let code = ALU_WORD1_OP2::ALU_INST.get(w1);
    let op = ops::OP2_INDEX.get(code).ok_or(DecodeError::Op2(code))?;
    let form = if op.flags & ops::F_MOVA != 0 {
        AluForm::Mova
    } else if op.flags & ops::F_EXEC != 0 && ALU_WORD1_OP2::UPDATE_EXEC_MASK.get(w1) != 0 {
        AluForm::ExecMask
    } else {
        AluForm::Op2
    };
    Ok(AluInst {
        words: [w0, w1],
        form,
        op,
    })
}

impl AluInst {
    /// LAST bit: the instruction ends its group.
    pub fn last(&self) -> bool {
        ALU_WORD0::LAST.get(self.words[0]) != 0
    }
    /// DST_CHAN: also the slot (x, y, z, w) the instruction occupies.
    pub fn dst_chan(&self) -> u32 {
        ALU_WORD1_OP2::DST_CHAN.get(self.words[1])
    }
    /// Source operand `i` (0..3) as encoded, whether or not the opcode reads it.
    pub fn src(&self, i: usize) -> Src {
        let (w0, w1) = (self.words[0], self.words[1]);
        let lds = self.form == AluForm::Lds;
        let op3ish = matches!(self.form, AluForm::Op3 | AluForm::Lds);
        match i {
            0 => Src {
                sel: ALU_WORD0::SRC0_SEL.get(w0),
                rel: ALU_WORD0::SRC0_REL.get(w0) != 0,
                chan: ALU_WORD0::SRC0_CHAN.get(w0),
                neg: !lds && ALU_WORD0::SRC0_NEG.get(w0) != 0,
                abs: !op3ish && ALU_WORD1_OP2::SRC0_ABS.get(w1) != 0,
            },
            1 => Src {
                sel: ALU_WORD0::SRC1_SEL.get(w0),
                rel: ALU_WORD0::SRC1_REL.get(w0) != 0,
                chan: ALU_WORD0::SRC1_CHAN.get(w0),
                neg: !lds && ALU_WORD0::SRC1_NEG.get(w0) != 0,
                abs: !op3ish && ALU_WORD1_OP2::SRC1_ABS.get(w1) != 0,
            },
            2 if op3ish => Src {
                sel: ALU_WORD1_OP3::SRC2_SEL.get(w1),
                rel: ALU_WORD1_OP3::SRC2_REL.get(w1) != 0,
                chan: ALU_WORD1_OP3::SRC2_CHAN.get(w1),
                neg: !lds && ALU_WORD1_OP3::SRC2_NEG.get(w1) != 0,
                abs: false,
            },
            _ => Src::default(),
        }
    }
    /// Number of source fields the encoding form has (2 for OP2 forms, 3 otherwise).
    pub fn src_slots(&self) -> usize {
        if matches!(self.form, AluForm::Op3 | AluForm::Lds) {
            3
        } else {
            2
        }
    }
    /// Number of sources the opcode reads.
    pub fn nsrc(&self) -> usize {
        (self.op.flags & ops::F_NSRC) as usize
    }
    /// LDS index offset (6 bits gathered from IDX_OFFSET_0..5).
    pub fn lds_offset(&self) -> u32 {
        let (w0, w1) = (self.words[0], self.words[1]);
        ALU_WORD1_LDS_IDX_OP::IDX_OFFSET_0.get(w1)
            | ALU_WORD1_LDS_IDX_OP::IDX_OFFSET_1.get(w1) << 1
            | ALU_WORD1_LDS_IDX_OP::IDX_OFFSET_2.get(w1) << 2
            | ALU_WORD1_LDS_IDX_OP::IDX_OFFSET_3.get(w1) << 3
            | ALU_WORD0_LDS_IDX_OP::IDX_OFFSET_4.get(w0) << 4
            | ALU_WORD0_LDS_IDX_OP::IDX_OFFSET_5.get(w0) << 5
    }
}

/// Encoding form of a fetch-clause or GDS-clause instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchForm {
    /// VTX_WORD0 + VTX_WORD1_GPR + VTX_WORD2.
    Vtx,
    /// VTX_WORD0 + VTX_WORD1_SEM + VTX_WORD2.
    VtxSem,
    /// TEX_WORD0..2.
    Tex,
    /// MEM_RD_WORD0..2.
    MemRd,
    /// MEM_GDS_WORD0..2.
    Gds,
}

/// A decoded fetch or GDS instruction (128 bits: three dwords plus padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchInst {
    /// The four dwords (the fourth is padding).
    pub words: [u32; 4],
    /// Encoding form.
    pub form: FetchForm,
    /// VTX/TEX/MEM_RD/MEM_GDS row.
    pub op: &'static Op,
    /// For GDS, the GDS_OP row (shared with the LDS opcodes).
    pub ds: Option<&'static Op>,
}

/// Decode one instruction of a TC clause (`gds == false`) or GDS clause.
pub fn decode_fetch(words: [u32; 4], gds: bool) -> Result<FetchInst, DecodeError> {
    let w0 = words[0];
    if gds {
        let mi = MEM_GDS_WORD0::MEM_INST.get(w0);
        if mi != ops::MEM_INST_MEM {
            return Err(DecodeError::Fetch(mi));
        }
        let m = MEM_GDS_WORD0::MEM_OP.get(w0);
        let op = ops::MEM_GDS_INDEX.get(m).ok_or(DecodeError::MemOp(m))?;
        let d = MEM_GDS_WORD1::GDS_OP.get(words[1]);
        let ds = ops::LDS_INDEX.get(d).ok_or(DecodeError::LdsOp(d))?;
        return Ok(FetchInst {
            words,
            form: FetchForm::Gds,
            op,
            ds: Some(ds),
        });
    }
    let inst = VTX_WORD0::VC_INST.get(w0);
    if inst == ops::MEM_INST_MEM {
        let m = MEM_RD_WORD0::MEM_OP.get(w0);
        let op = ops::MEM_RD_INDEX.get(m).ok_or(DecodeError::MemOp(m))?;
        return Ok(FetchInst {
            words,
            form: FetchForm::MemRd,
            op,
            ds: None,
        });
    }
    if let Some(op) = ops::VTX_INDEX.get(inst) {
        let form = if op.flags & ops::F_SEM != 0 {
            FetchForm::VtxSem
        } else {
            FetchForm::Vtx
        };
        return Ok(FetchInst {
            words,
            form,
            op,
            ds: None,
        });
    }
    let op = ops::TEX_INDEX.get(inst).ok_or(DecodeError::Fetch(inst))?;
    Ok(FetchInst {
        words,
        form: FetchForm::Tex,
        op,
        ds: None,
    })
}

/// Encode a CF instruction (exact inverse of [`decode_cf`]).
pub fn encode_cf(i: &CfInst) -> [u32; 2] {
    i.words
}
/// Encode an ALU instruction (exact inverse of [`decode_alu`]).
pub fn encode_alu(i: &AluInst) -> [u32; 2] {
    i.words
}
/// Encode a fetch/GDS instruction (exact inverse of [`decode_fetch`]).
pub fn encode_fetch(i: &FetchInst) -> [u32; 4] {
    i.words
}

/// The dword formats making up an instruction of the given table and form,
/// used to build instructions field by field.
pub fn word_formats(kind: &str, rat: bool, swiz: bool) -> &'static [WordFormat] {
    match (kind, rat, swiz) {
        ("CF", ..) => &[CF_WORD0::FORMAT, CF_WORD1::FORMAT],
        ("GWS", ..) => &[CF_GWS_WORD0::FORMAT, CF_WORD1::FORMAT],
        ("CF_ALU", ..) => &[CF_ALU_WORD0::FORMAT, CF_ALU_WORD1::FORMAT],
        ("CF_ALU_EXT", ..) => &[CF_ALU_WORD0_EXT::FORMAT, CF_ALU_WORD1_EXT::FORMAT],
        ("EXPORT", true, _) => &[
            CF_ALLOC_EXPORT_WORD0_RAT::FORMAT,
            CF_ALLOC_EXPORT_WORD1_BUF::FORMAT,
        ],
        ("EXPORT", false, true) => &[
            CF_ALLOC_EXPORT_WORD0::FORMAT,
            CF_ALLOC_EXPORT_WORD1_SWIZ::FORMAT,
        ],
        ("EXPORT", false, false) => &[
            CF_ALLOC_EXPORT_WORD0::FORMAT,
            CF_ALLOC_EXPORT_WORD1_BUF::FORMAT,
        ],
        ("ALU_OP2", ..) => &[ALU_WORD0::FORMAT, ALU_WORD1_OP2::FORMAT],
        ("ALU_OP3", ..) => &[ALU_WORD0::FORMAT, ALU_WORD1_OP3::FORMAT],
        ("MOVA", ..) => &[ALU_WORD0::FORMAT, ALU_WORD1_OP2_MOVA::FORMAT],
        ("EXEC_MASK", ..) => &[ALU_WORD0::FORMAT, ALU_WORD1_OP2_EXECUTE_MASK::FORMAT],
        ("LDS", ..) => &[ALU_WORD0_LDS_IDX_OP::FORMAT, ALU_WORD1_LDS_IDX_OP::FORMAT],
        ("VTX", _, true) => &[VTX_WORD0::FORMAT, VTX_WORD1_SEM::FORMAT, VTX_WORD2::FORMAT],
        ("VTX", ..) => &[VTX_WORD0::FORMAT, VTX_WORD1_GPR::FORMAT, VTX_WORD2::FORMAT],
        ("TEX", ..) => &[TEX_WORD0::FORMAT, TEX_WORD1::FORMAT, TEX_WORD2::FORMAT],
        ("MEM_RD", ..) => &[
            MEM_RD_WORD0::FORMAT,
            MEM_RD_WORD1::FORMAT,
            MEM_RD_WORD2::FORMAT,
        ],
        ("MEM_GDS", ..) => &[
            MEM_GDS_WORD0::FORMAT,
            MEM_GDS_WORD1::FORMAT,
            MEM_GDS_WORD2::FORMAT,
        ],
        _ => &[],
    }
}

/// Bits of a dword format that are reserved.
pub fn reserved_mask(f: &WordFormat) -> u32 {
    f.fields
        .iter()
        .filter(|x| x.name.starts_with("RESERVED"))
        .fold(0, |m, x| m | (x.mask() << x.lo))
}
