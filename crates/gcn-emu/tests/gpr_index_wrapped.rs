//! VGPR indexing (`s_set_gpr_idx_on`, GCN 1.2+) on SDWA, DPP and OP_SEL
//! instructions: M0[7:0] is added to the instruction's own VGPR operands that
//! the mode bits select (GcnInstrsSop1/Sopc: SRC0, SRC1, SRC2, DST), and to
//! nothing else. risa runs these forms through temporary registers past v255;
//! the index must not apply to those.
//!
//! Programs are assembled by risa and every line is checked against llvm-mc
//! 14's encoding (`llvm-mc -arch=amdgcn -mcpu=fiji|gfx900 -show-encoding`).
//! Expected values follow from the SDWA/DPP/OP_SEL definitions (CLRX
//! GcnSdwaDpp.md, GcnInstrsVop3.md) applied to the indexed registers.

use risa_gcn::Gen;
use risa_gcn_emu::fault::FaultKind;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};
mod common;

/// Index in s2 (M0[7:0] after s_set_gpr_idx_on).
const IDX: u32 = 4;

fn asm(gen: Gen, lines: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (line, llvm) in lines {
        let a = common::assembled(gen, &format!("{line}\n"));
        assert!(!a.output.has_errors(), "{gen}: {}", a.diagnostics());
        let code: Vec<u8> = a.code().iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(&code, llvm, "{gen}: `{line}` encodes as llvm-mc does");
        out.extend(code);
    }
    out
}

/// v[r] in lane l before the program (overridable by `init`).
fn start(r: usize, l: usize) -> u32 {
    (r as u32) << 16 | l as u32
}

/// Runs `idx_on`, `line`, `s_set_gpr_idx_off` with every lane on.
fn run(
    gen: Gen,
    idx_on: (&str, &[u8]),
    line: (&str, &[u8]),
    init: impl FnOnce(&mut Wave),
) -> Result<Wave, risa_gcn_emu::Fault> {
    let off: (&str, &[u8]) = ("s_set_gpr_idx_off", &[0x00, 0x00, 0x9c, 0xbf]);
    let mut code = asm(gen, &[idx_on, line, off]);
    code.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    let mut lds = vec![];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.mode = 0x3f0;
    w.set_s64(EXEC, u64::MAX);
    w.s[2] = IDX;
    for r in 0..256 {
        for l in 0..64 {
            w.v[r][l] = start(r, l);
        }
    }
    init(&mut w);
    exec::run_wave(&mut w, &mut ctx).map(|()| w)
}

const SRC0_DST: (&str, &[u8]) = (
    "s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)",
    &[0x02, 0x09, 0x11, 0xbf],
);
const SRC1: (&str, &[u8]) = (
    "s_set_gpr_idx_on s2, gpr_idx(SRC1)",
    &[0x02, 0x02, 0x11, 0xbf],
);
const SRC01_DST: (&str, &[u8]) = (
    "s_set_gpr_idx_on s2, gpr_idx(SRC0,SRC1,DST)",
    &[0x02, 0x0b, 0x11, 0xbf],
);

#[test]
fn sdwa_and_dpp_index_their_real_operands() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        // SDWA: v0 <- WORD_0 of v1 into WORD_1, WORD_0 kept; indexed: v4 <- v5.
        let w = run(
            gen,
            SRC0_DST,
            (
                "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0",
                &[0xf9, 0x02, 0x00, 0x7e, 0x01, 0x15, 0x04, 0x00],
            ),
            |_| {},
        )
        .unwrap_or_else(|f| panic!("{gen}: {f}"));
        for l in 0..64 {
            let want = (start(5, l) & 0xffff) << 16 | (start(4, l) & 0xffff);
            assert_eq!(w.v[4][l], want, "{gen} sdwa lane {l}");
            assert_eq!(w.v[0][l], start(0, l), "{gen}: v0 is not written");
        }
        // SDWA VOP2 with only SRC1 indexed: v0 = BYTE_1(v1) & v6.
        let w = run(
            gen,
            SRC1,
            (
                "v_and_b32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD",
                &[0xf9, 0x04, 0x00, 0x26, 0x01, 0x06, 0x01, 0x06],
            ),
            |w| {
                w.v[1] = [0x0000_ff00; 64];
                w.v[6] = [0x0000_0055; 64];
            },
        )
        .unwrap_or_else(|f| panic!("{gen}: {f}"));
        assert_eq!(w.v[0][0], 0x55, "{gen}: BYTE_1 of v1 & v6");
        // DPP: v4[l] = v5[l ^ 1] (quad_perm [1,0,3,2]).
        let w = run(
            gen,
            SRC0_DST,
            (
                "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                &[0xfa, 0x02, 0x00, 0x7e, 0x01, 0xb1, 0x00, 0xff],
            ),
            |_| {},
        )
        .unwrap_or_else(|f| panic!("{gen}: {f}"));
        for l in 0..64 {
            assert_eq!(w.v[4][l], start(5, l ^ 1), "{gen} dpp lane {l}");
            assert_eq!(w.v[0][l], start(0, l), "{gen}: v0 is not written");
        }
    }
}

#[test]
fn opsel_and_kept_high_half_index_their_real_operands() {
    let gen = Gen::Gcn14;
    // High halves of v5 and v6 added into the high half of v4.
    let w = run(
        gen,
        SRC01_DST,
        (
            "v_add_i16 v0, v1, v2 op_sel:[1,1,1]",
            &[0x00, 0x58, 0x9e, 0xd2, 0x01, 0x05, 0x02, 0x00],
        ),
        |_| {},
    )
    .unwrap_or_else(|f| panic!("{f}"));
    for l in 0..64 {
        assert_eq!(
            w.v[4][l],
            (5 + 6) << 16 | start(4, l) & 0xffff,
            "op_sel lane {l}"
        );
    }
    // v_fma_f16 keeps VDST[31:16] on GCN 1.4: v4 = hi(v4) : fma(v5, v2, v3)
    // = 1 * 5 + 100 = 105 (0x5690).
    let w = run(
        gen,
        SRC0_DST,
        (
            "v_fma_f16 v0, v1, v2, v3",
            &[0x00, 0x00, 0x06, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        ),
        |w| {
            w.v[5] = [0xaaaa_3c00; 64];
            w.v[2] = [0x4500; 64];
            w.v[3] = [0x5640; 64];
            w.v[4] = [0xbbbb_0000; 64];
        },
    )
    .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(w.v[4][0], 0xbbbb_5690);
    assert_eq!(w.v[0][0], start(0, 0), "v0 is not written");
}

#[test]
fn a_real_operand_indexed_past_v255_still_faults() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let f = run(
            gen,
            SRC0_DST,
            ("v_mov_b32_e32 v254, v1", &[0x01, 0x03, 0xfc, 0x7f]),
            |_| {},
        )
        .err()
        .unwrap_or_else(|| panic!("{gen}: v254 + 4 must fault"));
        assert!(
            matches!(&f.kind, FaultKind::BadOperand(m) if m.contains("past v255")),
            "{gen}: {f}"
        );
    }
}
