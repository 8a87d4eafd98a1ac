//! Command queues and events. Commands run when they are enqueued (in
//! order, so an out-of-order queue is accepted and behaves in order); each
//! event records the emulation's times for profiling. A guest fault makes
//! the event's status negative and prints risa's fault report on stderr.

use crate::context::{context, has_device, Context};
use crate::handle::{self, Kind, Ref};
use crate::info::{guard, guard_obj, query, slice, Info};
use crate::kernel::{kernel, ArgValue};
use crate::mem::{mem, Mapping, Mem};
use crate::platform::{device, MAX_WORK_GROUP};
use crate::program::program;
use opencl_sys::*;
use risa_runtime::gpu::{KernelArg, LaunchError};
use risa_runtime::LaunchConfig;
use std::ffi::c_void;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

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

type Callback = (
    unsafe extern "C" fn(cl_event, cl_int, *mut c_void),
    cl_int,
    usize,
);

/// An event.
pub struct Event {
    /// Its context.
    pub ctx: Ref<c_void>,
    /// Its queue (null for user events).
    pub queue: usize,
    /// CL_COMMAND_*.
    pub command: cl_command_type,
    /// CL_QUEUED .. CL_COMPLETE, or a negative error.
    pub status: Mutex<cl_int>,
    /// Signalled when a user event's status is set.
    changed: Condvar,
    /// Queued, submitted, started, ended (ns).
    pub times: [u64; 4],
    callbacks: Mutex<Vec<Callback>>,
}

// SAFETY: the only type of Kind::Event handles.
unsafe impl handle::Object for Event {
    const KIND: Kind = Kind::Event;
}

fn now_ns() -> u64 {
    static T0: OnceLock<Instant> = OnceLock::new();
    T0.get_or_init(Instant::now).elapsed().as_nanos() as u64 + 1
}

/// The queue behind a handle.
pub fn queue<'a>(q: cl_command_queue) -> Option<&'a Queue> {
    handle::get::<Queue, _>(q)
}

fn event<'a>(e: cl_event) -> Option<&'a Event> {
    handle::get::<Event, _>(e)
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

/// clFlush / clFinish: every command has already run.
pub unsafe extern "C" fn finish(q: cl_command_queue) -> cl_int {
    queue(q).map_or(CL_INVALID_COMMAND_QUEUE, |_| CL_SUCCESS)
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
        if *ev.status.lock().unwrap() < 0 {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
    }
    Ok(())
}

/// Runs one command: checks the queue and wait list, runs `f` (which
/// returns the command's status), makes the event.
unsafe fn command(
    q: cl_command_queue,
    ty: cl_command_type,
    n: cl_uint,
    wait: *const cl_event,
    out: *mut cl_event,
    f: impl FnOnce(&Queue, &Context) -> Result<cl_int, cl_int>,
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
        let queued = now_ns();
        let start = now_ns();
        let status = match f(qu, ctx) {
            Ok(s) => s,
            Err(e) => return e,
        };
        let end = now_ns();
        if !out.is_null() {
            let e: cl_event = handle::create(Event {
                ctx: Ref::new::<Context>(qu.ctx.ptr()),
                queue: q as usize,
                command: ty,
                status: Mutex::new(status),
                changed: Condvar::new(),
                times: [queued, queued, start, end],
                callbacks: Mutex::new(Vec::new()),
            });
            // SAFETY: caller's pointer.
            unsafe { *out = e };
        }
        CL_SUCCESS
    })
}

fn buffer_range<'a>(
    ctx: &Context,
    m: cl_mem,
    offset: usize,
    size: usize,
) -> Result<&'a Mem, cl_int> {
    let b = mem(m).ok_or(CL_INVALID_MEM_OBJECT)?;
    if context(b.ctx.ptr()).is_none_or(|c| !std::ptr::eq(c, ctx)) {
        return Err(CL_INVALID_CONTEXT);
    }
    if offset.checked_add(size).is_none_or(|e| e > b.size) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(b)
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
        command(q, ty, n, wait, ev, |_, ctx| {
            let b = buffer_range(ctx, m, offset, size)?;
            if ptr.is_null() || size == 0 {
                return Err(CL_INVALID_VALUE);
            }
            transfer(b, b.addr + offset as u64, ptr.cast(), size, read)?;
            if !read {
                b.sync_to_host(offset, size);
            }
            Ok(CL_COMPLETE)
        })
    }
}

