//! The `s_waitcnt` counter model of each generation, as data: which
//! counters an instruction increments, how wide they are, which return in
//! order, and what an `s_waitcnt` waits for.
//!
//! Facts (GCN ISA guides, "Data dependency resolution" and `S_WAITCNT`;
//! cross-checked with LLVM's `SIInsertWaitcnts.cpp`):
//! - VM_CNT counts vector memory instructions (MUBUF, MTBUF, MIMG, FLAT,
//!   GLOBAL, SCRATCH), loads, stores and atomics alike, and they complete in
//!   issue order;
//! - LGKM_CNT counts LDS and GDS instructions, scalar memory (SMEM) and
//!   messages (`s_sendmsg`); LDS alone returns in order, SMEM may return out
//!   of order, and so may any mix of the kinds, so then only `lgkmcnt(0)`
//!   waits for a given one;
//! - FLAT counts on both VM_CNT and LGKM_CNT (its address may be LDS);
//! - EXP_CNT counts exports and GDS instructions until their data VGPRs are
//!   read, and on GCN 1.0 also vector memory stores (their data VGPRs may
//!   not be overwritten until it decrements; LLVM's
//!   `vmemWriteNeedsExpWaitcnt` is SI only, and clang's GCN 1.1 code
//!   overwrites store data without waiting);
//! - widths: VM_CNT 4 bits (6 on GCN 1.4, SIMM16 bits 15:14 above 3:0),
//!   EXP_CNT 3 bits (6:4), LGKM_CNT 4 bits (11:8).

use crate::access::{mem, Access, Class};
use risa_gcn::{Gen, Instr};

/// One of the three counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    /// Vector memory.
    Vm = 0,
    /// Exports (and data reads of GDS and, on GCN 1.0, of VMEM stores).
    Exp = 1,
    /// LDS, GDS, constant (scalar) memory and messages.
    Lgkm = 2,
}

impl Counter {
    /// The three counters.
    pub const ALL: [Counter; 3] = [Counter::Vm, Counter::Exp, Counter::Lgkm];

    /// The name `s_waitcnt` uses (`vmcnt`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Counter::Vm => "vmcnt",
            Counter::Exp => "expcnt",
            Counter::Lgkm => "lgkmcnt",
        }
    }
}

/// What kind of operation an outstanding count stands for: the counter
/// orders returns only among operations of one kind.
pub mod kind {
    /// Vector memory (VM_CNT).
    pub const VMEM: u16 = 1 << 0;
    /// Scalar memory (LGKM_CNT; out of order).
    pub const SMEM: u16 = 1 << 1;
    /// LDS (LGKM_CNT; in order).
    pub const LDS: u16 = 1 << 2;
    /// GDS (LGKM_CNT).
    pub const GDS: u16 = 1 << 3;
    /// A message (LGKM_CNT).
    pub const MSG: u16 = 1 << 4;
    /// The LDS half of a FLAT instruction (LGKM_CNT).
    pub const FLAT: u16 = 1 << 5;
    /// An export (EXP_CNT).
    pub const EXPORT: u16 = 1 << 6;
    /// GDS data VGPRs (EXP_CNT).
    pub const GDS_DATA: u16 = 1 << 7;
    /// Data VGPRs of a vector memory store (EXP_CNT, GCN 1.0).
    pub const STORE_DATA: u16 = 1 << 8;
}

/// The counter model of a generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Model {
    /// The largest value of each counter, in [`Counter`] order.
    pub max: [u32; 3],
    /// VMEM stores hold their data VGPRs on EXP_CNT (GCN 1.0).
    pub store_data_on_expcnt: bool,
}

/// Counter models in [`Gen`] order (VM_CNT's maximum comes from
/// [`risa_gcn::GenInfo::vmcnt_max`]).
const MODELS: [Model; 4] = [
    Model {
        max: [Gen::Gcn10.info().vmcnt_max, 7, 15],
        store_data_on_expcnt: true,
    },
    Model {
        max: [Gen::Gcn11.info().vmcnt_max, 7, 15],
        store_data_on_expcnt: false,
    },
    Model {
        max: [Gen::Gcn12.info().vmcnt_max, 7, 15],
        store_data_on_expcnt: false,
    },
    Model {
        max: [Gen::Gcn14.info().vmcnt_max, 7, 15],
        store_data_on_expcnt: false,
    },
];

/// The counter model of `gen`.
#[inline]
pub fn model(gen: Gen) -> &'static Model {
    &MODELS[gen as usize]
}

/// The three thresholds an `s_waitcnt` waits for (a counter at its maximum
/// does not wait).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    /// Per [`Counter`]: wait until at most this many are outstanding.
    pub at_most: [u32; 3],
}

impl Wait {
    /// The threshold of counter `c`.
    #[inline]
    pub fn of(&self, c: Counter) -> u32 {
        self.at_most[c as usize]
    }
}

