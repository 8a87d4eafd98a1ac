//! Device memory: a 64-bit address space of bounds-checked allocations,
//! shared by all worker threads. Words are atomics, so concurrent work-groups
//! may write neighbouring bytes and run atomics without data races.

use risa_gcn_emu::{AtomicApply, AtomicOp, Memory, OutOfRange};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

/// First device address handed out; addresses below it (including null) fault.
pub const HEAP_START: u64 = 0x1_0000_0000;
/// Unmapped bytes left between allocations so that overruns fault.
pub const GUARD: u64 = 0x1_0000;

struct Alloc {
    base: u64,
    len: u64,
    words: Box<[AtomicU32]>,
}

impl Alloc {
    /// Whether the `len` bytes at `addr` lie inside this allocation's
    /// dwords. Device memory is dword-granular: the bytes after `len` in
    /// the last dword are there (r600 stores a byte or a short as a
    /// read-modify-write of its whole dword, MEM_RAT MSKOR, so the last
    /// byte of a buffer whose size is not a multiple of 4 must not fault);
    /// the host still reads `len` bytes back ([`DeviceMemory::read_alloc`]).
    #[inline(always)]
    fn holds(&self, addr: u64, len: u64) -> bool {
        let span = 4 * self.words.len() as u64;
        addr >= self.base && addr - self.base <= span && span - (addr - self.base) >= len
    }
}

/// The device's memory. Allocating needs `&mut`; running kernels share `&`,
/// so the allocation list needs no lock on the hot path.
pub struct DeviceMemory {
    /// Live allocations, in address order.
    allocs: Vec<Alloc>,
    /// First address handed out.
    start: u64,
    /// Address space end (exclusive): Cayman's pointers are 32-bit.
    limit: u64,
    wide_locks: Vec<Mutex<()>>,
}

impl Default for DeviceMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl DeviceMemory {
    /// An empty 64-bit address space (GCN).
    pub fn new() -> DeviceMemory {
        DeviceMemory::with_range(HEAP_START, u64::MAX)
    }

    /// An empty address space whose allocations lie in `start..limit`
    /// (Cayman: 32-bit pointers).
    pub fn with_range(start: u64, limit: u64) -> DeviceMemory {
        DeviceMemory {
            allocs: Vec::new(),
            start,
            limit,
            wide_locks: (0..64).map(|_| Mutex::new(())).collect(),
        }
    }

    /// Allocates `len` bytes (zeroed), aligned to 4 KiB, with at least
    /// [`GUARD`] unmapped bytes after it; returns the device address, or None
    /// when the address space has no room. Freed space is reused (first fit),
    /// so a long-lived device does not run out of addresses. Accesses may
    /// reach the end of the last dword (see `Alloc::holds`).
    pub fn try_alloc(&mut self, len: u64) -> Option<u64> {
        let need = len.checked_add(GUARD)?;
        let mut base = self.start;
        let mut at = self.allocs.len();
        for (i, a) in self.allocs.iter().enumerate() {
            if a.base.checked_sub(base).is_some_and(|gap| gap >= need) {
                at = i;
                break;
            }
            base = (a.base + a.len + GUARD).next_multiple_of(0x1000);
        }
        if base.checked_add(need).is_none_or(|e| e > self.limit) {
            return None;
        }
        let words = usize::try_from(len.div_ceil(4)).ok()?;
        let a = Alloc {
            base,
            len,
            words: (0..words).map(|_| AtomicU32::new(0)).collect(),
        };
        self.allocs.insert(at, a);
        Some(base)
    }

    /// [`DeviceMemory::try_alloc`] for sizes the caller knows fit.
    pub fn alloc(&mut self, len: u64) -> u64 {
        self.try_alloc(len).expect("device address space exhausted")
    }

    /// Allocates and fills with `bytes`.
    pub fn alloc_with(&mut self, bytes: &[u8]) -> u64 {
        let a = self.alloc(bytes.len() as u64);
        self.write(a, bytes).expect("fresh allocation");
        a
    }

    /// Frees the allocation that starts at `base`; false when there is none.
    pub fn free(&mut self, base: u64) -> bool {
        match self.allocs.iter().position(|a| a.base == base) {
            Some(i) => {
                self.allocs.remove(i);
                true
            }
            None => false,
        }
    }

