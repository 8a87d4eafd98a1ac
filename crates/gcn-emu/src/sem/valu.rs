//! Vector ALU: VOP1, VOP2, VOP3 (and the VOP3 forms of VOP1/VOP2).
//!
//! Each instruction is a small function built from a lane-loop helper and a
//! closure with the per-lane semantics; the helpers read the sources (with
//! NEG/ABS), apply the MODE register's denormal flushing, OMOD and CLAMP, and
//! write the lanes enabled in EXEC.

use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::float::*;
use crate::mem::active_lanes;
use crate::program::{Op, Src};
use crate::wave::{Lanes, Wave, M0};

type L64 = [u64; 64];

/// The float-mode flags a lane closure may need.
#[derive(Clone, Copy)]
pub(crate) struct Fm {
    pub fi32: bool,
    pub fo32: bool,
    pub fi64: bool,
    pub fo64: bool,
}

impl Fm {
    #[inline(always)]
    pub(super) fn of(w: &Wave) -> Fm {
        Fm {
            fi32: w.flush_in32(),
            fo32: w.flush_out32(),
            fi64: w.flush_in64(),
            fo64: w.flush_out64(),
        }
    }
}

#[inline(always)]
fn src32(w: &Wave, op: &Op, i: usize) -> Lanes {
    let mut t = [0u32; 64];
    w.lanes32(op.src[i], &mut t);
    t
}

/// A source with NEG/ABS applied at sign bit `sign` (31 for f32, 15 for f16).
#[inline(always)]
pub(super) fn fsrc32(w: &Wave, op: &Op, i: usize, sign: u32) -> Lanes {
    let mut t = src32(w, op, i);
    let abs = op.abs >> i & 1 != 0;
    let neg = op.neg >> i & 1 != 0;
    if abs || neg {
        let bit = 1u32 << sign;
        for x in t.iter_mut() {
            if abs {
                *x &= !bit;
            }
            if neg {
                *x ^= bit;
            }
        }
    }
    t
}

#[inline(always)]
pub(super) fn fsrc64(w: &Wave, op: &Op, i: usize) -> L64 {
    let mut t = [0u64; 64];
    w.lanes64(op.src[i], &mut t);
    let abs = op.abs >> i & 1 != 0;
    let neg = op.neg >> i & 1 != 0;
    if abs || neg {
        for x in t.iter_mut() {
            if abs {
                *x &= !(1u64 << 63);
            }
            if neg {
                *x ^= 1u64 << 63;
            }
        }
    }
    t
}

/// OMOD and CLAMP for f32 results.
///
/// OMOD multiplies the rounded result (CLRX GcnInstrsVop3.md: "multiply
/// destination floating point value"); the scaling is exact unless it leaves
/// the normal range, where it rounds by MODE.FP_ROUND like `v_ldexp_f32` and
/// overflows as the mode says. Output denormals are flushed after it, then
/// CLAMP applies ("Clamping applied after OMOD").
#[inline(always)]
fn post32(w: &Wave, op: &Op, d: &mut Lanes) {
    if op.omod != 0 || op.clamp {
        omod_clamp32(w, op, d);
    }
}

/// The body of [`post32`], kept out of line so that the handlers' common
/// path (no OMOD, no CLAMP) stays as small as it was.
#[inline(never)]
fn omod_clamp32(w: &Wave, op: &Op, d: &mut Lanes) {
    let dx10 = w.dx10_clamp();
    let (rm, flush) = (w.mode & 3, w.flush_out32());
    for x in d.iter_mut() {
        let mut v = f32::from_bits(*x);
        if op.omod != 0 {
            v = if rm == 0 {
                // Multiplying by a power of two rounds to nearest-even.
                v * [1.0, 2.0, 4.0, 0.5][op.omod as usize]
            } else {
                risa_fp::fp32::ldexp(v, omod_exp(op.omod), super::round::mode(rm))
            };
            if flush {
                v = ftz32(v);
            }
        }
        if op.clamp {
            v = clamp01_32(v, dx10);
        }
        *x = v.to_bits();
    }
}

/// The power of two OMOD multiplies by (1: ×2, 2: ×4, 3: ×0.5).
#[inline(always)]
fn omod_exp(omod: u8) -> i32 {
    [0, 1, 2, -1][omod as usize & 3]
}

fn clamp01_32(v: f32, dx10: bool) -> f32 {
    if v.is_nan() {
        if dx10 {
            0.0
        } else {
            v
        }
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// OMOD and CLAMP for f64 results (see [`post32`]; MODE bits 3:2 and the
/// f64 denormal mode).
#[inline(always)]
pub(super) fn post64(w: &Wave, op: &Op, d: &mut L64) {
    if op.omod != 0 || op.clamp {
        omod_clamp64(w, op, d);
    }
}

/// The body of [`post64`], out of line (see [`omod_clamp32`]).
#[inline(never)]
fn omod_clamp64(w: &Wave, op: &Op, d: &mut L64) {
    let dx10 = w.dx10_clamp();
    let (rm, flush) = (w.mode >> 2 & 3, w.flush_out64());
    for x in d.iter_mut() {
        let mut v = f64::from_bits(*x);
        if op.omod != 0 {
            v = if rm == 0 {
                v * [1.0, 2.0, 4.0, 0.5][op.omod as usize]
            } else {
                risa_fp::fp64::ldexp(v, omod_exp(op.omod), super::round::mode(rm))
            };
            if flush {
                v = ftz64(v);
            }
        }
        if op.clamp {
            v = if v.is_nan() {
                if dx10 {
                    0.0
                } else {
                    v
                }
            } else {
                v.clamp(0.0, 1.0)
            };
        }
        *x = v.to_bits();
    }
}

/// OMOD and CLAMP for a 16-bit result, when it is a half (see [`post32`];
/// MODE bits 3:2 and the f16 denormal mode). Integer results are left alone.
#[inline(never)]
fn post16(w: &Wave, op: &Op, d: &mut L64) {
    let float = op
        .instr
        .info()
        .operand(risa_gcn::table::Role::D)
        .is_some_and(|o| o.ty == risa_gcn::table::Ty::F16);
    if float {
        omod_clamp16(w, op, d);
    }
}

/// OMOD and CLAMP for packed halves (v_cvt_pkrtz_f16_f32: D is v2f16): each
/// half as [`post16`] treats a half result.
#[inline(never)]
fn post_v2f16(w: &Wave, op: &Op, d: &mut Lanes) {
    let mut lo = d.map(|x| u64::from(x & 0xffff));
    let mut hi = d.map(|x| u64::from(x >> 16));
    omod_clamp16(w, op, &mut lo);
    omod_clamp16(w, op, &mut hi);
    for l in 0..64 {
        d[l] = lo[l] as u32 | (hi[l] as u32) << 16;
    }
}

fn omod_clamp16(w: &Wave, op: &Op, d: &mut L64) {
    let dx10 = w.dx10_clamp();
    let (rm, flush) = (w.mode >> 2 & 3, w.flush_out64());
    for x in d.iter_mut() {
        let mut h = *x as u16;
        if op.omod != 0 {
            h = risa_fp::fp16::ldexp(h, omod_exp(op.omod), super::round::mode(rm));
            if flush {
                h = ftz16(h);
            }
        }
        if op.clamp {
            let v = f16_to_f32(h);
            h = if v.is_nan() {
                if dx10 {
                    0
                } else {
                    h
                }
            } else if v < 0.0 {
                0
            } else if v > 1.0 {
                0x3c00
            } else {
                h
            };
        }
        *x = u64::from(h);
    }
}

#[inline(always)]
pub(super) fn finish32(w: &mut Wave, op: &Op, d: &mut Lanes) -> R {
    post32(w, op, d);
    let e = w.exec();
    w.vwrite32(op.d as usize, d, e);
    Ok(())
}

#[inline(always)]
fn finish_int32(w: &mut Wave, op: &Op, d: &Lanes) -> R {
    let e = w.exec();
    w.vwrite32(op.d as usize, d, e);
    Ok(())
}

// ---- lane-loop helpers ----

/// A source's lanes without copying when it is a VGPR without NEG/ABS;
/// otherwise the value is built in `tmp`.
#[inline(always)]
fn view<'a>(w: &'a Wave, op: &Op, i: usize, sign: u32, tmp: &'a mut Lanes) -> &'a Lanes {
    match op.src[i] {
        Src::V(r) if (op.abs | op.neg) >> i & 1 == 0 => &w.v[r as usize],
        _ => {
            *tmp = fsrc32(w, op, i, sign);
            tmp
        }
    }
}

#[inline(always)]
fn f32_1(w: &mut Wave, op: &Op, f: impl Fn(f32) -> f32) -> R {
    let m = Fm::of(w);
    let mut t0 = [0u32; 64];
    let a = view(w, op, 0, 31, &mut t0);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        if m.fi32 {
            x = ftz32(x);
        }
        let mut r = f(x);
        if m.fo32 {
            r = ftz32(r);
        }
        d[l] = r.to_bits();
    }
    finish32(w, op, &mut d)
}

#[inline(always)]
pub(super) fn f32_2(w: &mut Wave, op: &Op, f: impl Fn(f32, f32) -> f32) -> R {
    let m = Fm::of(w);
    let (mut t0, mut t1) = ([0u32; 64], [0u32; 64]);
    let a = view(w, op, 0, 31, &mut t0);
    let b = view(w, op, 1, 31, &mut t1);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        let mut y = f32::from_bits(b[l]);
        if m.fi32 {
            x = ftz32(x);
            y = ftz32(y);
        }
        let mut r = f(x, y);
        if m.fo32 {
            r = ftz32(r);
        }
        d[l] = r.to_bits();
    }
    finish32(w, op, &mut d)
}

