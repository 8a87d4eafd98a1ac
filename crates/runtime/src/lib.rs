//! The risa runtime: device memory, kernel arguments, code-object loading and
//! a multi-threaded dispatch that runs work-groups on all cores.
//!
//! Load a code object, allocate buffers through argument values, launch,
//! and read the buffers back:
//!
//! ```
//! use risa_runtime::{args::ArgValue, gcn::GcnObject, LaunchConfig};
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gcn/vadd-gfx900.o");
//! let bytes = std::fs::read(path).unwrap();
//! let obj = GcnObject::load(&bytes).unwrap();
//! let k = obj.kernel(None).unwrap();
//! let a: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
//! let args = [ArgValue::Buffer(a.clone()), ArgValue::Buffer(a), ArgValue::Buffer(vec![0; 256]), ArgValue::I32(64)];
//! let r = risa_runtime::gcn::launch(&obj, k, &args, &LaunchConfig::new([64, 1, 1], 1)).unwrap();
//! let c = &r.buffers[2].1; // arg2: c[i] = a[i] + b[i]
//! assert_eq!(f32::from_le_bytes(c[8..12].try_into().unwrap()), 4.0);
//! ```
//!
//! The layers, GCN and Cayman side by side: [`gcn`] (amdhsa code objects)
//! and [`gcn_launch`] (kernarg segment, dispatch packet, wave state);
//! [`cayman`] (r600 objects: [`cayman::load`](fn@cayman::load), constant buffer 0 in
//! [`cayman::abi`], [`cayman::launch`]); [`gpu`] the device over both;
//! [`args`] the argument language; [`error`] what can go wrong.
#![warn(missing_docs)]

pub mod args;
pub mod cayman;
pub mod check;
pub mod device;
pub mod error;
pub mod gcn;
pub mod gcn_launch;
pub mod gpu;
pub mod image_object;

use error::{ArgError, GcnLoadError, KernelError};
use risa_gcn_emu::Stats;
use std::fmt;
use std::time::Duration;

/// Opens a trace sink (called once per dispatch when tracing).
pub type TraceOpener = Box<dyn Fn() -> Box<dyn std::io::Write + Send> + Sync>;

/// Makes the [`risa_gcn_emu::Observer`] of one worker thread (called once
/// per worker per GCN dispatch); observers that report share their findings
/// through state the closure captures.
pub type ObserverFactory =
    std::sync::Arc<dyn Fn() -> Box<dyn risa_gcn_emu::Observer> + Send + Sync>;

/// How to launch a kernel.
pub struct LaunchConfig {
    /// Global size in work-items per dimension.
    pub grid: [u32; 3],
    /// Work-group size per dimension.
    pub block: [u32; 3],
    /// Global offset per dimension.
    pub offset: [u64; 3],
    /// Work dimension the kernel sees (1-3).
    pub dims: u32,
    /// Per-wave instruction limit.
    pub max_instructions: u64,
    /// Host threads.
    pub threads: usize,
    /// GCN: work-items per wave (1..=64; 64 is the hardware). Fewer run a
    /// work-group as more, narrower waves, which the scheduler runs one
    /// after another between barriers: with 1, each work-item runs alone
    /// until its next barrier, the order of a CPU implementation, for
    /// telling a kernel whose result depends on the order of its atomics
    /// from a mis-emulated one. Cayman refuses anything but 64. The
    /// run-time checkers assume hardware waves (at most 16 a group), so
    /// `risa run` refuses `--check` with it.
    pub wave_items: u32,
    /// Where to write an instruction trace (forces one thread).
    pub trace: Option<TraceOpener>,
    /// Watches every instruction of a GCN dispatch (checkers, profilers).
    pub observe: Option<ObserverFactory>,
    /// Cayman: run the RAT atomics of objects LLVM made with the byte
    /// address clang-14's r600 back end passes them, where the source means
    /// them (off: as the hardware reads INDEX_GPR, a dword index, which puts
    /// them at four times the address; see crates/cayman-emu/README.md).
    pub llvm_r600_atomics: bool,
    /// Cayman: count each CF instruction, ALU group and fetch instruction's
    /// wave-executions and active lanes into this sink (the GCN profiler
    /// attaches through [`LaunchConfig::observe`] instead).
    pub cayman_profile: Option<std::sync::Arc<risa_cayman_emu::ProfileSink>>,
    /// Watches every CF instruction, ALU group and fetch of a Cayman
    /// dispatch (the run-time checkers); add with
    /// [`LaunchConfig::add_cayman_observer`].
    pub cayman_observe: Option<risa_cayman_emu::observe::ObserverFactory>,
}

