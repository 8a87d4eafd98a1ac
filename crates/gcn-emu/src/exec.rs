//! Running waves: the interpreter loop, work-group scheduling at barriers,
//! statistics and tracing.

use crate::fault::{Fault, FaultKind};
use crate::gds::Gds;
use crate::mem::Memory;
use crate::program::{Cat, Op, Program, Src, Wrapper, CAT_COUNT};
use crate::sem::{GPR_IDX_EN, VSKIP};
use crate::wave::M0;
use crate::wave::{Status, Wave};
use std::io::Write;

/// The semantics of one instruction.
pub type Handler = fn(&mut Wave, &Op, &mut Ctx) -> Result<(), FaultKind>;

/// Counters kept while running.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Wave-instructions executed per [`crate::program::Cat`].
    pub instructions: [u64; CAT_COUNT],
    /// Bytes read from device memory by vector and scalar loads.
    pub bytes_read: u64,
    /// Bytes written to device memory.
    pub bytes_written: u64,
    /// Bytes moved between VGPRs and LDS.
    pub lds_bytes: u64,
    /// Waves run to completion.
    pub waves: u64,
}

impl Stats {
    /// Adds `o` to these counters.
    pub fn add(&mut self, o: &Stats) {
        for (a, b) in self.instructions.iter_mut().zip(o.instructions.iter()) {
            *a += b;
        }
        self.bytes_read += o.bytes_read;
        self.bytes_written += o.bytes_written;
        self.lds_bytes += o.lds_bytes;
        self.waves += o.waves;
    }

    /// All wave-instructions.
    pub fn total(&self) -> u64 {
        self.instructions.iter().sum()
    }
}

/// Everything a handler may touch besides its wave.
pub struct Ctx<'a> {
    /// The program being run (branch targets, code base address).
    pub prog: &'a Program,
    /// Device memory.
    pub mem: &'a dyn Memory,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// Counters.
    pub stats: Stats,
    /// Per-wave instruction budget.
    pub budget: u64,
    /// Trace output: every executed instruction and the registers it wrote.
    pub trace: Option<Box<dyn Write + Send>>,
    /// Prefix for trace lines (e.g. the work-group id).
    pub trace_tag: String,
    /// The device's global data share (GDS=1 DS instructions, GWS, ordered
    /// count); `None`: those instructions fault.
    pub gds: Option<&'a Gds>,
    /// Linear index of the work-group in dispatch order (for ordered count).
    pub group: u64,
    /// Waves in the work-group (set by [`run_group`]).
    pub group_waves: u32,
    /// A tool watching every instruction (checkers, profilers); `None` runs
    /// the plain loop at full speed.
    pub observer: Option<Box<dyn Observer>>,
}

/// A point in a wave's life that an [`Observer`] hears about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaveEvent {
    /// The wave starts or resumes running (after a barrier or a GDS wait).
    Resume,
    /// The wave stopped at `s_barrier`, waiting for the rest of its group.
    Barrier,
    /// The wave parked on a GDS resource.
    Parked,
    /// The wave ended (`s_endpgm`).
    Done,
}

