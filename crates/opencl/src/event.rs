//! Events: the status and times of a command (or of a user event), the
//! callbacks waiting for them, clWaitForEvents and the event queries.

use crate::context::{context, Context};
use crate::handle::{self, Kind, Ref};
use crate::info::{guard, guard_obj, query, slice, Info};
use crate::queue::queue;
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

type Callback = (
    unsafe extern "C" fn(cl_event, cl_int, *mut c_void),
    cl_int,
    usize,
);

/// An event.
pub struct Event {
    /// Its context.
    pub ctx: Ref<c_void>,
    /// Its queue (0 for user events).
    pub queue: usize,
    /// CL_COMMAND_*.
    pub command: cl_command_type,
    /// CL_QUEUED .. CL_COMPLETE, or a negative error.
    status: Mutex<cl_int>,
    /// Signalled when the status changes.
    changed: Condvar,
    /// Queued, submitted, started, ended (ns).
    times: Mutex<[u64; 4]>,
    callbacks: Mutex<Vec<Callback>>,
}

// SAFETY: the only type of Kind::Event handles.
unsafe impl handle::Object for Event {
    const KIND: Kind = Kind::Event;
}

/// Nanoseconds on one monotonic clock (never 0).
pub fn now_ns() -> u64 {
    static T0: OnceLock<Instant> = OnceLock::new();
    T0.get_or_init(Instant::now).elapsed().as_nanos() as u64 + 1
}

/// The event behind a handle.
pub fn event<'a>(e: cl_event) -> Option<&'a Event> {
    handle::get::<Event, _>(e)
}

/// A new event handle (one reference, the caller's) in context `ctx`.
pub fn create(
    ctx: cl_context,
    queue: usize,
    command: cl_command_type,
    status: cl_int,
    times: [u64; 4],
) -> cl_event {
    handle::create(Event {
        ctx: Ref::new::<Context>(ctx),
        queue,
        command,
        status: Mutex::new(status),
        changed: Condvar::new(),
        times: Mutex::new(times),
        callbacks: Mutex::new(Vec::new()),
    })
}

impl Event {
    /// The current status.
    pub fn status(&self) -> cl_int {
        *self.status.lock().unwrap()
    }

    /// Waits until the status is CL_COMPLETE or an error, and returns it.
    pub fn wait(&self) -> cl_int {
        let mut st = self.status.lock().unwrap();
        while *st > CL_COMPLETE {
            st = self.changed.wait(st).unwrap();
        }
        *st
    }

    /// Records time `which` (0 queued .. 3 ended) as now.
    pub fn stamp(&self, which: usize) {
        self.times.lock().unwrap()[which] = now_ns();
    }
}

/// Sets the status of event `e` and calls the callbacks it reached.
pub fn set_status(e: cl_event, ev: &Event, status: cl_int) {
    *ev.status.lock().unwrap() = status;
    ev.changed.notify_all();
    fire(e, ev);
}

/// Calls (once) the callbacks whose status the event has reached.
fn fire(e: cl_event, ev: &Event) {
    let st = ev.status();
    let mut cbs = ev.callbacks.lock().unwrap();
    let (now, later): (Vec<Callback>, Vec<Callback>) = cbs.drain(..).partition(|c| st <= c.1);
    *cbs = later;
    drop(cbs);
    for (f, _, ud) in now {
        let s = if st < 0 { st } else { CL_COMPLETE.min(st) };
        // SAFETY: the application's callback.
        unsafe { f(e, s, ud as *mut c_void) };
    }
}

/// clWaitForEvents.
pub unsafe extern "C" fn wait_for_events(n: cl_uint, list: *const cl_event) -> cl_int {
    guard(|| {
        if n == 0 || list.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: n entries.
        let evs = unsafe { slice(list, n as usize) };
        let mut ctx = None;
        for &e in evs {
            let Some(ev) = event(e) else {
                return CL_INVALID_EVENT;
            };
            if *ctx.get_or_insert(ev.ctx.ptr()) != ev.ctx.ptr() {
                return CL_INVALID_CONTEXT;
            }
        }
        // Waiting only: a command that waits for a user event runs in the
        // thread that sets the event's status (crate::sched). Every event
        // is waited for, also after a failed one.
        let statuses: Vec<cl_int> = evs.iter().map(|&e| event(e).unwrap().wait()).collect();
        let failed = statuses.iter().any(|&s| s < 0);
        if failed {
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        } else {
            CL_SUCCESS
        }
    })
}