#[inline(always)]
pub(super) fn f32_3(w: &mut Wave, op: &Op, f: impl Fn(f32, f32, f32) -> f32) -> R {
    let m = Fm::of(w);
    let (mut t0, mut t1, mut t2) = ([0u32; 64], [0u32; 64], [0u32; 64]);
    let a = view(w, op, 0, 31, &mut t0);
    let b = view(w, op, 1, 31, &mut t1);
    let c = view(w, op, 2, 31, &mut t2);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        let mut y = f32::from_bits(b[l]);
        let mut z = f32::from_bits(c[l]);
        if m.fi32 {
            x = ftz32(x);
            y = ftz32(y);
            z = ftz32(z);
        }
        let mut r = f(x, y, z);
        if m.fo32 {
            r = ftz32(r);
        }
        d[l] = r.to_bits();
    }
    finish32(w, op, &mut d)
}

/// v_fma_f32 through the host's FMA instruction when it has one (detected at
/// run time); `f32::mul_add` otherwise falls back to a slow software routine.
fn v_fma_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if has_fma() {
            // SAFETY: the CPU supports FMA (checked just above).
            return unsafe { fma32_x86(w, op) };
        }
    }
    f32_3(w, op, |a, b, c| a.mul_add(b, c))
}

#[cfg(target_arch = "x86_64")]
fn has_fma() -> bool {
    use std::sync::OnceLock;
    static FMA: OnceLock<bool> = OnceLock::new();
    *FMA.get_or_init(|| std::arch::is_x86_feature_detected!("fma"))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fma32_x86(w: &mut Wave, op: &Op) -> R {
    f32_3(w, op, |a, b, c| a.mul_add(b, c))
}

/// f32 op with a literal K (v_madmk/v_madak): closure gets (src0, src1, K).
#[inline(always)]
pub(super) fn f32_k(w: &mut Wave, op: &Op, f: impl Fn(f32, f32, f32) -> f32) -> R {
    let k = f32::from_bits(op.lit);
    f32_2(w, op, |a, b| f(a, b, k))
}

#[inline(always)]
fn u32_1(w: &mut Wave, op: &Op, f: impl Fn(u32) -> u32) -> R {
    let mut t0 = [0u32; 64];
    let a = view(w, op, 0, 31, &mut t0);
    let mut d = [0u32; 64];
    for l in 0..64 {
        d[l] = f(a[l]);
    }
    finish_int32(w, op, &d)
}

#[inline(always)]
fn u32_2(w: &mut Wave, op: &Op, f: impl Fn(u32, u32) -> u32) -> R {
    let (mut t0, mut t1) = ([0u32; 64], [0u32; 64]);
    let a = view(w, op, 0, 31, &mut t0);
    let b = view(w, op, 1, 31, &mut t1);
    let mut d = [0u32; 64];
    for l in 0..64 {
        d[l] = f(a[l], b[l]);
    }
    finish_int32(w, op, &d)
}

#[inline(always)]
fn u32_3(w: &mut Wave, op: &Op, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let (mut t0, mut t1, mut t2) = ([0u32; 64], [0u32; 64], [0u32; 64]);
    let a = view(w, op, 0, 31, &mut t0);
    let b = view(w, op, 1, 31, &mut t1);
    let c = view(w, op, 2, 31, &mut t2);
    let mut d = [0u32; 64];
    for l in 0..64 {
        d[l] = f(a[l], b[l], c[l]);
    }
    finish_int32(w, op, &d)
}

/// `f` over SRC0 as f32 in every lane (input denormals flushed per MODE).
#[inline(always)]
fn map_f32(w: &Wave, op: &Op, f: impl Fn(f32) -> u32) -> [u32; 64] {
    let a = fsrc32(w, op, 0, 31);
    let fi = w.flush_in32();
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        if fi {
            x = ftz32(x);
        }
        d[l] = f(x);
    }
    d
}

/// f32 source(s) to an integer result (conversions, frexp_exp).
#[inline(always)]
pub(super) fn f32_to_u32(w: &mut Wave, op: &Op, f: impl Fn(f32) -> u32) -> R {
    let d = map_f32(w, op, f);
    finish_int32(w, op, &d)
}

/// An f32 source to a half in the low 16 bits (`v_cvt_f16_f32`), with
/// OMOD and CLAMP applied to the half.
#[inline(always)]
pub(super) fn f32_to_half(w: &mut Wave, op: &Op, f: impl Fn(f32) -> u32) -> R {
    let mut d = map_f32(w, op, f);
    if op.omod != 0 || op.clamp {
        let mut h = d.map(u64::from);
        post16(w, op, &mut h);
        d = h.map(|x| x as u32);
    }
    finish_int32(w, op, &d)
}

/// Integer source to an f32 result (conversions).
#[inline(always)]
pub(super) fn u32_to_f32(w: &mut Wave, op: &Op, f: impl Fn(u32) -> f32) -> R {
    let a = src32(w, op, 0);
    let fo = w.flush_out32();
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut r = f(a[l]);
        if fo {
            r = ftz32(r);
        }
        d[l] = r.to_bits();
    }
    finish32(w, op, &mut d)
}

/// (f32, u32) -> f32, e.g. ldexp and class-like ops.
#[inline(always)]
pub(super) fn f32_u32(w: &mut Wave, op: &Op, f: impl Fn(f32, u32) -> f32) -> R {
    let a = fsrc32(w, op, 0, 31);
    let b = src32(w, op, 1);
    let m = Fm::of(w);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        if m.fi32 {
            x = ftz32(x);
        }
        let mut r = f(x, b[l]);
        if m.fo32 {
            r = ftz32(r);
        }
        d[l] = r.to_bits();
    }
    finish32(w, op, &mut d)
}

/// Two f32 sources to a packed/integer result (v_cvt_pkrtz_f16_f32, v_cvt_pknorm_*).
#[inline(always)]
fn f32x2_to_u32(w: &mut Wave, op: &Op, f: impl Fn(f32, f32) -> u32) -> R {
    let a = fsrc32(w, op, 0, 31);
    let b = fsrc32(w, op, 1, 31);
    let fi = w.flush_in32();
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut x = f32::from_bits(a[l]);
        let mut y = f32::from_bits(b[l]);
        if fi {
            x = ftz32(x);
            y = ftz32(y);
        }
        d[l] = f(x, y);
    }
    if (op.omod != 0 || op.clamp) && float_result(op) {
        post_v2f16(w, op, &mut d);
    }
    finish_int32(w, op, &d)
}

/// Generic lanes with any source widths (16/32/64 bits, 0 = unused) and result
/// width; float NEG/ABS act on each source's sign bit. Values travel as u64.
#[inline(always)]
pub(super) fn gen<const W0: u32, const W1: u32, const W2: u32, const WD: u32>(
    w: &mut Wave,
    op: &Op,
    f: impl Fn(u64, u64, u64) -> u64,
) -> R {
    let rd = |i: usize, width: u32| -> L64 {
        match width {
            0 => [0; 64],
            64 => fsrc64(w, op, i),
            16 => fsrc32(w, op, i, 15).map(|x| u64::from(x & 0xffff)),
            _ => fsrc32(w, op, i, 31).map(u64::from),
        }
    };
    let a = rd(0, W0);
    let b = rd(1, W1);
    let c = rd(2, W2);
    let mut d = [0u64; 64];
    for l in 0..64 {
        d[l] = f(a[l], b[l], c[l]);
    }
    let e = w.exec();
    match WD {
        64 => {
            post64(w, op, &mut d);
            w.vwrite64(op.d as usize, &d, e);
        }
        16 => {
            if op.omod != 0 || op.clamp {
                post16(w, op, &mut d);
            }
            let d32 = d.map(|x| x as u32 & 0xffff);
            w.vwrite32(op.d as usize, &d32, e);
        }
        _ => {
            let mut d32 = d.map(|x| x as u32);
            if (op.omod != 0 || op.clamp) && float_result(op) {
                // f32 results of conversions (v_cvt_f32_f16, v_cvt_f32_f64, ...).
                omod_clamp32(w, op, &mut d32);
            }
            w.vwrite32(op.d as usize, &d32, e);
        }
    }
    Ok(())
}

/// Whether the row's destination is a float (its table type): the rows
/// OMOD and CLAMP apply to (CLRX GcnInstrsVop3.md: "OMOD and CLAMP modifier
/// affects only for instruction that output is floating point value").
/// Asked only when the op has OMOD or CLAMP set.
#[cold]
fn float_result(op: &Op) -> bool {
    op.instr
        .info()
        .operand(risa_gcn::table::Role::D)
        .is_some_and(|o| !o.sgpr && o.ty.is_float())
}

