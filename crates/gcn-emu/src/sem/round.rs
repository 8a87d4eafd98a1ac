//! VALU semantics under a MODE.FP_ROUND other than round-to-nearest-even.
//!
//! MODE bits 1:0 select the rounding of f32 results, bits 3:2 that of f64 and
//! f16 results (GcnState.md "MODE register"; 0 nearest-even, 1 toward +inf,
//! 2 toward -inf, 3 toward zero). A conversion rounds by its result's format
//! (v_cvt_f16_f32 by bits 3:2, as LLVM's fptrunc.round lowering sets them).
//!
//! These handlers replace the ordinary ones only for ops whose result is
//! rounded: the rows flagged `round` in the tables, each of which must have
//! one here (a compile-time check in `sem/mod.rs`); the interpreter switches to them when the wave's rounding mode
//! is not the default (see `exec::run_valu_slow`), so the default path never
//! looks at the mode. Every other op — approximate ones (v_rcp, v_rsq,
//! v_sqrt, v_exp, v_log, v_sin, v_cos), exact ones (min/max, compares,
//! widening conversions, v_cvt_f32_ubyte*), integer-valued ones (v_rndne,
//! v_floor, v_trunc, v_fract, float-to-integer conversions, v_cvt_pk*) —
//! keeps its ordinary handler. Input/output denormal flushing, NEG/ABS, CLAMP
//! and OMOD are applied by the same lane helpers as in the default mode.

use super::valu::{
    div_fmas_f32, div_fmas_f64, f32_2, f32_3, f32_k, f32_to_half, f32_u32, fl64, gen, mul_legacy,
    out32, out64, u32_to_f32, Fm,
};
use super::vop3p::packed;
use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::float::{f16_to_f32, ftz16, ftz32};
use crate::program::Op;
use crate::wave::Wave;
use risa_fp::{convert, fp16, fp32, fp64, Round};

/// The wave's two rounding modes.
#[derive(Clone, Copy)]
struct Rm {
    /// f32 results (MODE bits 1:0).
    s: Round,
    /// f64 and f16 results (MODE bits 3:2).
    d: Round,
}

/// A 2-bit FP_ROUND field.
pub(super) fn mode(bits: u32) -> Round {
    match bits & 3 {
        0 => Round::NearestEven,
        1 => Round::Up,
        2 => Round::Down,
        _ => Round::TowardZero,
    }
}

impl Rm {
    #[inline(always)]
    fn of(w: &Wave) -> Rm {
        Rm {
            s: mode(w.mode),
            d: mode(w.mode >> 2),
        }
    }
}

/// A half operand's bits, flushed when the f16 mode says so.
#[inline(always)]
fn h16(m: Fm, x: u64) -> u16 {
    let h = x as u16;
    if m.fi64 {
        ftz16(h)
    } else {
        h
    }
}

/// A half result, flushed when the f16 mode says so.
#[inline(always)]
fn o16(m: Fm, h: u16) -> u64 {
    u64::from(if m.fo64 { ftz16(h) } else { h })
}

/// v_mad_f32 / v_mac_f32: the product rounded and flushed, then the sum
/// (denormals flushed regardless of MODE, as in the default mode).
fn mad_r(a: f32, b: f32, c: f32, r: Round) -> f32 {
    let p = ftz32(fp32::mul(ftz32(a), ftz32(b), r));
    ftz32(fp32::add(p, ftz32(c), r))
}

/// The DX9 product (0 * anything = +0), rounded.
fn mul_legacy_r(a: f32, b: f32, r: Round) -> f32 {
    if a == 0.0 || b == 0.0 {
        mul_legacy(a, b)
    } else {
        fp32::mul(a, b, r)
    }
}

macro_rules! rounded {
    ($($name:ident: $helper:ident $(::<$($g:literal),*>)? |$m:ident, $r:ident; $($p:ident),*| $e:expr;)*) => {
        $(
            #[allow(unused_variables)]
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $m = Fm::of(w);
                let $r = Rm::of(w);
                $helper $(::<$($g),*>)? (w, op, #[inline(always)] move |$($p),*| $e)
            }
        )*
        pub(super) const ROUNDED: Table = &[$((Sem::$name, $name)),*];
    };
}

