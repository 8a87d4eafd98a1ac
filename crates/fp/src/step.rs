//! Turning a round-to-nearest result into a directed one: the host computed
//! `n`, the nearest representable value, and knows on which side of `n` the
//! exact result lies; under a directed mode the answer is `n` or its
//! neighbour on that side.

use crate::soft::Fmt;
use crate::Round;
use std::cmp::Ordering;

/// The next representable value above (`up`) or below `x` (bits of format
/// `f`; `x` is not NaN, and not the infinity in the direction of the step).
#[inline]
pub fn neighbour(f: Fmt, x: u64, up: bool) -> u64 {
    let sign = 1u64 << (f.ebits + f.mbits);
    let mag = x & !sign;
    if mag == 0 {
        // ±0: the smallest denormal of the direction's sign.
        return if up { 1 } else { sign | 1 };
    }
    let neg = x & sign != 0;
    if neg == up {
        x - 1 // toward zero
    } else {
        x + 1 // away from zero
    }
}

/// The result under `r` when the exact value compares to the nearest
/// representable `n` as `side` (`Greater`: the exact value is above `n`).
/// `r` must not be [`Round::NearestEven`] unless `side` is `Equal`.
#[inline]
pub fn directed(f: Fmt, n: u64, side: Ordering, r: Round) -> u64 {
    let neg = n >> (f.ebits + f.mbits) & 1 != 0;
    let up = match (r, side) {
        (_, Ordering::Equal) | (Round::NearestEven, _) => return n,
        (Round::Up, Ordering::Greater) => true,
        (Round::Down, Ordering::Less) => false,
        (Round::TowardZero, Ordering::Greater) if neg => true,
        (Round::TowardZero, Ordering::Less) if !neg => false,
        _ => return n,
    };
    neighbour(f, n, up)
}

/// The side of zero `t` is on (the sign of an exact error term).
#[inline(always)]
pub fn sign_of(t: f64) -> Ordering {
    if t > 0.0 {
        Ordering::Greater
    } else if t < 0.0 {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// TwoSum: `s = RN(a + b)` and the exact error `a + b - s` (no overflow).
#[inline(always)]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, err)
}

/// The sign a zero sum of `a` and `b` (both ±0 or exact opposites) has under `r`.
#[inline(always)]
pub fn zero_sum_neg(a_neg: bool, b_neg: bool, both_zero: bool, r: Round) -> bool {
    if both_zero && a_neg == b_neg {
        a_neg
    } else {
        r == Round::Down
    }
}