// f64 helpers built on `gen`.
#[inline(always)]
pub(super) fn fl64(m: Fm, x: u64) -> f64 {
    let v = f64::from_bits(x);
    if m.fi64 {
        ftz64(v)
    } else {
        v
    }
}
#[inline(always)]
pub(super) fn out64(m: Fm, v: f64) -> u64 {
    if m.fo64 {
        ftz64(v).to_bits()
    } else {
        v.to_bits()
    }
}
#[inline(always)]
pub(super) fn fl32(m: Fm, x: u64) -> f32 {
    let v = f32::from_bits(x as u32);
    if m.fi32 {
        ftz32(v)
    } else {
        v
    }
}
#[inline(always)]
pub(super) fn out32(m: Fm, v: f32) -> u64 {
    u64::from(if m.fo32 { ftz32(v) } else { v }.to_bits())
}
/// Half from the low 16 bits, flushed per the f16/f64 mode, as f64.
#[inline(always)]
fn fl16(m: Fm, x: u64) -> f64 {
    let h = x as u16;
    f64::from(f16_to_f32(if m.fi64 { ftz16(h) } else { h }))
}
#[inline(always)]
fn out16(m: Fm, v: f64) -> u64 {
    let h = f64_to_f16(v);
    u64::from(if m.fo64 { ftz16(h) } else { h })
}

/// The canonical negative quiet NaN the ISA documents give for invalid inputs.
const NEG_NAN: f32 = f32::from_bits(0xffc0_0000);

/// A quiet NaN with the sign of `x` ("NAN * SIGN(SF)" in the ISA pseudo-code).
fn signed_nan(x: f32) -> f32 {
    if x.is_sign_negative() {
        NEG_NAN
    } else {
        f32::from_bits(0x7fc0_0000)
    }
}

/// Shared range rules of v_sin_f32/v_cos_f32 (CLRX GcnInstrsVop1.md V_SIN_F32;
/// AMD's ISA manuals give the valid range as [-256, 256]): infinity gives -NaN,
/// NaN passes through, out-of-range inputs give 0.
fn trig_special(x: f32) -> Option<f32> {
    if x.is_infinite() {
        Some(NEG_NAN)
    } else if x.is_nan() {
        Some(x)
    } else if x.abs() > 256.0 {
        Some(0.0)
    } else {
        None
    }
}

fn sin_rev(x: f32) -> f32 {
    // v_sin_f32 takes revolutions: sin(2*pi*x). Reduce exactly in f64 first.
    if let Some(r) = trig_special(x) {
        return r;
    }
    let v = f64::from(x);
    let r = v - v.round();
    (r * std::f64::consts::TAU).sin() as f32
}
fn cos_rev(x: f32) -> f32 {
    if let Some(r) = trig_special(x) {
        return r;
    }
    let v = f64::from(x);
    let r = v - v.round();
    (r * std::f64::consts::TAU).cos() as f32
}
fn fract32(x: f32) -> f32 {
    if !x.is_finite() {
        return signed_nan(x);
    }
    let r = x - x.floor();
    // The result stays below 1 (0x3f7fffff) also when x is a tiny negative number.
    r.min(f32::from_bits(0x3f7f_ffff))
}
fn fract64(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::NAN;
    }
    (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}
