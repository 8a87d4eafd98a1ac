//! `risa run` end to end: arguments, --out files, --stats, --trace, faults and exit codes.

use std::path::{Path, PathBuf};
mod common;
use common::{risa, tmpdir};

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(rel)
}

fn floats(p: &Path) -> Vec<f32> {
    std::fs::read(p)
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn write_floats(p: &Path, v: &[f32]) {
    std::fs::write(
        p,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
}

#[test]
fn vadd_writes_outputs_and_stats() {
    let scratch = tmpdir("vadd");
    let d = scratch.path();
    let a: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..100).map(|i| 1000.0 - i as f32).collect();
    write_floats(&d.join("a.bin"), &a);
    write_floats(&d.join("b.bin"), &b);
    for chip in ["tahiti", "hawaii", "fiji", "gfx900"] {
        let out = d.join(chip);
        let obj = fixture(&format!("gcn/{chip}/vadd.o"));
        let (code, _, err) = risa(&[
            "run",
            obj.to_str().unwrap(),
            "--grid",
            "100",
            "--block",
            "32",
            "--arg",
            &format!("buf:{}", d.join("a.bin").display()),
            "--arg",
            &format!("buf:{}", d.join("b.bin").display()),
            "--arg",
            "buf:zeros:400",
            "--arg",
            "i32:100",
            "--out",
            out.to_str().unwrap(),
            "--stats",
        ]);
        assert_eq!(code, 0, "{chip}: {err}");
        assert!(err.contains("waves:        4"), "{chip}: {err}");
        assert!(err.contains("rate:"), "{err}");
        assert_eq!(floats(&out.join("arg2.bin")), vec![1000.0; 100], "{chip}");
        // Input buffers are written back too (arg0, arg1), scalars are not.
        assert!(out.join("arg0.bin").exists() && !out.join("arg3.bin").exists());
    }
}

#[test]
fn fault_exits_3_with_a_report() {
    let scratch = tmpdir("fault");
    let d = scratch.path();
    let obj = fixture("gcn/gfx900/vadd.o");
    let (code, _, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "128",
        "--arg",
        "buf:zeros:256",
        "--arg",
        "buf:zeros:256",
        "--arg",
        "buf:zeros:256",
        "--arg",
        "i32:128",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("fault in kernel vadd"), "{err}");
    assert!(err.contains("lane"), "{err}");
    assert!(err.contains("global_load_dword"), "{err}");
    assert!(d.join("arg2.bin").exists());
}

#[test]
fn bad_arguments_exit_1_bad_usage_exit_2() {
    let obj = fixture("gcn/fiji/vadd.o");
    let o = obj.to_str().unwrap();
    // Arguments that do not match the kernel: an error in the input.
    let (code, _, err) = risa(&["run", o, "--grid", "64", "--arg", "i32:1"]);
    assert_eq!(code, 1);
    assert!(err.contains("takes 4 arguments, 1 given"), "{err}");
    // Malformed or missing options: bad usage.
    let (code, _, err) = risa(&["run", o, "--grid", "64", "--arg", "q32:1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown kind"), "{err}");
    let (code, _, err) = risa(&["run", o, "--arg", "i32:1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--grid"), "{err}");
    let (code, _, err) = risa(&["run", o, "--grid", "1,2,3,4"]);
    assert_eq!(code, 2);
    assert!(err.contains("1 to 3"), "{err}");
    let (code, _, err) = risa(&["run", o, "--grid", "64", "--threads", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a positive integer"), "{err}");
    let (code, _, err) = risa(&["run", o, "--gird", "64"]);
    assert_eq!(code, 2);
    assert!(err.contains("similar argument exists: '--grid'"), "{err}");
    let (code, out, _) = risa(&["run", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--max-instructions"));
    assert!(
        out.contains("buf:zeros:BYTES"),
        "--help lists the argument kinds"
    );
}

#[test]
fn trace_lists_instructions_and_writes() {
    let scratch = tmpdir("trace");
    let d = scratch.path();
    let obj = fixture("gcn/gfx900/multi_kernel.o");
    let t = d.join("trace.txt");
    let (code, _, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--kernel",
        "square",
        "--grid",
        "64",
        "--arg",
        "buf:zeros:256",
        "--trace",
        t.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&t).unwrap();
    assert!(text.lines().count() > 5, "{text}");
    assert!(
        text.starts_with("g(0,0,0) w0 0x0200: s_load_dword"),
        "{text}"
    );
    assert!(text.contains("s_endpgm"), "{text}");
    assert!(text.contains(" v"), "register writes are listed: {text}");
}

#[test]
fn cayman_objects_run_with_the_same_contract() {
    let scratch = tmpdir("cayman");
    let d = scratch.path();
    let a: Vec<f32> = (0..300).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..300).map(|i| 7.0 - i as f32).collect();
    write_floats(&d.join("a.bin"), &a);
    write_floats(&d.join("b.bin"), &b);
    let obj = fixture("cayman/vadd.o");
    let (code, out, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "300",
        "--block",
        "64",
        "--arg",
        d.join("a.bin")
            .to_str()
            .map(|p| format!("buf:{p}"))
            .unwrap()
            .as_str(),
        "--arg",
        d.join("b.bin")
            .to_str()
            .map(|p| format!("buf:{p}"))
            .unwrap()
            .as_str(),
        "--arg",
        "buf:zeros:1200",
        "--arg",
        "i32:300",
        "--out",
        d.to_str().unwrap(),
        "--print",
        "2",
        "--stats",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("arg2 = [7, 6.5, 6,"), "{out}");
    assert!(err.contains("ALU groups"), "{err}");
    let c = floats(&d.join("arg2.bin"));
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(c, want);
    // arg0/arg1 are written back too (index counts every argument).
    assert_eq!(floats(&d.join("arg0.bin")), a);
    assert!(!d.join("arg3.bin").exists());

    // A runaway loop stops (at the budget, or reading past the pool) with a
    // fault report and exit code 3.
    let obj = fixture("cayman/loop_sum.o");
    let (code, _, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "64",
        "--arg",
        "buf:zeros:256",
        "--arg",
        "buf:zeros:256",
        "--arg",
        "i32:2000000000",
        "--max-instructions",
        "5000",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("fault in kernel"), "{err}");
}

/// Kernels written by hand (CLRX `.kernel`/`.config` syntax) and kernels
/// reassembled from clang's `-S` output both run: risa's code objects are
/// what the runtime loads.
#[test]
fn kernels_assembled_by_risa_run() {
    let scratch = tmpdir("asm-run");
    let d = scratch.path();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let obj = d.join("dbl.o");
    let src = root.join("examples/gcn/dbl-clrx.s");
    let (code, _, err) = risa(&[
        "asm",
        "--format",
        "elf",
        "-o",
        obj.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "100",
        "--arg",
        "buf:f32:0..100",
        "--arg",
        "u32:100",
        "--print",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("arg0 = [0, 2, 4, 6,") && out.contains("196, 198] (100 x f32)"),
        "{out}"
    );
    // The argument list is checked against the `.arg` metadata.
    let (code, _, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "100",
        "--arg",
        "buf:f32:0..100",
    ]);
    assert_ne!(code, 0);
    assert!(!err.is_empty());

    let obj = d.join("vadd.o");
    let src = fixture("gcn/gfx900/vadd.s");
    let (code, _, err) = risa(&[
        "asm",
        "--syntax",
        "llvm",
        "--format",
        "elf",
        "-o",
        obj.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "1000",
        "--arg",
        "buf:f32:0..1000",
        "--arg",
        "buf:f32:1000..2000",
        "--arg",
        "buf:zeros:4000",
        "--arg",
        "i32:1000",
        "--print",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2996, 2998] (1000 x f32)"), "{out}");
}

/// `--trace` on a Cayman object: every CF instruction, ALU group and fetch
/// of every wave, in execution order, with the registers it changed.
#[test]
fn cayman_trace_lists_cf_alu_and_fetch_with_writes() {
    let scratch = tmpdir("cayman-trace");
    let d = scratch.path();
    let t = d.join("trace.txt");
    let obj = fixture("cayman/vadd.o");
    // 70 work-items in groups of 64: group 1 has 6 live lanes
    let (code, out, err) = risa(&[
        "run",
        obj.to_str().unwrap(),
        "--grid",
        "70",
        "--block",
        "64",
        "--arg",
        "buf:f32:0..70",
        "--arg",
        "buf:f32:0..70",
        "--arg",
        "buf:zeros:280",
        "--arg",
        "i32:70",
        "--print",
        "2",
        "--trace",
        t.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("arg2 = [0, 2, 4,"), "{out}");
    let text = std::fs::read_to_string(&t).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // CF lines carry the disassembler's text; the first is vadd's first CF instruction
    assert!(
        lines[0].starts_with("g(0,0,0) w0 cf 0: ALU_PUSH_BEFORE: ADDR("),
        "{text}"
    );
    // work-groups run in order, each to its END
    let first_g1 = lines
        .iter()
        .position(|l| l.starts_with("g(1,0,0)"))
        .unwrap();
    assert!(
        lines[first_g1 - 1].starts_with("g(0,0,0) w0 cf ")
            && lines[first_g1 - 1].ends_with("END: BARRIER"),
        "{text}"
    );
    assert!(lines.last().unwrap().ends_with("END: BARRIER"), "{text}");
    // in group 1, element 64 + l is a[64 + l] + b[64 + l]: lane 0 fetches
    // 64.0 (0x42800000) from both buffers and adds them to 128.0 (0x43000000);
    // only the 6 live lanes change
    let g1 = &lines[first_g1..];
    let fetch = g1
        .iter()
        .find(|l| l.contains("tc ") && l.contains("VFETCH R0.x"))
        .unwrap();
    assert!(fetch.ends_with("R0.x[0]=0x42800000 (6 lanes)"), "{fetch}");
    let add = g1
        .iter()
        .find(|l| l.contains("x: ADD R0.x, R0.x, R1.x"))
        .unwrap();
    assert!(add.contains(" R0.x[0]=0x43000000 (6 lanes)"), "{add}");
    // group 1 is a partial last group: only its 6 work-items exist, so
    // even the first ALU group writes 6 lanes and the bounds check's
    // predicate has no lane to drop
    let first = g1.iter().find(|l| l.contains("alu 12:")).unwrap();
    assert!(first.ends_with("(6 lanes)"), "{first}");
    assert!(!g1.iter().any(|l| l.contains("=> active=")), "{text}");
    // the RAT store is listed
    assert!(
        g1.iter()
            .any(|l| l.contains("MEM_RAT_CACHELESS STORE_DWORD")),
        "{text}"
    );
}

#[test]
fn cayman_llvm_atomics_run_as_the_hardware_reads_them_unless_asked() {
    // clang-14 passes r600 atomics a byte address where the hardware reads a
    // dword index: by default they fault past the pool, with a hint; with
    // --llvm-r600-atomics they land where the source means them (max of the
    // work-item ids in arg1[1]; the PoCL corpus case global_atomics checks
    // every value).
    let obj = common::repo().join("tests/fixtures/cayman/global_atomics.o");
    let obj = obj.to_str().unwrap();
    let args = [
        "run",
        obj,
        "--grid",
        "256",
        "--block",
        "64",
        "--arg",
        "buf:zeros:64",
        "--arg",
        "buf:zeros:64",
    ];
    let (code, _, err) = risa(&args);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("MEM_RAT") && err.contains("--llvm-r600-atomics"),
        "{err}"
    );
    let mut with = args.to_vec();
    with.extend(["--llvm-r600-atomics", "--print", "1:u32"]);
    let (code, out, err) = risa(&with);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("arg1 = [0, 255, 0"), "{out}");
}
