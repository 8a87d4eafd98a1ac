//! `risa asm --arch cayman`: disassembly of a clang object assembles back to
//! the same .text (raw and ELF); errors give file:line:col and exit code 1.

mod common;
use common::tmpdir;

use std::process::Command;

fn risa() -> Command {
    Command::new(env!("CARGO_BIN_EXE_risa"))
}

#[test]
fn disasm_then_asm_gives_the_same_code() {
    let scratch = tmpdir("asm-cayman");
    let dir = scratch.path();
    let obj = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/cayman/multi_kernel.o"
    );
    let dis = risa()
        .args(["disasm", "--arch", "cayman", obj])
        .output()
        .unwrap();
    assert!(dis.status.success());
    let src = dir.join("k.s");
    std::fs::write(&src, &dis.stdout).unwrap();
    let elf = dir.join("k.o");
    let st = risa()
        .args(["asm", "--arch", "cayman"])
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .args(["--format", "elf"])
        .status()
        .unwrap();
    assert!(st.success());
    let a = std::fs::read(obj).unwrap();
    let b = std::fs::read(&elf).unwrap();
    let ta = risa_elf::Elf::parse(&a).unwrap();
    let tb = risa_elf::Elf::parse(&b).unwrap();
    assert_eq!(
        ta.section_by_name(".text").unwrap().data,
        tb.section_by_name(".text").unwrap().data
    );
    // raw output is .text
    let raw = dir.join("k.bin");
    let st = risa()
        .args(["asm", "--arch=cayman", "-o"])
        .arg(&raw)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(
        std::fs::read(&raw).unwrap(),
        ta.section_by_name(".text").unwrap().data
    );
}

#[test]
fn errors_have_positions_and_exit_1() {
    let scratch = tmpdir("asm-cayman-e");
    let dir = scratch.path();
    let src = dir.join("bad.s");
    std::fs::write(&src, "ALU:\n  0 x: MOV R1.x, R2.q\nEND:\n").unwrap();
    let out = risa()
        .args(["asm", "--arch", "cayman"])
        .arg(&src)
        .args(["-o", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.s:2:21: error: channel must be x, y, z or w"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
