//! The emulator's view of device memory: a trait, so that the emulator never
//! touches host memory outside the guest's allocations. The runtime provides
//! the real implementation; [`SimpleMemory`] is a small one for tests.

use std::sync::Mutex;

/// An access that touched no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange {
    /// The first address of the access.
    pub addr: u64,
    /// Its size in bytes.
    pub size: u32,
}

/// Atomic read-modify-write operations on device memory: the operation a
/// memory row names (`risa_gcn::semantics::Atomic`), computed by
/// [`AtomicApply::apply`].
pub use risa_gcn::semantics::Atomic as AtomicOp;

/// The lanes set in `mask` (an EXEC mask), in order: every per-lane loop of
/// the emulator walks these rather than testing 64 bits, since waves of
/// small work-groups have few lanes active.
pub fn active_lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            l
        })
    })
}

/// What an atomic operation writes.
pub trait AtomicApply {
    /// The new memory value for `old`, operand `data` and comparand `cmp`, on `bits`-wide values.
    fn apply(self, old: u64, data: u64, cmp: u64, bits: u32) -> u64;
}

impl AtomicApply for AtomicOp {
    fn apply(self, old: u64, data: u64, cmp: u64, bits: u32) -> u64 {
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let sx = |v: u64| -> i64 {
            if bits == 64 {
                v as i64
            } else {
                ((v << (64 - bits)) as i64) >> (64 - bits)
            }
        };
        let fl = |v: u64| -> f64 {
            if bits == 64 {
                f64::from_bits(v)
            } else {
                f64::from(f32::from_bits(v as u32))
            }
        };
        let fr = |x: f64| -> u64 {
            if bits == 64 {
                x.to_bits()
            } else {
                u64::from((x as f32).to_bits())
            }
        };
        let r = match self {
            AtomicOp::Swap => data,
            AtomicOp::CmpSwap => {
                if old == cmp {
                    data
                } else {
                    old
                }
            }
            AtomicOp::FCmpSwap => {
                if fl(old) == fl(cmp) {
                    data
                } else {
                    old
                }
            }
            AtomicOp::Add => old.wrapping_add(data),
            AtomicOp::Sub => old.wrapping_sub(data),
            AtomicOp::RSub => data.wrapping_sub(old),
            AtomicOp::SMin => {
                if sx(data) < sx(old) {
                    data
                } else {
                    old
                }
            }
            AtomicOp::SMax => {
                if sx(data) > sx(old) {
                    data
                } else {
                    old
                }
            }
            AtomicOp::UMin => old.min(data),
            AtomicOp::UMax => old.max(data),
            AtomicOp::And => old & data,
            AtomicOp::Or => old | data,
            AtomicOp::Xor => old ^ data,
            AtomicOp::Inc => {
                if old >= data {
                    0
                } else {
                    old + 1
                }
            }
            AtomicOp::Dec => {
                if old == 0 || old > data {
                    data
                } else {
                    old - 1
                }
            }
            AtomicOp::FMin => fr(crate::float::min_num(fl(old), fl(data))),
            AtomicOp::FMax => fr(crate::float::max_num(fl(old), fl(data))),
            AtomicOp::FAdd => fr(fl(old) + fl(data)),
        };
        r & mask
    }
}

