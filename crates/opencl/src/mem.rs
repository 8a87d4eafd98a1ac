//! Buffers and sub-buffers: allocations in the context's device memory.
//! `CL_MEM_USE_HOST_PTR` buffers are kept equal to the host's memory after
//! every command that writes them (the device behaves as if the host
//! memory were its own); maps of other buffers are host copies written back
//! at unmap.

use crate::context::{context, Context};
use crate::handle::{self, Kind, Ref};
use crate::info::{guard, guard_obj, query, Info};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

/// A mapped region.
pub struct Mapping {
    /// The pointer the host got.
    pub ptr: usize,
    /// Byte offset in the buffer.
    pub offset: usize,
    /// Bytes.
    pub size: usize,
    /// The host copy (None: the USE_HOST_PTR memory itself).
    pub copy: Option<Vec<u8>>,
    /// Whether the host may have written it.
    pub write: bool,
    /// An image map's rows: (device offset, offset in `copy`, bytes); empty
    /// for buffers, whose maps are one range.
    pub rows: Vec<(usize, usize, usize)>,
}

type Destructor = (unsafe extern "C" fn(cl_mem, *mut c_void), usize);

/// A buffer.
pub struct Mem {
    /// Its context.
    pub ctx: Ref<c_void>,
    /// The context's memory.
    pub rt: Arc<risa_runtime::gpu::Device>,
    /// CL_MEM_* flags.
    pub flags: cl_mem_flags,
    /// Bytes.
    pub size: usize,
    /// The host memory of a USE_HOST_PTR buffer (0 otherwise).
    pub host_ptr: usize,
    /// Device address.
    pub addr: u64,
    /// The parent of a sub-buffer, and the origin in it.
    pub parent: Option<(Ref<c_void>, usize)>,
    /// Live maps.
    pub maps: Mutex<Vec<Mapping>>,
    destructors: Mutex<Vec<Destructor>>,
    /// The handle (for destructor callbacks).
    me: std::sync::atomic::AtomicUsize,
    /// What makes it an image (None: a buffer).
    pub image: Option<crate::image::Image>,
    /// An image's image objects in device memory, one per GCN generation.
    pub objects: crate::image::Objects,
}

// SAFETY: the only type of Kind::Mem handles.
unsafe impl handle::Object for Mem {
    const KIND: Kind = Kind::Mem;
}

impl Drop for Mem {
    fn drop(&mut self) {
        let me = self.me.load(std::sync::atomic::Ordering::Relaxed) as cl_mem;
        for (f, ud) in self.destructors.lock().unwrap().drain(..).rev() {
            // SAFETY: the application's callback, called as registered.
            unsafe { f(me, ud as *mut c_void) };
        }
        if self.parent.is_none() {
            self.rt.free(self.addr);
        }
        for (_, a) in self.objects.lock().unwrap().drain(..) {
            self.rt.free(a);
        }
    }
}

impl Mem {
    /// A buffer of context `c` (`ctx`) at device address `addr`.
    pub fn new(
        c: cl_context,
        ctx: &Context,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: usize,
        addr: u64,
        parent: Option<(Ref<c_void>, usize)>,
    ) -> Mem {
        Mem {
            ctx: Ref::new::<Context>(c),
            rt: ctx.rt.clone(),
            flags,
            size,
            host_ptr,
            addr,
            parent,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            me: Default::default(),
            image: None,
            objects: Mutex::new(Vec::new()),
        }
    }

    /// Copies the device bytes of `offset..offset+len` into the host memory
    /// of a USE_HOST_PTR buffer (nothing for other buffers).
    pub fn sync_to_host(&self, offset: usize, len: usize) {
        if self.host_ptr == 0 || len == 0 {
            return;
        }
        if self.image.is_some() {
            return crate::image::sync_to_host(self);
        }
        let mut b = vec![0u8; len];
        if self.rt.read(self.addr + offset as u64, &mut b).is_ok() {
            // SAFETY: host_ptr holds `size` bytes (clCreateBuffer's contract).
            unsafe {
                std::ptr::copy_nonoverlapping(
                    b.as_ptr(),
                    (self.host_ptr as *mut u8).add(offset),
                    len,
                )
            };
        }
    }

    /// The whole buffer to the host memory (USE_HOST_PTR).
    pub fn sync_all_to_host(&self) {
        self.sync_to_host(0, self.size);
    }
}

/// The buffer behind a handle.
pub fn mem<'a>(m: cl_mem) -> Option<&'a Mem> {
    handle::get::<Mem, _>(m)
}

const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const ALL_FLAGS: cl_mem_flags =
    ACCESS | HOST_ACCESS | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

pub(crate) fn check_flags(flags: cl_mem_flags) -> Result<(), cl_int> {
    let bad = flags & !ALL_FLAGS != 0
        || (flags & ACCESS).count_ones() > 1
        || (flags & HOST_ACCESS).count_ones() > 1
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0);
    if bad {
        Err(CL_INVALID_VALUE)
    } else {
        Ok(())
    }
}

pub(crate) fn new_handle(m: Mem) -> cl_mem {
    let h: cl_mem = handle::create(m);
    mem(h)
        .unwrap()
        .me
        .store(h as usize, std::sync::atomic::Ordering::Relaxed);
    h
}

