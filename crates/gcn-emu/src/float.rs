//! Floating-point helpers with the hardware's rules: denormal flushing,
//! IEEE-mode minimum/maximum, half-precision conversion (round to nearest
//! even), class masks, and the divide helpers.
//!
//! Rust's `f32`/`f64` arithmetic is IEEE 754 with round-to-nearest-even and
//! denormals, which is what GCN computes in its default mode; the MODE
//! register's flush settings are applied around it by the callers.

/// Whether the f32 bit pattern is a denormal (non-zero, exponent 0).
#[inline(always)]
pub fn is_denorm32(b: u32) -> bool {
    b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0
}

/// Flushes an f32 denormal to a zero of the same sign.
#[inline(always)]
pub fn ftz32(x: f32) -> f32 {
    let b = x.to_bits();
    if is_denorm32(b) {
        f32::from_bits(b & 0x8000_0000)
    } else {
        x
    }
}

/// Flushes an f64 denormal to a zero of the same sign.
#[inline(always)]
pub fn ftz64(x: f64) -> f64 {
    let b = x.to_bits();
    if b & 0x7ff0_0000_0000_0000 == 0 && b & 0x000f_ffff_ffff_ffff != 0 {
        f64::from_bits(b & 0x8000_0000_0000_0000)
    } else {
        x
    }
}

/// Flushes a half denormal to a zero of the same sign.
#[inline(always)]
pub fn ftz16(h: u16) -> u16 {
    if h & 0x7c00 == 0 {
        h & 0x8000
    } else {
        h
    }
}

/// Quiets a signalling NaN (sets the top mantissa bit); other values pass.
#[inline(always)]
pub fn quiet32(x: f32) -> f32 {
    if x.is_nan() {
        f32::from_bits(x.to_bits() | 0x0040_0000)
    } else {
        x
    }
}

/// Quiets an f64 signalling NaN.
#[inline(always)]
pub fn quiet64(x: f64) -> f64 {
    if x.is_nan() {
        f64::from_bits(x.to_bits() | 0x0008_0000_0000_0000)
    } else {
        x
    }
}

/// IEEE 754-2008 minNum as GCN computes it in IEEE mode: a quiet NaN operand
/// loses to a number, a signalling NaN gives a quiet NaN, and -0 < +0.
#[inline(always)]
pub fn min_num(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return pick_nan(a, b);
    }
    if a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// IEEE maxNum, the mirror of [`min_num`] (+0 > -0).
#[inline(always)]
pub fn max_num(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return pick_nan(a, b);
    }
    if a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// The minNum/maxNum result when at least one operand is NaN (f64 view).
fn pick_nan(a: f64, b: f64) -> f64 {
    let snan = |x: f64| x.is_nan() && x.to_bits() & 0x0008_0000_0000_0000 == 0;
    if snan(a) {
        quiet64(a)
    } else if snan(b) {
        quiet64(b)
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

/// f32 minNum with f32 signalling-NaN detection.
#[inline(always)]
pub fn min32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return pick_nan32(a, b);
    }
    if a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// f32 maxNum.
#[inline(always)]
pub fn max32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return pick_nan32(a, b);
    }
    if a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

