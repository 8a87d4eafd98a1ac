//! One device abstraction over both emulators: a [`Device`] owns memory
//! that lives across launches (the host allocates, writes and reads buffers
//! between them), loads code objects ([`Object`]: GCN code object v3-v5 or a
//! Cayman r600 object) into [`Module`]s, and launches their kernels over an
//! NDRange ([`LaunchConfig`]: global size, work-group size, offsets). A guest
//! fault is an error value ([`LaunchError::Fault`]) with the emulator's
//! report; counters come back as [`Stats`]. `risa run` and the OpenCL ICD
//! are both front ends of this layer.
//!
//! ```
//! use risa_runtime::gpu::{Device, KernelArg, Object};
//! use risa_runtime::LaunchConfig;
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gcn/vadd-gfx900.o");
//! let obj = Object::parse(&std::fs::read(path).unwrap()).unwrap();
//! let dev = Device::new(obj.isa());
//! let m = dev.load(obj).unwrap();
//! let a: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! let (x, y, z) = (dev.alloc(256).unwrap(), dev.alloc(256).unwrap(), dev.alloc(256).unwrap());
//! dev.write(x, &a).unwrap();
//! dev.write(y, &a).unwrap();
//! let args = [KernelArg::Buffer(x), KernelArg::Buffer(y), KernelArg::Buffer(z),
//!             KernelArg::Bytes(64i32.to_le_bytes().to_vec())];
//! dev.launch(&m, 0, &args, &LaunchConfig::new([64, 1, 1], 1)).unwrap();
//! let mut c = [0u8; 256];
//! dev.read(z, &mut c).unwrap(); // c[i] = a[i] + b[i]
//! assert_eq!(f32::from_le_bytes(c[8..12].try_into().unwrap()), 4.0);
//! ```

use crate::args::{ArgInfo, ArgValue};
use crate::cayman::{CAYMAN_HEAP_END, CAYMAN_HEAP_START};
use crate::device::DeviceMemory;
use crate::error::{ArgError, KernelError, LoadError};
use crate::gcn::{GcnObject, Gds};
use crate::gcn_launch::{check_range, execute, prepare, Placed, PlacedArgs};
use crate::{FaultReport, LaunchConfig};
use risa_gcn::Processor;
use risa_gcn_emu::Memory;
use std::fmt;
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub use crate::gcn_launch::KernelArg;

/// The instruction set a device runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// A GCN chip (its features decide what decodes).
    Gcn(&'static Processor),
    /// Cayman (TeraScale 3, VLIW4).
    Cayman,
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Isa::Gcn(p) => f.write_str(p.name),
            Isa::Cayman => f.write_str("cayman"),
        }
    }
}

/// A parsed code object, not yet on a device.
pub enum Object {
    /// An amdhsa code object.
    Gcn(GcnObject),
    /// An r600 object's kernels.
    Cayman(Vec<risa_cayman_emu::Kernel>),
}

impl Object {
    /// Parses an ELF object: ELF32 is an r600 (Cayman) object, ELF64 an
    /// amdhsa (GCN) code object.
    pub fn parse(bytes: &[u8]) -> Result<Object, LoadError> {
        if risa_elf::is_elf(bytes) && bytes.get(4) == Some(&1) {
            let ks = crate::cayman::load(bytes)?;
            if ks.is_empty() {
                return Err(LoadError::NoR600Kernel);
            }
            return Ok(Object::Cayman(ks));
        }
        Ok(Object::Gcn(GcnObject::load(bytes)?))
    }

    /// The instruction set the object is for.
    pub fn isa(&self) -> Isa {
        match self {
            Object::Gcn(o) => Isa::Gcn(o.chip),
            Object::Cayman(_) => Isa::Cayman,
        }
    }
}

/// What the runtime knows of one kernel.
#[derive(Debug, Clone)]
pub struct KernelInfo {
    /// Its name.
    pub name: String,
    /// Its explicit arguments from the object's metadata (GCN), or None
    /// when the object has none (r600 objects).
    pub args: Option<Vec<ArgInfo>>,
    /// Static LDS bytes.
    pub static_lds: u32,
    /// Private (scratch) bytes per work-item.
    pub private_size: u32,
}