fn cvt_i32_f64(x: f64) -> u32 {
    x as i32 as u32
}
pub(super) fn mul_legacy(a: f32, b: f32) -> f32 {
    // DX9 rule: 0 * anything (including inf and NaN) is +0.
    if a == 0.0 || b == 0.0 {
        0.0
    } else {
        a * b
    }
}
fn min_legacy(a: f32, b: f32) -> f32 {
    // GCN 1.0/1.1 legacy min: (a < b) ? a : b, so a NaN operand picks b.
    if a < b {
        a
    } else {
        b
    }
}
fn max_legacy(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}
/// v_mad_f32 / v_mac_f32: unfused multiply-add; the product is rounded and
/// denormals are flushed regardless of MODE (the instruction does not support them).
fn mad32(a: f32, b: f32, c: f32) -> f32 {
    ftz32(ftz32(ftz32(a) * ftz32(b)) + ftz32(c))
}
fn bfe_u(a: u32, off: u32, width: u32) -> u32 {
    let off = off & 31;
    let width = width & 31;
    if width == 0 {
        return 0;
    }
    (a >> off) & ((1u32 << width) - 1)
}
fn bfe_i(a: u32, off: u32, width: u32) -> u32 {
    let off = off & 31;
    let width = width & 31;
    if width == 0 {
        return 0;
    }
    if off + width < 32 {
        ((((a >> off) << (32 - width)) as i32) >> (32 - width)) as u32
    } else {
        ((a as i32) >> off) as u32
    }
}
fn perm_byte(x: u64, sel: u32) -> u32 {
    match sel {
        0..=7 => ((x >> (8 * sel)) & 0xff) as u32,
        8 => ((x >> 15) & 1) as u32 * 0xff,
        9 => ((x >> 31) & 1) as u32 * 0xff,
        10 => ((x >> 47) & 1) as u32 * 0xff,
        11 => ((x >> 63) & 1) as u32 * 0xff,
        12 => 0,
        _ => 0xff,
    }
}
fn perm(a: u32, b: u32, s: u32) -> u32 {
    let x = (u64::from(a) << 32) | u64::from(b);
    (0..4).fold(0, |r, i| r | perm_byte(x, (s >> (8 * i)) & 0xff) << (8 * i))
}
fn sad_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(c, |s, i| {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        s.wrapping_add(x.abs_diff(y))
    })
}
fn msad_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(c, |s, i| {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        if y == 0 {
            s
        } else {
            s.wrapping_add(x.abs_diff(y))
        }
    })
}
fn lerp_u8(a: u32, b: u32, c: u32) -> u32 {
    (0..4).fold(0, |r, i| {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        let z = (c >> (8 * i)) & 1;
        r | (((x + y + z) >> 1) & 0xff) << (8 * i)
    })
}
fn med3_i(a: i32, b: i32, c: i32) -> i32 {
    a.max(b).min(a.min(b).max(c))
}
fn med3_u(a: u32, b: u32, c: u32) -> u32 {
    a.max(b).min(a.min(b).max(c))
}
fn cvt_pk_u8(a: f32, b: u32, c: u32) -> u32 {
    let sh = (b & 3) * 8;
    let v = (a.round_ties_even().clamp(0.0, 255.0)) as u32;
    (c & !(0xff << sh)) | (v << sh)
}
fn pknorm_i16(x: f32) -> u32 {
    (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i32 as u32 & 0xffff
}
fn pknorm_u16(x: f32) -> u32 {
    (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u32 & 0xffff
}
fn sat_i16(x: i32) -> u32 {
    x.clamp(-32768, 32767) as u32 & 0xffff
}
fn rcp32(x: f32) -> f32 {
    1.0 / x
}
/// v_rsq_f32: denormal inputs are flushed whatever MODE says; negative gives -NaN.
fn rsq32(x: f32) -> f32 {
    let x = ftz32(x);
    if x < 0.0 {
        return NEG_NAN;
    }
    (1.0 / f64::from(x).sqrt()) as f32
}
/// v_exp_f32: 2^x, and 0 below -126 whatever MODE says.
fn exp32(x: f32) -> f32 {
    if x < -126.0 {
        return 0.0;
    }
    f64::from(x).exp2() as f32
}
/// v_log_f32: log2, denormal inputs flushed, negative gives -NaN.
fn log32(x: f32) -> f32 {
    let x = ftz32(x);
    if x < 0.0 {
        return NEG_NAN;
    }
    f64::from(x).log2() as f32
}
fn frexp_mant32(x: f32) -> f32 {
    if x.is_nan() {
        return signed_nan(x);
    }
    frexp_mant64(f64::from(x)) as f32
}
fn frexp_exp32(x: f32) -> u32 {
    frexp_exp64(f64::from(x)) as u32
}
fn f16_frexp_exp(x: f64) -> u64 {
    u64::from(frexp_exp64(x) as i16 as u16)
}
fn rndne64(x: f64) -> f64 {
    x.round_ties_even()
}
/// NaN converts to the extreme integer of its sign (V_CVT_FLR/RPI_I32_F32).
fn nan_int(x: f32) -> u32 {
    if x.is_sign_negative() {
        i32::MIN as u32
    } else {
        i32::MAX as u32
    }
}
fn cvt_flr(x: f32) -> u32 {
    if x.is_nan() {
        return nan_int(x);
    }
    x.floor() as i32 as u32
}
fn cvt_rpi(x: f32) -> u32 {
    if x.is_nan() {
        return nan_int(x);
    }
    (x + 0.5).floor() as i32 as u32
}
fn sqrt32(x: f32) -> f32 {
    if x < 0.0 {
        NEG_NAN
    } else {
        x.sqrt()
    }
}
fn div_scale32(a: f32, b: f32, c: f32) -> (f32, bool) {
    let (r, vcc) = div_scale(f64::from(a), f64::from(b), f64::from(c), false);
    (r as f32, vcc)
}

macro_rules! valu {
    ($table:ident; $($name:ident: $helper:ident $(::<$($g:literal),*>)? |$m:ident; $($p:ident),*| $e:expr;)*) => {
        $(
            #[allow(unused_variables)]
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $m = Fm::of(w);
                $helper $(::<$($g),*>)? (w, op, #[inline(always)] move |$($p),*| $e)
            }
        )*
        pub(super) const $table: Table = &[$((Sem::$name, $name)),*];
    };
}

valu! { VALU;
    // VOP1
    v_mov_b32: u32_1 |m; a| a;
    v_mov_fed_b32: u32_1 |m; a| a;
    v_not_b32: u32_1 |m; a| !a;
    v_bfrev_b32: u32_1 |m; a| a.reverse_bits();
    v_ffbh_u32: u32_1 |m; a| if a == 0 { u32::MAX } else { a.leading_zeros() };
    v_ffbl_b32: u32_1 |m; a| if a == 0 { u32::MAX } else { a.trailing_zeros() };
    v_ffbh_i32: u32_1 |m; a| { let v = if (a as i32) < 0 { !a } else { a }; if v == 0 { u32::MAX } else { v.leading_zeros() } };
    v_cvt_f32_i32: u32_to_f32 |m; a| a as i32 as f32;
    v_cvt_f32_u32: u32_to_f32 |m; a| a as f32;
    v_cvt_f32_ubyte0: u32_to_f32 |m; a| (a & 0xff) as f32;
    v_cvt_f32_ubyte1: u32_to_f32 |m; a| ((a >> 8) & 0xff) as f32;
    v_cvt_f32_ubyte2: u32_to_f32 |m; a| ((a >> 16) & 0xff) as f32;
    v_cvt_f32_ubyte3: u32_to_f32 |m; a| (a >> 24) as f32;
    v_cvt_off_f32_i4: u32_to_f32 |m; a| ((((a & 0xf) << 28) as i32 >> 28) as f32) / 16.0;
    v_cvt_i32_f32: f32_to_u32 |m; a| a as i32 as u32;
    v_cvt_u32_f32: f32_to_u32 |m; a| a as u32;
    v_cvt_flr_i32_f32: f32_to_u32 |m; a| cvt_flr(a);
    v_cvt_rpi_i32_f32: f32_to_u32 |m; a| cvt_rpi(a);
    v_frexp_exp_i32_f32: f32_to_u32 |m; a| frexp_exp32(a);
    v_cvt_f16_f32: f32_to_half |m; a| { let h = crate::float::f32_to_f16(a); u32::from(if m.fo64 { ftz16(h) } else { h }) };
    v_trunc_f32: f32_1 |m; a| a.trunc();
    v_ceil_f32: f32_1 |m; a| a.ceil();
    v_floor_f32: f32_1 |m; a| a.floor();
    v_rndne_f32: f32_1 |m; a| a.round_ties_even();
    v_fract_f32: f32_1 |m; a| fract32(a);
    v_exp_f32: f32_1 |m; a| exp32(a);
    v_log_f32: f32_1 |m; a| log32(a);
    v_exp_legacy_f32: f32_1 |m; a| exp32(a);
    v_log_legacy_f32: f32_1 |m; a| log32(a);
    v_log_clamp_f32: f32_1 |m; a| { let r = log32(a); if r == f32::NEG_INFINITY { -f32::MAX } else { r } };
    v_rcp_f32: f32_1 |m; a| rcp32(a);
    v_rcp_iflag_f32: f32_1 |m; a| rcp32(a);
    v_rcp_legacy_f32: f32_1 |m; a| if a == 0.0 { 0.0 } else { rcp32(a) };
    v_rcp_clamp_f32: f32_1 |m; a| { let r = rcp32(a); if r.is_infinite() { f32::MAX.copysign(r) } else { r } };
    v_rsq_f32: f32_1 |m; a| rsq32(a);
    v_rsq_legacy_f32: f32_1 |m; a| { let r = rsq32(a); if r.is_infinite() { 0.0 } else { r } };
    v_rsq_clamp_f32: f32_1 |m; a| { let r = rsq32(a); if r.is_infinite() { f32::MAX.copysign(r) } else { r } };
    v_sqrt_f32: f32_1 |m; a| sqrt32(a);
    v_sin_f32: f32_1 |m; a| sin_rev(a);
    v_cos_f32: f32_1 |m; a| cos_rev(a);
    v_frexp_mant_f32: f32_1 |m; a| frexp_mant32(a);
    // 64-bit float VOP1 and conversions
    v_cvt_f32_f64: gen::<64, 0, 0, 32> |m; a, b, c| out32(m, fl64(m, a) as f32);
    v_cvt_f64_f32: gen::<32, 0, 0, 64> |m; a, b, c| out64(m, f64::from(fl32(m, a)));
    v_cvt_i32_f64: gen::<64, 0, 0, 32> |m; a, b, c| u64::from(cvt_i32_f64(fl64(m, a)));
    v_cvt_u32_f64: gen::<64, 0, 0, 32> |m; a, b, c| u64::from(fl64(m, a) as u32);
    v_cvt_f64_i32: gen::<32, 0, 0, 64> |m; a, b, c| (a as u32 as i32 as f64).to_bits();
    v_cvt_f64_u32: gen::<32, 0, 0, 64> |m; a, b, c| (a as u32 as f64).to_bits();
    v_trunc_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, fl64(m, a).trunc());
    v_ceil_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, fl64(m, a).ceil());
    v_floor_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, fl64(m, a).floor());
    v_rndne_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, rndne64(fl64(m, a)));
    v_fract_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, fract64(fl64(m, a)));
    v_rcp_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, 1.0 / fl64(m, a));
    v_rcp_clamp_f64: gen::<64, 0, 0, 64> |m; a, b, c| { let r = 1.0 / fl64(m, a); out64(m, if r.is_infinite() { f64::MAX.copysign(r) } else { r }) };
    v_rsq_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, 1.0 / fl64(m, a).sqrt());
    v_rsq_clamp_f64: gen::<64, 0, 0, 64> |m; a, b, c| { let r = 1.0 / fl64(m, a).sqrt(); out64(m, if r.is_infinite() { f64::MAX.copysign(r) } else { r }) };
    v_sqrt_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, fl64(m, a).sqrt());
    v_frexp_mant_f64: gen::<64, 0, 0, 64> |m; a, b, c| out64(m, frexp_mant64(fl64(m, a)));
    v_frexp_exp_i32_f64: gen::<64, 0, 0, 32> |m; a, b, c| u64::from(frexp_exp64(fl64(m, a)) as u32);
    // 16-bit VOP1 (GCN 1.2+)
    v_cvt_f32_f16: gen::<16, 0, 0, 32> |m; a, b, c| out32(m, fl16(m, a) as f32);
    v_cvt_f16_u16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, f64::from(a as u16));
    v_cvt_f16_i16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, f64::from(a as u16 as i16));
    v_cvt_u16_f16: gen::<16, 0, 0, 16> |m; a, b, c| u64::from(fl16(m, a) as u16);
    v_cvt_i16_f16: gen::<16, 0, 0, 16> |m; a, b, c| u64::from(fl16(m, a) as i16 as u16);
    v_cvt_norm_i16_f16: gen::<16, 0, 0, 16> |m; a, b, c| u64::from(pknorm_i16(fl16(m, a) as f32));
    v_cvt_norm_u16_f16: gen::<16, 0, 0, 16> |m; a, b, c| u64::from(pknorm_u16(fl16(m, a) as f32));
    v_rcp_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, 1.0 / fl16(m, a));
    v_sqrt_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).sqrt());
    v_rsq_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, 1.0 / fl16(m, a).sqrt());
    v_log_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).log2());
    v_exp_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).exp2());
    v_sin_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, f64::from(sin_rev(fl16(m, a) as f32)));
    v_cos_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, f64::from(cos_rev(fl16(m, a) as f32)));
    v_floor_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).floor());
    v_ceil_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).ceil());
    v_trunc_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).trunc());
    v_rndne_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, fl16(m, a).round_ties_even());
    v_fract_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, { let x = fl16(m, a); if x.is_infinite() { f64::NAN } else { (x - x.floor()).min(f64::from(f16_to_f32(0x3bff))) } });
    v_frexp_mant_f16: gen::<16, 0, 0, 16> |m; a, b, c| out16(m, frexp_mant64(fl16(m, a)));
    v_frexp_exp_i16_f16: gen::<16, 0, 0, 16> |m; a, b, c| f16_frexp_exp(fl16(m, a));
    v_sat_pk_u8_i16: u32_1 |m; a| { let lo = (a as u16 as i16).clamp(0, 255) as u32; let hi = ((a >> 16) as u16 as i16).clamp(0, 255) as u32; lo | hi << 8 };

    // VOP2 float
    v_add_f32: f32_2 |m; a, b| a + b;
    v_sub_f32: f32_2 |m; a, b| a - b;
    v_subrev_f32: f32_2 |m; a, b| b - a;
    v_mul_f32: f32_2 |m; a, b| a * b;
    v_mul_legacy_f32: f32_2 |m; a, b| mul_legacy(a, b);
    v_min_f32: f32_2 |m; a, b| min32(a, b);
    v_max_f32: f32_2 |m; a, b| max32(a, b);
    v_min_legacy_f32: f32_2 |m; a, b| min_legacy(a, b);
    v_max_legacy_f32: f32_2 |m; a, b| max_legacy(a, b);
    v_mac_f32: f32_3 |m; a, b, c| mad32(a, b, c);
    v_mac_legacy_f32: f32_3 |m; a, b, c| mul_legacy(a, b) + c;
    v_madmk_f32: f32_k |m; a, b, k| mad32(a, k, b);
    v_madak_f32: f32_k |m; a, b, k| mad32(a, b, k);
    v_ldexp_f32: f32_u32 |m; a, b| ldexp32(a, b as i32);
    v_cvt_pkrtz_f16_f32: f32x2_to_u32 |m; a, b| u32::from(f32_to_f16_rtz(a)) | u32::from(f32_to_f16_rtz(b)) << 16;
    v_cvt_pknorm_i16_f32: f32x2_to_u32 |m; a, b| pknorm_i16(a) | pknorm_i16(b) << 16;
    v_cvt_pknorm_u16_f32: f32x2_to_u32 |m; a, b| pknorm_u16(a) | pknorm_u16(b) << 16;
    v_cvt_pk_i16_i32: u32_2 |m; a, b| sat_i16(a as i32) | sat_i16(b as i32) << 16;
    v_cvt_pk_u16_u32: u32_2 |m; a, b| a.min(0xffff) | b.min(0xffff) << 16;
    // VOP2 integer
    v_and_b32: u32_2 |m; a, b| a & b;
    v_or_b32: u32_2 |m; a, b| a | b;
    v_xor_b32: u32_2 |m; a, b| a ^ b;
    v_xnor_b32: u32_2 |m; a, b| !(a ^ b);
    v_lshl_b32: u32_2 |m; a, b| a << (b & 31);
    v_lshr_b32: u32_2 |m; a, b| a >> (b & 31);
    v_ashr_i32: u32_2 |m; a, b| ((a as i32) >> (b & 31)) as u32;
    v_lshlrev_b32: u32_2 |m; a, b| b << (a & 31);
    v_lshrrev_b32: u32_2 |m; a, b| b >> (a & 31);
    v_ashrrev_i32: u32_2 |m; a, b| ((b as i32) >> (a & 31)) as u32;
    v_min_i32: u32_2 |m; a, b| (a as i32).min(b as i32) as u32;
    v_max_i32: u32_2 |m; a, b| (a as i32).max(b as i32) as u32;
    v_min_u32: u32_2 |m; a, b| a.min(b);
    v_max_u32: u32_2 |m; a, b| a.max(b);
    v_mul_i32_i24: u32_2 |m; a, b| (sx24(a).wrapping_mul(sx24(b))) as u32;
    v_mul_hi_i32_i24: u32_2 |m; a, b| ((i64::from(sx24(a)) * i64::from(sx24(b))) >> 32) as u32;
    v_mul_u32_u24: u32_2 |m; a, b| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff);
    v_mul_hi_u32_u24: u32_2 |m; a, b| ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32;
    v_bcnt_u32_b32: u32_2 |m; a, b| a.count_ones().wrapping_add(b);
    v_bfm_b32: u32_2 |m; a, b| (((1u64 << (a & 31)) - 1) as u32) << (b & 31);
    // VOP3-only 32-bit
    v_mad_legacy_f32: f32_3 |m; a, b, c| mul_legacy(a, b) + c;
    v_mad_f32: f32_3 |m; a, b, c| mad32(a, b, c);
    v_cubeid_f32: f32_3 |m; a, b, c| cubeid(a, b, c);
    v_cubema_f32: f32_3 |m; a, b, c| cubema(a, b, c);
    v_cubesc_f32: f32_3 |m; a, b, c| cubesc(a, b, c);
    v_cubetc_f32: f32_3 |m; a, b, c| cubetc(a, b, c);
    v_mullit_f32: f32_3 |m; a, b, c| mullit(a, b, c);
    v_min3_f32: f32_3 |m; a, b, c| min32(min32(a, b), c);
    v_max3_f32: f32_3 |m; a, b, c| max32(max32(a, b), c);
    v_med3_f32: f32_3 |m; a, b, c| med3_doc(a, b, c);
    v_div_fixup_f32: f32_3 |m; a, b, c| div_fixup32(a, b, c);
    v_mad_i32_i24: u32_3 |m; a, b, c| (sx24(a).wrapping_mul(sx24(b)) as u32).wrapping_add(c);
    v_mad_u32_u24: u32_3 |m; a, b, c| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c);
    v_bfe_u32: u32_3 |m; a, b, c| bfe_u(a, b, c);
    v_bfe_i32: u32_3 |m; a, b, c| bfe_i(a, b, c);
    v_bfi_b32: u32_3 |m; a, b, c| (a & b) | (!a & c);
    v_lerp_u8: u32_3 |m; a, b, c| lerp_u8(a, b, c);
    v_alignbit_b32: u32_3 |m; a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (c & 31)) as u32;
    v_alignbyte_b32: u32_3 |m; a, b, c| (((u64::from(a) << 32) | u64::from(b)) >> (8 * (c & 3))) as u32;
    v_min3_i32: u32_3 |m; a, b, c| (a as i32).min(b as i32).min(c as i32) as u32;
    v_max3_i32: u32_3 |m; a, b, c| (a as i32).max(b as i32).max(c as i32) as u32;
    v_med3_i32: u32_3 |m; a, b, c| med3_i(a as i32, b as i32, c as i32) as u32;
    v_min3_u32: u32_3 |m; a, b, c| a.min(b).min(c);
    v_max3_u32: u32_3 |m; a, b, c| a.max(b).max(c);
    v_med3_u32: u32_3 |m; a, b, c| med3_u(a, b, c);
    v_sad_u8: u32_3 |m; a, b, c| sad_u8(a, b, c);
    v_sad_hi_u8: u32_3 |m; a, b, c| (sad_u8(a, b, 0) << 16).wrapping_add(c);
    v_sad_u16: u32_3 |m; a, b, c| c.wrapping_add((a & 0xffff).abs_diff(b & 0xffff)).wrapping_add((a >> 16).abs_diff(b >> 16));
    v_sad_u32: u32_3 |m; a, b, c| a.abs_diff(b).wrapping_add(c);
    v_msad_u8: u32_3 |m; a, b, c| msad_u8(a, b, c);
    v_mul_lo_u32: u32_2 |m; a, b| a.wrapping_mul(b);
    v_mul_lo_i32: u32_2 |m; a, b| a.wrapping_mul(b);
    v_mul_hi_u32: u32_2 |m; a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32;
    v_mul_hi_i32: u32_2 |m; a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32;
    v_add3_u32: u32_3 |m; a, b, c| a.wrapping_add(b).wrapping_add(c);
    v_lshl_add_u32: u32_3 |m; a, b, c| (a << (b & 31)).wrapping_add(c);
    v_add_lshl_u32: u32_3 |m; a, b, c| a.wrapping_add(b) << (c & 31);
    v_and_or_b32: u32_3 |m; a, b, c| (a & b) | c;
    v_or3_b32: u32_3 |m; a, b, c| a | b | c;
    v_lshl_or_b32: u32_3 |m; a, b, c| (a << (b & 31)) | c;
    v_xad_u32: u32_3 |m; a, b, c| (a ^ b).wrapping_add(c);
    v_perm_b32: u32_3 |m; a, b, c| perm(a, b, c);
    v_mad_u32_u16: u32_3 |m; a, b, c| (a & 0xffff).wrapping_mul(b & 0xffff).wrapping_add(c);
    v_mad_i32_i16: u32_3 |m; a, b, c| (i32::from(a as u16 as i16).wrapping_mul(i32::from(b as u16 as i16)) as u32).wrapping_add(c);
    v_cvt_pk_u8_f32: gen::<32, 32, 32, 32> |m; a, b, c| u64::from(cvt_pk_u8(fl32(m, a), b as u32, c as u32));
    // 64-bit VOP3
    v_add_f64: gen::<64, 64, 0, 64> |m; a, b, c| out64(m, fl64(m, a) + fl64(m, b));
    v_mul_f64: gen::<64, 64, 0, 64> |m; a, b, c| out64(m, fl64(m, a) * fl64(m, b));
    v_min_f64: gen::<64, 64, 0, 64> |m; a, b, c| out64(m, min_num(fl64(m, a), fl64(m, b)));
    v_max_f64: gen::<64, 64, 0, 64> |m; a, b, c| out64(m, max_num(fl64(m, a), fl64(m, b)));
    v_fma_f64: gen::<64, 64, 64, 64> |m; a, b, c| out64(m, fl64(m, a).mul_add(fl64(m, b), fl64(m, c)));
    v_qsad_pk_u16_u8: gen::<64, 32, 64, 64> |m; a, b, c| qsad(a, b as u32, c, false);
    v_qsad_u8: gen::<64, 32, 64, 64> |m; a, b, c| qsad(a, b as u32, c, false);
    v_mqsad_pk_u16_u8: gen::<64, 32, 64, 64> |m; a, b, c| qsad(a, b as u32, c, true);
    v_trig_preop_f64: gen::<64, 32, 0, 64> |m; a, b, c| trig_preop(f64::from_bits(a), b as u32).to_bits();
    v_ldexp_f64: gen::<64, 32, 0, 64> |m; a, b, c| out64(m, ldexp64(fl64(m, a), b as u32 as i32));
    v_div_fixup_f64: gen::<64, 64, 64, 64> |m; a, b, c| out64(m, div_fixup64(fl64(m, a), fl64(m, b), fl64(m, c)));
    v_lshl_b64: gen::<64, 32, 0, 64> |m; a, b, c| a << (b & 63);
    v_lshr_b64: gen::<64, 32, 0, 64> |m; a, b, c| a >> (b & 63);
    v_ashr_i64: gen::<64, 32, 0, 64> |m; a, b, c| ((a as i64) >> (b & 63)) as u64;
    v_lshlrev_b64: gen::<32, 64, 0, 64> |m; a, b, c| b << (a & 63);
    v_lshrrev_b64: gen::<32, 64, 0, 64> |m; a, b, c| b >> (a & 63);
    v_ashrrev_i64: gen::<32, 64, 0, 64> |m; a, b, c| ((b as i64) >> (a & 63)) as u64;
    // 16-bit VOP2/VOP3 (GCN 1.2+): results in the low half, high half zeroed.
    v_add_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, fl16(m, a) + fl16(m, b));
    v_sub_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, fl16(m, a) - fl16(m, b));
    v_subrev_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, fl16(m, b) - fl16(m, a));
    v_mul_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, fl16(m, a) * fl16(m, b));
    v_min_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, min_num(fl16(m, a), fl16(m, b)));
    v_max_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, max_num(fl16(m, a), fl16(m, b)));
    v_ldexp_f16: gen::<16, 16, 0, 16> |m; a, b, c| out16(m, ldexp64(fl16(m, a), i32::from(b as u16 as i16)));
    v_mac_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, f64::from(f16_to_f32(f64_to_f16(fl16(m, a) * fl16(m, b)))) + fl16(m, c));
    v_mad_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, f64::from(f16_to_f32(f64_to_f16(fl16(m, a) * fl16(m, b)))) + fl16(m, c));
    v_fma_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, fl16(m, a).mul_add(fl16(m, b), fl16(m, c)));
    v_div_fixup_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, div_fixup64(fl16(m, a), fl16(m, b), fl16(m, c)));
    v_min3_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, min_num(min_num(fl16(m, a), fl16(m, b)), fl16(m, c)));
    v_max3_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, max_num(max_num(fl16(m, a), fl16(m, b)), fl16(m, c)));
    v_med3_f16: gen::<16, 16, 16, 16> |m; a, b, c| out16(m, f64::from(med3_32(fl16(m, a) as f32, fl16(m, b) as f32, fl16(m, c) as f32)));
    v_mul_lo_u16: gen::<16, 16, 0, 16> |m; a, b, c| a.wrapping_mul(b);
    v_lshlrev_b16: gen::<16, 16, 0, 16> |m; a, b, c| b << (a & 15);
    v_lshrrev_b16: gen::<16, 16, 0, 16> |m; a, b, c| (b & 0xffff) >> (a & 15);
    v_ashrrev_i16: gen::<16, 16, 0, 16> |m; a, b, c| u64::from(((b as u16 as i16) >> (a & 15)) as u16);
    v_max_u16: gen::<16, 16, 0, 16> |m; a, b, c| a.max(b);
    v_min_u16: gen::<16, 16, 0, 16> |m; a, b, c| a.min(b);
    v_max_i16: gen::<16, 16, 0, 16> |m; a, b, c| u64::from((a as u16 as i16).max(b as u16 as i16) as u16);
    v_min_i16: gen::<16, 16, 0, 16> |m; a, b, c| u64::from((a as u16 as i16).min(b as u16 as i16) as u16);
    v_min3_i16: gen::<16, 16, 16, 16> |m; a, b, c| u64::from((a as u16 as i16).min(b as u16 as i16).min(c as u16 as i16) as u16);
    v_max3_i16: gen::<16, 16, 16, 16> |m; a, b, c| u64::from((a as u16 as i16).max(b as u16 as i16).max(c as u16 as i16) as u16);
    v_med3_i16: gen::<16, 16, 16, 16> |m; a, b, c| u64::from(med3_i(i32::from(a as u16 as i16), i32::from(b as u16 as i16), i32::from(c as u16 as i16)) as u16);
    v_min3_u16: gen::<16, 16, 16, 16> |m; a, b, c| a.min(b).min(c);
    v_max3_u16: gen::<16, 16, 16, 16> |m; a, b, c| a.max(b).max(c);
    v_med3_u16: gen::<16, 16, 16, 16> |m; a, b, c| u64::from(med3_u(a as u32, b as u32, c as u32));
    v_pack_b32_f16: gen::<16, 16, 0, 32> |m; a, b, c| a | (b << 16);
    v_cvt_pknorm_i16_f16: gen::<16, 16, 0, 32> |m; a, b, c| u64::from(pknorm_i16(fl16(m, a) as f32) | pknorm_i16(fl16(m, b) as f32) << 16);
    v_cvt_pknorm_u16_f16: gen::<16, 16, 0, 32> |m; a, b, c| u64::from(pknorm_u16(fl16(m, a) as f32) | pknorm_u16(fl16(m, b) as f32) << 16);
}

