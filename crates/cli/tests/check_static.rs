//! `risa check` and `risa asm --check`: clang's kernels are clean, a wait
//! removed from their disassembly is reported at its reader, exit statuses.

mod common;
use common::{repo, risa, tmpdir};

/// The disassembly of a fixture with the first line equal to `line` removed.
fn mutant(fixture: &str, line: &str) -> String {
    let f = repo().join("tests/fixtures/gcn").join(fixture);
    let (code, text, err) = risa(&["disasm", "--syntax", "llvm", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mut lines: Vec<&str> = text.lines().collect();
    let k = lines.iter().position(|l| l.trim() == line).unwrap();
    lines.remove(k);
    lines.join("\n") + "\n"
}

#[test]
fn clean_object_and_source() {
    let f = repo().join("tests/fixtures/gcn/gfx900/lds_reduce.o");
    let (code, out, err) = risa(&["check", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no findings"), "{err}");
    let s = repo().join("tests/fixtures/gcn/hawaii/lds_reduce.s");
    let (code, out, err) = risa(&["check", "--syntax", "llvm", s.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

#[test]
fn removed_wait_is_reported_at_its_reader() {
    let scratch = tmpdir("check-static");
    let d = scratch.path();
    let src = d.join("m.s");
    // The wait for the global load whose result ds_write_b32 stores.
    std::fs::write(&src, mutant("gfx900/lds_reduce.o", "s_waitcnt vmcnt(0)")).unwrap();
    let obj = d.join("m.o");
    let (code, _, err) = risa(&[
        "asm",
        "--syntax",
        "llvm",
        "--format",
        "elf",
        "--check",
        src.to_str().unwrap(),
        "-o",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(":0x64: waitcnt: v2 read while the global_load_dword at 0x54"),
        "{err}"
    );
    let (code, out, _) = risa(&["check", "--syntax", "llvm", obj.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "{}:0x64: waitcnt: v2 read while the global_load_dword at 0x54 may be outstanding \
             (needs s_waitcnt vmcnt(0) before it)\n    ds_write_b32 v1, v2\n",
            obj.display()
        )
    );
    // For CI: findings make the status 4 with --check-error.
    let (code, _, _) = risa(&["check", "--check-error", obj.to_str().unwrap()]);
    assert_eq!(code, 4);
    let (code, _, _) = risa(&[
        "check",
        "--check=hazards",
        "--check-error",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
}

#[test]
fn removed_nop_is_a_hazard() {
    // gfx906 dot_mix: LLVM's s_nop after a global_store_dwordx4, before a
    // VALU instruction overwrites a VGPR of its data.
    let scratch = tmpdir("check-static-nop");
    let d = scratch.path();
    let src = d.join("n.s");
    std::fs::write(&src, mutant("gfx906/dot_mix.o", "s_nop 0x0")).unwrap();
    let (code, out, err) = risa(&["check", "--syntax", "llvm", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(": hazards: 1 wait state needed after the global_store_dwordx4 at 0x104"),
        "{out}{err}"
    );
}

#[test]
fn cayman_and_usage() {
    let c = repo().join("tests/fixtures/cayman/bitops.o");
    // Cayman: the guide's static rules (docs/checks.md); clang's code is clean
    let (code, out, err) = risa(&["check", c.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no findings"), "{err}");
    let f = repo().join("tests/fixtures/gcn/fiji/vadd.o");
    let (code, _, err) = risa(&["check", "--check=races", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("run-time check"), "{err}");
    let (code, _, err) = risa(&["check", "--check=typo", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown check"), "{err}");
}

#[test]
fn raw_code_that_does_not_decode_is_a_warning() {
    let scratch = tmpdir("check-static-raw");
    let d = scratch.path();
    let f = d.join("g.bin");
    // v_mov_b32 v0, v1; then a word that is no GCN 1.4 instruction.
    let words: [u32; 2] = [0x7e00_0301, 0xffff_ffff];
    std::fs::write(
        &f,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let (code, out, err) = risa(&["check", "--arch", "gfx900", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("g.bin:0x4: does not decode"), "{err}");
    let (code, _, err) = risa(&["check", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("raw code needs --arch"), "{err}");
}
