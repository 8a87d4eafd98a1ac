//! r600 ELF32 relocatable objects, laid out like clang's for `-mcpu=cayman`:
//! `.text` (256-byte aligned), `.AMDGPU.config` ((register, value) pairs,
//! split evenly among the kernels by loaders such as Mesa's), `.symtab` with
//! one GLOBAL FUNC symbol per kernel, sized to its program. Written with the
//! workspace's ISA-neutral ELF writer.

use crate::extras::ElfExtras;
use risa_elf::write::{
    self, Class, ElfWriter, Rela, SectionIndex, SectionSpec, SymbolSpec, STB_GLOBAL,
};

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

/// Why an r600 object could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectError {
    /// The source has no `.text`.
    #[error("no .text section")]
    NoText,
    /// A CF program larger than ELF32 sizes hold.
    #[error("program too large for ELF32")]
    TooLarge,
    /// `.config_reg` pairs that do not divide among the kernels.
    #[error("{pairs} .config_reg pairs cannot be split evenly among {kernels} kernels")]
    UnevenConfig {
        /// `.config_reg` pairs.
        pairs: usize,
        /// Kernels.
        kernels: usize,
    },
    /// `.elf_section` naming a section twice.
    #[error("section {0} is given twice")]
    SectionTwice(String),
    /// An `.elf_symbol` in a section there is not.
    #[error("no section named {0}")]
    NoSection(String),
    /// An `.elf_reloc` in a section there is not.
    #[error("relocation in {0}: no such section")]
    RelocationSection(String),
}

impl From<ObjectError> for String {
    fn from(e: ObjectError) -> String {
        e.to_string()
    }
}

/// Build the object: `.text`, `.AMDGPU.config`, the kernel symbols, and the
/// sections, symbols and `SHT_REL` relocations of `extras`.
pub fn write_object(
    text: &[u8],
    config: &[(u32, u32)],
    kernels: &[KernelSym],
    extras: &ElfExtras,
) -> Result<Vec<u8>, ObjectError> {
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
    let config_index = w.add_section(config_section);
    let mut index: Vec<(String, SectionIndex)> = vec![
        (".text".into(), text_index),
        (".AMDGPU.config".into(), config_index),
    ];
    for s in &extras.sections {
        if index.iter().any(|(n, _)| *n == s.name) {
            return Err(ObjectError::SectionTwice(s.name.clone()));
        }
        let i = w.add_section(SectionSpec {
            name: s.name.clone(),
            sh_type: if s.nobits {
                risa_elf::SHT_NOBITS
            } else {
                write::SHT_PROGBITS
            },
            flags: s.flags,
            align: s.align,
            data: if s.nobits {
                vec![0; s.size as usize]
            } else {
                s.data.clone()
            },
            entsize: 0,
        });
        index.push((s.name.clone(), i));
    }
    let find = |n: &str| {
        index
            .iter()
            .find(|(x, _)| x == n)
            .map(|(_, i)| *i)
            .ok_or_else(|| ObjectError::NoSection(n.to_string()))
    };
    for s in &extras.symbols {
        w.add_symbol(SymbolSpec {
            name: s.name.clone(),
            value: s.value,
            size: s.size,
            section: match &s.section {
                Some(n) => Some(find(n)?),
                None => None,
            },
            bind: s.bind,
            kind: s.kind,
            other: s.other,
        });
    }
    for (name, sec) in &index {
        let rels: Vec<Rela> = extras
            .relocs
            .iter()
            .filter(|r| r.section == *name)
            .map(|r| Rela {
                offset: r.offset,
                symbol: r.symbol.clone(),
                kind: r.kind,
                addend: 0,
            })
            .collect();
        w.add_rels(*sec, rels);
    }
    if let Some(r) = extras
        .relocs
        .iter()
        .find(|r| !index.iter().any(|(n, _)| *n == r.section))
    {
        return Err(ObjectError::RelocationSection(r.section.clone()));
    }
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
    Ok(w.finish())
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
            &ElfExtras::default(),
        )
        .unwrap();
        let e = risa_elf::Elf::parse(&o).unwrap();
        assert!(!e.is64);
        assert_eq!(e.machine, risa_elf::EM_AMDGPU);
        assert_eq!(e.section_by_name(".text").unwrap().data, &text[..]);
        assert_eq!(e.section_by_name(".AMDGPU.config").unwrap().data.len(), 24);
        let k = e.symbols.iter().find(|s| s.name == "k").unwrap();
        assert_eq!((k.value, k.size, k.sym_type), (0, 40, risa_elf::STT_FUNC));
    }
}
