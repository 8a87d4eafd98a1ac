//! Profiles and timelines of GCN dispatches (and profiles of Cayman ones,
//! see [`cayman`]) on the emulator (`risa run
//! --profile`, `--profile-html`, `--timeline`).
//!
//! A [`Profiler`] hands out one [`Recorder`] (a
//! [`risa_gcn_emu::exec::Observer`]) per worker thread; each counts, per
//! instruction, the waves that issued it and the lanes active under EXEC,
//! and optionally records the dispatch's [`timeline`]. After the dispatch,
//! [`Profiler::finish`] merges them into a [`Profile`], which [`report`]
//! prints the way `perf annotate` does and [`html`] turns into a
//! self-contained page.
#![warn(missing_docs)]

pub mod cayman;
pub mod html;
pub mod listing;
pub mod recorder;
pub mod report;
pub mod svg;
pub mod timeline;

pub use listing::{Class, Line, Listing};
pub use recorder::{OpCount, Profile, Profiler, Recorder};
pub use timeline::{Limits, Timeline};
