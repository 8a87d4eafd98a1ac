//! Writes the benchmark source: N lines (default 200,000) of random valid
//! instructions of every form, in LLVM syntax, deterministic. With a second
//! argument (an architecture name) and a third (a seed), for that generation.
//!
//! `cargo run --release -p risa-gcn-asm --example gen_bench_source -- 200000 > bench.s`
//! then `time llvm-mc -arch=amdgcn -mcpu=gfx900 -show-encoding bench.s > /dev/null`.
//! `tools/gcn-asm/differential.sh` uses it to compare with llvm-mc per generation.

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    match args.next() {
        None => print!("{}", risa_gcn_asm::bench_source(n)),
        Some(arch) => {
            let gen = risa_gcn::Gen::parse(&arch).expect("unknown architecture");
            let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            print!("{}", risa_gcn_asm::random_source(gen, n, seed));
        }
    }
}
