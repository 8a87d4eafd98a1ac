//! LDS (DS encoding): reads, writes, read2/write2, atomics with and without
//! return, swizzle and permute. Addresses outside the work-group's LDS read
//! as 0 and drop writes, as the hardware does.

use super::vmem::{atomic_index, ATOMICS};
use super::{Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::mem::{active_lanes, AtomicApply, AtomicOp};
use crate::program::{Cat, Op, Src};
use crate::wave::{Wave, M0};
use risa_gcn::semantics::{Elements, Half, LdsAtomic, LdsOp};
use risa_gcn::table::OpInfo;
use risa_gcn::{Field, Gen};

/// The memory a DS instruction reaches: the work-group's LDS, or the GDS
/// window M0 gives the wave. Addresses are relative to the window; an access
/// not wholly inside the window (`limit` bytes) or the memory reads as 0 and
/// writes nothing (GcnInstrsDs.md: M0 bounds LDS and GDS accesses).
pub(super) struct Space<'m> {
    mem: &'m mut [u8],
    base: u64,
    limit: u64,
    /// Bytes moved, for the statistics.
    moved: u64,
}

impl<'m> Space<'m> {
    /// LDS with no window limit (FLAT, MUBUF LDS=1, GCN 1.4 DS).
    pub(super) fn lds(mem: &'m mut [u8]) -> Space<'m> {
        Space {
            mem,
            base: 0,
            limit: u64::MAX,
            moved: 0,
        }
    }

    /// The byte range of an access of `size` bytes at window address `a`.
    #[inline(always)]
    fn range(&self, a: u32, size: usize) -> Option<std::ops::Range<usize>> {
        let end = u64::from(a) + size as u64;
        if end > self.limit {
            return None;
        }
        let start = self.base + u64::from(a);
        let end = self.base + end;
        if end > self.mem.len() as u64 {
            return None;
        }
        Some(start as usize..end as usize)
    }

    /// Whether an access of `size` bytes at `a` reaches memory.
    #[inline(always)]
    fn inside(&self, a: u32, size: usize) -> bool {
        self.range(a, size).is_some()
    }

    pub(super) fn read(&mut self, a: u32, buf: &mut [u8]) {
        match self.range(a, buf.len()) {
            Some(r) => buf.copy_from_slice(&self.mem[r]),
            None => buf.fill(0),
        }
        self.moved += buf.len() as u64;
    }

    pub(super) fn write(&mut self, a: u32, data: &[u8]) {
        if let Some(r) = self.range(a, data.len()) {
            self.mem[r].copy_from_slice(data);
        }
        self.moved += data.len() as u64;
    }

    /// Read-modify-write of a `bits`-wide value; returns the old value.
    pub(super) fn rmw(&mut self, a: u32, bits: u32, f: impl FnOnce(u64) -> u64) -> u64 {
        let n = (bits / 8) as usize;
        let mut b = [0u8; 8];
        self.read(a, &mut b[..n]);
        let old = u64::from_le_bytes(b);
        self.write(a, &f(old).to_le_bytes()[..n]);
        old
    }

    pub(super) fn atomic(&mut self, a: u32, bits: u32, op: AtomicOp, data: u64, cmp: u64) -> u64 {
        self.rmw(a, bits, |old| op.apply(old, data, cmp, bits))
    }
}

/// Reads LDS bytes (0 outside the allocation).
pub(super) fn lds_read(c: &mut Ctx, a: u32, buf: &mut [u8]) {
    let mut s = Space::lds(c.lds);
    s.read(a, buf);
    c.stats.lds_bytes += s.moved;
}

/// Writes LDS bytes (dropped outside the allocation).
pub(super) fn lds_write(c: &mut Ctx, a: u32, data: &[u8]) {
    let mut s = Space::lds(c.lds);
    s.write(a, data);
    c.stats.lds_bytes += s.moved;
}

/// An atomic on LDS (waves of a group run on one thread, so no locking).
pub(super) fn lds_atomic(c: &mut Ctx, a: u32, bits: u32, op: AtomicOp, data: u64, cmp: u64) -> u64 {
    let mut s = Space::lds(c.lds);
    let old = s.atomic(a, bits, op, data, cmp);
    c.stats.lds_bytes += s.moved;
    old
}

/// Runs `body` on the memory the instruction addresses: GDS (GDS=1; the lock
/// is held for the whole instruction, so its lanes are atomic as a group) or
/// the work-group's LDS.
fn with_space(
    w: &mut Wave,
    op: &Op,
    c: &mut Ctx,
    body: impl FnOnce(&mut Wave, &mut Space) -> R,
) -> R {
    let m0 = w.s[M0];
    if op.instr.field(Field::Gds) != 0 {
        let g = c.gds.ok_or_else(|| {
            FaultKind::BadOperand("gds: this context has no global data share".into())
        })?;
        let mut st = g.lock();
        let mut s = Space {
            mem: &mut st.mem,
            base: u64::from(m0 >> 16),
            limit: u64::from(m0 & 0xffff),
            moved: 0,
        };
        let r = body(w, &mut s);
        c.stats.lds_bytes += s.moved;
        return r;
    }
    // GCN 1.0-1.2 clamp LDS addresses to the size in M0 (kernels set M0 = -1).
    let limit = if m0_limits_lds(op.instr.gen) {
        u64::from(m0)
    } else {
        u64::MAX
    };
    let mut s = Space {
        mem: c.lds,
        base: 0,
        limit,
        moved: 0,
    };
    let r = body(w, &mut s);
    c.stats.lds_bytes += s.moved;
    r
}

/// Whether M0 limits LDS addresses in `gen` (GCN 1.0-1.2; GCN 1.4 dropped it).
fn m0_limits_lds(gen: Gen) -> bool {
    !gen.has(risa_gcn::Feature::Gfx9Insts)
}

#[inline(always)]
fn vreg(s: Src) -> usize {
    match s {
        Src::V(r) => r as usize,
        _ => 0,
    }
}

/// A lane's source operands, read once before the instruction writes any of
/// its destinations (the hardware reads every source at issue: LLVM reuses
/// the address VGPR as a destination, e.g. `ds_read2_b32 v[3:4], v3`). Every
/// DS form that works lane by lane takes its address and data from here only.
#[derive(Clone, Copy)]
struct LaneSrc {
    addr: u32,
    data0: [u32; 4],
    data1: [u32; 4],
}

impl LaneSrc {
    /// Lane `l`'s ADDR and `n` dwords (at most 4) of DATA0 and DATA1.
    #[inline(always)]
    fn read(w: &Wave, op: &Op, l: usize, n: usize) -> LaneSrc {
        let mut s = LaneSrc {
            addr: w.v[vreg(op.src[0])][l],
            data0: [0; 4],
            data1: [0; 4],
        };
        let (d0, d1) = (vreg(op.src[1]), vreg(op.src[2]));
        for k in 0..n.min(4) {
            s.data0[k] = w.v[d0 + k][l];
            s.data1[k] = w.v[d1 + k][l];
        }
        s
    }

