//! Image resource descriptors (T#) and the linear image layout risa models.
//!
//! The T# fields are those of `reference/clrx-doc/GcnMemHandling.md`,
//! "Image resource format" (GCN 1.0-1.2). GCN 1.4 (gfx9) moves a few of them:
//! PITCH grows to 16 bits, LAST_ARRAY is gone and DEPTH holds the last array
//! slice for non-3D images, and word 3 bits 20-24 are SW_MODE (0 = linear)
//! instead of TILING_INDEX (facts from the radv/radeonsi descriptor builders).
//! Those differences are the rows of [`LAYOUTS`]; nothing else depends on the
//! generation.
//!
//! Memory layout (risa's convention, the documents leave it to the driver's
//! tiling registers): images are linear. Row `y` of slice `s` of mip level `L`
//! starts at `BASE*256 + level_offset(L) + (s*rows_L + y) * pitch_L * bpp`,
//! where `pitch_0 = max(PITCH+1, WIDTH+1)` texels and `pitch_L =
//! max(width_L, pitch_0 >> L)`; levels are stored one after the other from
//! level 0, each holding all slices (`depth_L` for 3D images, the array's
//! slice count for arrays). See `docs/gcn-emulator.md`, "Images".

use crate::fault::FaultKind;
use risa_gcn::Gen;

/// A field of the descriptor: (dword, lowest bit, width).
type F = (usize, u32, u32);

/// Where a generation keeps the T# fields.
#[derive(Debug)]
pub struct Layout {
    /// PITCH (texels per row minus one).
    pitch: F,
    /// LAST_ARRAY; `None` where DEPTH holds the last slice (gfx9).
    last_array: Option<F>,
    /// INTERLACED (not modelled); `None` where the generation has no such bit.
    interlaced: Option<F>,
    /// The tiling value that means a linear layout (TILING_INDEX 8; SW_MODE 0).
    linear: u32,
    /// The name of the tiling field, for messages.
    tiling_name: &'static str,
    /// MIMG bit 15 is A16 (16-bit addresses) rather than R128 (128-bit T#).
    a16: bool,
    /// D16 data is packed two halves per VGPR (gfx9) rather than one per VGPR (gfx8).
    d16_packed: bool,
    /// `image_get_resinfo` of a 1D array returns the slice count in Z rather than Y.
    layers_1d_in_z: bool,
}

const BASE_LO: F = (0, 0, 32);
const BASE_HI: F = (1, 0, 8);
const DFMT: F = (1, 20, 6);
const NFMT: F = (1, 26, 4);
const WIDTH: F = (2, 0, 14);
const HEIGHT: F = (2, 14, 14);
const DST_SEL: F = (3, 0, 12);
const BASE_LEVEL: F = (3, 12, 4);
const LAST_LEVEL: F = (3, 16, 4);
const TILING: F = (3, 20, 5);
const TYPE: F = (3, 28, 4);
const DEPTH: F = (4, 0, 13);
const BASE_ARRAY: F = (5, 0, 13);

/// GCN 1.0-1.2 and GCN 1.4, in that order.
pub const LAYOUTS: [Layout; 2] = [
    Layout {
        pitch: (4, 13, 14),
        last_array: Some((5, 13, 13)),
        interlaced: Some((2, 31, 1)),
        linear: 8,
        tiling_name: "TILING_INDEX",
        a16: false,
        d16_packed: false,
        layers_1d_in_z: false,
    },
    Layout {
        pitch: (4, 13, 16),
        last_array: None,
        interlaced: None,
        linear: 0,
        tiling_name: "SW_MODE",
        a16: true,
        d16_packed: true,
        layers_1d_in_z: true,
    },
];

/// The T# layout of `gen`.
pub fn layout(gen: Gen) -> &'static Layout {
    &LAYOUTS[usize::from(gen.has(risa_gcn::Feature::R128A16))]
}

impl Layout {
    /// Whether MIMG bit 15 means A16 (else R128).
    pub fn a16(&self) -> bool {
        self.a16
    }
    /// Whether D16 data packs two components per VGPR.
    pub fn d16_packed(&self) -> bool {
        self.d16_packed
    }
}

