//! Assembler throughput on a 200,000-line LLVM-syntax source of random GCN
//! 1.4 instructions (`risa_gcn_asm::bench_source`).
//!
//! `cargo bench -p risa-gcn-asm`. For the llvm-mc comparison write the same
//! source with the `gen_bench_source` example (see its docs).
//!
//! Knobs for profiling (e.g. under callgrind, where instruction counts are
//! noise-free): `RISA_BENCH_LINES` (default 200000) and `RISA_BENCH_RUNS`
//! (timed gcn-asm runs, default 10). `tools/asm_ir_per_line.sh` uses them.

use std::time::Instant;

/// User + system CPU time of this process (Linux `/proc/self/stat`, 10 ms ticks).
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let knob = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let n = knob("RISA_BENCH_LINES", 200_000);
    let src = risa_gcn_asm::bench_source(n);
    let gen = Some(risa_gcn::Gen::Gcn14);
    // Sanity: the source assembles without errors.
    let a = risa_gcn_asm::assemble_in(
        gen.map(risa_gcn::Processor::of_gen),
        "bench.s",
        &src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    assert!(
        !a.output.has_errors(),
        "{}",
        &a.diagnostics()[..2000.min(a.diagnostics().len())]
    );
    let bytes = a.output.section(".text").map_or(0, |s| s.data.len());
    let mut best = f64::MAX;
    let runs = knob("RISA_BENCH_RUNS", 10).max(1);
    let cpu0 = cpu_seconds();
    for _ in 0..runs {
        let t = Instant::now();
        let a = risa_gcn_asm::assemble_in(
            gen.map(risa_gcn::Processor::of_gen),
            "bench.s",
            &src,
            Default::default(),
            false,
            risa_gcn::Dialect::Llvm,
        );
        std::hint::black_box(&a.output.sections);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let cpu = cpu_seconds().map(|c| (c - cpu0.unwrap_or(c)) / runs as f64);
    // The assembler core alone on the same text (instructions ignored).
    struct Null;
    impl risa_asm_core::Backend for Null {
        fn instruction(
            &mut self,
            asm: &mut risa_asm_core::Assembler,
            _: &risa_asm_core::Statement<'_>,
        ) {
            asm.emit(&[0, 0, 0, 0]);
        }
    }
    let mut core = f64::MAX;
    // (wall time, best of 3)
    for _ in 0..3 {
        let t = Instant::now();
        let o =
            risa_asm_core::Assembler::new(Default::default()).assemble("bench.s", &src, &mut Null);
        std::hint::black_box(&o.sections);
        core = core.min(t.elapsed().as_secs_f64());
    }
    println!(
        "asm-core alone (statements split, instructions ignored): {:.1} ms -> {:.2} M lines/s",
        core * 1e3,
        n as f64 / core / 1e6
    );
    if let Some(c) = cpu.filter(|&c| c > 0.0) {
        // CPU time does not count waiting for a core on a busy machine.
        println!(
            "gcn-asm: {n} lines, mean CPU time per run {:.1} ms -> {:.2} M lines/s",
            c * 1e3,
            n as f64 / c / 1e6
        );
    }
    println!(
        "gcn-asm: {n} lines ({} MB, {bytes} bytes of code) in {:.1} ms -> {:.2} M lines/s",
        src.len() / 1_000_000,
        best * 1e3,
        n as f64 / best / 1e6
    );
}
