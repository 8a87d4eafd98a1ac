//! Command queues and the commands enqueued in them. Each command is
//! checked and its arguments captured when it is enqueued; it then runs at
//! once or, when it must wait for an event, later ([`crate::sched`]).
//! Queues run in order (an out-of-order queue is accepted and behaves in
//! order); each event records the emulation's times for profiling. A guest
//! fault makes the event's status negative and prints risa's fault report
//! on stderr.

use crate::context::{context, has_device, Context};
use crate::event::event;
use crate::handle::{self, Kind, Ref};
use crate::info::{guard, guard_obj, query, slice, Info};
use crate::kernel::{kernel, ArgValue};
use crate::mem::{mem, Mapping, Mem};
use crate::platform::{device, MAX_WORK_GROUP};
use crate::program::program;
use crate::sched::{self, Job};
use opencl_sys::*;
use risa_runtime::gpu::{KernelArg, LaunchError};
use risa_runtime::LaunchConfig;
use std::ffi::c_void;
use std::ops::Deref;

/// A command queue.
pub struct Queue {
    /// Its context.
    pub ctx: Ref<c_void>,
    /// Its device.
    pub device: cl_device_id,
    /// CL_QUEUE_* properties.
    pub props: cl_command_queue_properties,
}

// SAFETY: the only type of Kind::Queue handles.
unsafe impl handle::Object for Queue {
    const KIND: Kind = Kind::Queue;
}

/// The queue behind a handle.
pub fn queue<'a>(q: cl_command_queue) -> Option<&'a Queue> {
    handle::get::<Queue, _>(q)
}

/// clCreateCommandQueue.
pub unsafe extern "C" fn create_queue(
    c: cl_context,
    d: cl_device_id,
    props: cl_command_queue_properties,
    err: *mut cl_int,
) -> cl_command_queue {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx = context(c).ok_or(CL_INVALID_CONTEXT)?;
            if device(d).is_none() || !has_device(ctx, d) {
                return Err(CL_INVALID_DEVICE);
            }
            if props & !(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0 {
                return Err(CL_INVALID_VALUE);
            }
            Ok(handle::create(Queue {
                ctx: Ref::new::<Context>(c),
                device: d,
                props,
            }))
        })
    }
}

crate::handle::retain_release!(
    retain_queue,
    release_queue,
    cl_command_queue,
    Queue,
    CL_INVALID_COMMAND_QUEUE
);

