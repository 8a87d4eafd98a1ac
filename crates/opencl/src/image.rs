//! Images: memory objects whose texels lie linear and packed in the
//! context's device memory (row after row, slice after slice; the layout the
//! GCN emulator reads, `docs/gcn-emulator.md`, "Images"), with the image
//! object a kernel argument points to written per GCN generation on first
//! use (`risa_runtime::image_object`). Only devices whose compiler gives
//! kernels image builtins (clang-19 + ROCm device libraries) support images
//! ([`crate::compiler::image_support`]); see `docs/opencl.md`, "Images".

use crate::context::{context, Context};
use crate::handle::Ref;
use crate::info::{guard_obj, query, Info};
use crate::mem::{check_flags, mem, new_handle, Mem};
use opencl_sys::*;
use risa_gcn::Gen;
use risa_runtime::image_object::{self, Format, Shape};
use std::ffi::c_void;
use std::sync::Mutex;

/// What makes a memory object an image.
pub struct Image {
    /// Its shape.
    pub shape: Shape,
    /// CL_MEM_OBJECT_IMAGE*.
    pub mem_type: cl_mem_object_type,
    /// Format and its descriptor encoding.
    pub format: Format,
    /// Width, height, depth as OpenCL reports them (0 where the shape has none).
    pub dims: [usize; 3],
    /// Slices of an array (0 otherwise).
    pub array_size: usize,
    /// The texel box: width, rows, slices (1D arrays: a row per slice).
    pub extent: [usize; 3],
    /// The host memory's row and slice pitches (USE_HOST_PTR).
    pub host_pitch: [usize; 2],
}

impl Image {
    /// Bytes per texel.
    pub fn bpp(&self) -> usize {
        self.format.bytes as usize
    }
    /// Bytes per row in device memory.
    pub fn row_pitch(&self) -> usize {
        self.extent[0] * self.bpp()
    }
    /// Bytes per slice in device memory.
    pub fn slice_pitch(&self) -> usize {
        self.extent[1] * self.row_pitch()
    }
    /// The unused coordinates of a region must be 1 and of an origin 0
    /// (CL_INVALID_VALUE otherwise), and the box must lie in the image.
    fn check_box(&self, origin: [usize; 3], region: [usize; 3]) -> Result<(), cl_int> {
        let used = match self.shape {
            Shape::D1 | Shape::D1Buffer => 1,
            Shape::D1Array | Shape::D2 => 2,
            _ => 3,
        };
        for k in used..3 {
            if origin[k] != 0 || region[k] != 1 {
                return Err(CL_INVALID_VALUE);
            }
        }
        // An API origin or region is a point of the texel box as it is: a
        // 1D array's slice is its second coordinate, a 2D array's its third.
        let (o, r) = (origin, region);
        for k in 0..3 {
            if r[k] == 0 || o[k].checked_add(r[k]).is_none_or(|e| e > self.extent[k]) {
                return Err(CL_INVALID_VALUE);
            }
        }
        Ok(())
    }
    /// Host pitches of a transfer: the API's (0: packed), checked.
    fn host_pitches(
        &self,
        region: [usize; 3],
        row: usize,
        slice: usize,
    ) -> Result<[usize; 2], cl_int> {
        let bpp = self.bpp();
        // Only images with slices take a slice pitch.
        if slice != 0 && matches!(self.shape, Shape::D1 | Shape::D1Buffer | Shape::D2) {
            return Err(CL_INVALID_VALUE);
        }
        // A 1D array's slices are its rows: the API's slice pitch spaces them.
        let (row, slice) = if self.shape == Shape::D1Array {
            (slice, 0)
        } else {
            (row, slice)
        };
        let row = if row == 0 { region[0] * bpp } else { row };
        let slice = if slice == 0 { row * region[1] } else { slice };
        if row < region[0] * bpp || slice < row * region[1] {
            return Err(CL_INVALID_VALUE);
        }
        Ok([row, slice])
    }
    /// (device offset, host offset, bytes) of each row of the box.
    fn rows(
        &self,
        origin: [usize; 3],
        region: [usize; 3],
        host: [usize; 2],
    ) -> Vec<(usize, usize, usize)> {
        let bpp = self.bpp();
        let mut v = Vec::with_capacity(region[1] * region[2]);
        for z in 0..region[2] {
            for y in 0..region[1] {
                let dev = (origin[2] + z) * self.slice_pitch()
                    + (origin[1] + y) * self.row_pitch()
                    + origin[0] * bpp;
                v.push((dev, z * host[1] + y * host[0], region[0] * bpp));
            }
        }
        v
    }
    /// The whole box.
    fn all(&self) -> [usize; 3] {
        self.extent
    }
}

