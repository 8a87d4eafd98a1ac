//! The cost of the Cayman run-time checks: the Cayman ALU bench's kernels
//! (`crates/cayman-emu/benches/alu.rs`: `while_loop`, 16384 work-items;
//! `nested_loops`, a 64×64 matrix product) run on one thread unchecked,
//! with `--check=waitcnt,hazards` and with `--check=all`, alternated, best of
//! `REPS` (5) each; prints the times and their ratios to the unchecked one.
//!
//! `cargo run --release -p risa-check --example cayman_overhead`

use risa_cayman_emu::{Dispatch, Kernel, Pool};
use risa_check::cayman::Session;
use risa_check::run::Options;
use risa_runtime::cayman::{load, run, Arg};
use std::sync::Arc;
use std::time::Instant;

fn kernel(file: &str) -> Kernel {
    let p = format!(
        "{}/../../tests/fixtures/cayman/{file}.o",
        env!("CARGO_MANIFEST_DIR")
    );
    load(&std::fs::read(p).expect("fixture"))
        .expect("load")
        .remove(0)
}

/// Seconds of one run, with the checks `checks` when given.
fn time(k: &Kernel, d: &Dispatch, args: &[Arg], pool: &Pool, checks: Option<&str>) -> f64 {
    let mut d = d.clone();
    let s = checks.map(|c| {
        Arc::new(Session::new(
            Options::parse(c).unwrap(),
            &k.text[k.offset as usize..],
        ))
    });
    d.observe = s.as_ref().map(|s| s.factory());
    let t = Instant::now();
    run(k, &d, args, pool).expect("runs");
    if let Some(s) = s {
        assert!(s.report().is_empty(), "{}", s.report().render("bench"));
    }
    t.elapsed().as_secs_f64()
}

fn main() {
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let n = 16384usize;
    let a: Vec<u8> = (0..n as u32)
        .flat_map(|i| (i * 7919 + 27).to_le_bytes())
        .collect();
    let mut bytes = a;
    bytes.resize(2 * 4 * n, 0);
    let wl = (
        "while_loop",
        kernel("while_loop"),
        Dispatch::linear(n as u32, 64),
        vec![Arg::Ptr(0), Arg::Ptr(4 * n as u32)],
        Pool::from_bytes(&bytes),
    );
    let m = 64u32;
    let mut d = Dispatch::linear(m, 8);
    d.grid[1] = m;
    d.block[1] = 8;
    d.work_dim = 2;
    let mm = m * m * 4;
    let nl = (
        "nested_loops",
        kernel("nested_loops"),
        d,
        vec![Arg::Ptr(0), Arg::Ptr(mm), Arg::Ptr(2 * mm), Arg::U32(m)],
        Pool::new(3 * 4 * (m * m) as usize),
    );
    for (name, k, d, args, pool) in [wl, nl] {
        let (mut plain, mut wh, mut all) = (f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..reps {
            plain = plain.min(time(&k, &d, &args, &pool, None));
            wh = wh.min(time(&k, &d, &args, &pool, Some("waitcnt,hazards")));
            all = all.min(time(&k, &d, &args, &pool, Some("all")));
        }
        println!(
            "{name}: unchecked {:.1} ms, --check=waitcnt,hazards {:.1} ms ({:.2}x), \
             --check=all {:.1} ms ({:.2}x)",
            plain * 1e3,
            wh * 1e3,
            wh / plain,
            all * 1e3,
            all / plain
        );
    }
}