/// Decodes `s_waitcnt`'s SIMM16 for `gen`.
///
/// ```
/// use risa_check::counters::{decode_waitcnt, Counter};
/// use risa_gcn::Gen;
/// let w = decode_waitcnt(Gen::Gcn14, 0xc07f); // lgkmcnt(0), the rest at maximum
/// assert_eq!(w.of(Counter::Lgkm), 0);
/// assert_eq!(w.of(Counter::Vm), 63);
/// assert_eq!(decode_waitcnt(Gen::Gcn12, 0x0f70).of(Counter::Vm), 0);
/// ```
pub fn decode_waitcnt(gen: Gen, simm16: u32) -> Wait {
    let mut vm = simm16 & 0xf;
    if model(gen).max[0] > 15 {
        vm |= (simm16 >> 14 & 3) << 4;
    }
    Wait {
        at_most: [vm, simm16 >> 4 & 7, simm16 >> 8 & 0xf],
    }
}

/// The waits of `i` if it is an `s_waitcnt`.
pub fn waitcnt_of(i: &Instr, a: &Access) -> Option<Wait> {
    a.has(crate::access::fl::WAITCNT)
        .then(|| decode_waitcnt(i.gen, i.field(risa_gcn::Field::Simm16)))
}

/// The counters one instruction increments, each with the kind of
/// operation it stands for ([`kind`] bits; 0: not incremented).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Per [`Counter`].
    pub kinds: [u16; 3],
}

impl Counts {
    /// Whether counter `c` is incremented.
    #[inline]
    pub fn on(&self, c: Counter) -> bool {
        self.kinds[c as usize] != 0
    }

    /// Whether any counter is.
    #[inline]
    pub fn any(&self) -> bool {
        self.kinds != [0; 3]
    }
}

/// The counters `i` (with accesses `a`) increments when it issues.
///
/// ```
/// use risa_check::{access::access, counters::{counts, Counter}};
/// use risa_gcn::{decode, Gen};
/// let i = decode(Gen::Gcn11, &[0xdc30_0000, 0x0000_0002]).unwrap(); // flat_load_dword v0, v[2:3]
/// let c = counts(&i, &access(&i));
/// assert!(c.on(Counter::Vm) && c.on(Counter::Lgkm) && !c.on(Counter::Exp));
/// ```
pub fn counts(i: &Instr, a: &Access) -> Counts {
    let mut k = [0u16; 3];
    let (vm, exp, lgkm) = (0, 1, 2);
    match a.class {
        Class::Vmem if a.touches(mem::CACHE) => k[vm] = kind::VMEM,
        Class::Vmem => {
            k[vm] = kind::VMEM;
            if model(i.gen).store_data_on_expcnt && a.touches(mem::VMEM_W) {
                k[exp] = kind::STORE_DATA;
            }
        }
        Class::Flat => {
            k[vm] = kind::VMEM;
            if a.touches(mem::FLAT_ANY) {
                k[lgkm] = kind::FLAT;
            }
            if model(i.gen).store_data_on_expcnt && a.touches(mem::VMEM_W) {
                k[exp] = kind::STORE_DATA;
            }
        }
        Class::Smem => k[lgkm] = kind::SMEM,
        Class::Ds => {
            let gds = a.touches(mem::GDS_R | mem::GDS_W) || i.field(risa_gcn::Field::Gds) != 0;
            k[lgkm] = if gds { kind::GDS } else { kind::LDS };
            if gds && a.reads.any_of(crate::access::File::Vector) {
                k[exp] = kind::GDS_DATA;
            }
        }
        Class::Exp => k[exp] = kind::EXPORT,
        Class::Salu if a.touches(mem::MSG) => k[lgkm] = kind::MSG,
        _ => {}
    }
    Counts { kinds: k }
}

/// Whether outstanding operations of the kinds in `pending` (OR of
/// [`kind`] bits) on counter `c` complete in issue order, so that
/// `waitcnt(N)` guarantees all but the youngest N are done.
///
/// ```
/// use risa_check::counters::{in_order, kind, Counter};
/// assert!(in_order(Counter::Vm, kind::VMEM));
/// assert!(in_order(Counter::Lgkm, kind::LDS));
/// assert!(!in_order(Counter::Lgkm, kind::SMEM));
/// assert!(!in_order(Counter::Lgkm, kind::LDS | kind::FLAT));
/// ```
pub fn in_order(c: Counter, pending: u16) -> bool {
    match c {
        Counter::Vm => true,
        // SMEM returns out of order; kinds mixed on one counter drain
        // through different paths.
        Counter::Lgkm => pending & kind::SMEM == 0 && pending.count_ones() <= 1,
        Counter::Exp => pending.count_ones() <= 1,
    }
}
