//! decode+print instruction-count harness: `dp_count GEN FILE` decodes and
//! prints (LLVM syntax) the raw words of FILE once inside `run`, for
//! `valgrind --tool=callgrind --toggle-collect='*dp_count::run*'`.
use risa_gcn::{decode, Dialect, Gen, Printer};

#[inline(never)]
fn run(gen: Gen, words: &[u32]) -> usize {
    let p = Printer::new(Dialect::Llvm);
    let mut s: Vec<u8> = Vec::with_capacity(64);
    let (mut k, mut chars) = (0, 0);
    while k < words.len() {
        match decode(gen, &words[k..(k + 2).min(words.len())]) {
            Ok(i) => {
                s.clear();
                p.write_bytes(&i, &mut s);
                chars += s.len();
                k += i.len as usize;
            }
            Err(_) => k += 1,
        }
    }
    chars
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let gen = Gen::parse(&a[1]).expect("gen");
    let bytes = std::fs::read(&a[2]).expect("file");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    println!(
        "{}",
        std::hint::black_box(run(gen, std::hint::black_box(&words)))
    );
}
