//! OpenCL objects as ICD handles: every handle points at a [`Handle`] whose
//! first field is the dispatch table the ICD loader reads. Live handles are
//! registered by kind, so a stale or foreign pointer is an error code
//! (`CL_INVALID_*`), never a dereference.

use crate::dispatch::table;
use opencl_sys::cl_icd::_cl_icd_dispatch;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The kinds of OpenCL object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// cl_platform_id
    Platform,
    /// cl_device_id
    Device,
    /// cl_context
    Context,
    /// cl_command_queue
    Queue,
    /// cl_mem
    Mem,
    /// cl_program
    Program,
    /// cl_kernel
    Kernel,
    /// cl_event
    Event,
    /// cl_sampler
    Sampler,
}

/// The memory layout behind every handle.
#[repr(C)]
pub struct Handle<T> {
    dispatch: *const _cl_icd_dispatch,
    refs: AtomicU32,
    /// The object.
    pub data: T,
}

fn live() -> &'static Mutex<HashMap<usize, Kind>> {
    static LIVE: OnceLock<Mutex<HashMap<usize, Kind>>> = OnceLock::new();
    LIVE.get_or_init(Default::default)
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<usize, Kind>> {
    live().lock().unwrap_or_else(|e| e.into_inner())
}

/// A new handle with one reference.
pub fn create<T, P>(kind: Kind, data: T) -> *mut P {
    let h = Box::into_raw(Box::new(Handle {
        dispatch: table(),
        refs: AtomicU32::new(1),
        data,
    }));
    lock().insert(h as usize, kind);
    h.cast()
}

/// The object behind `p` when it is a live handle of `kind`.
///
/// # Safety
/// `T` must be the type the handle of `kind` was created with.
pub unsafe fn get<'a, T, P>(p: *mut P, kind: Kind) -> Option<&'a T> {
    if p.is_null() || lock().get(&(p as usize)) != Some(&kind) {
        return None;
    }
    // SAFETY: registered as a live Handle<T> of this kind (caller's promise on T).
    Some(unsafe { &(*(p as *const Handle<T>)).data })
}

/// Whether `p` is a live handle of `kind`.
pub fn is<P>(p: *mut P, kind: Kind) -> bool {
    !p.is_null() && lock().get(&(p as usize)) == Some(&kind)
}

/// Adds a reference; false when `p` is not a live handle of `kind`.
///
/// # Safety
/// As for [`get`].
pub unsafe fn retain<T, P>(p: *mut P, kind: Kind) -> bool {
    if !is(p, kind) {
        return false;
    }
    // SAFETY: live handle.
    unsafe {
        (*(p as *const Handle<T>))
            .refs
            .fetch_add(1, Ordering::AcqRel)
    };
    true
}

/// The reference count (for `CL_*_REFERENCE_COUNT`).
///
/// # Safety
/// As for [`get`].
pub unsafe fn refs<T, P>(p: *mut P) -> u32 {
    // SAFETY: the caller checked the handle.
    unsafe { (*(p as *const Handle<T>)).refs.load(Ordering::Acquire) }
}

/// Drops a reference, destroying the object at zero; false when `p` is not
/// a live handle of `kind`.
///
/// # Safety
/// As for [`get`].
pub unsafe fn release<T, P>(p: *mut P, kind: Kind) -> bool {
    let last = {
        let mut l = lock();
        if p.is_null() || l.get(&(p as usize)) != Some(&kind) {
            return false;
        }
        // SAFETY: live handle.
        let h = unsafe { &*(p as *const Handle<T>) };
        let last = h.refs.fetch_sub(1, Ordering::AcqRel) == 1;
        if last {
            l.remove(&(p as usize));
        }
        last
    };
    if last {
        // SAFETY: created by Box::into_raw in `create`, now unregistered.
        drop(unsafe { Box::from_raw(p as *mut Handle<T>) });
    }
    true
}

/// A counted reference to a handle the holder keeps alive (a queue's
/// context, a kernel's program); released when dropped.
pub struct Ref<P> {
    ptr: *mut P,
    release: unsafe fn(*mut P),
}

// SAFETY: handles are shared between threads by design (OpenCL objects are
// thread-safe); the registry and reference counts are atomic.
unsafe impl<P> Send for Ref<P> {}
// SAFETY: as above.
unsafe impl<P> Sync for Ref<P> {}

impl<P> Ref<P> {
    /// Retains `ptr` (a live handle of `kind` with data `T`).
    ///
    /// # Safety
    /// As for [`get`].
    pub unsafe fn new<T: 'static>(ptr: *mut P, kind: Kind) -> Ref<P> {
        // SAFETY: caller's promise.
        unsafe { retain::<T, P>(ptr, kind) };
        unsafe fn rel<T, P>(p: *mut P, kind: Kind) {
            // SAFETY: retained in `new`.
            unsafe { release::<T, P>(p, kind) };
        }
        let release: unsafe fn(*mut P) = match kind {
            Kind::Context => |p| unsafe { rel::<crate::context::Context, P>(p, Kind::Context) },
            Kind::Program => |p| unsafe { rel::<crate::program::Program, P>(p, Kind::Program) },
            Kind::Queue => |p| unsafe { rel::<crate::queue::Queue, P>(p, Kind::Queue) },
            Kind::Mem => |p| unsafe { rel::<crate::mem::Mem, P>(p, Kind::Mem) },
            _ => |_| {},
        };
        Ref { ptr, release }
    }

    /// The handle.
    pub fn ptr(&self) -> *mut P {
        self.ptr
    }
}

impl<P> Drop for Ref<P> {
    fn drop(&mut self) {
        // SAFETY: retained in `new`.
        unsafe { (self.release)(self.ptr) }
    }
}

/// Defines an object's `clRetain*` and `clRelease*` entry points: handles
/// of `Kind::$kind` holding a `$ty`; `$err` for anything else.
macro_rules! retain_release {
    ($retain:ident, $release:ident, $handle:ty, $ty:ty, $kind:ident, $err:ident) => {
        /// clRetain*: one more reference.
        pub unsafe extern "C" fn $retain(h: $handle) -> cl_int {
            // SAFETY: kind-checked against the registry.
            if unsafe { $crate::handle::retain::<$ty, _>(h, $crate::handle::Kind::$kind) } {
                CL_SUCCESS
            } else {
                $err
            }
        }

        /// clRelease*: one reference less; the object goes with the last.
        pub unsafe extern "C" fn $release(h: $handle) -> cl_int {
            // SAFETY: kind-checked against the registry.
            if unsafe { $crate::handle::release::<$ty, _>(h, $crate::handle::Kind::$kind) } {
                CL_SUCCESS
            } else {
                $err
            }
        }
    };
}
pub(crate) use retain_release;
