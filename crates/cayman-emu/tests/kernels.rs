//! Every fixture kernel (tests/kernels/*.cl compiled by clang-14 for cayman)
//! run end to end; outputs compared with CPU references computed here.
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use risa_cayman_emu::*;
use risa_runtime::cayman::Arg;

#[test]
fn vadd() {
    let k = kernel("vadd", "vadd");
    let n = 200usize;
    let mut r = Rng::from_state(1);
    let a: Vec<f32> = (0..n).map(|_| r.f32_in(-100.0, 100.0)).collect();
    let b: Vec<f32> = (0..n).map(|_| r.f32_in(-100.0, 100.0)).collect();
    let mut l = Layout::new();
    let pa = l.add(bytes_f32(&a));
    let pb = l.add(bytes_f32(&b));
    let pc = l.add(vec![0xee; 4 * 256]);
    let pool = l.pool();
    // grid rounded up to the block: the bounds check must keep c[200..] intact
    let st = go(
        &k,
        &Dispatch::linear(256, 64),
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(pc), Arg::U32(n as u32)],
        &pool,
    );
    let c = read_f32(&pool, pc, n);
    for i in 0..n {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "c[{i}]");
    }
    assert!(read_u32(&pool, pc + 4 * n as u32, 56)
        .iter()
        .all(|&x| x == 0xeeee_eeee));
    assert_eq!(st.workgroups, 4);
    assert!(st.alu_groups > 0);
}

#[test]
fn ids() {
    let k = kernel("ids", "ids");
    let (gx, gy, gz) = (8u32, 4u32, 2u32);
    let (bx, by, bz) = (4u32, 2u32, 2u32);
    let n = (gx * gy * gz) as usize;
    let mut l = Layout::new();
    let po = l.add(vec![0; 4 * 8 * n]);
    let pool = l.pool();
    let d = Dispatch {
        grid: [gx, gy, gz],
        block: [bx, by, bz],
        offset: [0; 3],
        work_dim: 3,
        max_instructions: 1 << 20,
        threads: 2,
        ..Dispatch::linear(1, 1)
    };
    go(&k, &d, &[Arg::Ptr(po)], &pool);
    let out = read_u32(&pool, po, 8 * n);
    // only get_global_id(0) indexes: threads with the same x overwrite each other
    // with values that differ in y/z; check every slot x against one consistent writer.
    for x in 0..gx {
        let o = &out[(x * 8) as usize..(x * 8 + 8) as usize];
        assert_eq!(o[0], x % bx, "local id x of {x}");
        assert!(o[1] < by && o[2] < bz);
        assert_eq!(o[3], x / bx);
        assert!(o[4] < gy / by + gz / bz);
        assert_eq!(o[5], gx / bx);
        assert_eq!(o[6], bx + gy);
        assert_eq!(o[7], 3);
    }
}

#[test]
fn int_arith() {
    let k = kernel("int_arith", "int_arith");
    let n = 128usize;
    let mut r = Rng::from_state(7);
    let mut a: Vec<i32> = (0..n).map(|_| r.next_u32() as i32).collect();
    let b: Vec<i32> = (0..n)
        .map(|i| {
            if i % 3 == 0 {
                r.i32_in(-50, 50)
            } else {
                r.next_u32() as i32
            }
        })
        .collect();
    a[0] = i32::MIN;
    a[1] = 0;
    a[2] = -1;
    let mut l = Layout::new();
    let pa = l.add(bytes_i32(&a));
    let pb = l.add(bytes_i32(&b));
    let po = l.add(vec![0; 4 * 8 * n]);
    let pool = l.pool();
    go(
        &k,
        &Dispatch::linear(n as u32, 64),
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po)],
        &pool,
    );
    let out = read_i32(&pool, po, 8 * n);
    for i in 0..n {
        let x = a[i];
        let y = b[i] | 1;
        let want = [
            x.wrapping_mul(y),
            x.wrapping_div(y),
            x.wrapping_rem(y),
            x.wrapping_shl((y & 31) as u32),
            x >> (y & 31),
            (x & y) ^ (x | !y),
            x.max(y).wrapping_sub(x.min(y)),
            (x.wrapping_abs())
                .wrapping_add(y.leading_zeros() as i32)
                .wrapping_add(x.count_ones() as i32),
        ];
        assert_eq!(&out[i * 8..i * 8 + 8], &want, "i={i} x={x} y={y}");
    }
}

fn lin(n: usize) -> Dispatch {
    Dispatch::linear(n as u32, 64)
}

#[test]
fn uint_arith() {
    let k = kernel("uint_arith", "uint_arith");
    let n = 192usize;
    let mut r = Rng::from_state(11);
    let a: Vec<u32> = (0..n).map(|_| r.next_u32()).collect();
    let b: Vec<u32> = (0..n)
        .map(|i| {
            if i % 4 == 0 {
                r.next_u32() % 100
            } else {
                r.next_u32()
            }
        })
        .collect();
    let mut l = Layout::new();
    let (pa, pb, po) = (
        l.add(bytes_u32(&a)),
        l.add(bytes_u32(&b)),
        l.add(vec![0; 24 * n]),
    );
    let pool = l.pool();
    go(
        &k,
        &lin(n),
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po)],
        &pool,
    );
    let out = read_u32(&pool, po, 6 * n);
    for i in 0..n {
        let (x, y) = (a[i], b[i] | 1);
        let want = [
            x / y,
            x % y,
            x.rotate_left(y & 31),
            ((x as u64 * y as u64) >> 32) as u32,
            (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff).wrapping_add(7),
            (x >> 3).wrapping_add(y << 5).wrapping_add(x.abs_diff(y)),
        ];
        assert_eq!(&out[i * 6..i * 6 + 6], &want, "i={i} x={x} y={y}");
    }
}

