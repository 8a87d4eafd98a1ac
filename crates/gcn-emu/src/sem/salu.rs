//! Scalar ALU and program control: SOP1, SOP2, SOPC, SOPK, SOPP.

use super::{Sem, Table, R};
use crate::exec::Ctx;
use crate::fault::FaultKind;
use crate::program::{Op, Src};
use crate::wave::{Status, Wave, EXEC, M0};

#[inline(always)]
fn sext16(k: u32) -> u32 {
    k as u16 as i16 as i32 as u32
}

macro_rules! scalar_ops {
    ($table:ident, $rd:ident, $ty:ty, $wr:ident; $($name:ident: |$a:ident, $b:ident, $scc:ident| $e:expr;)*) => {
        $(
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $a: $ty = w.$rd(op.src[0]) as $ty;
                let $b: $ty = w.$rd(op.src[1]) as $ty;
                let $scc = w.scc;
                let (d, s): ($ty, Option<bool>) = $e;
                $wr(w, op.d as usize, d);
                if let Some(s) = s {
                    w.scc = s;
                }
                Ok(())
            }
        )*
        pub(super) const $table: Table = &[$((Sem::$name, $name)),*];
    };
}

#[inline(always)]
fn w32(w: &mut Wave, d: usize, v: u32) {
    w.s[d & 127] = v;
}
#[inline(always)]
fn w64(w: &mut Wave, d: usize, v: u64) {
    w.set_s64(d, v);
}

fn bfe32(v: u32, ctl: u32, signed: bool) -> u32 {
    let off = ctl & 31;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = v >> off;
    if width >= 32 {
        return if signed {
            ((v as i32) >> off) as u32
        } else {
            x
        };
    }
    let m = x & ((1u32 << width) - 1);
    if signed && off + width <= 32 {
        (((m << (32 - width)) as i32) >> (32 - width)) as u32
    } else if signed {
        ((v as i32) >> off) as u32
    } else {
        m
    }
}

fn bfe64(v: u64, ctl: u32, signed: bool) -> u64 {
    let off = ctl & 63;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        return 0;
    }
    let x = v >> off;
    if width >= 64 {
        return if signed {
            ((v as i64) >> off) as u64
        } else {
            x
        };
    }
    let m = x & ((1u64 << width) - 1);
    if signed && off + width <= 64 {
        (((m << (64 - width)) as i64) >> (64 - width)) as u64
    } else if signed {
        ((v as i64) >> off) as u64
    } else {
        m
    }
}

