//! The Global Data Share and the global wave-sync (GWS) resources: state
//! shared by every work-group of a dispatch, whichever worker thread runs it.
//!
//! * **GDS memory**: 64 KiB per device. A DS instruction with GDS=1 reaches it
//!   through the window M0 gives the wave (bits 31:16 base, bits 15:0 size in
//!   bytes, `GcnInstrsDs.md`); an access that does not lie wholly inside
//!   `[base, base + size)` (or past the 64 KiB) reads 0 and writes nothing,
//!   as LDS accesses beyond M0 do. Each DS instruction takes the GDS lock
//!   once for all its lanes, so GDS atomics are atomic across worker threads
//!   and a wave's instruction is never interleaved with another's.
//! * **GWS resources**: 64 counters used as barriers or semaphores by the
//!   `ds_gws_*` instructions; the resource is `(M0[21:16] + OFFSET[5:0]) % 64`.
//! * **Ordered count**: `ds_ordered_count` runs in dispatch order (work-group
//!   index, then wave index within the group), one turn per counter index.
//!
//! A wave that must wait (a barrier not yet met, a semaphore at 0, not its
//! ordered turn) is parked with [`crate::wave::Status::Sync`] and its PC on the
//! instruction; the work-group's other waves keep running, and when none can
//! run, the worker thread sleeps until some other thread changes the state.
//! Residency: a work-group occupies its worker thread until all its waves end,
//! so at most `workers` work-groups are resident at once. When every worker
//! that could still make progress sleeps, nothing can ever wake them: that is
//! reported as [`FaultKind::GwsDeadlock`] instead of hanging.

use crate::fault::FaultKind;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Preloaded GDS contents (of this many bytes) larger than the GDS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("GDS contents of {0} bytes exceed the {GDS_BYTES} bytes of the global data share")]
pub struct GdsTooLarge(pub usize);

/// Bytes of global data share per device (GCN: 64 KiB).
pub const GDS_BYTES: usize = 64 * 1024;
/// Number of GWS resources (barriers / semaphores).
pub const GWS_RESOURCES: usize = 64;
/// Number of ordered-count indices (`OFFSET0 >> 2`).
pub const ORDERED_INDICES: usize = 64;

/// A wave in dispatch order: (work-group linear index, wave index in the group).
pub type WaveId = (u64, u32);

/// One GWS resource.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Resource {
    /// Barrier: waves still to arrive before release; semaphore: its count.
    pub counter: u32,
    /// Bumped each time the barrier releases its waves.
    pub barrier_gen: u64,
    /// Bumped by `ds_gws_sema_release_all`: waves waiting in P go on.
    pub release_gen: u64,
    /// Waves parked on this resource (for the deadlock report).
    pub waiting: u32,
    /// What the last waiter waits for (for the deadlock report).
    pub barrier: bool,
}

/// Everything behind the GDS lock.
pub(crate) struct State {
    /// GDS memory.
    pub mem: Vec<u8>,
    /// GWS resources.
    pub gws: [Resource; GWS_RESOURCES],
    /// Per ordered-count index: whose turn it is.
    pub turn: [WaveId; ORDERED_INDICES],
    /// Waves that ended before their turn came (value: waves in their group).
    finished: BTreeMap<WaveId, u32>,
    /// Worker threads that have not yet left the dispatch.
    live: usize,
    /// Worker threads asleep in [`Gds::wait_change`] that have not been
    /// woken by a change since they went to sleep.
    asleep: usize,
    /// Bumped with every change: a sleeper counted in `asleep` under an older
    /// value has already been reset out of it by [`Gds::changed`].
    sleep_gen: u64,
    /// Why the dispatch stops (a fault elsewhere or a deadlock).
    cancelled: bool,
}

/// The device's global data share with the GWS and ordered-count state.
/// Shared by reference between the worker threads of a dispatch.
pub struct Gds {
    state: Mutex<State>,
    /// Bumped (under the lock) on every change a parked wave may be waiting
    /// for; read without the lock before each round of a work-group's waves.
    epoch: AtomicU64,
    wake: Condvar,
    /// Whether waves must report their end (the program has `ds_ordered_count`).
    track_ends: AtomicBool,
}

impl Default for Gds {
    fn default() -> Self {
        Gds::new()
    }
}

impl Gds {
    /// A zeroed GDS for one worker thread.
    pub fn new() -> Gds {
        Gds {
            state: Mutex::new(State {
                mem: vec![0; GDS_BYTES],
                gws: [Resource::default(); GWS_RESOURCES],
                turn: [(0, 0); ORDERED_INDICES],
                finished: BTreeMap::new(),
                live: 1,
                asleep: 0,
                sleep_gen: 0,
                cancelled: false,
            }),
            epoch: AtomicU64::new(0),
            wake: Condvar::new(),
            track_ends: AtomicBool::new(false),
        }
    }

    /// A GDS preloaded with `bytes` at address 0 (the rest zero).
    pub fn from_bytes(bytes: &[u8]) -> Result<Gds, GdsTooLarge> {
        if bytes.len() > GDS_BYTES {
            return Err(GdsTooLarge(bytes.len()));
        }
        let g = Gds::new();
        g.lock().mem[..bytes.len()].copy_from_slice(bytes);
        Ok(g)
    }

    /// A copy of the GDS memory.
    pub fn bytes(&self) -> Vec<u8> {
        self.lock().mem.clone()
    }