/// Watches the instructions waves issue: the hook the run-time checkers and
/// profilers are built on. It runs on the worker thread of the work-group,
/// so one observer sees one work-group at a time and needs no locking for
/// per-group state.
///
/// ```
/// use risa_gcn::Gen;
/// use risa_gcn_emu::exec::{self, Observer};
/// use risa_gcn_emu::{program::Op, Ctx, Program, SimpleMemory, Wave};
/// struct Count(std::sync::Arc<std::sync::atomic::AtomicU64>);
/// impl Observer for Count {
///     fn before(&mut self, _: &Wave, _: usize, _: &Op, _: &Ctx) {
///         self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///     }
/// }
/// let code = [0x3200_0085u32, 0xbf81_0000]; // v_add_u32 ; s_endpgm
/// let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
/// let prog = Program::new(Gen::Gcn12, &bytes, 0x1000);
/// let mem = SimpleMemory::new();
/// let mut lds = vec![];
/// let mut ctx = Ctx::new(&prog, &mem, &mut lds);
/// let n = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
/// ctx.observer = Some(Box::new(Count(n.clone())));
/// exec::run_wave(&mut Wave::new(0), &mut ctx).unwrap();
/// assert_eq!(n.load(std::sync::atomic::Ordering::Relaxed), 2);
/// ```
pub trait Observer: Send {
    /// `op` (the program's op `idx`) is about to run: `w` holds what it
    /// reads, and its pc already points past it.
    fn before(&mut self, _w: &Wave, _idx: usize, _op: &Op, _ctx: &Ctx) {}
    /// `op` ran with result `r`. The observer may change the wave (e.g. hold
    /// a load's results back until an `s_waitcnt` covers them).
    fn after(
        &mut self,
        _w: &mut Wave,
        _idx: usize,
        _op: &Op,
        _ctx: &mut Ctx,
        _r: &Result<(), FaultKind>,
    ) {
    }
    /// The wave started, stopped or ended (see [`WaveEvent`]).
    fn event(&mut self, _w: &mut Wave, _ev: WaveEvent, _ctx: &mut Ctx) {}
    /// Work-group `group` (linear, dispatch order) begins ([`run_group`]);
    /// its waves are set up.
    fn group_start(&mut self, _group: u64, _waves: &[Wave]) {}
    /// Work-group `group` is over (also when it faulted).
    fn group_end(&mut self, _group: u64) {}
}

impl<'a> Ctx<'a> {
    /// A context with no trace and a budget of 2^40 instructions per wave.
    pub fn new(prog: &'a Program, mem: &'a dyn Memory, lds: &'a mut [u8]) -> Ctx<'a> {
        Ctx {
            prog,
            mem,
            lds,
            stats: Stats::default(),
            budget: 1 << 40,
            trace: None,
            trace_tag: String::new(),
            gds: None,
            group: 0,
            group_waves: 1,
            observer: None,
        }
    }
}

fn instr_text(op: &Op) -> String {
    if op.instr.op == 0 && op.instr.enc == risa_gcn::Enc::Sopp && op.instr.len == 1 {
        // A word that did not decode (see Program::new).
        if risa_gcn::decode(op.instr.gen, &[op.instr.raw as u32]).is_err() {
            return format!(".long {:#010x}", op.instr.raw as u32);
        }
    }
    risa_gcn::print(&op.instr, risa_gcn::Dialect::Llvm)
}

fn fault(prog: &Program, w: &Wave, idx: usize, kind: FaultKind) -> Fault {
    let (pc, instr) = match prog.ops.get(idx) {
        Some(op) => (u64::from(op.offset), instr_text(op)),
        None => (0, String::from("<none>")),
    };
    Fault {
        kind,
        pc,
        instr,
        wave: w.id,
    }
}

/// MODE.FP_ROUND (bits 3:0): the f32 rounding mode in bits 1:0, the f64/f16
/// mode in bits 3:2 (0 nearest-even, 1 toward +inf, 2 toward -inf, 3 toward
/// zero; GcnState.md "MODE register").
pub const FP_ROUND: u32 = 0xf;

/// MODE bits under which an op leaves the fast path: VGPR indexing, a
/// rounding mode other than nearest-even, VSKIP. Testing them costs the loop
/// the same single AND it always had, so the default mode runs no slower.
const SLOW: u32 = GPR_IDX_EN | FP_ROUND | VSKIP;

/// Runs `w` until it ends, reaches a barrier or faults.
pub fn run_wave(w: &mut Wave, ctx: &mut Ctx) -> Result<(), Fault> {
    if ctx.trace.is_some() {
        return run_wave_traced(w, ctx);
    }
    if let Some(obs) = ctx.observer.take() {
        return run_wave_observed(w, ctx, obs);
    }
    let ops = &ctx.prog.ops[..];
    while w.status == Status::Running {
        let Some((idx, op)) = fetch(w, ctx, ops) else {
            return Err(fetch_fault(w, ctx));
        };
        if let Err(k) = issue(w, op, ctx) {
            return Err(fault(ctx.prog, w, idx, k));
        }
    }
    Ok(())
}

/// The op at the wave's pc in `ops` (the program's, read once per run),
/// counted: the pc moves past it, the wave's and
/// the dispatch's instruction counts grow. `None` when there is no op there
/// or the budget is exceeded ([`fetch_fault`] says which).
#[inline(always)]
fn fetch<'a>(w: &mut Wave, ctx: &mut Ctx, ops: &'a [Op]) -> Option<(usize, &'a Op)> {
    let idx = w.pc as usize;
    let op = ops.get(idx)?;
    w.pc += 1;
    w.count += 1;
    ctx.stats.instructions[op.cat as usize] += 1;
    (w.count <= ctx.budget).then_some((idx, op))
}