/// Device memory as the emulator sees it. Every method checks that the whole
/// access lies inside one allocation and reports [`OutOfRange`] otherwise.
/// Implementations must be safe to share between threads; atomic operations
/// must be atomic with respect to each other.
pub trait Memory: Sync {
    /// Reads `buf.len()` bytes at `addr`.
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), OutOfRange>;
    /// Writes `data` at `addr`.
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), OutOfRange>;
    /// Atomically applies `op` to the `bits`-wide (32 or 64) value at `addr`; returns the old value.
    fn atomic(
        &self,
        addr: u64,
        bits: u32,
        op: AtomicOp,
        data: u64,
        cmp: u64,
    ) -> Result<u64, OutOfRange>;

    /// Reads `dwords` dwords for every lane in `mask` from `addrs[lane]` into
    /// `out[k][lane]` (k < dwords). Returns the first lane that faulted and why.
    /// The default goes lane by lane; implementations may do better.
    fn read_lanes(
        &self,
        addrs: &[u64; 64],
        mask: u64,
        dwords: usize,
        out: &mut [[u32; 64]],
    ) -> Result<(), (usize, OutOfRange)> {
        let mut b = [0u8; 16];
        for l in active_lanes(mask) {
            self.read(addrs[l], &mut b[..4 * dwords])
                .map_err(|e| (l, e))?;
            for (k, o) in out.iter_mut().enumerate().take(dwords) {
                o[l] = u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap());
            }
        }
        Ok(())
    }

    /// Writes `data[k][lane]` (k < dwords) at `addrs[lane]` for every lane in `mask`,
    /// in lane order. Returns the first lane that faulted and why.
    fn write_lanes(
        &self,
        addrs: &[u64; 64],
        mask: u64,
        dwords: usize,
        data: &[[u32; 64]],
    ) -> Result<(), (usize, OutOfRange)> {
        let mut b = [0u8; 16];
        for l in active_lanes(mask) {
            for (k, d) in data.iter().enumerate().take(dwords) {
                b[4 * k..4 * k + 4].copy_from_slice(&d[l].to_le_bytes());
            }
            self.write(addrs[l], &b[..4 * dwords]).map_err(|e| (l, e))?;
        }
        Ok(())
    }

    /// Reads a little-endian u32.
    fn read_u32(&self, addr: u64) -> Result<u32, OutOfRange> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    /// Writes a little-endian u32.
    fn write_u32(&self, addr: u64, v: u32) -> Result<(), OutOfRange> {
        self.write(addr, &v.to_le_bytes())
    }
}

/// A simple memory for tests: a list of (base, bytes) allocations behind one lock.
#[derive(Debug, Default)]
pub struct SimpleMemory {
    allocs: Mutex<Vec<(u64, Vec<u8>)>>,
}

impl SimpleMemory {
    /// An empty memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an allocation holding `bytes` at `base` (allocations must not overlap).
    pub fn add(&self, base: u64, bytes: Vec<u8>) {
        self.allocs.lock().unwrap().push((base, bytes));
    }

    /// The bytes of the allocation at `base`.
    pub fn get(&self, base: u64) -> Option<Vec<u8>> {
        let a = self.allocs.lock().unwrap();
        a.iter().find(|(b, _)| *b == base).map(|(_, v)| v.clone())
    }

    fn with<R>(
        &self,
        addr: u64,
        len: usize,
        f: impl FnOnce(&mut [u8]) -> R,
    ) -> Result<R, OutOfRange> {
        let mut a = self.allocs.lock().unwrap();
        for (base, bytes) in a.iter_mut() {
            if addr >= *base {
                let off = addr - *base;
                if off <= bytes.len() as u64 && bytes.len() as u64 - off >= len as u64 {
                    let off = off as usize;
                    return Ok(f(&mut bytes[off..off + len]));
                }
            }
        }
        Err(OutOfRange {
            addr,
            size: len as u32,
        })
    }
}

impl Memory for SimpleMemory {
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), OutOfRange> {
        self.with(addr, buf.len(), |m| buf.copy_from_slice(m))
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), OutOfRange> {
        self.with(addr, data.len(), |m| m.copy_from_slice(data))
    }
    fn atomic(
        &self,
        addr: u64,
        bits: u32,
        op: AtomicOp,
        data: u64,
        cmp: u64,
    ) -> Result<u64, OutOfRange> {
        let n = (bits / 8) as usize;
        self.with(addr, n, |m| {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(m);
            let old = u64::from_le_bytes(b);
            let new = op.apply(old, data, cmp, bits);
            m.copy_from_slice(&new.to_le_bytes()[..n]);
            old
        })
    }
}
