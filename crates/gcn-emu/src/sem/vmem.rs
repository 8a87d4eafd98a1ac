//! Vector memory: MUBUF (GCN 1.0+), FLAT (GCN 1.1+), GLOBAL and SCRATCH (GCN 1.4).
//!
//! Every instruction is described by a [`Shape`] decided once at lowering
//! (load/store/atomic, element size, count, sign extension, d16 half); one
//! lane loop then moves the data for every encoding, with the addressing of
//! the encoding supplied as a closure.

use super::format::{components, from_d16, pack, to_d16, unpack};
use super::{ds, Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::mem::{active_lanes, AtomicOp};
use crate::program::{Op, Src, HIDDEN_PRIVATE_BASE, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI};
use crate::wave::Wave;
use risa_gcn::semantics::{Elements, Half, VectorMem};
use risa_gcn::table::{Family, OpInfo};
use risa_gcn::{Field, Gen};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Load = 0,
    Store = 1,
    Atomic = 2,
}

/// What a memory instruction moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Shape {
    pub kind: Kind,
    /// Bytes per element: 1, 2 or 4.
    pub bytes: u8,
    /// Elements (dwords) per lane: 1..=4.
    pub n: u8,
    pub signed: bool,
    /// 0: whole register; 1: low half (d16); 2: high half (d16_hi).
    pub d16: u8,
    /// Atomic operation index in [`ATOMICS`].
    pub aop: u8,
    /// 64-bit atomic.
    pub wide: bool,
}

impl Shape {
    pub fn pack(self) -> u32 {
        self.kind as u32
            | u32::from(self.bytes) << 2
            | u32::from(self.n) << 6
            | u32::from(self.signed) << 9
            | u32::from(self.d16) << 10
            | u32::from(self.aop) << 12
            | u32::from(self.wide) << 17
    }
    #[inline(always)]
    pub fn unpack(v: u32) -> Shape {
        Shape {
            kind: match v & 3 {
                0 => Kind::Load,
                1 => Kind::Store,
                _ => Kind::Atomic,
            },
            bytes: ((v >> 2) & 0xf) as u8,
            n: ((v >> 6) & 7) as u8,
            signed: v >> 9 & 1 != 0,
            d16: ((v >> 10) & 3) as u8,
            aop: ((v >> 12) & 0x1f) as u8,
            wide: v >> 17 & 1 != 0,
        }
    }
}

pub(super) use risa_gcn::semantics::ATOMIC_NAMES as ATOMICS;

/// The index of atomic `op` in [`ATOMICS`]: how memory and DS rows' `aux`
/// names their atomic.
pub(super) fn atomic_index(op: AtomicOp) -> Option<u32> {
    ATOMICS.iter().position(|(_, a)| *a == op).map(|i| i as u32)
}

/// Where one lane's access goes.
#[derive(Clone, Copy)]
pub(super) enum Target {
    /// A device address.
    Global(u64),
    /// An LDS byte address (FLAT in the shared aperture).
    Lds(u32),
    /// A private (scratch) byte address of this lane, relative to the wave's FLAT_SCRATCH.
    Private(u32),
    /// Out of the buffer's range: loads give 0, stores and atomics do nothing.
    Dropped,
}

/// The fault of lane `l`'s access outside every allocation.
pub(super) fn mem_fault(l: usize, e: crate::mem::OutOfRange, write: bool) -> FaultKind {
    FaultKind::memory(Some(l as u32), e, write)
}

/// The device address where this wave's private segment starts, for FLAT and
/// SCRATCH accesses (AMDGPUUsage "Flat Scratch"): on GCN 1.4 FLAT_SCRATCH
/// (s[102:103]) holds it; on GCN 1.1/1.2 ("offset flat scratch")
/// FLAT_SCRATCH_HI (s105 / s103) holds its offset from the hidden private
/// base in 256-byte units.
fn flat_scratch_base(w: &Wave, gen: Gen) -> u64 {
    match gen {
        Gen::Gcn14 => w.s64(102),
        Gen::Gcn12 => HIDDEN_PRIVATE_BASE + (u64::from(w.s[103]) << 8),
        Gen::Gcn11 => HIDDEN_PRIVATE_BASE + (u64::from(w.s[105]) << 8),
        Gen::Gcn10 => HIDDEN_PRIVATE_BASE,
    }
}

