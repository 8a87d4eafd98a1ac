//! OpenCL image and sampler objects as the ROCm device libraries read them
//! from a kernel argument (code object v5, clang-19): an image argument is a
//! pointer to an *image object*, a sampler argument a pointer to a 4-dword
//! sampler resource (S#).
//!
//! Facts (from `llvm-dis` of ROCm 5.2's `ockl.bc` and `opencl.bc`, and
//! `llvm-objdump` of kernels clang-19 made; see `docs/opencl.md`, "Images"):
//!
//! * dwords 0-7 of the image object are the T# the MIMG instructions take;
//!   for an `image1d_buffer_t` dwords 0-3 are instead a buffer resource (V#)
//!   that `buffer_load_format`/`buffer_store_format` take with `idxen`;
//! * dword 8 is the channel data type and dword 9 the channel order, as
//!   indices that `get_image_channel_data_type`/`_order` map to the `CLK_*`
//!   values through a table ([`Format::type_code`], [`Format::order_code`]);
//! * dword 10 is the width (every `get_image_width`, 1D buffers included);
//!   heights, depths and array sizes come from the T# fields.
//!
//! The S# of a sampler is the one ROCm's `__translate_sampler_initializer`
//! gives a constant sampler with the same bits ([`sampler_words`]), so an
//! argument sampler and a `const sampler_t` in the source behave alike.

use risa_gcn::{Feature, Gen};
use risa_gcn_emu::image::{ImageDesc, Kind};

/// An OpenCL image format risa's GCN devices read and write: the channel
/// order and type (`CL_*` values) and how the descriptor encodes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// `CL_R`, `CL_RG` or `CL_RGBA`.
    pub order: u32,
    /// `CL_UNORM_INT8` ... `CL_FLOAT`.
    pub ty: u32,
    /// DATA_FORMAT of the T# (and V#).
    pub dfmt: u32,
    /// NUM_FORMAT.
    pub nfmt: u32,
    /// Bytes per texel.
    pub bytes: u32,
    /// Dword 9 of the image object (ROCm's channel-order index).
    pub order_code: u32,
    /// Dword 8 of the image object (ROCm's channel-type index).
    pub type_code: u32,
}

/// `CL_R`, `CL_RG`, `CL_RGBA`.
const ORDERS: [(u32, u32, u32); 3] = [
    // (CL value, channels, ROCm index)
    (0x10B0, 1, 1),
    (0x10B2, 2, 3),
    (0x10B5, 4, 8),
];

/// Channel types: (CL value, bits per channel, NUM_FORMAT, ROCm index).
/// UNORM 0, SNORM 1, UINT 4, SINT 5, FLOAT 7 are the NUM_FORMATs the
/// emulator converts both ways (`GcnMemHandling.md`).
const TYPES: [(u32, u32, u32, u32); 11] = [
    (0x10D0, 8, 1, 0),   // CL_SNORM_INT8
    (0x10D1, 16, 1, 1),  // CL_SNORM_INT16
    (0x10D2, 8, 0, 2),   // CL_UNORM_INT8
    (0x10D3, 16, 0, 3),  // CL_UNORM_INT16
    (0x10D7, 8, 5, 8),   // CL_SIGNED_INT8
    (0x10D8, 16, 5, 9),  // CL_SIGNED_INT16
    (0x10D9, 32, 5, 10), // CL_SIGNED_INT32
    (0x10DA, 8, 4, 11),  // CL_UNSIGNED_INT8
    (0x10DB, 16, 4, 12), // CL_UNSIGNED_INT16
    (0x10DC, 32, 4, 13), // CL_UNSIGNED_INT32
    (0x10DD, 16, 7, 14), // CL_HALF_FLOAT
];

/// `CL_FLOAT`: (CL value, bits, NUM_FORMAT, ROCm index), kept apart from
/// [`TYPES`] only so that the table reads in `CL_*` order above.
const FLOAT: (u32, u32, u32, u32) = (0x10DE, 32, 7, 15);

