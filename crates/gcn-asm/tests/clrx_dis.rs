//! The CLRX differential of the CLRX-dialect disassembly, from the vectors
//! tools/vectors/clrx-dis.py made with clrxdisasm/clrxasm 0.1.9
//! (tests/vectors/clrx-dis/GEN.txt: random words of every encoding and
//! opcode, clrxdisasm's text, risa's text then, clrxasm's words for both).
//!
//! Measured here, per generation:
//! * risa's text (now) equal to clrxdisasm's after whitespace normalisation,
//!   over the cases where clrxasm takes clrxdisasm's own text back to the
//!   same words (elsewhere CLRX is wrong by its own assembler: field dumps
//!   like `vsrc2=0x1f8`, `ill_232`, modifiers on constants, ...;
//!   docs/clrx-differences.md);
//! * clrxasm re-assembling risa's text to the same words: from the vectors
//!   for the cases whose risa text is unchanged, and live over all cases when
//!   `~/.cache/risa-oracles/bin/clrxasm` exists (said when skipped);
//! * risa's own round trip of the whole stream, both dialects.
//!
//! When clrxdisasm exists, its text is also re-checked against the vectors.

use risa_gcn::listing::Options;
use risa_gcn::{Dialect, Gen, ALL_GENS};
use risa_gcn_asm::disasm::disassemble;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    off: u64,
    words: Vec<u32>,
    clrx: String,
    risa_then: String,
    clrxasm_risa: String,
    clrxasm_clrx: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(gen: Gen) -> Vec<Case> {
    let path = root().join(format!("tests/vectors/clrx-dis/{gen}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out = Vec::new();
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f.len(), 6, "{l}");
        let words: Vec<u32> = f[1]
            .split(' ')
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect();
        let same_words = |s: &str| {
            if s == "=" {
                f[1].to_string()
            } else {
                s.to_string()
            }
        };
        out.push(Case {
            off: f[0].parse().unwrap(),
            words,
            clrx: f[2].to_string(),
            risa_then: if f[3] == "=" {
                f[2].to_string()
            } else {
                f[3].to_string()
            },
            clrxasm_risa: same_words(f[4]),
            clrxasm_clrx: same_words(f[5]),
        });
    }
    out
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// risa's CLRX listing of `bytes` with `--hex`: (lines, [(line, offset, text)]).
fn risa_listing(gen: Gen, bytes: &[u8]) -> (Vec<String>, Vec<(usize, u64, String)>) {
    let opts = Options {
        dialect: Dialect::Clrx,
        hex: true,
    };
    let text = disassemble(
        risa_gcn::Processor::of_gen(gen),
        bytes,
        0,
        &BTreeMap::new(),
        opts,
    );
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut items = Vec::new();
    for (k, l) in lines.iter().enumerate() {
        if !l.starts_with("    ") {
            continue;
        }
        if let Some((t, c)) = l.split_once("# ") {
            if let Some((pc, _)) = c.split_once(':') {
                if let Ok(pc) = u64::from_str_radix(pc, 16) {
                    items.push((k, pc, norm(t)));
                }
            }
        }
    }
    (lines, items)
}

fn oracle(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("HOME")?)
        .join(".cache/risa-oracles/bin")
        .join(name);
    p.exists().then_some(p)
}

fn device(gen: Gen) -> &'static str {
    match gen {
        Gen::Gcn10 => "Tahiti",
        Gen::Gcn11 => "Hawaii",
        Gen::Gcn12 => "Tonga",
        Gen::Gcn14 => "GFX900",
    }
}