    /// Prepares for a dispatch run by `workers` threads: GWS resources, ordered
    /// turns and worker accounting are reset; the memory is kept (preloaded
    /// data stays). `track_ends` says whether waves must report their end
    /// (needed when the program uses `ds_ordered_count`; see [`uses_ordered`]).
    pub fn begin_dispatch(&self, workers: usize, track_ends: bool) {
        let mut s = self.lock();
        s.gws = [Resource::default(); GWS_RESOURCES];
        s.turn = [(0, 0); ORDERED_INDICES];
        s.finished.clear();
        s.live = workers.max(1);
        s.asleep = 0;
        s.sleep_gen += 1;
        s.cancelled = false;
        self.track_ends.store(track_ends, Ordering::Relaxed);
    }

    /// A worker thread leaves the dispatch (no more work-groups, or it faulted).
    pub fn worker_done(&self) {
        let mut s = self.lock();
        s.live = s.live.saturating_sub(1);
        drop(s);
        self.wake.notify_all();
    }

    /// Stops the dispatch: parked waves end with [`FaultKind::Cancelled`].
    pub fn cancel(&self) {
        self.lock().cancelled = true;
        self.wake.notify_all();
    }

    /// Whether the dispatch was stopped ([`Gds::cancel`] or a deadlock).
    pub fn cancelled(&self) -> bool {
        self.lock().cancelled
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave GDS half-updated in a way
        // that matters more than the panic itself; keep going with the data.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The current change counter (read before running a round of waves).
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }

    /// Records a change that parked waves may be waiting for and wakes sleepers.
    /// Every sleeper now has a reason to run again, so none of them counts as
    /// stuck any more (until it sleeps again after looking at the change).
    pub(crate) fn changed(&self, locked: &mut State) {
        locked.asleep = 0;
        locked.sleep_gen += 1;
        self.epoch.fetch_add(1, Ordering::AcqRel);
        self.wake.notify_all();
    }

    /// Sleeps until the state changes after `seen`; returns the new epoch.
    /// Fails with [`FaultKind::GwsDeadlock`] when every live worker sleeps
    /// (nothing can ever change), or [`FaultKind::Cancelled`].
    ///
    /// A worker woken by a change is not counted as asleep while it has not
    /// yet run again: otherwise a second worker that parks right after the
    /// change, before the woken one has taken the lock, would see "everyone
    /// asleep" and report a deadlock that is not there.
    pub fn wait_change(&self, seen: u64) -> Result<u64, FaultKind> {
        let mut s = self.lock();
        let gen = s.sleep_gen;
        s.asleep += 1;
        let r = loop {
            if s.cancelled {
                break Err(FaultKind::Cancelled);
            }
            let now = self.epoch.load(Ordering::Acquire);
            if now != seen {
                break Ok(now);
            }
            if s.sleep_gen == gen && s.asleep >= s.live {
                s.cancelled = true;
                self.wake.notify_all();
                break Err(FaultKind::GwsDeadlock(deadlock_message(&s)));
            }
            s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        };
        if s.sleep_gen == gen {
            s.asleep -= 1;
        }
        r
    }

    /// Wave `id` of a group of `waves` waves ended: its ordered turns pass on.
    pub fn wave_ended(&self, id: WaveId, waves: u32) {
        if !self.track_ends.load(Ordering::Relaxed) {
            return;
        }
        let mut s = self.lock();
        let mut moved = false;
        let mut holds = false;
        for k in 0..ORDERED_INDICES {
            if s.turn[k] == id {
                holds = true;
            }
        }
        if holds {
            s.finished.insert(id, waves);
            for k in 0..ORDERED_INDICES {
                if s.turn[k] == id {
                    advance(&mut s, k, waves);
                    moved = true;
                }
            }
        } else if s.turn.iter().any(|t| *t < id) {
            s.finished.insert(id, waves);
        }
        // Forget finished waves every turn has passed.
        let min = s.turn.iter().min().copied().unwrap_or((0, 0));
        s.finished = s.finished.split_off(&min);
        if moved {
            self.changed(&mut s);
        }
    }
}

/// Passes ordered turn `k` from its holder (in a group of `waves` waves) to
/// the next wave in dispatch order that has not already ended.
pub(crate) fn advance(s: &mut State, k: usize, waves: u32) {
    let (g, w) = s.turn[k];
    let mut next = if w + 1 < waves {
        (g, w + 1)
    } else {
        (g + 1, 0)
    };
    while let Some(&n) = s.finished.get(&next) {
        next = if next.1 + 1 < n {
            (next.0, next.1 + 1)
        } else {
            (next.0 + 1, 0)
        };
    }
    s.turn[k] = next;
}

fn deadlock_message(s: &State) -> String {
    let mut parts = Vec::new();
    for (i, r) in s.gws.iter().enumerate() {
        if r.waiting > 0 {
            if r.barrier {
                parts.push(format!(
                    "GWS barrier {i}: {} wave(s) wait, {} more must arrive",
                    r.waiting,
                    u64::from(r.counter) + 1
                ));
            } else {
                parts.push(format!(
                    "GWS semaphore {i}: {} wave(s) wait in P, count 0",
                    r.waiting
                ));
            }
        }
    }
    let what = if parts.is_empty() {
        String::from("waves wait for their ds_ordered_count turn")
    } else {
        parts.join("; ")
    };
    format!(
        "{what}, and no wave that could release them can run: {} worker thread(s), \
         one resident work-group each, all blocked",
        s.live
    )
}

/// Whether `prog` contains `ds_ordered_count` (waves must then report their end).
pub fn uses_ordered(prog: &crate::Program) -> bool {
    prog.ops
        .iter()
        .any(|o| o.instr.info().name == "ds_ordered_count")
}