#[test]
fn bitops() {
    let k = kernel("bitops", "bitops");
    let n = 128usize;
    let mut r = Rng::from_state(3);
    let a: Vec<u32> = (0..n).map(|_| r.next_u32()).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_u32(&a)), l.add(vec![0; 4 * n]));
    let pool = l.pool();
    go(&k, &lin(n), &[Arg::Ptr(pa), Arg::Ptr(po)], &pool);
    let out = read_u32(&pool, po, n);
    for i in 0..n {
        let x = a[i];
        let f = (x >> 5) & 0x3ff;
        let g = (x & !0xff00) | ((f & 0xff) << 8);
        let h = x.swap_bytes();
        let want = f
            .wrapping_add(g)
            .wrapping_add(h)
            .wrapping_add(x.rotate_right(3));
        assert_eq!(out[i], want, "i={i}");
    }
}

#[test]
fn bytes_shorts() {
    let k = kernel("bytes_shorts", "bytes_shorts");
    let n = 100usize;
    let mut r = Rng::from_state(5);
    let a: Vec<u8> = (0..n + 1).map(|_| r.next_u32() as u8).collect();
    let b: Vec<i16> = (0..n).map(|_| r.next_u32() as i16).collect();
    let mut l = Layout::new();
    let pa = l.add(a.clone());
    let pb = l.add(b.iter().flat_map(|x| x.to_le_bytes()).collect());
    let poa = l.add(vec![0xcc; 128]);
    let pob = l.add(vec![0xcc; 256]);
    let pool = l.pool();
    go(
        &k,
        &Dispatch::linear(n as u32, 50),
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(poa), Arg::Ptr(pob)],
        &pool,
    );
    let bytes = pool.to_bytes();
    for i in 0..n {
        assert_eq!(
            bytes[poa as usize + i],
            a[i].wrapping_add(a[i + 1]),
            "oa[{i}]"
        );
        let ob = i16::from_le_bytes([bytes[pob as usize + 2 * i], bytes[pob as usize + 2 * i + 1]]);
        assert_eq!(
            ob,
            b[i].wrapping_mul(3).wrapping_sub(a[i] as i16),
            "ob[{i}]"
        );
    }
    // neighbours of the last byte/short untouched (MSKOR must not clobber)
    assert_eq!(bytes[poa as usize + n], 0xcc);
    assert_eq!(bytes[pob as usize + 2 * n], 0xcc);
}

#[test]
fn convert() {
    let k = kernel("convert", "convert");
    let n = 128usize;
    let mut r = Rng::from_state(9);
    let mut f: Vec<f32> = (0..n).map(|_| r.f32_in(-3.0e9, 3.0e9)).collect();
    let mut ni: Vec<i32> = (0..n).map(|_| r.next_u32() as i32).collect();
    f[0] = 0.5;
    f[1] = -0.5;
    f[2] = 255.9;
    f[3] = -1.0e10;
    f[4] = 5.0e9;
    ni[0] = 255;
    ni[1] = 256;
    ni[2] = -1;
    let mut l = Layout::new();
    let pf = l.add(bytes_f32(&f));
    let pn = l.add(bytes_i32(&ni));
    let (pof, poi, pou, pos, poc) = (
        l.add(vec![0; 4 * n]),
        l.add(vec![0; 4 * n]),
        l.add(vec![0; 4 * n]),
        l.add(vec![0; 2 * n]),
        l.add(vec![0; n]),
    );
    let pool = l.pool();
    go(
        &k,
        &lin(n),
        &[pf, pn, pof, poi, pou, pos, poc].map(Arg::Ptr),
        &pool,
    );
    let of = read_f32(&pool, pof, n);
    let oi = read_i32(&pool, poi, n);
    let ou = read_u32(&pool, pou, n);
    let bytes = pool.to_bytes();
    for i in 0..n {
        assert_eq!(of[i], ni[i] as f32 + ni[i] as u32 as f32, "of[{i}]");
        if f[i].abs() < 2.1e9 {
            assert_eq!(oi[i], f[i] as i32, "oi[{i}] of {}", f[i]);
        }
        assert_eq!(ou[i], f[i] as u32, "ou[{i}] (saturating) of {}", f[i]);
        let os = i16::from_le_bytes([bytes[pos as usize + 2 * i], bytes[pos as usize + 2 * i + 1]]);
        assert_eq!(os, ni[i] as i16, "os[{i}]");
        assert_eq!(
            bytes[poc as usize + i],
            ni[i].clamp(0, 255) as u8,
            "oc[{i}]"
        );
    }
}

#[test]
fn double_arith() {
    let k = kernel("double_arith", "double_arith");
    let n = 64usize;
    let mut r = Rng::from_state(13);
    let a: Vec<u64> = (0..n).map(|_| r.next_u64()).collect();
    let b: Vec<u64> = (0..n + 1).map(|_| r.next_u64()).collect();
    let sel: Vec<i32> = (0..n).map(|i| (i % 3 == 0) as i32).collect();
    let mut l = Layout::new();
    let pa = l.add(a.iter().flat_map(|x| x.to_le_bytes()).collect());
    let pb = l.add(b.iter().flat_map(|x| x.to_le_bytes()).collect());
    let po = l.add(vec![0; 8 * n]);
    let ps = l.add(bytes_i32(&sel));
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po, ps].map(Arg::Ptr), &pool);
    let o = read_u32(&pool, po, 2 * n);
    for i in 0..n {
        let want = if sel[i] != 0 { a[i] } else { b[i + 1] };
        assert_eq!(
            o[2 * i] as u64 | (o[2 * i + 1] as u64) << 32,
            want,
            "out[{i}]"
        );
    }
}

