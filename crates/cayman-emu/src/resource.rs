//! Fetch resources (guide ch. 5, 9.3, 9.4): what a VTX BUFFER_ID or a TEX
//! RESOURCE_ID names — "the buffer address, size, and format to read". The
//! host binds buffers and linear (untiled, single-level, single-sample)
//! textures that live in the global pool; the data formats and their
//! conversion to GPR values are shared by vertex and texture fetches.

use risa_cayman::print::DATA_FORMATS;

/// A resource data format (this number) the emulator does not read or write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("data format {} is not supported", DATA_FORMATS[*.0 as usize & 63])]
pub struct UnsupportedFormat(pub u8);

/// A DATA_FORMAT with its NUM_FORMAT_ALL / FORMAT_COMP_ALL interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// DATA_FORMAT (FMT_8 = 1 … FMT_32_32_32_32_FLOAT = 35, the three-component ones 44-48).
    pub data: u8,
    /// NUM_FORMAT_ALL: 0 normalized, 1 integer, 2 scaled.
    pub num: u8,
    /// FORMAT_COMP_ALL: components are signed.
    pub signed: bool,
}

/// Component count, bytes per component and float flag of a data format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Components (1-4).
    pub ncomp: usize,
    /// Bytes per component (1, 2 or 4).
    pub csize: usize,
    /// 16- or 32-bit floats.
    pub float: bool,
}

impl Layout {
    /// Bytes of one element.
    pub fn bytes(&self) -> usize {
        self.ncomp * self.csize
    }
}

impl Format {
    /// 32-bit unsigned integers (FMT_32, NUM_INT).
    pub const U32: Format = Format {
        data: 13,
        num: 1,
        signed: false,
    };

    /// The layout of the data format, or why it is not supported.
    pub fn layout(&self) -> Result<Layout, UnsupportedFormat> {
        let (ncomp, csize, float) = match self.data {
            1 => (1, 1, false),
            5 => (1, 2, false),
            6 => (1, 2, true),
            7 => (2, 1, false),
            13 => (1, 4, false),
            14 => (1, 4, true),
            15 => (2, 2, false),
            16 => (2, 2, true),
            26 => (4, 1, false),
            29 => (2, 4, false),
            30 => (2, 4, true),
            31 => (4, 2, false),
            32 => (4, 2, true),
            34 => (4, 4, false),
            35 => (4, 4, true),
            44 => (3, 1, false),
            45 => (3, 2, false),
            46 => (3, 2, true),
            47 => (3, 4, false),
            48 => (3, 4, true),
            f => return Err(UnsupportedFormat(f)),
        };
        Ok(Layout {
            ncomp,
            csize,
            float,
        })
    }

    /// The value of SEL_1 and of a missing W component: integer 1 for
    /// NUM_INT, 1.0 otherwise.
    pub fn one(&self) -> u32 {
        if self.num == 1 {
            1
        } else {
            0x3f80_0000
        }
    }

    /// The four GPR values of one little-endian element `raw` (`layout.bytes()`
    /// long): missing components read 0 (W reads [`Format::one`]).
    pub fn unpack(&self, layout: Layout, raw: &[u8]) -> [u32; 4] {
        let mut out = [0, 0, 0, self.one()];
        for (c, o) in out.iter_mut().enumerate().take(layout.ncomp) {
            let p = c * layout.csize;
            let v = match layout.csize {
                1 => raw[p] as u32,
                2 => u16::from_le_bytes([raw[p], raw[p + 1]]) as u32,
                _ => u32::from_le_bytes([raw[p], raw[p + 1], raw[p + 2], raw[p + 3]]),
            };
            *o = convert(v, layout.csize, layout.float, self.num, self.signed);
        }
        out
    }
}

