//! GCN dispatch: places a code object in device memory, writes each
//! launch's kernarg segment, dispatch packet and queue, and sets up each
//! wave's initial state as the hardware and ROCm would.

use crate::args::{check, ArgInfo, ArgKind, ArgValue, ImageArg};
use crate::device::DeviceMemory;
use crate::error::{ArgError, GcnLoadError};
use crate::gcn::{Descriptor, GcnKernel, GcnObject};
use crate::image_object::{image_object, Shape, OBJECT_BYTES};
use crate::{FaultReport, LaunchConfig, RunError, RunResult};
use risa_gcn::Gen;
use risa_gcn_emu::gds::Gds;
use risa_gcn_emu::program::{HIDDEN_PRIVATE_BASE, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI};
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, FaultKind, Memory, Program, Stats, Wave};
use risa_workers::{group_id, run_groups};
use std::time::Instant;

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

/// A GCN code object placed in device memory: its relocated image at `base`
/// and its `.text` pre-decoded once, for every launch of its kernels.
pub struct Placed {
    /// Device address of the image.
    pub base: u64,
    prog: Program,
    /// Per kernel (by descriptor offset), where it starts, or why it cannot.
    entries: Vec<(u64, Result<Entry, GcnLoadError>)>,
}

/// Where a placed kernel starts: its descriptor as relocated (a .o's entry
/// field is set by a relocation) and its first instruction.
#[derive(Clone, Copy)]
pub struct Entry {
    desc: Descriptor,
    /// Device address of the descriptor.
    desc_addr: u64,
    /// Index of the first instruction in the pre-decoded code.
    op: u32,
}

impl Placed {
    /// Copies `obj`'s image into `mem` (relocated for its address),
    /// pre-decodes its code and finds its kernels' entries.
    pub fn new(mem: &mut DeviceMemory, obj: &GcnObject) -> Result<Placed, GcnLoadError> {
        let base = mem
            .try_alloc(obj.image.len() as u64)
            .ok_or(GcnLoadError::NoRoom)?;
        let image = obj.relocated(base)?;
        mem.write(base, &image).expect("fresh allocation");
        let (t0, t1) = obj.text;
        let prog = Program::new(obj.chip, &image[t0 as usize..t1 as usize], base + t0);
        let entries = obj
            .kernels
            .iter()
            .map(|k| (k.desc_offset, entry(&image, base, &prog, k)))
            .collect();
        Ok(Placed {
            base,
            prog,
            entries,
        })
    }

    /// Where `kernel` (a kernel of the placed object) starts.
    pub fn entry(&self, kernel: &GcnKernel) -> Result<Entry, GcnLoadError> {
        self.entries
            .iter()
            .find(|(at, _)| *at == kernel.desc_offset)
            .map_or_else(
                || Err(GcnLoadError::NotPlaced(kernel.name.clone())),
                |(_, e)| e.clone(),
            )
    }
}

/// Where `k` starts in `image`, relocated and loaded at `base`.
fn entry(image: &[u8], base: u64, prog: &Program, k: &GcnKernel) -> Result<Entry, GcnLoadError> {
    let bad = |why: String| GcnLoadError::Kernel {
        kernel: k.name.clone(),
        why,
    };
    let d = usize::try_from(k.desc_offset)
        .ok()
        .and_then(|at| image.get(at..at.checked_add(64)?))
        .ok_or_else(|| bad("descriptor is outside the image".into()))?;
    let desc = Descriptor::parse(d);
    let desc_addr = base + k.desc_offset;
    let entry_addr = desc_addr.wrapping_add(desc.entry_offset as u64);
    let op = prog.op_at_addr(entry_addr);
    if op == u32::MAX {
        return Err(bad(format!(
            "entry {entry_addr:#x} is not an instruction in .text"
        )));
    }
    Ok(Entry {
        desc,
        desc_addr,
        op,
    })
}

