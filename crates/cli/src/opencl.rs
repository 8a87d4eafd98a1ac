//! `risa opencl install [DIR]`: registers the risa ICD with the OpenCL ICD
//! loader by writing `DIR/risa.icd` (default `/etc/OpenCL/vendors`), the
//! path of the `librisa_opencl.so` built next to this `risa` binary.

use std::path::PathBuf;

use crate::cli::OpenclAction;

fn library() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let dir = exe.parent().ok_or("this binary has no directory")?;
    // target/release/risa -> target/release/librisa_opencl.so (deps/ for tests).
    let lib = [
        dir.join("librisa_opencl.so"),
        dir.join("../librisa_opencl.so"),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .ok_or_else(|| {
        format!(
            "{} is not built: run cargo build --release -p risa-opencl",
            dir.join("librisa_opencl.so").display()
        )
    })?;
    lib.canonicalize()
        .map_err(|e| format!("{}: {e}", lib.display()))
}

/// Runs `risa opencl ACTION`.
pub fn run(action: &OpenclAction) -> Result<(), String> {
    match action {
        OpenclAction::Install { dir } => {
            let lib = library()?;
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let icd = dir.join("risa.icd");
            std::fs::write(&icd, format!("{}\n", lib.display())).map_err(|e| {
                format!("cannot write {}: {e} (root? or give a DIR)", icd.display())
            })?;
            println!("{} -> {}", icd.display(), lib.display());
            Ok(())
        }
        OpenclAction::Path => {
            println!("{}", library()?.display());
            Ok(())
        }
    }
}
