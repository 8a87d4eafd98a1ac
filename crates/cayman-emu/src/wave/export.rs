//! Exports (guide 3.4, 9.2): RAT (UAV) stores and atomics with the return
//! buffer, scratch writes and MEM_EXPORT scatter writes.

use super::*;

/// Dwords of scratch buffer per thread (ARRAY_BASE can address more; risa
/// faults beyond this).
pub const SCRATCH_DWORDS: usize = 4096;

/// Dwords in a wave's RAT return buffer (where `_RTN` atomics leave the
/// value they replaced; read back by vertex fetches from resource 160).
pub const RET_DWORDS: usize = 4096;
/// Fetch resource that reads RAT 0's return buffer (Mesa's
/// R600_IMAGE_IMMED_RESOURCE_OFFSET convention).
pub const RET_RESOURCE: u8 = 160;

impl Wave {
    /// Index into the scratch memory of `lane`'s dword `dword` (allocating
    /// the scratch memory on first use), checked against [`SCRATCH_DWORDS`].
    pub(super) fn scratch_at(&mut self, lane: usize, dword: u64) -> Result<usize, Fault> {
        if dword >= SCRATCH_DWORDS as u64 {
            let mut f = self.fault(format!(
                "scratch dword {dword} beyond the {SCRATCH_DWORDS} dwords risa gives each thread"
            ));
            f.at.lane = Some(lane as u32);
            return Err(f);
        }
        if self.scratch_mem.is_empty() {
            self.scratch_mem = vec![0; LANES * SCRATCH_DWORDS];
        }
        Ok(lane * SCRATCH_DWORDS + dword as usize)
    }

    /// MEM_WR_SCRATCH (guide 3.4.2): first_mem = (ARRAY_BASE + index) *
    /// (ELEM_SIZE + 1) dwords; BURST_COUNT + 1 elements from consecutive
    /// GPRs, COMP_MASK selecting their dwords; nothing is written at or past
    /// (ARRAY_BASE + ARRAY_SIZE) * (ELEM_SIZE + 1).
    pub(super) fn scratch_write(&mut self, env: &Env, op: &CfOp, m: u64) -> Result<(), Fault> {
        let CfKind::ScratchWrite {
            global,
            base,
            size,
            indexed,
            rw_gpr,
            rw_rel,
            index_gpr,
            elem_size,
            comp_mask,
            burst,
        } = op.kind
        else {
            return Ok(());
        };
        let es = elem_size as u64 + 1;
        let rg = rw_gpr as i32 + if rw_rel { self.al } else { 0 };
        if !(0..128).contains(&rg) || rg + burst as i32 > 127 {
            return Err(self.fault(format!("RW_GPR {rg} (+ BURST_COUNT {burst}) out of range")));
        }
        let end = (base as u64 + size as u64) * es;
        for l in lanes_of(m) {
            let idx = if indexed {
                self.rows[gi(index_gpr as usize, 0)][l] as u64
            } else {
                0
            };
            let first = (base as u64 + idx) * es;
            for b in 0..=burst as u64 {
                for c in 0..es.min(4) {
                    if comp_mask >> c & 1 == 0 {
                        continue;
                    }
                    let d = first + b * es + c;
                    if d >= end {
                        continue;
                    }
                    let v = self.rows[gi(rg as usize + b as usize, c as usize)][l];
                    if global {
                        env.global.write(d * 4, &v.to_le_bytes()).map_err(|e| {
                            let mut f = self.fault(format!(
                                "MEM_EXPORT at byte 0x{:x} outside the global pool ({} bytes)",
                                e.addr, e.limit
                            ));
                            f.at.lane = Some(l as u32);
                            f
                        })?;
                    } else {
                        let at = self.scratch_at(l, d)?;
                        self.scratch_mem[at] = v;
                    }
                }
            }
        }
        Ok(())
    }