/// Convert one fetched component to its GPR value (NUM_FORMAT_ALL / FORMAT_COMP_ALL).
pub fn convert(v: u32, size: usize, float: bool, num_format: u8, signed: bool) -> u32 {
    if size == 4 {
        return v;
    }
    let bits = 8 * size as u32;
    if float {
        // 16-bit float
        let h = v;
        let s = (h >> 15) & 1;
        let e = (h >> 10) & 0x1f;
        let mnt = h & 0x3ff;
        let f = if e == 0 {
            mnt as f32 / 16_777_216.0
        } else if e == 31 {
            if mnt == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        } else {
            f32::from_bits(((e + 112) << 23) | (mnt << 13))
        };
        return if s != 0 { (-f).to_bits() } else { f.to_bits() };
    }
    let sv = ((v << (32 - bits)) as i32) >> (32 - bits);
    match (num_format, signed) {
        (1, false) => v,
        (1, true) => sv as u32,
        (2, false) => (v as f32).to_bits(),
        (2, true) => (sv as f32).to_bits(),
        (_, false) => (v as f32 / ((1u32 << bits) - 1) as f32).to_bits(),
        (_, true) => ((sv as f32) / ((1u32 << (bits - 1)) - 1) as f32)
            .max(-1.0)
            .to_bits(),
    }
}

/// What a resource holds and how its coordinates address it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// A buffer of `width` elements (X is the element index).
    Buffer,
    /// A 1-D texture (X).
    Tex1D,
    /// An array of 1-D textures (X, layer Y).
    Tex1DArray,
    /// A 2-D texture (X, Y).
    Tex2D,
    /// An array of 2-D textures (X, Y, layer Z).
    Tex2DArray,
    /// A 3-D texture (X, Y, Z).
    Tex3D,
}

/// A resource bound to a fetch constant: a linear region of the global pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Addressing.
    pub dim: Dim,
    /// Byte address of element (0, 0, 0) in the global pool.
    pub base: u64,
    /// Elements per row (buffers: number of elements).
    pub width: u32,
    /// Rows (1-D arrays: layers); 1 when unused.
    pub height: u32,
    /// Slices (2-D arrays: layers); 1 when unused.
    pub depth: u32,
    /// Bytes from one element to the next (0: the format's element size).
    pub stride: u32,
    /// Bytes from one row to the next (0: `width * stride`).
    pub row_pitch: u32,
    /// Bytes from one slice (or layer) to the next (0: `height * row_pitch`).
    pub slice_pitch: u32,
    /// Element format (texture fetches; vertex fetches carry their own).
    pub format: Format,
    /// Resource swizzle applied to texture fetch results before the
    /// instruction's DST_SEL: 0-3 component, 4 zero, 5 one.
    pub swizzle: [u8; 4],
}

impl Resource {
    /// A buffer of `elements` elements of `format` at byte `base`, tightly packed.
    pub fn buffer(base: u64, elements: u32, format: Format) -> Resource {
        Resource {
            dim: Dim::Buffer,
            base,
            width: elements,
            height: 1,
            depth: 1,
            stride: 0,
            row_pitch: 0,
            slice_pitch: 0,
            format,
            swizzle: [0, 1, 2, 3],
        }
    }

    /// A tightly packed linear texture at byte `base`.
    pub fn texture(dim: Dim, base: u64, size: [u32; 3], format: Format) -> Resource {
        Resource {
            dim,
            base,
            width: size[0],
            height: size[1].max(1),
            depth: size[2].max(1),
            stride: 0,
            row_pitch: 0,
            slice_pitch: 0,
            format,
            swizzle: [0, 1, 2, 3],
        }
    }

    /// Byte distances between consecutive elements, rows and slices.
    pub fn pitches(&self, layout: Layout) -> (u64, u64, u64) {
        let e = if self.stride == 0 {
            layout.bytes() as u64
        } else {
            self.stride as u64
        };
        let r = if self.row_pitch == 0 {
            e.saturating_mul(self.width as u64)
        } else {
            self.row_pitch as u64
        };
        let s = if self.slice_pitch == 0 {
            r.saturating_mul(self.height as u64)
        } else {
            self.slice_pitch as u64
        };
        (e, r, s)
    }

    /// The extent (x, y, z) the coordinates are checked against, with the
    /// coordinates a resource of this kind ignores set to 1.
    pub fn extent(&self) -> [u32; 3] {
        match self.dim {
            Dim::Buffer | Dim::Tex1D => [self.width, 1, 1],
            Dim::Tex1DArray | Dim::Tex2D => [self.width, self.height, 1],
            Dim::Tex2DArray | Dim::Tex3D => [self.width, self.height, self.depth],
        }
    }

