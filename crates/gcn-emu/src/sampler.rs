//! Sampler descriptors (S#) and the texture filter's arithmetic: address
//! modes, coordinate quantisation, bilinear weights, level of detail.
//!
//! The S# fields are those of `reference/clrx-doc/GcnMemHandling.md`,
//! "Sampler resource format" (the same bits on GCN 1.0-1.4). The filter's
//! precision comes from the same page, "Image addressing": "Threshold of
//! coordinates for image's sampling are 1/256 of distance between pixels" —
//! risa rounds texel-space coordinates to 8 fractional bits and takes
//! bilinear weights from those 8 bits. What the documents leave open is
//! decided in `docs/gcn-emulator.md`, "Images: sampling".

/// Address (clamp) mode of one axis, S# CLAMP_X/Y/Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    /// TEX_WRAP (0): repeat.
    Wrap = 0,
    /// TEX_MIRROR (1): mirrored repeat.
    Mirror = 1,
    /// TEX_CLAMP_LAST_TEXEL (2): clamp to edge.
    ClampLast = 2,
    /// TEX_MIRROR_ONCE_LAST_TEXEL (3).
    MirrorOnceLast = 3,
    /// TEX_CLAMP_HALF_BORDER (4).
    ClampHalfBorder = 4,
    /// TEX_MIRROR_ONCE_HALF_BORDER (5).
    MirrorOnceHalfBorder = 5,
    /// TEX_CLAMP_BORDER (6): outside reads the border colour.
    ClampBorder = 6,
    /// TEX_MIRROR_ONCE_BORDER (7).
    MirrorOnceBorder = 7,
}

impl Wrap {
    fn from_bits(v: u32) -> Wrap {
        match v & 7 {
            0 => Wrap::Wrap,
            1 => Wrap::Mirror,
            2 => Wrap::ClampLast,
            3 => Wrap::MirrorOnceLast,
            4 => Wrap::ClampHalfBorder,
            5 => Wrap::MirrorOnceHalfBorder,
            6 => Wrap::ClampBorder,
            _ => Wrap::MirrorOnceBorder,
        }
    }

    /// Whether coordinates outside the image read the border colour.
    fn border(self) -> bool {
        self as u8 >= 4
    }

    /// Where a half-border mode stops the texel-space coordinate: half a
    /// texel of border at most on each side.
    pub fn limit(self, t: f64, size: u32) -> f64 {
        match self {
            Wrap::ClampHalfBorder | Wrap::MirrorOnceHalfBorder => {
                let t = if self == Wrap::MirrorOnceHalfBorder && t < 0.0 {
                    -t
                } else {
                    t
                };
                t.clamp(-0.5, f64::from(size) + 0.5)
            }
            _ => t,
        }
    }

    /// The texel index the mode makes of integer index `i` on an axis of
    /// `size` texels; `None` reads the border colour.
    pub fn apply(self, i: i64, size: u32) -> Option<i64> {
        let n = i64::from(size.max(1));
        let mirror_once = |i: i64| if i < 0 { -1 - i } else { i };
        let j = match self {
            Wrap::Wrap => i.rem_euclid(n),
            Wrap::Mirror => {
                let m = i.rem_euclid(2 * n);
                if m >= n {
                    2 * n - 1 - m
                } else {
                    m
                }
            }
            Wrap::ClampLast => i.clamp(0, n - 1),
            Wrap::MirrorOnceLast => mirror_once(i).min(n - 1),
            Wrap::ClampHalfBorder | Wrap::ClampBorder => i,
            Wrap::MirrorOnceHalfBorder | Wrap::MirrorOnceBorder => mirror_once(i),
        };
        if self.border() && !(0..n).contains(&j) {
            None
        } else {
            Some(j)
        }
    }
}

/// A decoded sampler descriptor (the fields risa models).
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerDesc {
    /// CLAMP_X, CLAMP_Y, CLAMP_Z.
    pub wrap: [Wrap; 3],
    /// DEPTH_COMPARE_FUNC (0 never … 7 always), used by the `_c` forms.
    pub compare: u32,
    /// FORCE_UNNORMALIZED: coordinates are in texels.
    pub unnormalized: bool,
    /// MIN_LOD (unsigned 4.8 fixed point).
    pub min_lod: f32,
    /// MAX_LOD (unsigned 4.8 fixed point).
    pub max_lod: f32,
    /// LOD_BIAS (signed 5.8 fixed point, 14 bits).
    pub lod_bias: f32,
    /// XY_MAG_FILTER: 0 point, 1 bilinear.
    pub mag_linear: bool,
    /// XY_MIN_FILTER: 0 point, 1 bilinear.
    pub min_linear: bool,
    /// MIP_FILTER: 0 none (BASE_LEVEL only), 1 point, 2 linear.
    pub mip_filter: u32,
    /// BORDER_COLOR_TYPE: 0 transparent black, 1 opaque black, 2 opaque
    /// white, 3 from the border colour registers.
    pub border: u32,
    /// BORDER_COLOR_PTR (index into the border colour registers).
    pub border_ptr: u32,
}

