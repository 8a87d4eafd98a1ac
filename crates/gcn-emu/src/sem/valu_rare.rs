//! Vector ALU instructions with operand shapes the lane-loop helpers of
//! `valu` do not cover: `v_mqsad_u32_u8` (128-bit SRC2 and result) and the
//! table lookup `v_screen_partition_4se_b32`.

use super::screen_partition::SCREEN_PARTITION_4SE;
use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::mem::active_lanes;
use crate::program::{Op, Src};
use crate::wave::{Wave, VGPR_SLOTS};

/// One masked SAD of V_MQSAD_U32_U8 (GcnInstrsVop3.md): the byte differences
/// of `window` and `reference` where the reference byte is not zero, added
/// to `acc` and saturated to 32 bits.
fn msad_sat(window: u32, reference: u32, acc: u32) -> u32 {
    let sum: u32 = (0..4)
        .map(|i| {
            let (x, y) = ((window >> (8 * i)) & 0xff, (reference >> (8 * i)) & 0xff);
            if y != 0 {
                x.abs_diff(y)
            } else {
                0
            }
        })
        .sum();
    acc.saturating_add(sum)
}

/// V_MQSAD_U32_U8 on one lane: dword `n` of the result is the masked SAD of
/// SRC0's bytes `n..n+3` against SRC1, accumulated onto dword `n` of SRC2.
pub(crate) fn mqsad_u32(src0: u64, src1: u32, acc: [u32; 4]) -> [u32; 4] {
    let mut d = [0u32; 4];
    for (n, x) in d.iter_mut().enumerate() {
        *x = msad_sat((src0 >> (8 * n)) as u32, src1, acc[n]);
    }
    d
}

/// Dword `k` (0-3) of a 128-bit source in `lane`: four VGPRs or four SGPRs.
fn quad(w: &Wave, s: Src, lane: usize, k: usize) -> u32 {
    match s {
        Src::V(r) => w.v[r as usize + k][lane],
        Src::S(i) => w.s[(i as usize + k) & 127],
        _ => 0,
    }
}

fn v_mqsad_u32_u8(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if !matches!(op.src[2], Src::V(_) | Src::S(_)) {
        return Err(FaultKind::BadOperand(
            "v_mqsad_u32_u8 needs a register quad as SRC2".into(),
        ));
    }
    let d = op.d as usize;
    if d + 4 > VGPR_SLOTS {
        return Err(FaultKind::BadOperand(format!("v{d} + 3 is past the VGPRs")));
    }
    let mut a = [0u64; 64];
    w.lanes64(op.src[0], &mut a);
    let mut b = [0u32; 64];
    w.lanes32(op.src[1], &mut b);
    let mut out = [[0u32; 4]; 64];
    for (l, o) in out.iter_mut().enumerate() {
        let acc = [0, 1, 2, 3].map(|k| quad(w, op.src[2], l, k));
        *o = mqsad_u32(a[l], b[l], acc);
    }
    // All lanes are computed before any is written: the result may overlap SRC2.
    let e = w.exec();
    for l in active_lanes(e) {
        for (k, x) in out[l].iter().enumerate() {
            w.v[d + k][l] = *x;
        }
    }
    Ok(())
}

fn v_screen_partition_4se_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let mut a = [0u32; 64];
    w.lanes32(op.src[0], &mut a);
    for x in a.iter_mut() {
        *x = u32::from(SCREEN_PARTITION_4SE[(*x & 0xff) as usize]);
    }
    let e = w.exec();
    w.vwrite32(op.d as usize, &a, e);
    Ok(())
}

pub(super) const VALU_RARE: Table = &[
    (Sem::v_mqsad_u32_u8, v_mqsad_u32_u8),
    (Sem::v_screen_partition_4se_b32, v_screen_partition_4se_b32),
];