/// Lane `lane`'s private byte `a`: 4-byte elements interleaved over 64 lanes,
/// the layout of the swizzled private-segment V# (so FLAT and MUBUF agree).
fn private_addr(w: &Wave, gen: Gen, lane: usize, a: u32) -> u64 {
    flat_scratch_base(w, gen)
        .wrapping_add(u64::from(a / 4) * 256 + lane as u64 * 4 + u64::from(a % 4))
}

fn read_bytes(w: &Wave, c: &mut Ctx, l: usize, t: Target, buf: &mut [u8]) -> R {
    match t {
        Target::Global(a) => c.mem.read(a, buf).map_err(|e| mem_fault(l, e, false))?,
        Target::Lds(a) => ds::lds_read(c, a, buf),
        Target::Private(a) => {
            for (i, b) in buf.iter_mut().enumerate() {
                let mut x = [0u8];
                let pa = private_addr(w, c.prog.gen, l, a.wrapping_add(i as u32));
                c.mem.read(pa, &mut x).map_err(|e| mem_fault(l, e, false))?;
                *b = x[0];
            }
        }
        Target::Dropped => buf.fill(0),
    }
    c.stats.bytes_read += buf.len() as u64;
    Ok(())
}

fn write_bytes(w: &Wave, c: &mut Ctx, l: usize, t: Target, buf: &[u8]) -> R {
    match t {
        Target::Global(a) => c.mem.write(a, buf).map_err(|e| mem_fault(l, e, true))?,
        Target::Lds(a) => ds::lds_write(c, a, buf),
        Target::Private(a) => {
            for (i, b) in buf.iter().enumerate() {
                let pa = private_addr(w, c.prog.gen, l, a.wrapping_add(i as u32));
                c.mem.write(pa, &[*b]).map_err(|e| mem_fault(l, e, true))?;
            }
        }
        Target::Dropped => {}
    }
    c.stats.bytes_written += buf.len() as u64;
    Ok(())
}