    /// DATA0 (`k` = 0) or DATA1 as a 32- or 64-bit value.
    #[inline(always)]
    fn data(&self, k: usize, wide: bool) -> u64 {
        let d = if k == 0 { &self.data0 } else { &self.data1 };
        if wide {
            u64::from(d[0]) | u64::from(d[1]) << 32
        } else {
            u64::from(d[0])
        }
    }
}

// aux layout: bits 0-2 kind (0 read, 1 write, 2 read2, 3 write2, 4 atomic, 5 swizzle,
// 6 permute, 7 bpermute), 3-7 bytes per element, 8 signed, 9-10 d16, 11 st64, 12 rtn,
// 13-17 atomic (`atomic_code`), 18 wide, 19-21 element count.
fn aux_kind(a: u32) -> u32 {
    a & 7
}
fn aux_bytes(a: u32) -> u32 {
    (a >> 3) & 0x1f
}

/// How one lane of a DS instruction touches LDS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LdsAccess {
    /// The lane.
    pub lane: usize,
    /// First byte.
    pub addr: u32,
    /// Bytes.
    pub bytes: u32,
    /// The lane reads those bytes.
    pub read: bool,
    /// The lane writes them.
    pub write: bool,
    /// An atomic read-modify-write.
    pub atomic: bool,
}

