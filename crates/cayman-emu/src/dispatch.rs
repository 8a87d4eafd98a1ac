//! Grid dispatch of a prepared kernel: sets up each wave's launch state
//! (T0.XYZ local id, T1.XYZ group id), runs work-groups in parallel over CPU
//! threads; waves of one work-group share LDS and meet at GROUP_BARRIER. The
//! constant buffers (the kernel's inputs) come from the host: the runtime
//! lays out constant buffer 0 as Mesa's r600 compute path does
//! (`risa_runtime::cayman::abi`, ABI-NOTES).

use crate::fault::{Fault, Stats};
use crate::kernel::Kernel;
use crate::memory::GlobalMemory;
use crate::observe::{Observer, ObserverFactory};
use crate::profile::{merge, Layout, ProfileSink};
use crate::trace::{TraceSink, Tracer};
use crate::wave::{Env, Wave, Yield};
use std::sync::Arc;

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
    /// Constant buffers the host binds (index = kcache bank): buffer 0
    /// holds the kernel's inputs as the runtime lays them out (grid, block,
    /// arguments, libclc's implicit block). Default: none.
    pub constants: Vec<Vec<u32>>,
    /// LDS bytes the host allocates after the kernel's static LDS (the
    /// buffers of `__local` pointer arguments). Default 0.
    pub dynamic_lds: u32,
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
            constants: Vec::new(),
            dynamic_lds: 0,
            observe: None,
        }
    }
}

/// Largest LDS a work-group may use (32 KiB on Cayman).
pub const LDS_LIMIT: u32 = 32 * 1024;

/// Run `kernel` over the grid. Global memory accesses go through `mem`; a
/// fault stops the dispatch and names the CF index, clause, group, slot,
/// thread and work-group (the lowest-numbered faulting work-group wins).
pub fn run(kernel: &Kernel, d: &Dispatch, mem: &dyn GlobalMemory) -> Result<Stats, Fault> {
    // a fresh, zeroed global data share per dispatch
    let gds = crate::memory::Pool::new(GDS_BYTES);
    run_with_gds(kernel, d, mem, &gds)
}

/// Bytes of global data share (guide 2.6.3: 64 kB).
pub const GDS_BYTES: usize = 64 * 1024;

/// [`run`] with a caller-provided global data share (byte addressed; the
/// host can preload it and read it back after the dispatch).
pub fn run_with_gds(
    kernel: &Kernel,
    d: &Dispatch,
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
    let lds_bytes = kernel
        .lds_bytes
        .checked_add(d.dynamic_lds)
        .ok_or_else(|| Fault::new("LDS size overflows"))?;
    if lds_bytes > LDS_LIMIT {
        return Err(Fault::new(format!(
            "work-group needs {lds_bytes} bytes of LDS, more than the {LDS_LIMIT} available"
        )));
    }
    let nwaves = lanes.div_ceil(64) as u32;
    let sync = crate::sync::SyncState::with_append_counters(d.append_consume);
    let env = Env {
        prog: &kernel.program,
        cb: &d.constants,
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
        let r = run_resident(&env, kernel, d, ng, nwaves, lds_bytes, per_wave);
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
            let r = run_group(&env, d, gid, g, waves, lds, per_wave, obs);
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

/// The work-items of work-group `gid` per dimension: the block, but the
/// last group of a dimension whose global size is not a multiple of the
/// block holds only the rest (no work-item lies outside the grid; GCN's
/// dispatch does the same).
fn group_shape(d: &Dispatch, gid: [u32; 3]) -> [u32; 3] {
    std::array::from_fn(|i| d.block[i].min(d.grid[i] - gid[i] * d.block[i]))
}

/// Set up the waves of work-group `gid`: T0.XYZ = local id (within the
/// group's shape, [`group_shape`]), T1.XYZ = group id. Returns the group's
/// number of waves.
fn launch(d: &Dispatch, gid: [u32; 3], waves: &mut Vec<Wave>, per_wave: PerWave) -> u32 {
    let tracer = per_wave.tracer;
    let shape = group_shape(d, gid);
    let lanes = shape[0] as u64 * shape[1] as u64 * shape[2] as u64;
    let nwaves = lanes.div_ceil(64) as u32;
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
            let lx = t % shape[0];
            let ly = (t / shape[0]) % shape[1];
            let lz = t / (shape[0] * shape[1]);
            wave.gpr_mut(0, 0)[l] = lx;
            wave.gpr_mut(0, 1)[l] = ly;
            wave.gpr_mut(0, 2)[l] = lz;
            wave.gpr_mut(1, 0)[l] = gid[0];
            wave.gpr_mut(1, 1)[l] = gid[1];
            wave.gpr_mut(1, 2)[l] = gid[2];
        }
    }
    nwaves
}

#[allow(clippy::too_many_arguments)]
fn run_group(
    env: &Env,
    d: &Dispatch,
    gid: [u32; 3],
    g: u64,
    waves: &mut Vec<Wave>,
    lds: &mut [u32],
    per_wave: PerWave,
    obs: &mut Option<Box<dyn Observer>>,
) -> Result<Stats, Fault> {
    lds.fill(0);
    let nwaves = launch(d, gid, waves, per_wave);
    if let Some(o) = obs.as_mut() {
        o.group_start(gid, g, nwaves as usize, lds.len() * 4);
    }
    // A partial last group has fewer waves (NUM_THREADGRP_WAVES).
    let partial;
    let env = if nwaves == env.waves_in_group {
        env
    } else {
        partial = Env {
            waves_in_group: nwaves,
            ..*env
        };
        &partial
    };
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
    // Waves in dispatch order (ordered append counts them without gaps).
    let mut next_index = 0;
    let mut groups: Vec<Group> = (0..total)
        .map(|g| {
            let gid = risa_workers::group_id(g, ng);
            let mut waves = Vec::new();
            let n = launch(d, gid, &mut waves, per_wave);
            for wave in waves.iter_mut() {
                wave.dispatch_index = next_index;
                next_index += 1;
            }
            let mut obs = d.observe.as_ref().map(|f| f.make());
            if let Some(o) = obs.as_mut() {
                o.group_start(gid, g, n as usize, lds_bytes as usize);
            }
            Group {
                gid,
                waves,
                lds: vec![0u32; (lds_bytes as usize).div_ceil(4)],
                at_barrier: vec![false; n as usize],
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
