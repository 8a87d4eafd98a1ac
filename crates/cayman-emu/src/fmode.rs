//! ALU ops under a non-default SET_MODE (guide 4.13.1) and the exception
//! flags (4.13.2) of the ops whose default path computes none: the
//! double-precision ops, the reductions (DOT4, DOT4_IEEE, MAX4), the
//! `_PREV` chains, CUBE, the float PRED_SET*/KILL* ops and interpolation.
//!
//! One lane at a time, through [`Ctx`]: the single- and double-precision
//! [`Fenv`] (rounding mode, input and output denormal controls) and the
//! flags the lane raised. Every rounded step is risa-fp's correctly rounded
//! operation in the mode; its flags come from the same function: it is
//! *inexact* when rounding down and up disagree, *overflow* when the
//! result is infinite from finite operands or, rounded toward zero to the
//! largest finite value, the exact magnitude reaches 2^(emax+1) (the result
//! rounded with an unbounded exponent exceeds the largest finite value,
//! IEEE 754-2008 7.4), *underflow* when the exact result is non-zero and
//! below the smallest normal ("tininess before rounding") and either the
//! output is flushed or the result is inexact (7.5), *invalid* when the
//! result is NaN and no operand was, *division by zero* for RECIP*_64 and
//! the single-precision reciprocals and logarithms of ±0, *denormal* when a
//! float operand is a denormal (kept or flushed).
//!
//! At mode 0 every function returns what the default path in [`crate::alu`]
//! returns (a unit test checks it over edge values), so clauses that read
//! the flags run these classes through here in the default mode too.

use crate::alu::{
    self, Cmp, Lanes, Sem, FLAG_DENORMAL, FLAG_DIV_ZERO, FLAG_INEXACT, FLAG_INVALID, FLAG_OVERFLOW,
    FLAG_UNDERFLOW, LANES,
};
use risa_fp::{convert, fp32, fp64, Round};

/// One precision's SET_MODE setting (SRC0_SEL or SRC1_SEL bits 3:0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fenv {
    /// Bits 1:0: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero.
    pub round: Round,
    /// Bit 2 set: denormal inputs are kept (else flushed to a signed zero).
    pub keep_in: bool,
    /// Bit 3 set: denormal results are kept (else flushed to a signed zero).
    pub keep_out: bool,
}

impl Fenv {
    /// The setting of mode bits `m` (3:0).
    pub fn of(m: u8) -> Fenv {
        Fenv {
            round: [
                Round::NearestEven,
                Round::Up,
                Round::Down,
                Round::TowardZero,
            ][m as usize & 3],
            keep_in: m & 4 != 0,
            keep_out: m & 8 != 0,
        }
    }
}

/// The modes of an instruction and the flags the current lane raised.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    /// Single precision (SET_MODE SRC0_SEL).
    pub s: Fenv,
    /// Double precision (SET_MODE SRC1_SEL).
    pub d: Fenv,
    /// Compute flags (only clauses with STORE_FLAGS / LOAD_STORE_FLAGS).
    pub want: bool,
    /// Flags raised since the last [`Ctx::take`].
    pub fl: u32,
}

impl Ctx {
    /// The context of SET_MODE modes `mode` (single, double).
    pub fn new(mode: [u8; 2], want: bool) -> Ctx {
        Ctx {
            s: Fenv::of(mode[0]),
            d: Fenv::of(mode[1]),
            want,
            fl: 0,
        }
    }
    /// The flags raised so far, cleared.
    pub fn take(&mut self) -> u32 {
        std::mem::take(&mut self.fl)
    }
    /// A single-precision operand under the input denormal control.
    #[inline]
    pub fn i32(&mut self, x: u32) -> f32 {
        if x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0 {
            self.fl |= FLAG_DENORMAL;
            if !self.s.keep_in {
                return f32::from_bits(x & 0x8000_0000);
            }
        }
        f32::from_bits(x)
    }
    /// A single-precision result under the output denormal control.
    #[inline]
    pub fn o32(&self, v: f32) -> u32 {
        if self.s.keep_out {
            v.to_bits()
        } else {
            alu::ftz(v.to_bits())
        }
    }
    /// A double-precision operand under the input denormal control.
    #[inline]
    pub fn i64(&mut self, x: u64) -> f64 {
        let v = f64::from_bits(x);
        if v.is_subnormal() {
            self.fl |= FLAG_DENORMAL;
            if !self.d.keep_in {
                return 0f64.copysign(v);
            }
        }
        v
    }
    /// A double-precision result under the output denormal control.
    #[inline]
    pub fn o64(&self, v: f64) -> u64 {
        if !self.d.keep_out && v.is_subnormal() {
            0f64.copysign(v).to_bits()
        } else {
            v.to_bits()
        }
    }
    /// A single-precision rounded step (see the module comment); the
    /// result is not flushed (the caller applies [`Ctx::o32`] where the
    /// default path flushes).
    #[inline]
    fn r32(&mut self, ins: &[f32], op: impl Fn(Round) -> f32, half: impl Fn() -> f32) -> f32 {
        let e = self.s;
        round_flags(e, self.want, &mut self.fl, ins, op, half)
    }
    #[inline]
    fn r64(&mut self, ins: &[f64], op: impl Fn(Round) -> f64, half: impl Fn() -> f64) -> f64 {
        let e = self.d;
        round_flags(e, self.want, &mut self.fl, ins, op, half)
    }
    fn add32(&mut self, a: f32, b: f32) -> f32 {
        self.r32(
            &[a, b],
            |r| fp32::add(a, b, r),
            || fp32::add(a * 0.5, b * 0.5, Round::TowardZero),
        )
    }
    fn mul32(&mut self, a: f32, b: f32) -> f32 {
        self.r32(
            &[a, b],
            |r| fp32::mul(a, b, r),
            || fp32::mul(big(a, b) * 0.5, small(a, b), Round::TowardZero),
        )
    }
    fn sub32(&mut self, a: f32, b: f32) -> f32 {
        self.r32(
            &[a, b],
            |r| fp32::sub(a, b, r),
            || fp32::sub(a * 0.5, b * 0.5, Round::TowardZero),
        )
    }
    /// `f` with the flags of its rounded steps left out when `zero` (a
    /// division by zero: the infinite result is exact), which raises
    /// division by zero instead.
    fn div0<T>(&mut self, zero: bool, f: impl FnOnce(&mut Ctx) -> T) -> T {
        if !zero {
            return f(self);
        }
        let want = self.want;
        if want {
            self.fl |= FLAG_DIV_ZERO;
        }
        self.want = false;
        let v = f(self);
        self.want = want;
        v
    }
    /// Legacy multiply: 0 × anything = +0 (guide table 4.4).
    fn mul32_legacy(&mut self, a: f32, b: f32) -> f32 {
        if a == 0.0 || b == 0.0 {
            0.0
        } else {
            self.mul32(a, b)
        }
    }
    /// An approximation `x` (f64) of a single-precision result, narrowed in
    /// the single mode.
    fn approx32(&mut self, ins: &[f32], x: f64) -> f32 {
        self.r32(
            ins,
            |r| convert::f64_to_f32(x, r),
            || convert::f64_to_f32(x * 0.5, Round::TowardZero),
        )
    }
}