fn get(w: &[u32; 8], f: F) -> u32 {
    let (i, lsb, width) = f;
    (w[i] >> lsb) & crate::sem::mask(width)
}

fn put(w: &mut [u32; 8], f: F, v: u32) {
    let (i, lsb, width) = f;
    let m = crate::sem::mask(width);
    w[i] = (w[i] & !(m << lsb)) | ((v & m) << lsb);
}

/// The image kinds of the TYPE field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// TYPE 8.
    D1 = 8,
    /// TYPE 9.
    D2 = 9,
    /// TYPE 10.
    D3 = 10,
    /// TYPE 11 (modelled as a 2D array whose slices are the faces).
    Cube = 11,
    /// TYPE 12.
    D1Array = 12,
    /// TYPE 13.
    D2Array = 13,
}

impl Kind {
    /// Address components before the mip level: X, then Y, then Z or slice.
    pub fn coords(self) -> usize {
        match self {
            Kind::D1 => 1,
            Kind::D2 | Kind::D1Array => 2,
            _ => 3,
        }
    }
    fn has_height(self) -> bool {
        !matches!(self, Kind::D1 | Kind::D1Array)
    }
    /// Whether the last address component is a slice (arrays and cubes).
    pub fn is_array(self) -> bool {
        matches!(self, Kind::D1Array | Kind::D2Array | Kind::Cube)
    }
}

/// A decoded image resource descriptor (fields as stored, plus one where the
/// field holds "minus one").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageDesc {
    /// Byte address of texel (0, 0) of level 0 (BASE * 256).
    pub base: u64,
    /// DATA_FORMAT.
    pub dfmt: u32,
    /// NUMBER_FORMAT.
    pub nfmt: u32,
    /// WIDTH + 1.
    pub width: u32,
    /// HEIGHT + 1.
    pub height: u32,
    /// DEPTH + 1 (3D: depth; arrays: slice count, on gfx9 last slice + 1).
    pub depth: u32,
    /// PITCH + 1 (0 for a 128-bit descriptor, which has no PITCH).
    pub pitch: u32,
    /// DST_SEL_X..W.
    pub dst_sel: [u8; 4],
    /// BASE_LEVEL.
    pub base_level: u32,
    /// LAST_LEVEL.
    pub last_level: u32,
    /// TILING_INDEX (GCN 1.0-1.2) or SW_MODE (GCN 1.4).
    pub tiling: u32,
    /// TYPE.
    pub ty: u32,
    /// BASE_ARRAY.
    pub base_array: u32,
    /// Last accessible slice (LAST_ARRAY; DEPTH on gfx9).
    pub last_array: u32,
    /// INTERLACED.
    pub interlaced: bool,
}

impl ImageDesc {
    /// Decodes a T# of 4 (R128) or 8 dwords for `gen`; absent dwords read as 0.
    pub fn decode(gen: Gen, words: &[u32]) -> ImageDesc {
        let lay = layout(gen);
        let mut w = [0u32; 8];
        for (d, s) in w.iter_mut().zip(words) {
            *d = *s;
        }
        let sel = get(&w, DST_SEL);
        let depth = get(&w, DEPTH);
        ImageDesc {
            base: (u64::from(get(&w, BASE_LO)) | u64::from(get(&w, BASE_HI)) << 32) << 8,
            dfmt: get(&w, DFMT),
            nfmt: get(&w, NFMT),
            width: get(&w, WIDTH) + 1,
            height: get(&w, HEIGHT) + 1,
            depth: depth + 1,
            pitch: if words.len() > 4 {
                get(&w, lay.pitch) + 1
            } else {
                0
            },
            dst_sel: std::array::from_fn(|k| (sel >> (3 * k) & 7) as u8),
            base_level: get(&w, BASE_LEVEL),
            last_level: get(&w, LAST_LEVEL),
            tiling: get(&w, TILING),
            ty: get(&w, TYPE),
            base_array: get(&w, BASE_ARRAY),
            last_array: lay.last_array.map_or(depth, |f| get(&w, f)),
            interlaced: lay.interlaced.is_some_and(|f| get(&w, f) != 0),
        }
    }