/// DATA_FORMAT of `channels` components of `bits` each (1, 2 or 4 channels).
fn data_format(channels: u32, bits: u32) -> u32 {
    match (channels, bits) {
        (1, 8) => 1,
        (1, 16) => 2,
        (1, 32) => 4,
        (2, 8) => 3,
        (2, 16) => 5,
        (2, 32) => 11,
        (4, 8) => 10,
        (4, 16) => 12,
        _ => 14,
    }
}

/// Every format risa's images support, in the order
/// `clGetSupportedImageFormats` lists them.
pub fn formats() -> Vec<Format> {
    let mut out = Vec::new();
    for &(order, channels, order_code) in &ORDERS {
        for &(ty, bits, nfmt, type_code) in TYPES.iter().chain([&FLOAT]) {
            out.push(Format {
                order,
                ty,
                dfmt: data_format(channels, bits),
                nfmt,
                bytes: channels * bits / 8,
                order_code,
                type_code,
            });
        }
    }
    out
}

/// The format of channel order `order` and type `ty`, if supported.
pub fn format(order: u32, ty: u32) -> Option<Format> {
    formats()
        .into_iter()
        .find(|f| f.order == order && f.ty == ty)
}

/// The shapes of OpenCL 1.2 images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `image1d_t`.
    D1,
    /// `image1d_buffer_t`: texels in a buffer, read through a V#.
    D1Buffer,
    /// `image1d_array_t`.
    D1Array,
    /// `image2d_t`.
    D2,
    /// `image2d_array_t`.
    D2Array,
    /// `image3d_t`.
    D3,
}

/// Bytes of an image object (12 dwords used, padded to a T#-aligned size).
pub const OBJECT_BYTES: usize = 64;

/// The image object of a linear image of `shape` and `format` whose texels
/// start at `texels` (256-byte aligned), rows packed: `dims` are width,
/// height (1 for 1D shapes) and depth or slice count (1 for 1D and 2D).
pub fn image_object(
    gen: Gen,
    shape: Shape,
    texels: u64,
    format: &Format,
    dims: [u32; 3],
) -> [u8; OBJECT_BYTES] {
    let mut w = [0u32; OBJECT_BYTES / 4];
    match shape {
        Shape::D1Buffer => w[..4].copy_from_slice(&buffer_resource(texels, format, dims[0])),
        _ => {
            let (kind, d) = match shape {
                Shape::D1 => (Kind::D1, [dims[0], 1, 1]),
                Shape::D1Array => (Kind::D1Array, [dims[0], 1, dims[2]]),
                Shape::D2 => (Kind::D2, [dims[0], dims[1], 1]),
                Shape::D2Array => (Kind::D2Array, [dims[0], dims[1], dims[2]]),
                _ => (Kind::D3, dims),
            };
            let t = ImageDesc::linear(gen, kind, texels, format.dfmt, format.nfmt, d);
            w[..8].copy_from_slice(&t.encode(gen));
        }
    }
    w[8] = format.type_code;
    w[9] = format.order_code;
    w[10] = dims[0];
    let mut out = [0u8; OBJECT_BYTES];
    for (k, x) in w.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(&x.to_le_bytes());
    }
    out
}

/// The V# of a 1D buffer image: base, STRIDE = one texel, NUM_RECORDS =
/// `width` texels (an index past it is out of range), identity DST_SEL and
/// the format (`GcnMemHandling.md`, "Buffer resource format").
fn buffer_resource(base: u64, format: &Format, width: u32) -> [u32; 4] {
    let dst_sel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | format.bytes << 16,
        width,
        dst_sel | format.nfmt << 12 | format.dfmt << 15,
    ]
}

/// `CLK_ADDRESS_*` values and the S# CLAMP mode ROCm gives each:
/// NONE and CLAMP clamp to a transparent-black border (6), CLAMP_TO_EDGE to
/// the last texel (2), REPEAT wraps (0), MIRRORED_REPEAT mirrors (1).
const ADDRESSING: [(u32, u32); 5] = [(0, 6), (2, 2), (4, 6), (6, 0), (8, 1)];

