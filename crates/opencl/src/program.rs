//! Programs: OpenCL C compiled per device (see [`crate::compiler`]), or the
//! objects `risa run` takes (clCreateProgramWithBinary), loaded as modules
//! on the context's device memory.

use crate::compiler::{check, compile, llvm_ir, Header, ARG_ALIGN_MARKER, ARG_INFO_MARKER};
use crate::context::{context, devices_of, Context};
use crate::handle::{self, Kind, Ref};
use crate::info::{answer, guard, guard_obj, query, slice, Info};
use crate::platform::device;
use opencl_sys::*;
use risa_runtime::args::{ArgInfo, ArgKind};
use risa_runtime::gpu::{Isa, Module, Object};
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, Mutex};

/// One argument of a kernel as OpenCL describes it.
#[derive(Debug, Clone)]
pub struct ArgDesc {
    /// Name.
    pub name: String,
    /// Type name (`float*`).
    pub type_name: String,
    /// What it is.
    pub kind: ArgKind,
    /// Bytes of a by-value argument.
    pub size: u32,
    /// Its ABI alignment where the device needs it and the natural one of
    /// its size may be wrong (a struct on Cayman); 0 otherwise.
    pub align: u32,
    /// Access qualifier of an image argument (empty otherwise).
    pub access: String,
}

/// A program's build for one device.
pub struct Build {
    /// The device.
    pub device: cl_device_id,
    /// The object (program binary).
    pub binary: Option<Vec<u8>>,
    /// CL_BUILD_*.
    pub status: cl_build_status,
    /// The build log.
    pub log: String,
    /// The options of the last build.
    pub options: String,
    /// The loaded module.
    pub module: Option<Arc<Module>>,
    /// Argument descriptions per kernel name (from the object's metadata).
    pub args: Vec<(String, Option<Vec<ArgDesc>>)>,
}

/// A program.
pub struct Program {
    /// Its context.
    pub ctx: Ref<c_void>,
    rt: Arc<risa_runtime::gpu::Device>,
    /// OpenCL C source, when created from source.
    pub source: Option<String>,
    /// Headers given to clCompileProgram (name, text).
    pub headers: Mutex<Vec<Header>>,
    /// Set by clCompileProgram: a compiled object, not yet an executable.
    pub compiled_only: std::sync::atomic::AtomicBool,
    /// Per-device builds.
    pub builds: Mutex<Vec<Build>>,
    /// Kernels created from it (a build then fails with CL_INVALID_OPERATION).
    pub kernels: std::sync::atomic::AtomicUsize,
}

// SAFETY: the only type of Kind::Program handles.
unsafe impl handle::Object for Program {
    const KIND: Kind = Kind::Program;
}

impl Drop for Program {
    fn drop(&mut self) {
        for b in self.builds.get_mut().unwrap().drain(..) {
            if let Some(m) = b.module.and_then(|m| Arc::try_unwrap(m).ok()) {
                self.rt.unload(m);
            }
        }
    }
}

/// The program behind a handle.
pub fn program<'a>(p: cl_program) -> Option<&'a Program> {
    handle::get::<Program, _>(p)
}

fn descs(args: &[ArgInfo]) -> Vec<ArgDesc> {
    args.iter()
        .map(|a| ArgDesc {
            name: a.name.clone(),
            type_name: a.type_name.clone(),
            kind: a.kind.clone(),
            size: a.size,
            align: 0,
            access: a.access.clone(),
        })
        .collect()
}

