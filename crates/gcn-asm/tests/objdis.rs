//! The inverse of the code object writer: any 64-byte kernel descriptor,
//! printed by `kernel::descriptor_source` as an `.amdhsa_kernel` block,
//! assembles back to the same bytes (fields where they express it,
//! `.amdhsa_risa_raw_dword` where they do not); metadata that YAML cannot
//! carry comes back through `.amdgpu_metadata_msgpack`.

use risa_gcn::Gen;
use risa_gcn_asm::{assemble, codeobj, kernel::descriptor_source};

use risa_gcn::random::Rng;

fn kd_of(gen: Gen, lines: &[String]) -> Vec<u8> {
    let mut src = String::from(".text\nk:\n    s_endpgm\n.rodata\n.amdhsa_kernel k\n");
    for l in lines {
        src.push_str("    ");
        src.push_str(l);
        src.push('\n');
    }
    src.push_str(".end_amdhsa_kernel\n");
    let a = assemble(Some(gen), "kd.s", &src);
    assert!(!a.output.has_errors(), "{}\n{src}", a.diagnostics());
    let obj = codeobj::build(&a).unwrap();
    let e = risa_elf::Elf::parse(&obj).unwrap();
    e.section_by_name(".rodata").unwrap().data[..64].to_vec()
}

#[test]
fn every_descriptor_comes_back() {
    let mut rng = Rng::from_state(0x5eed_1234_abcd_0001);
    let mut raw_lines = 0;
    for gen in [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14] {
        for n in 0..300 {
            let mut d = [0u8; 64];
            if n % 3 == 0 {
                // anything at all
                for b in d.iter_mut() {
                    *b = rng.next_u64() as u8;
                }
            } else {
                // plausible: random fields, reserved bytes clear
                for o in [0usize, 4, 8, 48, 52] {
                    d[o..o + 4].copy_from_slice(&(rng.next_u64() as u32).to_le_bytes());
                }
                d[0..4].copy_from_slice(&((rng.next_u64() as u32) & 0xffff).to_le_bytes());
                d[56] = rng.next_u64() as u8 & 0x7f;
                if n % 3 == 1 {
                    // only the bits the fields have
                    let r1 = u32::from_le_bytes(d[48..52].try_into().unwrap()) & 0x02ff_f3ff;
                    let r2 = u32::from_le_bytes(d[52..56].try_into().unwrap()) & 0x7f00_17bf;
                    d[48..52].copy_from_slice(&r1.to_le_bytes());
                    d[52..56].copy_from_slice(&r2.to_le_bytes());
                }
            }
            let lines = descriptor_source(gen, &d, n % 2 == 0);
            raw_lines += lines
                .iter()
                .filter(|l| l.starts_with(".amdhsa_risa_raw_dword"))
                .count();
            assert_eq!(kd_of(gen, &lines), d.to_vec(), "{gen} #{n}: {lines:#?}");
        }
    }
    assert!(raw_lines > 0);
}

#[test]
fn clang_like_descriptors_need_no_raw_dwords() {
    // vadd on gfx900 (clang-14): rsrc1 0x00af0081, rsrc2 0x00000090, props 0x000b
    let mut d = [0u8; 64];
    d[8..12].copy_from_slice(&88u32.to_le_bytes());
    d[48..52].copy_from_slice(&0x00af_0081u32.to_le_bytes());
    d[52..56].copy_from_slice(&0x0000_0090u32.to_le_bytes());
    d[56] = 0x0b;
    for xnack in [false, true] {
        let lines = descriptor_source(Gen::Gcn14, &d, xnack);
        assert!(!lines.iter().any(|l| l.contains("raw")), "{lines:#?}");
        assert_eq!(kd_of(Gen::Gcn14, &lines), d.to_vec());
    }
}