/// Why [`fetch`] returned `None`: the budget ran out on the op just counted,
/// or the pc is at no op (a budget overrun is caught the moment it happens,
/// so a count past the budget means the former).
#[cold]
fn fetch_fault(w: &Wave, ctx: &Ctx) -> Fault {
    let prog = ctx.prog;
    if w.count > ctx.budget {
        return fault(prog, w, w.pc as usize - 1, FaultKind::Budget(ctx.budget));
    }
    let addr = prog
        .ops
        .last()
        .map(|o| u64::from(o.offset) + 4 * u64::from(o.instr.len))
        .unwrap_or(0);
    fault(prog, w, w.pc as usize, FaultKind::BadPc(prog.base + addr))
}

/// Executes a fetched op: its handler, or [`run_special`] under a rare MODE.
#[inline(always)]
fn issue(w: &mut Wave, op: &Op, ctx: &mut Ctx) -> Result<(), FaultKind> {
    if w.mode & SLOW != 0 {
        run_special(w, op, ctx)
    } else {
        (op.run)(w, op, ctx)
    }
}

/// An op while VSKIP, VGPR indexing or a rounding mode other than
/// nearest-even is on (all rare, kept off the hot path): vector ops are
/// skipped under VSKIP; a VALU op takes its rounding-mode handler when
/// MODE.FP_ROUND is set (the same handler for ops that do not round), with
/// its operands indexed under VGPR indexing.
#[inline(never)]
fn run_special(w: &mut Wave, op: &Op, ctx: &mut Ctx) -> Result<(), FaultKind> {
    if w.mode & VSKIP != 0 && matches!(op.cat, Cat::Valu | Cat::Vmem | Cat::Lds) {
        // s_setvskip: vector instructions are not issued (AMD's manuals:
        // no VOP*, MUBUF/MTBUF/MIMG, DS or FLAT while VSKIP is set).
        return Ok(());
    }
    if op.cat != Cat::Valu {
        return (op.run)(w, op, ctx);
    }
    let run = if w.mode & FP_ROUND != 0 {
        // The loop has already moved the pc past this op.
        ctx.prog.round[w.pc as usize - 1]
    } else {
        op.run
    };
    if w.mode & GPR_IDX_EN != 0 {
        run_indexed(w, op, run, ctx)
    } else {
        run(w, op, ctx)
    }
}

