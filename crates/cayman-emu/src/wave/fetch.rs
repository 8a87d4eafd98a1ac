//! Fetch and GDS clauses (guide ch. 5, 9.3, 9.5, 9.6): vertex fetches from
//! the bound buffers, scratch and scatter reads, global data share ops.

use super::*;

impl Wave {
    pub(super) fn fetch_clause(&mut self, env: &Env, idx: u32, m: u64) -> Result<(), Fault> {
        let clause = &env.prog.fetch[idx as usize];
        let traced = self.trace.is_some();
        for (k, op) in clause.iter().enumerate() {
            self.stats.fetches += 1;
            if traced {
                self.trace_snapshot(0);
            }
            let r = match op {
                FetchOp::Vtx { .. } => self.vtx_fetch(env, op, m),
                FetchOp::ScratchRead { .. } => self.scratch_read(env, op, m),
                FetchOp::Gds { .. } => self.gds_op(env, op, m),
                FetchOp::Unsupported(n) => {
                    Err((None, format!("fetch instruction {n} is not supported")))
                }
                FetchOp::Invalid(e) => Err((None, format!("invalid fetch instruction: {e}"))),
            };
            if traced {
                self.trace_fetch(idx, k, r.is_err());
            }
            r.map_err(|(lane, msg)| {
                let mut f = self.fault(msg);
                f.at.clause = env.prog.fetch_addr.get(idx as usize).copied();
                f.at.group = Some(k as u32);
                f.at.lane = lane;
                f
            })?;
        }
        Ok(())
    }

