//! Work-group scheduling over host threads (ISA-independent): workers take
//! group indices from a shared counter; the first fault (lowest group index
//! among those that faulted) stops the dispatch.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Runs `work(state, group)` for every group in `0..groups` on `threads`
/// threads, each with its own state from `make`. Returns the states and the
/// first error with its group index.
pub fn run_groups<S: Send, E: Send>(
    groups: u64,
    threads: usize,
    mut make: impl FnMut(usize) -> S,
    work: impl Fn(&mut S, u64) -> Result<(), E> + Sync,
) -> (Vec<S>, Option<(u64, E)>) {
    let threads = threads.max(1).min(groups.max(1) as usize);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first: Mutex<Option<(u64, E)>> = Mutex::new(None);
    let mut states: Vec<S> = (0..threads).map(&mut make).collect();
    std::thread::scope(|s| {
        for st in states.iter_mut() {
            let (next, stop, first, work) = (&next, &stop, &first, &work);
            s.spawn(move || loop {
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
                    break;
                }
            });
        }
    });
    (states, first.into_inner().unwrap())
}
