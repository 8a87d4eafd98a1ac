//! The `races` checker for LDS: two waves of one work-group touch the same
//! byte, at least one writes it, and no `s_barrier` lies between them.
//!
//! risa runs a group's waves one after another until each reaches a
//! barrier, so every access of a wave between two of its barriers (an
//! epoch) is unordered with every access of another wave in the same
//! epoch. Per LDS byte the checker keeps the last writer (wave, epoch, PC)
//! and the waves that read it in the reader epoch; an access that meets one
//! of another wave in its own epoch is a finding, reported at the later
//! access and naming the earlier one. Atomics are neither checked nor
//! recorded against each other (two atomics do not race), but count as
//! writes against plain accesses.

use super::facts::Facts;
use super::{text, Hits};
use crate::Kind;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::Program;
use risa_gcn_emu::{lds_footprint, Wave};

/// What one LDS byte remembers.
#[derive(Clone, Copy, Default)]
struct Byte {
    /// 1 + the wave that wrote it last (0: none).
    writer: u8,
    /// The writer's epoch.
    wepoch: u16,
    /// The last write's op index.
    wop: u32,
    /// Waves that read it in `repoch` (bit per wave).
    readers: u16,
    /// The readers' epoch.
    repoch: u16,
    /// The last read's op index.
    rop: u32,
}

/// The checker's state on one worker thread.
#[derive(Default)]
pub struct Races {
    bytes: Vec<Byte>,
    /// Barriers each wave of the group has passed.
    epoch: Vec<u16>,
}

impl Races {
    /// A new group of `n` waves with `lds_bytes` of LDS.
    pub fn group_start(&mut self, n: usize, lds_bytes: usize) {
        self.bytes.clear();
        self.bytes.resize(lds_bytes, Byte::default());
        self.epoch.clear();
        self.epoch.resize(n, 0);
    }

    /// Wave `id` stopped at a barrier.
    pub fn barrier(&mut self, id: u32) {
        if let Some(e) = self.epoch.get_mut(id as usize) {
            *e = e.wrapping_add(1);
        }
    }

    /// Barriers wave `id` has passed.
    pub fn epoch(&self, id: u32) -> u16 {
        self.epoch.get(id as usize).copied().unwrap_or(0)
    }

    /// Checks and records the LDS bytes `op` touches.
    pub fn before(
        &mut self,
        w: &Wave,
        idx: usize,
        op: &Op,
        f: &Facts,
        p: &Program,
        hits: &mut Hits,
    ) {
        if !f.lds {
            return;
        }
        let me = w.id as u16;
        let ep = self.epoch[w.id as usize];
        let bytes = &mut self.bytes;
        let mut hit: Option<(u32, u16, bool, u32, bool)> = None;
        lds_footprint(w, op, |a| {
            for b in a.addr..a.addr.saturating_add(a.bytes) {
                let Some(x) = bytes.get_mut(b as usize) else {
                    continue;
                };
                let plain = !a.atomic;
                if hit.is_none() {
                    // Against the last write: any access of another wave.
                    if x.writer != 0 && x.writer - 1 != me as u8 && x.wepoch == ep {
                        hit = Some((b, u16::from(x.writer - 1), true, x.wop, a.write));
                    } else if a.write && x.repoch == ep && x.readers & !(1 << me) != 0 {
                        let other = (x.readers & !(1 << me)).trailing_zeros() as u16;
                        hit = Some((b, other, false, x.rop, true));
                    }
                }
                if a.write && plain {
                    x.writer = me as u8 + 1;
                    x.wepoch = ep;
                    x.wop = idx as u32;
                } else if a.read && plain {
                    if x.repoch != ep {
                        x.readers = 0;
                        x.repoch = ep;
                    }
                    x.readers |= 1 << me;
                    x.rop = idx as u32;
                }
            }
        });
        if let Some((b, other, was_write, oop, writes)) = hit {
            let o = &p.ops[oop as usize];
            let m = format!(
                "wave {} {} LDS byte {b:#x}, which wave {other} {} at {:#x} (`{}`) with no s_barrier between",
                w.id,
                if writes { "writes" } else { "reads" },
                if was_write { "wrote" } else { "read" },
                o.offset,
                text(p, oop as usize)
            );
            hits.hit(Kind::Race, op, idx, m);
        }
    }
}
