//! Writes random instructions of every form of a generation, one per line:
//! `hex words<TAB>LLVM text<TAB>CLRX text`. `tools/vectors/gcn-llvm.py` checks
//! them with llvm-mc and keeps the agreeing ones as test vectors.
//!
//! Usage: `gen_vectors GEN PER_FORM SEED`
use risa_gcn::{random, table::flag, Dialect, Gen, OPS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let gen = Gen::parse(args.get(1).map_or("gcn1.0", |s| s)).expect("unknown generation");
    let per: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = random::Rng::new(seed ^ (gen as u64) << 32);
    for (op, enc) in random::all_forms(gen) {
        if OPS[op as usize].has(flag::NOLLVM) {
            continue;
        }
        for _ in 0..per {
            if let Some(i) = random::random_instr(&mut rng, gen, op, enc) {
                let (w, n) = i.words();
                let hex: Vec<String> = w[..n].iter().map(|x| format!("{x:08x}")).collect();
                println!(
                    "{}\t{}\t{}",
                    hex.join(" "),
                    risa_gcn::print(&i, Dialect::Llvm),
                    risa_gcn::print(&i, Dialect::Clrx)
                );
            }
        }
    }
}