/// Copies the rows of `origin`/`region` between image `m` and host memory
/// `host` laid out with `pitch`: to the host when `read`.
///
/// # Safety
/// `host` must hold the region at those pitches (writable when `read`).
pub unsafe fn transfer(
    m: &Mem,
    origin: [usize; 3],
    region: [usize; 3],
    pitch: [usize; 2],
    host: *mut u8,
    read: bool,
) -> Result<(), cl_int> {
    let img = m.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
    for (dev, h, len) in img.rows(origin, region, pitch) {
        let addr = m.addr + dev as u64;
        // SAFETY: the caller's promise.
        let r = unsafe {
            if read {
                m.rt.read(addr, std::slice::from_raw_parts_mut(host.add(h), len))
            } else {
                m.rt.write(addr, std::slice::from_raw_parts(host.add(h), len))
            }
        };
        r.map_err(|_| CL_OUT_OF_RESOURCES)?;
    }
    Ok(())
}

/// Copies a USE_HOST_PTR image's texels to its host memory.
pub fn sync_to_host(m: &Mem) {
    if let Some(img) = &m.image {
        if m.host_ptr != 0 {
            // SAFETY: host_ptr holds the image at its pitches (clCreateImage's contract).
            let _ = unsafe {
                transfer(
                    m,
                    [0; 3],
                    img.all(),
                    img.host_pitch,
                    m.host_ptr as *mut u8,
                    true,
                )
            };
        }
    }
}

/// The device address of image `m`'s image object for generation `gen`,
/// written on first use.
pub fn object(m: &Mem, gen: Gen) -> Result<u64, cl_int> {
    let img = m.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
    let mut objs = m.objects.lock().unwrap();
    if let Some(&(_, a)) = objs.iter().find(|o| o.0 == gen) {
        return Ok(a);
    }
    let d = img.dims;
    let dims = match img.shape {
        Shape::D1Array => [d[0], 1, img.array_size],
        Shape::D2Array => [d[0], d[1], img.array_size],
        _ => [d[0], d[1].max(1), d[2].max(1)],
    }
    .map(|x| x as u32);
    let bytes = image_object::image_object(gen, img.shape, m.addr, &img.format, dims);
    let a =
        m.rt.alloc(bytes.len() as u64)
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
    m.rt.write(a, &bytes).map_err(|_| CL_OUT_OF_RESOURCES)?;
    objs.push((gen, a));
    Ok(a)
}

/// The largest sizes (AMD's GCN drivers' figures; the T# holds 14-bit
/// widths and heights and a 13-bit depth).
pub const MAX_2D: usize = 16384;
/// 3D images' largest side.
pub const MAX_3D: usize = 2048;
/// Largest array.
pub const MAX_ARRAY: usize = 2048;
/// Largest 1D buffer image in texels.
pub const MAX_BUFFER: usize = 1 << 27;

fn shape_of(ty: cl_mem_object_type) -> Option<Shape> {
    Some(match ty {
        CL_MEM_OBJECT_IMAGE1D => Shape::D1,
        CL_MEM_OBJECT_IMAGE1D_BUFFER => Shape::D1Buffer,
        CL_MEM_OBJECT_IMAGE1D_ARRAY => Shape::D1Array,
        CL_MEM_OBJECT_IMAGE2D => Shape::D2,
        CL_MEM_OBJECT_IMAGE2D_ARRAY => Shape::D2Array,
        CL_MEM_OBJECT_IMAGE3D => Shape::D3,
        _ => return None,
    })
}

