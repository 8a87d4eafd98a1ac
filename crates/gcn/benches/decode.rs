//! Decode and decode+print throughput over a large generated binary.
//!
//! `cargo bench -p risa-gcn --bench decode` measures with criterion and prints
//! the established MB/s line per generation and corpus. The
//! corpus is random instances of every instruction form (so every encoding is
//! exercised), repeated to 16 MiB.
use risa_bench::{Bench, Throughput};
use risa_elf::Elf;
use risa_gcn::{decode, random, Dialect, Gen, Printer, ALL_GENS};

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

/// The `.text` of every clang-compiled fixture kernel of `gen`, repeated to
/// the size of the random corpus: what real compiler output looks like.
fn clang_corpus(gen: Gen, target: usize) -> Vec<u32> {
    let dir = format!(
        "{}/../../tests/fixtures/gcn/{}",
        env!("CARGO_MANIFEST_DIR"),
        gen.llvm_cpu()
    );
    let mut one = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "o"))
    {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(elf) = Elf::parse(&bytes) else {
            continue;
        };
        if let Some(text) = elf.section_by_name(".text") {
            one.extend(
                text.data
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
    }
    let mut all = Vec::with_capacity(target);
    while !one.is_empty() && all.len() < target {
        all.extend_from_slice(&one);
    }
    all
}

/// Decode and decode+print throughput over `words` (criterion), then the
/// established line: MB/s and M instructions/s (best sample), MB/CPU-s.
fn measure(c: &mut Bench, gen: Gen, what: &str, words: &[u32]) {
    if words.is_empty() {
        println!("{gen} {what}: no input");
        return;
    }
    // Undecodable words (padding) are stepped over one dword at a time.
    let step = |k: usize| match decode(gen, &words[k..(k + 2).min(words.len())]) {
        Ok(i) => (Some(i), i.len as usize),
        Err(_) => (None, 1),
    };
    let bytes = words.len() as u64 * 4;
    let mb = bytes as f64 / 1e6;
    let group = format!("gcn-decode/{gen}/{}", what.replace(' ', "_"));
    let mut count = 0;
    let dec = risa_bench::measure(c, &group, "decode", Throughput::BytesDecimal(bytes), || {
        let (mut k, mut n) = (0, 0);
        while k < words.len() {
            let (i, len) = step(k);
            n += usize::from(i.is_some());
            k += len;
        }
        count = n;
    });
    let p = Printer::new(Dialect::Llvm);
    let mut s: Vec<u8> = Vec::with_capacity(64);
    let mut chars = 0;
    let print = risa_bench::measure(
        c,
        &group,
        "decode_print",
        Throughput::BytesDecimal(bytes),
        || {
            let mut k = 0;
            chars = 0;
            while k < words.len() {
                let (i, len) = step(k);
                if let Some(i) = i {
                    s.clear();
                    p.write_bytes(&i, &mut s);
                    chars += s.len();
                }
                k += len;
            }
        },
    );
    if !dec.ran() || !print.ran() {
        return;
    }
    println!(
        "{gen} {what}: {mb:.1} MB, {count} instructions, {:.1} chars/instr: decode {:.0} MB/s \
         ({:.0} M instr/s; {:.0} MB/CPU-s), decode+print {:.0} MB/s ({:.0} MB/CPU-s)",
        chars as f64 / count as f64,
        dec.per_s(bytes as f64),
        dec.per_s(count as f64),
        dec.per_cpu_s(bytes as f64),
        print.per_s(bytes as f64),
        print.per_cpu_s(bytes as f64),
    );
}

fn main() {
    let c = &mut risa_bench::criterion();
    // RISA_BENCH_GEN=gcn1.4 limits the run to one generation.
    let only: Option<Gen> = std::env::var("RISA_BENCH_GEN")
        .ok()
        .and_then(|g| Gen::parse(&g));
    for gen in ALL_GENS
        .into_iter()
        .filter(|g| only.is_none_or(|o| o == *g))
    {
        // RISA_BENCH_CORPUS=random|clang limits the run to one corpus.
        let want = |c: &str| std::env::var("RISA_BENCH_CORPUS").map_or(true, |v| v == c);
        let words = corpus(gen);
        if want("random") {
            measure(c, gen, "random forms", &words);
        }
        if want("clang") {
            measure(c, gen, "clang kernels", &clang_corpus(gen, words.len()));
        }
    }
    c.final_summary();
}
