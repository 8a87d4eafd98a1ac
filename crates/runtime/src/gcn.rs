//! GCN code objects (amdhsa ELF `.o` and linked `.co`, code object v4/v5):
//! loading, relocation, kernel descriptors and metadata, and the dispatch
//! that sets up each wave's initial state as the hardware and ROCm would.

use crate::args::{ArgInfo, ArgKind};
use crate::error::{GcnLoadError, KernelError};
pub use crate::gcn_launch::{launch, launch_with_gds};
use risa_elf::Elf;
use risa_gcn::{Gen, Processor};
pub use risa_gcn_emu::gds::{Gds, GDS_BYTES};
use risa_metadata::{field, Value};

/// The 64-byte kernel descriptor.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// Static LDS bytes.
    pub group_segment_fixed_size: u32,
    /// Scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Kernarg segment bytes.
    pub kernarg_size: u32,
    /// Code entry relative to the descriptor.
    pub entry_offset: i64,
    /// COMPUTE_PGM_RSRC3 (GCN 1.4 and later).
    pub rsrc3: u32,
    /// COMPUTE_PGM_RSRC1.
    pub rsrc1: u32,
    /// COMPUTE_PGM_RSRC2.
    pub rsrc2: u32,
    /// kernel_code_properties.
    pub props: u16,
}

impl Descriptor {
    pub(crate) fn parse(b: &[u8]) -> Descriptor {
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        Descriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            entry_offset: i64::from_le_bytes(b[16..24].try_into().unwrap()),
            rsrc3: u32_at(44),
            rsrc1: u32_at(48),
            rsrc2: u32_at(52),
            props: u16::from_le_bytes([b[56], b[57]]),
        }
    }

    /// The MODE register at wave start: round modes, denormal modes, DX10_CLAMP, IEEE.
    pub fn initial_mode(&self) -> u32 {
        let r = self.rsrc1;
        let round = (r >> 12) & 0xf;
        let denorm = (r >> 16) & 0xf;
        let dx10 = (r >> 21) & 1;
        let ieee = (r >> 23) & 1;
        round | denorm << 4 | dx10 << 8 | ieee << 9
    }
}

/// One kernel of a code object.
#[derive(Debug, Clone)]
pub struct GcnKernel {
    /// Its name.
    pub name: String,
    /// Offset of its descriptor in the loaded image.
    pub desc_offset: u64,
    /// The descriptor (before relocation the entry may be 0).
    pub desc: Descriptor,
    /// Arguments, explicit and hidden, in kernarg order.
    pub args: Vec<ArgInfo>,
    /// Kernarg segment size from the metadata.
    pub kernarg_size: u32,
}

struct Reloc {
    /// Image offset of the place to patch.
    at: u64,
    kind: u32,
    /// Image offset of the symbol (S) plus addend (A).
    target: i64,
}

/// A loaded GCN code object.
pub struct GcnObject {
    /// The generation from the ELF header's chip.
    pub gen: Gen,
    /// The chip from the ELF header (`gfx900`): its features decide what decodes.
    pub chip: &'static Processor,
    /// Code object version (4 or 5).
    pub version: u32,
    /// The kernels.
    pub kernels: Vec<GcnKernel>,
    pub(crate) image: Vec<u8>,
    pub(crate) text: (u64, u64),
    relocs: Vec<Reloc>,
}

const SHF_ALLOC: u64 = 2;
const SHT_NOBITS: u32 = 8;
const SHT_RELA: u32 = 4;
const SHT_NOTE: u32 = 7;
const NT_AMDGPU_METADATA: u32 = 32;

fn metadata(elf: &Elf) -> Result<Value, GcnLoadError> {
    for s in elf.sections.iter().filter(|s| s.sh_type == SHT_NOTE) {
        let d = s.data;
        let mut at = 0usize;
        while at + 12 <= d.len() {
            let rd = |o: usize| u32::from_le_bytes(d[o..o + 4].try_into().unwrap()) as usize;
            let (namesz, descsz, ty) = (rd(at), rd(at + 4), rd(at + 8) as u32);
            let name_end = at + 12 + namesz;
            let desc_at = at + 12 + namesz.next_multiple_of(4);
            let desc_end = desc_at.saturating_add(descsz);
            if name_end > d.len() || desc_end > d.len() {
                return Err(GcnLoadError::TruncatedNote(s.name.to_string()));
            }
            if ty == NT_AMDGPU_METADATA && d[at + 12..name_end].starts_with(b"AMDGPU") {
                return risa_metadata::from_msgpack_prefix(&d[desc_at..desc_end])
                    .map(|(v, _)| v)
                    .map_err(|e| GcnLoadError::Msgpack(e.to_string()));
            }
            at = desc_at + descsz.next_multiple_of(4);
        }
    }
    Err(GcnLoadError::NoMetadata)
}

