//! Correctly rounded binary16, binary32 and binary64 arithmetic and
//! conversions under the four IEEE 754 rounding-direction attributes, for
//! emulators of GPUs whose mode registers select a rounding mode (GCN's
//! MODE.FP_ROUND, Cayman's SET_MODE) on hosts whose float unit is left in
//! round-to-nearest-even.
//!
//! Every function returns the result IEEE 754-2008 defines for the operation
//! under [`Round`]: the exact result rounded once, overflow to infinity or to
//! the largest finite value when the mode rounds toward zero from that side,
//! exact zero sums +0 (-0 under [`Round::Down`]). Nothing is flushed:
//! denormal inputs and outputs are IEEE gradual underflow, and flushing (where
//! a machine does it) is the caller's job, before and after the call.
//!
//! NaN results: the first NaN operand (in argument order) with its quiet bit
//! set; for an invalid operation (inf - inf, 0 * inf, 0/0, inf/inf, sqrt of a
//! negative number) the "default NaN" with the sign bit set (x86 SSE's
//! indefinite: 0xffc00000, 0xfff8000000000000, 0xfe00), on every host.
//! Under [`Round::NearestEven`] the f32 and f64 functions are the host's own
//! operations except when the result is NaN, which is recomputed by these
//! rules (hosts and compilers differ in which NaN operand they return).
//!
//! Half-precision values travel as their `u16` bits.
//!
//! How: f32 operations are computed in f64 where the exact error is available
//! (the product of two f32 is exact in f64; a sum's error comes from TwoSum; a
//! quotient's or root's residual from one fused multiply-add), and the
//! round-to-nearest result is stepped by one unit toward the requested
//! direction when the error says the exact value lies on that side. f64 add,
//! mul, div and sqrt do the same in f64 where no underflow or overflow can
//! spoil the error term; everything else (fma, f16, conversions to f16, the
//! edge ranges) goes through an exact integer implementation ([`soft`]).

#![warn(missing_docs)]

pub mod convert;
pub mod fp16;
pub mod fp32;
pub mod fp64;
pub mod soft;
mod step;

/// An IEEE 754 rounding-direction attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Round {
    /// roundTiesToEven (the default).
    #[default]
    NearestEven,
    /// roundTowardPositive.
    Up,
    /// roundTowardNegative.
    Down,
    /// roundTowardZero.
    TowardZero,
}

impl Round {
    /// All four modes, for tests and tables.
    pub const ALL: [Round; 4] = [
        Round::NearestEven,
        Round::Up,
        Round::Down,
        Round::TowardZero,
    ];
}
