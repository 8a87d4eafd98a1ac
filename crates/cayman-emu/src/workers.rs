//! Persistent worker threads for dispatches.
//!
//! Spawning fresh threads per dispatch costs little, but on a busy machine
//! Linux places the new threads on the least loaded CPU — often the same
//! one for both — and a short dispatch ends before the load balancer moves
//! either. Threads that outlive dispatches get spread out once and stay
//! spread. One dispatch uses the pool at a time; a dispatch that finds it
//! busy (another thread is dispatching) falls back to scoped threads.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, OnceLock};

/// The job a dispatch hands to the workers: a pointer to its closure with
/// the lifetime erased (see the SAFETY argument in [`run_on`]).
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn() + Sync));
// SAFETY: the pointee is `Sync`, and it is only called while the dispatch
// that owns it waits (see `run_on`).
unsafe impl Send for Job {}

#[derive(Default)]
struct State {
    /// Incremented per dispatch, so a worker takes part in each at most once.
    generation: u64,
    job: Option<Job>,
    /// Workers still wanted for the current job.
    wanted: usize,
    /// Workers that took the current job and have not finished it.
    running: usize,
    /// A worker's call panicked: the payload, re-raised by the dispatcher.
    panic: Option<Box<dyn std::any::Any + Send>>,
    /// Workers alive.
    spawned: usize,
}

struct Pool {
    state: Mutex<State>,
    /// Workers wait here for a job.
    work: Condvar,
    /// The dispatcher waits here for `running` to reach 0.
    done: Condvar,
    /// Held by the dispatch that owns the pool.
    busy: Mutex<()>,
}

/// Most workers the pool keeps (beyond this, dispatches use scoped threads).
const MAX_WORKERS: usize = 64;

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        state: Mutex::new(State::default()),
        work: Condvar::new(),
        done: Condvar::new(),
        busy: Mutex::new(()),
    })
}

fn worker_loop(p: &'static Pool) {
    let mut seen = 0u64;
    loop {
        let job = {
            let mut st = p.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if st.generation != seen && st.wanted > 0 {
                    if let Some(j) = st.job {
                        seen = st.generation;
                        st.wanted -= 1;
                        st.running += 1;
                        break j;
                    }
                }
                st = p.work.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        };
        // SAFETY: the dispatcher keeps the closure alive until `running` is
        // back to 0, which happens only after this call returns.
        let r = catch_unwind(AssertUnwindSafe(|| unsafe { (*job.0)() }));
        let mut st = p.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = r {
            st.panic.get_or_insert(e);
        }
        st.running -= 1;
        if st.running == 0 {
            p.done.notify_all();
        }
    }
}

/// Calls `f` on `threads` threads (the caller's included) and returns when
/// every call has returned. A panic in any call is re-raised here.
pub fn run_on(threads: usize, f: &(dyn Fn() + Sync)) {
    if threads <= 1 {
        f();
        return;
    }
    let p = pool();
    let _owner = match p.busy.try_lock() {
        Ok(g) => g,
        // a panic re-raised by an earlier dispatch poisons the lock; the pool
        // itself is consistent again once that dispatch returned
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return scoped(threads, f),
    };
    let helpers = threads - 1;
    {
        let mut st = p.state.lock().unwrap_or_else(|e| e.into_inner());
        while st.spawned < helpers.min(MAX_WORKERS) {
            if std::thread::Builder::new()
                .name("risa-cayman-worker".into())
                .spawn(move || worker_loop(p))
                .is_err()
            {
                break;
            }
            st.spawned += 1;
        }
        if st.spawned < helpers {
            drop(st);
            return scoped(threads, f);
        }
        // SAFETY: the pointer is erased to 'static only for the workers; this
        // function does not return before `running` is 0 and `wanted` is
        // cleared, so no worker calls `f` after it is gone.
        let job: *const (dyn Fn() + Sync) = unsafe {
            std::mem::transmute::<*const (dyn Fn() + Sync + '_), *const (dyn Fn() + Sync)>(f)
        };
        st.generation += 1;
        st.job = Some(Job(job));
        st.wanted = helpers;
        st.panic = None;
        p.work.notify_all();
    }
    let mine = catch_unwind(AssertUnwindSafe(f));
    let mut st = p.state.lock().unwrap_or_else(|e| e.into_inner());
    // workers that have not started yet will not start: the caller's call
    // has finished and the job's work items are taken from a shared counter,
    // so fewer helpers only means less parallelism
    st.wanted = 0;
    while st.running > 0 {
        st = p.done.wait(st).unwrap_or_else(|e| e.into_inner());
    }
    st.job = None;
    let theirs = st.panic.take();
    drop(st);
    if let Err(e) = mine {
        resume_unwind(e);
    }
    if let Some(e) = theirs {
        resume_unwind(e);
    }
}

fn scoped(threads: usize, f: &(dyn Fn() + Sync)) {
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(f);
        }
        f();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_call_finishes_before_run_on_returns() {
        for threads in [1, 2, 3, 8] {
            for _ in 0..50 {
                let n = AtomicUsize::new(0);
                run_on(threads, &|| {
                    n.fetch_add(1, Ordering::SeqCst);
                });
                // helpers that arrive after the caller finished may skip the job
                let c = n.load(Ordering::SeqCst);
                assert!((1..=threads).contains(&c), "{c} calls on {threads} threads");
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
                        run_on(2, &|| {
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
    fn a_panicking_call_is_re_raised() {
        let r = catch_unwind(|| {
            run_on(2, &|| panic!("boom"));
        });
        assert!(r.is_err());
        // the pool still works afterwards
        let n = AtomicUsize::new(0);
        run_on(2, &|| {
            n.fetch_add(1, Ordering::SeqCst);
        });
        assert!(n.load(Ordering::SeqCst) >= 1);
    }
}
