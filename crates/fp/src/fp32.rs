//! binary32 operations under a rounding mode.
//!
//! Each operation is computed in f64, where f32 operands leave room for the
//! exact error (a product of two f32 is exact, a sum's error comes from
//! TwoSum, a quotient's or root's from a fused multiply-add residual), then
//! narrowed to f32 with the error deciding the direction. Operands that are
//! zero, infinite or NaN go to [`crate::soft`], whose rules do not depend on
//! the host.

use crate::soft::{self, F32};
use crate::step::{directed, sign_of, two_sum, zero_sum_neg};
use crate::Round;
use std::cmp::Ordering;

/// Narrows `s + t` to f32 under a directed mode, where `s = RN64(s + t)`.
#[inline]
fn narrow(s: f64, t: f64, r: Round) -> f32 {
    let n = s as f32;
    let nd = f64::from(n);
    let side = if nd != s {
        if s > nd {
            Ordering::Greater
        } else {
            Ordering::Less
        }
    } else {
        sign_of(t)
    };
    f32::from_bits(directed(F32, u64::from(n.to_bits()), side, r) as u32)
}

/// `s + t` rounded to odd in f64: truncated toward zero, the last bit set
/// when anything was dropped (`s = RN64(s + t)`, `s` not zero).
#[inline]
fn odd(s: f64, t: f64) -> f64 {
    if t == 0.0 {
        return s;
    }
    let b = s.to_bits();
    let toward_zero = if (t > 0.0) == (s > 0.0) { b } else { b - 1 };
    f64::from_bits(toward_zero | 1)
}

#[inline(always)]
fn normal_operands(a: f32, b: f32) -> bool {
    a.is_finite() && b.is_finite() && a != 0.0 && b != 0.0
}

#[inline(always)]
fn via_soft2(f: fn(soft::Fmt, u64, u64, Round) -> u64, a: f32, b: f32, r: Round) -> f32 {
    f32::from_bits(f(F32, a.to_bits().into(), b.to_bits().into(), r) as u32)
}

/// `a + b`.
#[inline]
pub fn add(a: f32, b: f32, r: Round) -> f32 {
    if r == Round::NearestEven {
        let n = a + b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::add, a, b, r);
    }
    if !normal_operands(a, b) {
        return via_soft2(soft::add, a, b, r);
    }
    let (s, t) = two_sum(f64::from(a), f64::from(b));
    if s == 0.0 {
        let neg = zero_sum_neg(a < 0.0, b < 0.0, false, r);
        return if neg { -0.0 } else { 0.0 };
    }
    narrow(s, t, r)
}

/// `a - b`.
#[inline]
pub fn sub(a: f32, b: f32, r: Round) -> f32 {
    add(a, if b.is_nan() { b } else { -b }, r)
}

/// `a * b`.
#[inline]
pub fn mul(a: f32, b: f32, r: Round) -> f32 {
    if r == Round::NearestEven {
        let n = a * b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::mul, a, b, r);
    }
    if !normal_operands(a, b) {
        return via_soft2(soft::mul, a, b, r);
    }
    narrow(f64::from(a) * f64::from(b), 0.0, r)
}

/// `a * b + c` with one rounding.
#[inline]
pub fn fma(a: f32, b: f32, c: f32, r: Round) -> f32 {
    if !(normal_operands(a, b) && c.is_finite() && c != 0.0) {
        let bits = soft::fma(
            F32,
            a.to_bits().into(),
            b.to_bits().into(),
            c.to_bits().into(),
            r,
        );
        return f32::from_bits(bits as u32);
    }
    // The product is exact in f64; the sum's error comes from TwoSum.
    let p = f64::from(a) * f64::from(b);
    let (s, t) = two_sum(p, f64::from(c));
    if s == 0.0 {
        let neg = zero_sum_neg(p < 0.0, c < 0.0, false, r);
        return if neg { -0.0 } else { 0.0 };
    }
    if r == Round::NearestEven {
        // Round to odd in f64 (53 bits >= 24 + 2), then to nearest f32: one
        // correct rounding.
        return odd(s, t) as f32;
    }
    narrow(s, t, r)
}

/// `a / b`.
#[inline]
pub fn div(a: f32, b: f32, r: Round) -> f32 {
    if r == Round::NearestEven {
        let n = a / b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::div, a, b, r);
    }
    if !normal_operands(a, b) {
        return via_soft2(soft::div, a, b, r);
    }
    let (x, y) = (f64::from(a), f64::from(b));
    let q = x / y;
    // x - q*y exactly; the exact quotient lies on that side of q times sign(y).
    let res = (-q).mul_add(y, x);
    let t = if y < 0.0 { -res } else { res };
    narrow(q, t, r)
}

/// `sqrt(a)`.
#[inline]
pub fn sqrt(a: f32, r: Round) -> f32 {
    if r == Round::NearestEven && !a.is_nan() && a >= 0.0 {
        return a.sqrt();
    }
    if !(a.is_finite() && a > 0.0) {
        return f32::from_bits(soft::sqrt(F32, a.to_bits().into(), r) as u32);
    }
    let x = f64::from(a);
    let q = x.sqrt();
    narrow(q, (-q).mul_add(q, x), r)
}

/// `a * 2^n` (inexact only when the result is below the normal range).
#[inline]
pub fn ldexp(a: f32, n: i32, r: Round) -> f32 {
    f32::from_bits(soft::ldexp(F32, a.to_bits().into(), n, r) as u32)
}
