//! The rarely used program-control instructions: the fork/join stack of
//! GCN's conditional branches (`s_cbranch_g_fork`, `s_cbranch_i_fork`,
//! `s_cbranch_join`), VSKIP mode (`s_setvskip`), `s_sethalt` and the returns
//! from an exception handler (`s_rfe_b64`, `s_rfe_restore_b64`).
//!
//! The fork/join stack follows the pseudo-code of the CLRX pages
//! (GcnInstrsSop2.md S_CBRANCH_G_FORK, GcnInstrsSopk.md S_CBRANCH_I_FORK,
//! GcnInstrsSop1.md S_CBRANCH_JOIN): the stack pointer CSP is MODE[31:29]
//! (GcnState.md), entry `n` occupies SGPRs `4n..4n+3` (the other path's EXEC
//! in the low pair, its byte address in the high pair).

use super::salu::{jump, set_pc};
use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::program::Op;
use crate::wave::{Wave, EXEC};

/// VSKIP mode (`s_setvskip`): while set, vector instructions (VALU, vector
/// memory, LDS) are skipped. The hardware keeps VSKIP outside MODE; risa keeps
/// it in MODE bit 28, which the hardware leaves unused, so that the
/// interpreter tests one word for all its slow paths. `s_getreg` hides it.
pub(crate) const VSKIP: u32 = 1 << 28;

/// MODE.CSP: bits 31:29.
const CSP_SHIFT: u32 = 29;

fn csp(w: &Wave) -> u32 {
    w.mode >> CSP_SHIFT
}

fn set_csp(w: &mut Wave, v: u32) {
    // A 3-bit field: pushing an eighth entry wraps, as the field does.
    w.mode = (w.mode & !(7 << CSP_SHIFT)) | (v & 7) << CSP_SHIFT;
}

/// Device address of the instruction after `op`.
fn next_addr(op: &Op, c: &Ctx) -> u64 {
    c.prog.base + u64::from(op.offset) + 4 * u64::from(op.instr.len)
}

/// Pushes (`exec`, `addr`) and increments CSP.
fn push(w: &mut Wave, exec: u64, addr: u64) {
    let n = csp(w) as usize * 4;
    w.set_s64(n, exec);
    w.set_s64(n + 2, addr);
    set_csp(w, csp(w) + 1);
}

/// Where a fork goes: `Jump` to the passing lanes' code, `Next` to the
/// failing lanes' code (the instruction after the fork).
enum Way {
    Jump,
    Next,
}

/// The common part of both forks: decides the way, pushes the other one.
fn fork(w: &mut Wave, mask: u64, target: u64, next: u64) -> Way {
    let exec = w.exec();
    let passes = exec & mask;
    let fails = exec & !mask;
    if passes == exec {
        Way::Jump
    } else if fails == exec {
        Way::Next
    } else if fails.count_ones() < passes.count_ones() {
        // The smaller set runs first; the other waits on the stack.
        w.set_s64(EXEC, fails);
        push(w, passes, target);
        Way::Next
    } else {
        w.set_s64(EXEC, passes);
        push(w, fails, next);
        Way::Jump
    }
}

fn s_cbranch_g_fork(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let mask = w.sread64(op.src[0]);
    let target = w.sread64(op.src[1]);
    match fork(w, mask, target, next_addr(op, c)) {
        Way::Jump => set_pc(w, c, target),
        Way::Next => Ok(()),
    }
}

fn s_cbranch_i_fork(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    // SOPK: the mask pair is in the SDST field, the target is SIMM16 dwords
    // after the next instruction.
    let mask = w.s64(op.d as usize);
    let rel = 4 * i64::from(op.lit as u16 as i16);
    let target = c
        .prog
        .base
        .wrapping_add((i64::from(op.offset) + 4 + rel) as u64);
    match fork(w, mask, target, next_addr(op, c)) {
        Way::Jump => jump(w, op.target, c, op),
        Way::Next => Ok(()),
    }
}

fn s_cbranch_join(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let saved = w.sread32(op.src[0]);
    let now = csp(w);
    if now == saved {
        return Ok(());
    }
    let n = now.wrapping_sub(1) & 7;
    set_csp(w, n);
    let exec = w.s64(n as usize * 4);
    let addr = w.s64(n as usize * 4 + 2);
    w.set_s64(EXEC, exec);
    set_pc(w, c, addr)
}

fn s_setvskip(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let v = w.sread32(op.src[0]);
    let bit = w.sread32(op.src[1]) & 31;
    if v >> bit & 1 != 0 {
        w.mode |= VSKIP;
    } else {
        w.mode &= !VSKIP;
    }
    Ok(())
}

fn s_sethalt(_w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    // HALT = SIMM16[0]. A halted compute wave waits for the host (a debugger)
    // to resume it; the emulator has no such host, so halting stops the
    // dispatch with a report instead of hanging. Clearing HALT is a no-op.
    if op.lit & 1 != 0 {
        return Err(FaultKind::Halted);
    }
    Ok(())
}

fn s_rfe_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    // Return from the trap handler: PC = SSRC0 and PRIV is cleared. risa runs
    // no trap handler and models no PRIV bit, so only the jump remains.
    let a = w.sread64(op.src[0]);
    set_pc(w, c, a)
}

fn s_rfe_restore_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    // As s_rfe_b64; SSRC1[0] would restore INST_ATC, which risa does not model.
    let a = w.sread64(op.src[0]);
    set_pc(w, c, a)
}

pub(super) const FORK: Table = &[
    (Sem::s_cbranch_g_fork, s_cbranch_g_fork),
    (Sem::s_cbranch_i_fork, s_cbranch_i_fork),
    (Sem::s_cbranch_join, s_cbranch_join),
    (Sem::s_setvskip, s_setvskip),
    (Sem::s_sethalt, s_sethalt),
    (Sem::s_rfe_b64, s_rfe_b64),
    (Sem::s_rfe_restore_b64, s_rfe_restore_b64),
];
