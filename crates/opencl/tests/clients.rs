//! The ICD through real clients, each skipped (saying so) when missing:
//! clinfo, a C host program built against the ICD loader (ocl-icd), and the
//! pytest suite over pyopencl in tests/opencl (compared with numpy).

use std::path::{Path, PathBuf};
use std::process::Command;

/// target/debug (or release), where cargo leaves the `risa` binary and, after
/// `cargo build`, librisa_opencl.so.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// A fresh directory holding risa.icd for OCL_ICD_VENDORS, or None (with
/// the reason printed) when the library or the loader is missing. The
/// directory is removed when the guard is dropped: a test keeps it until the
/// clients it runs (which find the directory through the environment) exit.
fn vendors() -> Option<tempfile::TempDir> {
    // Every `cargo test` that builds this test also builds the cdylib beside
    // it (target/*/deps); cargo copies it up to target/* only on `cargo
    // build`, so the copy there may be an older build's.
    let exe = std::env::current_exe().unwrap();
    let beside = exe.with_file_name("librisa_opencl.so");
    let lib = if beside.is_file() {
        beside
    } else {
        target_dir().join("librisa_opencl.so")
    };
    if !lib.is_file() {
        eprintln!("skipped: {} not built", lib.display());
        return None;
    }
    if !Path::new("/usr/lib/x86_64-linux-gnu/libOpenCL.so.1").exists() {
        eprintln!("skipped: the ICD loader (ocl-icd-libopencl1) is not installed");
        return None;
    }
    let dir = tempfile::Builder::new()
        .prefix("risa-icd-test-")
        .tempdir()
        .unwrap();
    std::fs::write(dir.path().join("risa.icd"), format!("{}\n", lib.display())).unwrap();
    Some(dir)
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn clang_available() -> bool {
    let ok = have("clang-14") && Path::new("/usr/lib/clc/cayman-r600--.bc").exists();
    if !ok {
        eprintln!("skipped: clang-14 and libclc-14 are needed to build OpenCL C");
    }
    ok
}

/// Debian's Python with pyopencl, numpy and pytest, or None (saying so).
fn pyopencl() -> Option<&'static str> {
    let py = "/usr/bin/python3";
    let ok = Command::new(py)
        .args(["-c", "import pyopencl, numpy, pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3-pyopencl, python3-numpy and python3-pytest are needed");
    }
    ok.then_some(py)
}

/// Runs the pytest suite `tests/opencl/SUITE` through the ICD in
/// `vendors` (with `env` besides), asserts that it passed, and returns its
/// output (skips listed with their reasons).
fn pytest(py: &str, vendors: &Path, suite: &str, env: &[(&str, &Path)]) -> String {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/opencl")
        .join(suite);
    let o = Command::new(py)
        .args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
        .arg(&suite)
        .env("OCL_ICD_VENDORS", vendors)
        .env("PYOPENCL_NO_CACHE", "1")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn clinfo_lists_the_platform_and_six_devices_without_failures() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !have("clinfo") {
        eprintln!("skipped: clinfo is not installed");
        return;
    }
    let o = Command::new("clinfo")
        .env("OCL_ICD_VENDORS", v)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("Platform Name                                   risa"),
        "{out}"
    );
    for name in [
        "risa Cayman (Radeon HD 6970)",
        "risa Tahiti",
        "risa Hawaii",
        "risa Fiji",
        "risa gfx900 (Vega 10)",
        "risa gfx906 (Vega 20)",
    ] {
        assert!(
            out.contains(&format!(
                "Device Name                                     {name}\n"
            )),
            "{name}"
        );
    }
    for bad in ["Invalid", "<error", "CL_INVALID"] {
        assert!(!out.contains(bad), "a query failed: {bad}\n{out}");
    }
    // RISA_OPENCL_DEVICES restricts the list.
    let o = Command::new("clinfo")
        .arg("-l")
        .env("OCL_ICD_VENDORS", v)
        .env("RISA_OPENCL_DEVICES", "gfx906,cayman")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches("Device #").count(), 2, "{out}");
}

/// Builds the C host program `tests/c/NAME.c` with gcc against the ICD
/// loader into `dir`, or None (saying why) when gcc or the headers are
/// missing.
fn build_c(dir: &Path, name: &str) -> Option<PathBuf> {
    if !have("gcc") || !Path::new("/usr/include/CL/cl.h").exists() {
        eprintln!("skipped: gcc and ocl-icd-opencl-dev are needed for the C host programs");
        return None;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
    let bin = dir.join(name);
    let o = Command::new("gcc")
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .args(["-lOpenCL", "-lpthread"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(bin)
}

#[test]
fn c_host_program_runs_on_every_device() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(bin) = build_c(v, "host") else {
        return;
    };
    let o = Command::new(&bin)
        .env("OCL_ICD_VENDORS", v)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains(" 0 failed"), "{out}");
    assert_eq!(out.matches(": done").count(), 6, "{out}");
}

/// Splits the output of tests/c/events.c into one block per device,
/// without the device's name.
fn device_blocks(out: &str) -> Vec<String> {
    out.split("device ")
        .skip(1)
        .map(|b| b.split_once('\n').map_or("", |x| x.1).to_string())
        .collect()
}

#[test]
fn user_events_in_wait_lists_behave_as_on_pocl() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(bin) = build_c(v, "events") else {
        return;
    };
    // PoCL through the system's vendor files, risa through its own.
    let pocl = Command::new(&bin)
        .arg("Portable Computing Language")
        .env_remove("OCL_ICD_VENDORS")
        .output()
        .unwrap();
    if !pocl.status.success() {
        eprintln!("skipped: PoCL (pocl-opencl-icd) is not installed");
        return;
    }
    let want = device_blocks(&String::from_utf8_lossy(&pocl.stdout));
    let o = Command::new(&bin)
        .arg("risa")
        .env("OCL_ICD_VENDORS", v)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    let got = device_blocks(&out);
    assert_eq!(got.len(), 6, "{out}");
    assert_eq!(want.len(), 1);
    for g in &got {
        assert_eq!(g, &want[0], "risa:\n{out}");
    }
}

