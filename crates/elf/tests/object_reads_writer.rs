//! The writer's files read by the `object` crate's ELF parser (an
//! implementation independent of risa's reader): header fields, sections,
//! symbols (order, binding, visibility) and relocations, for ELF32 (r600
//! objects) and ELF64 (amdgcn code objects), with and without addends.

use object::elf::{FileHeader32, FileHeader64};
use object::read::elf::{FileHeader, Rel, Rela, SectionHeader, Sym};
use object::LittleEndian as LE;
use risa_elf::write::{
    note, Class, ElfWriter, Rela as RelaSpec, SectionSpec, SymbolSpec, STB_GLOBAL, STB_LOCAL,
    STV_PROTECTED,
};

fn sample(class: Class, with_addend: bool) -> Vec<u8> {
    let mut w = ElfWriter::new(class, risa_elf::EM_AMDGPU);
    w.flags = 0x42c;
    w.osabi = 64;
    w.abi_version = 2;
    let t = w.add_section(SectionSpec::code(".text", vec![0, 0, 0x81, 0xbf], 256));
    let r = w.add_section(SectionSpec::rodata(".rodata", vec![0; 64], 64));
    w.add_section(SectionSpec {
        name: ".note".into(),
        sh_type: risa_elf::write::SHT_NOTE,
        flags: risa_elf::write::SHF_ALLOC,
        align: 4,
        data: note("AMDGPU", 32, &[0x80]),
        entsize: 0,
    });
    for (name, section, bind, kind, other) in [
        ("k", t, STB_GLOBAL, risa_elf::STT_FUNC, STV_PROTECTED),
        ("k.kd", r, STB_GLOBAL, risa_elf::STT_OBJECT, STV_PROTECTED),
        ("here", t, STB_LOCAL, 0, 0),
    ] {
        w.add_symbol(SymbolSpec {
            name: name.into(),
            value: 0,
            size: 4,
            section: Some(section),
            bind,
            kind,
            other,
        });
    }
    let relocs = vec![RelaSpec {
        offset: 16,
        symbol: "k".into(),
        kind: 5,
        addend: 20,
    }];
    if with_addend {
        w.add_relas(r, relocs);
    } else {
        w.add_rels(r, relocs);
    }
    w.finish()
}

/// What object reads: (flags, osabi, abiversion, section names, symbols as
/// (name, bind, type, visibility), relocations as (offset, symbol name, type, addend)).
type Seen = (
    u32,
    u8,
    u8,
    Vec<String>,
    Vec<(String, u8, u8, u8)>,
    Vec<(u64, String, u32, i64)>,
);

fn read<H: FileHeader<Endian = LE>>(data: &[u8]) -> Seen {
    let h = H::parse(data).unwrap();
    let e = h.endian().unwrap();
    let sections = h.sections(e, data).unwrap();
    let names = sections
        .iter()
        .map(|s| String::from_utf8_lossy(sections.section_name(e, s).unwrap()).into_owned())
        .collect();
    let symtab = sections.symbols(e, data, object::elf::SHT_SYMTAB).unwrap();
    let sym_name = |i: usize| {
        let s = symtab.symbol(object::SymbolIndex(i)).unwrap();
        String::from_utf8_lossy(s.name(e, symtab.strings()).unwrap()).into_owned()
    };
    let syms = symtab
        .iter()
        .skip(1)
        .map(|s| {
            let name = String::from_utf8_lossy(s.name(e, symtab.strings()).unwrap()).into_owned();
            (name, s.st_bind(), s.st_type(), s.st_visibility())
        })
        .collect();
    let mut relocs = Vec::new();
    for s in sections.iter() {
        if let Some((rels, _)) = s.rela(e, data).unwrap() {
            for r in rels {
                let sym = r.symbol(e, false).map_or(0, |i| i.0);
                relocs.push((
                    r.r_offset(e).into(),
                    sym_name(sym),
                    r.r_type(e, false),
                    r.r_addend(e).into(),
                ));
            }
        }
        if let Some((rels, _)) = s.rel(e, data).unwrap() {
            for r in rels {
                let sym = r.symbol(e).map_or(0, |i| i.0);
                relocs.push((r.r_offset(e).into(), sym_name(sym), r.r_type(e), 0));
            }
        }
    }
    (
        h.e_flags(e),
        h.e_ident().os_abi,
        h.e_ident().abi_version,
        names,
        syms,
        relocs,
    )
}

#[test]
fn object_reads_what_the_writer_lays_out() {
    for with_addend in [true, false] {
        for class in [Class::Elf32, Class::Elf64] {
            let bytes = sample(class, with_addend);
            let seen = match class {
                Class::Elf32 => read::<FileHeader32<LE>>(&bytes),
                Class::Elf64 => read::<FileHeader64<LE>>(&bytes),
            };
            let rel = if with_addend {
                ".rela.rodata"
            } else {
                ".rel.rodata"
            };
            let names: Vec<&str> = seen.3.iter().map(String::as_str).collect();
            assert_eq!(
                names,
                [
                    "",
                    ".text",
                    ".rodata",
                    ".note",
                    rel,
                    ".symtab",
                    ".strtab",
                    ".shstrtab"
                ]
            );
            assert_eq!((seen.0, seen.1, seen.2), (0x42c, 64, 2));
            // Locals first (sh_info), then globals in the order they were added.
            let syms: Vec<(&str, u8, u8, u8)> = seen
                .4
                .iter()
                .map(|(n, b, t, v)| (n.as_str(), *b, *t, *v))
                .collect();
            assert_eq!(syms, [("here", 0, 0, 0), ("k", 1, 2, 3), ("k.kd", 1, 1, 3)]);
            let addend = if with_addend { 20 } else { 0 };
            assert_eq!(seen.5, [(16, "k".to_string(), 5, addend)]);
        }
    }
}
