//! r600 ELF32 relocatable objects, laid out like clang's for `-mcpu=cayman`:
//! `.text` (256-byte aligned), `.AMDGPU.config` ((register, value) pairs,
//! split evenly among the kernels by loaders such as Mesa's), `.symtab` with
//! one GLOBAL FUNC symbol per kernel, sized to its program. Written with the
//! workspace's ISA-neutral ELF writer.

use risa_elf::write::{Class, ElfWriter, SectionSpec, SymbolSpec, STB_GLOBAL};

/// `e_flags` of Cayman objects (EF_AMDGPU_MACH_R600_CAYMAN).
pub const EF_CAYMAN: u32 = 0xf;

/// One kernel symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSym {
    /// Name.
    pub name: String,
    /// Offset in `.text`.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// Build the object.
pub fn write_object(text: &[u8], config: &[(u32, u32)], kernels: &[KernelSym]) -> Vec<u8> {
    let mut w = ElfWriter::new(Class::Elf32, risa_elf::EM_AMDGPU);
    w.flags = EF_CAYMAN;
    let text_index = w.add_section(SectionSpec::code(".text", text.to_vec(), 256));
    let cfg: Vec<u8> = config
        .iter()
        .flat_map(|(r, v)| r.to_le_bytes().into_iter().chain(v.to_le_bytes()))
        .collect();
    // clang's .AMDGPU.config is PROGBITS without SHF_ALLOC.
    let mut config_section = SectionSpec::rodata(".AMDGPU.config", cfg, 1);
    config_section.flags = 0;
    w.add_section(config_section);
    for k in kernels {
        w.add_symbol(SymbolSpec {
            name: k.name.clone(),
            value: u64::from(k.offset),
            size: u64::from(k.size),
            section: Some(text_index),
            bind: STB_GLOBAL,
            kind: risa_elf::STT_FUNC,
            other: 0,
        });
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_reads_back() {
        let text: Vec<u8> = (0..40u8).collect();
        let o = write_object(
            &text,
            &[(0x288d4, 2), (0x2880c, 0), (0x288e8, 0)],
            &[KernelSym {
                name: "k".into(),
                offset: 0,
                size: 40,
            }],
        );
        let e = risa_elf::Elf::parse(&o).unwrap();
        assert!(!e.is64);
        assert_eq!(e.machine, risa_elf::EM_AMDGPU);
        assert_eq!(e.section_by_name(".text").unwrap().data, &text[..]);
        assert_eq!(e.section_by_name(".AMDGPU.config").unwrap().data.len(), 24);
        let k = e.symbols.iter().find(|s| s.name == "k").unwrap();
        assert_eq!((k.value, k.size, k.sym_type), (0, 40, risa_elf::STT_FUNC));
    }
}
