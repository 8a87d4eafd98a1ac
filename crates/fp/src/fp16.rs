//! binary16 operations under a rounding mode, on the values' `u16` bits.
//! All go through the exact integer path ([`crate::soft`]).

use crate::soft::{self, F16};
use crate::Round;

/// `a + b`.
#[inline]
pub fn add(a: u16, b: u16, r: Round) -> u16 {
    soft::add(F16, a.into(), b.into(), r) as u16
}

/// `a - b`.
#[inline]
pub fn sub(a: u16, b: u16, r: Round) -> u16 {
    let nan = b & 0x7c00 == 0x7c00 && b & 0x3ff != 0;
    add(a, if nan { b } else { b ^ 0x8000 }, r)
}

/// `a * b`.
#[inline]
pub fn mul(a: u16, b: u16, r: Round) -> u16 {
    soft::mul(F16, a.into(), b.into(), r) as u16
}

/// `a * b + c` with one rounding.
#[inline]
pub fn fma(a: u16, b: u16, c: u16, r: Round) -> u16 {
    soft::fma(F16, a.into(), b.into(), c.into(), r) as u16
}

/// `a / b`.
#[inline]
pub fn div(a: u16, b: u16, r: Round) -> u16 {
    soft::div(F16, a.into(), b.into(), r) as u16
}

/// `sqrt(a)`.
#[inline]
pub fn sqrt(a: u16, r: Round) -> u16 {
    soft::sqrt(F16, a.into(), r) as u16
}

/// `a * 2^n` (inexact only when the result is below the normal range).
#[inline]
pub fn ldexp(a: u16, n: i32, r: Round) -> u16 {
    soft::ldexp(F16, a.into(), n, r) as u16
}
