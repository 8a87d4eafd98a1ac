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

/// A race one access met: the byte, the other wave, whether that wave
/// wrote it (else read it), its op index, and whether this access writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The LDS byte.
    pub byte: u32,
    /// The other wave.
    pub other: u16,
    /// The other wave wrote the byte (else read it).
    pub other_wrote: bool,
    /// The other access's op index (as the caller numbers ops).
    pub other_op: u32,
    /// This access writes.
    pub writes: bool,
}

impl Hit {
    /// The finding's message: `wave` met the other access, which
    /// `describe` names (its PC and text); `barrier` is the ISA's barrier.
    pub fn message(&self, wave: u32, describe: &str, barrier: &str) -> String {
        format!(
            "wave {wave} {} LDS byte {:#x}, which wave {} {} at {describe} with no {barrier} between",
            if self.writes { "writes" } else { "reads" },
            self.byte,
            self.other,
            if self.other_wrote { "wrote" } else { "read" },
        )
    }
}

/// Per LDS byte of one work-group, the last writer and this epoch's readers
/// (the ISA-independent part of the `races` checker: GCN and Cayman feed it
/// their LDS footprints).
#[derive(Default)]
pub struct Table {
    bytes: Vec<Byte>,
    /// Barriers each wave of the group has passed.
    epoch: Vec<u16>,
}

impl Table {
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

    /// Checks and records an access of wave `me` (op `op`) to `bytes`
    /// bytes from `addr`; the first race it meets (if none was met yet in
    /// `hit`) goes to `hit`.
    #[allow(clippy::too_many_arguments)]
    pub fn access(
        &mut self,
        me: u32,
        op: u32,
        addr: u32,
        bytes: u32,
        read: bool,
        write: bool,
        atomic: bool,
        hit: &mut Option<Hit>,
    ) {
        let me = me as u16;
        let ep = self.epoch(u32::from(me));
        let plain = !atomic;
        for b in addr..addr.saturating_add(bytes) {
            let Some(x) = self.bytes.get_mut(b as usize) else {
                continue;
            };
            if hit.is_none() {
                // Against the last write: any access of another wave.
                if x.writer != 0 && x.writer - 1 != me as u8 && x.wepoch == ep {
                    *hit = Some(Hit {
                        byte: b,
                        other: u16::from(x.writer - 1),
                        other_wrote: true,
                        other_op: x.wop,
                        writes: write,
                    });
                } else if write && x.repoch == ep && x.readers & !(1 << me) != 0 {
                    let other = (x.readers & !(1 << me)).trailing_zeros() as u16;
                    *hit = Some(Hit {
                        byte: b,
                        other,
                        other_wrote: false,
                        other_op: x.rop,
                        writes: true,
                    });
                }
            }
            if write && plain {
                x.writer = me as u8 + 1;
                x.wepoch = ep;
                x.wop = op;
            } else if read && plain {
                if x.repoch != ep {
                    x.readers = 0;
                    x.repoch = ep;
                }
                x.readers |= 1 << me;
                x.rop = op;
            }
        }
    }
}

/// The checker's state on one worker thread.
#[derive(Default)]
pub struct Races {
    table: Table,
}

impl Races {
    /// A new group of `n` waves with `lds_bytes` of LDS.
    pub fn group_start(&mut self, n: usize, lds_bytes: usize) {
        self.table.group_start(n, lds_bytes);
    }

    /// Wave `id` stopped at a barrier.
    pub fn barrier(&mut self, id: u32) {
        self.table.barrier(id);
    }

    /// Barriers wave `id` has passed.
    pub fn epoch(&self, id: u32) -> u16 {
        self.table.epoch(id)
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
        let table = &mut self.table;
        let mut hit: Option<Hit> = None;
        lds_footprint(w, op, |a| {
            table.access(
                w.id, idx as u32, a.addr, a.bytes, a.read, a.write, a.atomic, &mut hit,
            );
        });
        if let Some(h) = hit {
            let o = &p.ops[h.other_op as usize];
            let other = format!("{:#x} (`{}`)", o.offset, text(p, h.other_op as usize));
            hits.hit(Kind::Race, op, idx, h.message(w.id, &other, "s_barrier"));
        }
    }
}
