//! Checkers that see what the hardware would hide: a register read before
//! its load returned (`waitcnt`), a missing wait state (`hazards`), LDS and
//! global-memory races (`races`) and reads of never-written state
//! (`uninit`).
//!
//! Every checker reports [`Finding`]s into a [`Report`], which keeps one
//! entry per (PC, kind) with a count, so a bug inside a loop run by a
//! thousand waves is printed once.
#![warn(missing_docs)]

pub mod access;
pub mod cayman;
pub mod cfg;
pub mod counters;
pub mod error;
pub mod finding;
pub mod hazard;
pub mod lint;
pub mod object;
pub mod run;

pub use error::CheckError;
pub use finding::{Finding, Kind, Report};
