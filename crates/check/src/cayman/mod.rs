//! The checks on Cayman (TeraScale 3) code, at run time (a
//! [`risa_cayman_emu::Observer`]) and without running it ([`lint`]).
//!
//! What each check means on Cayman (docs/checks.md, "Cayman"):
//!
//! * `uninit`: reads of GPR elements (per lane) and LDS dwords nothing
//!   wrote in this dispatch (R0.xyz and R1.xyz, the local and group ids the
//!   launch sets, count as written); PV read where the guide says it holds
//!   nothing (first group of a clause, after an empty slot or a NOP);
//! * `races`: LDS accesses of two waves of one work-group to one dword, at
//!   least one a write, with no GROUP_BARRIER between them (the GCN
//!   checker's table, [`crate::run::races::Table`]);
//! * `waitcnt`: the guide's ordering rules for results: a CF instruction
//!   without the BARRIER bit that depends on a clause of another unit that
//!   may still run; LDS reads left in the output queue at the end of a clause;
//! * `hazards`: the guide's ALU group rules (AR set by a MOVA* of an
//!   earlier group, not used in a MOVA*'s group, one AR element per group,
//!   MOVA*'s PV, one predicate update per group, output queue use).

pub mod rules;

use crate::run::races::{Hit, Table};
use crate::run::{Hits, Options};
use crate::{Finding, Kind, Report};
use risa_cayman_emu::observe::{GroupAt, LdsAccess, ObserverFactory};
use risa_cayman_emu::program::{AluClause, CfOp, Class, FetchOp, Program, SrcKind};
use risa_cayman_emu::trace::Listing;
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::Observer;
use rules::{BarrierWindow, CfFacts};
use std::sync::{Arc, Mutex};

/// What every observer of a session shares: the program, its text and facts.
struct Shared {
    opts: Options,
    prog: Program,
    listing: Listing,
    cf: Vec<CfFacts>,
    /// Static findings per clause and group.
    groups: Vec<Vec<Vec<(Kind, String)>>>,
}

impl Shared {
    fn new(opts: Options, code: &[u8]) -> Shared {
        let prog = Program::lower(code);
        let listing = Listing::new(code, &prog);
        let cf = rules::cf_facts(&prog);
        let groups = prog
            .alu
            .iter()
            .map(|c| c.as_ref().map_or_else(|_| Vec::new(), rules::clause_rules))
            .collect();
        Shared {
            opts,
            prog,
            listing,
            cf,
            groups,
        }
    }

    fn has(&self, k: Kind) -> bool {
        self.opts.kinds.contains(&k)
    }

    /// PC and text of CF instruction `pc`.
    fn cf_at(&self, pc: u32) -> (u64, String) {
        let t = self
            .listing
            .cf
            .get(pc as usize)
            .cloned()
            .unwrap_or_default();
        (8 * u64::from(pc), t)
    }

    /// PC and text of group `g` of clause `c`.
    fn group_at(&self, c: u32, g: usize) -> (u64, String) {
        self.listing
            .alu
            .get(c as usize)
            .and_then(|v| v.get(g))
            .map_or((0, String::new()), |(a, t)| (8 * u64::from(*a), t.clone()))
    }

    /// PC and text of instruction `k` of fetch clause `c`.
    fn fetch_at(&self, c: u32, k: usize) -> (u64, String) {
        self.listing
            .fetch
            .get(c as usize)
            .and_then(|v| v.get(k))
            .map_or((0, String::new()), |(a, t)| (8 * u64::from(*a), t.clone()))
    }
}

/// One checked Cayman dispatch: observers for its worker threads and their
/// report.
pub struct Session {
    shared: Arc<Shared>,
    report: Arc<Mutex<Report>>,
}

impl Session {
    /// A session running `opts`' checks on the kernel whose code (from its
    /// first CF instruction) is `code`.
    pub fn new(opts: Options, code: &[u8]) -> Session {
        Session {
            shared: Arc::new(Shared::new(opts, code)),
            report: Arc::default(),
        }
    }

    /// A new observer (one per worker thread).
    pub fn observer(&self) -> Box<dyn Observer> {
        Box::new(Checker {
            sh: self.shared.clone(),
            report: self.report.clone(),
            hits: Hits::default(),
            gprs: Vec::new(),
            pv: Vec::new(),
            lds: Vec::new(),
            races: Table::default(),
            windows: Vec::new(),
        })
    }

