//! VOP3P (GCN 1.4): packed 16-bit math on two halves at once, and the mixed
//! precision v_mad_mix*.
//!
//! For the low result half, source i is its high half when OP_SEL bit i is
//! set; for the high result half, when OP_SEL_HI bit i is set. NEG and NEG_HI
//! negate the low and high operands of float instructions.

use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::float::{f16_to_f32, f64_to_f16, ftz16, ftz32, max_num, min_num};
use crate::program::Op;
use crate::wave::Wave;
use risa_gcn::Field;

/// Source lanes and the per-source selection bits.
fn sources(w: &Wave, op: &Op) -> ([[u32; 64]; 3], u32, u32, u32, u32) {
    let mut s = [[0u32; 64]; 3];
    for (k, t) in s.iter_mut().enumerate() {
        w.lanes32(op.src[k], t);
    }
    let i = op.instr;
    let sel = i.field(Field::OpSel);
    let sel_hi = i.field(Field::OpSelHi) | i.field(Field::OpSelHi2) << 2;
    let neg = i.field(Field::Neg);
    let neg_hi = i.field(Field::NegHi);
    (s, sel, sel_hi, neg, neg_hi)
}

#[inline(always)]
fn half(v: u32, hi: bool) -> u32 {
    if hi {
        v >> 16
    } else {
        v & 0xffff
    }
}

/// Runs `f` on the 16-bit operands of each half; `float` applies NEG/NEG_HI to bit 15.
#[inline(always)]
pub(super) fn packed(w: &mut Wave, op: &Op, float: bool, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let (s, sel, sel_hi, neg, neg_hi) = sources(w, op);
    let mut d = [0u32; 64];
    for l in 0..64 {
        let mut r = 0;
        for (h, (bits, negs)) in [(sel, neg), (sel_hi, neg_hi)].into_iter().enumerate() {
            let mut x = [0u32; 3];
            for k in 0..3 {
                x[k] = half(s[k][l], bits >> k & 1 != 0);
                if float && negs >> k & 1 != 0 {
                    x[k] ^= 0x8000;
                }
            }
            r |= (f(x[0], x[1], x[2]) & 0xffff) << (16 * h);
        }
        d[l] = r;
    }
    let e = w.exec();
    w.vwrite32(op.d as usize, &d, e);
    Ok(())
}

macro_rules! pk {
    ($($name:ident: $float:literal |$m:ident; $a:ident, $b:ident, $c:ident| $e:expr;)*) => {
        $(
            #[allow(unused_variables)]
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $m = (w.flush_in64(), w.flush_out64(), op.clamp);
                packed(w, op, $float, move |$a, $b, $c| $e)
            }
        )*
        pub(super) const VOP3P: Table = &[$((Sem::$name, $name)),*];
    };
}

/// A half operand as f64, flushed when the f16 mode says so.
#[inline(always)]
fn h(m: (bool, bool, bool), x: u32) -> f64 {
    let v = x as u16;
    f64::from(f16_to_f32(if m.0 { ftz16(v) } else { v }))
}
/// An f64 result rounded to half (flushed per mode, clamped to [0, 1] with CLAMP).
#[inline(always)]
fn o(m: (bool, bool, bool), v: f64) -> u32 {
    let v = if m.2 {
        if v.is_nan() {
            0.0
        } else {
            v.clamp(0.0, 1.0)
        }
    } else {
        v
    };
    let r = f64_to_f16(v);
    u32::from(if m.1 { ftz16(r) } else { r })
}
#[inline(always)]
fn si(x: u32) -> i32 {
    i32::from(x as u16 as i16)
}
/// Integer result, saturated to 16 bits when CLAMP is set.
#[inline(always)]
fn su(m: (bool, bool, bool), v: i64) -> u32 {
    if m.2 {
        v.clamp(0, 0xffff) as u32
    } else {
        v as u32 & 0xffff
    }
}
#[inline(always)]
fn ss(m: (bool, bool, bool), v: i64) -> u32 {
    if m.2 {
        v.clamp(-0x8000, 0x7fff) as u32 & 0xffff
    } else {
        v as u32 & 0xffff
    }
}