#[test]
fn double_vec() {
    let k = kernel("double_vec", "double_vec");
    let n = 64usize;
    let mut r = Rng::from_state(17);
    let a: Vec<u64> = (0..2 * n).map(|_| r.next_u64()).collect();
    let mut l = Layout::new();
    let pa = l.add(a.iter().flat_map(|x| x.to_le_bytes()).collect());
    let po = l.add(vec![0; 16 * n]);
    let pool = l.pool();
    go(&k, &lin(n), &[pa, po].map(Arg::Ptr), &pool);
    let o = read_u32(&pool, po, 4 * n);
    for i in 0..n {
        let g = |j: usize| o[2 * j] as u64 | (o[2 * j + 1] as u64) << 32;
        assert_eq!(
            (g(2 * i), g(2 * i + 1)),
            (a[2 * i + 1], a[2 * i]),
            "out[{i}]"
        );
    }
}

#[test]
fn float_arith() {
    let k = kernel("float_arith", "float_arith");
    let n = 128usize;
    let mut r = Rng::from_state(19);
    let a: Vec<f32> = (0..n).map(|_| r.f32_in(-50.0, 50.0)).collect();
    let b: Vec<f32> = (0..n).map(|_| r.f32_in(-50.0, 50.0)).collect();
    let mut l = Layout::new();
    let (pa, pb, po) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(vec![0; 24 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po].map(Arg::Ptr), &pool);
    let o = read_f32(&pool, po, 6 * n);
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let w = [
            x * y + 1.5,
            x / y,
            x * y - x,
            x.abs() - y.floor() + x.ceil(),
            x.min(y) * x.max(y),
            x.clamp(0.0, 1.0) + y.trunc() + x.round_ties_even(),
        ];
        for j in 0..6 {
            // x / y goes through RECIP_IEEE (1 ulp) and a multiply; mad may fuse
            assert_close(
                o[i * 6 + j],
                w[j],
                4,
                1e-5,
                &format!("out[{i}*6+{j}] x={x} y={y}"),
            );
        }
    }
}

#[test]
fn fmin_fmax_vec() {
    let k = kernel("fmin_fmax_vec", "fmin_fmax_vec");
    let n = 64usize;
    let mut r = Rng::from_state(23);
    let a: Vec<f32> = (0..8 * n).map(|_| r.f32_in(-2.0, 2.0)).collect();
    let b: Vec<f32> = (0..8 * n).map(|_| r.f32_in(-2.0, 2.0)).collect();
    let mut l = Layout::new();
    let (pa, pb, po) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(vec![0; 32 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po].map(Arg::Ptr), &pool);
    let o = read_f32(&pool, po, 8 * n);
    for i in 0..8 * n {
        let (x, y) = (a[i], b[i]);
        let (lo, hi) = (x.min(y), x.max(y));
        let w = lo + (hi - lo) * 0.25 + if x < 0.5 { 0.0 } else { 1.0 };
        assert_close(o[i], w, 4, 1e-6, &format!("out[{i}]"));
    }
}

/// Where a RAT atomic of clang-14's code lands on the hardware: clang passes
/// the byte address as the RAT index, which the hardware reads as an element
/// (dword) index (guide 9.2 INDEX_GPR; Mesa's r600 back end shifts SSBO
/// offsets right by 2 for atomics as for stores). So the access lands at
/// four times the intended byte address. The tests model that.
fn hw_atomic(byte: u32) -> u32 {
    4 * byte
}

/// Put `v` at the dwords where clang's atomics on `buf[0..]` land (see [`hw_atomic`]).
fn seed_atomic(pool: &Pool, buf: u32, v: &[u32]) {
    for (k, x) in v.iter().enumerate() {
        pool.write(hw_atomic(buf + 4 * k as u32) as u64, &x.to_le_bytes())
            .unwrap();
    }
}
fn read_atomic(pool: &Pool, buf: u32, n: usize) -> Vec<u32> {
    (0..n)
        .map(|k| read_u32(pool, hw_atomic(buf + 4 * k as u32), 1)[0])
        .collect()
}

#[test]
fn global_atomics() {
    // The guide's reading of INDEX_GPR (the default).
    let k = kernel("global_atomics", "global_atomics");
    let n = 300u32;
    let mut l = Layout::new();
    l.add(vec![0; 256]);
    let init = [5i32, 0, 1000, -5, -1, 0, 0x5555];
    let pc = l.add(bytes_i32(&init));
    let pu = l.add(bytes_u32(&[u32::MAX, 0]));
    l.add(vec![0; 4 * 1024]);
    let pool = l.pool();
    seed_atomic(&pool, pc, &init.map(|x| x as u32));
    seed_atomic(&pool, pu, &[u32::MAX, 0]);
    let mut d = Dispatch::linear(n, 60);
    d.threads = 2;
    go(&k, &d, &[Arg::Ptr(pc), Arg::Ptr(pu)], &pool);
    let c: Vec<i32> = read_atomic(&pool, pc, 7)
        .iter()
        .map(|&x| x as i32)
        .collect();
    let u = read_atomic(&pool, pu, 2);
    let ids = 0..n as i32;
    assert_eq!(c[0], 5 + ids.clone().sum::<i32>());
    assert_eq!(c[2], 0);
    assert_eq!(c[3], n as i32 - 1);
    assert_eq!(c[4], ids.clone().fold(-1, |a, i| a & !i));
    assert_eq!(c[5], ids.clone().fold(0, |a, i| a | i));
    assert_eq!(c[6], ids.clone().fold(0x5555, |a, i| a ^ i));
    assert_eq!(u, [0, n - 1]);
    // the addresses the source meant are untouched
    assert_eq!(read_i32(&pool, pc, 7), init);
    assert_eq!(read_u32(&pool, pu, 2), [u32::MAX, 0]);
}

