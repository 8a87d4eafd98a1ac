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
/// threads, each with its own state from `make`. `leave(state, faulted)` runs
/// on each worker thread as it stops taking groups (all taken, or a fault).
pub fn run_groups<S: Send, E: Send>(
    groups: u64,
    threads: usize,
    mut make: impl FnMut(usize) -> S,
    work: impl Fn(&mut S, u64) -> Result<(), E> + Sync,
    leave: impl Fn(&mut S, bool) + Sync,
) -> GroupsOutcome<S, E> {
    let threads = threads.max(1).min(groups.max(1) as usize);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first: Mutex<Option<(u64, E)>> = Mutex::new(None);
    let mut states: Vec<S> = (0..threads).map(&mut make).collect();
    let cpu: Mutex<Option<std::time::Duration>> = Mutex::new(Some(std::time::Duration::ZERO));
    std::thread::scope(|s| {
        for st in states.iter_mut() {
            let (next, stop, first, work, cpu, leave) = (&next, &stop, &first, &work, &cpu, &leave);
            s.spawn(move || {
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
                    if let Err(e) = work(st, g) {
                        stop.store(true, Ordering::Relaxed);
                        let mut f = first.lock().unwrap();
                        if f.as_ref().is_none_or(|(fg, _)| g < *fg) {
                            *f = Some((g, e));
                        }
                        faulted = true;
                        break;
                    }
                }
                leave(st, faulted);
                let used = t0.zip(thread_cpu_time()).map(|(a, b)| b.saturating_sub(a));
                let mut c = cpu.lock().unwrap();
                *c = c.zip(used).map(|(a, b)| a + b);
            });
        }
    });
    (
        states,
        first.into_inner().unwrap(),
        cpu.into_inner().unwrap(),
    )
}