    /// MEM_EXPORT_COMBINED (guide 8.1): per lane, X to export dword
    /// ARRAY_BASE + W and Y (if COMP_MASK.y) to the next; export memory is
    /// the global pool at byte 0, as for MEM_EXPORT. Nothing is written at or
    /// past ARRAY_BASE + ARRAY_SIZE dwords (COMP_MASK.x clear skips X).
    pub(super) fn export_combined(&mut self, env: &Env, op: &CfOp, m: u64) -> Result<(), Fault> {
        let CfKind::ExportCombined {
            base,
            size,
            rw_gpr,
            rw_rel,
            comp_mask,
            burst,
            ty,
        } = op.kind
        else {
            return Ok(());
        };
        if burst != 0 || ty & 1 != 0 {
            return Err(self.fault(
                "MEM_EXPORT_COMBINED must have BURST_COUNT 0 and a non-indexed TYPE (guide 8.1)",
            ));
        }
        let rg = rw_gpr as i32 + if rw_rel { self.al } else { 0 };
        if !(0..128).contains(&rg) {
            return Err(self.fault(format!("RW_GPR {rg} out of range")));
        }
        let rg = rg as usize;
        let end = base as u64 + size as u64;
        for l in lanes_of(m) {
            let first = base as u64 + self.rows[gi(rg, 3)][l] as u64;
            for c in 0..2 {
                let d = first + c as u64;
                if comp_mask >> c & 1 == 0 || d >= end {
                    continue;
                }
                let v = self.rows[gi(rg, c)][l];
                env.global.write(d * 4, &v.to_le_bytes()).map_err(|e| {
                    let mut f = self.fault(format!(
                        "MEM_EXPORT_COMBINED at byte 0x{:x} outside the global pool ({} bytes)",
                        e.addr, e.limit
                    ));
                    f.at.lane = Some(l as u32);
                    f
                })?;
            }
        }
        Ok(())
    }

