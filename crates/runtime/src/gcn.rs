//! GCN code objects (amdhsa ELF `.o` and linked `.co`, code object v4/v5):
//! loading, relocation, kernel descriptors and metadata, and the dispatch
//! that sets up each wave's initial state as the hardware and ROCm would.

use crate::args::{check, ArgInfo, ArgKind, ArgValue};
use crate::device::DeviceMemory;
use crate::msgpack::{self, Value};
use crate::sched::run_groups;
use crate::{FaultReport, LaunchConfig, RunError, RunResult};
use risa_elf::Elf;
use risa_gcn::{Gen, Processor};
pub use risa_gcn_emu::gds::{Gds, GDS_BYTES};
use risa_gcn_emu::image::{ImageDesc, Kind};
use risa_gcn_emu::program::{HIDDEN_PRIVATE_BASE, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI};
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, FaultKind, Memory, Program, Stats, Wave};
use std::time::Instant;

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
    fn parse(b: &[u8]) -> Descriptor {
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
    image: Vec<u8>,
    text: (u64, u64),
    relocs: Vec<Reloc>,
}

const SHF_ALLOC: u64 = 2;
const SHT_NOBITS: u32 = 8;
const SHT_RELA: u32 = 4;
const SHT_NOTE: u32 = 7;
const NT_AMDGPU_METADATA: u32 = 32;

fn metadata(elf: &Elf) -> Result<Value, String> {
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
                return Err(format!("note in {} is truncated", s.name));
            }
            if ty == NT_AMDGPU_METADATA && d[at + 12..name_end].starts_with(b"AMDGPU") {
                return msgpack::parse(&d[desc_at..desc_end]);
            }
            at = desc_at + descsz.next_multiple_of(4);
        }
    }
    Err("no AMDGPU metadata note (NT_AMDGPU_METADATA): is this an amdhsa code object v3+?".into())
}

fn arg_info(v: &Value) -> ArgInfo {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let n = |k: &str| v.get(k).and_then(Value::as_int).unwrap_or(0) as u32;
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
    }
}

