//! An ELF writer: ELF32 or ELF64 little-endian relocatable files with
//! sections, a symbol table, notes and RELA relocations. ISA-neutral: the
//! caller gives the machine, flags and ABI bytes.
//!
//! ```
//! use risa_elf::write::{ElfWriter, Class, SectionSpec, SymbolSpec, STB_GLOBAL};
//! let mut w = ElfWriter::new(Class::Elf64, risa_elf::EM_AMDGPU);
//! let text = w.add_section(SectionSpec::code(".text", vec![0, 0, 0x81, 0xbf], 256));
//! w.add_symbol(SymbolSpec {
//!     name: "k".into(), value: 0, size: 4, section: Some(text),
//!     bind: STB_GLOBAL, kind: risa_elf::STT_FUNC, other: 0,
//! });
//! let bytes = w.finish();
//! let elf = risa_elf::Elf::parse(&bytes).unwrap();
//! assert_eq!(elf.section_by_name(".text").unwrap().data, [0, 0, 0x81, 0xbf]);
//! ```

use object::elf;
use object::endian::{LittleEndian as LE, U16, U32, U64};
use object::pod::bytes_of;
use object::{I32, I64};

/// `sh_type` of program data.
pub const SHT_PROGBITS: u32 = elf::SHT_PROGBITS;
/// `sh_type` of a string table.
pub const SHT_STRTAB: u32 = elf::SHT_STRTAB;
/// `sh_type` of relocations with addends.
pub const SHT_RELA: u32 = elf::SHT_RELA;
/// `sh_type` of a note section.
pub const SHT_NOTE: u32 = elf::SHT_NOTE;
/// `sh_flags`: writable.
pub const SHF_WRITE: u64 = elf::SHF_WRITE as u64;
/// `sh_flags`: occupies memory at run time.
pub const SHF_ALLOC: u64 = elf::SHF_ALLOC as u64;
/// `sh_flags`: `sh_info` holds a section index.
pub const SHF_INFO_LINK: u64 = elf::SHF_INFO_LINK as u64;
/// Symbol binding: local.
pub const STB_LOCAL: u8 = elf::STB_LOCAL;
/// Symbol binding: global.
pub const STB_GLOBAL: u8 = elf::STB_GLOBAL;
/// Symbol binding: weak.
pub const STB_WEAK: u8 = elf::STB_WEAK;
/// `st_other` visibility: protected.
pub const STV_PROTECTED: u8 = elf::STV_PROTECTED;
/// `e_type` of relocatable files.
pub const ET_REL: u16 = elf::ET_REL;

/// ELF class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// 32-bit.
    Elf32,
    /// 64-bit.
    Elf64,
}

/// Index of a section added to an [`ElfWriter`] (its final header index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionIndex(pub u16);

/// A section to write.
#[derive(Debug, Clone)]
pub struct SectionSpec {
    /// Name.
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// Alignment (power of two, at least 1).
    pub align: u64,
    /// Contents (for `SHT_NOBITS` only its length counts).
    pub data: Vec<u8>,
    /// `sh_entsize`.
    pub entsize: u64,
}

impl SectionSpec {
    /// An executable `PROGBITS` section.
    pub fn code(name: &str, data: Vec<u8>, align: u64) -> Self {
        SectionSpec {
            name: name.into(),
            sh_type: SHT_PROGBITS,
            flags: SHF_ALLOC | crate::SHF_EXECINSTR,
            align,
            data,
            entsize: 0,
        }
    }
    /// A read-only data section.
    pub fn rodata(name: &str, data: Vec<u8>, align: u64) -> Self {
        SectionSpec {
            name: name.into(),
            sh_type: SHT_PROGBITS,
            flags: SHF_ALLOC,
            align,
            data,
            entsize: 0,
        }
    }
}

/// A symbol to write.
#[derive(Debug, Clone)]
pub struct SymbolSpec {
    /// Name.
    pub name: String,
    /// Value (offset in its section for relocatable files).
    pub value: u64,
    /// Size in bytes.
    pub size: u64,
    /// Section, or `None` for undefined/absolute.
    pub section: Option<SectionIndex>,
    /// Binding (`STB_*`).
    pub bind: u8,
    /// Type (`STT_*`).
    pub kind: u8,
    /// `st_other` (visibility).
    pub other: u8,
}

/// A relocation with addend, applied to `section`.
#[derive(Debug, Clone)]
pub struct Rela {
    /// Offset in the section.
    pub offset: u64,
    /// Name of the symbol (must be added with [`ElfWriter::add_symbol`]).
    pub symbol: String,
    /// Relocation type (machine-specific).
    pub kind: u32,
    /// Addend.
    pub addend: i64,
}