    /// VFETCH from buffer 1 (the global pool), 2 (the code object's data) or the RAT return buffer.
    fn vtx_fetch(&mut self, env: &Env, op: &FetchOp, m: u64) -> Result<(), (Option<u32>, String)> {
        let FetchOp::Vtx {
            buffer,
            buffer_index_mode,
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            format,
            num_format,
            signed,
            offset,
            endian,
            ..
        } = *op
        else {
            return Ok(());
        };
        // BUFFER_INDEX_MODE: BUFFER_ID plus CF_IDX0/1
        let buffer = match self.indexed(buffer as u32, buffer_index_mode) {
            Ok(b) => u8::try_from(b).map_err(|_| {
                (
                    None,
                    format!("vertex buffer {b} does not exist (BUFFER_ID + CF index)"),
                )
            })?,
            Err(e) => return Err((None, format!("BUFFER_INDEX_MODE: {e}"))),
        };
        let (ncomp, csize, float) = match format {
            1 => (1, 1, false),
            5 => (1, 2, false),
            6 => (1, 2, true),
            7 => (2, 1, false),
            13 => (1, 4, false),
            14 => (1, 4, true),
            15 => (2, 2, false),
            16 => (2, 2, true),
            26 => (4, 1, false),
            29 => (2, 4, false),
            30 => (2, 4, true),
            31 => (4, 2, false),
            32 => (4, 2, true),
            34 => (4, 4, false),
            35 => (4, 4, true),
            44 => (3, 1, false),
            45 => (3, 2, false),
            46 => (3, 2, true),
            47 => (3, 4, false),
            48 => (3, 4, true),
            f => {
                return Err((
                    None,
                    format!(
                        "vertex fetch data format {} is not supported",
                        risa_cayman::print::DATA_FORMATS[f as usize & 63]
                    ),
                ))
            }
        };
        let sg = if src_rel {
            src_gpr as i32 + self.al
        } else {
            src_gpr as i32
        };
        let sg = if (0..128).contains(&sg) {
            sg as usize
        } else {
            0
        };
        let dg = if dst_rel {
            dst_gpr as i32 + self.al
        } else {
            dst_gpr as i32
        };
        if !(0..128).contains(&dg) {
            return Err((None, format!("destination GPR {dg} out of range")));
        }
        let dg = dg as usize;
        let sel = (src_sel & 3) as usize;
        let mut vals = [[0u32; LANES]; 4];
        // dword components from the global pool: one gather per component
        let fast = buffer == 1 && csize == 4 && endian == 0;
        if fast {
            let base = &self.rows[gi(sg, sel)];
            let mut addr = [0u64; LANES];
            for c in 0..ncomp {
                for l in 0..LANES {
                    addr[l] = base[l] as u64 + offset as u64 + 4 * c as u64;
                }
                env.global
                    .load_u32_lanes(&addr, m, &mut vals[c])
                    .map_err(|(l, e)| {
                        (
                            Some(l as u32),
                            format!(
                            "vertex fetch of {} bytes at 0x{:x} outside the global pool ({} bytes)",
                            ncomp * csize, e.addr - 4 * c as u64, e.limit
                        ),
                        )
                    })?;
            }
        }
        for l in lanes_of(if fast { 0 } else { m }) {
            let addr = self.rows[gi(sg, sel)][l] as u64 + offset as u64;
            let nbytes = ncomp * csize;
            let mut raw = [0u8; 16];
            let r = match buffer {
                    1 => env.global.read(addr, &mut raw[..nbytes]).map_err(|e| {
                        format!(
                            "vertex fetch of {nbytes} bytes at 0x{:x} outside the global pool ({} bytes)",
                            e.addr, e.limit
                        )
                    }),
                    2 => {
                        let a = addr as usize;
                        match env.text.get(a..a + nbytes) {
                            Some(b) => {
                                raw[..nbytes].copy_from_slice(b);
                                Ok(())
                            }
                            None => Err(format!(
                                "vertex fetch of {nbytes} bytes at 0x{addr:x} outside the code object's constant data ({} bytes)",
                                env.text.len()
                            )),
                        }
                    }
                    RET_RESOURCE => {
                        // the RAT return buffer: dword-indexed (stride 4)
                        let a = (self.rows[gi(sg, sel)][l] as u64) * 4 + offset as u64;
                        let bytes = self.ret.len() as u64 * 4;
                        if a + nbytes as u64 <= bytes {
                            for k in 0..nbytes {
                                let b = a as usize + k;
                                raw[k] = (self.ret[b / 4] >> (8 * (b % 4))) as u8;
                            }
                            Ok(())
                        } else {
                            Err(format!(
                                "vertex fetch of {nbytes} bytes at 0x{a:x} outside the RAT return buffer ({bytes} bytes)"
                            ))
                        }
                    }
                    b => Err(format!("vertex buffer {b} is not bound")),
                };
            r.map_err(|e| (Some(l as u32), e))?;
            if endian != 0 {
                // guide 9.3 ENDIAN_SWAP: 1 = 8IN16, 2 = 8IN32 (3 is not defined)
                let unit = 1usize << endian;
                if endian == 3 {
                    return Err((None, "ENDIAN_SWAP = 3 is reserved".into()));
                }
                if nbytes % unit != 0 {
                    return Err((
                        None,
                        format!("ENDIAN_SWAP over {unit}-byte units on a {nbytes}-byte element"),
                    ));
                }
                for ch in raw[..nbytes].chunks_exact_mut(unit) {
                    ch.reverse();
                }
            }
            for c in 0..ncomp {
                let p = c * csize;
                let v = match csize {
                    1 => raw[p] as u32,
                    2 => u16::from_le_bytes([raw[p], raw[p + 1]]) as u32,
                    _ => u32::from_le_bytes([raw[p], raw[p + 1], raw[p + 2], raw[p + 3]]),
                };
                vals[c][l] = convert(v, csize, float, num_format, signed);
            }
        }
        for (c, &ds) in dst_sel.iter().enumerate() {
            let v: Option<u32> = match ds {
                0..=3 => None,
                4 => Some(0),
                5 => Some(if num_format == 1 { 1 } else { 0x3f80_0000 }),
                _ => continue,
            };
            let src = match v {
                Some(v) => [v; LANES],
                None => {
                    let k = ds as usize;
                    if k < ncomp {
                        vals[k]
                    } else if k == 3 {
                        [if num_format == 1 { 1 } else { 0x3f80_0000 }; LANES]
                    } else {
                        [0; LANES]
                    }
                }
            };
            self.touched |= 1 << dg;
            merge(&mut self.rows[gi(dg, c)], &src, m);
        }
        Ok(())
    }

