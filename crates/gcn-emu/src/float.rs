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

/// What the IEEE-mode helpers below need of f32 and f64, so each rule is
/// written once for both widths (the calls inline to the same code).
trait Ieee: Copy + PartialOrd + core::ops::Neg<Output = Self> {
    const ZERO: Self;
    const INF: Self;
    /// The default quiet NaN the hardware returns for invalid operations.
    const DEFAULT_NAN: Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn abs(self) -> Self;
    /// Sets the top mantissa bit of a NaN.
    fn quiet(self) -> Self;
    /// A NaN with the top mantissa bit clear.
    fn is_snan(self) -> bool;
}

macro_rules! impl_ieee {
    ($t:ty, $quiet_bit:expr, $default_nan:expr, $quiet:ident) => {
        impl Ieee for $t {
            const ZERO: Self = 0.0;
            const INF: Self = <$t>::INFINITY;
            const DEFAULT_NAN: Self = <$t>::from_bits($default_nan);
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            #[inline(always)]
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn quiet(self) -> Self {
                $quiet(self)
            }
            #[inline(always)]
            fn is_snan(self) -> bool {
                <$t>::is_nan(self) && self.to_bits() & $quiet_bit == 0
            }
        }
    };
}

impl_ieee!(f32, 0x0040_0000, 0xffc0_0000, quiet32);
impl_ieee!(f64, 0x0008_0000_0000_0000, 0xfff8_0000_0000_0000, quiet64);

/// IEEE 754-2008 minNum as GCN computes it in IEEE mode: a quiet NaN operand
/// loses to a number, a signalling NaN gives a quiet NaN, and -0 < +0.
#[inline(always)]
pub fn min_num(a: f64, b: f64) -> f64 {
    min_ieee(a, b)
}

/// IEEE maxNum, the mirror of [`min_num`] (+0 > -0).
#[inline(always)]
pub fn max_num(a: f64, b: f64) -> f64 {
    max_ieee(a, b)
}

/// f32 minNum with f32 signalling-NaN detection.
#[inline(always)]
pub fn min32(a: f32, b: f32) -> f32 {
    min_ieee(a, b)
}

/// f32 maxNum.
#[inline(always)]
pub fn max32(a: f32, b: f32) -> f32 {
    max_ieee(a, b)
}

/// minNum in either width (see [`min_num`]).
#[inline(always)]
fn min_ieee<T: Ieee>(a: T, b: T) -> T {
    if a.is_nan() || b.is_nan() {
        return pick_nan(a, b);
    }
    if a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// maxNum in either width (see [`max_num`]).
#[inline(always)]
fn max_ieee<T: Ieee>(a: T, b: T) -> T {
    if a.is_nan() || b.is_nan() {
        return pick_nan(a, b);
    }
    if a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// The minNum/maxNum result when at least one operand is NaN.
#[inline(always)]
fn pick_nan<T: Ieee>(a: T, b: T) -> T {
    if a.is_snan() {
        a.quiet()
    } else if b.is_snan() {
        b.quiet()
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
    class_bits(x.to_bits(), 11, 52)
}

/// The class bit of an f32 (see [`class64`]); the f32 is classified by its own format.
pub fn class32(x: f32) -> u32 {
    class_bits(u64::from(x.to_bits()), 8, 23)
}

/// The class bit of a half.
pub fn class16(h: u16) -> u32 {
    class_bits(u64::from(h), 5, 10)
}

/// The class bit of the float in the low `1 + exp_bits + man_bits` bits of `b`.
#[inline(always)]
fn class_bits(b: u64, exp_bits: u32, man_bits: u32) -> u32 {
    let neg = b >> (exp_bits + man_bits) & 1 != 0;
    let exp_max = (1u64 << exp_bits) - 1;
    let exp = (b >> man_bits) & exp_max;
    let man = b & ((1u64 << man_bits) - 1);
    let bit = if exp == exp_max {
        if man == 0 {
            if neg {
                2
            } else {
                9
            }
        } else if man >> (man_bits - 1) != 0 {
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
    div_fixup(q, d, n)
}

/// v_div_fixup for f64 (see [`div_fixup32`]).
pub fn div_fixup64(q: f64, d: f64, n: f64) -> f64 {
    div_fixup(q, d, n)
}

/// v_div_fixup in either width.
#[inline(always)]
fn div_fixup<T: Ieee>(q: T, d: T, n: T) -> T {
    let sign_neg = d.is_sign_negative() != n.is_sign_negative();
    let signed = |x: T| if sign_neg { -x } else { x };
    if d.is_nan() && !n.is_nan() {
        d.quiet()
    } else if n.is_nan() {
        n.quiet()
    } else if (d == T::ZERO && n == T::ZERO) || (d.is_infinite() && n.is_infinite()) {
        T::DEFAULT_NAN
    } else if d == T::ZERO || n.is_infinite() {
        signed(T::INF)
    } else if d.is_infinite() || n == T::ZERO {
        signed(T::ZERO)
    } else if q.is_nan() {
        signed(T::INF)
    } else {
        signed(q.abs())
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