impl GcnObject {
    /// Parses an amdhsa ELF object (`.o` or linked `.co`).
    pub fn load(bytes: &[u8]) -> Result<GcnObject, String> {
        let elf = Elf::parse(bytes).map_err(|e| e.to_string())?;
        if elf.machine != 0xe0 {
            return Err(format!(
                "not an AMDGPU object (e_machine {:#x})",
                elf.machine
            ));
        }
        let chip = Processor::by_mach(elf.flags & 0xff).ok_or_else(|| {
            format!(
                "chip {:#x} in e_flags is not a GCN 1.0-1.4 chip risa emulates (r600/Cayman objects run with --arch cayman)",
                elf.flags & 0xff
            )
        })?;
        let gen = chip.gen;
        let version = match elf.abi_version {
            0 | 1 => 3,
            2 => 4,
            3 => 5,
            v => {
                return Err(format!(
                    "code object ABI version {v} (v{}) is not supported",
                    v + 2
                ))
            }
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
            return Err("the code object's loaded size is over 1 GiB".into());
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
            .ok_or("no .text section")?;
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
                        return Err(format!(
                            "relocation in {} names symbol {sym}, which does not exist",
                            rs.name
                        ));
                    };
                    let sbase =
                        place
                            .get(sy.shndx as usize)
                            .copied()
                            .flatten()
                            .ok_or_else(|| {
                                format!("relocation against undefined symbol {:?}", sy.name)
                            })?;
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
        for k in md
            .get("amdhsa.kernels")
            .and_then(Value::as_array)
            .unwrap_or(&[])
        {
            let name = k
                .get(".name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let symbol = k.get(".symbol").and_then(Value::as_str).unwrap_or("");
            let sy = elf
                .symbols
                .iter()
                .find(|s| s.name == symbol)
                .ok_or_else(|| format!("kernel {name}: descriptor symbol {symbol:?} is missing"))?;
            // Symbol values are addresses in a linked object, section offsets in a .o.
            let section_base = place
                .get(sy.shndx as usize)
                .copied()
                .flatten()
                .ok_or_else(|| format!("kernel {name}: descriptor is not in a loaded section"))?;
            let desc_offset = if linked {
                sy.value
            } else {
                section_base + sy.value
            };
            let d = image
                .get(desc_offset as usize..desc_offset as usize + 64)
                .ok_or_else(|| format!("kernel {name}: descriptor is outside the image"))?;
            let args = k
                .get(".args")
                .and_then(Value::as_array)
                .unwrap_or(&[])
                .iter()
                .map(arg_info)
                .collect();
            kernels.push(GcnKernel {
                name,
                desc_offset,
                desc: Descriptor::parse(d),
                args,
                kernarg_size: k
                    .get(".kernarg_segment_size")
                    .and_then(Value::as_int)
                    .unwrap_or(0) as u32,
            });
        }
        if kernels.is_empty() {
            return Err("the code object's metadata lists no kernels".into());
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
    pub fn relocated(&self, base: u64) -> Result<Vec<u8>, String> {
        let mut img = self.image.clone();
        for r in &self.relocs {
            let p = base.wrapping_add(r.at);
            let s_a = base.wrapping_add(r.target as u64);
            let at = r.at as usize;
            let put = |img: &mut Vec<u8>, b: &[u8]| -> Result<(), String> {
                img.get_mut(at..at + b.len())
                    .ok_or_else(|| format!("relocation at {at:#x} is outside the image"))?
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
                k => return Err(format!("relocation type {k} is not supported")),
            }
        }
        Ok(img)
    }

    /// The kernel named `name`, or the only kernel when `name` is None.
    pub fn kernel(&self, name: Option<&str>) -> Result<&GcnKernel, String> {
        let names = || {
            self.kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match name {
            Some(n) => self
                .kernels
                .iter()
                .find(|k| k.name == n)
                .ok_or_else(|| format!("no kernel {n:?}; the object has: {}", names())),
            None if self.kernels.len() == 1 => Ok(&self.kernels[0]),
            None => Err(format!(
                "the object has {} kernels ({}); choose one with --kernel",
                self.kernels.len(),
                names()
            )),
        }
    }
}

// Initial SGPR enables in kernel_code_properties.
const PROP_PRIVATE_BUFFER: u16 = 1 << 0;
const PROP_DISPATCH_PTR: u16 = 1 << 1;
const PROP_QUEUE_PTR: u16 = 1 << 2;
const PROP_KERNARG_PTR: u16 = 1 << 3;
const PROP_DISPATCH_ID: u16 = 1 << 4;
const PROP_FLAT_SCRATCH: u16 = 1 << 5;
const PROP_PRIVATE_SIZE: u16 = 1 << 6;

fn put(buf: &mut [u8], at: usize, b: &[u8]) {
    if let Some(s) = buf.get_mut(at..at + b.len()) {
        s.copy_from_slice(b);
    }
}

/// The Flat Scratch Init user SGPRs (AMDGPUUsage "Flat Scratch"): GCN 1.4
/// ("absolute flat scratch") takes the 64-bit address of the scratch memory;
/// GCN 1.1/1.2 ("offset flat scratch") take its 32-bit byte offset from the
/// hidden private base and the private segment size of one work-item.
fn flat_scratch_init(gen: Gen, scratch: u64, per_item: u32) -> (u32, u32) {
    match gen {
        Gen::Gcn14 => (scratch as u32, (scratch >> 32) as u32),
        _ => {
            // Scratch lives in the heap, which starts at HIDDEN_PRIVATE_BASE, well
            // within the 4 GiB a 32-bit offset reaches for any dispatch risa runs.
            let off = scratch.saturating_sub(HIDDEN_PRIVATE_BASE);
            (u32::try_from(off).unwrap_or(u32::MAX), per_item)
        }
    }
}

/// Everything that stays the same for every wave of a dispatch.
struct Setup<'a> {
    kernel: &'a GcnKernel,
    prog: Program,
    entry: u32,
    cfg: &'a LaunchConfig,
    groups: [u32; 3],
    kernarg: u64,
    packet: u64,
    queue: u64,
    lds_bytes: usize,
    per_wave_scratch: u64,
}

/// Runs kernel `kernel` of `obj` with `args` as `cfg` says, with a fresh,
/// zeroed global data share.
pub fn launch(
    obj: &GcnObject,
    kernel: &GcnKernel,
    args: &[ArgValue],
    cfg: &LaunchConfig,
) -> Result<RunResult, RunError> {
    launch_with_gds(obj, kernel, args, cfg, &Gds::new())
}

/// [`launch`] with a caller-provided global data share: the host can preload
/// it ([`Gds::from_bytes`]) and read it back after the dispatch
/// ([`Gds::bytes`]). Its GWS and ordered-count state is reset first.
pub fn launch_with_gds(
    obj: &GcnObject,
    kernel: &GcnKernel,
    args: &[ArgValue],
    cfg: &LaunchConfig,
    gds: &Gds,
) -> Result<RunResult, RunError> {
    check(&kernel.args, args).map_err(RunError::Args)?;
    for d in 0..3 {
        if cfg.block[d] == 0 || cfg.grid[d] == 0 {
            return Err(RunError::Args(
                "grid and block sizes must be at least 1".into(),
            ));
        }
    }
    let block_items = cfg.block.iter().map(|&b| u64::from(b)).product::<u64>();
    if block_items > 1024 {
        return Err(RunError::Args(format!(
            "a work-group of {block_items} work-items is over the limit of 1024"
        )));
    }
    let mut dev = DeviceMemory::new();
    let base = dev.alloc(obj.image.len() as u64);
    let image = obj.relocated(base).map_err(RunError::Load)?;
    dev.write(base, &image).expect("fresh allocation");
    let (t0, t1) = obj.text;
    let prog = Program::new(obj.chip, &image[t0 as usize..t1 as usize], base + t0);
    let desc =
        Descriptor::parse(&image[kernel.desc_offset as usize..kernel.desc_offset as usize + 64]);
    let entry_addr = (base + kernel.desc_offset).wrapping_add(desc.entry_offset as u64);
    let entry = prog.op_at_addr(entry_addr);
    if entry == u32::MAX {
        return Err(RunError::Load(format!(
            "kernel {}: entry {entry_addr:#x} is not an instruction in .text",
            kernel.name
        )));
    }
    // Buffers and dynamic LDS.
    let mut lds_end = u64::from(desc.group_segment_fixed_size);
    let mut ka = vec![0u8; kernel.kernarg_size.max(desc.kernarg_size).max(256) as usize];
    let mut buffers = Vec::new();
    let explicit: Vec<&ArgInfo> = kernel.args.iter().filter(|a| a.is_explicit()).collect();
    for (arg_index, (a, v)) in explicit.iter().zip(args).enumerate() {
        let at = a.offset as usize;
        match v {
            ArgValue::Buffer(b) => {
                let addr = dev.alloc_with(b);
                put(&mut ka, at, &addr.to_le_bytes());
                buffers.push((arg_index, addr));
            }
            ArgValue::Image(img) => {
                // The texels, then the image object the kernel argument points
                // to: the 8-dword T# (linear, one level) at offset 0, which is
                // what the ROCm device libraries load.
                let addr = dev.alloc_with(&img.data);
                let t = ImageDesc::linear(
                    obj.gen,
                    Kind::D2,
                    addr,
                    img.dfmt,
                    img.nfmt,
                    [img.width, img.height, 1],
                )
                .encode(obj.gen);
                let mut object = [0u8; 64];
                for (k, w) in t.iter().enumerate() {
                    put(&mut object, 4 * k, &w.to_le_bytes());
                }
                let desc = dev.alloc_with(&object);
                put(&mut ka, at, &desc.to_le_bytes());
                buffers.push((arg_index, addr));
            }
            ArgValue::Local(n) => {
                let off = lds_end.next_multiple_of(16);
                put(&mut ka, at, &(off as u32).to_le_bytes());
                lds_end = off + u64::from(*n);
            }
            v => put(&mut ka, at, &v.scalar_bytes().unwrap()),
        }
    }
    if lds_end > 64 * 1024 {
        return Err(RunError::Args(format!(
            "the work-group needs {lds_end} bytes of LDS, over the 64 KiB a GCN compute unit has"
        )));
    }
    let groups: [u32; 3] = std::array::from_fn(|d| cfg.grid[d].div_ceil(cfg.block[d]));
    fill_hidden(
        obj.version,
        kernel,
        &mut ka,
        cfg,
        groups,
        lds_end - u64::from(desc.group_segment_fixed_size),
    );
    let kernarg = dev.alloc_with(&ka);
    let mut pkt = [0u8; 64];
    put(&mut pkt, 2, &(cfg.dims as u16).to_le_bytes());
    for d in 0..3 {
        put(&mut pkt, 4 + 2 * d, &(cfg.block[d] as u16).to_le_bytes());
        put(&mut pkt, 12 + 4 * d, &cfg.grid[d].to_le_bytes());
    }
    put(&mut pkt, 24, &desc.private_segment_fixed_size.to_le_bytes());
    put(&mut pkt, 28, &(lds_end as u32).to_le_bytes());
    put(&mut pkt, 32, &(base + kernel.desc_offset).to_le_bytes());
    put(&mut pkt, 40, &kernarg.to_le_bytes());
    let packet = dev.alloc_with(&pkt);
    // The HSA queue (amd_queue_t): clang's GCN 1.1/1.2 code reads the FLAT
    // aperture bases from it when it casts __local or private pointers to
    // generic ones (group_segment_aperture_base_hi at 0x40,
    // private_segment_aperture_base_hi at 0x44; AMDGPUUsage, "Queue Ptr").
    let mut q = [0u8; 256];
    put(&mut q, 0x40, &SHARED_APERTURE_HI.to_le_bytes());
    put(&mut q, 0x44, &PRIVATE_APERTURE_HI.to_le_bytes());
    let queue = dev.alloc_with(&q);
    let waves_per_group = block_items.div_ceil(64) as u32;
    let per_wave_scratch = (u64::from(desc.private_segment_fixed_size) * 64).next_multiple_of(256);
    let threads = if cfg.trace.is_some() {
        1
    } else {
        cfg.threads.max(1)
    };
    let scratch_bases: Vec<u64> = (0..threads)
        .map(|_| {
            if per_wave_scratch > 0 {
                dev.alloc(per_wave_scratch * u64::from(waves_per_group))
            } else {
                0
            }
        })
        .collect();
    let setup = Setup {
        kernel,
        prog,
        entry,
        cfg,
        groups,
        kernarg,
        packet,
        queue,
        lds_bytes: lds_end as usize,
        per_wave_scratch,
    };
    let total_groups = groups.iter().map(|&g| u64::from(g)).product::<u64>();
    // One resident work-group per worker thread (see risa_gcn_emu::gds).
    let workers = threads.min(total_groups.max(1) as usize);
    gds.begin_dispatch(workers, risa_gcn_emu::gds::uses_ordered(&setup.prog));
    struct Worker {
        waves: Vec<Wave>,
        lds: Vec<u8>,
        stats: Stats,
        scratch: u64,
        trace: Option<Box<dyn std::io::Write + Send>>,
    }
    let mut trace = cfg.trace.as_ref().map(|f| f());
    let start = Instant::now();
    let dev_ref = &dev;
    let (workers, fault, cpu) = run_groups(
        total_groups,
        threads,
        |i| Worker {
            waves: (0..waves_per_group).map(Wave::new).collect(),
            lds: vec![0; setup.lds_bytes],
            stats: Stats::default(),
            scratch: scratch_bases[i],
            trace: trace.take(),
        },
        |w, g| {
            run_one_group(
                &setup,
                dev_ref,
                gds,
                w.scratch,
                &mut w.waves,
                &mut w.lds,
                &mut w.stats,
                &mut w.trace,
                g,
            )
        },
        |_, faulted| {
            if faulted {
                gds.cancel();
            }
            gds.worker_done();
        },
    );
    let wall = start.elapsed();
    let mut stats = Stats::default();
    for w in &workers {
        stats.add(&w.stats);
    }
    let bufs = buffers
        .iter()
        .map(|&(i, addr)| (i, dev.read_alloc(addr).unwrap_or_default()))
        .collect();
    let result = RunResult {
        buffers: bufs,
        stats,
        wall,
        cpu,
        threads,
    };
    match fault {
        None => Ok(result),
        Some((_, f)) => Err(RunError::Fault(f, Box::new(result))),
    }
}

fn fill_hidden(
    version: u32,
    k: &GcnKernel,
    ka: &mut [u8],
    cfg: &LaunchConfig,
    groups: [u32; 3],
    dyn_lds: u64,
) {
    let hidden_start = k
        .args
        .iter()
        .find(|a| !a.is_explicit())
        .map(|a| a.offset as usize)
        .unwrap_or_else(|| {
            k.args
                .iter()
                .map(|a| (a.offset + a.size) as usize)
                .max()
                .unwrap_or(0)
                .next_multiple_of(8)
        });
    if version <= 4 {
        // libclc (clang-14) reads the hidden block in Mesa clover's layout:
        // work_dim, then the global offsets as u32 (see ABI-NOTES.md).
        put(ka, hidden_start, &cfg.dims.to_le_bytes());
        for d in 0..3 {
            put(
                ka,
                hidden_start + 4 + 4 * d,
                &(cfg.offset[d] as u32).to_le_bytes(),
            );
        }
        return;
    }
    for a in &k.args {
        let ArgKind::Hidden(kind) = &a.kind else {
            continue;
        };
        let at = a.offset as usize;
        let axis = |s: &str| -> Option<usize> {
            kind.strip_prefix(s).and_then(|x| match x {
                "x" => Some(0),
                "y" => Some(1),
                "z" => Some(2),
                _ => None,
            })
        };
        if let Some(d) = axis("hidden_block_count_") {
            put(ka, at, &groups[d].to_le_bytes());
        } else if let Some(d) = axis("hidden_group_size_") {
            put(ka, at, &(cfg.block[d] as u16).to_le_bytes());
        } else if let Some(d) = axis("hidden_remainder_") {
            put(ka, at, &((cfg.grid[d] % cfg.block[d]) as u16).to_le_bytes());
        } else if let Some(d) = axis("hidden_global_offset_") {
            put(ka, at, &cfg.offset[d].to_le_bytes());
        } else {
            match kind.as_str() {
                "hidden_grid_dims" => put(ka, at, &(cfg.dims as u16).to_le_bytes()),
                "hidden_dynamic_lds_size" => put(ka, at, &(dyn_lds as u32).to_le_bytes()),
                "hidden_private_base" => put(ka, at, &PRIVATE_APERTURE_HI.to_le_bytes()),
                "hidden_shared_base" => put(ka, at, &SHARED_APERTURE_HI.to_le_bytes()),
                _ => {}
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_one_group(
    s: &Setup,
    mem: &DeviceMemory,
    gds: &Gds,
    scratch: u64,
    waves: &mut [Wave],
    lds: &mut [u8],
    stats: &mut Stats,
    trace: &mut Option<Box<dyn std::io::Write + Send>>,
    g: u64,
) -> Result<(), Box<FaultReport>> {
    if gds.cancelled() {
        // Another work-group faulted or deadlocked: the dispatch is over.
        return Ok(());
    }
    let gx = (g % u64::from(s.groups[0])) as u32;
    let gy = ((g / u64::from(s.groups[0])) % u64::from(s.groups[1])) as u32;
    let gz = (g / (u64::from(s.groups[0]) * u64::from(s.groups[1]))) as u32;
    let gid = [gx, gy, gz];
    let cfg = s.cfg;
    // Actual work-group size: the last group in a dimension may be partial.
    let act: [u32; 3] =
        std::array::from_fn(|d| cfg.block[d].min(cfg.grid[d] - gid[d] * cfg.block[d]));
    let items = act[0] * act[1] * act[2];
    let nwaves = items.div_ceil(64) as usize;
    let d = &s.kernel.desc;
    let desc = Descriptor { ..*d };
    lds.fill(0);
    for (wi, w) in waves.iter_mut().enumerate().take(nwaves) {
        // GRANULATED_WORKITEM_VGPR_COUNT (rsrc1[5:0]): (n + 1) * 4 VGPRs.
        w.reset_partial(wi as u32, ((desc.rsrc1 & 0x3f) as usize + 1) * 4);
        w.pc = s.entry;
        w.mode = desc.initial_mode();
        let first = wi as u32 * 64;
        let live = (items - first).min(64);
        w.set_s64(
            EXEC,
            if live == 64 {
                u64::MAX
            } else {
                (1u64 << live) - 1
            },
        );
        for l in 0..live as usize {
            let i = first + l as u32;
            w.v[0][l] = i % act[0];
            w.v[1][l] = (i / act[0]) % act[1];
            w.v[2][l] = i / (act[0] * act[1]);
        }
        let tid_count = (desc.rsrc2 >> 11) & 3;
        if tid_count < 2 {
            w.v[2] = [0; 64];
        }
        if tid_count < 1 {
            w.v[1] = [0; 64];
        }
        let wave_scratch = wi as u64 * s.per_wave_scratch;
        let mut sg = 0usize;
        fn push_at(w: &mut Wave, sg: &mut usize, v: u32) {
            if *sg < 104 {
                w.s[*sg] = v;
            }
            *sg += 1;
        }
        macro_rules! push {
            ($w:expr, $v:expr) => {
                push_at($w, &mut sg, $v)
            };
        }
        let p = desc.props;
        if p & PROP_PRIVATE_BUFFER != 0 {
            // A swizzled V#: 4-byte elements interleaved over 64 lanes, ADD_TID on.
            push!(w, scratch as u32);
            push!(w, ((scratch >> 32) as u32 & 0xffff) | 1 << 31);
            push!(w, u32::MAX);
            push!(w, 1 << 23 | 3 << 21 | 1 << 19);
        }
        if p & PROP_DISPATCH_PTR != 0 {
            push!(w, s.packet as u32);
            push!(w, (s.packet >> 32) as u32);
        }
        if p & PROP_QUEUE_PTR != 0 {
            push!(w, s.queue as u32);
            push!(w, (s.queue >> 32) as u32);
        }
        if p & PROP_KERNARG_PTR != 0 {
            push!(w, s.kernarg as u32);
            push!(w, (s.kernarg >> 32) as u32);
        }
        if p & PROP_DISPATCH_ID != 0 {
            push!(w, 0);
            push!(w, 0);
        }
        if p & PROP_FLAT_SCRATCH != 0 {
            let (lo, hi) = flat_scratch_init(s.prog.gen, scratch, desc.private_segment_fixed_size);
            push!(w, lo);
            push!(w, hi);
        }
        if p & PROP_PRIVATE_SIZE != 0 {
            push!(w, desc.private_segment_fixed_size);
        }
        // System SGPRs start after USER_SGPR_COUNT.
        sg = ((desc.rsrc2 >> 1) & 0x1f) as usize;
        for (dim, bit) in [(0, 7), (1, 8), (2, 9)] {
            if desc.rsrc2 >> bit & 1 != 0 {
                push!(w, gid[dim]);
            }
        }
        if desc.rsrc2 >> 10 & 1 != 0 {
            push!(w, nwaves as u32);
        }
        if desc.rsrc2 & 1 != 0 {
            push!(w, wave_scratch as u32);
        }
    }
    let mut ctx = Ctx::new(&s.prog, mem, lds);
    ctx.budget = cfg.max_instructions;
    ctx.gds = Some(gds);
    ctx.group = g;
    if trace.is_some() {
        ctx.trace = trace.take();
        ctx.trace_tag = format!("g({gx},{gy},{gz})");
    }
    let r = exec::run_group(&mut waves[..nwaves], &mut ctx, |_, _| {});
    stats.add(&ctx.stats);
    if let Some(mut t) = ctx.trace.take() {
        let _ = t.flush();
        *trace = Some(t);
    }
    if let Err(f) = &r {
        if f.kind == FaultKind::Cancelled {
            // Parked when another work-group stopped the dispatch: not this group's fault.
            return Ok(());
        }
    }
    r.map_err(|f| {
        let (lane, addr) = match f.kind {
            FaultKind::Memory { lane, addr, .. } => (lane, Some(addr)),
            FaultKind::BadPc(a) => (None, Some(a)),
            _ => (None, None),
        };
        Box::new(FaultReport {
            kernel: s.kernel.name.clone(),
            group: gid,
            wave: f.wave,
            lane,
            pc: f.pc,
            pc_addr: s.prog.base + f.pc,
            instr: f.instr.clone(),
            addr,
            message: f.kind.to_string(),
        })
    })
}