/// clGetEventInfo.
pub unsafe extern "C" fn get_event_info(
    e: cl_event,
    name: cl_event_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let ev = event(e).ok_or(CL_INVALID_EVENT)?;
            match name {
                CL_EVENT_COMMAND_QUEUE => Ok(Info::Ptr(ev.queue)),
                CL_EVENT_CONTEXT => Ok(Info::Ptr(ev.ctx.ptr() as usize)),
                CL_EVENT_COMMAND_TYPE => Ok(Info::U32(ev.command)),
                CL_EVENT_COMMAND_EXECUTION_STATUS => Ok(Info::I32(ev.status())),
                CL_EVENT_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Event, _>(e))),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

/// clGetEventProfilingInfo.
pub unsafe extern "C" fn get_event_profiling_info(
    e: cl_event,
    name: cl_profiling_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let ev = event(e).ok_or(CL_INVALID_EVENT)?;
            let profiled = queue(ev.queue as cl_command_queue)
                .is_some_and(|q| q.props & CL_QUEUE_PROFILING_ENABLE != 0);
            if ev.queue == 0 || !profiled || ev.status() != CL_COMPLETE {
                return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
            }
            let t = *ev.times.lock().unwrap();
            match name {
                CL_PROFILING_COMMAND_QUEUED => Ok(Info::U64(t[0])),
                CL_PROFILING_COMMAND_SUBMIT => Ok(Info::U64(t[1])),
                CL_PROFILING_COMMAND_START => Ok(Info::U64(t[2])),
                // 0x1284 is CL_PROFILING_COMMAND_COMPLETE (OpenCL 2.0).
                CL_PROFILING_COMMAND_END | 0x1284 => Ok(Info::U64(t[3])),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

crate::handle::retain_release!(
    retain_event,
    release_event,
    cl_event,
    Event,
    CL_INVALID_EVENT
);

/// clCreateUserEvent.
pub unsafe extern "C" fn create_user_event(c: cl_context, err: *mut cl_int) -> cl_event {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            context(c).ok_or(CL_INVALID_CONTEXT)?;
            Ok(create(c, 0, CL_COMMAND_USER, CL_SUBMITTED, [now_ns(); 4]))
        })
    }
}

/// clSetUserEventStatus: also runs the commands that were waiting for it
/// (or ends them with an error when `status` is negative).
pub unsafe extern "C" fn set_user_event_status(e: cl_event, status: cl_int) -> cl_int {
    guard(|| {
        let Some(ev) = event(e) else {
            return CL_INVALID_EVENT;
        };
        if ev.command != CL_COMMAND_USER {
            return CL_INVALID_EVENT;
        }
        if status > CL_COMPLETE {
            return CL_INVALID_VALUE;
        }
        {
            let mut s = ev.status.lock().unwrap();
            if *s <= CL_COMPLETE {
                return CL_INVALID_OPERATION;
            }
            *s = status;
        }
        ev.changed.notify_all();
        fire(e, ev);
        crate::sched::pump();
        CL_SUCCESS
    })
}

/// clSetEventCallback.
pub unsafe extern "C" fn set_event_callback(
    e: cl_event,
    ty: cl_int,
    f: Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
    ud: *mut c_void,
) -> cl_int {
    guard(|| {
        let Some(ev) = event(e) else {
            return CL_INVALID_EVENT;
        };
        let Some(f) = f else {
            return CL_INVALID_VALUE;
        };
        if !matches!(ty, CL_COMPLETE | CL_RUNNING | CL_SUBMITTED) {
            return CL_INVALID_VALUE;
        }
        ev.callbacks.lock().unwrap().push((f, ty, ud as usize));
        fire(e, ev);
        CL_SUCCESS
    })
}
