//! The r600 compute ABI on the host side: constant buffer 0 laid out the
//! way Mesa's r600 compute path does (ABI-NOTES) — group counts, global
//! size, local size, the explicit arguments from dword 9, then libclc's
//! implicit block (work_dim, global offset x, y, z) — and the dynamic LDS
//! that `__local` pointer arguments allocate. GCN's counterpart is the
//! kernarg segment `gcn_launch::prepare` writes.

use risa_cayman_emu::{Dispatch, Fault, GlobalMemory, Kernel, Stats};

/// One kernel argument, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// 32-bit integer (int, uint, also `size_t` on r600).
    U32(u32),
    /// 32-bit float.
    F32(f32),
    /// 64-bit value (long, double), 8-byte aligned counting from the first
    /// explicit argument (dword 9 of the constant buffer).
    U64(u64),
    /// `__global` pointer: byte offset in the global pool.
    Ptr(u32),
    /// `__local` pointer: the runtime allocates this many bytes of LDS after
    /// the static LDS and passes the buffer's LDS byte address.
    Local(u32),
    /// Any by-value argument as bytes (a `char`, a `short`, a vector, a
    /// struct) with its alignment: LLVM's r600 back end lays the explicit
    /// arguments out as the data layout does, each at its ABI alignment
    /// counted from the first explicit argument, a `char` in one byte
    /// (ABI-NOTES).
    Bytes(Vec<u8>, u32),
}

/// The `__local` arguments ask for more LDS than a 32-bit address holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("LDS size overflows")]
pub struct LdsOverflow;

/// Build constant buffer 0 for a launch of `k` over `d`'s grid: group
/// counts, global size, local size, the explicit arguments from dword 9,
/// then libclc's implicit block (work_dim, global offset x, y, z). Returns
/// (dwords, dynamic LDS bytes).
pub fn build_cb0(k: &Kernel, d: &Dispatch, args: &[Arg]) -> Result<(Vec<u32>, u32), LdsOverflow> {
    let mut b: Vec<u8> = Vec::new();
    let groups: Vec<u32> = (0..3)
        .map(|i| d.grid[i].div_ceil(d.block[i].max(1)))
        .collect();
    for v in groups.iter().chain(d.grid.iter()).chain(d.block.iter()) {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let mut lds_top = k.lds_bytes;
    for a in args {
        if matches!(a, Arg::U32(_) | Arg::Ptr(_) | Arg::F32(_) | Arg::Local(_)) {
            pad_to(&mut b, 4);
        }
        match a {
            Arg::U32(v) | Arg::Ptr(v) => b.extend_from_slice(&v.to_le_bytes()),
            Arg::F32(v) => b.extend_from_slice(&v.to_bits().to_le_bytes()),
            Arg::U64(v) => {
                // Natural alignment counts from the first explicit argument
                // (dword 9), not from the start of the buffer: LLVM's r600
                // back end puts a `long` after one pointer at KC0[2].W.
                pad_to(&mut b, 8);
                b.extend_from_slice(&v.to_le_bytes());
            }
            Arg::Bytes(v, align) => {
                pad_to(&mut b, (*align).max(1) as usize);
                b.extend_from_slice(v);
            }
            Arg::Local(n) => {
                lds_top = lds_top.next_multiple_of(4);
                b.extend_from_slice(&lds_top.to_le_bytes());
                lds_top = lds_top.checked_add(*n).ok_or(LdsOverflow)?;
            }
        }
    }
    // libclc's implicit block starts at the next dword.
    pad_to(&mut b, 4);
    for v in [d.work_dim, d.offset[0], d.offset[1], d.offset[2]] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    while !b.len().is_multiple_of(16) {
        b.push(0);
    }
    let words = b
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((words, lds_top - k.lds_bytes))
}

/// Byte offset of the first explicit argument in constant buffer 0.
const EXPLICIT_START: usize = 36;

/// Pads the constant buffer so that the next argument is `align`-aligned
/// counting from the first explicit argument.
fn pad_to(b: &mut Vec<u8>, align: usize) {
    while !(b.len() - EXPLICIT_START).is_multiple_of(align) {
        b.push(0);
    }
}

/// Binds `args` to the dispatch `d` of `k`: constant buffer 0 and the
/// dynamic LDS of its `__local` arguments.
pub fn bind(k: &Kernel, d: &mut Dispatch, args: &[Arg]) -> Result<(), LdsOverflow> {
    let (cb0, dynamic_lds) = build_cb0(k, d, args)?;
    d.constants = vec![cb0];
    d.dynamic_lds = dynamic_lds;
    Ok(())
}

/// Runs `kernel` over `d`'s grid with `args` bound ([`bind`]) on `mem`,
/// with a fresh, zeroed global data share ([`risa_cayman_emu::run`]).
pub fn run(
    kernel: &Kernel,
    d: &Dispatch,
    args: &[Arg],
    mem: &dyn GlobalMemory,
) -> Result<Stats, Fault> {
    let gds = risa_cayman_emu::Pool::new(risa_cayman_emu::GDS_BYTES);
    run_with_gds(kernel, d, args, mem, &gds)
}

/// [`run`] with a caller-provided global data share (byte addressed; the
/// host can preload it and read it back after the dispatch).
pub fn run_with_gds(
    kernel: &Kernel,
    d: &Dispatch,
    args: &[Arg],
    mem: &dyn GlobalMemory,
    gds: &dyn GlobalMemory,
) -> Result<Stats, Fault> {
    let mut d = d.clone();
    bind(kernel, &mut d, args).map_err(|e| Fault::new(e.to_string()))?;
    risa_cayman_emu::run_with_gds(kernel, &d, mem, gds)
}