/// The operand of larger magnitude (halved to test for overflow without
/// overflowing), and the other one.
fn big<T: Fp>(a: T, b: T) -> T {
    if a.mag() >= b.mag() {
        a
    } else {
        b
    }
}
fn small<T: Fp>(a: T, b: T) -> T {
    if a.mag() >= b.mag() {
        b
    } else {
        a
    }
}

/// Float formats the flag logic works on.
trait Fp: Copy + PartialOrd {
    const MAX: Self;
    const MIN_POS: Self;
    /// 2^emax (the exact result's half reaches it when the result overflows).
    const TOP: Self;
    const ZERO: Self;
    fn nan(self) -> bool;
    fn inf(self) -> bool;
    fn mag(self) -> Self;
}
macro_rules! fp {
    ($t:ty, $top:expr) => {
        impl Fp for $t {
            const MAX: Self = <$t>::MAX;
            const MIN_POS: Self = <$t>::MIN_POSITIVE;
            const TOP: Self = $top;
            const ZERO: Self = 0.0;
            fn nan(self) -> bool {
                self.is_nan()
            }
            fn inf(self) -> bool {
                self.is_infinite()
            }
            fn mag(self) -> Self {
                self.abs()
            }
        }
    };
}
fp!(f32, f32::from_bits(0x7f00_0000));
fp!(f64, f64::from_bits(0x7fe0_0000_0000_0000));

/// `op(mode)`, and when `want`, the flags of the step (module comment):
/// `half()` is the exact result halved, rounded toward zero.
#[inline]
fn round_flags<T: Fp>(
    e: Fenv,
    want: bool,
    fl: &mut u32,
    ins: &[T],
    op: impl Fn(Round) -> T,
    half: impl Fn() -> T,
) -> T {
    let v = op(e.round);
    if !want || ins.iter().any(|x| x.nan()) {
        return v;
    }
    if v.nan() {
        *fl |= FLAG_INVALID;
        return v;
    }
    if ins.iter().any(|x| x.inf()) {
        return v;
    }
    let (lo, hi) = (op(Round::Down), op(Round::Up));
    let inexact = lo != hi;
    if v.inf() || (inexact && v.mag() == T::MAX && half().mag() >= T::TOP) {
        *fl |= FLAG_OVERFLOW | FLAG_INEXACT;
        return v;
    }
    let rz = if lo.mag() < hi.mag() {
        lo.mag()
    } else {
        hi.mag()
    };
    let tiny = !(lo == T::ZERO && hi == T::ZERO) && rz < T::MIN_POS;
    if tiny && (inexact || !e.keep_out) {
        *fl |= FLAG_UNDERFLOW | FLAG_INEXACT;
    } else if inexact {
        *fl |= FLAG_INEXACT;
    }
    v
}

/// True for the single-precision one-slot ops SET_MODE's single mode
/// changes (they take [`exec_slot`] under a non-default single mode).
pub fn single_affected(sem: Sem) -> bool {
    use Sem::*;
    matches!(
        sem,
        Add | Mul
            | MulIeee
            | Max
            | Min
            | MaxDx10
            | MinDx10
            | SetF(..)
            | Fract
            | Trunc
            | Ceil
            | Rndne
            | Floor
            | FltToInt
            | FltToUint
            | FltToIntRpi
            | FltToIntFloor
            | ExpIeee
            | LogClamped
            | LogIeee
            | RecipClamped
            | RecipFf
            | RecipIeee
            | RecipsqrtClamped
            | RecipsqrtFf
            | RecipsqrtIeee
            | SqrtIeee
            | Sin
            | Cos
            | IntToFlt
            | UintToFlt
            | Flt32ToFlt16
            | Fma
            | Muladd(_)
            | MuladdIeee
            | Cnd(_)
            | MulLit
    )
}

/// True for the one-slot double-precision ops (high dword results).
pub fn double_slot(sem: Sem) -> bool {
    matches!(sem, Sem::Recip64(_) | Sem::Rsq64(_) | Sem::Sqrt64)
}

const ONE: u32 = 0x3f80_0000;

/// Where the engine wants the flags: the clause's per-lane flags and the
/// lanes that execute (None when the clause does not read them).
pub type FlagsOut<'a> = Option<(&'a mut Lanes, u64)>;

fn merge(flags: FlagsOut, fl: &Lanes) {
    if let Some((f, m)) = flags {
        for l in 0..LANES {
            if m >> l & 1 != 0 {
                f[l] |= fl[l];
            }
        }
    }
}