#[test]
fn metadata_msgpack_bytes_are_written_as_given() {
    // A float and a nil: no YAML for them in risa's subset.
    let bytes = [0x82u8, 0xa1, b'a', 0xca, 0x3f, 0x80, 0, 0, 0xa1, b'b', 0xc0];
    let mut src = String::from(".text\nk:\n    s_endpgm\n");
    for c in bytes.chunks(4) {
        let b: Vec<String> = c.iter().map(|x| format!("{x:#04x}")).collect();
        src.push_str(&format!(".amdgpu_metadata_msgpack {}\n", b.join(", ")));
    }
    let a = assemble(Some(Gen::Gcn14), "m.s", &src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let obj = codeobj::build(&a).unwrap();
    let e = risa_elf::Elf::parse(&obj).unwrap();
    let note = e.section_by_name(".note").unwrap().data;
    // namesz 7 ("AMDGPU\0"), descsz, type 32, name padded to 8, then the bytes
    assert_eq!(&note[4..8], &(bytes.len() as u32).to_le_bytes());
    assert_eq!(&note[20..20 + bytes.len()], &bytes);
}

#[test]
fn eflags_are_written_as_given() {
    // bonaire (gfx704) is GCN 1.1 like hawaii, whose e_flags risa derives.
    let src =
        ".amdgcn_target \"amdgcn-amd-amdhsa--bonaire\"\n.eflags 0x26\n.text\nk:\n    s_endpgm\n";
    let a = assemble(None, "e.s", src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let flags = |a| {
        risa_elf::Elf::parse(&codeobj::build(a).unwrap())
            .unwrap()
            .flags
    };
    assert_eq!(flags(&a), 0x26);
    let a = assemble(Some(Gen::Gcn11), "e.s", ".text\nk:\n    s_endpgm\n");
    assert_eq!(flags(&a), 0x23);
}

#[test]
fn symbols_no_label_can_stand_for_come_back_raw() {
    // `mid` points into the middle of a 64-bit instruction, `k$x y` has a
    // name the assembler cannot read as a label, `A` is absolute.
    let src = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n.text\nk:\n    s_mov_b32 s0, 0x12345678\n    s_endpgm\n\
               .elf_symbol mid, .text, 0x6, 2, 1, 0, 0\n.elf_symbol A, abs, 0x1234, 0, 0, 1, 2\n\
               .rodata\n.amdhsa_kernel k\n.end_amdhsa_kernel\n";
    let a = assemble(None, "s.s", src);
    assert!(!a.output.has_errors(), "{}", a.diagnostics());
    let obj = codeobj::build(&a).unwrap();
    let syms = |o: &[u8]| {
        let mut v: Vec<String> = risa_elf::Elf::parse(o)
            .unwrap()
            .symbols
            .iter()
            .filter(|s| s.sym_type != 3)
            .map(|s| format!("{s:?}"))
            .collect();
        v.sort();
        v
    };
    assert!(syms(&obj).iter().any(|s| s.contains("\"mid\"")));
    for dialect in [risa_gcn::Dialect::Clrx, risa_gcn::Dialect::Llvm] {
        let opts = risa_gcn::listing::Options {
            dialect,
            hex: false,
        };
        let text = risa_gcn_asm::objdis::disassemble_object(
            &obj,
            risa_gcn::Processor::of_gen(Gen::Gcn14),
            opts,
        )
        .unwrap()
        .text;
        assert!(
            text.contains(".elf_symbol mid, .text, 0x6, 2, 1, 0, 0"),
            "{text}"
        );
        let o = risa_asm_core::Options {
            semicolon_comments: dialect == risa_gcn::Dialect::Llvm,
            slash_comments: dialect == risa_gcn::Dialect::Llvm,
            ..Default::default()
        };
        let b = risa_gcn_asm::assemble_with(None, "t.s", &text, o, false);
        assert!(!b.output.has_errors(), "{}\n{text}", b.diagnostics());
        assert_eq!(syms(&codeobj::build(&b).unwrap()), syms(&obj), "{text}");
    }
}
