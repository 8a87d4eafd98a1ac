//! Static-check speed: every GCN fixture object (or the files given),
//! checked `LINT_REPS` times (20); prints instructions checked per second.
//!
//! `cargo run --release -p risa-check --example lint_speed [FILE.o...]`

use risa_check::cfg::build;
use risa_check::lint::{check_cfg, Options};
use risa_check::object::{code_units, target_of, xnack_on};
use std::time::Instant;

fn main() {
    let mut files: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    if files.is_empty() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        for sub in ["gcn", "gcn-v5"] {
            for chip in std::fs::read_dir(root.join(sub)).unwrap().flatten() {
                for f in std::fs::read_dir(chip.path()).unwrap().flatten() {
                    if f.path().extension().is_some_and(|x| x == "o") {
                        files.push(f.path());
                    }
                }
            }
        }
    }
    let reps: u32 = std::env::var("LINT_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let objects: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let (mut insns, mut findings) = (0u64, 0usize);
    let t = Instant::now();
    for _ in 0..reps {
        for bytes in &objects {
            let elf = risa_elf::Elf::parse(bytes).unwrap();
            let target = target_of(&elf).unwrap();
            let opts = Options {
                xnack: xnack_on(&elf),
                ..Options::default()
            };
            for u in code_units(&elf) {
                let g = build(target, u.code, &u.entries);
                insns += g.insns.len() as u64;
                findings += check_cfg(&g, &opts).findings().count();
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} objects x {reps}: {insns} instructions in {s:.3} s = {:.2} M instructions/s ({findings} findings)",
        objects.len(),
        insns as f64 / s / 1e6
    );
}
