//! Conversions between the formats and from integers, under a rounding mode.
//! Widening conversions are exact and take no mode. Float-to-integer
//! conversions are not here: they truncate (or use their own fixed rule)
//! whatever the mode, and their saturation rules belong to each machine.
//!
//! NaNs keep their sign and the top bits of their payload, quieted.

use crate::soft::{self, F16, F32, F64};
use crate::step::directed;
use crate::Round;
use std::cmp::Ordering;

/// f64 to f32.
#[inline]
pub fn f64_to_f32(x: f64, r: Round) -> f32 {
    if !x.is_finite() {
        return f32::from_bits(soft::convert(F64, F32, x.to_bits(), r) as u32);
    }
    let n = x as f32;
    if r == Round::NearestEven {
        return n;
    }
    let nd = f64::from(n);
    let side = x.partial_cmp(&nd).unwrap_or(Ordering::Equal);
    f32::from_bits(directed(F32, u64::from(n.to_bits()), side, r) as u32)
}

/// f64 to half bits.
#[inline]
pub fn f64_to_f16(x: f64, r: Round) -> u16 {
    soft::convert(F64, F16, x.to_bits(), r) as u16
}

/// f32 to half bits.
#[inline]
pub fn f32_to_f16(x: f32, r: Round) -> u16 {
    soft::convert(F32, F16, x.to_bits().into(), r) as u16
}

/// Half bits to f32 (exact).
#[inline]
pub fn f16_to_f32(h: u16) -> f32 {
    f32::from_bits(soft::convert(F16, F32, h.into(), Round::NearestEven) as u32)
}

/// Half bits to f64 (exact).
#[inline]
pub fn f16_to_f64(h: u16) -> f64 {
    f64::from_bits(soft::convert(F16, F64, h.into(), Round::NearestEven))
}

macro_rules! int_to {
    ($($name:ident: $t:ty => $out:ty, $fmt:expr, $bits:ident;)*) => {
        $(
            #[doc = concat!("`", stringify!($t), "` to `", stringify!($out), "`.")]
            #[inline]
            pub fn $name(x: $t, r: Round) -> $out {
                #[allow(unused_comparisons)]
                let neg = x < 0;
                let mag = (x as i128).unsigned_abs() as u64;
                int_to!(@out $bits, soft::from_int($fmt, neg, mag, r))
            }
        )*
    };
    (@out f16, $e:expr) => { $e as u16 };
}

/// An integer to f32/f64: the host's nearest-even conversion, then one step
/// toward the mode's direction when the exact integer (compared in i128) lies
/// on that side.
macro_rules! int_to_host {
    ($($name:ident: $t:ty => $out:ty, $fmt:expr;)*) => {
        $(
            #[doc = concat!("`", stringify!($t), "` to `", stringify!($out), "`.")]
            #[inline]
            pub fn $name(x: $t, r: Round) -> $out {
                let n = x as $out;
                if r == Round::NearestEven {
                    return n;
                }
                // |n| <= 2^64: exact in i128 (the float-to-int cast saturates only beyond).
                let side = (x as i128).cmp(&(n as i128));
                <$out>::from_bits(directed($fmt, u64::from(n.to_bits()), side, r) as _)
            }
        )*
    };
}

int_to_host! {
    i32_to_f32: i32 => f32, F32;
    u32_to_f32: u32 => f32, F32;
    i64_to_f32: i64 => f32, F32;
    u64_to_f32: u64 => f32, F32;
    i64_to_f64: i64 => f64, F64;
    u64_to_f64: u64 => f64, F64;
}

int_to! {
    i32_to_f16: i32 => u16, F16, f16;
    u32_to_f16: u32 => u16, F16, f16;
}
