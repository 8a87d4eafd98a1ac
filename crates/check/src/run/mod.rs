//! The run-time checkers: [`risa_gcn_emu::Observer`]s that watch a dispatch
//! and report what real hardware would hide (`--check=` of `risa run`,
//! `RISA_CHECK` of the OpenCL platform).
//!
//! A [`Session`] is one checked dispatch: it hands out one observer per
//! worker thread ([`Session::observer`]) and gathers their findings into one
//! [`Report`] ([`Session::report`]).
//!
//! ```
//! use risa_check::run::{Options, Session, WaveInputs};
//! let opts = Options::parse("waitcnt,uninit").unwrap();
//! let s = Session::new(opts, WaveInputs { sgprs: 0, vgprs: 1 });
//! let _obs = s.observer(); // give to LaunchConfig::observe
//! assert!(s.report().is_empty());
//! ```

pub mod facts;
mod global;
mod hazards;
pub mod races;
mod uninit;
mod waitcnt;

use crate::{access, Finding, Kind, Report};
use facts::Facts;
use risa_gcn::Dialect;
use risa_gcn_emu::exec::{Observer, WaveEvent};
use risa_gcn_emu::program::Op;
use risa_gcn_emu::{Ctx, FaultKind, Program, Wave};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Which checks run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The kinds checked.
    pub kinds: Vec<Kind>,
    /// `races-global`: also global-memory races between work-items (one
    /// map entry per byte touched; the dispatch runs on one thread).
    pub global_races: bool,
}

impl Options {
    /// Parses a `--check=` / `RISA_CHECK` list: `waitcnt`, `hazards`,
    /// `races`, `uninit`, `all`, and `races-global`.
    ///
    /// ```
    /// use risa_check::{run::Options, Kind};
    /// let o = Options::parse("races-global,waitcnt").unwrap();
    /// assert_eq!(o.kinds, vec![Kind::Waitcnt, Kind::Race]);
    /// assert!(o.global_races);
    /// assert!(Options::parse("wait").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Options, crate::CheckError> {
        let mut global_races = false;
        let rest: Vec<&str> = s
            .split(',')
            .map(str::trim)
            .filter(|p| {
                let g = *p == "races-global";
                global_races |= g;
                !g
            })
            .collect();
        let mut kinds = Kind::parse_list(&rest.join(","))?;
        if global_races && !kinds.contains(&Kind::Race) {
            kinds.push(Kind::Race);
            kinds.sort();
        }
        Ok(Options {
            kinds,
            global_races,
        })
    }

    fn has(&self, k: Kind) -> bool {
        self.kinds.contains(&k)
    }
}

/// The registers the hardware writes before a wave's first instruction,
/// which `uninit` counts as written (the runtime knows them from the
/// kernel descriptor: `risa_runtime::gcn_launch::wave_inputs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaveInputs {
    /// Bit per SGPR operand code: the user and system SGPRs.
    pub sgprs: u128,
    /// VGPRs v0 .. v(n-1) hold work-item ids.
    pub vgprs: u32,
}

/// One checked dispatch: observers for its worker threads and their report.
pub struct Session {
    opts: Options,
    inputs: WaveInputs,
    report: Arc<Mutex<Report>>,
    facts: Arc<Mutex<Option<Arc<Vec<Facts>>>>>,
}

impl Session {
    /// A session running `opts`' checks on waves that start with `inputs`.
    pub fn new(opts: Options, inputs: WaveInputs) -> Session {
        Session {
            opts,
            inputs,
            report: Arc::default(),
            facts: Arc::default(),
        }
    }

    /// The checks this session runs.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// A new observer (one per worker thread); it adds its findings to the
    /// session's report at the end of every work-group.
    pub fn observer(&self) -> Box<dyn Observer> {
        Box::new(Checker {
            waitcnt: self.opts.has(Kind::Waitcnt).then(waitcnt::Waitcnt::default),
            hazards: self.opts.has(Kind::Hazard).then(hazards::Hazards::default),
            uninit: None,
            uninit_inputs: self.opts.has(Kind::Uninit).then_some(self.inputs),
            races: self.opts.has(Kind::Race).then(races::Races::default),
            global: self.opts.global_races.then(global::GlobalRaces::default),
            facts: None,
            shared_facts: self.facts.clone(),
            hits: Hits::default(),
            report: self.report.clone(),
            waves: 0,
            lds_pending: true,
        })
    }

    /// A factory for `LaunchConfig::observe`.
    pub fn factory(self: &Arc<Self>) -> Arc<dyn Fn() -> Box<dyn Observer> + Send + Sync> {
        let s = self.clone();
        Arc::new(move || s.observer())
    }

