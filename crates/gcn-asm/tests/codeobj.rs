//! Code objects: kernel descriptors and e_flags compared with what llvm-mc
//! writes for the same `.amdhsa_kernel` blocks (tests/vectors/gcn/kd.txt,
//! made by tools/gcn-asm/kd_vectors.py); CLRX `.kernel`/`.config` kernels;
//! and, where LLVM's tools are installed, llvm-readelf/llvm-objdump reading
//! the objects risa writes.

use risa_gcn::Gen;
use risa_gcn_asm::{assemble, codeobj};
use std::process::Command;

const PROLOGUE: &str = ".text\n.globl k\n.p2align 8\nk:\n  s_endpgm\n.rodata\n.p2align 6\n";

fn elf_of(gen: Gen, src: &str) -> Vec<u8> {
    let a = assemble(Some(gen), "k.s", src);
    assert!(!a.output.has_errors(), "{src}\n{}", a.diagnostics());
    codeobj::build(&a).unwrap_or_else(|e| panic!("{src}\n{e}"))
}

#[test]
fn kernel_descriptors_match_llvm_mc() {
    let path = format!(
        "{}/../../tests/vectors/gcn/kd.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cases = 0;
    let mut bad = Vec::new();
    let mut lines = text.lines().filter(|l| !l.starts_with('#')).peekable();
    while let Some(head) = lines.next() {
        let gen = Gen::parse(head.split_whitespace().nth(1).unwrap()).unwrap();
        let mut body = String::new();
        while let Some(l) = lines.next_if(|l| !l.starts_with("flags ")) {
            body.push_str(l);
            body.push('\n');
        }
        let flags =
            u32::from_str_radix(lines.next().unwrap()[6..].trim_start_matches("0x"), 16).unwrap();
        let hex = &lines.next().unwrap()[3..];
        let kd: Vec<u8> = (0..64)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let bytes = elf_of(gen, &format!("{PROLOGUE}{body}"));
        let elf = risa_elf::Elf::parse(&bytes).unwrap();
        let got = elf.section_by_name(".rodata").unwrap().data;
        if got != kd.as_slice() || elf.flags != flags {
            bad.push(format!(
                "{gen}:\n{body}want flags {flags:#x} kd {kd:02x?}\ngot  flags {:#x} kd {got:02x?}",
                elf.flags
            ));
        }
        cases += 1;
    }
    assert!(cases > 100, "only {cases} cases");
    assert!(
        bad.is_empty(),
        "{} of {cases} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(3)].join("\n")
    );
}

const CLRX_KERNEL: &str = ".gpu Fiji
.kernel vadd
    .config
        .dims x
        .sgprsnum 16
        .vgprsnum 8
        .localsize 1024
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .arg n, \"uint\", 4, , value, u32
        .arg a, \"float*\", 8, , globalbuf, f32, global, default const
.text
vadd:
    s_load_dword s0, s[6:7], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v7, s0
    s_endpgm
";

#[test]
fn clrx_kernel_config_makes_a_descriptor() {
    let bytes = elf_of(Gen::Gcn12, CLRX_KERNEL);
    let elf = risa_elf::Elf::parse(&bytes).unwrap();
    assert_eq!(elf.flags, 0x2a, "gfx803");
    let kd = elf.section_by_name(".rodata").unwrap().data;
    let u32_at = |o: usize| u32::from_le_bytes([kd[o], kd[o + 1], kd[o + 2], kd[o + 3]]);
    assert_eq!(u32_at(0), 1024, "group segment (.localsize)");
    assert_eq!(u32_at(8), 16, "kernarg size: uint at 0, pointer at 8");
    // rsrc1: 8 VGPRs -> 1 block of 4 beyond the first; 16 SGPRs (VCC included) -> 1 block of 8.
    assert_eq!(u32_at(48) & 0x3ff, 1 | 1 << 6);
    // rsrc2: 8 user SGPRs (4 + 2 + 2), work-group id X.
    assert_eq!(u32_at(52), 8 << 1 | 1 << 7);
    assert_eq!(
        u32::from(kd[56]),
        0b1011,
        "private segment buffer, dispatch ptr, kernarg ptr"
    );
    let syms: Vec<String> = elf
        .symbols_in(elf.section_by_name(".rodata").unwrap().index)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(syms, ["vadd.kd"]);
}

#[test]
fn code_object_errors_are_clear() {
    let a = assemble(
        Some(Gen::Gcn14),
        "e.s",
        ".kernel missing\n.text\ns_endpgm\n",
    );
    assert!(!a.output.has_errors());
    let e = codeobj::build(&a).unwrap_err();
    assert_eq!(e, codeobj::CodeObjectError::NoCode("missing".into()));
    assert_eq!(
        e.to_string(),
        "kernel 'missing' has no code: define the label 'missing:'"
    );
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

#[test]
fn llvm_tools_read_risa_code_objects() {
    if !tool("llvm-readelf") || !tool("llvm-objdump") {
        eprintln!("llvm-readelf/llvm-objdump not installed: skipped");
        return;
    }
    let scratch = tempfile::Builder::new()
        .prefix("risa-codeobj-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let o = dir.join("vadd.o");
    std::fs::write(&o, elf_of(Gen::Gcn12, CLRX_KERNEL)).unwrap();
    let re = Command::new("llvm-readelf")
        .args(["-h", "-S", "-s", "-r", "--notes"])
        .arg(&o)
        .output()
        .unwrap();
    let re = String::from_utf8_lossy(&re.stdout);
    for want in [
        "EM_AMDGPU",
        "R_AMDGPU_REL64",
        "vadd.kd",
        "NT_AMDGPU_METADATA",
        ".name:           vadd",
        ".value_kind:     global_buffer",
        "amdgcn-amd-amdhsa--gfx803",
    ] {
        assert!(
            re.contains(want),
            "llvm-readelf output lacks {want:?}:\n{re}"
        );
    }
    let od = Command::new("llvm-objdump")
        .args(["-d"])
        .arg(&o)
        .output()
        .unwrap();
    let od = String::from_utf8_lossy(&od.stdout);
    assert!(
        od.contains("<vadd>:")
            && od.contains("s_load_dword s0, s[6:7], 0x0")
            && od.contains("s_endpgm"),
        "{od}"
    );
}

/// The metadata sample of ClrxAsmRocm.md ("Sample code"), with a short body.
#[test]
fn clrx_rocm_doc_sample_with_metadata() {
    let src = ".rocm
.gpu Fiji
.arch_minor 0
.arch_stepping 4
.eflags 2
.newbinfmt
.tripple \"amdgcn-amd-amdhsa-amdgizcl\"
.md_version 1, 0
.kernel vectorAdd
    .config
        .dims x
        .codeversion 1, 1
        .use_private_segment_buffer
        .use_dispatch_ptr
        .use_kernarg_segment_ptr
        .private_elem_size 4
        .use_ptr64
        .kernarg_segment_align 16
        .group_segment_align 16
        .private_segment_align 16
    .control_directive
        .fill 128, 1, 0x00
    .config
        .md_language \"OpenCL\", 1, 2
        .arg n, \"uint\", 4, , value, u32
        .arg a, \"float*\", 8, , globalbuf, f32, global, default const volatile
        .arg b, \"float*\", 8, , globalbuf, f32, global, default const
        .arg c, \"float*\", 8, , globalbuf, f32, global, default
        .arg , \"\", 8, , gox, i64
        .arg , \"\", 8, , goy, i64
        .arg , \"\", 8, , goz, i64
        .arg , \"\", 8, , printfbuf, i8
.text
vectorAdd:
    s_load_dword s0, s[6:7], 0x0
    s_endpgm
";
    let a = assemble(None, "rocm.s", src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let k = &a.backend.kernels.list[0];
    let offsets: Vec<(u32, u32)> = k.args.iter().map(|x| (x.offset, x.size)).collect();
    assert_eq!(
        offsets,
        [
            (0, 4),
            (8, 8),
            (16, 8),
            (24, 8),
            (32, 8),
            (40, 8),
            (48, 8),
            (56, 8)
        ]
    );
    assert_eq!(k.args[1].value_kind, "global_buffer");
    assert_eq!(k.args[1].address_space.as_deref(), Some("global"));
    assert_eq!(k.args[7].value_kind, "hidden_printf_buffer");
    let bytes = codeobj::build(&a).unwrap();
    let elf = risa_elf::Elf::parse(&bytes).unwrap();
    // s_load_dword s0, s[6:7], 0x0 = c0020003 00000000 (llvm-mc -mcpu=fiji)
    assert_eq!(
        elf.section_by_name(".text").unwrap().data,
        [0x03, 0x00, 0x02, 0xc0, 0, 0, 0, 0, 0, 0, 0x81, 0xbf]
    );
    let kd = elf.section_by_name(".rodata").unwrap().data;
    assert_eq!(
        u32::from_le_bytes([kd[8], kd[9], kd[10], kd[11]]),
        64,
        "kernarg size"
    );
    assert_eq!(
        u32::from_le_bytes([kd[52], kd[53], kd[54], kd[55]]),
        8 << 1 | 1 << 7,
        "rsrc2"
    );
    assert_eq!(kd[56], 0b1011);
}

#[test]
fn other_sections_are_written_too() {
    let src = ".kernel k\n.text\nk: s_endpgm\n.data\ntable: .int 1, 2\n.section .bss\n.skip 16\n";
    let bytes = elf_of(Gen::Gcn14, src);
    let elf = risa_elf::Elf::parse(&bytes).unwrap();
    let data = elf.section_by_name(".data").expect(".data written");
    assert_eq!(data.data, [1, 0, 0, 0, 2, 0, 0, 0]);
    let names: Vec<String> = elf
        .symbols_in(data.index)
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["table"]);
}
