//! The raw round trip for ANY bytes (DESIGN.md principle 7): random words of
//! every encoding and opcode — reserved bits set, unused fields non-zero,
//! literals equal to inline constants, odd register pairs, words that do not
//! decode, instructions cut short — are disassembled
//! ([`risa_gcn::listing::disassemble`], as `risa disasm` does) and the text
//! assembled back ([`risa_gcn_asm::assemble_with`], as `risa asm --format raw`
//! does, `--syntax llvm` for the LLVM dialect): the bytes must be identical.
//!
//! `RISA_RT_CASES` sets the cases per generation (default 20 000);
//! `tools/gcn-asm/raw-roundtrip.sh` runs the CLI over 100 000 words per generation.

use risa_asm_core::Options;
use risa_gcn::listing;
use risa_gcn::random::garbage_cases;
use risa_gcn::{Dialect, Gen, ALL_GENS};
use risa_gcn_asm::assemble_with;
use risa_gcn_asm::disasm::disassemble;
use std::collections::BTreeMap;

fn cases() -> usize {
    std::env::var("RISA_RT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

/// Disassembles and re-assembles `bytes`; `Err` with the text and why when
/// the bytes differ.
pub fn round_trip(
    gen: Gen,
    dialect: Dialect,
    bytes: &[u8],
    stats: &mut Stats,
) -> Result<(), String> {
    let opts = listing::Options {
        dialect,
        hex: false,
    };
    let text = disassemble(
        risa_gcn::Processor::of_gen(gen),
        bytes,
        0,
        &BTreeMap::new(),
        opts,
    );
    for l in text.lines() {
        if l.contains("(this text does not assemble") {
            stats.unchecked += 1;
            if stats.examples.len() < 40 {
                stats.examples.push(l.trim().to_string());
            }
        } else if l.contains("(reserved bits set") {
            stats.reserved += 1;
        } else if l.starts_with("    ") && !l.contains(".int") && !l.contains(".byte") {
            stats.instructions += 1;
        }
    }
    let aopts = Options {
        semicolon_comments: dialect == Dialect::Llvm,
        ..Default::default()
    };
    let a = assemble_with(Some(gen), "rt.s", &text, aopts, false);
    let words = |b: &[u8]| -> String {
        b.chunks(4)
            .map(|c| {
                c.iter()
                    .rev()
                    .map(|x| format!("{x:02x}"))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    if a.output.has_errors() {
        return Err(format!(
            "{}\n{}  ({})",
            text.trim_end(),
            a.diagnostics().lines().next().unwrap_or(""),
            words(bytes)
        ));
    }
    let got = a
        .output
        .section(".text")
        .map(|s| s.data.clone())
        .unwrap_or_default();
    if got != bytes {
        return Err(format!(
            "{}\n    want {}\n    got  {}",
            text.trim_end(),
            words(bytes),
            words(&got)
        ));
    }
    Ok(())
}

/// What the listings held.
#[derive(Default)]
pub struct Stats {
    /// Instructions printed as instructions.
    instructions: usize,
    /// Instructions printed as `.int` because of reserved bits.
    reserved: usize,
    /// Instructions printed as `.int` because their text does not assemble back.
    unchecked: usize,
    examples: Vec<String>,
}

fn run(dialect: Dialect) {
    let n = cases();
    let mut report = String::new();
    let mut failed = 0;
    for gen in ALL_GENS {
        let mut bad = Vec::new();
        let mut st = Stats::default();
        for bytes in garbage_cases(gen, n, 0x7a11 + gen as u64) {
            if let Err(e) = round_trip(gen, dialect, &bytes, &mut st) {
                bad.push(e);
            }
        }
        let pass = 100.0 * (n - bad.len()) as f64 / n as f64;
        eprintln!(
            "{gen} {dialect:?}: {} of {n} cases round-trip ({pass:.2} %)",
            n - bad.len()
        );
        eprintln!(
            "    {} instructions as text, {} as .int for reserved bits, {} as .int because the text does not assemble back",
            st.instructions, st.reserved, st.unchecked
        );
        if std::env::var("RISA_RT_VERBOSE").is_ok() {
            for e in &st.examples {
                eprintln!("      {e}");
            }
        }
        failed += bad.len();
        if let Ok(path) = std::env::var("RISA_RT_DUMP") {
            let all = bad.join("\n");
            let _ = std::fs::write(format!("{path}.{gen}.{dialect:?}"), all);
        }
        for b in bad.iter().take(8) {
            report += &format!("{gen} {dialect:?}:\n{b}\n");
        }
    }
    assert!(failed == 0, "{failed} cases differ\n{report}");
}

#[test]
fn clrx_dialect_any_bytes() {
    run(Dialect::Clrx);
}

#[test]
fn llvm_dialect_any_bytes() {
    run(Dialect::Llvm);
}
