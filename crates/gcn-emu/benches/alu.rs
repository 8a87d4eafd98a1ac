//! VALU interpreter speed on one wave of a float-heavy loop (GCN 1.4), in the
//! default round-to-nearest-even MODE and with MODE.FP_ROUND set to round
//! toward zero (which takes the rounding-mode handlers).
//!
//! `cargo bench -p risa-gcn-emu --bench alu [-- ITERATIONS] [nearest|zero]`
//! (the word picks one of the two modes).
//!
//! For instruction counts: `valgrind --tool=cachegrind` on the bench binary
//! with a small ITERATIONS (see docs/gcn-emulator.md).

use risa_bench::Throughput;
use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

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

/// Runs the loop `iters` times in `mode`; returns the wave-instructions.
fn run(prog: &Program, mode: u32, iters: u32) -> Result<u64, String> {
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
    exec::run_wave(&mut w, &mut ctx).map_err(|f| f.to_string())?;
    Ok(ctx.stats.total())
}

fn main() {
    let given = std::env::args().skip(1).find_map(|a| a.parse::<u32>().ok());
    if given.is_some() {
        // An explicit ITERATIONS is the instruction-count measurement
        // (docs/gcn-emulator.md): one run, no criterion.
        std::env::set_var("RISA_BENCH_ONCE", "1");
    }
    let iters = given.unwrap_or(20_000);
    let bytes: Vec<u8> = CODE.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(Gen::Gcn14, &bytes, 0x1000);
    // MODE 0x3f0: nearest-even, denormals on, DX10_CLAMP, IEEE (clang's gfx900 default).
    let only = std::env::args()
        .skip(1)
        .find(|a| a == "nearest" || a == "zero");
    let c = &mut risa_bench::criterion();
    for (label, key, mode) in [
        ("round-to-nearest-even", "nearest", 0x3f0),
        ("round-toward-zero", "zero", 0x3ff),
    ] {
        if only.as_ref().is_some_and(|o| o != key) {
            continue;
        }
        // A first run gives the instruction count (the throughput criterion
        // reports) or says why the loop does not run; run once, the one
        // measured run is all (instruction counts stay those of one run).
        let mut result = if risa_bench::once() {
            None
        } else {
            Some(run(&prog, mode, iters))
        };
        if let Some(Err(e)) = &result {
            println!("alu/{label:<22} not run: {e}");
            continue;
        }
        let thr = Throughput::Elements(result.clone().map_or(0, |r| r.unwrap_or(0)));
        let p = risa_bench::measure(c, "gcn-emu-alu", label, thr, || {
            result = Some(run(&prog, mode, iters));
        });
        let n = match result {
            Some(Ok(n)) => n,
            Some(Err(e)) => {
                println!("alu/{label:<22} not run: {e}");
                continue;
            }
            None => continue,
        };
        if p.ran() {
            println!(
                "alu/{label:<22} {n:>10} wave-instr in {:>7.3} s: {:>7.2} M wave-instr/s",
                p.best_wall,
                p.per_s(n as f64)
            );
        }
    }
    c.final_summary();
}
