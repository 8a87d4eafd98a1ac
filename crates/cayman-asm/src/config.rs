//! The `.AMDGPU.config` values of a CF program that gives no `.config_reg`
//! lines: NUM_GPRS and STACK_SIZE of `SQ_PGM_RESOURCES_LS` (compute runs as
//! the LS stage), `DB_SHADER_CONTROL` 0 and `SQ_LDS_ALLOC` (ABI-NOTES.md,
//! "Cayman (r600) objects"). Computed from the assembled words, so labels,
//! macros and raw `.int` lines count the same as instruction lines.
//!
//! Checked against clang on every fixture kernel
//! (`tests/fixtures_roundtrip.rs`, `computed_config_matches_clang`).

use risa_cayman::codec::{AluForm, CfForm};
use risa_cayman::fields::*;
use risa_cayman::{decode_alu, decode_cf, decode_fetch, listing, ItemKind};

/// `SQ_PGM_RESOURCES_LS`: NUM_GPRS \[7:0\], STACK_SIZE \[15:8\].
pub const SQ_PGM_RESOURCES_LS: u32 = 0x0002_88D4;
/// `DB_SHADER_CONTROL` (0 for compute).
pub const DB_SHADER_CONTROL: u32 = 0x0002_880C;
/// `SQ_LDS_ALLOC`: static LDS size in dwords.
pub const SQ_LDS_ALLOC: u32 = 0x0002_88E8;

/// Clause temporaries: GPR[124..127] with the usual NUM_CLAUSE_TEMP_GPRS = 4
/// (guide 4.6, footnote 1) "do not count against its GPR count".
const FIRST_CLAUSE_TEMP: u32 = 124;

/// Stack subentries per entry on Cayman (64-wide thread groups, guide Table 3.5).
const SUBENTRIES_PER_ENTRY: u32 = 4;

/// What a program needs from the hardware.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// Highest GPR the program names (clause temporaries excluded) + 1.
    pub num_gprs: u32,
    /// Stack entries (guide 3.6.5).
    pub stack_size: u32,
}

impl Resources {
    /// The three `.AMDGPU.config` pairs clang writes for a compute kernel.
    pub fn config(&self, lds_dwords: u32) -> [(u32, u32); 3] {
        [
            (
                SQ_PGM_RESOURCES_LS,
                (self.num_gprs & 0xff) | (self.stack_size & 0xff) << 8,
            ),
            (DB_SHADER_CONTROL, 0),
            (SQ_LDS_ALLOC, lds_dwords),
        ]
    }
}

/// One pushed stack element (guide Table 3.6).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pushed {
    Entry,
    Sub,
}

