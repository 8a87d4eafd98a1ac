//! Grid dispatch: builds constant buffer 0 the way Mesa's r600 compute path
//! does (ABI-NOTES), sets up each wave's launch state (T0.XYZ local id,
//! T1.XYZ group id), runs work-groups in parallel over CPU threads; waves of
//! one work-group share LDS and meet at GROUP_BARRIER.

use crate::fault::{Fault, Stats};
use crate::loader::Kernel;
use crate::memory::GlobalMemory;
use crate::observe::{Observer, ObserverFactory};
use crate::profile::{merge, Layout, ProfileSink};
use crate::trace::{TraceSink, Tracer};
use crate::wave::{Env, Wave, Yield};
use std::sync::Arc;

/// One kernel argument, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// 32-bit integer (int, uint, also `size_t` on r600).
    U32(u32),
    /// 32-bit float.
    F32(f32),
    /// 64-bit value (long, double), 8-byte aligned counting from the first
    /// explicit argument (dword 9 of the constant buffer).
    U64(u64),
    /// `__global` pointer: byte offset in the global pool.
    Ptr(u32),
    /// `__local` pointer: the runtime allocates this many bytes of LDS after
    /// the static LDS and passes the buffer's LDS byte address.
    Local(u32),
    /// Any by-value argument as bytes (a `char`, a `short`, a vector, a
    /// struct) with its alignment: LLVM's r600 back end lays the explicit
    /// arguments out as the data layout does, each at its ABI alignment
    /// counted from the first explicit argument, a `char` in one byte
    /// (ABI-NOTES).
    Bytes(Vec<u8>, u32),
}

/// Grid shape and limits of a dispatch.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// Global size in work-items (x, y, z).
    pub grid: [u32; 3],
    /// Work-group size (x, y, z).
    pub block: [u32; 3],
    /// Global offset.
    pub offset: [u32; 3],
    /// Work dimensions reported to the kernel (1..3).
    pub work_dim: u32,
    /// Per-wave budget of CF instructions plus ALU groups.
    pub max_instructions: u64,
    /// CPU threads to run work-groups on (0 = available parallelism).
    pub threads: usize,
    /// Compatibility option, off by default: RAT atomics (everything but
    /// STORE_* and MSKOR) take INDEX_GPR as a byte address. The hardware
    /// reads it as an element (dword) index for atomics as for stores (guide
    /// 9.2 INDEX_GPR; Mesa's r600 back end shifts byte offsets right by 2 for
    /// both), but clang-14 passes the raw byte pointer to atomics, so on a
    /// real Cayman its atomics land at four times the intended address. Set
    /// this to run clang-14's atomics where the source meant them
    /// ([`Kernel::made_by_llvm`] tells which objects need it).
    pub atomics_byte_addressed: bool,
    /// Write an execution trace here ([`crate::trace`]); work-groups then
    /// run one after another on one thread, so the trace is deterministic.
    pub trace: Option<Arc<TraceSink>>,
    /// Fetch resources (VTX buffers, TEX resources) the host binds; ids
    /// without a binding keep the runtime's defaults (buffer 1 = the global
    /// pool, 2 = the object's `.text`, 3 = the kernel parameters, 160 = the
    /// RAT return buffer).
    pub resources: crate::resource::Resources,
    /// Initial values of the 16 append/consume counters that GDS ops with
    /// ALLOC_CONSUME work on (guide 9.6 MEM_GDS_WORD1 UAV_ID); their values
    /// after the run are [`Stats::append_consume`]. Default 0.
    pub append_consume: [u32; crate::sync::APPEND_COUNTERS],
    /// Count, per CF instruction, ALU group and fetch instruction, the
    /// waves that executed it and their active lanes, into this sink
    /// ([`crate::profile`]).
    pub profile: Option<Arc<ProfileSink>>,
    /// Watch the dispatch: one observer per worker thread (one per
    /// work-group when the program waits on other waves) sees every CF
    /// instruction, ALU group and fetch of its waves ([`crate::observe`]).
    pub observe: Option<ObserverFactory>,
}

