//! ALU operands (guide 4.6, 4.7): GPRs (relative to AR or the loop index),
//! kcache constants, PV, the LDS output queues, LDS direct reads, the
//! special source selects, and the ABS/NEG modifiers.

use super::*;

impl Wave {
    /// Kcache bank `bank`'s dword `idx` (relative to the locked lines)
    /// element `chan`.
    fn kcache_value(
        env: &Env,
        kc: &[Kcache; 4],
        bank: u8,
        idx: i32,
        chan: u8,
    ) -> Result<u32, String> {
        let k = kc[bank as usize & 3];
        let lines = match k.mode {
            0 => {
                return Err(format!(
                    "kcache bank {bank} is not locked (KCACHE_MODE = NOP)"
                ))
            }
            1 => 16,
            _ => 32,
        };
        if idx < 0 || idx >= lines {
            // guide 4.6.3: relative kcache reads out of the locked lines read NaN
            return Ok(0x7fff_ffff);
        }
        let c = k.addr as usize * 16 + idx as usize;
        Ok(env
            .cb
            .get(k.bank as usize)
            .and_then(|b| b.get(c * 4 + chan as usize))
            .copied()
            .unwrap_or(0))
    }

    /// Reads ALU source `s` of `ins` for every lane into `out`, with its
    /// ABS and NEG modifiers (guide 4.6, 4.7).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_src(
        &mut self,
        env: &Env,
        lds: &[u32],
        ctx: &ClauseCtx,
        ins: &AluInstr,
        s: &Src,
        out: &mut Lanes,
    ) -> Result<(), String> {
        let ngprs = if env.num_gprs == 0 { 128 } else { env.num_gprs };
        match s.kind {
            SrcKind::Gpr(r) => {
                if !s.rel {
                    out.copy_from_slice(&self.rows[gi(r as usize, s.chan as usize)]);
                } else if ins.index_mode == 4 {
                    let i = r as i32 + self.al;
                    let i = if (0..ngprs as i32).contains(&i) { i } else { 0 };
                    out.copy_from_slice(&self.rows[gi(i as usize, s.chan as usize)]);
                } else if ins.index_mode < 4 {
                    for l in 0..LANES {
                        let i = r as i32 + self.ar[ins.index_mode as usize & 3][l] as i32;
                        let i = if (0..ngprs as i32).contains(&i) { i } else { 0 };
                        out[l] = self.rows[gi(i as usize, s.chan as usize)][l];
                    }
                } else {
                    return Err(format!("INDEX_MODE {} is not supported", ins.index_mode));
                }
            }
            SrcKind::Kcache(bank, idx) => {
                let mut i = idx as i32;
                if s.rel {
                    if ins.index_mode != 4 {
                        return Err("kcache operands can only be indexed by the loop index".into());
                    }
                    i += self.al;
                }
                if ctx.kcache[bank as usize & 3].mode == 3 && !s.rel {
                    i += self.al;
                }
                let v = Self::kcache_value(env, &ctx.kcache, bank, i, s.chan)?;
                out.fill(v);
            }
            SrcKind::Const(v) => out.fill(v),
            SrcKind::Pv => out.copy_from_slice(&self.rows[PV_ROW as usize + s.chan as usize]),
            SrcKind::Ps => {
                return Err("PS (source select 255) does not exist on Cayman (no T slot)".into())
            }
            SrcKind::Oq { b, pop } => {
                let q = &mut self.oq[b as usize];
                let v = if pop {
                    q.pop_front()
                } else {
                    q.front().copied()
                };
                match v {
                    Some(v) => out.copy_from_slice(&v),
                    None => {
                        return Err(format!(
                            "LDS output queue {} is empty",
                            if b { "B" } else { "A" }
                        ))
                    }
                }
            }
            SrcKind::LoopIdx => out.fill(self.al as u32),
            // THREAD_REL (relative to the wave's LDS allocation) reads the
            // same dwords as an absolute address: risa places every
            // work-group's LDS at address 0 (README, Decisions)
            SrcKind::LdsDirect { offset, stride, .. } => {
                for (l, o) in out.iter_mut().enumerate() {
                    let d = offset as usize + stride as usize * l;
                    if self.lds_limit.is_some_and(|lim| d as u64 * 4 >= lim as u64) {
                        // beyond SET_LDS_SIZE's size: reads return 0
                        *o = 0;
                        continue;
                    }
                    *o = *lds.get(d).ok_or_else(|| {
                        format!(
                            "LDS direct read of dword {d} (lane {l}) outside the group's {} bytes of LDS",
                            lds.len() * 4
                        )
                    })?;
                }
            }
            SrcKind::Special(sel) => {
                let v = match sel {
                    // ALU_SRC_PARAM_BASE_ADDR (LDS_ALLOC_PS): a compute
                    // wave has no pixel-shader parameter area; parameters
                    // start at LDS dword 0 (see `interp`)
                    240 => 0,
                    229 => (self.active >> 32) as u32,
                    230 => self.active as u32,
                    235 => self.index,
                    236 => env.waves_in_group,
                    217 | 227 | 228 | 231..=234 | 237 => 0,
                    _ => return Err(format!("source select {sel} is not supported")),
                };
                out.fill(v);
            }
        }
        if s.abs {
            for v in out.iter_mut() {
                *v &= 0x7fff_ffff;
            }
        }
        if s.neg {
            for v in out.iter_mut() {
                *v ^= 0x8000_0000;
            }
        }
        Ok(())
    }
}
