//! The worker threads both emulators run work-groups on, and the
//! ISA-independent scheduling of a dispatch's work-groups over them
//! ([`run_groups`]).
//!
//! Spawning fresh threads per dispatch costs little on an idle machine, but
//! on a busy one a new thread waits to be scheduled (about a millisecond per
//! launch on the 2-core build machine, measured with an empty kernel through
//! the OpenCL ICD), and Linux tends to put both new threads on the same CPU.
//! Threads that outlive dispatches avoid both. They come from rayon: one
//! pool per thread count, whose `broadcast` runs a call on every thread of
//! the pool at once, so the `threads` calls of a dispatch are all resident
//! together (work-groups that wait for each other, as GWS barriers do, need
//! that). A dispatch that finds its pool in use by another one runs on
//! scoped threads instead of queueing behind it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, TryLockError};

/// Most threads a persistent pool has (beyond this, scoped threads).
const MAX_POOLED: usize = 64;

struct Pool {
    threads: rayon::ThreadPool,
    /// Held by the dispatch that uses the pool.
    busy: Mutex<()>,
}

fn pool(threads: usize) -> Option<Arc<Pool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<Pool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Some(p.clone());
    }
    let t = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("risa-worker-{i}"))
        .build()
        .ok()?;
    let p = Arc::new(Pool {
        threads: t,
        busy: Mutex::new(()),
    });
    pools.insert(threads, p.clone());
    Some(p)
}

/// Calls `f(i)` for every `i` in `0..threads`, each on its own thread, all
/// at the same time, and returns when every call has returned. A panic in a
/// call is re-raised here.
pub fn run_on(threads: usize, f: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 {
        f(0);
        return;
    }
    if threads <= MAX_POOLED {
        if let Some(p) = pool(threads) {
            let owner = match p.busy.try_lock() {
                Ok(g) => Some(g),
                // a panic re-raised by an earlier dispatch poisons the lock;
                // the pool itself is consistent again
                Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
                Err(TryLockError::WouldBlock) => None,
            };
            if owner.is_some() {
                p.threads.broadcast(|ctx| f(ctx.index()));
                return;
            }
        }
    }
    std::thread::scope(|s| {
        for i in 1..threads {
            s.spawn(move || f(i));
        }
        f(0);
    });
}

/// CPU time the calling thread has run, from Linux's
/// `/proc/thread-self/schedstat` (None elsewhere).
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(std::time::Duration::from_nanos(ns))
}

/// What the workers of [`run_groups`] leave: their states, the first error
/// with its group index, and the CPU time they used (when measurable).
pub type GroupsOutcome<S, E> = (Vec<S>, Option<(u64, E)>, Option<std::time::Duration>);

/// Runs `work(state, group)` for every group in `0..groups` on `threads`
/// threads (the persistent workers, all resident at once, see [`run_on`]),
/// each with its own state from `make`. Workers take group indices from a
/// shared counter; the first fault (lowest group index among those that
/// faulted) stops the dispatch. `leave(state, faulted)` runs
/// on each worker thread as it stops taking groups (all taken, or a fault).
/// With `measure_cpu`, the workers' CPU time comes back too (two reads of
/// /proc per worker: a cost a caller that does not report it skips).
pub fn run_groups<S: Send, E: Send>(
    groups: u64,
    threads: usize,
    measure_cpu: bool,
    make: impl FnMut(usize) -> S,
    work: impl Fn(&mut S, u64) -> Result<(), E> + Sync,
    leave: impl Fn(&mut S, bool) + Sync,
) -> GroupsOutcome<S, E> {
    let threads = threads.max(1).min(groups.max(1) as usize);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first: Mutex<Option<(u64, E)>> = Mutex::new(None);
    let states: Vec<Mutex<S>> = (0..threads).map(make).map(Mutex::new).collect();
    let cpu: Mutex<Option<std::time::Duration>> = Mutex::new(Some(std::time::Duration::ZERO));
    run_on(threads, &|i| {
        let mut st = states[i].lock().unwrap_or_else(|e| e.into_inner());
        let cpu_time = || measure_cpu.then(thread_cpu_time).flatten();
        let t0 = cpu_time();
        let mut faulted = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= groups {
                break;
            }
            if let Err(e) = work(&mut st, g) {
                stop.store(true, Ordering::Relaxed);
                let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
                if f.as_ref().is_none_or(|(fg, _)| g < *fg) {
                    *f = Some((g, e));
                }
                faulted = true;
                break;
            }
        }
        leave(&mut st, faulted);
        let used = t0.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
        let mut c = cpu.lock().unwrap_or_else(|e| e.into_inner());
        *c = c.zip(used).map(|(a, b)| a + b);
    });
    (
        states
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect(),
        first.into_inner().unwrap_or_else(|e| e.into_inner()),
        cpu.into_inner().unwrap_or_else(|e| e.into_inner()),
    )
}

/// The (x, y, z) id of work-group `g` of a grid of `groups` work-groups,
/// x varying fastest.
pub fn group_id(g: u64, groups: [u32; 3]) -> [u32; 3] {
    let (nx, ny) = (u64::from(groups[0]), u64::from(groups[1]));
    [
        (g % nx) as u32,
        ((g / nx) % ny) as u32,
        (g / (nx * ny)) as u32,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Barrier;

    #[test]
    fn every_index_runs_once_and_all_are_resident_together() {
        for threads in [1, 2, 3, 8] {
            for _ in 0..20 {
                let seen: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
                // Every call waits for all the others: only concurrent calls pass.
                let all = Barrier::new(threads);
                run_on(threads, &|i| {
                    seen[i].fetch_add(1, Ordering::SeqCst);
                    all.wait();
                });
                assert!(seen.iter().all(|s| s.load(Ordering::SeqCst) == 1));
            }
        }
    }

    #[test]
    fn concurrent_dispatchers_fall_back_and_share_work() {
        let total = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let next = AtomicUsize::new(0);
                        let all = Barrier::new(2);
                        run_on(2, &|_| {
                            all.wait();
                            while next.fetch_add(1, Ordering::SeqCst) < 100 {
                                total.fetch_add(1, Ordering::SeqCst);
                            }
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::SeqCst), 4 * 50 * 100);
    }

    #[test]
    fn a_panicking_call_is_re_raised_and_the_pool_still_works() {
        let r = std::panic::catch_unwind(|| run_on(2, &|i| assert_ne!(i, 1, "boom")));
        assert!(r.is_err());
        let n = AtomicUsize::new(0);
        run_on(2, &|_| {
            n.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(n.load(Ordering::SeqCst), 2);
    }
}