/// NUM_GPRS and STACK_SIZE of the raw CF program `code` (starting at offset 0).
///
/// GPRs: every GPR an instruction names as source or destination (ALU
/// operands, fetch/GDS source and destination, export RW_GPR..+BURST_COUNT
/// and INDEX_GPR), whether or not its write is masked. A relative operand
/// counts its base only: the registers it reaches are known at run time.
///
/// Stack: the CF program is walked in order; PUSH*/ALU_PUSH_BEFORE take a
/// subentry (a full entry with whole-quad mode), LOOP_START* an entry, CALL
/// a subentry (guide Table 3.6); POP, ALU_POP_AFTER, ALU_POP2_AFTER,
/// LOOP_END and RETURN release them. The pop counts of JUMP, ELSE and
/// LOOP_BREAK/CONTINUE apply only on the path that leaves the block, so the
/// code that follows them in order is still nested and they are ignored.
/// STACK_SIZE = max over the walk of entries + ceil(subentries / 4) (guide
/// 3.6.5: A + B / subentries-per-entry ≤ STACK_SIZE).
pub fn resources(code: &[u8]) -> Resources {
    let (l, _) = listing(code);
    let word = |d: usize| -> u32 {
        let o = d * 4;
        code.get(o..o + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut max_gpr: Option<u32> = None;
    let mut note = |g: u32| {
        if g < FIRST_CLAUSE_TEMP {
            max_gpr = Some(max_gpr.map_or(g, |m| m.max(g)));
        }
    };
    let mut stack: Vec<Pushed> = Vec::new();
    let mut max_stack = 0u32;
    let mut gds = false;
    for it in &l.items {
        match it.kind {
            ItemKind::Cf => {
                let (w0, w1) = (word(it.dword), word(it.dword + 1));
                let Ok(i) = decode_cf(w0, w1) else { continue };
                let name = i.op.name;
                match i.form {
                    CfForm::Cf => {
                        gds = name == "GDS";
                        let wqm = name.ends_with("_WQM");
                        match name {
                            "PUSH" | "PUSH_WQM" => {
                                stack.push(if wqm { Pushed::Entry } else { Pushed::Sub })
                            }
                            "LOOP_START" | "LOOP_START_DX10" | "LOOP_START_NO_AL" => {
                                stack.push(Pushed::Entry)
                            }
                            "CALL" | "CALL_FS" => stack.push(Pushed::Sub),
                            "POP" | "POP_WQM" => {
                                for _ in 0..CF_WORD1::POP_COUNT.get(w1) {
                                    stack.pop();
                                }
                            }
                            "LOOP_END" | "RETURN" => {
                                stack.pop();
                            }
                            _ => {}
                        }
                    }
                    CfForm::Alu => {
                        let wqm = CF_ALU_WORD1::WHOLE_QUAD_MODE.get(w1) != 0;
                        match name {
                            "ALU_PUSH_BEFORE" => {
                                stack.push(if wqm { Pushed::Entry } else { Pushed::Sub })
                            }
                            "ALU_POP_AFTER" | "ALU_POP2_AFTER" => {}
                            _ => {}
                        }
                    }
                    CfForm::Export => {
                        use CF_ALLOC_EXPORT_WORD0 as E;
                        let rw = E::RW_GPR.get(w0);
                        let burst = CF_ALLOC_EXPORT_WORD1_BUF::BURST_COUNT.get(w1);
                        note(rw + burst);
                        // memory writes of TYPE WRITE_IND / WRITE_IND_ACK use INDEX_GPR
                        if i.op.flags & risa_cayman::ops::F_SWIZ == 0 && E::TYPE.get(w0) & 1 != 0 {
                            note(E::INDEX_GPR.get(w0));
                        }
                    }
                    _ => {}
                }
                let (entries, subs) = stack.iter().fold((0u32, 0u32), |(e, s), p| match p {
                    Pushed::Entry => (e + 1, s),
                    Pushed::Sub => (e, s + 1),
                });
                max_stack = max_stack.max(entries + subs.div_ceil(SUBENTRIES_PER_ENTRY));
                // the ALU clause runs before its pops
                if i.form == CfForm::Alu {
                    let n = match name {
                        "ALU_POP_AFTER" => 1,
                        "ALU_POP2_AFTER" => 2,
                        _ => 0,
                    };
                    for _ in 0..n {
                        stack.pop();
                    }
                }
            }
            ItemKind::Alu => {
                let Ok(i) = decode_alu(word(it.dword), word(it.dword + 1)) else {
                    continue;
                };
                for s in 0..i.nsrc().min(i.src_slots()) {
                    let src = i.src(s);
                    if src.sel < 128 {
                        note(src.sel);
                    }
                }
                let mova = i.op.flags & risa_cayman::ops::F_MOVA != 0;
                if i.form != AluForm::Lds && !mova {
                    note(ALU_WORD1_OP2::DST_GPR.get(i.words[1]));
                }
            }
            ItemKind::Fetch => {
                let w = [
                    word(it.dword),
                    word(it.dword + 1),
                    word(it.dword + 2),
                    word(it.dword + 3),
                ];
                let Ok(f) = decode_fetch(w, gds) else {
                    continue;
                };
                use risa_cayman::codec::FetchForm as F;
                match f.form {
                    F::Vtx => {
                        note(VTX_WORD0::SRC_GPR.get(w[0]));
                        note(VTX_WORD1_GPR::DST_GPR.get(w[1]));
                    }
                    F::VtxSem => note(VTX_WORD0::SRC_GPR.get(w[0])),
                    F::Tex => {
                        note(TEX_WORD0::SRC_GPR.get(w[0]));
                        note(TEX_WORD1::DST_GPR.get(w[1]));
                    }
                    F::MemRd => {
                        note(MEM_RD_WORD0::SRC_GPR.get(w[0]));
                        note(MEM_RD_WORD1::DST_GPR.get(w[1]));
                    }
                    F::Gds => {
                        note(MEM_GDS_WORD0::SRC_GPR.get(w[0]));
                        note(MEM_GDS_WORD1::SRC_GPR.get(w[1]));
                        note(MEM_GDS_WORD1::DST_GPR.get(w[1]));
                    }
                }
            }
            _ => {}
        }
    }
    Resources {
        num_gprs: max_gpr.map_or(0, |m| m + 1),
        stack_size: max_stack,
    }
}
