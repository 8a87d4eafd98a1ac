//! clang's code is correct: the static checks find nothing in any
//! clang-built GCN kernel of tests/fixtures.

use risa_check::lint::Options;
use risa_check::object::check_elf;
use std::path::{Path, PathBuf};

fn objects(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            objects(&p, out);
        } else if p.extension().is_some_and(|x| x == "o") {
            out.push(p);
        }
    }
}

#[test]
fn no_findings_on_any_gcn_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut files = Vec::new();
    objects(&root.join("gcn"), &mut files);
    objects(&root.join("gcn-v5"), &mut files);
    files.sort();
    assert!(files.len() > 500, "{} objects", files.len());
    let mut bad = String::new();
    let mut n = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let r = check_elf(&bytes, None, &Options::default()).unwrap();
        if !r.is_empty() {
            n += r.findings().count();
            bad.push_str(&r.render(&f.display().to_string()));
        }
    }
    assert!(bad.is_empty(), "{n} findings:\n{bad}");
}
