//! What an r600 object holds besides `.text`, `.AMDGPU.config` and the
//! kernel symbols, written back exactly (`risa disasm` prints these lines
//! for every object, so disassemble → assemble gives the same file):
//!
//! ```text
//! .elf_section NAME, "FLAGS", @nobits|@progbits, ALIGN[, SIZE]   ; a section (SIZE: @nobits)
//! .elf_bytes B, B, ...                                 ; contents of the last @progbits one
//! .elf_symbol NAME, SECTION, VALUE, SIZE, TYPE, BIND[, VISIBILITY]
//! .elf_reloc SECTION, OFFSET, TYPE, SYMBOL             ; a SHT_REL entry (`.rel<SECTION>`)
//! ```
//!
//! TYPE of a symbol: `notype`, `object`, `func`, `section`, `file` (or a
//! number); BIND `local`, `global`, `weak`; VISIBILITY `default`,
//! `internal`, `hidden`, `protected`; SECTION a section name (`.text`, one
//! of `.elf_section`) or `abs`. A relocation's TYPE is the `R_AMDGPU_*`
//! number (6: `R_AMDGPU_ABS32`); SYMBOL an `.elf_symbol` name. FLAGS: `a`
//! alloc, `w` write, `x` exec.

/// An extra section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtraSection {
    /// Name.
    pub name: String,
    /// `sh_flags`.
    pub flags: u64,
    /// `SHT_NOBITS` (else `SHT_PROGBITS`).
    pub nobits: bool,
    /// `sh_addralign`.
    pub align: u64,
    /// Size of a `@nobits` section.
    pub size: u64,
    /// Contents of a `@progbits` section.
    pub data: Vec<u8>,
}

/// An extra symbol.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtraSymbol {
    /// Name.
    pub name: String,
    /// Section name (`None`: absolute).
    pub section: Option<String>,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `STT_*`.
    pub kind: u8,
    /// `STB_*`.
    pub bind: u8,
    /// `st_other`.
    pub other: u8,
}

/// An extra relocation (`SHT_REL`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtraReloc {
    /// The patched section.
    pub section: String,
    /// Offset in it.
    pub offset: u64,
    /// `R_AMDGPU_*`.
    pub kind: u32,
    /// Symbol name.
    pub symbol: String,
}

/// Everything the `.elf_*` lines of a source gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElfExtras {
    /// Sections, in source order.
    pub sections: Vec<ExtraSection>,
    /// Symbols, in source order.
    pub symbols: Vec<ExtraSymbol>,
    /// Relocations, in source order.
    pub relocs: Vec<ExtraReloc>,
}

/// The names of symbol types, bindings and visibilities, by number.
pub const TYPES: [&str; 5] = ["notype", "object", "func", "section", "file"];
/// See [`TYPES`].
pub const BINDS: [&str; 3] = ["local", "global", "weak"];
/// See [`TYPES`].
pub const VISIBILITIES: [&str; 4] = ["default", "internal", "hidden", "protected"];

/// Why an `.elf_*` directive was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtrasError {
    /// Not one of the given names nor a number below the limit.
    #[error("expected one of {names} or a number below {limit}")]
    NotNamed {
        /// The accepted names, comma-separated.
        names: String,
        /// The exclusive bound on a numeric value.
        limit: u64,
    },
    /// Not a decimal or 0x-hex number.
    #[error("expected a number, not '{0}'")]
    NotNumber(String),
    /// `.elf_section` with the wrong operand count.
    #[error("expected NAME, \"FLAGS\", @nobits|@progbits, ALIGN[, SIZE]")]
    SectionOperands,
    /// A section flag other than a, w, x.
    #[error("unknown section flag '{0}' (a, w, x)")]
    SectionFlag(char),
    /// A section kind other than `@nobits`/`@progbits`.
    #[error("expected @nobits or @progbits, not '{0}'")]
    SectionKind(String),
    /// `.elf_bytes` without a preceding `@progbits` section.
    #[error(".elf_bytes needs an @progbits .elf_section before it")]
    BytesWithoutSection,
    /// An `.elf_bytes` value above 0xff.
    #[error("{0:#x} is not a byte")]
    NotByte(u64),
    /// `.elf_symbol` with the wrong operand count.
    #[error("expected NAME, SECTION, VALUE, SIZE, TYPE, BIND[, VISIBILITY]")]
    SymbolOperands,
    /// `.elf_reloc` with the wrong operand count.
    #[error("expected SECTION, OFFSET, TYPE, SYMBOL")]
    RelocOperands,
    /// A relocation type above 0xff.
    #[error("an r600 relocation type is 8 bits")]
    RelocType,
}

