//! SDWA and DPP (GCN 1.2+): operand selection and lane permutation around the
//! ordinary VOP1/VOP2/VOPC semantics.
//!
//! The wrapper builds the selected or permuted source lanes in the wave's
//! spare VGPR slots (v256, v257), runs the instruction's normal handler on
//! them with its result going to v258, then merges that result into the real
//! destination as DST_SEL/DST_UNUSED (SDWA) or the row/bank masks (DPP) say.

use super::R;
use crate::exec::{Ctx, Handler};
use crate::fault::FaultKind;
use crate::mem::active_lanes;
use crate::program::{Op, Src};
use crate::wave::{Lanes, Wave, EXEC};

/// Temporary VGPR slots (beyond v255).
pub const TMP_SRC0: u16 = 256;
/// Second temporary source.
pub const TMP_SRC1: u16 = 257;
/// Temporary destination.
pub const TMP_DST: u16 = 258;

/// What an SDWA or DPP op needs besides its inner op.
#[derive(Clone, Copy, Debug)]
pub struct Ext {
    /// The instruction's ordinary semantics.
    pub inner: Handler,
    /// Its semantics under a non-default MODE.FP_ROUND (see `sem::round`).
    pub inner_round: Handler,
    /// The real sources (before selection).
    pub src: [Src; 2],
    /// SDWA source selects (0-3 bytes, 4-5 words, 6 dword) and sign extension.
    pub sel: [u8; 2],
    /// SDWA sign extension per source.
    pub sext: [bool; 2],
    /// The real destination VGPR (`u16::MAX` for compares).
    pub dst: u16,
    /// SDWA DST_SEL.
    pub dst_sel: u8,
    /// SDWA DST_UNUSED: 0 pad with zeros, 1 sign-extend, 2 preserve.
    pub dst_unused: u8,
    /// DPP: DPP_CTRL, or `u16::MAX` for SDWA.
    pub dpp_ctrl: u16,
    /// DPP: BOUND_CTRL (invalid source lanes read 0).
    pub bound_ctrl: bool,
    /// DPP: ROW_MASK | BANK_MASK << 4.
    pub masks: u8,
    /// DPP: the 16-bit result goes to the low half of the destination and
    /// its high half is kept (`sem::half_dst`).
    pub keep_high: bool,
}

fn select(v: u32, sel: u8, sext: bool) -> u32 {
    let (sh, bits) = match sel {
        0..=3 => (8 * u32::from(sel), 8),
        4 | 5 => (16 * u32::from(sel - 4), 16),
        _ => return v,
    };
    let x = (v >> sh) & ((1 << bits) - 1);
    if sext {
        (((x << (32 - bits)) as i32) >> (32 - bits)) as u32
    } else {
        x
    }
}

fn fill(w: &mut Wave, s: Src, slot: u16, f: impl Fn(usize, &Lanes) -> u32) {
    let mut t = [0u32; 64];
    w.lanes32(s, &mut t);
    let mut out = [0u32; 64];
    for (l, o) in out.iter_mut().enumerate() {
        *o = f(l, &t);
    }
    w.v[slot as usize] = out;
}

/// SDWA: select the sources, run, place the result (`ROUND`: under a
/// non-default MODE.FP_ROUND).
pub fn run_sdwa<const ROUND: bool>(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let x = c.prog.ext[op.aux as usize];
    run_ext(w, op, c, &x, ROUND)
}

/// [`run_sdwa`] or [`run_dpp`] with the side data `x` given (VGPR indexing
/// moves its registers).
pub fn run_ext(w: &mut Wave, op: &Op, c: &mut Ctx, x: &Ext, round: bool) -> R {
    if x.dpp_ctrl != u16::MAX {
        return dpp(w, op, c, x, round);
    }
    for k in 0..2 {
        if x.src[k] != Src::None {
            let (sel, sext) = (x.sel[k], x.sext[k]);
            fill(w, x.src[k], TMP_SRC0 + k as u16, |l, t| {
                select(t[l], sel, sext)
            });
        }
    }
    let e = w.exec();
    (if round { x.inner_round } else { x.inner })(w, op, c)?;
    if x.dst == u16::MAX {
        return Ok(());
    }
    let r = w.v[TMP_DST as usize];
    let d = &mut w.v[x.dst as usize];
    let (sh, bits) = match x.dst_sel {
        0..=3 => (8 * u32::from(x.dst_sel), 8),
        4 | 5 => (16 * u32::from(x.dst_sel - 4), 16),
        _ => (0, 32),
    };
    for l in active_lanes(e) {
        if bits == 32 {
            d[l] = r[l];
            continue;
        }
        let m = ((1u64 << bits) - 1) as u32;
        let v = (r[l] & m) << sh;
        let field = m << sh;
        d[l] = match x.dst_unused {
            2 => (d[l] & !field) | v,
            // Sign-extend the field into the bits above it; bits below are zero.
            1 => ((((r[l] & m) << (32 - bits)) as i32) >> (32 - bits - sh)) as u32,
            _ => v,
        };
    }
    Ok(())
}

