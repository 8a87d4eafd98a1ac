//! VOP3P (GCN 1.4): packed 16-bit math on two halves at once, and the mixed
//! precision v_mad_mix*.
//!
//! For the low result half, source i is its high half when OP_SEL bit i is
//! set; for the high result half, when OP_SEL_HI bit i is set. NEG and NEG_HI
//! negate the low and high operands of float instructions.

use super::{Table, R};
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
        pub(super) const VOP3P: Table = &[$((stringify!($name), $name)),*];
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
    mad_mix_with(
        w,
        op,
        dst_half,
        |a, b, c| a * b + c,
        |r| f64_to_f16(f64::from(r)),
    )
}

/// `v_mad_mix*`: the f32 multiply-add `madd` of the selected f16/f32
/// sources, then the result as f32 or, with `dst_half`, converted by
/// `to_half` into the low (false) or high (true) half of VDST. The
/// rounding-mode handlers (`sem::round`) pass their own arithmetic.
pub(super) fn mad_mix_with(
    w: &mut Wave,
    op: &Op,
    dst_half: Option<bool>,
    madd: impl Fn(f32, f32, f32) -> f32,
    to_half: impl Fn(f32) -> u16,
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
        if fo {
            r = ftz32(r);
        }
        d[l] = match dst_half {
            None => r.to_bits(),
            Some(hi) => {
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

pub(super) const MIX: Table = &[
    ("v_mad_mix_f32", v_mad_mix_f32),
    ("v_mad_mixlo_f16", v_mad_mixlo_f16),
    ("v_mad_mixhi_f16", v_mad_mixhi_f16),
];