/// Runs global_atomics (300 items) with counters where the source puts
/// them and checks that every atomic landed there.
fn global_atomics_where_the_source_means(k: &Kernel, d: &Dispatch) {
    let n = d.grid[0];
    let mut l = Layout::new();
    let init = [5i32, 0, 1000, -5, -1, 0, 0x5555];
    let pc = l.add(bytes_i32(&init));
    let pu = l.add(bytes_u32(&[u32::MAX, 0]));
    let pool = l.pool();
    go(k, d, &[Arg::Ptr(pc), Arg::Ptr(pu)], &pool);
    let c = read_i32(&pool, pc, 7);
    let ids = 0..n as i32;
    assert_eq!(c[0], 5 + ids.clone().sum::<i32>());
    assert_eq!(c[2], 0);
    assert_eq!(c[3], n as i32 - 1);
    assert_eq!(c[4], ids.clone().fold(-1, |a, i| a & !i));
    assert_eq!(c[5], ids.clone().fold(0, |a, i| a | i));
    assert_eq!(c[6], ids.clone().fold(0x5555, |a, i| a ^ i));
    assert_eq!(read_u32(&pool, pu, 2), [0, n - 1]);
}

#[test]
fn global_atomics_as_the_source_means() {
    // clang made the object (.comment, which the loader reports), and with
    // the compatibility option its RAT atomics' index is the byte address
    // clang passes: they land where the source meant them.
    let k = kernel("global_atomics", "global_atomics");
    assert!(k.made_by_llvm);
    let mut d = Dispatch::linear(300, 60);
    d.atomics_byte_addressed = true;
    global_atomics_where_the_source_means(&k, &d);
}

#[test]
fn atomic_cmpxchg() {
    // The guide's reading of INDEX_GPR (the default).
    let k = kernel("atomic_cmpxchg", "atomic_cmpxchg_k");
    let n = 128u32;
    let mut l = Layout::new();
    l.add(vec![0; 256]);
    let pl = l.add(bytes_i32(&[10, 0]));
    let pv = l.add(vec![0xff; 32]);
    l.add(vec![0; 4 * 1024]);
    let pool = l.pool();
    seed_atomic(&pool, pl, &[10, 0]);
    seed_atomic(&pool, pv, &[u32::MAX; 8]);
    let d = Dispatch::linear(n, 64);
    go(&k, &d, &[Arg::Ptr(pl), Arg::Ptr(pv)], &pool);
    let lock = read_atomic(&pool, pl, 2);
    assert_eq!(lock[0], 10 + n);
    // CMPXCHG compares with RW_GPR.Z (guide 9.2). clang-14 leaves its compare
    // value (0) in .W; .Z holds T0.Z = local id z = 0 here, so both agree:
    // lanes run in order, thread 0 stores 0 over 0, then thread 1 stores 1,
    // nobody else matches.
    assert_eq!(lock[1], 1);
    let vals = read_atomic(&pool, pv, 8);
    for (j, v) in vals.iter().enumerate() {
        assert_eq!(
            *v as usize % 8,
            j,
            "vals[{j}] written by a thread with i & 7 == {j}"
        );
    }
    assert_eq!(read_i32(&pool, pl, 2), [10, 0]);
}

#[test]
fn int64() {
    let k = kernel("int64", "int64");
    let n = 128usize;
    let mut r = Rng::from_state(29);
    let a: Vec<i64> = (0..n).map(|_| r.next_u64() as i64).collect();
    let b: Vec<i64> = (0..n).map(|_| r.next_u64() as i64).collect();
    let mut l = Layout::new();
    let pa = l.add(a.iter().flat_map(|x| x.to_le_bytes()).collect());
    let pb = l.add(b.iter().flat_map(|x| x.to_le_bytes()).collect());
    let po = l.add(vec![0; 24 * n]);
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po].map(Arg::Ptr), &pool);
    let o = read_u32(&pool, po, 6 * n);
    for i in 0..n {
        let g = |j: usize| (o[2 * j] as u64 | (o[2 * j + 1] as u64) << 32) as i64;
        let (x, y) = (a[i], b[i]);
        assert_eq!(
            [g(3 * i), g(3 * i + 1), g(3 * i + 2)],
            [x.wrapping_add(y), x.wrapping_mul(y), (x >> 7) ^ (y << 3)],
            "i={i}"
        );
    }
}

