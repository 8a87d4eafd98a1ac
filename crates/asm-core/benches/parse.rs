//! Throughput benchmark: 200,000 generated lines of the toy ISA through
//! the assembler core. Run with `cargo bench -p risa-asm-core` (criterion;
//! the established one-line figure follows criterion's report).

#[path = "../tests/common/mod.rs"]
mod common;

use risa_asm_core::{Assembler, Options};
use risa_bench::Throughput;

fn generate(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 24);
    for i in 0..lines {
        match i % 8 {
            0 => s.push_str(&format!("L{i}: add r{}, r{}\n", i % 16, (i + 3) % 16)),
            1 => s.push_str(&format!("    mov r{}, 0x{:x}\n", i % 16, i & 0xffff)),
            2 => s.push_str("    nop\n"),
            3 => s.push_str(&format!("    mov r1, {} + 4*2   # comment\n", i & 0xfff)),
            4 => s.push_str(&format!("    br L{}\n", i - 4)),
            5 => s.push_str("    add r1, r2\n"),
            6 if i + 2 < lines => s.push_str(&format!("    br L{}\n", i + 2)),
            _ => s.push_str("    nop\n"),
        }
    }
    s
}

fn main() {
    let n = 200_000;
    let src = generate(n);
    let mut c = risa_bench::criterion();
    let p = risa_bench::measure(
        &mut c,
        "asm-core",
        "toy_isa_200k_lines",
        Throughput::BytesDecimal(src.len() as u64),
        || {
            let out = Assembler::new(Options::default()).assemble(
                "bench.s",
                &src,
                &mut common::Toy::default(),
            );
            assert!(
                !out.has_errors(),
                "{}",
                risa_asm_core::diag::render_all(&out.diagnostics[..3.min(out.diagnostics.len())])
            );
            assert_eq!(out.sections[0].data.len(), n * 4);
        },
    );
    if p.ran() {
        println!(
            "asm-core toy ISA: {n} lines in {:.1} ms -> {:.2} M lines/s ({:.1} MB/s)",
            p.best_wall * 1e3,
            p.per_s(n as f64),
            p.per_s(src.len() as f64)
        );
    }
    c.final_summary();
}
