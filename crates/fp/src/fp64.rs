//! binary64 operations under a rounding mode.
//!
//! add, mul, div and sqrt take the host's round-to-nearest result and its
//! exact error (TwoSum, or a fused multiply-add residual) and step one unit
//! toward the requested direction when the error says so. Where the error
//! term could underflow or the result overflow (operands or results outside
//! 2^±900), and for fma, the exact integer path [`crate::soft`] is used.

use crate::soft::{self, F64};
use crate::step::{directed, sign_of, two_sum, zero_sum_neg};
use crate::Round;

/// |x| within [2^-900, 2^900]: no error term computed from it can underflow
/// and no result of one operation on two such values can overflow... unless
/// it is a product or quotient, which the callers check separately.
#[inline(always)]
fn mid(x: f64) -> bool {
    let e = (x.to_bits() >> 52) & 0x7ff;
    (1023 - 900..=1023 + 900).contains(&e)
}

#[inline(always)]
fn via_soft2(f: fn(soft::Fmt, u64, u64, Round) -> u64, a: f64, b: f64, r: Round) -> f64 {
    f64::from_bits(f(F64, a.to_bits(), b.to_bits(), r))
}

#[inline(always)]
fn step(n: f64, t: f64, r: Round) -> f64 {
    f64::from_bits(directed(F64, n.to_bits(), sign_of(t), r))
}

/// `a + b`.
#[inline]
pub fn add(a: f64, b: f64, r: Round) -> f64 {
    if r == Round::NearestEven {
        let n = a + b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::add, a, b, r);
    }
    if !(a.is_finite() && b.is_finite()) || a == 0.0 || b == 0.0 {
        return via_soft2(soft::add, a, b, r);
    }
    let (s, t) = two_sum(a, b);
    if !s.is_finite() {
        return via_soft2(soft::add, a, b, r);
    }
    if s == 0.0 {
        let neg = zero_sum_neg(a < 0.0, b < 0.0, false, r);
        return if neg { -0.0 } else { 0.0 };
    }
    step(s, t, r)
}

/// `a - b`.
#[inline]
pub fn sub(a: f64, b: f64, r: Round) -> f64 {
    add(a, if b.is_nan() { b } else { -b }, r)
}

/// `a * b`.
#[inline]
pub fn mul(a: f64, b: f64, r: Round) -> f64 {
    if r == Round::NearestEven {
        let n = a * b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::mul, a, b, r);
    }
    let p = a * b;
    if !(mid(a) && mid(b) && mid(p)) {
        return via_soft2(soft::mul, a, b, r);
    }
    step(p, a.mul_add(b, -p), r)
}

/// `a * b + c` with one rounding.
#[inline]
pub fn fma(a: f64, b: f64, c: f64, r: Round) -> f64 {
    f64::from_bits(soft::fma(F64, a.to_bits(), b.to_bits(), c.to_bits(), r))
}

/// `a / b`.
#[inline]
pub fn div(a: f64, b: f64, r: Round) -> f64 {
    if r == Round::NearestEven {
        let n = a / b;
        if !n.is_nan() {
            return n;
        }
        // NaN bits by this crate's rule, not the host's.
        return via_soft2(soft::div, a, b, r);
    }
    let q = a / b;
    if !(mid(a) && mid(b) && mid(q)) {
        return via_soft2(soft::div, a, b, r);
    }
    let res = (-q).mul_add(b, a);
    step(q, if b < 0.0 { -res } else { res }, r)
}

/// `sqrt(a)`.
#[inline]
pub fn sqrt(a: f64, r: Round) -> f64 {
    if r == Round::NearestEven && !a.is_nan() && a >= 0.0 {
        return a.sqrt();
    }
    if !(mid(a) && a > 0.0) {
        return f64::from_bits(soft::sqrt(F64, a.to_bits(), r));
    }
    let q = a.sqrt();
    step(q, (-q).mul_add(q, a), r)
}

/// `a * 2^n` (inexact only when the result is below the normal range).
#[inline]
pub fn ldexp(a: f64, n: i32, r: Round) -> f64 {
    f64::from_bits(soft::ldexp(F64, a.to_bits(), n, r))
}
