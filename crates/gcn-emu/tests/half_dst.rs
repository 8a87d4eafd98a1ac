//! What a 16-bit VALU result does to VDST[31:16] on GCN 1.2 and GCN 1.4.
//!
//! GCN 1.2 zeroes the high half for every 16-bit result. On GCN 1.4 the
//! instructions LLVM's `GCNSubtarget::zeroesHigh16BitsOfDest` lists as zeroing
//! only on VOLCANIC_ISLANDS (v_mad_f16/u16/i16, v_fma_f16, v_div_fixup_f16,
//! v_mac_f16, v_madak_f16, v_madmk_f16) keep it; the `_legacy` forms at the
//! GCN 1.2 opcodes and every other 16-bit op zero it. OP_SEL[3] writes the
//! high half and keeps the low one (CLRX GcnInstrsVop3.md, "other part is
//! preserved").
//!
//! Every program line is assembled by risa's assembler and checked against
//! the encoding llvm-mc 14 gives it (`llvm-mc -arch=amdgcn -mcpu=fiji|gfx900
//! -show-encoding`), then run on two lanes; lane 2 is outside EXEC. The 16-bit
//! results are plain arithmetic on exact halves (1 * 5 + 100 = 105 is
//! 0x5690), or the value the CLRX pseudo-code gives.

mod common;
use common::asm;
use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

const H1: u32 = 0x3c00; // 1.0
const H2: u32 = 0x4000; // 2.0
const H3: u32 = 0x4200; // 3.0
const H5: u32 = 0x4500; // 5.0
const HALF: u32 = 0x3800; // 0.5
const H100: u32 = 0x5640; // 100.0
const H105: u32 = 0x5690; // 105.0
const H110: u32 = 0x56e0; // 110.0

/// VDST before the instruction: a high half to keep or lose, 100.0 below
/// (the accumulator of v_mac_f16).
const OLD: u32 = 0xaaaa_0000 | H100;

/// Runs `line` with v0 = OLD, v1 = 2.0:1.0, v2 = 3.0:5.0, v3 = 0.5:100.0,
/// v4 = 105.0f under `mode`; returns v0 of lanes 0, 1, 2.
fn run(gen: Gen, line: &str, llvm: &[u8], mode: u32) -> [u32; 3] {
    let mut code = asm(gen, line);
    assert_eq!(code, llvm, "{gen}: `{line}` encodes as llvm-mc does");
    code.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    let mut lds = vec![];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.mode = mode;
    w.set_s64(EXEC, 0b11);
    w.v[0] = [OLD; 64];
    w.v[1] = [H2 << 16 | H1; 64];
    w.v[2] = [H3 << 16 | H5; 64];
    w.v[3] = [HALF << 16 | H100; 64];
    w.v[4] = [105f32.to_bits(); 64];
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen} `{line}`: {f}"));
    [w.v[0][0], w.v[0][1], w.v[0][2]]
}

/// (line, llvm-mc encoding, 16-bit result, keeps the high half on GCN 1.4)
/// for lines that encode the same on fiji and gfx900.
const BOTH: &[(&str, &[u8], u32, bool)] = &[
    (
        "v_mac_f16_e32 v0, v1, v2",
        &[0x01, 0x05, 0x00, 0x46],
        H105,
        true,
    ),
    (
        "v_mac_f16_e64 v0, v1, v2",
        &[0x00, 0x00, 0x23, 0xd1, 0x01, 0x05, 0x02, 0x00],
        H105,
        true,
    ),
    (
        "v_madak_f16 v0, v1, v2, 0x5640",
        &[0x01, 0x05, 0x00, 0x4a, 0x40, 0x56, 0x00, 0x00],
        H105,
        true,
    ),
    (
        "v_madmk_f16 v0, v1, 0x4500, v3",
        &[0x01, 0x07, 0x00, 0x48, 0x00, 0x45, 0x00, 0x00],
        H105,
        true,
    ),
    // DPP with the identity permutation: the same result, placed the same way.
    (
        "v_mac_f16_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
        &[0xfa, 0x04, 0x00, 0x46, 0x01, 0xe4, 0x00, 0xff],
        H105,
        true,
    ),
    (
        "v_add_f16_e32 v0, v1, v2",
        &[0x01, 0x05, 0x00, 0x3e],
        0x4600,
        false,
    ),
    (
        "v_add_f16_e64 v0, v1, v2",
        &[0x00, 0x00, 0x1f, 0xd1, 0x01, 0x05, 0x02, 0x00],
        0x4600,
        false,
    ),
    // 0x3c00 * 0x4500 mod 2^16.
    (
        "v_mul_lo_u16_e32 v0, v1, v2",
        &[0x01, 0x05, 0x00, 0x52],
        0,
        false,
    ),
    (
        "v_cvt_f16_f32_e32 v0, v4",
        &[0x04, 0x15, 0x00, 0x7e],
        H105,
        false,
    ),
    (
        "v_sqrt_f16_e32 v0, v1",
        &[0x01, 0x7d, 0x00, 0x7e],
        H1,
        false,
    ),
];