fn field(w: &[u32; 4], bit: u32, width: u32) -> u32 {
    (w[(bit / 32) as usize] >> (bit % 32)) & crate::sem::mask(width)
}

fn set(w: &mut [u32; 4], bit: u32, width: u32, v: u32) {
    let m = crate::sem::mask(width) << (bit % 32);
    let d = &mut w[(bit / 32) as usize];
    *d = (*d & !m) | ((v << (bit % 32)) & m);
}

impl SamplerDesc {
    /// Decodes the 4 dwords of an S#.
    pub fn decode(w: &[u32; 4]) -> SamplerDesc {
        let fix = |bit, width| field(w, bit, width) as f32 / 256.0;
        let bias = field(w, 64, 14);
        SamplerDesc {
            wrap: [0, 3, 6].map(|b| Wrap::from_bits(field(w, b, 3))),
            compare: field(w, 12, 3),
            unnormalized: field(w, 15, 1) != 0,
            min_lod: fix(32, 12),
            max_lod: fix(44, 12),
            lod_bias: (((bias << 18) as i32) >> 18) as f32 / 256.0,
            mag_linear: field(w, 84, 2) == 1,
            min_linear: field(w, 86, 2) == 1,
            mip_filter: field(w, 90, 2),
            border: field(w, 126, 2),
            border_ptr: field(w, 96, 12),
        }
    }

    /// The 4 dwords of this S# (inverse of [`SamplerDesc::decode`]; fields
    /// risa does not model are 0).
    pub fn encode(&self) -> [u32; 4] {
        let mut w = [0u32; 4];
        for (k, m) in self.wrap.iter().enumerate() {
            set(&mut w, 3 * k as u32, 3, *m as u32);
        }
        set(&mut w, 12, 3, self.compare);
        set(&mut w, 15, 1, u32::from(self.unnormalized));
        let fix = |v: f32| (v * 256.0).round() as i32 as u32;
        set(&mut w, 32, 12, fix(self.min_lod));
        set(&mut w, 44, 12, fix(self.max_lod));
        set(&mut w, 64, 14, fix(self.lod_bias));
        set(&mut w, 84, 2, u32::from(self.mag_linear));
        set(&mut w, 86, 2, u32::from(self.min_linear));
        set(&mut w, 90, 2, self.mip_filter);
        set(&mut w, 96, 12, self.border_ptr);
        set(&mut w, 126, 2, self.border);
        w
    }

    /// Whether the filter at level of detail `lod` is bilinear (magnifying
    /// at `lod <= 0`, minifying above).
    pub fn linear_at(&self, lod: f32) -> bool {
        if lod > 0.0 {
            self.min_linear
        } else {
            self.mag_linear
        }
    }

    /// The border colour in RGBA register values (`one`: the register value
    /// of 1 for the image's number format), or `None` for colours from the
    /// border colour registers, which a compute dispatch does not set.
    pub fn border_color(&self, one: u32) -> Option<[u32; 4]> {
        match self.border {
            0 => Some([0; 4]),
            1 => Some([0, 0, 0, one]),
            2 => Some([one; 4]),
            _ => None,
        }
    }

    /// DEPTH_COMPARE_FUNC applied to reference `r` and texel value `t`.
    pub fn compares(&self, r: f32, t: f32) -> bool {
        match self.compare {
            0 => false,
            1 => r < t,
            2 => r == t,
            3 => r <= t,
            4 => r > t,
            5 => r != t,
            6 => r >= t,
            _ => true,
        }
    }

    /// Level of detail `l` (biased already, where biases apply) after the
    /// `_cl` minimum `min` and the sampler's MIN_LOD/MAX_LOD clamp.
    pub fn clamp_lod(&self, l: f32, min: f32) -> f32 {
        let l = if l.is_nan() { self.min_lod } else { l };
        l.max(min)
            .clamp(self.min_lod, self.max_lod.max(self.min_lod))
    }
}

/// One axis of a footprint: the two texel indices (equal for point
/// sampling) and the weight of the second, in 256ths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis {
    /// First index (before the address mode).
    pub i0: i64,
    /// Weight of `i0 + 1` in 256ths (0 for point sampling).
    pub frac: u32,
}

/// The footprint of texel-space coordinate `t` (texel centres at n + 0.5):
/// rounded to 1/256 texel, then floor for point sampling; for bilinear the
/// half-texel shift, floor and the 8-bit fraction.
pub fn axis(t: f64, linear: bool) -> Axis {
    // Round to 8 fractional bits; saturate far outside (the address mode
    // decides what such a texel reads).
    let fixed = (t * 256.0)
        .round_ties_even()
        .clamp(-(1i64 << 40) as f64, (1i64 << 40) as f64) as i64;
    let fixed = if linear { fixed - 128 } else { fixed };
    Axis {
        i0: fixed >> 8,
        frac: if linear { (fixed & 255) as u32 } else { 0 },
    }
}

