//! Writes the benchmark source: N lines (default 200,000) of random valid
//! GCN 1.4 instructions of every form, in LLVM syntax, deterministic.
//!
//! `cargo run --release -p risa-gcn-asm --example gen_bench_source -- 200000 > bench.s`
//! then `time llvm-mc -arch=amdgcn -mcpu=gfx900 -show-encoding bench.s > /dev/null`.

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    print!("{}", risa_gcn_asm::bench_source(n));
}
