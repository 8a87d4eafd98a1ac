//! The `waitcnt` checker: memory results land only when an `s_waitcnt`
//! covers them, and a register read before that is a finding.
//!
//! Per wave, every issued memory op is kept in the queue of its counter
//! (VM_CNT, LGKM_CNT). A load runs as usual, then its destination registers
//! get their old values back: the new ones are held in the queue entry and
//! written when the op lands. An op lands when
//! - an `s_waitcnt` covers it: VM_CNT returns in order (GCN 1.0-1.4), so
//!   `vmcnt(N)` lands all but the newest N; on LGKM_CNT, LDS/GDS/messages
//!   return in order among themselves but scalar memory may return in any
//!   order, so `lgkmcnt(N)` lands the oldest in-order ops that must have
//!   returned even if every scalar one returned first, and the scalar ones
//!   only when nothing may be left (`lgkmcnt(0)`, or N below the in-order count);
//! - the counter would overflow (the hardware stalls issue until the oldest
//!   returns: VM_CNT holds 15, 63 on GCN 1.4; LGKM_CNT 15);
//! - never, at `s_endpgm` (nothing can read it afterwards).
//!
//! A read of a register whose value is still held, or a write to it by
//! anything but a later op of the same in-order counter, is a finding naming
//! the op that owns the register.

use super::facts::{Counter, Facts};
use super::{text, Hits};
use crate::counters;
use crate::Kind;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::wave::Lanes;
use risa_gcn_emu::Program;
use risa_gcn_emu::Wave;
use std::collections::VecDeque;

/// One outstanding memory op and the values it will write when it lands.
struct Entry {
    /// Its op index.
    op: u32,
    /// May return out of order (scalar memory).
    any_order: bool,
    /// EXEC at issue: the lanes it writes.
    exec: u64,
    /// Held VGPR values.
    v: Vec<(u16, Lanes)>,
    /// Held SGPR values.
    s: Vec<(u8, u32)>,
}

/// One wave's outstanding ops.
#[derive(Default)]
struct WaveState {
    vm: VecDeque<Entry>,
    lgkm: VecDeque<Entry>,
    /// Union of the registers the entries hold.
    held_v: [u64; 4],
    held_s: u128,
}

impl WaveState {
    fn recompute(&mut self) {
        self.held_v = [0; 4];
        self.held_s = 0;
        for e in self.vm.iter().chain(self.lgkm.iter()) {
            for (r, _) in &e.v {
                self.held_v[*r as usize / 64] |= 1 << (r % 64);
            }
            for (r, _) in &e.s {
                self.held_s |= 1 << r;
            }
        }
    }

    fn holds_any(&self) -> bool {
        self.held_s != 0 || self.held_v.iter().any(|&m| m != 0)
    }

    /// The entry holding VGPR `r` (newest first) and its counter.
    fn owner_v(&self, r: u16) -> Option<&Entry> {
        self.vm
            .iter()
            .chain(self.lgkm.iter())
            .filter(|e| e.v.iter().any(|(x, _)| *x == r))
            .max_by_key(|e| e.op)
    }

    fn owner_s(&self, r: u8) -> Option<&Entry> {
        self.vm
            .iter()
            .chain(self.lgkm.iter())
            .find(|e| e.s.iter().any(|(x, _)| *x == r))
    }
}

/// Writes an entry's held values into the wave.
fn land(w: &mut Wave, e: Entry) {
    for (r, vals) in e.v {
        let d = &mut w.v[r as usize];
        for l in 0..64 {
            if e.exec >> l & 1 != 0 {
                d[l] = vals[l];
            }
        }
    }
    for (r, v) in e.s {
        w.s[r as usize] = v;
    }
}

/// The checker's state on one worker thread.
#[derive(Default)]
pub struct Waitcnt {
    waves: Vec<WaveState>,
    /// The old values of the op being issued's destinations (saved in
    /// `before`, put back in `after`).
    saved_v: Vec<(u16, Lanes)>,
    saved_s: Vec<(u8, u32)>,
}

impl Waitcnt {
    /// A new group of `n` waves.
    pub fn group_start(&mut self, n: usize) {
        self.waves.clear();
        self.waves.resize_with(n, WaveState::default);
    }

    /// Checks what `op` reads and writes against the held registers, and
    /// saves the old values of a load's destinations.
    #[inline(always)]
    pub fn before(
        &mut self,
        w: &Wave,
        idx: usize,
        op: &Op,
        f: &Facts,
        p: &Program,
        hits: &mut Hits,
    ) {
        let st = &self.waves[w.id as usize];
        if st.holds_any() {
            self.check(w, idx, op, f, p, hits);
        }
        if f.counter != Counter::None {
            self.saved_v.clear();
            self.saved_s.clear();
            for &(r, n) in &f.vw {
                for k in r..r + u16::from(n) {
                    self.saved_v.push((k, w.v[k as usize]));
                }
            }
            for r in bits(f.sw) {
                self.saved_s.push((r, w.s[r as usize]));
            }
        }
    }

