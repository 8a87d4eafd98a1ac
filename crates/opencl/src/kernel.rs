//! Kernels: argument values and their checks against the object's metadata.

use crate::handle::{self, Kind, Ref};
use crate::info::{guard, guard_obj, query, Info};
use crate::mem::{mem, Mem};
use crate::platform::{device, MAX_WORK_GROUP};
use crate::program::{kernel_names, program, ArgDesc, Program};
use opencl_sys::*;
use risa_runtime::args::ArgKind;
use std::ffi::{c_char, c_void, CStr};
use std::sync::Mutex;

/// A value given with clSetKernelArg.
pub enum ArgValue {
    /// A buffer (None: a null pointer).
    Mem(Option<Ref<c_void>>),
    /// Dynamic local memory of this many bytes.
    Local(u32),
    /// A sampler.
    Sampler(Ref<c_void>),
    /// Bytes of a by-value argument.
    Bytes(Vec<u8>),
}

/// A kernel.
pub struct Kernel {
    /// Its program.
    pub prog: Ref<c_void>,
    /// Name.
    pub name: String,
    /// Arguments from the metadata (None: an r600 binary without it).
    pub descs: Option<Vec<ArgDesc>>,
    /// Values set so far.
    pub args: Mutex<Vec<Option<ArgValue>>>,
}

// SAFETY: the only type of Kind::Kernel handles.
unsafe impl handle::Object for Kernel {
    const KIND: Kind = Kind::Kernel;
}

impl Drop for Kernel {
    fn drop(&mut self) {
        if let Some(p) = program(self.prog.ptr()) {
            p.kernels.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The kernel behind a handle.
pub fn kernel<'a>(k: cl_kernel) -> Option<&'a Kernel> {
    handle::get::<Kernel, _>(k)
}

fn make(p: cl_program, prog: &Program, name: &str) -> Result<cl_kernel, cl_int> {
    let builds = prog.builds.lock().unwrap();
    let b = builds
        .iter()
        .find(|b| b.status == CL_BUILD_SUCCESS && b.module.is_some())
        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
    let (_, descs) = b
        .args
        .iter()
        .find(|(n, _)| n == name)
        .ok_or(CL_INVALID_KERNEL_NAME)?;
    let n = descs.as_ref().map_or(0, Vec::len);
    prog.kernels
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(handle::create(Kernel {
        prog: Ref::new::<Program>(p),
        name: name.to_string(),
        descs: descs.clone(),
        args: Mutex::new((0..n).map(|_| None).collect()),
    }))
}

/// clCreateKernel.
pub unsafe extern "C" fn create_kernel(
    p: cl_program,
    name: *const c_char,
    err: *mut cl_int,
) -> cl_kernel {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let prog = program(p).ok_or(CL_INVALID_PROGRAM)?;
            if name.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let n = CStr::from_ptr(name).to_string_lossy();
            make(p, prog, &n)
        })
    }
}

/// clCreateKernelsInProgram.
pub unsafe extern "C" fn create_kernels_in_program(
    p: cl_program,
    num: cl_uint,
    out: *mut cl_kernel,
    num_ret: *mut cl_uint,
) -> cl_int {
    guard(|| {
        let Some(prog) = program(p) else {
            return CL_INVALID_PROGRAM;
        };
        let Some(names) = kernel_names(prog) else {
            return CL_INVALID_PROGRAM_EXECUTABLE;
        };
        if !out.is_null() && (num as usize) < names.len() {
            return CL_INVALID_VALUE;
        }
        if !out.is_null() {
            for (i, n) in names.iter().enumerate() {
                match make(p, prog, n) {
                    // SAFETY: `num` >= names.len() entries.
                    Ok(k) => unsafe { *out.add(i) = k },
                    Err(e) => return e,
                }
            }
        }
        if !num_ret.is_null() {
            // SAFETY: caller's pointer.
            unsafe { *num_ret = names.len() as cl_uint };
        }
        CL_SUCCESS
    })
}

crate::handle::retain_release!(
    retain_kernel,
    release_kernel,
    cl_kernel,
    Kernel,
    CL_INVALID_KERNEL
);