/// Loads an object (with its argument information) on the device of `b`.
fn load(rt: &risa_runtime::gpu::Device, b: &mut Build) -> Result<(), String> {
    let bin = b.binary.as_deref().unwrap_or(&[]);
    let (obj_bytes, meta) = split_at_marker(bin, ARG_INFO_MARKER);
    let (meta, aligns) = match meta.map(|m| split_at_marker(m, ARG_ALIGN_MARKER)) {
        Some((m, a)) => (Some(m), a.map(parse_aligns).unwrap_or_default()),
        None => (None, Vec::new()),
    };
    let obj = Object::parse(obj_bytes).map_err(|e| e.to_string())?;
    // The device refuses an object for another chip (generation) itself.
    let m = rt.load(obj).map_err(|e| e.to_string())?;
    let meta: Vec<(String, Vec<ArgDesc>)> = match meta.map(Object::parse) {
        Some(Ok(Object::Gcn(g))) => g
            .kernels
            .iter()
            .map(|k| {
                let ex: Vec<ArgInfo> = k.args.iter().filter(|a| a.is_explicit()).cloned().collect();
                let mut d = descs(&ex);
                if let Some((_, al)) = aligns.iter().find(|(n, _)| *n == k.name) {
                    for (a, &al) in d.iter_mut().zip(al) {
                        a.align = al;
                    }
                }
                (k.name.clone(), d)
            })
            .collect(),
        _ => Vec::new(),
    };
    b.args = m
        .kernels
        .iter()
        .map(|k| {
            let d = k.args.as_ref().map(|a| descs(a)).or_else(|| {
                meta.iter()
                    .find(|(n, _)| *n == k.name)
                    .map(|(_, d)| d.clone())
            });
            (k.name.clone(), d)
        })
        .collect();
    b.module = Some(Arc::new(m));
    Ok(())
}

/// `bytes` before and after the first `marker` (None: no marker).
fn split_at_marker<'a>(bytes: &'a [u8], marker: &[u8]) -> (&'a [u8], Option<&'a [u8]>) {
    match bytes.windows(marker.len()).position(|w| w == marker) {
        Some(i) => (&bytes[..i], Some(&bytes[i + marker.len()..])),
        None => (bytes, None),
    }
}

/// The kernel argument alignments of a Cayman program binary (lines
/// `KERNEL A,B,...`); what does not parse is left out (natural alignment).
fn parse_aligns(text: &[u8]) -> Vec<(String, Vec<u32>)> {
    String::from_utf8_lossy(text)
        .lines()
        .filter_map(|l| {
            let (name, list) = l.split_once(' ')?;
            let al = list
                .split(',')
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            Some((name.to_string(), al))
        })
        .collect()
}

/// The r600 ABI alignments of the kernels' arguments in `src` as lines for
/// a Cayman program binary, when some argument may need one that is not
/// the natural alignment of its size (a struct or union by value); empty
/// otherwise, or when the IR cannot be had.
fn cayman_aligns(src: &str, headers: &[Header], options: &str) -> String {
    let mentions = |t: &str| t.contains("struct") || t.contains("union");
    if !mentions(src) && !headers.iter().any(|(_, h)| mentions(h)) {
        return String::new();
    }
    let Ok(ir) = llvm_ir(Isa::Cayman, src, headers, options) else {
        return String::new();
    };
    match crate::r600_layout::kernel_arg_aligns(&ir) {
        Ok(ks) => ks
            .iter()
            .map(|(n, al)| {
                let al: Vec<String> = al.iter().map(u32::to_string).collect();
                format!("{n} {}\n", al.join(","))
            })
            .collect(),
        Err(_) => String::new(),
    }
}

fn new_program(
    ctx_h: cl_context,
    ctx: &Context,
    source: Option<String>,
    builds: Vec<Build>,
) -> cl_program {
    handle::create(Program {
        ctx: Ref::new::<Context>(ctx_h),
        rt: ctx.rt.clone(),
        source,
        headers: Mutex::new(Vec::new()),
        compiled_only: Default::default(),
        builds: Mutex::new(builds),
        kernels: Default::default(),
    })
}

fn empty_build(d: cl_device_id) -> Build {
    Build {
        device: d,
        binary: None,
        status: CL_BUILD_NONE,
        log: String::new(),
        options: String::new(),
        module: None,
        args: Vec::new(),
    }
}

