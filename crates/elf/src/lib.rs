//! A small ELF reader for GPU code objects (ELF32 r600 objects and ELF64
//! amdgcn code objects).
//!
//! It borrows section contents from the input, checks every offset and size
//! against the input length, and reports truncated or malformed files as an
//! [`ElfError`] instead of panicking.
//!
//! ```
//! let err = risa_elf::Elf::parse(b"\x7fELF").unwrap_err();
//! assert!(err.to_string().contains("truncated"));
//! ```

#![warn(missing_docs)]
pub mod write;

/// `e_machine` of AMD GPU objects (r600 and amdgcn).
pub const EM_AMDGPU: u16 = object::elf::EM_AMDGPU;
/// `sh_type` of a symbol table.
pub const SHT_SYMTAB: u32 = object::elf::SHT_SYMTAB;
/// `sh_type` of sections that occupy no file space.
pub const SHT_NOBITS: u32 = object::elf::SHT_NOBITS;
/// `sh_flags` bit of executable sections.
pub const SHF_EXECINSTR: u64 = object::elf::SHF_EXECINSTR as u64;
/// `st_type` of functions.
pub const STT_FUNC: u8 = object::elf::STT_FUNC;
/// `st_type` of data objects.
pub const STT_OBJECT: u8 = object::elf::STT_OBJECT;