/// One explicit kernel argument as the device sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelArg {
    /// A pointer to device memory (a buffer, or an image object).
    Buffer(u64),
    /// A by-value argument: its bytes (on Cayman placed at the natural
    /// alignment of its size, right for scalars and vectors).
    Bytes(Vec<u8>),
    /// A by-value argument whose ABI alignment the caller knows (a struct:
    /// Cayman places it at that alignment; GCN at the offset its metadata
    /// gives, as for `Bytes`).
    Aligned(Vec<u8>, u32),
    /// A `__local` pointer with this many bytes of dynamic LDS.
    Local(u32),
}

/// Everything that stays the same for every wave of a dispatch.
struct Setup<'a> {
    kernel: &'a GcnKernel,
    prog: &'a Program,
    cfg: &'a LaunchConfig,
    p: &'a Prepared,
}

/// The device memory one launch allocates (kernarg segment, dispatch
/// packet, queue, scratch per worker), freed by [`Prepared::release`].
pub struct Prepared {
    entry: u32,
    groups: [u32; 3],
    kernarg: u64,
    packet: u64,
    queue: u64,
    lds_bytes: usize,
    per_wave_scratch: u64,
    waves_per_group: u32,
    threads: usize,
    scratch_bases: Vec<u64>,
}

impl Prepared {
    /// Frees the launch's allocations.
    pub fn release(self, mem: &mut DeviceMemory) {
        for a in [self.kernarg, self.packet, self.queue]
            .into_iter()
            .chain(self.scratch_bases.into_iter().filter(|&b| b != 0))
        {
            mem.free(a);
        }
    }
}

/// Checks the NDRange against the hardware's limits.
pub(crate) fn check_range(cfg: &LaunchConfig) -> Result<u64, ArgError> {
    if !(1..=3).contains(&cfg.dims) {
        return Err(ArgError::WorkDim(cfg.dims));
    }
    for d in 0..3 {
        if cfg.block[d] == 0 || cfg.grid[d] == 0 {
            return Err(ArgError::EmptyRange);
        }
    }
    let block_items = cfg.block.iter().map(|&b| u64::from(b)).product::<u64>();
    if block_items > 1024 {
        return Err(ArgError::GroupTooLarge(block_items));
    }
    if !(1..=crate::WAVE_ITEMS).contains(&cfg.wave_items) {
        return Err(ArgError::WaveItems(cfg.wave_items));
    }
    Ok(block_items)
}