rounded! {
    // f32 arithmetic (MODE bits 1:0)
    v_add_f32: f32_2 |m, r; a, b| fp32::add(a, b, r.s);
    v_sub_f32: f32_2 |m, r; a, b| fp32::sub(a, b, r.s);
    v_subrev_f32: f32_2 |m, r; a, b| fp32::sub(b, a, r.s);
    v_mul_f32: f32_2 |m, r; a, b| fp32::mul(a, b, r.s);
    v_mul_legacy_f32: f32_2 |m, r; a, b| mul_legacy_r(a, b, r.s);
    v_mac_f32: f32_3 |m, r; a, b, c| mad_r(a, b, c, r.s);
    v_mad_f32: f32_3 |m, r; a, b, c| mad_r(a, b, c, r.s);
    v_madmk_f32: f32_k |m, r; a, b, k| mad_r(a, k, b, r.s);
    v_madak_f32: f32_k |m, r; a, b, k| mad_r(a, b, k, r.s);
    v_mac_legacy_f32: f32_3 |m, r; a, b, c| fp32::add(mul_legacy_r(a, b, r.s), c, r.s);
    v_mad_legacy_f32: f32_3 |m, r; a, b, c| fp32::add(mul_legacy_r(a, b, r.s), c, r.s);
    v_mullit_f32: f32_3 |m, r; a, b, c| if c > 0.0 { mul_legacy_r(a, b, r.s) } else { -f32::MAX };
    v_fma_f32: f32_3 |m, r; a, b, c| fp32::fma(a, b, c, r.s);
    v_ldexp_f32: f32_u32 |m, r; a, b| fp32::ldexp(a, b as i32, r.s);
    // conversions to f32 (bits 1:0) and to f16 (bits 3:2)
    v_cvt_f32_i32: u32_to_f32 |m, r; a| convert::i32_to_f32(a as i32, r.s);
    v_cvt_f32_u32: u32_to_f32 |m, r; a| convert::u32_to_f32(a, r.s);
    v_cvt_f32_f64: gen::<64, 0, 0, 32> |m, r; a, b, c| out32(m, convert::f64_to_f32(fl64(m, a), r.s));
    v_cvt_f16_f32: f32_to_half |m, r; a| o16(m, convert::f32_to_f16(a, r.d)) as u32;
    v_cvt_f16_u16: gen::<16, 0, 0, 16> |m, r; a, b, c| o16(m, convert::u32_to_f16(u32::from(a as u16), r.d));
    v_cvt_f16_i16: gen::<16, 0, 0, 16> |m, r; a, b, c| o16(m, convert::i32_to_f16(i32::from(a as u16 as i16), r.d));
    // f64 (bits 3:2)
    v_add_f64: gen::<64, 64, 0, 64> |m, r; a, b, c| out64(m, fp64::add(fl64(m, a), fl64(m, b), r.d));
    v_mul_f64: gen::<64, 64, 0, 64> |m, r; a, b, c| out64(m, fp64::mul(fl64(m, a), fl64(m, b), r.d));
    v_fma_f64: gen::<64, 64, 64, 64> |m, r; a, b, c| out64(m, fp64::fma(fl64(m, a), fl64(m, b), fl64(m, c), r.d));
    v_ldexp_f64: gen::<64, 32, 0, 64> |m, r; a, b, c| out64(m, fp64::ldexp(fl64(m, a), b as u32 as i32, r.d));
    // f16 (bits 3:2)
    v_add_f16: gen::<16, 16, 0, 16> |m, r; a, b, c| o16(m, fp16::add(h16(m, a), h16(m, b), r.d));
    v_sub_f16: gen::<16, 16, 0, 16> |m, r; a, b, c| o16(m, fp16::sub(h16(m, a), h16(m, b), r.d));
    v_subrev_f16: gen::<16, 16, 0, 16> |m, r; a, b, c| o16(m, fp16::sub(h16(m, b), h16(m, a), r.d));
    v_mul_f16: gen::<16, 16, 0, 16> |m, r; a, b, c| o16(m, fp16::mul(h16(m, a), h16(m, b), r.d));
    v_mac_f16: gen::<16, 16, 16, 16> |m, r; a, b, c| o16(m, fp16::add(fp16::mul(h16(m, a), h16(m, b), r.d), h16(m, c), r.d));
    v_mad_f16: gen::<16, 16, 16, 16> |m, r; a, b, c| o16(m, fp16::add(fp16::mul(h16(m, a), h16(m, b), r.d), h16(m, c), r.d));
    v_fma_f16: gen::<16, 16, 16, 16> |m, r; a, b, c| o16(m, fp16::fma(h16(m, a), h16(m, b), h16(m, c), r.d));
    v_ldexp_f16: gen::<16, 16, 0, 16> |m, r; a, b, c| o16(m, fp16::ldexp(h16(m, a), i32::from(b as u16 as i16), r.d));
}

fn v_madmk_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (m, r) = (Fm::of(w), Rm::of(w));
    let k = h16(m, u64::from(op.lit));
    gen::<16, 16, 0, 16>(w, op, move |a, b, _| {
        o16(m, fp16::add(fp16::mul(h16(m, a), k, r.d), h16(m, b), r.d))
    })
}

fn v_madak_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (m, r) = (Fm::of(w), Rm::of(w));
    let k = h16(m, u64::from(op.lit));
    gen::<16, 16, 0, 16>(w, op, move |a, b, _| {
        o16(m, fp16::add(fp16::mul(h16(m, a), h16(m, b), r.d), k, r.d))
    })
}