/// The LDS bytes `op` touches in each active lane of `w`, read before it runs
/// (checkers track them; the address arithmetic is the handlers' own: the
/// layout of `op.aux` lives here). GDS forms, swizzles and permutes (no LDS
/// memory) and the rare forms of `ds_misc_mem` yield nothing.
pub fn lds_footprint(w: &Wave, op: &Op, mut f: impl FnMut(LdsAccess)) {
    if op.cat != Cat::Lds || op.instr.field(Field::Gds) != 0 || op.aux >> 24 != 0 {
        return;
    }
    let a = op.aux;
    let kind = aux_kind(a);
    let bytes = aux_bytes(a);
    let n = (a >> 19) & 7;
    let wide = a >> 18 & 1 != 0;
    let i = op.instr;
    let e = w.exec();
    let addr_reg = vreg(op.src[0]);
    let unit = bytes * if a >> 11 & 1 != 0 { 64 } else { 1 };
    if kind > 4 || (kind < 4 && bytes == 0) {
        // Swizzles, permutes, and GWS rows (which have no element size).
        return;
    }
    for l in active_lanes(e) {
        let base = w.v[addr_reg][l];
        let mut at = |off: u32, bytes: u32, read: bool, write: bool, atomic: bool| {
            f(LdsAccess {
                lane: l,
                addr: base.wrapping_add(off),
                bytes,
                read,
                write,
                atomic,
            })
        };
        match kind {
            0 | 1 => at(
                i.field(Field::Offset),
                bytes * n,
                kind == 0,
                kind == 1,
                false,
            ),
            2 | 3 => {
                for o in [Field::Offset0, Field::Offset1] {
                    at(i.field(o) * unit, bytes, kind == 2, kind == 3, false);
                }
            }
            _ => at(i.field(Field::Offset), 4 << wide as u32, true, true, true),
        }
    }
}

fn ds_op(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    match aux_kind(op.aux) {
        5 => {
            ds_swizzle(w, op);
            Ok(())
        }
        6 | 7 => {
            ds_permute(w, op, aux_kind(op.aux) == 7);
            Ok(())
        }
        _ => with_space(w, op, c, |w, s| ds_mem(w, op, s)),
    }
}