/// A VALU op while VGPR indexing is on (s_set_gpr_idx_on, GCN 1.2+): the VGPR
/// operands M0[15:12] selects (bit 0 src0, 1 src1, 2 src2, 3 dst) are offset by
/// M0[7:0]. Only the instruction's real VGPRs move: an SDWA, DPP or OP_SEL op
/// keeps its temporaries (v256 and up) and has its real operands, held in the
/// program's side tables, moved instead.
fn run_indexed(w: &mut Wave, op: &Op, run: Handler, ctx: &mut Ctx) -> Result<(), FaultKind> {
    let m0 = w.s[M0];
    let idx = (m0 & 0xff) as u16;
    let mode = (m0 >> 12) & 0xf;
    let shift = |r: u16| -> Result<u16, FaultKind> {
        if r + idx > 255 {
            return Err(FaultKind::BadOperand(format!(
                "v{r} indexed by {idx} is past v255"
            )));
        }
        Ok(r + idx)
    };
    // A real VGPR source `s` moved when mode bit `k` selects it.
    let src = |k: usize, s: Src| -> Result<Src, FaultKind> {
        match s {
            Src::V(r) if r < 256 && mode >> k & 1 != 0 => Ok(Src::V(shift(r)?)),
            s => Ok(s),
        }
    };
    let mut o = op.clone();
    for k in 0..3 {
        o.src[k] = src(k, o.src[k])?;
    }
    let vgpr_dst = op
        .instr
        .info()
        .operand(risa_gcn::table::Role::D)
        .is_some_and(|d| !d.sgpr);
    if mode & 8 != 0 && vgpr_dst && o.d < 256 {
        o.d = shift(o.d)?;
    }
    let round = w.mode & FP_ROUND != 0;
    match ctx.prog.wrapper(op) {
        Wrapper::None => run(w, &o, ctx),
        Wrapper::Ext => {
            let mut x = ctx.prog.ext[op.aux as usize];
            for k in 0..2 {
                x.src[k] = src(k, x.src[k])?;
            }
            if mode & 8 != 0 && x.dst != u16::MAX {
                x.dst = shift(x.dst)?;
            }
            crate::sem::sdwa::run_ext(w, &o, ctx, &x, round)
        }
        Wrapper::OpSel => {
            let mut x = ctx.prog.opsel[op.aux as usize];
            for k in 0..3 {
                x.src[k] = src(k, x.src[k])?;
            }
            if mode & 8 != 0 && x.dst != u16::MAX {
                x.dst = shift(x.dst)?;
            }
            crate::sem::opsel::run_with(w, &o, ctx, &x, round)
        }
    }
}

/// Two observers of one worker thread, called in order.
pub struct Both(pub Box<dyn Observer>, pub Box<dyn Observer>);

impl Observer for Both {
    fn before(&mut self, w: &Wave, idx: usize, op: &Op, ctx: &Ctx) {
        self.0.before(w, idx, op, ctx);
        self.1.before(w, idx, op, ctx);
    }
    fn after(
        &mut self,
        w: &mut Wave,
        idx: usize,
        op: &Op,
        ctx: &mut Ctx,
        r: &Result<(), FaultKind>,
    ) {
        self.0.after(w, idx, op, ctx, r);
        self.1.after(w, idx, op, ctx, r);
    }
    fn event(&mut self, w: &mut Wave, ev: WaveEvent, ctx: &mut Ctx) {
        self.0.event(w, ev, ctx);
        self.1.event(w, ev, ctx);
    }
    fn group_start(&mut self, group: u64, waves: &[Wave]) {
        self.0.group_start(group, waves);
        self.1.group_start(group, waves);
    }
    fn group_end(&mut self, group: u64) {
        self.0.group_end(group);
        self.1.group_end(group);
    }
}

/// The loop with an [`Observer`] (taken out of `ctx` while it runs, so it can
/// be handed the context).
fn run_wave_observed(w: &mut Wave, ctx: &mut Ctx, mut obs: Box<dyn Observer>) -> Result<(), Fault> {
    let prog = ctx.prog;
    let ops = &prog.ops[..];
    obs.event(w, WaveEvent::Resume, ctx);
    let r = loop {
        if w.status != Status::Running {
            let ev = match w.status {
                Status::Barrier => WaveEvent::Barrier,
                Status::Sync => WaveEvent::Parked,
                _ => WaveEvent::Done,
            };
            obs.event(w, ev, ctx);
            break Ok(());
        }
        let Some((idx, op)) = fetch(w, ctx, ops) else {
            break Err(fetch_fault(w, ctx));
        };
        obs.before(w, idx, op, ctx);
        let r = issue(w, op, ctx);
        obs.after(w, idx, op, ctx, &r);
        if let Err(k) = r {
            break Err(fault(prog, w, idx, k));
        }
    };
    ctx.observer = Some(obs);
    r
}

