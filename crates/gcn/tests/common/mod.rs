//! What the oracle tests share: running llvm-mc when it is installed.

use risa_gcn::{Processor, ALL_GENS};
use std::io::Write;
use std::process::{Command, Stdio};

/// Whether llvm-mc can be run (the live checks are skipped without it).
pub fn llvm_mc_installed() -> bool {
    let ok = Command::new("llvm-mc").arg("--version").output().is_ok();
    if !ok {
        eprintln!("llvm-mc not installed: live check skipped (the vectors were checked when made)");
    }
    ok
}

/// The vector files: one per generation (`gcn1.4.txt`, every form of its
/// reference chip) and one per chip with features beyond its generation's
/// (`gfx906.txt`, the forms of the rows those features add).
pub fn vector_sets() -> Vec<(&'static str, &'static Processor)> {
    let mut v: Vec<_> = ALL_GENS
        .iter()
        .map(|g| (g.name(), Processor::of_gen(*g)))
        .collect();
    v.push(("gfx906", Processor::parse("gfx906").unwrap()));
    v
}

/// Runs `llvm-mc -arch=amdgcn -mcpu=<chip> <extra>` on `input`;
/// returns (stdout, stderr).
pub fn llvm_mc(chip: &Processor, extra: &str, input: &str) -> (String, String) {
    let mut child = Command::new("llvm-mc")
        .args(["-arch=amdgcn", &format!("-mcpu={}", chip.name), extra])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
