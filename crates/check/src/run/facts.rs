//! What each pre-decoded op reads and writes, in the terms the run-time
//! checkers need: VGPR and SGPR sets, and which memory counter it uses.
//!
//! Built once per program from the static def/use model ([`crate::access`])
//! and the counter model ([`crate::counters`]), as bit sets the checkers
//! test in a few instructions per op. Where the register set depends on
//! run-time values (`v_movrel*`, `s_movrel*`) nothing is recorded, so those
//! reads are not checked.

use crate::access::{access, fl, mem, Access, Class, File, Use};
use crate::counters::{self, kind, Counter as C};
use risa_gcn::Enc;
use risa_gcn_emu::program::Op;
use risa_gcn_emu::Program;

/// SGPR operand code of VCC_LO.
pub const VCC: u8 = 106;
/// SGPR operand code of M0.
pub const M0: u8 = 124;
/// SGPR operand code of EXEC_LO.
pub const EXEC: u8 = 126;

/// How the lanes of a VGPR read are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// The lanes EXEC enables.
    Exec,
    /// The first lane EXEC enables (`v_readfirstlane_b32`).
    First,
    /// Lanes chosen at run time (`v_readlane_b32`, DPP): whole register.
    Any,
}

/// The memory counter an op increments, and whether its results may come
/// back out of order with the others of that counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// No counter.
    None,
    /// VM_CNT: vector memory (in order on GCN 1.0-1.4).
    Vm,
    /// LGKM_CNT, in order with the others of its kind: LDS, GDS, messages.
    LgkmInOrder,
    /// LGKM_CNT, out of order: scalar memory.
    LgkmAny,
}

/// One op's registers and memory behaviour.
#[derive(Debug, Clone)]
pub struct Facts {
    /// VGPR ranges read: (first, count, lanes).
    pub vr: Vec<(u16, u8, Lanes)>,
    /// VGPR ranges written (first, count); `vw_all`: every lane is written
    /// whatever EXEC is (`v_writelane_b32` writes one lane chosen at run time).
    pub vw: Vec<(u16, u8)>,
    /// See `vw`.
    pub vw_all: bool,
    /// Bit `r` set: VGPR r read (`vr` as a set).
    pub vr_set: [u64; 4],
    /// Bit `r` set: VGPR r written.
    pub vw_set: [u64; 4],
    /// SGPRs (operand codes 0-127) read.
    pub sr: u128,
    /// SGPRs read as a memory address, resource or offset.
    pub sr_addr: u128,
    /// SGPRs written.
    pub sw: u128,
    /// The counter the op increments.
    pub counter: Counter,
    /// `s_waitcnt`: the counts it waits for (vm, lgkm).
    pub wait: Option<(u32, u32)>,
    /// `s_barrier`.
    pub barrier: bool,
    /// A DS op on LDS (not GDS).
    pub lds: bool,
    /// The static def/use model of the instruction (the hazard rules take it).
    pub access: Access,
    /// Wait states its issue accounts for (`s_nop N`: N+1).
    pub wait_states: u32,
    /// It can be the first instruction of a wait-state rule.
    pub produces: bool,
}

impl Facts {
    fn empty(access: Access) -> Facts {
        Facts {
            vr: Vec::new(),
            vw: Vec::new(),
            vw_all: false,
            vr_set: [0; 4],
            vw_set: [0; 4],
            sr: 0,
            sr_addr: 0,
            sw: 0,
            counter: Counter::None,
            wait: None,
            barrier: false,
            lds: false,
            access,
            wait_states: 1,
            produces: false,
        }
    }

    fn read_v(&mut self, r: u32, n: u32, lanes: Lanes) {
        let n = n.min(256u32.saturating_sub(r));
        if n == 0 {
            return;
        }
        self.vr.push((r as u16, n as u8, lanes));
        for k in r..r + n {
            self.vr_set[k as usize / 64] |= 1 << (k % 64);
        }
    }

