//! Decode and decode+print throughput over a large generated binary.
//!
//! `cargo bench -p risa-gcn --bench decode` prints MB/s per generation. The
//! corpus is random instances of every instruction form (so every encoding is
//! exercised), repeated to 16 MiB.
use risa_elf::Elf;
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

/// CPU time this thread has run, in ns (Linux): on a shared machine the
/// rate per CPU-second is steadier than the wall-clock one.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Runs `f` and returns (wall seconds, CPU seconds if known).
fn timed(f: impl FnOnce()) -> (f64, Option<f64>) {
    let c0 = cpu_ns();
    let t = Instant::now();
    f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = cpu_ns().zip(c0).map(|(b, a)| (b - a) as f64 / 1e9);
    (wall, cpu)
}

/// Best-of-N decode and decode+print throughput over `words`.
fn measure(gen: Gen, what: &str, words: &[u32]) {
    if words.is_empty() {
        println!("{gen} {what}: no input");
        return;
    }
    // Undecodable words (padding) are stepped over one dword at a time.
    let step = |k: usize| match decode(gen, &words[k..(k + 2).min(words.len())]) {
        Ok(i) => (Some(i), i.len as usize),
        Err(_) => (None, 1),
    };
    let mb = words.len() as f64 * 4.0 / 1e6;
    let (mut best_dec, mut best_dec_cpu) = (f64::MAX, f64::MAX);
    let mut count = 0;
    for _ in 0..5 {
        let (wall, cpu) = timed(|| {
            let (mut k, mut n) = (0, 0);
            while k < words.len() {
                let (i, len) = step(k);
                n += usize::from(i.is_some());
                k += len;
            }
            count = n;
        });
        best_dec = best_dec.min(wall);
        best_dec_cpu = best_dec_cpu.min(cpu.unwrap_or(f64::MAX));
    }
    let p = Printer::new(Dialect::Llvm);
    let (mut best_print, mut best_print_cpu) = (f64::MAX, f64::MAX);
    let mut s: Vec<u8> = Vec::with_capacity(64);
    let mut chars = 0;
    for _ in 0..5 {
        let (wall, cpu) = timed(|| {
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
        });
        best_print = best_print.min(wall);
        best_print_cpu = best_print_cpu.min(cpu.unwrap_or(f64::MAX));
    }
    println!(
        "{gen} {what}: {mb:.1} MB, {count} instructions, {:.1} chars/instr: decode {:.0} MB/s \
         ({:.0} M instr/s; {:.0} MB/CPU-s), decode+print {:.0} MB/s ({:.0} MB/CPU-s)",
        chars as f64 / count as f64,
        mb / best_dec,
        count as f64 / best_dec / 1e6,
        mb / best_dec_cpu,
        mb / best_print,
        mb / best_print_cpu,
    );
}

fn main() {
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
            measure(gen, "random forms", &words);
        }
        if want("clang") {
            measure(gen, "clang kernels", &clang_corpus(gen, words.len()));
        }
    }
}
