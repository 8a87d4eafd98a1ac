//! AMDHSA code objects (code object version 4, ELF64 relocatable) from an
//! assembled source: `.text`, `.rodata` with one 64-byte kernel descriptor
//! per kernel (`<name>.kd`), an `R_AMDGPU_REL64` relocation from each
//! descriptor to its code, and an `NT_AMDGPU_METADATA` note (MessagePack).
//! The layout follows what `llvm-mc -filetype=obj` writes for the same
//! `.amdhsa_kernel` blocks (AMDGPUUsage, "Code Object V4").

use crate::kernel::Kernel;
use crate::Assembled;
use risa_elf::write::{self, Class, ElfWriter, Rela, SectionSpec, SymbolSpec};
use risa_gcn::{Feature, Processor};
use risa_metadata::Value;

/// `EI_OSABI` of AMDHSA code objects.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// `EI_ABIVERSION` of code object version 4.
pub const ABI_VERSION_V4: u8 = 2;
/// `R_AMDGPU_REL64`: S + A - P, 64 bits.
pub const R_AMDGPU_REL64: u32 = 5;
/// Note type of the MessagePack metadata.
pub const NT_AMDGPU_METADATA: u32 = 32;
/// `st_type` of section symbols.
const STT_SECTION: u8 = 3;
/// `EF_AMDGPU_FEATURE_XNACK_ANY_V4`.
const XNACK_ANY_V4: u32 = 0x100;
/// `EF_AMDGPU_FEATURE_SRAMECC_ANY_V4`.
const SRAMECC_ANY_V4: u32 = 0x400;

/// The e_flags clang writes for `chip` by default (code object v4/v5): the
/// machine, and XNACK and SRAMECC "any" where the chip supports them.
pub fn default_eflags(chip: &Processor) -> u32 {
    let f = chip.features;
    chip.mach
        | if f.has(Feature::XnackSupport) {
            XNACK_ANY_V4
        } else {
            0
        }
        | if f.has(Feature::SrameccSupport) {
            SRAMECC_ANY_V4
        } else {
            0
        }
}

/// A metadata map key and its value.
fn kv(k: &str, v: impl Into<Value>) -> (Value, Value) {
    (Value::from(k), v.into())
}

/// The metadata map (code object v4: `amdhsa.version` 1.1), as MessagePack.
fn metadata(chip: &Processor, kernels: &[(&Kernel, u32, u32)]) -> Vec<u8> {
    let kernels = kernels.iter().map(|(k, sgprs, vgprs)| {
        let args = k.args.iter().map(|a| {
            let mut m = Vec::new();
            if !a.name.is_empty() {
                m.push(kv(".name", a.name.as_str()));
            }
            if !a.type_name.is_empty() {
                m.push(kv(".type_name", a.type_name.as_str()));
            }
            m.push(kv(".offset", a.offset));
            m.push(kv(".size", a.size));
            m.push(kv(".value_kind", a.value_kind.as_str()));
            if let Some(s) = &a.address_space {
                m.push(kv(".address_space", s.as_str()));
            }
            Value::Map(m)
        });
        Value::Map(vec![
            kv(".args", Value::Array(args.collect())),
            kv(".group_segment_fixed_size", k.group_segment_fixed_size),
            kv(".kernarg_segment_align", 8),
            kv(".kernarg_segment_size", k.kernarg_size()),
            kv(".max_flat_workgroup_size", k.max_flat_workgroup_size),
            kv(".name", k.name.as_str()),
            kv(".private_segment_fixed_size", k.private_segment_fixed_size),
            kv(".sgpr_count", *sgprs),
            kv(".symbol", format!("{}.kd", k.name)),
            kv(".vgpr_count", *vgprs),
            kv(".wavefront_size", 64),
        ])
    });
    risa_metadata::to_msgpack(&Value::Map(vec![
        kv("amdhsa.kernels", Value::Array(kernels.collect())),
        kv("amdhsa.target", format!("amdgcn-amd-amdhsa--{}", chip.name)),
        kv(
            "amdhsa.version",
            Value::Array(vec![Value::from(1), Value::from(1)]),
        ),
    ]))
}

