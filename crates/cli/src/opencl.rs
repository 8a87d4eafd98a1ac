//! `risa opencl install [DIR]`: registers the risa ICD with the OpenCL ICD
//! loader by writing `DIR/risa.icd` (default `/etc/OpenCL/vendors`), the
//! path of the `librisa_opencl.so` built next to this `risa` binary.

use std::path::PathBuf;

pub const USAGE: &str = "\
risa opencl — the risa OpenCL platform (ICD)

USAGE:
    risa opencl install [DIR]   write DIR/risa.icd (default /etc/OpenCL/vendors)
                                naming the librisa_opencl.so next to this binary
                                (build it first: cargo build --release)
    risa opencl path            print that library's path

    For a user install: risa opencl install ~/.local/share/risa-icd, then
    export OCL_ICD_VENDORS=~/.local/share/risa-icd (ocl-icd reads only that
    directory then). RISA_OPENCL_DEVICES=cayman,gfx900 restricts the devices.
";

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

/// Runs `risa opencl ARGS`.
pub fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("install") => {
            let dir = PathBuf::from(args.get(1).map_or("/etc/OpenCL/vendors", String::as_str));
            let lib = library()?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let icd = dir.join("risa.icd");
            std::fs::write(&icd, format!("{}\n", lib.display())).map_err(|e| {
                format!("cannot write {}: {e} (root? or give a DIR)", icd.display())
            })?;
            println!("{} -> {}", icd.display(), lib.display());
            Ok(())
        }
        Some("path") => {
            println!("{}", library()?.display());
            Ok(())
        }
        Some("-h" | "--help") | None => {
            print!("{USAGE}");
            Ok(())
        }
        Some(o) => Err(format!("unknown subcommand {o:?} (see risa opencl --help)")),
    }
}