    /// A linear image of `kind` at `base` (256-byte aligned) with one level,
    /// all slices accessible and identity DST_SEL.
    pub fn linear(gen: Gen, kind: Kind, base: u64, dfmt: u32, nfmt: u32, dims: [u32; 3]) -> Self {
        let lay = layout(gen);
        ImageDesc {
            base,
            dfmt,
            nfmt,
            width: dims[0],
            height: dims[1],
            depth: dims[2],
            pitch: dims[0],
            dst_sel: [4, 5, 6, 7],
            base_level: 0,
            last_level: 0,
            tiling: lay.linear,
            ty: kind as u32,
            base_array: 0,
            last_array: dims[2] - 1,
            interlaced: false,
        }
    }

    /// The 8 dwords of this descriptor for `gen` (inverse of [`ImageDesc::decode`]).
    pub fn encode(&self, gen: Gen) -> [u32; 8] {
        let lay = layout(gen);
        let mut w = [0u32; 8];
        let b = self.base >> 8;
        put(&mut w, BASE_LO, b as u32);
        put(&mut w, BASE_HI, (b >> 32) as u32);
        put(&mut w, DFMT, self.dfmt);
        put(&mut w, NFMT, self.nfmt);
        put(&mut w, WIDTH, self.width.wrapping_sub(1));
        put(&mut w, HEIGHT, self.height.wrapping_sub(1));
        let sel = (0..4).fold(0, |a, k| a | u32::from(self.dst_sel[k]) << (3 * k));
        put(&mut w, DST_SEL, sel);
        put(&mut w, BASE_LEVEL, self.base_level);
        put(&mut w, LAST_LEVEL, self.last_level);
        put(&mut w, TILING, self.tiling);
        put(&mut w, TYPE, self.ty);
        put(&mut w, lay.pitch, self.pitch.wrapping_sub(1));
        put(&mut w, BASE_ARRAY, self.base_array);
        match lay.last_array {
            Some(f) => {
                put(&mut w, DEPTH, self.depth.wrapping_sub(1));
                put(&mut w, f, self.last_array);
            }
            None if self.ty == Kind::D3 as u32 => put(&mut w, DEPTH, self.depth.wrapping_sub(1)),
            None => put(&mut w, DEPTH, self.last_array),
        }
        if let Some(f) = lay.interlaced {
            put(&mut w, f, u32::from(self.interlaced));
        }
        w
    }

    /// Bytes per texel of the data format (0: not modelled).
    pub fn texel_bytes(&self) -> u32 {
        crate::sem::components(self.dfmt).iter().sum::<u32>() / 8
    }

    /// Checks that risa can address this image; returns its kind.
    pub fn check(&self, gen: Gen) -> Result<Kind, FaultKind> {
        let lay = layout(gen);
        if self.tiling != lay.linear {
            return Err(FaultKind::BadOperand(format!(
                "image T# {} {} selects a tiled layout; risa models linear images only ({} {})",
                lay.tiling_name, self.tiling, lay.tiling_name, lay.linear
            )));
        }
        if self.interlaced {
            return Err(FaultKind::Unimplemented("interlaced images"));
        }
        let kind = match self.ty {
            8 => Kind::D1,
            9 => Kind::D2,
            10 => Kind::D3,
            11 => Kind::Cube,
            12 => Kind::D1Array,
            13 => Kind::D2Array,
            14 | 15 => {
                return Err(FaultKind::Unimplemented(
                    "MSAA images (T# TYPE 14/15: samples and FMASK)",
                ))
            }
            t => {
                return Err(FaultKind::BadOperand(format!(
                    "image T# TYPE {t} is not an image type (8-15)"
                )))
            }
        };
        if self.texel_bytes() == 0 {
            return Err(FaultKind::BadOperand(format!(
                "image T# DATA_FORMAT {} is invalid or not modelled (block-compressed, \
                 subsampled, FMASK and 1-bit formats are not)",
                self.dfmt
            )));
        }
        Ok(kind)
    }