/// Writes the kernarg segment, dispatch packet and queue of a launch of
/// `kernel` (starting at `entry`) into `mem`, and allocates its scratch.
pub fn prepare(
    mem: &mut DeviceMemory,
    obj: &GcnObject,
    kernel: &GcnKernel,
    entry: Entry,
    args: &[KernelArg],
    cfg: &LaunchConfig,
) -> Result<Prepared, ArgError> {
    let block_items = check_range(cfg)?;
    let desc = entry.desc;
    let explicit: Vec<&ArgInfo> = kernel.args.iter().filter(|a| a.is_explicit()).collect();
    if explicit.len() != args.len() {
        return Err(ArgError::Count {
            kernel: kernel.name.clone(),
            want: explicit.len(),
            got: args.len(),
        });
    }
    let mut lds_end = u64::from(desc.group_segment_fixed_size);
    let mut ka = vec![0u8; kernel.kernarg_size.max(desc.kernarg_size).max(256) as usize];
    for (a, v) in explicit.iter().zip(args) {
        let at = a.offset as usize;
        match v {
            KernelArg::Buffer(addr) => put(&mut ka, at, &addr.to_le_bytes()),
            KernelArg::Local(n) => {
                let off = lds_end.next_multiple_of(16);
                put(&mut ka, at, &(off as u32).to_le_bytes());
                lds_end = off + u64::from(*n);
            }
            KernelArg::Bytes(b) | KernelArg::Aligned(b, _) => {
                put(&mut ka, at, &b[..b.len().min(a.size as usize)])
            }
        }
    }
    if lds_end > 64 * 1024 {
        return Err(ArgError::GcnLds(lds_end));
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
    let mut pkt = [0u8; 64];
    put(&mut pkt, 2, &(cfg.dims as u16).to_le_bytes());
    for d in 0..3 {
        put(&mut pkt, 4 + 2 * d, &(cfg.block[d] as u16).to_le_bytes());
        put(&mut pkt, 12 + 4 * d, &cfg.grid[d].to_le_bytes());
    }
    put(&mut pkt, 24, &desc.private_segment_fixed_size.to_le_bytes());
    put(&mut pkt, 28, &(lds_end as u32).to_le_bytes());
    put(&mut pkt, 32, &entry.desc_addr.to_le_bytes());
    // The HSA queue (amd_queue_t): clang's GCN 1.1/1.2 code reads the FLAT
    // aperture bases from it when it casts __local or private pointers to
    // generic ones (group_segment_aperture_base_hi at 0x40,
    // private_segment_aperture_base_hi at 0x44; AMDGPUUsage, "Queue Ptr").
    let mut q = [0u8; 256];
    put(&mut q, 0x40, &SHARED_APERTURE_HI.to_le_bytes());
    put(&mut q, 0x44, &PRIVATE_APERTURE_HI.to_le_bytes());
    let waves_per_group = block_items.div_ceil(u64::from(cfg.wave_items)) as u32;
    let per_wave_scratch = (u64::from(desc.private_segment_fixed_size) * 64).next_multiple_of(256);
    let threads = if cfg.trace.is_some() {
        1
    } else {
        cfg.threads.max(1)
    };
    let kernarg = mem.try_alloc(ka.len() as u64).ok_or(ArgError::NoRoom)?;
    mem.write(kernarg, &ka).expect("fresh allocation");
    let mut p = Prepared {
        entry: entry.op,
        groups,
        kernarg,
        packet: 0,
        queue: 0,
        lds_bytes: lds_end as usize,
        per_wave_scratch,
        waves_per_group,
        threads,
        scratch_bases: Vec::new(),
    };
    let place = |mem: &mut DeviceMemory, bytes: &[u8]| {
        let a = mem.try_alloc(bytes.len() as u64)?;
        mem.write(a, bytes).expect("fresh allocation");
        Some(a)
    };
    match (place(mem, &pkt), place(mem, &q)) {
        (Some(a), Some(b)) => (p.packet, p.queue) = (a, b),
        (a, b) => {
            p.packet = a.unwrap_or(0);
            p.queue = b.unwrap_or(0);
            p.release(mem);
            return Err(ArgError::NoRoom);
        }
    }
    for _ in 0..threads {
        if per_wave_scratch == 0 {
            p.scratch_bases.push(0);
            continue;
        }
        match mem.try_alloc(per_wave_scratch * u64::from(waves_per_group)) {
            Some(a) => p.scratch_bases.push(a),
            None => {
                p.release(mem);
                return Err(ArgError::NoRoom);
            }
        }
    }
    Ok(p)
}

/// What a dispatch leaves behind, fault or not.
pub struct Executed {
    /// Counters.
    pub stats: Stats,
    /// Wall time.
    pub wall: std::time::Duration,
    /// CPU time of the workers, when measurable.
    pub cpu: Option<std::time::Duration>,
    /// Host threads used.
    pub threads: usize,
    /// The first fault (lowest work-group), if any.
    pub fault: Option<Box<FaultReport>>,
}

/// Runs a prepared launch over `mem` (which the host must not reallocate
/// meanwhile: the caller holds it shared).
pub fn execute(
    mem: &DeviceMemory,
    placed: &Placed,
    kernel: &GcnKernel,
    p: &Prepared,
    cfg: &LaunchConfig,
    gds: &Gds,
) -> Executed {
    let setup = Setup {
        kernel,
        prog: &placed.prog,
        cfg,
        p,
    };
    let total_groups = p.groups.iter().map(|&g| u64::from(g)).product::<u64>();
    // One resident work-group per worker thread (see risa_gcn_emu::gds).
    let workers = p.threads.min(total_groups.max(1) as usize);
    gds.begin_dispatch(workers, risa_gcn_emu::gds::uses_ordered(setup.prog));
    struct Worker {
        waves: Vec<Wave>,
        lds: Vec<u8>,
        stats: Stats,
        scratch: u64,
        trace: Option<Box<dyn std::io::Write + Send>>,
        observer: Option<Box<dyn risa_gcn_emu::Observer>>,
    }
    let mut trace = cfg.trace.as_ref().map(|f| f());
    let start = Instant::now();
    let (workers, fault, cpu) = run_groups(
        total_groups,
        p.threads,
        true,
        |i| Worker {
            waves: (0..p.waves_per_group).map(Wave::new).collect(),
            lds: vec![0; p.lds_bytes],
            stats: Stats::default(),
            scratch: p.scratch_bases[i],
            trace: trace.take(),
            observer: cfg.observe.as_ref().map(|f| f()),
        },
        |w, g| {
            run_one_group(
                &setup,
                mem,
                gds,
                w.scratch,
                &mut w.waves,
                &mut w.lds,
                &mut w.stats,
                &mut w.trace,
                &mut w.observer,
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
    Executed {
        stats,
        wall,
        cpu,
        threads: p.threads,
        fault: fault.map(|(_, f)| f),
    }
}

/// Places a linear 2D image in `mem`: its texels, then the image object a
/// kernel argument points to ([`image_object`]: the T#, the channel data type
/// and order words of its OpenCL format, the width). Returns (object,
/// texels); None when `mem` is full.
pub fn place_image(mem: &mut DeviceMemory, gen: Gen, img: &ImageArg) -> Option<(u64, u64)> {
    let texels = mem.try_alloc(img.data.len() as u64)?;
    mem.write(texels, &img.data).expect("fresh allocation");
    let object = image_object(
        gen,
        Shape::D2,
        texels,
        &img.cl_format,
        [img.width, img.height, 1],
    );
    let obj = mem.try_alloc(OBJECT_BYTES as u64)?;
    mem.write(obj, &object).expect("fresh allocation");
    Some((obj, texels))
}

/// Kernel arguments placed in device memory, and (argument index, device
/// address, length) of every buffer or image's texels to read back.
pub type PlacedArgs = (Vec<KernelArg>, Vec<(usize, u64, usize)>);

/// Places argument values in `mem`: buffers and images (GCN `gen` only)
/// become allocations, the rest kernel arguments as they are.
pub fn place_args(
    mem: &mut DeviceMemory,
    gen: Option<Gen>,
    values: &[ArgValue],
) -> Result<PlacedArgs, ArgError> {
    let mut args = Vec::with_capacity(values.len());
    let mut placed = Vec::new();
    for (i, v) in values.iter().enumerate() {
        args.push(match v {
            ArgValue::Buffer(bytes) => {
                let addr = mem
                    .try_alloc(bytes.len() as u64)
                    .ok_or(ArgError::AddressSpaceFull)?;
                mem.write(addr, bytes).expect("fresh allocation");
                placed.push((i, addr, bytes.len()));
                KernelArg::Buffer(addr)
            }
            ArgValue::Image(img) => {
                let gen = gen.ok_or(ArgError::CaymanImage(i))?;
                let (obj, texels) = place_image(mem, gen, img).ok_or(ArgError::ImageNoRoom(i))?;
                placed.push((i, texels, img.data.len()));
                KernelArg::Buffer(obj)
            }
            ArgValue::Local(n) => KernelArg::Local(*n),
            v => KernelArg::Bytes(v.scalar_bytes().unwrap_or_default()),
        });
    }
    Ok((args, placed))
}

/// Runs kernel `kernel` of `obj` with `args` as `cfg` says, on a device
/// memory of its own, with a fresh, zeroed global data share.
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
    check_range(cfg).map_err(RunError::Args)?;
    let mut dev = DeviceMemory::new();
    let placed = Placed::new(&mut dev, obj).map_err(RunError::Load)?;
    let entry = placed.entry(kernel).map_err(RunError::Load)?;
    let (kargs, buffers) = place_args(&mut dev, Some(obj.gen), args).map_err(RunError::Args)?;
    let prepared = prepare(&mut dev, obj, kernel, entry, &kargs, cfg).map_err(RunError::Args)?;
    let ran = execute(&dev, &placed, kernel, &prepared, cfg, gds);
    let result = RunResult {
        buffers: buffers
            .iter()
            .map(|&(i, addr, _)| (i, dev.read_alloc(addr).unwrap_or_default()))
            .collect(),
        stats: ran.stats,
        wall: ran.wall,
        cpu: ran.cpu,
        threads: ran.threads,
    };
    match ran.fault {
        None => Ok(result),
        Some(f) => Err(RunError::Fault(f, Box::new(result))),
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

/// The registers `run_one_group` sets up in every wave before its first
/// instruction, from the kernel descriptor: the user SGPRs the
/// kernel_code_properties enable (from s0), the system SGPRs RSRC2 enables
/// (from USER_SGPR_COUNT), and v0-v2 as RSRC2.TIDIG_COMP_CNT says (the
/// run-time `uninit` check counts them as written).
pub fn wave_inputs(desc: &Descriptor) -> risa_check::run::WaveInputs {
    let p = desc.props;
    let user: u32 = [
        (PROP_PRIVATE_BUFFER, 4),
        (PROP_DISPATCH_PTR, 2),
        (PROP_QUEUE_PTR, 2),
        (PROP_KERNARG_PTR, 2),
        (PROP_DISPATCH_ID, 2),
        (PROP_FLAT_SCRATCH, 2),
        (PROP_PRIVATE_SIZE, 1),
    ]
    .iter()
    .filter(|(bit, _)| p & bit != 0)
    .map(|(_, n)| n)
    .sum();
    let first_system = (desc.rsrc2 >> 1) & 0x1f;
    let system = [7, 8, 9, 10, 0]
        .iter()
        .filter(|&&b| desc.rsrc2 >> b & 1 != 0)
        .count() as u32;
    let bits =
        |from: u32, n: u32| -> u128 { (from..(from + n).min(104)).fold(0, |m, r| m | 1 << r) };
    risa_check::run::WaveInputs {
        sgprs: bits(0, user) | bits(first_system, system),
        vgprs: 1 + ((desc.rsrc2 >> 11) & 3).min(2),
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
    observer: &mut Option<Box<dyn risa_gcn_emu::Observer>>,
    g: u64,
) -> Result<(), Box<FaultReport>> {
    if gds.cancelled() {
        // Another work-group faulted or deadlocked: the dispatch is over.
        return Ok(());
    }
    let gid = group_id(g, s.p.groups);
    let cfg = s.cfg;
    // Actual work-group size: the last group in a dimension may be partial.
    let act: [u32; 3] =
        std::array::from_fn(|d| cfg.block[d].min(cfg.grid[d] - gid[d] * cfg.block[d]));
    let items = act[0] * act[1] * act[2];
    let per_wave = cfg.wave_items;
    let nwaves = items.div_ceil(per_wave) as usize;
    let desc = &s.kernel.desc;
    lds.fill(0);
    for (wi, w) in waves.iter_mut().enumerate().take(nwaves) {
        // GRANULATED_WORKITEM_VGPR_COUNT (rsrc1[5:0]): (n + 1) * 4 VGPRs.
        w.reset_partial(wi as u32, ((desc.rsrc1 & 0x3f) as usize + 1) * 4);
        w.pc = s.p.entry;
        w.mode = desc.initial_mode();
        let first = wi as u32 * per_wave;
        let live = (items - first).min(per_wave);
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
        let wave_scratch = wi as u64 * s.p.per_wave_scratch;
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
            push!(w, s.p.packet as u32);
            push!(w, (s.p.packet >> 32) as u32);
        }
        if p & PROP_QUEUE_PTR != 0 {
            push!(w, s.p.queue as u32);
            push!(w, (s.p.queue >> 32) as u32);
        }
        if p & PROP_KERNARG_PTR != 0 {
            push!(w, s.p.kernarg as u32);
            push!(w, (s.p.kernarg >> 32) as u32);
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
    let mut ctx = Ctx::new(s.prog, mem, lds);
    ctx.budget = cfg.max_instructions;
    ctx.gds = Some(gds);
    ctx.group = g;
    if trace.is_some() {
        ctx.trace = trace.take();
        ctx.trace_tag = format!("g({},{},{})", gid[0], gid[1], gid[2]);
    }
    ctx.observer = observer.take();
    let r = exec::run_group(&mut waves[..nwaves], &mut ctx, |_, _| {});
    *observer = ctx.observer.take();
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