/// v_med3_f32 as the ISA pseudo-code states it (CLRX GcnInstrsVop3.md V_MED3_F32).
fn med3_doc(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() {
        min32(b, c)
    } else if b.is_nan() {
        min32(a, c)
    } else if c.is_nan() {
        min32(a, b)
    } else if (c > b && c < a) || (c < b && c > a) {
        c
    } else if (b > c && b < a) || (b < c && b > a) {
        b
    } else {
        a
    }
}

fn v_frexp_exp_i32_f32_gcn10(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    // GCN 1.0 gives -1 for infinity and NaN (later generations give 0).
    f32_to_u32(w, op, |a| {
        if a.is_finite() {
            frexp_exp32(a)
        } else {
            u32::MAX
        }
    })
}
fn v_frexp_exp_i32_f64_gcn10(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let m = Fm::of(w);
    gen::<64, 0, 0, 32>(w, op, move |a, _, _| {
        let x = fl64(m, a);
        if x.is_finite() {
            u64::from(frexp_exp64(x) as u32)
        } else {
            u64::from(u32::MAX)
        }
    })
}
fn v_frexp_mant_f32_gcn10(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    // GCN 1.0 gives -NaN for infinity (later generations return the infinity).
    f32_1(w, op, |a| {
        if a.is_infinite() {
            NEG_NAN
        } else {
            frexp_mant32(a)
        }
    })
}

