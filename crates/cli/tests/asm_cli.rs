//! `risa asm` end to end: raw output, listing, diagnostics and exit codes,
//! code objects that `risa disasm` reads back.

mod common;
use common::tmpdir;

use std::io::Write;
use std::process::{Command, Stdio};

fn risa(args: &[&str], stdin: &str) -> (i32, Vec<u8>, String) {
    risa_in(&std::env::current_dir().unwrap(), args, stdin)
}

/// [`risa`] run in the folder `dir`.
fn risa_in(dir: &std::path::Path, args: &[&str], stdin: &str) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_risa"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // risa may exit (a usage error) before reading its input: a closed pipe is not a failure.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn raw_output_to_stdout() {
    // v_add_f32_e32 v0, v1, v2 = 02000501, s_endpgm = bf810000 (llvm-mc -mcpu=fiji)
    let (code, out, err) = risa(
        &["asm", "--arch", "fiji", "-o", "-", "-"],
        "v_add_f32 v0, v1, v2\ns_endpgm\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, [0x01, 0x05, 0x00, 0x02, 0x00, 0x00, 0x81, 0xbf]);
}

#[test]
fn listing_shows_offsets_words_and_source() {
    let scratch = tmpdir("asm-cli");
    let dir = scratch.path();
    let o = dir.join("out.bin");
    let (code, out, err) = risa(
        &["asm", "--listing", "-o", o.to_str().unwrap(), "-"],
        ".gpu gfx900\nv_mov_b32 v0, 1.5\ns_endpgm\n",
    );
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        "00000000: 7e0002ff 3fc00000  v_mov_b32 v0, 1.5\n00000008: bf810000           s_endpgm\n"
    );
    assert_eq!(std::fs::read(&o).unwrap().len(), 12);
}

#[test]
fn errors_are_reported_with_position_and_exit_code_1() {
    let (code, _, err) = risa(
        &["asm", "--arch", "tahiti", "-o", "-", "-"],
        "s_nop 0\nv_add_u16 v0, v1, v2\ns_mov_b32 s0, v1\n",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("<stdin>:2:1: error: instruction 'v_add_u16' exists only on gcn1.2, gcn1.4"),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:3:15: error: vector registers are not allowed"),
        "{err}"
    );
    assert!(err.contains("2 errors"), "{err}");
    let (code, _, err) = risa(&["asm", "--arch", "nonsense", "-"], "");
    assert_eq!(code, 1);
    assert!(err.contains("unknown GCN architecture"), "{err}");
}

#[test]
fn code_objects_read_back_with_disasm() {
    let scratch = tmpdir("asm-elf");
    let dir = scratch.path();
    let o = dir.join("k.o");
    let src = ".text\n.globl k\n.p2align 8\nk:\n  v_mov_b32 v1, 0\n  s_endpgm\n.rodata\n.p2align 6\n\
               .amdhsa_kernel k\n  .amdhsa_next_free_vgpr 2\n  .amdhsa_next_free_sgpr 0\n.end_amdhsa_kernel\n";
    let (code, _, err) = risa(
        &[
            "asm",
            "--arch",
            "gfx900",
            "--format",
            "elf",
            "-o",
            o.to_str().unwrap(),
            "-",
        ],
        src,
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = risa(&["disasm", "--syntax", "llvm", o.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("k:") && text.contains("v_mov_b32_e32 v1, 0") && text.contains("s_endpgm"),
        "{text}"
    );
}

#[test]
fn no_output_file_unless_asked() {
    // Without -o nothing is written (no a.out that could replace a file):
    // an error, or with --listing only the listing.
    let scratch = tmpdir("asm-noout");
    let dir = scratch.path();
    let (code, _, err) = risa_in(dir, &["asm", "--arch", "fiji", "-"], "s_endpgm\n");
    assert_eq!(code, 1);
    assert!(err.contains("no output: give -o OUT"), "{err}");
    let args = ["asm", "--arch", "fiji", "--listing", "-"];
    let (code, out, err) = risa_in(dir, &args, "s_endpgm\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out),
        "00000000: bf810000           s_endpgm\n"
    );
    assert!(!dir.join("a.out").exists());
}
