//! r600 ELF32 relocatable objects, laid out like clang's for `-mcpu=cayman`:
//! `.text` (256-byte aligned), `.AMDGPU.config` ((register, value) pairs,
//! split evenly among the kernels by loaders such as Mesa's), `.symtab` with
//! one GLOBAL FUNC symbol per kernel, sized to its program.
//!
//! The generic ELF writer of the workspace (GCN side) was not in main when
//! this was written; this is a small self-contained emitter for the one
//! object shape r600 needs.

/// `e_flags` of Cayman objects (EF_AMDGPU_MACH_R600_CAYMAN).
pub const EF_CAYMAN: u32 = 0xf;
const EM_AMDGPU: u16 = 0xe0;

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

fn push_u16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn push_u32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn align(v: &mut Vec<u8>, a: usize) {
    while !v.len().is_multiple_of(a) {
        v.push(0);
    }
}

/// Build the object.
pub fn write_object(text: &[u8], config: &[(u32, u32)], kernels: &[KernelSym]) -> Vec<u8> {
    // string table (section names and symbol names, as clang shares them)
    let mut strtab = vec![0u8];
    let name = |s: &str, t: &mut Vec<u8>| -> u32 {
        let o = t.len() as u32;
        t.extend_from_slice(s.as_bytes());
        t.push(0);
        o
    };
    let n_strtab = name(".strtab", &mut strtab);
    let n_text = name(".text", &mut strtab);
    let n_config = name(".AMDGPU.config", &mut strtab);
    let n_symtab = name(".symtab", &mut strtab);
    let sym_names: Vec<u32> = kernels.iter().map(|k| name(&k.name, &mut strtab)).collect();

    let mut symtab = vec![0u8; 16]; // null symbol
    for (k, n) in kernels.iter().zip(&sym_names) {
        push_u32(&mut symtab, *n);
        push_u32(&mut symtab, k.offset);
        push_u32(&mut symtab, k.size);
        symtab.push((1 << 4) | 2); // GLOBAL FUNC
        symtab.push(0);
        push_u16(&mut symtab, 2); // .text
    }
    let mut cfg = Vec::with_capacity(config.len() * 8);
    for (r, v) in config {
        push_u32(&mut cfg, *r);
        push_u32(&mut cfg, *v);
    }

    let mut out = vec![0u8; 52];
    align(&mut out, 256);
    let text_off = out.len();
    out.extend_from_slice(text);
    let cfg_off = out.len();
    out.extend_from_slice(&cfg);
    align(&mut out, 4);
    let sym_off = out.len();
    out.extend_from_slice(&symtab);
    let str_off = out.len();
    out.extend_from_slice(&strtab);
    align(&mut out, 4);
    let sh_off = out.len();
    // section headers: NULL, .strtab, .text, .AMDGPU.config, .symtab
    let sh = |out: &mut Vec<u8>, f: [u32; 10]| {
        for x in f {
            push_u32(out, x);
        }
    };
    sh(&mut out, [0; 10]);
    sh(
        &mut out,
        [
            n_strtab,
            3,
            0,
            0,
            str_off as u32,
            strtab.len() as u32,
            0,
            0,
            1,
            0,
        ],
    );
    sh(
        &mut out,
        [
            n_text,
            1,
            6,
            0,
            text_off as u32,
            text.len() as u32,
            0,
            0,
            256,
            0,
        ],
    );
    sh(
        &mut out,
        [
            n_config,
            1,
            0,
            0,
            cfg_off as u32,
            cfg.len() as u32,
            0,
            0,
            1,
            0,
        ],
    );
    // sh_link = .strtab, sh_info = first non-local symbol (1), entsize 16
    sh(
        &mut out,
        [
            n_symtab,
            2,
            0,
            0,
            sym_off as u32,
            symtab.len() as u32,
            1,
            1,
            4,
            16,
        ],
    );

    // ELF header
    let mut h = Vec::with_capacity(52);
    h.extend_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1, 1, 0]);
    h.extend_from_slice(&[0; 8]);
    push_u16(&mut h, 1); // ET_REL
    push_u16(&mut h, EM_AMDGPU);
    push_u32(&mut h, 1);
    push_u32(&mut h, 0); // entry
    push_u32(&mut h, 0); // phoff
    push_u32(&mut h, sh_off as u32);
    push_u32(&mut h, EF_CAYMAN);
    push_u16(&mut h, 52);
    push_u16(&mut h, 0);
    push_u16(&mut h, 0);
    push_u16(&mut h, 40);
    push_u16(&mut h, 5);
    push_u16(&mut h, 1); // shstrndx = .strtab
    out[..52].copy_from_slice(&h);
    out
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