/// clCreateProgramWithSource.
pub unsafe extern "C" fn create_with_source(
    c: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
    err: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx = context(c).ok_or(CL_INVALID_CONTEXT)?;
            if count == 0 || strings.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let mut src = String::new();
            for i in 0..count as usize {
                let s = *strings.add(i);
                if s.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                let len = if lengths.is_null() {
                    0
                } else {
                    *lengths.add(i)
                };
                let bytes = if len == 0 {
                    CStr::from_ptr(s).to_bytes()
                } else {
                    std::slice::from_raw_parts(s.cast::<u8>(), len)
                };
                src.push_str(&String::from_utf8_lossy(bytes));
            }
            let builds = ctx.devices.iter().map(|&d| empty_build(d)).collect();
            Ok(new_program(c, ctx, Some(src), builds))
        })
    }
}

/// clCreateProgramWithBinary: GCN code objects and r600 objects.
pub unsafe extern "C" fn create_with_binary(
    c: cl_context,
    n: cl_uint,
    list: *const cl_device_id,
    lengths: *const usize,
    binaries: *mut *const u8,
    status: *mut cl_int,
    err: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx = context(c).ok_or(CL_INVALID_CONTEXT)?;
            if list.is_null() || n == 0 || lengths.is_null() || binaries.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let devs = devices_of(ctx, list, n)?;
            let mut builds = Vec::new();
            let mut bad = false;
            for (i, &d) in devs.iter().enumerate() {
                let len = *lengths.add(i);
                let p = *binaries.add(i);
                if len == 0 || p.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                let mut b = empty_build(d);
                b.binary = Some(std::slice::from_raw_parts(p, len).to_vec());
                b.status = CL_BUILD_NONE;
                let ok = Object::parse(b.binary.as_deref().unwrap()).is_ok();
                if !status.is_null() {
                    *status.add(i) = if ok { CL_SUCCESS } else { CL_INVALID_BINARY };
                }
                bad |= !ok;
                builds.push(b);
            }
            if bad {
                return Err(CL_INVALID_BINARY);
            }
            Ok(new_program(c, ctx, None, builds))
        })
    }
}

type BuildNotify = Option<unsafe extern "C" fn(cl_program, *mut c_void)>;

fn build_one(
    rt: &risa_runtime::gpu::Device,
    source: Option<&str>,
    headers: &[Header],
    b: &mut Build,
    options: &str,
    link: bool,
) -> bool {
    b.options = options.to_string();
    b.log.clear();
    if let Some(m) = b.module.take().and_then(|m| Arc::try_unwrap(m).ok()) {
        rt.unload(m);
    }
    let isa = device(b.device).unwrap().isa;
    if let (Some(src), false) = (source, link) {
        // A compiled object: clLinkProgram makes the executable.
        b.binary = None;
        let r = check(isa, src, headers, options);
        b.status = if r.is_ok() {
            CL_BUILD_SUCCESS
        } else {
            CL_BUILD_ERROR
        };
        b.log = r.unwrap_or_else(|e| e);
        return b.status == CL_BUILD_SUCCESS;
    }
    if let Some(src) = source {
        match compile(isa, src, headers, options) {
            Ok((mut obj, log)) => {
                b.log = log;
                if isa == Isa::Cayman {
                    // r600 objects have no argument metadata: the same source
                    // compiled for GCN supplies names, types and sizes.
                    let gcn = Isa::Gcn(risa_gcn::Processor::parse("tahiti").unwrap());
                    if let Ok((meta, _)) = compile(gcn, src, headers, options) {
                        obj.extend_from_slice(ARG_INFO_MARKER);
                        obj.extend_from_slice(&meta);
                        // A struct's alignment is only in the r600 IR.
                        let al = cayman_aligns(src, headers, options);
                        if !al.is_empty() {
                            obj.extend_from_slice(ARG_ALIGN_MARKER);
                            obj.extend_from_slice(al.as_bytes());
                        }
                    }
                }
                b.binary = Some(obj);
            }
            Err(log) => {
                b.log = log;
                b.status = CL_BUILD_ERROR;
                return false;
            }
        }
    }
    match load(rt, b) {
        Ok(()) => {
            b.status = CL_BUILD_SUCCESS;
            true
        }
        Err(e) => {
            b.log
                .push_str(&format!("risa: cannot load the program: {e}\n"));
            b.status = CL_BUILD_ERROR;
            false
        }
    }
}