/// A one-slot op ([`single_affected`] or [`double_slot`]) over the lanes,
/// with its output modifier and clamp (float results): results to `o`.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn exec_slot(
    sem: Sem,
    mode: [u8; 2],
    omod: u8,
    clamp: bool,
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
    o: &mut Lanes,
    flags: FlagsOut,
) {
    let mut cx = Ctx::new(mode, flags.is_some());
    let modify = (omod != 0 || clamp) && sem.float_result();
    let mut fl = [0u32; LANES];
    for l in 0..LANES {
        let v = slot(&mut cx, sem, a[l], b[l], c[l]);
        o[l] = if modify {
            out_mod(&mut cx, v, omod, clamp)
        } else {
            v
        };
        fl[l] = cx.take();
    }
    merge(flags, &fl);
}

/// PRED_SET* over the lanes (float ones here, the rest by [`alu`]): dst
/// values to `o`, returns the lanes whose predicate is true.
#[cold]
#[inline(never)]
pub fn pred_set_lanes(
    sem: Sem,
    mode: [u8; 2],
    a: &Lanes,
    b: &Lanes,
    o: &mut Lanes,
    flags: FlagsOut,
) -> u64 {
    let mut cx = Ctx::new(mode, flags.is_some());
    let mut fl = [0u32; LANES];
    let mut bits = 0u64;
    for l in 0..LANES {
        let (v, t) = pred_set(&mut cx, sem, a[l], b[l]);
        o[l] = v;
        bits |= (t as u64) << l;
        fl[l] = cx.take();
    }
    merge(flags, &fl);
    bits
}

/// KILL* over the lanes: 1.0 where the test holds, else 0.0.
#[cold]
#[inline(never)]
pub fn kill_lanes(sem: Sem, mode: [u8; 2], a: &Lanes, b: &Lanes, o: &mut Lanes, flags: FlagsOut) {
    let mut cx = Ctx::new(mode, flags.is_some());
    let mut fl = [0u32; LANES];
    for l in 0..LANES {
        o[l] = if kill_test(&mut cx, sem, a[l], b[l]) {
            ONE
        } else {
            0
        };
        fl[l] = cx.take();
    }
    merge(flags, &fl);
}

/// DOT4 / DOT4_IEEE / MAX4 over the lanes: `srcs` = (src0, src1) of each
/// slot holding the op, in slot order.
#[cold]
#[inline(never)]
pub fn reduce_lanes(
    sem: Sem,
    mode: [u8; 2],
    srcs: &[(&Lanes, &Lanes)],
    o: &mut Lanes,
    flags: FlagsOut,
) {
    let mut cx = Ctx::new(mode, flags.is_some());
    let mut fl = [0u32; LANES];
    let mut pairs = Vec::with_capacity(4);
    for l in 0..LANES {
        pairs.clear();
        pairs.extend(srcs.iter().map(|(x, y)| (x[l], y[l])));
        o[l] = reduce(&mut cx, sem, &pairs);
        fl[l] = cx.take();
    }
    merge(flags, &fl);
}

/// A `_PREV` op over the lanes, with its output modifier and clamp.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub fn prev_lanes(
    sem: Sem,
    mode: [u8; 2],
    omod: u8,
    clamp: bool,
    a: &Lanes,
    b: &Lanes,
    p: &Lanes,
    o: &mut Lanes,
    flags: FlagsOut,
) {
    let mut cx = Ctx::new(mode, flags.is_some());
    let modify = (omod != 0 || clamp) && sem.float_result();
    let mut fl = [0u32; LANES];
    for l in 0..LANES {
        let v = prev(&mut cx, sem, a[l], b[l], p[l], l as u32);
        o[l] = if modify {
            out_mod(&mut cx, v, omod, clamp)
        } else {
            v
        };
        fl[l] = cx.take();
    }
    merge(flags, &fl);
}

/// A two-slot double op over the lanes (see [`double`]; the conversions
/// FLT32_TO_FLT64 and FLT64_TO_FLT32 too): `s_hi` / `s_lo` the sources of
/// the pair's first / second slot; low result dword to `o_hi` (the first
/// slot), high to `o_lo`. False if `sem` is not one of them.
#[cold]
#[inline(never)]
pub fn double_lanes(
    sem: Sem,
    mode: [u8; 2],
    s_hi: [&Lanes; 3],
    s_lo: [&Lanes; 3],
    o_hi: &mut Lanes,
    o_lo: &mut Lanes,
    flags: FlagsOut,
) -> bool {
    let mut cx = Ctx::new(mode, flags.is_some());
    let mut fl = [0u32; LANES];
    let dd = |k: usize, l: usize| (u64::from(s_hi[k][l]) << 32) | u64::from(s_lo[k][l]);
    for l in 0..LANES {
        match sem {
            Sem::Flt32ToFlt64 => {
                let r = f32_to_f64(&mut cx, s_hi[0][l]);
                (o_hi[l], o_lo[l]) = (r as u32, (r >> 32) as u32);
            }
            Sem::Flt64ToFlt32 => {
                o_hi[l] = f64_to_f32(&mut cx, s_hi[0][l], s_lo[0][l]);
                o_lo[l] = 0;
            }
            _ => {
                let Some(r) = double(&mut cx, sem, dd(0, l), dd(1, l), dd(2, l), s_hi[0][l]) else {
                    return false;
                };
                (o_hi[l], o_lo[l]) = (r as u32, (r >> 32) as u32);
            }
        }
        fl[l] = cx.take();
    }
    merge(flags, &fl);
    true
}