#[test]
fn lds_arg() {
    let k = kernel("lds_arg", "lds_arg");
    let (n, bs) = (256usize, 128u32);
    let a: Vec<i32> = (0..n as i32).map(|i| i * 7 - 3).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_i32(&a)), l.add(vec![0; 4 * n]));
    let pool = l.pool();
    go(
        &k,
        &Dispatch::linear(n as u32, bs),
        &[Arg::Ptr(pa), Arg::Ptr(po), Arg::Local(4 * bs)],
        &pool,
    );
    let o = read_i32(&pool, po, n);
    for i in 0..n {
        let g = i / bs as usize;
        let lid = i % bs as usize;
        assert_eq!(o[i], a[g * bs as usize + bs as usize - 1 - lid], "out[{i}]");
    }
}

#[test]
fn lds_atomics() {
    let k = kernel("lds_atomics", "lds_atomics");
    let (n, bs) = (512usize, 128usize);
    let mut r = Rng::from_state(31);
    let a: Vec<u32> = (0..n).map(|_| r.next_u32() & 0xfff).collect();
    let mut l = Layout::new();
    let (pa, ph) = (l.add(bytes_u32(&a)), l.add(vec![0; 64]));
    l.add(vec![0; 4 * 4096]);
    let pool = l.pool();
    let mut d = Dispatch::linear(n as u32, bs as u32);
    d.threads = 2;
    go(&k, &d, &[Arg::Ptr(pa), Arg::Ptr(ph)], &pool);
    // the final global atomic_add lands where the hardware puts clang's byte index
    let h = read_atomic(&pool, ph, 16);
    let mut want = [0u32; 16];
    for g in 0..n / bs {
        // max mixed with add makes the result order dependent; the emulator
        // runs each wave up to the barrier in turn, one valid interleaving:
        // per wave of 64 threads, all incs, then all adds, then all maxes.
        let mut bins = [0u32; 16];
        for v in a[g * bs..(g + 1) * bs].chunks(64) {
            for &x in v {
                let b = &mut bins[(x & 15) as usize];
                *b = b.wrapping_add(1);
            }
            for &x in v {
                bins[((x >> 4) & 15) as usize] += 2;
            }
            for &x in v {
                let b = &mut bins[((x >> 8) & 15) as usize];
                *b = (*b).max(x);
            }
        }
        for j in 0..16 {
            want[j] = want[j].wrapping_add(bins[j]);
        }
    }
    assert_eq!(h, want);
}

#[test]
fn lds_reduce() {
    let k = kernel("lds_reduce", "lds_reduce");
    let n = 64 * 8;
    let a: Vec<f32> = (0..n).map(|i| (i % 13) as f32 * 0.5 - 2.0).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_f32(&a)), l.add(vec![0; 32]));
    let pool = l.pool();
    go(
        &k,
        &Dispatch::linear(n as u32, 64),
        &[Arg::Ptr(pa), Arg::Ptr(po)],
        &pool,
    );
    let o = read_f32(&pool, po, 8);
    for g in 0..8 {
        let mut t: Vec<f32> = a[g * 64..g * 64 + 64].to_vec();
        let mut s = 32;
        while s > 0 {
            for lid in 0..s {
                t[lid] += t[lid + s];
            }
            s >>= 1;
        }
        assert_eq!(o[g], t[0], "group {g}");
    }
}

fn f32_kernel_1in(
    file: &str,
    n: usize,
    seed: u64,
    lo: f32,
    hi: f32,
    per: usize,
) -> (Vec<f32>, Vec<f32>) {
    let k = kernel(file, file);
    let mut r = Rng::from_state(seed);
    let a: Vec<f32> = (0..n).map(|_| r.f32_in(lo, hi)).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_f32(&a)), l.add(vec![0; 4 * per * n]));
    let pool = l.pool();
    go(&k, &lin(n), &[pa, po].map(Arg::Ptr), &pool);
    (a, read_f32(&pool, po, per * n))
}

#[test]
fn libm_float() {
    let (a, o) = f32_kernel_1in("libm_float", 128, 37, -20.0, 20.0, 3);
    for (i, &x) in a.iter().enumerate() {
        assert_close(o[3 * i], x.abs().sqrt(), 3, 0.0, &format!("sqrt {x}"));
        assert_close(o[3 * i + 1], (x * 0.25).exp(), 4, 0.0, &format!("exp {x}"));
        assert_close(
            o[3 * i + 2],
            (x.abs() + 1.0).ln(),
            4,
            0.0,
            &format!("log {x}"),
        );
    }
}

#[test]
fn transcendental() {
    let (a, o) = f32_kernel_1in("transcendental", 128, 41, -3.0, 3.0, 4);
    for (i, &x) in a.iter().enumerate() {
        // native_* are only approximate in OpenCL; the hardware ops are within 1 ulp here
        assert_close(
            o[4 * i],
            x.sin() + x.cos(),
            64,
            1e-5,
            &format!("sin+cos {x}"),
        );
        assert_close(
            o[4 * i + 1],
            x.exp2() + (x.abs() + 1.0).log2(),
            8,
            1e-6,
            &format!("exp2+log2 {x}"),
        );
        assert_close(
            o[4 * i + 2],
            x.abs().sqrt() + 1.0 / (x.abs() + 1.0).sqrt(),
            8,
            1e-6,
            &format!("sqrt+rsqrt {x}"),
        );
        assert_close(o[4 * i + 3], 1.0 / (x + 2.0), 2, 0.0, &format!("recip {x}"));
    }
}