/// Assembles `lines` with clrxasm; lines it rejects are replaced by their
/// words (from `words_of`) and counted. Returns the bytes and the rejected lines.
fn clrxasm(
    bin: &Path,
    gen: Gen,
    mut lines: Vec<String>,
    words_of: &HashMap<usize, Vec<u32>>,
) -> (Vec<u8>, Vec<usize>) {
    let scratch = tempfile::Builder::new()
        .prefix(&format!("risa-clrx-dis-{gen}-"))
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let (src, out) = (dir.join("r.s"), dir.join("r.bin"));
    let mut rejected = Vec::new();
    for _ in 0..4 {
        std::fs::write(&src, lines.join("\n") + "\n").unwrap();
        let _ = std::fs::remove_file(&out);
        let p = Command::new(bin)
            .args(["-b", "rawcode", "-g", device(gen), "-o"])
            .arg(&out)
            .arg(&src)
            .output()
            .expect("running clrxasm");
        let err = String::from_utf8_lossy(&p.stderr);
        let bad: Vec<usize> = err
            .lines()
            .filter(|l| l.contains(": Error: "))
            .filter_map(|l| l.split(':').nth(1)?.parse::<usize>().ok())
            .map(|n| n - 1)
            .collect();
        if bad.is_empty() && p.status.success() {
            let bytes = std::fs::read(&out).unwrap();
            return (bytes, rejected);
        }
        for k in bad {
            let w = words_of
                .get(&k)
                .unwrap_or_else(|| panic!("clrxasm rejects line {}: {}", k + 1, lines[k]));
            let ints: Vec<String> = w.iter().map(|x| format!("{x:#010x}")).collect();
            lines[k] = format!("    .int {}", ints.join(", "));
            rejected.push(k);
        }
    }
    panic!("clrxasm keeps failing");
}

