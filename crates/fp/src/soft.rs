//! The exact core: every operation on unpacked integers, one rounding at the
//! end. Slower than the host's float unit but correct for any format of up to
//! 64 bits and any rounding mode; the typed modules use it where the host
//! cannot deliver the exact error cheaply (f16 everything, fma, underflow,
//! overflow).
//!
//! A finite value is `(-1)^sign * sig * 2^exp` with `sig` an integer. Sums are
//! formed with both significands normalised so that their top bit sits at
//! `TOP`; what a right shift drops is "jammed" into bit 0 (sticky), which is
//! always at least two bits below the rounding position, so it decides the
//! direction without ever moving a result across a rounding boundary.

use crate::Round;

/// A binary interchange format: exponent and stored-mantissa widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    /// Exponent field width.
    pub ebits: u32,
    /// Stored mantissa width (precision minus one).
    pub mbits: u32,
}

/// binary16.
pub const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
};
/// binary32.
pub const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
};
/// binary64.
pub const F64: Fmt = Fmt {
    ebits: 11,
    mbits: 52,
};

/// Bit position of a normalised significand's leading one inside the u128
/// working registers: two bits of headroom for a carry out of an addition.
const TOP: u32 = 125;

impl Fmt {
    #[inline(always)]
    fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    #[inline(always)]
    fn emask(self) -> u64 {
        (1 << self.ebits) - 1
    }
    #[inline(always)]
    fn mmask(self) -> u64 {
        (1 << self.mbits) - 1
    }
    #[inline(always)]
    fn sign_bit(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    /// Positive infinity's bits.
    #[inline(always)]
    pub fn inf(self) -> u64 {
        self.emask() << self.mbits
    }
    /// The largest finite value's bits.
    #[inline(always)]
    pub fn max_finite(self) -> u64 {
        self.inf() - 1
    }
    /// The NaN an invalid operation returns: the quiet NaN with the sign bit
    /// set (x86 SSE's "QNaN floating-point indefinite").
    #[inline(always)]
    pub fn default_nan(self) -> u64 {
        self.sign_bit() | self.inf() | 1 << (self.mbits - 1)
    }
    /// `x` with the quiet bit set (x must be a NaN).
    #[inline(always)]
    pub fn quiet(self, x: u64) -> u64 {
        x | 1 << (self.mbits - 1)
    }
    /// Whether `x` is a NaN.
    #[inline(always)]
    pub fn is_nan(self, x: u64) -> bool {
        (x >> self.mbits) & self.emask() == self.emask() && x & self.mmask() != 0
    }
}

/// An unpacked operand.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    /// A NaN (its bits).
    Nan(u64),
    /// Infinity of the sign.
    Inf(bool),
    /// Zero of the sign.
    Zero(bool),
    /// `(-1)^sign * sig * 2^exp`, `sig > 0`.
    Fin(bool, i32, u64),
}

/// Splits the bits of a value of format `f`.
#[inline]
pub fn unpack(f: Fmt, x: u64) -> Val {
    let sign = x & f.sign_bit() != 0;
    let e = (x >> f.mbits) & f.emask();
    let m = x & f.mmask();
    if e == f.emask() {
        if m == 0 {
            Val::Inf(sign)
        } else {
            Val::Nan(x)
        }
    } else if e == 0 {
        if m == 0 {
            Val::Zero(sign)
        } else {
            Val::Fin(sign, 1 - f.bias() - f.mbits as i32, m)
        }
    } else {
        Val::Fin(sign, e as i32 - f.bias() - f.mbits as i32, m | 1 << f.mbits)
    }
}

#[inline(always)]
fn signed(f: Fmt, sign: bool, mag: u64) -> u64 {
    if sign {
        mag | f.sign_bit()
    } else {
        mag
    }
}

/// The result of an overflow: infinity, or the largest finite value when the
/// mode rounds toward zero from that side.
#[inline]
fn overflow(f: Fmt, sign: bool, r: Round) -> u64 {
    let to_inf = match r {
        Round::NearestEven => true,
        Round::Up => !sign,
        Round::Down => sign,
        Round::TowardZero => false,
    };
    signed(f, sign, if to_inf { f.inf() } else { f.max_finite() })
}