/// One lane of a one-slot op (see [`exec_slot`]).
pub fn slot(cx: &mut Ctx, sem: Sem, x: u32, y: u32, z: u32) -> u32 {
    use Sem::*;
    match sem {
        Recip64(_) | Rsq64(_) | Sqrt64 => return slot64(cx, sem, x, y),
        IntToFlt | UintToFlt => {
            let (neg, mag) = if sem == IntToFlt {
                ((x as i32) < 0, (x as i32).unsigned_abs())
            } else {
                (false, x)
            };
            let conv = |r| {
                f32::from_bits(
                    risa_fp::soft::from_int(risa_fp::soft::F32, neg, mag as u64, r) as u32,
                )
            };
            let v = cx.r32(&[], conv, || conv(Round::TowardZero) * 0.5);
            return cx.o32(v);
        }
        _ => {}
    }
    let a = cx.i32(x);
    let cmp_nan = |v: u32| v & 0x7fff_ffff > 0x7f80_0000;
    match sem {
        Add => {
            let b = cx.i32(y);
            let v = cx.add32(a, b);
            cx.o32(v)
        }
        Mul | MulIeee => {
            let b = cx.i32(y);
            let v = if sem == Mul {
                cx.mul32_legacy(a, b)
            } else {
                cx.mul32(a, b)
            };
            cx.o32(v)
        }
        Muladd(k) => {
            let (b, c) = (cx.i32(y), cx.i32(z));
            // the product is not flushed before the add (as the default path)
            let p = cx.mul32_legacy(a, b);
            let s = cx.add32(p, c);
            let v = match k {
                1 => cx.mul32(s, 2.0),
                2 => cx.mul32(s, 4.0),
                3 => cx.mul32(s, 0.5),
                _ => s,
            };
            cx.o32(v)
        }
        MuladdIeee => {
            let (b, c) = (cx.i32(y), cx.i32(z));
            let p = cx.mul32(a, b);
            let v = cx.add32(p, c);
            cx.o32(v)
        }
        Fma => {
            let (b, c) = (cx.i32(y), cx.i32(z));
            let v = cx.r32(
                &[a, b, c],
                |r| fp32::fma(a, b, c, r),
                || fp32::fma(big(a, b) * 0.5, small(a, b), c * 0.5, Round::TowardZero),
            );
            cx.o32(v)
        }
        SqrtIeee => {
            let v = cx.r32(&[a], |r| fp32::sqrt(a, r), || 0.0);
            cx.o32(v)
        }
        // MAX/MIN (DX9: the comparison picks src1 on NaN), MAX/MIN_DX10 (a
        // NaN loses to a number): the chosen operand as read
        Max | Min | MaxDx10 | MinDx10 => {
            let b = cx.i32(y);
            let pick_a = match sem {
                Max => a > b,
                Min => a < b,
                MaxDx10 => !cmp_nan(x) && (cmp_nan(y) || a >= b),
                _ => !cmp_nan(x) && (cmp_nan(y) || a < b),
            };
            cx.o32(if pick_a { a } else { b })
        }
        SetF(c, dx10) => {
            let b = cx.i32(y);
            match (holds(c, a, b), dx10) {
                (true, false) => ONE,
                (true, true) => u32::MAX,
                _ => 0,
            }
        }
        Fract => {
            let fl = a.floor();
            let v = cx.r32(&[a, fl], |r| fp32::sub(a, fl, r), || 0.0);
            cx.o32(v)
        }
        Trunc => cx.o32(a.trunc()),
        Ceil => cx.o32(a.ceil()),
        Floor => cx.o32(a.floor()),
        Rndne => cx.o32(alu::rnd_even(a)),
        FltToInt | FltToUint | FltToIntRpi | FltToIntFloor => {
            let t = match sem {
                FltToIntRpi => (a + 0.5).floor(),
                FltToIntFloor => a.floor(),
                _ => a.trunc(),
            };
            let (lo, hi) = if sem == FltToUint {
                (0.0, 4_294_967_295.0)
            } else {
                (-2_147_483_648.0, 2_147_483_647.0)
            };
            let td = f64::from(t);
            if a.is_nan() || td < lo || td > hi {
                cx.fl |= FLAG_INVALID;
            } else if t != a {
                cx.fl |= FLAG_INEXACT;
            }
            match sem {
                FltToUint => t as u32,
                FltToInt => t as i32 as u32,
                // guide 8.2 FLT_TO_INT_RPI / _FLOOR: NaNs saturate by sign
                _ if a.is_nan() => {
                    if x & 0x8000_0000 == 0 {
                        i32::MAX as u32
                    } else {
                        i32::MIN as u32
                    }
                }
                _ => t as i32 as u32,
            }
        }
        RecipIeee | RecipFf | RecipClamped => {
            let v = cx.div0(a == 0.0, |cx| {
                cx.r32(
                    &[a],
                    |r| fp32::div(1.0, a, r),
                    || fp32::div(0.5, a, Round::TowardZero),
                )
            });
            if v.is_infinite() && sem != RecipIeee {
                return if sem == RecipFf {
                    v.to_bits() & 0x8000_0000
                } else {
                    f32::MAX.copysign(v).to_bits()
                };
            }
            cx.o32(v)
        }
        RecipsqrtIeee | RecipsqrtFf | RecipsqrtClamped => {
            let v = cx.div0(a == 0.0, |cx| cx.approx32(&[a], 1.0 / f64::from(a).sqrt()));
            if v.is_infinite() && sem != RecipsqrtIeee {
                return if sem == RecipsqrtFf {
                    v.to_bits() & 0x8000_0000
                } else {
                    f32::MAX.copysign(v).to_bits()
                };
            }
            cx.o32(v)
        }
        ExpIeee => {
            let v = cx.approx32(&[a], f64::from(a).exp2());
            cx.o32(v)
        }
        LogIeee | LogClamped => {
            let v = cx.div0(a == 0.0, |cx| cx.approx32(&[a], f64::from(a).log2()));
            if sem == LogClamped && v == f32::NEG_INFINITY {
                return (-f32::MAX).to_bits();
            }
            cx.o32(v)
        }
        // in revolutions, as the default path (alu::exec_slot_ref)
        Sin => {
            let v = cx.approx32(&[a], (f64::from(a) * core::f64::consts::TAU).sin());
            cx.o32(v)
        }
        Cos => {
            let v = cx.approx32(&[a], (f64::from(a) * core::f64::consts::TAU).cos());
            cx.o32(v)
        }
        // f16 results: the mode rounds; half denormals are always produced
        // (guide 8.2 FLT32_TO_FLT16: "It creates FLt16 denorms")
        Flt32ToFlt16 => {
            if a.is_nan() {
                (x >> 16) & 0x8000 | 0x7e00
            } else {
                u32::from(convert::f32_to_f16(a, cx.s.round))
            }
        }
        Cnd(c) => {
            if holds(c, a, 0.0) {
                y
            } else {
                z
            }
        }
        // guide 8.3 MUL_LIT: -MAX_FLOAT when src1 is -MAX, -inf or NaN, or src2 <= 0 or NaN
        MulLit => {
            let (b, c) = (cx.i32(y), cx.i32(z));
            if b == -f32::MAX || b == f32::NEG_INFINITY || b.is_nan() || c <= 0.0 || c.is_nan() {
                (-f32::MAX).to_bits()
            } else {
                let v = cx.mul32_legacy(a, b);
                cx.o32(v)
            }
        }
        _ => 0,
    }
}

