//! VALU interpreter speed on one wave of a float-heavy loop (GCN 1.4), in the
//! default round-to-nearest-even MODE and with MODE.FP_ROUND set to round
//! toward zero (which takes the rounding-mode handlers).
//!
//! `cargo bench -p risa-gcn-emu --bench alu [-- ITERATIONS] [nearest|zero]`
//! (the word picks one of the two modes).
//!
//! For instruction counts: `valgrind --tool=cachegrind` on the bench binary
//! with a small ITERATIONS (see docs/gcn-emulator.md).

use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};
use std::time::Instant;

/// The loop, encoded by llvm-mc 14 (-arch=amdgcn -mcpu=gfx900):
/// ```text
///        s_mov_b32 s0, 0
/// loop:  v_add_f32 v1, v1, v2          v_mul_f32 v3, v3, v4
///        v_fma_f32 v5, v5, v6, v7      v_mac_f32 v8, v9, v10
///        v_add_f64 v[12:13], v[12:13], v[14:15]
///        v_mul_f64 v[16:17], v[16:17], v[14:15]
///        v_cvt_f32_i32 v18, v19        v_add_u32 v20, v20, v21
///        v_mul_lo_u32 v22, v22, v23    v_pk_add_f16 v24, v24, v25
///        v_cvt_f16_f32 v26, v27        v_add_f16 v28, v28, v29
///        s_add_u32 s0, s0, 1           s_cmp_lg_u32 s0, s1
///        s_cbranch_scc1 loop           s_endpgm
/// ```
const CODE: [u32; 22] = [
    0xbe80_0080,
    0x0202_0501,
    0x0a06_0903,
    0xd1cb_0005,
    0x041e_0d05,
    0x2c10_1509,
    0xd280_000c,
    0x0002_1d0c,
    0xd281_0010,
    0x0002_1d10,
    0x7e24_0b13,
    0x6828_2b14,
    0xd285_0016,
    0x0002_2f16,
    0xd38f_4018,
    0x1802_3318,
    0x7e34_151b,
    0x3e38_3b1c,
    0x8000_8100,
    0xbf07_0100,
    0xbf85_ffec,
    0xbf81_0000,
];

/// Runs the loop `iters` times in `mode`; returns (wave-instructions, seconds).
fn run(prog: &Program, mode: u32, iters: u32) -> Result<(u64, f64), String> {
    let mem = SimpleMemory::new();
    let mut lds = vec![0u8; 0];
    let mut ctx = Ctx::new(prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.mode = mode;
    w.set_s64(EXEC, u64::MAX);
    w.s[1] = iters;
    for r in 1..30 {
        for l in 0..64 {
            w.v[r][l] = 0x3f80_0000 + (r as u32) * 977 + (l as u32) * 13;
        }
    }
    let t = Instant::now();
    exec::run_wave(&mut w, &mut ctx).map_err(|f| f.to_string())?;
    Ok((ctx.stats.total(), t.elapsed().as_secs_f64()))
}

fn main() {
    let iters = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u32>().ok())
        .unwrap_or(20_000);
    let bytes: Vec<u8> = CODE.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(Gen::Gcn14, &bytes, 0x1000);
    // MODE 0x3f0: nearest-even, denormals on, DX10_CLAMP, IEEE (clang's gfx900 default).
    let only = std::env::args()
        .skip(1)
        .find(|a| a == "nearest" || a == "zero");
    for (label, key, mode) in [
        ("round-to-nearest-even", "nearest", 0x3f0),
        ("round-toward-zero", "zero", 0x3ff),
    ] {
        if only.as_ref().is_some_and(|o| o != key) {
            continue;
        }
        let (n, s) = match run(&prog, mode, iters) {
            Ok(r) => r,
            Err(e) => {
                println!("alu/{label:<22} not run: {e}");
                continue;
            }
        };
        println!(
            "alu/{label:<22} {n:>10} wave-instr in {:>7.3} s: {:>7.2} M wave-instr/s",
            s,
            n as f64 / s / 1e6
        );
    }
}