/// The lane loop shared by every vector memory encoding.
#[inline(always)]
fn lanes(
    w: &mut Wave,
    op: &Op,
    c: &mut Ctx,
    data: usize,
    ret: usize,
    addr: impl Fn(&Wave, usize) -> Target,
) -> R {
    let sh = Shape::unpack(op.aux);
    let e = w.exec();
    let glc = op.instr.field(Field::Glc) != 0;
    // Fast path: whole dwords to or from device memory in every lane, one call
    // for the wave.
    if sh.bytes == 4 && sh.kind != Kind::Atomic && e != 0 {
        let mut addrs = [0u64; 64];
        let mut all_global = true;
        for l in active_lanes(e) {
            match addr(w, l) {
                Target::Global(a) => addrs[l] = a,
                _ => {
                    all_global = false;
                    break;
                }
            }
        }
        if all_global {
            let n = sh.n as usize;
            let bytes = 4 * n as u64 * u64::from(e.count_ones());
            if sh.kind == Kind::Load {
                let mut out = [[0u32; 64]; 4];
                let r = c.mem.read_lanes(&addrs, e, n, &mut out[..n]);
                if let Err((l, err)) = r {
                    return Err(mem_fault(l, err, false));
                }
                for (k, o) in out.iter().enumerate().take(n) {
                    w.vwrite32(ret + k, o, e);
                }
                c.stats.bytes_read += bytes;
            } else {
                if let Err((l, err)) = c.mem.write_lanes(&addrs, e, n, &w.v[data..data + n]) {
                    return Err(mem_fault(l, err, true));
                }
                c.stats.bytes_written += bytes;
            }
            return Ok(());
        }
    }
    for l in active_lanes(e) {
        let t = addr(w, l);
        match sh.kind {
            Kind::Load => {
                let size = sh.bytes as usize * sh.n as usize;
                let mut buf = [0u8; 16];
                read_bytes(w, c, l, t, &mut buf[..size])?;
                if sh.bytes == 4 {
                    for k in 0..sh.n as usize {
                        w.v[ret + k][l] =
                            u32::from_le_bytes(buf[4 * k..4 * k + 4].try_into().unwrap());
                    }
                } else {
                    let raw = if sh.bytes == 1 {
                        u32::from(buf[0])
                    } else {
                        u32::from(u16::from_le_bytes([buf[0], buf[1]]))
                    };
                    let v = if sh.signed {
                        let sh_amt = 32 - 8 * u32::from(sh.bytes);
                        (((raw << sh_amt) as i32) >> sh_amt) as u32
                    } else {
                        raw
                    };
                    let old = w.v[ret][l];
                    w.v[ret][l] = match sh.d16 {
                        0 => v,
                        1 => (old & 0xffff_0000) | (v & 0xffff),
                        _ => (old & 0xffff) | (v << 16),
                    };
                }
            }
            Kind::Store => {
                let mut buf = [0u8; 16];
                let size = sh.bytes as usize * sh.n as usize;
                if sh.bytes == 4 {
                    for k in 0..sh.n as usize {
                        buf[4 * k..4 * k + 4].copy_from_slice(&w.v[data + k][l].to_le_bytes());
                    }
                } else {
                    let v = w.v[data][l] >> if sh.d16 == 2 { 16 } else { 0 };
                    buf[..4].copy_from_slice(&v.to_le_bytes());
                }
                write_bytes(w, c, l, t, &buf[..size])?;
            }
            Kind::Atomic => {
                let aop = ATOMICS[sh.aop as usize].1;
                let k = if sh.wide { 2 } else { 1 };
                let rd = |r: usize| -> u64 {
                    if sh.wide {
                        u64::from(w.v[r][l]) | u64::from(w.v[r + 1][l]) << 32
                    } else {
                        u64::from(w.v[r][l])
                    }
                };
                let (val, cmp) = match aop {
                    AtomicOp::CmpSwap | AtomicOp::FCmpSwap => (rd(data), rd(data + k)),
                    _ => (rd(data), 0),
                };
                let bits = 32 * k as u32;
                let old = match t {
                    Target::Global(a) => c
                        .mem
                        .atomic(a, bits, aop, val, cmp)
                        .map_err(|e| mem_fault(l, e, true))?,
                    Target::Lds(a) => ds::lds_atomic(c, a, bits, aop, val, cmp),
                    Target::Private(_) => {
                        return Err(FaultKind::Unimplemented("atomics on private memory"))
                    }
                    Target::Dropped => 0,
                };
                c.stats.bytes_read += u64::from(bits / 8);
                c.stats.bytes_written += u64::from(bits / 8);
                if glc {
                    w.v[ret][l] = old as u32;
                    if sh.wide {
                        w.v[ret + 1][l] = (old >> 32) as u32;
                    }
                }
            }
        }
    }
    Ok(())
}

fn vgpr(s: Src) -> usize {
    match s {
        Src::V(r) => r as usize,
        _ => 0,
    }
}

/// A buffer resource (V#) and the instruction's addressing fields.
struct BufAddr {
    base: u64,
    stride: u64,
    num: u64,
    swizzle: bool,
    add_tid: bool,
    /// log2 of ELEMENT_SIZE and of INDEX_STRIDE (both powers of two): the
    /// swizzle splits by shifts, not divisions, on every scratch access.
    elem_log2: u32,
    index_stride_log2: u32,
    soff: u64,
    inst_off: u64,
    offen: bool,
    idxen: bool,
    addr64: bool,
    va: usize,
    /// DATA_FORMAT and NUM_FORMAT of the V# (word 3).
    dfmt: u32,
    nfmt: u32,
}

