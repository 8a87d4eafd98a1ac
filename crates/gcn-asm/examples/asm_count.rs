//! Assembler instruction-count harness: `asm_count FILE` assembles the
//! LLVM-syntax GCN 1.4 source FILE once inside `run`, for
//! `valgrind --tool=callgrind --toggle-collect='asm_count::run*'`;
//! prints the code's size and an FNV hash of it.

#[inline(never)]
fn run(src: &str) -> Vec<u8> {
    let a = risa_gcn_asm::assemble_in(
        Some(risa_gcn::Processor::of_gen(risa_gcn::Gen::Gcn14)),
        "bench.s",
        src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    assert!(!a.output.has_errors());
    a.output
        .section(".text")
        .map(|s| s.data.clone())
        .unwrap_or_default()
}

fn main() {
    let path = std::env::args().nth(1).expect("file");
    let src = std::fs::read_to_string(path).expect("read");
    let code = run(std::hint::black_box(&src));
    let h = code.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    });
    println!("{} bytes, fnv {h:016x}", code.len());
}