#[test]
fn sin_cos() {
    let k = kernel("sin_cos", "sin_cos");
    let n = 128usize;
    let mut r = Rng::from_state(43);
    let mut a: Vec<f32> = (0..n).map(|_| r.f32_in(-100.0, 100.0)).collect();
    a[0] = 0.0;
    a[1] = core::f32::consts::PI;
    a[2] = 1.0e4;
    let mut l = Layout::new();
    let (pa, ps, pc) = (
        l.add(bytes_f32(&a)),
        l.add(vec![0; 4 * n]),
        l.add(vec![0; 4 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, ps, pc].map(Arg::Ptr), &pool);
    let (s, c) = (read_f32(&pool, ps, n), read_f32(&pool, pc, n));
    for i in 0..n {
        let x = a[i] as f64;
        assert_close(s[i], x.sin() as f32, 4, 1e-6, &format!("sin {x}"));
        assert_close(c[i], x.cos() as f32, 4, 1e-6, &format!("cos {x}"));
    }
}

#[test]
fn pow_atan() {
    let k = kernel("pow_atan", "pow_atan");
    let n = 128usize;
    let mut r = Rng::from_state(47);
    let a: Vec<f32> = (0..n).map(|_| r.f32_in(-4.0, 4.0)).collect();
    let b: Vec<f32> = (0..n).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let mut l = Layout::new();
    let (pa, pb, po) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(vec![0; 12 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po].map(Arg::Ptr), &pool);
    let o = read_f32(&pool, po, 3 * n);
    for i in 0..n {
        let (x, y) = (a[i] as f64, b[i] as f64);
        assert_close(
            o[3 * i],
            x.abs().powf(y) as f32,
            16,
            0.0,
            &format!("pow {x} {y}"),
        );
        assert_close(
            o[3 * i + 1],
            x.atan2(y) as f32,
            8,
            0.0,
            &format!("atan2 {x} {y}"),
        );
        assert_close(o[3 * i + 2], x.tanh() as f32, 8, 0.0, &format!("tanh {x}"));
    }
}

fn i32_kernel(file: &str, a: &[i32], extra: &[Arg], n: usize, bs: u32) -> Vec<i32> {
    let k = kernel(file, file);
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_i32(a)), l.add(vec![0; 4 * n]));
    let pool = l.pool();
    let mut args = vec![Arg::Ptr(pa), Arg::Ptr(po)];
    args.extend_from_slice(extra);
    go(&k, &Dispatch::linear(n as u32, bs), &args, &pool);
    read_i32(&pool, po, n)
}

#[test]
fn loop_sum() {
    let n = 150usize;
    let m = 13;
    let a: Vec<i32> = (0..n as i32 + m).map(|i| i * 3 - 40).collect();
    let o = i32_kernel("loop_sum", &a, &[Arg::U32(m as u32)], n, 50);
    for i in 0..n {
        let want: i32 = (0..m).map(|k| a[i + k as usize] * k).sum();
        assert_eq!(o[i], want, "i={i}");
    }
    // n = 0: the loop body never runs
    let o = i32_kernel("loop_sum", &a, &[Arg::U32(0)], n, 50);
    assert!(o.iter().all(|&v| v == 0));
}

#[test]
fn loop_break() {
    let n = 128usize;
    let mut r = Rng::from_state(53);
    let a: Vec<i32> = (0..40).map(|_| r.i32_in(0, 140)).collect();
    for m in [0u32, 1, 7, 40] {
        let o = i32_kernel("loop_break", &a, &[Arg::U32(m)], n, 64);
        for i in 0..n as i32 {
            let mut s = 0;
            for &v in &a[..m as usize] {
                if v == i {
                    break;
                }
                if v & 1 != 0 {
                    continue;
                }
                s += v;
            }
            assert_eq!(o[i as usize], s, "i={i} n={m}");
        }
    }
}

#[test]
fn nested_branch() {
    let n = 256usize;
    let mut r = Rng::from_state(59);
    let a: Vec<i32> = (0..n).map(|_| r.i32_in(-300, 300)).collect();
    let o = i32_kernel("nested_branch", &a, &[], n, 64);
    for i in 0..n {
        let x = a[i];
        let want = if x > 0 {
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
        };
        assert_eq!(o[i], want, "x={x}");
    }
}

#[test]
fn private_array() {
    let n = 128usize;
    let mut r = Rng::from_state(61);
    let a: Vec<i32> = (0..n).map(|_| r.next_u32() as i32).collect();
    let o = i32_kernel("private_array", &a, &[], n, 64);
    for i in 0..n {
        let t = |k: i32| k * i as i32 + 1;
        assert_eq!(o[i], t(a[i] & 15) + t((a[i] >> 4) & 15), "i={i}");
    }
}

#[test]
fn while_loop() {
    let n = 128usize;
    let mut r = Rng::from_state(67);
    let a: Vec<i32> = (0..n)
        .map(|i| {
            if i < 4 {
                [1, 27, 97, 871][i]
            } else {
                (r.next_u32() % 100000) as i32
            }
        })
        .collect();
    let o = i32_kernel("while_loop", &a, &[], n, 64);
    for i in 0..n {
        let (mut x, mut steps) = (a[i] as u32 | 1, 0u32);
        while x != 1 && steps < 1000 {
            x = if x & 1 != 0 {
                x.wrapping_mul(3).wrapping_add(1)
            } else {
                x >> 1
            };
            steps += 1;
        }
        assert_eq!(o[i] as u32, steps, "x0={}", a[i]);
    }
}

