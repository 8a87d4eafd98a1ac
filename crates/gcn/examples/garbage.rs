//! Writes random raw code for the round-trip checks:
//! `garbage GEN CASES SEED OUT` writes the cases of
//! [`risa_gcn::random::garbage_cases`] back to back (whole dwords only, so
//! the stream is one piece of raw code) to OUT.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: garbage GEN CASES SEED OUT");
        std::process::exit(2);
    }
    let gen = risa_gcn::Gen::parse(&args[1]).expect("unknown generation");
    let n: usize = args[2].parse().expect("CASES");
    let seed: u64 = args[3].parse().expect("SEED");
    let mut out = Vec::new();
    for c in risa_gcn::random::garbage_cases(gen, n, seed) {
        out.extend_from_slice(&c[..c.len() / 4 * 4]);
    }
    std::fs::write(&args[4], out).expect("writing OUT");
}
