//! Every worked example of the README and of `risa --help` / `risa run --help`,
//! run as written (through `sh`, with pipes and redirections) in a scratch
//! directory, compared with what the command line printed and wrote before its
//! argument parsing moved to clap: exit code, standard output, standard error
//! and every file the example writes.
//!
//! The expected records in `tests/examples/` were made by the hand-written
//! parser's binary (the oracle for "unchanged"); `RISA_BLESS=1 cargo test -p
//! risa-cli --test examples` writes them again from the current binary, for a
//! change that is meant to alter an example's output (review the diff).

use std::path::{Path, PathBuf};
use std::process::Command;
mod common;
use common::repo;

/// One example: the command line as the docs print it, the repository files
/// it reads (copied to the same relative path), files it reads that the test
/// makes (name, bytes), the files it writes, and whether its standard error
/// holds timings (then only standard output and files are compared).
struct Example {
    name: &'static str,
    cmd: &'static str,
    repo_files: &'static [&'static str],
    made_files: &'static [(&'static str, &'static [u8])],
    writes: &'static [&'static str],
    timed_stderr: bool,
}

/// A small CLRX-syntax kernel body for the `k.s`/`kernel.s` examples.
const CLRX_SRC: &[u8] =
    b"v_add_f32 v0, v1, v2\nv_mov_b32 v3, 1.0\ns_waitcnt vmcnt(0) & lgkmcnt(0)\ns_endpgm\n";
/// Raw tahiti code (`v_add_f32_e32 v0, v1, v2`, `s_endpgm`) for `code.bin`.
const TAHITI_CODE: &[u8] = &[0x01, 0x05, 0x00, 0x06, 0x00, 0x00, 0x81, 0xbf];

const EXAMPLES: &[Example] = &[
    Example {
        name: "readme_disasm_elf",
        cmd: "risa disasm examples/gcn/vadd-gfx900.o",
        repo_files: &["examples/gcn/vadd-gfx900.o"],
        made_files: &[],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "readme_disasm_raw_llvm_hex",
        cmd: "risa disasm --arch tahiti --syntax llvm --hex code.bin",
        repo_files: &[],
        made_files: &[("code.bin", TAHITI_CODE)],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "readme_disasm_lines",
        cmd: "echo 'd1c18000 1c0e0501' | risa disasm --arch fiji --lines -",
        repo_files: &[],
        made_files: &[],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "readme_asm_listing",
        cmd: "risa asm --arch gfx900 --listing k.s -o k.bin",
        repo_files: &[],
        made_files: &[("k.s", CLRX_SRC)],
        writes: &["k.bin"],
        timed_stderr: false,
    },
    Example {
        name: "readme_asm_llvm_elf",
        cmd: "cp tests/fixtures/gcn/gfx900/vadd.s k.s && risa asm --syntax llvm --format elf -o k.o k.s",
        repo_files: &["tests/fixtures/gcn/gfx900/vadd.s"],
        made_files: &[],
        writes: &["k.o"],
        timed_stderr: false,
    },
    Example {
        name: "readme_asm_then_run_dbl",
        cmd: "risa asm --format elf -o dbl.o examples/gcn/dbl-clrx.s && \
              risa run dbl.o --grid 100 --arg buf:f32:0..100 --arg u32:100 --print 0",
        repo_files: &["examples/gcn/dbl-clrx.s"],
        made_files: &[],
        writes: &["dbl.o"],
        timed_stderr: false,
    },
    Example {
        name: "readme_run_cayman",
        cmd: "risa run tests/fixtures/cayman/vadd.o --grid 1000 --arg buf:f32:0..1000 \
              --arg buf:f32:1000..2000 --arg buf:zeros:4000 --arg i32:1000 --print 2",
        repo_files: &["tests/fixtures/cayman/vadd.o"],
        made_files: &[],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "readme_disasm_cayman",
        cmd: "risa disasm tests/fixtures/cayman/vadd.o",
        repo_files: &["tests/fixtures/cayman/vadd.o"],
        made_files: &[],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "readme_asm_cayman_elf",
        cmd: "risa asm --arch cayman examples/cayman/loop_sum.s --format elf -o loop_sum.o",
        repo_files: &["examples/cayman/loop_sum.s"],
        made_files: &[],
        writes: &["loop_sum.o"],
        timed_stderr: false,
    },
    Example {
        name: "readme_patch_gcn",
        cmd: "risa disasm examples/gcn/vadd-gfx900.o > vadd.s && \
              sed 's/v_add_f32 v2, v4, v2/v_sub_f32 v2, v4, v2/' vadd.s > vsub.s && \
              risa asm --format elf vsub.s -o vsub.o && \
              risa run vsub.o --grid 8 --arg buf:f32:0..8 --arg buf:f32:100..108 \
              --arg buf:zeros:32 --arg i32:8 --print 2",
        repo_files: &["examples/gcn/vadd-gfx900.o"],
        made_files: &[],
        writes: &["vsub.o"],
        timed_stderr: false,
    },
    Example {
        name: "readme_patch_cayman",
        cmd: "risa disasm tests/fixtures/cayman/vadd.o > cvadd.s && \
              risa asm --arch cayman --format elf cvadd.s -o cvadd.o",
        repo_files: &["tests/fixtures/cayman/vadd.o"],
        made_files: &[],
        writes: &["cvadd.s", "cvadd.o"],
        timed_stderr: false,
    },
    Example {
        name: "help_asm_listing",
        cmd: "risa asm --arch gfx900 -o kernel.bin --listing kernel.s",
        repo_files: &[],
        made_files: &[("kernel.s", CLRX_SRC)],
        writes: &["kernel.bin"],
        timed_stderr: false,
    },
    Example {
        name: "help_disasm_asm_same_object",
        cmd: "cp examples/gcn/vadd-gfx900.o K.o && \
              risa disasm K.o > K.s && risa asm --format elf K.s -o K2.o",
        repo_files: &["examples/gcn/vadd-gfx900.o"],
        made_files: &[],
        writes: &["K.s", "K2.o"],
        timed_stderr: false,
    },
    Example {
        name: "help_disasm_lines",
        cmd: "echo 'bf810000' | risa disasm --arch fiji --lines -",
        repo_files: &[],
        made_files: &[],
        writes: &[],
        timed_stderr: false,
    },
    Example {
        name: "help_run_vadd_stats",
        cmd: "risa run examples/gcn/vadd-gfx900.o --grid 1000 --arg buf:f32:0..1000 \
              --arg buf:f32:1000..2000 --arg buf:zeros:4000 --arg i32:1000 --print 2 --stats",
        repo_files: &["examples/gcn/vadd-gfx900.o"],
        made_files: &[],
        writes: &[],
        timed_stderr: true,
    },
    Example {
        name: "help_run_out_dir",
        cmd: "cp examples/gcn/vadd-gfx900.o k.o && \
              risa run k.o --grid 1024 --arg buf:a.bin --arg buf:a.bin --arg buf:zeros:4096 \
              --arg i32:1024 --out out/",
        repo_files: &["examples/gcn/vadd-gfx900.o"],
        made_files: &[("a.bin", &[0u8; 4096])],
        writes: &["out/arg0.bin", "out/arg2.bin"],
        timed_stderr: false,
    },
];