#[test]
fn switch_case() {
    let k = kernel("switch_case", "switch_case");
    let n = 128usize;
    let mut r = Rng::from_state(71);
    let a: Vec<i32> = (0..n).map(|_| r.i32_in(-1000, 1000)).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_i32(&a)), l.add(vec![0; 4 * n]));
    let pool = l.pool();
    go(&k, &lin(n), &[pa, po].map(Arg::Ptr), &pool);
    let o = read_f32(&pool, po, n);
    for i in 0..n {
        let want = match a[i] & 7 {
            0 => 1.0,
            1 => i as f32,
            2 => -2.5,
            3 => a[i] as f32 * 0.5,
            _ => 0.0,
        };
        assert_eq!(o[i], want, "a={}", a[i]);
    }
}

#[test]
fn select_cmp() {
    let k = kernel("select_cmp", "select_cmp");
    let n = 128usize;
    let mut r = Rng::from_state(73);
    let mut a: Vec<f32> = (0..n).map(|_| r.f32_in(-5.0, 5.0)).collect();
    let mut b: Vec<f32> = (0..n).map(|_| r.f32_in(-5.0, 5.0)).collect();
    let c: Vec<i32> = (0..n)
        .map(|i| if i % 5 == 0 { 7 } else { r.i32_in(-200, 200) })
        .collect();
    a[0] = f32::NAN;
    b[1] = a[1];
    a[2] = 1.0;
    b[2] = 1.0;
    let mut l = Layout::new();
    let (pa, pb, pc) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(bytes_i32(&c)),
    );
    let (po, poi) = (l.add(vec![0; 4 * n]), l.add(vec![0; 4 * n]));
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, pc, po, poi].map(Arg::Ptr), &pool);
    let (o, oi) = (read_f32(&pool, po, n), read_i32(&pool, poi, n));
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let w = if x > y {
            x - y
        } else if x == y {
            0.5
        } else {
            y * 2.0
        };
        assert_eq!(o[i].to_bits(), w.to_bits(), "out[{i}] x={x} y={y}");
        let wi = (c[i] >= 0) as i32
            + (c[i] != 7) as i32
            + ((c[i] as u32) < 100) as i32
            + x.is_nan() as i32
            + (x <= y) as i32;
        assert_eq!(oi[i], wi, "outi[{i}]");
    }
}

#[test]
fn nested_loops() {
    let k = kernel("nested_loops", "nested_loops");
    let m = 16usize;
    let mut r = Rng::from_state(79);
    let a: Vec<f32> = (0..m * m).map(|_| r.f32_in(-1.0, 1.0)).collect();
    let b: Vec<f32> = (0..m * m).map(|_| r.f32_in(-1.0, 1.0)).collect();
    let mut l = Layout::new();
    let (pa, pb, pc) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(vec![0; 4 * m * m]),
    );
    let pool = l.pool();
    let mut d = Dispatch::linear(m as u32, 8);
    d.grid[1] = m as u32;
    d.block[1] = 8;
    d.work_dim = 2;
    d.threads = 2;
    go(
        &k,
        &d,
        &[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(pc), Arg::U32(m as u32)],
        &pool,
    );
    let c = read_f32(&pool, pc, m * m);
    for row in 0..m {
        for col in 0..m {
            let mut acc = 0.0f32;
            for k in 0..m {
                acc += a[row * m + k] * b[k * m + col];
            }
            assert_close(c[row * m + col], acc, 64, 1e-5, &format!("c[{row}][{col}]"));
        }
    }
}

#[test]
fn many_args() {
    let k = kernel("many_args", "many_args");
    let n = 64usize;
    let mut r = Rng::from_state(83);
    let p: Vec<Vec<f32>> = (0..4)
        .map(|_| (0..n).map(|_| r.f32_in(-2.0, 2.0)).collect())
        .collect();
    let mut l = Layout::new();
    let po = l.add(vec![0; 4 * n]);
    let pp: Vec<u32> = p.iter().map(|v| l.add(bytes_f32(v))).collect();
    let pool = l.pool();
    let s = [0.5f32, -1.25, 2.0, 0.75];
    let kk = [3i32, -4, 5, 6];
    let (u0, u1) = (0xf0u32, 0x3cu32);
    let s2 = [1.5f32, 2.5, -0.5, 4.0];
    let k2 = [1i32, 2, 3, -4];
    let mut args = vec![Arg::Ptr(po)];
    args.extend(pp.iter().map(|&x| Arg::Ptr(x)));
    args.extend(s.iter().map(|&x| Arg::F32(x)));
    args.extend(kk.iter().map(|&x| Arg::U32(x as u32)));
    args.extend([Arg::U32(u0), Arg::U32(u1)]);
    args.extend(s2.iter().map(|&x| Arg::F32(x)));
    args.extend(k2.iter().map(|&x| Arg::U32(x as u32)));
    go(&k, &lin(n), &args, &pool);
    let o = read_f32(&pool, po, n);
    for i in 0..n {
        let mut v = p[0][i] * s[0] + p[1][i] * s[1] + p[2][i] * s[2] + p[3][i] * s[3];
        v += (kk[0] + kk[1] * kk[2] - kk[3]) as f32 + (u0 ^ u1) as f32;
        v += s2[0] * s2[1] - s2[2] * s2[3] + (k2.iter().sum::<i32>()) as f32;
        assert_close(o[i], v, 8, 1e-5, &format!("out[{i}]"));
    }
}

