//! ALU-bound benchmark: the clang-built `while_loop` kernel (Collatz steps,
//! a DX10 loop of ALU clauses, 256 work-groups) and `nested_loops` (64×64
//! matrix product: a loop of two vertex fetches and a MULADD, so it measures
//! fetches more than ALU groups). Reports wave-instructions (ALU groups) per
//! second with 1 and 2 worker threads, both per wall-clock second and per
//! second of CPU time the process used (the machine is shared, so the CPU
//! time figure is the per-core rate; the wall-clock ratio is the scaling).
//!
//! Run: `cargo bench -p risa-cayman-emu` (criterion, then these figures); `CAYMAN_BENCH=while_loop` runs one
//! kernel, `CAYMAN_BENCH_THREADS=2` one thread count, `CAYMAN_BENCH_ITEMS=N`
//! sets while_loop's work-items (default 16384: 256 groups, ~25 ms a dispatch),
//! `CAYMAN_BENCH_PROFILE=1` counts for a profile as `risa run --profile` does.

use risa_bench::{Bench, Throughput};
use risa_cayman_emu::*;
use risa_runtime::cayman::{load, run, Arg};
use std::time::Instant;

fn kernel(file: &str) -> Kernel {
    let p = format!(
        "{}/../../tests/fixtures/cayman/{file}.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&p).expect("fixture");
    load(&bytes).expect("load").remove(0)
}

/// CPU time (user + system) of the whole process so far, in seconds
/// (Linux /proc; threads that ended are included). 0 elsewhere.
fn cpu_seconds() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // fields after the parenthesised command name; utime and stime are fields 14 and 15
    let rest = &s[s.rfind(')').map_or(0, |p| p + 2)..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

/// A workload with no shared state at all, timed on `threads` threads (each
/// does the same work): the scaling this machine delivers right now, to
/// judge the emulator's own 1 → 2 thread scaling against.
fn spin_seconds(threads: usize, n: u64) -> f64 {
    fn spin(n: u64) -> u64 {
        let mut x = 1u64;
        for i in 0..n {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
        }
        x
    }
    let t = Instant::now();
    std::thread::scope(|s| {
        let h: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| std::hint::black_box(spin(std::hint::black_box(n)))))
            .collect();
        for h in h {
            let _ = h.join();
        }
    });
    t.elapsed().as_secs_f64()
}

fn bench(
    c: &mut Bench,
    name: &str,
    k: &Kernel,
    d: &mut Dispatch,
    args: &[Arg],
    pool: &Pool,
    reps: usize,
) {
    let only = std::env::var("CAYMAN_BENCH_THREADS").ok();
    let mut wall = [0.0f64; 2];
    for threads in [1usize, 2] {
        if only.as_deref().is_some_and(|t| t != threads.to_string()) {
            continue;
        }
        d.threads = threads;
        if risa_bench::knob("CAYMAN_BENCH_PROFILE", 0) == 1 {
            // what `risa run --profile` costs
            d.profile = Some(ProfileSink::new());
        }
        let per_run = run(k, d, args, pool).expect("warm-up").alu_groups;
        let d = &*d;
        // CPU time of the whole process: the worker threads do the work.
        let c0 = cpu_seconds();
        let mut groups = 0;
        let p = risa_bench::measure_runs(
            c,
            &format!("cayman-emu/{name}"),
            &format!("threads={threads}"),
            Throughput::Elements(per_run),
            reps,
            || groups += run(k, d, args, pool).expect("run").alu_groups,
        );
        if !p.ran() {
            continue;
        }
        let cpu = (cpu_seconds() - c0) / p.iters as f64;
        let s = p.mean_wall;
        println!(
            "{name:13} threads={threads}: {:>6.2} M ALU groups/s wall, {:>6.2} M per CPU-second  ({groups} groups in {} runs, {s:.4} s wall, {cpu:.4} s CPU per run)",
            p.per_s_mean(per_run as f64),
            if cpu > 0.0 { per_run as f64 / cpu / 1e6 } else { 0.0 },
            p.iters,
        );
        wall[threads - 1] = s;
    }
    if only.is_none() && wall[0] > 0.0 && wall[1] > 0.0 {
        // spin about as long as the 1-thread emulator run took, on 1 then 2 threads;
        // per-thread work is constant, so the ideal 2-thread time equals the 1-thread time
        let probe = 50_000_000;
        let per_second = probe as f64 / spin_seconds(1, probe);
        let n = (per_second * wall[0]) as u64;
        let spin = [spin_seconds(1, n), spin_seconds(2, n)];
        let machine = 2.0 * spin[0] / spin[1];
        println!(
            "{name:13} 1 -> 2 threads: emulator {:.2}x; a share-nothing spin loop gets {machine:.2}x on this machine right now",
            wall[0] / wall[1]
        );
    }
}

fn main() {
    let c = &mut risa_bench::criterion();
    let only = std::env::var("CAYMAN_BENCH").ok();
    let want = |n: &str| only.as_deref().is_none_or(|o| o == n);
    if want("while_loop") {
        // 16384 work-items in 256 groups of 64, inputs with long Collatz chains
        let k = kernel("while_loop");
        let n: usize = std::env::var("CAYMAN_BENCH_ITEMS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(16384);
        let a: Vec<u8> = (0..n as u32)
            .flat_map(|i| (i * 7919 + 27).to_le_bytes())
            .collect();
        let mut pool_bytes = a;
        pool_bytes.resize(2 * 4 * n, 0);
        let pool = Pool::from_bytes(&pool_bytes);
        let mut d = Dispatch::linear(n as u32, 64);
        let args = [Arg::Ptr(0), Arg::Ptr(4 * n as u32)];
        let reps = (40 * 16384 / n).max(1);
        bench(c, "while_loop", &k, &mut d, &args, &pool, reps);
    }
    if want("nested_loops") {
        // 64x64 matrix product
        let k = kernel("nested_loops");
        let m = 64u32;
        let pool = Pool::new(3 * 4 * (m * m) as usize);
        let mut d = Dispatch::linear(m, 8);
        d.grid[1] = m;
        d.block[1] = 8;
        d.work_dim = 2;
        let mm = m * m * 4;
        let args = [Arg::Ptr(0), Arg::Ptr(mm), Arg::Ptr(2 * mm), Arg::U32(m)];
        bench(c, "nested_loops", &k, &mut d, &args, &pool, 100);
    }
    c.final_summary();
}