/// Rounds `(-1)^sign * (sig + s) * 2^exp` to format `f`, where `s` is 0 when
/// `sticky` is false and some value in (0, 1) when it is true. With `sticky`,
/// `sig` must carry at least two bits below the rounding position (callers
/// normalise it to `TOP`).
pub fn round_pack(f: Fmt, sign: bool, exp: i32, sig: u128, sticky: bool, r: Round) -> u64 {
    if sig == 0 {
        debug_assert!(!sticky);
        return signed(f, sign, 0);
    }
    let len = 128 - sig.leading_zeros() as i32;
    let top = exp + len - 1; // exponent of the leading one
    let emin = 1 - f.bias();
    let q = (top - f.mbits as i32).max(emin - f.mbits as i32); // exponent of the result's last bit
    let shift = q - exp;
    let mut kept: u64;
    let mut q = q;
    if shift <= 0 {
        debug_assert!(!sticky || shift > 1);
        kept = (sig << (-shift) as u32) as u64;
    } else {
        let (k, rem_above_half, rem_is_half, rem_nonzero) = if shift > 128 {
            (0u128, false, false, true)
        } else if shift == 128 {
            let half = 1u128 << 127;
            (0, sig > half, sig == half, true)
        } else {
            let half = 1u128 << (shift - 1);
            let rem = sig & ((half << 1) - 1);
            (sig >> shift, rem > half, rem == half, rem != 0)
        };
        let inexact = rem_nonzero || sticky;
        let up = match r {
            Round::NearestEven => rem_above_half || (rem_is_half && (sticky || k & 1 == 1)),
            Round::Up => !sign && inexact,
            Round::Down => sign && inexact,
            Round::TowardZero => false,
        };
        kept = k as u64 + u64::from(up);
        if kept >> (f.mbits + 1) != 0 {
            kept >>= 1;
            q += 1;
        }
    }
    // Biased exponent minus one, so that the implicit bit in `kept` carries in.
    let be = q + f.mbits as i32 + f.bias() - 1;
    if kept >> f.mbits != 0 && be + 1 >= f.emask() as i32 {
        return overflow(f, sign, r);
    }
    let mag = if kept >> f.mbits != 0 {
        ((be as u64) << f.mbits) + kept
    } else {
        kept // subnormal (be is 0 here)
    };
    signed(f, sign, mag)
}

/// `sig` moved so that its leading one is at [`TOP`], and the exponent to match.
#[inline(always)]
fn norm(exp: i32, sig: u128) -> (i32, u128) {
    let sh = sig.leading_zeros() as i32 - (127 - TOP as i32);
    if sh >= 0 {
        (exp - sh, sig << sh)
    } else {
        let s = (-sh) as u32;
        let lost = sig & ((1u128 << s) - 1) != 0;
        (exp + s as i32, sig >> s | u128::from(lost))
    }
}

/// `x >> n` with everything shifted out jammed into bit 0.
#[inline(always)]
fn shr_jam(x: u128, n: u32) -> u128 {
    if n == 0 {
        x
    } else if n >= 128 {
        u128::from(x != 0)
    } else {
        x >> n | u128::from(x & ((1u128 << n) - 1) != 0)
    }
}

/// The exact sum of two non-zero finite terms, rounded once.
fn add_terms(f: Fmt, a: (bool, i32, u128), b: (bool, i32, u128), r: Round) -> u64 {
    let (sa, ea, ma) = (a.0, norm(a.1, a.2).0, norm(a.1, a.2).1);
    let (sb, eb, mb) = (b.0, norm(b.1, b.2).0, norm(b.1, b.2).1);
    // Order by magnitude: (exponent, significand) compares like the values.
    let (big, small) = if (ea, ma) >= (eb, mb) {
        ((sa, ea, ma), (sb, eb, mb))
    } else {
        ((sb, eb, mb), (sa, ea, ma))
    };
    let d = (big.1 - small.1) as u32;
    let ms = shr_jam(small.2, d);
    if big.0 == small.0 {
        round_pack(f, big.0, big.1, big.2 + ms, false, r)
    } else {
        let diff = big.2 - ms;
        if diff == 0 {
            // Exact cancellation: +0, or -0 when rounding down (IEEE 754 6.3).
            return signed(f, r == Round::Down, 0);
        }
        round_pack(f, big.0, big.1, diff, false, r)
    }
}