/// The source lane of `l` for DPP_CTRL `ctrl`, None when it falls outside its row or wave.
fn dpp_source(l: usize, ctrl: u16) -> Option<usize> {
    let row = l & !15;
    let i = l & 15;
    Some(match ctrl {
        0x000..=0x0ff => (l & !3) | ((ctrl as usize >> (2 * (l & 3))) & 3),
        0x101..=0x10f => {
            let n = (ctrl & 0xf) as usize;
            if i + n > 15 {
                return None;
            }
            l + n
        }
        0x111..=0x11f => {
            let n = (ctrl & 0xf) as usize;
            if i < n {
                return None;
            }
            l - n
        }
        0x121..=0x12f => row | ((i + 16 - (ctrl & 0xf) as usize) & 15),
        0x130 => {
            if l == 63 {
                return None;
            }
            l + 1
        }
        0x134 => (l + 1) & 63,
        0x138 => l.checked_sub(1)?,
        0x13c => (l + 63) & 63,
        0x140 => row | (15 - i),
        0x141 => (l & !7) | (7 - (l & 7)),
        // row_bcast:15: lane 15 of each row to the whole next row; row 0 reads itself.
        0x142 if row == 0 => l,
        0x142 => row - 1,
        // row_bcast:31: lane 31 to rows 2 and 3; rows 0 and 1 read themselves.
        0x143 if l < 32 => l,
        0x143 => 31,
        _ => return None,
    })
}

/// DPP: permute SRC0 across lanes, run with the row/bank write masks, restore EXEC.
pub fn run_dpp<const ROUND: bool>(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let x = c.prog.ext[op.aux as usize];
    dpp(w, op, c, &x, ROUND)
}

fn dpp(w: &mut Wave, op: &Op, c: &mut Ctx, x: &Ext, round: bool) -> R {
    if !matches!(x.dpp_ctrl, 0..=0xff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x130 | 0x134 | 0x138 | 0x13c | 0x140..=0x143)
    {
        return Err(FaultKind::BadOperand(format!(
            "reserved DPP_CTRL {:#x}",
            x.dpp_ctrl
        )));
    }
    let e = w.exec();
    let mut src = [0u32; 64];
    w.lanes32(x.src[0], &mut src);
    let mut out = [0u32; 64];
    let mut enable = 0u64;
    for (l, o) in out.iter_mut().enumerate() {
        let row_ok = x.masks >> (l / 16) & 1 != 0;
        let bank_ok = x.masks >> (4 + ((l >> 2) & 3)) & 1 != 0;
        if !(row_ok && bank_ok) {
            continue;
        }
        match dpp_source(l, x.dpp_ctrl).filter(|&s| e >> s & 1 != 0) {
            Some(s) => {
                *o = src[s];
                enable |= 1 << l;
            }
            None if x.bound_ctrl => enable |= 1 << l,
            None => {}
        }
    }
    w.v[TMP_SRC0 as usize] = out;
    let run_exec = e & enable;
    w.set_s64(EXEC, run_exec);
    let r = (if round { x.inner_round } else { x.inner })(w, op, c);
    if w.exec() == run_exec {
        w.set_s64(EXEC, e);
    }
    r?;
    if x.dst != u16::MAX {
        let t = w.v[TMP_DST as usize];
        let d = &mut w.v[x.dst as usize];
        for l in active_lanes(run_exec) {
            d[l] = if x.keep_high {
                (d[l] & 0xffff_0000) | (t[l] & 0xffff)
            } else {
                t[l]
            };
        }
    }
    Ok(())
}
