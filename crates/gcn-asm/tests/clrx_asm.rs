//! CLRX-syntax sources assembled as clrxasm (CLRX 0.1.9) assembles them.
//!
//! tests/vectors/clrx-asm/gcn<gen>.txt (made by tools/clrx-asm/gen.py:
//! clrxdisasm's output over random words, the syntax lines of CLRX's
//! GcnInstrs*.md pages, and mutations of both) holds one vector per line:
//! `+ <dwords> <source>` for a line clrxasm accepts with those bytes, `! - <source>`
//! for a line it rejects. Each line is assembled alone in CLRX mode; risa
//! agrees when it gives the same bytes for an accepted line and a positioned
//! error (`line:col`) for a rejected one, or, where clrxasm is needlessly
//! strict, a positioned warning saying that clrxasm rejects the line (each
//! such case is listed in docs/clrx-differences.md, "Assembler"). The agreement per generation must
//! stay at or above `THRESHOLD`; `CLRX_ASM_REPORT=1` prints the
//! disagreements.
//!
//! `clrx_live_sample` reruns clrxasm (when installed in
//! ~/.cache/risa-oracles/bin) on a sample of the vectors and checks that the
//! committed data still says what the oracle says.

use risa_gcn::Gen;
use risa_gcn_asm::assemble;

/// Minimum agreement per generation, in percent.
const THRESHOLD: f64 = 99.7;

struct Vector {
    accept: bool,
    words: Vec<u32>,
    src: String,
}

fn vectors(gen: Gen) -> Vec<Vector> {
    // CLRX_ASM_VECTORS=DIR measures another generation of vectors (e.g. a
    // fresh seed of tools/clrx-asm/gen.py --out DIR).
    let dir = std::env::var("CLRX_ASM_VECTORS").unwrap_or_else(|_| {
        format!(
            "{}/../../tests/vectors/clrx-asm",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let path = format!("{dir}/gcn{}.txt", &gen.name()[3..]);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let accept = f.next() == Some("+");
            let w = f.next().unwrap();
            let words = if w == "-" {
                Vec::new()
            } else {
                w.split(' ')
                    .map(|x| u32::from_str_radix(x, 16).unwrap())
                    .collect()
            };
            Vector {
                accept,
                words,
                src: f.next().unwrap().to_string(),
            }
        })
        .collect()
}

/// `None` when risa agrees, else what it did.
fn disagreement(gen: Gen, v: &Vector) -> Option<String> {
    let a = assemble(Some(gen), "v.s", &format!("{}\n", v.src));
    let errors: Vec<_> = a.output.errors().collect();
    if v.accept {
        if let Some(e) = errors.first() {
            return Some(format!("rejected: {}", e.message));
        }
        let got = a.code();
        if got != v.words {
            return Some(format!("bytes: want {} got {}", hex(&v.words), hex(&got)));
        }
        None
    } else {
        // Where clrxasm is needlessly strict risa accepts with a positioned
        // warning that says so (docs/clrx-differences.md, "Assembler").
        let lenient = a
            .output
            .warnings()
            .any(|w| w.line > 0 && w.col > 0 && w.message.contains("clrxasm rejects"));
        match errors.first() {
            None if lenient => None,
            None => Some(format!("accepted: {}", hex(&a.code()))),
            Some(e) if e.line == 0 || e.col == 0 => Some("error without position".into()),
            Some(_) => None,
        }
    }
}

fn hex(w: &[u32]) -> String {
    w.iter()
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn measure(gen: Gen) -> (usize, usize) {
    let vs = vectors(gen);
    let report = std::env::var_os("CLRX_ASM_REPORT").is_some();
    let mut bad = 0;
    for v in &vs {
        if let Some(d) = disagreement(gen, v) {
            bad += 1;
            if report {
                println!(
                    "{} {}\t{}\t{d}",
                    gen.name(),
                    if v.accept { '+' } else { '!' },
                    v.src
                );
            }
        }
    }
    let ok = vs.len() - bad;
    println!(
        "{}: {ok}/{} agree ({:.2} %)",
        gen.name(),
        vs.len(),
        100.0 * ok as f64 / vs.len() as f64
    );
    (ok, vs.len())
}

fn check(gen: Gen) {
    let (ok, n) = measure(gen);
    assert!(n >= 20_000, "{n} vectors");
    let pct = 100.0 * ok as f64 / n as f64;
    assert!(
        pct >= THRESHOLD,
        "{}: {pct:.2} % < {THRESHOLD} %",
        gen.name()
    );
}

#[test]
fn clrx_vectors_gcn10() {
    check(Gen::Gcn10);
}

#[test]
fn clrx_vectors_gcn11() {
    check(Gen::Gcn11);
}

#[test]
fn clrx_vectors_gcn12() {
    check(Gen::Gcn12);
}

#[test]
fn clrx_vectors_gcn14() {
    check(Gen::Gcn14);
}

/// Reruns clrxasm on a sample of the committed vectors (every 97th line of
/// each generation, one file per vector) when the oracle is installed.
#[test]
fn clrx_live_sample() {
    let Some(home) = std::env::var_os("HOME") else {
        println!("skipped: no HOME");
        return;
    };
    let exe = std::path::Path::new(&home).join(".cache/risa-oracles/bin/clrxasm");
    if !exe.exists() {
        println!("skipped: {} is not installed", exe.display());
        return;
    }
    let scratch = tempfile::Builder::new()
        .prefix("risa-clrx-live-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let mut checked = 0;
    let mut stale = Vec::new();
    for (gen, dev) in [
        (Gen::Gcn10, "Tahiti"),
        (Gen::Gcn11, "Hawaii"),
        (Gen::Gcn12, "Tonga"),
        (Gen::Gcn14, "GFX900"),
    ] {
        for v in vectors(gen).iter().step_by(97) {
            let src = dir.join("l.s");
            let out = dir.join("l.bin");
            let _ = std::fs::remove_file(&out);
            std::fs::write(&src, format!("{}\n", v.src)).unwrap();
            let st = std::process::Command::new(&exe)
                .args(["-b", "rawcode", "-g", dev, "-o"])
                .arg(&out)
                .arg(&src)
                .output()
                .unwrap();
            let accept = st.status.success();
            let words: Vec<u32> = std::fs::read(&out)
                .unwrap_or_default()
                .chunks(4)
                .map(|c| {
                    let mut b = [0u8; 4];
                    b[..c.len()].copy_from_slice(c);
                    u32::from_le_bytes(b)
                })
                .collect();
            checked += 1;
            if accept != v.accept || (accept && words != v.words) {
                stale.push(format!(
                    "{} {}: clrxasm now {accept} {}",
                    gen.name(),
                    v.src,
                    hex(&words)
                ));
            }
        }
    }
    println!(
        "clrxasm live: {checked} vectors rerun, {} differ",
        stale.len()
    );
    assert!(stale.is_empty(), "{stale:#?}");
}