    #[cold]
    fn check(&self, w: &Wave, idx: usize, op: &Op, f: &Facts, p: &Program, hits: &mut Hits) {
        let st = &self.waves[w.id as usize];
        let hit_v = (0..4).any(|k| (f.vr_set[k] | f.vw_set[k]) & st.held_v[k] != 0);
        if !hit_v && (f.sr | f.sw) & st.held_s == 0 {
            return;
        }
        let what = |verb: &str, reg: String, e: &Entry| {
            let o = &p.ops[e.op as usize];
            format!(
                "wave {} {verb} {reg} while `{}` at {:#x} that writes it is outstanding",
                w.id,
                text(p, e.op as usize),
                o.offset
            )
        };
        for &(r, n, _) in &f.vr {
            for k in r..r + u16::from(n) {
                if st.held_v[k as usize / 64] >> (k % 64) & 1 != 0 {
                    if let Some(e) = st.owner_v(k) {
                        let m = what("reads", format!("v{k}"), e);
                        hits.hit(Kind::Waitcnt, op, idx, m);
                        return;
                    }
                }
            }
        }
        for r in bits(f.sr & st.held_s) {
            if let Some(e) = st.owner_s(r) {
                let m = what("reads", super::sgpr_name(r), e);
                hits.hit(Kind::Waitcnt, op, idx, m);
                return;
            }
        }
        // A write: fine when a later op of the same in-order counter writes
        // the register (its value lands after the older one's).
        for &(r, n) in &f.vw {
            for k in r..r + u16::from(n) {
                if let Some(e) = st.owner_v(k) {
                    let same_queue = f.counter == Counter::Vm && st.vm.iter().any(|x| x.op == e.op)
                        || f.counter == Counter::LgkmInOrder && !e.any_order;
                    if !same_queue {
                        let m = what("overwrites", format!("v{k}"), e);
                        hits.hit(Kind::Waitcnt, op, idx, m);
                        return;
                    }
                }
            }
        }
        for r in bits(f.sw & st.held_s) {
            if let Some(e) = st.owner_s(r) {
                let m = what("overwrites", super::sgpr_name(r), e);
                hits.hit(Kind::Waitcnt, op, idx, m);
                return;
            }
        }
    }

    /// Holds a memory op's results back, or lands what an `s_waitcnt` covers.
    #[inline(always)]
    pub fn after(&mut self, w: &mut Wave, idx: usize, f: &Facts, p: &Program, ok: bool) {
        if let Some((vm, lgkm)) = f.wait {
            self.wait(w, vm, lgkm);
            return;
        }
        if f.counter == Counter::None || !ok {
            return;
        }
        let st = &mut self.waves[w.id as usize];
        let mut e = Entry {
            op: idx as u32,
            any_order: f.counter == Counter::LgkmAny,
            exec: if f.counter == Counter::LgkmAny || f.vw_all {
                u64::MAX
            } else {
                w.exec()
            },
            v: Vec::new(),
            s: Vec::new(),
        };
        // The results go into the entry; the registers get their old values back.
        for (r, old) in self.saved_v.drain(..) {
            let d = &mut w.v[r as usize];
            e.v.push((r, *d));
            *d = old;
        }
        for (r, old) in self.saved_s.drain(..) {
            e.s.push((r, w.s[r as usize]));
            w.s[r as usize] = old;
        }
        let max = counters::model(p.gen).max;
        let (vm_max, lgkm_max) = (max[0] as usize, max[2] as usize);
        match f.counter {
            Counter::Vm => {
                st.vm.push_back(e);
                while st.vm.len() > vm_max {
                    let old = st.vm.pop_front().expect("non-empty");
                    land(w, old);
                }
            }
            _ => {
                st.lgkm.push_back(e);
                if st.lgkm.len() > lgkm_max {
                    Self::land_lgkm(st, w, st.lgkm.len() - lgkm_max);
                }
            }
        }
        st.recompute();
    }

    fn wait(&mut self, w: &mut Wave, vm: u32, lgkm: u32) {
        let st = &mut self.waves[w.id as usize];
        if st.vm.is_empty() && st.lgkm.is_empty() {
            return;
        }
        while st.vm.len() > vm as usize {
            let e = st.vm.pop_front().expect("non-empty");
            land(w, e);
        }
        if st.lgkm.len() > lgkm as usize {
            Self::land_lgkm(st, w, st.lgkm.len() - lgkm as usize);
        }
        st.recompute();
    }

    /// `r` LGKM ops have returned: land what that guarantees.
    fn land_lgkm(st: &mut WaveState, w: &mut Wave, r: usize) {
        if r >= st.lgkm.len() {
            for e in st.lgkm.drain(..) {
                land(w, e);
            }
            return;
        }
        let any = st.lgkm.iter().filter(|e| e.any_order).count();
        // Even if every out-of-order op returned first, r - any in-order
        // ones (the oldest: they return in order) have returned.
        let mut n = r.saturating_sub(any);
        let mut k = 0;
        while n > 0 && k < st.lgkm.len() {
            if st.lgkm[k].any_order {
                k += 1;
                continue;
            }
            let e = st.lgkm.remove(k).expect("in range");
            land(w, e);
            n -= 1;
        }
    }
}

/// The set bits of `m`, lowest first, as SGPR codes.
pub(crate) fn bits(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(b)
    })
}