/// The GCN 1.0 form of an operation whose result differs by generation (the
/// ISA documents' "GCN 1.0" notes), if `sem` is one.
pub(super) fn by_gen(sem: Sem, gen: risa_gcn::Gen) -> Option<super::Handler> {
    if gen != risa_gcn::Gen::Gcn10 {
        return None;
    }
    Some(match sem {
        Sem::v_frexp_exp_i32_f32 => v_frexp_exp_i32_f32_gcn10,
        Sem::v_frexp_exp_i32_f64 => v_frexp_exp_i32_f64_gcn10,
        Sem::v_frexp_mant_f32 => v_frexp_mant_f32_gcn10,
        _ => return None,
    })
}

/// V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 (GcnInstrsVop3.md): four byte-SADs of
/// SRC1 against the byte windows of SRC0 starting at bytes 0-3, each added to
/// a 16-bit field of SRC2; the masked form skips bytes where SRC1 is zero.
/// Each 16-bit result keeps its low 16 bits.
fn qsad(a: u64, b: u32, c: u64, masked: bool) -> u64 {
    (0..4).fold(0u64, |d, n| {
        let window = (a >> (8 * n)) as u32;
        let mut out = (c >> (16 * n)) as u32 & 0xffff;
        for i in 0..4 {
            let (x, y) = ((window >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
            if !masked || y != 0 {
                out = out.wrapping_add(x.abs_diff(y));
            }
        }
        d | u64::from(out & 0xffff) << (16 * n)
    })
}

/// 53 bits of 2/pi starting `start` bits after the binary point (0 past the table).
fn two_over_pi_bits(start: u32) -> u64 {
    use crate::two_over_pi::TWO_OVER_PI;
    let bit = |i: u32| -> u64 {
        let (w, b) = ((i / 64) as usize, 63 - i % 64);
        TWO_OVER_PI.get(w).map_or(0, |x| (x >> b) & 1)
    };
    (0..53).fold(0, |r, k| r << 1 | bit(start + k))
}

/// V_TRIG_PREOP_F64: segment SRC1[4:0] of 2/pi (53 bits each), moved further
/// along for large SRC0 (exponent above 1077) and scaled back up for huge ones
/// (AMD's ISA manuals, V_TRIG_PREOP_F64; GcnInstrsVop3.md gives the same idea).
fn trig_preop(x: f64, seg: u32) -> f64 {
    let e = ((x.to_bits() >> 52) & 0x7ff) as i32;
    let mut shift = (seg & 31) as i32 * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let mut scale = -53 - shift;
    if e >= 1968 {
        scale += 128;
    }
    ldexp64(two_over_pi_bits(shift as u32) as f64, scale)
}

/// Which axis the cube instructions pick: 2 (z) when |z| is largest, then 1 (y), else 0 (x)
/// (GcnInstrsVop3.md V_CUBEID_F32).
fn cube_axis(x: f32, y: f32, z: f32) -> u8 {
    if z.abs() >= y.abs() && z.abs() >= x.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}
/// SIGN() of the pseudo-code: +1 or -1 by the sign bit.
fn sgn(v: f32) -> f32 {
    if v.is_sign_negative() {
        -1.0
    } else {
        1.0
    }
}
fn cubeid(x: f32, y: f32, z: f32) -> f32 {
    let v = [x, y, z];
    let a = cube_axis(x, y, z);
    f32::from(2 * a + u8::from(v[a as usize] < 0.0))
}
fn cubema(x: f32, y: f32, z: f32) -> f32 {
    2.0 * [x, y, z][cube_axis(x, y, z) as usize]
}
fn cubesc(x: f32, y: f32, z: f32) -> f32 {
    match cube_axis(x, y, z) {
        2 => sgn(z) * x,
        1 => x,
        _ => -sgn(x) * z,
    }
}
fn cubetc(x: f32, y: f32, z: f32) -> f32 {
    match cube_axis(x, y, z) {
        1 => sgn(y) * z,
        _ => -y,
    }
}
/// V_MULLIT_F32: -MAX unless SRC2 > 0; then the DX9 product (0 * x = 0).
fn mullit(a: f32, b: f32, c: f32) -> f32 {
    if c > 0.0 {
        mul_legacy(a, b)
    } else {
        -f32::MAX
    }
}
/// V_CVT_PKACCUM_U8_F32: round to an integer, saturate to a byte, insert at byte SRC1 & 3.
/// (The CLRX pseudo-code's `if (ISNAN(f))` must read `if (!ISNAN(f))`: NaN gives 0.)
fn v_cvt_pkaccum_u8_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let old = w.v[op.d as usize];
    let m = Fm::of(w);
    let mut t0 = [0u32; 64];
    let mut t1 = [0u32; 64];
    w.lanes32(op.src[0], &mut t0);
    w.lanes32(op.src[1], &mut t1);
    let e = w.exec();
    let mut d = old;
    for l in 0..64 {
        let f = fl32(m, u64::from(t0[l])).round_ties_even();
        let v = if f.is_nan() {
            0
        } else {
            f.clamp(0.0, 255.0) as u32
        };
        let sh = (t1[l] & 3) * 8;
        d[l] = (old[l] & !(0xff << sh)) | v << sh;
    }
    w.vwrite32(op.d as usize, &d, e);
    Ok(())
}

#[inline(always)]
fn sx24(a: u32) -> i32 {
    ((a << 8) as i32) >> 8
}

/// v_div_scale_f32/f64 (VOP3b): result in VDST, flag bits in SDST.
fn v_div_scale_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let a = fsrc32(w, op, 0, 31);
    let b = fsrc32(w, op, 1, 31);
    let c = fsrc32(w, op, 2, 31);
    let e = w.exec();
    let m = Fm::of(w);
    let mut d = [0u32; 64];
    let mut vcc = 0u64;
    for l in 0..64 {
        let x = f32::from_bits(a[l]);
        let y = f32::from_bits(b[l]);
        let z = f32::from_bits(c[l]);
        let (x, y, z) = if m.fi32 {
            (ftz32(x), ftz32(y), ftz32(z))
        } else {
            (x, y, z)
        };
        let (r, f) = div_scale32(x, y, z);
        d[l] = r.to_bits();
        vcc |= u64::from(f) << l;
    }
    post32(w, op, &mut d);
    w.vwrite32(op.d as usize, &d, e);
    w.set_s64(op.sd as usize, vcc & e);
    Ok(())
}

