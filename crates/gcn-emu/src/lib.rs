//! A functional emulator for GCN 1.0, 1.1, 1.2 and 1.4 wavefronts.
//!
//! Code is decoded once into a [`Program`] of pre-decoded [`program::Op`]s,
//! each carrying a function pointer to its semantics; a [`Wave`] holds the
//! registers; [`exec::run_group`] runs the waves of one work-group, which
//! share LDS and meet at `s_barrier`. Device memory is reached only through
//! the [`Memory`] trait, so the emulator never touches host memory outside
//! the guest's allocations.
//!
//! ```
//! use risa_gcn::Gen;
//! use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};
//! // v_add_u32 v0, vcc, 5, v0 ; s_endpgm  (GCN 1.2)
//! let code = [0x3200_0085u32, 0xbf81_0000];
//! let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let prog = Program::new(Gen::Gcn12, &bytes, 0x1000);
//! let mem = SimpleMemory::new();
//! let mut lds = vec![0u8; 0];
//! let mut ctx = Ctx::new(&prog, &mem, &mut lds);
//! let mut w = Wave::new(0);
//! w.set_s64(risa_gcn_emu::wave::EXEC, u64::MAX);
//! w.v[0] = [37; 64];
//! exec::run_wave(&mut w, &mut ctx).unwrap();
//! assert_eq!(w.v[0][5], 42);
//! ```
#![warn(missing_docs)]

pub mod exec;
pub mod fault;
pub mod float;
#[cfg(feature = "test-utils")]
pub mod fuzz;
pub mod gds;
pub mod image;
pub mod mem;
pub mod program;
pub mod sampler;
mod sem;
mod two_over_pi;
pub mod wave;

pub use exec::{Ctx, Observer, Stats, WaveEvent};
pub use fault::{Fault, FaultKind};
pub use gds::{Gds, GdsTooLarge, GDS_BYTES};
pub use mem::{AtomicApply, AtomicOp, Memory, OutOfRange, SimpleMemory};
pub use program::Program;
pub use sem::{coverage, lds_footprint, resolves, rounded_ops, LdsAccess};
pub use wave::Wave;
