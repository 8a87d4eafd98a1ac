//! Results that need one rounding of an exact value the host cannot form:
//! `(a * b + c) * 2^n`, as `v_div_fmas_*` computes it in lanes whose VCC bit
//! is set. Rounding the fma first and scaling after would round twice when
//! the scaled value lands below the normal range.
//!
//! The exact sum is formed on integers from `risa_fp::soft`'s unpacked
//! operands and rounded once by `soft::round_pack`.

use risa_fp::soft::{self, Fmt, Val, F32, F64};
use risa_fp::{fp32, fp64, Round};

/// Bit position of the leading one of a normalised significand (two bits of
/// headroom below bit 127 for the carry of an addition).
const TOP: u32 = 125;

/// A finite non-zero term `(-1)^sign * sig * 2^exp`.
type Term = (bool, i32, u128);

/// `t` with its leading one moved up to [`TOP`] (significands here have at
/// most 106 bits, so the shift is to the left and exact).
fn norm((s, e, m): Term) -> Term {
    let sh = m.leading_zeros() as i32 - (127 - TOP as i32);
    (s, e - sh, m << sh)
}

/// `(p + c) * 2^n` for finite non-zero terms, rounded once to `f`.
///
/// The smaller term is shifted right with everything it loses collapsed into
/// bit 0 ("sticky"); that bit lies far below the rounding position (the sum
/// keeps its top within one bit of [`TOP`] whenever the shift lost bits), so
/// it only decides the direction of an inexact result.
fn add_round(f: Fmt, p: Term, c: Term, n: i32, r: Round) -> u64 {
    let (p, c) = (norm(p), norm(c));
    let (big, small) = if (p.1, p.2) >= (c.1, c.2) {
        (p, c)
    } else {
        (c, p)
    };
    let d = (big.1 - small.1) as u32;
    let shifted = match d {
        0 => small.2,
        1..=127 => small.2 >> d | u128::from(small.2 & ((1u128 << d) - 1) != 0),
        _ => 1,
    };
    let m = if big.0 == small.0 {
        big.2 + shifted
    } else {
        big.2 - shifted
    };
    if m == 0 {
        // Exact cancellation: +0, or -0 when rounding toward -inf (IEEE 754 6.3).
        let sign = 1u64 << (f.ebits + f.mbits);
        return if r == Round::Down { sign } else { 0 };
    }
    soft::round_pack(f, big.0, big.1 + n, m, false, r)
}

/// `(a * b + c) * 2^n` rounded once to format `f` under `r` (operand and
/// result bits). NaN, infinity and zero operands follow `soft::fma`; the
/// scaling of such a result is exact.
pub fn fma_scaled(f: Fmt, a: u64, b: u64, c: u64, n: i32, r: Round) -> u64 {
    // Beyond ±4000 every format has long over- or underflowed.
    let n = n.clamp(-4000, 4000);
    match (soft::unpack(f, a), soft::unpack(f, b), soft::unpack(f, c)) {
        (Val::Fin(sa, ea, ma), Val::Fin(sb, eb, mb), vc) => {
            let p = (sa != sb, ea + eb, u128::from(ma) * u128::from(mb));
            match vc {
                Val::Fin(sc, ec, mc) => add_round(f, p, (sc, ec, u128::from(mc)), n, r),
                Val::Zero(_) => soft::round_pack(f, p.0, p.1 + n, p.2, false, r),
                // An infinite or NaN addend: the result is not scaled.
                _ => soft::fma(f, a, b, c, r),
            }
        }
        // A zero, infinite or NaN factor: the fma gives the addend itself, a
        // zero, an infinity or a NaN, all exact; only the scaling can round.
        _ => soft::ldexp(f, soft::fma(f, a, b, c, r), n, r),
    }
}

/// One lane of `v_div_fmas_f32`: `fma(x, y, z)`, scaled by 2^64 (when
/// |z| >= 2) or 2^-64 before its single rounding when `scale` (the lane's VCC bit).
#[inline]
pub fn div_fmas32(x: f32, y: f32, z: f32, scale: bool, r: Round) -> f32 {
    if scale {
        let n = if z.abs() >= 2.0 { 64 } else { -64 };
        let bits = fma_scaled(
            F32,
            x.to_bits().into(),
            y.to_bits().into(),
            z.to_bits().into(),
            n,
            r,
        );
        f32::from_bits(bits as u32)
    } else if r == Round::NearestEven {
        x.mul_add(y, z)
    } else {
        fp32::fma(x, y, z, r)
    }
}

/// One lane of `v_div_fmas_f64` (see [`div_fmas32`]; the scale is 2^±128).
#[inline]
pub fn div_fmas64(x: f64, y: f64, z: f64, scale: bool, r: Round) -> f64 {
    if scale {
        let n = if z.abs() >= 2.0 { 128 } else { -128 };
        f64::from_bits(fma_scaled(F64, x.to_bits(), y.to_bits(), z.to_bits(), n, r))
    } else if r == Round::NearestEven {
        x.mul_add(y, z)
    } else {
        fp64::fma(x, y, z, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without scaling (n = 0) the result is the correctly rounded fma.
    #[test]
    fn unscaled_is_the_fma() {
        let vals = [
            1.0f64,
            -1.5,
            3.0e-308,
            f64::MIN_POSITIVE,
            1.0 + f64::EPSILON,
            -7.25e200,
            4.9e-324,
            0.1,
            -0.3,
            1e16,
        ];
        for &a in &vals {
            for &b in &vals {
                for &c in &vals {
                    for r in [
                        Round::NearestEven,
                        Round::Up,
                        Round::Down,
                        Round::TowardZero,
                    ] {
                        let want = fp64::fma(a, b, c, r).to_bits();
                        let got = fma_scaled(F64, a.to_bits(), b.to_bits(), c.to_bits(), 0, r);
                        assert_eq!(got, want, "{a:e} * {b:e} + {c:e} {r:?}");
                        let (x, y, z) = (a as f32, b as f32, c as f32);
                        let want = fp32::fma(x, y, z, r).to_bits();
                        let bits = fma_scaled(
                            F32,
                            x.to_bits().into(),
                            y.to_bits().into(),
                            z.to_bits().into(),
                            0,
                            r,
                        );
                        assert_eq!(bits as u32, want, "{x:e} * {y:e} + {z:e} {r:?}");
                    }
                }
            }
        }
    }
}