    /// One past the highest allocated address (the start when empty).
    pub fn end(&self) -> u64 {
        self.allocs.last().map_or(self.start, |a| a.base + a.len)
    }

    /// Atomically replaces the aligned dword at `addr` with `f(old)`; returns `old`.
    pub fn atomic_u32(&self, addr: u64, f: &mut dyn FnMut(u32) -> u32) -> Result<u32, OutOfRange> {
        if !addr.is_multiple_of(4) {
            return Err(OutOfRange { addr, size: 4 });
        }
        self.with(addr, 4, |a, off| {
            a.words[off / 4]
                .fetch_update(Relaxed, Relaxed, |o| Some(f(o)))
                .unwrap()
        })
    }

    /// The bytes of the allocation that starts at `base`.
    pub fn read_alloc(&self, base: u64) -> Option<Vec<u8>> {
        let a = self.allocs.iter().find(|a| a.base == base)?;
        // Whole words, then trim the padding of the last one: a few host
        // instructions per word instead of a shift and mask per byte.
        let mut v = Vec::with_capacity(4 * a.words.len());
        for w in a.words.iter() {
            v.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        v.truncate(a.len as usize);
        Some(v)
    }

    /// The allocation holding the `len` bytes at `addr`.
    fn find(&self, addr: u64, len: u64) -> Option<&Alloc> {
        // Allocations are created in address order.
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let a = self.allocs.get(i.checked_sub(1)?)?;
        a.holds(addr, len).then_some(a)
    }

    /// Runs `f(allocation, offset)` on the allocation holding the `len` bytes at `addr`.
    fn with<R>(
        &self,
        addr: u64,
        len: u64,
        f: impl FnOnce(&Alloc, usize) -> R,
    ) -> Result<R, OutOfRange> {
        match self.find(addr, len) {
            Some(a) => Ok(f(a, (addr - a.base) as usize)),
            None => Err(OutOfRange {
                addr,
                size: len as u32,
            }),
        }
    }

    /// Runs `f(lane, allocation, offset)` for every lane in `mask`, in lane
    /// order, on the allocation holding the `len` bytes at `addrs[lane]`.
    /// Stops at the first lane whose bytes lie outside every allocation.
    #[inline(always)]
    fn each_lane(
        &self,
        addrs: &[u64; 64],
        mask: u64,
        len: u64,
        mut f: impl FnMut(usize, &Alloc, usize),
    ) -> Result<(), (usize, OutOfRange)> {
        let mut cur: Option<&Alloc> = None;
        for l in risa_gcn_emu::mem::active_lanes(mask) {
            let a = addrs[l];
            // Lanes usually hit the allocation of the previous lane.
            let al = match cur.filter(|c| c.holds(a, len)) {
                Some(c) => c,
                None => {
                    let c = self.find(a, len).ok_or((
                        l,
                        OutOfRange {
                            addr: a,
                            size: len as u32,
                        },
                    ))?;
                    cur = Some(c);
                    c
                }
            };
            f(l, al, (a - al.base) as usize);
        }
        Ok(())
    }
}

fn load_byte(a: &Alloc, i: usize) -> u8 {
    (a.words[i / 4].load(Relaxed) >> (8 * (i % 4))) as u8
}

fn store_byte(a: &Alloc, i: usize, v: u8) {
    let sh = 8 * (i % 4);
    let _ = a.words[i / 4].fetch_update(Relaxed, Relaxed, |w| {
        Some((w & !(0xff << sh)) | (u32::from(v) << sh))
    });
}

impl Memory for DeviceMemory {
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), OutOfRange> {
        self.with(addr, buf.len() as u64, |a, off| {
            if off % 4 == 0 && buf.len().is_multiple_of(4) {
                for (k, c) in buf.chunks_exact_mut(4).enumerate() {
                    c.copy_from_slice(&a.words[off / 4 + k].load(Relaxed).to_le_bytes());
                }
            } else {
                for (k, b) in buf.iter_mut().enumerate() {
                    *b = load_byte(a, off + k);
                }
            }
        })
    }