fn expected_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/examples")
}

/// Runs one example in a fresh directory; returns its record (exit code and
/// the text it printed) and the files it wrote.
fn run_example(ex: &Example, scratch: &Path) -> (String, Vec<(String, Vec<u8>)>) {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).unwrap();
    for f in ex.repo_files {
        let dst = scratch.join(f);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(repo().join(f), &dst).unwrap();
    }
    for (name, bytes) in ex.made_files {
        std::fs::write(scratch.join(name), bytes).unwrap();
    }
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_risa")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(ex.cmd)
        .current_dir(scratch)
        .env("PATH", path)
        .output()
        .unwrap();
    let stderr = if ex.timed_stderr {
        "(holds timings: not compared)\n".to_string()
    } else {
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let record = format!(
        "$ {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        ex.cmd,
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout),
        stderr
    );
    let files = ex
        .writes
        .iter()
        .map(|f| {
            let bytes = std::fs::read(scratch.join(f)).unwrap_or_default();
            (f.replace('/', "_"), bytes)
        })
        .collect();
    (record, files)
}

#[test]
fn every_documented_example_behaves_as_before() {
    let bless = std::env::var_os("RISA_BLESS").is_some();
    let dir = expected_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let scratch = common::tmpdir("examples");
    let scratch_root = scratch.path();
    let mut failures = Vec::new();
    for ex in EXAMPLES {
        let (record, files) = run_example(ex, &scratch_root.join(ex.name));
        let rec_path = dir.join(format!("{}.txt", ex.name));
        if bless {
            std::fs::write(&rec_path, &record).unwrap();
            for (f, bytes) in &files {
                std::fs::write(dir.join(format!("{}.{f}", ex.name)), bytes).unwrap();
            }
            continue;
        }
        let want = std::fs::read_to_string(&rec_path)
            .unwrap_or_else(|e| panic!("{}: {e} (RISA_BLESS=1 writes it)", rec_path.display()));
        if want != record {
            failures.push(format!(
                "{}: output differs\n--- expected\n{want}\n--- got\n{record}",
                ex.name
            ));
        }
        for (f, bytes) in &files {
            let p = dir.join(format!("{}.{f}", ex.name));
            let want = std::fs::read(&p).unwrap();
            if &want != bytes {
                failures.push(format!("{}: the file {f} it writes differs", ex.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