scalar_ops! { SOP2_32, sread32, u32, w32;
    s_add_u32: |a, b, _c| { let (r, c) = a.overflowing_add(b); (r, Some(c)) };
    s_sub_u32: |a, b, _c| { let (r, c) = a.overflowing_sub(b); (r, Some(c)) };
    s_add_i32: |a, b, _c| { let (r, o) = (a as i32).overflowing_add(b as i32); (r as u32, Some(o)) };
    s_sub_i32: |a, b, _c| { let (r, o) = (a as i32).overflowing_sub(b as i32); (r as u32, Some(o)) };
    s_addc_u32: |a, b, c| { let r = u64::from(a) + u64::from(b) + u64::from(c); (r as u32, Some(r >> 32 != 0)) };
    s_subb_u32: |a, b, c| { let r = u64::from(a).wrapping_sub(u64::from(b)).wrapping_sub(u64::from(c)); (r as u32, Some(u64::from(a) < u64::from(b) + u64::from(c))) };
    s_min_i32: |a, b, _c| { let l = (a as i32) < (b as i32); (if l { a } else { b }, Some(l)) };
    s_min_u32: |a, b, _c| { let l = a < b; (if l { a } else { b }, Some(l)) };
    s_max_i32: |a, b, _c| { let g = (a as i32) > (b as i32); (if g { a } else { b }, Some(g)) };
    s_max_u32: |a, b, _c| { let g = a > b; (if g { a } else { b }, Some(g)) };
    s_cselect_b32: |a, b, c| (if c { a } else { b }, None);
    s_and_b32: |a, b, _c| { let r = a & b; (r, Some(r != 0)) };
    s_or_b32: |a, b, _c| { let r = a | b; (r, Some(r != 0)) };
    s_xor_b32: |a, b, _c| { let r = a ^ b; (r, Some(r != 0)) };
    s_andn2_b32: |a, b, _c| { let r = a & !b; (r, Some(r != 0)) };
    s_orn2_b32: |a, b, _c| { let r = a | !b; (r, Some(r != 0)) };
    s_nand_b32: |a, b, _c| { let r = !(a & b); (r, Some(r != 0)) };
    s_nor_b32: |a, b, _c| { let r = !(a | b); (r, Some(r != 0)) };
    s_xnor_b32: |a, b, _c| { let r = !(a ^ b); (r, Some(r != 0)) };
    s_lshl_b32: |a, b, _c| { let r = a << (b & 31); (r, Some(r != 0)) };
    s_lshr_b32: |a, b, _c| { let r = a >> (b & 31); (r, Some(r != 0)) };
    s_ashr_i32: |a, b, _c| { let r = ((a as i32) >> (b & 31)) as u32; (r, Some(r != 0)) };
    s_bfm_b32: |a, b, _c| ((((1u64 << (a & 31)) - 1) as u32) << (b & 31), None);
    s_mul_i32: |a, b, _c| (a.wrapping_mul(b), None);
    s_mul_hi_u32: |a, b, _c| (((u64::from(a) * u64::from(b)) >> 32) as u32, None);
    s_mul_hi_i32: |a, b, _c| (((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32, None);
    s_bfe_u32: |a, b, _c| { let r = bfe32(a, b, false); (r, Some(r != 0)) };
    s_bfe_i32: |a, b, _c| { let r = bfe32(a, b, true); (r, Some(r != 0)) };
    s_absdiff_i32: |a, b, _c| { let r = (a as i32).wrapping_sub(b as i32).unsigned_abs(); (r, Some(r != 0)) };
    s_lshl1_add_u32: |a, b, _c| { let r = (u64::from(a) << 1) + u64::from(b); (r as u32, Some(r >> 32 != 0)) };
    s_lshl2_add_u32: |a, b, _c| { let r = (u64::from(a) << 2) + u64::from(b); (r as u32, Some(r >> 32 != 0)) };
    s_lshl3_add_u32: |a, b, _c| { let r = (u64::from(a) << 3) + u64::from(b); (r as u32, Some(r >> 32 != 0)) };
    s_lshl4_add_u32: |a, b, _c| { let r = (u64::from(a) << 4) + u64::from(b); (r as u32, Some(r >> 32 != 0)) };
    s_pack_ll_b32_b16: |a, b, _c| ((a & 0xffff) | (b << 16), None);
    s_pack_lh_b32_b16: |a, b, _c| ((a & 0xffff) | (b & 0xffff_0000), None);
    s_pack_hh_b32_b16: |a, b, _c| ((a >> 16) | (b & 0xffff_0000), None);
}

scalar_ops! { SOP2_64, sread64, u64, w64;
    s_cselect_b64: |a, b, c| (if c { a } else { b }, None);
    s_and_b64: |a, b, _c| { let r = a & b; (r, Some(r != 0)) };
    s_or_b64: |a, b, _c| { let r = a | b; (r, Some(r != 0)) };
    s_xor_b64: |a, b, _c| { let r = a ^ b; (r, Some(r != 0)) };
    s_andn2_b64: |a, b, _c| { let r = a & !b; (r, Some(r != 0)) };
    s_orn2_b64: |a, b, _c| { let r = a | !b; (r, Some(r != 0)) };
    s_nand_b64: |a, b, _c| { let r = !(a & b); (r, Some(r != 0)) };
    s_nor_b64: |a, b, _c| { let r = !(a | b); (r, Some(r != 0)) };
    s_xnor_b64: |a, b, _c| { let r = !(a ^ b); (r, Some(r != 0)) };
    s_lshl_b64: |a, b, _c| { let r = a << (b & 63); (r, Some(r != 0)) };
    s_lshr_b64: |a, b, _c| { let r = a >> (b & 63); (r, Some(r != 0)) };
    s_ashr_i64: |a, b, _c| { let r = ((a as i64) >> (b & 63)) as u64; (r, Some(r != 0)) };
    s_bfm_b64: |a, b, _c| ((1u64 << (a & 63)).wrapping_sub(1) << (b & 63), None);
    s_bfe_u64: |a, b, _c| { let r = bfe64(a, b as u32, false); (r, Some(r != 0)) };
    s_bfe_i64: |a, b, _c| { let r = bfe64(a, b as u32, true); (r, Some(r != 0)) };
}

/// 64-bit SOP2 ops whose second operand is 32 bits read through the 64-bit path:
/// the `sread64` of a 32-bit shift count is fine because only its low bits are used.
macro_rules! unary_ops {
    ($table:ident, $rd:ident, $ty:ty, $oty:ty, $wr:ident; $($name:ident: |$a:ident, $d:ident, $scc:ident| $e:expr;)*) => {
        $(
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $a: $ty = w.$rd(op.src[0]) as $ty;
                let $d: $oty = if std::mem::size_of::<$oty>() == 8 { w.s64(op.d as usize) as $oty } else { w.s[op.d as usize & 127] as $oty };
                let $scc = w.scc;
                let (d, s): ($oty, Option<bool>) = $e;
                $wr(w, op.d as usize, d);
                if let Some(s) = s {
                    w.scc = s;
                }
                Ok(())
            }
        )*
        pub(super) const $table: Table = &[$((Sem::$name, $name)),*];
    };
}

fn flbit_signed32(a: u32) -> u32 {
    let v = if (a as i32) < 0 { !a } else { a };
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}
fn flbit_signed64(a: u64) -> u32 {
    let v = if (a as i64) < 0 { !a } else { a };
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}
fn quad32(a: u32) -> u32 {
    (0..8).fold(0, |m, i| m | (((a >> (4 * i)) & 0xf != 0) as u32) << i)
}
fn quad64(a: u64) -> u64 {
    (0..16).fold(0, |m, i| m | (((a >> (4 * i)) & 0xf != 0) as u64) << i)
}
fn wqm32(a: u32) -> u32 {
    (0..8).fold(0, |m, i| {
        m | if (a >> (4 * i)) & 0xf != 0 {
            0xf << (4 * i)
        } else {
            0
        }
    })
}
fn wqm64(a: u64) -> u64 {
    (0..16).fold(0, |m, i| {
        m | if (a >> (4 * i)) & 0xf != 0 {
            0xfu64 << (4 * i)
        } else {
            0
        }
    })
}

unary_ops! { SOP1_32, sread32, u32, u32, w32;
    s_mov_b32: |a, _d, _c| (a, None);
    s_mov_fed_b32: |a, _d, _c| (a, None);
    s_cmov_b32: |a, d, c| (if c { a } else { d }, None);
    s_not_b32: |a, _d, _c| (!a, Some(a != u32::MAX));
    s_wqm_b32: |a, _d, _c| { let r = wqm32(a); (r, Some(r != 0)) };
    s_brev_b32: |a, _d, _c| (a.reverse_bits(), None);
    s_bcnt0_i32_b32: |a, _d, _c| { let r = a.count_zeros(); (r, Some(r != 0)) };
    s_bcnt1_i32_b32: |a, _d, _c| { let r = a.count_ones(); (r, Some(r != 0)) };
    s_ff0_i32_b32: |a, _d, _c| (if a == u32::MAX { u32::MAX } else { (!a).trailing_zeros() }, None);
    s_ff1_i32_b32: |a, _d, _c| (if a == 0 { u32::MAX } else { a.trailing_zeros() }, None);
    s_flbit_i32_b32: |a, _d, _c| (if a == 0 { u32::MAX } else { a.leading_zeros() }, None);
    s_flbit_i32: |a, _d, _c| (flbit_signed32(a), None);
    s_sext_i32_i8: |a, _d, _c| (a as u8 as i8 as i32 as u32, None);
    s_sext_i32_i16: |a, _d, _c| (a as u16 as i16 as i32 as u32, None);
    s_bitset0_b32: |a, d, _c| (d & !(1 << (a & 31)), None);
    s_bitset1_b32: |a, d, _c| (d | (1 << (a & 31)), None);
    s_quadmask_b32: |a, _d, _c| { let r = quad32(a); (r, Some(r != 0)) };
    s_abs_i32: |a, _d, _c| { let r = (a as i32).unsigned_abs(); (r, Some(r != 0)) };
}

unary_ops! { SOP1_64, sread64, u64, u64, w64;
    s_mov_b64: |a, _d, _c| (a, None);
    s_cmov_b64: |a, d, c| (if c { a } else { d }, None);
    s_not_b64: |a, _d, _c| (!a, Some(a != u64::MAX));
    s_wqm_b64: |a, _d, _c| { let r = wqm64(a); (r, Some(r != 0)) };
    s_brev_b64: |a, _d, _c| (a.reverse_bits(), None);
    s_quadmask_b64: |a, _d, _c| { let r = quad64(a); (r, Some(r != 0)) };
    s_bitreplicate_b64_b32: |a, _d, _c| ((0..32).fold(0u64, |m, i| m | (((a >> i) & 1) * 3) << (2 * i)), None);
}

unary_ops! { SOP1_64_32, sread64, u64, u32, w32;
    s_bcnt0_i32_b64: |a, _d, _c| { let r = a.count_zeros(); (r, Some(r != 0)) };
    s_bcnt1_i32_b64: |a, _d, _c| { let r = a.count_ones(); (r, Some(r != 0)) };
    s_ff0_i32_b64: |a, _d, _c| (if a == u64::MAX { u32::MAX } else { (!a).trailing_zeros() }, None);
    s_ff1_i32_b64: |a, _d, _c| (if a == 0 { u32::MAX } else { a.trailing_zeros() }, None);
    s_flbit_i32_b64: |a, _d, _c| (if a == 0 { u32::MAX } else { a.leading_zeros() }, None);
    s_flbit_i32_i64: |a, _d, _c| (flbit_signed64(a), None);
}

unary_ops! { SOP1_32_64, sread32, u32, u64, w64;
    s_bitset0_b64: |a, d, _c| (d & !(1u64 << (a & 63)), None);
    s_bitset1_b64: |a, d, _c| (d | (1u64 << (a & 63)), None);
}

/// Saveexec family: D = EXEC (old); EXEC = f(S0, EXEC); SCC = EXEC != 0.
/// The `wrexec` forms write the new EXEC to D instead.
macro_rules! saveexec {
    ($($name:ident: |$s:ident, $e:ident| $x:expr, $wr:expr;)*) => {
        $(
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $s = w.sread64(op.src[0]);
                let $e = w.exec();
                let new = $x;
                let wrexec: bool = $wr;
                w.set_s64(op.d as usize, if wrexec { new } else { $e });
                w.set_s64(EXEC, new);
                w.scc = new != 0;
                Ok(())
            }
        )*
        pub(super) const SAVEEXEC: Table = &[$((Sem::$name, $name)),*];
    };
}