impl Dispatch {
    /// A 1-D dispatch.
    pub fn linear(grid: u32, block: u32) -> Dispatch {
        Dispatch {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            offset: [0; 3],
            work_dim: 1,
            max_instructions: 100_000_000,
            threads: 1,
            atomics_byte_addressed: false,
            trace: None,
            resources: crate::resource::Resources::new(),
            append_consume: [0; crate::sync::APPEND_COUNTERS],
            profile: None,
            observe: None,
        }
    }
}

/// Build constant buffer 0: group counts, global size, local size, the
/// explicit arguments from dword 9, then libclc's implicit block (work_dim,
/// global offset x, y, z). Returns (dwords, dynamic LDS bytes).
pub fn build_cb0(k: &Kernel, d: &Dispatch, args: &[Arg]) -> Result<(Vec<u32>, u32), Fault> {
    let mut b: Vec<u8> = Vec::new();
    let groups: Vec<u32> = (0..3)
        .map(|i| d.grid[i].div_ceil(d.block[i].max(1)))
        .collect();
    for v in groups.iter().chain(d.grid.iter()).chain(d.block.iter()) {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let mut lds_top = k.lds_bytes;
    for a in args {
        if matches!(a, Arg::U32(_) | Arg::Ptr(_) | Arg::F32(_) | Arg::Local(_)) {
            pad_to(&mut b, 4);
        }
        match a {
            Arg::U32(v) | Arg::Ptr(v) => b.extend_from_slice(&v.to_le_bytes()),
            Arg::F32(v) => b.extend_from_slice(&v.to_bits().to_le_bytes()),
            Arg::U64(v) => {
                // Natural alignment counts from the first explicit argument
                // (dword 9), not from the start of the buffer: LLVM's r600
                // back end puts a `long` after one pointer at KC0[2].W.
                pad_to(&mut b, 8);
                b.extend_from_slice(&v.to_le_bytes());
            }
            Arg::Bytes(v, align) => {
                pad_to(&mut b, (*align).max(1) as usize);
                b.extend_from_slice(v);
            }
            Arg::Local(n) => {
                lds_top = lds_top.next_multiple_of(4);
                b.extend_from_slice(&lds_top.to_le_bytes());
                lds_top = lds_top
                    .checked_add(*n)
                    .ok_or_else(|| Fault::new("LDS size overflows"))?;
            }
        }
    }
    // libclc's implicit block starts at the next dword.
    pad_to(&mut b, 4);
    for v in [d.work_dim, d.offset[0], d.offset[1], d.offset[2]] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    while !b.len().is_multiple_of(16) {
        b.push(0);
    }
    let words = b
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((words, lds_top - k.lds_bytes))
}

/// Byte offset of the first explicit argument in constant buffer 0.
const EXPLICIT_START: usize = 36;

/// Pads the constant buffer so that the next argument is `align`-aligned
/// counting from the first explicit argument.
fn pad_to(b: &mut Vec<u8>, align: usize) {
    while !(b.len() - EXPLICIT_START).is_multiple_of(align) {
        b.push(0);
    }
}

/// Largest LDS a work-group may use (32 KiB on Cayman).
pub const LDS_LIMIT: u32 = 32 * 1024;

/// Run `kernel` over the grid. Global memory accesses go through `mem`; a
/// fault stops the dispatch and names the CF index, clause, group, slot,
/// thread and work-group (the lowest-numbered faulting work-group wins).
pub fn run(
    kernel: &Kernel,
    d: &Dispatch,
    args: &[Arg],
    mem: &dyn GlobalMemory,
) -> Result<Stats, Fault> {
    // a fresh, zeroed global data share per dispatch
    let gds = crate::memory::Pool::new(GDS_BYTES);
    run_with_gds(kernel, d, args, mem, &gds)
}

/// Bytes of global data share (guide 2.6.3: 64 kB).
pub const GDS_BYTES: usize = 64 * 1024;

/// [`run`] with a caller-provided global data share (byte addressed; the
/// host can preload it and read it back after the dispatch).
pub fn run_with_gds(
    kernel: &Kernel,
    d: &Dispatch,
    args: &[Arg],
    mem: &dyn GlobalMemory,
    gds: &dyn GlobalMemory,
) -> Result<Stats, Fault> {
    if d.block.contains(&0) || d.grid.contains(&0) {
        return Err(Fault::new("grid and block sizes must be non-zero"));
    }
    let lanes = d.block[0] as u64 * d.block[1] as u64 * d.block[2] as u64;
    if lanes > 1024 {
        return Err(Fault::new(format!(
            "work-group of {lanes} work-items exceeds the 1024 the hardware allows"
        )));
    }
    let (cb0, dyn_lds) = build_cb0(kernel, d, args)?;
    let lds_bytes = kernel.lds_bytes + dyn_lds;
    if lds_bytes > LDS_LIMIT {
        return Err(Fault::new(format!(
            "work-group needs {lds_bytes} bytes of LDS, more than the {LDS_LIMIT} available"
        )));
    }
    let cbs = vec![cb0];
    let nwaves = lanes.div_ceil(64) as u32;
    let sync = crate::sync::SyncState::with_append_counters(d.append_consume);
    let env = Env {
        prog: &kernel.program,
        cb: &cbs,
        global: mem,
        text: &kernel.text,
        num_gprs: kernel.num_gprs,
        loop_consts: [0; 32],
        bool_consts: 0,
        waves_in_group: nwaves,
        atomics_byte_addressed: d.atomics_byte_addressed,
        made_by_llvm: kernel.made_by_llvm,
        gds,
        resources: &d.resources,
        sync: &sync,
    };
    let ng: [u32; 3] = std::array::from_fn(|i| d.grid[i].div_ceil(d.block[i]));
    let total = ng[0] as u64 * ng[1] as u64 * ng[2] as u64;
    let tracer = d.trace.as_ref().map(|sink| {
        let code = kernel.text.get(kernel.offset as usize..).unwrap_or(&[]);
        Tracer::new(sink.clone(), code, &kernel.program)
    });
    let layout = d
        .profile
        .as_ref()
        .map(|_| Arc::new(Layout::new(&kernel.program)));
    let per_wave = PerWave {
        tracer: &tracer,
        layout: &layout,
    };
    if kernel.program.uses_sync {
        let r = run_resident(&env, kernel, d, ng, nwaves, lanes, lds_bytes, per_wave);
        if let Some(s) = &d.trace {
            s.flush();
        }
        return r.map(|st| Stats {
            append_consume: sync.append_counters(),
            ..st
        });
    }
    let threads = if tracer.is_some() {
        1
    } else if d.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        d.threads
    };
    let (workers, fault, _) = risa_workers::run_groups(
        total,
        threads,
        false,
        |_| {
            let lds = vec![0u32; (lds_bytes as usize).div_ceil(4)];
            let obs = d.observe.as_ref().map(|f| f.make());
            (Vec::<Wave>::new(), lds, Stats::default(), obs)
        },
        |(waves, lds, st, obs), g| {
            let gid = risa_workers::group_id(g, ng);
            if let Some(o) = obs.as_mut() {
                o.group_start(gid, g, nwaves as usize, lds.len() * 4);
            }
            let r = run_group(&env, d, gid, nwaves, lanes, waves, lds, per_wave, obs);
            if let Some(o) = obs.as_mut() {
                o.group_end(gid);
            }
            r.map(|s| st.add(&s))
        },
        |_, _| {},
    );
    if let Some(s) = &d.trace {
        s.flush();
    }
    if let (Some(sink), Some(layout)) = (&d.profile, &layout) {
        let mut counts = Vec::new();
        merge(
            &mut counts,
            workers
                .iter()
                .flat_map(|(w, _, _, _)| w.iter().map(|w| &w.prof)),
        );
        sink.add(kernel, layout, &counts);
    }
    if let Some((_, f)) = fault {
        return Err(f);
    }
    let mut stats = Stats::default();
    for (_, _, st, _) in &workers {
        stats.add(st);
    }
    Ok(Stats {
        append_consume: sync.append_counters(),
        ..stats
    })
}