#[test]
fn multi_kernel() {
    let n = 64usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 - 10.0).collect();
    let mut l = Layout::new();
    let pa = l.add(bytes_f32(&a));
    let pool = l.pool();
    go(
        &kernel("multi_kernel", "scale"),
        &lin(n),
        &[Arg::Ptr(pa), Arg::F32(3.0)],
        &pool,
    );
    go(
        &kernel("multi_kernel", "offset"),
        &lin(n),
        &[Arg::Ptr(pa), Arg::F32(0.5)],
        &pool,
    );
    go(
        &kernel("multi_kernel", "square"),
        &lin(n),
        &[Arg::Ptr(pa)],
        &pool,
    );
    let o = read_f32(&pool, pa, n);
    for i in 0..n {
        let v = a[i] * 3.0 + 0.5;
        assert_eq!(o[i], v * v, "a[{i}]");
    }
}

#[test]
fn vec4() {
    let k = kernel("vec4", "vec4");
    let n = 64usize;
    let mut r = Rng::from_state(89);
    let a: Vec<f32> = (0..4 * n).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let b: Vec<f32> = (0..4 * n).map(|_| r.f32_in(-3.0, 3.0)).collect();
    let mut l = Layout::new();
    let (pa, pb, pc, pd) = (
        l.add(bytes_f32(&a)),
        l.add(bytes_f32(&b)),
        l.add(vec![0; 16 * n]),
        l.add(vec![0; 4 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, pc, pd].map(Arg::Ptr), &pool);
    let (c, d) = (read_f32(&pool, pc, 4 * n), read_f32(&pool, pd, n));
    for i in 0..n {
        let mut dot = 0.0f32;
        for j in 0..4 {
            let (x, y) = (a[4 * i + j], b[4 * i + j]);
            assert_close(
                c[4 * i + j],
                x * y + (j + 1) as f32,
                2,
                1e-6,
                &format!("c[{i}].{j}"),
            );
            dot += x * y;
        }
        assert_close(d[i], dot, 8, 1e-5, &format!("d[{i}]"));
    }
}

#[test]
fn vec_int() {
    let k = kernel("vec_int", "vec_int");
    let n = 64usize;
    let mut r = Rng::from_state(97);
    let a: Vec<i32> = (0..4 * n).map(|_| r.next_u32() as i32).collect();
    let b: Vec<u8> = (0..4 * n).map(|_| r.next_u32() as u8).collect();
    let mut l = Layout::new();
    let (pa, pb, po) = (
        l.add(bytes_i32(&a)),
        l.add(b.clone()),
        l.add(vec![0; 16 * n]),
    );
    let pool = l.pool();
    go(&k, &lin(n), &[pa, pb, po].map(Arg::Ptr), &pool);
    let o = read_i32(&pool, po, 4 * n);
    for i in 0..n {
        for j in 0..4 {
            let x = &a[4 * i..4 * i + 4];
            let want = x[3 - j]
                .wrapping_add(b[4 * i + j] as i32 * 3)
                .wrapping_sub(x[j] >> 2);
            assert_eq!(o[4 * i + j], want, "out[{i}].{j}");
        }
    }
}

#[test]
fn vec_load_store() {
    let k = kernel("vec_load_store", "vec_load_store");
    let n = 40usize;
    let a: Vec<f32> = (0..64 + 3 * n).map(|i| i as f32 * 0.25 - 7.0).collect();
    let mut l = Layout::new();
    let (pa, po) = (l.add(bytes_f32(&a)), l.add(vec![0; 4 * (128 + 2 * n)]));
    let pool = l.pool();
    go(
        &k,
        &Dispatch::linear(n as u32, 40),
        &[pa, po].map(Arg::Ptr),
        &pool,
    );
    let o = read_f32(&pool, po, 128 + 2 * n);
    for i in 0..n {
        let p = [a[2 * i], a[2 * i + 1]];
        let q = [a[64 + 3 * i], a[64 + 3 * i + 1], a[64 + 3 * i + 2]];
        assert_eq!(
            &o[3 * i..3 * i + 3],
            &[q[2] + p[0], q[0] + p[1], q[1] + p[0]],
            "vstore3 {i}"
        );
        assert_eq!(
            &o[128 + 2 * i..128 + 2 * i + 2],
            &[p[1] * 2.0, p[0] * 2.0],
            "vstore2 {i}"
        );
    }
}

#[test]
fn param_index() {
    // A by-value struct and vector indexed dynamically: clang reads one of
    // them with `VTX_READ_32 T0.X, T0.X, 84, #3`, from the parameter buffer
    // Mesa binds as vertex buffer 3 besides constant buffer 0.
    let k = kernel("param_index", "param_index");
    let n = 64usize;
    let mut l = Layout::new();
    let po = l.add(vec![0; 8 * n]);
    let pool = l.pool();
    let e: Vec<u32> = (0..8).map(|k| 1000 + 7 * k).collect();
    let q = [-5i32 as u32, 17, 0x7fff_0000, 3];
    let mut args = vec![Arg::Ptr(po)];
    args.extend(e.iter().map(|&x| Arg::U32(x)));
    // int4 is 16-byte aligned relative to the explicit arguments (which start
    // at byte 36): the struct ends at byte 72, q starts at 84 (llc's KC0 and
    // VTX offsets say so), so three padding dwords.
    args.extend([Arg::U32(0), Arg::U32(0), Arg::U32(0)]);
    args.extend(q.iter().map(|&x| Arg::U32(x)));
    go(&k, &Dispatch::linear(n as u32, 64), &args, &pool);
    let out = read_u32(&pool, po, 2 * n);
    for i in 0..n {
        assert_eq!(out[2 * i], e[i & 7], "e.v[{}]", i & 7);
        assert_eq!(
            out[2 * i + 1],
            q[i & 3].wrapping_add(1),
            "q[{}] + work_dim",
            i & 3
        );
    }
}
