//! Decode and decode+print throughput over a large generated binary.
//!
//! `cargo bench -p risa-gcn --bench decode` prints MB/s per generation. The
//! corpus is random instances of every instruction form (so every encoding is
//! exercised), repeated to 16 MiB.
use risa_gcn::{decode, random, Dialect, Gen, Printer, ALL_GENS};
use std::time::Instant;

fn corpus(gen: Gen) -> Vec<u32> {
    let mut rng = random::Rng::new(7);
    let mut one = Vec::new();
    for (op, enc) in random::all_forms(gen) {
        for _ in 0..4 {
            if let Some(i) = random::random_instr(&mut rng, gen, op, enc) {
                let (w, n) = i.words();
                one.extend_from_slice(&w[..n]);
            }
        }
    }
    // RISA_BENCH_WORDS shrinks the corpus, e.g. to count instructions under
    // `valgrind --tool=cachegrind` where wall time is too noisy.
    let target = std::env::var("RISA_BENCH_WORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4usize << 20);
    let mut all = Vec::with_capacity(target);
    while all.len() < target {
        all.extend_from_slice(&one);
    }
    all
}

fn main() {
    for gen in ALL_GENS {
        let words = corpus(gen);
        let mb = words.len() as f64 * 4.0 / 1e6;
        let mut best_dec = f64::MAX;
        let mut count = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let mut k = 0;
            let mut n = 0;
            while k < words.len() {
                let i = decode(gen, &words[k..(k + 2).min(words.len())]).unwrap();
                k += i.len as usize;
                n += 1;
            }
            best_dec = best_dec.min(t.elapsed().as_secs_f64());
            count = n;
        }
        let p = Printer::new(Dialect::Llvm);
        let mut best_print = f64::MAX;
        let mut s: Vec<u8> = Vec::with_capacity(64);
        let mut chars = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let mut k = 0;
            chars = 0;
            while k < words.len() {
                let i = decode(gen, &words[k..(k + 2).min(words.len())]).unwrap();
                s.clear();
                p.write_bytes(&i, &mut s);
                chars += s.len();
                k += i.len as usize;
            }
            best_print = best_print.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{gen}: {mb:.1} MB, {count} instructions: decode {:.0} MB/s ({:.0} M instr/s), decode+print {:.0} MB/s ({chars} chars)",
            mb / best_dec,
            count as f64 / best_dec / 1e6,
            mb / best_print
        );
    }
}
