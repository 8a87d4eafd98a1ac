//! Execution counts for `risa run --profile`: per CF instruction, per ALU
//! group and per fetch instruction, the waves that executed it and the
//! lanes active when they did. A wave counts only when the dispatch asked
//! for a profile ([`crate::Dispatch::profile`]); the unprofiled loop pays
//! one pointer test per CF instruction and per fetch instruction.

use crate::kernel::Kernel;
use crate::program::Program;
use std::sync::{Arc, Mutex};

/// How often one profiled unit ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count {
    /// Wave-executions (as `--stats` counts them).
    pub waves: u64,
    /// Lanes in the active mask (work-items only: a partial wave's lanes
    /// past the work-group's end never count), summed over the executions.
    pub lanes: u64,
}

impl Count {
    #[inline]
    pub(crate) fn add(&mut self, mask: u64) {
        self.waves += 1;
        self.lanes += u64::from(mask.count_ones());
    }
}

/// Where each profiled unit's count lives: CF instruction i at i, then the
/// groups of ALU clause c from `alu[c]`, then the instructions of fetch
/// clause f from `fetch[f]`.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// First count of each ALU clause's groups (a clause that does not
    /// decode has none).
    pub alu: Vec<usize>,
    /// First count of each fetch clause's instructions.
    pub fetch: Vec<usize>,
    /// Number of counts.
    pub len: usize,
}

impl Layout {
    /// The layout of `prog`'s counts.
    pub fn new(prog: &Program) -> Layout {
        let mut len = prog.cf.len();
        let alu = prog
            .alu
            .iter()
            .map(|c| {
                let at = len;
                len += c.as_ref().map_or(0, |c| c.groups.len());
                at
            })
            .collect();
        let fetch = prog
            .fetch
            .iter()
            .map(|c| {
                let at = len;
                len += c.len();
                at
            })
            .collect();
        Layout { alu, fetch, len }
    }
}

/// One wave's counts (kept across the work-groups its worker thread runs).
#[derive(Debug)]
pub(crate) struct WaveCounts {
    pub(crate) layout: Arc<Layout>,
    pub(crate) counts: Vec<Count>,
}

impl WaveCounts {
    pub(crate) fn new(layout: Arc<Layout>) -> WaveCounts {
        let counts = vec![Count::default(); layout.len];
        WaveCounts { layout, counts }
    }
}

/// What a profiled dispatch gathered: the program it ran and its counts.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The program, as the emulator lowered it.
    pub program: Program,
    /// Its code, from the first CF instruction on.
    pub code: Vec<u8>,
    /// Where each unit's count is.
    pub layout: Layout,
    /// The counts, summed over every wave of the dispatch.
    pub counts: Vec<Count>,
}

/// Receives the counts of profiled dispatches (set
/// [`crate::Dispatch::profile`] to one; read it with [`ProfileSink::take`]
/// after the run, also after a fault: the counts then cover what ran).
#[derive(Debug, Default)]
pub struct ProfileSink {
    got: Mutex<Option<Profile>>,
}

impl ProfileSink {
    /// An empty sink.
    pub fn new() -> Arc<ProfileSink> {
        Arc::new(ProfileSink::default())
    }

    /// Adds `counts` of a dispatch of `kernel` (dispatches of one program
    /// add up; another program replaces what was there).
    pub(crate) fn add(&self, kernel: &Kernel, layout: &Layout, counts: &[Count]) {
        let code = kernel.text.get(kernel.offset as usize..).unwrap_or(&[]);
        let mut g = self.got.lock().unwrap_or_else(|e| e.into_inner());
        let same = g.as_ref().is_some_and(|p| p.code == code);
        if !same {
            *g = Some(Profile {
                program: kernel.program.clone(),
                code: code.to_vec(),
                layout: layout.clone(),
                counts: vec![Count::default(); layout.len],
            });
        }
        if let Some(p) = g.as_mut() {
            for (a, b) in p.counts.iter_mut().zip(counts) {
                a.waves += b.waves;
                a.lanes += b.lanes;
            }
        }
    }

    /// What the dispatches gathered (None when none ran).
    pub fn take(&self) -> Option<Profile> {
        self.got.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Sums the counts of `waves` (each wave's own since the dispatch began).
pub(crate) fn merge<'a>(
    into: &mut Vec<Count>,
    waves: impl Iterator<Item = &'a Option<Box<WaveCounts>>>,
) {
    for w in waves.flatten() {
        if into.len() < w.counts.len() {
            into.resize(w.counts.len(), Count::default());
        }
        for (a, b) in into.iter_mut().zip(&w.counts) {
            a.waves += b.waves;
            a.lanes += b.lanes;
        }
    }
}