/// v_div_fmas_f32: the fma scaled by 2^±64 in lanes whose VCC bit is set,
/// rounded once (`sem::exact`).
fn v_div_fmas_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let r = Rm::of(w).s;
    div_fmas_f32(w, op, r)
}

/// v_div_fmas_f64 (see [`v_div_fmas_f32`]; the scale is 2^±128).
fn v_div_fmas_f64(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let r = Rm::of(w).d;
    div_fmas_f64(w, op, r)
}

/// A packed half result: CLAMP to [0, 1] (NaN to 0), then flushed per the f16 mode.
#[inline(always)]
fn pk_out(flush_out: bool, clamp: bool, h: u16) -> u32 {
    let h = if clamp {
        let v = f16_to_f32(h);
        if v.is_nan() {
            0
        } else {
            convert::f32_to_f16(v.clamp(0.0, 1.0), Round::NearestEven)
        }
    } else {
        h
    };
    u32::from(if flush_out { ftz16(h) } else { h })
}

macro_rules! packed_rounded {
    ($($name:ident: |$a:ident, $b:ident, $c:ident, $r:ident| $e:expr;)*) => {
        $(
            #[allow(unused_variables)]
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let (fi, fo, clamp) = (w.flush_in64(), w.flush_out64(), op.clamp);
                let $r = Rm::of(w).d;
                packed(w, op, true, move |x, y, z| {
                    let f = |v: u32| if fi { ftz16(v as u16) } else { v as u16 };
                    let ($a, $b, $c) = (f(x), f(y), f(z));
                    pk_out(fo, clamp, $e)
                })
            }
        )*
    };
}

packed_rounded! {
    v_pk_add_f16: |a, b, c, r| fp16::add(a, b, r);
    v_pk_mul_f16: |a, b, c, r| fp16::mul(a, b, r);
    v_pk_fma_f16: |a, b, c, r| fp16::fma(a, b, c, r);
}

/// v_mad_mix* (see `vop3p::mad_mix`): product and sum rounded in f32 by MODE
/// bits 1:0; the f16 forms round the f32 result to half by bits 3:2.
fn mad_mix(w: &mut Wave, op: &Op, dst_half: Option<bool>) -> R {
    let rm = Rm::of(w);
    super::vop3p::mix_with(
        w,
        op,
        dst_half,
        |a, b, c| f64::from(fp32::add(fp32::mul(a, b, rm.s), c, rm.s)),
        |r| r as f32,
        |r| convert::f32_to_f16(r as f32, rm.d),
    )
}

/// v_fma_mix* (see `vop3p::fma_mix`): one rounding, to f32 by MODE bits 1:0
/// or to f16 by bits 3:2.
fn fma_mix(w: &mut Wave, op: &Op, dst_half: Option<bool>) -> R {
    let rm = Rm::of(w);
    super::vop3p::mix_with(
        w,
        op,
        dst_half,
        super::vop3p::fma_odd,
        |r| convert::f64_to_f32(r, rm.s),
        |r| convert::f64_to_f16(r, rm.d),
    )
}

fn v_mad_mix_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, None)
}
fn v_mad_mixlo_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, Some(false))
}
fn v_mad_mixhi_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, Some(true))
}
fn v_fma_mix_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, None)
}
fn v_fma_mixlo_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, Some(false))
}
fn v_fma_mixhi_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, Some(true))
}
/// v_dot2_f32_f16: the exact sum rounded once by MODE bits 1:0.
fn v_dot2_f32_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let rm = Rm::of(w);
    super::vop3p::dot2_f32_with(w, op, |r| convert::f64_to_f32(r, rm.s))
}

pub(super) const SPECIAL: Table = &[
    (Sem::v_madmk_f16, v_madmk_f16),
    (Sem::v_madak_f16, v_madak_f16),
    (Sem::v_div_fmas_f32, v_div_fmas_f32),
    (Sem::v_div_fmas_f64, v_div_fmas_f64),
    (Sem::v_pk_add_f16, v_pk_add_f16),
    (Sem::v_pk_mul_f16, v_pk_mul_f16),
    (Sem::v_pk_fma_f16, v_pk_fma_f16),
    (Sem::v_mad_mix_f32, v_mad_mix_f32),
    (Sem::v_mad_mixlo_f16, v_mad_mixlo_f16),
    (Sem::v_mad_mixhi_f16, v_mad_mixhi_f16),
    (Sem::v_fma_mix_f32, v_fma_mix_f32),
    (Sem::v_fma_mixlo_f16, v_fma_mixlo_f16),
    (Sem::v_fma_mixhi_f16, v_fma_mixhi_f16),
    (Sem::v_dot2_f32_f16, v_dot2_f32_f16),
];