/// The default per-wave instruction budget: large enough for real kernels,
/// small enough that an endless loop stops within seconds.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 100_000_000;

/// The work-items of a hardware wave on both ISAs: the default and the
/// most of [`LaunchConfig::wave_items`], and the only width Cayman runs.
pub const WAVE_ITEMS: u32 = 64;

impl LaunchConfig {
    /// Adds an observer to the dispatch: with one already set (a checker and a
    /// profiler), both watch every op, the first added first.
    pub fn add_observer(&mut self, f: ObserverFactory) {
        self.observe = Some(match self.observe.take() {
            None => f,
            Some(first) => std::sync::Arc::new(move || {
                Box::new(risa_gcn_emu::exec::Both(first(), f())) as Box<dyn risa_gcn_emu::Observer>
            }),
        });
    }

    /// [`LaunchConfig::add_observer`] for Cayman dispatches: with one already
    /// set, both watch, the first added first.
    pub fn add_cayman_observer(&mut self, f: risa_cayman_emu::observe::ObserverFactory) {
        self.cayman_observe = Some(match self.cayman_observe.take() {
            None => f,
            Some(first) => first.and(f),
        });
    }

    /// A launch of `grid` work-items in `dims` dimensions, block 64x1x1, on every core.
    pub fn new(grid: [u32; 3], dims: u32) -> LaunchConfig {
        LaunchConfig {
            grid,
            block: [64, 1, 1],
            offset: [0; 3],
            dims,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            threads: host_threads(),
            wave_items: WAVE_ITEMS,
            trace: None,
            observe: None,
            llvm_r600_atomics: false,
            cayman_profile: None,
            cayman_observe: None,
        }
    }
}

/// The index of the kernel named `name` among `names`, or of the only one
/// when `name` is None (`--kernel` may be left out then).
pub(crate) fn pick_kernel(names: &[&str], name: Option<&str>) -> Result<usize, KernelError> {
    let all = || names.join(", ");
    match name {
        Some(n) => names
            .iter()
            .position(|k| *k == n)
            .ok_or_else(|| KernelError::NotFound {
                name: n.to_string(),
                all: all(),
            }),
        None if names.len() == 1 => Ok(0),
        None => Err(KernelError::Ambiguous {
            count: names.len(),
            all: all(),
        }),
    }
}

/// The host's cores, asked once: `available_parallelism` reads the cgroup
/// files on every call, which showed in the launch overhead.
pub fn host_threads() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What a finished dispatch leaves behind.
#[derive(Debug)]
pub struct RunResult {
    /// Every buffer argument after the run: (argument index, bytes).
    pub buffers: Vec<(usize, Vec<u8>)>,
    /// Counters.
    pub stats: Stats,
    /// Wall time of the dispatch.
    pub wall: Duration,
    /// CPU time the worker threads used (Linux; None when not measurable).
    pub cpu: Option<Duration>,
    /// Host threads used.
    pub threads: usize,
}

/// Where and why a dispatch stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultReport {
    /// Kernel name.
    pub kernel: String,
    /// Work-group id.
    pub group: [u32; 3],
    /// Wave within the work-group.
    pub wave: u32,
    /// Lane, for per-lane faults.
    pub lane: Option<u32>,
    /// Byte offset of the instruction in .text.
    pub pc: u64,
    /// Device address of the instruction.
    pub pc_addr: u64,
    /// The instruction.
    pub instr: String,
    /// The faulting address, if any.
    pub addr: Option<u64>,
    /// What happened.
    pub message: String,
}

impl fmt::Display for FaultReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "fault in kernel {}:", self.kernel)?;
        writeln!(
            f,
            "  work-group ({}, {}, {}), wave {}{}",
            self.group[0],
            self.group[1],
            self.group[2],
            self.wave,
            self.lane.map(|l| format!(", lane {l}")).unwrap_or_default()
        )?;
        writeln!(
            f,
            "  pc {:#x} (.text+{:#x}): {}",
            self.pc_addr, self.pc, self.instr
        )?;
        if let Some(a) = self.addr {
            writeln!(f, "  address {a:#x}")?;
        }
        write!(f, "  {}", self.message)
    }
}

/// Why a dispatch did not complete.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The code object cannot be loaded.
    #[error("cannot load the kernel: {0}")]
    Load(GcnLoadError),
    /// The arguments do not fit the kernel.
    #[error("bad arguments: {0}")]
    Args(ArgError),
    /// The kernel faulted; the memory as it was at the fault is in the result.
    #[error("{0}")]
    Fault(Box<FaultReport>, Box<RunResult>),
}