impl BufAddr {
    #[inline]
    fn new(w: &Wave, op: &Op) -> Result<BufAddr, FaultKind> {
        let r = op.sd as usize;
        if r + 3 >= 128 {
            return Err(FaultKind::BadOperand(
                "the buffer resource is past the SGPRs".into(),
            ));
        }
        let i = op.instr;
        let (v0, v1, num, v3) = (w.s[r], w.s[r + 1], w.s[r + 2], w.s[r + 3]);
        Ok(BufAddr {
            base: u64::from(v0) | u64::from(v1 & 0xffff) << 32,
            stride: u64::from((v1 >> 16) & 0x3fff),
            num: u64::from(num),
            swizzle: v1 >> 31 != 0,
            add_tid: (v3 >> 23) & 1 != 0,
            elem_log2: 1 + ((v3 >> 19) & 3),
            index_stride_log2: 3 + ((v3 >> 21) & 3),
            soff: u64::from(w.sread32(op.src[1])),
            inst_off: u64::from(op.lit),
            offen: i.field(Field::Offen) != 0,
            idxen: i.field(Field::Idxen) != 0,
            addr64: i.field(Field::Addr64) != 0,
            va: vgpr(op.src[0]),
            dfmt: (v3 >> 15) & 0xf,
            nfmt: (v3 >> 12) & 7,
        })
    }

    /// Where lane `l`'s access of `size` bytes goes (see the GCN ISA documents,
    /// "Buffer addressing"): ADDR64 accesses are not range checked; swizzled
    /// buffers (scratch) interleave ELEMENT_SIZE bytes across INDEX_STRIDE lanes.
    fn target(&self, w: &Wave, l: usize, size: u64) -> Target {
        let va = self.va;
        if self.addr64 {
            let v = u64::from(w.v[va][l]) | u64::from(w.v[va + 1][l]) << 32;
            return Target::Global(
                self.base
                    .wrapping_add(v)
                    .wrapping_add(self.soff)
                    .wrapping_add(self.inst_off),
            );
        }
        let mut idx = if self.idxen { u64::from(w.v[va][l]) } else { 0 };
        let voff = if self.offen {
            u64::from(w.v[va + self.idxen as usize][l])
        } else {
            0
        };
        if self.add_tid {
            idx += l as u64;
        }
        let off = voff + self.inst_off;
        if self.swizzle {
            let (is, es) = (self.index_stride_log2, self.elem_log2);
            let (imsb, ilsb) = (idx >> is, idx & ((1 << is) - 1));
            let (omsb, olsb) = (off >> es, off & ((1 << es) - 1));
            let bo = ((imsb * self.stride + (omsb << es)) << is) + (ilsb << es) + olsb;
            return Target::Global(self.base.wrapping_add(self.soff).wrapping_add(bo));
        }
        let out = if self.stride == 0 || !(self.idxen || self.add_tid) {
            off + size > self.num
        } else {
            idx >= self.num
        };
        if out {
            Target::Dropped
        } else {
            Target::Global(
                self.base
                    .wrapping_add(self.soff)
                    .wrapping_add(off)
                    .wrapping_add(idx * self.stride),
            )
        }
    }
}

fn mubuf(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let b = BufAddr::new(w, op)?;
    let sh = Shape::unpack(op.aux);
    let size = u64::from(sh.bytes) * u64::from(sh.n);
    let d = op.d as usize;
    if op.instr.field(Field::Lds) != 0 {
        // GcnMemHandling.md: ubyte/sbyte/ushort/sshort/dword loads may go to
        // LDS instead of VDATA, each lane's value zero-extended to a dword.
        if sh.kind != Kind::Load || sh.n != 1 || sh.d16 != 0 {
            return Err(lds_refused(op));
        }
        lds_without_tfe(op)?;
        let e = w.exec();
        for l in active_lanes(e) {
            let mut buf = [0u8; 4];
            read_bytes(w, c, l, b.target(w, l, size), &mut buf[..size as usize])?;
            ds::lds_write(c, lds_dma_addr(w, l, 0), &buf);
        }
        return Ok(());
    }
    lanes(w, op, c, d, d, |w, l| b.target(w, l, size))
}

