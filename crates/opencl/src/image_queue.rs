//! The image commands: read, write, copy (image to image, to and from
//! buffers), fill and map. Each moves whole rows between the image's packed
//! device layout and the other side (crate::image).

use crate::context::Context;
use crate::image::{check_region, image_in, pitches, rows, texel_of_color, transfer, Image};
use crate::mem::{Mapping, Mem};
use crate::queue::{buffer_range, command, job, map_command, triple, Queue};
use opencl_sys::*;
use std::ffi::c_void;

/// An image a command names, kept alive until the command has run.
struct HeldImage {
    _hold: crate::handle::Ref<c_void>,
    mem: &'static Mem,
}

impl HeldImage {
    fn img(&self) -> &Image {
        self.mem.image.as_ref().expect("checked when enqueued")
    }
}

/// Image `m` of the queue's context, on a device that supports images
/// (CL_INVALID_OPERATION otherwise, as the specification says).
fn held(qu: &Queue, ctx: &Context, m: cl_mem) -> Result<HeldImage, cl_int> {
    let (b, _) = image_in(ctx, m)?;
    let dev = crate::platform::device(qu.device).ok_or(CL_INVALID_COMMAND_QUEUE)?;
    if !crate::compiler::image_support(dev.isa) {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(HeldImage {
        _hold: crate::handle::Ref::new::<Mem>(m),
        mem: b,
    })
}

/// clEnqueueReadImage / clEnqueueWriteImage.
unsafe fn image_io(
    q: cl_command_queue,
    m: cl_mem,
    read: bool,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row: usize,
    slice: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    let ty = if read {
        CL_COMMAND_READ_IMAGE
    } else {
        CL_COMMAND_WRITE_IMAGE
    };
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, ty, n, wait, ev, blocking != 0, |qu, ctx| {
            let h = held(qu, ctx, m)?;
            let (o, r) = (triple(origin)?, triple(region)?);
            check_region(h.img(), o, r)?;
            let p = pitches(h.img(), r, row, slice)?;
            if ptr.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            Ok(job(move || {
                // SAFETY: the host region stays valid until the command ends.
                transfer(h.mem, o, r, p, ptr.cast(), read)?;
                if !read {
                    crate::image::sync_to_host(h.mem);
                }
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueReadImage.
pub unsafe extern "C" fn enqueue_read_image(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row: usize,
    slice: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        image_io(
            q, m, true, blocking, origin, region, row, slice, ptr, n, wait, ev,
        )
    }
}

/// clEnqueueWriteImage.
pub unsafe extern "C" fn enqueue_write_image(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row: usize,
    slice: usize,
    ptr: *const c_void,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers; a write only reads `ptr`.
    unsafe {
        image_io(
            q,
            m,
            false,
            blocking,
            origin,
            region,
            row,
            slice,
            ptr as *mut c_void,
            n,
            wait,
            ev,
        )
    }
}

/// Reads the rows of a box of image `h` into a packed host copy.
fn read_box(h: &HeldImage, o: [usize; 3], r: [usize; 3]) -> Result<Vec<u8>, cl_int> {
    let bpp = h.img().bpp();
    let mut tmp = vec![0u8; r[0] * r[1] * r[2] * bpp];
    let p = [r[0] * bpp, r[0] * r[1] * bpp];
    // SAFETY: `tmp` holds the region packed.
    unsafe { transfer(h.mem, o, r, p, tmp.as_mut_ptr(), true)? };
    Ok(tmp)
}

/// Writes a packed host copy into a box of image `h`.
fn write_box(h: &HeldImage, o: [usize; 3], r: [usize; 3], data: &[u8]) -> Result<(), cl_int> {
    let bpp = h.img().bpp();
    let p = [r[0] * bpp, r[0] * r[1] * bpp];
    // SAFETY: `data` holds the region packed (the callers size it so).
    unsafe { transfer(h.mem, o, r, p, data.as_ptr() as *mut u8, false)? };
    crate::image::sync_to_host(h.mem);
    Ok(())
}

/// clEnqueueCopyImage.
pub unsafe extern "C" fn enqueue_copy_image(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    so: *const usize,
    d_o: *const usize,
    region: *const usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_COPY_IMAGE, n, wait, ev, false, |qu, ctx| {
            let s = held(qu, ctx, src)?;
            let d = held(qu, ctx, dst)?;
            let (so, d_o, r) = (triple(so)?, triple(d_o)?, triple(region)?);
            if s.img().format != d.img().format {
                return Err(CL_IMAGE_FORMAT_MISMATCH);
            }
            check_region(s.img(), so, r)?;
            check_region(d.img(), d_o, r)?;
            if src == dst && (0..3).all(|k| so[k] < d_o[k] + r[k] && d_o[k] < so[k] + r[k]) {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            Ok(job(move || {
                let tmp = read_box(&s, so, r)?;
                write_box(&d, d_o, r, &tmp)?;
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueCopyImageToBuffer / clEnqueueCopyBufferToImage: the buffer
/// side holds the region packed from `offset`.
unsafe fn image_buffer_copy(
    q: cl_command_queue,
    image: cl_mem,
    buffer: cl_mem,
    to_buffer: bool,
    origin: *const usize,
    region: *const usize,
    offset: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    let ty = if to_buffer {
        CL_COMMAND_COPY_IMAGE_TO_BUFFER
    } else {
        CL_COMMAND_COPY_BUFFER_TO_IMAGE
    };
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, ty, n, wait, ev, false, |qu, ctx| {
            let h = held(qu, ctx, image)?;
            let (o, r) = (triple(origin)?, triple(region)?);
            check_region(h.img(), o, r)?;
            let len = r[0] * r[1] * r[2] * h.img().bpp();
            let b = buffer_range(ctx, buffer, offset, len)?;
            if b.image.is_some() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            Ok(job(move || {
                let at = b.addr + offset as u64;
                if to_buffer {
                    let tmp = read_box(&h, o, r)?;
                    b.rt.write(at, &tmp).map_err(|_| CL_OUT_OF_RESOURCES)?;
                    b.sync_to_host(offset, len);
                } else {
                    let mut tmp = vec![0u8; len];
                    b.rt.read(at, &mut tmp).map_err(|_| CL_OUT_OF_RESOURCES)?;
                    write_box(&h, o, r, &tmp)?;
                }
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueCopyImageToBuffer.
pub unsafe extern "C" fn enqueue_copy_image_to_buffer(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    origin: *const usize,
    region: *const usize,
    offset: usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe { image_buffer_copy(q, src, dst, true, origin, region, offset, n, wait, ev) }
}

/// clEnqueueCopyBufferToImage.
pub unsafe extern "C" fn enqueue_copy_buffer_to_image(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    offset: usize,
    origin: *const usize,
    region: *const usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe { image_buffer_copy(q, dst, src, false, origin, region, offset, n, wait, ev) }
}

/// clEnqueueFillImage.
pub unsafe extern "C" fn enqueue_fill_image(
    q: cl_command_queue,
    m: cl_mem,
    color: *const c_void,
    origin: *const usize,
    region: *const usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded pointers.
    unsafe {
        command(q, CL_COMMAND_FILL_IMAGE, n, wait, ev, false, |qu, ctx| {
            let h = held(qu, ctx, m)?;
            let (o, r) = (triple(origin)?, triple(region)?);
            check_region(h.img(), o, r)?;
            if color.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: a float4, int4 or uint4 (the caller's contract).
            let c: [u32; 4] = std::ptr::read_unaligned(color.cast());
            let texel = texel_of_color(&h.img().format, c);
            let data: Vec<u8> = texel
                .iter()
                .copied()
                .cycle()
                .take(texel.len() * r[0] * r[1] * r[2])
                .collect();
            Ok(job(move || {
                write_box(&h, o, r, &data)?;
                Ok(CL_COMPLETE)
            }))
        })
    }
}

/// clEnqueueMapImage: a packed host copy of the region (also for
/// USE_HOST_PTR images), written back at unmap when mapped for writing.
pub unsafe extern "C" fn enqueue_map_image(
    q: cl_command_queue,
    m: cl_mem,
    blocking: cl_bool,
    flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    row_pitch: *mut usize,
    slice_pitch: *mut usize,
    n: cl_uint,
    wait: *const cl_event,
    ev: *mut cl_event,
    err: *mut cl_int,
) -> *mut c_void {
    // SAFETY: forwarded pointers.
    unsafe {
        map_command(
            q,
            CL_COMMAND_MAP_IMAGE,
            n,
            wait,
            ev,
            blocking != 0,
            err,
            |qu, ctx| {
                let h = held(qu, ctx, m)?;
                let (o, r) = (triple(origin)?, triple(region)?);
                check_region(h.img(), o, r)?;
                if row_pitch.is_null()
                    || flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
                {
                    return Err(CL_INVALID_VALUE);
                }
                let img = h.img();
                let has_slices = matches!(img.mem_type, CL_MEM_OBJECT_IMAGE3D)
                    || matches!(
                        img.mem_type,
                        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
                    );
                if has_slices && slice_pitch.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                let bpp = img.bpp();
                let p = [r[0] * bpp, r[0] * r[1] * bpp];
                *row_pitch = p[0];
                if !slice_pitch.is_null() {
                    *slice_pitch = if img.mem_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                        p[0]
                    } else if has_slices {
                        p[1]
                    } else {
                        0
                    };
                }
                let copy = vec![0u8; p[1] * r[2]];
                let ptr = copy.as_ptr() as usize;
                let map_rows = rows(img, o, r, p);
                let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
                h.mem.maps.lock().unwrap().push(Mapping {
                    ptr,
                    offset: 0,
                    size: copy.len(),
                    copy: Some(copy),
                    write,
                    rows: map_rows,
                });
                let work = job(move || {
                    let mut maps = h.mem.maps.lock().unwrap();
                    if let Some(Mapping {
                        copy: Some(c),
                        rows,
                        ..
                    }) = maps.iter_mut().find(|x| x.ptr == ptr)
                    {
                        for &(dev, host, len) in rows.iter() {
                            h.mem
                                .rt
                                .read(h.mem.addr + dev as u64, &mut c[host..host + len])
                                .map_err(|_| CL_OUT_OF_RESOURCES)?;
                        }
                    }
                    Ok(CL_COMPLETE)
                });
                Ok((ptr, work))
            },
        )
    }
}