/// Why [`build`] could not make a code object of an assembled source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeObjectError {
    /// Neither `--arch` nor `.gpu` chose a chip.
    #[error("no GPU architecture selected (use --arch or .gpu)")]
    NoArch,
    /// The source has no `.text`.
    #[error("no .text section")]
    NoText,
    /// An `.amdhsa_kernel` block placed outside `.rodata`.
    #[error("the descriptor of kernel '{kernel}' is in section '{section}'; put .amdhsa_kernel in .rodata")]
    DescriptorSection {
        /// The kernel.
        kernel: String,
        /// The section its descriptor is in.
        section: String,
    },
    /// A kernel whose label is not defined.
    #[error("kernel '{0}' has no code: define the label '{0}:'")]
    NoCode(String),
    /// A kernel whose label is in another section than `.text`.
    #[error("kernel label '{0}' is not in .text")]
    LabelNotInText(String),
    /// The source's `.amdgpu_metadata` YAML does not read.
    #[error(".amdgpu_metadata: {0}")]
    Metadata(#[from] risa_metadata::Error),
    /// An `.elf_symbol` in a section that has no content (so is not written).
    #[error(".elf_symbol {symbol}: section {section} is not written (empty?)")]
    ElfSymbolSectionEmpty {
        /// The symbol.
        symbol: String,
        /// Its section.
        section: String,
    },
    /// An `.elf_symbol` in a section the source does not have.
    #[error(".elf_symbol {symbol}: no section {section}")]
    ElfSymbolNoSection {
        /// The symbol.
        symbol: String,
        /// Its section.
        section: String,
    },
    /// A relocation whose target is in a section other than `.text`/`.rodata`.
    #[error("relocation against section '{0}': only .text and .rodata are written")]
    RelocationTarget(String),
    /// A relocation in a section other than `.text`/`.rodata`.
    #[error("relocation in a section that is not written")]
    RelocationSection,
}

impl From<CodeObjectError> for String {
    fn from(e: CodeObjectError) -> String {
        e.to_string()
    }
}

