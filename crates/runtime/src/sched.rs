//! Work-group scheduling over host threads (ISA-independent): workers take
//! group indices from a shared counter; the first fault (lowest group index
//! among those that faulted) stops the dispatch.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

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
/// threads (the persistent workers of `risa-workers`, all resident at
/// once), each with its own state from `make`. `leave(state, faulted)` runs
/// on each worker thread as it stops taking groups (all taken, or a fault).
pub fn run_groups<S: Send, E: Send>(
    groups: u64,
    threads: usize,
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
    risa_workers::run_on(threads, &|i| {
        let mut st = states[i].lock().unwrap_or_else(|e| e.into_inner());
        let t0 = thread_cpu_time();
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
        let used = t0.zip(thread_cpu_time()).map(|(a, b)| b.saturating_sub(a));
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
