//! The `hazards` checker at run time: every issued instruction goes through
//! the wave's [`Window`] of the static checker's wait-state rules
//! ([`crate::hazard`]), in the order the wave really issued them (so branches
//! and loops are followed exactly, with no join of paths).

use super::facts::Facts;
use super::Hits;
use crate::hazard::{describe, Window};
use crate::Kind;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::{Program, Wave};

/// The checker's state on one worker thread: a window per wave.
#[derive(Default)]
pub struct Hazards {
    waves: Vec<Window>,
}

impl Hazards {
    /// A new group of `n` waves (nothing issued yet).
    pub fn group_start(&mut self, n: usize) {
        self.waves.clear();
        self.waves.resize(n, Window::new(false));
    }

    /// Checks `op` against what its wave issued before, then records it.
    #[inline]
    pub fn before(
        &mut self,
        w: &Wave,
        idx: usize,
        op: &Op,
        f: &Facts,
        p: &Program,
        hits: &mut Hits,
    ) {
        let win = &mut self.waves[w.id as usize];
        win.check(&op.instr, &f.access, &mut |v| {
            let producer = p
                .ops
                .iter()
                .find(|o| u64::from(o.offset) == v.producer_pc)
                .map_or_else(String::new, |o| o.instr.info().name.to_string());
            let m = format!("wave {}: {}", w.id, describe(&v, &producer));
            hits.hit(Kind::Hazard, op, idx, m);
        });
        win.push(u64::from(op.offset), &op.instr, &f.access);
    }
}