/// What every wave of a dispatch gets attached: the tracer, the profile layout.
#[derive(Clone, Copy)]
struct PerWave<'a> {
    tracer: &'a Option<Arc<Tracer>>,
    layout: &'a Option<Arc<Layout>>,
}

/// Set up the waves of work-group `gid`: T0.XYZ = local id, T1.XYZ = group id.
fn launch(
    d: &Dispatch,
    gid: [u32; 3],
    nwaves: u32,
    lanes: u64,
    waves: &mut Vec<Wave>,
    per_wave: PerWave,
) {
    let tracer = per_wave.tracer;
    while waves.len() < nwaves as usize {
        waves.push(Wave::new(0, gid, 0, 0));
    }
    for (w, wave) in waves.iter_mut().enumerate().take(nwaves as usize) {
        let first = w as u64 * 64;
        let n = (lanes - first).min(64);
        let valid = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        wave.reset(valid, gid, w as u32, d.max_instructions);
        if tracer.is_some() {
            wave.set_trace(tracer.clone());
        }
        if let Some(layout) = per_wave.layout {
            wave.set_profile(layout);
        }
        for l in 0..n as usize {
            let t = (first + l as u64) as u32;
            let lx = t % d.block[0];
            let ly = (t / d.block[0]) % d.block[1];
            let lz = t / (d.block[0] * d.block[1]);
            wave.gpr_mut(0, 0)[l] = lx;
            wave.gpr_mut(0, 1)[l] = ly;
            wave.gpr_mut(0, 2)[l] = lz;
            wave.gpr_mut(1, 0)[l] = gid[0];
            wave.gpr_mut(1, 1)[l] = gid[1];
            wave.gpr_mut(1, 2)[l] = gid[2];
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_group(
    env: &Env,
    d: &Dispatch,
    gid: [u32; 3],
    nwaves: u32,
    lanes: u64,
    waves: &mut Vec<Wave>,
    lds: &mut [u32],
    per_wave: PerWave,
    obs: &mut Option<Box<dyn Observer>>,
) -> Result<Stats, Fault> {
    lds.fill(0);
    launch(d, gid, nwaves, lanes, waves, per_wave);
    let ws = &mut waves[..nwaves as usize];
    loop {
        let mut waiting = 0;
        for w in ws.iter_mut() {
            if w.done {
                continue;
            }
            let r = if obs.is_some() {
                observed_run(w, env, lds, obs)
            } else {
                w.run(env, lds)
            };
            match r? {
                Yield::Barrier => waiting += 1,
                Yield::Done => {}
                // only programs without cross-wave waits run here
                Yield::Blocked => return Err(w.deadlock()),
            }
        }
        if waiting == 0 {
            break;
        }
    }
    let mut st = Stats {
        workgroups: 1,
        waves: nwaves as u64,
        ..Stats::default()
    };
    for w in ws.iter() {
        st.add(&w.stats);
    }
    Ok(st)
}

/// Runs `w` with the thread's observer lent to it; the observer sees the
/// wave stop at a barrier.
fn observed_run(
    w: &mut Wave,
    env: &Env,
    lds: &mut [u32],
    obs: &mut Option<Box<dyn Observer>>,
) -> Result<Yield, Fault> {
    w.set_observer(obs.take());
    let r = w.run(env, lds);
    *obs = w.take_observer();
    if let (Ok(Yield::Barrier), Some(o)) = (&r, obs.as_mut()) {
        o.barrier(w);
    }
    r
}

/// Most waves a dispatch may have when its program waits on other waves
/// (GWS, ordered append): such programs run with every wave resident.
pub const MAX_RESIDENT_WAVES: u64 = 512;

/// Every wave of the dispatch resident, run in turns on one thread: a wave
/// that has to wait (GWS, ordered append, GROUP_BARRIER) yields to the
/// others; waves at a GROUP_BARRIER go on once every unfinished wave of
/// their group is there; a round in which no wave moves is a deadlock and
/// faults at the first waiting wave.
#[allow(clippy::too_many_arguments)]
fn run_resident(
    env: &Env,
    kernel: &Kernel,
    d: &Dispatch,
    ng: [u32; 3],
    nwaves: u32,
    lanes: u64,
    lds_bytes: u32,
    per_wave: PerWave,
) -> Result<Stats, Fault> {
    let total = ng[0] as u64 * ng[1] as u64 * ng[2] as u64;
    if total * nwaves as u64 > MAX_RESIDENT_WAVES {
        return Err(Fault::new(format!(
            "the program waits on other waves (GWS or ordered append), so all {} waves of the \
             dispatch must be resident; risa keeps at most {MAX_RESIDENT_WAVES}",
            total * nwaves as u64
        )));
    }
    let mut groups: Vec<Group> = (0..total)
        .map(|g| {
            let gid = risa_workers::group_id(g, ng);
            let mut waves = Vec::new();
            launch(d, gid, nwaves, lanes, &mut waves, per_wave);
            for (w, wave) in waves.iter_mut().enumerate() {
                wave.dispatch_index = (g * nwaves as u64) as usize + w;
            }
            let mut obs = d.observe.as_ref().map(|f| f.make());
            if let Some(o) = obs.as_mut() {
                o.group_start(gid, g, nwaves as usize, lds_bytes as usize);
            }
            Group {
                gid,
                waves,
                lds: vec![0u32; (lds_bytes as usize).div_ceil(4)],
                at_barrier: vec![false; nwaves as usize],
                obs,
            }
        })
        .collect();
    let r = resident_turns(env, &mut groups);
    for g in groups.iter_mut() {
        if let Some(o) = g.obs.as_mut() {
            o.group_end(g.gid);
        }
    }
    if let (Some(sink), Some(layout)) = (&d.profile, per_wave.layout) {
        let mut counts = Vec::new();
        merge(
            &mut counts,
            groups.iter().flat_map(|g| g.waves.iter().map(|w| &w.prof)),
        );
        sink.add(kernel, layout, &counts);
    }
    r?;
    let mut st = Stats::default();
    for g in &groups {
        st.workgroups += 1;
        st.waves += g.waves.len() as u64;
        for w in &g.waves {
            st.add(&w.stats);
        }
    }
    Ok(st)
}

/// The waves of one resident work-group.
struct Group {
    gid: [u32; 3],
    waves: Vec<Wave>,
    lds: Vec<u32>,
    at_barrier: Vec<bool>,
    /// The group's observer (when the dispatch is observed).
    obs: Option<Box<dyn Observer>>,
}

/// Runs the resident waves in turns until all are done (see [`run_resident`]).
fn resident_turns(env: &Env, groups: &mut [Group]) -> Result<(), Fault> {
    loop {
        let mut progress = false;
        let mut left = false;
        for g in groups.iter_mut() {
            let open: Vec<usize> = (0..g.waves.len()).filter(|&w| !g.waves[w].done).collect();
            if !open.is_empty() && open.iter().all(|&w| g.at_barrier[w]) {
                g.at_barrier.fill(false);
                progress = true;
            }
            for &w in &open {
                if g.at_barrier[w] {
                    continue;
                }
                let wave = &mut g.waves[w];
                let before = wave.budget;
                let r = if g.obs.is_some() {
                    observed_run(wave, env, &mut g.lds, &mut g.obs)
                } else {
                    wave.run(env, &mut g.lds)
                };
                match r? {
                    Yield::Done => {
                        env.sync.wave_ended(wave.dispatch_index);
                        progress = true;
                    }
                    Yield::Barrier => {
                        g.at_barrier[w] = true;
                        progress = true;
                    }
                    Yield::Blocked => progress |= wave.budget != before,
                }
            }
            left |= g.waves.iter().any(|w| !w.done);
        }
        if !left {
            break;
        }
        if !progress {
            let w = groups
                .iter()
                .flat_map(|g| g.waves.iter())
                .find(|w| !w.done && w.blocked_on.is_some())
                .or_else(|| groups.iter().flat_map(|g| g.waves.iter()).find(|w| !w.done));
            return Err(match w {
                Some(w) => w.deadlock(),
                None => Fault::new("deadlock"),
            });
        }
    }
    Ok(())
}