/// Linear interpolation with an 8-bit weight, `a * (1 - f) + b * f` in f32.
pub fn lerp(a: f32, b: f32, frac: u32) -> f32 {
    if frac == 0 {
        return a;
    }
    let f = frac as f32 / 256.0;
    a * (1.0 - f) + b * f
}

/// log2 of the larger footprint of the two screen-axis derivatives, each
/// already in texels (the isotropic LOD of the GL and D3D specifications).
pub fn raw_lod(dh: [f32; 3], dv: [f32; 3]) -> f32 {
    let len = |d: [f32; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    len(dh).max(len(dv)).log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_on_a_4_texel_axis() {
        let run = |m: Wrap| -> Vec<Option<i64>> { (-5..9).map(|i| m.apply(i, 4)).collect() };
        let s =
            |v: &[i64]| -> Vec<Option<i64>> { v.iter().map(|&x| (x >= 0).then_some(x)).collect() };
        assert_eq!(
            run(Wrap::Wrap),
            s(&[3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0])
        );
        assert_eq!(
            run(Wrap::Mirror),
            s(&[3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0])
        );
        assert_eq!(
            run(Wrap::ClampLast),
            s(&[0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3])
        );
        assert_eq!(
            run(Wrap::MirrorOnceLast),
            s(&[3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3])
        );
        assert_eq!(
            run(Wrap::ClampBorder),
            s(&[-1, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1, -1, -1])
        );
        assert_eq!(
            run(Wrap::MirrorOnceBorder),
            s(&[-1, 3, 2, 1, 0, 0, 1, 2, 3, -1, -1, -1, -1, -1])
        );
    }

    #[test]
    fn fixed_point_footprint() {
        // Texel 2's centre: point reads texel 2, bilinear weighs 2 and 3 as 1:0.
        assert_eq!(axis(2.5, false), Axis { i0: 2, frac: 0 });
        assert_eq!(axis(2.5, true), Axis { i0: 2, frac: 0 });
        // A quarter past the centre: 64/256 of texel 3.
        assert_eq!(axis(2.75, true), Axis { i0: 2, frac: 64 });
        // Below 1/512 of a texel the coordinate rounds to the texel edge.
        assert_eq!(axis(3.0 - 1.0 / 1024.0, false), Axis { i0: 3, frac: 0 });
        assert_eq!(axis(-0.25, true), Axis { i0: -1, frac: 64 });
        // The weight has 8 bits: 1/3 of a texel is 85/256.
        assert_eq!(axis(0.5 + 1.0 / 3.0, true), Axis { i0: 0, frac: 85 });
    }

    #[test]
    fn descriptor_round_trip_and_rocm_constants() {
        // ROCm's constant sampler for CLK_NORMALIZED_COORDS_TRUE |
        // CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR on gfx8 (the kernel's
        // s_mov_b32 immediates): word0 0x10003000, word1 0xfff000, word2 0x500000.
        let s = SamplerDesc::decode(&[0x1000_3000, 0x00ff_f000, 0x0050_0000, 0]);
        assert_eq!(s.wrap, [Wrap::Wrap; 3]);
        assert!(!s.unnormalized && s.mag_linear && s.min_linear && s.mip_filter == 0);
        assert_eq!(s.max_lod, 4095.0 / 256.0);
        assert_eq!(
            (s.compare, s.min_lod, s.lod_bias, s.border, s.border_ptr),
            (3, 0.0, 0.0, 0, 0)
        );
        // Nearest, unnormalized, CLAMP: 0x1000b1b6 (border on every axis).
        let s = SamplerDesc::decode(&[0x1000_b1b6, 0x00ff_f000, 0, 0]);
        assert_eq!(s.wrap, [Wrap::ClampBorder; 3]);
        assert!(s.unnormalized && !s.mag_linear && s.border == 0);
        let mut t = s.clone();
        t.lod_bias = -1.5;
        t.min_lod = 0.25;
        t.border = 2;
        assert_eq!(SamplerDesc::decode(&t.encode()), t);
        t.max_lod = 1.5;
        assert_eq!(t.clamp_lod(3.0, 0.0), 1.5);
        assert_eq!(t.clamp_lod(-3.0, 0.0), 0.25);
        assert_eq!(t.clamp_lod(0.0, 1.0), 1.0);
    }

    #[test]
    fn lod_of_derivatives() {
        assert_eq!(raw_lod([4.0, 0.0, 0.0], [0.0, 1.0, 0.0]), 2.0);
        assert_eq!(raw_lod([0.5, 0.0, 0.0], [0.0, 0.25, 0.0]), -1.0);
        assert_eq!(raw_lod([0.0; 3], [0.0; 3]), f32::NEG_INFINITY);
    }
}
