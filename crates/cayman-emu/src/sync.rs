//! Dispatch-wide synchronization between waves: the global wave sync (GWS)
//! resources of the GWS_* CF instructions (guide 8.1, CF_GWS_WORD0) and the
//! hidden ordered-append counter of GDS ATOMIC_ORDERED_ALLOC_RET (guide
//! 9.6), and the append/consume counters GDS ops with ALLOC_CONSUME work
//! on (guide 9.6 MEM_GDS_WORD1 UAV_ID, ALLOC_CONSUME). A wave that has to wait is told so and retries later; programs that
//! use either run with every wave of the dispatch resident (see
//! [`crate::dispatch`]), so a wait that no wave can end is detected instead
//! of hanging.

use std::sync::Mutex;

/// GWS resources (guide 9.1 CF_GWS_WORD0 RESOURCE: 0-31 on two-SE chips).
pub const GWS_RESOURCES: usize = 32;

#[derive(Clone, Copy, Debug)]
struct GwsState {
    value: [i32; GWS_RESOURCES],
    signed: [bool; GWS_RESOURCES],
    waiting: [u32; GWS_RESOURCES],
    generation: [u64; GWS_RESOURCES],
}

#[derive(Debug)]
struct Ordered {
    count: u32,
    /// Waves (dispatch order) that have passed the ordered point: allocated or ended.
    passed: Vec<bool>,
}

/// Append/consume counters of a dispatch (guide 9.6 MEM_GDS_WORD1 UAV_ID:
/// four bits).
pub const APPEND_COUNTERS: usize = 16;

/// Where a wave stands at a GWS barrier: the resource and the generation it waits to see end.
pub type GwsTicket = Option<(u8, u64)>;

/// The shared state of one dispatch.
#[derive(Debug)]
pub struct SyncState {
    gws: Mutex<GwsState>,
    ordered: Mutex<Ordered>,
    append: Mutex<[u32; APPEND_COUNTERS]>,
}

impl Default for SyncState {
    fn default() -> Self {
        SyncState::new()
    }
}

impl SyncState {
    /// Every resource 0 (unsigned), no wave waiting, the ordered counter 0,
    /// the append/consume counters 0.
    pub const fn new() -> SyncState {
        SyncState::with_append_counters([0; APPEND_COUNTERS])
    }

    /// [`SyncState::new`] with the append/consume counters set to `init`.
    pub const fn with_append_counters(init: [u32; APPEND_COUNTERS]) -> SyncState {
        SyncState {
            gws: Mutex::new(GwsState {
                value: [0; GWS_RESOURCES],
                signed: [false; GWS_RESOURCES],
                waiting: [0; GWS_RESOURCES],
                generation: [0; GWS_RESOURCES],
            }),
            ordered: Mutex::new(Ordered {
                count: 0,
                passed: Vec::new(),
            }),
            append: Mutex::new(init),
        }
    }

    /// The current value of GWS resource `r` (for tests and reports).
    pub fn gws_value(&self, r: usize) -> i32 {
        self.gws.lock().unwrap_or_else(|e| e.into_inner()).value[r % GWS_RESOURCES]
    }

    /// The ordered-append counter.
    pub fn ordered_count(&self) -> u32 {
        self.ordered.lock().unwrap_or_else(|e| e.into_inner()).count
    }

    /// The append/consume counters.
    pub fn append_counters(&self) -> [u32; APPEND_COUNTERS] {
        *self.append.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on append/consume counter `c` (< [`APPEND_COUNTERS`]) with
    /// no other wave touching the counters: one GDS instruction's lanes, in
    /// order, form one atomic step.
    pub fn with_append_counter<R>(&self, c: usize, f: impl FnOnce(&mut u32) -> R) -> R {
        let mut a = self.append.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut a[c])
    }

    /// One GWS instruction: `op` 0 SEMA_V, 1 SEMA_P, 2 BARRIER, 3 INIT.
    /// Returns true when the wave goes on, false when it has to wait (and
    /// retry the same instruction with the same `ticket`).
    ///
    /// * INIT sets the resource to VALUE (read as a 10-bit signed number
    ///   when SIGN is set) and forgets waves waiting at its barrier;
    /// * SEMA_V adds one, SEMA_P waits until the value is positive and
    ///   subtracts one (the value wraps within its 10 bits);
    /// * BARRIER waits until VALUE waves wait on the resource; then all of
    ///   them go on (VALUE 0 or 1 never waits).
    pub fn gws(
        &self,
        op: u8,
        resource: u8,
        value: u16,
        sign: bool,
        ticket: &mut GwsTicket,
    ) -> bool {
        let r = resource as usize % GWS_RESOURCES;
        let mut g = self.gws.lock().unwrap_or_else(|e| e.into_inner());
        let wrap = |v: i32, signed: bool| {
            if signed {
                (v << 22) >> 22
            } else {
                v & 0x3ff
            }
        };
        match op {
            0 => {
                g.value[r] = wrap(g.value[r] + 1, g.signed[r]);
                true
            }
            1 => {
                if g.value[r] > 0 {
                    g.value[r] = wrap(g.value[r] - 1, g.signed[r]);
                    true
                } else {
                    false
                }
            }
            2 => {
                if let Some((tr, gen)) = *ticket {
                    if tr as usize == r {
                        if g.generation[r] > gen {
                            *ticket = None;
                            return true;
                        }
                        return false;
                    }
                }
                g.waiting[r] += 1;
                if g.waiting[r] >= value as u32 {
                    g.waiting[r] = 0;
                    g.generation[r] += 1;
                    *ticket = None;
                    true
                } else {
                    *ticket = Some((r as u8, g.generation[r]));
                    false
                }
            }
            _ => {
                g.signed[r] = sign;
                g.value[r] = wrap(value as i32, sign);
                g.waiting[r] = 0;
                true
            }
        }
    }

    /// ATOMIC_ORDERED_ALLOC_RET of wave `wave` (dispatch order): once every
    /// earlier wave has allocated or ended, adds `amount` to the counter and
    /// returns the value before; None while an earlier wave has not.
    pub fn ordered_alloc(&self, wave: usize, amount: u32) -> Option<u32> {
        let mut o = self.ordered.lock().unwrap_or_else(|e| e.into_inner());
        if o.passed.len() <= wave {
            o.passed.resize(wave + 1, false);
        }
        if !o.passed[..wave].iter().all(|&p| p) {
            return None;
        }
        o.passed[wave] = true;
        let old = o.count;
        o.count = old.wrapping_add(amount);
        Some(old)
    }

    /// Wave `wave` ended: later waves no longer wait for its allocation.
    pub fn wave_ended(&self, wave: usize) {
        let mut o = self.ordered.lock().unwrap_or_else(|e| e.into_inner());
        if o.passed.len() <= wave {
            o.passed.resize(wave + 1, false);
        }
        o.passed[wave] = true;
    }
}