/// Why a file could not be read as ELF.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed ELF at byte {offset:#x}: {message}")]
pub struct ElfError {
    /// Byte offset in the file where the problem was found.
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

fn err<T>(offset: u64, message: impl Into<String>) -> Result<T, ElfError> {
    Err(ElfError {
        offset,
        message: message.into(),
    })
}

/// One section header with its contents.
#[derive(Debug, Clone)]
pub struct Section<'a> {
    /// Index in the section header table.
    pub index: usize,
    /// Name from the section-name string table (empty if it has none).
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// The bytes of the section (empty for `SHT_NOBITS`).
    pub data: &'a [u8],
    /// `sh_size` (also for `SHT_NOBITS`, whose `data` is empty).
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info` (for relocation sections: the section they patch).
    pub info: u32,
    /// `sh_addralign`.
    pub align: u64,
    /// `sh_entsize`.
    pub entsize: u64,
}

impl Section<'_> {
    /// Whether the section holds instructions.
    pub fn is_exec(&self) -> bool {
        self.flags & SHF_EXECINSTR != 0 && self.sh_type != SHT_NOBITS
    }
}

/// One symbol-table entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Symbol name.
    pub name: String,
    /// `st_value` (an offset in its section in relocatable objects, an address otherwise).
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `st_shndx`: the index of the section the symbol is defined in.
    pub shndx: u16,
    /// `st_info & 0xf`.
    pub sym_type: u8,
    /// `st_info >> 4`.
    pub bind: u8,
    /// `st_other` (its low 2 bits are the visibility: `STV_*`).
    pub other: u8,
}

/// One entry of a `SHT_RELA` (or `SHT_REL`) section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation {
    /// `r_offset`: where in the patched section.
    pub offset: u64,
    /// The symbol's index in [`Elf::symbols`] plus one (0: no symbol).
    pub symbol: usize,
    /// The relocation type (`R_AMDGPU_*`).
    pub kind: u32,
    /// `r_addend` (0 for `SHT_REL`).
    pub addend: i64,
}

/// `sh_type` of relocations with addends.
pub const SHT_RELA: u32 = object::elf::SHT_RELA;
/// `sh_type` of relocations without addends.
pub const SHT_REL: u32 = object::elf::SHT_REL;

/// A parsed ELF file that borrows the input bytes.
#[derive(Debug, Clone)]
pub struct Elf<'a> {
    /// ELF64 (`true`) or ELF32.
    pub is64: bool,
    /// `e_machine`.
    pub machine: u16,
    /// `e_flags`.
    pub flags: u32,
    /// `EI_OSABI`.
    pub osabi: u8,
    /// `EI_ABIVERSION`.
    pub abi_version: u8,
    /// `e_type` (1 relocatable, 2 executable, 3 shared object).
    pub kind: u16,
    /// All sections, in header order.
    pub sections: Vec<Section<'a>>,
    /// The symbols of `.symtab` (or, failing that, `.dynsym`), without the null symbol.
    pub symbols: Vec<Symbol>,
    /// The whole input.
    pub bytes: &'a [u8],
}

/// Little-endian field reader over the input, bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn slice(&self, off: u64, len: u64, what: &str) -> Result<&'a [u8], ElfError> {
        let end = off.checked_add(len);
        match end {
            Some(end) if end <= self.bytes.len() as u64 => Ok(&self.bytes[off as usize..end as usize]),
            _ => err(
                off,
                format!(
                    "{what} ({len} bytes at {off:#x}) runs past the end of the file ({} bytes): truncated?",
                    self.bytes.len()
                ),
            ),
        }
    }
    fn u8(&self, off: u64, what: &str) -> Result<u8, ElfError> {
        Ok(self.slice(off, 1, what)?[0])
    }
    fn u16(&self, off: u64, what: &str) -> Result<u16, ElfError> {
        let b = self.slice(off, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&self, off: u64, what: &str) -> Result<u32, ElfError> {
        let b = self.slice(off, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&self, off: u64, what: &str) -> Result<u64, ElfError> {
        let b = self.slice(off, 8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    /// A word-sized field: 4 bytes in ELF32, 8 in ELF64.
    fn word(&self, is64: bool, off: u64, what: &str) -> Result<u64, ElfError> {
        if is64 {
            self.u64(off, what)
        } else {
            self.u32(off, what).map(u64::from)
        }
    }
    fn cstr(&self, table: &'a [u8], off: u64) -> String {
        let start = (off as usize).min(table.len());
        let rest = &table[start..];
        let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
        String::from_utf8_lossy(&rest[..end]).into_owned()
    }
}

/// Whether `bytes` starts with the ELF magic number.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

impl<'a> Elf<'a> {
    /// Parses an ELF file, checking every header, offset and size against the input.
    pub fn parse(bytes: &'a [u8]) -> Result<Elf<'a>, ElfError> {
        let r = Reader { bytes };
        if bytes.len() < 16 {
            return err(
                0,
                format!(
                    "truncated: {} bytes is shorter than the ELF identification",
                    bytes.len()
                ),
            );
        }
        if !is_elf(bytes) {
            return err(0, "no ELF magic number (\\x7fELF)");
        }
        let is64 = match bytes[4] {
            1 => false,
            2 => true,
            c => return err(4, format!("unknown ELF class {c}")),
        };
        if bytes[5] != 1 {
            return err(
                5,
                "not a little-endian ELF file (AMD GPU objects are little-endian)",
            );
        }
        let osabi = bytes[7];
        let abi_version = bytes[8];
        let kind = r.u16(16, "e_type")?;
        let machine = r.u16(18, "e_machine")?;
        let (shoff, flags, shentsize, shnum, shstrndx) = if is64 {
            (
                r.u64(0x28, "e_shoff")?,
                r.u32(0x30, "e_flags")?,
                r.u16(0x3a, "e_shentsize")?,
                r.u16(0x3c, "e_shnum")?,
                r.u16(0x3e, "e_shstrndx")?,
            )
        } else {
            (
                u64::from(r.u32(0x20, "e_shoff")?),
                r.u32(0x24, "e_flags")?,
                r.u16(0x2e, "e_shentsize")?,
                r.u16(0x30, "e_shnum")?,
                r.u16(0x32, "e_shstrndx")?,
            )
        };
        let want_entsize: u16 = if is64 { 64 } else { 40 };
        if shnum > 0 && shentsize != want_entsize {
            return err(
                0,
                format!("section header size {shentsize}, expected {want_entsize}"),
            );
        }
        // Headers first, names once the string table is known.
        struct Raw {
            name: u32,
            sh_type: u32,
            flags: u64,
            addr: u64,
            offset: u64,
            size: u64,
            link: u32,
            info: u32,
            align: u64,
            entsize: u64,
        }
        let mut raws = Vec::with_capacity(shnum as usize);
        for i in 0..u64::from(shnum) {
            let h = shoff
                .checked_add(i * u64::from(want_entsize))
                .ok_or(ElfError {
                    offset: shoff,
                    message: "section header offset overflows".into(),
                })?;
            r.slice(h, u64::from(want_entsize), "section header")?;
            let raw = if is64 {
                Raw {
                    name: r.u32(h, "sh_name")?,
                    sh_type: r.u32(h + 4, "sh_type")?,
                    flags: r.u64(h + 8, "sh_flags")?,
                    addr: r.u64(h + 16, "sh_addr")?,
                    offset: r.u64(h + 24, "sh_offset")?,
                    size: r.u64(h + 32, "sh_size")?,
                    link: r.u32(h + 40, "sh_link")?,
                    info: r.u32(h + 44, "sh_info")?,
                    align: r.u64(h + 48, "sh_addralign")?,
                    entsize: r.u64(h + 56, "sh_entsize")?,
                }
            } else {
                Raw {
                    name: r.u32(h, "sh_name")?,
                    sh_type: r.u32(h + 4, "sh_type")?,
                    flags: u64::from(r.u32(h + 8, "sh_flags")?),
                    addr: u64::from(r.u32(h + 12, "sh_addr")?),
                    offset: u64::from(r.u32(h + 16, "sh_offset")?),
                    size: u64::from(r.u32(h + 20, "sh_size")?),
                    link: r.u32(h + 24, "sh_link")?,
                    info: r.u32(h + 28, "sh_info")?,
                    align: u64::from(r.u32(h + 32, "sh_addralign")?),
                    entsize: u64::from(r.u32(h + 36, "sh_entsize")?),
                }
            };
            raws.push(raw);
        }
        let data_of = |raw: &Raw, what: &str| -> Result<&'a [u8], ElfError> {
            if raw.sh_type == SHT_NOBITS || raw.sh_type == 0 {
                Ok(&[])
            } else {
                r.slice(raw.offset, raw.size, what)
            }
        };
        let shstr: &[u8] = match raws.get(shstrndx as usize) {
            Some(raw) => data_of(raw, "section name string table")?,
            None => &[],
        };
        let mut sections = Vec::with_capacity(raws.len());
        for (index, raw) in raws.iter().enumerate() {
            let name = r.cstr(shstr, u64::from(raw.name));
            let data = data_of(raw, &format!("section {name:?}"))?;
            sections.push(Section {
                index,
                name,
                sh_type: raw.sh_type,
                flags: raw.flags,
                addr: raw.addr,
                offset: raw.offset,
                data,
                size: raw.size,
                link: raw.link,
                info: raw.info,
                align: raw.align,
                entsize: raw.entsize,
            });
        }
        // Prefer the full symbol table; linked objects may only have .dynsym (type 11).
        let symtab = raws
            .iter()
            .position(|s| s.sh_type == SHT_SYMTAB)
            .or_else(|| raws.iter().position(|s| s.sh_type == 11));
        let mut symbols = Vec::new();
        if let Some(si) = symtab {
            let raw = &raws[si];
            let data = sections[si].data;
            let strtab: &[u8] = match raws.get(raw.link as usize) {
                Some(s) => data_of(s, "symbol string table")?,
                None => &[],
            };
            let entsize: u64 = if is64 { 24 } else { 16 };
            if raw.entsize != 0 && raw.entsize != entsize {
                return err(
                    raw.offset,
                    format!("symbol entry size {}, expected {entsize}", raw.entsize),
                );
            }
            let sr = Reader { bytes: data };
            let count = data.len() as u64 / entsize;
            for i in 1..count {
                let e = i * entsize;
                let (name, value, size, info, other, shndx) = if is64 {
                    (
                        sr.u32(e, "st_name")?,
                        sr.u64(e + 8, "st_value")?,
                        sr.u64(e + 16, "st_size")?,
                        sr.u8(e + 4, "st_info")?,
                        sr.u8(e + 5, "st_other")?,
                        sr.u16(e + 6, "st_shndx")?,
                    )
                } else {
                    (
                        sr.u32(e, "st_name")?,
                        sr.word(false, e + 4, "st_value")?,
                        sr.word(false, e + 8, "st_size")?,
                        sr.u8(e + 12, "st_info")?,
                        sr.u8(e + 13, "st_other")?,
                        sr.u16(e + 14, "st_shndx")?,
                    )
                };
                symbols.push(Symbol {
                    name: r.cstr(strtab, u64::from(name)),
                    value,
                    size,
                    shndx,
                    sym_type: info & 0xf,
                    bind: info >> 4,
                    other,
                });
            }
        }
        Ok(Elf {
            is64,
            machine,
            flags,
            osabi,
            abi_version,
            kind,
            sections,
            symbols,
            bytes,
        })
    }

    /// The first section with this name.
    pub fn section_by_name(&self, name: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The relocations that patch section `index` (from every `SHT_RELA` /
    /// `SHT_REL` section whose `sh_info` names it), in file order. Entries
    /// cut short by the end of their section are left out.
    pub fn relocations_for(&self, index: usize) -> Vec<Relocation> {
        let mut out = Vec::new();
        for s in &self.sections {
            if (s.sh_type != SHT_RELA && s.sh_type != SHT_REL) || s.info as usize != index {
                continue;
            }
            let rela = s.sh_type == SHT_RELA;
            let size = match (self.is64, rela) {
                (true, true) => 24,
                (true, false) => 16,
                (false, true) => 12,
                (false, false) => 8,
            };
            for e in s.data.chunks_exact(size) {
                let u32_at = |o: usize| u32::from_le_bytes([e[o], e[o + 1], e[o + 2], e[o + 3]]);
                let u64_at = |o: usize| u64::from(u32_at(o)) | u64::from(u32_at(o + 4)) << 32;
                out.push(if self.is64 {
                    let info = u64_at(8);
                    Relocation {
                        offset: u64_at(0),
                        symbol: (info >> 32) as usize,
                        kind: info as u32,
                        addend: if rela { u64_at(16) as i64 } else { 0 },
                    }
                } else {
                    let info = u32_at(4);
                    Relocation {
                        offset: u64::from(u32_at(0)),
                        symbol: (info >> 8) as usize,
                        kind: info & 0xff,
                        addend: if rela { i64::from(u32_at(8) as i32) } else { 0 },
                    }
                });
            }
        }
        out
    }

    /// The symbols defined in section `index`, sorted by value.
    pub fn symbols_in(&self, index: usize) -> Vec<&Symbol> {
        let mut v: Vec<&Symbol> = self
            .symbols
            .iter()
            .filter(|s| s.shndx as usize == index && !s.name.is_empty())
            .collect();
        v.sort_by_key(|s| s.value);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a minimal ELF64 with one executable section and one symbol.
    fn tiny_elf64() -> Vec<u8> {
        let code = [0x00u8, 0x00, 0x81, 0xbf];
        let shstr = b"\0.text\0.symtab\0.strtab\0";
        let strtab = b"\0k\0";
        let mut sym = vec![0u8; 48];
        sym[24..28].copy_from_slice(&1u32.to_le_bytes());
        sym[28] = (1 << 4) | STT_FUNC;
        sym[30..32].copy_from_slice(&1u16.to_le_bytes());
        sym[40..48].copy_from_slice(&4u64.to_le_bytes());
        let mut f = vec![0u8; 64];
        let code_off = f.len();
        f.extend_from_slice(&code);
        let shstr_off = f.len();
        f.extend_from_slice(shstr);
        let str_off = f.len();
        f.extend_from_slice(strtab);
        while !f.len().is_multiple_of(8) {
            f.push(0);
        }
        let sym_off = f.len();
        f.extend_from_slice(&sym);
        let shoff = f.len();
        let mut sh =
            |name: u32, ty: u32, flags: u64, off: usize, size: usize, link: u32, ent: u64| {
                let mut h = vec![0u8; 64];
                h[0..4].copy_from_slice(&name.to_le_bytes());
                h[4..8].copy_from_slice(&ty.to_le_bytes());
                h[8..16].copy_from_slice(&flags.to_le_bytes());
                h[24..32].copy_from_slice(&(off as u64).to_le_bytes());
                h[32..40].copy_from_slice(&(size as u64).to_le_bytes());
                h[40..44].copy_from_slice(&link.to_le_bytes());
                h[56..64].copy_from_slice(&ent.to_le_bytes());
                f.extend_from_slice(&h);
            };
        sh(0, 0, 0, 0, 0, 0, 0);
        sh(1, 1, 6, code_off, 4, 0, 0);
        sh(7, 2, 0, sym_off, 48, 4, 24);
        sh(15, 3, 0, shstr_off, shstr.len(), 0, 0);
        sh(15, 3, 0, str_off, strtab.len(), 0, 0);
        f[0..4].copy_from_slice(b"\x7fELF");
        f[4] = 2;
        f[5] = 1;
        f[6] = 1;
        f[18..20].copy_from_slice(&EM_AMDGPU.to_le_bytes());
        f[0x28..0x30].copy_from_slice(&(shoff as u64).to_le_bytes());
        f[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        f[0x3c..0x3e].copy_from_slice(&5u16.to_le_bytes());
        f[0x3e..0x40].copy_from_slice(&3u16.to_le_bytes());
        f
    }

    #[test]
    fn reads_sections_and_symbols() {
        let bytes = tiny_elf64();
        let elf = Elf::parse(&bytes).unwrap();
        assert!(elf.is64);
        assert_eq!(elf.machine, EM_AMDGPU);
        let text = elf.section_by_name(".text").unwrap();
        assert!(text.is_exec());
        assert_eq!(text.data, &[0x00, 0x00, 0x81, 0xbf]);
        assert_eq!(elf.symbols.len(), 1);
        assert_eq!(elf.symbols[0].name, "k");
        assert_eq!(elf.symbols[0].size, 4);
        assert_eq!(elf.symbols_in(1)[0].name, "k");
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = tiny_elf64();
        for n in 0..bytes.len() {
            // A prefix either parses (the cut was past everything read) or errors.
            let _ = Elf::parse(&bytes[..n]);
        }
        assert!(Elf::parse(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn corrupted_headers_never_panic() {
        let bytes = tiny_elf64();
        let mut state = 0x2545f491u32;
        for _ in 0..20000 {
            let mut b = bytes.clone();
            for _ in 0..4 {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let i = state as usize % b.len();
                b[i] = (state >> 8) as u8;
            }
            let _ = Elf::parse(&b);
        }
    }
}