enum Code {
    Gcn { obj: Box<GcnObject>, placed: Placed },
    Cayman(Vec<risa_cayman_emu::Kernel>),
}

/// A code object loaded on a device: its kernels can be launched there.
/// Give it back with [`Device::unload`] to free its device memory.
pub struct Module {
    code: Code,
    /// The kernels, in the object's order.
    pub kernels: Vec<KernelInfo>,
}

impl Module {
    /// The index of the kernel named `name`, or of the only kernel when
    /// `name` is None.
    pub fn kernel(&self, name: Option<&str>) -> Result<usize, KernelError> {
        let names: Vec<&str> = self.kernels.iter().map(|k| k.name.as_str()).collect();
        crate::pick_kernel(&names, name)
    }

    /// Kernel `k`'s descriptor when the module is GCN code.
    pub(crate) fn gcn_descriptor(&self, k: usize) -> Option<&crate::gcn::Descriptor> {
        match &self.code {
            Code::Gcn { obj, .. } => obj.kernels.get(k).map(|k| &k.desc),
            Code::Cayman(_) => None,
        }
    }

    /// Kernel `k`'s code from its first CF instruction when the module is
    /// Cayman code.
    pub(crate) fn cayman_code(&self, k: usize) -> Option<&[u8]> {
        match &self.code {
            Code::Cayman(ks) => ks
                .get(k)
                .map(|k| k.text.get(k.offset as usize..).unwrap_or(&[])),
            Code::Gcn { .. } => None,
        }
    }
}

/// Counters of one launch, per ISA.
#[derive(Debug, Clone)]
pub enum Stats {
    /// GCN: waves, instructions by category, bytes moved.
    Gcn(risa_gcn_emu::Stats),
    /// Cayman: work-groups, waves, CF / ALU / fetch / RAT / LDS counts.
    Cayman(risa_cayman_emu::Stats),
}

/// A finished launch.
#[derive(Debug, Clone)]
pub struct Launched {
    /// Counters.
    pub stats: Stats,
    /// Wall time of the emulation.
    pub wall: std::time::Duration,
    /// CPU time the workers used (GCN on Linux; None when not measured).
    pub cpu: Option<std::time::Duration>,
    /// Host threads used.
    pub threads: usize,
}

/// Where and why a guest stopped.
#[derive(Debug, Clone)]
pub enum Fault {
    /// A GCN fault report.
    Gcn(Box<FaultReport>),
    /// A Cayman fault in kernel `kernel`.
    Cayman {
        /// Kernel name.
        kernel: String,
        /// The emulator's report.
        fault: risa_cayman_emu::Fault,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Gcn(r) => write!(f, "{r}"),
            Fault::Cayman { kernel, fault } => write!(f, "fault in kernel {kernel}: {fault}"),
        }
    }
}

/// Why a launch did not complete.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The arguments or the NDRange do not fit the kernel or the device.
    #[error("bad arguments: {0}")]
    Args(#[from] ArgError),
    /// The kernel faulted; memory is as it was at the fault, and the
    /// counters up to it come along when the emulator keeps them.
    #[error("{0}")]
    Fault(Box<Fault>, Option<Box<Launched>>),
}

/// An access the host made outside device memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostAccessError {
    /// Device address.
    pub addr: u64,
    /// Bytes.
    pub len: u64,
}

impl fmt::Display for HostAccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes at device address {:#x} are not in one allocation",
            self.len, self.addr
        )
    }
}

impl std::error::Error for HostAccessError {}

/// An emulated GPU: memory, loaded code, launches.
pub struct Device {
    isa: Isa,
    mem: RwLock<DeviceMemory>,
    /// The global data share (GCN); one launch uses it at a time.
    gds: Mutex<Gds>,
}

impl Device {
    /// A device of `isa` with empty memory.
    pub fn new(isa: Isa) -> Device {
        let mem = match isa {
            Isa::Gcn(_) => DeviceMemory::new(),
            Isa::Cayman => DeviceMemory::with_range(CAYMAN_HEAP_START, CAYMAN_HEAP_END),
        };
        Device {
            isa,
            mem: RwLock::new(mem),
            gds: Mutex::new(Gds::new()),
        }
    }

