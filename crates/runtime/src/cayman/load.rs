//! Loader for r600 ELF objects from `clang -target r600-- -mcpu=cayman`
//! (see ABI-NOTES): `.text` holds every kernel (256-byte aligned, a GLOBAL
//! FUNC symbol each) plus the constant tables libclc needs, `.AMDGPU.config`
//! holds (register, value) pairs split evenly among the kernels in address
//! order, `.rel.text` (R_AMDGPU_ABS32) points literals at those tables.

use risa_cayman_emu::program::Program;
use risa_cayman_emu::Kernel;

/// SQ_PGM_RESOURCES_LS: NUM_GPRS bits 7:0, STACK_SIZE bits 15:8.
pub const SQ_PGM_RESOURCES_LS: u32 = 0x0288D4;
/// SQ_LDS_ALLOC: static LDS size in dwords.
pub const SQ_LDS_ALLOC: u32 = 0x0288E8;
/// R_AMDGPU_ABS32 relocation type.
pub const R_AMDGPU_ABS32: u32 = 6;

/// Why an r600 object cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The bytes are not an ELF file risa can read.
    #[error("not a readable ELF file: {0}")]
    Elf(String),
    /// The ELF file is not an r600 object, or its kernels cannot be found.
    #[error("{0}")]
    Kernels(String),
    /// There is no code.
    #[error("object has no .text section")]
    NoText,
    /// A `.rel.text` entry cannot be applied.
    #[error(".rel.text entry {entry}: {why}")]
    Relocation {
        /// Index of the entry in `.rel.text`.
        entry: usize,
        /// What is wrong with it.
        why: String,
    },
    /// `.AMDGPU.config` cannot be split among the kernels.
    #[error(".AMDGPU.config has {pairs} register pairs, not a multiple of the {kernels} kernels")]
    Config {
        /// Register pairs in the section.
        pairs: usize,
        /// Kernels in the object.
        kernels: usize,
    },
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    b.get(o..o + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Load every kernel of an r600 ELF object.
pub fn load(elf_bytes: &[u8]) -> Result<Vec<Kernel>, LoadError> {
    let elf = risa_elf::Elf::parse(elf_bytes).map_err(|e| LoadError::Elf(e.to_string()))?;
    let ks = risa_cayman::kernels(elf_bytes).map_err(|e| LoadError::Kernels(e.message))?;
    let Some(text_sec) = elf.section_by_name(".text") else {
        return Err(LoadError::NoText);
    };
    let text_idx = text_sec.index;
    let mut text = text_sec.data.to_vec();
    // relocations against .text (REL: implicit addends)
    for s in elf.sections.iter().filter(|s| s.name == ".rel.text") {
        for (entry, e) in s.data.chunks_exact(8).enumerate() {
            let bad = |why: String| Err(LoadError::Relocation { entry, why });
            let off = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize;
            let info = u32::from_le_bytes([e[4], e[5], e[6], e[7]]);
            let (sym, ty) = ((info >> 8) as usize, info & 0xff);
            if ty != R_AMDGPU_ABS32 {
                return bad(format!(
                    "relocation type {ty} is not supported (only R_AMDGPU_ABS32)"
                ));
            }
            let Some(sy) = sym.checked_sub(1).and_then(|i| elf.symbols.get(i)) else {
                return bad(format!("symbol index {sym} out of range"));
            };
            if sy.shndx as usize != text_idx {
                return bad(format!(
                    "symbol {:?} is not in .text (only .text is bound, as vertex buffer 2)",
                    sy.name
                ));
            }
            let Some(a) = u32_at(&text, off) else {
                return bad(format!("offset 0x{off:x} outside .text"));
            };
            let v = a.wrapping_add(sy.value as u32);
            text[off..off + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    let cfg: Vec<(u32, u32)> = elf
        .section_by_name(".AMDGPU.config")
        .map(|s| {
            s.data
                .chunks_exact(8)
                .map(|c| {
                    (
                        u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                        u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let per = if ks.is_empty() {
        0
    } else {
        cfg.len() / ks.len()
    };
    if per * ks.len() != cfg.len() {
        return Err(LoadError::Config {
            pairs: cfg.len(),
            kernels: ks.len(),
        });
    }
    let llvm = elf.section_by_name(".comment").is_some_and(|c| {
        let t = String::from_utf8_lossy(c.data);
        t.contains("clang version") || t.contains("LLVM")
    });
    let mut out = Vec::new();
    for (n, k) in ks.iter().enumerate() {
        let config = cfg[n * per..(n + 1) * per].to_vec();
        let mut num_gprs = 0;
        let mut stack_size = 0;
        let mut lds = 0;
        for &(r, v) in &config {
            match r {
                SQ_PGM_RESOURCES_LS => {
                    num_gprs = v & 0xff;
                    stack_size = (v >> 8) & 0xff;
                }
                SQ_LDS_ALLOC => lds = v * 4,
                _ => {}
            }
        }
        let start = k.offset as usize;
        let code = &text[start..start + k.code.len()];
        out.push(Kernel {
            name: k.name.clone(),
            offset: k.offset,
            program: Program::lower(code),
            text: text.clone(),
            num_gprs,
            stack_size,
            lds_bytes: lds,
            config,
            made_by_llvm: llvm,
        });
    }
    Ok(out)
}
