//! Interpolation (guide 7.3.3, 8.2 INTERP_*): the parameter data a compute
//! wave reads from LDS, and the INTERP_LOAD_P0/P10/P20 and INTERP_XY/ZW/X/Z
//! slots of an ALU group.

use super::group::{Operands, SlotFault, SlotOutputs};
use super::*;

/// Parameter data of interpolation in LDS (guide 7.3.3): parameter n's P0,
/// P1 − P0 and P2 − P0 (xyzw each) at dwords 12n .. 12n + 11 after
/// PARAM_BASE_ADDR. A compute wave is one primitive (Prim# 0,
/// NumPrimsInVec 1) and its parameter base is 0, so parameter n element c
/// of Pk is LDS dword 12n + 4k + c.
fn param_dword(lds: &[u32], n: u32, k: usize, c: usize) -> Result<u32, String> {
    if n > 32 {
        return Err(format!(
            "interpolation parameter {n} is out of range (0-32, guide 8.2)"
        ));
    }
    let d = 12 * n as usize + 4 * k + c;
    lds.get(d).copied().ok_or_else(|| {
        format!(
            "parameter {n} (LDS dwords {}..{}) lies outside the group's {} bytes of LDS",
            12 * n,
            12 * n + 11,
            lds.len() * 4
        )
    })
}

impl Wave {
    /// INTERP_LOAD_P0/P10/P20 in its slot; INTERP_XY/ZW/X/Z over the slots
    /// it occupies (the first slot of the op computes every output).
    #[inline(never)]
    pub(super) fn interp(
        &self,
        i: &AluInstr,
        lds: &[u32],
        ops: Operands,
        exec: u64,
        res: &mut [Lanes; 4],
        outs: &mut SlotOutputs,
    ) -> Result<(), SlotFault> {
        let ins = ops.ins;
        let mask_of = |j: &AluInstr| match j.pred_sel {
            2 => exec & !self.pred,
            3 => exec & self.pred,
            _ => exec,
        };
        let slot = i.slot as usize;
        let err = |lane: Option<u32>, e: String| (Some(i.slot), lane, e);
        match i.sem {
            Sem::InterpLoad(k) => {
                // 8.2: "The SRC0 argument contains the parameter number (0 – 32)"
                let m = mask_of(i);
                let a = ops.at(i.loc[0]);
                for l in lanes_of(m) {
                    res[slot][l] = param_dword(lds, a[l], k as usize, slot)
                        .map_err(|e| err(Some(l as u32), e))?;
                }
                outs.writes[slot] = true;
                outs.masks[slot] = m;
            }
            Sem::Interp(kind) => {
                let need = kind.slots();
                let have = ins
                    .iter()
                    .filter(|j| j.sem == i.sem)
                    .fold(0u8, |acc, j| acc | 1 << j.slot);
                if have != need {
                    return Err(err(
                        None,
                        format!(
                            "{} must occupy slots {} of its group (guide 8.2)",
                            i.name,
                            (0..4)
                                .filter(|c| need >> c & 1 != 0)
                                .map(|c| ['x', 'y', 'z', 'w'][c])
                                .collect::<String>()
                        ),
                    ));
                }
                // the first slot of the op runs it for all its slots
                if need.trailing_zeros() as usize != slot {
                    return Ok(());
                }
                for &(out, pair) in kind.outputs() {
                    let Some(o) = ins.iter().find(|j| j.slot as usize == out) else {
                        continue;
                    };
                    let m = mask_of(o);
                    let (li, lj) = (ops.locs_of(pair), ops.locs_of(pair + 1));
                    let (iv, jv, pv) = (ops.at(li[0]), ops.at(lj[0]), ops.at(li[1]));
                    let mut r = [0u32; LANES];
                    for l in lanes_of(m) {
                        let p =
                            |k| param_dword(lds, pv[l], k, out).map_err(|e| err(Some(l as u32), e));
                        if o.mode[0] != 0 {
                            // SET_MODE's single mode (flags: none, see fmode)
                            let mut cx = fmode::Ctx::new(o.mode, false);
                            r[l] = fmode::interp(&mut cx, p(0)?, p(1)?, p(2)?, iv[l], jv[l]);
                            if o.omod != 0 || o.clamp {
                                r[l] = fmode::out_mod(&mut cx, r[l], o.omod, o.clamp);
                            }
                            continue;
                        }
                        r[l] = alu::interp(p(0)?, p(1)?, p(2)?, iv[l], jv[l]);
                        if o.omod != 0 || o.clamp {
                            r[l] = alu::out_mod(r[l], o.omod, o.clamp);
                        }
                    }
                    res[out] = r;
                    outs.writes[out] = true;
                    outs.masks[out] = m;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