unsafe fn options_str(options: *const c_char) -> String {
    if options.is_null() {
        String::new()
    } else {
        // SAFETY: a C string (OpenCL's contract).
        unsafe { CStr::from_ptr(options) }
            .to_string_lossy()
            .into_owned()
    }
}

/// clBuildProgram.
/// Builds (or, with `link` false, only compiles) `prog` for `list`'s
/// devices of its context; calls `notify` when done.
unsafe fn build_devices(
    p: cl_program,
    n: cl_uint,
    list: *const cl_device_id,
    options: *const c_char,
    notify: BuildNotify,
    user_data: *mut c_void,
    link: bool,
) -> cl_int {
    guard(|| {
        let Some(prog) = program(p) else {
            return CL_INVALID_PROGRAM;
        };
        if notify.is_none() && !user_data.is_null() {
            return CL_INVALID_VALUE;
        }
        let Some(ctx) = context(prog.ctx.ptr()) else {
            return CL_INVALID_PROGRAM;
        };
        let devs = match devices_of(ctx, list, n) {
            Ok(d) => d,
            Err(e) => return e,
        };
        if prog.kernels.load(std::sync::atomic::Ordering::Relaxed) > 0 {
            return CL_INVALID_OPERATION;
        }
        // SAFETY: a C string.
        let opts = unsafe { options_str(options) };
        let headers = prog.headers.lock().unwrap().clone();
        let mut ok = true;
        {
            let mut builds = prog.builds.lock().unwrap();
            for b in builds.iter_mut().filter(|b| devs.contains(&b.device)) {
                if prog.source.is_none() && b.binary.is_none() {
                    return CL_INVALID_BINARY;
                }
                ok &= build_one(&prog.rt, prog.source.as_deref(), &headers, b, &opts, link);
            }
        }
        prog.compiled_only
            .store(!link, std::sync::atomic::Ordering::Relaxed);
        if let Some(f) = notify {
            // SAFETY: the application's callback.
            unsafe { f(p, user_data) };
        }
        if ok {
            CL_SUCCESS
        } else if link {
            CL_BUILD_PROGRAM_FAILURE
        } else {
            CL_COMPILE_PROGRAM_FAILURE
        }
    })
}

/// clBuildProgram.
pub unsafe extern "C" fn build_program(
    p: cl_program,
    n: cl_uint,
    list: *const cl_device_id,
    options: *const c_char,
    notify: BuildNotify,
    user_data: *mut c_void,
) -> cl_int {
    // SAFETY: forwarded.
    unsafe { build_devices(p, n, list, options, notify, user_data, true) }
}

/// clCompileProgram: compiles the source with the input headers beside it
/// (an `#include "name"` finds them); clLinkProgram makes the executable.
pub unsafe extern "C" fn compile_program(
    p: cl_program,
    n: cl_uint,
    list: *const cl_device_id,
    options: *const c_char,
    num_headers: cl_uint,
    headers: *const cl_program,
    names: *mut *const c_char,
    notify: BuildNotify,
    user_data: *mut c_void,
) -> cl_int {
    let r = guard(|| {
        let Some(prog) = program(p) else {
            return CL_INVALID_PROGRAM;
        };
        if prog.source.is_none() {
            return CL_INVALID_OPERATION;
        }
        if (num_headers == 0) != headers.is_null() || (num_headers == 0) != names.is_null() {
            return CL_INVALID_VALUE;
        }
        let mut hs = Vec::new();
        for i in 0..num_headers as usize {
            // SAFETY: num_headers entries each (OpenCL's contract).
            let (h, name) = unsafe { (*headers.add(i), *names.add(i)) };
            let Some(hp) = program(h) else {
                return CL_INVALID_PROGRAM;
            };
            if name.is_null() {
                return CL_INVALID_VALUE;
            }
            // SAFETY: a C string.
            let name = unsafe { CStr::from_ptr(name) }
                .to_string_lossy()
                .into_owned();
            hs.push((name, hp.source.clone().unwrap_or_default()));
        }
        *prog.headers.lock().unwrap() = hs;
        CL_SUCCESS
    });
    if r != CL_SUCCESS {
        return r;
    }
    // SAFETY: forwarded.
    unsafe { build_devices(p, n, list, options, notify, user_data, false) }
}