/// A note: name, type, description (padded to 4 bytes as ELF requires).
pub fn note(name: &str, kind: u32, desc: &[u8]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
    v.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    v.extend_from_slice(&kind.to_le_bytes());
    v.extend_from_slice(name.as_bytes());
    v.push(0);
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
    v.extend_from_slice(desc);
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
    v
}

/// Builds an ELF file.
#[derive(Debug, Clone)]
pub struct ElfWriter {
    /// ELF class.
    pub class: Class,
    /// `e_machine`.
    pub machine: u16,
    /// `e_flags`.
    pub flags: u32,
    /// `EI_OSABI`.
    pub osabi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// `e_type`.
    pub e_type: u16,
    sections: Vec<SectionSpec>,
    symbols: Vec<SymbolSpec>,
    /// Relocations per patched section; `true`: with addends (`SHT_RELA`).
    relas: Vec<(SectionIndex, Vec<Rela>, bool)>,
}

impl ElfWriter {
    /// A relocatable file for `machine`.
    pub fn new(class: Class, machine: u16) -> Self {
        ElfWriter {
            class,
            machine,
            flags: 0,
            osabi: 0,
            abi_version: 0,
            e_type: ET_REL,
            sections: Vec::new(),
            symbols: Vec::new(),
            relas: Vec::new(),
        }
    }

    /// Adds a section; its header index is returned (index 0 is the null section).
    pub fn add_section(&mut self, s: SectionSpec) -> SectionIndex {
        self.sections.push(s);
        SectionIndex(self.sections.len() as u16)
    }

    /// Adds a symbol (locals are sorted before globals when written).
    pub fn add_symbol(&mut self, s: SymbolSpec) {
        self.symbols.push(s);
    }

    /// Adds relocations for `section` (written as `.rela<name>`).
    pub fn add_relas(&mut self, section: SectionIndex, relas: Vec<Rela>) {
        if !relas.is_empty() {
            self.relas.push((section, relas, true));
        }
    }

    /// Adds relocations without addends for `section` (written as
    /// `.rel<name>`, `SHT_REL`, the addend being in the patched bytes, as
    /// r600 objects have them); each entry's `addend` is ignored.
    pub fn add_rels(&mut self, section: SectionIndex, rels: Vec<Rela>) {
        if !rels.is_empty() {
            self.relas.push((section, rels, false));
        }
    }

