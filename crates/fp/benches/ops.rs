//! Nanoseconds per operation of each function under round-toward-zero (the
//! directed modes cost the same) and round-to-nearest-even, on 4096
//! pseudo-random operands near 1 (normal results: the common case).
//!
//! `cargo bench -p risa-fp --bench ops` (criterion, one benchmark per
//! function and mode; each prints the established ns/op line after it).

use risa_bench::{Bench, Throughput};
use risa_fp::{convert, fp16, fp32, fp64, Round};
use std::hint::black_box;

const N: usize = 4096;

fn time(c: &mut Bench, r: Round, label: &str, mut f: impl FnMut(usize) -> u64) {
    let mut acc = 0u64;
    let p = risa_bench::measure(
        c,
        &format!("fp/{r:?}"),
        label,
        Throughput::Elements(N as u64),
        || {
            for i in 0..N {
                acc = acc.wrapping_add(f(i));
            }
        },
    );
    black_box(acc);
    if p.ran() {
        let ns = p.mean_wall * 1e9 / N as f64;
        println!("{label:<24} {ns:>7.1} ns/op");
    }
}

fn main() {
    let cr = &mut risa_bench::criterion();
    let mut rng = risa_rng::Rng::from_state(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let f32s: Vec<f32> = (0..N)
        .map(|_| f32::from_bits(0x3f00_0000 | (next() as u32 & 0x00ff_ffff)))
        .collect();
    let f64s: Vec<f64> = (0..N)
        .map(|_| f64::from_bits(0x3fe0_0000_0000_0000 | (next() & 0x001f_ffff_ffff_ffff)))
        .collect();
    let f16s: Vec<u16> = (0..N).map(|_| 0x3800 | (next() as u16 & 0x07ff)).collect();
    let j = |i: usize| (i * 7 + 3) % N;
    for r in [Round::TowardZero, Round::NearestEven] {
        println!("-- {r:?}");
        let (a, b, c) = (&f32s, &f64s, &f16s);
        time(cr, r, "fp32::add", |i| {
            fp32::add(a[i], a[j(i)], r).to_bits().into()
        });
        time(cr, r, "fp32::mul", |i| {
            fp32::mul(a[i], a[j(i)], r).to_bits().into()
        });
        time(cr, r, "fp32::fma", |i| {
            fp32::fma(a[i], a[j(i)], a[j(j(i))], r).to_bits().into()
        });
        time(cr, r, "fp32::div", |i| {
            fp32::div(a[i], a[j(i)], r).to_bits().into()
        });
        time(cr, r, "fp32::sqrt", |i| {
            fp32::sqrt(a[i], r).to_bits().into()
        });
        time(cr, r, "fp64::add", |i| {
            fp64::add(b[i], b[j(i)], r).to_bits()
        });
        time(cr, r, "fp64::mul", |i| {
            fp64::mul(b[i], b[j(i)], r).to_bits()
        });
        time(cr, r, "fp64::fma", |i| {
            fp64::fma(b[i], b[j(i)], b[j(j(i))], r).to_bits()
        });
        time(cr, r, "fp64::div", |i| {
            fp64::div(b[i], b[j(i)], r).to_bits()
        });
        time(cr, r, "fp64::sqrt", |i| fp64::sqrt(b[i], r).to_bits());
        time(cr, r, "fp16::add", |i| fp16::add(c[i], c[j(i)], r).into());
        time(cr, r, "fp16::fma", |i| {
            fp16::fma(c[i], c[j(i)], c[j(j(i))], r).into()
        });
        time(cr, r, "convert::f64_to_f32", |i| {
            convert::f64_to_f32(b[i], r).to_bits().into()
        });
        time(cr, r, "convert::f32_to_f16", |i| {
            convert::f32_to_f16(a[i], r).into()
        });
        time(cr, r, "convert::i32_to_f32", |i| {
            convert::i32_to_f32(i as i32 * 40_009, r).to_bits().into()
        });
    }
    cr.final_summary();
}
