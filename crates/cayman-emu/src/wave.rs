//! One 64-thread wavefront: GPRs, PV, AR, predicate, active/valid masks, the
//! branch-loop stack, LDS output queues, and the entry point [`Wave::run`].
//! The work is in the submodules: CF instructions and the branch-loop stack
//! (chapter 3) in `cf`; ALU clauses (chapter 4) in `alu_clause`, their
//! operand reads in `operands`, one ALU group's passes in `group`, the
//! per-class slot execution in `slots`, interpolation in `interp`;
//! fetch/GDS clauses in `fetch`, RAT, scratch and scatter exports in
//! `export`, LDS_IDX_OP in `lds`, the traced/observed additions in `traced`.

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

mod alu_clause;
mod cf;
mod export;
mod fetch;
mod group;
mod interp;
mod lds;
mod operands;
mod slots;
mod traced;

pub use export::{RET_DWORDS, RET_RESOURCE, SCRATCH_DWORDS};
pub use fetch::PARAM_RESOURCE;
use group::Scratch;

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
            scratch: Some(Scratch::new()),
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
}