pk! {
    v_pk_add_f16: true |m; a, b, c| o(m, h(m, a) + h(m, b));
    v_pk_mul_f16: true |m; a, b, c| o(m, h(m, a) * h(m, b));
    v_pk_fma_f16: true |m; a, b, c| o(m, h(m, a).mul_add(h(m, b), h(m, c)));
    v_pk_min_f16: true |m; a, b, c| o(m, min_num(h(m, a), h(m, b)));
    v_pk_max_f16: true |m; a, b, c| o(m, max_num(h(m, a), h(m, b)));
    v_pk_add_u16: false |m; a, b, c| su(m, i64::from(a) + i64::from(b));
    v_pk_sub_u16: false |m; a, b, c| su(m, i64::from(a) - i64::from(b));
    v_pk_add_i16: false |m; a, b, c| ss(m, i64::from(si(a)) + i64::from(si(b)));
    v_pk_sub_i16: false |m; a, b, c| ss(m, i64::from(si(a)) - i64::from(si(b)));
    v_pk_mul_lo_u16: false |m; a, b, c| a.wrapping_mul(b);
    v_pk_mad_u16: false |m; a, b, c| su(m, i64::from(a) * i64::from(b) + i64::from(c));
    v_pk_mad_i16: false |m; a, b, c| ss(m, i64::from(si(a)) * i64::from(si(b)) + i64::from(si(c)));
    v_pk_lshlrev_b16: false |m; a, b, c| b << (a & 15);
    v_pk_lshrrev_b16: false |m; a, b, c| b >> (a & 15);
    v_pk_ashrrev_i16: false |m; a, b, c| (si(b) >> (a & 15)) as u32;
    v_pk_max_i16: false |m; a, b, c| si(a).max(si(b)) as u32;
    v_pk_min_i16: false |m; a, b, c| si(a).min(si(b)) as u32;
    v_pk_max_u16: false |m; a, b, c| a.max(b);
    v_pk_min_u16: false |m; a, b, c| a.min(b);
}

/// v_mad_mix*: each source is f32 (OP_SEL_HI bit clear) or the f16 half OP_SEL
/// picks (bit set); the product and sum are computed in f32 (not fused) and
/// denormals follow the f32 mode.
fn mad_mix(w: &mut Wave, op: &Op, dst_half: Option<bool>) -> R {
    mix_with(
        w,
        op,
        dst_half,
        |a, b, c| f64::from(a * b + c),
        |r| r as f32,
        f64_to_f16,
    )
}

/// v_fma_mix* (gfx906, `fma-mix-insts`): the same operand selection as
/// v_mad_mix*, but the multiply-add is fused: `a * b + c` is rounded once, to
/// f32 or (mixlo/mixhi) straight to f16.
fn fma_mix(w: &mut Wave, op: &Op, dst_half: Option<bool>) -> R {
    mix_with(w, op, dst_half, fma_odd, |r| r as f32, f64_to_f16)
}

/// `a * b + c` of f32 operands in f64, rounded to odd: the f64 product is
/// exact (48 significant bits), the sum's rounding error is recovered
/// exactly (two-sum) and, when not zero, the last bit is forced to 1. A
/// value rounded to odd with 53 bits rounds to any format of at most 51
/// bits (f32, f16) in any mode exactly as the exact value would, so one
/// more conversion gives the fused (singly rounded) result.
pub(super) fn fma_odd(a: f32, b: f32, c: f32) -> f64 {
    sum_odd(f64::from(a) * f64::from(b), f64::from(c))
}

/// `p + c` rounded to odd (see [`fma_odd`]); `p` and `c` are finite or not.
#[inline(always)]
pub(super) fn sum_odd(p: f64, c: f64) -> f64 {
    let s = p + c;
    if !s.is_finite() || s == 0.0 {
        return s;
    }
    let v = s - p;
    let err = (p - (s - v)) + (c - v);
    let bits = s.to_bits();
    if err == 0.0 || bits & 1 != 0 {
        return s;
    }
    // The exact value lies beyond s in err's direction.
    f64::from_bits(if (err > 0.0) == (s > 0.0) {
        bits + 1
    } else {
        bits - 1
    })
}

