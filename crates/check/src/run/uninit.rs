//! The `uninit` checker: reads of VGPR lanes, SGPRs and LDS bytes that
//! nothing wrote in this dispatch.
//!
//! Shadow state per wave: per VGPR the lanes written, one bit per SGPR;
//! per work-group one bit per LDS byte. The registers the hardware sets up
//! before the first instruction (the kernel descriptor's user and system
//! SGPRs, the work-item ids in v0-v2, EXEC) start written ([`WaveInputs`]).
//! A VGPR read checks the lanes EXEC enables (`v_readfirstlane_b32`: the
//! first of them; `v_readlane_b32` and DPP sources, whose lanes are chosen
//! at run time, are not checked). SGPRs are checked where a memory
//! instruction reads them as an address, resource or offset: clang's code
//! reads undefined SGPRs in scalar ALU ops whose results do not matter (the
//! scratch wave offset of a kernel that has none, the high half of an
//! undefined lane mask), and without tracking values through those ops a
//! finding there would be noise.

use super::facts::{sgpr_bits, Facts, Lanes, M0, VCC};
use super::waitcnt::bits;
use super::{Hits, WaveInputs};
use crate::Kind;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::{lds_footprint, Ctx, Wave};

/// The checker's state on one worker thread.
pub struct Uninit {
    /// Per wave: per VGPR the lanes written.
    v: Vec<[u64; 256]>,
    /// Per wave: SGPRs written.
    s: Vec<u128>,
    /// LDS bytes written, one bit each.
    lds: Vec<u64>,
    /// The SGPRs tracked: s0 up to the generation's count, VCC, M0.
    tracked: u128,
    inputs: WaveInputs,
}

impl Uninit {
    /// A checker for waves that start with `inputs` written.
    pub fn new(inputs: WaveInputs, sgprs: u32) -> Uninit {
        Uninit {
            v: Vec::new(),
            s: Vec::new(),
            lds: Vec::new(),
            tracked: sgpr_bits(0, sgprs)
                | sgpr_bits(u32::from(VCC), 2)
                | sgpr_bits(u32::from(M0), 1),
            inputs,
        }
    }

    /// A new group of `n` waves with `lds_bytes` of LDS.
    pub fn group_start(&mut self, n: usize, lds_bytes: usize) {
        self.v.clear();
        let mut v = [0u64; 256];
        for r in v.iter_mut().take(self.inputs.vgprs as usize) {
            *r = u64::MAX;
        }
        self.v.resize(n, v);
        self.s.clear();
        self.s.resize(n, self.inputs.sgprs | sgpr_bits(126, 2));
        self.lds.clear();
        self.lds.resize(lds_bytes.div_ceil(64), 0);
    }

    /// Checks what `op` reads.
    pub fn before(&mut self, w: &Wave, idx: usize, op: &Op, f: &Facts, hits: &mut Hits) {
        let id = w.id as usize;
        let exec = w.exec();
        let vinit = &self.v[id];
        for &(r, n, lanes) in &f.vr {
            let want = match lanes {
                Lanes::Exec => exec,
                Lanes::First if exec != 0 => 1 << exec.trailing_zeros(),
                _ => continue,
            };
            for k in r..r + u16::from(n) {
                let missing = want & !vinit[k as usize];
                if missing != 0 {
                    let m = format!(
                        "wave {} reads v{k} in lane {}, which nothing wrote{}",
                        w.id,
                        missing.trailing_zeros(),
                        lanes_note(missing)
                    );
                    hits.hit(Kind::Uninit, op, idx, m);
                    return;
                }
            }
        }
        let unset = f.sr_addr & self.tracked & !self.s[id];
        if let Some(r) = bits(unset).next() {
            let m = format!(
                "wave {} reads {}, which nothing wrote",
                w.id,
                super::sgpr_name(r)
            );
            hits.hit(Kind::Uninit, op, idx, m);
            return;
        }
        if f.lds {
            let lds = &self.lds;
            let mut bad = None;
            lds_footprint(w, op, |a| {
                if bad.is_none() && a.read {
                    if let Some(b) =
                        (a.addr..a.addr.saturating_add(a.bytes)).find(|&b| !bit(lds, b as usize))
                    {
                        bad = Some((a.lane, b));
                    }
                }
            });
            if let Some((lane, b)) = bad {
                let m = format!(
                    "wave {} lane {lane} reads LDS byte {b:#x}, which nothing wrote",
                    w.id
                );
                hits.hit(Kind::Uninit, op, idx, m);
            }
        }
    }

    /// Marks what `op` wrote (LDS bytes are taken before it runs: its
    /// address registers may be among its destinations).
    pub fn lds_writes(&mut self, w: &Wave, op: &Op, f: &Facts) {
        if !f.lds {
            return;
        }
        let lds = &mut self.lds;
        lds_footprint(w, op, |a| {
            if a.write {
                for b in a.addr..a.addr.saturating_add(a.bytes) {
                    if let Some(x) = lds.get_mut(b as usize / 64) {
                        *x |= 1 << (b % 64);
                    }
                }
            }
        });
    }

    /// Marks the registers `op` wrote.
    pub fn after(&mut self, w: &Wave, f: &Facts, _ctx: &Ctx) {
        let id = w.id as usize;
        let lanes = if f.vw_all { u64::MAX } else { w.exec() };
        let v = &mut self.v[id];
        for &(r, n) in &f.vw {
            for k in r..r + u16::from(n) {
                v[k as usize] |= lanes;
            }
        }
        self.s[id] |= f.sw;
    }
}

fn bit(set: &[u64], b: usize) -> bool {
    // Bytes past the group's LDS fault in the emulator; not this checker's business.
    set.get(b / 64).is_none_or(|x| x >> (b % 64) & 1 != 0)
}

fn lanes_note(missing: u64) -> String {
    match missing.count_ones() {
        1 => String::new(),
        n => format!(" (and {} more lanes)", n - 1),
    }
}