/// Whether `v` is a `CLK_ADDRESS_*` value.
pub fn valid_addressing(v: u32) -> bool {
    ADDRESSING.iter().any(|a| a.0 == v)
}

/// The S# ROCm's device library makes for a sampler with these properties
/// (`addressing` a `CLK_ADDRESS_*` value, `linear` for `CLK_FILTER_LINEAR`):
/// CLAMP_X/Y/Z from the addressing mode, DEPTH_COMPARE_FUNC 3, FORCE_UNNORM
/// unless `normalized`, bit 28, MAX_LOD 0xfff, both XY filters bilinear when
/// `linear`, and on GCN 1.4 bit 95 (ROCm's table for ISA versions 9.x).
/// Returns None for an unknown addressing mode.
pub fn sampler_words(
    gen: Gen,
    normalized: bool,
    addressing: u32,
    linear: bool,
) -> Option<[u32; 4]> {
    let clamp = ADDRESSING.iter().find(|a| a.0 == addressing)?.1;
    let w0 = clamp | clamp << 3 | clamp << 6 | 3 << 12 | u32::from(!normalized) << 15 | 1 << 28;
    let mut w2 = if linear { 1 << 20 | 1 << 22 } else { 0 };
    if gen.has(Feature::R128A16) {
        w2 |= 1 << 31;
    }
    Some([w0, 0xfff << 12, w2, 0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ROCm 5.2's `opencl.bc` table for ISA versions below 9 and for 9.x
    /// (`__translate_sampler_initializer`), entries for CLK values 16..25
    /// (nearest) and 32..41 (linear), as `llvm-dis` prints them.
    const ROCM_W0: [u32; 10] = [
        268480950, 268448182, 268480658, 268447890, 268480950, 268448182, 268480512, 268447744,
        268480585, 268447817,
    ];

    #[test]
    fn samplers_equal_rocms_constant_samplers() {
        for (gen, w2_near, w2_lin) in [
            (Gen::Gcn12, 0u32, 5242880u32),
            (Gen::Gcn14, 0x8000_0000, 0x8050_0000),
        ] {
            for (i, &w0) in ROCM_W0.iter().enumerate() {
                let (addr, norm) = ((i as u32 >> 1) * 2, i & 1 == 1);
                for (linear, w2) in [(false, w2_near), (true, w2_lin)] {
                    assert_eq!(
                        sampler_words(gen, norm, addr, linear),
                        Some([w0, 16773120, w2, 0]),
                        "{gen:?} addressing {addr} normalized {norm} linear {linear}"
                    );
                }
            }
        }
        assert_eq!(sampler_words(Gen::Gcn14, true, 3, false), None);
    }

    #[test]
    fn image_objects_hold_the_descriptor_and_rocms_extra_dwords() {
        let f = format(0x10B5, 0x10D2).unwrap(); // CL_RGBA, CL_UNORM_INT8
        assert_eq!((f.dfmt, f.nfmt, f.bytes), (10, 0, 4));
        let o = image_object(Gen::Gcn14, Shape::D2, 0x1_0000_1000, &f, [13, 7, 1]);
        let w: Vec<u32> = o
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let t = ImageDesc::decode(Gen::Gcn14, &w[..8]);
        assert_eq!((t.base, t.width, t.height, t.ty), (0x1_0000_1000, 13, 7, 9));
        assert_eq!(&w[8..11], &[2, 8, 13]);
        let b = image_object(Gen::Gcn12, Shape::D1Buffer, 0x1_0000_2000, &f, [100, 1, 1]);
        let v: Vec<u32> = b
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(v[0], 0x2000);
        assert_eq!(v[1], 1 | 4 << 16);
        assert_eq!(v[2], 100);
        assert_eq!((v[3] >> 15 & 0xf, v[3] >> 12 & 7), (10, 0));
        assert_eq!(formats().len(), 36);
        assert_eq!(format(0x10B6, 0x10D2), None, "BGRA is not offered");
    }
}