fn v_div_scale_f64(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let a = fsrc64(w, op, 0);
    let b = fsrc64(w, op, 1);
    let c = fsrc64(w, op, 2);
    let e = w.exec();
    let m = Fm::of(w);
    let mut d = [0u64; 64];
    let mut vcc = 0u64;
    for l in 0..64 {
        let (r, f) = div_scale(fl64(m, a[l]), fl64(m, b[l]), fl64(m, c[l]), true);
        d[l] = r.to_bits();
        vcc |= u64::from(f) << l;
    }
    post64(w, op, &mut d);
    w.vwrite64(op.d as usize, &d, e);
    w.set_s64(op.sd as usize, vcc & e);
    Ok(())
}

/// v_div_fmas: fma, scaled by 2^±64 (f32) / 2^±128 (f64) before its single
/// rounding in lanes whose VCC bit is set (the scale's sign follows the
/// exponent of the third operand; see `sem::exact`).
fn v_div_fmas_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    div_fmas_f32(w, op, risa_fp::Round::NearestEven)
}

/// [`v_div_fmas_f32`] under rounding mode `r`.
pub(super) fn div_fmas_f32(w: &mut Wave, op: &Op, r: risa_fp::Round) -> R {
    let vcc = w.vcc();
    let a = fsrc32(w, op, 0, 31);
    let b = fsrc32(w, op, 1, 31);
    let c = fsrc32(w, op, 2, 31);
    let m = Fm::of(w);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let (x, y, z) = (
            fl32(m, u64::from(a[l])),
            fl32(m, u64::from(b[l])),
            fl32(m, u64::from(c[l])),
        );
        let v = super::exact::div_fmas32(x, y, z, vcc >> l & 1 != 0, r);
        d[l] = out32(m, v) as u32;
    }
    finish32(w, op, &mut d)
}

fn v_div_fmas_f64(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    div_fmas_f64(w, op, risa_fp::Round::NearestEven)
}

/// [`v_div_fmas_f64`] under rounding mode `r`.
pub(super) fn div_fmas_f64(w: &mut Wave, op: &Op, r: risa_fp::Round) -> R {
    let vcc = w.vcc();
    let a = fsrc64(w, op, 0);
    let b = fsrc64(w, op, 1);
    let c = fsrc64(w, op, 2);
    let m = Fm::of(w);
    let e = w.exec();
    let mut d = [0u64; 64];
    for l in 0..64 {
        let (x, y, z) = (fl64(m, a[l]), fl64(m, b[l]), fl64(m, c[l]));
        let v = super::exact::div_fmas64(x, y, z, vcc >> l & 1 != 0, r);
        d[l] = out64(m, v);
    }
    post64(w, op, &mut d);
    w.vwrite64(op.d as usize, &d, e);
    Ok(())
}

/// Adds with carry-out (and optional carry-in from `src[2]`): VOP2 writes VCC, VOP3b SDST.
///
/// CLAMP (VOP3b, GCN 1.2 and 1.4; GCN 1.0/1.1 VOP3b has no CLAMP bit)
/// saturates the 32-bit result where the carry or borrow is set (CLRX
/// GcnInstrsVop2.md V_ADD_CO_U32, V_ADDC_U32, V_SUB*: `VDST = CLAMP ?
/// MIN(temp, 0xffffffff) : temp` for adds, `temp>>32 ? 0 : temp` for
/// subtractions): `sat` is the saturated value (`u32::MAX` for adds, 0 for
/// subtractions). The carry-out is the same either way.
#[inline(always)]
fn carry(
    w: &mut Wave,
    op: &Op,
    cin: bool,
    sat: u32,
    f: impl Fn(u32, u32, u32) -> (u32, bool),
) -> R {
    let a = src32(w, op, 0);
    let b = src32(w, op, 1);
    let ci = if cin { w.sread64(op.src[2]) } else { 0 };
    let e = w.exec();
    let mut d = [0u32; 64];
    let mut co = 0u64;
    let clamp = op.clamp;
    for l in 0..64 {
        let (r, c) = f(a[l], b[l], (ci >> l & 1) as u32);
        d[l] = if c && clamp { sat } else { r };
        co |= u64::from(c) << l;
    }
    w.vwrite32(op.d as usize, &d, e);
    w.set_s64(op.sd as usize, co & e);
    Ok(())
}

fn add_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, false, u32::MAX, |a, b, _| a.overflowing_add(b))
}
fn sub_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, false, 0, |a, b, _| a.overflowing_sub(b))
}
fn subrev_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, false, 0, |a, b, _| b.overflowing_sub(a))
}
fn addc_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, true, u32::MAX, |a, b, c| {
        let r = u64::from(a) + u64::from(b) + u64::from(c);
        (r as u32, r >> 32 != 0)
    })
}
fn subb_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, true, 0, |a, b, c| {
        let r = u64::from(a)
            .wrapping_sub(u64::from(b))
            .wrapping_sub(u64::from(c));
        (r as u32, u64::from(b) + u64::from(c) > u64::from(a))
    })
}
fn subbrev_co(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    carry(w, op, true, 0, |a, b, c| {
        let r = u64::from(b)
            .wrapping_sub(u64::from(a))
            .wrapping_sub(u64::from(c));
        (r as u32, u64::from(a) + u64::from(c) > u64::from(b))
    })
}
/// GCN 1.4 VOP3 v_add_i32 / v_sub_i32: CLAMP saturates to the signed 32-bit
/// range (CLRX GcnInstrsVop3.md V_ADD_I32, V_SUB_I32).
fn v_add_i32_gfx9(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if op.clamp {
        u32_2(w, op, |a, b| (a as i32).saturating_add(b as i32) as u32)
    } else {
        u32_2(w, op, |a, b| a.wrapping_add(b))
    }
}
fn v_sub_i32_gfx9(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if op.clamp {
        u32_2(w, op, |a, b| (a as i32).saturating_sub(b as i32) as u32)
    } else {
        u32_2(w, op, |a, b| a.wrapping_sub(b))
    }
}
/// GCN 1.4 v_add_u32 and friends: no carry; CLAMP saturates.
fn add_nc(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if op.clamp {
        u32_2(w, op, |a, b| a.saturating_add(b))
    } else {
        u32_2(w, op, |a, b| a.wrapping_add(b))
    }
}
fn sub_nc(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if op.clamp {
        u32_2(w, op, |a, b| a.saturating_sub(b))
    } else {
        u32_2(w, op, |a, b| a.wrapping_sub(b))
    }
}
fn subrev_nc(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    if op.clamp {
        u32_2(w, op, |a, b| b.saturating_sub(a))
    } else {
        u32_2(w, op, |a, b| b.wrapping_sub(a))
    }
}

/// v_mad_u64_u32 / v_mad_i64_i32 (VOP3b): 64-bit result, carry-out in SDST.
fn mad64(w: &mut Wave, op: &Op, signed: bool) -> R {
    let a = src32(w, op, 0);
    let b = src32(w, op, 1);
    let mut c = [0u64; 64];
    w.lanes64(op.src[2], &mut c);
    let e = w.exec();
    let mut d = [0u64; 64];
    let mut co = 0u64;
    for l in 0..64 {
        let (r, o) = if signed {
            let p = i128::from(a[l] as i32) * i128::from(b[l] as i32) + i128::from(c[l] as i64);
            (
                p as u64,
                p > i128::from(i64::MAX) || p < i128::from(i64::MIN),
            )
        } else {
            let p = u128::from(a[l]) * u128::from(b[l]) + u128::from(c[l]);
            (p as u64, p >> 64 != 0)
        };
        d[l] = r;
        co |= u64::from(o) << l;
    }
    w.vwrite64(op.d as usize, &d, e);
    w.set_s64(op.sd as usize, co & e);
    Ok(())
}
fn v_mad_u64_u32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad64(w, op, false)
}
fn v_mad_i64_i32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad64(w, op, true)
}