/// Reads, writes, read2/write2 and atomics on LDS or GDS.
fn ds_mem(w: &mut Wave, op: &Op, sp: &mut Space) -> R {
    let a = op.aux;
    let kind = aux_kind(a);
    let bytes = aux_bytes(a);
    let signed = a >> 8 & 1 != 0;
    let d16 = (a >> 9) & 3;
    let st64 = a >> 11 & 1 != 0;
    let rtn = a >> 12 & 1 != 0;
    let wide = a >> 18 & 1 != 0;
    let n = (a >> 19) & 7;
    let e = w.exec();
    let i = op.instr;
    let vd = op.d as usize;
    // DATA dwords a lane reads: a write's elements, a write2's element, an atomic's operand.
    let nd = match kind {
        1 if bytes >= 4 => (bytes * n / 4) as usize,
        1 => 1,
        3 => (bytes / 4) as usize,
        0 | 2 => 0,
        _ => 1 + wide as usize,
    };
    match kind {
        0 | 1 => {
            let off = i.field(Field::Offset);
            let size = bytes * n;
            for l in active_lanes(e) {
                let src = LaneSrc::read(w, op, l, nd);
                let addr = src.addr.wrapping_add(off);
                if kind == 0 {
                    let mut buf = [0u8; 16];
                    sp.read(addr, &mut buf[..size as usize]);
                    if bytes >= 4 {
                        for k in 0..n as usize {
                            w.v[vd + k][l] =
                                u32::from_le_bytes(buf[4 * k..4 * k + 4].try_into().unwrap());
                        }
                    } else {
                        let raw = if bytes == 1 {
                            u32::from(buf[0])
                        } else {
                            u32::from(u16::from_le_bytes([buf[0], buf[1]]))
                        };
                        let s = 32 - 8 * bytes;
                        let v = if signed {
                            (((raw << s) as i32) >> s) as u32
                        } else {
                            raw
                        };
                        let old = w.v[vd][l];
                        w.v[vd][l] = match d16 {
                            0 => v,
                            1 => (old & 0xffff_0000) | (v & 0xffff),
                            _ => (old & 0xffff) | (v << 16),
                        };
                    }
                } else {
                    let mut buf = [0u8; 16];
                    if bytes >= 4 {
                        for k in 0..n as usize {
                            buf[4 * k..4 * k + 4].copy_from_slice(&src.data0[k].to_le_bytes());
                        }
                    } else {
                        let v = src.data0[0] >> if d16 == 2 { 16 } else { 0 };
                        buf[..4].copy_from_slice(&v.to_le_bytes());
                    }
                    sp.write(addr, &buf[..size as usize]);
                }
            }
        }
        2 | 3 => {
            // read2/write2: two elements at OFFSET0 and OFFSET1 (in elements, x64 for st64).
            let unit = bytes * if st64 { 64 } else { 1 };
            let o0 = i.field(Field::Offset0) * unit;
            let o1 = i.field(Field::Offset1) * unit;
            let dw = (bytes / 4) as usize;
            for l in active_lanes(e) {
                let src = LaneSrc::read(w, op, l, nd);
                for (k, o) in [o0, o1].into_iter().enumerate() {
                    let addr = src.addr.wrapping_add(o);
                    let mut buf = [0u8; 8];
                    if kind == 2 {
                        sp.read(addr, &mut buf[..bytes as usize]);
                        for j in 0..dw {
                            w.v[vd + k * dw + j][l] =
                                u32::from_le_bytes(buf[4 * j..4 * j + 4].try_into().unwrap());
                        }
                    } else {
                        let data = if k == 0 { &src.data0 } else { &src.data1 };
                        for j in 0..dw {
                            buf[4 * j..4 * j + 4].copy_from_slice(&data[j].to_le_bytes());
                        }
                        sp.write(addr, &buf[..bytes as usize]);
                    }
                }
            }
        }
        _ => {
            let at = aux_atomic(a);
            let off = i.field(Field::Offset);
            let bits = if wide { 64 } else { 32 };
            for l in active_lanes(e) {
                let src = LaneSrc::read(w, op, l, nd);
                let (x, y) = (src.data(0, wide), src.data(1, wide));
                let addr = src.addr.wrapping_add(off);
                let mask = if wide { u64::MAX } else { 0xffff_ffff };
                let old = sp.rmw(addr, bits, |old| match at {
                    LdsAtomic::Mem(m) => m.apply(old, x, 0, bits),
                    LdsAtomic::MaskOr => (old & !x) | y,
                    // GcnInstrsDs.md DS_WRAP_RTN_B32: subtract DATA0 while
                    // the value is at least DATA0, else add DATA1.
                    LdsAtomic::Wrap => {
                        if old >= x {
                            old - x
                        } else {
                            old.wrapping_add(y) & mask
                        }
                    }
                    LdsAtomic::CmpStore => {
                        if old == x {
                            y
                        } else {
                            old
                        }
                    }
                    LdsAtomic::FCmpStore => {
                        let f = |v: u64| {
                            if wide {
                                f64::from_bits(v)
                            } else {
                                f64::from(f32::from_bits(v as u32))
                            }
                        };
                        if f(old) == f(x) {
                            y
                        } else {
                            old
                        }
                    }
                });
                if rtn {
                    w.v[vd][l] = old as u32;
                    if wide {
                        w.v[vd + 1][l] = (old >> 32) as u32;
                    }
                }
            }
        }
    }
    Ok(())
}

fn ds_misc(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    with_space(w, op, c, |w, s| ds_misc_mem(w, op, s))
}