/// Whether any device of `ctx` supports images.
fn context_has_images(ctx: &Context) -> bool {
    ctx.devices.iter().any(|&d| {
        crate::platform::device(d).is_some_and(|dev| crate::compiler::image_support(dev.isa))
    })
}

/// The format `f` points to: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR when it is
/// null or not an OpenCL 1.2 format, CL_IMAGE_FORMAT_NOT_SUPPORTED when risa
/// has no such format.
unsafe fn format_of(f: *const cl_image_format) -> Result<Format, cl_int> {
    if f.is_null() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    // SAFETY: the caller's format.
    let f = unsafe { *f };
    let (o, t) = (f.image_channel_order, f.image_channel_data_type);
    if !(CL_R..=CL_RGBx).contains(&o) || !(CL_SNORM_INT8..=CL_FLOAT).contains(&t) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    image_object::format(o, t).ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)
}

/// clCreateImage.
pub unsafe extern "C" fn create_image(
    c: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> cl_mem {
    // SAFETY: errcode pointer from the caller.
    unsafe { guard_obj(err, || make(c, flags, format, desc, host_ptr)) }
}

unsafe fn make(
    c: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let ctx: &Context = context(c).ok_or(CL_INVALID_CONTEXT)?;
    let flags = if flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) == 0 {
        flags | CL_MEM_READ_WRITE
    } else {
        flags
    };
    check_flags(flags)?;
    // SAFETY: forwarded.
    let format = unsafe { format_of(format)? };
    if desc.is_null() {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // SAFETY: the caller's descriptor.
    let d = unsafe { *desc };
    let shape = shape_of(d.image_type).ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if d.num_mip_levels != 0 || d.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let (w, h, dp, n) = (
        d.image_width,
        d.image_height,
        d.image_depth,
        d.image_array_size,
    );
    let bad_size = |v: usize, max: usize| v == 0 || v > max;
    let (dims, array_size, extent) = match shape {
        Shape::D1 | Shape::D1Buffer => ([w, 0, 0], 0, [w, 1, 1]),
        Shape::D1Array => ([w, 0, 0], n, [w, n, 1]),
        Shape::D2 => ([w, h, 0], 0, [w, h, 1]),
        Shape::D2Array => ([w, h, 0], n, [w, h, n]),
        Shape::D3 => ([w, h, dp], 0, [w, h, dp]),
    };
    let max = match shape {
        Shape::D1Buffer => [MAX_BUFFER, 1, 1],
        Shape::D3 => [MAX_3D; 3],
        Shape::D1Array => [MAX_2D, MAX_ARRAY, 1],
        Shape::D2Array => [MAX_2D, MAX_2D, MAX_ARRAY],
        _ => [MAX_2D, MAX_2D, 1],
    };
    if extent.iter().zip(max).any(|(&v, m)| bad_size(v, m)) {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    if !context_has_images(ctx) {
        return Err(CL_INVALID_OPERATION);
    }
    let bpp = format.bytes as usize;
    // Host pitches: 0 means packed; given without a host pointer, an error.
    let (rp, sp) = (d.image_row_pitch, d.image_slice_pitch);
    if host_ptr.is_null() && (rp != 0 || sp != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row = if rp == 0 { w * bpp } else { rp };
    let rows_per_slice = if shape == Shape::D1Array {
        1
    } else {
        extent[1]
    };
    let slice = if sp == 0 { row * rows_per_slice } else { sp };
    if row < w * bpp || !row.is_multiple_of(bpp) || slice < row * rows_per_slice {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let has_slices = matches!(shape, Shape::D1Array | Shape::D2Array | Shape::D3);
    if sp != 0 && !has_slices {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let needs_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if needs_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    let image = Image {
        shape,
        mem_type: d.image_type,
        format,
        dims,
        array_size,
        extent,
        // A 1D array's slices are rows of the texel box.
        host_pitch: if shape == Shape::D1Array {
            [slice, slice * n]
        } else {
            [row, slice]
        },
    };
    let size = image.slice_pitch() * extent[2];
    let (addr, parent) = if shape == Shape::D1Buffer {
        if flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let b = mem(d.buffer).ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
        if b.image.is_some() || !std::ptr::eq(context(b.ctx.ptr()).unwrap_or(ctx), ctx) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if size > b.size {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        (b.addr, Some((Ref::new::<Mem>(d.buffer), 0)))
    } else {
        if !d.buffer.is_null() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        let a = ctx
            .rt
            .alloc(size as u64)
            .ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        (a, None)
    };
    let mut m = Mem::new(
        c,
        ctx,
        flags,
        size,
        if flags & CL_MEM_USE_HOST_PTR != 0 {
            host_ptr as usize
        } else {
            0
        },
        addr,
        parent,
    );
    m.image = Some(image);
    if needs_ptr {
        // SAFETY: host_ptr holds the image at its pitches (the caller's contract).
        unsafe {
            transfer(
                &m,
                [0; 3],
                extent,
                m.image.as_ref().unwrap().host_pitch,
                host_ptr.cast(),
                false,
            )?
        };
    }
    Ok(new_handle(m))
}

/// clCreateImage2D (OpenCL 1.1).
pub unsafe extern "C" fn create_image_2d(
    c: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    w: usize,
    h: usize,
    row_pitch: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> cl_mem {
    let d = desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0], row_pitch, 0);
    // SAFETY: forwarded.
    unsafe { create_image(c, flags, format, &d, host_ptr, err) }
}

/// clCreateImage3D (OpenCL 1.1).
pub unsafe extern "C" fn create_image_3d(
    c: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    w: usize,
    h: usize,
    depth: usize,
    row_pitch: usize,
    slice_pitch: usize,
    host_ptr: *mut c_void,
    err: *mut cl_int,
) -> cl_mem {
    // OpenCL 1.1: a depth of 1 is not a 3D image.
    if depth <= 1 {
        // SAFETY: caller's pointer.
        unsafe { crate::info::set_err(err, CL_INVALID_IMAGE_SIZE) };
        return std::ptr::null_mut();
    }
    let d = desc(CL_MEM_OBJECT_IMAGE3D, [w, h, depth], row_pitch, slice_pitch);
    // SAFETY: forwarded.
    unsafe { create_image(c, flags, format, &d, host_ptr, err) }
}

fn desc(ty: cl_mem_object_type, dims: [usize; 3], row: usize, slice: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: dims[0],
        image_height: dims[1],
        image_depth: dims[2],
        image_array_size: 0,
        image_row_pitch: row,
        image_slice_pitch: slice,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: std::ptr::null_mut(),
    }
}

/// clGetSupportedImageFormats: every format risa's images read and write,
/// for every image type (none when no device of the context has images).
pub unsafe extern "C" fn get_supported_image_formats(
    c: cl_context,
    flags: cl_mem_flags,
    ty: cl_mem_object_type,
    n: cl_uint,
    formats: *mut cl_image_format,
    num: *mut cl_uint,
) -> cl_int {
    crate::info::guard(|| {
        let Some(ctx) = context(c) else {
            return CL_INVALID_CONTEXT;
        };
        if check_flags(flags).is_err() || shape_of(ty).is_none() || (n == 0 && !formats.is_null()) {
            return CL_INVALID_VALUE;
        }
        let list = if context_has_images(ctx) {
            image_object::formats()
        } else {
            Vec::new()
        };
        if !formats.is_null() {
            for (k, f) in list.iter().take(n as usize).enumerate() {
                // SAFETY: `n` entries (the caller's contract).
                unsafe {
                    *formats.add(k) = cl_image_format {
                        image_channel_order: f.order,
                        image_channel_data_type: f.ty,
                    }
                };
            }
        }
        if !num.is_null() {
            // SAFETY: caller's pointer.
            unsafe { *num = list.len() as cl_uint };
        }
        CL_SUCCESS
    })
}

/// clGetImageInfo.
pub unsafe extern "C" fn get_image_info(
    m: cl_mem,
    name: cl_image_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let b = mem(m).ok_or(CL_INVALID_MEM_OBJECT)?;
            let img = b.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
            Ok(match name {
                CL_IMAGE_FORMAT => Info::Bytes(
                    [img.format.order, img.format.ty]
                        .iter()
                        .flat_map(|x| x.to_ne_bytes())
                        .collect(),
                ),
                CL_IMAGE_ELEMENT_SIZE => Info::Size(img.bpp()),
                CL_IMAGE_ROW_PITCH => Info::Size(img.row_pitch()),
                CL_IMAGE_SLICE_PITCH => Info::Size(match img.shape {
                    Shape::D1Array => img.row_pitch(),
                    Shape::D2Array | Shape::D3 => img.slice_pitch(),
                    _ => 0,
                }),
                CL_IMAGE_WIDTH => Info::Size(img.dims[0]),
                CL_IMAGE_HEIGHT => Info::Size(img.dims[1]),
                CL_IMAGE_DEPTH => Info::Size(img.dims[2]),
                CL_IMAGE_ARRAY_SIZE => Info::Size(img.array_size),
                CL_IMAGE_BUFFER => Info::Ptr(match img.shape {
                    Shape::D1Buffer => b.parent.as_ref().map_or(0, |p| p.0.ptr() as usize),
                    _ => 0,
                }),
                CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => Info::U32(0),
                _ => return Err(CL_INVALID_VALUE),
            })
        })
    }
}

/// The image of `m` in context `ctx` (CL_INVALID_MEM_OBJECT when `m` is not
/// an image, CL_INVALID_CONTEXT when it is another context's).
pub fn image_in<'a>(ctx: &Context, m: cl_mem) -> Result<(&'a Mem, &'a Image), cl_int> {
    let b: &Mem = mem(m).ok_or(CL_INVALID_MEM_OBJECT)?;
    let img = b.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
    if context(b.ctx.ptr()).is_none_or(|c| !std::ptr::eq(c, ctx)) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((b, img))
}