/// MUBUF LDS=1 on an instruction that cannot load into LDS: GcnMemHandling.md
/// lists the only ones that can.
fn lds_refused(op: &Op) -> FaultKind {
    FaultKind::BadOperand(format!(
        "{} cannot use LDS=1: only buffer_load_ubyte/sbyte/ushort/sshort/dword and \
         buffer_load_format_x load into LDS (GcnMemHandling.md)",
        op.instr.info().name
    ))
}

/// "Mixing TFE and LDS flags together is illegal" (GcnMemHandling.md).
fn lds_without_tfe(op: &Op) -> Result<(), FaultKind> {
    if op.instr.field(Field::Tfe) != 0 {
        return Err(FaultKind::BadOperand(format!(
            "{}: LDS=1 together with TFE is illegal (GcnMemHandling.md)",
            op.instr.info().name
        )));
    }
    Ok(())
}

/// The LDS address of lane `l` for MUBUF LDS=1 loads and buffer_store_lds_dword
/// (GcnMemHandling.md: M0[15:0] + LANEID * 4, plus OFFSET for
/// buffer_store_lds_dword per its entry in GcnInstrsMubuf.md).
fn lds_dma_addr(w: &Wave, l: usize, off: u32) -> u32 {
    (w.s[crate::wave::M0] & 0xffff)
        .wrapping_add(off)
        .wrapping_add(4 * l as u32)
}

/// buffer_store_lds_dword: each lane's dword from LDS to the buffer at
/// VADDR = 0 (GcnInstrsMubuf.md).
fn store_lds_dword(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let mut b = BufAddr::new(w, op)?;
    (b.offen, b.idxen, b.addr64) = (false, false, false);
    let e = w.exec();
    for l in active_lanes(e) {
        let mut buf = [0u8; 4];
        ds::lds_read(c, lds_dma_addr(w, l, op.lit), &mut buf);
        write_bytes(w, c, l, b.target(w, l, 4), &buf)?;
    }
    Ok(())
}

/// Whether `_d16` format instructions pack two 16-bit components per VGPR
/// (GCN 1.4) rather than one per VGPR in its low half (GCN 1.2).
fn d16_packed(gen: Gen) -> bool {
    !gen.has(risa_gcn::Feature::UnpackedD16Vmem)
}

