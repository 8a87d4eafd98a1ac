//! The PoCL corpus cases (`tests/kernels/pocl/cases.txt`) and how `risa run`
//! runs them: shared by pocl_corpus.rs and checks.rs.

use super::repo as root;
use std::path::{Path, PathBuf};

/// One line of cases.txt.
pub struct Case {
    pub name: String,
    pub source: String,
    pub kernel: String,
    pub grid: String,
    pub block: String,
    pub offset: String,
    pub specs: Vec<String>,
}

pub fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("tests/kernels/pocl/cases.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Case {
                name: f[0].into(),
                source: f[1].into(),
                kernel: f[2].into(),
                grid: f[3].into(),
                block: f[4].into(),
                offset: f[5].into(),
                specs: f[6..].iter().map(|s| s.to_string()).collect(),
            }
        })
        .collect()
}

/// The objects built from `source`: (label, path) for every fixture folder holding one.
pub fn objects(source: &str) -> Vec<(String, PathBuf)> {
    let fx = root().join("tests/fixtures");
    let mut v = vec![("cayman".to_string(), fx.join(format!("cayman/{source}.o")))];
    for tc in ["gcn", "gcn-v5"] {
        for chip in [
            "tahiti", "bonaire", "hawaii", "tonga", "fiji", "gfx900", "gfx906",
        ] {
            v.push((
                format!("{tc}/{chip}"),
                fx.join(format!("{tc}/{chip}/{source}.o")),
            ));
        }
    }
    v.into_iter().filter(|(_, p)| p.exists()).collect()
}

/// `risa run` argument specs for a case: inputs are the files PoCL was given.
pub fn run_args(c: &Case, obj: &Path, out: &Path) -> Vec<String> {
    let dir = root().join("tests/kernels/pocl");
    let mut a: Vec<String> = vec![
        "run".into(),
        obj.display().to_string(),
        "--kernel".into(),
        c.kernel.clone(),
        "--grid".into(),
        c.grid.clone(),
        "--block".into(),
        c.block.clone(),
        "--threads".into(),
        "1".into(),
        // The corpus objects are clang's: Cayman atomics where they mean them.
        "--llvm-r600-atomics".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    if c.offset != "-" {
        a.extend(["--offset".into(), c.offset.clone()]);
    }
    for (i, s) in c.specs.iter().enumerate() {
        let (kind, rest) = s.split_once(':').unwrap();
        let spec = match kind {
            "in" => format!(
                "buf:{}",
                dir.join(format!("{}.in{i}.bin", c.name)).display()
            ),
            "zeros" => format!("buf:zeros:{rest}"),
            _ => s.clone(), // local:N, u32:V, i32:V are risa's own syntax
        };
        a.extend(["--arg".into(), spec]);
    }
    a
}