/// The sum of two zeros (IEEE 754 6.3): equal signs keep theirs, otherwise +0
/// (-0 when rounding down).
#[inline]
fn zero_sum(f: Fmt, sa: bool, sb: bool, r: Round) -> u64 {
    let neg = if sa == sb { sa } else { r == Round::Down };
    signed(f, neg, 0)
}

/// `a + b`.
pub fn add(f: Fmt, a: u64, b: u64, r: Round) -> u64 {
    match (unpack(f, a), unpack(f, b)) {
        (Val::Nan(x), _) => f.quiet(x),
        (_, Val::Nan(y)) => f.quiet(y),
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                a
            } else {
                f.default_nan()
            }
        }
        (Val::Inf(_), _) => a,
        (_, Val::Inf(_)) => b,
        (Val::Zero(x), Val::Zero(y)) => zero_sum(f, x, y, r),
        (Val::Zero(_), _) => b,
        (_, Val::Zero(_)) => a,
        (Val::Fin(sa, ea, ma), Val::Fin(sb, eb, mb)) => {
            add_terms(f, (sa, ea, ma.into()), (sb, eb, mb.into()), r)
        }
    }
}

/// `a * b`.
pub fn mul(f: Fmt, a: u64, b: u64, r: Round) -> u64 {
    let (va, vb) = (unpack(f, a), unpack(f, b));
    let sign = (a ^ b) & f.sign_bit() != 0;
    match (va, vb) {
        (Val::Nan(x), _) => f.quiet(x),
        (_, Val::Nan(y)) => f.quiet(y),
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => f.default_nan(),
        (Val::Inf(_), _) | (_, Val::Inf(_)) => signed(f, sign, f.inf()),
        (Val::Zero(_), _) | (_, Val::Zero(_)) => signed(f, sign, 0),
        (Val::Fin(_, ea, ma), Val::Fin(_, eb, mb)) => {
            round_pack(f, sign, ea + eb, u128::from(ma) * u128::from(mb), false, r)
        }
    }
}

/// `a * b + c` with one rounding.
pub fn fma(f: Fmt, a: u64, b: u64, c: u64, r: Round) -> u64 {
    let (va, vb, vc) = (unpack(f, a), unpack(f, b), unpack(f, c));
    let sp = (a ^ b) & f.sign_bit() != 0;
    match (va, vb, vc) {
        (Val::Nan(x), _, _) | (_, Val::Nan(x), _) | (_, _, Val::Nan(x)) => f.quiet(x),
        (Val::Inf(_), Val::Zero(_), _) | (Val::Zero(_), Val::Inf(_), _) => f.default_nan(),
        (Val::Inf(_), _, Val::Inf(sc)) | (_, Val::Inf(_), Val::Inf(sc)) => {
            if sc == sp {
                c
            } else {
                f.default_nan()
            }
        }
        (Val::Inf(_), _, _) | (_, Val::Inf(_), _) => signed(f, sp, f.inf()),
        (_, _, Val::Inf(_)) => c,
        (Val::Zero(_), _, Val::Zero(sc)) | (_, Val::Zero(_), Val::Zero(sc)) => {
            zero_sum(f, sp, sc, r)
        }
        (Val::Zero(_), _, _) | (_, Val::Zero(_), _) => c,
        (Val::Fin(_, ea, ma), Val::Fin(_, eb, mb), Val::Zero(_)) => {
            round_pack(f, sp, ea + eb, u128::from(ma) * u128::from(mb), false, r)
        }
        (Val::Fin(_, ea, ma), Val::Fin(_, eb, mb), Val::Fin(sc, ec, mc)) => add_terms(
            f,
            (sp, ea + eb, u128::from(ma) * u128::from(mb)),
            (sc, ec, mc.into()),
            r,
        ),
    }
}

