//! Every line of tests/vectors/gcn/<gen>.txt (hex, LLVM text, CLRX text; the
//! LLVM text was checked with `llvm-mc -show-encoding`) assembles, in both
//! dialects, to exactly its hex words.

use risa_gcn::{Dialect, Printer};
use risa_gcn::{Gen, ALL_GENS};
use risa_gcn_asm::assemble_in;

fn vectors(gen: Gen) -> Vec<(Vec<u8>, String, String)> {
    let path = format!(
        "{}/../../tests/vectors/gcn/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        gen.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let bytes = f
                .next()
                .unwrap()
                .split(' ')
                .flat_map(|w| u32::from_str_radix(w, 16).unwrap().to_le_bytes())
                .collect();
            (
                bytes,
                f.next().unwrap().to_string(),
                f.next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Assembles every line separately-addressed in one source; returns failures.
fn check(gen: Gen, dialect: Dialect, lines: &[(&[u8], &str)]) -> Vec<String> {
    let src: Vec<&str> = lines.iter().map(|l| l.1).collect();
    let a = assemble_in(
        Some(risa_gcn::Processor::of_gen(gen)),
        "v.s",
        &src.join("\n"),
        Default::default(),
        true,
        dialect,
    );
    let data = &a.output.section(".text").unwrap().data;
    let mut bad = Vec::new();
    let errs: std::collections::HashMap<u32, String> = a
        .output
        .errors()
        .map(|d| (d.line, d.message.clone()))
        .collect();
    let mut entries = a.backend.listing.iter();
    for (i, (want, text)) in lines.iter().enumerate() {
        if let Some(e) = errs.get(&(i as u32 + 1)) {
            bad.push(format!("{text}: error: {e}"));
            continue;
        }
        let l = entries.next().expect("a listing entry per instruction");
        let got = &data[l.offset as usize..l.offset as usize + 4 * l.len];
        if got != *want {
            bad.push(format!("{text}: want {want:02x?} got {got:02x?}"));
        }
    }
    bad
}

#[test]
fn every_vector_assembles_to_its_words_in_both_dialects() {
    let mut report = String::new();
    let mut n = 0;
    for gen in ALL_GENS {
        let v = vectors(gen);
        assert!(v.len() > 1000);
        for (dialect, pick) in [("llvm", 1), ("clrx", 2)] {
            let all: Vec<(&[u8], &str)> = v
                .iter()
                .map(|(b, l, c)| {
                    (
                        b.as_slice(),
                        if pick == 1 { l.as_str() } else { c.as_str() },
                    )
                })
                .collect();
            // A text the printer gives to two different encodings cannot
            // assemble to both (CLRX's `v_nop` for VOP1 and SDWA v_nop): skipped.
            let mut seen: std::collections::HashMap<&str, &[u8]> = Default::default();
            let mut ambiguous = std::collections::HashSet::new();
            for (b, t) in &all {
                if let Some(old) = seen.insert(t, b) {
                    if old != *b {
                        ambiguous.insert(*t);
                    }
                }
            }
            assert!(
                ambiguous.len() <= 1,
                "{gen} {dialect}: ambiguous texts {ambiguous:?}"
            );
            let d = if pick == 1 {
                Dialect::Llvm
            } else {
                Dialect::Clrx
            };
            // Text the printer marks as not giving the words back in this
            // dialect (e.g. an invalid MTBUF data format, which clrxasm
            // rejects) is printed as data by a disassembly: not an
            // assembler case.
            let exact = |b: &[u8]| {
                let w: Vec<u32> = b
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                risa_gcn::decode(gen, &w)
                    .is_ok_and(|i| Printer::new(d).write_checked(&i, &mut String::new()))
            };
            let lines: Vec<(&[u8], &str)> = all
                .into_iter()
                .filter(|(b, t)| !ambiguous.contains(t) && exact(b))
                .collect();
            let bad = check(gen, d, &lines);
            n += bad.len();
            if !bad.is_empty() {
                report += &format!("{gen} {dialect}: {} of {}\n", bad.len(), lines.len());
                for b in bad.iter().take(8) {
                    report += &format!("  {b}\n");
                }
            }
        }
    }
    assert!(n == 0, "{n} failures\n{report}");
}