/// clLinkProgram: the compiled programs' sources, one after another, are
/// built as one translation unit with all their headers (risa links source,
/// not objects: each device's object is made by one clang run).
pub unsafe extern "C" fn link_program(
    c: cl_context,
    n: cl_uint,
    list: *const cl_device_id,
    options: *const c_char,
    num_inputs: cl_uint,
    inputs: *const cl_program,
    notify: BuildNotify,
    user_data: *mut c_void,
    err: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx = context(c).ok_or(CL_INVALID_CONTEXT)?;
            if notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let ins = slice(inputs, num_inputs as usize);
            if ins.is_empty() {
                return Err(CL_INVALID_VALUE);
            }
            let progs: Vec<&Program> = ins
                .iter()
                .map(|&p| program(p).ok_or(CL_INVALID_PROGRAM))
                .collect::<Result<_, _>>()?;
            let devs = devices_of(ctx, list, n)?;
            if progs.iter().any(|p| p.source.is_none()) {
                // Objects cannot be linked; a single binary is its own executable.
                return Err(CL_INVALID_OPERATION);
            }
            let mut src = String::new();
            let mut headers = Vec::new();
            for p in &progs {
                src.push_str(p.source.as_deref().unwrap_or(""));
                src.push('\n');
                headers.extend(p.headers.lock().unwrap().iter().cloned());
            }
            let first_opts = progs[0]
                .builds
                .lock()
                .unwrap()
                .first()
                .map(|b| b.options.clone())
                .unwrap_or_default();
            let lp = new_program(
                c,
                ctx,
                Some(src),
                devs.iter().map(|&d| empty_build(d)).collect(),
            );
            *program(lp).unwrap().headers.lock().unwrap() = headers;
            let link_opts = options_str(options);
            let all =
                std::ffi::CString::new(format!("{first_opts} {link_opts}")).unwrap_or_default();
            let e = build_devices(lp, n, list, all.as_ptr(), None, std::ptr::null_mut(), true);
            if let Some(f) = notify {
                f(lp, user_data);
            }
            if e != CL_SUCCESS {
                handle::release::<Program, _>(lp);
                return Err(CL_LINK_PROGRAM_FAILURE);
            }
            Ok(lp)
        })
    }
}

crate::handle::retain_release!(
    retain_program,
    release_program,
    cl_program,
    Program,
    CL_INVALID_PROGRAM
);

/// Names of the kernels of the first successful build.
pub fn kernel_names(prog: &Program) -> Option<Vec<String>> {
    let builds = prog.builds.lock().unwrap();
    let b = builds
        .iter()
        .find(|b| b.status == CL_BUILD_SUCCESS && b.module.is_some())?;
    Some(b.args.iter().map(|(n, _)| n.clone()).collect())
}