/// clGetCommandQueueInfo.
pub unsafe extern "C" fn get_queue_info(
    q: cl_command_queue,
    name: cl_command_queue_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let qu = queue(q).ok_or(CL_INVALID_COMMAND_QUEUE)?;
            match name {
                CL_QUEUE_CONTEXT => Ok(Info::Ptr(qu.ctx.ptr() as usize)),
                CL_QUEUE_DEVICE => Ok(Info::Ptr(qu.device as usize)),
                CL_QUEUE_REFERENCE_COUNT => Ok(Info::U32(handle::refs::<Queue, _>(q))),
                CL_QUEUE_PROPERTIES => Ok(Info::U64(qu.props)),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

/// clSetCommandQueueProperty (OpenCL 1.0): nothing can change.
pub unsafe extern "C" fn set_queue_property(
    q: cl_command_queue,
    _p: cl_command_queue_properties,
    _enable: cl_bool,
    _old: *mut cl_command_queue_properties,
) -> cl_int {
    queue(q).map_or(CL_INVALID_COMMAND_QUEUE, |_| CL_INVALID_OPERATION)
}

/// clFlush: commands run when they can, nothing to flush.
pub unsafe extern "C" fn flush(q: cl_command_queue) -> cl_int {
    queue(q).map_or(CL_INVALID_COMMAND_QUEUE, |_| CL_SUCCESS)
}

/// clFinish: waits for the commands still waiting for events (they run
/// in the threads that set those events).
pub unsafe extern "C" fn finish(q: cl_command_queue) -> cl_int {
    guard(|| {
        if queue(q).is_none() {
            return CL_INVALID_COMMAND_QUEUE;
        }
        sched::finish(q);
        CL_SUCCESS
    })
}

/// Checks an event wait list.
fn check_wait(ctx: cl_context, n: cl_uint, list: *const cl_event) -> Result<(), cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: n entries.
    for &e in unsafe { slice(list, n as usize) } {
        let ev = event(e).ok_or(CL_INVALID_EVENT_WAIT_LIST)?;
        if ev.ctx.ptr() != ctx {
            return Err(CL_INVALID_CONTEXT);
        }
    }
    Ok(())
}

/// Enqueues one command: checks the queue and wait list, runs `f` (which
/// checks the command's arguments and returns its work), and hands the work
/// to the scheduler; with `blocking`, returns when it has ended.
pub(crate) unsafe fn command(
    q: cl_command_queue,
    ty: cl_command_type,
    n: cl_uint,
    wait: *const cl_event,
    out: *mut cl_event,
    blocking: bool,
    f: impl FnOnce(&Queue, &Context) -> Result<Job, cl_int>,
) -> cl_int {
    guard(|| {
        let Some(qu) = queue(q) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        let Some(ctx) = context(qu.ctx.ptr()) else {
            return CL_INVALID_CONTEXT;
        };
        if let Err(e) = check_wait(qu.ctx.ptr(), n, wait) {
            return e;
        }
        let job = match f(qu, ctx) {
            Ok(j) => j,
            Err(e) => return e,
        };
        // SAFETY: n entries (checked above).
        let list = unsafe { slice(wait, n as usize) };
        sched::submit(q, qu.ctx.ptr(), ty, list, out, blocking, job)
    })
}

/// Enqueues a map command: as [`command`], where `f` also returns the
/// pointer the host gets; returns it (null on error, with the code in `err`).
pub(crate) unsafe fn map_command(
    q: cl_command_queue,
    ty: cl_command_type,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
    blocking: bool,
    err: *mut cl_int,
    f: impl FnOnce(&Queue, &Context) -> Result<(usize, Job), cl_int>,
) -> *mut c_void {
    let mut out = 0usize;
    // SAFETY: forwarded pointers.
    let e = unsafe {
        command(q, ty, n, wait, ev, blocking, |qu, ctx| {
            let (ptr, job) = f(qu, ctx)?;
            out = ptr;
            Ok(job)
        })
    };
    // SAFETY: caller's pointer.
    unsafe { crate::info::set_err(err, e) };
    if e == CL_SUCCESS {
        out as *mut c_void
    } else {
        std::ptr::null_mut()
    }
}

/// The work of a command.
pub(crate) fn job(f: impl FnOnce() -> Result<cl_int, cl_int> + 'static) -> Job {
    Box::new(f)
}

/// A command that does nothing (markers, barriers).
fn nothing() -> Job {
    job(|| Ok(CL_COMPLETE))
}

/// A buffer a command names, kept alive until the command has run.
pub(crate) struct Held {
    _hold: Ref<c_void>,
    mem: &'static Mem,
}

impl Deref for Held {
    type Target = Mem;
    fn deref(&self) -> &Mem {
        self.mem
    }
}

/// Buffer `m` of context `ctx` when `offset..offset+size` lies in it (an
/// image is CL_INVALID_MEM_OBJECT).
pub(crate) fn buffer_range(
    ctx: &Context,
    m: cl_mem,
    offset: usize,
    size: usize,
) -> Result<Held, cl_int> {
    let b = mem_range(ctx, m, offset, size)?;
    if b.image.is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok(b)
}

/// Memory object `m` (buffer or image) of context `ctx` when
/// `offset..offset+size` lies in it.
fn mem_range(ctx: &Context, m: cl_mem, offset: usize, size: usize) -> Result<Held, cl_int> {
    let b = mem(m).ok_or(CL_INVALID_MEM_OBJECT)?;
    if context(b.ctx.ptr()).is_none_or(|c| !std::ptr::eq(c, ctx)) {
        return Err(CL_INVALID_CONTEXT);
    }
    if offset.checked_add(size).is_none_or(|e| e > b.size) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(Held {
        _hold: Ref::new::<Mem>(m),
        mem: b,
    })
}

/// Moves `len` bytes between device address `addr` of `b` and the host's
/// memory at `host`: to the host when `read`, else to the device.
///
/// # Safety
/// `host` must point to `len` bytes (writable when `read`).
unsafe fn transfer(
    b: &Mem,
    addr: u64,
    host: *mut u8,
    len: usize,
    read: bool,
) -> Result<(), cl_int> {
    let r = if read {
        // SAFETY: the caller's promise.
        b.rt.read(addr, unsafe { std::slice::from_raw_parts_mut(host, len) })
    } else {
        // SAFETY: the caller's promise.
        b.rt.write(addr, unsafe { std::slice::from_raw_parts(host, len) })
    };
    r.map_err(|_| CL_INVALID_VALUE)
}

/// clEnqueueReadBuffer / clEnqueueWriteBuffer.
unsafe fn buffer_io(
    q: cl_command_queue,
    m: cl_mem,
    read: bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    blocking: cl_bool,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    let ty = if read {
        CL_COMMAND_READ_BUFFER
    } else {
        CL_COMMAND_WRITE_BUFFER
    };
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, ty, n, wait, ev, blocking != 0, |_, ctx| {
            let b = buffer_range(ctx, m, offset, size)?;
            if ptr.is_null() || size == 0 {
                return Err(CL_INVALID_VALUE);
            }
            Ok(job(move || {
                // SAFETY: `ptr` holds `size` bytes until the command ends
                // (the enqueue's contract).
                transfer(&b, b.addr + offset as u64, ptr.cast(), size, read)?;
                if !read {
                    b.sync_to_host(offset, size);
                }
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueReadBuffer.
pub unsafe extern "C" fn enqueue_read_buffer(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe { buffer_io(q, m, true, offset, size, ptr, blocking, n, wait, ev) }
}

/// clEnqueueWriteBuffer.
pub unsafe extern "C" fn enqueue_write_buffer(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers; a write only reads `ptr`.
    unsafe {
        buffer_io(
            q,
            m,
            false,
            offset,
            size,
            ptr as *mut c_void,
            blocking,
            n,
            wait,
            ev,
        )
    }
}

/// clEnqueueCopyBuffer.
pub unsafe extern "C" fn enqueue_copy_buffer(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    so: usize,
    d_o: usize,
    size: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_COPY_BUFFER, n, wait, ev, false, |_, ctx| {
            let s = buffer_range(ctx, src, so, size)?;
            let d = buffer_range(ctx, dst, d_o, size)?;
            if size == 0 {
                return Err(CL_INVALID_VALUE);
            }
            let (sa, da) = (s.addr + so as u64, d.addr + d_o as u64);
            if sa < da + size as u64 && da < sa + size as u64 {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            Ok(job(move || {
                let mut tmp = vec![0u8; size];
                s.rt.read(sa, &mut tmp).map_err(|_| CL_INVALID_VALUE)?;
                d.rt.write(da, &tmp).map_err(|_| CL_INVALID_VALUE)?;
                d.sync_to_host(d_o, size);
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueFillBuffer.
pub unsafe extern "C" fn enqueue_fill_buffer(
    q: cl_command_queue,
    m: cl_mem,
    pattern: *const c_void,
    psize: usize,
    offset: usize,
    size: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_FILL_BUFFER, n, wait, ev, false, |_, ctx| {
            let b = buffer_range(ctx, m, offset, size)?;
            if pattern.is_null() || !matches!(psize, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
                return Err(CL_INVALID_VALUE);
            }
            if !offset.is_multiple_of(psize) || !size.is_multiple_of(psize) {
                return Err(CL_INVALID_VALUE);
            }
            let p = std::slice::from_raw_parts(pattern.cast::<u8>(), psize);
            let data: Vec<u8> = p.iter().copied().cycle().take(size).collect();
            Ok(job(move || {
                b.rt.write(b.addr + offset as u64, &data)
                    .map_err(|_| CL_INVALID_VALUE)?;
                b.sync_to_host(offset, size);
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// The byte offsets of the rows of a rectangular region: (buffer offset,
/// host offset, row bytes) for each row.
fn rect_rows(
    region: [usize; 3],
    b_origin: [usize; 3],
    h_origin: [usize; 3],
    pitches: [usize; 4],
) -> Result<Vec<(usize, usize, usize)>, cl_int> {
    if region.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    let [brp, bsp, hrp, hsp] = pitches;
    let brp = if brp == 0 { region[0] } else { brp };
    let bsp = if bsp == 0 { region[1] * brp } else { bsp };
    let hrp = if hrp == 0 { region[0] } else { hrp };
    let hsp = if hsp == 0 { region[1] * hrp } else { hsp };
    if brp < region[0] || hrp < region[0] || bsp < region[1] * brp || hsp < region[1] * hrp {
        return Err(CL_INVALID_VALUE);
    }
    let mut rows = Vec::new();
    for z in 0..region[2] {
        for y in 0..region[1] {
            let bo = (b_origin[2] + z) * bsp + (b_origin[1] + y) * brp + b_origin[0];
            let ho = (h_origin[2] + z) * hsp + (h_origin[1] + y) * hrp + h_origin[0];
            rows.push((bo, ho, region[0]));
        }
    }
    Ok(rows)
}

pub(crate) unsafe fn triple(p: *const usize) -> Result<[usize; 3], cl_int> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: three entries (OpenCL's contract).
    Ok(unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// clEnqueueReadBufferRect / clEnqueueWriteBufferRect.
unsafe fn rect_io(
    q: cl_command_queue,
    m: cl_mem,
    read: bool,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    pitches: [usize; 4],
    ptr: *mut c_void,
    blocking: cl_bool,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    let ty = if read {
        CL_COMMAND_READ_BUFFER_RECT
    } else {
        CL_COMMAND_WRITE_BUFFER_RECT
    };
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, ty, n, wait, ev, blocking != 0, |_, ctx| {
            let rows = rect_rows(triple(region)?, triple(bo)?, triple(ho)?, pitches)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let end = rows.iter().map(|r| r.0 + r.2).max().unwrap_or(0);
            let b = buffer_range(ctx, m, 0, end)?;
            Ok(job(move || {
                for (boff, hoff, len) in rows {
                    // SAFETY: the host rectangle stays valid until the
                    // command ends (the enqueue's contract).
                    transfer(
                        &b,
                        b.addr + boff as u64,
                        ptr.cast::<u8>().add(hoff),
                        len,
                        read,
                    )?;
                }
                if !read {
                    b.sync_all_to_host();
                }
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueReadBufferRect.
pub unsafe extern "C" fn enqueue_read_buffer_rect(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded.
    unsafe {
        rect_io(
            q,
            m,
            true,
            bo,
            ho,
            region,
            [brp, bsp, hrp, hsp],
            ptr,
            blocking,
            n,
            wait,
            ev,
        )
    }
}

/// clEnqueueWriteBufferRect.
pub unsafe extern "C" fn enqueue_write_buffer_rect(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    bo: *const usize,
    ho: *const usize,
    region: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    ptr: *const c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded.
    unsafe {
        rect_io(
            q,
            m,
            false,
            bo,
            ho,
            region,
            [brp, bsp, hrp, hsp],
            ptr as *mut c_void,
            blocking,
            n,
            wait,
            ev,
        )
    }
}

/// clEnqueueCopyBufferRect.
pub unsafe extern "C" fn enqueue_copy_buffer_rect(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    so: *const usize,
    d_o: *const usize,
    region: *const usize,
    srp: usize,
    ssp: usize,
    drp: usize,
    dsp: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(
            q,
            CL_COMMAND_COPY_BUFFER_RECT,
            n,
            wait,
            ev,
            false,
            |_, ctx| {
                let rows = rect_rows(
                    triple(region)?,
                    triple(so)?,
                    triple(d_o)?,
                    [srp, ssp, drp, dsp],
                )?;
                let s_end = rows.iter().map(|r| r.0 + r.2).max().unwrap_or(0);
                let d_end = rows.iter().map(|r| r.1 + r.2).max().unwrap_or(0);
                let s = buffer_range(ctx, src, 0, s_end)?;
                let d = buffer_range(ctx, dst, 0, d_end)?;
                Ok(job(move || {
                    let mut tmp = Vec::new();
                    for &(a, _, len) in &rows {
                        let mut row = vec![0u8; len];
                        s.rt.read(s.addr + a as u64, &mut row)
                            .map_err(|_| CL_INVALID_VALUE)?;
                        tmp.push(row);
                    }
                    for (&(_, b, _), row) in rows.iter().zip(tmp) {
                        d.rt.write(d.addr + b as u64, &row)
                            .map_err(|_| CL_INVALID_VALUE)?;
                    }
                    d.sync_all_to_host();
                    Ok(CL_COMPLETE)
                }))
            },
        )
    }
}

/// clEnqueueMapBuffer.
pub unsafe extern "C" fn enqueue_map_buffer(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
    err: *mut cl_int,
) -> *mut c_void {
    // SAFETY: forwarded pointers.
    unsafe {
        map_command(
            q,
            CL_COMMAND_MAP_BUFFER,
            n,
            wait,
            ev,
            blocking != 0,
            err,
            |_, ctx| {
                let b = buffer_range(ctx, m, offset, size)?;
                if size == 0
                    || flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
                {
                    return Err(CL_INVALID_VALUE);
                }
                let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
                // The pointer is known now; the bytes arrive when the
                // command runs.
                let copy = (b.host_ptr == 0).then(|| vec![0u8; size]);
                let ptr = match &copy {
                    Some(c) => c.as_ptr() as usize,
                    None => b.host_ptr + offset,
                };
                b.maps.lock().unwrap().push(Mapping {
                    ptr,
                    offset,
                    size,
                    copy,
                    write,
                    rows: Vec::new(),
                });
                let work = job(move || {
                    let mut maps = b.maps.lock().unwrap();
                    match maps.iter_mut().find(|x| x.ptr == ptr) {
                        Some(Mapping { copy: Some(c), .. }) => {
                            b.rt.read(b.addr + offset as u64, c)
                                .map_err(|_| CL_INVALID_VALUE)?
                        }
                        _ => b.sync_to_host(offset, size),
                    }
                    Ok(CL_COMPLETE)
                });
                Ok((ptr, work))
            },
        )
    }
}

/// clEnqueueUnmapMemObject.
pub unsafe extern "C" fn enqueue_unmap(
    q: cl_command_queue,
    m: cl_mem,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(
            q,
            CL_COMMAND_UNMAP_MEM_OBJECT,
            n,
            wait,
            ev,
            false,
            |_, ctx| {
                let b = mem_range(ctx, m, 0, 0)?;
                if !b.maps.lock().unwrap().iter().any(|x| x.ptr == ptr as usize) {
                    return Err(CL_INVALID_VALUE);
                }
                Ok(job(move || {
                    let mut maps = b.maps.lock().unwrap();
                    let i = maps
                        .iter()
                        .position(|x| x.ptr == ptr as usize)
                        .ok_or(CL_INVALID_VALUE)?;
                    let map = maps.remove(i);
                    if map.write && !map.rows.is_empty() {
                        // An image's region: its rows, from the packed copy.
                        let c = map.copy.as_deref().unwrap_or_default();
                        for &(dev, host, len) in &map.rows {
                            b.rt.write(b.addr + dev as u64, &c[host..host + len])
                                .map_err(|_| CL_INVALID_VALUE)?;
                        }
                        b.sync_all_to_host();
                    } else if map.write {
                        let data = match &map.copy {
                            Some(c) => c.clone(),
                            // SAFETY: the USE_HOST_PTR memory, `size` bytes.
                            None => {
                                std::slice::from_raw_parts(map.ptr as *const u8, map.size).to_vec()
                            }
                        };
                        b.rt.write(b.addr + map.offset as u64, &data)
                            .map_err(|_| CL_INVALID_VALUE)?;
                    }
                    Ok(CL_COMPLETE)
                }))
            },
        )
    }
}

/// clEnqueueMigrateMemObjects: one memory, nothing moves.
pub unsafe extern "C" fn enqueue_migrate(
    q: cl_command_queue,
    num: cl_uint,
    objs: *const cl_mem,
    _flags: cl_mem_migration_flags,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(
            q,
            CL_COMMAND_MIGRATE_MEM_OBJECTS,
            n,
            wait,
            ev,
            false,
            |_, _| {
                let list = slice(objs, num as usize);
                if list.is_empty() {
                    return Err(CL_INVALID_VALUE);
                }
                if list.iter().any(|&m| mem(m).is_none()) {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                Ok(nothing())
            },
        )
    }
}

/// clEnqueueMarkerWithWaitList / clEnqueueBarrierWithWaitList.
pub unsafe extern "C" fn enqueue_marker_with_wait_list(
    q: cl_command_queue,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_MARKER, n, wait, ev, false, |_, _| {
            Ok(nothing())
        })
    }
}

/// clEnqueueBarrierWithWaitList.
pub unsafe extern "C" fn enqueue_barrier_with_wait_list(
    q: cl_command_queue,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_BARRIER, n, wait, ev, false, |_, _| {
            Ok(nothing())
        })
    }
}

/// clEnqueueMarker (OpenCL 1.1).
pub unsafe extern "C" fn enqueue_marker(q: cl_command_queue, ev: *mut cl_event) -> cl_int {
    if ev.is_null() {
        return CL_INVALID_VALUE;
    }
    // SAFETY: forwarded pointers.
    unsafe { enqueue_marker_with_wait_list(q, 0, std::ptr::null(), ev) }
}

/// clEnqueueBarrier (OpenCL 1.1).
pub unsafe extern "C" fn enqueue_barrier(q: cl_command_queue) -> cl_int {
    // SAFETY: no pointers.
    unsafe { enqueue_barrier_with_wait_list(q, 0, std::ptr::null(), std::ptr::null_mut()) }
}

/// clEnqueueWaitForEvents (OpenCL 1.1).
pub unsafe extern "C" fn enqueue_wait_for_events(
    q: cl_command_queue,
    n: cl_uint,
    list: *const cl_event,
) -> cl_int {
    if n == 0 || list.is_null() {
        return CL_INVALID_VALUE;
    }
    // SAFETY: forwarded pointers.
    unsafe {
        command(
            q,
            CL_COMMAND_BARRIER,
            n,
            list,
            std::ptr::null_mut(),
            false,
            |_, _| Ok(nothing()),
        )
    }
}

/// A work-group size for `global` when the application leaves it to the
/// runtime: per dimension the largest divisor within the device's limit.
fn pick_local(global: &[usize]) -> Vec<usize> {
    let mut left = MAX_WORK_GROUP;
    global
        .iter()
        .map(|&g| {
            let l = (1..=left.min(g)).rev().find(|l| g % l == 0).unwrap_or(1);
            left /= l;
            l
        })
        .collect()
}

/// clEnqueueNDRangeKernel.
pub unsafe extern "C" fn enqueue_nd_range(
    q: cl_command_queue,
    k: cl_kernel,
    dims: cl_uint,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(
            q,
            CL_COMMAND_NDRANGE_KERNEL,
            n,
            wait,
            ev,
            false,
            |qu, ctx| {
                let kern = kernel(k).ok_or(CL_INVALID_KERNEL)?;
                let prog = program(kern.prog.ptr()).ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                if prog.ctx.ptr() != qu.ctx.ptr() {
                    return Err(CL_INVALID_CONTEXT);
                }
                if !(1..=3).contains(&dims) {
                    return Err(CL_INVALID_WORK_DIMENSION);
                }
                if global.is_null() {
                    return Err(CL_INVALID_GLOBAL_WORK_SIZE);
                }
                let d = dims as usize;
                let g = slice(global, d).to_vec();
                if g.iter().any(|&x| x == 0 || x > u32::MAX as usize) {
                    return Err(CL_INVALID_GLOBAL_WORK_SIZE);
                }
                let off = if offset.is_null() {
                    vec![0; d]
                } else {
                    slice(offset, d).to_vec()
                };
                if off.iter().zip(&g).any(|(o, g)| o.checked_add(*g).is_none()) {
                    return Err(CL_INVALID_GLOBAL_OFFSET);
                }
                let l = if local.is_null() {
                    pick_local(&g)
                } else {
                    let l = slice(local, d).to_vec();
                    if l.contains(&0) || l.iter().product::<usize>() > MAX_WORK_GROUP {
                        return Err(CL_INVALID_WORK_GROUP_SIZE);
                    }
                    if l.iter().any(|&x| x > MAX_WORK_GROUP) {
                        return Err(CL_INVALID_WORK_ITEM_SIZE);
                    }
                    if g.iter().zip(&l).any(|(g, l)| g % l != 0) {
                        return Err(CL_INVALID_WORK_GROUP_SIZE);
                    }
                    l
                };
                // The arguments.
                let args = kern.args.lock().unwrap();
                // Image and sampler objects are written per GCN generation.
                let gen = match device(qu.device).map(|d| d.isa) {
                    Some(risa_runtime::gpu::Isa::Gcn(p)) => Some(p.gen),
                    _ => None,
                };
                let mut kargs = Vec::with_capacity(args.len());
                let mut touched = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    kargs.push(match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                        ArgValue::Mem(None) => KernelArg::Buffer(0),
                        ArgValue::Mem(Some(r)) => {
                            let b = mem_range(ctx, r.ptr(), 0, 0)?;
                            let addr = match (&b.image, gen) {
                                (Some(_), Some(g)) => crate::image::object(&b, g)?,
                                (Some(_), None) => return Err(CL_INVALID_KERNEL_ARGS),
                                (None, _) => b.addr,
                            };
                            touched.push(b);
                            KernelArg::Buffer(addr)
                        }
                        ArgValue::Sampler(s) => {
                            let sm = crate::sampler::sampler(s.ptr()).ok_or(CL_INVALID_SAMPLER)?;
                            KernelArg::Buffer(sm.object(gen.ok_or(CL_INVALID_KERNEL_ARGS)?)?)
                        }
                        ArgValue::Local(s) => KernelArg::Local(*s),
                        ArgValue::Bytes(b) => match kern.descs.as_ref().and_then(|d| d.get(i)) {
                            Some(d) if d.align > 0 => KernelArg::Aligned(b.clone(), d.align),
                            _ => KernelArg::Bytes(b.clone()),
                        },
                    });
                }
                let builds = prog.builds.lock().unwrap();
                let b = builds
                    .iter()
                    .find(|b| b.device == qu.device && b.status == CL_BUILD_SUCCESS)
                    .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                let module = b.module.as_ref().ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
                let ki = module
                    .kernel(Some(&kern.name))
                    .map_err(|_| CL_INVALID_KERNEL)?;
                let pad = |v: &[usize], fill: usize| -> [usize; 3] {
                    std::array::from_fn(|i| v.get(i).copied().unwrap_or(fill))
                };
                let mut cfg = LaunchConfig::new(pad(&g, 1).map(|x| x as u32), dims);
                cfg.block = pad(&l, 1).map(|x| x as u32);
                cfg.offset = pad(&off, 0).map(|x| x as u64);
                // Read per launch: a host may set it between launches.
                if let Some(t) = std::env::var("RISA_OPENCL_THREADS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                {
                    cfg.threads = t;
                }
                // The platform runs programs as their compiler meant them.
                cfg.llvm_r600_atomics = true;
                let checks = risa_runtime::check::attach_from_env(module, ki, &mut cfg);
                let module = module.clone();
                let rt = ctx.rt.clone();
                let name = kern.name.clone();
                drop(builds);
                drop(args);
                Ok(job(move || {
                    let r = rt.launch(&module, ki, &kargs, &cfg);
                    if let Some(c) = checks {
                        eprint!("{}", c.report().render(&name));
                    }
                    for t in &touched {
                        t.sync_all_to_host();
                    }
                    launched(&name, r)
                }))
            },
        )
    }
}

/// A launch's outcome as the event's status: a guest fault is an error on
/// the event (CL_OUT_OF_RESOURCES) with risa's report on stderr.
fn launched<T>(name: &str, r: Result<T, LaunchError>) -> Result<cl_int, cl_int> {
    match r {
        Ok(_) => Ok(CL_COMPLETE),
        Err(LaunchError::Args(m)) => {
            eprintln!("risa OpenCL: kernel {name}: {m}");
            Err(CL_INVALID_KERNEL_ARGS)
        }
        Err(LaunchError::Fault(f, _)) => {
            eprintln!("risa OpenCL: {f}");
            Ok(CL_OUT_OF_RESOURCES)
        }
    }
}

/// clEnqueueTask.
pub unsafe extern "C" fn enqueue_task(
    q: cl_command_queue,
    k: cl_kernel,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    let one = 1usize;
    // SAFETY: forwarded pointers.
    unsafe { enqueue_nd_range(q, k, 1, std::ptr::null(), &one, &one, n, wait, ev) }
}

/// clEnqueueNativeKernel: the devices run no host code.
pub unsafe extern "C" fn enqueue_native_kernel(
    q: cl_command_queue,
    _f: Option<unsafe extern "C" fn(*mut c_void)>,
    _args: *mut c_void,
    _cb: usize,
    _num: cl_uint,
    _mems: *const cl_mem,
    _locs: *mut *const c_void,
    _n: cl_uint,
    _wait: *const cl_event,
    _ev: *mut cl_event,
) -> cl_int {
    queue(q).map_or(CL_INVALID_COMMAND_QUEUE, |_| CL_INVALID_OPERATION)
}