saveexec! {
    s_and_saveexec_b64: |s, e| s & e, false;
    s_or_saveexec_b64: |s, e| s | e, false;
    s_xor_saveexec_b64: |s, e| s ^ e, false;
    s_andn2_saveexec_b64: |s, e| s & !e, false;
    s_orn2_saveexec_b64: |s, e| s | !e, false;
    s_nand_saveexec_b64: |s, e| !(s & e), false;
    s_nor_saveexec_b64: |s, e| !(s | e), false;
    s_xnor_saveexec_b64: |s, e| !(s ^ e), false;
    s_andn1_saveexec_b64: |s, e| !s & e, false;
    s_orn1_saveexec_b64: |s, e| !s | e, false;
    s_andn1_wrexec_b64: |s, e| !s & e, true;
    s_andn2_wrexec_b64: |s, e| s & !e, true;
}

macro_rules! compares {
    ($table:ident, $rd:ident, $ty:ty; $($name:ident: |$a:ident, $b:ident| $e:expr;)*) => {
        $(
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $a: $ty = w.$rd(op.src[0]) as $ty;
                let $b: $ty = w.$rd(op.src[1]) as $ty;
                w.scc = $e;
                Ok(())
            }
        )*
        pub(super) const $table: Table = &[$((Sem::$name, $name)),*];
    };
}