    /// Lays the file out and returns its bytes.
    pub fn finish(&self) -> Vec<u8> {
        let is64 = self.class == Class::Elf64;
        let (ehsize, shentsize, symsize, relasize) = if is64 {
            (64u64, 64u64, 24usize, 24u64)
        } else {
            (52, 40, 16, 12)
        };
        // Symbols: null, locals, then globals (sh_info = first global).
        let mut syms: Vec<&SymbolSpec> = self
            .symbols
            .iter()
            .filter(|s| s.bind == STB_LOCAL)
            .collect();
        let first_global = syms.len() + 1;
        syms.extend(self.symbols.iter().filter(|s| s.bind != STB_LOCAL));
        let mut strtab = vec![0u8];
        let mut shstrtab = vec![0u8];
        let add_str = |t: &mut Vec<u8>, s: &str| -> u32 {
            let o = t.len() as u32;
            t.extend_from_slice(s.as_bytes());
            t.push(0);
            o
        };
        // Section list: user sections, rela sections, .symtab, .strtab, .shstrtab.
        struct Out {
            name: u32,
            sh_type: u32,
            flags: u64,
            align: u64,
            data: Vec<u8>,
            entsize: u64,
            link: u32,
            info: u32,
        }
        let mut out: Vec<Out> = Vec::new();
        for s in &self.sections {
            out.push(Out {
                name: add_str(&mut shstrtab, &s.name),
                sh_type: s.sh_type,
                flags: s.flags,
                align: s.align.max(1),
                data: s.data.clone(),
                entsize: s.entsize,
                link: 0,
                info: 0,
            });
        }
        let n_user = out.len();
        let symtab_index = (n_user + self.relas.len() + 1) as u32;
        let sym_index = |name: &str| -> u32 {
            syms.iter()
                .position(|s| s.name == name)
                .map_or(0, |p| p as u32 + 1)
        };
        for (sec, relas, with_addend) in &self.relas {
            let mut data = Vec::new();
            for r in relas {
                let si = sym_index(&r.symbol);
                match (is64, *with_addend) {
                    (true, true) => data.extend_from_slice(bytes_of(&elf::Rela64 {
                        r_offset: U64::new(LE, r.offset),
                        r_info: elf::Rela64::r_info(LE, false, si, r.kind),
                        r_addend: I64::new(LE, r.addend),
                    })),
                    (true, false) => data.extend_from_slice(bytes_of(&elf::Rel64 {
                        r_offset: U64::new(LE, r.offset),
                        r_info: elf::Rel64::r_info(LE, si, r.kind),
                    })),
                    (false, true) => data.extend_from_slice(bytes_of(&elf::Rela32 {
                        r_offset: U32::new(LE, r.offset as u32),
                        r_info: elf::Rel32::r_info(LE, si, r.kind as u8),
                        r_addend: I32::new(LE, r.addend as i32),
                    })),
                    (false, false) => data.extend_from_slice(bytes_of(&elf::Rel32 {
                        r_offset: U32::new(LE, r.offset as u32),
                        r_info: elf::Rel32::r_info(LE, si, r.kind as u8),
                    })),
                }
            }
            let prefix = if *with_addend { ".rela" } else { ".rel" };
            let name = format!("{prefix}{}", self.sections[sec.0 as usize - 1].name);
            out.push(Out {
                name: add_str(&mut shstrtab, &name),
                sh_type: if *with_addend {
                    SHT_RELA
                } else {
                    crate::SHT_REL
                },
                flags: SHF_INFO_LINK,
                align: if is64 { 8 } else { 4 },
                data,
                entsize: if *with_addend {
                    relasize
                } else if is64 {
                    16
                } else {
                    8
                },
                link: symtab_index,
                info: u32::from(sec.0),
            });
        }
        let mut symdata = vec![0u8; symsize];
        for s in &syms {
            let name = add_str(&mut strtab, &s.name);
            let shndx = s.section.map_or(0, |i| i.0);
            let info = (s.bind << 4) | (s.kind & 15);
            if is64 {
                symdata.extend_from_slice(bytes_of(&elf::Sym64 {
                    st_name: U32::new(LE, name),
                    st_info: info,
                    st_other: s.other,
                    st_shndx: U16::new(LE, shndx),
                    st_value: U64::new(LE, s.value),
                    st_size: U64::new(LE, s.size),
                }));
            } else {
                symdata.extend_from_slice(bytes_of(&elf::Sym32 {
                    st_name: U32::new(LE, name),
                    st_value: U32::new(LE, s.value as u32),
                    st_size: U32::new(LE, s.size as u32),
                    st_info: info,
                    st_other: s.other,
                    st_shndx: U16::new(LE, shndx),
                }));
            }
        }
        let symtab_name = add_str(&mut shstrtab, ".symtab");
        let strtab_name = add_str(&mut shstrtab, ".strtab");
        let shstrtab_name = add_str(&mut shstrtab, ".shstrtab");
        out.push(Out {
            name: symtab_name,
            sh_type: crate::SHT_SYMTAB,
            flags: 0,
            align: if is64 { 8 } else { 4 },
            data: symdata,
            entsize: symsize as u64,
            link: symtab_index + 1,
            info: first_global as u32,
        });
        out.push(Out {
            name: strtab_name,
            sh_type: SHT_STRTAB,
            flags: 0,
            align: 1,
            data: strtab,
            entsize: 0,
            link: 0,
            info: 0,
        });
        out.push(Out {
            name: shstrtab_name,
            sh_type: SHT_STRTAB,
            flags: 0,
            align: 1,
            data: shstrtab,
            entsize: 0,
            link: 0,
            info: 0,
        });
        // Layout: header, section contents (aligned), section headers.
        let mut file = vec![0u8; ehsize as usize];
        let mut offsets = Vec::with_capacity(out.len());
        for s in &out {
            let a = s.align as usize;
            while !file.len().is_multiple_of(a) {
                file.push(0);
            }
            offsets.push(file.len() as u64);
            if s.sh_type != crate::SHT_NOBITS {
                file.extend_from_slice(&s.data);
            }
        }
        while !file.len().is_multiple_of(8) {
            file.push(0);
        }
        let shoff = file.len() as u64;
        // Null section header.
        file.extend(std::iter::repeat_n(0u8, shentsize as usize));
        for (s, &off) in out.iter().zip(&offsets) {
            let size = s.data.len() as u64;
            // The two classes' section headers differ only in the width of four fields.
            macro_rules! section_header {
                ($header:ident, $word:ident, $to_word:ty) => {
                    file.extend_from_slice(bytes_of(&elf::$header {
                        sh_name: U32::new(LE, s.name),
                        sh_type: U32::new(LE, s.sh_type),
                        sh_flags: $word::new(LE, s.flags as $to_word),
                        sh_addr: $word::new(LE, 0),
                        sh_offset: $word::new(LE, off as $to_word),
                        sh_size: $word::new(LE, size as $to_word),
                        sh_link: U32::new(LE, s.link),
                        sh_info: U32::new(LE, s.info),
                        sh_addralign: $word::new(LE, s.align as $to_word),
                        sh_entsize: $word::new(LE, s.entsize as $to_word),
                    }))
                };
            }
            if is64 {
                section_header!(SectionHeader64, U64, u64);
            } else {
                section_header!(SectionHeader32, U32, u32);
            }
        }
        let shnum = out.len() as u16 + 1;
        let shstrndx = shnum - 1;
        // ELF header.
        let ident = elf::Ident {
            magic: elf::ELFMAG,
            class: if is64 {
                elf::ELFCLASS64
            } else {
                elf::ELFCLASS32
            },
            data: elf::ELFDATA2LSB,
            version: elf::EV_CURRENT,
            os_abi: self.osabi,
            abi_version: self.abi_version,
            padding: [0; 7],
        };
        // The two classes' headers differ only in the width of the address fields.
        macro_rules! file_header {
            ($header:ident, $word:ident, $to_word:ty) => {
                bytes_of(&elf::$header {
                    e_ident: ident,
                    e_type: U16::new(LE, self.e_type),
                    e_machine: U16::new(LE, self.machine),
                    e_version: U32::new(LE, u32::from(elf::EV_CURRENT)),
                    e_entry: $word::new(LE, 0),
                    e_phoff: $word::new(LE, 0),
                    e_shoff: $word::new(LE, shoff as $to_word),
                    e_flags: U32::new(LE, self.flags),
                    e_ehsize: U16::new(LE, ehsize as u16),
                    e_phentsize: U16::new(LE, 0),
                    e_phnum: U16::new(LE, 0),
                    e_shentsize: U16::new(LE, shentsize as u16),
                    e_shnum: U16::new(LE, shnum),
                    e_shstrndx: U16::new(LE, shstrndx),
                })
                .to_vec()
            };
        }
        let h = if is64 {
            file_header!(FileHeader64, U64, u64)
        } else {
            file_header!(FileHeader32, U32, u32)
        };
        file[..ehsize as usize].copy_from_slice(&h);
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Elf;

    #[test]
    fn sections_symbols_and_relocations_read_back() {
        for class in [Class::Elf32, Class::Elf64] {
            let mut w = ElfWriter::new(class, crate::EM_AMDGPU);
            w.flags = 0x2c;
            let t = w.add_section(SectionSpec::code(".text", vec![1, 2, 3, 4], 256));
            let r = w.add_section(SectionSpec::rodata(".rodata", vec![0; 64], 64));
            w.add_section(SectionSpec {
                name: ".note".into(),
                sh_type: SHT_NOTE,
                flags: SHF_ALLOC,
                align: 4,
                data: note("AMDGPU", 32, b"\x80"),
                entsize: 0,
            });
            w.add_symbol(SymbolSpec {
                name: "k.kd".into(),
                value: 0,
                size: 64,
                section: Some(r),
                bind: STB_GLOBAL,
                kind: crate::STT_OBJECT,
                other: 0,
            });
            w.add_symbol(SymbolSpec {
                name: "k".into(),
                value: 0,
                size: 4,
                section: Some(t),
                bind: STB_GLOBAL,
                kind: crate::STT_FUNC,
                other: STV_PROTECTED,
            });
            w.add_symbol(SymbolSpec {
                name: "local".into(),
                value: 2,
                size: 0,
                section: Some(t),
                bind: STB_LOCAL,
                kind: 0,
                other: 0,
            });
            w.add_relas(
                r,
                vec![Rela {
                    offset: 16,
                    symbol: "k".into(),
                    kind: 5,
                    addend: 16,
                }],
            );
            let bytes = w.finish();
            let e = Elf::parse(&bytes).unwrap();
            assert_eq!(e.flags, 0x2c);
            assert_eq!(e.section_by_name(".text").unwrap().data, [1, 2, 3, 4]);
            assert_eq!(e.section_by_name(".rodata").unwrap().data.len(), 64);
            assert!(e.section_by_name(".rela.rodata").is_some());
            let text = e.section_by_name(".text").unwrap().index;
            let names: Vec<_> = e.symbols_in(text).iter().map(|s| s.name.clone()).collect();
            assert!(names.contains(&"k".to_string()) && names.contains(&"local".to_string()));
        }
    }
}