#[inline(always)]
fn holds(c: Cmp, a: f32, b: f32) -> bool {
    match c {
        Cmp::E => a == b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
    }
}
#[inline(always)]
fn holds64(c: Cmp, a: f64, b: f64) -> bool {
    match c {
        Cmp::E => a == b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
    }
}

/// RECIP(_CLAMPED)_64, RECIPSQRT(_CLAMPED)_64, SQRT_64: double from
/// (src0 = high, src1 = low), result = the high dword (guide 8.2); 1.0 maps
/// to 1.0. RECIP and SQRT are rounded once in the double mode; RECIPSQRT is
/// the host's 1/sqrt (two roundings to nearest, an approximation like the
/// default path's).
fn slot64(cx: &mut Ctx, sem: Sem, hi: u32, lo: u32) -> u32 {
    let v = cx.i64((u64::from(hi) << 32) | u64::from(lo));
    let r = if v == 1.0 {
        1.0
    } else {
        match sem {
            Sem::Sqrt64 => cx.r64(&[v], |r| fp64::sqrt(v, r), || 0.0),
            Sem::Recip64(_) => cx.div0(v == 0.0, |cx| {
                cx.r64(
                    &[v],
                    |r| fp64::div(1.0, v, r),
                    || fp64::div(0.5, v, Round::TowardZero),
                )
            }),
            _ => {
                let x = 1.0 / v.sqrt();
                cx.div0(v == 0.0, |cx| cx.r64(&[v], |_| x, || x * 0.5))
            }
        }
    };
    let r = f64::from_bits(cx.o64(r));
    let clamped = matches!(sem, Sem::Recip64(true) | Sem::Rsq64(true));
    let r = if clamped && r.is_infinite() {
        f64::MAX.copysign(r)
    } else {
        r
    };
    (r.to_bits() >> 32) as u32
}

/// OMOD and CLAMP (guide 4.9.1) on a float result in the single mode.
pub fn out_mod(cx: &mut Ctx, x: u32, omod: u8, clamp: bool) -> u32 {
    let mut v = f32::from_bits(x);
    match omod {
        1 => v = cx.mul32(v, 2.0),
        2 => v = cx.mul32(v, 4.0),
        3 => v = cx.mul32(v, 0.5),
        _ => {}
    }
    if clamp {
        // NaN clamps to 0 (DX10 rules)
        v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    }
    cx.o32(v)
}

/// A float PRED_SET* / PRED_SET_PUSH* op for one lane (the integer ones
/// go to [`alu::pred_set`]): (dst value, execute?).
pub fn pred_set(cx: &mut Ctx, sem: Sem, x: u32, y: u32) -> (u32, bool) {
    use Sem::*;
    let a = cx.i32(x);
    let t = match sem {
        PredSetF(c) => {
            let b = cx.i32(y);
            holds(c, a, b)
        }
        // guide 8.2 PRED_SET_INV
        PredSetInv => {
            return if a == 1.0 {
                (0, true)
            } else if a == 0.0 {
                (ONE, false)
            } else {
                (x, false)
            };
        }
        PredSetPop => {
            let b = cx.i32(y);
            return if a <= b {
                (0, true)
            } else {
                let v = cx.sub32(a, b);
                (cx.o32(v), false)
            };
        }
        PredSetRestore => return if a == 0.0 { (0, true) } else { (x, false) },
        PredSetPushF(_) | PredSetPushI(_) => {
            let go = match sem {
                PredSetPushF(c) => {
                    let b = cx.i32(y);
                    holds(c, b, 0.0)
                }
                PredSetPushI(c) => c_int(c, y as i32),
                _ => false,
            };
            return if a == 0.0 && go {
                (0, true)
            } else {
                let v = cx.add32(a, 1.0);
                (cx.o32(v), false)
            };
        }
        _ => return alu::pred_set(sem, x, y),
    };
    if t {
        (0, true)
    } else {
        (ONE, false)
    }
}

fn c_int(c: Cmp, v: i32) -> bool {
    match c {
        Cmp::E => v == 0,
        Cmp::Gt => v > 0,
        Cmp::Ge => v >= 0,
        Cmp::Ne => v != 0,
        Cmp::Lt => v < 0,
        Cmp::Le => v <= 0,
    }
}

/// True for the float predicate, kill and push ops [`pred_set`] and
/// [`kill_test`] handle.
pub fn pred_reads_floats(sem: Sem) -> bool {
    use Sem::*;
    matches!(
        sem,
        PredSetF(_)
            | PredSetInv
            | PredSetPop
            | PredSetRestore
            | PredSetPushF(_)
            | PredSetPushI(_)
            | KillF(_)
    )
}