    /// MEM_RD_SCRATCH / MEM_RD_SCATTER.
    fn scratch_read(
        &mut self,
        env: &Env,
        op: &FetchOp,
        m: u64,
    ) -> Result<(), (Option<u32>, String)> {
        let FetchOp::ScratchRead {
            global,
            base,
            size,
            indexed,
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            elem_size,
            burst,
        } = *op
        else {
            return Ok(());
        };
        // guide 3.4.3: first_mem = (ARRAY_BASE + index) * (ELEM_SIZE + 1)
        // dwords; reads at or past (ARRAY_BASE + ARRAY_SIZE) * (ELEM_SIZE + 1) give 0
        let es = elem_size as u64 + 1;
        let sg = src_gpr as i32 + if src_rel { self.al } else { 0 };
        let dg = dst_gpr as i32 + if dst_rel { self.al } else { 0 };
        if !(0..128).contains(&sg) || !(0..128).contains(&dg) || dg + burst as i32 > 127 {
            return Err((None, "scratch read GPR out of range".into()));
        }
        let end = (base as u64 + size as u64) * es;
        for b in 0..=burst as usize {
            let mut vals = [[0u32; LANES]; 4];
            for l in lanes_of(m) {
                let ix = if indexed {
                    self.rows[gi(sg as usize, src_sel as usize & 3)][l] as u64
                } else {
                    0
                };
                let first = (base as u64 + ix) * es + b as u64 * es;
                for c in 0..es.min(4) {
                    let d = first + c;
                    if global {
                        let v = env.global.load_u32(d * 4).map_err(|e| {
                                (Some(l as u32),
                                    format!(
                                        "MEM_RD_SCATTER at byte 0x{:x} outside the global pool ({} bytes)",
                                        e.addr, e.limit
                                    ),
                                )
                            })?;
                        vals[c as usize][l] = v;
                    } else if d < end {
                        let at = self.scratch_at(l, d).map_err(|f| (f.at.lane, f.message))?;
                        vals[c as usize][l] = self.scratch_mem[at];
                    }
                }
            }
            let r = dg as usize + b;
            for (c, &ds) in dst_sel.iter().enumerate() {
                let src = match ds {
                    0..=3 => vals[ds as usize],
                    4 => [0; LANES],
                    5 => [0x3f80_0000; LANES],
                    _ => continue,
                };
                self.touched |= 1 << r;
                merge(&mut self.rows[gi(r, c)], &src, m);
            }
        }
        Ok(())
    }