compares! { SOPC32, sread32, u32;
    s_cmp_eq_i32: |a, b| a == b;
    s_cmp_lg_i32: |a, b| a != b;
    s_cmp_gt_i32: |a, b| (a as i32) > (b as i32);
    s_cmp_ge_i32: |a, b| (a as i32) >= (b as i32);
    s_cmp_lt_i32: |a, b| (a as i32) < (b as i32);
    s_cmp_le_i32: |a, b| (a as i32) <= (b as i32);
    s_cmp_eq_u32: |a, b| a == b;
    s_cmp_lg_u32: |a, b| a != b;
    s_cmp_gt_u32: |a, b| a > b;
    s_cmp_ge_u32: |a, b| a >= b;
    s_cmp_lt_u32: |a, b| a < b;
    s_cmp_le_u32: |a, b| a <= b;
    s_bitcmp0_b32: |a, b| (a >> (b & 31)) & 1 == 0;
    s_bitcmp1_b32: |a, b| (a >> (b & 31)) & 1 == 1;
}

compares! { SOPC64, sread64, u64;
    s_cmp_eq_u64: |a, b| a == b;
    s_cmp_lg_u64: |a, b| a != b;
    s_bitcmp0_b64: |a, b| (a >> (b & 63)) & 1 == 0;
    s_bitcmp1_b64: |a, b| (a >> (b & 63)) & 1 == 1;
}

