//! Guest memory: the global pool (bound as RAT0 for writes and vertex buffer
//! 1 for reads), read-only buffers (the kernel's `.text` for vertex buffer 2)
//! and the group's LDS. Every access is checked; nothing escapes the
//! allocations the host made.

use std::sync::atomic::{AtomicU32, Ordering};

/// An access outside guest memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemError {
    /// Byte address.
    pub addr: u64,
    /// Access size in bytes.
    pub size: u32,
    /// Size of the memory accessed.
    pub limit: u64,
}

/// Global memory the emulator reads and writes. Implementations must be
/// shareable across the threads that run work-groups in parallel.
pub trait GlobalMemory: Sync {
    /// Size in bytes.
    fn size(&self) -> u64;
    /// Read one dword at a 4-byte aligned byte address.
    fn load_u32(&self, addr: u64) -> Result<u32, MemError>;
    /// Read `buf.len()` bytes at any byte address.
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError>;
    /// Write bytes at any byte address.
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError>;
    /// Atomically replace the dword at `addr` (4-byte aligned) with `f(old)`; returns `old`.
    fn atomic(&self, addr: u64, f: &mut dyn FnMut(u32) -> u32) -> Result<u32, MemError>;
    /// Read one dword (any byte address) for each lane set in `mask`:
    /// `out[l] = mem[addr[l]]`; other lanes are left alone. On failure
    /// returns the lowest failing lane.
    fn load_u32_lanes(
        &self,
        addr: &[u64; 64],
        mask: u64,
        out: &mut [u32; 64],
    ) -> Result<(), (usize, MemError)> {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            out[l] = self.load_u32(addr[l]).map_err(|e| (l, e))?;
        }
        Ok(())
    }
}

/// A byte-addressed pool of dwords with atomic access (the default global memory).
pub struct Pool {
    words: Vec<AtomicU32>,
    len: u64,
}

impl Pool {
    /// A zero-filled pool of `len` bytes (rounded up to dwords for storage;
    /// accesses are checked against `len`).
    pub fn new(len: usize) -> Pool {
        Pool {
            words: (0..len.div_ceil(4)).map(|_| AtomicU32::new(0)).collect(),
            len: len as u64,
        }
    }
    /// A pool holding a copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Pool {
        let p = Pool::new(bytes.len());
        let _ = p.write(0, bytes);
        p
    }
    /// Copy the whole pool out.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.len as usize];
        let _ = self.read(0, &mut v);
        v
    }
    #[inline]
    fn check(&self, addr: u64, size: u32) -> Result<(), MemError> {
        if addr.checked_add(size as u64).is_none_or(|e| e > self.len) {
            return Err(MemError {
                addr,
                size,
                limit: self.len,
            });
        }
        Ok(())
    }
}

impl GlobalMemory for Pool {
    fn size(&self) -> u64 {
        self.len
    }
    #[inline]
    fn load_u32(&self, addr: u64) -> Result<u32, MemError> {
        self.check(addr, 4)?;
        if addr & 3 == 0 {
            Ok(self.words[(addr >> 2) as usize].load(Ordering::Relaxed))
        } else {
            let mut b = [0u8; 4];
            self.read(addr, &mut b)?;
            Ok(u32::from_le_bytes(b))
        }
    }
    fn load_u32_lanes(
        &self,
        addr: &[u64; 64],
        mask: u64,
        out: &mut [u32; 64],
    ) -> Result<(), (usize, MemError)> {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = addr[l];
            if a & 3 == 0 && a + 4 <= self.len {
                out[l] = self.words[(a >> 2) as usize].load(Ordering::Relaxed);
            } else {
                out[l] = self.load_u32(a).map_err(|e| (l, e))?;
            }
        }
        Ok(())
    }
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        self.check(addr, buf.len() as u32)?;
        if addr & 3 == 0 && buf.len() & 3 == 0 {
            // aligned dwords: one load each
            let w0 = (addr >> 2) as usize;
            for (k, c) in buf.chunks_exact_mut(4).enumerate() {
                c.copy_from_slice(&self.words[w0 + k].load(Ordering::Relaxed).to_le_bytes());
            }
            return Ok(());
        }
        for (k, b) in buf.iter_mut().enumerate() {
            let a = addr + k as u64;
            let w = self.words[(a >> 2) as usize].load(Ordering::Relaxed);
            *b = (w >> (8 * (a & 3))) as u8;
        }
        Ok(())
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        self.check(addr, data.len() as u32)?;
        let mut k = 0;
        while k < data.len() {
            let a = addr + k as u64;
            let wi = (a >> 2) as usize;
            if a & 3 == 0 && k + 4 <= data.len() {
                let v = u32::from_le_bytes([data[k], data[k + 1], data[k + 2], data[k + 3]]);
                self.words[wi].store(v, Ordering::Relaxed);
                k += 4;
                continue;
            }
            let sh = 8 * (a & 3) as u32;
            let byte = data[k] as u32;
            let _ = self.words[wi].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                Some((w & !(0xff << sh)) | (byte << sh))
            });
            k += 1;
        }
        Ok(())
    }
    fn atomic(&self, addr: u64, f: &mut dyn FnMut(u32) -> u32) -> Result<u32, MemError> {
        self.check(addr, 4)?;
        if addr & 3 != 0 {
            return Err(MemError {
                addr,
                size: 4,
                limit: self.len,
            });
        }
        let w = &self.words[(addr >> 2) as usize];
        let mut old = w.load(Ordering::Relaxed);
        loop {
            match w.compare_exchange_weak(old, f(old), Ordering::AcqRel, Ordering::Relaxed) {
                Ok(v) => return Ok(v),
                Err(v) => old = v,
            }
        }
    }
}

/// A window of `len` bytes at byte `base` of another memory: addresses are
/// relative to `base` and checked against `len` (a RAT the host binds to a
/// part of the global pool).
pub struct Window<'a> {
    /// The memory underneath.
    pub mem: &'a dyn GlobalMemory,
    /// First byte of the window in `mem`.
    pub base: u64,
    /// Bytes in the window.
    pub len: u64,
}

impl Window<'_> {
    fn at(&self, addr: u64, size: u32) -> Result<u64, MemError> {
        match addr.checked_add(size as u64) {
            Some(e) if e <= self.len => Ok(self.base.saturating_add(addr)),
            _ => Err(MemError {
                addr,
                size,
                limit: self.len,
            }),
        }
    }
    fn rel(&self, e: MemError) -> MemError {
        MemError {
            addr: e.addr.wrapping_sub(self.base),
            ..e
        }
    }
}

impl GlobalMemory for Window<'_> {
    fn size(&self) -> u64 {
        self.len
    }
    fn load_u32(&self, addr: u64) -> Result<u32, MemError> {
        let a = self.at(addr, 4)?;
        self.mem.load_u32(a).map_err(|e| self.rel(e))
    }
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        let a = self.at(addr, buf.len() as u32)?;
        self.mem.read(a, buf).map_err(|e| self.rel(e))
    }
    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let a = self.at(addr, data.len() as u32)?;
        self.mem.write(a, data).map_err(|e| self.rel(e))
    }
    fn atomic(&self, addr: u64, f: &mut dyn FnMut(u32) -> u32) -> Result<u32, MemError> {
        let a = self.at(addr, 4)?;
        self.mem.atomic(a, f).map_err(|e| self.rel(e))
    }
}