/// The less common DS forms, told apart by `aux >> 24`: wrxchg2 (1), src2
/// atomics (2), append (3), consume (4), read_addtid (5), write_addtid (6),
/// condxchg32 (7; element count in bits 19-21).
fn ds_misc_mem(w: &mut Wave, op: &Op, sp: &mut Space) -> R {
    let a = op.aux;
    let form = a >> 24;
    let wide = a >> 18 & 1 != 0;
    let st64 = a >> 11 & 1 != 0;
    let e = w.exec();
    let i = op.instr;
    let vd = op.d as usize;
    let bytes = if wide { 8 } else { 4 };
    let dw = bytes / 4;
    match form {
        1 => {
            let unit = bytes as u32 * if st64 { 64 } else { 1 };
            let offs = [
                i.field(Field::Offset0) * unit,
                i.field(Field::Offset1) * unit,
            ];
            for l in active_lanes(e) {
                let src = LaneSrc::read(w, op, l, dw);
                for (k, o) in offs.into_iter().enumerate() {
                    let new = src.data(k, wide);
                    let addr = src.addr.wrapping_add(o);
                    let old = if sp.inside(addr, bytes) {
                        sp.atomic(addr, 8 * bytes as u32, AtomicOp::Swap, new, 0)
                    } else {
                        0
                    };
                    for j in 0..dw {
                        w.v[vd + k * dw + j][l] = (old >> (32 * j)) as u32;
                    }
                }
            }
        }
        2 => {
            let at = aux_atomic(a);
            let off = i.field(Field::Offset);
            for l in active_lanes(e) {
                let addr = LaneSrc::read(w, op, l, 0).addr;
                // GcnInstrsDs.md, DS_ADD_SRC2_U32: A and the stride to B.
                let (base, stride) = if off & 0x8000 != 0 {
                    (addr & 0x1fffc, (addr >> 17) | ((addr >> 16) & 0x8000))
                } else {
                    (addr & !3, (off & 0x7fff) | ((off << 1) & 0x8000))
                };
                let b = base.wrapping_add(stride.wrapping_mul(bytes as u32));
                let mut buf = [0u8; 8];
                sp.read(b, &mut buf[..bytes]);
                let src = u64::from_le_bytes(buf);
                match at {
                    LdsAtomic::Mem(m) => {
                        sp.atomic(base, 8 * bytes as u32, m, src, 0);
                    }
                    _ => return Err(FaultKind::Unimplemented(op.instr.info().name)),
                }
            }
        }
        3 | 4 => {
            let ad = i.field(Field::Offset) & !3;
            let n = u64::from(e.count_ones());
            let op_kind = if form == 3 {
                AtomicOp::Add
            } else {
                AtomicOp::Sub
            };
            let old = sp.atomic(ad, 32, op_kind, n, 0) as u32;
            let d = [old; 64];
            w.vwrite32(vd, &d, e);
        }
        5 | 6 => {
            let base = (w.s[M0] & 0xffff).wrapping_add(i.field(Field::Offset));
            for l in active_lanes(e) {
                let ad = base.wrapping_add(4 * l as u32);
                if form == 5 {
                    let mut b = [0u8; 4];
                    sp.read(ad, &mut b);
                    w.v[vd][l] = u32::from_le_bytes(b);
                } else {
                    let b = LaneSrc::read(w, op, l, 1).data0[0].to_le_bytes();
                    sp.write(ad, &b);
                }
            }
        }
        _ => {
            // ds_condxchg32_rtn_b64/b128: per dword k at ADDR+OFFSET+4k, return
            // the old value; if bit 31 of DATA[k] is set, store DATA[k] with
            // bit 31 cleared (AMD ISA description; not in the CLRX pages).
            let n = ((a >> 19) & 7) as usize;
            let off = i.field(Field::Offset);
            for l in active_lanes(e) {
                let src = LaneSrc::read(w, op, l, n);
                let base = src.addr.wrapping_add(off);
                for k in 0..n {
                    let x = src.data0[k];
                    let addr = base.wrapping_add(4 * k as u32);
                    let old = sp.rmw(addr, 32, |old| {
                        if x >> 31 != 0 {
                            u64::from(x & 0x7fff_ffff)
                        } else {
                            old
                        }
                    });
                    w.v[vd + k][l] = old as u32;
                }
            }
        }
    }
    Ok(())
}

/// ds_swizzle_b32: lane data exchange without LDS, per the OFFSET pattern
/// (bit 15 set: quad permute; clear: and/or/xor masks on the lane id within 32).
fn ds_swizzle(w: &mut Wave, op: &Op) {
    let off = op.instr.field(Field::Offset);
    let src = w.v[vreg(op.src[0])];
    let e = w.exec();
    let mut d = [0u32; 64];
    for (l, dl) in d.iter_mut().enumerate() {
        let from = if off & 0x8000 != 0 {
            let sel = (off >> (2 * (l & 3))) & 3;
            (l & !3) | sel as usize
        } else {
            let and = (off & 0x1f) as usize;
            let or = ((off >> 5) & 0x1f) as usize;
            let xor = ((off >> 10) & 0x1f) as usize;
            (l & 0x20) | ((((l & 0x1f) & and) | or) ^ xor)
        };
        *dl = if e >> from & 1 != 0 { src[from] } else { 0 };
    }
    let vd = op.d as usize;
    w.vwrite32(vd, &d, e);
}

/// ds_permute_b32 (push to lane addr/4) and ds_bpermute_b32 (pull from lane addr/4).
fn ds_permute(w: &mut Wave, op: &Op, backward: bool) {
    let off = op.instr.field(Field::Offset);
    let addr = w.v[vreg(op.src[0])];
    let data = w.v[vreg(op.src[1])];
    let e = w.exec();
    let mut d = [0u32; 64];
    for l in active_lanes(e) {
        let t = ((addr[l].wrapping_add(off) >> 2) & 63) as usize;
        if backward {
            d[l] = if e >> t & 1 != 0 { data[t] } else { 0 };
        } else {
            d[t] = data[l];
        }
    }
    let vd = op.d as usize;
    w.vwrite32(vd, &d, e);
}