// SOPK: the destination is also the first operand; `op.lit` is SIMM16.
macro_rules! sopk {
    ($($name:ident: |$d:ident, $k:ident, $scc:ident| $e:expr;)*) => {
        $(
            fn $name(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
                let $d = w.s[op.d as usize & 127];
                let $k = op.lit;
                let $scc = w.scc;
                let (v, s): (Option<u32>, Option<bool>) = $e;
                if let Some(v) = v {
                    w.s[op.d as usize & 127] = v;
                }
                if let Some(s) = s {
                    w.scc = s;
                }
                Ok(())
            }
        )*
        pub(super) const SOPK: Table = &[$((Sem::$name, $name)),*];
    };
}

sopk! {
    s_movk_i32: |_d, k, _c| (Some(sext16(k)), None);
    s_cmovk_i32: |d, k, c| (Some(if c { sext16(k) } else { d }), None);
    s_cmpk_eq_i32: |d, k, _c| (None, Some(d == sext16(k)));
    s_cmpk_lg_i32: |d, k, _c| (None, Some(d != sext16(k)));
    s_cmpk_gt_i32: |d, k, _c| (None, Some((d as i32) > sext16(k) as i32));
    s_cmpk_ge_i32: |d, k, _c| (None, Some((d as i32) >= sext16(k) as i32));
    s_cmpk_lt_i32: |d, k, _c| (None, Some((d as i32) < sext16(k) as i32));
    s_cmpk_le_i32: |d, k, _c| (None, Some((d as i32) <= sext16(k) as i32));
    s_cmpk_eq_u32: |d, k, _c| (None, Some(d == k));
    s_cmpk_lg_u32: |d, k, _c| (None, Some(d != k));
    s_cmpk_gt_u32: |d, k, _c| (None, Some(d > k));
    s_cmpk_ge_u32: |d, k, _c| (None, Some(d >= k));
    s_cmpk_lt_u32: |d, k, _c| (None, Some(d < k));
    s_cmpk_le_u32: |d, k, _c| (None, Some(d <= k));
    s_addk_i32: |d, k, _c| { let (r, o) = (d as i32).overflowing_add(sext16(k) as i32); (Some(r as u32), Some(o)) };
    s_mulk_i32: |d, k, _c| (Some(d.wrapping_mul(sext16(k))), None);
}

/// Hardware register IDs of `hwreg(...)`.
const HW_REG_MODE: u32 = 1;
const HW_REG_STATUS: u32 = 2;
const HW_REG_HW_ID: u32 = 4;
/// SH_MEM_BASES (GCN 1.4; no other generation defines id 15): the FLAT
/// aperture bases, bits 63:48 of the private base in [15:0] and of the shared
/// base in [31:16]. clang-14 reads it to cast __local/private pointers to
/// generic ones on gfx900.
const HW_REG_SH_MEM_BASES: u32 = 15;

fn hwreg_read(w: &Wave, id: u32) -> u32 {
    match id {
        HW_REG_MODE => w.mode & !super::fork::VSKIP,
        HW_REG_STATUS => {
            w.scc as u32 | ((w.exec() == 0) as u32) << 9 | ((w.vcc() == 0) as u32) << 10
        }
        HW_REG_HW_ID => w.id & 0xf,
        HW_REG_SH_MEM_BASES => {
            use crate::program::{PRIVATE_APERTURE_HI, SHARED_APERTURE_HI};
            (SHARED_APERTURE_HI >> 16) << 16 | PRIVATE_APERTURE_HI >> 16
        }
        _ => 0,
    }
}