    /// A factory for `Dispatch::observe` / `LaunchConfig::add_cayman_observer`.
    pub fn factory(self: &Arc<Self>) -> ObserverFactory {
        let s = self.clone();
        ObserverFactory(Arc::new(move || s.observer()))
    }

    /// The findings so far.
    pub fn report(&self) -> Report {
        self.report
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Lanes written, per GPR element (4r + c), of one wave.
type Written = Box<[u64; 512]>;

/// The observer.
struct Checker {
    sh: Arc<Shared>,
    report: Arc<Mutex<Report>>,
    hits: Hits,
    /// Per wave of the group: the lanes of each GPR element that hold a
    /// defined value (written, and not computed from undefined values).
    gprs: Vec<Written>,
    /// Per wave: the undefined lanes of PV.x..w.
    pv: Vec<[u64; 4]>,
    /// LDS dwords written, one bit each.
    lds: Vec<u64>,
    races: Table,
    /// Per wave: the CF instructions that may still run.
    windows: Vec<BarrierWindow>,
}

/// Key space of [`Hits`]: CF instructions, ALU groups and fetches by PC.
fn key(pc: u64) -> u32 {
    pc as u32
}

impl Checker {
    fn hit(&mut self, kind: Kind, (pc, text): (u64, String), message: String) {
        self.hits.hit_with(kind, key(pc), pc, message, || text);
    }

    /// Checks that the lanes `lanes` of GPR `r` element `c` were written.
    fn check_read(&mut self, w: &Wave, r: u8, c: u8, lanes: u64) -> Option<String> {
        let have = self.gprs.get(w.index as usize)?[4 * (r as usize & 127) + (c as usize & 3)];
        let missing = lanes & !have;
        (missing != 0).then(|| {
            let more = match missing.count_ones() {
                1 => String::new(),
                n => format!(" (and {} more lanes)", n - 1),
            };
            format!(
                "wave {} reads {} in lane {}, which nothing wrote{more}",
                w.index,
                rules::gpr_name(r, c),
                missing.trailing_zeros()
            )
        })
    }

    /// `uninit` for an ALU group: undefined lanes flow from the sources to
    /// the results (a copy of an undefined value is not yet a bug: clang
    /// moves whole vectors whose unused elements nothing wrote); a read that
    /// decides something (a PRED_SET*, MOVA*, LDS address or data) of an
    /// undefined lane is a finding.
    fn uninit_group(&mut self, w: &Wave, at: GroupAt, clause: &AluClause) {
        let Some(g) = clause.groups.get(at.group) else {
            return;
        };
        let id = w.index as usize;
        if id >= self.gprs.len() {
            return;
        }
        if at.group == 0 {
            // PV at a clause's start is the static rules' business
            self.pv[id] = [0; 4];
        }
        let ins = &clause.instrs[g.first as usize..g.first as usize + g.len as usize];
        let exec = at.exec & w.valid();
        let pred = w.pred();
        let mut bad: Option<String> = None;
        let mut writes: [(u8, u8, u64, u64); 4] = [(0, 0, 0, 0); 4];
        let mut nw = 0;
        let mut pv_new = self.pv[id];
        for i in ins.iter().filter(|i| !i.dead) {
            let lanes = match i.pred_sel {
                2 => exec & !pred,
                3 => exec & pred,
                _ => exec,
            };
            let n = if i.class == Class::Nop {
                0
            } else {
                i.nsrc as usize
            };
            let mut undef = 0u64;
            let mut first: Option<(String, u64)> = None;
            // an LDS op decides with its address (src0) only: its data may
            // be a vector clang assembled from undefined pieces
            let decisive = if i.class == Class::Lds { 1 } else { 3 };
            for (k, s) in i.src[..n.min(3)].iter().enumerate() {
                let u = match s.kind {
                    SrcKind::Gpr(r) if !s.rel => {
                        let u =
                            lanes & !self.gprs[id][4 * (r as usize & 127) + (s.chan as usize & 3)];
                        if u != 0 && first.is_none() && k < decisive {
                            first = Some((rules::gpr_name(r, s.chan), u));
                        }
                        u
                    }
                    SrcKind::Pv => {
                        let u = lanes & self.pv[id][s.chan as usize & 3];
                        if u != 0 && first.is_none() && k < decisive {
                            first = Some((
                                format!("PV.{}", ['x', 'y', 'z', 'w'][s.chan as usize & 3]),
                                u,
                            ));
                        }
                        u
                    }
                    _ => 0,
                };
                undef |= u;
            }
            let decides = matches!(
                i.class,
                Class::PredSet | Class::Mova | Class::Kill | Class::Lds
            ) || i.update_exec
                || i.update_pred;
            if let (true, None, Some((name, u))) = (decides, &bad, first) {
                bad = Some(format!(
                    "wave {} {} reads {name} in lane {}, which nothing wrote (or was computed \
                     from values nothing wrote){}",
                    w.index,
                    i.name,
                    u.trailing_zeros(),
                    match u.count_ones() {
                        1 => String::new(),
                        k => format!(" (and {} more lanes)", k - 1),
                    }
                ));
            }
            if i.dst_rel && i.write && !matches!(i.class, Class::Nop | Class::Lds) {
                // a relative write (AR or the loop index chooses the GPR):
                // any GPR from the base on may now hold the value
                for r in i.dst_gpr as usize..128 {
                    self.gprs[id][4 * r + (i.slot as usize & 3)] |= lanes;
                }
            }
            if let Some((r, c)) = rules::alu_write(i) {
                if nw < 4 {
                    writes[nw] = (r, c, lanes, undef);
                    nw += 1;
                }
            }
            if i.class != Class::Lds {
                let pv = &mut pv_new[i.slot as usize & 3];
                *pv = (*pv & !lanes) | undef;
            }
        }
        // every slot reads before any writes
        for &(r, c, lanes, undef) in &writes[..nw] {
            let d = &mut self.gprs[id][4 * (r as usize & 127) + (c as usize & 3)];
            *d = (*d | lanes) & !undef;
        }
        self.pv[id] = pv_new;
        if let Some(m) = bad {
            let sh = self.sh.clone();
            self.hit(Kind::Uninit, sh.group_at(at.clause, at.group), m);
        }
    }

    fn mark(&mut self, w: &Wave, r: u8, c: u8, lanes: u64) {
        if let Some(g) = self.gprs.get_mut(w.index as usize) {
            g[4 * (r as usize & 127) + (c as usize & 3)] |= lanes;
        }
    }
}

impl Observer for Checker {
    fn cf_before(&mut self, w: &Wave, pc: u32, op: &CfOp, _env: &Env) {
        let sh = self.sh.clone();
        if sh.has(Kind::Waitcnt) {
            if let Some(m) = self
                .windows
                .get_mut(w.index as usize)
                .and_then(|win| win.step(pc, &sh.cf))
            {
                self.hit(Kind::Waitcnt, sh.cf_at(pc), m);
            }
        }
        if sh.has(Kind::Uninit) {
            let lanes = w.active() & w.valid();
            let mut bad = None;
            rules::export_reads(op, false, |r, c| {
                if bad.is_none() {
                    bad = self.check_read(w, r, c, lanes);
                }
            });
            if let Some(m) = bad {
                self.hit(Kind::Uninit, sh.cf_at(pc), m);
            }
        }
    }

    fn group_before(&mut self, w: &Wave, at: GroupAt, clause: &AluClause) {
        let sh = self.sh.clone();
        if let Some(fs) = sh
            .groups
            .get(at.clause as usize)
            .and_then(|c| c.get(at.group))
        {
            for (k, m) in fs {
                if sh.has(*k) {
                    self.hit(*k, sh.group_at(at.clause, at.group), m.clone());
                }
            }
        }
        if sh.has(Kind::Uninit) {
            self.uninit_group(w, at, clause);
        }
    }

    fn group_after(&mut self, w: &Wave, at: GroupAt, lds: &[LdsAccess], _ok: bool) {
        let (uninit, races) = (self.sh.has(Kind::Uninit), self.sh.has(Kind::Race));
        if lds.is_empty() || !(uninit || races) {
            return;
        }
        let mut bad: Option<(usize, u32)> = None;
        let mut hit: Option<Hit> = None;
        let me = key(self.sh.group_at(at.clause, at.group).0);
        for a in lds {
            let mut m = a.mask & w.valid();
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                a.dwords(l, |d| {
                    let (word, bit) = (d.addr as usize / 4 / 64, d.addr / 4 % 64);
                    if uninit {
                        if d.read
                            && bad.is_none()
                            && self.lds.get(word).is_some_and(|x| x >> bit & 1 == 0)
                        {
                            bad = Some((l, d.addr));
                        }
                        if d.write {
                            if let Some(x) = self.lds.get_mut(word) {
                                *x |= 1 << bit;
                            }
                        }
                    }
                    if races {
                        self.races
                            .access(w.index, me, d.addr, 4, d.read, d.write, d.atomic, &mut hit);
                    }
                });
            }
        }
        let sh = self.sh.clone();
        if let Some((l, addr)) = bad {
            let m = format!(
                "wave {} lane {l} reads LDS dword {addr:#x}, which nothing wrote",
                w.index
            );
            self.hit(Kind::Uninit, sh.group_at(at.clause, at.group), m);
        }
        if let Some(h) = hit {
            let (opc, otext) = (u64::from(h.other_op), sh.find_text(h.other_op));
            let m = h.message(w.index, &format!("{opc:#x} (`{otext}`)"), "GROUP_BARRIER");
            self.hit(Kind::Race, sh.group_at(at.clause, at.group), m);
        }
    }

    fn fetch_before(&mut self, w: &Wave, clause: u32, k: usize, op: &FetchOp, mask: u64) {
        if !self.sh.has(Kind::Uninit) {
            return;
        }
        let lanes = mask & w.valid();
        let mut bad = None;
        let mut writes = Vec::new();
        rules::fetch_access(
            op,
            |r, c| {
                if bad.is_none() {
                    bad = self.check_read(w, r, c, lanes);
                }
            },
            |r, c| writes.push((r, c)),
        );
        for (r, c) in writes {
            self.mark(w, r, c, lanes);
        }
        if let Some(m) = bad {
            let sh = self.sh.clone();
            self.hit(Kind::Uninit, sh.fetch_at(clause, k), m);
        }
    }

    fn barrier(&mut self, w: &Wave) {
        self.races.barrier(w.index);
    }

    fn group_start(&mut self, _gid: [u32; 3], _linear: u64, waves: usize, lds_bytes: usize) {
        if self.sh.has(Kind::Uninit) {
            // the launch sets R0.xyz (local id) and R1.xyz (group id)
            let mut init = Box::new([0u64; 512]);
            for b in [0, 1, 2, 4, 5, 6] {
                init[b] = u64::MAX;
            }
            self.gprs.clear();
            self.gprs.resize(waves, init);
            self.pv.clear();
            self.pv.resize(waves, [0; 4]);
            self.lds.clear();
            self.lds.resize(lds_bytes.div_ceil(4 * 64), 0);
        }
        if self.sh.has(Kind::Race) {
            self.races.group_start(waves, lds_bytes);
        }
        self.windows.clear();
        self.windows.resize(waves, BarrierWindow::default());
    }

    fn group_end(&mut self, _gid: [u32; 3]) {
        self.hits.flush(&self.report);
    }
}

impl Shared {
    /// The text of the ALU group at byte `pc`.
    fn find_text(&self, pc: u32) -> String {
        self.listing
            .alu
            .iter()
            .flatten()
            .find(|(a, _)| 8 * *a == pc)
            .map_or_else(String::new, |(_, t)| t.clone())
    }
}

/// The rules that need no execution over the whole program of `code` (`risa
/// check` on a Cayman kernel): every ALU group's rules and the BARRIER rule
/// along the CF program in address order (jumps are not followed).
pub fn lint(code: &[u8], kinds: &[Kind]) -> Report {
    let sh = Shared::new(
        Options {
            kinds: kinds.to_vec(),
            global_races: false,
        },
        code,
    );
    let mut r = Report::default();
    let mut add = |kind: Kind, (pc, instr): (u64, String), message: String| {
        if kinds.contains(&kind) {
            r.add(Finding {
                kind,
                pc,
                instr,
                message,
            });
        }
    };
    let mut win = BarrierWindow::default();
    for pc in 0..sh.prog.cf.len() as u32 {
        if let Some(m) = win.step(pc, &sh.cf) {
            add(Kind::Waitcnt, sh.cf_at(pc), m);
        }
    }
    for (c, groups) in sh.groups.iter().enumerate() {
        for (g, fs) in groups.iter().enumerate() {
            for (k, m) in fs {
                add(*k, sh.group_at(c as u32, g), m.clone());
            }
        }
    }
    r
}