    /// The findings so far.
    pub fn report(&self) -> Report {
        self.report
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The disassembly of op `idx` of `p` (LLVM syntax).
pub(crate) fn text(p: &Program, idx: usize) -> String {
    p.ops
        .get(idx)
        .map_or_else(String::new, |o| risa_gcn::print(&o.instr, Dialect::Llvm))
}

/// An SGPR operand code as the printer names it.
pub(crate) fn sgpr_name(code: u8) -> String {
    match code {
        106 => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        124 => "m0".into(),
        126 => "exec_lo".into(),
        127 => "exec_hi".into(),
        c => format!("s{c}"),
    }
}

/// Findings of one observer, counted per (op, kind) before they go to the
/// shared report (so a finding in a hot loop costs a map update, not a lock).
#[derive(Default)]
pub struct Hits {
    map: HashMap<(u32, Kind), (Finding, u64)>,
}

impl Hits {
    /// Records a finding of `kind` at op `idx`.
    pub fn hit(&mut self, kind: Kind, op: &Op, idx: usize, message: String) {
        self.hit_with(kind, idx as u32, u64::from(op.offset), message, || {
            risa_gcn::print(&op.instr, Dialect::Llvm)
        });
    }

    /// Records a finding of `kind` at the instruction the caller numbers
    /// `key`, at `pc`; `instr` disassembles it (called once per key).
    pub fn hit_with(
        &mut self,
        kind: Kind,
        key: u32,
        pc: u64,
        message: String,
        instr: impl FnOnce() -> String,
    ) {
        self.map
            .entry((key, kind))
            .and_modify(|e| e.1 += 1)
            .or_insert_with(|| {
                let f = Finding {
                    kind,
                    pc,
                    instr: instr(),
                    message,
                };
                (f, 1)
            });
    }

    /// Moves the findings into the shared report.
    pub fn flush(&mut self, to: &Mutex<Report>) {
        if self.map.is_empty() {
            return;
        }
        let mut r = to.lock().unwrap_or_else(|e| e.into_inner());
        for (_, (f, n)) in self.map.drain() {
            r.add_times(f, n);
        }
    }
}

/// The observer: every enabled checker, fed the op's facts.
struct Checker {
    waitcnt: Option<waitcnt::Waitcnt>,
    hazards: Option<hazards::Hazards>,
    uninit: Option<uninit::Uninit>,
    uninit_inputs: Option<WaveInputs>,
    races: Option<races::Races>,
    global: Option<global::GlobalRaces>,
    facts: Option<Arc<Vec<Facts>>>,
    shared_facts: Arc<Mutex<Option<Arc<Vec<Facts>>>>>,
    hits: Hits,
    report: Arc<Mutex<Report>>,
    waves: usize,
    /// The group's LDS-sized state is still to be set up.
    lds_pending: bool,
}

impl Checker {
    /// The facts of the program, built once per session.
    #[cold]
    fn load_facts(&mut self, p: &Program) {
        let mut g = self.shared_facts.lock().unwrap_or_else(|e| e.into_inner());
        let f = g.get_or_insert_with(|| Arc::new(facts::of_program(p)));
        self.facts = Some(f.clone());
    }

    /// Per-group state that needs the context (LDS size).
    #[cold]
    fn start_lds(&mut self, p: &Program, lds: usize) {
        if let Some(inputs) = self.uninit_inputs {
            let mut u = uninit::Uninit::new(inputs, p.gen.info().sgprs);
            u.group_start(self.waves, lds);
            self.uninit = Some(u);
        }
        if let Some(r) = self.races.as_mut() {
            r.group_start(self.waves, lds);
        }
    }
}

impl Observer for Checker {
    #[inline]
    fn before(&mut self, w: &Wave, idx: usize, op: &Op, ctx: &Ctx) {
        let Some(facts) = self.facts.as_ref() else {
            return;
        };
        let f = &facts[idx];
        let p = ctx.prog;
        if let Some(c) = self.waitcnt.as_mut() {
            c.before(w, idx, op, f, p, &mut self.hits);
        }
        if let Some(h) = self.hazards.as_mut() {
            h.before(w, idx, op, facts, p, &mut self.hits);
        }
        if let Some(u) = self.uninit.as_mut() {
            u.before(w, idx, op, f, &mut self.hits);
            u.lds_writes(w, op, f);
        }
        if let Some(r) = self.races.as_mut() {
            r.before(w, idx, op, f, p, &mut self.hits);
        }
        let vmem_data = f.access.touches(access::mem::VMEM_R | access::mem::VMEM_W)
            && !f.access.touches(access::mem::CACHE);
        if let (Some(g), true) = (self.global.as_mut(), vmem_data) {
            let epoch = self.races.as_ref().map_or(0, |r| r.epoch(w.id));
            g.before(w, idx, op, ctx.group, epoch, p, &mut self.hits);
        }
    }

    #[inline]
    fn after(
        &mut self,
        w: &mut Wave,
        idx: usize,
        _op: &Op,
        ctx: &mut Ctx,
        r: &Result<(), FaultKind>,
    ) {
        let Some(facts) = self.facts.as_ref() else {
            return;
        };
        let f = &facts[idx];
        if let Some(u) = self.uninit.as_mut() {
            u.after(w, f, ctx);
        }
        if let Some(c) = self.waitcnt.as_mut() {
            c.after(w, idx, f, ctx.prog, r.is_ok());
        }
    }

    fn event(&mut self, w: &mut Wave, ev: WaveEvent, ctx: &mut Ctx) {
        if self.facts.is_none() {
            self.load_facts(ctx.prog);
        }
        if ev == WaveEvent::Resume && self.lds_pending {
            self.lds_pending = false;
            self.start_lds(ctx.prog, ctx.lds.len());
        }
        if ev == WaveEvent::Barrier {
            if let Some(r) = self.races.as_mut() {
                r.barrier(w.id);
            }
        }
    }

    fn group_start(&mut self, _group: u64, waves: &[Wave]) {
        self.waves = waves.len();
        if let Some(c) = self.waitcnt.as_mut() {
            c.group_start(waves.len());
        }
        if let Some(h) = self.hazards.as_mut() {
            h.group_start(waves.len());
        }
        // LDS-sized state is set up at the first wave's start (the context
        // holds the LDS size).
        self.uninit = None;
        self.lds_pending = true;
    }

    fn group_end(&mut self, _group: u64) {
        self.hits.flush(&self.report);
    }
}
