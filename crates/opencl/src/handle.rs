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

/// The object type behind the handles of one kind.
///
/// # Safety
/// `KIND` must belong to this type alone: the registry records only the
/// kind of a handle, and [`get`] trusts it to name the handle's type.
pub unsafe trait Object: Sized + 'static {
    /// The kind of its handles.
    const KIND: Kind;
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
pub fn create<T: Object, P>(data: T) -> *mut P {
    let h = Box::into_raw(Box::new(Handle {
        dispatch: table(),
        refs: AtomicU32::new(1),
        data,
    }));
    lock().insert(h as usize, T::KIND);
    h.cast()
}

/// Whether `p` is a live handle of `kind`.
pub fn is<P>(p: *mut P, kind: Kind) -> bool {
    !p.is_null() && lock().get(&(p as usize)) == Some(&kind)
}

/// The handle behind `p` when it is a live handle of `T`'s kind.
fn live_handle<'a, T: Object, P>(p: *mut P) -> Option<&'a Handle<T>> {
    // SAFETY: registered as a live Handle<T> (create registers T::KIND, which
    // is T's alone).
    is(p, T::KIND).then(|| unsafe { &*(p as *const Handle<T>) })
}

/// The object behind `p` when it is a live handle of `T`'s kind.
pub fn get<'a, T: Object, P>(p: *mut P) -> Option<&'a T> {
    live_handle::<T, P>(p).map(|h| &h.data)
}

/// Adds a reference; false when `p` is not a live handle of `T`'s kind.
pub fn retain<T: Object, P>(p: *mut P) -> bool {
    live_handle::<T, P>(p).is_some_and(|h| {
        h.refs.fetch_add(1, Ordering::AcqRel);
        true
    })
}

/// The reference count (for `CL_*_REFERENCE_COUNT`); 0 when `p` is not a
/// live handle of `T`'s kind.
pub fn refs<T: Object, P>(p: *mut P) -> u32 {
    live_handle::<T, P>(p).map_or(0, |h| h.refs.load(Ordering::Acquire))
}

/// Drops a reference, destroying the object at zero; false when `p` is not
/// a live handle of `T`'s kind.
pub fn release<T: Object, P>(p: *mut P) -> bool {
    let last = {
        let mut l = lock();
        if p.is_null() || l.get(&(p as usize)) != Some(&T::KIND) {
            return false;
        }
        // SAFETY: live handle of T (checked under the registry's lock).
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
    release: fn(*mut P) -> bool,
}

// SAFETY: handles are shared between threads by design (OpenCL objects are
// thread-safe); the registry and reference counts are atomic.
unsafe impl<P> Send for Ref<P> {}
// SAFETY: as above.
unsafe impl<P> Sync for Ref<P> {}

impl<P> Ref<P> {
    /// Retains `ptr`, a live handle of `T`.
    pub fn new<T: Object>(ptr: *mut P) -> Ref<P> {
        retain::<T, P>(ptr);
        Ref {
            ptr,
            release: release::<T, P>,
        }
    }

    /// The handle.
    pub fn ptr(&self) -> *mut P {
        self.ptr
    }
}

impl<P> Drop for Ref<P> {
    fn drop(&mut self) {
        (self.release)(self.ptr);
    }
}

/// Defines an object's `clRetain*` and `clRelease*` entry points: handles
/// holding a `$ty`; `$err` for anything else.
macro_rules! retain_release {
    ($retain:ident, $release:ident, $handle:ty, $ty:ty, $err:ident) => {
        /// clRetain*: one more reference.
        pub unsafe extern "C" fn $retain(h: $handle) -> cl_int {
            if $crate::handle::retain::<$ty, _>(h) {
                CL_SUCCESS
            } else {
                $err
            }
        }

        /// clRelease*: one reference less; the object goes with the last.
        pub unsafe extern "C" fn $release(h: $handle) -> cl_int {
            if $crate::handle::release::<$ty, _>(h) {
                CL_SUCCESS
            } else {
                $err
            }
        }
    };
}
pub(crate) use retain_release;