fn hwreg_fields(k: u32) -> (u32, u32, u32) {
    let id = k & 0x3f;
    let off = (k >> 6) & 0x1f;
    let size = ((k >> 11) & 0x1f) + 1;
    let mask = if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    };
    (id, off, mask)
}

fn s_getreg_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let (id, off, mask) = hwreg_fields(op.lit);
    w.s[op.d as usize & 127] = (hwreg_read(w, id) >> off) & mask;
    Ok(())
}

fn setreg(w: &mut Wave, k: u32, v: u32) -> R {
    let (id, off, mask) = hwreg_fields(k);
    if id == HW_REG_MODE {
        // VSKIP lives in a MODE bit the hardware leaves unused; s_setreg keeps it.
        let m = mask.checked_shl(off).unwrap_or(0) & !super::fork::VSKIP;
        w.mode = (w.mode & !m) | ((v << off) & m);
    }
    // Other registers are read-only for the emulator (writes are ignored).
    Ok(())
}

fn s_setreg_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let v = w.s[op.d as usize & 127];
    setreg(w, op.lit, v)
}

fn s_setreg_imm32_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let v = w.sread32(op.src[1]);
    setreg(w, op.lit, v)
}

pub(super) fn jump(w: &mut Wave, target: u32, c: &Ctx, op: &Op) -> R {
    if target == u32::MAX {
        let t = i64::from(op.offset) + 4 + 4 * i64::from(op.lit as u16 as i16);
        return Err(FaultKind::BadPc(c.prog.base.wrapping_add(t as u64)));
    }
    w.pc = target;
    Ok(())
}

fn s_call_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let ret = c.prog.base + u64::from(op.offset) + 8;
    w.set_s64(op.d as usize, ret);
    jump(w, op.target, c, op)
}

fn s_getpc_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let pc = c.prog.base + u64::from(op.offset) + 4;
    w.set_s64(op.d as usize, pc);
    Ok(())
}

pub(super) fn set_pc(w: &mut Wave, c: &Ctx, addr: u64) -> R {
    let t = c.prog.op_at_addr(addr);
    if t == u32::MAX {
        return Err(FaultKind::BadPc(addr));
    }
    w.pc = t;
    Ok(())
}

fn s_setpc_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = w.sread64(op.src[0]);
    set_pc(w, c, a)
}

fn s_swappc_b64(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    let a = w.sread64(op.src[0]);
    let pc = c.prog.base + u64::from(op.offset) + 4;
    w.set_s64(op.d as usize, pc);
    set_pc(w, c, a)
}

fn sgpr_index(s: Src) -> Result<usize, FaultKind> {
    match s {
        Src::S(i) => Ok(i as usize),
        _ => Err(FaultKind::BadOperand("relative move needs an SGPR".into())),
    }
}

fn movrel_index(base: usize, m0: u32, n: usize) -> Result<usize, FaultKind> {
    let i = base + m0 as usize;
    if i + n > 104 {
        return Err(FaultKind::BadOperand(format!(
            "s{base} + m0 ({m0}) is past the SGPRs"
        )));
    }
    Ok(i)
}

fn s_movrels_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let i = movrel_index(sgpr_index(op.src[0])?, w.s[M0], 1)?;
    w.s[op.d as usize & 127] = w.s[i];
    Ok(())
}
fn s_movrels_b64(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let i = movrel_index(sgpr_index(op.src[0])?, w.s[M0], 2)?;
    let v = w.s64(i);
    w.set_s64(op.d as usize, v);
    Ok(())
}
fn s_movreld_b32(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let i = movrel_index(op.d as usize, w.s[M0], 1)?;
    w.s[i] = w.sread32(op.src[0]);
    Ok(())
}
fn s_movreld_b64(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let i = movrel_index(op.d as usize, w.s[M0], 2)?;
    let v = w.sread64(op.src[0]);
    w.set_s64(i, v);
    Ok(())
}

// SOPP: program control.
fn s_nop(_w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    Ok(())
}
fn s_endpgm(w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    w.status = Status::Done;
    Ok(())
}
fn s_barrier(w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    w.status = Status::Barrier;
    Ok(())
}
fn s_trap(_w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    Err(FaultKind::Trap(op.lit & 0xff))
}
fn s_branch(w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
    jump(w, op.target, c, op)
}