const MEM_SIZE: usize = std::mem::size_of::<cl_mem>();

/// clSetKernelArg.
pub unsafe extern "C" fn set_kernel_arg(
    k: cl_kernel,
    index: cl_uint,
    size: usize,
    value: *const c_void,
) -> cl_int {
    guard(|| {
        let Some(kern) = kernel(k) else {
            return CL_INVALID_KERNEL;
        };
        let mut args = kern.args.lock().unwrap();
        let i = index as usize;
        let as_mem = || -> Result<ArgValue, cl_int> {
            if size != MEM_SIZE {
                return Err(CL_INVALID_ARG_SIZE);
            }
            // SAFETY: size_of(cl_mem) bytes (checked above).
            let m = if value.is_null() {
                std::ptr::null_mut()
            } else {
                unsafe { *(value as *const cl_mem) }
            };
            if m.is_null() {
                return Ok(ArgValue::Mem(None));
            }
            if mem(m).is_none() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            Ok(ArgValue::Mem(Some(Ref::new::<Mem>(m))))
        };
        let bytes = || -> Vec<u8> {
            // SAFETY: `size` bytes at value (OpenCL's contract).
            unsafe { std::slice::from_raw_parts(value.cast::<u8>(), size) }.to_vec()
        };
        let v = match &kern.descs {
            Some(d) => {
                let Some(a) = d.get(i) else {
                    return CL_INVALID_ARG_INDEX;
                };
                match &a.kind {
                    ArgKind::GlobalBuffer => as_mem(),
                    ArgKind::Image => match as_mem() {
                        Ok(ArgValue::Mem(Some(r)))
                            if mem(r.ptr()).is_some_and(|m| m.image.is_some()) =>
                        {
                            Ok(ArgValue::Mem(Some(r)))
                        }
                        Ok(_) => Err(CL_INVALID_MEM_OBJECT),
                        Err(e) => Err(e),
                    },
                    ArgKind::Other(k) if k == "sampler" => {
                        if size != std::mem::size_of::<cl_sampler>() {
                            Err(CL_INVALID_ARG_SIZE)
                        } else if value.is_null() {
                            Err(CL_INVALID_SAMPLER)
                        } else {
                            // SAFETY: size_of(cl_sampler) bytes (checked above).
                            let s = unsafe { *(value as *const cl_sampler) };
                            match crate::sampler::sampler(s) {
                                Some(_) => {
                                    Ok(ArgValue::Sampler(Ref::new::<crate::sampler::Sampler>(s)))
                                }
                                None => Err(CL_INVALID_SAMPLER),
                            }
                        }
                    }
                    ArgKind::DynamicLds => {
                        if !value.is_null() {
                            Err(CL_INVALID_ARG_VALUE)
                        } else if size == 0 {
                            Err(CL_INVALID_ARG_SIZE)
                        } else {
                            Ok(ArgValue::Local(size as u32))
                        }
                    }
                    ArgKind::ByValue => {
                        if value.is_null() {
                            Err(CL_INVALID_ARG_VALUE)
                        } else if size != a.size as usize {
                            Err(CL_INVALID_ARG_SIZE)
                        } else {
                            Ok(ArgValue::Bytes(bytes()))
                        }
                    }
                    _ => Err(CL_INVALID_ARG_VALUE),
                }
            }
            // An r600 binary without argument information: a null value is
            // local memory, a live buffer handle a buffer, anything else bytes.
            None => {
                if args.len() <= i {
                    args.resize_with(i + 1, || None);
                }
                if value.is_null() {
                    if size == 0 {
                        Err(CL_INVALID_ARG_SIZE)
                    } else {
                        Ok(ArgValue::Local(size as u32))
                    }
                } else if size == MEM_SIZE && mem(unsafe { *(value as *const cl_mem) }).is_some() {
                    as_mem()
                } else {
                    Ok(ArgValue::Bytes(bytes()))
                }
            }
        };
        match v {
            Ok(v) => {
                args[i] = Some(v);
                CL_SUCCESS
            }
            Err(e) => e,
        }
    })
}