    /// MEM_GDS: one global data share operation over the active lanes.
    fn gds_op(&mut self, env: &Env, op: &FetchOp, m: u64) -> Result<(), (Option<u32>, String)> {
        let FetchOp::Gds {
            op: name,
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
        } = *op
        else {
            return Ok(());
        };
        let rel = |g: u8, r: bool| {
            let v = g as i32 + if r { self.al } else { 0 };
            (0..128).contains(&v).then_some(v as usize)
        };
        let (Some(sg), Some(dg)) = (rel(src_gpr, src_rel), rel(dst_gpr, dst_rel)) else {
            return Err((None, "GDS GPR out of range".into()));
        };
        let ret = name.ends_with("_RET");
        let base = name.strip_suffix("_RET").unwrap_or(name);
        let mut out = [0u32; LANES];
        for l in lanes_of(m) {
            let mut v = [0u32; 3];
            for (k, &sel) in src_sel.iter().enumerate() {
                v[k] = match sel {
                    0..=3 => self.rows[gi(sg, sel as usize)][l],
                    4 => 0,
                    5 => 0x3f80_0000,
                    s => return Err((None, format!("GDS source select {s} is reserved"))),
                };
            }
            let (a, x, y) = (v[0] as u64, v[1], v[2]);
            let bad = |msg: String| (Some(l as u32), msg);
            if a & 3 != 0 {
                return Err(bad(format!("GDS {name} at unaligned byte 0x{a:x}")));
            }
            let r = match base {
                "READ" => env.gds.load_u32(a),
                "WRITE" | "XCHG" => env.gds.atomic(a, &mut |_| x),
                "CMP_STORE" | "CMP_XCHG" => env.gds.atomic(a, &mut |o| if o == x { y } else { o }),
                "MSKOR" => env.gds.atomic(a, &mut |o| (o & !x) | y),
                "ADD" => env.gds.atomic(a, &mut |o| o.wrapping_add(x)),
                "SUB" => env.gds.atomic(a, &mut |o| o.wrapping_sub(x)),
                "RSUB" => env.gds.atomic(a, &mut |o| x.wrapping_sub(o)),
                "INC" => env.gds.atomic(a, &mut |o| if o >= x { 0 } else { o + 1 }),
                "DEC" => env.gds.atomic(a, &mut |o| {
                    if o == 0 || o > x {
                        x
                    } else {
                        o - 1
                    }
                }),
                "MIN_INT" => env.gds.atomic(a, &mut |o| (o as i32).min(x as i32) as u32),
                "MAX_INT" => env.gds.atomic(a, &mut |o| (o as i32).max(x as i32) as u32),
                "MIN_UINT" => env.gds.atomic(a, &mut |o| o.min(x)),
                "MAX_UINT" => env.gds.atomic(a, &mut |o| o.max(x)),
                "AND" => env.gds.atomic(a, &mut |o| o & x),
                "OR" => env.gds.atomic(a, &mut |o| o | x),
                "XOR" => env.gds.atomic(a, &mut |o| o ^ x),
                other => return Err((None, format!("GDS operation {other} is not supported"))),
            };
            out[l] = r.map_err(|e| {
                bad(format!(
                    "GDS {name} at byte 0x{:x} outside the {}-byte GDS",
                    e.addr, e.limit
                ))
            })?;
        }
        if ret {
            // one returned value: DST_SEL 0 picks it (guide 9.6 MEM_GDS_WORD1/2)
            for (c, &ds) in dst_sel.iter().enumerate() {
                let src = match ds {
                    0 => out,
                    4 => [0; LANES],
                    5 => [0x3f80_0000; LANES],
                    _ => continue,
                };
                self.touched |= 1 << dg;
                merge(&mut self.rows[gi(dg, c)], &src, m);
            }
        }
        Ok(())
    }
}

/// Convert one fetched component to its GPR value (NUM_FORMAT_ALL / FORMAT_COMP_ALL).
fn convert(v: u32, size: usize, float: bool, num_format: u8, signed: bool) -> u32 {
    if size == 4 {
        return v;
    }
    let bits = 8 * size as u32;
    if float {
        // 16-bit float
        let h = v;
        let s = (h >> 15) & 1;
        let e = (h >> 10) & 0x1f;
        let mnt = h & 0x3ff;
        let f = if e == 0 {
            mnt as f32 / 16_777_216.0
        } else if e == 31 {
            if mnt == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        } else {
            f32::from_bits(((e + 112) << 23) | (mnt << 13))
        };
        return if s != 0 { (-f).to_bits() } else { f.to_bits() };
    }
    let sv = ((v << (32 - bits)) as i32) >> (32 - bits);
    match (num_format, signed) {
        (1, false) => v,
        (1, true) => sv as u32,
        (2, false) => (v as f32).to_bits(),
        (2, true) => (sv as f32).to_bits(),
        (_, false) => (v as f32 / ((1u32 << bits) - 1) as f32).to_bits(),
        (_, true) => ((sv as f32) / ((1u32 << (bits - 1)) - 1) as f32)
            .max(-1.0)
            .to_bits(),
    }
}
