//! What the CLI test programs share.
// Each test program uses its own subset of these.
#![allow(dead_code)]

pub mod pocl;

use std::path::PathBuf;
use std::process::Command;

/// Runs `risa ARGS`: (exit code, standard output, standard error).
pub fn risa(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_risa"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The repository's root directory.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, empty scratch directory for test `tag`, named
/// `risa-cli-TAG-XXXXXX` in the system's temporary directory (a random
/// suffix: no two tests, threads or processes share one). It is removed,
/// with everything in it, when the returned guard is dropped, also when the
/// test panics: keep it (`let tmp = tmpdir(..)`, then `tmp.path()`) until
/// the programs that use the directory have finished.
pub fn tmpdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("risa-cli-{tag}-"))
        .tempdir()
        .unwrap()
}