/// clGetProgramInfo.
pub unsafe extern "C" fn get_program_info(
    p: cl_program,
    name: cl_program_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let Some(prog) = program(p) else {
            return CL_INVALID_PROGRAM;
        };
        let builds = prog.builds.lock().unwrap();
        let v = match name {
            CL_PROGRAM_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Program, _>(p))),
            CL_PROGRAM_CONTEXT => Ok(Info::Ptr(prog.ctx.ptr() as usize)),
            CL_PROGRAM_NUM_DEVICES => Ok(Info::U32(builds.len() as u32)),
            CL_PROGRAM_DEVICES => Ok(Info::Ptrs(
                builds.iter().map(|b| b.device as usize).collect(),
            )),
            CL_PROGRAM_SOURCE => Ok(Info::Str(prog.source.clone().unwrap_or_default())),
            CL_PROGRAM_BINARY_SIZES => Ok(Info::Sizes(
                builds
                    .iter()
                    .map(|b| b.binary.as_ref().map_or(0, Vec::len))
                    .collect(),
            )),
            CL_PROGRAM_BINARIES => {
                if !value.is_null() {
                    if size < builds.len() * std::mem::size_of::<usize>() {
                        return CL_INVALID_VALUE;
                    }
                    for (i, b) in builds.iter().enumerate() {
                        // SAFETY: an array of builds.len() pointers, each to a
                        // buffer of the binary's size (or null to skip).
                        unsafe {
                            let dst = *(value as *const *mut u8).add(i);
                            if let (false, Some(bin)) = (dst.is_null(), &b.binary) {
                                std::ptr::copy_nonoverlapping(bin.as_ptr(), dst, bin.len());
                            }
                        }
                    }
                }
                if !size_ret.is_null() {
                    // SAFETY: caller's pointer.
                    unsafe { *size_ret = builds.len() * std::mem::size_of::<usize>() };
                }
                return CL_SUCCESS;
            }
            CL_PROGRAM_NUM_KERNELS | CL_PROGRAM_KERNEL_NAMES => {
                drop(builds);
                match kernel_names(prog) {
                    None => Err(CL_INVALID_PROGRAM_EXECUTABLE),
                    Some(n) if name == CL_PROGRAM_NUM_KERNELS => Ok(Info::Size(n.len())),
                    Some(n) => Ok(Info::Str(n.join(";"))),
                }
            }
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: caller's buffers.
        unsafe { answer(v, size, value, size_ret) }
    })
}

/// clGetProgramBuildInfo.
pub unsafe extern "C" fn get_program_build_info(
    p: cl_program,
    d: cl_device_id,
    name: cl_program_build_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let prog = program(p).ok_or(CL_INVALID_PROGRAM)?;
            let builds = prog.builds.lock().unwrap();
            let Some(b) = builds.iter().find(|b| b.device == d) else {
                return Err(CL_INVALID_DEVICE);
            };
            match name {
            CL_PROGRAM_BUILD_STATUS => Ok(Info::I32(b.status)),
            CL_PROGRAM_BUILD_OPTIONS => Ok(Info::Str(b.options.clone())),
            CL_PROGRAM_BUILD_LOG => Ok(Info::Str(b.log.clone())),
            CL_PROGRAM_BINARY_TYPE => Ok(Info::U32(if b.module.is_some() {
                CL_PROGRAM_BINARY_TYPE_EXECUTABLE
            } else if b.status == CL_BUILD_SUCCESS {
                CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
            } else {
                CL_PROGRAM_BINARY_TYPE_NONE
            })),
            0x4185 /* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE */ => Ok(Info::Size(0)),
            _ => Err(CL_INVALID_VALUE),
        }
        })
    }
}

/// clCreateProgramWithBuiltInKernels: risa has none.
pub unsafe extern "C" fn create_with_builtin(
    c: cl_context,
    _n: cl_uint,
    _list: *const cl_device_id,
    _names: *const c_char,
    err: *mut cl_int,
) -> cl_program {
    // SAFETY: caller's pointer.
    unsafe {
        guard_obj(err, || {
            context(c).ok_or(CL_INVALID_CONTEXT)?;
            Err(CL_INVALID_VALUE)
        })
    }
}

/// clUnloadPlatformCompiler / clUnloadCompiler: nothing to unload.
pub unsafe extern "C" fn unload_platform_compiler(_p: cl_platform_id) -> cl_int {
    CL_SUCCESS
}