/// KILL* (float) test for one lane.
pub fn kill_test(cx: &mut Ctx, sem: Sem, x: u32, y: u32) -> bool {
    match sem {
        Sem::KillF(c) => {
            let (a, b) = (cx.i32(x), cx.i32(y));
            holds(c, a, b)
        }
        _ => alu::kill_test(sem, x, y),
    }
}

/// DOT4, DOT4_IEEE, MAX4 for one lane over the (src0, src1) pairs of the
/// slots holding the op, in slot order: products rounded in the mode (the
/// legacy DOT4's flushed as the default path's), partial sums rounded in
/// the mode and not flushed, the result flushed per the output control.
pub fn reduce(cx: &mut Ctx, sem: Sem, pairs: &[(u32, u32)]) -> u32 {
    let mut acc: Option<f32> = None;
    for &(x, y) in pairs {
        let t = match sem {
            Sem::Dot4 => {
                let (a, b) = (cx.i32(x), cx.i32(y));
                let p = cx.mul32_legacy(a, b);
                f32::from_bits(cx.o32(p))
            }
            Sem::Dot4Ieee => {
                let (a, b) = (cx.i32(x), cx.i32(y));
                cx.mul32(a, b)
            }
            _ => cx.i32(x),
        };
        acc = Some(match (acc, sem) {
            (None, _) => t,
            (Some(a), Sem::Max4) => a.max(t),
            (Some(a), _) => cx.add32(a, t),
        });
    }
    cx.o32(acc.unwrap_or(0.0))
}

/// A `_PREV` op for one lane (`prev` = the next slot's result); the
/// integer ones go to [`alu::prev_op`].
pub fn prev(cx: &mut Ctx, sem: Sem, x: u32, y: u32, prev: u32, lane: u32) -> u32 {
    use Sem::*;
    let v = match sem {
        AddPrev => {
            let (a, p) = (cx.i32(x), cx.i32(prev));
            cx.add32(a, p)
        }
        MulPrev | MulIeeePrev => {
            let (a, p) = (cx.i32(x), cx.i32(prev));
            if sem == MulPrev {
                cx.mul32_legacy(a, p)
            } else {
                cx.mul32(a, p)
            }
        }
        MuladdPrev | Dot => {
            let (a, b, p) = (cx.i32(x), cx.i32(y), cx.i32(prev));
            let m = cx.mul32_legacy(a, b);
            let m = f32::from_bits(cx.o32(m));
            cx.add32(m, p)
        }
        MuladdIeeePrev | DotIeee => {
            let (a, b, p) = (cx.i32(x), cx.i32(y), cx.i32(prev));
            let m = cx.mul32(a, b);
            cx.add32(m, p)
        }
        _ => return alu::prev_op(sem, x, y, prev, lane),
    };
    cx.o32(v)
}

/// CUBE for one lane (see [`alu::cube`]): (x, y, z) in, (T, S, 2·major
/// axis, face) out; 2·major axis is rounded in the mode.
pub fn cube(cx: &mut Ctx, x: u32, y: u32, z: u32) -> [u32; 4] {
    let (x, y, z) = (cx.i32(x), cx.i32(y), cx.i32(z));
    let r = alu::cube(x, y, z);
    // r[2] = 2 * major axis, exact unless it overflows
    let ma = r[2] * 0.5;
    let ma = if ma.is_finite() { ma } else { major(x, y, z) };
    let two = cx.mul32(ma, 2.0);
    [cx.o32(r[0]), cx.o32(r[1]), cx.o32(two), cx.o32(r[3])]
}

fn major(x: f32, y: f32, z: f32) -> f32 {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        z
    } else if ay >= ax {
        y
    } else {
        x
    }
}

/// FLT_TO_UINT4's flags for one lane's four sources (FLT_TO_UINT's).
pub fn flt_to_uint4_flags(cx: &mut Ctx, s: [u32; 4]) {
    for x in s {
        slot(cx, Sem::FltToUint, x, 0, 0);
    }
}

/// FREXP_64's flags: the guide's pseudocode (8.2) treats zeros and
/// denormals alike in every mode; denormal when the input is one.
pub fn frexp64_flags(cx: &mut Ctx, x: u64) {
    cx.i64(x);
}

/// One interpolated element P0 + P10·i + P20·j (see [`alu::interp`]): the
/// sum in double precision, narrowed once in the single mode.
pub fn interp(cx: &mut Ctx, p0: u32, p10: u32, p20: u32, i: u32, j: u32) -> u32 {
    let [p0, p10, p20, i, j] = [p0, p10, p20, i, j].map(|x| cx.i32(x));
    let r = f64::from(p0) + f64::from(p10) * f64::from(i) + f64::from(p20) * f64::from(j);
    let v = cx.approx32(&[p0, p10, p20, i, j], r);
    cx.o32(v)
}