#[test]
fn pyopencl_suite_matches_numpy_on_every_device() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(py) = pyopencl() else { return };
    let out = pytest(py, v, "test_pyopencl.py", &[]);
    assert!(out.contains("30 passed"), "{out}");
}

#[test]
fn risa_check_reports_an_lds_race_through_the_platform() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(py) = pyopencl() else { return };
    let out = pytest(py, v, "test_check.py", &[]);
    // Two cases (with and without the barrier) on each of the six devices
    // (Cayman and the five GCN chips).
    assert!(out.contains("12 passed"), "{out}");
}

#[test]
fn by_value_arguments_of_every_shape_match_pocl_on_every_device() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(py) = pyopencl() else { return };
    let both = with_pocl(v, "by_value", "by-value arguments");
    let out = pytest(py, &both, "test_by_value.py", &[]);
    assert!(out.contains("12 passed"), "{out}");
}

/// A vendors directory of the test `name`'s own holding risa's vendor file
/// and, when the system registers PoCL, PoCL's beside it (the other tests
/// count the platforms they see), so a suite can compare with PoCL.
fn with_pocl(v: &Path, name: &str, what: &str) -> PathBuf {
    let both = v.join(format!("with-pocl-{name}"));
    std::fs::create_dir_all(&both).unwrap();
    std::fs::copy(v.join("risa.icd"), both.join("risa.icd")).unwrap();
    let pocl = Path::new("/etc/OpenCL/vendors/pocl.icd");
    if pocl.exists() {
        std::fs::copy(pocl, both.join("pocl.icd")).unwrap();
    } else {
        eprintln!(
            "PoCL is not installed: {what} are checked against numpy or the values passed only"
        );
    }
    both
}

#[test]
fn images_match_numpy_and_pocl_on_every_image_capable_device() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(py) = pyopencl() else { return };
    let both = with_pocl(v, "images", "images");
    let out = pytest(py, &both, "test_images.py", &[]);
    assert!(out.contains(" passed") && !out.contains("failed"), "{out}");
    // Only programs built by clang-19 + ROCm's device libraries read images
    // (libclc has no image builtins): with them installed, the GCN devices
    // must report image support and every image test must run.
    let rocm =
        have("clang-19") && Path::new("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ockl.bc").exists();
    if rocm {
        assert!(!out.contains("empty parameter set"), "{out}");
    } else {
        eprintln!("skipped: clang-19 and rocm-device-libs are needed for image kernels");
    }
}

#[test]
fn kernel_corpus_from_source_matches_risa_run_on_every_device() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let risa = target_dir().join("risa");
    if !risa.is_file() {
        eprintln!(
            "skipped: {} is not built (cargo build -p risa-cli)",
            risa.display()
        );
        return;
    }
    let Some(py) = pyopencl() else { return };
    let out = pytest(py, v, "test_corpus.py", &[("RISA_BIN", &risa)]);
    // 51 kernel files on 6 devices; the skips (a device that cannot build a
    // kernel, arguments risa run cannot pass) are listed with their reasons.
    let passed: usize = out
        .lines()
        .find_map(|l| {
            l.split(" passed")
                .next()
                .and_then(|x| x.trim().rsplit(' ').next()?.parse().ok())
        })
        .unwrap_or(0);
    assert!(passed >= 250, "{out}");
}

/// CLSmith's host driver, cl_launcher, from the oracles folder
/// (`../shared/oracles/build.sh clsmith`), or None (saying so).
fn cl_launcher() -> Option<PathBuf> {
    let dir = std::env::var_os("ORACLES")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/risa-oracles")))?;
    let bin = dir.join("bin/cl_launcher");
    if !bin.is_file() {
        eprintln!("skipped: {} is not built", bin.display());
        return None;
    }
    Some(bin)
}

#[test]
fn cl_launcher_runs_a_clsmith_shaped_kernel_on_every_device_as_on_pocl() {
    let Some(scratch) = vendors() else { return };
    let v = scratch.path();
    if !clang_available() {
        return;
    }
    let Some(launcher) = cl_launcher() else {
        return;
    };
    let kernel = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clsmith/launcher.cl");
    let run = |platform: &str, env: &[(&str, &std::ffi::OsStr)]| {
        let mut c = Command::new(&launcher);
        c.arg("-f").arg(&kernel).args(["-p", platform, "-d", "0"]);
        c.env_remove("OCL_ICD_VENDORS").envs(env.iter().copied());
        c.output().unwrap()
    };
    // PoCL through the system's vendor files: the reference.
    let pocl = run("0", &[]);
    let want = String::from_utf8_lossy(&pocl.stdout).into_owned();
    if !pocl.status.success() || !want.starts_with("0x") {
        eprintln!("skipped: PoCL (pocl-opencl-icd) is not installed");
        return;
    }
    let values = want.trim().split(',').filter(|v| !v.is_empty()).count();
    assert_eq!(values, 128, "{want}");
    for chip in ["cayman", "tahiti", "hawaii", "fiji", "gfx900", "gfx906"] {
        let o = run(
            "0",
            &[
                ("OCL_ICD_VENDORS", v.as_os_str()),
                ("RISA_OPENCL_DEVICES", chip.as_ref()),
            ],
        );
        let got = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{chip}: {got}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(got, want, "{chip}");
    }
}