/// clCreateBuffer.
pub unsafe extern "C" fn create_buffer(
    c: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> cl_mem {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx: &Context = context(c).ok_or(CL_INVALID_CONTEXT)?;
            let flags = if flags == 0 { CL_MEM_READ_WRITE } else { flags };
            check_flags(flags)?;
            let needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
            if needs_ptr == host_ptr.is_null() {
                return Err(CL_INVALID_HOST_PTR);
            }
            let max = ctx
                .devices
                .iter()
                .map(|&d| crate::platform::device(d).unwrap().chip.memory_mib << 18)
                .min()
                .unwrap_or(0);
            if size == 0 || size as u64 > max {
                return Err(CL_INVALID_BUFFER_SIZE);
            }
            let addr = ctx
                .rt
                .alloc(size as u64)
                .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
            if needs_ptr {
                // SAFETY: host_ptr holds `size` bytes (clCreateBuffer's contract).
                let src = std::slice::from_raw_parts(host_ptr as *const u8, size);
                ctx.rt.write(addr, src).map_err(|_| CL_OUT_OF_RESOURCES)?;
            }
            let host = if flags & CL_MEM_USE_HOST_PTR != 0 {
                host_ptr as usize
            } else {
                0
            };
            Ok(new_handle(Mem::new(c, ctx, flags, size, host, addr, None)))
        })
    }
}

/// clCreateSubBuffer.
pub unsafe extern "C" fn create_sub_buffer(
    parent: cl_mem,
    flags: cl_mem_flags,
    ty: cl_buffer_create_type,
    info: *const c_void,
    err: *mut cl_int,
) -> cl_mem {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let p = mem(parent).ok_or(CL_INVALID_MEM_OBJECT)?;
            if p.parent.is_some() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            if ty != CL_BUFFER_CREATE_TYPE_REGION || info.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            if flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
                return Err(CL_INVALID_VALUE);
            }
            check_flags(flags)?;
            // Access flags the parent forbids.
            let pa = p.flags & ACCESS;
            let a = flags & ACCESS;
            if (pa == CL_MEM_WRITE_ONLY && a & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
                || (pa == CL_MEM_READ_ONLY && a & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            {
                return Err(CL_INVALID_VALUE);
            }
            let r = &*(info as *const cl_buffer_region);
            if r.size == 0 {
                return Err(CL_INVALID_BUFFER_SIZE);
            }
            if r.origin.checked_add(r.size).is_none_or(|e| e > p.size) {
                return Err(CL_INVALID_VALUE);
            }
            // CL_DEVICE_MEM_BASE_ADDR_ALIGN is 2048 bits.
            if !r.origin.is_multiple_of(256) {
                return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
            }
            let flags = if a == 0 { flags | pa } else { flags };
            let flags = flags
                | (p.flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
            if p.image.is_some() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            let ctx = context(p.ctx.ptr()).ok_or(CL_INVALID_CONTEXT)?;
            let host = if p.host_ptr != 0 {
                p.host_ptr + r.origin
            } else {
                0
            };
            Ok(new_handle(Mem::new(
                p.ctx.ptr(),
                ctx,
                flags,
                r.size,
                host,
                p.addr + r.origin as u64,
                Some((Ref::new::<Mem>(parent), r.origin)),
            )))
        })
    }
}

crate::handle::retain_release!(retain_mem, release_mem, cl_mem, Mem, CL_INVALID_MEM_OBJECT);

/// clSetMemObjectDestructorCallback.
pub unsafe extern "C" fn set_destructor(
    m: cl_mem,
    f: Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
    ud: *mut c_void,
) -> cl_int {
    guard(|| {
        let Some(b) = mem(m) else {
            return CL_INVALID_MEM_OBJECT;
        };
        let Some(f) = f else {
            return CL_INVALID_VALUE;
        };
        b.destructors.lock().unwrap().push((f, ud as usize));
        CL_SUCCESS
    })
}

/// clGetMemObjectInfo.
pub unsafe extern "C" fn get_mem_info(
    m: cl_mem,
    name: cl_mem_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let b = mem(m).ok_or(CL_INVALID_MEM_OBJECT)?;
            match name {
                CL_MEM_TYPE => Ok(Info::U32(
                    b.image
                        .as_ref()
                        .map_or(CL_MEM_OBJECT_BUFFER, |i| i.mem_type),
                )),
                CL_MEM_FLAGS => Ok(Info::U64(b.flags)),
                CL_MEM_SIZE => Ok(Info::Size(b.size)),
                CL_MEM_HOST_PTR => Ok(Info::Ptr(b.host_ptr)),
                CL_MEM_MAP_COUNT => Ok(Info::U32(b.maps.lock().unwrap().len() as u32)),
                CL_MEM_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Mem, _>(m))),
                CL_MEM_CONTEXT => Ok(Info::Ptr(b.ctx.ptr() as usize)),
                CL_MEM_ASSOCIATED_MEMOBJECT => Ok(Info::Ptr(
                    b.parent.as_ref().map_or(0, |p| p.0.ptr() as usize),
                )),
                CL_MEM_OFFSET => Ok(Info::Size(b.parent.as_ref().map_or(0, |p| p.1))),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}