fn ds_nop(_w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    Ok(())
}

/// `aux` bits 13-17 of an atomic: the index of a memory atomic in
/// [`ATOMICS`], or one of these for the DS-only ones.
const MASK_OR: u32 = 28;
const CMP_STORE: u32 = 29;
const FCMP_STORE: u32 = 30;
const WRAP: u32 = 31;
// The DS-only codes stay clear of the memory atomics' indices.
const _: () = assert!(ATOMICS.len() <= MASK_OR as usize);

/// The `aux` code of atomic `at` (bits 13-17).
fn atomic_code(at: LdsAtomic) -> Option<u32> {
    Some(match at {
        LdsAtomic::Mem(m) => atomic_index(m)?,
        LdsAtomic::MaskOr => MASK_OR,
        LdsAtomic::CmpStore => CMP_STORE,
        LdsAtomic::FCmpStore => FCMP_STORE,
        LdsAtomic::Wrap => WRAP,
    })
}

/// The atomic of `aux` (see [`atomic_code`]).
#[inline(always)]
fn aux_atomic(a: u32) -> LdsAtomic {
    match (a >> 13) & 0x1f {
        MASK_OR => LdsAtomic::MaskOr,
        CMP_STORE => LdsAtomic::CmpStore,
        FCMP_STORE => LdsAtomic::FCmpStore,
        WRAP => LdsAtomic::Wrap,
        i => LdsAtomic::Mem(ATOMICS[i as usize].1),
    }
}

/// The handler of a DS row and its packed description, from the row's
/// [`LdsOp`] (derived from the row by the build).
pub(super) fn lookup(info: &OpInfo, access: Option<LdsOp>) -> Result<(Handler, u32), FaultKind> {
    let unimpl = || FaultKind::Unimplemented(info.name);
    let access = access.ok_or_else(unimpl)?;
    let wide = |w: bool| u32::from(w) << 18;
    let st64 = |s: bool| u32::from(s) << 11;
    let pack = |kind: u32, bytes: u32, n: u32| kind | bytes << 3 | n << 19;
    let elem = |e: Elements| {
        let d16 = match e.half {
            Half::Whole => 0,
            Half::Low => 1,
            Half::High => 2,
        };
        u32::from(e.bytes) << 3 | u32::from(e.count) << 19 | u32::from(e.signed) << 8 | d16 << 9
    };
    let pair_bytes = |w: bool| if w { 8 } else { 4 };
    Ok(match access {
        LdsOp::Gws(g) => (super::gws::lookup(g), 0),
        LdsOp::OrderedCount => (super::gws::ordered_count, 0),
        LdsOp::Nop => (ds_nop, 0),
        LdsOp::CondExchange { dwords } => (ds_misc, 7 << 24 | u32::from(dwords) << 19),
        LdsOp::Append => (ds_misc, 3 << 24),
        LdsOp::Consume => (ds_misc, 4 << 24),
        LdsOp::ReadAddTid => (ds_misc, 5 << 24),
        LdsOp::WriteAddTid => (ds_misc, 6 << 24),
        LdsOp::Exchange2 { wide: w, st64: s } => (ds_misc, 1 << 24 | wide(w) | st64(s)),
        LdsOp::Src2 { op, wide: w } => (
            ds_misc,
            2 << 24 | wide(w) | atomic_index(op).ok_or_else(unimpl)? << 13,
        ),
        LdsOp::Read(e) => (ds_op, elem(e)),
        LdsOp::Write(e) => (ds_op, 1 | elem(e) & !(1 << 8)),
        LdsOp::Read2 { wide: w, st64: s } => (ds_op, pack(2, pair_bytes(w), 1) | st64(s)),
        LdsOp::Write2 { wide: w, st64: s } => (ds_op, pack(3, pair_bytes(w), 1) | st64(s)),
        LdsOp::Swizzle => (ds_op, 5),
        LdsOp::Permute => (ds_op, 6),
        LdsOp::BPermute => (ds_op, 7),
        LdsOp::Atomic { op, wide: w, ret } => (
            ds_op,
            4 | 4 << 3 | u32::from(ret) << 12 | atomic_code(op).ok_or_else(unimpl)? << 13 | wide(w),
        ),
    })
}
