//! Assembler throughput on a 200,000-line LLVM-syntax source of random GCN
//! 1.4 instructions (`risa_gcn_asm::bench_source`).
//!
//! `cargo bench -p risa-gcn-asm` (criterion, then the established lines). For the llvm-mc comparison write the same
//! source with the `gen_bench_source` example (see its docs).
//!
//! Knobs for profiling (e.g. under callgrind, where instruction counts are
//! noise-free): `RISA_BENCH_LINES` (default 200000) and `RISA_BENCH_RUNS`
//! (gcn-asm runs when run once, under valgrind or with RISA_BENCH_ONCE=1;
//! default 10). `tools/gcn-asm/ir_per_line.sh` uses them.

use risa_bench::Throughput;

fn main() {
    let n = risa_bench::knob("RISA_BENCH_LINES", 200_000usize);
    let src = risa_gcn_asm::bench_source(n);
    let gen = Some(risa_gcn::Gen::Gcn14);
    let assemble = || {
        risa_gcn_asm::assemble_in(
            gen.map(risa_gcn::Processor::of_gen),
            "bench.s",
            &src,
            Default::default(),
            false,
            risa_gcn::Dialect::Llvm,
        )
    };
    // Sanity: the source assembles without errors.
    let a = assemble();
    assert!(
        !a.output.has_errors(),
        "{}",
        &a.diagnostics()[..2000.min(a.diagnostics().len())]
    );
    let bytes = a.output.section(".text").map_or(0, |s| s.data.len());
    let runs = risa_bench::knob("RISA_BENCH_RUNS", 10usize).max(1);
    let c = &mut risa_bench::criterion();
    let thr = Throughput::BytesDecimal(src.len() as u64);
    let asm = risa_bench::measure_runs(
        c,
        "gcn-asm",
        "assemble_llvm_gcn1.4",
        thr.clone(),
        runs,
        || {
            let a = assemble();
            std::hint::black_box(&a.output.sections);
        },
    );
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
    let core = risa_bench::measure_runs(c, "gcn-asm", "asm_core_alone", thr, 3, || {
        let o =
            risa_asm_core::Assembler::new(Default::default()).assemble("bench.s", &src, &mut Null);
        std::hint::black_box(&o.sections);
    });
    if core.ran() {
        println!(
            "asm-core alone (statements split, instructions ignored): {:.1} ms -> {:.2} M lines/s",
            core.best_wall * 1e3,
            core.per_s(n as f64)
        );
    }
    if !asm.ran() {
        return c.final_summary();
    }
    if let Some(cpu) = asm.cpu.filter(|&c| c > 0.0) {
        // CPU time does not count waiting for a core on a busy machine.
        println!(
            "gcn-asm: {n} lines, mean CPU time per run {:.1} ms -> {:.2} M lines/s",
            cpu * 1e3,
            asm.per_cpu_s(n as f64)
        );
    }
    println!(
        "gcn-asm: {n} lines ({} MB, {bytes} bytes of code) in {:.1} ms -> {:.2} M lines/s",
        src.len() / 1_000_000,
        asm.best_wall * 1e3,
        asm.per_s(n as f64)
    );
    c.final_summary();
}