    pub(super) fn rat(&mut self, env: &Env, op: &CfOp, m: u64) -> Result<(), Fault> {
        let CfKind::Rat {
            rat_id,
            inst,
            ty,
            rw_gpr,
            rw_rel,
            index_gpr,
            comp_mask,
            burst,
            elem_size,
        } = op.kind
        else {
            return Ok(());
        };
        self.stats.rat_ops += 1;
        // RAT 0 is the global pool unless the host bound it (or another id) to a window
        let window = env
            .resources
            .rat(rat_id)
            .map(|(base, len)| crate::memory::Window {
                mem: env.global,
                base,
                len,
            });
        if window.is_none() && rat_id != 0 {
            return Err(self.fault(format!(
                "RAT {rat_id} is not bound (the global pool is RAT 0)"
            )));
        }
        let what = match window {
            Some(_) => format!("RAT {rat_id}"),
            None => "the global pool".to_string(),
        };
        if elem_size == 2 {
            return Err(self.fault("ELEM_SIZE = 2 (three dwords) is not supported (guide 9.2)"));
        }
        let rg = if rw_rel {
            rw_gpr as i32 + self.al
        } else {
            rw_gpr as i32
        };
        if !(0..128).contains(&rg) || rg + burst as i32 > 127 {
            return Err(self.fault(format!("RW_GPR {rg} (+ BURST_COUNT {burst}) out of range")));
        }
        let rg = rg as usize;
        let g: &dyn GlobalMemory = match &window {
            Some(w) => w,
            None => env.global,
        };
        let ret = inst.ends_with("_RTN");
        let base = inst.strip_suffix("_RTN").unwrap_or(inst);
        let store = base.starts_with("STORE") || base == "MSKOR";
        // STORE_BYTE / STORE_SHORT address bytes / 16-bit units (see README)
        let narrow = match base {
            "STORE_BYTE" => 1,
            "STORE_SHORT" => 2,
            _ => 0,
        };
        if burst != 0 && !store {
            return Err(self.fault(format!(
                "MEM_RAT {inst} with BURST_COUNT {burst}: only stores write bursts"
            )));
        }
        // dwords per element: the index (and each burst step) counts elements (guide 9.2 ELEM_SIZE)
        let es = elem_size as u64 + 1;
        for l in lanes_of(m) {
            let index = if ty & 1 != 0 {
                self.rows[gi(index_gpr as usize, 0)][l]
            } else {
                0
            };
            // guide 9.2 INDEX_GPR: the X component is the element address in
            // the 1-D surface, for stores and atomics alike (Mesa's r600
            // back end shifts byte offsets right by 2 for both).
            let addr = if narrow != 0 {
                index as u64 * narrow
            } else if env.atomics_byte_addressed && !store {
                index as u64
            } else {
                index as u64 * es * 4
            };
            let d = |c: usize| self.rows[gi(rg, c)][l];
            let bad = |w: &Wave, e: crate::memory::MemError| {
                let mut f = w.fault(format!(
                    "MEM_RAT {inst} at byte 0x{:x} outside {what} ({} bytes)",
                    e.addr, e.limit
                ));
                if !store && env.made_by_llvm && !env.atomics_byte_addressed {
                    f.message.push_str(
                        " (LLVM made this object: its r600 atomics pass a byte address where \
                         the hardware reads a dword index; --llvm-r600-atomics runs them where \
                         the source means them)",
                    );
                }
                f.at.lane = Some(l as u32);
                f
            };
            // X = data, Y = return address, Z = compare value (guide 9.2 MEM_RAT; Mesa
            // also puts the compare value in Z on Cayman and in W on Evergreen)
            let (x, y, z, w) = (d(0), d(1), d(2), d(3));
            let r = match base {
                // NOP_RTN returns the dword unchanged (Mesa's r600 back end
                // implements image loads with it); plain NOP touches nothing
                "NOP" if ret => g.load_u32(addr),
                "NOP" => Ok(0),
                "STORE_DWORD" | "STORE_TYPED" => {
                    for b in 0..=burst as usize {
                        for c in 0..4 {
                            if comp_mask >> c & 1 != 0 {
                                let v = self.rows[gi(rg + b, c)][l];
                                let a = addr + 4 * (es * b as u64 + c as u64);
                                g.write(a, &v.to_le_bytes()).map_err(|e| bad(self, e))?;
                            }
                        }
                    }
                    Ok(0)
                }
                "STORE_BYTE" | "STORE_SHORT" => {
                    // the low 8 / 16 bits of X of each burst GPR, to consecutive elements
                    if comp_mask & 1 != 0 {
                        for b in 0..=burst as usize {
                            let v = self.rows[gi(rg + b, 0)][l].to_le_bytes();
                            let a = addr + narrow * b as u64;
                            g.write(a, &v[..narrow as usize])
                                .map_err(|e| bad(self, e))?;
                        }
                    }
                    Ok(0)
                }
                "CMPXCHG_INT" => g.atomic(addr, &mut |o| if o == z { x } else { o }),
                "XCHG" => g.atomic(addr, &mut |_| x),
                "ADD" => g.atomic(addr, &mut |o| o.wrapping_add(x)),
                "SUB" => g.atomic(addr, &mut |o| o.wrapping_sub(x)),
                "RSUB" => g.atomic(addr, &mut |o| x.wrapping_sub(o)),
                "MIN_INT" => g.atomic(addr, &mut |o| (o as i32).min(x as i32) as u32),
                "MIN_UINT" => g.atomic(addr, &mut |o| o.min(x)),
                "MAX_INT" => g.atomic(addr, &mut |o| (o as i32).max(x as i32) as u32),
                "MAX_UINT" => g.atomic(addr, &mut |o| o.max(x)),
                "AND" => g.atomic(addr, &mut |o| o & x),
                "OR" => g.atomic(addr, &mut |o| o | x),
                "XOR" => g.atomic(addr, &mut |o| o ^ x),
                // MSKOR (listed as reserved in the guide): X = data, W = mask, as LLVM emits it
                "MSKOR" => g.atomic(addr, &mut |o| (o & !w) | (x & w)),
                "INC_UINT" => g.atomic(addr, &mut |o| if o >= x { 0 } else { o + 1 }),
                "DEC_UINT" => g.atomic(addr, &mut |o| if o == 0 || o > x { x } else { o - 1 }),
                other => return Err(self.fault(format!("MEM_RAT {other} is not supported"))),
            };
            let old = r.map_err(|e| bad(self, e))?;
            if ret && (y as usize) < RET_DWORDS {
                // the pre-op value goes to the RAT's return buffer at dword Y,
                // which vertex fetches read back through resource 160 + RAT_ID.
                // Returns beyond the buffer are dropped: clang-14 emits
                // XCHG_RTN for atomic_xchg without setting Y at all.
                self.ret_used = true;
                self.ret[y as usize] = old;
            }
        }
        Ok(())
    }
}