/// A word of `names` or a number below `limit`.
pub fn named(t: &str, names: &[&str], limit: u64) -> Result<u64, ExtrasError> {
    let t = t.trim();
    if let Some(p) = names.iter().position(|n| n.eq_ignore_ascii_case(t)) {
        return Ok(p as u64);
    }
    let v = match t.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    };
    match v {
        Some(v) if v < limit => Ok(v),
        _ => Err(ExtrasError::NotNamed {
            names: names.join(", "),
            limit,
        }),
    }
}

/// A number (decimal or 0x-hex).
pub fn number(t: &str) -> Result<u64, ExtrasError> {
    let t = t.trim();
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    };
    v.ok_or_else(|| ExtrasError::NotNumber(t.to_string()))
}

impl ElfExtras {
    /// Handles `.elf_*` directive `name` with the operands `parts`; `None`
    /// if `name` is not one, else the error, if any.
    pub fn directive(&mut self, name: &str, parts: &[&str]) -> Option<Result<(), ExtrasError>> {
        let r = match name {
            ".elf_section" => self.section(parts),
            ".elf_bytes" => self.bytes(parts),
            ".elf_symbol" => self.symbol(parts),
            ".elf_reloc" => self.reloc(parts),
            _ => return None,
        };
        Some(r)
    }

    fn section(&mut self, p: &[&str]) -> Result<(), ExtrasError> {
        if p.len() < 4 || p.len() > 5 {
            return Err(ExtrasError::SectionOperands);
        }
        let flags = p[1].trim().trim_matches('"');
        let mut f = 0;
        for ch in flags.chars() {
            f |= match ch {
                'w' => 1,
                'a' => 2,
                'x' => 4,
                _ => return Err(ExtrasError::SectionFlag(ch)),
            };
        }
        let nobits = match p[2].trim().trim_start_matches(['@', '%']) {
            "nobits" => true,
            "progbits" => false,
            t => return Err(ExtrasError::SectionKind(t.to_string())),
        };
        let size = match p.get(4) {
            Some(s) => number(s)?,
            None => 0,
        };
        self.sections.push(ExtraSection {
            name: p[0].trim().to_string(),
            flags: f,
            nobits,
            align: number(p[3])?,
            size,
            data: Vec::new(),
        });
        Ok(())
    }

    fn bytes(&mut self, p: &[&str]) -> Result<(), ExtrasError> {
        let Some(s) = self.sections.last_mut().filter(|s| !s.nobits) else {
            return Err(ExtrasError::BytesWithoutSection);
        };
        for t in p {
            let v = number(t)?;
            if v > 0xff {
                return Err(ExtrasError::NotByte(v));
            }
            s.data.push(v as u8);
        }
        Ok(())
    }

    fn symbol(&mut self, p: &[&str]) -> Result<(), ExtrasError> {
        if p.len() < 6 || p.len() > 7 {
            return Err(ExtrasError::SymbolOperands);
        }
        let sec = p[1].trim();
        self.symbols.push(ExtraSymbol {
            name: p[0].trim().to_string(),
            section: (sec != "abs").then(|| sec.to_string()),
            value: number(p[2])?,
            size: number(p[3])?,
            kind: named(p[4], &TYPES, 16)? as u8,
            bind: named(p[5], &BINDS, 16)? as u8,
            other: match p.get(6) {
                Some(v) => named(v, &VISIBILITIES, 256)? as u8,
                None => 0,
            },
        });
        Ok(())
    }

    fn reloc(&mut self, p: &[&str]) -> Result<(), ExtrasError> {
        if p.len() != 4 {
            return Err(ExtrasError::RelocOperands);
        }
        let kind = number(p[2])?;
        if kind > 0xff {
            return Err(ExtrasError::RelocType);
        }
        self.relocs.push(ExtraReloc {
            section: p[0].trim().to_string(),
            offset: number(p[1])?,
            kind: kind as u32,
            symbol: p[3].trim().to_string(),
        });
        Ok(())
    }
}
