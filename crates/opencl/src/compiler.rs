//! OpenCL C to device code with the compilers users already have, found on
//! PATH (commands from ABI-NOTES.md): clang-14 + libclc for Cayman and GCN
//! (code object v4), clang-19 + ROCm device libraries for GCN 1.2/1.4 when
//! both are installed (code object v5). `RISA_OPENCL_COMPILER=clang-14`
//! forces the first.

use risa_runtime::gpu::Isa;
use std::path::{Path, PathBuf};
use std::process::Command;

const COMMON: &[&str] = &["-x", "cl", "-Xclang", "-finclude-default-header", "-O2"];

fn found(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

fn first_existing(cands: &[&str]) -> Option<PathBuf> {
    cands.iter().map(PathBuf::from).find(|p| p.is_file())
}

fn libclc(file: &str) -> Option<PathBuf> {
    first_existing(&[
        &format!("/usr/lib/clc/{file}"),
        &format!("/usr/share/clc/{file}"),
        &format!("/usr/lib/llvm-14/lib/clc/{file}"),
    ])
}

fn rocm_bitcode() -> Option<PathBuf> {
    let p = first_existing(&[
        "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ockl.bc",
        "/usr/lib/amdgcn/bitcode/ockl.bc",
        "/opt/rocm/amdgcn/bitcode/ockl.bc",
    ])?;
    p.parent().map(Path::to_path_buf)
}

/// The ROCm device libraries when `p`'s programs are built by clang-19
/// with them (GCN 1.1 and later when both are installed and
/// `RISA_OPENCL_COMPILER=clang-14` does not force libclc).
fn rocm_for(p: &risa_gcn::Processor) -> Option<PathBuf> {
    let force14 = std::env::var("RISA_OPENCL_COMPILER").is_ok_and(|v| v == "clang-14");
    (!force14 && p.gen != risa_gcn::Gen::Gcn10 && found("clang-19"))
        .then(rocm_bitcode)
        .flatten()
}

/// Whether kernels built for `isa` can use images: only ROCm's device
/// libraries give OpenCL C image builtins on GCN (libclc-14 has none for
/// amdgcn or r600, and risa emulates no Cayman texture fetch from it).
pub fn image_support(isa: Isa) -> bool {
    match isa {
        Isa::Cayman => false,
        Isa::Gcn(p) => rocm_for(p).is_some(),
    }
}

/// The command line that compiles `src` into `out` for `isa` (`mcpu` for
/// GCN), or a message naming the packages to install.
fn command(isa: Isa, opts: &[String], src: &Path, out: &Path) -> Result<Command, String> {
    let std = if opts.iter().any(|o| o.starts_with("-cl-std=")) {
        vec![]
    } else {
        vec!["-cl-std=CL1.2".to_string()]
    };
    let missing14 = "the OpenCL C compiler is missing: install clang-14, libclc-14 and lld-14 (apt-get install -y clang-14 libclc-14 lld-14)";
    let mut c;
    match isa {
        Isa::Cayman => {
            let clc = libclc("cayman-r600--.bc")
                .filter(|_| found("clang-14"))
                .ok_or(missing14)?;
            c = Command::new("clang-14");
            c.args(COMMON).args(&std).args([
                "-target",
                "r600--",
                "-mcpu=cayman",
                "-fintegrated-as",
            ]);
            c.args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
                .arg(clc);
        }
        Isa::Gcn(p) => {
            if let Some(rocm) = rocm_for(p) {
                c = Command::new("clang-19");
                c.args(COMMON)
                    .args(&std)
                    .args(["-target", "amdgcn-amd-amdhsa"]);
                c.arg(format!("-mcpu={}", p.name));
                c.arg(format!("--rocm-device-lib-path={}", rocm.display()));
            } else {
                let clc = libclc("amdgcn--amdhsa.bc")
                    .filter(|_| found("clang-14"))
                    .ok_or(missing14)?;
                c = Command::new("clang-14");
                c.args(COMMON)
                    .args(&std)
                    .args(["-target", "amdgcn-amd-amdhsa"]);
                c.arg(format!("-mcpu={}", p.name));
                c.args([
                    "-nogpulib",
                    "-Wno-linker-warnings",
                    "-Xclang",
                    "-mlink-builtin-bitcode",
                    "-Xclang",
                ]);
                c.arg(clc);
            }
        }
    }
    c.args(opts).arg("-c").arg(src).arg("-o").arg(out);
    Ok(c)
}

/// Build options clang takes as they are; others are dropped (with a note
/// in the log) rather than failing the build.
fn clang_options(options: &str, log: &mut String) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = options.split_whitespace().peekable();
    while let Some(o) = it.next() {
        let takes_value = matches!(o, "-D" | "-I");
        if o.starts_with("-D")
            || o.starts_with("-I")
            || o.starts_with("-cl-")
            || o == "-w"
            || o == "-Werror"
        {
            out.push(o.to_string());
            if takes_value {
                if let Some(v) = it.next() {
                    out.push(v.to_string());
                }
            }
        } else {
            log.push_str(&format!("risa: build option {o:?} ignored\n"));
        }
    }
    out
}

