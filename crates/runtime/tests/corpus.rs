//! Runs every kernel of the corpus (tests/kernels/*.cl, compiled by clang-14 +
//! libclc for tahiti, bonaire, hawaii, tonga, fiji, gfx900 and gfx906 into
//! tests/fixtures/gcn/) on the
//! emulator with generated inputs, and compares every output with a CPU
//! reference computed here, with every run-time check on (no finding allowed).

use risa_check::run::{Options, Session};
use risa_runtime::args::ArgValue::{self, Buffer, Local, F32, I32, U32};
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::{LaunchConfig, RunError};
use std::path::PathBuf;

const CHIPS: [&str; 7] = [
    "tahiti", "bonaire", "hawaii", "tonga", "fiji", "gfx900", "gfx906",
];

/// Fixture directories: clang-14 + libclc (code object v4) and clang-19 + ROCm
/// device libraries (code object v5), both built by tools/build-gcn-fixtures.sh.
const TOOLCHAINS: [&str; 2] = ["gcn", "gcn-v5"];

fn fixture(dir: &str, chip: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/fixtures/{dir}/{chip}/{name}.o"))
}

use risa_rng::Rng;

fn fbuf(v: &[f32]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
fn ibuf(v: &[i32]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
fn ubuf(v: &[u32]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
fn lbuf(v: &[i64]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
fn dbuf(v: &[f64]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
fn zeros(n: usize) -> ArgValue {
    Buffer(vec![0; n])
}
fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_u32(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_i64(b: &[u8]) -> Vec<i64> {
    b.chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_f64(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// f32 to half bits, round to nearest even (written independently of the emulator's).
fn f16_of(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32;
    let m = b & 0x7f_ffff;
    if e == 255 {
        return sign | 0x7c00 | if m != 0 { 0x200 } else { 0 };
    }
    let e16 = e - 127 + 15;
    if e16 >= 31 {
        return sign | 0x7c00;
    }
    let (r, rem, half) = if e16 <= 0 {
        if e16 < -10 {
            return sign;
        }
        let mm = m | 0x80_0000;
        let sh = (14 - e16) as u32;
        (mm >> sh, mm & ((1 << sh) - 1), 1u32 << (sh - 1))
    } else {
        ((e16 as u32) << 10 | m >> 13, m & 0x1fff, 0x1000)
    };
    let up = rem > half || (rem == half && r & 1 == 1);
    sign | (r + up as u32) as u16
}

/// Half bits to f32 (exact).
fn f32_of(h: u16) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f32::from(h & 0x3ff);
    s * match e {
        0 => m * 2f32.powi(-24),
        31 => {
            if m == 0.0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Distance in units in the last place between two f32 values.
fn ulps(a: f32, b: f32) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    let k = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i64::from(i32::MIN) - i64::from(i)
        } else {
            i64::from(i)
        }
    };
    k(a).abs_diff(k(b))
}

/// Float comparison: `max_ulps` apart, or within `rel` relative / `abs` absolute error.
fn close(got: &[f32], want: &[f32], max_ulps: u64, rel: f32, abs: f32) -> Result<(), String> {
    if got.len() < want.len() {
        return Err(format!(
            "output has {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = ulps(g, w) <= max_ulps || (g - w).abs() <= abs || (g - w).abs() <= rel * w.abs();
        if !ok {
            return Err(format!(
                "[{i}]: got {g:e} ({:#010x}), expected {w:e} ({:#010x})",
                g.to_bits(),
                w.to_bits()
            ));
        }
    }
    Ok(())
}

fn same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Result<(), String> {
    if got.len() < want.len() {
        return Err(format!(
            "output has {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return Err(format!("[{i}]: got {g:?}, expected {w:?}"));
        }
    }
    Ok(())
}

/// A check over the buffers after a run: (argument index, bytes).
type Check = Box<dyn Fn(&[(usize, Vec<u8>)]) -> Result<(), String>>;

struct Case {
    file: &'static str,
    kernel: Option<&'static str>,
    args: Vec<ArgValue>,
    grid: Vec<u32>,
    block: [u32; 3],
    offset: [u64; 3],
    /// Chips clang cannot compile the kernel for (no object): skipped.
    no_object: &'static [&'static str],
    /// Checks the buffers: (argument index, bytes).
    check: Check,
}

fn case(
    file: &'static str,
    args: Vec<ArgValue>,
    n: u32,
    check: impl Fn(&[(usize, Vec<u8>)]) -> Result<(), String> + 'static,
) -> Case {
    Case {
        file,
        kernel: None,
        args,
        grid: vec![n],
        block: [64, 1, 1],
        offset: [0; 3],
        no_object: &[],
        check: Box::new(check),
    }
}

fn buf(b: &[(usize, Vec<u8>)], i: usize) -> &[u8] {
    &b.iter().find(|(k, _)| *k == i).expect("buffer argument").1
}

const N: usize = 256;

fn cases() -> Vec<Case> {
    let mut r = Rng::from_state(0x9e37_79b9_7f4a_7c15);
    let mut v = Vec::new();

    // vadd with n < grid: the bounds check matters.
    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-100.0, 100.0)).collect();
    let b: Vec<f32> = (0..N).map(|_| r.f32_in(-100.0, 100.0)).collect();
    let want: Vec<f32> = (0..N)
        .map(|i| if i < 200 { a[i] + b[i] } else { 0.0 })
        .collect();
    v.push(case(
        "vadd",
        vec![fbuf(&a), fbuf(&b), zeros(4 * N), I32(200)],
        N as u32,
        move |o| close(&as_f32(buf(o, 2)), &want, 0, 0.0, 0.0),
    ));

    let x: Vec<u32> = (0..N).map(|_| r.next_u32()).collect();
    let want: Vec<u32> = x
        .iter()
        .map(|&x| {
            let f = (x >> 5) & 0x3ff;
            let g = (x & !0xff00u32) | ((f & 0xff) << 8);
            let h = (x << 24) | ((x & 0xff00) << 8) | ((x >> 8) & 0xff00) | (x >> 24);
            f.wrapping_add(g)
                .wrapping_add(h)
                .wrapping_add(x.rotate_right(3))
        })
        .collect();
    v.push(case(
        "bitops",
        vec![ubuf(&x), zeros(4 * N)],
        N as u32,
        move |o| same(&as_u32(buf(o, 1)), &want),
    ));

    let a8: Vec<u8> = (0..=N).map(|_| r.next_u32() as u8).collect();
    let b16: Vec<i16> = (0..N).map(|_| r.next_u32() as i16).collect();
    let wa: Vec<u8> = (0..N).map(|i| a8[i].wrapping_add(a8[i + 1])).collect();
    let wb: Vec<i16> = (0..N)
        .map(|i| (i32::from(b16[i]) * 3 - i32::from(a8[i])) as i16)
        .collect();
    v.push(case(
        "bytes_shorts",
        vec![
            Buffer(a8.clone()),
            Buffer(b16.iter().flat_map(|x| x.to_le_bytes()).collect()),
            zeros(N),
            zeros(2 * N),
        ],
        N as u32,
        move |o| {
            same(&buf(o, 2)[..N], &wa)?;
            let gb: Vec<i16> = buf(o, 3)
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            same(&gb, &wb)
        },
    ));

    let f: Vec<f32> = (0..N)
        .map(|i| {
            if i % 17 == 3 {
                f32::NAN
            } else {
                r.f32_in(-1e6, 5e9)
            }
        })
        .collect();
    let n: Vec<i32> = (0..N).map(|_| r.next_u32() as i32).collect();
    let (f2, n2) = (f.clone(), n.clone());
    v.push(case(
        "convert",
        vec![
            fbuf(&f),
            ibuf(&n),
            zeros(4 * N),
            zeros(4 * N),
            zeros(4 * N),
            zeros(2 * N),
            zeros(N),
        ],
        N as u32,
        move |o| {
            let of: Vec<f32> = n2.iter().map(|&x| x as f32 + (x as u32) as f32).collect();
            close(&as_f32(buf(o, 2)), &of, 0, 0.0, 0.0)?;
            // (int)f is undefined out of range; compare only in range.
            let gi = as_i32(buf(o, 3));
            for (i, &x) in f2.iter().enumerate() {
                if x.abs() < 2e9 && gi[i] != x as i32 {
                    return Err(format!("oi[{i}] = {}, expected {}", gi[i], x as i32));
                }
            }
            let ou: Vec<u32> = f2.iter().map(|&x| x as u32).collect();
            same(&as_u32(buf(o, 4)), &ou)?;
            let os: Vec<i16> = n2.iter().map(|&x| x as i16).collect();
            let gs: Vec<i16> = buf(o, 5)
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            same(&gs, &os)?;
            let oc: Vec<u8> = n2.iter().map(|&x| x.clamp(0, 255) as u8).collect();
            same(&buf(o, 6)[..N], &oc)
        },
    ));

    let da: Vec<f64> = (0..N).map(|i| i as f64 * 1.25 - 7.0).collect();
    let db: Vec<f64> = (0..=N).map(|i| -(i as f64) * 0.5).collect();
    let sel: Vec<i32> = (0..N).map(|_| r.i32_in(0, 1)).collect();
    let want: Vec<f64> = (0..N)
        .map(|i| if sel[i] != 0 { da[i] } else { db[i + 1] })
        .collect();
    v.push(case(
        "double_arith",
        vec![dbuf(&da), dbuf(&db), zeros(8 * N), ibuf(&sel)],
        N as u32,
        move |o| same(&as_f64(buf(o, 2)), &want),
    ));

    let dv: Vec<f64> = (0..2 * N).map(|i| i as f64 + 0.5).collect();
    let want: Vec<f64> = (0..2 * N).map(|i| dv[i ^ 1]).collect();
    v.push(case(
        "double_vec",
        vec![dbuf(&dv), zeros(16 * N)],
        N as u32,
        move |o| same(&as_f64(buf(o, 1)), &want),
    ));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-8.0, 8.0)).collect();
    let b: Vec<f32> = (0..N)
        .map(|_| r.f32_in(0.5, 8.0) * if r.next_u32() & 1 == 0 { 1.0 } else { -1.0 })
        .collect();
    let (a2, b2) = (a.clone(), b.clone());
    v.push(case(
        "float_arith",
        vec![fbuf(&a), fbuf(&b), zeros(24 * N)],
        N as u32,
        move |o| {
            let mut want = Vec::new();
            for i in 0..N {
                let (x, y) = (a2[i], b2[i]);
                want.extend([
                    x * y + 1.5,
                    x / y,
                    x * y - x,
                    x.abs() - y.floor() + x.ceil(),
                    x.min(y) * x.max(y),
                    x.clamp(0.0, 1.0) + y.trunc() + x.round_ties_even(),
                ]);
            }
            // Contraction into fma and OpenCL's 2.5-ulp division allow small differences.
            close(&as_f32(buf(o, 2)), &want, 3, 1e-6, 1e-6)
        },
    ));

    let a: Vec<f32> = (0..8 * N).map(|_| r.f32_in(-2.0, 2.0)).collect();
    let b: Vec<f32> = (0..8 * N).map(|_| r.f32_in(-2.0, 2.0)).collect();
    let want: Vec<f32> = (0..8 * N)
        .map(|i| {
            let (lo, hi) = (a[i].min(b[i]), a[i].max(b[i]));
            lo + (hi - lo) * 0.25 + if a[i] < 0.5 { 0.0 } else { 1.0 }
        })
        .collect();
    v.push(case(
        "fmin_fmax_vec",
        vec![fbuf(&a), fbuf(&b), zeros(32 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 2)), &want, 4, 1e-6, 1e-6),
    ));

    v.push(case(
        "global_atomics",
        vec![
            ibuf(&[0, 0, i32::MAX, i32::MIN, -1, 0, 0, 0]),
            ubuf(&[u32::MAX, 0]),
        ],
        N as u32,
        move |o| {
            let n = N as i32;
            let or = (0..n).fold(0, |m, i| m | i);
            let xor = (0..n).fold(0, |m, i| m ^ i);
            same(
                &as_i32(buf(o, 0))[..7],
                &[(0..n).sum::<i32>(), 0, 0, n - 1, !or, or, xor],
            )?;
            same(&as_u32(buf(o, 1)), &[0, N as u32 - 1])
        },
    ));

    v.push(case(
        "atomic_cmpxchg",
        vec![ibuf(&[0, 0]), ibuf(&[-1; 8])],
        N as u32,
        move |o| {
            let l = as_i32(buf(o, 0));
            if l[0] != N as i32 || !(0..N as i32).contains(&l[1]) {
                return Err(format!("lock = {l:?}"));
            }
            for (j, &x) in as_i32(buf(o, 1)).iter().enumerate() {
                if x < 0 || x as usize % 8 != j {
                    return Err(format!("vals[{j}] = {x}"));
                }
            }
            Ok(())
        },
    ));

    // ids: 1-D, and 3-D with partial groups and offsets below.
    let want: Vec<u32> = (0..N as u32)
        .flat_map(|g| [g % 64, 0, 0, g / 64, 0, N as u32 / 64, 64 + 1, 1])
        .collect();
    v.push(case("ids", vec![zeros(32 * N)], N as u32, move |o| {
        same(&as_u32(buf(o, 0)), &want)
    }));

    let la: Vec<i64> = (0..N).map(|_| r.next_u64() as i64).collect();
    let lb: Vec<i64> = (0..N).map(|_| r.next_u64() as i64).collect();
    let want: Vec<i64> = (0..N)
        .flat_map(|i| {
            [
                la[i].wrapping_add(lb[i]),
                la[i].wrapping_mul(lb[i]),
                (la[i] >> 7) ^ (lb[i] << 3),
            ]
        })
        .collect();
    v.push(case(
        "int64",
        vec![lbuf(&la), lbuf(&lb), zeros(24 * N)],
        N as u32,
        move |o| same(&as_i64(buf(o, 2)), &want),
    ));

    // |x|, |y| < 2^30: max(x, y) - min(x, y) must not overflow (signed overflow
    // is undefined in OpenCL C, and clang-19 rewrites it as an absolute difference).
    let a: Vec<i32> = (0..N).map(|_| (r.next_u32() as i32) >> 2).collect();
    let b: Vec<i32> = (0..N)
        .map(|i| {
            if i % 3 == 0 {
                r.i32_in(-50, 49)
            } else {
                (r.next_u32() as i32) >> 2
            }
        })
        .collect();
    let want: Vec<i32> = (0..N)
        .flat_map(|i| {
            let (x, y) = (a[i], b[i] | 1);
            [
                x.wrapping_mul(y),
                x / y,
                x % y,
                x << (y & 31),
                x >> (y & 31),
                (x & y) ^ (x | !y),
                x.max(y).wrapping_sub(x.min(y)),
                (x.unsigned_abs()
                    .wrapping_add(y.leading_zeros())
                    .wrapping_add(x.count_ones())) as i32,
            ]
        })
        .collect();
    v.push(case(
        "int_arith",
        vec![ibuf(&a), ibuf(&b), zeros(32 * N)],
        N as u32,
        move |o| same(&as_i32(buf(o, 2)), &want),
    ));

    let a: Vec<i32> = (0..N as i32).map(|i| i * 3 + 1).collect();
    let want: Vec<i32> = (0..N).map(|i| a[(i / 64) * 64 + 63 - i % 64]).collect();
    v.push(case(
        "lds_arg",
        vec![ibuf(&a), zeros(4 * N), Local(256)],
        N as u32,
        move |o| same(&as_i32(buf(o, 1)), &want),
    ));

    let a: Vec<u32> = (0..N).map(|_| r.next_u32() & 0xfff).collect();
    let mut hist = [0u32; 16];
    for g in 0..N / 64 {
        let vs = &a[g * 64..g * 64 + 64];
        let mut bins = [0u32; 16];
        // One wave per group: each atomic instruction runs for all lanes in order.
        for &x in vs {
            bins[(x & 15) as usize] += 1;
        }
        for &x in vs {
            bins[((x >> 4) & 15) as usize] += 2;
        }
        for &x in vs {
            let k = ((x >> 8) & 15) as usize;
            bins[k] = bins[k].max(x);
        }
        for k in 0..16 {
            hist[k] += bins[k];
        }
    }
    v.push(case(
        "lds_atomics",
        vec![ubuf(&a), zeros(64)],
        N as u32,
        move |o| same(&as_u32(buf(o, 1)), &hist),
    ));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-10.0, 10.0)).collect();
    let want: Vec<f32> = (0..N / 64)
        .map(|g| {
            let mut t: Vec<f32> = a[g * 64..g * 64 + 64].to_vec();
            let mut s = 32;
            while s > 0 {
                for l in 0..s {
                    t[l] += t[l + s];
                }
                s >>= 1;
            }
            t[0]
        })
        .collect();
    v.push(case(
        "lds_reduce",
        vec![fbuf(&a), zeros(4 * N / 64)],
        N as u32,
        move |o| close(&as_f32(buf(o, 1)), &want, 0, 0.0, 0.0),
    ));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-20.0, 20.0)).collect();
    let want: Vec<f32> = a
        .iter()
        .flat_map(|&x| [x.abs().sqrt(), (x * 0.25).exp(), (x.abs() + 1.0).ln()])
        .collect();
    v.push(case(
        "libm_float",
        vec![fbuf(&a), zeros(12 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 1)), &want, 4, 2e-6, 1e-7),
    ));

    let a: Vec<i32> = (0..64).map(|_| r.i32_in(0, 299)).collect();
    let a2 = a.clone();
    v.push(case(
        "loop_break",
        vec![ibuf(&a), zeros(4 * N), I32(64)],
        N as u32,
        move |o| {
            let want: Vec<i32> = (0..N as i32)
                .map(|i| {
                    let mut s = 0i32;
                    for &x in &a2 {
                        if x == i {
                            break;
                        }
                        if x & 1 != 0 {
                            continue;
                        }
                        s += x;
                    }
                    s
                })
                .collect();
            same(&as_i32(buf(o, 1)), &want)
        },
    ));

    let a: Vec<i32> = (0..N + 37).map(|_| r.i32_in(-1000, 999)).collect();
    let want: Vec<i32> = (0..N)
        .map(|i| (0..37).map(|k| a[i + k] * k as i32).sum())
        .collect();
    v.push(case(
        "loop_sum",
        vec![ibuf(&a), zeros(4 * N), I32(37)],
        N as u32,
        move |o| same(&as_i32(buf(o, 1)), &want),
    ));

    let ps: Vec<Vec<f32>> = (0..4)
        .map(|_| (0..N).map(|_| r.f32_in(-4.0, 4.0)).collect())
        .collect();
    let (s, k, uu, s2, k2) = (
        [1.5f32, -0.25, 3.0, 0.125],
        [3, -7, 11, 5],
        [0x55u32, 0x0f],
        [2.0f32, 0.5, -1.0, 4.0],
        [1, 2, 3, -4],
    );
    let want: Vec<f32> = (0..N)
        .map(|i| {
            let mut v = ps[0][i] * s[0] + ps[1][i] * s[1] + ps[2][i] * s[2] + ps[3][i] * s[3];
            v += (k[0] + k[1] * k[2] - k[3]) as f32 + (uu[0] ^ uu[1]) as f32;
            v += s2[0] * s2[1] - s2[2] * s2[3] + (k2.iter().sum::<i32>()) as f32;
            v
        })
        .collect();
    let mut args = vec![zeros(4 * N)];
    args.extend(ps.iter().map(|p| fbuf(p)));
    args.extend(s.iter().map(|&x| F32(x)));
    args.extend(k.iter().map(|&x| I32(x)));
    args.extend(uu.iter().map(|&x| U32(x)));
    args.extend(s2.iter().map(|&x| F32(x)));
    args.extend(k2.iter().map(|&x| I32(x)));
    v.push(case("many_args", args, N as u32, move |o| {
        close(&as_f32(buf(o, 0)), &want, 8, 1e-5, 1e-5)
    }));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-3.0, 3.0)).collect();
    for (kname, arg, f) in [
        (
            "scale",
            Some(F32(2.5)),
            (|x: f32| x * 2.5) as fn(f32) -> f32,
        ),
        ("offset", Some(F32(-0.75)), |x| x + -0.75),
        ("square", None, |x| x * x),
    ] {
        let want: Vec<f32> = a.iter().map(|&x| f(x)).collect();
        let mut args = vec![fbuf(&a)];
        args.extend(arg);
        let mut c = case("multi_kernel", args, N as u32, move |o| {
            close(&as_f32(buf(o, 0)), &want, 0, 0.0, 0.0)
        });
        c.kernel = Some(kname);
        v.push(c);
    }

    let a: Vec<i32> = (0..N).map(|_| r.i32_in(-300, 299)).collect();
    let want: Vec<i32> = a
        .iter()
        .map(|&x| {
            if x > 0 {
                if x > 100 {
                    x * 2
                } else if x & 1 != 0 {
                    x + 7
                } else {
                    x - 3
                }
            } else if x < -100 {
                -x
            } else {
                0
            }
        })
        .collect();
    v.push(case(
        "nested_branch",
        vec![ibuf(&a), zeros(4 * N)],
        N as u32,
        move |o| same(&as_i32(buf(o, 1)), &want),
    ));

    // 2-D grid: an n x n matrix product.
    let n = 24usize;
    let ma: Vec<f32> = (0..n * n).map(|_| r.f32_in(-1.0, 1.0)).collect();
    let mb: Vec<f32> = (0..n * n).map(|_| r.f32_in(-1.0, 1.0)).collect();
    let want: Vec<f32> = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            (0..n).fold(0.0f32, |acc, k| acc + ma[row * n + k] * mb[k * n + col])
        })
        .collect();
    let mut c = case(
        "nested_loops",
        vec![fbuf(&ma), fbuf(&mb), zeros(4 * n * n), I32(n as i32)],
        n as u32,
        move |o| close(&as_f32(buf(o, 2)), &want, 16, 1e-5, 1e-5),
    );
    c.grid = vec![n as u32, n as u32];
    c.block = [8, 8, 1];
    v.push(c);

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-4.0, 4.0)).collect();
    let b: Vec<f32> = (0..N).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let want: Vec<f32> = (0..N)
        .flat_map(|i| [a[i].abs().powf(b[i]), a[i].atan2(b[i]), a[i].tanh()])
        .collect();
    v.push(case(
        "pow_atan",
        vec![fbuf(&a), fbuf(&b), zeros(12 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 2)), &want, 8, 4e-6, 1e-6),
    ));

    let idx: Vec<i32> = (0..N).map(|_| r.i32_in(0, 255)).collect();
    let want: Vec<i32> = (0..N as i32)
        .map(|i| {
            let x = idx[i as usize];
            ((x & 15) * i + 1) + (((x >> 4) & 15) * i + 1)
        })
        .collect();
    v.push(case(
        "private_array",
        vec![ibuf(&idx), zeros(4 * N)],
        N as u32,
        move |o| same(&as_i32(buf(o, 1)), &want),
    ));

    let a: Vec<f32> = (0..N)
        .map(|i| {
            if i % 11 == 0 {
                f32::NAN
            } else {
                r.f32_in(-2.0, 2.0)
            }
        })
        .collect();
    let b: Vec<f32> = (0..N)
        .map(|i| {
            if i % 7 == 0 {
                a[i]
            } else {
                r.f32_in(-2.0, 2.0)
            }
        })
        .collect();
    let c: Vec<i32> = (0..N).map(|_| r.i32_in(-20, 199)).collect();
    let wf: Vec<f32> = (0..N)
        .map(|i| {
            let (x, y) = (a[i], b[i]);
            if x > y {
                x - y
            } else if x == y {
                0.5
            } else {
                y * 2.0
            }
        })
        .collect();
    let wi: Vec<i32> = (0..N)
        .map(|i| {
            (c[i] >= 0) as i32
                + (c[i] != 7) as i32
                + ((c[i] as u32) < 100) as i32
                + a[i].is_nan() as i32
                + (a[i] <= b[i]) as i32
        })
        .collect();
    v.push(case(
        "select_cmp",
        vec![fbuf(&a), fbuf(&b), ibuf(&c), zeros(4 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            close(&as_f32(buf(o, 3)), &wf, 0, 0.0, 0.0)?;
            same(&as_i32(buf(o, 4)), &wi)
        },
    ));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-10.0, 10.0)).collect();
    let ws: Vec<f32> = a.iter().map(|x| x.sin()).collect();
    let wc: Vec<f32> = a.iter().map(|x| x.cos()).collect();
    v.push(case(
        "sin_cos",
        vec![fbuf(&a), zeros(4 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            close(&as_f32(buf(o, 1)), &ws, 4, 0.0, 2e-7)?;
            close(&as_f32(buf(o, 2)), &wc, 4, 0.0, 2e-7)
        },
    ));

    let a: Vec<i32> = (0..N).map(|_| r.i32_in(-1000, 999)).collect();
    let want: Vec<f32> = (0..N)
        .map(|i| match a[i] & 7 {
            0 => 1.0,
            1 => i as f32,
            2 => -2.5,
            3 => a[i] as f32 * 0.5,
            _ => 0.0,
        })
        .collect();
    v.push(case(
        "switch_case",
        vec![ibuf(&a), zeros(4 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 1)), &want, 0, 0.0, 0.0),
    ));

    let a: Vec<f32> = (0..N).map(|_| r.f32_in(-1.5, 1.5)).collect();
    let want: Vec<f32> = a
        .iter()
        .flat_map(|&x| {
            [
                x.sin() + x.cos(),
                x.exp2() + (x.abs() + 1.0).log2(),
                x.abs().sqrt() + 1.0 / (x.abs() + 1.0).sqrt(),
                1.0 / (x + 2.0),
            ]
        })
        .collect();
    // native_* functions have implementation-defined accuracy.
    v.push(case(
        "transcendental",
        vec![fbuf(&a), zeros(16 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 1)), &want, 64, 1e-4, 1e-4),
    ));

    let a: Vec<u32> = (0..N).map(|_| r.next_u32()).collect();
    let b: Vec<u32> = (0..N)
        .map(|i| {
            if i % 2 == 0 {
                r.next_u32() >> 20
            } else {
                r.next_u32()
            }
        })
        .collect();
    let want: Vec<u32> = (0..N)
        .flat_map(|i| {
            let (x, y) = (a[i], b[i] | 1);
            [
                x / y,
                x % y,
                x.rotate_left(y & 31),
                ((u64::from(x) * u64::from(y)) >> 32) as u32,
                (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff).wrapping_add(7),
                (x >> 3).wrapping_add(y << 5).wrapping_add(x.abs_diff(y)),
            ]
        })
        .collect();
    v.push(case(
        "uint_arith",
        vec![ubuf(&a), ubuf(&b), zeros(24 * N)],
        N as u32,
        move |o| same(&as_u32(buf(o, 2)), &want),
    ));

    let a: Vec<f32> = (0..4 * N).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let b: Vec<f32> = (0..4 * N).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let wc: Vec<f32> = (0..4 * N)
        .map(|i| a[i] * b[i] + (i % 4 + 1) as f32)
        .collect();
    let wd: Vec<f32> = (0..N)
        .map(|i| (0..4).map(|k| a[4 * i + k] * b[4 * i + k]).sum())
        .collect();
    v.push(case(
        "vec4",
        vec![fbuf(&a), fbuf(&b), zeros(16 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            close(&as_f32(buf(o, 2)), &wc, 2, 1e-6, 1e-6)?;
            close(&as_f32(buf(o, 3)), &wd, 4, 1e-5, 1e-5)
        },
    ));

    let a: Vec<i32> = (0..4 * N).map(|_| r.next_u32() as i32).collect();
    let b: Vec<u8> = (0..4 * N).map(|_| r.next_u32() as u8).collect();
    let want: Vec<i32> = (0..4 * N)
        .map(|i| {
            let base = i & !3;
            a[base + 3 - (i & 3)]
                .wrapping_add(i32::from(b[i]) * 3)
                .wrapping_sub(a[i] >> 2)
        })
        .collect();
    v.push(case(
        "vec_int",
        vec![ibuf(&a), Buffer(b), zeros(16 * N)],
        N as u32,
        move |o| same(&as_i32(buf(o, 2)), &want),
    ));

    // 40 work-items in one partial group of 64.
    let m = 40usize;
    let a: Vec<f32> = (0..64 + 3 * m).map(|_| r.f32_in(-5.0, 5.0)).collect();
    let mut want = vec![0.0f32; 128 + 2 * m];
    for i in 0..m {
        let (px, py) = (a[2 * i], a[2 * i + 1]);
        let q = [a[64 + 3 * i], a[64 + 3 * i + 1], a[64 + 3 * i + 2]];
        want[3 * i] = q[2] + px;
        want[3 * i + 1] = q[0] + py;
        want[3 * i + 2] = q[1] + px;
        want[128 + 2 * i] = py * 2.0;
        want[128 + 2 * i + 1] = px * 2.0;
    }
    v.push(case(
        "vec_load_store",
        vec![fbuf(&a), zeros(4 * (128 + 2 * m))],
        m as u32,
        move |o| close(&as_f32(buf(o, 1)), &want, 0, 0.0, 0.0),
    ));

    let a: Vec<u32> = (0..N).map(|_| r.next_u32() >> 8).collect();
    let want: Vec<u32> = a
        .iter()
        .map(|&a| {
            let (mut x, mut s) = (a | 1, 0u32);
            while x != 1 && s < 1000 {
                x = if x & 1 != 0 {
                    x.wrapping_mul(3).wrapping_add(1)
                } else {
                    x >> 1
                };
                s += 1;
            }
            s
        })
        .collect();
    v.push(case(
        "while_loop",
        vec![ubuf(&a), zeros(4 * N)],
        N as u32,
        move |o| same(&as_u32(buf(o, 1)), &want),
    ));

    // Half precision: inputs are halves; references round once to half.
    let ha: Vec<u16> = (0..N).map(|_| f16_of(r.f32_in(-8.0, 8.0))).collect();
    let hb: Vec<u16> = (0..N).map(|_| f16_of(r.f32_in(-8.0, 8.0))).collect();
    let hbuf = |v: &[u16]| Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    let (ha2, hb2) = (ha.clone(), hb.clone());
    v.push(case(
        "half_arith",
        vec![hbuf(&ha), hbuf(&hb), zeros(8 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            let got: Vec<u16> = buf(o, 2)
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            let gf = as_f32(buf(o, 3));
            for i in 0..N {
                let (x, y) = (f32_of(ha2[i]), f32_of(hb2[i]));
                let want = [
                    f16_of(x + y),
                    f16_of(x * y),
                    f16_of(x - y * 0.5),
                    f16_of(x.max(y)),
                ];
                for k in 0..4 {
                    // x - y*0.5 may be contracted into one fused operation: 1 half-ulp.
                    if got[4 * i + k].abs_diff(want[k]) > u16::from(k == 2) {
                        return Err(format!(
                            "out[{}] = {:#06x}, expected {:#06x} (x={x}, y={y})",
                            4 * i + k,
                            got[4 * i + k],
                            want[k]
                        ));
                    }
                }
                let wf = f32_of(f16_of(x * y)) + y;
                // Without 16-bit instructions (tahiti, hawaii) clang-14 keeps x*y in f32
                // (`v_mac_f32` on the promoted values, no rounding to half in between).
                let promoted = x * y + y;
                if ulps(gf[i], wf) > 0 && ulps(gf[i], promoted) > 0 {
                    return Err(format!("outf[{i}] = {}, expected {wf}", gf[i]));
                }
            }
            Ok(())
        },
    ));

    // Packed halves and shorts (VOP3P on gfx900).
    let pa: Vec<u16> = (0..2 * N).map(|_| f16_of(r.f32_in(-4.0, 4.0))).collect();
    let pb: Vec<u16> = (0..2 * N).map(|_| f16_of(r.f32_in(-4.0, 4.0))).collect();
    let ps: Vec<i16> = (0..2 * N).map(|_| r.next_u32() as i16).collect();
    let (pa2, pb2, ps2) = (pa.clone(), pb.clone(), ps.clone());
    v.push(case(
        "half2_math",
        vec![
            hbuf(&pa),
            hbuf(&pb),
            zeros(8 * N),
            Buffer(ps.iter().flat_map(|x| x.to_le_bytes()).collect()),
        ],
        N as u32,
        move |o| {
            let got: Vec<u16> = buf(o, 2)
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            for i in 0..N {
                for k in 0..2 {
                    let (x, y) = (f32_of(pa2[2 * i + k]), f32_of(pb2[2 * i + k]));
                    // x * y + x: fused (v_pk_fma_f16) or rounded in between.
                    let fused = f16_of(x * y + x);
                    let split = f16_of(f32_of(f16_of(x * y)) + x);
                    let g = got[2 * i + k];
                    if g != fused && g != split {
                        return Err(format!(
                            "out[{i}].{k} = {g:#06x}, expected {fused:#06x} or {split:#06x}"
                        ));
                    }
                    let yo = f32_of(pb2[2 * i + 1 - k]);
                    let want = f16_of(x.max(y) - yo);
                    if got[2 * (i + N) + k] != want {
                        return Err(format!(
                            "out[{}].{k} = {:#06x}, expected {want:#06x}",
                            i + N,
                            got[2 * (i + N) + k]
                        ));
                    }
                }
            }
            let gs: Vec<i16> = buf(o, 3)
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            let ws: Vec<i16> = (0..N)
                .flat_map(|i| {
                    let (s0, s1) = (ps2[2 * i], ps2[2 * i + 1]);
                    [
                        s0.wrapping_mul(3).wrapping_add(s1),
                        s1.wrapping_mul(-2).wrapping_add(s0),
                    ]
                })
                .collect();
            same(&gs, &ws)
        },
    ));

    let da: Vec<f64> = (0..N)
        .map(|_| f64::from(r.f32_in(-1e3, 1e3)) * 1.000_000_1)
        .collect();
    let db: Vec<f64> = (0..N)
        .map(|_| f64::from(r.f32_in(0.01, 50.0)) * if r.next_u32() & 1 == 0 { 1.0 } else { -1.0 })
        .collect();
    let (da2, db2) = (da.clone(), db.clone());
    v.push(case(
        "double_math",
        vec![dbuf(&da), dbuf(&db), zeros(40 * N)],
        N as u32,
        move |o| {
            let got = as_f64(buf(o, 2));
            for i in 0..N {
                let (x, y) = (da2[i], db2[i]);
                let want = [
                    x * y + 0.25,
                    x / y,
                    x.abs().sqrt(),
                    x.min(y) - y.floor(),
                    f64::from(x as i32) + f64::from(y as f32),
                ];
                for k in 0..5 {
                    let g = got[5 * i + k];
                    if (g - want[k]).abs() > 4.0 * f64::EPSILON * want[k].abs() {
                        return Err(format!(
                            "out[{}] = {g:e}, expected {:e}",
                            5 * i + k,
                            want[k]
                        ));
                    }
                }
            }
            Ok(())
        },
    ));

    // Double sine/cosine over small and huge arguments.
    let dt: Vec<f64> = (0..N)
        .map(|i| {
            let m = f64::from(r.f32_in(-1.0, 1.0));
            match i % 4 {
                0 => m * 10.0,
                1 => m * 1e6,
                2 => m * 1e22,
                _ => m * 1e300,
            }
        })
        .collect();
    let dt2 = dt.clone();
    v.push(case(
        "double_trig",
        vec![dbuf(&dt), zeros(16 * N)],
        N as u32,
        move |o| {
            let got = as_f64(buf(o, 1));
            for (i, &x) in dt2.iter().enumerate() {
                for (k, want) in [x.sin(), x.cos()].into_iter().enumerate() {
                    let g = got[2 * i + k];
                    if (g - want).abs() > 4.0 * f64::EPSILON * want.abs().max(1e-3) {
                        return Err(format!(
                            "{}({x:e}) = {g:e}, expected {want:e}",
                            ["sin", "cos"][k]
                        ));
                    }
                }
            }
            Ok(())
        },
    ));

    // Non-inlined function calls (s_swappc_b64 / s_setpc_b64, stack in scratch).
    let fa: Vec<i32> = (0..N).map(|_| r.i32_in(-500, 499)).collect();
    let ft: Vec<i32> = (0..16).map(|_| r.i32_in(-100, 99)).collect();
    let (fa2, ft2) = (fa.clone(), ft.clone());
    v.push(case(
        "func_call",
        vec![ibuf(&fa), ibuf(&ft), zeros(4 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            let mix = |a: i32, b: i32| -> i32 {
                let s: i32 = (0..(b & 7))
                    .map(|k| ft2[((a + k) & 15) as usize] * (k + 1))
                    .sum();
                s ^ a
            };
            let want: Vec<i32> = (0..N as i32)
                .map(|i| mix(fa2[i as usize], i) + mix(i, fa2[i as usize]))
                .collect();
            same(&as_i32(buf(o, 2)), &want)?;
            let wf: Vec<f32> = fa2
                .iter()
                .map(|&a| {
                    let x = a as f32 * 0.01;
                    ((x * 0.5 + 1.25) * x - 2.0) * x
                })
                .collect();
            close(&as_f32(buf(o, 3)), &wf, 4, 1e-6, 1e-6)
        },
    ));

    v.push(case(
        "atomic_return",
        vec![ubuf(&[0, 0, 0]), zeros(4 * N), zeros(4 * N)],
        N as u32,
        move |o| {
            let mut slots = as_u32(buf(o, 1));
            slots.sort_unstable();
            same(&slots, &(0..N as u32).collect::<Vec<_>>())?;
            let ls = as_u32(buf(o, 2));
            for g in 0..N / 64 {
                let mut s: Vec<u32> = ls[g * 64..g * 64 + 64].to_vec();
                s.sort_unstable();
                same(
                    &s,
                    &(0..64).map(|l| l + 1000 * g as u32).collect::<Vec<_>>(),
                )?;
            }
            let c = as_u32(buf(o, 0));
            if c[0] != N as u32 || c[1] >= N as u32 || c[2] >= N as u32 {
                return Err(format!("counter = {c:?}"));
            }
            Ok(())
        },
    ));

    let a: Vec<i32> = (0..N).map(|_| r.i32_in(0, (1 << 20) - 1)).collect();
    let want: Vec<i32> = a
        .iter()
        .map(|&x| {
            let mut t: Vec<i32> = (0..64).map(|k| x ^ k).collect();
            for k in 0..64 {
                t[((k * 7 + x) & 63) as usize] += k;
            }
            t[(x & 63) as usize] + t[((x >> 6) & 63) as usize]
        })
        .collect();
    v.push(case(
        "scratch_array",
        vec![ibuf(&a), zeros(4 * N)],
        N as u32,
        move |o| same(&as_i32(buf(o, 1)), &want),
    ));

    for (grid, block, off) in [
        (vec![10u32, 6, 3], [4u32, 4, 2], [5u64, 2, 1]),
        (vec![10, 6], [4, 4, 1], [3, 7, 0]),
        (vec![200], [64, 1, 1], [1000, 0, 0]),
    ] {
        let g3: [u32; 3] = std::array::from_fn(|d| grid.get(d).copied().unwrap_or(1));
        let total = (g3[0] * g3[1] * g3[2]) as usize;
        let mut want = vec![0u32; total];
        for z in 0..g3[2] {
            for y in 0..g3[1] {
                for x in 0..g3[0] {
                    let (gx, gy, gz) = (x + off[0] as u32, y + off[1] as u32, z + off[2] as u32);
                    let lin = ((z * g3[1] + y) * g3[0] + x) as usize;
                    want[lin] =
                        gx * 1_000_000 + gy * 1000 + gz + (x % block[0]) * 7 + (z / block[2]) * 3;
                }
            }
        }
        let mut c = case(
            "grid3d",
            vec![zeros(4 * total), U32(g3[0]), U32(g3[1])],
            g3[0],
            move |o| same(&as_u32(buf(o, 0)), &want),
        );
        c.grid = grid;
        c.block = block;
        c.offset = off;
        v.push(c);
    }

    let want: Vec<f32> = (0..N)
        .map(|i| {
            let (mut x, mut y, mut h) = (i as f32 * 0.001, 1.0f32, i as u32);
            for k in 0..100u32 {
                x = x * 0.999 + y;
                y = y * 0.5 - x * 0.0001;
                h = (h ^ (h >> 3)).wrapping_mul(0x9e37_79b1).wrapping_add(k);
            }
            x + y + (h & 0xff) as f32
        })
        .collect();
    v.push(case(
        "alu_loop",
        vec![zeros(4 * N), I32(100)],
        N as u32,
        move |o| close(&as_f32(buf(o, 0)), &want, 16, 1e-5, 1e-5),
    ));

    let a: Vec<f32> = (0..4 * N).map(|_| r.f32_in(-9.0, 9.0)).collect();
    let b: Vec<f32> = (0..4 * N).map(|_| r.f32_in(-9.0, 9.0)).collect();
    let want: Vec<f32> = (0..4 * N).map(|i| a[i] + b[i]).collect();
    v.push(case(
        "mem_copy",
        vec![fbuf(&a), fbuf(&b), zeros(16 * N)],
        N as u32,
        move |o| close(&as_f32(buf(o, 2)), &want, 0, 0.0, 0.0),
    ));

    // ids in 3-D with partial groups and a global offset.
    let (gx, gy, gz) = (10u32, 6u32, 3u32);
    let (bx, by, bz) = (4u32, 4u32, 2u32);
    let off = [100u64, 0, 0];
    let total = (gx * gy * gz) as usize;
    let mut c = case("ids", vec![zeros(32 * (total + 100))], gx, move |o| {
        let got = as_u32(buf(o, 0));
        // Only x varies the output index (gid = get_global_id(0)); the last writer
        // for each index is any (y, z) work-item, so check the fields that do not
        // depend on y and z.
        for x in 0..gx {
            let gid = (x as u64 + off[0]) as usize;
            let e = &got[gid * 8..gid * 8 + 8];
            let want_lid = x % bx;
            if e[0] != want_lid || e[3] != x / bx || e[5] != gx.div_ceil(bx) || e[7] != 3 {
                return Err(format!("gid {gid}: {e:?}"));
            }
            // get_global_size(1): ROCm's library (code object v5) assumes uniform
            // work-groups as OpenCL 1.2 requires and returns groups * group size.
            let gs1 = [gy, gy.div_ceil(by) * by];
            if e[1] >= by || e[2] >= bz || !gs1.contains(&(e[6] - bx)) {
                return Err(format!("gid {gid}: {e:?}"));
            }
        }
        Ok(())
    });
    c.grid = vec![gx, gy, gz];
    c.block = [bx, by, bz];
    c.offset = off;
    v.push(c);

    // Generic pointers into __local and private memory (FLAT apertures; on
    // hawaii/fiji the bases come from the HSA queue). Two groups of 64.
    let n = 128usize;
    let input: Vec<i32> = (0..n).map(|_| r.i32_in(-1000, 999)).collect();
    let mut want = vec![0i32; 3 * n];
    for g0 in (0..n).step_by(64) {
        let mut tmp: Vec<i32> = (0..64).map(|l| input[g0 + l] * 3).collect();
        let mut privs = Vec::new();
        for l in 0..64 {
            let gid = g0 + l;
            let priv_: Vec<i32> = (0..8)
                .map(|i| input[gid] + i as i32 * input[(gid + i) % n] + l as i32)
                .collect();
            want[3 * gid] = (0..8).map(|i| priv_[i] * (i as i32 + 1)).sum();
            want[3 * gid + 1] = (0..4).map(|i| tmp[(l & !3) + i] * (i as i32 + 1)).sum();
            privs.push(priv_);
        }
        for l in 0..64 {
            let gid = g0 + l;
            if gid & 1 == 1 {
                privs[l][gid & 7] += 5;
            } else {
                tmp[l] += 5;
            }
        }
        for l in 0..64 {
            let gid = g0 + l;
            want[3 * gid + 2] = if gid & 1 == 1 {
                privs[l][gid & 7]
            } else {
                tmp[l]
            };
        }
    }
    let mut c = case(
        "generic_ptr",
        vec![zeros(12 * n), ibuf(&input), Local(256)],
        n as u32,
        move |o| same(&as_i32(buf(o, 0)), &want),
    );
    // GCN 1.0 has no FLAT instructions, hence no generic address space.
    c.no_object = &["tahiti"];
    v.push(c);
    // Neighbouring LDS elements: clang-14 reads them with
    // `ds_read2_b64 v[3:6], v4 offset1:1` (the address VGPR among the
    // destinations) on every chip, clang-19 on gfx900/gfx906.
    const NP: usize = 256;
    let mut r = Rng::from_state(0x1d5);
    let pin: Vec<i32> = (0..NP + 64).map(|_| r.i32_in(-100_000, 99_999)).collect();
    let plin: Vec<i64> = (0..NP + 64).map(|_| r.next_u64() as i64 >> 3).collect();
    let (pin2, plin2) = (pin.clone(), plin.clone());
    v.push(case(
        "lds_pair",
        vec![ibuf(&pin), zeros(4 * NP), lbuf(&plin), zeros(8 * NP)],
        NP as u32,
        move |o| {
            // Each group of 64 reads its own 64 elements and the next one.
            let want: Vec<i32> = (0..NP)
                .map(|g| pin2[g].wrapping_mul(3).wrapping_sub(pin2[g + 1]))
                .collect();
            let lwant: Vec<i64> = (0..NP)
                .map(|g| plin2[g].wrapping_mul(5).wrapping_sub(plin2[g + 1]))
                .collect();
            same(&as_i32(buf(o, 1)), &want)?;
            same(&as_i64(buf(o, 3)), &lwant)
        },
    ));

    // add_sat/sub_sat and 64-bit clz: clang selects integer CLAMP for them
    // (v_add_u32_e64 ... clamp with a carry-out on GCN 1.2, v_add_i32 /
    // v_sub_i32 / v_add_u32 ... clamp on GCN 1.4; clz adds 32 with clamp).
    const NS: usize = 256;
    let mut r = Rng::from_state(0x5a7);
    let edges = [
        0u32,
        1,
        2,
        0x7fff,
        0x8000,
        0xffff,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
    ];
    let sa: Vec<u32> = (0..NS)
        .map(|i| if i < 121 { edges[i % 11] } else { r.next_u32() })
        .collect();
    let sb: Vec<u32> = (0..NS)
        .map(|i| if i < 121 { edges[i / 11] } else { r.next_u32() })
        .collect();
    let sw: Vec<i64> = (0..NS)
        .map(|i| match i % 4 {
            0 => 0,
            1 => (r.next_u64() >> (i % 64)) as i64,
            2 => (r.next_u32() >> (i % 32)) as i64,
            _ => r.next_u64() as i64,
        })
        .collect();
    let (sa2, sb2, sw2) = (sa.clone(), sb.clone(), sw.clone());
    v.push(case(
        "sat_clz",
        vec![ubuf(&sa), ubuf(&sb), lbuf(&sw), zeros(32 * NS)],
        NS as u32,
        move |o| {
            let got = as_u32(buf(o, 3));
            for i in 0..NS {
                let (x, y, w) = (sa2[i], sb2[i], sw2[i] as u64);
                let want = [
                    x.saturating_add(y),
                    x.saturating_sub(y),
                    (x as i32).saturating_add(y as i32) as u32,
                    (x as i32).saturating_sub(y as i32) as u32,
                    w.leading_zeros(),
                    u32::from((x as u16).saturating_add(y as u16)),
                    (x as i16).saturating_add(y as i16) as i32 as u32,
                    w.count_ones(),
                ];
                let mut want = want;
                // libclc-14's sub_sat(int) picks the saturated value by `x > 0`,
                // so 0 - INT_MIN gives INT_MIN with the clang-14 objects on every
                // chip (clamped or not: tahiti has no CLAMP); ROCm's gives INT_MAX.
                if x == 0 && y == 0x8000_0000 && got[8 * i + 3] == 0x8000_0000 {
                    want[3] = 0x8000_0000;
                }
                if got[8 * i..8 * i + 8] != want {
                    return Err(format!(
                        "x={x:#x} y={y:#x} w={w:#x}: {:x?}, expected {want:x?}",
                        &got[8 * i..8 * i + 8]
                    ));
                }
            }
            Ok(())
        },
    ));

    // gfx906 only: the dot-product builtins (every v_dot*, with and without
    // clamp) and fma of widened halves (v_fma_mix_f32, v_fma_mixlo_f16).
    const ND: usize = 256;
    let mut r = Rng::from_state(0xd07_d07);
    let edges = [
        0u32,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x7f7f_7f7f,
        0x8080_8080,
        0x7777_7777,
        0x8888_8888,
    ];
    let da: Vec<u32> = (0..ND)
        .map(|i| if i < 81 { edges[i % 9] } else { r.next_u32() })
        .collect();
    let db: Vec<u32> = (0..ND)
        .map(|i| if i < 81 { edges[i / 9] } else { r.next_u32() })
        .collect();
    let dc: Vec<i32> = (0..ND)
        .map(|i| {
            if i % 3 == 0 {
                edges[(i / 3) % 9] as i32
            } else {
                r.next_u32() as i32
            }
        })
        .collect();
    // Halves that are multiples of 1/16 in [-4, 4): every sum below is exact.
    let dh: Vec<u16> = (0..2 * ND + 4)
        .map(|_| f16_of(r.i32_in(-64, 63) as f32 / 16.0))
        .collect();
    let df: Vec<f32> = (0..ND).map(|_| r.f32_in(-2.0, 2.0)).collect();
    let (da2, db2, dc2, dh2, df2) = (da.clone(), db.clone(), dc.clone(), dh.clone(), df.clone());
    let mut c = case(
        "dot_mix",
        vec![
            zeros(56 * ND),
            ubuf(&da),
            ubuf(&db),
            ibuf(&dc),
            zeros(16 * ND),
            hbuf(&dh),
            fbuf(&df),
            zeros(2 * ND),
        ],
        ND as u32,
        move |o| {
            let out = as_i32(buf(o, 0));
            let fout = as_f32(buf(o, 4));
            let hout: Vec<u16> = buf(o, 7)
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            let dot = |a: u32, b: u32, c: u32, bits: u32, signed: bool, clamp: bool| -> i32 {
                let lane = |v: u32, k: u32| -> i64 {
                    let x = i64::from((v >> (bits * k)) & ((1u32 << bits) - 1));
                    if signed && x >> (bits - 1) != 0 {
                        x - (1i64 << bits)
                    } else {
                        x
                    }
                };
                let c0 = if signed {
                    i64::from(c as i32)
                } else {
                    i64::from(c)
                };
                let s = (0..32 / bits).fold(c0, |t, k| t + lane(a, k) * lane(b, k));
                match (clamp, signed) {
                    (false, _) => s as u32 as i32,
                    (true, true) => s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                    (true, false) => s.clamp(0, i64::from(u32::MAX)) as u32 as i32,
                }
            };
            for i in 0..ND {
                let (a, b, c) = (da2[i], db2[i], dc2[i] as u32);
                let mut want = [0i32; 14];
                for (k, (bits, signed)) in [
                    (16, true),
                    (16, false),
                    (8, true),
                    (8, false),
                    (4, true),
                    (4, false),
                ]
                .into_iter()
                .enumerate()
                {
                    want[2 * k] = dot(a, b, c, bits, signed, false);
                    want[2 * k + 1] = dot(a, b, c, bits, signed, true);
                }
                if out[14 * i..14 * i + 14] != want {
                    return Err(format!(
                        "dots of a={a:#x} b={b:#x} c={c:#x}: {:?}, expected {want:?}",
                        &out[14 * i..14 * i + 14]
                    ));
                }
                let h = |k: usize| f32_of(dh2[k]);
                let (hx, hy) = ((h(2 * i), h(2 * i + 1)), (h(2 * i + 2), h(2 * i + 3)));
                let exact = f64::from(hx.0) * f64::from(hy.0)
                    + f64::from(hx.1) * f64::from(hy.1)
                    + f64::from(df2[i]);
                let wf = [
                    exact as f32,
                    (exact as f32).clamp(0.0, 1.0),
                    hx.0.mul_add(hy.1, df2[i]),
                    0.0,
                ];
                let gf = &fout[4 * i..4 * i + 4];
                if gf.iter().zip(&wf).any(|(g, w)| g.to_bits() != w.to_bits()) {
                    return Err(format!("fdot2/fma_mix {i}: {gf:?}, expected {wf:?}"));
                }
                let wh = f16_of(hx.1 * hy.0 + h(i + 2));
                if hout[i] != wh {
                    return Err(format!(
                        "fma_mixlo {i}: {:#06x}, expected {wh:#06x}",
                        hout[i]
                    ));
                }
            }
            Ok(())
        },
    );
    c.no_object = &["tahiti", "bonaire", "hawaii", "tonga", "fiji", "gfx900"];
    v.push(c);
    v
}

#[test]
fn corpus_matches_cpu_reference() {
    let mut failures = Vec::new();
    let mut passed = 0;
    for (dir, chip) in TOOLCHAINS
        .iter()
        .flat_map(|d| CHIPS.iter().map(move |c| (*d, *c)))
    {
        for c in cases() {
            if c.no_object.contains(&chip) {
                continue;
            }
            let label = format!(
                "{dir}/{chip}/{}{}",
                c.file,
                c.kernel.map(|k| format!(":{k}")).unwrap_or_default()
            );
            let bytes = std::fs::read(fixture(dir, chip, c.file)).expect("fixture");
            let obj = GcnObject::load(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
            let k = obj.kernel(c.kernel).unwrap();
            let dims = c.grid.len() as u32;
            let mut cfg = LaunchConfig::new(
                std::array::from_fn(|i| c.grid.get(i).copied().unwrap_or(1)),
                dims,
            );
            cfg.block = c.block;
            cfg.offset = c.offset;
            cfg.threads = 2;
            cfg.max_instructions = 10_000_000;
            // Every run-time check on (global races too: one thread, so one
            // observer sees the whole dispatch): clang's code must give no finding,
            // and holding loads back until their s_waitcnt must not change
            // a result.
            // The 3D `ids` case races on purpose: every (y, z) work-item
            // writes the slot of its x (its check reads only what does not
            // depend on which one wrote last); races-global reports it.
            let deliberate_race = c.file == "ids" && c.grid.len() == 3;
            let list = if deliberate_race {
                "all"
            } else {
                "all,races-global"
            };
            let checks = std::sync::Arc::new(Session::new(
                Options::parse(list).unwrap(),
                risa_runtime::gcn_launch::wave_inputs(&k.desc),
            ));
            cfg.observe = Some(checks.factory());
            cfg.threads = 1;
            match launch(&obj, k, &c.args, &cfg) {
                Ok(r) => match (c.check)(&r.buffers) {
                    Ok(()) if checks.report().is_empty() => passed += 1,
                    Ok(()) => failures.push(format!(
                        "{label}: --check=all findings:\n{}",
                        checks.report().render(&label)
                    )),
                    Err(e) => failures.push(format!("{label}: {e}")),
                },
                Err(RunError::Fault(f, _)) => failures.push(format!("{label}: {f}")),
                Err(e) => failures.push(format!("{label}: {e}")),
            }
        }
    }
    println!("{passed} kernel runs match the CPU reference");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