#[test]
fn clrx_disassembly_differential() {
    let clrxasm_bin = oracle("clrxasm");
    let clrxdisasm_bin = oracle("clrxdisasm");
    if clrxasm_bin.is_none() || clrxdisasm_bin.is_none() {
        eprintln!(
            "note: ~/.cache/risa-oracles/bin/clrxasm or clrxdisasm missing: \
             checking the stored vectors only (no live CLRX run)"
        );
    }
    let mut report = String::new();
    let mut fail = Vec::new();
    for gen in ALL_GENS {
        let cases = load(gen);
        let mut bytes = Vec::new();
        for c in &cases {
            assert_eq!(c.off as usize, bytes.len(), "{gen}: offsets");
            bytes.extend(c.words.iter().flat_map(|w| w.to_le_bytes()));
        }
        let (lines, items) = risa_listing(gen, &bytes);
        let text_at: HashMap<u64, &str> =
            items.iter().map(|(_, pc, t)| (*pc, t.as_str())).collect();
        let (mut valid, mut equal, mut changed, mut rt_stored) = (0, 0, 0, 0);
        let mut examples = Vec::new();
        for c in &cases {
            let now = text_at
                .get(&c.off)
                .copied()
                .unwrap_or("(no instruction here)");
            let ws: Vec<String> = c.words.iter().map(|w| format!("{w:08x}")).collect();
            let ws = ws.join(" ");
            if now != c.risa_then {
                changed += 1;
            } else if c.clrxasm_risa == ws {
                rt_stored += 1;
            }
            // (Where clrxdisasm shows no instruction at the case's offset it
            // decoded a different length: not comparable.)
            if c.clrxasm_clrx == ws && c.clrx != "(no instruction at this offset)" {
                valid += 1;
                if now == c.clrx {
                    equal += 1;
                } else if examples.len() < 5 {
                    examples.push(format!("    {ws}: clrxdisasm {:?}, risa {now:?}", c.clrx));
                }
            }
        }
        let n = cases.len();
        let text_rate = 100.0 * equal as f64 / valid as f64;
        let _ = writeln_line(
            &mut report,
            format!(
                "{gen}: {n} cases; where clrxasm takes clrxdisasm's text back ({valid}): risa text == clrxdisasm {equal} ({text_rate:.2} %); stored clrxasm(risa text) == words {rt_stored} ({:.2} %), risa text changed since the vectors: {changed}",
                100.0 * rt_stored as f64 / n as f64
            ),
        );
        for e in &examples {
            let _ = writeln_line(&mut report, e.clone());
        }
        // The gate: no regression from what was measured when the vectors
        // were made (97.75-98.94 %; the target is 99 %: docs/clrx-differences.md
        // lists what keeps the text below it).
        if text_rate < 97.5 {
            fail.push(format!("{gen}: text {text_rate:.2} % < 97.5 %"));
        }
        // clrxasm's words for risa's text as stored (current when unchanged).
        let stored_rate = 100.0 * rt_stored as f64 / n as f64;
        if changed == 0 && stored_rate < 99.5 {
            fail.push(format!(
                "{gen}: stored re-assembly {stored_rate:.2} % < 99.5 %"
            ));
        }
        // risa's own round trip of the whole stream, both dialects.
        for dialect in [Dialect::Clrx, Dialect::Llvm] {
            let opts = Options {
                dialect,
                hex: false,
            };
            let t = disassemble(
                risa_gcn::Processor::of_gen(gen),
                &bytes,
                0,
                &BTreeMap::new(),
                opts,
            );
            let aopts = risa_asm_core::Options {
                semicolon_comments: dialect == Dialect::Llvm,
                ..Default::default()
            };
            let a = risa_gcn_asm::assemble_with(Some(gen), "v.s", &t, aopts, false);
            let got = a
                .output
                .section(".text")
                .map(|s| s.data.clone())
                .unwrap_or_default();
            if a.output.has_errors() || got != bytes {
                let first = got
                    .chunks(4)
                    .zip(bytes.chunks(4))
                    .position(|(a, b)| a != b)
                    .map(|k| 4 * k);
                eprintln!(
                    "{gen} {dialect:?}: {}; first differing byte offset {first:?}",
                    a.diagnostics().lines().next().unwrap_or("no diagnostics")
                );
                fail.push(format!(
                    "{gen} {dialect:?}: the listing does not assemble back"
                ));
            }
        }
        // Live: clrxasm over risa's current text.
        if let Some(bin) = &clrxasm_bin {
            let mut words_of = HashMap::new();
            for (j, (k, pc, _)) in items.iter().enumerate() {
                let end = items.get(j + 1).map_or(bytes.len() as u64, |x| x.1);
                let w: Vec<u32> = (*pc..end)
                    .step_by(4)
                    .map(|o| {
                        let o = o as usize;
                        u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
                    })
                    .collect();
                words_of.insert(*k, w);
            }
            let (got, rejected) = clrxasm(bin, gen, lines.clone(), &words_of);
            let rejected_pcs: Vec<u64> = rejected
                .iter()
                .filter_map(|k| items.iter().find(|x| x.0 == *k).map(|x| x.1))
                .collect();
            let ok = cases
                .iter()
                .filter(|c| {
                    let o = c.off as usize;
                    !rejected_pcs.contains(&c.off)
                        && got.get(o..o + 4 * c.words.len())
                            == Some(
                                &c.words
                                    .iter()
                                    .flat_map(|w| w.to_le_bytes())
                                    .collect::<Vec<_>>()[..],
                            )
                })
                .count();
            let rate = 100.0 * ok as f64 / n as f64;
            let _ = writeln_line(
                &mut report,
                format!("{gen}: live clrxasm(risa text) == words {ok} of {n} ({rate:.2} %)"),
            );
            if rate < 99.5 {
                fail.push(format!("{gen}: live re-assembly {rate:.2} % < 99.5 %"));
            }
        }
        // Live: clrxdisasm's text still what the vectors hold.
        if let Some(bin) = &clrxdisasm_bin {
            let scratch = tempfile::Builder::new()
                .prefix(&format!("risa-clrx-dd-{gen}-"))
                .tempdir()
                .unwrap();
            let f = scratch.path().join("w.bin");
            std::fs::write(&f, &bytes).unwrap();
            let out = Command::new(bin)
                .args(["-r", "-g", device(gen)])
                .arg(&f)
                .output()
                .expect("running clrxdisasm");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut at: HashMap<u64, String> = HashMap::new();
            for l in text.lines() {
                if let Some(r) = l.strip_prefix("/*") {
                    if let Some((a, t)) = r.split_once("*/") {
                        if let Ok(a) = u64::from_str_radix(a, 16) {
                            at.insert(a, norm(t));
                        }
                    }
                }
            }
            let stale = cases
                .iter()
                .filter(|c| {
                    at.get(&c.off)
                        .map_or("(no instruction at this offset)", |s| s)
                        != c.clrx
                })
                .count();
            if stale != 0 {
                fail.push(format!(
                    "{gen}: clrxdisasm's text differs from the vectors in {stale} cases"
                ));
            }
        }
    }
    eprint!("{report}");
    assert!(fail.is_empty(), "{}\n{report}", fail.join("\n"));
}

fn writeln_line(s: &mut String, l: String) -> std::fmt::Result {
    s.push_str(&l);
    s.push('\n');
    Ok(())
}
