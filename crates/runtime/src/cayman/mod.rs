//! Cayman on the runtime's device memory: the clause emulator's global
//! memory is the device's 32-bit address space, so buffers live across
//! launches and a pointer argument is the buffer's device address (the
//! byte offset Mesa's r600 driver passes in its global pool, ABI-NOTES).
//!
//! The runtime's Cayman side, beside GCN's (`gcn`, `gcn_launch`):
//! * [`load`](mod@load) — r600 ELF objects into kernels ready to dispatch;
//! * [`abi`] — constant buffer 0 and the dynamic LDS of a launch's
//!   arguments;
//! * [`launch`] — a launch of a device's kernel arguments and NDRange.

pub mod abi;
pub mod launch;
pub mod load;

pub use abi::{run, run_with_gds, Arg};
pub use load::{load, LoadError};

use crate::device::DeviceMemory;
use risa_cayman_emu::{GlobalMemory, MemError};
use risa_gcn_emu::{Memory, OutOfRange};

/// First address of a Cayman device's memory: address 0 (a null pointer)
/// and the page after it are never mapped, so they fault.
pub const CAYMAN_HEAP_START: u64 = 0x1000;
/// End of a Cayman device's memory: r600 pointers are 32-bit.
pub const CAYMAN_HEAP_END: u64 = 1 << 32;

fn mem_error(mem: &DeviceMemory, e: OutOfRange) -> MemError {
    MemError {
        addr: e.addr,
        size: e.size,
        limit: mem.end(),
    }
}

impl GlobalMemory for DeviceMemory {
    fn size(&self) -> u64 {
        // The default fetch resource spans every allocation; the gaps
        // between them fault on access.
        self.end()
    }

    fn load_u32(&self, addr: u64) -> Result<u32, MemError> {
        let mut b = [0u8; 4];
        Memory::read(self, addr, &mut b).map_err(|e| mem_error(self, e))?;
        Ok(u32::from_le_bytes(b))
    }

    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        Memory::read(self, addr, buf).map_err(|e| mem_error(self, e))
    }

    fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        Memory::write(self, addr, data).map_err(|e| mem_error(self, e))
    }

    fn atomic(&self, addr: u64, f: &mut dyn FnMut(u32) -> u32) -> Result<u32, MemError> {
        self.atomic_u32(addr, f).map_err(|e| mem_error(self, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cayman_view_checks_every_access() {
        let mut m = DeviceMemory::with_range(CAYMAN_HEAP_START, CAYMAN_HEAP_END);
        let a = m.alloc_with(&[1, 2, 3, 4, 5, 6, 7, 8]);
        assert!(a >= CAYMAN_HEAP_START && a + 8 < CAYMAN_HEAP_END);
        assert_eq!(m.load_u32(a + 4).unwrap(), 0x0807_0605);
        assert_eq!(m.load_u32(a + 1).unwrap(), 0x0504_0302);
        let e = m.load_u32(a + 6).unwrap_err();
        assert_eq!((e.addr, e.size), (a + 6, 4));
        assert!(m.load_u32(0).is_err(), "null faults");
        let old = GlobalMemory::atomic(&m, a, &mut |v| v + 1).unwrap();
        assert_eq!(old, 0x0403_0201);
        assert_eq!(m.load_u32(a).unwrap(), 0x0403_0202);
        assert!(GlobalMemory::atomic(&m, a + 2, &mut |v| v).is_err());
    }
}