/// Checks `origin`/`region` against image `img`.
pub fn check_region(img: &Image, origin: [usize; 3], region: [usize; 3]) -> Result<(), cl_int> {
    img.check_box(origin, region)
}

/// Host pitches of a read, write or map of `region` (0: packed).
pub fn pitches(
    img: &Image,
    region: [usize; 3],
    row: usize,
    slice: usize,
) -> Result<[usize; 2], cl_int> {
    img.host_pitches(region, row, slice)
}

/// The rows of a box, for copies between images and buffers.
pub fn rows(
    img: &Image,
    origin: [usize; 3],
    region: [usize; 3],
    host: [usize; 2],
) -> Vec<(usize, usize, usize)> {
    img.rows(origin, region, host)
}

/// A fill colour (float4, int4 or uint4 by the channel type) as one texel.
pub fn texel_of_color(f: &Format, color: [u32; 4]) -> Vec<u8> {
    let channels = match f.order {
        CL_R => 1,
        CL_RG => 2,
        _ => 4,
    };
    let bits = f.bytes * 8 / channels;
    let mut out = Vec::with_capacity(f.bytes as usize);
    for &c in color.iter().take(channels as usize) {
        let x = f32::from_bits(c);
        let max = if bits == 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        } as f64;
        let v: u32 = match f.ty {
            CL_UNORM_INT8 | CL_UNORM_INT16 => {
                (f64::from(x).clamp(0.0, 1.0) * max).round_ties_even() as u32
            }
            CL_SNORM_INT8 | CL_SNORM_INT16 => {
                let s = (max / 2.0).floor();
                (f64::from(x).clamp(-1.0, 1.0) * s).round_ties_even() as i64 as u32
            }
            CL_HALF_FLOAT => u32::from(risa_gcn_emu::float::f32_to_f16(x)),
            CL_SIGNED_INT8 | CL_SIGNED_INT16 => {
                let h = (max / 2.0) as i64;
                i64::from(c as i32).clamp(-h - 1, h) as u32
            }
            CL_UNSIGNED_INT8 | CL_UNSIGNED_INT16 => c.min(max as u32),
            _ => c,
        };
        out.extend_from_slice(&v.to_le_bytes()[..(bits / 8) as usize]);
    }
    out
}

/// Mutex-held descriptor objects, freed with the memory object.
pub type Objects = Mutex<Vec<(Gen, u64)>>;
