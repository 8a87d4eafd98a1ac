//! Contexts: the devices they hold and the device memory their buffers and
//! programs live in (one runtime device per context: every device of a
//! context runs the same ISA family, so they share one address space).

use crate::handle::{self, Kind};
use crate::info::{guard_obj, query, slice, Info};
use crate::platform::{check_devices, device, devices, platform};
use opencl_sys::*;
use risa_runtime::gpu::{self, Isa};
use std::ffi::c_void;
use std::sync::Arc;

/// A context.
pub struct Context {
    /// Its devices.
    pub devices: Vec<cl_device_id>,
    /// The memory all its objects live in.
    pub rt: Arc<gpu::Device>,
    props: Vec<isize>,
}

// SAFETY: the only type of Kind::Context handles.
unsafe impl handle::Object for Context {
    const KIND: Kind = Kind::Context;
}

/// The context behind a handle.
pub fn context<'a>(c: cl_context) -> Option<&'a Context> {
    handle::get::<Context, _>(c)
}

fn family(i: Isa) -> u8 {
    match i {
        Isa::Cayman => 0,
        Isa::Gcn(_) => 1,
    }
}

fn make(
    props: *const cl_context_properties,
    devs: Vec<cl_device_id>,
) -> Result<cl_context, cl_int> {
    let mut pv = Vec::new();
    if !props.is_null() {
        let mut i = 0;
        loop {
            // SAFETY: a zero-terminated list (OpenCL's contract).
            let k = unsafe { *props.add(i) };
            pv.push(k);
            if k == 0 {
                break;
            }
            // SAFETY: as above.
            let v = unsafe { *props.add(i + 1) };
            pv.push(v);
            match k {
                CL_CONTEXT_PLATFORM if v as cl_platform_id != platform() => {
                    return Err(CL_INVALID_PLATFORM)
                }
                CL_CONTEXT_PLATFORM | CL_CONTEXT_INTEROP_USER_SYNC => {}
                _ => return Err(CL_INVALID_PROPERTY),
            }
            i += 2;
        }
    }
    let isas: Vec<Isa> = devs.iter().map(|&d| device(d).unwrap().isa).collect();
    if isas.iter().any(|&i| family(i) != family(isas[0])) {
        // Cayman's 32-bit and GCN's 64-bit address spaces cannot be one memory.
        return Err(CL_INVALID_DEVICE);
    }
    let rt = Arc::new(gpu::Device::new(isas[0]));
    Ok(handle::create(Context {
        devices: devs,
        rt,
        props: pv,
    }))
}

type Notify =
    Option<unsafe extern "C" fn(*const std::ffi::c_char, *const c_void, usize, *mut c_void)>;

/// clCreateContext.
pub unsafe extern "C" fn create_context(
    props: *const cl_context_properties,
    n: cl_uint,
    list: *const cl_device_id,
    notify: Notify,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> cl_context {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            if notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            make(props, check_devices(list, n)?)
        })
    }
}

/// clCreateContextFromType: the first device of the type, with every
/// other device of its ISA family.
pub unsafe extern "C" fn create_context_from_type(
    props: *const cl_context_properties,
    ty: cl_device_type,
    notify: Notify,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> cl_context {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            if notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let mut n = 0u32;
            let mut ids = vec![std::ptr::null_mut(); devices().len()];
            let e = crate::platform::get_device_ids(
                platform(),
                ty,
                ids.len() as u32,
                ids.as_mut_ptr(),
                &mut n,
            );
            if e != CL_SUCCESS {
                return Err(e);
            }
            ids.truncate(n as usize);
            let first = family(device(ids[0]).unwrap().isa);
            ids.retain(|&d| family(device(d).unwrap().isa) == first);
            make(props, ids)
        })
    }
}

crate::handle::retain_release!(
    retain_context,
    release_context,
    cl_context,
    Context,
    CL_INVALID_CONTEXT
);

/// clGetContextInfo.
pub unsafe extern "C" fn get_context_info(
    c: cl_context,
    name: cl_context_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let ctx = context(c).ok_or(CL_INVALID_CONTEXT)?;
            match name {
                CL_CONTEXT_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Context, _>(c))),
                CL_CONTEXT_NUM_DEVICES => Ok(Info::U32(ctx.devices.len() as u32)),
                CL_CONTEXT_DEVICES => Ok(Info::Ptrs(
                    ctx.devices.iter().map(|&d| d as usize).collect(),
                )),
                CL_CONTEXT_PROPERTIES => Ok(Info::Bytes(
                    ctx.props.iter().flat_map(|p| p.to_ne_bytes()).collect(),
                )),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

/// Whether `d` belongs to `ctx`.
pub fn has_device(ctx: &Context, d: cl_device_id) -> bool {
    ctx.devices.contains(&d)
}

/// The devices in a list given to a program call, checked against `ctx`
/// (all of the context's when the list is empty).
pub fn devices_of(
    ctx: &Context,
    list: *const cl_device_id,
    n: cl_uint,
) -> Result<Vec<cl_device_id>, cl_int> {
    if list.is_null() != (n == 0) {
        return Err(CL_INVALID_VALUE);
    }
    if n == 0 {
        return Ok(ctx.devices.clone());
    }
    // SAFETY: n entries.
    let v = unsafe { slice(list, n as usize) }.to_vec();
    if v.iter().any(|&d| !has_device(ctx, d)) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(v)
}