/// Builds the code object of an assembled source (which must be free of errors).
pub fn build(a: &Assembled) -> Result<Vec<u8>, CodeObjectError> {
    let chip = a.backend.chip.ok_or(CodeObjectError::NoArch)?;
    let gen = chip.gen;
    let out = &a.output;
    let text_id = out
        .sections
        .iter()
        .position(|s| s.name == ".text")
        .ok_or(CodeObjectError::NoText)?;
    let text = out.sections[text_id].data.clone();
    let mut rodata = out
        .section(".rodata")
        .map(|s| s.data.clone())
        .unwrap_or_default();
    let rodata_id = out.sections.iter().position(|s| s.name == ".rodata");
    let (used_v, used_s) = (a.backend.max_vgpr, a.backend.max_sgpr);
    let kernels = &a.backend.kernels.list;
    let mut w = ElfWriter::new(Class::Elf64, risa_elf::EM_AMDGPU);
    w.flags = a.backend.kernels.eflags.unwrap_or(default_eflags(chip));
    w.osabi = ELFOSABI_AMDGPU_HSA;
    // EI_ABIVERSION is the code object version minus 2 (v4: 2, v5: 3).
    w.abi_version = match a.backend.kernels.code_object_version {
        Some(v @ 5..=6) => (v - 2) as u8,
        _ => ABI_VERSION_V4,
    };
    // Where each descriptor goes in .rodata.
    let mut kd_offsets = Vec::new();
    for k in kernels {
        let off = match k.kd_at {
            Some((sec, off)) if Some(sec.0 as usize) == rodata_id => off,
            Some((sec, _)) => {
                return Err(CodeObjectError::DescriptorSection {
                    kernel: k.name.clone(),
                    section: out.sections[sec.0 as usize].name.clone(),
                })
            }
            None => {
                while !rodata.len().is_multiple_of(64) {
                    rodata.push(0);
                }
                rodata.extend_from_slice(&[0; 64]);
                (rodata.len() - 64) as u64
            }
        };
        kd_offsets.push(off);
    }
    let mut meta = Vec::new();
    let mut relas = Vec::new();
    for (k, &off) in kernels.iter().zip(&kd_offsets) {
        let sym = out
            .symbol(&k.name)
            .and_then(|s| s.value)
            .ok_or_else(|| CodeObjectError::NoCode(k.name.clone()))?;
        if sym.section.map(|s| s.0 as usize) != Some(text_id) {
            return Err(CodeObjectError::LabelNotInText(k.name.clone()));
        }
        let d = k.descriptor(gen, used_v, used_s, 0);
        rodata[off as usize..off as usize + 64].copy_from_slice(&d);
        relas.push(Rela {
            offset: off + 16,
            symbol: k.name.clone(),
            kind: R_AMDGPU_REL64,
            addend: 16 + k.entry_offset as i64,
        });
        let vgprs = k.next_free_vgpr.unwrap_or(used_v);
        meta.push((k, k.sgpr_count(gen, used_s), vgprs));
    }
    // The source's own `.amdgpu_metadata` (clang's), or metadata made from the kernels.
    let note_desc = match &a.backend.kernels.metadata_yaml {
        _ if a.backend.kernels.metadata_msgpack.is_some() => a
            .backend
            .kernels
            .metadata_msgpack
            .clone()
            .unwrap_or_default(),
        Some(y) => risa_metadata::to_msgpack(&risa_metadata::from_yaml(y)?),
        None => metadata(chip, &meta),
    };
    let t = w.add_section(SectionSpec::code(".text", text, 256));
    let r = w.add_section(SectionSpec::rodata(".rodata", rodata, 64));
    w.add_section(SectionSpec {
        name: ".note".into(),
        sh_type: write::SHT_NOTE,
        flags: write::SHF_ALLOC,
        align: 4,
        data: match &a.backend.kernels.note_bytes {
            Some(b) => b.clone(),
            None => write::note("AMDGPU", NT_AMDGPU_METADATA, &note_desc),
        },
        entsize: 0,
    });
    // Every other section with content (`.data`, `.bss`, named sections) is
    // written too, so nothing the source put in the file is lost.
    let mut other = std::collections::HashMap::new();
    for (i, sec) in out.sections.iter().enumerate() {
        use risa_asm_core::SectionKind;
        let skip = i == text_id
            || Some(i) == rodata_id
            || sec.size == 0
            || sec.name == ".risa.control_directive"
            || matches!(sec.kind, SectionKind::Absolute | SectionKind::Config);
        if skip {
            continue;
        }
        let mut flags = 0;
        for ch in sec.flags.chars() {
            flags |= match ch {
                'a' => write::SHF_ALLOC,
                'w' => write::SHF_WRITE,
                'x' => risa_elf::SHF_EXECINSTR,
                _ => 0,
            };
        }
        let nobits = sec.kind == SectionKind::NoBits;
        let idx = w.add_section(SectionSpec {
            name: sec.name.clone(),
            sh_type: if nobits {
                risa_elf::SHT_NOBITS
            } else {
                write::SHT_PROGBITS
            },
            flags,
            align: sec.align.max(1),
            data: if nobits {
                vec![0; sec.size as usize]
            } else {
                sec.data.clone()
            },
            entsize: 0,
        });
        other.insert(i, idx);
    }
    // Kernel code symbols and descriptors (FUNC and OBJECT, protected, unless
    // the source's `.type`/`.hidden`/... say otherwise); other labels with
    // their `.type`, visibility, binding (`.globl`, `.weak`) and `.size`.
    // Assembler-local labels (`.L...`) are not written, as in GNU as.
    let attrs = |name: &str| {
        a.backend
            .symbol_attrs
            .get(name)
            .copied()
            .unwrap_or_default()
    };
    let size_of = |name: &str| out.symbol(name).and_then(|s| s.size).unwrap_or(0);
    for (k, &off) in kernels.iter().zip(&kd_offsets) {
        let v = out
            .symbol(&k.name)
            .and_then(|s| s.value)
            .map_or(0, |v| v.value);
        let at = attrs(&k.name);
        w.add_symbol(SymbolSpec {
            name: k.name.clone(),
            value: v,
            size: size_of(&k.name),
            section: Some(t),
            bind: write::STB_GLOBAL,
            kind: at.kind.unwrap_or(risa_elf::STT_FUNC),
            other: at.visibility.unwrap_or(write::STV_PROTECTED),
        });
        let kd = format!("{}.kd", k.name);
        let at = attrs(&kd);
        w.add_symbol(SymbolSpec {
            value: off,
            size: 64,
            section: Some(r),
            bind: write::STB_GLOBAL,
            kind: at.kind.unwrap_or(risa_elf::STT_OBJECT),
            other: at.visibility.unwrap_or(write::STV_PROTECTED),
            name: kd,
        });
    }
    for s in &out.symbols {
        let Some(v) = s.value else { continue };
        if !s.is_label || s.name.starts_with(".L") || kernels.iter().any(|k| k.name == s.name) {
            continue;
        }
        let section = match v.section.map(|x| x.0 as usize) {
            Some(i) if i == text_id => t,
            Some(i) if Some(i) == rodata_id => r,
            Some(i) => match other.get(&i) {
                Some(&x) => x,
                None => continue,
            },
            None => continue,
        };
        let at = attrs(&s.name);
        w.add_symbol(SymbolSpec {
            name: s.name.clone(),
            value: v.value,
            size: s.size.unwrap_or(0),
            section: Some(section),
            bind: if s.weak {
                write::STB_WEAK
            } else if s.global {
                write::STB_GLOBAL
            } else {
                write::STB_LOCAL
            },
            kind: at.kind.unwrap_or(0),
            other: at.visibility.unwrap_or(0),
        });
    }
    // `.elf_symbol`: as given.
    for rs in &a.backend.kernels.raw_symbols {
        let section = match rs.section.as_str() {
            "undef" => None,
            "abs" => Some(write::SectionIndex(0xfff1)),
            ".text" => Some(t),
            ".rodata" => Some(r),
            n => match out.sections.iter().position(|s| s.name == n) {
                Some(i) => match other.get(&i) {
                    Some(&x) => Some(x),
                    None => {
                        return Err(CodeObjectError::ElfSymbolSectionEmpty {
                            symbol: rs.name.clone(),
                            section: n.to_string(),
                        })
                    }
                },
                None => {
                    return Err(CodeObjectError::ElfSymbolNoSection {
                        symbol: rs.name.clone(),
                        section: n.to_string(),
                    })
                }
            },
        };
        w.add_symbol(SymbolSpec {
            name: rs.name.clone(),
            value: rs.value,
            size: rs.size,
            section,
            bind: rs.bind,
            kind: rs.kind,
            other: rs.other,
        });
    }
    // Literal relocations (`sym@rel32@lo`), against section symbols as clang writes them.
    let mut text_relas = Vec::new();
    let mut need_sym = [false, false];
    for e in &a.backend.relocs {
        // A global or weak label at the target: relocate against it by name
        // (as ELF assemblers do); anything else through its section's symbol.
        let named = out.symbols.iter().find(|s| {
            s.is_label
                && (s.global || s.weak)
                && s.value
                    .is_some_and(|v| v.section == e.target.section && v.value == e.target.value)
        });
        let (symbol, addend) = match e.target.section.map(|x| x.0 as usize) {
            _ if named.is_some() => (named.map(|s| s.name.clone()).unwrap_or_default(), e.addend),
            None => (String::new(), e.target.value as i64 + e.addend),
            Some(i) if i == text_id => {
                need_sym[0] = true;
                (".text".to_string(), e.target.value as i64 + e.addend)
            }
            Some(i) if Some(i) == rodata_id => {
                need_sym[1] = true;
                (".rodata".to_string(), e.target.value as i64 + e.addend)
            }
            Some(i) => {
                return Err(CodeObjectError::RelocationTarget(
                    out.sections[i].name.clone(),
                ))
            }
        };
        let rela = Rela {
            offset: e.offset,
            symbol,
            kind: e.kind,
            addend,
        };
        match e.section.0 as usize {
            i if i == text_id => text_relas.push(rela),
            i if Some(i) == rodata_id => relas.push(rela),
            _ => return Err(CodeObjectError::RelocationSection),
        }
    }
    for (need, (name, sec)) in need_sym.iter().zip([(".text", t), (".rodata", r)]) {
        if *need {
            w.add_symbol(SymbolSpec {
                name: name.into(),
                value: 0,
                size: 0,
                section: Some(sec),
                bind: write::STB_LOCAL,
                kind: STT_SECTION,
                other: 0,
            });
        }
    }
    w.add_relas(t, text_relas);
    w.add_relas(r, relas);
    Ok(w.finish())
}
