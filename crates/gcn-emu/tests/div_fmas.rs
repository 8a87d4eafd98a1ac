//! v_div_fmas_f32/f64 round once: in lanes whose VCC bit is set the exact
//! `S0 * S1 + S2` is scaled by 2^-64 (f32) / 2^-128 (f64) when |S2| < 2
//! (2^64 / 2^128 otherwise) and then rounded by MODE.FP_ROUND; other lanes
//! compute the plain fma.
//!
//! The operands make the scaled value land between two denormals just above
//! their midpoint, with the exact fma wider than f64: rounding the fma first
//! (in f64 or in the result's format) drops the part above the midpoint and a
//! second, nearest-even rounding of the scaled tie goes down to the even
//! neighbour. Expected values are worked out by hand below. Encodings are
//! llvm-mc 14's (`-mcpu=tahiti|fiji|gfx900 -show-encoding`).

mod common;
use common::asm;
use risa_gcn::Gen;
use risa_gcn_emu::wave::{EXEC, VCC};
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

const F32_ENC: [(Gen, [u8; 8]); 3] = [
    (Gen::Gcn10, [0x00, 0x00, 0xde, 0xd2, 0x01, 0x05, 0x0e, 0x04]),
    (Gen::Gcn12, [0x00, 0x00, 0xe2, 0xd1, 0x01, 0x05, 0x0e, 0x04]),
    (Gen::Gcn14, [0x00, 0x00, 0xe2, 0xd1, 0x01, 0x05, 0x0e, 0x04]),
];
const F64_ENC: [(Gen, [u8; 8]); 3] = [
    (Gen::Gcn10, [0x00, 0x00, 0xe0, 0xd2, 0x02, 0x09, 0x1a, 0x04]),
    (Gen::Gcn12, [0x00, 0x00, 0xe3, 0xd1, 0x02, 0x09, 0x1a, 0x04]),
    (Gen::Gcn14, [0x00, 0x00, 0xe3, 0xd1, 0x02, 0x09, 0x1a, 0x04]),
];

/// Runs `line` on lanes 0 (VCC set) and 1 (VCC clear) with `regs` loaded
/// into v1.. in both lanes; returns v0 | v1 << 32 of both lanes.
fn run(gen: Gen, line: &str, llvm: &[u8], mode: u32, regs: &[u32]) -> [u64; 2] {
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
    w.set_s64(VCC, 0b01);
    for (k, &v) in regs.iter().enumerate() {
        w.v[1 + k] = [v; 64];
    }
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen}: {f}"));
    [0, 1].map(|l| u64::from(w.v[0][l]) | u64::from(w.v[1][l]) << 32)
}

/// MODE with all denormals kept, f32 rounding `rs` (bits 1:0), f64 `rd` (3:2).
fn mode(rs: u32, rd: u32) -> u32 {
    0x3f0 | rs | rd << 2
}

#[test]
fn div_fmas_f32_rounds_the_scaled_fma_once() {
    // S0 = 2^20 + 1/2 (0x49800004), S1 = 2^-85 (0x15000000), S2 = 2^-125
    // (0x01000000): the exact fma is (2^20 + 2^-1 + 2^-40) * 2^-85 (61
    // significant bits), scaled by 2^-64 it is (2^20 + 1/2 + 2^-40) * 2^-149,
    // just above the midpoint of the denormals 0x00100000 and 0x00100001.
    let regs = [0x4980_0004, 0x1500_0000, 0x0100_0000];
    // Lane 0 per f32 mode (nearest, +inf, -inf, zero); lane 1: the plain
    // fma, (2^20 + 1/2) * 2^-85 = 0x1f000004 plus 2^-125, far below its ulp.
    let scaled = [0x0010_0001, 0x0010_0001, 0x0010_0000, 0x0010_0000];
    let plain = [0x1f00_0004, 0x1f00_0005, 0x1f00_0004, 0x1f00_0004];
    for (gen, enc) in F32_ENC {
        for rs in 0..4 {
            // The f64 mode must not matter: try it equal and opposite.
            for rd in [rs, 3 - rs] {
                let got = run(
                    gen,
                    "v_div_fmas_f32 v0, v1, v2, v3",
                    &enc,
                    mode(rs, rd),
                    &regs,
                );
                let want = [scaled[rs as usize], plain[rs as usize]];
                assert_eq!(
                    got.map(|x| x as u32),
                    want,
                    "{gen} f32 mode {rs}, f64 mode {rd}"
                );
            }
        }
        // |S2| >= 2 scales up: 1 * 1 + 2 = 3, times 2^64 = 0x60400000.
        let got = run(
            gen,
            "v_div_fmas_f32 v0, v1, v2, v3",
            &enc,
            mode(0, 0),
            &[0x3f80_0000, 0x3f80_0000, 0x4000_0000],
        );
        assert_eq!(
            got.map(|x| x as u32),
            [0x6040_0000, 0x4040_0000],
            "{gen} scale up"
        );
    }
}

#[test]
fn div_fmas_f64_rounds_the_scaled_fma_once() {
    // S0 = 2^40 + 1/2, S1 = 2^-946, S2 = 2^-966: the exact fma is
    // (2^40 + 2^-1 + 2^-20) * 2^-946 (61 bits); scaled by 2^-128 it is just
    // above the midpoint of the denormals 2^40 and 2^40 + 1 (units of 2^-1074).
    let regs = [
        0x0000_0800,
        0x4270_0000,
        0x0000_0000,
        0x04d0_0000,
        0x0000_0000,
        0x0390_0000,
    ];
    let k = 1u64 << 40;
    let scaled = [k + 1, k + 1, k, k];
    // Lane 1: (2^40 + 1/2) * 2^-946 = 0x0750000000000800, plus 2^-966 below its ulp.
    let p = 0x0750_0000_0000_0800u64;
    let plain = [p, p + 1, p, p];
    let line = "v_div_fmas_f64 v[0:1], v[2:3], v[4:5], v[6:7]";
    for (gen, enc) in F64_ENC {
        for rd in 0..4 {
            for rs in [rd, 3 - rd] {
                // Operands at v2..v7: load them there (run() starts at v1).
                let mut r = vec![0];
                r.extend_from_slice(&regs);
                let got = run(gen, line, &enc, mode(rs, rd), &r);
                let want = [scaled[rd as usize], plain[rd as usize]];
                assert_eq!(got, want, "{gen} f64 mode {rd}, f32 mode {rs}: {got:x?}");
            }
        }
    }
}
