//! `races-global`: global-memory races between work-items of one dispatch.
//!
//! Per byte of global memory a vector memory instruction touches, the last
//! write and the last read are kept with the work-item (work-group, item in
//! the group) and its barrier epoch. Two accesses of different work-items,
//! at least one a write, race unless both items are in one work-group and a
//! barrier lies between them (in risa's schedule every access of another
//! work-group is unordered). Atomics are not recorded. The map holds every
//! byte touched, so this check is opt-in, and it runs on one thread (one
//! observer sees the whole dispatch).
//!
//! Addresses: GLOBAL and FLAT (`saddr` + 32-bit offset or a 64-bit address,
//! plus the instruction offset; FLAT addresses in the LDS or private
//! apertures are skipped), MUBUF/MTBUF with an unswizzled resource (base +
//! SOFFSET + OFFSET + VADDR offset + index x stride; ADDR64 on GCN 1.0/1.1).
//! Scratch (swizzled resources, SCRATCH instructions) is per work-item and
//! not tracked; image instructions are not tracked.

use super::{text, Hits};
use crate::Kind;
use risa_gcn::table::{flag, Family};
use risa_gcn::{Enc, Field};
use risa_gcn_emu::program::{Op, Src, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI};
use risa_gcn_emu::{Program, Wave};
use std::collections::HashMap;

/// Who touched a byte, and when.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Who {
    /// Work-group (linear).
    group: u64,
    /// Work-item in the group.
    item: u32,
    /// The work-item's wave's barrier epoch.
    epoch: u16,
    /// The op index.
    op: u32,
}

impl Who {
    /// Whether nothing orders `self` and `o` (different work-items with no
    /// barrier between them).
    fn unordered(&self, o: &Who) -> bool {
        (self.group, self.item) != (o.group, o.item)
            && (self.group != o.group || self.epoch == o.epoch)
    }
}

#[derive(Clone, Copy, Default)]
struct Byte {
    write: Option<Who>,
    read: Option<Who>,
}

/// The checker's state (one per dispatch: it runs on one thread).
#[derive(Default)]
pub struct GlobalRaces {
    bytes: HashMap<u64, Byte>,
}

/// Bytes per element of a vector memory instruction, from its name.
fn element_bytes(name: &str) -> u32 {
    if name.contains("byte") {
        1
    } else if name.contains("short") || name.contains("d16") {
        2
    } else if let Some(n) = name
        .rsplit_once("dwordx")
        .and_then(|(_, n)| n.parse::<u32>().ok())
    {
        4 * n
    } else if let Some((_, f)) = name.rsplit_once("format_") {
        4 * f.trim_start_matches("d16_").len() as u32
    } else {
        4
    }
}

impl GlobalRaces {
    /// Checks and records the global bytes `op` touches.
    #[allow(clippy::too_many_arguments)]
    pub fn before(
        &mut self,
        w: &Wave,
        idx: usize,
        op: &Op,
        group: u64,
        epoch: u16,
        p: &Program,
        hits: &mut Hits,
    ) {
        let i = &op.instr;
        let info = i.info();
        if info.has(flag::ATOMIC) || !matches!(i.enc, Enc::Flat | Enc::Mubuf | Enc::Mtbuf) {
            return;
        }
        if info.family == Family::Scratch || (i.enc != Enc::Flat && i.field(Field::Lds) != 0) {
            return;
        }
        let write = info.has(flag::STORE);
        let size = u64::from(element_bytes(info.name));
        let Some(addr) = Addresser::new(w, op) else {
            return;
        };
        let exec = w.exec();
        let mut hit: Option<(u64, Who, bool, u32)> = None;
        for l in 0..64 {
            if exec >> l & 1 == 0 {
                continue;
            }
            let Some(a) = addr.lane(w, l) else { continue };
            let me = Who {
                group,
                item: w.id * 64 + l as u32,
                epoch,
                op: idx as u32,
            };
            for b in a..a + size {
                let x = self.bytes.entry(b).or_default();
                if hit.is_none() {
                    if let Some(o) = x.write.filter(|o| o.unordered(&me)) {
                        hit = Some((b, o, true, me.item));
                    } else if let Some(o) = x.read.filter(|o| write && o.unordered(&me)) {
                        hit = Some((b, o, false, me.item));
                    }
                }
                if write {
                    x.write = Some(me);
                } else {
                    x.read = Some(me);
                }
            }
        }
        if let Some((b, o, was_write, item)) = hit {
            let m = format!(
                "work-item {} of group {group} {} global byte {b:#x}, which work-item {} of group {} {} at {:#x} (`{}`) with nothing ordering them",
                item,
                if write { "writes" } else { "reads" },
                o.item,
                o.group,
                if was_write { "wrote" } else { "read" },
                p.ops[o.op as usize].offset,
                text(p, o.op as usize)
            );
            hits.hit(Kind::Race, op, idx, m);
        }
    }
}

