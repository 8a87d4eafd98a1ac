//! Emulation speed on an ALU-bound and a memory-bound kernel (clang-14 gfx900
//! and tahiti objects from tests/fixtures), on 1 and 2 threads.
//!
//! Reports wave-instructions per second of wall time and per CPU-second of the
//! worker threads (the latter stays meaningful when other processes share the
//! cores), the 1 -> 2 thread wall-time speed-up, and the ratio of the
//! per-CPU-second rates (1.0 = no loss to synchronisation or shared state).
//!
//! `cargo bench -p risa-runtime --bench emu` (criterion, then the line above
//! per kernel).
//!
//! For instruction counts under `valgrind --tool=cachegrind`:
//! `RISA_BENCH_FILTER=alu_loop/gfx900 RISA_BENCH_ONCE=1 valgrind --tool=cachegrind
//! target/release/deps/emu-*` runs only the matching kernels, once, on one
//! thread (under valgrind RISA_BENCH_ONCE is implied).

use risa_bench::{Bench, Throughput};
use risa_runtime::args::ArgValue;
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::LaunchConfig;
use std::path::PathBuf;

fn object(chip: &str, name: &str) -> GcnObject {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/fixtures/gcn/{chip}/{name}.o"));
    GcnObject::load(&std::fs::read(p).unwrap()).unwrap()
}

/// The launch of the kernel on `threads` threads.
fn config(grid: u32, threads: usize) -> LaunchConfig {
    let mut cfg = LaunchConfig::new([grid, 1, 1], 1);
    cfg.threads = threads;
    cfg.max_instructions = u64::MAX;
    cfg
}

/// (wave-instructions, best wall seconds, cpu seconds of the workers per
/// run) of the kernel on `threads` threads, measured by criterion, whose
/// throughput line counts `elements` (the kernel's wave-instructions).
fn measure(
    c: &mut Bench,
    label: &str,
    run: (&GcnObject, &[ArgValue], u32),
    threads: usize,
    elements: u64,
) -> Option<(u64, f64, f64)> {
    let (obj, args, grid) = run;
    let k = obj.kernel(None).unwrap();
    let cfg = config(grid, threads);
    let (mut n, mut cpu) = (0, 0.0);
    let p = risa_bench::measure(
        c,
        label,
        &format!("threads={threads}"),
        Throughput::Elements(elements),
        || {
            let r = launch(obj, k, args, &cfg).unwrap();
            n = r.stats.total();
            cpu += r.cpu.map_or(f64::NAN, |c| c.as_secs_f64());
        },
    );
    p.ran().then(|| (n, p.best_wall, cpu / p.iters as f64))
}

fn bench(c: &mut Bench, label: &str, obj: &GcnObject, args: &[ArgValue], grid: u32) {
    if let Ok(f) = std::env::var("RISA_BENCH_FILTER") {
        if !label.contains(f.as_str()) {
            return;
        }
    }
    if risa_bench::once() {
        if let Some(one) = measure(c, label, (obj, args, grid), 1, 0) {
            println!("{label:<28} {:>10} wave-instr, 1 thread, one run", one.0);
        }
        return;
    }
    // criterion's throughput needs the count before it measures: one launch more
    let k = obj.kernel(None).unwrap();
    let count = launch(obj, k, args, &config(grid, 1))
        .unwrap()
        .stats
        .total();
    let (Some(one), Some(two)) = (
        measure(c, label, (obj, args, grid), 1, count),
        measure(c, label, (obj, args, grid), 2, count),
    ) else {
        return;
    };
    let rate = |m: (u64, f64, f64), s: f64| m.0 as f64 / s / 1e6;
    println!(
        "{label:<28} {:>10} wave-instr | 1 thread: {:>6.1} M/s wall, {:>6.1} M/s per CPU-s | 2 threads: {:>6.1} M/s wall, {:>6.1} M/s per CPU-s | speed-up {:.2}x wall; per-CPU-second rate 2 vs 1 threads {:.2}",
        one.0,
        rate(one, one.1),
        rate(one, one.2),
        rate(two, two.1),
        rate(two, two.2),
        one.1 / two.1,
        rate(two, two.2) / rate(one, one.2),
    );
}

fn main() {
    let c = &mut risa_bench::criterion();
    for chip in ["gfx900", "tahiti"] {
        let alu = object(chip, "alu_loop");
        bench(
            c,
            &format!("alu_loop/{chip}"),
            &alu,
            &[ArgValue::Buffer(vec![0; 4 * 8192]), ArgValue::I32(3000)],
            8192,
        );
        let n = 1 << 18; // float4 elements: 4 MiB per buffer
        let a: Vec<u8> = (0..16 * n).map(|i| (i % 251) as u8).collect();
        let mem = object(chip, "mem_copy");
        bench(
            c,
            &format!("mem_copy/{chip}"),
            &mem,
            &[
                ArgValue::Buffer(a.clone()),
                ArgValue::Buffer(a),
                ArgValue::Buffer(vec![0; 16 * n]),
            ],
            n as u32,
        );
    }
    c.final_summary();
}