    fn write(&self, addr: u64, data: &[u8]) -> Result<(), OutOfRange> {
        self.with(addr, data.len() as u64, |a, off| {
            if off % 4 == 0 && data.len().is_multiple_of(4) {
                for (k, c) in data.chunks_exact(4).enumerate() {
                    a.words[off / 4 + k].store(u32::from_le_bytes(c.try_into().unwrap()), Relaxed);
                }
            } else {
                for (k, b) in data.iter().enumerate() {
                    store_byte(a, off + k, *b);
                }
            }
        })
    }

    fn read_lanes(
        &self,
        addrs: &[u64; 64],
        mask: u64,
        dwords: usize,
        out: &mut [[u32; 64]],
    ) -> Result<(), (usize, OutOfRange)> {
        self.each_lane(addrs, mask, 4 * dwords as u64, |l, al, off| {
            if off.is_multiple_of(4) {
                for (k, o) in out.iter_mut().enumerate().take(dwords) {
                    o[l] = al.words[off / 4 + k].load(Relaxed);
                }
            } else {
                for (k, o) in out.iter_mut().enumerate().take(dwords) {
                    let b: [u8; 4] = std::array::from_fn(|j| load_byte(al, off + 4 * k + j));
                    o[l] = u32::from_le_bytes(b);
                }
            }
        })
    }

    fn write_lanes(
        &self,
        addrs: &[u64; 64],
        mask: u64,
        dwords: usize,
        data: &[[u32; 64]],
    ) -> Result<(), (usize, OutOfRange)> {
        self.each_lane(addrs, mask, 4 * dwords as u64, |l, al, off| {
            if off.is_multiple_of(4) {
                for (k, d) in data.iter().enumerate().take(dwords) {
                    al.words[off / 4 + k].store(d[l], Relaxed);
                }
            } else {
                for (k, d) in data.iter().enumerate().take(dwords) {
                    for (j, b) in d[l].to_le_bytes().into_iter().enumerate() {
                        store_byte(al, off + 4 * k + j, b);
                    }
                }
            }
        })
    }

    fn atomic(
        &self,
        addr: u64,
        bits: u32,
        op: AtomicOp,
        data: u64,
        cmp: u64,
    ) -> Result<u64, OutOfRange> {
        let n = u64::from(bits / 8);
        self.with(addr, n, |a, off| {
            if bits == 32 && off % 4 == 0 {
                let w = &a.words[off / 4];
                let old = w
                    .fetch_update(Relaxed, Relaxed, |o| {
                        Some(op.apply(u64::from(o), data, cmp, 32) as u32)
                    })
                    .unwrap();
                return u64::from(old);
            }
            // 64-bit (or unaligned) atomics: a striped lock keeps them atomic with each other.
            let _g = self.wide_locks[(addr >> 3) as usize % self.wide_locks.len()]
                .lock()
                .unwrap();
            let mut b = [0u8; 8];
            for (k, x) in b.iter_mut().take(n as usize).enumerate() {
                *x = load_byte(a, off + k);
            }
            let old = u64::from_le_bytes(b);
            let new = op.apply(old, data, cmp, bits).to_le_bytes();
            for (k, x) in new.iter().take(n as usize).enumerate() {
                store_byte(a, off + k, *x);
            }
            old
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_alloc_returns_exactly_the_bytes_written() {
        let mut d = DeviceMemory::new();
        for len in [0usize, 1, 3, 4, 5, 7, 8, 1023] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let a = d.alloc_with(&bytes);
            assert_eq!(d.read_alloc(a).unwrap(), bytes, "length {len}");
        }
        assert_eq!(d.read_alloc(0x1234), None);
    }

    #[test]
    fn freed_space_is_reused_and_guards_stay() {
        let mut d = DeviceMemory::with_range(0x1000, 0x40_0000);
        let a = d.alloc(100);
        let b = d.alloc(100);
        assert!(b >= a + 100 + GUARD);
        assert!(d.free(a));
        assert!(!d.free(a));
        assert_eq!(d.alloc(50), a, "first fit reuses the freed range");
        // Bytes past an allocation are not mapped.
        let mut x = [0u8; 4];
        assert!(d.read(b + 100, &mut x).is_err());
        // The range is finite.
        assert_eq!(d.try_alloc(0x40_0000), None);
        for _ in 0..1000 {
            let c = d.alloc(4096);
            assert!(d.free(c));
        }
    }
}
