//! The f32 and f64 fast paths (host result plus exact error term) against the
//! exact integer implementation, on many random operands in every mode. The
//! integer path is itself checked against the host in tests/oracle.rs.

use risa_fp::soft::{self, F32, F64};
use risa_fp::{fp32, fp64, Round};

use risa_rng::Rng;

/// The value shapes this test draws.
trait Draws {
    fn f64(&mut self) -> u64;
    fn f32(&mut self) -> u32;
}
impl Draws for Rng {
    /// Bits of a value near 1 (cancellation, rounding) or anything.
    fn f64(&mut self) -> u64 {
        let x = self.next_u64();
        match x % 3 {
            0 => x,
            1 => (x & 0x800f_ffff_ffff_ffff) | (1020 + (x >> 52) % 6) << 52,
            _ => x & 0x800f_ffff_ffff_ff00 | (1023 - 1000 + (x >> 40) % 2000) << 52,
        }
    }
    fn f32(&mut self) -> u32 {
        let x = self.next_u64();
        match x % 3 {
            0 => x as u32,
            1 => (x as u32 & 0x807f_ffff) | (125 + (x >> 40) as u32 % 6) << 23,
            _ => (x as u32 & 0x807f_ff00) | ((x >> 40) as u32 % 254 + 1) << 23,
        }
    }
}

#[test]
fn fast_paths_agree_with_the_exact_path() {
    let mut g = Rng::from_state(0x1234_5678_9abc_def1);
    for _ in 0..40_000 {
        let (a, b, c) = (g.f32(), g.f32(), g.f32());
        let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
        let (p, q) = (g.f64(), g.f64());
        let (u, v) = (f64::from_bits(p), f64::from_bits(q));
        for r in Round::ALL {
            let s32 = |bits: u64| bits as u32;
            let (a6, b6, c6) = (u64::from(a), u64::from(b), u64::from(c));
            assert_eq!(
                fp32::add(x, y, r).to_bits(),
                s32(soft::add(F32, a6, b6, r)),
                "add32 {a:#x} {b:#x} {r:?}"
            );
            assert_eq!(
                fp32::mul(x, y, r).to_bits(),
                s32(soft::mul(F32, a6, b6, r)),
                "mul32 {a:#x} {b:#x} {r:?}"
            );
            assert_eq!(
                fp32::div(x, y, r).to_bits(),
                s32(soft::div(F32, a6, b6, r)),
                "div32 {a:#x} {b:#x} {r:?}"
            );
            assert_eq!(
                fp32::sqrt(x, r).to_bits(),
                s32(soft::sqrt(F32, a6, r)),
                "sqrt32 {a:#x} {r:?}"
            );
            assert_eq!(
                fp32::fma(x, y, z, r).to_bits(),
                s32(soft::fma(F32, a6, b6, c6, r)),
                "fma32 {a:#x} {b:#x} {c:#x} {r:?}"
            );
            assert_eq!(
                fp64::add(u, v, r).to_bits(),
                soft::add(F64, p, q, r),
                "add64 {p:#x} {q:#x} {r:?}"
            );
            assert_eq!(
                fp64::mul(u, v, r).to_bits(),
                soft::mul(F64, p, q, r),
                "mul64 {p:#x} {q:#x} {r:?}"
            );
            assert_eq!(
                fp64::div(u, v, r).to_bits(),
                soft::div(F64, p, q, r),
                "div64 {p:#x} {q:#x} {r:?}"
            );
            assert_eq!(
                fp64::sqrt(u, r).to_bits(),
                soft::sqrt(F64, p, r),
                "sqrt64 {p:#x} {r:?}"
            );
        }
    }
}