/// `v_mad_mix*` / `v_fma_mix*`: the multiply-add `madd` of the selected
/// f16/f32 sources (its result in f64: exact, rounded to odd, or an f32
/// value), then the result converted by `to_f32`, or with `dst_half` by
/// `to_half` into the low (false) or high (true) half of VDST. CLAMP
/// applies before the conversion, f32 output denormals are flushed per the
/// f32 mode. The rounding-mode handlers (`sem::round`) pass their own
/// arithmetic.
pub(super) fn mix_with(
    w: &mut Wave,
    op: &Op,
    dst_half: Option<bool>,
    madd: impl Fn(f32, f32, f32) -> f64,
    to_f32: impl Fn(f64) -> f32,
    to_half: impl Fn(f64) -> u16,
) -> R {
    let (s, sel, sel_hi, neg, _) = sources(w, op);
    let abs = op.instr.field(Field::NegHi);
    let (fi, fo) = (w.flush_in32(), w.flush_out32());
    let mut d = [0u32; 64];
    let old = w.v[op.d as usize];
    for l in 0..64 {
        let mut x = [0f32; 3];
        for k in 0..3 {
            let v = if sel_hi >> k & 1 != 0 {
                f16_to_f32(half(s[k][l], sel >> k & 1 != 0) as u16)
            } else {
                f32::from_bits(s[k][l])
            };
            let v = if abs >> k & 1 != 0 { v.abs() } else { v };
            let v = if neg >> k & 1 != 0 { -v } else { v };
            x[k] = if fi { ftz32(v) } else { v };
        }
        let mut r = madd(x[0], x[1], x[2]);
        if op.clamp {
            r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
        }
        d[l] = match dst_half {
            None => {
                let r = to_f32(r);
                (if fo { ftz32(r) } else { r }).to_bits()
            }
            Some(hi) => {
                // Values below the f32 normal range are f32 denormals: flushed.
                let r = if fo && r.abs() < f64::from(f32::MIN_POSITIVE) {
                    0.0f64.copysign(r)
                } else {
                    r
                };
                let hv = u32::from(to_half(r));
                if hi {
                    (old[l] & 0xffff) | hv << 16
                } else {
                    (old[l] & 0xffff_0000) | hv
                }
            }
        };
    }
    let e = w.exec();
    w.vwrite32(op.d as usize, &d, e);
    Ok(())
}

fn v_mad_mix_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, None)
}
fn v_mad_mixlo_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, Some(false))
}
fn v_mad_mixhi_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    mad_mix(w, op, Some(true))
}
fn v_fma_mix_f32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, None)
}
fn v_fma_mixlo_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, Some(false))
}
fn v_fma_mixhi_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    fma_mix(w, op, Some(true))
}

pub(super) const MIX: Table = &[
    (Sem::v_mad_mix_f32, v_mad_mix_f32),
    (Sem::v_mad_mixlo_f16, v_mad_mixlo_f16),
    (Sem::v_mad_mixhi_f16, v_mad_mixhi_f16),
    (Sem::v_fma_mix_f32, v_fma_mix_f32),
    (Sem::v_fma_mixlo_f16, v_fma_mixlo_f16),
    (Sem::v_fma_mixhi_f16, v_fma_mixhi_f16),
];

