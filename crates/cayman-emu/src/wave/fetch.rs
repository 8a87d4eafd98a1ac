//! Fetch and GDS clauses (guide ch. 5, 9.3, 9.5, 9.6): vertex fetches from
//! the bound buffers, scratch and scatter reads, global data share ops.

use super::*;
use crate::resource::Format;

/// Vertex buffer that holds the kernel parameters, the same bytes as
/// constant buffer 0 (grid information, explicit arguments, libclc's
/// implicit block): Mesa's r600 driver binds its parameter buffer both as
/// constant buffer 0 and as vertex buffer 3, and code that reads parameters
/// with a dynamic index or through a pointer (libclc's `get_work_dim()`)
/// fetches them with `VFETCH ... fc3`.
pub const PARAM_RESOURCE: u8 = 3;

impl Wave {
    /// Runs a fetch or GDS clause from instruction `self.fetch_resume`
    /// (0 unless an earlier call had to wait); returns false when the wave
    /// has to wait at instruction k (kept in `fetch_resume`).
    pub(super) fn fetch_clause(&mut self, env: &Env, idx: u32, m: u64) -> Result<bool, Fault> {
        let clause = &env.prog.fetch[idx as usize];
        let traced = self.trace.is_some();
        let first = self.fetch_resume.take().unwrap_or(0);
        for (k, op) in clause.iter().enumerate().skip(first) {
            self.stats.fetches += 1;
            if traced {
                self.trace_snapshot(0);
            }
            if self.instrumented {
                self.observe(|o, w| o.fetch_before(w, idx, k, op, m));
            }
            let r = match op {
                FetchOp::Vtx { .. } => self.vtx_fetch(env, op, m),
                FetchOp::BufferResinfo { .. } => self.buffer_resinfo(env, op, m),
                FetchOp::Tex(t) => self.tex_fetch(env, t, m),
                FetchOp::ScratchRead { .. } => self.scratch_read(env, op, m),
                FetchOp::Gds { .. } => match self.gds_op(env, op, m) {
                    Ok(false) => {
                        self.stats.fetches -= 1;
                        self.fetch_resume = Some(k);
                        return Ok(false);
                    }
                    r => r.map(|_| ()),
                },
                FetchOp::Unsupported(n) => {
                    Err((None, format!("fetch instruction {n} is not supported")))
                }
                FetchOp::Invalid(e) => Err((None, format!("invalid fetch instruction: {e}"))),
            };
            if let Some(p) = self.prof.as_mut() {
                p.counts[p.layout.fetch[idx as usize] + k].add(m & self.valid);
            }
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
        Ok(true)
    }

    /// VFETCH (guide 9.3): from a resource the host bound to BUFFER_ID
    /// (element index × stride + OFFSET; indices past the resource read 0),
    /// else buffer 1 (the global pool, byte addressed), 2 (the code
    /// object's data) or the RAT return buffer.
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
            use_const,
            fwq,
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
        let m = if fwq { wqm(m) & self.valid } else { m };
        let bound = env.resources.bound(buffer).copied();
        let fmt = match (use_const, bound) {
            // USE_CONST_FIELDS: the format comes from the fetch constant
            (true, Some(r)) => r.format,
            _ => Format {
                data: format,
                num: num_format,
                signed,
            },
        };
        let layout = fmt
            .layout()
            .map_err(|e| (None, format!("vertex fetch: {e}")))?;
        let (ncomp, csize) = (layout.ncomp, layout.csize);
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
        let dg = self.fetch_dst(dst_gpr, dst_rel)?;
        let sel = (src_sel & 3) as usize;
        let mut vals = [[0u32; LANES]; 4];
        // dword components from the global pool: one gather per component
        let fast = buffer == 1 && bound.is_none() && csize == 4 && endian == 0;
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
            let index = self.rows[gi(sg, sel)][l];
            let addr = index as u64 + offset as u64;
            let nbytes = layout.bytes();
            let mut raw = [0u8; 16];
            let r = match (bound, buffer) {
                (Some(res), _) => match res.address(layout, [index as i64, 0, 0]) {
                    // past the bound resource: zeros (as texture loads, see README)
                    None => {
                        for c in 0..ncomp {
                            vals[c][l] = 0;
                        }
                        continue;
                    }
                    Some(a) => {
                        let a = a.saturating_add(offset as u64);
                        env.global.read(a, &mut raw[..nbytes]).map_err(|e| {
                            format!(
                                "vertex fetch of {nbytes} bytes at 0x{:x} (resource {buffer}) outside the global pool ({} bytes)",
                                e.addr, e.limit
                            )
                        })
                    }
                },
                (None, 1) => env.global.read(addr, &mut raw[..nbytes]).map_err(|e| {
                    format!(
                        "vertex fetch of {nbytes} bytes at 0x{:x} outside the global pool ({} bytes)",
                        e.addr, e.limit
                    )
                }),
                (None, 2) => {
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
                (None, PARAM_RESOURCE) => {
                    // the kernel parameters (constant buffer 0's dwords), byte addressed
                    let cb0 = env.cb.first().map_or(&[][..], |c| &c[..]);
                    let bytes = cb0.len() as u64 * 4;
                    if addr + nbytes as u64 <= bytes {
                        for (k, b) in raw[..nbytes].iter_mut().enumerate() {
                            let a = addr as usize + k;
                            *b = (cb0[a / 4] >> (8 * (a % 4))) as u8;
                        }
                        Ok(())
                    } else {
                        Err(format!(
                            "vertex fetch of {nbytes} bytes at 0x{addr:x} outside the kernel parameters ({bytes} bytes, vertex buffer 3)"
                        ))
                    }
                }
                (None, RET_RESOURCE) => {
                    // the RAT return buffer: dword-indexed (stride 4)
                    let a = (index as u64) * 4 + offset as u64;
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
                (None, b) => Err(format!("vertex buffer {b} is not bound")),
            };
            r.map_err(|e| (Some(l as u32), e))?;
            swap_endian(&mut raw[..nbytes], endian)?;
            let v = fmt.unpack(layout, &raw);
            for c in 0..ncomp {
                vals[c][l] = v[c];
            }
        }
        self.write_fetched(dg, dst_sel, &vals, ncomp, fmt.one(), m);
        Ok(())
    }

    /// The destination GPR of a fetch (DST_REL adds the loop index).
    fn fetch_dst(&self, gpr: u8, rel: bool) -> Result<usize, (Option<u32>, String)> {
        let dg = gpr as i32 + if rel { self.al } else { 0 };
        if !(0..128).contains(&dg) {
            return Err((None, format!("destination GPR {dg} out of range")));
        }
        Ok(dg as usize)
    }

    /// Write fetched components through DST_SEL (0-3 component, 4 zero, 5
    /// `one`, 6/7 masked) to GPR `dg` on lanes `m`. Components at or past
    /// `ncomp` (the format has fewer) read 0, W reads `one`.
    fn write_fetched(
        &mut self,
        dg: usize,
        dst_sel: [u8; 4],
        vals: &[Lanes; 4],
        ncomp: usize,
        one: u32,
        m: u64,
    ) {
        for (c, &ds) in dst_sel.iter().enumerate() {
            let k = ds as usize;
            let row = gi(dg, c);
            match ds {
                0..=3 if k < ncomp => merge(&mut self.rows[row], &vals[k], m),
                0..=2 | 4 => merge(&mut self.rows[row], &[0; LANES], m),
                3 | 5 => merge(&mut self.rows[row], &[one; LANES], m),
                _ => continue,
            }
            self.touched |= 1 << dg;
        }
    }

    /// GET_BUFFER_RESINFO (VC_INST 14): X = the number of elements of the
    /// buffer (for the default buffer 1, the pool's size in bytes); Y, Z, W = 0.
    fn buffer_resinfo(
        &mut self,
        env: &Env,
        op: &FetchOp,
        m: u64,
    ) -> Result<(), (Option<u32>, String)> {
        let FetchOp::BufferResinfo {
            buffer,
            dst_gpr,
            dst_rel,
            dst_sel,
        } = *op
        else {
            return Ok(());
        };
        let n = match (env.resources.get(buffer, env.global.size()), buffer) {
            (Some(r), _) => r.width,
            (None, 2) => env.text.len() as u32,
            (None, PARAM_RESOURCE) => env.cb.first().map_or(0, |c| c.len() as u32 * 4),
            (None, RET_RESOURCE) => self.ret.len() as u32,
            (None, b) => return Err((None, format!("vertex buffer {b} is not bound"))),
        };
        let dg = self.fetch_dst(dst_gpr, dst_rel)?;
        let vals = [[n; LANES], [0; LANES], [0; LANES], [0; LANES]];
        self.write_fetched(dg, dst_sel, &vals, 4, 0x3f80_0000, m);
        Ok(())
    }

    /// A TEX instruction (guide 8.3, 9.4) on a bound resource.
    fn tex_fetch(&mut self, env: &Env, t: &TexFetch, m: u64) -> Result<(), (Option<u32>, String)> {
        if let TexOp::NeedsSampler(n) = t.op {
            return Err((
                None,
                format!(
                    "TEX {n} needs a sampler and graphics state (filtering, LOD or pixel-quad derivatives); \
                     risa runs compute programs without samplers"
                ),
            ));
        }
        // RESOURCE_INDEX_MODE: RESOURCE_ID plus CF_IDX0/1
        let resource = self
            .indexed(u32::from(t.resource), t.rim)
            .map_err(|e| (None, format!("TEX RESOURCE_INDEX_MODE: {e}")))?;
        let resource = u8::try_from(resource).map_err(|_| {
            (
                None,
                format!("texture resource {resource} does not exist (RESOURCE_ID + CF index)"),
            )
        })?;
        let m = if t.fwq { wqm(m) & self.valid } else { m };
        let sg = t.src_gpr as i32 + if t.src_rel { self.al } else { 0 };
        let sg = if (0..128).contains(&sg) {
            sg as usize
        } else {
            0
        };
        // the source swizzle: SEL_0 = 0.0, SEL_1 = 1.0 (guide 9.4 TEX_WORD2)
        let src = |w: &Wave, k: usize, l: usize| match t.src_sel[k] {
            s @ 0..=3 => w.rows[gi(sg, s as usize)][l],
            5 => 0x3f80_0000,
            _ => 0,
        };
        if let TexOp::SetState(k) = t.op {
            // SET_TEXTURE_OFFSETS / SET_GRADIENTS_H / SET_GRADIENTS_V keep
            // per-lane state for the sampling instructions; nothing is written
            if self.tex_state.is_empty() {
                self.tex_state = vec![[0; LANES]; 12];
            }
            for l in lanes_of(m) {
                for c in 0..4 {
                    self.tex_state[4 * k as usize + c][l] = src(self, c, l);
                }
            }
            return Ok(());
        }
        let res = env
            .resources
            .get(resource, env.global.size())
            .ok_or_else(|| (None, format!("texture resource {} is not bound", resource)))?;
        let dg = self.fetch_dst(t.dst_gpr, t.dst_rel)?;
        let mut vals = [[0u32; LANES]; 4];
        let mut one = 0x3f80_0000;
        match t.op {
            TexOp::Ld => {
                if t.inst_mod != 0 {
                    return Err((
                        None,
                        format!(
                            "LD with INST_MOD {} (fragment pointers of an MSAA surface) needs an MSAA resource",
                            t.inst_mod
                        ),
                    ));
                }
                let fmt = res.format;
                let layout = fmt
                    .layout()
                    .map_err(|e| (None, format!("texture resource {}: {e}", resource)))?;
                one = fmt.one();
                let n = layout.bytes();
                for l in lanes_of(m) {
                    // unsigned X, Y, Z plus the instruction's texel offsets; W = LOD
                    let c: [i64; 3] =
                        std::array::from_fn(|k| src(self, k, l) as i64 + t.offset[k] as i64);
                    let lod = src(self, 3, l);
                    let addr = if lod == 0 {
                        res.address(layout, c)
                    } else {
                        None
                    };
                    let v = match addr {
                        // outside the resource (or a missing mip level): zeros
                        None => [0; 4],
                        Some(a) => {
                            let mut raw = [0u8; 16];
                            env.global.read(a, &mut raw[..n]).map_err(|e| {
                                (
                                    Some(l as u32),
                                    format!(
                                        "LD of {n} bytes at 0x{:x} (resource {}) outside the global pool ({} bytes)",
                                        e.addr, resource, e.limit
                                    ),
                                )
                            })?;
                            let u = fmt.unpack(layout, &raw);
                            res.swizzle.map(|s| match s {
                                0..=3 => u[s as usize],
                                5 => one,
                                _ => 0,
                            })
                        }
                    };
                    for k in 0..4 {
                        vals[k][l] = v[k];
                    }
                }
            }
            TexOp::GetTextureResinfo | TexOp::GetNumberOfSamples => {
                // integers: (width, height, depth or layers, mip levels /
                // samples); risa's resources have one level and one sample.
                // A LOD past the last level reads 0 in X, Y, Z.
                let d = res.dims();
                for l in lanes_of(m) {
                    let lod = if t.op == TexOp::GetTextureResinfo {
                        src(self, 0, l)
                    } else {
                        0
                    };
                    for k in 0..3 {
                        vals[k][l] = if lod == 0 { d[k] } else { 0 };
                    }
                    vals[3][l] = 1;
                }
            }
            TexOp::SetState(_) | TexOp::NeedsSampler(_) => {}
        }
        self.write_fetched(dg, t.dst_sel, &vals, 4, one, m);
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

    /// MEM_GDS: one global data share operation over the active lanes
    /// (guide 9.6; the operations of the DS_INST table). Returns false when
    /// the wave has to wait (ATOMIC_ORDERED_ALLOC_RET before earlier waves).
    fn gds_op(&mut self, env: &Env, op: &FetchOp, m: u64) -> Result<bool, (Option<u32>, String)> {
        let FetchOp::Gds {
            op: name,
            src_gpr,
            src_rel,
            src_sel,
            dst_gpr,
            dst_rel,
            dst_sel,
            offset,
            bcast_first,
            alloc_consume,
            uav_id,
            uav_index_mode,
        } = *op
        else {
            return Ok(true);
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
        // BCAST_FIRST_REQ: the first active lane's request only, its result to every lane
        let lanes = if bcast_first { m & m.wrapping_neg() } else { m };
        let mut out = [[0u32; LANES]; 2];
        let g = env.gds;
        // ALLOC_CONSUME is "ignored for ... GDS with no return" (guide 9.6):
        // those ops go to GDS memory as without it
        if alloc_consume && ret {
            let c = self.append_counter(name, uav_id, uav_index_mode)?;
            out[0] = self.append_consume(env, name, base, c, sg, src_sel, lanes)?;
        } else {
            for l in lanes_of(lanes) {
                let mut v = [0u32; 3];
                for (k, &sel) in src_sel.iter().enumerate() {
                    v[k] = match sel {
                        0..=3 => self.rows[gi(sg, sel as usize)][l],
                        4 => 0,
                        5 => 0x3f80_0000,
                        s => return Err((None, format!("GDS source select {s} is reserved"))),
                    };
                }
                let (a, x, y) = (v[0], v[1], v[2]);
                let bad = |e: crate::memory::MemError| {
                    (
                        Some(l as u32),
                        format!(
                            "GDS {name} at byte 0x{:x} outside the {}-byte GDS",
                            e.addr, e.limit
                        ),
                    )
                };
                let narrow = matches!(
                    base,
                    "BYTE_WRITE"
                        | "SHORT_WRITE"
                        | "BYTE_READ"
                        | "UBYTE_READ"
                        | "SHORT_READ"
                        | "USHORT_READ"
                );
                if a & 3 != 0 && !narrow && base != "ATOMIC_ORDERED_ALLOC" {
                    return Err((
                        Some(l as u32),
                        format!("GDS {name} at unaligned byte 0x{a:x}"),
                    ));
                }
                let (a64, byte) = ((a & !3) as u64, a & 3);
                // the second address of the two-address operations (dwords: offset, offset × 64)
                let rel2 = a64 + 4 * offset as u64;
                let two = a64 + 4 * 64 * offset as u64;
                let (r0, r1) = match base {
                    "READ" | "BYTE_READ" | "UBYTE_READ" | "SHORT_READ" | "USHORT_READ" => (
                        crate::wave::lds::read_ext(base, g.load_u32(a64).map_err(bad)?, byte),
                        0,
                    ),
                    "WRITE_REL" | "XCHG_REL" | "WRITE2" | "XCHG2" => {
                        let a2 = if base.ends_with('2') { two } else { rel2 };
                        let o0 = g.atomic(a64, &mut |_| x).map_err(bad)?;
                        let o1 = g.atomic(a2, &mut |_| y).map_err(bad)?;
                        (o0, o1)
                    }
                    "READ_REL" => (
                        g.load_u32(a64).map_err(bad)?,
                        g.load_u32(rel2).map_err(bad)?,
                    ),
                    "READ2" => {
                        if x & 3 != 0 {
                            return Err((
                                Some(l as u32),
                                format!("GDS {name} at unaligned byte 0x{x:x}"),
                            ));
                        }
                        (
                            g.load_u32(a64).map_err(bad)?,
                            g.load_u32(x as u64).map_err(bad)?,
                        )
                    }
                    "READWRITE" => {
                        if x & 3 != 0 {
                            return Err((
                                Some(l as u32),
                                format!("GDS {name} at unaligned byte 0x{x:x}"),
                            ));
                        }
                        let o = g.load_u32(a64).map_err(bad)?;
                        g.atomic(x as u64, &mut |_| y).map_err(bad)?;
                        (o, 0)
                    }
                    "ATOMIC_ORDERED_ALLOC" => {
                        // guide 9.6: "adds the 7 lsb of 1a to a hidden ordered append
                        // count in wave order"; only with broadcast-first set
                        if !bcast_first {
                            return Err((
                                None,
                                "GDS ATOMIC_ORDERED_ALLOC_RET needs BCAST_FIRST_REQ (guide 9.6)"
                                    .into(),
                            ));
                        }
                        match env.sync.ordered_alloc(self.dispatch_index, a & 0x7f) {
                            Some(o) => (o, 0),
                            None => {
                                self.blocked_on = Some(format!(
                                "GDS ATOMIC_ORDERED_ALLOC_RET waits for the waves before wave {} of the dispatch",
                                self.dispatch_index
                            ));
                                return Ok(false);
                            }
                        }
                    }
                    b => match crate::wave::lds::rmw(b, 0, x, y, byte) {
                        Some(_) => {
                            let o = g
                                .atomic(a64, &mut |o| {
                                    crate::wave::lds::rmw(b, o, x, y, byte).unwrap_or(o)
                                })
                                .map_err(bad)?;
                            (o, 0)
                        }
                        None => {
                            return Err((None, format!("GDS operation {name} is not supported")))
                        }
                    },
                };
                out[0][l] = r0;
                out[1][l] = r1;
            }
        }
        if bcast_first && lanes != 0 {
            let f = lanes.trailing_zeros() as usize;
            let (v0, v1) = (out[0][f], out[1][f]);
            out[0] = [v0; LANES];
            out[1] = [v1; LANES];
        }
        if ret {
            // one or two returned values: DST_SEL 0 and 1 pick them (guide 9.6 MEM_GDS_WORD1/2)
            for (c, &ds) in dst_sel.iter().enumerate() {
                let src = match ds {
                    0 | 1 => out[ds as usize],
                    2..=4 => [0; LANES],
                    5 => [0x3f80_0000; LANES],
                    _ => continue,
                };
                self.touched |= 1 << dg;
                merge(&mut self.rows[gi(dg, c)], &src, m);
            }
        }
        Ok(true)
    }

    /// The append/consume counter a GDS op with ALLOC_CONSUME names: UAV_ID
    /// plus CF_IDX0/1 under UAV_INDEX_MODE (guide 9.6 MEM_GDS_WORD1).
    fn append_counter(
        &self,
        name: &str,
        uav_id: u8,
        mode: u8,
    ) -> Result<usize, (Option<u32>, String)> {
        let c = self.indexed(uav_id as u32, mode).map_err(|e| {
            (
                None,
                format!("GDS {name} ALLOC_CONSUME UAV_INDEX_MODE: {e}"),
            )
        })?;
        if c as usize >= crate::sync::APPEND_COUNTERS {
            return Err((
                None,
                format!(
                    "GDS {name} with ALLOC_CONSUME: UAV_ID {uav_id} + CF_IDX{} = {c} names no append/consume counter (there are {})",
                    mode.saturating_sub(1),
                    crate::sync::APPEND_COUNTERS
                ),
            ));
        }
        Ok(c as usize)
    }

    /// A returning GDS op with ALLOC_CONSUME: the one-dword operation of the
    /// DS_INST table with append/consume counter `c` in place of the
    /// addressed dword (the address operand is not used), lane after lane
    /// in ascending order as one atomic step across the dispatch. Returns
    /// each lane's old counter value. Ops that address two dwords, part of
    /// one, or the ordered-append count cannot work on one counter and fault.
    #[allow(clippy::too_many_arguments)]
    fn append_consume(
        &self,
        env: &Env,
        name: &str,
        base: &str,
        c: usize,
        sg: usize,
        src_sel: [u8; 3],
        lanes: u64,
    ) -> Result<[u32; LANES], (Option<u32>, String)> {
        let read = base == "READ";
        if !read && crate::wave::lds::rmw(base, 0, 0, 0, 0).is_none() {
            return Err((
                None,
                format!(
                    "GDS {name} with ALLOC_CONSUME: only the one-dword operations (READ_RET and the atomic _RET ops) can work on an append/consume counter"
                ),
            ));
        }
        // data 0 and data 1 of every lane, read before the counter is locked
        let mut data = [[0u32; 2]; LANES];
        for l in lanes_of(lanes) {
            for (k, &sel) in src_sel.iter().enumerate() {
                let v = match sel {
                    0..=3 => self.rows[gi(sg, sel as usize)][l],
                    4 => 0,
                    5 => 0x3f80_0000,
                    s => return Err((None, format!("GDS source select {s} is reserved"))),
                };
                if k > 0 {
                    data[l][k - 1] = v;
                }
            }
        }
        let mut out = [0u32; LANES];
        env.sync.with_append_counter(c, |v| {
            for l in lanes_of(lanes) {
                out[l] = *v;
                if !read {
                    let [x, y] = data[l];
                    *v = crate::wave::lds::rmw(base, *v, x, y, 0).unwrap_or(*v);
                }
            }
        });
        Ok(out)
    }
}

/// ENDIAN_SWAP (guide 9.3): 1 = 8IN16, 2 = 8IN32 (3 is reserved).
fn swap_endian(raw: &mut [u8], endian: u8) -> Result<(), (Option<u32>, String)> {
    if endian == 0 {
        return Ok(());
    }
    if endian == 3 {
        return Err((None, "ENDIAN_SWAP = 3 is reserved".into()));
    }
    let unit = 1usize << endian;
    if !raw.len().is_multiple_of(unit) {
        return Err((
            None,
            format!(
                "ENDIAN_SWAP over {unit}-byte units on a {}-byte element",
                raw.len()
            ),
        ));
    }
    for ch in raw.chunks_exact_mut(unit) {
        ch.reverse();
    }
    Ok(())
}