fn run_wave_traced(w: &mut Wave, ctx: &mut Ctx) -> Result<(), Fault> {
    let prog = ctx.prog;
    let ops = &prog.ops[..];
    while w.status == Status::Running {
        let before = w.clone();
        let Some((idx, op)) = fetch(w, ctx, ops) else {
            return Err(fetch_fault(w, ctx));
        };
        let r = issue(w, op, ctx);
        let mut line = format!(
            "{} w{} {:#06x}: {}",
            ctx.trace_tag,
            w.id,
            op.offset,
            instr_text(op)
        );
        for i in 0..128 {
            if before.s[i] != w.s[i] {
                line.push_str(&format!(" s{}={:#x}", i, w.s[i]));
            }
        }
        if before.scc != w.scc {
            line.push_str(&format!(" scc={}", w.scc as u8));
        }
        for r in 0..256 {
            if before.v[r] != w.v[r] {
                let e = w.exec();
                let first = if e == 0 {
                    0
                } else {
                    e.trailing_zeros() as usize
                };
                line.push_str(&format!(" v{}[{}]={:#x}", r, first, w.v[r][first]));
            }
        }
        if let Some(t) = ctx.trace.as_mut() {
            let _ = writeln!(t, "{line}");
        }
        if let Err(k) = r {
            return Err(fault(prog, w, idx, k));
        }
    }
    Ok(())
}

/// Runs the waves of one work-group to completion: each wave runs until it
/// ends, reaches `s_barrier` or parks on a GDS resource; when every live wave
/// waits at the barrier, all are released. Waves run one after another on the
/// calling thread, so LDS needs no locking and results do not depend on
/// timing. When only parked waves are left, the thread sleeps until another
/// work-group changes the GDS state (see [`Gds::wait_change`]).
pub fn run_group(
    waves: &mut [Wave],
    ctx: &mut Ctx,
    mut on_wave_start: impl FnMut(&Wave, &mut Ctx),
) -> Result<(), Fault> {
    if let Some(o) = ctx.observer.as_mut() {
        o.group_start(ctx.group, waves);
    }
    let r = run_group_waves(waves, ctx, &mut on_wave_start);
    if let Some(o) = ctx.observer.as_mut() {
        o.group_end(ctx.group);
    }
    r
}

fn run_group_waves(
    waves: &mut [Wave],
    ctx: &mut Ctx,
    on_wave_start: &mut impl FnMut(&Wave, &mut Ctx),
) -> Result<(), Fault> {
    let mut seen = ctx.gds.map_or(0, |g| g.epoch());
    let n = waves.len() as u32;
    ctx.group_waves = n;
    loop {
        for w in waves.iter_mut() {
            if w.status == Status::Running {
                on_wave_start(w, ctx);
                run_wave(w, ctx)?;
                if w.status == Status::Done {
                    ctx.stats.waves += 1;
                    if let Some(g) = ctx.gds {
                        g.wave_ended((ctx.group, w.id), n);
                    }
                }
            }
        }
        if let Some(w) = waves.iter().find(|w| w.status == Status::Sync) {
            // Sync is only set by GDS handlers, which need ctx.gds.
            let Some(g) = ctx.gds else { return Ok(()) };
            match g.wait_change(seen) {
                Ok(e) => seen = e,
                Err(k) => return Err(fault(ctx.prog, w, w.pc as usize, k)),
            }
            for w in waves.iter_mut() {
                if w.status == Status::Sync {
                    w.status = Status::Running;
                }
            }
            continue;
        }
        let mut waiting = false;
        for w in waves.iter_mut() {
            if w.status == Status::Barrier {
                w.status = Status::Running;
                waiting = true;
            }
        }
        if !waiting {
            return Ok(());
        }
    }
}