    /// Width, height and depth-or-slices of mip level `level` (absolute).
    fn level_dims(&self, kind: Kind, level: u32) -> [u64; 3] {
        let sh = |v: u32| u64::from((v >> level.min(31)).max(1));
        let h = if kind.has_height() {
            sh(self.height)
        } else {
            1
        };
        let d = match kind {
            Kind::D3 => sh(self.depth),
            k if k.is_array() => u64::from(self.depth),
            _ => 1,
        };
        [sh(self.width), h, d]
    }

    /// Width, height and depth of mip level `level` (relative to
    /// BASE_LEVEL; the last level past LAST_LEVEL), 1 where the kind has no
    /// such axis; arrays report their accessible slice count as depth.
    pub fn level_size(&self, kind: Kind, level: u32) -> [u32; 3] {
        let abs = self.base_level.saturating_add(level).min(self.last_level);
        let [w, h, d] = self.level_dims(kind, abs);
        let d = if kind.is_array() {
            u64::from((self.last_array + 1).saturating_sub(self.base_array).max(1))
        } else {
            d
        };
        [w as u32, h as u32, d as u32]
    }

    /// Mip levels from BASE_LEVEL to LAST_LEVEL, minus one (0: one level).
    pub fn last_mip(&self) -> u32 {
        self.last_level.saturating_sub(self.base_level)
    }

    fn level_pitch(&self, kind: Kind, level: u32) -> u64 {
        let p0 = self.pitch.max(self.width);
        self.level_dims(kind, level)[0].max(u64::from(p0 >> level.min(31)))
    }

    /// The byte address of texel (x, y, z-or-slice) of mip `mip` (relative to
    /// BASE_LEVEL), or `None` when the coordinates are outside the image.
    pub fn texel(&self, kind: Kind, c: [u32; 3], mip: u32) -> Option<u64> {
        let level = self.base_level.checked_add(mip)?;
        if level > self.last_level || level > 15 {
            return None;
        }
        let bpp = u64::from(self.texel_bytes());
        let mut off = 0u64;
        for l in 0..level {
            let [_, h, d] = self.level_dims(kind, l);
            off += self.level_pitch(kind, l) * h * d * bpp;
        }
        let [w, h, d] = self.level_dims(kind, level);
        let (x, y, z) = (u64::from(c[0]), u64::from(c[1]), u64::from(c[2]));
        let (y, z) = match kind {
            Kind::D1 => (0, 0),
            Kind::D1Array => (0, y),
            Kind::D2 => (y, 0),
            _ => (y, z),
        };
        let z = if kind.is_array() {
            let s = u64::from(self.base_array) + z;
            if s > u64::from(self.last_array) {
                return None;
            }
            s
        } else {
            z
        };
        if x >= w || y >= h || z >= d {
            return None;
        }
        let pitch = self.level_pitch(kind, level);
        Some(self.base + off + ((z * h + y) * pitch + x) * bpp)
    }

    /// `image_get_resinfo` for mip `mip` (relative to BASE_LEVEL): width,
    /// height, depth or slice count, and the number of levels. Sizes of a
    /// level past LAST_LEVEL read as 0.
    pub fn resinfo(&self, gen: Gen, kind: Kind, mip: u32) -> [u32; 4] {
        let levels = (self.last_level + 1).saturating_sub(self.base_level);
        if mip >= levels {
            return [0, 0, 0, levels];
        }
        let [w, h, d] = self.level_dims(kind, self.base_level + mip);
        let slices = (self.last_array + 1).saturating_sub(self.base_array);
        let (h, d) = match kind {
            Kind::D1Array if layout(gen).layers_1d_in_z => (1, slices),
            Kind::D1Array => (slices, 1),
            k if k.is_array() => (h as u32, slices),
            _ => (h as u32, d as u32),
        };
        [w as u32, h, d, levels]
    }
}