    /// The instruction set.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    fn mem(&self) -> RwLockReadGuard<'_, DeviceMemory> {
        self.mem.read().unwrap_or_else(|e| e.into_inner())
    }

    fn mem_mut(&self) -> RwLockWriteGuard<'_, DeviceMemory> {
        self.mem.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Allocates `len` zeroed bytes (in whole dwords, see
    /// [`DeviceMemory::try_alloc`]); None when the address space is full.
    pub fn alloc(&self, len: u64) -> Option<u64> {
        self.mem_mut().try_alloc(len)
    }

    /// Frees the allocation at `addr`; false when there is none.
    pub fn free(&self, addr: u64) -> bool {
        self.mem_mut().free(addr)
    }

    /// Reads device memory (within one allocation).
    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), HostAccessError> {
        Memory::read(&*self.mem(), addr, buf).map_err(|_| HostAccessError {
            addr,
            len: buf.len() as u64,
        })
    }

    /// Writes device memory (within one allocation).
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), HostAccessError> {
        Memory::write(&*self.mem(), addr, data).map_err(|_| HostAccessError {
            addr,
            len: data.len() as u64,
        })
    }

    /// Places argument values in device memory: buffers and images (GCN)
    /// become allocations ([`crate::gcn_launch::place_args`]).
    pub fn place_args(&self, values: &[ArgValue]) -> Result<PlacedArgs, ArgError> {
        let gen = match self.isa {
            Isa::Gcn(chip) => Some(chip.gen),
            Isa::Cayman => None,
        };
        crate::gcn_launch::place_args(&mut self.mem_mut(), gen, values)
    }

    /// Whether this device runs `isa`'s code: the same chip generation for
    /// GCN (the object's own chip decides what decodes).
    pub fn runs(&self, isa: Isa) -> bool {
        match (self.isa, isa) {
            (Isa::Gcn(a), Isa::Gcn(b)) => a.gen == b.gen,
            (a, b) => a == b,
        }
    }

    /// Loads `obj` on the device.
    pub fn load(&self, obj: Object) -> Result<Module, LoadError> {
        if !self.runs(obj.isa()) {
            return Err(LoadError::WrongDevice {
                object: obj.isa(),
                device: self.isa,
            });
        }
        match obj {
            Object::Gcn(obj) => {
                let placed = Placed::new(&mut self.mem_mut(), &obj)?;
                let kernels = obj
                    .kernels
                    .iter()
                    .map(|k| KernelInfo {
                        name: k.name.clone(),
                        args: Some(k.args.iter().filter(|a| a.is_explicit()).cloned().collect()),
                        static_lds: k.desc.group_segment_fixed_size,
                        private_size: k.desc.private_segment_fixed_size,
                    })
                    .collect();
                Ok(Module {
                    code: Code::Gcn {
                        obj: Box::new(obj),
                        placed,
                    },
                    kernels,
                })
            }
            Object::Cayman(ks) => Ok(Module {
                kernels: ks
                    .iter()
                    .map(|k| KernelInfo {
                        name: k.name.clone(),
                        args: None,
                        static_lds: k.lds_bytes,
                        private_size: 0,
                    })
                    .collect(),
                code: Code::Cayman(ks),
            }),
        }
    }

    /// Frees the device memory of a module's code.
    pub fn unload(&self, m: Module) {
        if let Code::Gcn { placed, .. } = m.code {
            self.mem_mut().free(placed.base);
        }
    }

    /// Launches kernel `kernel` of `m` with `args` over `cfg`'s NDRange.
    pub fn launch(
        &self,
        m: &Module,
        kernel: usize,
        args: &[KernelArg],
        cfg: &LaunchConfig,
    ) -> Result<Launched, LaunchError> {
        check_range(cfg)?;
        match &m.code {
            Code::Gcn { obj, placed } => {
                let k = obj.kernels.get(kernel).ok_or(ArgError::NoKernel(kernel))?;
                let entry = placed.entry(k).map_err(ArgError::from)?;
                let prepared = prepare(&mut self.mem_mut(), obj, k, entry, args, cfg)?;
                let ran = {
                    let gds = self.gds.lock().unwrap_or_else(|e| e.into_inner());
                    execute(&self.mem(), placed, k, &prepared, cfg, &gds)
                };
                prepared.release(&mut self.mem_mut());
                let done = Launched {
                    stats: Stats::Gcn(ran.stats),
                    wall: ran.wall,
                    cpu: ran.cpu,
                    threads: ran.threads,
                };
                match ran.fault {
                    None => Ok(done),
                    Some(f) => Err(LaunchError::Fault(
                        Box::new(Fault::Gcn(f)),
                        Some(Box::new(done)),
                    )),
                }
            }
            Code::Cayman(ks) => {
                let k = ks.get(kernel).ok_or(ArgError::NoKernel(kernel))?;
                crate::cayman::launch::launch(&self.mem(), k, args, cfg)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(rel: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../../tests/fixtures/{rel}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn floats(b: &[u8]) -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// Buffers outlive launches: the output of one launch is the input of the
    /// next, on both ISAs, and the host reads and writes between them.
    #[test]
    fn memory_lives_across_launches_on_both_isas() {
        for rel in ["gcn/gfx900/vadd.o", "gcn/tahiti/vadd.o", "cayman/vadd.o"] {
            let obj = Object::parse(&fixture(rel)).unwrap();
            let dev = Device::new(obj.isa());
            let m = dev.load(obj).unwrap();
            let n = 100usize;
            let a: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
            let bufs: Vec<u64> = (0..3).map(|_| dev.alloc(4 * n as u64).unwrap()).collect();
            dev.write(bufs[0], &a).unwrap();
            dev.write(bufs[1], &a).unwrap();
            let mut cfg = LaunchConfig::new([n as u32, 1, 1], 1);
            cfg.threads = 2;
            let args = |x: u64, y: u64, z: u64| {
                [
                    KernelArg::Buffer(x),
                    KernelArg::Buffer(y),
                    KernelArg::Buffer(z),
                    KernelArg::Bytes((n as i32).to_le_bytes().to_vec()),
                ]
            };
            dev.launch(&m, 0, &args(bufs[0], bufs[1], bufs[2]), &cfg)
                .unwrap();
            // c = a + a; then a = c + c.
            dev.launch(&m, 0, &args(bufs[2], bufs[2], bufs[0]), &cfg)
                .unwrap();
            let mut out = vec![0u8; 4 * n];
            dev.read(bufs[0], &mut out).unwrap();
            let want: Vec<f32> = (0..n).map(|i| 4.0 * i as f32).collect();
            assert_eq!(floats(&out), want, "{rel}");
            // A freed buffer faults in the guest.
            assert!(dev.free(bufs[1]));
            let e = dev
                .launch(&m, 0, &args(bufs[0], bufs[1], bufs[2]), &cfg)
                .unwrap_err();
            assert!(matches!(e, LaunchError::Fault(..)), "{rel}: {e}");
            assert!(e.to_string().contains("fault in kernel vadd"), "{e}");
            dev.unload(m);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        let obj = Object::parse(&fixture("gcn/gfx900/vadd.o")).unwrap();
        let cay = Device::new(Isa::Cayman);
        let e = cay.load(obj).err().unwrap();
        assert!(e.to_string().contains("gfx900"), "{e}");
        assert!(Object::parse(b"\x7fELF junk").is_err());
        let obj = Object::parse(&fixture("gcn/gfx900/vadd.o")).unwrap();
        let dev = Device::new(obj.isa());
        let m = dev.load(obj).unwrap();
        let mut cfg = LaunchConfig::new([64, 1, 1], 1);
        cfg.block = [2048, 1, 1];
        assert!(matches!(
            dev.launch(&m, 0, &[], &cfg),
            Err(LaunchError::Args(_))
        ));
        cfg.block = [64, 1, 1];
        let e = dev.launch(&m, 0, &[], &cfg).unwrap_err();
        assert!(e.to_string().contains("takes 4 arguments"), "{e}");
        assert!(dev.read(0x10, &mut [0u8; 4]).is_err());
    }
}
