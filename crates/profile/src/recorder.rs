//! The observer that counts what waves issue (and records their timeline),
//! one per worker thread, and the shared state the counts are merged into.

use crate::listing::Listing;
use crate::timeline::{Limits, Timeline, Tracker, What};
use risa_gcn::Dialect;
use risa_gcn_emu::exec::{Observer, WaveEvent};
use risa_gcn_emu::program::Op;
use risa_gcn_emu::{Ctx, Wave};
use std::sync::{Arc, Mutex, OnceLock};

/// How often one instruction issued.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpCount {
    /// Waves that issued it (each issue counts once: a loop body counts
    /// once per iteration), i.e. wave-instructions as `--stats` counts them.
    pub waves: u64,
    /// Lanes active under EXEC when it issued, summed over the issues.
    pub lanes: u64,
}

/// What the worker threads' recorders hand over when they are dropped.
#[derive(Default)]
struct Merged {
    counts: Vec<OpCount>,
    timeline: Timeline,
}

struct Shared {
    dialect: Dialect,
    limits: Option<Limits>,
    listing: OnceLock<Arc<Listing>>,
    merged: Mutex<Merged>,
}

/// Profiles one GCN dispatch: make one [`Recorder`] per worker thread with
/// [`Profiler::recorder`] (e.g. from `risa_runtime::LaunchConfig::observe`),
/// run, drop the recorders (the runtime does when the dispatch ends), then
/// [`Profiler::finish`].
#[derive(Clone)]
pub struct Profiler {
    shared: Arc<Shared>,
}

/// The profile of a finished dispatch.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The program's instructions (None when no instruction ran).
    pub listing: Option<Arc<Listing>>,
    /// Per op of the listing, how often it issued.
    pub counts: Vec<OpCount>,
    /// The timeline, when one was asked for.
    pub timeline: Option<Timeline>,
}

impl Profiler {
    /// A profiler printing instructions in `dialect`; `timeline` records a
    /// timeline under those limits as well.
    pub fn new(dialect: Dialect, timeline: Option<Limits>) -> Profiler {
        Profiler {
            shared: Arc::new(Shared {
                dialect,
                limits: timeline,
                listing: OnceLock::new(),
                merged: Mutex::new(Merged::default()),
            }),
        }
    }

    /// The observer of one worker thread.
    pub fn recorder(&self) -> Box<dyn Observer> {
        Box::new(Recorder {
            shared: self.shared.clone(),
            listing: None,
            counts: Vec::new(),
            tracker: self.shared.limits.map(Tracker::new),
        })
    }

    /// What the recorders gathered (call after they were dropped).
    pub fn finish(&self) -> Profile {
        let mut m = self.shared.merged.lock().unwrap_or_else(|e| e.into_inner());
        let mut timeline = std::mem::take(&mut m.timeline);
        timeline.groups.sort_by_key(|g| g.id);
        timeline.limits = self.shared.limits;
        Profile {
            listing: self.shared.listing.get().cloned(),
            counts: std::mem::take(&mut m.counts),
            timeline: self.shared.limits.map(|_| timeline),
        }
    }
}

/// Counts the instructions one worker thread's waves issue.
pub struct Recorder {
    shared: Arc<Shared>,
    listing: Option<Arc<Listing>>,
    counts: Vec<OpCount>,
    tracker: Option<Tracker>,
}

impl Recorder {
    /// Takes the program's listing (printed once per dispatch, by the first
    /// recorder to see an instruction).
    #[cold]
    fn first_issue(&mut self, ctx: &Ctx) {
        let dialect = self.shared.dialect;
        let listing = self
            .shared
            .listing
            .get_or_init(|| Arc::new(Listing::new(ctx.prog, dialect)))
            .clone();
        self.counts.resize(listing.lines.len(), OpCount::default());
        self.listing = Some(listing);
    }
}

impl Observer for Recorder {
    #[inline]
    fn before(&mut self, w: &Wave, idx: usize, _op: &Op, ctx: &Ctx) {
        if idx >= self.counts.len() {
            self.first_issue(ctx);
        }
        let c = &mut self.counts[idx];
        c.waves += 1;
        c.lanes += u64::from(w.exec().count_ones());
        if let (Some(t), Some(l)) = (self.tracker.as_mut(), self.listing.as_ref()) {
            if let Some(class) = l.lines[idx].class {
                t.issue(w.id as usize, idx, class);
            }
        }
    }

    fn event(&mut self, w: &mut Wave, ev: WaveEvent, _ctx: &mut Ctx) {
        let Some(t) = self.tracker.as_mut() else {
            return;
        };
        let wave = w.id as usize;
        match ev {
            WaveEvent::Resume => t.resume(wave),
            WaveEvent::Barrier => t.barrier(wave),
            WaveEvent::Parked => t.stop(wave, What::Parked),
            WaveEvent::Done => t.stop(wave, What::End),
        }
    }

    fn group_start(&mut self, group: u64, waves: &[Wave]) {
        if let Some(t) = self.tracker.as_mut() {
            t.start(group, waves.len());
        }
    }

    fn group_end(&mut self, _group: u64) {
        if let Some(g) = self.tracker.as_mut().and_then(|t| t.end()) {
            let mut m = self.shared.merged.lock().unwrap_or_else(|e| e.into_inner());
            m.timeline.groups.push(g);
        }
    }
}

impl Drop for Recorder {
    /// Adds this thread's counts to the dispatch's.
    fn drop(&mut self) {
        let mut m = self.shared.merged.lock().unwrap_or_else(|e| e.into_inner());
        if m.counts.len() < self.counts.len() {
            m.counts.resize(self.counts.len(), OpCount::default());
        }
        for (a, b) in m.counts.iter_mut().zip(&self.counts) {
            a.waves += b.waves;
            a.lanes += b.lanes;
        }
        if let Some(t) = &self.tracker {
            m.timeline.skipped_groups += t.skipped;
        }
    }
}