fn v_cndmask_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let a = fsrc32(w, op, 0, 31);
    let b = fsrc32(w, op, 1, 31);
    let m = w.sread64(op.src[2]);
    let mut d = [0u32; 64];
    for l in 0..64 {
        d[l] = if m >> l & 1 != 0 { b[l] } else { a[l] };
    }
    finish_int32(w, op, &d)
}

fn vgpr_of(s: Src) -> Result<usize, FaultKind> {
    match s {
        Src::V(r) => Ok(r as usize),
        _ => Err(FaultKind::BadOperand("a VGPR operand is required".into())),
    }
}

fn v_readlane_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let r = vgpr_of(op.src[0])?;
    let lane = w.sread32(op.src[1]) & 63;
    w.s[op.d as usize & 127] = w.v[r][lane as usize];
    Ok(())
}
fn v_writelane_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let v = w.sread32(op.src[0]);
    let lane = w.sread32(op.src[1]) & 63;
    w.v[op.d as usize][lane as usize] = v;
    Ok(())
}
fn v_readfirstlane_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let e = w.exec();
    let lane = if e == 0 {
        0
    } else {
        e.trailing_zeros() as usize
    };
    let v = match op.src[0] {
        Src::V(r) => w.v[r as usize][lane],
        s => w.sread32(s),
    };
    w.s[op.d as usize & 127] = v;
    Ok(())
}
fn v_mbcnt_lo_u32_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let a = src32(w, op, 0);
    let b = src32(w, op, 1);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mask = if l >= 32 { u32::MAX } else { (1u32 << l) - 1 };
        d[l] = (a[l] & mask).count_ones().wrapping_add(b[l]);
    }
    finish_int32(w, op, &d)
}
fn v_mbcnt_hi_u32_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let a = src32(w, op, 0);
    let b = src32(w, op, 1);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mask = if l <= 32 { 0 } else { (1u32 << (l - 32)) - 1 };
        d[l] = (a[l] & mask).count_ones().wrapping_add(b[l]);
    }
    finish_int32(w, op, &d)
}
fn v_nop(_w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    Ok(())
}
fn v_swap_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let r = vgpr_of(op.src[0])?;
    let d = op.d as usize;
    let e = w.exec();
    for l in active_lanes(e) {
        let t = w.v[d][l];
        w.v[d][l] = w.v[r][l];
        w.v[r][l] = t;
    }
    Ok(())
}

fn movrel_vgpr(base: usize, m0: u32) -> Result<usize, FaultKind> {
    let i = base + m0 as usize;
    if i > 255 {
        return Err(FaultKind::BadOperand(format!(
            "v{base} + m0 ({m0}) is past v255"
        )));
    }
    Ok(i)
}
fn v_movrels_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let s = movrel_vgpr(vgpr_of(op.src[0])?, w.s[M0])?;
    let v = w.v[s];
    finish_int32(w, op, &v)
}
fn v_movreld_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let d = movrel_vgpr(op.d as usize, w.s[M0])?;
    let v = src32(w, op, 0);
    let e = w.exec();
    w.vwrite32(d, &v, e);
    Ok(())
}
fn v_movrelsd_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let m0 = w.s[M0];
    let s = movrel_vgpr(vgpr_of(op.src[0])?, m0)?;
    let d = movrel_vgpr(op.d as usize, m0)?;
    let v = w.v[s];
    let e = w.exec();
    w.vwrite32(d, &v, e);
    Ok(())
}

fn v_madmk_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let m = Fm::of(w);
    let k = fl16(m, u64::from(op.lit));
    gen::<16, 16, 0, 16>(w, op, move |a, b, _| out16(m, fl16(m, a) * k + fl16(m, b)))
}
fn v_madak_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let m = Fm::of(w);
    let k = fl16(m, u64::from(op.lit));
    gen::<16, 16, 0, 16>(w, op, move |a, b, _| out16(m, fl16(m, a) * fl16(m, b) + k))
}

/// 16-bit integer add/sub/mad: CLAMP saturates to the result's range (CLRX
/// GcnInstrsVop2.md/GcnInstrsVop3.md V_ADD_U16 ... V_MAD_I16: "If CLAMP
/// modifier supplied, then result is saturated to 16-bit ... value"; LLVM
/// selects it for saturating i16 adds on GCN 1.2 and 1.4). `f` gets the
/// operands as integers of the result's signedness and returns the exact
/// result.
#[inline(always)]
fn int16<const W2: u32>(
    w: &mut Wave,
    op: &Op,
    signed: bool,
    f: impl Fn(i64, i64, i64) -> i64,
) -> R {
    let ext = move |x: u64| {
        if signed {
            i64::from(x as u16 as i16)
        } else {
            i64::from(x as u16)
        }
    };
    if op.clamp {
        let (lo, hi) = if signed { (-32768, 32767) } else { (0, 0xffff) };
        gen::<16, 16, W2, 16>(w, op, |a, b, c| {
            u64::from(f(ext(a), ext(b), ext(c)).clamp(lo, hi) as u16)
        })
    } else {
        gen::<16, 16, W2, 16>(w, op, |a, b, c| u64::from(f(ext(a), ext(b), ext(c)) as u16))
    }
}
#[inline(always)]
fn addsub16(w: &mut Wave, op: &Op, signed: bool, f: impl Fn(i64, i64) -> i64) -> R {
    int16::<0>(w, op, signed, move |a, b, _| f(a, b))
}
fn v_mad_u16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    int16::<16>(w, op, false, |a, b, c| a * b + c)
}
fn v_mad_i16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    int16::<16>(w, op, true, |a, b, c| a * b + c)
}
fn v_add_u16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    addsub16(w, op, false, |a, b| a + b)
}
fn v_sub_u16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    addsub16(w, op, false, |a, b| a - b)
}
fn v_subrev_u16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    addsub16(w, op, false, |a, b| b - a)
}
fn v_add_i16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    addsub16(w, op, true, |a, b| a + b)
}
fn v_sub_i16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    addsub16(w, op, true, |a, b| a - b)
}

pub(super) const SPECIAL: Table = &[
    (Sem::v_add_u16, v_add_u16),
    (Sem::v_sub_u16, v_sub_u16),
    (Sem::v_subrev_u16, v_subrev_u16),
    (Sem::v_add_i16, v_add_i16),
    (Sem::v_sub_i16, v_sub_i16),
    (Sem::v_mad_u16, v_mad_u16),
    (Sem::v_mad_i16, v_mad_i16),
    (Sem::v_cvt_pkaccum_u8_f32, v_cvt_pkaccum_u8_f32),
    // Also gfx906's `v_fmac_f32` (`dl-insts`, `sem=v_fma_f32`): VOP2 with the
    // addend in VDST (src2 = vdst, `tied`).
    (Sem::v_fma_f32, v_fma_f32),
    (Sem::v_madmk_f16, v_madmk_f16),
    (Sem::v_madak_f16, v_madak_f16),
    (Sem::v_div_scale_f32, v_div_scale_f32),
    (Sem::v_div_scale_f64, v_div_scale_f64),
    (Sem::v_div_fmas_f32, v_div_fmas_f32),
    (Sem::v_div_fmas_f64, v_div_fmas_f64),
    (Sem::v_add_co_u32, add_co),
    (Sem::v_sub_co_u32, sub_co),
    (Sem::v_subrev_co_u32, subrev_co),
    (Sem::v_addc_co_u32, addc_co),
    (Sem::v_subb_co_u32, subb_co),
    (Sem::v_subbrev_co_u32, subbrev_co),
    // The rows of GCN 1.0-1.2 that write a carry (`v_add_i32`, `v_add_u32`,
    // `v_addc_u32`, ... with an SD operand) name these ids (`sem=`); GCN 1.4's
    // `v_add_u32` and VOP3 `v_add_i32` have none.
    (Sem::v_add_u32, add_nc),
    (Sem::v_sub_u32, sub_nc),
    (Sem::v_subrev_u32, subrev_nc),
    (Sem::v_add_i32, v_add_i32_gfx9),
    (Sem::v_sub_i32, v_sub_i32_gfx9),
    (Sem::v_mad_u64_u32, v_mad_u64_u32),
    (Sem::v_mad_i64_i32, v_mad_i64_i32),
    (Sem::v_cndmask_b32, v_cndmask_b32),
    (Sem::v_readlane_b32, v_readlane_b32),
    (Sem::v_writelane_b32, v_writelane_b32),
    (Sem::v_readfirstlane_b32, v_readfirstlane_b32),
    (Sem::v_mbcnt_lo_u32_b32, v_mbcnt_lo_u32_b32),
    (Sem::v_mbcnt_hi_u32_b32, v_mbcnt_hi_u32_b32),
    // Also `v_clrexcp` (`sem=v_nop`): no exception state is kept.
    (Sem::v_nop, v_nop),
    (Sem::v_swap_b32, v_swap_b32),
    (Sem::v_movrels_b32, v_movrels_b32),
    (Sem::v_movreld_b32, v_movreld_b32),
    (Sem::v_movrelsd_b32, v_movrelsd_b32),
];