macro_rules! cbranch {
    ($($name:ident: |$w:ident| $cond:expr;)*) => {
        $(
            fn $name($w: &mut Wave, op: &Op, c: &mut Ctx) -> R {
                if $cond {
                    jump($w, op.target, c, op)
                } else {
                    Ok(())
                }
            }
        )*
        pub(super) const CBRANCH: Table = &[$((Sem::$name, $name)),*];
    };
}

cbranch! {
    s_cbranch_scc0: |w| !w.scc;
    s_cbranch_scc1: |w| w.scc;
    s_cbranch_vccz: |w| w.vcc() == 0;
    s_cbranch_vccnz: |w| w.vcc() != 0;
    s_cbranch_execz: |w| w.exec() == 0;
    s_cbranch_execnz: |w| w.exec() != 0;
    // No debugger is attached: the debug-condition branches are never taken.
    s_cbranch_cdbgsys: |_w| false;
    s_cbranch_cdbguser: |_w| false;
    s_cbranch_cdbgsys_or_user: |_w| false;
    s_cbranch_cdbgsys_and_user: |_w| false;
}

/// MODE.GPR_IDX_EN (bit 27): VGPR indexing by M0[7:0] is on.
pub(crate) const GPR_IDX_EN: u32 = 1 << 27;

fn s_set_gpr_idx_on(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let idx = w.sread32(op.src[0]) & 0xff;
    let mode = (w.sread32(op.src[1]) & 0xf) << 12;
    w.s[M0] = (w.s[M0] & !0xf0ff) | idx | mode;
    w.mode |= GPR_IDX_EN;
    Ok(())
}
fn s_set_gpr_idx_off(w: &mut Wave, _op: &Op, _c: &mut Ctx) -> R {
    w.mode &= !GPR_IDX_EN;
    Ok(())
}
fn s_set_gpr_idx_idx(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    let idx = w.sread32(op.src[0]) & 0xff;
    w.s[M0] = (w.s[M0] & !0xff) | idx;
    Ok(())
}
fn s_set_gpr_idx_mode(w: &mut Wave, op: &Op, _c: &mut Ctx) -> R {
    w.s[M0] = (w.s[M0] & !0xf000) | (op.lit & 0xf) << 12;
    Ok(())
}

pub(super) const MISC: Table = &[
    (Sem::s_set_gpr_idx_on, s_set_gpr_idx_on),
    (Sem::s_set_gpr_idx_off, s_set_gpr_idx_off),
    (Sem::s_set_gpr_idx_idx, s_set_gpr_idx_idx),
    (Sem::s_set_gpr_idx_mode, s_set_gpr_idx_mode),
    (Sem::s_getreg_b32, s_getreg_b32),
    (Sem::s_setreg_b32, s_setreg_b32),
    (Sem::s_setreg_imm32_b32, s_setreg_imm32_b32),
    (Sem::s_call_b64, s_call_b64),
    (Sem::s_getpc_b64, s_getpc_b64),
    (Sem::s_setpc_b64, s_setpc_b64),
    (Sem::s_swappc_b64, s_swappc_b64),
    (Sem::s_movrels_b32, s_movrels_b32),
    (Sem::s_movrels_b64, s_movrels_b64),
    (Sem::s_movreld_b32, s_movreld_b32),
    (Sem::s_movreld_b64, s_movreld_b64),
    (Sem::s_nop, s_nop),
    (Sem::s_waitcnt, s_nop),
    (Sem::s_sleep, s_nop),
    (Sem::s_setprio, s_nop),
    (Sem::s_sendmsg, s_nop),
    (Sem::s_sendmsghalt, s_nop),
    (Sem::s_icache_inv, s_nop),
    (Sem::s_incperflevel, s_nop),
    (Sem::s_decperflevel, s_nop),
    (Sem::s_ttracedata, s_nop),
    (Sem::s_wakeup, s_nop),
    (Sem::s_setkill, s_nop),
    (Sem::s_endpgm, s_endpgm),
    (Sem::s_endpgm_saved, s_endpgm),
    (Sem::s_endpgm_ordered_ps_done, s_endpgm),
    (Sem::s_barrier, s_barrier),
    (Sem::s_trap, s_trap),
    (Sem::s_branch, s_branch),
];