/// buffer_load/store_format_* (format from the V#) and tbuffer_* (format
/// from the instruction): `aux` = components | store << 3 | tbuffer << 4 |
/// d16 << 5 (0 none, 1 low halves, 2 high half).
fn buffer_format(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let b = BufAddr::new(w, op)?;
    let count = (op.aux & 7) as usize;
    let store = op.aux >> 3 & 1 != 0;
    let d16 = (op.aux >> 5) & 3;
    let packed = d16_packed(op.instr.gen);
    let to_lds = op.instr.info().family == Family::Mubuf && op.instr.field(Field::Lds) != 0;
    if to_lds && (store || count != 1 || d16 != 0) {
        return Err(lds_refused(op));
    }
    if to_lds {
        lds_without_tfe(op)?;
    }
    let (dfmt, nfmt) = if op.aux >> 4 & 1 != 0 {
        (op.instr.field(Field::Dfmt), op.instr.field(Field::Nfmt))
    } else {
        (b.dfmt, b.nfmt)
    };
    let comps = components(dfmt);
    if comps.is_empty() {
        return Err(FaultKind::Unimplemented("this buffer data format"));
    }
    let bytes = comps.iter().sum::<u32>() as usize / 8;
    let e = w.exec();
    let d = op.d as usize;
    // Where component k of a d16 access sits: (VGPR, bit shift).
    let slot = |k: usize| -> (usize, u32) {
        match (d16, packed) {
            (2, _) => (d, 16),
            (_, true) => (d + k / 2, 16 * (k as u32 % 2)),
            _ => (d + k, 0),
        }
    };
    for l in active_lanes(e) {
        let t = b.target(w, l, bytes as u64);
        let mut buf = [0u8; 16];
        if store {
            let mut bit = 0u32;
            let mut acc = [0u32; 4];
            for (k, &bits) in comps.iter().enumerate() {
                let v = if k >= count {
                    0
                } else if d16 != 0 {
                    let (r, sh) = slot(k);
                    pack(from_d16(w.v[r][l] >> sh, nfmt), bits, nfmt)?
                } else {
                    pack(w.v[d + k][l], bits, nfmt)?
                };
                let (word, sh) = ((bit / 32) as usize, bit % 32);
                acc[word] |= v << sh;
                bit += bits;
            }
            for (k, a) in acc.iter().enumerate() {
                buf[4 * k..4 * k + 4].copy_from_slice(&a.to_le_bytes());
            }
            write_bytes(w, c, l, t, &buf[..bytes])?;
        } else {
            read_bytes(w, c, l, t, &mut buf[..bytes])?;
            let words: [u32; 4] = std::array::from_fn(|k| {
                u32::from_le_bytes(buf[4 * k..4 * k + 4].try_into().unwrap())
            });
            let mut bit = 0u32;
            for k in 0..count {
                // Components the format lacks read as 0, and the fourth as 1.
                let float_one = if nfmt == 4 || nfmt == 5 {
                    1
                } else {
                    0x3f80_0000
                };
                let v = match comps.get(k) {
                    Some(&bits) => {
                        let (word, sh) = ((bit / 32) as usize, bit % 32);
                        let mask = if bits == 32 {
                            u32::MAX
                        } else {
                            (1u32 << bits) - 1
                        };
                        bit += bits;
                        unpack((words[word] >> sh) & mask, bits, nfmt)?
                    }
                    None if k == 3 => float_one,
                    None => 0,
                };
                if to_lds {
                    ds::lds_write(c, lds_dma_addr(w, l, 0), &v.to_le_bytes());
                } else if d16 == 0 {
                    w.v[d + k][l] = v;
                } else if d16 == 1 && !packed {
                    // GCN 1.2: one component per VGPR, zero-extended.
                    w.v[d + k][l] = to_d16(v, nfmt);
                } else {
                    // GCN 1.4: the other half of the VGPR is kept.
                    let (r, sh) = slot(k);
                    let old = w.v[r][l] & !(0xffff << sh);
                    w.v[r][l] = old | to_d16(v, nfmt) << sh;
                }
            }
        }
    }
    Ok(())
}

fn flat_target(hi_shared: u32, hi_private: u32, a: u64) -> Target {
    let hi = (a >> 32) as u32;
    if hi == hi_shared {
        Target::Lds(a as u32)
    } else if hi == hi_private {
        Target::Private(a as u32)
    } else {
        Target::Global(a)
    }
}

/// FLAT and GLOBAL: 64-bit VGPR address (or SGPR base + 32-bit VGPR offset) plus the offset.
fn flat(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let va = vgpr(op.src[0]);
    let data = vgpr(op.src[1]);
    let off = i64::from(op.lit as i32) as u64;
    let saddr = op.sd;
    let is_flat = op.instr.info().family == Family::Flat;
    let d = op.d as usize;
    lanes(w, op, c, data, d, |w, l| {
        let a = if saddr != u16::MAX {
            w.s64(saddr as usize)
                .wrapping_add(u64::from(w.v[va][l]))
                .wrapping_add(off)
        } else {
            (u64::from(w.v[va][l]) | u64::from(w.v[va + 1][l]) << 32).wrapping_add(off)
        };
        if is_flat {
            flat_target(SHARED_APERTURE_HI, PRIVATE_APERTURE_HI, a)
        } else {
            Target::Global(a)
        }
    })
}

/// SCRATCH (GCN 1.4): a private address from SADDR or a VGPR, plus the offset.
fn scratch(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let va = vgpr(op.src[0]);
    let data = vgpr(op.src[1]);
    let off = op.lit;
    let saddr = op.sd;
    let d = op.d as usize;
    lanes(w, op, c, data, d, |w, l| {
        let a = if saddr != u16::MAX {
            w.s[saddr as usize & 127]
        } else {
            w.v[va][l]
        };
        Target::Private(a.wrapping_add(off))
    })
}