    fn write_v(&mut self, r: u32, n: u32) {
        let n = n.min(256u32.saturating_sub(r));
        if n == 0 {
            return;
        }
        self.vw.push((r as u16, n as u8));
        for k in r..r + n {
            self.vw_set[k as usize / 64] |= 1 << (k % 64);
        }
    }

    fn read_s(&mut self, code: u32, n: u32) {
        self.sr |= sgpr_bits(code, n);
    }

    fn write_s(&mut self, code: u32, n: u32) {
        self.sw |= sgpr_bits(code, n);
    }

    /// Whether the op reads or writes any VGPR in `set`.
    #[inline(always)]
    pub fn touches_v(&self, set: &[u64; 4]) -> bool {
        (0..4).any(|k| (self.vr_set[k] | self.vw_set[k]) & set[k] != 0)
    }
}

/// Bits of the SGPR operand codes `code .. code + n` (codes past 127 dropped).
pub fn sgpr_bits(code: u32, n: u32) -> u128 {
    let mut b = 0u128;
    for c in code..code + n {
        if c < 128 {
            b |= 1 << c;
        }
    }
    b
}

/// The facts of every op of `prog`, by op index.
pub fn of_program(prog: &Program) -> Vec<Facts> {
    prog.ops.iter().map(|op| of_op(prog, op)).collect()
}

fn of_op(prog: &Program, op: &Op) -> Facts {
    let i = &op.instr;
    let a = access(i);
    let mut f = Facts::empty(a);
    (f.wait_states, f.produces) = super::hazards::issue_facts(op, &f);
    if op.instr.op == 0 && i.enc == Enc::Sopp && risa_gcn::decode(i.gen, &[i.raw as u32]).is_err() {
        // A word that did not decode: it faults when run.
        return f;
    }
    if a.has(fl::INDEXED) {
        // The registers depend on M0 at run time: not checked.
        return f;
    }
    let name = i.info().name;
    let lanes = match name {
        "v_readfirstlane_b32" => Lanes::First,
        "v_readlane_b32" => Lanes::Any,
        _ if a.has(fl::DPP) => Lanes::Any,
        _ => Lanes::Exec,
    };
    for r in a.reads.as_slice() {
        let (first, n) = (u32::from(r.first), u32::from(r.count));
        match r.file {
            File::Vector => f.read_v(first, n, lanes),
            File::Scalar => {
                f.read_s(first, n);
                if r.how == Use::Addr {
                    f.sr_addr |= sgpr_bits(first, n);
                }
            }
        }
    }
    if a.has(fl::VCCZ_R) {
        f.read_s(u32::from(VCC), 2);
    }
    if a.has(fl::EXECZ_R) {
        f.read_s(u32::from(EXEC), 2);
    }
    for r in a.writes.as_slice() {
        let (first, n) = (u32::from(r.first), u32::from(r.count));
        match r.file {
            File::Vector => f.write_v(first, n),
            File::Scalar => f.write_s(first, n),
        }
    }
    f.vw_all = name == "v_writelane_b32";
    f.wait = counters::waitcnt_of(i, &a).map(|w| (w.of(C::Vm), w.of(C::Lgkm)));
    f.barrier = name == "s_barrier";
    f.lds = a.touches(mem::LDS_R | mem::LDS_W) && a.class == Class::Ds;
    let c = counters::counts(i, &a);
    f.counter = if c.on(C::Vm) {
        // FLAT counts on LGKM_CNT too (it may reach LDS); its results are
        // modelled as landing with VM_CNT, which clang waits for on
        // global pointers.
        Counter::Vm
    } else if c.kinds[C::Lgkm as usize] & kind::SMEM != 0 {
        Counter::LgkmAny
    } else if c.on(C::Lgkm) {
        Counter::LgkmInOrder
    } else {
        Counter::None
    };
    let _ = prog;
    f
}