/// clGetKernelInfo.
pub unsafe extern "C" fn get_kernel_info(
    k: cl_kernel,
    name: cl_kernel_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let kern = kernel(k).ok_or(CL_INVALID_KERNEL)?;
            match name {
                CL_KERNEL_FUNCTION_NAME => Ok(Info::Str(kern.name.clone())),
                CL_KERNEL_NUM_ARGS => Ok(Info::U32(kern.args.lock().unwrap().len() as u32)),
                CL_KERNEL_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Kernel, _>(k))),
                CL_KERNEL_CONTEXT => Ok(Info::Ptr(
                    program(kern.prog.ptr()).map_or(0, |p| p.ctx.ptr() as usize),
                )),
                CL_KERNEL_PROGRAM => Ok(Info::Ptr(kern.prog.ptr() as usize)),
                CL_KERNEL_ATTRIBUTES => Ok(Info::Str(String::new())),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

/// clGetKernelArgInfo (from the object's metadata).
pub unsafe extern "C" fn get_kernel_arg_info(
    k: cl_kernel,
    index: cl_uint,
    name: cl_kernel_arg_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let kern = kernel(k).ok_or(CL_INVALID_KERNEL)?;
            let Some(d) = &kern.descs else {
                return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            };
            let Some(a) = d.get(index as usize) else {
                return Err(CL_INVALID_ARG_INDEX);
            };
            match name {
                CL_KERNEL_ARG_ADDRESS_QUALIFIER => Ok(Info::U32(match a.kind {
                    ArgKind::GlobalBuffer => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                    ArgKind::DynamicLds => CL_KERNEL_ARG_ADDRESS_LOCAL,
                    _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
                })),
                CL_KERNEL_ARG_ACCESS_QUALIFIER => Ok(Info::U32(match a.access.as_str() {
                    "read_only" => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                    "write_only" => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                    "read_write" => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                    _ => CL_KERNEL_ARG_ACCESS_NONE,
                })),
                CL_KERNEL_ARG_TYPE_NAME => Ok(Info::Str(a.type_name.clone())),
                CL_KERNEL_ARG_TYPE_QUALIFIER => Ok(Info::U64(CL_KERNEL_ARG_TYPE_NONE.into())),
                CL_KERNEL_ARG_NAME => Ok(Info::Str(a.name.clone())),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

/// Static LDS and private bytes of the kernel on device `d`.
pub fn resources(kern: &Kernel, d: cl_device_id) -> Option<(u32, u32)> {
    let prog = program(kern.prog.ptr())?;
    let builds = prog.builds.lock().unwrap();
    let b = builds.iter().find(|b| b.device == d)?;
    let m = b.module.as_ref()?;
    let k = m.kernels.iter().find(|k| k.name == kern.name)?;
    Some((k.static_lds, k.private_size))
}

/// clGetKernelWorkGroupInfo.
pub unsafe extern "C" fn get_kernel_work_group_info(
    k: cl_kernel,
    d: cl_device_id,
    name: cl_kernel_work_group_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let kern = kernel(k).ok_or(CL_INVALID_KERNEL)?;
            let d = if d.is_null() {
                let Some(p) = program(kern.prog.ptr()) else {
                    return Err(CL_INVALID_KERNEL);
                };
                let b = p.builds.lock().unwrap();
                if b.len() != 1 {
                    return Err(CL_INVALID_DEVICE);
                }
                b[0].device
            } else {
                d
            };
            if device(d).is_none() {
                return Err(CL_INVALID_DEVICE);
            }
            let Some((lds, private)) = resources(kern, d) else {
                return Err(CL_INVALID_DEVICE);
            };
            match name {
                CL_KERNEL_WORK_GROUP_SIZE => Ok(Info::Size(MAX_WORK_GROUP)),
                CL_KERNEL_COMPILE_WORK_GROUP_SIZE => Ok(Info::Sizes(vec![0; 3])),
                CL_KERNEL_LOCAL_MEM_SIZE => Ok(Info::U64(u64::from(lds))),
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Ok(Info::Size(64)),
                CL_KERNEL_PRIVATE_MEM_SIZE => Ok(Info::U64(u64::from(private))),
                CL_KERNEL_GLOBAL_WORK_SIZE => Err(CL_INVALID_VALUE),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}