fn cache_nop(_w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    Ok(())
}

/// The `d16` code of [`Shape`] and `buffer_format`'s `aux`: 0 whole, 1 low, 2 high.
fn half_code(h: Half) -> u8 {
    match h {
        Half::Whole => 0,
        Half::Low => 1,
        Half::High => 2,
    }
}

/// The [`Shape`] of a load or store of `e`.
fn elements_shape(kind: Kind, e: Elements) -> Shape {
    Shape {
        kind,
        bytes: e.bytes,
        n: e.count,
        signed: e.signed,
        d16: half_code(e.half),
        aop: 0,
        wide: false,
    }
}

/// The handler of a vector memory row and its packed [`Shape`] (or
/// `buffer_format`'s `aux`), from the row's [`VectorMem`] (derived from the
/// row by the build).
pub(super) fn lookup(
    info: &OpInfo,
    access: Option<VectorMem>,
) -> Result<(Handler, u32), FaultKind> {
    let unimpl = FaultKind::Unimplemented(info.name);
    let h: Handler = match info.family {
        Family::Mubuf => mubuf,
        Family::Mtbuf => buffer_format,
        Family::Flat | Family::Global => flat,
        Family::Scratch => scratch,
        _ => return Err(unimpl),
    };
    Ok(match access.ok_or(unimpl)? {
        VectorMem::CacheControl => (cache_nop, 0),
        VectorMem::StoreFromLds => (store_lds_dword, 0),
        VectorMem::Format {
            store,
            components,
            half,
        } => {
            let tbuf = u32::from(info.family == Family::Mtbuf);
            let aux = u32::from(components)
                | u32::from(store) << 3
                | tbuf << 4
                | u32::from(half_code(half)) << 5;
            (buffer_format, aux)
        }
        VectorMem::Load(e) => (h, elements_shape(Kind::Load, e).pack()),
        VectorMem::Store(e) => (h, elements_shape(Kind::Store, e).pack()),
        VectorMem::Atomic { op, wide } => {
            let aop = atomic_index(op).ok_or(FaultKind::Unimplemented(info.name))? as u8;
            let s = Shape {
                kind: Kind::Atomic,
                bytes: 4,
                n: if wide { 2 } else { 1 },
                signed: false,
                d16: 0,
                aop,
                wide,
            };
            (h, s.pack())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Swizzled (scratch) addressing by shifts against the ISA documents'
    /// formula with divisions, for every ELEMENT_SIZE and INDEX_STRIDE code.
    #[test]
    fn swizzle_shifts_match_the_documented_divisions() {
        let mut w = Wave::new(0);
        for l in 0..64 {
            w.v[0][l] = (l as u32 * 37) % 300; // index
            w.v[1][l] = (l as u32 * 53) % 1000; // offset
        }
        for es in 0..4u32 {
            for is in 0..4u32 {
                let b = BufAddr {
                    base: 0x1000,
                    stride: 12,
                    num: u64::MAX,
                    swizzle: true,
                    add_tid: es == 2,
                    elem_log2: 1 + es,
                    index_stride_log2: 3 + is,
                    soff: 64,
                    inst_off: 4,
                    offen: true,
                    idxen: true,
                    addr64: false,
                    va: 0,
                    dfmt: 0,
                    nfmt: 0,
                };
                let (elem, istride) = (2u64 << es, 8u64 << is);
                for l in 0..64 {
                    let idx = u64::from(w.v[0][l]) + if b.add_tid { l as u64 } else { 0 };
                    let off = u64::from(w.v[1][l]) + 4;
                    let want = 0x1000
                        + 64
                        + (idx / istride * 12 + off / elem * elem) * istride
                        + idx % istride * elem
                        + off % elem;
                    match b.target(&w, l, 4) {
                        Target::Global(a) => assert_eq!(a, want, "es {es} is {is} lane {l}"),
                        _ => panic!("lane {l}: not a device address"),
                    }
                }
            }
        }
    }
}
