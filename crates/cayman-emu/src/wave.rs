//! One 64-thread wavefront: GPRs, PV, AR, predicate, active/valid masks, the
//! branch-loop stack, LDS output queues; CF execution (chapter 3) and ALU
//! groups (chapter 4) here; fetch/GDS clauses in `fetch`, RAT, scratch and
//! scatter exports in `export`, LDS_IDX_OP in `lds`.

use crate::alu::{self, Lanes, Sem, LANES};
use crate::fault::{Fault, Location, Stats};
use crate::fmode;
use crate::memory::GlobalMemory;
use crate::observe::{GroupAt, LdsAccess, Observer};
use crate::profile::{Layout, WaveCounts};
use crate::program::*;
use crate::trace::Tracer;
use std::collections::VecDeque;
use std::sync::Arc;

/// A CF index mode of 3 (CF_INVALID), which names neither CF_IDX0 nor CF_IDX1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("index mode 3 (CF_INVALID) is invalid")]
pub(crate) struct InvalidIndexMode;

mod export;
mod fetch;
mod lds;
mod traced;

pub use export::{RET_DWORDS, RET_RESOURCE, SCRATCH_DWORDS};
pub use fetch::PARAM_RESOURCE;
use lds::lds_op;

/// Largest number of branch-loop stack entries before a fault (runaway pushes).
pub const MAX_STACK: usize = 128;
/// Largest CALL nesting depth (guide 3.7.6).
pub const MAX_CALL_DEPTH: usize = 32;
/// First clause-temporary GPR (guide 4.6: typically GPRs 124 to 127).
pub const FIRST_CLAUSE_TEMP: u8 = 124;

/// What a wave shares with the rest of the dispatch.
pub struct Env<'a> {
    /// The program.
    pub prog: &'a Program,
    /// Constant buffers (index = kcache bank id); buffer 0 holds the kernel inputs.
    pub cb: &'a [Vec<u32>],
    /// The global pool (RAT0 and vertex buffer 1).
    pub global: &'a dyn GlobalMemory,
    /// Read-only bytes bound as vertex buffer 2 (the kernel object's `.text`).
    pub text: &'a [u8],
    /// GPRs the program declared (0 = all 128).
    pub num_gprs: u32,
    /// DX9 loop constants (count bits 11:0, init 23:12, increment 31:24).
    pub loop_consts: [u32; 32],
    /// Boolean constants (bit n = CF_CONST n).
    pub bool_consts: u32,
    /// Waves in this work-group (NUM_THREADGRP_WAVES).
    pub waves_in_group: u32,
    /// RAT atomics take a byte address (see [`crate::Dispatch`]).
    pub atomics_byte_addressed: bool,
    /// LLVM made the kernel ([`crate::Kernel::made_by_llvm`]): a RAT atomic
    /// that faults under the hardware's reading says why.
    pub made_by_llvm: bool,
    /// The global data share (64 KiB on Cayman, guide 2.6.3), byte addressed.
    pub gds: &'a dyn GlobalMemory,
    /// Fetch resources the host bound (VTX buffers, TEX resources).
    pub resources: &'a crate::resource::Resources,
    /// GWS resources and the ordered-append counter of the dispatch.
    pub sync: &'a crate::sync::SyncState,
}

#[derive(Clone, Copy, Debug)]
struct LoopState {
    saved: u64,
    broken: u64,
    cont: u64,
    counter: u32,
    inc: i32,
    prev_al: i32,
    kind: u8,
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Push(u64),
    Loop(LoopState),
    Call(u32),
}

/// ALU clause state kept while a wave waits at a barrier inside the clause.
#[derive(Clone, Copy, Debug)]
struct ClauseCtx {
    cf: u32,
    clause: u32,
    kind: AluKind,
    kcache: [Kcache; 4],
    exec: u64,
    exec_new: u64,
    broken: u64,
    cont: u64,
    killed: u64,
    group: usize,
}

/// Why [`Wave::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// Reached END.
    Done,
    /// Waiting at a GROUP_BARRIER.
    Barrier,
    /// Waiting for other waves of the dispatch (GWS, ordered append); run
    /// again to retry. [`Wave::blocked_on`] says on what.
    Blocked,
}

struct Scratch {
    res: [Lanes; 4],
    em: ExpandedMask,
    /// The exception flags the current group raises (clauses with `flags`).
    flags: Lanes,
    /// Per-wave registers the current group writes (rare; kept out of the
    /// group loop's locals so the common path's registers stay free).
    pending: Pending,
    /// Record the group's LDS operations in `lds_log` (observed waves).
    log_lds: bool,
    /// The LDS operations of the current group (observed waves).
    lds_log: Vec<LdsAccess>,
}

/// Per-wave register writes of one ALU group, committed after its slots.
#[derive(Default)]
struct Pending {
    any: bool,
    cf_idx: [Option<u32>; 2],
    lds_limit: Option<u32>,
}

/// A wavefront.
pub struct Wave {
    /// Register file rows: GPR r element c at 4r + c, then PV, then the
    /// group's materialized sources (see [`PV_ROW`], [`TMP_ROW`]).
    rows: Vec<Lanes>,
    /// GPR rows written since the last reset (bit r = row r): reset zeroes only those.
    touched: u128,
    ar: [Lanes; 4],
    pred: u64,
    active: u64,
    valid: u64,
    stack: Vec<Entry>,
    calls: usize,
    al: i32,
    oq: [VecDeque<Lanes>; 2],
    /// RAT return buffer (see [`RET_DWORDS`]).
    ret: Vec<u32>,
    ret_used: bool,
    /// Per-lane scratch buffers (lane l's dword d at l * SCRATCH_DWORDS + d),
    /// allocated on first use.
    scratch_mem: Vec<u32>,
    /// TEX state rows (SET_TEXTURE_OFFSETS, SET_GRADIENTS_H, _V: 4 rows
    /// each), allocated on first use.
    tex_state: Vec<Lanes>,
    /// Fetch/GDS clause instruction to resume at after a wait.
    fetch_resume: Option<usize>,
    /// Where the wave stands at a GWS barrier.
    gws_ticket: crate::sync::GwsTicket,
    /// What the wave waits for after [`Yield::Blocked`].
    pub blocked_on: Option<String>,
    /// The wave's position in the dispatch (group-linear × waves per group
    /// + index), the order of ordered-append allocations.
    pub dispatch_index: usize,
    pc: u32,
    resume: Option<ClauseCtx>,
    scratch: Option<Box<Scratch>>,
    /// CF index registers CF_IDX0/1 (guide 2.x "Index Register": two per
    /// wavefront), written by SET_CF_IDX0/1 and MOVA_INT.
    cf_idx: [u32; 2],
    /// SET_LDS_SIZE's limit in bytes (None: the group's whole LDS).
    lds_limit: Option<u32>,
    /// Floating-point exception flags per lane (guide 4.13.2), cleared at
    /// the start of each ALU clause.
    flags: Lanes,
    /// The tracer when the dispatch is traced.
    trace: Option<Arc<Tracer>>,
    /// State before the traced instruction (allocated when tracing).
    snap: Option<Box<traced::Snapshot>>,
    /// The observer of the worker thread running this wave, lent to it for
    /// one [`Wave::run`] ([`crate::observe`]).
    observer: Option<Box<dyn Observer>>,
    /// Traced or observed: run the instrumented loop.
    instrumented: bool,
    /// Counters.
    pub stats: Stats,
    /// Per-instruction counts when the dispatch is profiled.
    pub(crate) prof: Option<Box<WaveCounts>>,
    /// Work-group id (for faults).
    pub workgroup: [u32; 3],
    /// Wave index in the work-group.
    pub index: u32,
    /// Remaining instruction budget (CF instructions + ALU groups).
    pub budget: u64,
    /// Finished.
    pub done: bool,
}

fn wqm(m: u64) -> u64 {
    let mut q = m;
    q |= (q >> 1) & 0x5555_5555_5555_5555;
    q |= (q << 1) & 0xaaaa_aaaa_aaaa_aaaa;
    q |= (q >> 2) & 0x3333_3333_3333_3333;
    q |= (q << 2) & 0xcccc_cccc_cccc_cccc;
    q
}

/// Row of GPR `r`, element `c`.
#[inline(always)]
fn gi(r: usize, c: usize) -> usize {
    4 * r + c
}

#[inline(always)]
fn merge(dst: &mut Lanes, src: &Lanes, m: u64) {
    if m == u64::MAX {
        dst.copy_from_slice(src);
    } else {
        for l in 0..LANES {
            if m >> l & 1 != 0 {
                dst[l] = src[l];
            }
        }
    }
}