/// The string at `key` of a metadata map (bytes that are not UTF-8 replaced), or "".
fn str_field(map: &Value, key: &str) -> String {
    match field(map, key) {
        Some(Value::String(s)) => String::from_utf8_lossy(s.as_bytes()).into_owned(),
        _ => String::new(),
    }
}

/// The integer at `key` of a metadata map (an unsigned one above i64::MAX as its bits), or 0.
fn int_field(map: &Value, key: &str) -> i64 {
    field(map, key)
        .and_then(|v| v.as_i64().or_else(|| v.as_u64().map(|u| u as i64)))
        .unwrap_or(0)
}

/// The elements of the array at `key` of a metadata map (none when there is none).
fn list_field<'a>(map: &'a Value, key: &str) -> &'a [Value] {
    field(map, key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn arg_info(v: &Value) -> ArgInfo {
    let s = |k: &str| str_field(v, k);
    let n = |k: &str| int_field(v, k) as u32;
    let kind = s(".value_kind");
    ArgInfo {
        name: s(".name"),
        type_name: s(".type_name"),
        offset: n(".offset"),
        size: n(".size"),
        kind: match kind.as_str() {
            "global_buffer" => ArgKind::GlobalBuffer,
            "by_value" => ArgKind::ByValue,
            "dynamic_shared_pointer" => ArgKind::DynamicLds,
            "image" => ArgKind::Image,
            k if k.starts_with("hidden_") => ArgKind::Hidden(k.to_string()),
            k => ArgKind::Other(k.to_string()),
        },
        access: s(".access"),
    }
}

impl GcnObject {
    /// Parses an amdhsa ELF object (`.o` or linked `.co`).
    pub fn load(bytes: &[u8]) -> Result<GcnObject, GcnLoadError> {
        let elf = Elf::parse(bytes).map_err(|e| GcnLoadError::Elf(e.to_string()))?;
        if elf.machine != 0xe0 {
            return Err(GcnLoadError::NotAmdgpu(elf.machine));
        }
        let chip = Processor::by_mach(elf.flags & 0xff)
            .ok_or(GcnLoadError::UnknownChip(elf.flags & 0xff))?;
        let gen = chip.gen;
        let version = match elf.abi_version {
            0 | 1 => 3,
            2 => 4,
            3 => 5,
            v => return Err(GcnLoadError::AbiVersion(v)),
        };
        // Lay out the allocated sections: at their addresses in a linked object,
        // one after another (256-byte aligned) in a relocatable one.
        let linked = elf.kind == 3;
        let mut place = vec![None; elf.sections.len()];
        let mut end = 0u64;
        for s in elf.sections.iter().filter(|s| s.flags & SHF_ALLOC != 0) {
            let size = if s.sh_type == SHT_NOBITS {
                0
            } else {
                s.data.len() as u64
            };
            let at = if linked {
                s.addr
            } else {
                end.next_multiple_of(256)
            };
            place[s.index] = Some(at);
            end = end.max(at + size);
        }
        if end > 1 << 30 {
            return Err(GcnLoadError::TooLarge);
        }
        let mut image = vec![0u8; end as usize];
        for s in elf.sections.iter() {
            if let (Some(at), true) = (place[s.index], s.sh_type != SHT_NOBITS) {
                image[at as usize..at as usize + s.data.len()].copy_from_slice(s.data);
            }
        }
        let text = elf
            .section_by_name(".text")
            .and_then(|s| place[s.index].map(|a| (a, a + s.data.len() as u64)))
            .ok_or(GcnLoadError::NoText)?;
        // Relocations of relocatable objects (.rela.X patches section X).
        let mut relocs = Vec::new();
        if !linked {
            for rs in elf.sections.iter().filter(|s| s.sh_type == SHT_RELA) {
                let target = rs.name.strip_prefix(".rela").unwrap_or("");
                let Some(ts) = elf.section_by_name(target) else {
                    continue;
                };
                let Some(tbase) = place[ts.index] else {
                    continue;
                };
                for e in rs.data.chunks_exact(24) {
                    let off = u64::from_le_bytes(e[0..8].try_into().unwrap());
                    let info = u64::from_le_bytes(e[8..16].try_into().unwrap());
                    let addend = i64::from_le_bytes(e[16..24].try_into().unwrap());
                    let sym = (info >> 32) as usize;
                    let Some(sy) = sym.checked_sub(1).and_then(|i| elf.symbols.get(i)) else {
                        return Err(GcnLoadError::NoSymbol {
                            section: rs.name.to_string(),
                            symbol: sym,
                        });
                    };
                    let sbase = place
                        .get(sy.shndx as usize)
                        .copied()
                        .flatten()
                        .ok_or_else(|| GcnLoadError::Undefined(sy.name.to_string()))?;
                    relocs.push(Reloc {
                        at: tbase + off,
                        kind: info as u32,
                        target: (sbase + sy.value) as i64 + addend,
                    });
                }
            }
        }
        let md = metadata(&elf)?;
        let mut kernels = Vec::new();
        for k in list_field(&md, "amdhsa.kernels") {
            let name = str_field(k, ".name");
            let symbol = str_field(k, ".symbol");
            let sy = elf
                .symbols
                .iter()
                .find(|s| s.name == symbol)
                .ok_or_else(|| GcnLoadError::Kernel {
                    kernel: name.clone(),
                    why: format!("descriptor symbol {symbol:?} is missing"),
                })?;
            // Symbol values are addresses in a linked object, section offsets in a .o.
            let section_base =
                place
                    .get(sy.shndx as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| GcnLoadError::Kernel {
                        kernel: name.clone(),
                        why: "descriptor is not in a loaded section".into(),
                    })?;
            let desc_offset = if linked {
                sy.value
            } else {
                section_base + sy.value
            };
            let d = image
                .get(desc_offset as usize..desc_offset as usize + 64)
                .ok_or_else(|| GcnLoadError::Kernel {
                    kernel: name.clone(),
                    why: "descriptor is outside the image".into(),
                })?;
            let args = list_field(k, ".args").iter().map(arg_info).collect();
            kernels.push(GcnKernel {
                name,
                desc_offset,
                desc: Descriptor::parse(d),
                args,
                kernarg_size: int_field(k, ".kernarg_segment_size") as u32,
            });
        }
        if kernels.is_empty() {
            return Err(GcnLoadError::NoKernels);
        }
        Ok(GcnObject {
            gen,
            chip,
            version,
            kernels,
            image,
            text,
            relocs,
        })
    }

    /// The image as loaded at device address `base`, relocations applied.
    pub fn relocated(&self, base: u64) -> Result<Vec<u8>, GcnLoadError> {
        let mut img = self.image.clone();
        for r in &self.relocs {
            let p = base.wrapping_add(r.at);
            let s_a = base.wrapping_add(r.target as u64);
            let at = r.at as usize;
            let put = |img: &mut Vec<u8>, b: &[u8]| -> Result<(), GcnLoadError> {
                img.get_mut(at..at + b.len())
                    .ok_or(GcnLoadError::RelocationOutside(at))?
                    .copy_from_slice(b);
                Ok(())
            };
            match r.kind {
                1 => put(&mut img, &(s_a as u32).to_le_bytes())?, // ABS32_LO
                2 => put(&mut img, &((s_a >> 32) as u32).to_le_bytes())?, // ABS32_HI
                3 => put(&mut img, &s_a.to_le_bytes())?,          // ABS64
                4 | 10 => put(&mut img, &(s_a.wrapping_sub(p) as u32).to_le_bytes())?, // REL32(_LO)
                5 => put(&mut img, &s_a.wrapping_sub(p).to_le_bytes())?, // REL64
                6 => put(&mut img, &(s_a as u32).to_le_bytes())?, // ABS32
                11 => put(
                    &mut img,
                    &((s_a.wrapping_sub(p) >> 32) as u32).to_le_bytes(),
                )?, // REL32_HI
                k => return Err(GcnLoadError::RelocationType(k)),
            }
        }
        Ok(img)
    }

    /// The kernel named `name`, or the only kernel when `name` is None.
    pub fn kernel(&self, name: Option<&str>) -> Result<&GcnKernel, KernelError> {
        let names: Vec<&str> = self.kernels.iter().map(|k| k.name.as_str()).collect();
        crate::pick_kernel(&names, name).map(|i| &self.kernels[i])
    }
}