    /// Byte address of the element at integer coordinates `c` (X, Y, Z),
    /// or None when a coordinate the resource uses lies outside it.
    pub fn address(&self, layout: Layout, c: [i64; 3]) -> Option<u64> {
        let ext = self.extent();
        let (e, r, s) = self.pitches(layout);
        let mut a = self.base;
        for k in 0..3 {
            let v = if self.uses(k) { c[k] } else { 0 };
            if v < 0 || v >= ext[k] as i64 {
                return None;
            }
            // saturating: an address past 2^64 reads outside the pool (a fault)
            a = a.saturating_add((v as u64).saturating_mul([e, r, s][k]));
        }
        Some(a)
    }

    fn uses(&self, k: usize) -> bool {
        match self.dim {
            Dim::Buffer | Dim::Tex1D => k == 0,
            Dim::Tex1DArray | Dim::Tex2D => k <= 1,
            _ => true,
        }
    }

    /// Dimensions as GET_TEXTURE_RESINFO returns them for mip level 0:
    /// (width, height, depth or layers), unused ones 0.
    pub fn dims(&self) -> [u32; 3] {
        match self.dim {
            Dim::Buffer | Dim::Tex1D => [self.width, 0, 0],
            Dim::Tex1DArray | Dim::Tex2D => [self.width, self.height, 0],
            Dim::Tex2DArray | Dim::Tex3D => [self.width, self.height, self.depth],
        }
    }
}

/// Resource id of the global pool as a buffer (VTX buffer 1, TEX resource 1).
pub const POOL_RESOURCE: u8 = 1;

/// The fetch constants the host binds, by id (0-255). Unbound ids fault
/// when fetched from, except the defaults of the r600 runtime: id 1 is the
/// global pool (see [`Resources::pool`]).
#[derive(Clone, Debug, Default)]
pub struct Resources {
    slots: Vec<(u8, Resource)>,
    /// RATs (UAVs) bound to windows of the pool: (id, base, bytes).
    rats: Vec<(u8, u64, u64)>,
}

impl Resources {
    /// No resources bound.
    pub const fn new() -> Resources {
        Resources {
            slots: Vec::new(),
            rats: Vec::new(),
        }
    }
    /// Bind RAT (UAV) `id` (0-15) to the `bytes` bytes at byte `base` of the
    /// global pool: MEM_RAT addresses on it are relative to `base` and
    /// checked against `bytes`. Unbound, RAT 0 is the whole pool.
    pub fn bind_rat(&mut self, id: u8, base: u64, bytes: u64) {
        self.rats.retain(|(i, _, _)| *i != id);
        self.rats.push((id, base, bytes));
    }
    /// The window (base, bytes) the host bound RAT `id` to.
    pub fn rat(&self, id: u8) -> Option<(u64, u64)> {
        self.rats
            .iter()
            .find(|(i, _, _)| *i == id)
            .map(|&(_, b, n)| (b, n))
    }
    /// Bind `r` to fetch constant `id` (replacing an earlier binding).
    pub fn bind(&mut self, id: u8, r: Resource) {
        self.slots.retain(|(i, _)| *i != id);
        self.slots.push((id, r));
    }
    /// The resource the host bound to `id`.
    pub fn bound(&self, id: u8) -> Option<&Resource> {
        self.slots.iter().find(|(i, _)| *i == id).map(|(_, r)| r)
    }
    /// The resource a fetch through `id` reads, with the runtime's default:
    /// unless the host bound id 1, it is the whole global pool of
    /// `pool_bytes` bytes as a buffer addressed by byte (stride 1, so an
    /// element index is a byte address, as clang's pointers are) of 32-bit
    /// unsigned integers.
    pub fn get(&self, id: u8, pool_bytes: u64) -> Option<Resource> {
        if let Some(r) = self.bound(id) {
            return Some(*r);
        }
        (id == POOL_RESOURCE).then(|| Resources::pool(pool_bytes))
    }
    /// The default resource 1: the global pool as a byte-addressed buffer.
    pub fn pool(pool_bytes: u64) -> Resource {
        Resource {
            stride: 1,
            ..Resource::buffer(0, pool_bytes.min(u32::MAX as u64) as u32, Format::U32)
        }
    }
}
