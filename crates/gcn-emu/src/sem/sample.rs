//! MIMG with a sampler: `image_sample*`, `image_gather4*` and
//! `image_get_lod` on linear images, with the S# of [`crate::sampler`].
//!
//! The address VGPRs hold, in this order (`GcnMemHandling.md`, "Image
//! addressing"): offsets (`_o`), bias (`_b`), Z-compare reference (`_c`),
//! derivatives (`_d`/`_cd`: d/dh of each axis, then d/dv), the coordinates
//! (floats; arrays add the slice), the `_cl` LOD minimum and the `_l` LOD.
//! With A16 (GCN 1.4) the derivatives and everything from the coordinates on
//! are 16-bit floats, two per VGPR (each derivative group starts a VGPR); the
//! offsets, bias and reference stay 32-bit. Choices where the documents say
//! nothing are in `docs/gcn-emulator.md`, "Images: sampling".

use super::format::{components, is_int, split, to_d16};
use super::mimg::{convert, swizzle, Access};
use super::vmem::mem_fault;
use super::{Handler, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::float::f16_to_f32;
use crate::image::Kind;
use crate::mem::active_lanes;
use crate::program::Op;
use crate::sampler::{axis, lerp, raw_lod, Axis, SamplerDesc};
use crate::wave::Wave;
use risa_gcn::semantics::Sampling as Suffixes;
use risa_gcn::Field;

/// `aux` bits: the suffixes of the instruction name ([`Suffixes`]).
const O: u32 = 1;
const B: u32 = 2;
const C: u32 = 4;
const D: u32 = 8;
const CL: u32 = 16;
const L: u32 = 32;
const LZ: u32 = 64;
const GATHER: u32 = 128;
const GET_LOD: u32 = 256;

/// The handler of every sampling row.
pub(super) const SAMPLE: Handler = sample;

/// The `aux` of a sampling row: its suffixes (`risa_gcn::semantics::Sampling`,
/// derived from the row by the build) as the bits above.
pub(super) fn aux(s: Suffixes) -> u32 {
    [
        (s.offsets, O),
        (s.bias, B),
        (s.compare, C),
        (s.derivatives, D),
        (s.lod_clamp, CL),
        (s.lod, L),
        (s.lod_zero, LZ),
        (s.gather, GATHER),
        (s.get_lod, GET_LOD),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |a, (_, bit)| a | bit)
}

/// One lane's address components.
#[derive(Debug, Clone, Copy, Default)]
struct LaneAddr {
    off: [i32; 3],
    bias: f32,
    zref: f32,
    /// d/dh and d/dv of each coordinate axis.
    grad: [[f32; 3]; 2],
    /// Coordinates, the slice last for arrays.
    c: [f32; 4],
    clamp: f32,
    lod: f32,
}

/// Coordinate axes (without the slice) of an image kind; cubes fault.
fn axes(kind: Kind) -> Result<usize, FaultKind> {
    Ok(match kind {
        Kind::D1 | Kind::D1Array => 1,
        Kind::D2 | Kind::D2Array => 2,
        Kind::D3 => 3,
        Kind::Cube => {
            return Err(FaultKind::Unimplemented(
                "sampling a cube image (face selection)",
            ))
        }
    })
}

/// The decoded instruction: image, sampler, address shape.
struct Sampling {
    a: Access,
    s: SamplerDesc,
    aux: u32,
    /// Coordinate axes; `n + array` address components form the body.
    n: usize,
    array: bool,
    comps: &'static [u32],
    bpp: usize,
    border: [u32; 4],
}

impl Sampling {
    fn new(w: &Wave, op: &Op, c: &Ctx) -> Result<Sampling, FaultKind> {
        let a = Access::new(w, op, c)?;
        let r = 4 * op.instr.field(Field::Ssamp) as usize;
        if r + 4 > 128 {
            return Err(FaultKind::BadOperand(format!(
                "the sampler s[{r}:{}] is past the scalar registers",
                r + 3
            )));
        }
        let s = SamplerDesc::decode(&[w.s[r], w.s[r + 1], w.s[r + 2], w.s[r + 3]]);
        let n = axes(a.kind)?;
        let border = s
            .border_color(super::format::one(a.img.nfmt))
            .ok_or_else(|| {
                FaultKind::BadOperand(format!(
                    "sampler s[{r}:{}] takes its border colour from the border colour \
                 registers (BORDER_COLOR_TYPE 3), which a compute dispatch does not set",
                    r + 3
                ))
            })?;
        let comps = components(a.img.dfmt);
        Ok(Sampling {
            bpp: a.img.texel_bytes() as usize,
            array: a.kind.is_array(),
            aux: op.aux,
            n,
            comps,
            s,
            border,
            a,
        })
    }

    /// Address VGPRs the instruction reads.
    fn addr_dwords(&self) -> usize {
        let extra = (self.aux & (O | B | C)).count_ones() as usize;
        let halves = |k: usize| if self.a.a16 { k.div_ceil(2) } else { k };
        let grads = if self.aux & D != 0 {
            2 * halves(self.n)
        } else {
            0
        };
        let body = self.n
            + usize::from(self.array)
            + usize::from(self.aux & CL != 0)
            + usize::from(self.aux & L != 0);
        extra + grads + halves(body)
    }

    fn lane_addr(&self, w: &Wave, l: usize) -> LaneAddr {
        let f = |r: usize| f32::from_bits(w.v[r][l]);
        let half = |r: usize, k: usize| f16_to_f32((w.v[r + k / 2][l] >> (16 * (k % 2))) as u16);
        let comp = |r: usize, k: usize| {
            if self.a.a16 {
                half(r, k)
            } else {
                f(r + k)
            }
        };
        let mut x = LaneAddr::default();
        let mut r = self.a.va;
        if self.aux & O != 0 {
            let v = w.v[r][l];
            // Three 6-bit signed offsets at bits 0, 8, 16.
            x.off = [0, 8, 16].map(|s| ((v >> s) as i32) << 26 >> 26);
            r += 1;
        }
        if self.aux & B != 0 {
            x.bias = f(r);
            r += 1;
        }
        if self.aux & C != 0 {
            x.zref = f(r);
            r += 1;
        }
        if self.aux & D != 0 {
            for g in &mut x.grad {
                for (k, d) in g.iter_mut().enumerate().take(self.n) {
                    *d = comp(r, k);
                }
                r += if self.a.a16 {
                    self.n.div_ceil(2)
                } else {
                    self.n
                };
            }
        }
        let body = self.n + usize::from(self.array);
        for k in 0..body {
            x.c[k] = comp(r, k);
        }
        let mut k = body;
        if self.aux & CL != 0 {
            x.clamp = comp(r, k);
            k += 1;
        }
        if self.aux & L != 0 {
            x.lod = comp(r, k);
        }
        x
    }

    /// Sizes of level 0 (BASE_LEVEL) the derivatives scale by (1 with
    /// unnormalized coordinates, which are in texels already).
    fn scale(&self) -> [f32; 3] {
        if self.s.unnormalized {
            return [1.0; 3];
        }
        self.a.img.level_size(self.a.kind, 0).map(|v| v as f32)
    }

    /// (raw, clamped) level of detail of lane `l`; `all` holds every lane's
    /// address for the implicit (quad) derivatives.
    fn lod(&self, all: &[LaneAddr; 64], l: usize) -> (f32, f32) {
        let x = &all[l];
        if self.aux & LZ != 0 {
            return (0.0, 0.0);
        }
        if self.aux & L != 0 {
            return (x.lod, self.s.clamp_lod(x.lod, x.clamp));
        }
        let (dh, dv) = if self.aux & D != 0 {
            (x.grad[0], x.grad[1])
        } else {
            // Coarse quad derivatives: lanes 4q..4q+3 are the pixels (0,0),
            // (1,0), (0,1), (1,1) of a 2x2 quad.
            let q = l & !3;
            let d =
                |o: usize| -> [f32; 3] { std::array::from_fn(|k| all[q + o].c[k] - all[q].c[k]) };
            (d(1), d(2))
        };
        let sc = self.scale();
        let mut h = [0.0; 3];
        let mut v = [0.0; 3];
        for k in 0..self.n {
            h[k] = dh[k] * sc[k];
            v[k] = dv[k] * sc[k];
        }
        let raw = raw_lod(h, v) + self.s.lod_bias + x.bias;
        (raw, self.s.clamp_lod(raw, x.clamp))
    }

    /// The RGBA register values (before DST_SEL) of the texel at `idx`
    /// (`None` on an axis: the border colour) of relative level `level`;
    /// with `_c`, the comparison's 0.0 or 1.0 in every component.
    fn texel(
        &self,
        c: &mut Ctx,
        l: usize,
        x: &LaneAddr,
        idx: [Option<i64>; 3],
        level: u32,
    ) -> Result<[u32; 4], FaultKind> {
        let mut p = [0u32; 3];
        for (k, i) in idx.iter().enumerate().take(self.n) {
            match i {
                Some(v) => p[k] = *v as u32,
                None => return Ok(self.compared(x, self.border)),
            }
        }
        if self.array {
            p[self.n] = self.slice(x);
        }
        let Some(addr) = self.a.img.texel(self.a.kind, p, level) else {
            return Ok(self.compared(x, self.border));
        };
        let mut buf = [0u8; 16];
        c.mem
            .read(addr, &mut buf[..self.bpp])
            .map_err(|err| mem_fault(l, err, false))?;
        c.stats.bytes_read += self.bpp as u64;
        let raw = split(&buf[..self.bpp], self.comps);
        Ok(self.compared(x, convert(raw, self.comps, self.a.img.nfmt)?))
    }

    /// Percentage-closer filtering (`_c`): the reference compared with the
    /// texel's first component gives 1.0 or 0.0, which is what is filtered.
    fn compared(&self, x: &LaneAddr, v: [u32; 4]) -> [u32; 4] {
        if self.aux & C == 0 {
            return v;
        }
        let hit = self.s.compares(x.zref, f32::from_bits(v[0]));
        [if hit { 1f32 } else { 0f32 }.to_bits(); 4]
    }

    /// The array slice of lane address `x`: the float rounded to nearest
    /// even, clamped to the accessible slices.
    fn slice(&self, x: &LaneAddr) -> u32 {
        let slices = self.a.img.level_size(self.a.kind, 0)[2];
        let s = x.c[self.n].round_ties_even();
        if s.is_nan() || s < 0.0 {
            0
        } else {
            (s as u32).min(slices - 1)
        }
    }

    /// The per-axis footprint of `x` at relative level `level`.
    fn footprint(&self, x: &LaneAddr, level: u32, linear: bool) -> ([Axis; 3], [u32; 3]) {
        let size = self.a.img.level_size(self.a.kind, level);
        let mut ax = [Axis { i0: 0, frac: 0 }; 3];
        for k in 0..self.n {
            let c = f64::from(x.c[k]);
            let t = if self.s.unnormalized {
                c
            } else {
                c * f64::from(size[k])
            } + f64::from(x.off[k]);
            ax[k] = axis(self.s.wrap[k].limit(t, size[k]), linear);
        }
        (ax, size)
    }

    /// The indices of corner `bits` (bit k: `i0 + 1` on axis k) after the
    /// address modes.
    fn corner(&self, ax: &[Axis; 3], size: [u32; 3], bits: usize) -> [Option<i64>; 3] {
        std::array::from_fn(|k| {
            let i = ax[k].i0 + ((bits >> k) & 1) as i64;
            if k < self.n {
                self.s.wrap[k].apply(i, size[k])
            } else {
                Some(0)
            }
        })
    }

    /// Point or bilinear (trilinear for 3D) filtering at one level.
    fn filtered(
        &self,
        c: &mut Ctx,
        l: usize,
        x: &LaneAddr,
        level: u32,
        linear: bool,
    ) -> Result<[u32; 4], FaultKind> {
        let (ax, size) = self.footprint(x, level, linear);
        if !linear {
            return self.texel(c, l, x, self.corner(&ax, size, 0), level);
        }
        let taps = 1usize << self.n;
        let mut v = [[0f32; 4]; 8];
        for (t, slot) in v.iter_mut().enumerate().take(taps) {
            let idx = self.corner(&ax, size, t);
            *slot = self.texel(c, l, x, idx, level)?.map(f32::from_bits);
        }
        // Axis 0 first (pairs differ in bit 0), then 1, then 2.
        let mut m = taps;
        for a in ax.iter().take(self.n) {
            m /= 2;
            for t in 0..m {
                v[t] = std::array::from_fn(|k| lerp(v[2 * t][k], v[2 * t + 1][k], a.frac));
            }
        }
        Ok(v[0].map(f32::to_bits))
    }

    /// The relative levels and the 8-bit weight of the second for level of
    /// detail `lod` (MIP_FILTER none, or unnormalized coordinates: level 0).
    fn levels(&self, lod: f32) -> (u32, u32, u32) {
        if self.s.unnormalized || self.s.mip_filter == 0 || self.aux & LZ != 0 {
            return (0, 0, 0);
        }
        let last = self.a.img.last_mip();
        let fixed = (lod.max(0.0) * 256.0).round() as u32;
        if self.s.mip_filter == 1 {
            let m = (fixed.saturating_add(128) >> 8).min(last);
            return (m, m, 0);
        }
        let m = (fixed >> 8).min(last);
        (m, (m + 1).min(last), fixed & 255)
    }

    /// `image_sample*` of one lane: RGBA before DST_SEL.
    fn sample_lane(
        &self,
        c: &mut Ctx,
        l: usize,
        x: &LaneAddr,
        lod: f32,
    ) -> Result<[u32; 4], FaultKind> {
        // Integer texels are not filtered.
        let linear = self.s.linear_at(lod) && !is_int(self.a.img.nfmt);
        let (l0, l1, f) = self.levels(lod);
        let a = self.filtered(c, l, x, l0, linear)?;
        if l0 == l1 || f == 0 || is_int(self.a.img.nfmt) {
            return Ok(a);
        }
        let b = self.filtered(c, l, x, l1, linear)?;
        Ok(std::array::from_fn(|k| {
            lerp(f32::from_bits(a[k]), f32::from_bits(b[k]), f).to_bits()
        }))
    }

    /// `image_gather4*` of one lane: component DMASK of the four texels of
    /// the bilinear footprint, in the order (i0, j1), (i1, j1), (i1, j0),
    /// (i0, j0) (j grows with Y).
    fn gather(&self, c: &mut Ctx, l: usize, x: &LaneAddr, lod: f32) -> Result<[u32; 4], FaultKind> {
        let comp = self.a.dmask.trailing_zeros() as usize;
        let (level, _, _) = self.levels(lod);
        let (ax, size) = self.footprint(x, level, true);
        let mut out = [0u32; 4];
        for (o, bits) in out.iter_mut().zip([2usize, 3, 1, 0]) {
            let idx = self.corner(&ax, size, bits);
            *o = swizzle(&self.a.img, self.texel(c, l, x, idx, level)?)[comp];
        }
        Ok(out)
    }
}

fn sample(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let s = Sampling::new(w, op, c)?;
    let need = s.addr_dwords();
    if s.a.va + need > w.v.len() {
        return Err(FaultKind::BadOperand(format!(
            "the image address v[{}:{}] is past the vector registers",
            s.a.va,
            s.a.va + need - 1
        )));
    }
    if s.aux & GATHER != 0 && s.a.dmask.count_ones() != 1 {
        return Err(FaultKind::BadOperand(format!(
            "image_gather4 with DMASK {:#x}: gather4 reads one component (one DMASK bit)",
            s.a.dmask
        )));
    }
    let mut all = [LaneAddr::default(); 64];
    for (l, x) in all.iter_mut().enumerate() {
        *x = s.lane_addr(w, l);
    }
    // Results are floats except for integer texels (and the gathered
    // components of integer texels).
    let nfmt = if s.aux & GET_LOD != 0 {
        7
    } else {
        s.a.img.nfmt
    };
    let e = w.exec();
    for l in active_lanes(e) {
        let (raw, lod) = s.lod(&all, l);
        let (vals, mask) = if s.aux & GET_LOD != 0 {
            ([lod.to_bits(), raw.to_bits(), 0, 0], s.a.dmask)
        } else if s.aux & GATHER != 0 {
            (s.gather(c, l, &all[l], lod)?, 0xf)
        } else {
            let v = s.sample_lane(c, l, &all[l], lod)?;
            (swizzle(&s.a.img, v), s.a.dmask)
        };
        let vals = if s.a.d16 {
            vals.map(|v| to_d16(v, nfmt))
        } else {
            vals
        };
        s.a.put_mask(w, l, vals, mask);
    }
    Ok(())
}