fn lanes_of(m: u64) -> impl Iterator<Item = usize> {
    let mut m = m;
    core::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

impl Wave {
    /// A wave with `valid` live lanes; GPRs zeroed.
    pub fn new(valid: u64, workgroup: [u32; 3], index: u32, budget: u64) -> Wave {
        Wave {
            rows: vec![[0; LANES]; ROWS],
            touched: 0,
            ar: [[0; LANES]; 4],
            pred: 0,
            active: valid,
            valid,
            stack: Vec::new(),
            calls: 0,
            al: 0,
            oq: [VecDeque::new(), VecDeque::new()],
            ret: vec![0; RET_DWORDS],
            ret_used: false,
            scratch_mem: Vec::new(),
            tex_state: Vec::new(),
            fetch_resume: None,
            gws_ticket: None,
            blocked_on: None,
            dispatch_index: 0,
            pc: 0,
            resume: None,
            scratch: Some(Box::new(Scratch {
                res: [[0; LANES]; 4],
                em: ExpandedMask {
                    of: 0,
                    lanes: [0; LANES],
                },
                flags: [0; LANES],
                pending: Pending::default(),
                log_lds: false,
                lds_log: Vec::new(),
            })),
            cf_idx: [0; 2],
            lds_limit: None,
            flags: [0; LANES],
            trace: None,
            snap: None,
            observer: None,
            instrumented: false,
            stats: Stats::default(),
            prof: None,
            workgroup,
            index,
            budget,
            done: false,
        }
    }

    /// Reset for reuse by another wave (keeps allocations).
    pub fn reset(&mut self, valid: u64, workgroup: [u32; 3], index: u32, budget: u64) {
        let mut t = self.touched;
        while t != 0 {
            let r = t.trailing_zeros() as usize;
            t &= t - 1;
            self.rows[4 * r..4 * r + 4].fill([0; LANES]);
        }
        self.touched = 0;
        let pv = PV_ROW as usize;
        self.rows[pv..pv + 4].fill([0; LANES]);
        self.ar = [[0; LANES]; 4];
        self.pred = 0;
        self.active = valid;
        self.valid = valid;
        self.stack.clear();
        self.calls = 0;
        self.al = 0;
        self.oq[0].clear();
        self.oq[1].clear();
        if self.ret_used {
            self.ret.fill(0);
            self.ret_used = false;
        }
        self.scratch_mem.fill(0);
        self.tex_state.fill([0; LANES]);
        self.fetch_resume = None;
        self.gws_ticket = None;
        self.blocked_on = None;
        self.pc = 0;
        self.resume = None;
        self.cf_idx = [0; 2];
        self.lds_limit = None;
        self.flags = [0; LANES];
        self.stats = Stats::default();
        self.workgroup = workgroup;
        self.index = index;
        self.budget = budget;
        self.done = false;
    }

    /// Mutable access to GPR `r`, element `c` (launch state set-up, tests).
    pub fn gpr_mut(&mut self, r: usize, c: usize) -> &mut Lanes {
        self.touched |= 1 << (r & 127);
        &mut self.rows[gi(r & 127, c & 3)]
    }
    /// GPR `r`, element `c`.
    pub fn gpr(&self, r: usize, c: usize) -> &Lanes {
        &self.rows[gi(r & 127, c & 3)]
    }
    /// Counts what this wave executes under `layout` from now on (kept
    /// across [`Wave::reset`]); a wave already counting under the same
    /// layout keeps its counts.
    pub fn set_profile(&mut self, layout: &Arc<Layout>) {
        if !self
            .prof
            .as_ref()
            .is_some_and(|p| Arc::ptr_eq(&p.layout, layout))
        {
            self.prof = Some(Box::new(WaveCounts::new(layout.clone())));
        }
    }

    /// Counts CF instruction `pc` (profiling; out of line so that the
    /// unprofiled loop stays as it was).
    #[cold]
    #[inline(never)]
    fn count_cf(&mut self, pc: u32) {
        if let Some(p) = self.prof.as_mut() {
            // lanes past the work-group's end are not work-items
            p.counts[pc as usize].add(self.active & self.valid);
        }
    }

    /// Counts the groups of `ctx`'s clause from `first` to `ctx.group` (the
    /// groups that ran: a faulting group did not).
    #[cold]
    #[inline(never)]
    fn count_groups(&mut self, ctx: &ClauseCtx, first: usize) {
        if let Some(p) = self.prof.as_mut() {
            let at = p.layout.alu[ctx.clause as usize];
            for c in &mut p.counts[at + first..at + ctx.group] {
                c.add(ctx.exec & self.valid);
            }
        }
    }

    /// The active mask.
    pub fn active(&self) -> u64 {
        self.active
    }

    /// The valid mask: the lanes that are work-items.
    pub fn valid(&self) -> u64 {
        self.valid
    }

    /// The predicate bits the next ALU group reads (guide 4.10).
    pub fn pred(&self) -> u64 {
        self.pred
    }

    /// Lends `o` to this wave: it watches what the wave runs until
    /// [`Wave::take_observer`] gives it back.
    pub fn set_observer(&mut self, o: Option<Box<dyn Observer>>) {
        self.observer = o;
        self.instrumented = self.trace.is_some() || self.observer.is_some();
    }

    /// Takes the observer back (see [`Wave::set_observer`]).
    pub fn take_observer(&mut self) -> Option<Box<dyn Observer>> {
        let o = self.observer.take();
        self.instrumented = self.trace.is_some();
        o
    }

    /// Calls `f` with the observer, if any (out of line: observed waves only).
    #[cold]
    #[inline(never)]
    fn observe(&mut self, f: impl FnOnce(&mut dyn Observer, &Wave)) {
        if let Some(mut o) = self.observer.take() {
            f(&mut *o, self);
            self.observer = Some(o);
        }
    }

    fn fault(&self, msg: impl Into<String>) -> Fault {
        Fault {
            message: msg.into(),
            at: Location {
                cf: Some(self.pc),
                workgroup: self.workgroup,
                wave: self.index,
                ..Location::default()
            },
        }
    }

    fn loop_excl(&self) -> u64 {
        for e in self.stack.iter().rev() {
            if let Entry::Loop(l) = e {
                return l.broken | l.cont;
            }
        }
        0
    }

    fn innermost_loop(&mut self) -> Option<(usize, &mut LoopState)> {
        let n = self.stack.len();
        for (k, e) in self.stack.iter_mut().enumerate().rev() {
            if let Entry::Loop(l) = e {
                let _ = n;
                return Some((k, l));
            }
        }
        None
    }

    fn push(&mut self, e: Entry) -> Result<(), Fault> {
        if self.stack.len() >= MAX_STACK {
            return Err(self.fault(format!(
                "branch-loop stack overflow (more than {MAX_STACK} entries)"
            )));
        }
        self.stack.push(e);
        Ok(())
    }

    fn pop_n(&mut self, n: u8) -> Result<(), Fault> {
        for _ in 0..n {
            match self.stack.pop() {
                Some(Entry::Push(m)) => {
                    self.active = m & !self.loop_excl() & self.valid;
                }
                Some(e) => {
                    return Err(self.fault(format!(
                        "POP_COUNT pops a {} entry, not a PUSH entry",
                        match e {
                            Entry::Loop(_) => "loop",
                            _ => "call",
                        }
                    )))
                }
                None => return Err(self.fault("branch-loop stack underflow")),
            }
        }
        Ok(())
    }

    fn cond_mask(&self, env: &Env, op: &CfOp) -> Result<u64, Fault> {
        let mut m = self.active;
        if op.vpm {
            m &= self.valid;
        }
        let b = env.bool_consts >> (op.cf_const & 31) & 1 != 0;
        // CF_WORD1 COND (guide 9.1): 0 CF_COND_ACTIVE, 1 CF_COND_FALSE,
        // 2 CF_COND_BOOL, 3 CF_COND_NOT_BOOL
        Ok(match op.cond {
            0 => m,
            1 => 0,
            2 => {
                if b {
                    m
                } else {
                    0
                }
            }
            _ => {
                if !b {
                    m
                } else {
                    0
                }
            }
        })
    }

    /// Stop at the current CF instruction to retry it later: the attempt
    /// does not count against the budget.
    fn wait(&mut self) -> Yield {
        self.budget += 1;
        self.stats.cf_instructions -= 1;
        if let Some(p) = self.prof.as_mut() {
            let c = &mut p.counts[self.pc as usize];
            c.waves -= 1;
            c.lanes -= u64::from((self.active & self.valid).count_ones());
        }
        Yield::Blocked
    }

    /// The fault of a wave that waits for something no wave will do.
    pub fn deadlock(&self) -> Fault {
        self.fault(format!(
            "{} can never be met: every wave of the dispatch is waiting or done (deadlock)",
            self.blocked_on.as_deref().unwrap_or("a wait")
        ))
    }

    fn tick(&mut self) -> Result<(), Fault> {
        if self.budget == 0 {
            return Err(self.fault("instruction budget exhausted (endless loop?)"));
        }
        self.budget -= 1;
        Ok(())
    }

    /// Resource number `n` under a CF index mode (CF_INDEX_NONE, CF_INDEX_0,
    /// CF_INDEX_1: add CF_IDX0/1; guide 9.1/9.3 *_INDEX_MODE fields).
    pub(crate) fn indexed(&self, n: u32, mode: u8) -> Result<u32, InvalidIndexMode> {
        match mode {
            0 => Ok(n),
            1 | 2 => Ok(n + self.cf_idx[mode as usize - 1]),
            _ => Err(InvalidIndexMode),
        }
    }

    /// Kcache banks under KCACHE_BANK_INDEX_MODE, locked at clause start
    /// with CF_IDX0/1 as they are now (9.1; "indexed locks of banks 14 and
    /// 15 are ignored").
    #[cold]
    fn index_kcache(&self, kcache: &mut [Kcache; 4]) -> Result<(), Fault> {
        for k in kcache.iter_mut() {
            if k.index_mode != 0 && k.bank < 14 {
                let b = self
                    .indexed(k.bank as u32, k.index_mode)
                    .map_err(|e| self.fault(format!("kcache bank: {e}")))?;
                k.bank = b.min(255) as u8;
            }
        }
        Ok(())
    }

    /// The CF index registers CF_IDX0/1.
    pub fn cf_idx(&self) -> [u32; 2] {
        self.cf_idx
    }

    /// The floating-point exception flags of each lane (guide 4.13.2).
    pub fn flags(&self) -> &Lanes {
        &self.flags
    }

    /// Run until END or a barrier. `lds` is the work-group's LDS (dwords).
    pub fn run(&mut self, env: &Env, lds: &mut [u32]) -> Result<Yield, Fault> {
        self.blocked_on = None;
        if self.instrumented {
            self.run_cf::<true>(env, lds)
        } else {
            self.run_cf::<false>(env, lds)
        }
    }

    /// [`Wave::run`]; `TRACE` writes a trace line per CF instruction.
    fn run_cf<const TRACE: bool>(&mut self, env: &Env, lds: &mut [u32]) -> Result<Yield, Fault> {
        if let Some(ctx) = self.resume.take() {
            self.stats.barriers += 1;
            if self.alu_clause(env, lds, ctx)? {
                return Ok(Yield::Barrier);
            }
            self.pc += 1;
        }
        loop {
            if self.done {
                return Ok(Yield::Done);
            }
            let pc = self.pc;
            let op = env.prog.cf.get(pc as usize).ok_or_else(|| {
                self.fault(format!(
                    "execution ran past the end of the CF program ({} instructions)",
                    env.prog.cf.len()
                ))
            })?;
            self.tick()?;
            self.stats.cf_instructions += 1;
            if self.prof.is_some() {
                self.count_cf(pc);
            }
            let active_before = self.active;
            if TRACE {
                self.trace_cf(pc);
                self.observe(|o, w| o.cf_before(w, pc, op, env));
            }
            let mut next = pc + 1;
            match &op.kind {
                CfKind::Nop => {}
                CfKind::End => {
                    self.done = true;
                    return Ok(Yield::Done);
                }
                CfKind::Alu {
                    kind,
                    clause,
                    kcache,
                    wqm: w,
                } => {
                    match kind {
                        AluKind::PushBefore => self.push(Entry::Push(self.active))?,
                        // guide 3.7.7: the lanes of the innermost PUSH come back,
                        // as with CF REACTIVATE, before the clause runs.
                        AluKind::ReactivateBefore => self.reactivate()?,
                        // Valid-pixel mode runs on active & valid lanes; in a
                        // compute program every active lane is valid.
                        AluKind::ValidPixelMode => self.active &= self.valid,
                        _ => {}
                    }
                    let exec = if *w { wqm(self.active) } else { self.active };
                    // the locks are taken at clause start: an indexed bank
                    // adds CF_IDX0/1 as they are now (9.1 KCACHE_BANK_INDEX_MODE;
                    // "indexed locks of banks 14 and 15 are ignored")
                    let mut ctx = ClauseCtx {
                        cf: pc,
                        clause: *clause,
                        kind: *kind,
                        kcache: *kcache,
                        exec,
                        exec_new: self.active,
                        broken: 0,
                        cont: 0,
                        killed: 0,
                        group: 0,
                    };
                    // (res_index_mode marks an ALU clause with an indexed bank)
                    if op.res_index_mode != 0 {
                        self.index_kcache(&mut ctx.kcache)?;
                    }
                    if self.alu_clause(env, lds, ctx)? {
                        return Ok(Yield::Barrier);
                    }
                }
                CfKind::Tc(idx) | CfKind::Gds(idx) => {
                    let m = self.cond_mask(env, op)?;
                    if !self.fetch_clause(env, *idx, m)? {
                        return Ok(self.wait());
                    }
                }
                CfKind::Gws {
                    op: gop,
                    resource,
                    value,
                    sign,
                    index_modes,
                } => {
                    // VAL_INDEX_MODE / RSRC_INDEX_MODE: VALUE and RESOURCE
                    // plus CF_IDX0/1 (fields keep their widths)
                    let (resource, value) = if *index_modes != 0 {
                        let r = self
                            .indexed(u32::from(*resource), *index_modes >> 2)
                            .map_err(|e| self.fault(format!("GWS RSRC_INDEX_MODE: {e}")))?;
                        let v = self
                            .indexed(u32::from(*value), *index_modes & 3)
                            .map_err(|e| self.fault(format!("GWS VAL_INDEX_MODE: {e}")))?;
                        (&((r & 31) as u8), &((v & 0x3ff) as u16))
                    } else {
                        (resource, value)
                    };
                    if self.cond_mask(env, op)? != 0
                        && !env
                            .sync
                            .gws(*gop, *resource, *value, *sign, &mut self.gws_ticket)
                    {
                        self.blocked_on = Some(format!(
                            "{} on GWS resource {resource} (value {})",
                            ["GWS_SEMA_V", "GWS_SEMA_P", "GWS_BARRIER", "GWS_INIT"]
                                [*gop as usize & 3],
                            env.sync.gws_value(*resource as usize)
                        ));
                        return Ok(self.wait());
                    }
                }
                CfKind::ExportCombined { .. } => {
                    let m = self.cond_mask(env, op)?;
                    self.export_combined(env, op, m)?;
                }
                CfKind::Illegal(n, why) => {
                    return Err(self.fault(format!("{n} cannot run in a compute program: {why}")))
                }
                CfKind::Rat { .. } => {
                    let m = self.cond_mask(env, op)?;
                    if op.res_index_mode != 0 {
                        // RAT_INDEX_MODE: the RAT id plus CF_IDX0/1
                        let mut o = op.clone();
                        if let CfKind::Rat { rat_id, .. } = &mut o.kind {
                            let id = self
                                .indexed(*rat_id as u32, op.res_index_mode)
                                .map_err(|e| self.fault(format!("RAT_INDEX_MODE: {e}")))?;
                            *rat_id = id.min(255) as u8;
                        }
                        self.rat(env, &o, m)?;
                    } else {
                        self.rat(env, op, m)?;
                    }
                }
                CfKind::ScratchWrite { .. } => {
                    let m = self.cond_mask(env, op)?;
                    self.scratch_write(env, op, m)?;
                }
                CfKind::LoopStart(k) => {
                    let m = self.cond_mask(env, op)?;
                    let (count, init, inc) = if *k == 1 {
                        (1, 0, 0)
                    } else {
                        let c = env.loop_consts[op.cf_const as usize & 31];
                        (
                            c & 0xfff,
                            ((c >> 12) & 0xfff) as i32,
                            (c >> 24) as u8 as i8 as i32,
                        )
                    };
                    if count == 0 || m == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    } else {
                        self.push(Entry::Loop(LoopState {
                            saved: self.active,
                            broken: 0,
                            cont: 0,
                            counter: count,
                            inc,
                            prev_al: self.al,
                            kind: *k,
                        }))?;
                        self.active = m;
                        if *k == 0 {
                            self.al = init;
                        }
                    }
                }
                CfKind::LoopEnd => {
                    let b = self.cond_mask(env, op)? != 0 || self.active == 0;
                    let valid = self.valid;
                    let Some(Entry::Loop(lp)) = self.stack.last_mut() else {
                        return Err(self
                            .fault("LOOP_END without a matching LOOP_START on top of the stack"));
                    };
                    if lp.kind != 1 {
                        lp.counter = lp.counter.saturating_sub(1);
                    }
                    let go_on = lp.saved & !lp.broken & valid;
                    let again = go_on != 0 && (lp.kind == 1 || lp.counter > 0) && b;
                    if again {
                        lp.cont = 0;
                        if lp.kind == 0 {
                            self.al = self.al.wrapping_add(lp.inc);
                        }
                        self.active = go_on;
                        next = op.addr;
                    } else {
                        let lp = *lp;
                        self.stack.pop();
                        self.active = lp.saved & valid;
                        if lp.kind != 2 {
                            self.al = lp.prev_al;
                        }
                    }
                }
                CfKind::LoopBreak | CfKind::LoopContinue => {
                    let m = self.cond_mask(env, op)?;
                    let brk = matches!(op.kind, CfKind::LoopBreak);
                    let valid = self.valid;
                    let Some((k, lp)) = self.innermost_loop() else {
                        return Err(self.fault("LOOP_BREAK/LOOP_CONTINUE outside a loop"));
                    };
                    if brk {
                        lp.broken |= m;
                    } else {
                        lp.cont |= m;
                    }
                    let left = lp.saved & !(lp.broken | lp.cont) & valid;
                    self.active &= !m;
                    if left == 0 {
                        self.stack.truncate(k + 1);
                        next = op.addr;
                    }
                }
                CfKind::Jump => {
                    if self.cond_mask(env, op)? == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    }
                }
                CfKind::JumpTable(sel) => {
                    // guide 3.7/9.1 JUMPTABLE: the JUMPs that follow form the
                    // table; ADDR is the instruction after it (taken when no
                    // lane passes the condition). JUMPTABLE_SEL 0..3 pick byte
                    // A..D of the constant CF_CONST selects.
                    if self.cond_mask(env, op)? == 0 {
                        next = op.addr;
                    } else {
                        let idx = match sel {
                            0..=3 => {
                                (env.loop_consts[op.cf_const as usize & 31] >> (8 * *sel as u32))
                                    & 0xff
                            }
                            // CF_JUMPTABLE_SEL_INDEX_0/1: the CF index register
                            4 | 5 => self.cf_idx[*sel as usize - 4],
                            s => {
                                return Err(self.fault(format!(
                                    "JUMPTABLE_SEL {s} is reserved (0-3 loop constant bytes, 4/5 CF_IDX0/1)"
                                )))
                            }
                        };
                        let target = pc + 1 + idx;
                        if target >= op.addr {
                            return Err(self.fault(format!(
                                "jump table index {idx} lies past the table (ADDR {})",
                                op.addr
                            )));
                        }
                        next = target;
                    }
                }
                CfKind::JumpAny => {
                    if self.cond_mask(env, op)? != 0 {
                        next = op.addr;
                    } else {
                        self.pop_n(op.pop_count)?;
                    }
                }
                CfKind::Push(w) => {
                    let m = self.cond_mask(env, op)?;
                    if m == 0 {
                        self.pop_n(op.pop_count)?;
                        next = op.addr;
                    } else {
                        self.push(Entry::Push(self.active))?;
                        self.active = if *w { wqm(m) & self.valid } else { m };
                    }
                }
                CfKind::Else(w) => {
                    self.pop_n(op.pop_count)?;
                    let Some(Entry::Push(saved)) = self.stack.last().copied() else {
                        return Err(self.fault("ELSE without a PUSH entry on top of the stack"));
                    };
                    let pass = op.cond == 0 || self.cond_mask(env, op)? != 0;
                    if pass {
                        let m = saved & !self.active & !self.loop_excl() & self.valid;
                        self.active = if *w { wqm(m) & self.valid } else { m };
                    }
                    if self.active == 0 {
                        next = op.addr;
                    }
                }
                CfKind::Pop(w) => {
                    self.pop_n(op.pop_count)?;
                    if op.vpm {
                        self.active &= self.valid;
                    }
                    if *w {
                        self.active = wqm(self.active) & self.valid;
                    }
                }
                CfKind::Call => {
                    if self.cond_mask(env, op)? != 0 && self.calls < MAX_CALL_DEPTH {
                        self.push(Entry::Call(pc + 1))?;
                        self.calls += 1;
                        next = op.addr;
                    }
                }
                CfKind::Return => match self.stack.pop() {
                    Some(Entry::Call(r)) => {
                        self.calls -= 1;
                        next = r;
                    }
                    _ => return Err(self.fault("RETURN without a CALL entry on top of the stack")),
                },
                CfKind::Kill => {
                    // guide 3.7 KILL: "only a pixel shader can execute this
                    // instruction; the instruction is illegal in other program types"
                    return Err(self.fault(
                        "CF KILL is illegal outside pixel shaders (risa runs compute programs)",
                    ));
                }
                CfKind::Reactivate => self.reactivate()?,
                CfKind::Unsupported(n) => {
                    return Err(self.fault(format!("{n} is not supported in compute programs")))
                }
                CfKind::Invalid(e) => {
                    return Err(self.fault(format!("invalid CF instruction: {e}")))
                }
            }
            if TRACE {
                self.trace_cf_after(pc, next, active_before);
            }
            self.pc = next;
        }
    }

    // ---- ALU ---------------------------------------------------------------

    /// Runs (the rest of) an ALU clause; returns true when stopped at a barrier.
    fn alu_clause(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        mut ctx: ClauseCtx,
    ) -> Result<bool, Fault> {
        let clause = match &env.prog.alu[ctx.clause as usize] {
            Ok(c) => c,
            Err(e) => {
                let mut f = self.fault(format!("invalid ALU clause: {e}"));
                f.at.clause = env.prog.alu_addr.get(ctx.clause as usize).copied();
                return Err(f);
            }
        };
        let mut sc = self.scratch.take().expect("scratch present");
        if clause.flags && ctx.group == 0 {
            // guide 4.13.2: cleared at the beginning of each ALU clause
            self.flags = [0; LANES];
        }
        let first_group = ctx.group;
        // tracing and the exception flags each select a separately compiled
        // clause loop, so the common one carries neither
        let r = match (self.instrumented, clause.flags) {
            (true, true) => self.clause_groups::<true, true>(env, lds, clause, &mut ctx, &mut sc),
            (true, false) => self.clause_groups_vector::<true>(env, lds, clause, &mut ctx, &mut sc),
            (false, true) => self.clause_groups::<false, true>(env, lds, clause, &mut ctx, &mut sc),
            (false, false) => {
                self.clause_groups_vector::<false>(env, lds, clause, &mut ctx, &mut sc)
            }
        };
        self.scratch = Some(sc);
        if self.prof.is_some() {
            self.count_groups(&ctx, first_group);
        }
        let at_barrier = r?;
        if at_barrier {
            self.resume = Some(ctx);
            return Ok(true);
        }
        self.end_clause(&ctx)?;
        Ok(false)
    }

    /// The clause loop without exception flags, with AVX2 when the CPU has
    /// it (an observed or traced run should cost its observer, not a slower
    /// loop).
    #[inline(always)]
    fn clause_groups_vector<const TRACE: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { self.clause_groups_avx2::<TRACE>(env, lds, clause, ctx, sc) };
        }
        self.clause_groups::<TRACE, false>(env, lds, clause, ctx, sc)
    }

    /// [`Wave::clause_groups`] compiled with AVX2 (8 lanes per vector op).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn clause_groups_avx2<const TRACE: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        self.clause_groups::<TRACE, false>(env, lds, clause, ctx, sc)
    }

    /// Runs the groups of a clause from `ctx.group`; true when stopped at a
    /// barrier. `TRACE` writes a trace line per group.
    #[inline(always)]
    fn clause_groups<const TRACE: bool, const FLAGS: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<bool, Fault> {
        while ctx.group < clause.groups.len() {
            self.tick().map_err(|mut f| {
                f.at.group = Some(ctx.group as u32);
                f
            })?;
            let g = &clause.groups[ctx.group];
            let at = GroupAt {
                cf: ctx.cf,
                clause: ctx.clause,
                group: ctx.group,
                exec: ctx.exec,
            };
            if TRACE {
                self.trace_snapshot(ctx.exec_new);
                sc.log_lds = self.observer.is_some();
                sc.lds_log.clear();
                self.observe(|o, w| o.group_before(w, at, clause));
            }
            let r = self.exec_group::<FLAGS>(env, lds, clause, g, ctx, sc);
            if TRACE {
                self.trace_group(ctx.clause, ctx.group, ctx.exec_new, r.is_err());
                let (log, ok) = (&sc.lds_log, r.is_ok());
                self.observe(|o, w| o.group_after(w, at, log, ok));
            }
            r.map_err(|(slot, lane, msg)| {
                let mut f = self.fault(msg);
                f.at.clause = env.prog.alu_addr.get(ctx.clause as usize).copied();
                f.at.group = Some(ctx.group as u32);
                f.at.slot = slot;
                f.at.lane = lane;
                f.at.cf = Some(ctx.cf);
                f
            })?;
            self.stats.alu_groups += 1;
            self.stats.alu_instructions += g.len as u64;
            ctx.group += 1;
            if g.barrier {
                // stop after the barrier's group (if it is the clause's last
                // group, the clause ends when the wave resumes)
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn end_clause(&mut self, ctx: &ClauseCtx) -> Result<(), Fault> {
        self.valid &= !ctx.killed;
        let new = ctx.exec_new & self.valid;
        if ctx.broken | ctx.cont != 0 {
            let Some((_, lp)) = self.innermost_loop() else {
                return Err(
                    self.fault("PRED_SET with a BREAK/CONTINUE exec-mask op outside a loop")
                );
            };
            lp.broken |= ctx.broken;
            lp.cont |= ctx.cont;
        }
        self.active = new;
        // AR and the predicate do not outlive the clause; PV neither.
        match ctx.kind {
            AluKind::Plain
            | AluKind::PushBefore
            | AluKind::ReactivateBefore
            | AluKind::ValidPixelMode => {}
            AluKind::PopAfter => self.pop_n(1)?,
            AluKind::Pop2After => self.pop_n(2)?,
            AluKind::ElseAfter => {
                let Some(Entry::Push(saved)) = self.stack.last().copied() else {
                    return Err(self.fault("ALU_ELSE_AFTER without a PUSH entry on the stack"));
                };
                self.active = saved & !self.active & !self.loop_excl() & self.valid;
            }
        }
        Ok(())
    }

    /// REACTIVATE: the lanes saved by the innermost PUSH become active again.
    fn reactivate(&mut self) -> Result<(), Fault> {
        let Some(Entry::Push(saved)) = self.stack.last().copied() else {
            return Err(self.fault("REACTIVATE without a PUSH entry on the stack"));
        };
        self.active = saved & self.valid;
        Ok(())
    }

    fn kcache_value(
        env: &Env,
        kc: &[Kcache; 4],
        bank: u8,
        idx: i32,
        chan: u8,
    ) -> Result<u32, String> {
        let k = kc[bank as usize & 3];
        let lines = match k.mode {
            0 => {
                return Err(format!(
                    "kcache bank {bank} is not locked (KCACHE_MODE = NOP)"
                ))
            }
            1 => 16,
            _ => 32,
        };
        if idx < 0 || idx >= lines {
            // guide 4.6.3: relative kcache reads out of the locked lines read NaN
            return Ok(0x7fff_ffff);
        }
        let c = k.addr as usize * 16 + idx as usize;
        Ok(env
            .cb
            .get(k.bank as usize)
            .and_then(|b| b.get(c * 4 + chan as usize))
            .copied()
            .unwrap_or(0))
    }

    #[allow(clippy::too_many_arguments)]
    fn read_src(
        &mut self,
        env: &Env,
        lds: &[u32],
        ctx: &ClauseCtx,
        ins: &AluInstr,
        s: &Src,
        out: &mut Lanes,
    ) -> Result<(), String> {
        let ngprs = if env.num_gprs == 0 { 128 } else { env.num_gprs };
        match s.kind {
            SrcKind::Gpr(r) => {
                if !s.rel {
                    out.copy_from_slice(&self.rows[gi(r as usize, s.chan as usize)]);
                } else if ins.index_mode == 4 {
                    let i = r as i32 + self.al;
                    let i = if (0..ngprs as i32).contains(&i) { i } else { 0 };
                    out.copy_from_slice(&self.rows[gi(i as usize, s.chan as usize)]);
                } else if ins.index_mode < 4 {
                    for l in 0..LANES {
                        let i = r as i32 + self.ar[ins.index_mode as usize & 3][l] as i32;
                        let i = if (0..ngprs as i32).contains(&i) { i } else { 0 };
                        out[l] = self.rows[gi(i as usize, s.chan as usize)][l];
                    }
                } else {
                    return Err(format!("INDEX_MODE {} is not supported", ins.index_mode));
                }
            }
            SrcKind::Kcache(bank, idx) => {
                let mut i = idx as i32;
                if s.rel {
                    if ins.index_mode != 4 {
                        return Err("kcache operands can only be indexed by the loop index".into());
                    }
                    i += self.al;
                }
                if ctx.kcache[bank as usize & 3].mode == 3 && !s.rel {
                    i += self.al;
                }
                let v = Self::kcache_value(env, &ctx.kcache, bank, i, s.chan)?;
                out.fill(v);
            }
            SrcKind::Const(v) => out.fill(v),
            SrcKind::Pv => out.copy_from_slice(&self.rows[PV_ROW as usize + s.chan as usize]),
            SrcKind::Ps => {
                return Err("PS (source select 255) does not exist on Cayman (no T slot)".into())
            }
            SrcKind::Oq { b, pop } => {
                let q = &mut self.oq[b as usize];
                let v = if pop {
                    q.pop_front()
                } else {
                    q.front().copied()
                };
                match v {
                    Some(v) => out.copy_from_slice(&v),
                    None => {
                        return Err(format!(
                            "LDS output queue {} is empty",
                            if b { "B" } else { "A" }
                        ))
                    }
                }
            }
            SrcKind::LoopIdx => out.fill(self.al as u32),
            // THREAD_REL (relative to the wave's LDS allocation) reads the
            // same dwords as an absolute address: risa places every
            // work-group's LDS at address 0 (README, Decisions)
            SrcKind::LdsDirect { offset, stride, .. } => {
                for (l, o) in out.iter_mut().enumerate() {
                    let d = offset as usize + stride as usize * l;
                    if self.lds_limit.is_some_and(|lim| d as u64 * 4 >= lim as u64) {
                        // beyond SET_LDS_SIZE's size: reads return 0
                        *o = 0;
                        continue;
                    }
                    *o = *lds.get(d).ok_or_else(|| {
                        format!(
                            "LDS direct read of dword {d} (lane {l}) outside the group's {} bytes of LDS",
                            lds.len() * 4
                        )
                    })?;
                }
            }
            SrcKind::Special(sel) => {
                let v = match sel {
                    // ALU_SRC_PARAM_BASE_ADDR (LDS_ALLOC_PS): a compute
                    // wave has no pixel-shader parameter area; parameters
                    // start at LDS dword 0 (see `interp`)
                    240 => 0,
                    229 => (self.active >> 32) as u32,
                    230 => self.active as u32,
                    235 => self.index,
                    236 => env.waves_in_group,
                    217 | 227 | 228 | 231..=234 | 237 => 0,
                    _ => return Err(format!("source select {sel} is not supported")),
                };
                out.fill(v);
            }
        }
        if s.abs {
            for v in out.iter_mut() {
                *v &= 0x7fff_ffff;
            }
        }
        if s.neg {
            for v in out.iter_mut() {
                *v ^= 0x8000_0000;
            }
        }
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    #[inline(always)]
    fn exec_group<const FLAGS: bool>(
        &mut self,
        env: &Env,
        lds: &mut [u32],
        clause: &AluClause,
        g: &AluGroup,
        ctx: &mut ClauseCtx,
        sc: &mut Scratch,
    ) -> Result<(), (Option<u8>, Option<u32>, String)> {
        let ins = &clause.instrs[g.first as usize..g.first as usize + g.len as usize];
        let (dyn_srcs, consts) = (g.dyn_srcs, &clause.consts[..]);
        let exec = ctx.exec;
        // pass 1: every slot reads its sources before any slot writes. GPR,
        // PV and constant operands are read in place (nothing is written
        // before pass 3); the others are materialized in `tmp`.
        let mut d = dyn_srcs;
        while d != 0 {
            let bit = d.trailing_zeros() as usize;
            d &= d - 1;
            let i = &ins[bit / 3];
            let k = bit % 3;
            let mut buf = [0u32; LANES];
            self.read_src(env, lds, ctx, i, &i.src[k], &mut buf)
                .map_err(|e| (Some(i.slot), None, e))?;
            self.rows[i.loc[k] as usize] = buf;
        }
        // pass 2: compute into `res`
        let mut new_pred: Option<u64> = None;
        let mut new_ar: Option<(usize, u64, Lanes)> = None;
        let mut writes = [false; 4];
        let mut masks = [0u64; 4];
        let (mut has_prev, mut quad_done) = (false, false);
        let mut has_flags = false;
        // per-wave registers the group writes (rare: one flag guards the commit)
        if FLAGS {
            sc.flags = [0; LANES];
        }
        let res = &mut sc.res;
        let (rows, pred) = (&self.rows, self.pred);
        let src = |p: u16| -> &Lanes {
            if p & CONST_LOC != 0 {
                &consts[(p & !CONST_LOC) as usize]
            } else {
                &rows[p as usize]
            }
        };
        // the locations of the sources of the instruction in `slot`
        let locs_of = |slot: usize| -> [u16; 3] {
            ins.iter()
                .find(|j| j.slot as usize == slot)
                .map_or([0, 1, 2].map(|k| TMP_ROW + 3 * slot as u16 + k), |j| j.loc)
        };
        for i in ins {
            if i.dead {
                continue;
            }
            let slot = i.slot as usize;
            let m = match i.pred_sel {
                0 => exec,
                2 => exec & !pred,
                3 => exec & pred,
                _ => return Err((Some(i.slot), None, "PRED_SEL = 1 is reserved".into())),
            };
            masks[slot] = m;
            match i.class {
                Class::Nop => {}
                Class::Plain => {
                    let o = &mut res[slot];
                    // (sources read in the call keep the common loop as it
                    // was before the flags existed)
                    alu::exec_slot_ref(i.sem, src(i.loc[0]), src(i.loc[1]), src(i.loc[2]), o);
                    if (i.omod != 0 || i.clamp) && i.sem.float_result() {
                        for v in o.iter_mut() {
                            *v = alu::out_mod(*v, i.omod, i.clamp);
                        }
                    }
                    if FLAGS {
                        let (a, b, c) = (src(i.loc[0]), src(i.loc[1]), src(i.loc[2]));
                        let n = i.nsrc as usize;
                        for l in lanes_of(m) {
                            sc.flags[l] |= alu::fp_flags(i.sem, n, [a[l], b[l], c[l]], o[l]);
                        }
                    }
                    writes[slot] = true;
                }
                Class::Lds => {
                    let op = i.lds.expect("LDS op decoded");
                    // SET_LDS_SIZE: lanes addressing at or beyond the size
                    // are left out (writes discarded, reads return 0)
                    let m = match self.lds_limit {
                        None => m,
                        Some(lim) => {
                            let a = &rows[i.loc[0] as usize];
                            lanes_of(m)
                                .filter(|&l| (a[l] & !3) < lim)
                                .fold(0u64, |acc, l| acc | 1 << l)
                        }
                    };
                    let s = &rows[i.loc[0] as usize..i.loc[0] as usize + 3];
                    if sc.log_lds {
                        sc.lds_log.push(LdsAccess {
                            op,
                            slot: i.slot,
                            mask: m,
                            src: [s[0], s[1], s[2]],
                        });
                    }
                    lds_op(&mut self.oq, lds, op, s, m)
                        .map_err(|(lane, e)| (Some(i.slot), lane, e))?;
                    self.stats.lds_ops += 1;
                }
                Class::PredSet => {
                    let (a, b) = (src(i.loc[0]), src(i.loc[1]));
                    let bits = if (FLAGS || i.mode[0] != 0) && fmode::pred_reads_floats(i.sem) {
                        let fl = FLAGS.then_some((&mut sc.flags, m));
                        fmode::pred_set_lanes(i.sem, i.mode, a, b, &mut res[slot], fl)
                    } else {
                        alu::pred_set_lanes(i.sem, a, b, &mut res[slot])
                    };
                    pred_set_effects(i, m, bits, pred, &mut new_pred, ctx);
                    writes[slot] = true;
                }
                Class::Kill => {
                    // KILL* writes 1.0/0.0 like SET*; the kill itself only
                    // happens in pixel shaders and is ignored in other
                    // program types (guide 8.2 KILLE ... KILLNE_INT), so a
                    // compute wave keeps its lanes.
                    let (a, b) = (src(i.loc[0]), src(i.loc[1]));
                    let o = &mut res[slot];
                    if (FLAGS || i.mode[0] != 0) && fmode::pred_reads_floats(i.sem) {
                        let fl = FLAGS.then_some((&mut sc.flags, m));
                        fmode::kill_lanes(i.sem, i.mode, a, b, o, fl);
                    } else {
                        for l in 0..LANES {
                            let t = alu::kill_test(i.sem, a[l], b[l]);
                            o[l] = if t { 0x3f80_0000 } else { 0 };
                        }
                    }
                    writes[slot] = true;
                }
                Class::Prev => has_prev = true,
                Class::Quad => {
                    if !quad_done {
                        quad_done = true;
                        // the four slots' first sources (and CUBE's second)
                        let s0: [&Lanes; 4] = [0, 1, 2, 3].map(|c| src(locs_of(c)[0]));
                        let s1: [&Lanes; 4] = [0, 1, 2, 3].map(|c| src(locs_of(c)[1]));
                        let moded = FLAGS || i.mode != [0, 0];
                        let mut cx = fmode::Ctx::new(i.mode, FLAGS);
                        for l in 0..LANES {
                            let r: [u32; 4] = match i.sem {
                                Sem::Frexp64 => {
                                    // double: X slot high dword, Y slot low dword
                                    let v =
                                        f64::from_bits(((s0[0][l] as u64) << 32) | s0[1][l] as u64);
                                    let (fr, e) = alu::frexp64(v);
                                    if moded {
                                        fmode::frexp64_flags(&mut cx, v.to_bits());
                                    }
                                    [e, e, fr as u32, (fr >> 32) as u32]
                                }
                                Sem::Cube if moded => {
                                    fmode::cube(&mut cx, s0[2][l], s1[0][l], s0[0][l])
                                }
                                Sem::Cube => {
                                    // slot x reads (z, y), y (z, x), z (x, z), w (y, z)
                                    let v = |p: &Lanes| f32::from_bits(alu::ftz(p[l]));
                                    let (x, y, z) = (v(s0[2]), v(s1[0]), v(s0[0]));
                                    alu::cube(x, y, z).map(|c| alu::ftz(c.to_bits()))
                                }
                                _ => {
                                    if moded {
                                        let s = [0, 1, 2, 3].map(|c| s0[c][l]);
                                        fmode::flt_to_uint4_flags(&mut cx, s);
                                    }
                                    let p = (0..4).fold(0u32, |acc, c| {
                                        acc | (alu::flt_to_uint(s0[c][l]) & 0xff) << (8 * c)
                                    });
                                    [p; 4]
                                }
                            };
                            for c in 0..4 {
                                res[c][l] = r[c];
                            }
                            let fl = cx.take();
                            if FLAGS && m >> l & 1 != 0 {
                                sc.flags[l] |= fl;
                            }
                        }
                        for c in 0..4 {
                            writes[c] = true;
                            masks[c] = m;
                        }
                    }
                }
                Class::Mova => {
                    let a = src(i.loc[0]);
                    let mut v = [0u32; LANES];
                    for l in 0..LANES {
                        let x = a[l] as i32;
                        // guide 8.2 MOVA_INT: out of [-256, 255] → -256
                        v[l] = if !(-256..=255).contains(&x) {
                            -256i32 as u32
                        } else {
                            x as u32
                        };
                    }
                    res[slot] = v;
                    // MOVA_DST (ALU_WORD1_OP2_MOVA): where the result goes
                    match i.dst_gpr {
                        0 => new_ar = Some((slot, m, v)),
                        // CF_IDX0/1: one register per wave; its nine lsbs
                        // from the first lane that executes
                        2 | 3 => {
                            if m != 0 {
                                sc.pending.any = true;
                                sc.pending.cf_idx[i.dst_gpr as usize - 2] =
                                    Some(v[m.trailing_zeros() as usize] & 0x1ff);
                            }
                        }
                        // CLAUSE_GLOBAL bytes: no instruction of the guide
                        // reads CLAUSE_GLOBAL, so nothing observes it
                        4..=7 => {}
                        1 => {
                            return Err((
                                Some(i.slot),
                                None,
                                "MOVA_INT to CF_PC (a computed CF jump) is not emulated".into(),
                            ))
                        }
                        d => {
                            return Err((
                                Some(i.slot),
                                None,
                                format!("MOVA_DST {d} is reserved (0-7 are defined)"),
                            ))
                        }
                    }
                    writes[slot] = true;
                }
                Class::WaveState => {
                    // per-wave registers take the first executing lane's value
                    if m != 0 {
                        let l = m.trailing_zeros() as usize;
                        let (a, b) = (src(i.loc[0])[l], src(i.loc[1])[l]);
                        sc.pending.any = true;
                        match i.sem {
                            Sem::SetCfIdx(k) => sc.pending.cf_idx[k as usize & 1] = Some(a & 0x1ff),
                            _ => {
                                // SET_LDS_SIZE: src0 = size (bytes), src1 = global mode
                                if b != 0 {
                                    return Err((
                                        Some(i.slot),
                                        Some(l as u32),
                                        "SET_LDS_SIZE global mode is not emulated (each work-group has its own LDS in risa)".into(),
                                    ));
                                }
                                sc.pending.lds_limit = Some(a);
                            }
                        }
                    }
                }
                Class::Moded => {
                    let o = &mut res[slot];
                    let (a, b, c) = (src(i.loc[0]), src(i.loc[1]), src(i.loc[2]));
                    let fl = FLAGS.then_some((&mut sc.flags, m));
                    fmode::exec_slot(i.sem, i.mode, i.omod, i.clamp, a, b, c, o, fl);
                    writes[slot] = true;
                }
                Class::Interp => {
                    self.interp(
                        ins,
                        i,
                        lds,
                        src,
                        locs_of,
                        exec,
                        res,
                        &mut writes,
                        &mut masks,
                    )?;
                }
                Class::Flags => {
                    if slot != 3 {
                        return Err((
                            Some(i.slot),
                            None,
                            format!("{} is available only in the W slot (guide 8.2)", i.name),
                        ));
                    }
                    has_flags = true;
                }
                Class::Reduce if FLAGS || i.mode[0] != 0 => {
                    let srcs: Vec<(&Lanes, &Lanes)> = ins
                        .iter()
                        .filter(|j| j.sem == i.sem)
                        .map(|j| (src(j.loc[0]), src(j.loc[1])))
                        .collect();
                    let fl = FLAGS.then_some((&mut sc.flags, m));
                    fmode::reduce_lanes(i.sem, i.mode, &srcs, &mut res[slot], fl);
                    writes[slot] = true;
                }
                Class::Reduce => {
                    let o = &mut res[slot];
                    for l in 0..LANES {
                        let mut acc: Option<f32> = None;
                        for j in ins {
                            if j.sem != i.sem {
                                continue;
                            }
                            let (s0, s1) = (src(j.loc[0]), src(j.loc[1]));
                            let t = match i.sem {
                                Sem::Dot4 => f32::from_bits(alu::mul_legacy(s0[l], s1[l])),
                                Sem::Dot4Ieee => {
                                    f32::from_bits(alu::ftz(s0[l]))
                                        * f32::from_bits(alu::ftz(s1[l]))
                                }
                                _ => f32::from_bits(alu::ftz(s0[l])),
                            };
                            acc = Some(match (acc, i.sem) {
                                (None, _) => t,
                                (Some(a), Sem::Max4) => a.max(t),
                                (Some(a), _) => a + t,
                            });
                        }
                        o[l] = alu::ftz(acc.unwrap_or(0.0).to_bits());
                    }
                    writes[slot] = true;
                }
                Class::Double | Class::F32ToF64 | Class::F64ToF32 => {
                    // pairs: (x, y) and (z, w); the first slot of a pair runs it
                    if slot.is_multiple_of(2) {
                        let (hi, lo) = (slot, slot + 1);
                        let (lh, ll) = (i.loc, locs_of(lo));
                        let (r_hi, r_lo) = res.split_at_mut(lo);
                        let (o_hi, o_lo) = (&mut r_hi[hi], &mut r_lo[0]);
                        let moded =
                            FLAGS || i.mode[1] != 0 || (i.mode[0] != 0 && i.class != Class::Double);
                        match i.class {
                            _ if moded => {
                                let (sh, sl) = (lh.map(src), ll.map(src));
                                let fl = FLAGS.then_some((&mut sc.flags, m));
                                fmode::double_lanes(i.sem, i.mode, sh, sl, o_hi, o_lo, fl);
                            }
                            Class::Double => {
                                let sh = lh.map(src);
                                let sl = ll.map(src);
                                alu::exec_double(i.sem, sh, sl, o_hi, o_lo);
                            }
                            Class::F32ToF64 => {
                                let a = src(lh[0]);
                                for l in 0..LANES {
                                    (o_hi[l], o_lo[l]) = alu::flt32_to_flt64(a[l]);
                                }
                            }
                            _ => {
                                let (a, b) = (src(lh[0]), src(ll[0]));
                                for l in 0..LANES {
                                    o_hi[l] = alu::flt64_to_flt32(a[l], b[l]);
                                    o_lo[l] = 0;
                                }
                            }
                        }
                        if let Sem::PredSet64(_) = i.sem {
                            // true lanes got 0 (execute)
                            let mut bits = 0u64;
                            for l in 0..LANES {
                                bits |= ((o_hi[l] == 0) as u64) << l;
                            }
                            pred_set_effects(i, m, bits, pred, &mut new_pred, ctx);
                        }
                        writes[hi] = true;
                        writes[lo] = true;
                        masks[lo] = m;
                    }
                }
                Class::Unsupported => {
                    return Err((Some(i.slot), None, format!("{} is not implemented", i.name)))
                }
            }
        }
        if has_prev {
            // `_PREV` ops, W down to X: each uses the next slot's result
            for slot in (0..4).rev() {
                let Some(i) = ins.iter().find(|j| j.slot as usize == slot) else {
                    continue;
                };
                if i.class != Class::Prev || i.dead {
                    continue;
                }
                if i.sem != Sem::Mbcnt32Hi && (slot == 3 || !writes[slot + 1]) {
                    return Err((
                        Some(i.slot),
                        None,
                        format!(
                            "{} needs a result in the next slot ({}) of its group",
                            i.name,
                            if slot == 3 {
                                "there is none after W"
                            } else {
                                "it is empty"
                            }
                        ),
                    ));
                }
                let (lo, hi) = res.split_at_mut(slot + 1);
                let prev = hi.first().unwrap_or(&lo[slot]);
                let (a, b) = (src(i.loc[0]), src(i.loc[1]));
                let mut out = [0u32; LANES];
                if FLAGS || i.mode[0] != 0 {
                    let fl = FLAGS.then_some((&mut sc.flags, masks[slot]));
                    fmode::prev_lanes(i.sem, i.mode, i.omod, i.clamp, a, b, prev, &mut out, fl);
                } else {
                    for l in 0..LANES {
                        out[l] = alu::prev_op(i.sem, a[l], b[l], prev[l], l as u32);
                    }
                    if (i.omod != 0 || i.clamp) && i.sem.float_result() {
                        for v in out.iter_mut() {
                            *v = alu::out_mod(*v, i.omod, i.clamp);
                        }
                    }
                }
                lo[slot] = out;
                writes[slot] = true;
            }
        }
        // STORE_FLAGS / LOAD_STORE_FLAGS (W slot): the flags so far,
        // "inclusive of the current VLIW"
        let mut load_flags: Option<(u64, Lanes)> = None;
        if FLAGS && has_flags {
            let i = ins.iter().find(|j| j.slot == 3).expect("flags op in W");
            let m = masks[3];
            for l in 0..LANES {
                sc.res[3][l] = self.flags[l] | sc.flags[l];
            }
            writes[3] = true;
            if i.sem == Sem::LoadStoreFlags {
                load_flags = Some((m, *src(i.loc[0])));
            }
        }
        // pass 3: commit PV and GPR writes
        let ngprs = if env.num_gprs == 0 { 128 } else { env.num_gprs } as i32;
        let ok = |r: i32| (0..ngprs).contains(&r) || (FIRST_CLAUSE_TEMP as i32..128).contains(&r);
        for i in ins {
            let slot = i.slot as usize;
            if !writes[slot] {
                continue;
            }
            let m = masks[slot];
            if m == 0 {
                continue;
            }
            let r = &sc.res[slot];
            if i.pv_live {
                merge_into(&mut self.rows[PV_ROW as usize + slot], r, m, &mut sc.em);
            }
            if !i.write {
                continue;
            }
            let d = i.dst_gpr as i32;
            if !i.dst_rel {
                if ok(d) {
                    self.touched |= 1 << d;
                    merge_into(&mut self.rows[gi(d as usize, slot)], r, m, &mut sc.em);
                }
            } else if i.index_mode == 4 {
                let r2 = d + self.al;
                if ok(r2) && r2 < ngprs {
                    self.touched |= 1 << r2;
                    merge_into(&mut self.rows[gi(r2 as usize, slot)], r, m, &mut sc.em);
                }
            } else {
                for l in lanes_of(m) {
                    let r2 = d + self.ar[i.index_mode as usize & 3][l] as i32;
                    if (0..ngprs).contains(&r2) {
                        self.touched |= 1 << r2;
                        self.rows[gi(r2 as usize, slot)][l] = r[l];
                    }
                }
            }
        }
        if let Some(p) = new_pred {
            self.pred = p;
        }
        if FLAGS {
            for l in 0..LANES {
                self.flags[l] |= sc.flags[l];
            }
            if let Some((m, v)) = load_flags {
                // LOAD_STORE_FLAGS: the working copy becomes src0's six bits
                for l in lanes_of(m) {
                    self.flags[l] = v[l] & 0x3f;
                }
            }
        }
        if sc.pending.any {
            let p = std::mem::take(&mut sc.pending);
            for k in 0..2 {
                if let Some(v) = p.cf_idx[k] {
                    self.cf_idx[k] = v;
                }
            }
            if let Some(n) = p.lds_limit {
                self.lds_limit = Some(n);
            }
        }
        if let Some((c, m, v)) = new_ar {
            merge_into(&mut self.ar[c], &v, m, &mut sc.em);
        }
        Ok(())
    }
}

/// Parameter data of interpolation in LDS (guide 7.3.3): parameter n's P0,
/// P1 − P0 and P2 − P0 (xyzw each) at dwords 12n .. 12n + 11 after
/// PARAM_BASE_ADDR. A compute wave is one primitive (Prim# 0,
/// NumPrimsInVec 1) and its parameter base is 0, so parameter n element c
/// of Pk is LDS dword 12n + 4k + c.
fn param_dword(lds: &[u32], n: u32, k: usize, c: usize) -> Result<u32, String> {
    if n > 32 {
        return Err(format!(
            "interpolation parameter {n} is out of range (0-32, guide 8.2)"
        ));
    }
    let d = 12 * n as usize + 4 * k + c;
    lds.get(d).copied().ok_or_else(|| {
        format!(
            "parameter {n} (LDS dwords {}..{}) lies outside the group's {} bytes of LDS",
            12 * n,
            12 * n + 11,
            lds.len() * 4
        )
    })
}

impl Wave {
    /// INTERP_LOAD_P0/P10/P20 in its slot; INTERP_XY/ZW/X/Z over the slots
    /// it occupies (the first slot of the op computes every output).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn interp<'s>(
        &self,
        ins: &[AluInstr],
        i: &AluInstr,
        lds: &[u32],
        src: impl Fn(u16) -> &'s Lanes,
        locs_of: impl Fn(usize) -> [u16; 3],
        exec: u64,
        res: &mut [Lanes; 4],
        writes: &mut [bool; 4],
        masks: &mut [u64; 4],
    ) -> Result<(), (Option<u8>, Option<u32>, String)> {
        let mask_of = |j: &AluInstr| match j.pred_sel {
            2 => exec & !self.pred,
            3 => exec & self.pred,
            _ => exec,
        };
        let slot = i.slot as usize;
        let err = |lane: Option<u32>, e: String| (Some(i.slot), lane, e);
        match i.sem {
            Sem::InterpLoad(k) => {
                // 8.2: "The SRC0 argument contains the parameter number (0 – 32)"
                let m = mask_of(i);
                let a = src(i.loc[0]);
                for l in lanes_of(m) {
                    res[slot][l] = param_dword(lds, a[l], k as usize, slot)
                        .map_err(|e| err(Some(l as u32), e))?;
                }
                writes[slot] = true;
                masks[slot] = m;
            }
            Sem::Interp(kind) => {
                let need = kind.slots();
                let have = ins
                    .iter()
                    .filter(|j| j.sem == i.sem)
                    .fold(0u8, |acc, j| acc | 1 << j.slot);
                if have != need {
                    return Err(err(
                        None,
                        format!(
                            "{} must occupy slots {} of its group (guide 8.2)",
                            i.name,
                            (0..4)
                                .filter(|c| need >> c & 1 != 0)
                                .map(|c| ['x', 'y', 'z', 'w'][c])
                                .collect::<String>()
                        ),
                    ));
                }
                // the first slot of the op runs it for all its slots
                if need.trailing_zeros() as usize != slot {
                    return Ok(());
                }
                for &(out, pair) in kind.outputs() {
                    let Some(o) = ins.iter().find(|j| j.slot as usize == out) else {
                        continue;
                    };
                    let m = mask_of(o);
                    let (li, lj) = (locs_of(pair), locs_of(pair + 1));
                    let (iv, jv, pv) = (src(li[0]), src(lj[0]), src(li[1]));
                    let mut r = [0u32; LANES];
                    for l in lanes_of(m) {
                        let p =
                            |k| param_dword(lds, pv[l], k, out).map_err(|e| err(Some(l as u32), e));
                        if o.mode[0] != 0 {
                            // SET_MODE's single mode (flags: none, see fmode)
                            let mut cx = fmode::Ctx::new(o.mode, false);
                            r[l] = fmode::interp(&mut cx, p(0)?, p(1)?, p(2)?, iv[l], jv[l]);
                            if o.omod != 0 || o.clamp {
                                r[l] = fmode::out_mod(&mut cx, r[l], o.omod, o.clamp);
                            }
                            continue;
                        }
                        r[l] = alu::interp(p(0)?, p(1)?, p(2)?, iv[l], jv[l]);
                        if o.omod != 0 || o.clamp {
                            r[l] = alu::out_mod(r[l], o.omod, o.clamp);
                        }
                    }
                    res[out] = r;
                    writes[out] = true;
                    masks[out] = m;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A lane mask expanded to one all-ones / all-zeros dword per lane, cached
/// for the last mask seen (a clause usually runs every group under one mask).
struct ExpandedMask {
    of: u64,
    lanes: Lanes,
}

/// Byte of a lane mask → 8 dword lane masks.
static EXPAND8: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            t[b][k] = if b >> k & 1 != 0 { u32::MAX } else { 0 };
            k += 1;
        }
        b += 1;
    }
    t
};

/// `dst = m ? src : dst` per lane, branch-free (the loop vectorizes).
#[inline(always)]
fn merge_into(dst: &mut Lanes, src: &Lanes, m: u64, em: &mut ExpandedMask) {
    if m == u64::MAX {
        *dst = *src;
        return;
    }
    if em.of != m {
        for k in 0..8 {
            em.lanes[8 * k..8 * k + 8].copy_from_slice(&EXPAND8[(m >> (8 * k)) as usize & 255]);
        }
        em.of = m;
    }
    let e = &em.lanes;
    for l in 0..LANES {
        dst[l] = (src[l] & e[l]) | (dst[l] & !e[l]);
    }
}

/// What a PRED_SET* result `bits` (lanes `m`) does beyond its value:
/// UPDATE_PRED sets the predicate, UPDATE_EXEC_MASK the clause's new active
/// mask, with EXECUTE_MASK_OP recording the failing lanes as broken,
/// continued or killed.
#[inline(always)]
fn pred_set_effects(
    i: &AluInstr,
    m: u64,
    bits: u64,
    pred: u64,
    new_pred: &mut Option<u64>,
    ctx: &mut ClauseCtx,
) {
    if i.update_pred {
        *new_pred = Some((pred & !m) | (bits & m));
    }
    if i.update_exec {
        ctx.exec_new = (ctx.exec_new & !m) | (bits & m);
        let fail = m & !bits;
        match i.exec_op {
            1 => ctx.broken |= fail,
            2 => ctx.cont |= fail,
            3 => ctx.killed |= fail,
            _ => {}
        }
    }
}