/// A two-slot double op for one lane (guide 8.2; see
/// [`alu::exec_double`]): operands `x`, `y`, `z` (src0..2 of the pair),
/// `e` the X/Z slot's src0 low dword (LDEXP_64's exponent). None for the
/// ops it does not compute.
pub fn double(cx: &mut Ctx, sem: Sem, x: u64, y: u64, z: u64, e: u32) -> Option<u64> {
    use Sem::*;
    let tz = Round::TowardZero;
    Some(match sem {
        Add64 => {
            let (a, b) = (cx.i64(x), cx.i64(y));
            let v = cx.r64(
                &[a, b],
                |r| fp64::add(a, b, r),
                || fp64::add(a * 0.5, b * 0.5, tz),
            );
            cx.o64(v)
        }
        Mul64 => {
            let (a, b) = (cx.i64(x), cx.i64(y));
            let v = cx.r64(
                &[a, b],
                |r| fp64::mul(a, b, r),
                || fp64::mul(big(a, b) * 0.5, small(a, b), tz),
            );
            cx.o64(v)
        }
        Fma64 => {
            let (a, b, c) = (cx.i64(x), cx.i64(y), cx.i64(z));
            let v = cx.r64(
                &[a, b, c],
                |r| fp64::fma(a, b, c, r),
                || fp64::fma(big(a, b) * 0.5, small(a, b), c * 0.5, tz),
            );
            cx.o64(v)
        }
        // guide 8.2 MIN_64/MAX_64: src0 < src1 ? src0 : src1 (a NaN picks
        // src1), min(-0, +0) = -0, max(-0, +0) = +0
        Min64 | Max64 => {
            let (a, b) = (cx.i64(x), cx.i64(y));
            if a == 0.0 && b == 0.0 {
                let s = if sem == Min64 {
                    (a.to_bits() | b.to_bits()) & (1 << 63)
                } else {
                    a.to_bits() & b.to_bits() & (1 << 63)
                };
                return Some(s);
            }
            let pick_a = if sem == Min64 { a < b } else { a > b };
            cx.o64(if pick_a { a } else { b })
        }
        Fract64 => {
            let a = cx.i64(x);
            let fl = a.floor();
            let v = cx.r64(&[a, fl], |r| fp64::sub(a, fl, r), || 0.0);
            cx.o64(v)
        }
        // guide 8.2 LDEXP_64 (table 8.6): inf and NaN pass through, zeros
        // give themselves; the double mode rounds a result below the normal
        // range, and when results are flushed every underflowing result is
        // a signed zero (the default path's table)
        Ldexp64 => {
            let v = f64::from_bits(y);
            if !v.is_finite() {
                return Some(y);
            }
            let a = cx.i64(y);
            let n = e as i32;
            if a == 0.0 {
                return Some(a.to_bits());
            }
            let r = cx.r64(
                &[a],
                |r| fp64::ldexp(a, n, r),
                || fp64::ldexp(a, n.saturating_sub(1), tz),
            );
            if !cx.d.keep_out && r.abs() <= f64::MIN_POSITIVE {
                let tiny = fp64::ldexp(a, n, tz).abs() < f64::MIN_POSITIVE;
                if tiny {
                    return Some(0f64.copysign(a).to_bits());
                }
            }
            cx.o64(r)
        }
        // guide 8.2 SETE_64 ...: all ones when true; PRED_SETE_64 ...: 0
        // when true (execute)
        Set64(c) | PredSet64(c) => {
            let (a, b) = (cx.i64(x), cx.i64(y));
            let t = holds64(c, a, b);
            if t == matches!(sem, Set64(_)) {
                u64::MAX
            } else {
                0
            }
        }
        // a move: no float operation
        Cndne64 => {
            if f64::from_bits(x) != 0.0 {
                y
            } else {
                z
            }
        }
        _ => return None,
    })
}

/// FLT32_TO_FLT64 (exact): the single input control applies to the
/// source.
pub fn f32_to_f64(cx: &mut Ctx, x: u32) -> u64 {
    f64::from(cx.i32(x)).to_bits()
}