/// v_dot2_f32_f16 (gfx906): `A.lo * B.lo + A.hi * B.hi + C` in f32, the
/// halves chosen by OP_SEL (low product) and OP_SEL_HI (high product) as in
/// the packed instructions, NEG_LO/NEG_HI negating the halves of A and B and
/// NEG_LO bit 2 negating C. AMD documents the operation, not its rounding:
/// risa computes the sum exactly (the f16 products are exact in f64, their
/// sum and C are added with the error kept, see [`sum_odd`]) and rounds once
/// to f32 with `to_f32` (nearest-even, or MODE's f32 rounding). f16 inputs
/// follow the f16 denormal mode, C and the result the f32 mode; CLAMP clamps
/// to [0, 1].
pub(super) fn dot2_f32_with(w: &mut Wave, op: &Op, to_f32: impl Fn(f64) -> f32) -> R {
    let (s, sel, sel_hi, neg, neg_hi) = sources(w, op);
    let (fi16, fi32, fo32) = (w.flush_in64(), w.flush_in32(), w.flush_out32());
    let mut d = [0u32; 64];
    for l in 0..64 {
        let hv = |k: usize, bits: u32, negs: u32| -> f64 {
            let mut x = half(s[k][l], bits >> k & 1 != 0) as u16;
            if negs >> k & 1 != 0 {
                x ^= 0x8000;
            }
            f64::from(f16_to_f32(if fi16 { ftz16(x) } else { x }))
        };
        let lo = hv(0, sel, neg) * hv(1, sel, neg);
        let hi = hv(0, sel_hi, neg_hi) * hv(1, sel_hi, neg_hi);
        let mut c = f32::from_bits(s[2][l]);
        if fi32 {
            c = ftz32(c);
        }
        if neg >> 2 & 1 != 0 {
            c = -c;
        }
        // lo + hi is exact: both products have at most 22 significant bits
        // and exponents within the f16 range, well inside f64's 53 bits.
        let mut r = sum_odd(lo + hi, f64::from(c));
        if op.clamp {
            r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
        }
        let r = to_f32(r);
        d[l] = (if fo32 { ftz32(r) } else { r }).to_bits();
    }
    let e = w.exec();
    w.vwrite32(op.d as usize, &d, e);
    Ok(())
}

fn v_dot2_f32_f16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot2_f32_with(w, op, |r| r as f32)
}

/// Integer dot products (gfx906): the sum of `n` products of `bits`-wide
/// lanes of A and B (signed or not) plus C, exact; CLAMP saturates it to the
/// 32-bit range of its signedness, else it wraps. The 16-bit forms pick their
/// halves with OP_SEL/OP_SEL_HI like the packed instructions.
#[inline(always)]
fn dot_int(w: &mut Wave, op: &Op, bits: u32, signed: bool) -> R {
    let (s, sel, sel_hi, _, _) = sources(w, op);
    let n = 32 / bits;
    let mask = (1u32 << bits) - 1;
    let lane = move |v: u32, k: u32| -> i64 {
        let x = (v >> (bits * k)) & mask;
        if signed {
            i64::from(((x << (32 - bits)) as i32) >> (32 - bits))
        } else {
            i64::from(x)
        }
    };
    let (lo, hi) = if signed {
        (i64::from(i32::MIN), i64::from(i32::MAX))
    } else {
        (0, i64::from(u32::MAX))
    };
    let mut d = [0u32; 64];
    for l in 0..64 {
        let (a, b) = if bits == 16 {
            let pick =
                |v: u32, k: usize| half(v, sel >> k & 1 != 0) | half(v, sel_hi >> k & 1 != 0) << 16;
            (pick(s[0][l], 0), pick(s[1][l], 1))
        } else {
            (s[0][l], s[1][l])
        };
        let c = if signed {
            i64::from(s[2][l] as i32)
        } else {
            i64::from(s[2][l])
        };
        let sum = (0..n).fold(c, |t, k| t + lane(a, k) * lane(b, k));
        d[l] = if op.clamp {
            sum.clamp(lo, hi) as u32
        } else {
            sum as u32
        };
    }
    let e = w.exec();
    w.vwrite32(op.d as usize, &d, e);
    Ok(())
}

fn v_dot2_i32_i16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 16, true)
}
fn v_dot2_u32_u16(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 16, false)
}
fn v_dot4_i32_i8(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 8, true)
}
fn v_dot4_u32_u8(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 8, false)
}
fn v_dot8_i32_i4(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 4, true)
}
fn v_dot8_u32_u4(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    dot_int(w, op, 4, false)
}

/// The gfx906 dot products (`dot1-insts`, `dot2-insts`, `dot7-insts`).
pub(super) const DOT: Table = &[
    (Sem::v_dot2_f32_f16, v_dot2_f32_f16),
    (Sem::v_dot2_i32_i16, v_dot2_i32_i16),
    (Sem::v_dot2_u32_u16, v_dot2_u32_u16),
    (Sem::v_dot4_i32_i8, v_dot4_i32_i8),
    (Sem::v_dot4_u32_u8, v_dot4_u32_u8),
    (Sem::v_dot8_i32_i4, v_dot8_i32_i4),
    (Sem::v_dot8_u32_u4, v_dot8_u32_u4),
];
