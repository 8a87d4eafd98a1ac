//! The `clGet*Info` convention: copy a value into the caller's buffer when
//! it is large enough, report the size the value needs.

use opencl_sys::*;
use std::ffi::c_void;

/// A value a `clGet*Info` query returns.
pub enum Info {
    /// A NUL-terminated string.
    Str(String),
    /// cl_uint, cl_bool, bitfields of 32 bits.
    U32(u32),
    /// cl_ulong, 64-bit bitfields.
    U64(u64),
    /// size_t.
    Size(usize),
    /// size_t[].
    Sizes(Vec<usize>),
    /// A handle or pointer.
    Ptr(usize),
    /// Handles.
    Ptrs(Vec<usize>),
    /// cl_int.
    I32(i32),
    /// Raw bytes (properties, binaries).
    Bytes(Vec<u8>),
}

impl Info {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Info::Str(s) => s.bytes().chain([0]).collect(),
            Info::U32(v) => v.to_ne_bytes().to_vec(),
            Info::U64(v) => v.to_ne_bytes().to_vec(),
            Info::Size(v) | Info::Ptr(v) => v.to_ne_bytes().to_vec(),
            Info::Sizes(v) | Info::Ptrs(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::I32(v) => v.to_ne_bytes().to_vec(),
            Info::Bytes(b) => b.clone(),
        }
    }
}

/// Answers a query with `v` (or the error code `v` is).
///
/// # Safety
/// `value` must point to `size` writable bytes when not null; `size_ret`
/// must be null or writable.
pub unsafe fn answer(
    v: Result<Info, cl_int>,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    let v = match v {
        Ok(v) => v,
        Err(e) => return e,
    };
    let b = v.bytes();
    if !value.is_null() {
        if size < b.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the caller gave `size` >= b.len() writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), value.cast::<u8>(), b.len()) };
    }
    if !size_ret.is_null() {
        // SAFETY: caller's buffer.
        unsafe { *size_ret = b.len() };
    }
    CL_SUCCESS
}

/// Stores `e` in `errcode_ret` when it is not null.
///
/// # Safety
/// `errcode_ret` must be null or writable.
pub unsafe fn set_err(errcode_ret: *mut cl_int, e: cl_int) {
    if !errcode_ret.is_null() {
        // SAFETY: caller's pointer.
        unsafe { *errcode_ret = e };
    }
}

/// Runs an entry point's body; a panic (a bug) becomes an error code
/// instead of unwinding into C.
pub fn guard(f: impl FnOnce() -> cl_int) -> cl_int {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(CL_OUT_OF_HOST_MEMORY)
}

/// [`guard`] for entry points that return an object and an error code.
///
/// # Safety
/// `errcode_ret` must be null or writable.
pub unsafe fn guard_obj<P>(
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> Result<*mut P, cl_int>,
) -> *mut P {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or(Err(CL_OUT_OF_HOST_MEMORY));
    match r {
        Ok(p) => {
            // SAFETY: caller's pointer.
            unsafe { set_err(errcode_ret, CL_SUCCESS) };
            p
        }
        Err(e) => {
            // SAFETY: caller's pointer.
            unsafe { set_err(errcode_ret, e) };
            std::ptr::null_mut()
        }
    }
}

/// A slice from a C pointer and count (empty when the count is 0).
///
/// # Safety
/// `p` must point to `n` elements when `n > 0`.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if n == 0 || p.is_null() {
        &[]
    } else {
        // SAFETY: caller's promise.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

/// Answers a `clGet*Info` query with what `f` gives: the value, or the
/// error code to return; a panic in `f` is an error code too ([`guard`]).
///
/// # Safety
/// As for [`answer`].
pub unsafe fn query(
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
    f: impl FnOnce() -> Result<Info, cl_int>,
) -> cl_int {
    // SAFETY: the caller's promise.
    guard(|| unsafe { answer(f(), size, value, size_ret) })
}
