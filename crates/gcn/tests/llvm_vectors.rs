//! Decoding the llvm-mc-checked vectors must reproduce their text exactly, and
//! re-encoding the decoded form must give the same words. The vectors were
//! made by `tools/vectors/gcn-llvm.py`, which kept only lines whose LLVM text
//! `llvm-mc` assembles back to the same bytes. Where llvm-mc is installed, a
//! sample is also re-checked live.

use common::vector_sets;
use risa_gcn::{decode, print, Dialect};
mod common;

fn vectors(file: &str) -> Vec<(Vec<u32>, String, String)> {
    let path = format!(
        "{}/../../tests/vectors/gcn/{file}.txt",
        env!("CARGO_MANIFEST_DIR"),
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            let words = f
                .next()
                .unwrap()
                .split(' ')
                .map(|w| u32::from_str_radix(w, 16).unwrap())
                .collect();
            (
                words,
                f.next().unwrap().to_string(),
                f.next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn every_vector_decodes_to_its_llvm_and_clrx_text() {
    for (file, gen) in vector_sets() {
        let v = vectors(file);
        assert!(v.len() > 600, "{gen}: only {} vectors", v.len());
        let mut bad = Vec::new();
        for (words, llvm, clrx) in &v {
            match decode(gen, words) {
                Ok(i) => {
                    assert_eq!(i.len as usize, words.len(), "{gen} {words:08x?}: length");
                    let (w, n) = i.words();
                    assert_eq!(&w[..n], &words[..], "{gen}: words survive decoding");
                    // llvm-mc never sets a bit outside the fields risa knows.
                    assert_eq!(i.reserved_bits(), 0, "{gen} {words:08x?}: reserved bits");
                    let got = print(&i, Dialect::Llvm);
                    let got_clrx = print(&i, Dialect::Clrx);
                    if &got != llvm || &got_clrx != clrx {
                        bad.push(format!(
                            "{words:08x?}: want {llvm:?} / {clrx:?}, got {got:?} / {got_clrx:?}"
                        ));
                    }
                }
                Err(e) => bad.push(format!("{words:08x?}: {e}")),
            }
        }
        assert!(
            bad.is_empty(),
            "{gen}: {} of {} differ:\n{}",
            bad.len(),
            v.len(),
            bad[..bad.len().min(20)].join("\n")
        );
    }
}

#[test]
fn every_table_row_of_every_generation_has_vectors() {
    for (file, gen) in vector_sets() {
        let only_gated = !file.starts_with("gcn");
        let names: std::collections::HashSet<String> = vectors(file)
            .into_iter()
            .map(|(_, t, _)| t.split(' ').next().unwrap().to_string())
            .collect();
        let missing: Vec<&str> = risa_gcn::OPS
            .iter()
            .filter(|o| o.available(gen.target()) && !o.has(risa_gcn::table::flag::NOLLVM))
            .filter(|o| !only_gated || !o.feat.is_empty())
            .filter(|o| {
                !names
                    .iter()
                    .any(|n| n == o.name || n.starts_with(&format!("{}_", o.name)))
            })
            .map(|o| o.name)
            .collect();
        assert!(missing.len() <= 3, "{gen}: no vectors for {missing:?}");
    }
}

/// Re-checks a sample with llvm-mc itself when it is installed.
#[test]
fn live_llvm_mc_agrees_on_a_sample() {
    if !common::llvm_mc_installed() {
        return;
    }
    for (file, gen) in vector_sets() {
        let sample: Vec<_> = vectors(file).into_iter().step_by(25).collect();
        let src: String = sample.iter().map(|(_, t, _)| format!("{t}\n")).collect();
        let (stdout, stderr) = common::llvm_mc(gen, "-show-encoding", &src);
        let encs: Vec<Vec<u32>> = stdout
            .lines()
            .filter_map(|l| l.split("encoding: [").nth(1))
            .map(|e| {
                let b: Vec<u8> = e
                    .trim_end_matches(']')
                    .split(',')
                    .map(|x| u8::from_str_radix(&x[2..], 16).unwrap())
                    .collect();
                b.chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            })
            .collect();
        assert_eq!(
            encs.len(),
            sample.len(),
            "{gen}: llvm-mc rejected some lines:\n{}",
            stderr
        );
        for ((words, text, _), enc) in sample.iter().zip(&encs) {
            assert_eq!(words, enc, "{gen}: {text}");
        }
    }
}