/// clEnqueueReadBuffer.
pub unsafe extern "C" fn enqueue_read_buffer(
    q: cl_command_queue,
    m: cl_mem,
    _blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe { buffer_io(q, m, true, offset, size, ptr, n, wait, ev) }
}

/// clEnqueueWriteBuffer.
pub unsafe extern "C" fn enqueue_write_buffer(
    q: cl_command_queue,
    m: cl_mem,
    _blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers; a write only reads `ptr`.
    unsafe { buffer_io(q, m, false, offset, size, ptr as *mut c_void, n, wait, ev) }
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
        command(q, CL_COMMAND_COPY_BUFFER, n, wait, ev, |_, ctx| {
            let s = buffer_range(ctx, src, so, size)?;
            let d = buffer_range(ctx, dst, d_o, size)?;
            if size == 0 {
                return Err(CL_INVALID_VALUE);
            }
            let (sa, da) = (s.addr + so as u64, d.addr + d_o as u64);
            if sa < da + size as u64 && da < sa + size as u64 {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            let mut tmp = vec![0u8; size];
            s.rt.read(sa, &mut tmp).map_err(|_| CL_INVALID_VALUE)?;
            d.rt.write(da, &tmp).map_err(|_| CL_INVALID_VALUE)?;
            d.sync_to_host(d_o, size);
            Ok(CL_COMPLETE)
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
        command(q, CL_COMMAND_FILL_BUFFER, n, wait, ev, |_, ctx| {
            let b = buffer_range(ctx, m, offset, size)?;
            if pattern.is_null() || !matches!(psize, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128) {
                return Err(CL_INVALID_VALUE);
            }
            if !offset.is_multiple_of(psize) || !size.is_multiple_of(psize) {
                return Err(CL_INVALID_VALUE);
            }
            let p = std::slice::from_raw_parts(pattern.cast::<u8>(), psize);
            let data: Vec<u8> = p.iter().copied().cycle().take(size).collect();
            b.rt.write(b.addr + offset as u64, &data)
                .map_err(|_| CL_INVALID_VALUE)?;
            b.sync_to_host(offset, size);
            Ok(CL_COMPLETE)
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

unsafe fn triple(p: *const usize) -> Result<[usize; 3], cl_int> {
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
        command(q, ty, n, wait, ev, |_, ctx| {
            let rows = rect_rows(triple(region)?, triple(bo)?, triple(ho)?, pitches)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let end = rows.iter().map(|r| r.0 + r.2).max().unwrap_or(0);
            let b = buffer_range(ctx, m, 0, end)?;
            for (boff, hoff, len) in rows {
                transfer(
                    b,
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
        })
    }
}

/// clEnqueueReadBufferRect.
pub unsafe extern "C" fn enqueue_read_buffer_rect(
    q: cl_command_queue,
    m: cl_mem,
    _blocking: cl_bool,
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
    _blocking: cl_bool,
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
        command(q, CL_COMMAND_COPY_BUFFER_RECT, n, wait, ev, |_, ctx| {
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
        })
    }
}

/// clEnqueueMapBuffer.
pub unsafe extern "C" fn enqueue_map_buffer(
    q: cl_command_queue,
    m: cl_mem,
    _blocking: cl_bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
    err: *mut cl_int,
) -> *mut c_void {
    let mut out = 0usize;
    // SAFETY: forwarded pointers.
    let e = unsafe {
        command(q, CL_COMMAND_MAP_BUFFER, n, wait, ev, |_, ctx| {
            let b = buffer_range(ctx, m, offset, size)?;
            if size == 0
                || flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
            {
                return Err(CL_INVALID_VALUE);
            }
            let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
            let map = if b.host_ptr != 0 {
                b.sync_to_host(offset, size);
                Mapping {
                    ptr: b.host_ptr + offset,
                    offset,
                    size,
                    copy: None,
                    write,
                }
            } else {
                let mut copy = vec![0u8; size];
                b.rt.read(b.addr + offset as u64, &mut copy)
                    .map_err(|_| CL_INVALID_VALUE)?;
                Mapping {
                    ptr: copy.as_ptr() as usize,
                    offset,
                    size,
                    copy: Some(copy),
                    write,
                }
            };
            out = map.ptr;
            b.maps.lock().unwrap().push(map);
            Ok(CL_COMPLETE)
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
        command(q, CL_COMMAND_UNMAP_MEM_OBJECT, n, wait, ev, |_, ctx| {
            let b = buffer_range(ctx, m, 0, 0)?;
            let mut maps = b.maps.lock().unwrap();
            let i = maps
                .iter()
                .position(|x| x.ptr == ptr as usize)
                .ok_or(CL_INVALID_VALUE)?;
            let map = maps.remove(i);
            if map.write {
                let data = match &map.copy {
                    Some(c) => c.clone(),
                    None => std::slice::from_raw_parts(map.ptr as *const u8, map.size).to_vec(),
                };
                b.rt.write(b.addr + map.offset as u64, &data)
                    .map_err(|_| CL_INVALID_VALUE)?;
            }
            Ok(CL_COMPLETE)
        })
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
        command(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, n, wait, ev, |_, _| {
            let list = slice(objs, num as usize);
            if list.is_empty() {
                return Err(CL_INVALID_VALUE);
            }
            if list.iter().any(|&m| mem(m).is_none()) {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            Ok(CL_COMPLETE)
        })
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
    unsafe { command(q, CL_COMMAND_MARKER, n, wait, ev, |_, _| Ok(CL_COMPLETE)) }
}

/// clEnqueueBarrierWithWaitList.
pub unsafe extern "C" fn enqueue_barrier_with_wait_list(
    q: cl_command_queue,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe { command(q, CL_COMMAND_BARRIER, n, wait, ev, |_, _| Ok(CL_COMPLETE)) }
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
            |_, _| Ok(CL_COMPLETE),
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
        command(q, CL_COMMAND_NDRANGE_KERNEL, n, wait, ev, |qu, ctx| {
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
            let mut kargs = Vec::with_capacity(args.len());
            let mut touched = Vec::new();
            for a in args.iter() {
                kargs.push(match a.as_ref().ok_or(CL_INVALID_KERNEL_ARGS)? {
                    ArgValue::Mem(None) => KernelArg::Buffer(0),
                    ArgValue::Mem(Some(r)) => {
                        let b = mem(r.ptr()).ok_or(CL_INVALID_MEM_OBJECT)?;
                        touched.push(b);
                        KernelArg::Buffer(b.addr)
                    }
                    ArgValue::Local(s) => KernelArg::Local(*s),
                    ArgValue::Bytes(b) => KernelArg::Bytes(b.clone()),
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
            let checks = risa_runtime::check::attach_from_env(module, ki, &mut cfg);
            let r = ctx.rt.launch(module, ki, &kargs, &cfg);
            if let Some(c) = checks {
                eprint!("{}", c.report().render(&kern.name));
            }
            for t in &touched {
                t.sync_all_to_host();
            }
            match r {
                Ok(_) => Ok(CL_COMPLETE),
                Err(LaunchError::Args(m)) => {
                    eprintln!("risa OpenCL: kernel {}: {m}", kern.name);
                    Err(CL_INVALID_KERNEL_ARGS)
                }
                Err(LaunchError::Fault(f, _)) => {
                    eprintln!("risa OpenCL: {f}");
                    Ok(CL_OUT_OF_RESOURCES)
                }
            }
        })
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
        // Commands complete when enqueued; user events wait for their status.
        let mut failed = false;
        for &e in evs {
            let ev = event(e).unwrap();
            let mut st = ev.status.lock().unwrap();
            while *st > CL_COMPLETE {
                st = ev.changed.wait(st).unwrap();
            }
            failed |= *st < 0;
        }
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
                CL_EVENT_COMMAND_EXECUTION_STATUS => Ok(Info::I32(*ev.status.lock().unwrap())),
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
            if ev.queue == 0 || !profiled {
                return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
            }
            match name {
            CL_PROFILING_COMMAND_QUEUED => Ok(Info::U64(ev.times[0])),
            CL_PROFILING_COMMAND_SUBMIT => Ok(Info::U64(ev.times[1])),
            CL_PROFILING_COMMAND_START => Ok(Info::U64(ev.times[2])),
            CL_PROFILING_COMMAND_END | 0x1284 /* CL_PROFILING_COMMAND_COMPLETE */ => Ok(Info::U64(ev.times[3])),
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
            let t = now_ns();
            Ok(handle::create(Event {
                ctx: Ref::new::<Context>(c),
                queue: 0,
                command: CL_COMMAND_USER,
                status: Mutex::new(CL_SUBMITTED),
                changed: Condvar::new(),
                times: [t; 4],
                callbacks: Mutex::new(Vec::new()),
            }))
        })
    }
}

fn fire(e: cl_event, ev: &Event) {
    let st = *ev.status.lock().unwrap();
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

/// clSetUserEventStatus.
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
