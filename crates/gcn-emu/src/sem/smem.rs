//! Scalar memory: SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2/1.4) loads, stores,
//! buffer loads through a V#, scalar atomics, cache controls and timers.

use super::vmem::ATOMICS;
use super::{Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::mem::AtomicOp;
use crate::program::Op;
use crate::wave::Wave;
use risa_gcn::semantics::ScalarMem;
use risa_gcn::table::{OpInfo, Role};

/// The byte address of a scalar access (the low two bits are ignored by the hardware).
fn address(w: &Wave, op: &Op) -> u64 {
    let base = w.s64(op.sd as usize) & 0x0000_ffff_ffff_ffff;
    let off = u64::from(op.lit) + u64::from(w.sread32(op.src[1]));
    base.wrapping_add(off) & !3
}

/// The byte address of `s_scratch_*` (GCN 1.4, GcnInstrsSmem.md
/// S_SCRATCH_LOAD_DWORD): SBASE (the wave's scratch base, normally
/// FLAT_SCRATCH) + OFFSET + SOFFSET * 64, both offsets dword-aligned. The SGPR
/// offset counts per lane of the swizzled private segment, hence the 64.
fn scratch_address(w: &Wave, op: &Op) -> u64 {
    let base = w.s64(op.sd as usize) & 0x0000_ffff_ffff_ffff;
    let off = u64::from(op.lit & !3) + u64::from(w.sread32(op.src[1]) & !3) * 64;
    base.wrapping_add(off)
}

fn dst_range(op: &Op, n: usize) -> Result<usize, FaultKind> {
    let d = op.d as usize;
    if d + n > 128 {
        return Err(FaultKind::BadOperand(format!(
            "s{d}..s{} is past the scalar registers",
            d + n - 1
        )));
    }
    Ok(d)
}

fn s_load(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = address(w, op);
    load_at(w, op, c, a)
}

fn s_scratch_load(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = scratch_address(w, op);
    load_at(w, op, c, a)
}

/// Loads `op.aux` dwords at `a` into the destination SGPRs (bounds-checked by
/// the device memory: an address outside every allocation faults).
fn load_at(w: &mut Wave, op: &Op, c: &mut Ctx, a: u64) -> R {
    let n = op.aux as usize;
    let d = dst_range(op, n)?;
    let mut buf = [0u8; 64];
    c.mem
        .read(a, &mut buf[..4 * n])
        .map_err(|e| FaultKind::memory(None, e, false))?;
    for k in 0..n {
        w.s[d + k] = u32::from_le_bytes(buf[4 * k..4 * k + 4].try_into().unwrap());
    }
    c.stats.bytes_read += 4 * n as u64;
    Ok(())
}

/// The V# of a scalar buffer access: (base, num_records).
fn vsharp(w: &Wave, op: &Op) -> (u64, u32) {
    let r = op.sd as usize;
    let base = u64::from(w.s[r & 127]) | (u64::from(w.s[(r + 1) & 127] & 0xffff) << 32);
    (base, w.s[(r + 2) & 127])
}

fn s_buffer_load(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let n = op.aux as usize;
    let d = dst_range(op, n)?;
    let (base, num) = vsharp(w, op);
    let off = (op.lit.wrapping_add(w.sread32(op.src[1]))) & !3;
    for k in 0..n {
        let o = off.wrapping_add(4 * k as u32);
        // Dwords past NUM_RECORDS read as zero.
        w.s[d + k] = if o >= num {
            0
        } else {
            c.mem
                .read_u32(base.wrapping_add(u64::from(o)))
                .map_err(|e| FaultKind::memory(None, e, false))?
        };
    }
    c.stats.bytes_read += 4 * n as u64;
    Ok(())
}

fn s_store(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = address(w, op);
    store_at(w, op, c, a)
}

fn s_scratch_store(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = scratch_address(w, op);
    store_at(w, op, c, a)
}

/// Stores `op.aux` dwords of the data SGPRs at `a` (bounds-checked).
fn store_at(w: &mut Wave, op: &Op, c: &mut Ctx, a: u64) -> R {
    let n = op.aux as usize;
    let d = dst_range(op, n)?;
    let mut buf = [0u8; 64];
    for k in 0..n {
        buf[4 * k..4 * k + 4].copy_from_slice(&w.s[d + k].to_le_bytes());
    }
    c.mem
        .write(a, &buf[..4 * n])
        .map_err(|e| FaultKind::memory(None, e, true))?;
    c.stats.bytes_written += 4 * n as u64;
    Ok(())
}

fn s_memtime(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    // A deterministic clock: the wave's instruction count.
    let t = w.count;
    w.set_s64(op.d as usize, t);
    Ok(())
}

fn nop(_w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    Ok(())
}

/// The address of a scalar buffer access (V# base + offset), checked against
/// NUM_RECORDS (None when out of range: the access is dropped).
fn buffer_address(w: &Wave, op: &Op, bytes: u32) -> Option<u64> {
    let (base, num) = vsharp(w, op);
    let off = op.lit.wrapping_add(w.sread32(op.src[1])) & !3;
    (u64::from(off) + u64::from(bytes) <= u64::from(num)).then(|| base.wrapping_add(u64::from(off)))
}

fn s_buffer_store(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    dst_range(op, op.aux as usize)?;
    let Some(a) = buffer_address(w, op, 4 * op.aux) else {
        return Ok(());
    };
    store_at(w, op, c, a)
}

fn s_atomic(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let wide = op.aux & 0x100 != 0;
    let aop = ATOMICS[(op.aux & 0xff) as usize].1;
    let a = if op.aux & 0x200 != 0 {
        match buffer_address(w, op, if wide { 8 } else { 4 }) {
            Some(a) => a,
            None => return Ok(()),
        }
    } else {
        address(w, op)
    };
    let d = op.d as usize;
    let (data, cmp) = match (aop, wide) {
        (AtomicOp::CmpSwap, false) => (u64::from(w.s[d & 127]), u64::from(w.s[(d + 1) & 127])),
        (AtomicOp::CmpSwap, true) => (w.s64(d), w.s64(d + 2)),
        (_, false) => (u64::from(w.s[d & 127]), 0),
        (_, true) => (w.s64(d), 0),
    };
    let bits = if wide { 64 } else { 32 };
    let old = c
        .mem
        .atomic(a, bits, aop, data, cmp)
        .map_err(|e| FaultKind::memory(None, e, true))?;
    if op.instr.field(risa_gcn::Field::Glc) != 0 {
        if wide {
            w.set_s64(d, old);
        } else {
            w.s[d & 127] = old as u32;
        }
    }
    Ok(())
}

/// The handler of scalar memory row `info` and its data (dword count /
/// atomic kind), from the row's [`ScalarMem`] (derived from the row by the
/// build).
pub(super) fn lookup(
    info: &OpInfo,
    access: Option<ScalarMem>,
) -> Result<(Handler, u32), FaultKind> {
    // the data width: the D operand's (loads name it in the destination,
    // stores in the data operand, both role D)
    let n = info.operand(Role::D).map(|o| o.ty.dwords()).unwrap_or(1);
    let h: Handler = match access.ok_or(FaultKind::Unimplemented(info.name))? {
        ScalarMem::Atomic { op, wide, buffer } => {
            let k = ATOMICS
                .iter()
                .position(|(_, o)| *o == op)
                .ok_or(FaultKind::Unimplemented(info.name))?;
            return Ok((
                s_atomic,
                k as u32 | (wide as u32) << 8 | (buffer as u32) << 9,
            ));
        }
        ScalarMem::Load => s_load,
        ScalarMem::BufferLoad => s_buffer_load,
        ScalarMem::Store => s_store,
        ScalarMem::BufferStore => s_buffer_store,
        ScalarMem::ScratchLoad => s_scratch_load,
        ScalarMem::ScratchStore => s_scratch_store,
        ScalarMem::Time => s_memtime,
        ScalarMem::CacheControl => nop,
    };
    Ok((h, n))
}
