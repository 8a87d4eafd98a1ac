//! Trace lines of a wave (see [`crate::trace`]): CF instructions before and
//! after they run, ALU groups and fetches with what they changed.

use super::Wave;
use crate::alu::{Lanes, LANES};
use crate::trace::Tracer;
use std::fmt::Write as _;
use std::sync::Arc;

/// GPR rows a trace compares (128 GPRs × 4 elements).
const GPR_ROWS: usize = 512;

/// The wave's state before a traced instruction.
pub(crate) struct Snapshot {
    rows: Vec<Lanes>,
    ar: [Lanes; 4],
    pred: u64,
    cf_idx: [u32; 2],
    exec_new: u64,
    flags: Lanes,
}

impl Wave {
    /// Traces this wave into `t` (None: no trace).
    pub fn set_trace(&mut self, t: Option<Arc<Tracer>>) {
        if t.is_some() && self.snap.is_none() {
            self.snap = Some(Box::new(Snapshot {
                rows: vec![[0; LANES]; GPR_ROWS],
                ar: [[0; LANES]; 4],
                pred: 0,
                cf_idx: [0; 2],
                exec_new: 0,
                flags: [0; LANES],
            }));
        }
        self.trace = t;
        self.instrumented = self.trace.is_some() || self.observer.is_some();
    }

    fn tag(&self) -> String {
        let [x, y, z] = self.workgroup;
        format!("g({x},{y},{z}) w{}", self.index)
    }

    /// The CF line, before CF instruction `pc` runs.
    pub(super) fn trace_cf(&self, pc: u32) {
        let Some(t) = &self.trace else { return };
        let text = t.listing.cf.get(pc as usize).map_or("", |s| s.as_str());
        t.sink.line(&format!("{} cf {pc}: {text}", self.tag()));
    }

    /// What CF instruction `pc` changed: the active mask, a jump.
    pub(super) fn trace_cf_after(&self, pc: u32, next: u32, active_before: u64) {
        let Some(t) = &self.trace else { return };
        let mut s = String::new();
        if self.active != active_before {
            let _ = write!(s, " active={:#018x}", self.active);
        }
        if next != pc + 1 {
            let _ = write!(s, " -> cf {next}");
        }
        if !s.is_empty() {
            t.sink.line(&format!("{} cf {pc} =>{s}", self.tag()));
        }
    }

    /// Records the state a traced group or fetch starts from.
    pub(super) fn trace_snapshot(&mut self, exec_new: u64) {
        let Some(snap) = self.snap.as_deref_mut() else {
            return;
        };
        snap.rows.copy_from_slice(&self.rows[..GPR_ROWS]);
        snap.ar = self.ar;
        snap.pred = self.pred;
        snap.cf_idx = self.cf_idx;
        snap.exec_new = exec_new;
        snap.flags = self.flags;
    }

    /// Appends what changed since the snapshot to `s`.
    fn trace_changes(&self, s: &mut String, exec_new: u64) {
        let Some(snap) = self.snap.as_deref() else {
            return;
        };
        const CH: [char; 4] = ['x', 'y', 'z', 'w'];
        for r in 0..GPR_ROWS {
            let (old, new) = (&snap.rows[r], &self.rows[r]);
            if old == new {
                continue;
            }
            let changed = (0..LANES).filter(|&l| old[l] != new[l]);
            let n = changed.clone().count();
            let first = changed.clone().next().unwrap_or(0);
            let _ = write!(
                s,
                " R{}.{}[{first}]={:#010x} ({n} lane{})",
                r / 4,
                CH[r % 4],
                new[first],
                if n == 1 { "" } else { "s" }
            );
        }
        for c in 0..4 {
            if snap.ar[c] != self.ar[c] {
                let l = (0..LANES)
                    .find(|&l| snap.ar[c][l] != self.ar[c][l])
                    .unwrap_or(0);
                let _ = write!(s, " AR.{}[{l}]={}", CH[c], self.ar[c][l] as i32);
            }
        }
        if snap.pred != self.pred {
            let _ = write!(s, " pred={:#018x}", self.pred);
        }
        for k in 0..2 {
            if snap.cf_idx[k] != self.cf_idx[k] {
                let _ = write!(s, " CF_IDX{k}={}", self.cf_idx[k]);
            }
        }
        if snap.flags != self.flags {
            let l = (0..LANES)
                .find(|&l| snap.flags[l] != self.flags[l])
                .unwrap_or(0);
            let _ = write!(s, " flags[{l}]={:#04x}", self.flags[l]);
        }
        if snap.exec_new != exec_new {
            let _ = write!(s, " clause_exec={exec_new:#018x}");
        }
    }

    /// The line of group `group` of ALU clause `clause`, after it ran
    /// (`failed`: it faulted; its partial effects are not listed).
    pub(super) fn trace_group(&self, clause: u32, group: usize, exec_new: u64, failed: bool) {
        let Some(t) = &self.trace else { return };
        let (at, text) = t
            .listing
            .alu
            .get(clause as usize)
            .and_then(|c| c.get(group))
            .map_or((0, ""), |(a, s)| (*a, s.as_str()));
        let mut s = format!("{}   alu {at}: {text}", self.tag());
        if failed {
            s.push_str("  (fault)");
        } else {
            let mut c = String::new();
            self.trace_changes(&mut c, exec_new);
            if !c.is_empty() {
                s.push(' ');
                s.push_str(&c);
            }
        }
        t.sink.line(&s);
    }

    /// The line of instruction `k` of fetch/GDS clause `clause`, after it ran.
    pub(super) fn trace_fetch(&self, clause: u32, k: usize, failed: bool) {
        let Some(t) = &self.trace else { return };
        let (at, text) = t
            .listing
            .fetch
            .get(clause as usize)
            .and_then(|c| c.get(k))
            .map_or((0, ""), |(a, s)| (*a, s.as_str()));
        let mut s = format!("{}   tc {at}: {text}", self.tag());
        if failed {
            s.push_str("  (fault)");
        } else {
            let mut c = String::new();
            self.trace_changes(&mut c, 0);
            if !c.is_empty() {
                s.push(' ');
                s.push_str(&c);
            }
        }
        t.sink.line(&s);
    }
}