fn pick_nan32(a: f32, b: f32) -> f32 {
    let snan = |x: f32| x.is_nan() && x.to_bits() & 0x0040_0000 == 0;
    if snan(a) {
        quiet32(a)
    } else if snan(b) {
        quiet32(b)
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

/// Median of three (v_med3_f32): NaN operands resolved like min/max.
pub fn med3_32(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return min32(min32(a, b), c);
    }
    let mx = max32(max32(a, b), c);
    if mx == a {
        max32(b, c)
    } else if mx == b {
        max32(a, c)
    } else {
        max32(a, b)
    }
}

/// Half (binary16) bits to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from(h >> 10) & 0x1f;
    let man = u32::from(h & 0x3ff);
    let bits = match exp {
        0 if man == 0 => sign,
        0 => {
            // Denormal: value = man * 2^-24, exact in f32.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        31 => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// f64 to half bits, rounding to nearest even (one rounding step).
pub fn f64_to_f16(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let a = x.abs();
    if a.is_nan() {
        return sign | 0x7e00 | ((b >> 42) & 0x1ff) as u16;
    }
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 6.103_515_625e-5 {
        // Below the smallest normal: a multiple of 2^-24, rounded.
        let q = (a * 16_777_216.0).round_ties_even();
        return sign | q as u16;
    }
    let e = ((a.to_bits() >> 52) as i32) - 1023;
    let m = (a * 2f64.powi(10 - e)).round_ties_even() as u32; // in [1024, 2048]
    sign | ((((e + 15) as u32) << 10) + (m - 1024)) as u16
}

/// f32 to half bits, rounding to nearest even.
#[inline]
pub fn f32_to_f16(x: f32) -> u16 {
    f64_to_f16(f64::from(x))
}

/// f32 to half bits, rounding toward zero (v_cvt_pkrtz_f16_f32).
pub fn f32_to_f16_rtz(x: f32) -> u16 {
    let h = f32_to_f16(x);
    if x.is_nan() || x.is_infinite() {
        return h;
    }
    let back = f16_to_f32(h);
    if back.abs() > x.abs() {
        // Rounded away from zero: step one unit toward zero (0x7c00 → 0x7bff too).
        h - 1
    } else {
        h
    }
}

/// The v_cmp_class mask bit of an f64 value: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
pub fn class64(x: f64) -> u32 {
    let b = x.to_bits();
    let neg = b >> 63 != 0;
    let exp = (b >> 52) & 0x7ff;
    let man = b & 0x000f_ffff_ffff_ffff;
    let bit = if exp == 0x7ff {
        if man == 0 {
            if neg {
                2
            } else {
                9
            }
        } else if man & 0x0008_0000_0000_0000 != 0 {
            1
        } else {
            0
        }
    } else if exp == 0 {
        match (man == 0, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// The class bit of an f32 (see [`class64`]); the f32 is classified by its own format.
pub fn class32(x: f32) -> u32 {
    let b = x.to_bits();
    let neg = b >> 31 != 0;
    let exp = (b >> 23) & 0xff;
    let man = b & 0x7f_ffff;
    let bit = if exp == 0xff {
        if man == 0 {
            if neg {
                2
            } else {
                9
            }
        } else if man & 0x40_0000 != 0 {
            1
        } else {
            0
        }
    } else if exp == 0 {
        match (man == 0, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// The class bit of a half.
pub fn class16(h: u16) -> u32 {
    let neg = h >> 15 != 0;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    let bit = if exp == 0x1f {
        if man == 0 {
            if neg {
                2
            } else {
                9
            }
        } else if man & 0x200 != 0 {
            1
        } else {
            0
        }
    } else if exp == 0 {
        match (man == 0, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

/// frexp exponent as GCN returns it (0 for NaN, infinity and zero).
pub fn frexp_exp64(x: f64) -> i32 {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let (_, e) = frexp64(x);
    e
}

/// frexp mantissa as GCN returns it (NaN and infinity pass through, quieted).
pub fn frexp_mant64(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return quiet64(x);
    }
    frexp64(x).0
}

/// `x = m * 2^e` with 0.5 <= |m| < 1, for finite non-zero x.
pub fn frexp64(x: f64) -> (f64, i32) {
    let mut b = x.to_bits();
    let mut adj = 0;
    if (b >> 52) & 0x7ff == 0 {
        // Denormal: scale into the normal range first.
        b = (x * 2f64.powi(64)).to_bits();
        adj = -64;
    }
    let e = ((b >> 52) & 0x7ff) as i32 - 1022 + adj;
    let m = f64::from_bits((b & !(0x7ff << 52)) | (1022u64 << 52));
    (m, e)
}

/// `x * 2^n`, correctly rounded (via two steps so intermediate powers stay finite).
pub fn ldexp64(x: f64, n: i32) -> f64 {
    let n = n.clamp(-2200, 2200);
    let mut r = x;
    let mut k = n;
    while k > 1000 {
        r *= 2f64.powi(1000);
        k -= 1000;
    }
    while k < -1000 {
        // Stay above the denormal range until the last step to round once.
        r *= 2f64.powi(-1000);
        k += 1000;
    }
    r * 2f64.powi(k)
}

/// `x * 2^n` in f32, correctly rounded (f64 holds every intermediate exactly).
pub fn ldexp32(x: f32, n: i32) -> f32 {
    let n = n.clamp(-400, 400);
    (f64::from(x) * 2f64.powi(n)) as f32
}

/// v_div_fixup for f32: quotient `q`, denominator `d`, numerator `n`
/// (CLRX GcnInstrsVop3.md, V_DIV_FIXUP_F32).
pub fn div_fixup32(q: f32, d: f32, n: f32) -> f32 {
    let sign_neg = d.is_sign_negative() != n.is_sign_negative();
    let inf = if sign_neg {
        f32::NEG_INFINITY
    } else {
        f32::INFINITY
    };
    if d.is_nan() && !n.is_nan() {
        quiet32(d)
    } else if n.is_nan() {
        quiet32(n)
    } else if (d == 0.0 && n == 0.0) || (d.is_infinite() && n.is_infinite()) {
        f32::from_bits(0xffc0_0000)
    } else if d == 0.0 || n.is_infinite() {
        inf
    } else if d.is_infinite() || n == 0.0 {
        if sign_neg {
            -0.0
        } else {
            0.0
        }
    } else if q.is_nan() {
        inf
    } else if sign_neg {
        -q.abs()
    } else {
        q.abs()
    }
}

/// v_div_fixup for f64 (see [`div_fixup32`]).
pub fn div_fixup64(q: f64, d: f64, n: f64) -> f64 {
    let sign_neg = d.is_sign_negative() != n.is_sign_negative();
    let inf = if sign_neg {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    if d.is_nan() && !n.is_nan() {
        quiet64(d)
    } else if n.is_nan() {
        quiet64(n)
    } else if (d == 0.0 && n == 0.0) || (d.is_infinite() && n.is_infinite()) {
        f64::from_bits(0xfff8_0000_0000_0000)
    } else if d == 0.0 || n.is_infinite() {
        inf
    } else if d.is_infinite() || n == 0.0 {
        if sign_neg {
            -0.0
        } else {
            0.0
        }
    } else if q.is_nan() {
        inf
    } else if sign_neg {
        -q.abs()
    } else {
        q.abs()
    }
}

/// Biased exponent of an f64.
#[inline]
fn bexp64(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32
}

/// v_div_scale: `s0` (the value to scale: the denominator or the numerator),
/// `s1` denominator, `s2` numerator, in f64 with the format's exponent bias,
/// mantissa bits and scale. Returns (result, vcc bit).
///
/// The rules are those of AMD's later ISA documents (which spell out the
/// pseudo-code the GCN documents only describe): scale by 2^±64 (f32) or
/// 2^±128 (f64) when the quotient or the reciprocal would leave the normal range.
pub fn div_scale(s0: f64, s1: f64, s2: f64, f64_fmt: bool) -> (f64, bool) {
    let (thr, mant, scale) = if f64_fmt {
        (768, 52, 128)
    } else {
        (96, 23, 64)
    };
    let e = |x: f64| -> i32 {
        if f64_fmt {
            bexp64(x)
        } else {
            ((((x as f32).to_bits()) >> 23) & 0xff) as i32
        }
    };
    let is_denorm = |x: f64| -> bool {
        if f64_fmt {
            x != 0.0 && bexp64(x) == 0
        } else {
            let b = (x as f32).to_bits();
            is_denorm32(b)
        }
    };
    let round = |x: f64| -> f64 {
        if f64_fmt {
            x
        } else {
            f64::from(x as f32)
        }
    };
    if s2 == 0.0 || s1 == 0.0 {
        return (f64::NAN, false);
    }
    if s0.is_nan() || s1.is_nan() || s2.is_nan() {
        return (f64::NAN, false);
    }
    let sc = |x: f64, n: i32| round(ldexp64(x, n));
    if e(s2) - e(s1) >= thr {
        // The quotient would overflow: scale the denominator up.
        return (if s0 == s1 { sc(s0, scale) } else { s0 }, true);
    }
    if is_denorm(s1) {
        return (sc(s0, scale), false);
    }
    let rcp = round(1.0 / s1);
    let quo = round(s2 / s1);
    if is_denorm(rcp) && is_denorm(quo) {
        return (if s0 == s1 { sc(s0, scale) } else { s0 }, true);
    }
    if is_denorm(rcp) {
        return (sc(s0, -scale), false);
    }
    if is_denorm(quo) {
        return (if s0 == s2 { sc(s0, scale) } else { s0 }, true);
    }
    if e(s2) <= mant {
        return (sc(s0, scale), false);
    }
    (s0, false)
}
