//! The `hazards` checker at run time: every instruction a wave issues is
//! checked against the ones it issued before with the static checker's
//! wait-state rules ([`crate::hazard`]), in the order the wave really issued
//! them (branches and loops are followed exactly, with no join of paths).
//!
//! What a (producer, consumer) pair of instructions needs depends only on
//! the two instructions, so it is computed once per pair with
//! [`check_pair`] and kept in a small direct-mapped cache; the per-issue work
//! is then a few cache probes against a window of the last producers (at
//! most [`MAX_WAITS`] wait states back). The XNACK soft-clause rule is not
//! checked (the chip is taken to run with XNACK off).

use super::facts::Facts;
use super::Hits;
use crate::hazard::{check_pair, describe, may_produce, wait_states, MAX_WAITS};
use crate::Kind;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::{Program, Wave};

/// Window slots: every issue is at least one wait state, so at most
/// MAX_WAITS producers can still matter.
const SLOTS: usize = MAX_WAITS as usize;

/// Cache entries (a power of two).
const CACHE: usize = 1 << 12;

/// One wave's last producers: (op index, wait states since), newest last.
#[derive(Clone, Default)]
struct Recent {
    items: [(u32, u32); SLOTS],
    len: usize,
}

/// The checker's state on one worker thread.
pub struct Hazards {
    waves: Vec<Recent>,
    /// (producer op, consumer op) -> wait states the pair needs (0: none).
    cache: Vec<(u32, u32, u8)>,
}

impl Default for Hazards {
    fn default() -> Self {
        Hazards {
            waves: Vec::new(),
            cache: vec![(u32::MAX, u32::MAX, 0); CACHE],
        }
    }
}

/// Per op: the wait states it accounts for and whether it can start a rule.
pub(crate) fn issue_facts(op: &Op, f: &Facts) -> (u32, bool) {
    (
        wait_states(&op.instr, &f.access),
        may_produce(&op.instr, &f.access),
    )
}

impl Hazards {
    /// A new group of `n` waves (nothing issued yet).
    pub fn group_start(&mut self, n: usize) {
        self.waves.clear();
        self.waves.resize(n, Recent::default());
    }

    /// Wait states producer `p` then consumer `c` need (0: no rule links them).
    #[inline]
    fn need(&mut self, prog: &Program, facts: &[Facts], p: u32, c: u32) -> u32 {
        let slot = (p.wrapping_mul(0x9e37_79b9) ^ c) as usize & (CACHE - 1);
        let e = self.cache[slot];
        if e.0 == p && e.1 == c {
            return u32::from(e.2);
        }
        let mut need = 0;
        let (po, co) = (&prog.ops[p as usize], &prog.ops[c as usize]);
        check_pair(
            prog.gen,
            (&po.instr, &facts[p as usize].access, u64::from(po.offset)),
            0,
            (&co.instr, &facts[c as usize].access),
            &mut |v| need = need.max(v.needed),
        );
        self.cache[slot] = (p, c, need as u8);
        need
    }

    /// Checks `op` against what its wave issued before, then records it.
    #[inline]
    pub fn before(
        &mut self,
        w: &Wave,
        idx: usize,
        op: &Op,
        facts: &[Facts],
        p: &Program,
        hits: &mut Hits,
    ) {
        let id = w.id as usize;
        let c = idx as u32;
        for k in 0..self.waves[id].len {
            let (pi, since) = self.waves[id].items[k];
            if since < self.need(p, facts, pi, c) {
                Self::report(w, idx, op, facts, p, pi, since, hits);
            }
        }
        let f = &facts[idx];
        let r = &mut self.waves[id];
        // Everything already in the window is this many wait states older.
        let mut kept = 0;
        for k in 0..r.len {
            let (pi, since) = r.items[k];
            let since = since + f.wait_states;
            if since < MAX_WAITS {
                r.items[kept] = (pi, since);
                kept += 1;
            }
        }
        r.len = kept;
        if f.produces {
            if r.len == SLOTS {
                r.items.rotate_left(1);
                r.len -= 1;
            }
            r.items[r.len] = (c, 0);
            r.len += 1;
        }
    }

    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn report(
        w: &Wave,
        idx: usize,
        op: &Op,
        facts: &[Facts],
        p: &Program,
        pi: u32,
        since: u32,
        hits: &mut Hits,
    ) {
        let po = &p.ops[pi as usize];
        check_pair(
            p.gen,
            (&po.instr, &facts[pi as usize].access, u64::from(po.offset)),
            since,
            (&op.instr, &facts[idx].access),
            &mut |v| {
                let m = format!("wave {}: {}", w.id, describe(&v, po.instr.info().name));
                hits.hit(Kind::Hazard, op, idx, m);
            },
        );
    }
}
