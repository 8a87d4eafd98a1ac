//! Vector compares (VOPC and their VOP3 forms): one bit per lane into VCC or
//! an SGPR pair, and into EXEC as well for the `cmpx` forms. Inactive lanes
//! write 0.

use super::{Handler, R};
use crate::exec::Ctx;
use crate::float::{class16, class32, class64, f16_to_f32, ftz16, ftz32, ftz64};
use crate::program::Op;
use crate::wave::{Wave, EXEC};
use risa_gcn::semantics::Compare;
use risa_gcn::table::Ty;

// The negated forms are true for unordered operands, so they stay negations.
#[allow(clippy::double_comparisons, clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn fcond<const C: u8>(a: f64, b: f64) -> bool {
    match C {
        0 => false,
        1 => a < b,
        2 => a == b,
        3 => a <= b,
        4 => a > b,
        5 => a < b || a > b,
        6 => a >= b,
        7 => !a.is_nan() && !b.is_nan(),
        8 => a.is_nan() || b.is_nan(),
        9 => !(a >= b),
        10 => !(a < b || a > b),
        11 => !(a > b),
        12 => !(a <= b),
        13 => a != b,
        14 => !(a < b),
        _ => true,
    }
}

#[inline(always)]
fn icond<const C: u8, T: Ord>(a: T, b: T) -> bool {
    match C {
        0 => false,
        1 => a < b,
        2 => a == b,
        3 => a <= b,
        4 => a > b,
        5 => a != b,
        6 => a >= b,
        _ => true,
    }
}

#[inline(always)]
fn write_mask(w: &mut Wave, op: &Op, mask: u64, x: bool) {
    let e = w.exec();
    let m = mask & e;
    w.set_s64(op.sd as usize, m);
    if x {
        w.set_s64(EXEC, m);
    }
}

#[inline(always)]
fn src_pair32(w: &Wave, op: &Op, sign: u32) -> ([u32; 64], [u32; 64]) {
    let mut a = [0u32; 64];
    let mut b = [0u32; 64];
    w.lanes32(op.src[0], &mut a);
    w.lanes32(op.src[1], &mut b);
    for (i, t) in [&mut a, &mut b].into_iter().enumerate() {
        let abs = op.abs >> i & 1 != 0;
        let neg = op.neg >> i & 1 != 0;
        if abs || neg {
            for x in t.iter_mut() {
                if abs {
                    *x &= !(1 << sign);
                }
                if neg {
                    *x ^= 1 << sign;
                }
            }
        }
    }
    (a, b)
}

