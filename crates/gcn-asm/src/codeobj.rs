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

/// A tiny MessagePack writer (the subset the metadata needs).
struct Pack(Vec<u8>);

impl Pack {
    fn map(&mut self, n: usize) {
        if n < 16 {
            self.0.push(0x80 | n as u8);
        } else {
            self.0.push(0xde);
            self.0.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    fn array(&mut self, n: usize) {
        if n < 16 {
            self.0.push(0x90 | n as u8);
        } else {
            self.0.push(0xdc);
            self.0.extend_from_slice(&(n as u16).to_be_bytes());
        }
    }
    fn str(&mut self, s: &str) {
        let n = s.len();
        if n < 32 {
            self.0.push(0xa0 | n as u8);
        } else if n < 256 {
            self.0.push(0xd9);
            self.0.push(n as u8);
        } else {
            self.0.push(0xda);
            self.0.extend_from_slice(&(n as u16).to_be_bytes());
        }
        self.0.extend_from_slice(s.as_bytes());
    }
    fn uint(&mut self, v: u64) {
        if v < 128 {
            self.0.push(v as u8);
        } else if v < 256 {
            self.0.extend_from_slice(&[0xcc, v as u8]);
        } else if v < 65536 {
            self.0.push(0xcd);
            self.0.extend_from_slice(&(v as u16).to_be_bytes());
        } else if v <= u64::from(u32::MAX) {
            self.0.push(0xce);
            self.0.extend_from_slice(&(v as u32).to_be_bytes());
        } else {
            self.0.push(0xcf);
            self.0.extend_from_slice(&v.to_be_bytes());
        }
    }
    fn kv_str(&mut self, k: &str, v: &str) {
        self.str(k);
        self.str(v);
    }
    fn kv_uint(&mut self, k: &str, v: u64) {
        self.str(k);
        self.uint(v);
    }
}

/// The metadata map (code object v4: `amdhsa.version` 1.1).
fn metadata(chip: &Processor, kernels: &[(&Kernel, u32, u32)]) -> Vec<u8> {
    let mut p = Pack(Vec::new());
    p.map(3);
    p.str("amdhsa.kernels");
    p.array(kernels.len());
    for (k, sgprs, vgprs) in kernels {
        p.map(11);
        p.str(".args");
        p.array(k.args.len());
        for a in &k.args {
            let n = 3
                + usize::from(!a.name.is_empty())
                + usize::from(!a.type_name.is_empty())
                + usize::from(a.address_space.is_some());
            p.map(n);
            if !a.name.is_empty() {
                p.kv_str(".name", &a.name);
            }
            if !a.type_name.is_empty() {
                p.kv_str(".type_name", &a.type_name);
            }
            p.kv_uint(".offset", u64::from(a.offset));
            p.kv_uint(".size", u64::from(a.size));
            p.kv_str(".value_kind", &a.value_kind);
            if let Some(s) = &a.address_space {
                p.kv_str(".address_space", s);
            }
        }
        p.kv_uint(
            ".group_segment_fixed_size",
            u64::from(k.group_segment_fixed_size),
        );
        p.kv_uint(".kernarg_segment_align", 8);
        p.kv_uint(".kernarg_segment_size", u64::from(k.kernarg_size()));
        p.kv_uint(
            ".max_flat_workgroup_size",
            u64::from(k.max_flat_workgroup_size),
        );
        p.kv_str(".name", &k.name);
        p.kv_uint(
            ".private_segment_fixed_size",
            u64::from(k.private_segment_fixed_size),
        );
        p.kv_uint(".sgpr_count", u64::from(*sgprs));
        p.kv_str(".symbol", &format!("{}.kd", k.name));
        p.kv_uint(".vgpr_count", u64::from(*vgprs));
        p.kv_uint(".wavefront_size", 64);
    }
    p.str("amdhsa.target");
    p.str(&format!("amdgcn-amd-amdhsa--{}", chip.name));
    p.str("amdhsa.version");
    p.array(2);
    p.uint(1);
    p.uint(1);
    p.0
}

/// Builds the code object of an assembled source (which must be free of errors).
pub fn build(a: &Assembled) -> Result<Vec<u8>, String> {
    let chip = a
        .backend
        .chip
        .ok_or("no GPU architecture selected (use --arch or .gpu)")?;
    let gen = chip.gen;
    let out = &a.output;
    let text_id = out
        .sections
        .iter()
        .position(|s| s.name == ".text")
        .ok_or("no .text section")?;
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
                return Err(format!(
                "the descriptor of kernel '{}' is in section '{}'; put .amdhsa_kernel in .rodata",
                k.name, out.sections[sec.0 as usize].name
            ))
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
        let sym = out.symbol(&k.name).and_then(|s| s.value).ok_or_else(|| {
            format!(
                "kernel '{}' has no code: define the label '{}:'",
                k.name, k.name
            )
        })?;
        if sym.section.map(|s| s.0 as usize) != Some(text_id) {
            return Err(format!("kernel label '{}' is not in .text", k.name));
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
        Some(y) => {
            let v = crate::yaml::parse(y).map_err(|e| format!(".amdgpu_metadata: {e}"))?;
            let mut out = Vec::new();
            crate::yaml::to_msgpack(&v, &mut out);
            out
        }
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
                        return Err(format!(
                            ".elf_symbol {}: section {n} is not written (empty?)",
                            rs.name
                        ))
                    }
                },
                None => return Err(format!(".elf_symbol {}: no section {n}", rs.name)),
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
                return Err(format!(
                    "relocation against section '{}': only .text and .rodata are written",
                    out.sections[i].name
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
            _ => return Err("relocation in a section that is not written".into()),
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