/// The VOP3 rows whose opcode moved in GCN 1.4: (line, fiji encoding,
/// gfx900 encoding, result). On gfx900 the fiji opcode is the `_legacy` row.
const MOVED: &[(&str, [u8; 8], [u8; 8], u32)] = &[
    (
        "v_mad_f16 v0, v1, v2, v3",
        [0x00, 0x00, 0xea, 0xd1, 0x01, 0x05, 0x0e, 0x04],
        [0x00, 0x00, 0x03, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        H105,
    ),
    // 0x3c00 * 0x4500 + 0x5640 mod 2^16 (the product's low 16 bits are 0).
    (
        "v_mad_u16 v0, v1, v2, v3",
        [0x00, 0x00, 0xeb, 0xd1, 0x01, 0x05, 0x0e, 0x04],
        [0x00, 0x00, 0x04, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        H100,
    ),
    (
        "v_mad_i16 v0, v1, v2, v3",
        [0x00, 0x00, 0xec, 0xd1, 0x01, 0x05, 0x0e, 0x04],
        [0x00, 0x00, 0x05, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        H100,
    ),
    (
        "v_fma_f16 v0, v1, v2, v3",
        [0x00, 0x00, 0xee, 0xd1, 0x01, 0x05, 0x0e, 0x04],
        [0x00, 0x00, 0x06, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        H105,
    ),
    // No special operand: the quotient SRC0 (GcnInstrsVop3.md V_DIV_FIXUP_F16).
    (
        "v_div_fixup_f16 v0, v1, v2, v3",
        [0x00, 0x00, 0xef, 0xd1, 0x01, 0x05, 0x0e, 0x04],
        [0x00, 0x00, 0x07, 0xd2, 0x01, 0x05, 0x0e, 0x04],
        H1,
    ),
];

fn check(gen: Gen, line: &str, llvm: &[u8], mode: u32, want: u32) {
    let got = run(gen, line, llvm, mode);
    assert_eq!(
        got[0], want,
        "{gen} `{line}` mode {mode:#x}: {:#010x}",
        got[0]
    );
    assert_eq!(got[1], want, "{gen} `{line}`: lane 1");
    assert_eq!(got[2], OLD, "{gen} `{line}`: lane outside EXEC");
}

/// MODE values: round to nearest (denormals kept), and round toward zero
/// (the rounding-mode handlers; the results here are exact in every mode).
const MODES: [u32; 2] = [0xf0, 0xff];

#[test]
fn gcn12_zeroes_the_high_half_of_every_16_bit_result() {
    for mode in MODES {
        for &(line, llvm, r, _) in BOTH {
            check(Gen::Gcn12, line, llvm, mode, r);
        }
        for (line, fiji, _, r) in MOVED {
            check(Gen::Gcn12, line, fiji, mode, *r);
        }
    }
}

#[test]
fn gcn14_keeps_the_high_half_for_the_listed_ops() {
    for mode in MODES {
        for &(line, llvm, r, keep) in BOTH {
            let want = if keep { OLD & 0xffff_0000 | r } else { r };
            check(Gen::Gcn14, line, llvm, mode, want);
        }
        for (line, _, gfx9, r) in MOVED {
            check(Gen::Gcn14, line, gfx9, mode, OLD & 0xffff_0000 | r);
        }
    }
}

#[test]
fn gcn14_legacy_rows_and_other_ops_zero_the_high_half() {
    for (line, fiji, _, r) in MOVED {
        // The GCN 1.2 opcode on GCN 1.4 is the `_legacy` row.
        let legacy = line.replacen("_f16 ", "_legacy_f16 ", 1);
        let legacy = legacy.replacen("_u16 ", "_legacy_u16 ", 1);
        let legacy = legacy.replacen("_i16 ", "_legacy_i16 ", 1);
        for mode in MODES {
            check(Gen::Gcn14, &legacy, fiji, mode, *r);
        }
    }
    // A GCN 1.4 VOP3-only 16-bit op not in the list: max3(1, 5, 100).
    let max3 = [0x00, 0x00, 0xf7, 0xd1, 0x01, 0x05, 0x0e, 0x04];
    check(Gen::Gcn14, "v_max3_f16 v0, v1, v2, v3", &max3, 0xf0, H100);
}

#[test]
fn gcn14_opsel_with_kept_and_selected_halves() {
    let cases: [(&str, [u8; 8], u32); 3] = [
        // OP_SEL[3]: the result goes to the high half, the low half is kept.
        (
            "v_mad_f16 v0, v1, v2, v3 op_sel:[0,0,0,1]",
            [0x00, 0x40, 0x03, 0xd2, 0x01, 0x05, 0x0e, 0x04],
            H105 << 16 | (OLD & 0xffff),
        ),
        // SRC0's high half (2.0): 2 * 5 + 100 = 110 in the low half, the high half kept.
        (
            "v_mad_f16 v0, v1, v2, v3 op_sel:[1,0,0,0]",
            [0x00, 0x08, 0x03, 0xd2, 0x01, 0x05, 0x0e, 0x04],
            OLD & 0xffff_0000 | H110,
        ),
        // 0x3c00 * hi(v2) 0x4200 + 0x5640 mod 2^16 (the product's low 16 bits are 0).
        (
            "v_mad_u16 v0, v1, v2, v3 op_sel:[0,1,0,0]",
            [0x00, 0x10, 0x04, 0xd2, 0x01, 0x05, 0x0e, 0x04],
            OLD & 0xffff_0000 | H100,
        ),
    ];
    for mode in MODES {
        for (line, llvm, want) in cases {
            check(Gen::Gcn14, line, &llvm, mode, want);
        }
    }
}