/// How one instruction's lanes form their addresses.
enum Addresser {
    /// FLAT/GLOBAL: a 64-bit VADDR or SADDR + 32-bit VADDR, plus OFFSET.
    Flat {
        vaddr: usize,
        saddr: Option<u64>,
        offset: u64,
    },
    /// MUBUF/MTBUF.
    Buffer {
        base: u64,
        stride: u64,
        vaddr: usize,
        idxen: bool,
        offen: bool,
        addr64: bool,
    },
}

impl Addresser {
    fn new(w: &Wave, op: &Op) -> Option<Addresser> {
        let i = &op.instr;
        let vaddr = match op.src[0] {
            Src::V(r) => r as usize,
            _ => 0,
        };
        if i.enc == Enc::Flat {
            let saddr = (op.sd != u16::MAX).then(|| w.s64(op.sd as usize));
            return Some(Addresser::Flat {
                vaddr,
                saddr,
                offset: op.lit as i32 as i64 as u64,
            });
        }
        let r = op.sd as usize;
        let (w0, w1, w3) = (w.s[r & 127], w.s[(r + 1) & 127], w.s[(r + 3) & 127]);
        if w3 >> 23 & 1 != 0 {
            // ADD_TID_ENABLE: a swizzled scratch resource.
            return None;
        }
        let base = u64::from(w0) | u64::from(w1 & 0xffff) << 32;
        let soffset = u64::from(w.sread32(op.src[1]));
        Some(Addresser::Buffer {
            base: base + soffset + u64::from(op.lit),
            stride: u64::from(w1 >> 16 & 0x3fff),
            vaddr,
            idxen: i.field(Field::Idxen) != 0,
            offen: i.field(Field::Offen) != 0,
            addr64: i.field(Field::Addr64) != 0,
        })
    }

    fn lane(&self, w: &Wave, l: usize) -> Option<u64> {
        let v = |r: usize| u64::from(w.v[r][l]);
        match *self {
            Addresser::Flat {
                vaddr,
                saddr,
                offset,
            } => {
                let a = match saddr {
                    Some(s) => s.wrapping_add(v(vaddr)),
                    None => v(vaddr) | v(vaddr + 1) << 32,
                }
                .wrapping_add(offset);
                let hi = (a >> 32) as u32;
                (hi != SHARED_APERTURE_HI && hi != PRIVATE_APERTURE_HI).then_some(a)
            }
            Addresser::Buffer {
                base,
                stride,
                vaddr,
                idxen,
                offen,
                addr64,
            } => {
                if addr64 {
                    return Some(base.wrapping_add(v(vaddr) | v(vaddr + 1) << 32));
                }
                let index = if idxen { v(vaddr) } else { 0 };
                let off = if offen { v(vaddr + idxen as usize) } else { 0 };
                Some(base.wrapping_add(off).wrapping_add(index * stride))
            }
        }
    }
}