fn cmp_f32<const C: u8, const X: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (a, b) = src_pair32(w, op, 31);
    let fi = w.flush_in32();
    let mut m = 0u64;
    for l in 0..64 {
        let (mut x, mut y) = (f32::from_bits(a[l]), f32::from_bits(b[l]));
        if fi {
            x = ftz32(x);
            y = ftz32(y);
        }
        m |= u64::from(fcond::<C>(f64::from(x), f64::from(y))) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn cmp_f16<const C: u8, const X: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (a, b) = src_pair32(w, op, 15);
    let fi = w.flush_in64();
    let mut m = 0u64;
    for l in 0..64 {
        let (mut x, mut y) = (a[l] as u16, b[l] as u16);
        if fi {
            x = ftz16(x);
            y = ftz16(y);
        }
        let (x, y) = (f64::from(f16_to_f32(x)), f64::from(f16_to_f32(y)));
        m |= u64::from(fcond::<C>(x, y)) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn src_pair64(w: &Wave, op: &Op) -> ([u64; 64], [u64; 64]) {
    let mut a = [0u64; 64];
    let mut b = [0u64; 64];
    w.lanes64(op.src[0], &mut a);
    w.lanes64(op.src[1], &mut b);
    for (i, t) in [&mut a, &mut b].into_iter().enumerate() {
        let abs = op.abs >> i & 1 != 0;
        let neg = op.neg >> i & 1 != 0;
        for x in t.iter_mut() {
            if abs {
                *x &= !(1 << 63);
            }
            if neg {
                *x ^= 1 << 63;
            }
        }
    }
    (a, b)
}

fn cmp_f64<const C: u8, const X: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (a, b) = src_pair64(w, op);
    let fi = w.flush_in64();
    let mut m = 0u64;
    for l in 0..64 {
        let (mut x, mut y) = (f64::from_bits(a[l]), f64::from_bits(b[l]));
        if fi {
            x = ftz64(x);
            y = ftz64(y);
        }
        m |= u64::from(fcond::<C>(x, y)) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn cmp_i32<const C: u8, const X: bool, const S: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let mut a = [0u32; 64];
    let mut b = [0u32; 64];
    w.lanes32(op.src[0], &mut a);
    w.lanes32(op.src[1], &mut b);
    let mut m = 0u64;
    for l in 0..64 {
        let r = if S {
            icond::<C, i32>(a[l] as i32, b[l] as i32)
        } else {
            icond::<C, u32>(a[l], b[l])
        };
        m |= u64::from(r) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn cmp_i16<const C: u8, const X: bool, const S: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let mut a = [0u32; 64];
    let mut b = [0u32; 64];
    w.lanes32(op.src[0], &mut a);
    w.lanes32(op.src[1], &mut b);
    let mut m = 0u64;
    for l in 0..64 {
        let r = if S {
            icond::<C, i16>(a[l] as u16 as i16, b[l] as u16 as i16)
        } else {
            icond::<C, u16>(a[l] as u16, b[l] as u16)
        };
        m |= u64::from(r) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn cmp_i64<const C: u8, const X: bool, const S: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let mut a = [0u64; 64];
    let mut b = [0u64; 64];
    w.lanes64(op.src[0], &mut a);
    w.lanes64(op.src[1], &mut b);
    let mut m = 0u64;
    for l in 0..64 {
        let r = if S {
            icond::<C, i64>(a[l] as i64, b[l] as i64)
        } else {
            icond::<C, u64>(a[l], b[l])
        };
        m |= u64::from(r) << l;
    }
    write_mask(w, op, m, X);
    Ok(())
}

fn class<const W: u32, const X: bool>(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let mut b = [0u32; 64];
    w.lanes32(op.src[1], &mut b);
    let mut m = 0u64;
    if W == 64 {
        let (a, _) = src_pair64(w, op);
        for l in 0..64 {
            m |= u64::from(class64(f64::from_bits(a[l])) & b[l] != 0) << l;
        }
    } else {
        let (a, _) = src_pair32(w, op, if W == 16 { 15 } else { 31 });
        for l in 0..64 {
            let c = if W == 16 {
                class16(a[l] as u16)
            } else {
                class32(f32::from_bits(a[l]))
            };
            m |= u64::from(c & b[l] != 0) << l;
        }
    }
    write_mask(w, op, m, X);
    Ok(())
}

macro_rules! pick16 {
    ($f:ident, $c:expr, $x:expr $(, $extra:literal)?) => {{
        macro_rules! one {
            ($k:literal) => {
                if $x { $f::<$k, true $(, $extra)?> as Handler } else { $f::<$k, false $(, $extra)?> as Handler }
            };
        }
        match $c {
            0 => one!(0), 1 => one!(1), 2 => one!(2), 3 => one!(3),
            4 => one!(4), 5 => one!(5), 6 => one!(6), 7 => one!(7),
            8 => one!(8), 9 => one!(9), 10 => one!(10), 11 => one!(11),
            12 => one!(12), 13 => one!(13), 14 => one!(14), _ => one!(15),
        }
    }};
}

/// The handler of compare `c` (its row's [`Compare`], which the build
/// derives from the row), if the emulator has one for its type.
pub(super) fn lookup(c: &Compare) -> Option<Handler> {
    let x = c.exec;
    if c.class {
        return Some(match (c.ty, x) {
            (Ty::F16, false) => class::<16, false>,
            (Ty::F16, true) => class::<16, true>,
            (Ty::F32, false) => class::<32, false>,
            (Ty::F32, true) => class::<32, true>,
            (Ty::F64, false) => class::<64, false>,
            (Ty::F64, true) => class::<64, true>,
            _ => return None,
        });
    }
    let w = c.when;
    Some(match c.ty {
        Ty::F16 => pick16!(cmp_f16, w, x),
        Ty::F32 => pick16!(cmp_f32, w, x),
        Ty::F64 => pick16!(cmp_f64, w, x),
        // integer conditions are the first eight codes
        _ if w > 7 => return None,
        Ty::I16 => pick16!(cmp_i16, w, x, true),
        Ty::U16 => pick16!(cmp_i16, w, x, false),
        Ty::I32 => pick16!(cmp_i32, w, x, true),
        Ty::U32 => pick16!(cmp_i32, w, x, false),
        Ty::I64 => pick16!(cmp_i64, w, x, true),
        Ty::U64 => pick16!(cmp_i64, w, x, false),
        _ => return None,
    })
}
