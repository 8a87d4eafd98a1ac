//! The ICD dispatch table (opencl-sys's `_cl_icd_dispatch`, the layout of
//! Khronos' `cl_icd.h`) and the two symbols an ICD loader looks up:
//! `clGetExtensionFunctionAddress` and, through it, `clIcdGetPlatformIDsKHR`.
//! Entries risa does not implement (GL/D3D/EGL sharing, OpenCL 2.x) stay
//! null, which the loader reports as CL_INVALID_OPERATION or a missing
//! function.

use crate::{
    context as ctx, event as ev, image as im, image_queue as iq, kernel as k, mem as m,
    platform as p, program as pr, queue as q, sampler as sm,
};
use opencl_sys::cl_icd::_cl_icd_dispatch;
use opencl_sys::*;
use std::ffi::{c_char, c_void, CStr};
use std::sync::OnceLock;

/// The table every handle points to.
pub fn table() -> *const _cl_icd_dispatch {
    static T: OnceLock<Table> = OnceLock::new();
    &T.get_or_init(build).0
}

struct Table(_cl_icd_dispatch);
// SAFETY: the table holds only function pointers, never written after init.
unsafe impl Send for Table {}
// SAFETY: as above.
unsafe impl Sync for Table {}

fn build() -> Table {
    // SAFETY: every field is an Option of a function pointer, for which
    // all-zero bytes are None.
    let mut t: _cl_icd_dispatch = unsafe { std::mem::zeroed() };
    t.clGetPlatformIDs = Some(p::clIcdGetPlatformIDsKHR);
    t.clGetPlatformInfo = Some(p::get_platform_info);
    t.clGetDeviceIDs = Some(p::get_device_ids);
    t.clGetDeviceInfo = Some(p::get_device_info);
    t.clCreateSubDevices = Some(p::create_sub_devices);
    t.clRetainDevice = Some(p::retain_device);
    t.clReleaseDevice = Some(p::retain_device);
    t.clCreateContext = Some(ctx::create_context);
    t.clCreateContextFromType = Some(ctx::create_context_from_type);
    t.clRetainContext = Some(ctx::retain_context);
    t.clReleaseContext = Some(ctx::release_context);
    t.clGetContextInfo = Some(ctx::get_context_info);
    t.clCreateCommandQueue = Some(q::create_queue);
    t.clRetainCommandQueue = Some(q::retain_queue);
    t.clReleaseCommandQueue = Some(q::release_queue);
    t.clGetCommandQueueInfo = Some(q::get_queue_info);
    t.clSetCommandQueueProperty = Some(q::set_queue_property);
    t.clCreateBuffer = Some(m::create_buffer);
    t.clCreateSubBuffer = Some(m::create_sub_buffer);
    t.clCreateImage = Some(im::create_image);
    t.clCreateImage2D = Some(im::create_image_2d);
    t.clCreateImage3D = Some(im::create_image_3d);
    t.clGetImageInfo = Some(im::get_image_info);
    t.clCreateSampler = Some(sm::create_sampler);
    t.clRetainSampler = Some(sm::retain_sampler);
    t.clReleaseSampler = Some(sm::release_sampler);
    t.clGetSamplerInfo = Some(sm::get_sampler_info);
    t.clEnqueueReadImage = Some(iq::enqueue_read_image);
    t.clEnqueueWriteImage = Some(iq::enqueue_write_image);
    t.clEnqueueCopyImage = Some(iq::enqueue_copy_image);
    t.clEnqueueCopyImageToBuffer = Some(iq::enqueue_copy_image_to_buffer);
    t.clEnqueueCopyBufferToImage = Some(iq::enqueue_copy_buffer_to_image);
    t.clEnqueueFillImage = Some(iq::enqueue_fill_image);
    t.clEnqueueMapImage = Some(iq::enqueue_map_image);
    t.clRetainMemObject = Some(m::retain_mem);
    t.clReleaseMemObject = Some(m::release_mem);
    t.clGetSupportedImageFormats = Some(im::get_supported_image_formats);
    t.clGetMemObjectInfo = Some(m::get_mem_info);
    t.clSetMemObjectDestructorCallback = Some(m::set_destructor);
    t.clCreateProgramWithSource = Some(pr::create_with_source);
    t.clCreateProgramWithBinary = Some(pr::create_with_binary);
    t.clCreateProgramWithBuiltInKernels = Some(pr::create_with_builtin);
    t.clRetainProgram = Some(pr::retain_program);
    t.clReleaseProgram = Some(pr::release_program);
    t.clBuildProgram = Some(pr::build_program);
    t.clCompileProgram = Some(pr::compile_program);
    t.clLinkProgram = Some(pr::link_program);
    t.clUnloadPlatformCompiler = Some(pr::unload_platform_compiler);
    t.clGetProgramInfo = Some(pr::get_program_info);
    t.clGetProgramBuildInfo = Some(pr::get_program_build_info);
    t.clCreateKernel = Some(k::create_kernel);
    t.clCreateKernelsInProgram = Some(k::create_kernels_in_program);
    t.clRetainKernel = Some(k::retain_kernel);
    t.clReleaseKernel = Some(k::release_kernel);
    t.clSetKernelArg = Some(k::set_kernel_arg);
    t.clGetKernelInfo = Some(k::get_kernel_info);
    t.clGetKernelArgInfo = Some(k::get_kernel_arg_info);
    t.clGetKernelWorkGroupInfo = Some(k::get_kernel_work_group_info);
    t.clWaitForEvents = Some(ev::wait_for_events);
    t.clGetEventInfo = Some(ev::get_event_info);
    t.clRetainEvent = Some(ev::retain_event);
    t.clReleaseEvent = Some(ev::release_event);
    t.clGetEventProfilingInfo = Some(ev::get_event_profiling_info);
    t.clCreateUserEvent = Some(ev::create_user_event);
    t.clSetUserEventStatus = Some(ev::set_user_event_status);
    t.clSetEventCallback = Some(ev::set_event_callback);
    t.clFlush = Some(q::flush);
    t.clFinish = Some(q::finish);
    t.clEnqueueReadBuffer = Some(q::enqueue_read_buffer);
    t.clEnqueueWriteBuffer = Some(q::enqueue_write_buffer);
    t.clEnqueueCopyBuffer = Some(q::enqueue_copy_buffer);
    t.clEnqueueFillBuffer = Some(q::enqueue_fill_buffer);
    t.clEnqueueReadBufferRect = Some(q::enqueue_read_buffer_rect);
    t.clEnqueueWriteBufferRect = Some(q::enqueue_write_buffer_rect);
    t.clEnqueueCopyBufferRect = Some(q::enqueue_copy_buffer_rect);
    t.clEnqueueMapBuffer = Some(q::enqueue_map_buffer);
    t.clEnqueueUnmapMemObject = Some(q::enqueue_unmap);
    t.clEnqueueMigrateMemObjects = Some(q::enqueue_migrate);
    t.clEnqueueNDRangeKernel = Some(q::enqueue_nd_range);
    t.clEnqueueTask = Some(q::enqueue_task);
    t.clEnqueueNativeKernel = Some(q::enqueue_native_kernel);
    t.clEnqueueMarker = Some(q::enqueue_marker);
    t.clEnqueueBarrier = Some(q::enqueue_barrier);
    t.clEnqueueWaitForEvents = Some(q::enqueue_wait_for_events);
    t.clEnqueueMarkerWithWaitList = Some(q::enqueue_marker_with_wait_list);
    t.clEnqueueBarrierWithWaitList = Some(q::enqueue_barrier_with_wait_list);
    t.clGetExtensionFunctionAddress = Some(clGetExtensionFunctionAddress);
    t.clGetExtensionFunctionAddressForPlatform = Some(clGetExtensionFunctionAddressForPlatform);
    Table(t)
}

/// clGetExtensionFunctionAddress: the ICD entry point.
///
/// # Safety
/// `name` must be null or a C string.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(name: *const c_char) -> *mut c_void {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: a C string (caller's contract).
    match unsafe { CStr::from_ptr(name) }.to_bytes() {
        b"clIcdGetPlatformIDsKHR" => p::clIcdGetPlatformIDsKHR as *mut c_void,
        // ocl-icd asks for this one by name before it uses the table.
        b"clGetPlatformInfo" => p::get_platform_info as *mut c_void,
        _ => std::ptr::null_mut(),
    }
}

/// clGetExtensionFunctionAddressForPlatform.
///
/// # Safety
/// As for [`clGetExtensionFunctionAddress`].
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    _p: cl_platform_id,
    name: *const c_char,
) -> *mut c_void {
    // SAFETY: forwarded.
    unsafe { clGetExtensionFunctionAddress(name) }
}
