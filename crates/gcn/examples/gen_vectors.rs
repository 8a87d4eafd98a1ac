//! Writes random instructions of every form of a generation, one per line:
//! `hex words<TAB>LLVM text<TAB>CLRX text`. `tools/vectors/gcn-llvm.py` checks
//! them with llvm-mc and keeps the agreeing ones as test vectors.
//!
//! Usage: `gen_vectors CHIP PER_FORM SEED`. A generation name (`gcn1.4`)
//! selects its reference chip and every form; another chip (`gfx906`) gives
//! only the forms of the rows that need one of its features (the rest are
//! its generation's).
use risa_gcn::{random, table::flag, Dialect, Processor, OPS};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("gcn1.0", |s| s);
    let chip = Processor::parse(name).expect("unknown chip or generation");
    let only_gated = !name.starts_with("gcn");
    let gen = chip.gen;
    let per: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = random::Rng::new(seed ^ (gen as u64) << 32);
    for (op, enc) in random::all_forms(chip) {
        let info = &OPS[op as usize];
        let no_llvm_form = info.has(flag::NOLLVM64) && enc == risa_gcn::Enc::Vop3;
        if info.has(flag::NOLLVM) || no_llvm_form || (only_gated && info.feat.is_empty()) {
            continue;
        }
        for _ in 0..per {
            if let Some(i) = random::random_instr(&mut rng, chip, op, enc) {
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
