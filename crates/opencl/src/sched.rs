//! When commands run. A command runs when it is enqueued unless its wait
//! list holds an event that is not complete yet (a user event, or a command
//! that is itself waiting) or an earlier command of its queue is still
//! waiting (queues run in order). Such a command is kept here and runs in
//! the thread that completes the last event it waits for — the one that
//! calls clSetUserEventStatus — so a host program that sets the status later
//! from the same thread does not deadlock. A negative status ends the
//! commands that wait for it (and theirs, in turn) with
//! CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, without running them.

use crate::event::{self, event, now_ns, Event};
use crate::handle::{self, Ref};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::{Condvar, Mutex, MutexGuard};

/// The work of a command, checked and with its arguments captured when it
/// was enqueued: returns the event's final status (`Ok`), or an error that
/// the enqueue call returns when the command runs at once (`Err`; the
/// event's status when it ran later).
pub type Job = Box<dyn FnOnce() -> Result<cl_int, cl_int>>;

/// A command waiting for events.
struct Waiting {
    queue: usize,
    wait: Vec<Ref<c_void>>,
    event: Ref<c_void>,
    /// Taken when the command starts (it stays listed until it ends, so
    /// that clFinish and the queue's order see it).
    job: Option<Job>,
}

// SAFETY: OpenCL objects and the host memory a command names may be used
// from any thread (the OpenCL API is thread-safe); a job runs once, in
// the thread that completes its last event, while no other thread holds it.
unsafe impl Send for Waiting {}

static WAITING: Mutex<Vec<Waiting>> = Mutex::new(Vec::new());
static DONE: Condvar = Condvar::new();

fn waiting() -> MutexGuard<'static, Vec<Waiting>> {
    WAITING.lock().unwrap_or_else(|e| e.into_inner())
}

fn pending(e: cl_event) -> bool {
    event(e).is_some_and(|ev| ev.status() > CL_COMPLETE)
}

/// Runs or keeps a command of queue `q` (context `ctx`, type `ty`) that
/// waits for `wait`; `out` (may be null) gets its event. With `blocking`,
/// returns when the command has ended (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_
/// WAIT_LIST when it did not run).
pub fn submit(
    q: cl_command_queue,
    ctx: cl_context,
    ty: cl_command_type,
    wait: &[cl_event],
    out: *mut cl_event,
    blocking: bool,
    job: Job,
) -> cl_int {
    let queued = now_ns();
    let mut list = waiting();
    let held = list.iter().any(|w| w.queue == q as usize) || wait.iter().any(|&e| pending(e));
    if !held {
        drop(list);
        let failed = wait
            .iter()
            .any(|&e| event(e).is_some_and(|ev| ev.status() < 0));
        if failed && blocking {
            return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        }
        let start = now_ns();
        let status = if failed {
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        } else {
            match job() {
                Ok(s) => s,
                Err(e) => return e,
            }
        };
        if !out.is_null() {
            let e = event::create(
                ctx,
                q as usize,
                ty,
                status,
                [queued, queued, start, now_ns()],
            );
            // SAFETY: the caller's pointer.
            unsafe { *out = e };
        }
        return CL_SUCCESS;
    }
    let e = event::create(ctx, q as usize, ty, CL_QUEUED, [queued; 4]);
    list.push(Waiting {
        queue: q as usize,
        wait: wait.iter().map(|&w| Ref::new::<Event>(w)).collect(),
        event: Ref::new::<Event>(e),
        job: Some(job),
    });
    drop(list);
    // A blocking command waits here for another thread to set the events.
    let st = if blocking {
        event(e).map_or(CL_COMPLETE, Event::wait)
    } else {
        CL_COMPLETE
    };
    if out.is_null() {
        handle::release::<Event, _>(e);
    } else {
        // SAFETY: the caller's pointer.
        unsafe { *out = e };
    }
    if st < 0 {
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    } else {
        CL_SUCCESS
    }
}

/// clFinish: waits until every kept command of queue `q` has ended (they
/// run in the threads that set the events they wait for).
pub fn finish(q: cl_command_queue) {
    let mut list = waiting();
    while list.iter().any(|w| w.queue == q as usize) {
        list = DONE.wait(list).unwrap_or_else(|e| e.into_inner());
    }
}

/// Runs every kept command that can run now, until none can.
pub fn pump() {
    loop {
        let mut list = waiting();
        let ready = (0..list.len()).find(|&i| {
            let w = &list[i];
            w.job.is_some()
                && !list[..i].iter().any(|o| o.queue == w.queue)
                && !w.wait.iter().any(|e| pending(e.ptr()))
        });
        let Some(i) = ready else { return };
        let job = list[i].job.take().unwrap();
        let e = list[i].event.ptr();
        let failed = list[i]
            .wait
            .iter()
            .any(|w| event(w.ptr()).is_some_and(|ev| ev.status() < 0));
        drop(list);
        if let Some(ev) = event(e) {
            ev.stamp(1);
            ev.stamp(2);
            let status = if failed {
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
            } else {
                event::set_status(e, ev, CL_RUNNING);
                job().unwrap_or_else(|err| err)
            };
            ev.stamp(3);
            event::set_status(e, ev, status);
        }
        let mut list = waiting();
        list.retain(|w| w.event.ptr() != e);
        drop(list);
        DONE.notify_all();
    }
}