/// `a / b`.
pub fn div(f: Fmt, a: u64, b: u64, r: Round) -> u64 {
    let sign = (a ^ b) & f.sign_bit() != 0;
    match (unpack(f, a), unpack(f, b)) {
        (Val::Nan(x), _) => f.quiet(x),
        (_, Val::Nan(y)) => f.quiet(y),
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => f.default_nan(),
        (Val::Inf(_), _) | (_, Val::Zero(_)) => signed(f, sign, f.inf()),
        (_, Val::Inf(_)) | (Val::Zero(_), _) => signed(f, sign, 0),
        (Val::Fin(_, ea, ma), Val::Fin(_, eb, mb)) => {
            // Numerator at bit 126, denominator below 2^53: the quotient keeps
            // at least 73 bits, the remainder is the sticky bit.
            let sh = 126 - (63 - ma.leading_zeros());
            let n = u128::from(ma) << sh;
            let d = u128::from(mb);
            let (qt, rm) = (n / d, n % d);
            let (e, s) = norm(ea - sh as i32 - eb, qt);
            round_pack(f, sign, e, s | u128::from(rm != 0), false, r)
        }
    }
}

/// The integer square root of `x` (floor).
fn isqrt(x: u128) -> u128 {
    if x == 0 {
        return 0;
    }
    // A float estimate (relative error near 2^-52) raised by 2^-40 so that it
    // starts above the root; integer Newton steps from above then descend to
    // the floor; the fix-up loops only guard the arithmetic.
    let e = (x as f64).sqrt() as u128;
    let mut y = e + (e >> 40) + 2;
    loop {
        let z = (y + x / y) / 2;
        if z >= y {
            break;
        }
        y = z;
    }
    while y * y > x {
        y -= 1;
    }
    while (y + 1) * (y + 1) <= x {
        y += 1;
    }
    y
}

/// `sqrt(a)`.
pub fn sqrt(f: Fmt, a: u64, r: Round) -> u64 {
    match unpack(f, a) {
        Val::Nan(x) => f.quiet(x),
        Val::Zero(_) => a,
        Val::Inf(false) => a,
        Val::Inf(true) | Val::Fin(true, _, _) => f.default_nan(),
        Val::Fin(false, e, m) => {
            // Radicand with its leading one at bit 125 or 126 and an even exponent.
            let mut sh = 125 - (63 - m.leading_zeros()) as i32;
            if (e - sh) & 1 != 0 {
                sh += 1;
            }
            let x = u128::from(m) << sh;
            let y = isqrt(x);
            let exact = y * y == x;
            round_pack(f, false, (e - sh) / 2, y, !exact, r)
        }
    }
}

/// `a * 2^n`, rounded (only a result below the normal range can be inexact).
pub fn ldexp(f: Fmt, a: u64, n: i32, r: Round) -> u64 {
    match unpack(f, a) {
        Val::Nan(x) => f.quiet(x),
        Val::Inf(_) | Val::Zero(_) => a,
        Val::Fin(s, e, m) => {
            // Beyond ±4000 every format has long over- or underflowed.
            let n = n.clamp(-4000, 4000);
            round_pack(f, s, e + n, m.into(), false, r)
        }
    }
}

/// Converts `a` from format `from` to format `to`. NaNs keep their sign and
/// the top of their payload and are quieted.
pub fn convert(from: Fmt, to: Fmt, a: u64, r: Round) -> u64 {
    match unpack(from, a) {
        Val::Nan(x) => {
            let sign = x & from.sign_bit() != 0;
            let payload = if from.mbits >= to.mbits {
                (x & from.mmask()) >> (from.mbits - to.mbits)
            } else {
                (x & from.mmask()) << (to.mbits - from.mbits)
            };
            signed(to, sign, to.quiet(to.inf() | payload))
        }
        Val::Inf(s) => signed(to, s, to.inf()),
        Val::Zero(s) => signed(to, s, 0),
        Val::Fin(s, e, m) => round_pack(to, s, e, m.into(), false, r),
    }
}

/// Converts an integer of magnitude `mag` and sign `neg` to format `f`.
pub fn from_int(f: Fmt, neg: bool, mag: u64, r: Round) -> u64 {
    round_pack(f, neg, 0, mag.into(), false, r)
}