/// FLT64_TO_FLT32: the double input control applies to the source, the
/// single mode's rounding and output control to the result.
pub fn f64_to_f32(cx: &mut Ctx, hi: u32, lo: u32) -> u32 {
    let a = cx.i64((u64::from(hi) << 32) | u64::from(lo));
    if !a.is_finite() {
        return convert::f64_to_f32(a, cx.s.round).to_bits();
    }
    let v = cx.r32(
        &[],
        |r| convert::f64_to_f32(a, r),
        || convert::f64_to_f32(a * 0.5, Round::TowardZero),
    );
    cx.o32(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edge values: zeros, denormals, normals around 1, the range ends,
    /// infinities, NaNs.
    fn edges32() -> Vec<u32> {
        let mut v = vec![
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x807f_ffff,
            0x0080_0000,
            0x8080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x3f80_0001,
            0x3f7f_ffff,
            0x3f00_0000,
            0xbf00_0000,
            0x3fc0_0000,
            0x4000_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f00_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_0000,
            0x7f80_0001,
            0x4b80_0001,
            0xcf00_0000,
            0x4f80_0000,
            0x0000_0001,
            0xffff_fffe,
            0x1000_0000,
            0x0d00_0000,
            0x6000_0000,
        ];
        // a few pseudo-random normals
        let mut x = 0x1234_5678u32;
        for _ in 0..24 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v.push(x);
        }
        v
    }

    fn lanes(v: &[u32], k: usize) -> Lanes {
        let mut o = [0u32; LANES];
        for l in 0..LANES {
            o[l] = v[(l * (k + 1) + k * 7) % v.len()];
        }
        o
    }

    #[test]
    fn mode_zero_equals_the_default_path() {
        let e = edges32();
        // every float one-slot op, fed every (x, y) pair of edge values over
        // a few z values
        let sems = risa_cayman::ops::ALU_OP2
            .iter()
            .chain(risa_cayman::ops::ALU_OP3)
            .filter_map(|o| o.sem)
            .filter(|&s| single_affected(s) || double_slot(s));
        for sem in sems {
            for z in [0u32, 0x3f80_0000, 0x8000_0001, 0x7f7f_ffff] {
                for &x in &e {
                    let a = [x; LANES];
                    let b = lanes(&e, 0);
                    let c = [z; LANES];
                    let (mut d, mut m) = ([0u32; LANES], [0u32; LANES]);
                    assert!(alu::exec_slot_ref(sem, &a, &b, &c, &mut d));
                    exec_slot(sem, [0, 0], 0, false, &a, &b, &c, &mut m, None);
                    let nan = |v: u32| v & 0x7fff_ffff > 0x7f80_0000;
                    for l in 0..LANES {
                        if sem == Sem::Fma && [x, b[l], z].iter().filter(|&&v| nan(v)).count() > 1 {
                            // which NaN the host's fused multiply-add returns
                            // depends on its instruction form
                            continue;
                        }
                        assert_eq!(
                            d[l], m[l],
                            "{sem:?} {x:#x} {:#x} {z:#x}: default {:#x}, mode 0 {:#x}",
                            b[l], d[l], m[l]
                        );
                    }
                    // and with OMOD / CLAMP
                    for (omod, clamp) in [(1, false), (3, true), (2, false)] {
                        exec_slot(sem, [0, 0], omod, clamp, &a, &b, &c, &mut m, None);
                        for l in 0..LANES {
                            if sem == Sem::Fma
                                && [x, b[l], z].iter().filter(|&&v| nan(v)).count() > 1
                            {
                                continue;
                            }
                            let want = if sem.float_result() {
                                alu::out_mod(d[l], omod, clamp)
                            } else {
                                d[l]
                            };
                            assert_eq!(want, m[l], "{sem:?} omod {omod} {x:#x} {:#x}", b[l]);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mode_zero_equals_the_default_path_for_multi_slot_ops() {
        let e = edges32();
        let mut cx = Ctx::new([0, 0], true);
        for &x in &e {
            for &y in &e {
                // predicates and kills
                for sem in [
                    Sem::PredSetF(Cmp::Gt),
                    Sem::PredSetF(Cmp::E),
                    Sem::PredSetInv,
                    Sem::PredSetPop,
                    Sem::PredSetRestore,
                    Sem::PredSetPushF(Cmp::Ge),
                    Sem::PredSetPushI(Cmp::Gt),
                ] {
                    assert_eq!(
                        pred_set(&mut cx, sem, x, y),
                        alu::pred_set(sem, x, y),
                        "{sem:?} {x:#x} {y:#x}"
                    );
                }
                assert_eq!(
                    kill_test(&mut cx, Sem::KillF(Cmp::Ge), x, y),
                    alu::kill_test(Sem::KillF(Cmp::Ge), x, y)
                );
                // `_PREV` chains
                for sem in [
                    Sem::AddPrev,
                    Sem::MulPrev,
                    Sem::MulIeeePrev,
                    Sem::MuladdPrev,
                    Sem::MuladdIeeePrev,
                    Sem::Dot,
                    Sem::DotIeee,
                ] {
                    for p in [0x3f80_0000, 0x8000_0001, 0x7f7f_ffff, 0xff80_0000] {
                        assert_eq!(
                            prev(&mut cx, sem, x, y, p, 3),
                            alu::prev_op(sem, x, y, p, 3),
                            "{sem:?} {x:#x} {y:#x} {p:#x}"
                        );
                    }
                }
                // doubles: (x, y) as (high, low) dwords of two operands
                let dx = (u64::from(x) << 32) | u64::from(y);
                let dy = (u64::from(y) << 32) | u64::from(x);
                for sem in [
                    Sem::Add64,
                    Sem::Mul64,
                    Sem::Min64,
                    Sem::Max64,
                    Sem::Fract64,
                    Sem::Ldexp64,
                    Sem::Set64(Cmp::Ge),
                    Sem::PredSet64(Cmp::Lt),
                    Sem::Fma64,
                    Sem::Cndne64,
                ] {
                    let dz = 0x3ff0_0000_0000_0001u64;
                    let (mut oh, mut ol) = ([0u32; LANES], [0u32; LANES]);
                    let hi = [
                        [(dx >> 32) as u32; LANES],
                        [(dy >> 32) as u32; LANES],
                        [(dz >> 32) as u32; LANES],
                    ];
                    let lo = [[dx as u32; LANES], [dy as u32; LANES], [dz as u32; LANES]];
                    alu::exec_double(
                        sem,
                        [&hi[0], &hi[1], &hi[2]],
                        [&lo[0], &lo[1], &lo[2]],
                        &mut oh,
                        &mut ol,
                    );
                    let want = (u64::from(ol[0]) << 32) | u64::from(oh[0]);
                    let got = double(&mut cx, sem, dx, dy, dz, x).unwrap();
                    assert_eq!(got, want, "{sem:?} {dx:#x} {dy:#x}");
                }
                assert_eq!(f64_to_f32(&mut cx, x, y), alu::flt64_to_flt32(x, y));
                let (l, h) = alu::flt32_to_flt64(x);
                assert_eq!(f32_to_f64(&mut cx, x), (u64::from(h) << 32) | u64::from(l));
                // reductions over four slots
                for sem in [Sem::Dot4, Sem::Dot4Ieee, Sem::Max4] {
                    let pairs = [(x, y), (y, x), (0x3f80_0000, x), (y, 0x4000_0000)];
                    let mut acc: Option<f32> = None;
                    for &(s0, s1) in &pairs {
                        let t = match sem {
                            Sem::Dot4 => f32::from_bits(alu::mul_legacy(s0, s1)),
                            Sem::Dot4Ieee => {
                                f32::from_bits(alu::ftz(s0)) * f32::from_bits(alu::ftz(s1))
                            }
                            _ => f32::from_bits(alu::ftz(s0)),
                        };
                        acc = Some(match (acc, sem) {
                            (None, _) => t,
                            (Some(a), Sem::Max4) => a.max(t),
                            (Some(a), _) => a + t,
                        });
                    }
                    let want = alu::ftz(acc.unwrap().to_bits());
                    assert_eq!(reduce(&mut cx, sem, &pairs), want, "{sem:?} {x:#x} {y:#x}");
                }
                // CUBE
                let want = alu::cube(
                    f32::from_bits(alu::ftz(x)),
                    f32::from_bits(alu::ftz(y)),
                    f32::from_bits(alu::ftz(x ^ y)),
                )
                .map(|c| alu::ftz(c.to_bits()));
                assert_eq!(cube(&mut cx, x, y, x ^ y), want, "CUBE {x:#x} {y:#x}");
            }
        }
    }
}
