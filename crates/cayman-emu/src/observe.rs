//! A hook that watches a dispatch as it runs (run-time checkers, profilers):
//! an [`Observer`] sees every CF instruction, ALU group and fetch-clause
//! instruction of every wave before and after it runs, each wave's stop at
//! a GROUP_BARRIER, and the start and end of each work-group.
//!
//! One observer is made per worker thread ([`crate::Dispatch::observe`]);
//! it sees the waves of the work-groups that thread runs, one work-group at
//! a time. Observing costs nothing when no observer is set: an observed
//! wave runs the separately compiled loop that tracing uses.

use crate::alu::Lanes;
use crate::program::{AluClause, CfOp, FetchOp, LdsOp};
use crate::wave::{Env, Wave};
use std::sync::Arc;

/// Where an ALU group runs.
#[derive(Debug, Clone, Copy)]
pub struct GroupAt {
    /// The CF instruction that started the clause.
    pub cf: u32,
    /// The clause's index in [`crate::program::Program::alu`].
    pub clause: u32,
    /// The group's index in the clause.
    pub group: usize,
    /// The lanes the clause runs (the active mask at its start).
    pub exec: u64,
}

/// One LDS_IDX_OP an ALU group ran: its operation and its sources as the
/// slot read them (src0 = address, src1/src2 = data).
#[derive(Debug, Clone)]
pub struct LdsAccess {
    /// The operation.
    pub op: LdsOp,
    /// The slot (0..3 = x..w).
    pub slot: u8,
    /// The lanes it ran on.
    pub mask: u64,
    /// Its three sources, per lane.
    pub src: [Lanes; 3],
}

/// Watches a Cayman dispatch. Every method has an empty default.
pub trait Observer: Send {
    /// Before CF instruction `pc` runs.
    fn cf_before(&mut self, _w: &Wave, _pc: u32, _op: &CfOp, _env: &Env) {}
    /// Before ALU group `at` runs.
    fn group_before(&mut self, _w: &Wave, _at: GroupAt, _clause: &AluClause) {}
    /// After ALU group `at` ran (`ok`: it did not fault), with the LDS
    /// operations it ran.
    fn group_after(&mut self, _w: &Wave, _at: GroupAt, _lds: &[LdsAccess], _ok: bool) {}
    /// Before instruction `k` of fetch/GDS clause `clause` runs on the lanes
    /// of `mask`.
    fn fetch_before(&mut self, _w: &Wave, _clause: u32, _k: usize, _op: &FetchOp, _mask: u64) {}
    /// The wave stopped at a GROUP_BARRIER.
    fn barrier(&mut self, _w: &Wave) {}
    /// Work-group `gid` (`linear` in dispatch order) starts with `waves`
    /// waves and `lds_bytes` of LDS.
    fn group_start(&mut self, _gid: [u32; 3], _linear: u64, _waves: usize, _lds_bytes: usize) {}
    /// Work-group `gid` ended (also after a fault).
    fn group_end(&mut self, _gid: [u32; 3]) {}
}

/// Makes the observer of one worker thread.
#[derive(Clone)]
pub struct ObserverFactory(pub Arc<dyn Fn() -> Box<dyn Observer> + Send + Sync>);

impl ObserverFactory {
    /// A new observer.
    pub fn make(&self) -> Box<dyn Observer> {
        (self.0)()
    }

    /// Both `self`'s and `then`'s observers watch, `self`'s first.
    pub fn and(self, then: ObserverFactory) -> ObserverFactory {
        ObserverFactory(Arc::new(move || {
            Box::new(Both(self.make(), then.make())) as Box<dyn Observer>
        }))
    }
}

impl std::fmt::Debug for ObserverFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ObserverFactory")
    }
}

/// Two observers watching one dispatch, the first called first.
pub struct Both(pub Box<dyn Observer>, pub Box<dyn Observer>);

impl Observer for Both {
    fn cf_before(&mut self, w: &Wave, pc: u32, op: &CfOp, env: &Env) {
        self.0.cf_before(w, pc, op, env);
        self.1.cf_before(w, pc, op, env);
    }
    fn group_before(&mut self, w: &Wave, at: GroupAt, clause: &AluClause) {
        self.0.group_before(w, at, clause);
        self.1.group_before(w, at, clause);
    }
    fn group_after(&mut self, w: &Wave, at: GroupAt, lds: &[LdsAccess], ok: bool) {
        self.0.group_after(w, at, lds, ok);
        self.1.group_after(w, at, lds, ok);
    }
    fn fetch_before(&mut self, w: &Wave, clause: u32, k: usize, op: &FetchOp, mask: u64) {
        self.0.fetch_before(w, clause, k, op, mask);
        self.1.fetch_before(w, clause, k, op, mask);
    }
    fn barrier(&mut self, w: &Wave) {
        self.0.barrier(w);
        self.1.barrier(w);
    }
    fn group_start(&mut self, gid: [u32; 3], linear: u64, waves: usize, lds_bytes: usize) {
        self.0.group_start(gid, linear, waves, lds_bytes);
        self.1.group_start(gid, linear, waves, lds_bytes);
    }
    fn group_end(&mut self, gid: [u32; 3]) {
        self.0.group_end(gid);
        self.1.group_end(gid);
    }
}

/// One LDS dword an LDS_IDX_OP lane touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LdsDword {
    /// Byte address of the dword.
    pub addr: u32,
    /// The lane reads the dword (a returning op, a read-modify-write).
    pub read: bool,
    /// The lane writes it.
    pub write: bool,
    /// An atomic read-modify-write (two atomics do not race).
    pub atomic: bool,
}

impl LdsAccess {
    /// The dwords lane `l` touches (the addresses `wave::lds`'s operations
    /// use: src0 the address, src1 the second address of READ2 and
    /// READWRITE, the OFFSET of the `_REL` and `2` forms).
    pub fn dwords(&self, l: usize, mut f: impl FnMut(LdsDword)) {
        let a = self.src[0][l] & !3;
        let x = self.src[1][l] & !3;
        let name = self.op.name;
        let ret = name.ends_with("_RET");
        let base = name.strip_suffix("_RET").unwrap_or(name);
        let off = u32::from(self.op.offset);
        let d = |addr, read, write, atomic| LdsDword {
            addr,
            read,
            write,
            atomic,
        };
        match base {
            "READ" | "BYTE_READ" | "UBYTE_READ" | "SHORT_READ" | "USHORT_READ" => {
                f(d(a, true, false, false))
            }
            "READ_REL" => {
                f(d(a, true, false, false));
                f(d(a.wrapping_add(off * 4), true, false, false));
            }
            "READ2" => {
                f(d(a, true, false, false));
                f(d(x, true, false, false));
            }
            "READWRITE" => {
                f(d(a, ret, false, false));
                f(d(x, false, true, false));
            }
            "WRITE" | "BYTE_WRITE" | "SHORT_WRITE" => f(d(a, ret, true, false)),
            "WRITE_REL" | "XCHG_REL" | "WRITE2" | "XCHG2" => {
                let step = if base.ends_with("REL") { 4 } else { 256 };
                let atomic = base.starts_with("XCHG");
                f(d(a, ret, true, atomic));
                f(d(a.wrapping_add(off * step), ret, true, atomic));
            }
            // the read-modify-write ops
            _ => f(d(a, true, true, true)),
        }
    }
}