/// A header an `#include "name"` in the source finds (clCompileProgram's
/// input headers): its name and text.
pub type Header = (String, String);

/// Checks OpenCL C `source` for `isa` without generating code (what
/// clCompileProgram does: calls to functions of other programs stay
/// unresolved until clLinkProgram builds the sources together): the log, or
/// the log of a failed check.
// The Err stays a String on purpose: it is the text of
// CL_PROGRAM_BUILD_LOG (the caller stores it verbatim), like the Ok.
pub fn check(isa: Isa, source: &str, headers: &[Header], options: &str) -> Result<String, String> {
    run(isa, source, headers, options, Mode::Check).map(|(_, log)| log)
}

/// Compiles OpenCL C `source` for `isa`, with `headers` beside it: the
/// object's bytes and the log, or the log of a failed build.
pub fn compile(
    isa: Isa,
    source: &str,
    headers: &[Header],
    options: &str,
) -> Result<(Vec<u8>, String), String> {
    run(isa, source, headers, options, Mode::Object)
}

/// The LLVM IR (text) of `source` for `isa`, where the kernels' argument
/// types are (r600 objects carry no argument metadata).
pub fn llvm_ir(
    isa: Isa,
    source: &str,
    headers: &[Header],
    options: &str,
) -> Result<String, String> {
    run(isa, source, headers, options, Mode::Ir)
        .map(|(text, _)| String::from_utf8_lossy(&text).into_owned())
}

/// What a compiler run makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing: the source is checked.
    Check,
    /// An object.
    Object,
    /// LLVM IR text.
    Ir,
}

fn run(
    isa: Isa,
    source: &str,
    headers: &[Header],
    options: &str,
    mode: Mode,
) -> Result<(Vec<u8>, String), String> {
    let mut log = String::new();
    let opts = clang_options(options, &mut log);
    let dir = std::env::temp_dir().join(format!(
        "risa-opencl-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let src = dir.join("program.cl");
    let out = dir.join("program.o");
    let r = (|| {
        std::fs::write(&src, source).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
        for (name, text) in headers {
            let rel = std::path::Path::new(name);
            if rel.is_absolute()
                || rel
                    .components()
                    .any(|c| c == std::path::Component::ParentDir)
            {
                return Err(format!(
                    "header name {name:?} must be a relative path inside the program"
                ));
            }
            let h = dir.join(rel);
            if let Some(parent) = h.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            std::fs::write(&h, text).map_err(|e| format!("cannot write {}: {e}", h.display()))?;
        }
        let mut cmd = command(isa, &opts, &src, &out)?;
        match mode {
            Mode::Check => {
                cmd.arg("-fsyntax-only");
            }
            Mode::Ir => {
                cmd.args(["-S", "-emit-llvm"]);
            }
            Mode::Object => {}
        }
        let o = cmd
            .output()
            .map_err(|e| format!("cannot run the compiler: {e}"))?;
        log.push_str(&String::from_utf8_lossy(&o.stderr));
        if !o.status.success() {
            return Err(std::mem::take(&mut log));
        }
        if mode == Mode::Check {
            return Ok((Vec::new(), std::mem::take(&mut log)));
        }
        let bytes =
            std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
        Ok((bytes, std::mem::take(&mut log)))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    r
}

static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The marker between an r600 object and the GCN object whose metadata
/// describes its kernels' arguments, in risa's Cayman program binaries.
pub const ARG_INFO_MARKER: &[u8] = b"\0RISA-ARG-INFO\0\0";

/// The marker before the ABI alignments of a Cayman program's kernel
/// arguments (lines `KERNEL A,B,...`), after the GCN object, in risa's
/// Cayman program binaries.
pub const ARG_ALIGN_MARKER: &[u8] = b"\0RISA-ARG-ALIGN\0";
