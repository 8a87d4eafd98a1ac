//! Functional emulator for AMD Cayman (TeraScale 3, Radeon HD 6900, VLIW4)
//! programs, following AMD's "HD 6900 Series Instruction Set Architecture"
//! guide.
//!
//! * [`program`] — a CF program lowered once into pre-decoded CF ops, ALU
//!   groups (literals resolved) and fetch clauses;
//! * [`alu`] — the semantics of the OP2/OP3 instructions over 64 lanes;
//! * [`fmode`] — the ALU ops under a non-default SET_MODE, and the
//!   exception flags of the multi-slot ops;
//! * [`wave`] — a 64-thread wavefront: CF execution with the branch-loop
//!   stack, ALU groups (all slots read before any writes), vertex fetches,
//!   texture loads, RAT writes and atomics, LDS through LDS_IDX_OP and its
//!   output queues, GDS, GWS;
//! * [`memory`] — the guest's global pool ([`GlobalMemory`], [`Pool`]);
//! * [`resource`] — the fetch resources and RAT windows the host binds
//!   (buffers, linear textures) and the data formats VTX and TEX share;
//! * [`sync`] — GWS resources and the GDS ordered-append counter, shared
//!   by the waves of a dispatch;
//! * [`kernel`] — a kernel ready to dispatch (the runtime loads r600 ELF
//!   objects into these: `risa_runtime::cayman::load`);
//! * [`dispatch`] — launch state, work-groups in parallel (on the persistent
//!   worker threads of `risa-workers`), with the constant buffers the host
//!   laid out (`risa_runtime::cayman::abi`).
//!
//! ```no_run
//! use risa_cayman_emu::{run, Dispatch, Kernel, Pool};
//! // A raw CF program (`risa asm --arch cayman` output); the runtime
//! // (`risa_runtime::cayman`) loads r600 ELF objects and lays out arguments.
//! let code = std::fs::read("prog.bin").unwrap();
//! let k = Kernel::from_code("prog", &code);
//! let pool = Pool::new(256);
//! let mut d = Dispatch::linear(64, 64);
//! d.constants = vec![vec![0; 16]]; // constant buffer 0, as the program reads it
//! let stats = run(&k, &d, &pool).unwrap();
//! println!("{} ALU groups", stats.alu_groups);
//! ```

#![warn(missing_docs)]
// Lane loops index several arrays by lane; iterators would hide that.
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]

pub mod alu;
pub mod dispatch;
pub mod fault;
pub mod fmode;
#[doc(hidden)]
#[cfg(feature = "test-utils")]
pub mod fuzzing;
pub mod kernel;
pub mod memory;
pub mod observe;
pub mod profile;
pub mod program;
pub mod resource;
pub mod sync;
pub mod trace;
pub mod wave;

pub use dispatch::{run, run_with_gds, Dispatch, GDS_BYTES};
pub use fault::{Fault, Location, Stats};
pub use kernel::Kernel;
pub use memory::{GlobalMemory, MemError, Pool};
pub use observe::Observer;
pub use profile::ProfileSink;
pub use resource::{Dim, Format, Resource, Resources, UnsupportedFormat};
pub use sync::{SyncState, APPEND_COUNTERS};
pub use trace::TraceSink;
