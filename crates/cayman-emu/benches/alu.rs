//! ALU-bound benchmark: the clang-built `while_loop` kernel (Collatz steps,
//! a DX10 loop of ALU clauses) and `nested_loops` (fetch + MULADD loop).
//! Reports wave-instructions (ALU groups) per second, per core, with 1 and 2
//! worker threads. Run: `cargo bench -p risa-cayman-emu`.

use risa_cayman_emu::*;
use std::time::Instant;

fn kernel(file: &str) -> Kernel {
    let p = format!(
        "{}/../../tests/fixtures/cayman/{file}.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&p).expect("fixture");
    load(&bytes).expect("load").remove(0)
}

fn bench(name: &str, k: &Kernel, d: &mut Dispatch, args: &[Arg], pool: &Pool) {
    for threads in [1usize, 2] {
        d.threads = threads;
        let _ = run(k, d, args, pool).expect("warm-up");
        let reps = 5;
        let t = Instant::now();
        let mut groups = 0;
        for _ in 0..reps {
            groups += run(k, d, args, pool).expect("run").alu_groups;
        }
        let s = t.elapsed().as_secs_f64();
        let rate = groups as f64 / s;
        println!(
            "{name:14} threads={threads}: {:>10.0} ALU groups/s total, {:>10.0} per core  ({groups} groups in {s:.3}s)",
            rate,
            rate / threads as f64
        );
    }
}

fn main() {
    // while_loop: 4096 work-items, inputs with long Collatz chains
    let k = kernel("while_loop");
    let n = 4096usize;
    let a: Vec<u8> = (0..n as u32)
        .flat_map(|i| (i * 7919 + 27).to_le_bytes())
        .collect();
    let mut pool_bytes = a;
    pool_bytes.resize(2 * 4 * n, 0);
    let pool = Pool::from_bytes(&pool_bytes);
    let mut d = Dispatch::linear(n as u32, 64);
    bench(
        "while_loop",
        &k,
        &mut d,
        &[Arg::Ptr(0), Arg::Ptr(4 * n as u32)],
        &pool,
    );

    // nested_loops: 64x64 matrix product
    let k = kernel("nested_loops");
    let m = 64u32;
    let pool = Pool::new(3 * 4 * (m * m) as usize);
    let mut d = Dispatch::linear(m, 8);
    d.grid[1] = m;
    d.block[1] = 8;
    d.work_dim = 2;
    let mm = m * m * 4;
    bench(
        "nested_loops",
        &k,
        &mut d,
        &[Arg::Ptr(0), Arg::Ptr(mm), Arg::Ptr(2 * mm), Arg::U32(m)],
        &pool,
    );
}
