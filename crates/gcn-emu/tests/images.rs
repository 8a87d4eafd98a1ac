//! MIMG without a sampler: image loads, stores, atomics and get_resinfo on
//! every generation.
//!
//! Each kernel line is assembled by risa's assembler and, when llvm-mc is
//! installed, its encoding is compared with llvm-mc's for the same chip. The
//! image descriptors (T#) are built here from the bit numbers of
//! `reference/clrx-doc/GcnMemHandling.md`, "Image resource format" (gfx9:
//! PITCH 16 bits, DEPTH = last slice, SW_MODE 0 = linear), and the expected
//! results are computed here: texel addresses from the linear layout stated
//! in `docs/gcn-emulator.md` ("Images"), component conversions from the
//! formulas of the number-format tables (UNORM = raw / (2^n - 1), SNORM =
//! max(signed / (2^(n-1) - 1), -1), ...), atomics from the operation
//! descriptions in `GcnInstrsMimg.md`.

use risa_gcn::{Gen, ALL_GENS};
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Fault, FaultKind, Program, SimpleMemory, Wave};
use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;
mod common;

/// Where the image lives (256-byte aligned, as BASE is in units of 256 bytes).
const BASE: u64 = 0x10_0000;

// ---------------------------------------------------------------- assembling

static CHECKED: Mutex<Option<HashSet<(Gen, String)>>> = Mutex::new(None);

fn llvm_words(gen: Gen, line: &str) -> Option<Vec<u32>> {
    let mut child = Command::new("llvm-mc")
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={}", gen.llvm_cpu()),
            "-show-encoding",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{line}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let enc = text
        .split("encoding: [")
        .nth(1)
        .unwrap_or_else(|| {
            panic!(
                "{gen}: llvm-mc rejects `{line}`: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .split(']')
        .next()
        .unwrap();
    let bytes: Vec<u8> = enc
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
        .collect();
    Some(
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// Assembles one instruction with risa and checks the words against llvm-mc
/// (`llvm` is the LLVM spelling when it differs: LLVM 14 wants an 8-register
/// resource even with `r128`).
fn asm_as(gen: Gen, line: &str, llvm: &str) -> Vec<u32> {
    let a = common::assembled(gen, &format!("{line}\n"));
    assert!(
        !a.output.has_errors(),
        "{gen}: `{line}`:\n{}",
        a.diagnostics()
    );
    let words = a.code();
    let key = (gen, llvm.to_string());
    let first = CHECKED
        .lock()
        .unwrap()
        .get_or_insert_with(HashSet::new)
        .insert(key);
    if first {
        if let Some(want) = llvm_words(gen, llvm) {
            assert_eq!(words, want, "{gen}: `{line}`: risa vs llvm-mc encoding");
        }
    }
    words
}

fn asm(gen: Gen, line: &str) -> Vec<u32> {
    asm_as(gen, line, line)
}

// ---------------------------------------------------------------- T# building

/// Sets `width` bits at absolute descriptor bit `pos` (the documents' numbering).
fn bits(t: &mut [u32; 8], pos: u32, width: u32, v: u64) {
    for i in 0..width {
        let p = (pos + i) as usize;
        let b = ((v >> i) & 1) as u32;
        t[p / 32] = (t[p / 32] & !(1 << (p % 32))) | (b << (p % 32));
    }
}

/// An image as the tests describe it.
#[derive(Clone, Copy, Debug)]
struct T {
    ty: u32,
    dfmt: u32,
    nfmt: u32,
    w: u32,
    h: u32,
    /// 3D: depth; arrays: slices in memory.
    d: u32,
    pitch: u32,
    sel: [u32; 4],
    base_level: u32,
    last_level: u32,
    base_array: u32,
    last_array: u32,
    tiling: Option<u32>,
}

const T1D: u32 = 8;
const T2D: u32 = 9;
const T3D: u32 = 10;
const TCUBE: u32 = 11;
const T1DA: u32 = 12;
const T2DA: u32 = 13;

fn img(ty: u32, dfmt: u32, nfmt: u32, w: u32, h: u32, d: u32) -> T {
    T {
        ty,
        dfmt,
        nfmt,
        w,
        h,
        d,
        pitch: w,
        sel: [4, 5, 6, 7],
        base_level: 0,
        last_level: 0,
        base_array: 0,
        last_array: d - 1,
        tiling: None,
    }
}

fn tsharp(gen: Gen, t: &T) -> [u32; 8] {
    let gfx9 = gen == Gen::Gcn14;
    let mut s = [0u32; 8];
    bits(&mut s, 0, 40, BASE >> 8);
    bits(&mut s, 52, 6, t.dfmt.into());
    bits(&mut s, 58, 4, t.nfmt.into());
    bits(&mut s, 64, 14, (t.w - 1).into());
    bits(&mut s, 78, 14, (t.h - 1).into());
    for k in 0..4 {
        bits(&mut s, 96 + 3 * k, 3, t.sel[k as usize].into());
    }
    bits(&mut s, 108, 4, t.base_level.into());
    bits(&mut s, 112, 4, t.last_level.into());
    let linear = if gfx9 { 0 } else { 8 };
    bits(&mut s, 116, 5, t.tiling.unwrap_or(linear).into());
    bits(&mut s, 124, 4, t.ty.into());
    bits(&mut s, 160, 13, t.base_array.into());
    if gfx9 {
        let depth = if t.ty == T3D { t.d - 1 } else { t.last_array };
        bits(&mut s, 128, 13, depth.into());
        bits(&mut s, 141, 16, (t.pitch - 1).into());
    } else {
        bits(&mut s, 128, 13, (t.d - 1).into());
        bits(&mut s, 141, 14, (t.pitch - 1).into());
        bits(&mut s, 173, 13, t.last_array.into());
    }
    s
}

/// Bytes per texel and component widths from the lowest bit, per the
/// data-format table.
fn widths(dfmt: u32) -> &'static [u32] {
    match dfmt {
        1 => &[8],
        2 => &[16],
        3 => &[8, 8],
        4 => &[32],
        5 => &[16, 16],
        6 => &[11, 11, 10],
        9 => &[10, 10, 10, 2],
        10 => &[8, 8, 8, 8],
        11 => &[32, 32],
        12 => &[16, 16, 16, 16],
        14 => &[32, 32, 32, 32],
        16 => &[5, 6, 5],
        19 => &[4, 4, 4, 4],
        _ => unreachable!(),
    }
}

fn bpp(t: &T) -> u64 {
    u64::from(widths(t.dfmt).iter().sum::<u32>() / 8)
}

/// The stated linear layout: levels from level 0 one after the other, each
/// holding all slices; rows `pitch_L = max(width_L, pitch >> L)` texels apart.
fn addr(gen: Gen, t: &T, c: [u32; 3], mip: u32) -> Option<u64> {
    let level = t.base_level + mip;
    if level > t.last_level {
        return None;
    }
    let array = matches!(t.ty, T1DA | T2DA | TCUBE);
    let slices = if gen == Gen::Gcn14 && array {
        t.last_array + 1
    } else {
        t.d
    };
    let dims = |l: u32| {
        let w = (t.w >> l).max(1) as u64;
        let h = if matches!(t.ty, T1D | T1DA) {
            1
        } else {
            (t.h >> l).max(1) as u64
        };
        let d = match t.ty {
            T3D => (t.d >> l).max(1) as u64,
            _ if array => slices as u64,
            _ => 1,
        };
        let pitch = w.max(u64::from(t.pitch.max(t.w) >> l));
        (w, h, d, pitch)
    };
    let mut off = 0;
    for l in 0..level {
        let (_, h, d, p) = dims(l);
        off += p * h * d * bpp(t);
    }
    let (w, h, d, p) = dims(level);
    let (x, mut y, mut z) = (u64::from(c[0]), u64::from(c[1]), u64::from(c[2]));
    match t.ty {
        T1D => (y, z) = (0, 0),
        T1DA => (y, z) = (0, y),
        T2D => z = 0,
        _ => {}
    }
    if array {
        z += u64::from(t.base_array);
        if z > u64::from(t.last_array) {
            return None;
        }
    }
    (x < w && y < h && z < d).then(|| BASE + off + ((z * h + y) * p + x) * bpp(t))
}

// ---------------------------------------------------------------- running

/// Deterministic bytes for image contents.
fn pattern(n: usize, seed: u32) -> Vec<u8> {
    let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s >> 8) as u8
        })
        .collect()
}

fn run(
    gen: Gen,
    words: &[u32],
    ts: [u32; 8],
    mem: &SimpleMemory,
    exec: u64,
    init: impl FnOnce(&mut Wave),
) -> Result<Wave, Fault> {
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    code.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    let prog = Program::new(gen, &code, 0x1000);
    let mut lds = vec![0u8; 0];
    let mut ctx = Ctx::new(&prog, mem, &mut lds);
    let mut w = Wave::new(0);
    w.set_s64(EXEC, exec);
    w.s[8..16].copy_from_slice(&ts);
    init(&mut w);
    exec::run_wave(&mut w, &mut ctx).map(|_| w)
}

fn texel_raw(bytes: &[u8], at: u64, t: &T) -> [u32; 4] {
    let o = (at - BASE) as usize;
    let mut v = 0u128;
    for (k, b) in bytes[o..o + bpp(t) as usize].iter().enumerate() {
        v |= u128::from(*b) << (8 * k);
    }
    let mut out = [0u32; 4];
    let mut sh = 0;
    for (k, &w) in widths(t.dfmt).iter().enumerate() {
        out[k] = ((v >> sh) & ((1u128 << w) - 1)) as u32;
        sh += w;
    }
    out
}

fn sext(raw: u32, b: u32) -> i64 {
    let v = i64::from(raw);
    if b < 64 && v >> (b - 1) & 1 == 1 {
        v - (1i64 << b)
    } else {
        v
    }
}

/// A float of `b` bits with a 5-bit exponent (bias 15): half (sign bit on
/// top), or the unsigned 11/10-bit floats.
fn small_float(raw: u32, b: u32) -> f32 {
    let (sign, mbits) = if b == 16 {
        (raw >> 15 & 1, 10)
    } else {
        (0, b - 5)
    };
    let e = (raw >> mbits) & 31;
    let m = f64::from(raw & ((1 << mbits) - 1)) / f64::from(1u32 << mbits);
    let v = match e {
        0 => m * 2f64.powi(-14),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m) * 2f64.powi(e as i32 - 15),
    };
    (if sign == 1 { -v } else { v }) as f32
}

/// The number-format table's conversion of one stored component.
fn convert(raw: u32, b: u32, nfmt: u32) -> u32 {
    let umax = ((1u64 << b) - 1) as f64;
    match nfmt {
        0 => (f64::from(raw) / umax) as f32,
        1 => ((sext(raw, b) as f64 / ((1u64 << (b - 1)) - 1) as f64).max(-1.0)) as f32,
        2 => raw as f32,
        3 => sext(raw, b) as f32,
        4 => return raw,
        5 => return sext(raw, b) as u32,
        7 if b == 32 => return raw,
        7 => small_float(raw, b),
        _ => unreachable!(),
    }
    .to_bits()
}

fn same(got: u32, want: u32, float: bool) -> bool {
    got == want || (float && f32::from_bits(got).is_nan() && f32::from_bits(want).is_nan())
}

fn image_mem(size: usize, seed: u32) -> (SimpleMemory, Vec<u8>) {
    let bytes = pattern(size, seed);
    let mem = SimpleMemory::new();
    mem.add(BASE, bytes.clone());
    (mem, bytes)
}

// ---------------------------------------------------------------- tests

/// Spot checks of the layout formula itself against hand-computed offsets.
#[test]
fn layout_spot_checks() {
    let mut t = img(T2D, 10, 4, 5, 3, 1);
    t.pitch = 8;
    // Texel (2, 1): row 1 starts 8 texels in; 4 bytes per texel.
    assert_eq!(addr(Gen::Gcn10, &t, [2, 1, 0], 0), Some(BASE + 40));
    assert_eq!(addr(Gen::Gcn10, &t, [5, 0, 0], 0), None);
    // Level 1 of an 8x4 32-bit image follows level 0's 8*4*4 = 128 bytes;
    // its rows are 4 texels apart.
    let mut m = img(T2D, 4, 4, 8, 4, 1);
    m.last_level = 3;
    assert_eq!(addr(Gen::Gcn12, &m, [1, 1, 0], 1), Some(BASE + 128 + 20));
    // Level 2 (2x1) after 128 + 4*2*4 = 160 bytes.
    assert_eq!(addr(Gen::Gcn12, &m, [1, 0, 0], 2), Some(BASE + 164));
    // Slice 1 of a 3x2 2D array with BASE_ARRAY 1: slice 2 starts at 2*6*4 bytes.
    let mut a = img(T2DA, 4, 4, 3, 2, 4);
    a.base_array = 1;
    a.last_array = 3;
    assert_eq!(addr(Gen::Gcn11, &a, [0, 1, 1], 0), Some(BASE + 48 + 12));
}

/// 2D loads in many data/number formats, with a pitch larger than the
/// width and lanes outside the image (they read 0).
#[test]
fn load_2d_formats() {
    let fmts = [
        (10, 0),
        (10, 1),
        (10, 4),
        (10, 5),
        (1, 2),
        (3, 3),
        (2, 0),
        (5, 7),
        (12, 7),
        (4, 7),
        (14, 4),
        (11, 5),
        (9, 0),
        (16, 0),
        (19, 4),
        (6, 7),
    ];
    for gen in ALL_GENS {
        let words = asm(gen, "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm");
        for (dfmt, nfmt) in fmts {
            let mut t = img(T2D, dfmt, nfmt, 5, 3, 1);
            t.pitch = 7;
            let (mem, bytes) = image_mem(7 * 3 * 16, dfmt * 16 + nfmt);
            let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                for l in 0..64 {
                    w.v[4][l] = (l % 6) as u32;
                    w.v[5][l] = (l / 6 % 4) as u32;
                }
            })
            .unwrap_or_else(|f| panic!("{gen} fmt {dfmt}/{nfmt}: {f}"));
            let float = !matches!(nfmt, 4 | 5);
            for l in 0..64 {
                let c = [(l % 6) as u32, (l / 6 % 4) as u32, 0];
                let want = match addr(gen, &t, c, 0) {
                    None => [0; 4],
                    Some(a) => {
                        let raw = texel_raw(&bytes, a, &t);
                        let ws = widths(dfmt);
                        let one = if float { 0x3f80_0000 } else { 1 };
                        std::array::from_fn(|k| match ws.get(k) {
                            Some(&b) => convert(raw[k], b, nfmt),
                            None if k == 3 => one,
                            None => 0,
                        })
                    }
                };
                for (k, want) in want.iter().enumerate() {
                    assert!(
                        same(w.v[k][l], *want, float),
                        "{gen} fmt {dfmt}/{nfmt} lane {l} comp {k}: {:#x} want {want:#x}",
                        w.v[k][l],
                    );
                }
            }
        }
    }
}

/// DST_SEL swizzles the converted components; DMASK picks which land in
/// consecutive VGPRs.
#[test]
fn dst_sel_and_dmask() {
    for gen in ALL_GENS {
        let words = asm(gen, "image_load v[0:2], v[4:5], s[8:15] dmask:0xd unorm");
        let mut t = img(T2D, 10, 4, 4, 4, 1);
        // X <- B, Y <- G, Z <- 0, W <- 1.
        t.sel = [6, 5, 0, 1];
        let (mem, bytes) = image_mem(64, 7);
        let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
            for l in 0..64 {
                w.v[4][l] = (l % 4) as u32;
                w.v[5][l] = (l / 4 % 4) as u32;
            }
        })
        .unwrap();
        for l in 0..64 {
            let a = BASE + 4 * (l as u64 % 16);
            let raw = texel_raw(&bytes, a, &t);
            // dmask 0b1101: X, Z, W.
            assert_eq!(w.v[0][l], raw[2], "{gen} lane {l}");
            assert_eq!(w.v[1][l], 0, "{gen} lane {l}");
            assert_eq!(w.v[2][l], 1, "{gen} lane {l}");
        }
        // Single component, default select.
        let words = asm(gen, "image_load v0, v[4:5], s[8:15] dmask:0x2 unorm");
        let t = img(T2D, 10, 4, 4, 4, 1);
        let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
            for l in 0..64 {
                w.v[4][l] = (l % 4) as u32;
                w.v[5][l] = (l / 4 % 4) as u32;
            }
        })
        .unwrap();
        for l in 0..64 {
            let raw = texel_raw(&bytes, BASE + 4 * (l as u64 % 16), &t);
            assert_eq!(w.v[0][l], raw[1], "{gen} lane {l}");
        }
    }
}

/// 1D, 1D arrays, 3D, 2D arrays and cubes: address components per TYPE,
/// BASE_ARRAY offsets, slices past LAST_ARRAY read 0.
#[test]
fn dimensions_and_arrays() {
    let cases: [(&str, u32, [u32; 3]); 5] = [
        ("image_load v0, v4, s[8:15] dmask:0x1 unorm", T1D, [9, 1, 1]),
        (
            "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm da",
            T1DA,
            [7, 1, 4],
        ),
        (
            "image_load v0, v[4:6], s[8:15] dmask:0x1 unorm",
            T3D,
            [4, 3, 3],
        ),
        (
            "image_load v0, v[4:6], s[8:15] dmask:0x1 unorm da",
            T2DA,
            [3, 2, 5],
        ),
        (
            "image_load v0, v[4:6], s[8:15] dmask:0x1 unorm da",
            TCUBE,
            [2, 2, 6],
        ),
    ];
    for gen in ALL_GENS {
        for (line, ty, [w0, h0, d0]) in cases {
            let words = asm(gen, line);
            let mut t = img(ty, 4, 4, w0, h0, d0);
            if matches!(ty, T1DA | T2DA | TCUBE) {
                t.base_array = 1;
                t.last_array = d0 - 2;
            }
            let (mem, bytes) = image_mem((w0 * h0 * d0 * 4) as usize, ty);
            let coord = |l: usize| -> [u32; 3] {
                let (a, b) = (l as u32 * 7 + 3, l as u32 * 13 + 5);
                [a % (w0 + 1), b % (h0 + 1), (a ^ b) % (d0 + 1)]
            };
            let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                for l in 0..64 {
                    let c = coord(l);
                    // Components in order: X, then Y or slice, then Z or slice.
                    let comps: Vec<u32> = match ty {
                        T1D => vec![c[0]],
                        T1DA => vec![c[0], c[2]],
                        _ => vec![c[0], c[1], c[2]],
                    };
                    for (k, v) in comps.iter().enumerate() {
                        w.v[4 + k][l] = *v;
                    }
                }
            })
            .unwrap_or_else(|f| panic!("{gen} {line}: {f}"));
            let mut hits = 0;
            for l in 0..64 {
                let c = coord(l);
                let c = if ty == T1DA { [c[0], c[2], 0] } else { c };
                let want = match addr(gen, &t, c, 0) {
                    Some(a) => {
                        hits += 1;
                        texel_raw(&bytes, a, &t)[0]
                    }
                    None => 0,
                };
                assert_eq!(w.v[0][l], want, "{gen} {line} type {ty} lane {l} {c:?}");
            }
            assert!(
                hits > 10 && hits < 64,
                "{gen} type {ty}: {hits} lanes in range"
            );
        }
    }
}

/// image_load_mip / image_store_mip: the level comes after the coordinates,
/// counted from BASE_LEVEL; levels past LAST_LEVEL read 0 and drop stores.
#[test]
fn mip_levels() {
    for gen in ALL_GENS {
        let ld = asm(gen, "image_load_mip v0, v[4:6], s[8:15] dmask:0x1 unorm");
        let st = asm(gen, "image_store_mip v0, v[4:6], s[8:15] dmask:0x1 unorm");
        for base_level in [0, 1] {
            let mut t = img(T2D, 4, 4, 8, 4, 1);
            t.base_level = base_level;
            t.last_level = 3;
            let size = (8 * 4 + 4 * 2 + 2 + 1) * 4;
            let (mem, bytes) = image_mem(size, 3 + base_level);
            let coord = |l: usize| [(l % 9) as u32, (l / 9 % 5) as u32, (l % 5) as u32];
            let init = |w: &mut Wave| {
                for l in 0..64 {
                    let c = coord(l);
                    w.v[4][l] = c[0];
                    w.v[5][l] = c[1];
                    w.v[6][l] = c[2];
                    w.v[0][l] = 0xabc0_0000 | l as u32;
                }
            };
            let w = run(gen, &ld, tsharp(gen, &t), &mem, u64::MAX, init).unwrap();
            let mut expect = bytes.clone();
            for l in 0..64 {
                let c = coord(l);
                let want = addr(gen, &t, [c[0], c[1], 0], c[2]).map_or(0, |a| {
                    let o = (a - BASE) as usize;
                    u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap())
                });
                assert_eq!(w.v[0][l], want, "{gen} base {base_level} lane {l} {c:?}");
                // Distinct texels per lane? Only the last writer of a texel counts.
                if let Some(a) = addr(gen, &t, [c[0], c[1], 0], c[2]) {
                    let o = (a - BASE) as usize;
                    expect[o..o + 4].copy_from_slice(&(0xabc0_0000u32 | l as u32).to_le_bytes());
                }
            }
            run(gen, &st, tsharp(gen, &t), &mem, u64::MAX, init).unwrap();
            assert_eq!(mem.get(BASE).unwrap(), expect, "{gen} base {base_level}");
        }
    }
}

fn f16_bits(x: f32) -> u16 {
    // Exact for the values the tests use: normal halves with short mantissas.
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = x.to_bits();
    let sign = (b >> 16 & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&e) && b & 0x1fff == 0,
        "{x} is not an exact half"
    );
    sign | (e as u16) << 10 | ((b >> 13) & 0x3ff) as u16
}

/// Stores convert with the number format (round to nearest, saturate);
/// DMASK leaves the other components untouched; out-of-range stores are
/// dropped; the _pck forms write raw bits.
#[test]
fn stores() {
    for gen in ALL_GENS {
        // 16_16_16_16 FLOAT, every component.
        let words = asm(gen, "image_store v[0:3], v[4:5], s[8:15] dmask:0xf unorm");
        let t = img(T2D, 12, 7, 4, 2, 1);
        let (mem, bytes) = image_mem(4 * 2 * 8, 1);
        let val = |l: usize, k: usize| (l as f32) * 0.25 - 2.0 * k as f32;
        let exec = 0x7fff; // lanes 0..14: (l % 5, l / 5); x = 4 or y = 2 is outside
        run(gen, &words, tsharp(gen, &t), &mem, exec, |w| {
            for l in 0..64 {
                w.v[4][l] = (l % 5) as u32;
                w.v[5][l] = (l / 5) as u32;
                for k in 0..4 {
                    w.v[k][l] = val(l, k).to_bits();
                }
            }
        })
        .unwrap();
        let mut expect = bytes.clone();
        for l in 0..15 {
            if let Some(a) = addr(gen, &t, [(l % 5) as u32, (l / 5) as u32, 0], 0) {
                let o = (a - BASE) as usize;
                for k in 0..4 {
                    let h = f16_bits(val(l, k));
                    expect[o + 2 * k..o + 2 * k + 2].copy_from_slice(&h.to_le_bytes());
                }
            }
        }
        assert_eq!(mem.get(BASE).unwrap(), expect, "{gen} 16x4 float");

        // 8_8_8_8 UNORM, R and B only: G and A keep their bytes.
        let words = asm(gen, "image_store v[0:1], v[4:5], s[8:15] dmask:0x5 unorm");
        let t = img(T2D, 10, 0, 8, 8, 1);
        let (mem, bytes) = image_mem(8 * 8 * 4, 2);
        let vals = [-0.5f32, 0.0, 0.2, 0.5, 0.75, 1.0, 3.0, 1.0 / 255.0];
        run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
            for l in 0..64 {
                w.v[4][l] = l as u32 % 8;
                w.v[5][l] = l as u32 / 8;
                w.v[0][l] = vals[l % 8].to_bits();
                w.v[1][l] = vals[(l + 3) % 8].to_bits();
            }
        })
        .unwrap();
        let mut expect = bytes.clone();
        let unorm8 = |v: f32| (f64::from(v).clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
        for l in 0..64 {
            expect[4 * l] = unorm8(vals[l % 8]);
            expect[4 * l + 2] = unorm8(vals[(l + 3) % 8]);
        }
        assert_eq!(mem.get(BASE).unwrap(), expect, "{gen} 8x4 unorm dmask 0x5");

        // 16_16 SINT saturates; _pck stores raw low bits.
        for (line, pck) in [
            ("image_store v[0:1], v[4:5], s[8:15] dmask:0x3 unorm", false),
            (
                "image_store_pck v[0:1], v[4:5], s[8:15] dmask:0x3 unorm",
                true,
            ),
            (
                "image_store_mip_pck v[0:1], v[4:6], s[8:15] dmask:0x3 unorm",
                true,
            ),
        ] {
            let words = asm(gen, line);
            let t = img(T1D, 5, 5, 64, 1, 1);
            let (mem, _) = image_mem(64 * 4, 3);
            let ints = [0i32, 1, -1, 32767, 32768, -32768, -40000, 0x12345];
            run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                for l in 0..64 {
                    w.v[4][l] = l as u32;
                    w.v[5][l] = 0;
                    w.v[6][l] = 0;
                    w.v[0][l] = ints[l % 8] as u32;
                    w.v[1][l] = ints[(l + 5) % 8] as u32;
                }
            })
            .unwrap();
            let got = mem.get(BASE).unwrap();
            for l in 0..64 {
                for (k, v) in [ints[l % 8], ints[(l + 5) % 8]].iter().enumerate() {
                    let want = if pck {
                        *v as u16
                    } else {
                        (*v).clamp(-32768, 32767) as i16 as u16
                    };
                    let o = 4 * l + 2 * k;
                    assert_eq!(
                        u16::from_le_bytes([got[o], got[o + 1]]),
                        want,
                        "{gen} {line} lane {l}"
                    );
                }
            }
        }
    }
}

/// The _pck loads return raw components, zero- or sign-extended from their width.
#[test]
fn packed_loads() {
    for gen in ALL_GENS {
        for (line, sgn) in [
            (
                "image_load_pck v[0:1], v[4:5], s[8:15] dmask:0x3 unorm",
                false,
            ),
            (
                "image_load_pck_sgn v[0:1], v[4:5], s[8:15] dmask:0x3 unorm",
                true,
            ),
            (
                "image_load_mip_pck v[0:1], v[4:6], s[8:15] dmask:0x3 unorm",
                false,
            ),
            (
                "image_load_mip_pck_sgn v[0:1], v[4:6], s[8:15] dmask:0x3 unorm",
                true,
            ),
        ] {
            let words = asm(gen, line);
            let t = img(T2D, 3, 0, 8, 8, 1);
            let (mem, bytes) = image_mem(8 * 8 * 2, 4);
            let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                for l in 0..64 {
                    w.v[4][l] = l as u32 % 8;
                    w.v[5][l] = l as u32 / 8;
                    w.v[6][l] = 0;
                }
            })
            .unwrap();
            for l in 0..64 {
                for k in 0..2 {
                    let b = bytes[2 * l + k];
                    let want = if sgn { b as i8 as u32 } else { u32::from(b) };
                    assert_eq!(w.v[k][l], want, "{gen} {line} lane {l}");
                }
            }
        }
    }
}

/// The atomics of each generation's table (GcnInstrsMimg.md), on 32-bit
/// texels: the new texel value by the operation's description, the old value
/// returned with GLC and VDATA untouched without; lanes outside the image
/// change nothing.
#[test]
fn atomics_32() {
    let all: &[Gen] = &ALL_GENS;
    let gfx67: &[Gen] = &[Gen::Gcn10, Gen::Gcn11];
    let ops: [(&str, &[Gen]); 17] = [
        ("swap", all),
        ("cmpswap", all),
        ("add", all),
        ("sub", all),
        ("rsub", &[Gen::Gcn10]),
        ("smin", all),
        ("umin", all),
        ("smax", all),
        ("umax", all),
        ("and", all),
        ("or", all),
        ("xor", all),
        ("inc", all),
        ("dec", all),
        ("fcmpswap", gfx67),
        ("fmin", gfx67),
        ("fmax", gfx67),
    ];
    let f = f32::from_bits;
    let reference = |op: &str, old: u32, data: u32, cmp: u32| -> u32 {
        match op {
            "swap" => data,
            "cmpswap" => {
                if old == cmp {
                    data
                } else {
                    old
                }
            }
            "add" => old.wrapping_add(data),
            // "Subtract VDATA ... from values of image".
            "sub" => old.wrapping_sub(data),
            // "Subtract values of image ... from VDATA".
            "rsub" => data.wrapping_sub(old),
            "smin" => (old as i32).min(data as i32) as u32,
            "umin" => old.min(data),
            "smax" => (old as i32).max(data as i32) as u32,
            "umax" => old.max(data),
            "and" => old & data,
            "or" => old | data,
            "xor" => old ^ data,
            "inc" => {
                if old < data {
                    old + 1
                } else {
                    0
                }
            }
            "dec" => {
                if old <= data && old != 0 {
                    old - 1
                } else {
                    data
                }
            }
            "fcmpswap" => {
                if f(old) == f(cmp) {
                    data
                } else {
                    old
                }
            }
            "fmin" => f(old).min(f(data)).to_bits(),
            "fmax" => f(old).max(f(data)).to_bits(),
            _ => unreachable!(),
        }
    };
    for gen in ALL_GENS {
        for (op, gens) in ops {
            if !gens.contains(&gen) {
                continue;
            }
            let float = op.starts_with('f');
            let cmp = op.ends_with("cmpswap");
            let val = |l: usize| -> u32 {
                if float {
                    ((l % 7) as f32 - 3.0).to_bits()
                } else {
                    [0u32, 1, 5, 7, 0xffff_fff0, 0x8000_0000, 3, 100][l % 8]
                }
            };
            let init_mem = |l: usize| -> u32 {
                if float {
                    ((l % 5) as f32 * 1.5 - 2.5).to_bits()
                } else {
                    [5u32, 0, 7, 1, 6, 0x7fff_ffff, 3, 0xffff_ffff][(l / 3) % 8]
                }
            };
            let cmpv = |l: usize| {
                if l.is_multiple_of(2) {
                    init_mem(l)
                } else {
                    val(l) ^ 1
                }
            };
            for glc in [true, false] {
                let line = if cmp {
                    format!(
                        "image_atomic_{op} v[0:1], v4, s[8:15] dmask:0x3 unorm{}",
                        if glc { " glc" } else { "" }
                    )
                } else {
                    format!(
                        "image_atomic_{op} v0, v4, s[8:15] dmask:0x1 unorm{}",
                        if glc { " glc" } else { "" }
                    )
                };
                let words = asm(gen, &line);
                let t = img(T1D, 4, if float { 7 } else { 4 }, 60, 1, 1);
                let bytes: Vec<u8> = (0..64).flat_map(|l| init_mem(l).to_le_bytes()).collect();
                let mem = SimpleMemory::new();
                mem.add(BASE, bytes);
                let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                    for l in 0..64 {
                        w.v[4][l] = l as u32; // lanes 60..63 are outside
                        w.v[0][l] = val(l);
                        w.v[1][l] = cmpv(l);
                    }
                })
                .unwrap_or_else(|e| panic!("{gen} {line}: {e}"));
                let got = mem.get(BASE).unwrap();
                for l in 0..64 {
                    let old = init_mem(l);
                    let new = if l < 60 {
                        reference(op, old, val(l), cmpv(l))
                    } else {
                        old
                    };
                    let m = u32::from_le_bytes(got[4 * l..4 * l + 4].try_into().unwrap());
                    assert_eq!(m, new, "{gen} {line} lane {l}: memory");
                    let ret = if !glc {
                        val(l)
                    } else if l < 60 {
                        old
                    } else {
                        0
                    };
                    assert_eq!(w.v[0][l], ret, "{gen} {line} lane {l}: returned");
                }
            }
        }
    }
}

/// 64-bit atomics on a 32_32 texel: DMASK 0x3 (0xf for cmpswap).
#[test]
fn atomics_64() {
    for gen in ALL_GENS {
        let t = img(T1D, 11, 4, 64, 1, 1);
        let old = |l: usize| 0x1_0000_0000u64 * l as u64 + 0xffff_fff0 + (l % 3) as u64;
        let data = |l: usize| 0x0000_0002_0000_0020u64 + l as u64 * 0x3;
        for (line, kind) in [
            (
                "image_atomic_add v[0:1], v4, s[8:15] dmask:0x3 unorm glc",
                0,
            ),
            (
                "image_atomic_umax v[0:1], v4, s[8:15] dmask:0x3 unorm glc",
                1,
            ),
            (
                "image_atomic_cmpswap v[0:3], v4, s[8:15] dmask:0xf unorm glc",
                2,
            ),
        ] {
            let words = asm(gen, line);
            let mem = SimpleMemory::new();
            mem.add(BASE, (0..64).flat_map(|l| old(l).to_le_bytes()).collect());
            let cmp = |l: usize| if l.is_multiple_of(2) { old(l) } else { 1 };
            let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
                for l in 0..64 {
                    w.v[4][l] = l as u32;
                    w.v[0][l] = data(l) as u32;
                    w.v[1][l] = (data(l) >> 32) as u32;
                    w.v[2][l] = cmp(l) as u32;
                    w.v[3][l] = (cmp(l) >> 32) as u32;
                }
            })
            .unwrap_or_else(|e| panic!("{gen} {line}: {e}"));
            let got = mem.get(BASE).unwrap();
            for l in 0..64 {
                let want = match kind {
                    0 => old(l).wrapping_add(data(l)),
                    1 => old(l).max(data(l)),
                    _ if cmp(l) == old(l) => data(l),
                    _ => old(l),
                };
                let m = u64::from_le_bytes(got[8 * l..8 * l + 8].try_into().unwrap());
                assert_eq!(m, want, "{gen} {line} lane {l}");
                let r = u64::from(w.v[0][l]) | u64::from(w.v[1][l]) << 32;
                assert_eq!(r, old(l), "{gen} {line} lane {l}: returned");
            }
        }
    }
}

/// image_get_resinfo: width, height, depth or slice count of the level, and
/// the number of levels; DMASK selects.
#[test]
fn resinfo() {
    for gen in ALL_GENS {
        let all = asm(gen, "image_get_resinfo v[0:3], v4, s[8:15] dmask:0xf");
        let some = asm(gen, "image_get_resinfo v[0:1], v4, s[8:15] dmask:0x5");
        let mem = SimpleMemory::new();
        let mut t2 = img(T2D, 4, 4, 8, 4, 1);
        t2.base_level = 1;
        t2.last_level = 3;
        let mut t3 = img(T3D, 4, 4, 8, 4, 4);
        t3.last_level = 2;
        let mut ta = img(T2DA, 4, 4, 5, 3, 6);
        ta.base_array = 2;
        ta.last_array = 4;
        let mut t1a = img(T1DA, 4, 4, 16, 1, 6);
        t1a.last_array = 5;
        // (T#, mip, expected x y z w)
        let gfx9 = gen == Gen::Gcn14;
        let cases = [
            (t2, 0, [4, 2, 1, 3]),
            (t2, 1, [2, 1, 1, 3]),
            (t2, 2, [1, 1, 1, 3]),
            (t2, 3, [0, 0, 0, 3]),
            (t3, 1, [4, 2, 2, 3]),
            (t3, 2, [2, 1, 1, 3]),
            (ta, 0, [5, 3, 3, 1]),
            (t1a, 0, if gfx9 { [16, 1, 6, 1] } else { [16, 6, 1, 1] }),
        ];
        for (t, mip, want) in cases {
            let w = run(gen, &all, tsharp(gen, &t), &mem, 1, |w| w.v[4][0] = mip).unwrap();
            let got: Vec<u32> = (0..4).map(|k| w.v[k][0]).collect();
            assert_eq!(got, want, "{gen} type {} mip {mip}", t.ty);
            let w = run(gen, &some, tsharp(gen, &t), &mem, 1, |w| w.v[4][0] = mip).unwrap();
            assert_eq!(
                [w.v[0][0], w.v[1][0]],
                [want[0], want[2]],
                "{gen} dmask 0x5"
            );
        }
    }
}

/// TFE: one more VGPR after the data, written 0 (risa's memory is always resident).
#[test]
fn tfe_status() {
    for gen in ALL_GENS {
        let words = asm(
            gen,
            "image_load v[0:4], v[6:7], s[8:15] dmask:0xf unorm tfe",
        );
        let t = img(T2D, 14, 4, 4, 4, 1);
        let (mem, bytes) = image_mem(4 * 4 * 16, 9);
        let w = run(gen, &words, tsharp(gen, &t), &mem, u64::MAX, |w| {
            for l in 0..64 {
                w.v[6][l] = l as u32 % 4;
                w.v[7][l] = l as u32 / 4;
                w.v[4][l] = 0xdead;
            }
        })
        .unwrap();
        for l in 0..64 {
            if l < 16 {
                for k in 0..4 {
                    let o = 16 * l + 4 * k;
                    let want = u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
                    assert_eq!(w.v[k][l], want, "{gen} lane {l}");
                }
            }
            assert_eq!(w.v[4][l], 0, "{gen} lane {l}: status");
        }
    }
}

/// R128 (GCN 1.0-1.2): a 4-dword T#; PITCH is absent, so rows are WIDTH apart.
#[test]
fn r128_descriptor() {
    for gen in [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12] {
        let words = asm_as(
            gen,
            "image_load v0, v[4:5], s[8:11] dmask:0x1 unorm r128",
            "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm r128",
        );
        let t = img(T2D, 4, 4, 6, 3, 1);
        let mut ts = tsharp(gen, &t);
        // Dwords 4-7 are not part of a 128-bit T#: garbage there changes nothing.
        ts[4..].copy_from_slice(&[0xffff_ffff; 4]);
        let (mem, bytes) = image_mem(6 * 3 * 4, 11);
        let w = run(gen, &words, ts, &mem, u64::MAX, |w| {
            for l in 0..64 {
                w.v[4][l] = l as u32 % 6;
                w.v[5][l] = l as u32 / 6;
            }
        })
        .unwrap();
        for l in 0..18 {
            let want = u32::from_le_bytes(bytes[4 * l..4 * l + 4].try_into().unwrap());
            assert_eq!(w.v[0][l], want, "{gen} lane {l}");
        }
        assert_eq!(w.v[0][18], 0);
    }
}

/// D16 (GCN 1.2: one half per VGPR; GCN 1.4: two per VGPR) and A16 (GCN 1.4).
#[test]
fn d16_and_a16() {
    let halves = [
        0x3c00u16, 0xc000, 0x3555, 0x7bff, 0x0001, 0x8000, 0x4400, 0x3800,
    ];
    let t = img(T2D, 12, 7, 4, 4, 1);
    let bytes: Vec<u8> = (0..64)
        .flat_map(|i| halves[(i * 3 + i / 4) % 8].to_le_bytes())
        .collect();
    let half_at = |l: usize, k: usize| halves[((4 * l + k) * 3 + (4 * l + k) / 4) % 8];
    for (gen, load, store) in [
        (
            Gen::Gcn12,
            "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm d16",
            "image_store v[0:3], v[4:5], s[8:15] dmask:0xf unorm d16",
        ),
        (
            Gen::Gcn14,
            "image_load v[0:1], v[4:5], s[8:15] dmask:0xf unorm d16",
            "image_store v[0:1], v[4:5], s[8:15] dmask:0xf unorm d16",
        ),
    ] {
        let packed = gen == Gen::Gcn14;
        let mem = SimpleMemory::new();
        mem.add(BASE, bytes.clone());
        let init = |w: &mut Wave| {
            for l in 0..64 {
                w.v[4][l] = l as u32 % 4;
                w.v[5][l] = l as u32 / 4;
            }
        };
        let w = run(gen, &asm(gen, load), tsharp(gen, &t), &mem, 0xffff, init).unwrap();
        for l in 0..16 {
            for k in 0..4 {
                let got = if packed {
                    (w.v[k / 2][l] >> (16 * (k % 2))) & 0xffff
                } else {
                    w.v[k][l]
                };
                assert_eq!(got, u32::from(half_at(l, k)), "{gen} lane {l} comp {k}");
            }
        }
        // Storing what was loaded writes the same halves back (into a zeroed image).
        let mem2 = SimpleMemory::new();
        mem2.add(BASE, vec![0; 128]);
        let regs: Vec<[u32; 64]> = (0..4).map(|k| w.v[k]).collect();
        run(gen, &asm(gen, store), tsharp(gen, &t), &mem2, 0xffff, |w| {
            init(w);
            for (k, r) in regs.iter().enumerate() {
                w.v[k] = *r;
            }
        })
        .unwrap();
        assert_eq!(mem2.get(BASE).unwrap(), bytes, "{gen} d16 store");
    }
    // 8_8_8_8 UNORM with D16: halves of the converted floats (255 -> 1.0 = 0x3c00).
    let t8 = img(T1D, 10, 0, 4, 1, 1);
    let mem = SimpleMemory::new();
    mem.add(
        BASE,
        vec![255, 0, 255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    let w = run(
        Gen::Gcn14,
        &asm(
            Gen::Gcn14,
            "image_load v[0:1], v4, s[8:15] dmask:0xf unorm d16",
        ),
        tsharp(Gen::Gcn14, &t8),
        &mem,
        3,
        |w| w.v[4][1] = 1,
    )
    .unwrap();
    assert_eq!([w.v[0][0], w.v[1][0]], [0x3c00, 0x3c00]);
    assert_eq!([w.v[0][1], w.v[1][1]], [0x3c00_0000, 0x3c00_0000]);
    // A16: X in the low half, Y in the high half of one VGPR.
    let t = img(T2D, 4, 4, 4, 4, 1);
    let (mem, bytes) = image_mem(64, 12);
    let w = run(
        Gen::Gcn14,
        &asm(Gen::Gcn14, "image_load v0, v4, s[8:15] dmask:0x1 unorm a16"),
        tsharp(Gen::Gcn14, &t),
        &mem,
        u64::MAX,
        |w| {
            for l in 0..64 {
                w.v[4][l] = (l as u32 % 4) | (l as u32 / 4) << 16;
            }
        },
    )
    .unwrap();
    for l in 0..64 {
        let want = if l < 16 {
            u32::from_le_bytes(bytes[4 * l..4 * l + 4].try_into().unwrap())
        } else {
            0
        };
        assert_eq!(w.v[0][l], want, "a16 lane {l}");
    }
}

/// What risa cannot or must not do faults with a message saying why.
#[test]
fn faults() {
    for gen in ALL_GENS {
        let load = asm(gen, "image_load v0, v[4:5], s[8:15] dmask:0x1 unorm");
        let mem = SimpleMemory::new();
        mem.add(BASE, vec![0; 256]);
        let t = img(T2D, 4, 4, 4, 4, 1);
        let kind = |ts: [u32; 8], m: &SimpleMemory| {
            run(gen, &load, ts, m, 1, |_| {}).err().map(|f| f.kind)
        };
        // Tiled layouts are refused.
        let mut tiled = t;
        tiled.tiling = Some(if gen == Gen::Gcn14 { 9 } else { 14 });
        match kind(tsharp(gen, &tiled), &mem) {
            Some(FaultKind::BadOperand(m)) => assert!(m.contains("linear"), "{m}"),
            k => panic!("{gen}: tiled: {k:?}"),
        }
        // MSAA.
        let mut msaa = t;
        msaa.ty = 14;
        assert!(matches!(
            kind(tsharp(gen, &msaa), &mem),
            Some(FaultKind::Unimplemented(m)) if m.contains("MSAA")
        ));
        // A buffer TYPE is not an image.
        let mut buf = t;
        buf.ty = 0;
        assert!(matches!(
            kind(tsharp(gen, &buf), &mem),
            Some(FaultKind::BadOperand(_))
        ));
        // Block-compressed formats are not modelled.
        let mut bc = t;
        bc.dfmt = 35;
        assert!(matches!(
            kind(tsharp(gen, &bc), &mem),
            Some(FaultKind::BadOperand(_))
        ));
        // An image whose texels lie outside every allocation: a memory fault
        // naming the lane and address.
        let small = SimpleMemory::new();
        small.add(BASE, vec![0; 8]);
        let f = run(gen, &load, tsharp(gen, &t), &small, 0b100, |w| {
            w.v[4][2] = 3;
            w.v[5][2] = 1;
        })
        .err()
        .expect("a fault");
        assert_eq!(
            f.kind,
            FaultKind::Memory {
                lane: Some(2),
                addr: BASE + 28,
                size: 4,
                write: false
            },
            "{gen}"
        );
        // 64-bit atomics need a 64-bit texel.
        let words = asm(
            gen,
            "image_atomic_add v[0:1], v4, s[8:15] dmask:0x3 unorm glc",
        );
        let f = run(gen, &words, tsharp(gen, &t), &mem, 1, |_| {})
            .err()
            .expect("a fault");
        assert!(f.to_string().contains("64-bit texel"), "{f}");
        // A cube image cannot be sampled (no face selection): a clean fault.
        let words = asm(
            gen,
            "image_sample v[0:3], v[4:6], s[8:15], s[16:19] dmask:0xf",
        );
        let cube = img(TCUBE, 14, 7, 2, 2, 6);
        let f = run(gen, &words, tsharp(gen, &cube), &mem, 1, |_| {})
            .err()
            .expect("a fault");
        assert!(f.to_string().contains("cube"), "{gen}: {f}");
    }
}

/// The fuzz harness seeds linear T#s, so image instructions in fuzzed streams
/// get past the descriptor checks: some runs end without a fault.
#[test]
fn fuzz_streams_reach_image_memory() {
    for gen in ALL_GENS {
        let mut words = asm(gen, "image_load v[0:3], v[4:5], s[8:15] dmask:0xf unorm");
        words.extend(asm(
            gen,
            "image_atomic_add v0, v[4:5], s[8:15] dmask:0x1 unorm glc",
        ));
        words.push(0xbf81_0000);
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let clean = (0..400u64)
            .filter(|&seed| risa_gcn_emu::fuzz::run_stream(gen, &code, seed, 1, 100).is_none())
            .count();
        assert!(
            clean > 0,
            "{gen}: no fuzz seed gives a usable image descriptor"
        );
    }
}

// ---------------------------------------------------------------- sampling

/// An S# from the bit numbers of `GcnMemHandling.md`, "Sampler resource
/// format": CLAMP_X/Y/Z = `clamp`, FORCE_UNNORM, XY_MAG/MIN_FILTER
/// (`linear`), MIP_FILTER, MAX_LOD 15.99, BORDER_COLOR_TYPE, DEPTH_COMPARE_FUNC.
fn ssharp(clamp: u32, unnorm: bool, linear: bool, mip: u32, border: u32, cmp: u32) -> [u32; 4] {
    let mut s = [0u32; 8];
    for k in 0..3 {
        bits(&mut s, 3 * k, 3, clamp.into());
    }
    bits(&mut s, 12, 3, cmp.into());
    bits(&mut s, 15, 1, unnorm.into());
    bits(&mut s, 44, 12, 0xfff);
    bits(&mut s, 84, 2, linear.into());
    bits(&mut s, 86, 2, linear.into());
    bits(&mut s, 90, 2, mip.into());
    bits(&mut s, 126, 2, border.into());
    [s[0], s[1], s[2], s[3]]
}

/// A 4x2 R32_FLOAT image whose texel (x, y) holds x + 10y, then (with
/// `mips`) level 1, 2x1 texels 100 and 101.
fn ramp(mips: bool) -> (T, SimpleMemory) {
    let mut t = img(T2D, 4, 7, 4, 2, 1);
    let mut v: Vec<f32> = (0..8).map(|i| (i % 4 + 10 * (i / 4)) as f32).collect();
    if mips {
        t.last_level = 1;
        v.extend([100.0, 101.0]);
    }
    let mem = SimpleMemory::new();
    mem.add(BASE, v.iter().flat_map(|f| f.to_le_bytes()).collect());
    (t, mem)
}

/// Runs `line` with the ramp image, sampler `samp` and, per lane, the address
/// dwords `lanes[l]` in v4..; returns v0..v3 of each lane.
fn sample(
    gen: Gen,
    line: &str,
    t: &T,
    mem: &SimpleMemory,
    samp: [u32; 4],
    lanes: &[Vec<u32>],
) -> Vec<[u32; 4]> {
    let words = asm(gen, line);
    let exec = (1u64 << lanes.len()) - 1;
    let w = run(gen, &words, tsharp(gen, t), mem, exec, |w| {
        w.s[16..20].copy_from_slice(&samp);
        for (l, a) in lanes.iter().enumerate() {
            for (k, v) in a.iter().enumerate() {
                w.v[4 + k][l] = *v;
            }
        }
    })
    .unwrap_or_else(|f| panic!("{gen} {line}: {f}"));
    (0..lanes.len())
        .map(|l| std::array::from_fn(|k| w.v[k][l]))
        .collect()
}

fn xy(x: f32, y: f32) -> Vec<u32> {
    vec![x.to_bits(), y.to_bits()]
}

/// One component per lane of `image_sample_lz` (unnormalized unless said).
fn lz(gen: Gen, samp: [u32; 4], coords: &[(f32, f32)]) -> Vec<f32> {
    let (t, mem) = ramp(false);
    let lanes: Vec<Vec<u32>> = coords.iter().map(|&(x, y)| xy(x, y)).collect();
    sample(
        gen,
        "image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
        &t,
        &mem,
        samp,
        &lanes,
    )
    .iter()
    .map(|v| f32::from_bits(v[0]))
    .collect()
}

/// Every address mode with point sampling, on every generation; values
/// worked out by hand from the mode descriptions (texel x of row 0 is x).
#[test]
fn sample_address_modes() {
    let xs = [
        (-2.5, 0.5),
        (-0.5, 0.5),
        (0.2, 0.5),
        (3.9, 0.5),
        (4.5, 0.5),
        (5.3, 0.5),
        (7.5, 0.5),
    ];
    // (mode, border type, expected per coordinate); -1 marks the border.
    let cases: [(u32, [f32; 7]); 8] = [
        (0, [1.0, 3.0, 0.0, 3.0, 0.0, 1.0, 3.0]),      // wrap
        (1, [2.0, 0.0, 0.0, 3.0, 3.0, 2.0, 0.0]),      // mirror
        (2, [0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 3.0]),      // clamp to last texel
        (3, [2.0, 0.0, 0.0, 3.0, 3.0, 3.0, 3.0]),      // mirror once, last texel
        (4, [-1.0, -1.0, 0.0, 3.0, -1.0, -1.0, -1.0]), // half border
        (5, [2.0, 0.0, 0.0, 3.0, -1.0, -1.0, -1.0]),   // mirror once, half border
        (6, [-1.0, -1.0, 0.0, 3.0, -1.0, -1.0, -1.0]), // border
        (7, [2.0, 0.0, 0.0, 3.0, -1.0, -1.0, -1.0]),   // mirror once, border
    ];
    for gen in ALL_GENS {
        for (mode, want) in cases {
            for (border, colour) in [(0u32, 0.0f32), (2, 1.0)] {
                let got = lz(gen, ssharp(mode, true, false, 0, border, 0), &xs);
                let want: Vec<f32> = want
                    .iter()
                    .map(|&v| if v < 0.0 { colour } else { v })
                    .collect();
                assert_eq!(got, want, "{gen} mode {mode} border {border}");
            }
        }
    }
}

/// Bilinear weights come from 8 fractional bits of the texel-space
/// coordinate; normalized coordinates scale by the size.
#[test]
fn sample_bilinear_fixed_point() {
    let gen = Gen::Gcn12;
    let edge = ssharp(2, true, true, 0, 0, 0);
    // A quarter past texel 1's centre, on row 0; then half way to row 1.
    assert_eq!(lz(gen, edge, &[(1.75, 0.5), (1.75, 1.0)]), [1.25, 6.25]);
    // 1/3 of a texel is 85/256 of the weight, not 1/3.
    assert_eq!(lz(gen, edge, &[(0.5 + 1.0 / 3.0, 0.5)]), [85.0 / 256.0]);
    // Normalized: (0.3125, 0.25) of 4x2 is texel-space (1.25, 0.5).
    let norm = |linear| ssharp(2, false, linear, 0, 0, 0);
    assert_eq!(lz(gen, norm(false), &[(0.3125, 0.25)]), [1.0]);
    assert_eq!(lz(gen, norm(true), &[(0.3125, 0.25)]), [0.75]);
    // Bilinear against a transparent black border at the left edge.
    assert_eq!(
        lz(gen, ssharp(6, true, true, 0, 0, 0), &[(0.25, 0.5)]),
        [0.0]
    );
    assert_eq!(
        lz(gen, ssharp(6, true, true, 0, 0, 0), &[(3.75, 0.5)]),
        [0.75 * 3.0]
    );
}

/// `_o` offsets, gather4's footprint order, `_c` comparisons.
#[test]
fn sample_offsets_gather_compare() {
    let (t, mem) = ramp(false);
    for gen in ALL_GENS {
        let edge = ssharp(2, true, false, 0, 0, 0);
        // Offsets +1 in X, -1 in Y (6-bit fields at bits 0 and 8).
        let off = 1 | (0x3f << 8);
        let got = sample(
            gen,
            "image_sample_lz_o v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
            &t,
            &mem,
            edge,
            &[vec![off, 0.5f32.to_bits(), 1.5f32.to_bits()]],
        );
        assert_eq!(f32::from_bits(got[0][0]), 1.0, "{gen}");
        // Gather at the corner of texels (1,0), (2,0), (1,1), (2,1).
        let got = sample(
            gen,
            "image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1",
            &t,
            &mem,
            edge,
            &[xy(2.0, 1.0)],
        );
        assert_eq!(got[0].map(f32::from_bits), [11.0, 12.0, 2.0, 1.0], "{gen}");
        // LESSEQUAL (3): reference 1.5 against texels 1 and 2.
        let got = sample(
            gen,
            "image_sample_c_lz v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
            &t,
            &mem,
            ssharp(2, true, false, 0, 0, 3),
            &[
                vec![1.5f32.to_bits(), 1.5f32.to_bits(), 0.5f32.to_bits()],
                vec![1.5f32.to_bits(), 2.5f32.to_bits(), 0.5f32.to_bits()],
            ],
        );
        assert_eq!(
            [got[0][0], got[1][0]].map(f32::from_bits),
            [0.0, 1.0],
            "{gen}"
        );
    }
}

/// Levels of detail: `_l` with point and linear mip filters, `_d`, the
/// implicit quad derivatives of `image_sample` and `image_get_lod`.
#[test]
fn sample_levels_of_detail() {
    let (t, mem) = ramp(true);
    let gen = Gen::Gcn14;
    let l = |mip: u32, lod: f32| {
        let lanes = [vec![0.8f32.to_bits(), 0.25f32.to_bits(), lod.to_bits()]];
        let got = sample(
            gen,
            "image_sample_l v0, v[4:6], s[8:15], s[16:19] dmask:0x1",
            &t,
            &mem,
            ssharp(2, false, false, mip, 0, 0),
            &lanes,
        );
        f32::from_bits(got[0][0])
    };
    // Level 0 texel (3, 0) = 3; level 1 texel (1, 0) = 101.
    assert_eq!(
        [l(1, 0.0), l(1, 0.4), l(1, 0.6), l(1, 1.0), l(1, 5.0)],
        [3.0, 3.0, 101.0, 101.0, 101.0]
    );
    // Linear mip filter: 3 * 0.75 + 101 * 0.25; no mip filter: level 0.
    assert_eq!(l(2, 0.25), 27.5);
    assert_eq!(l(0, 1.0), 3.0);
    // Explicit derivatives: d/dh of X = 0.5 (2 texels of level 0): LOD 1.
    let got = sample(
        gen,
        "image_sample_d v0, v[4:9], s[8:15], s[16:19] dmask:0x1",
        &t,
        &mem,
        ssharp(2, false, false, 1, 0, 0),
        &[[0.5f32, 0.0, 0.0, 0.0, 0.8, 0.25]
            .map(f32::to_bits)
            .to_vec()],
    );
    assert_eq!(f32::from_bits(got[0][0]), 101.0);
    // Quad derivatives: X steps 0.5 (2 texels), Y 0.25 (half a texel).
    let quad = [xy(0.1, 0.25), xy(0.6, 0.25), xy(0.1, 0.5), xy(0.6, 0.5)];
    let got = sample(
        gen,
        "image_get_lod v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x3",
        &t,
        &mem,
        ssharp(2, false, false, 1, 0, 0),
        &quad,
    );
    for v in &got {
        assert_eq!([v[0], v[1]].map(f32::from_bits), [1.0, 1.0]);
    }
    let got = sample(
        gen,
        "image_sample v0, v[4:5], s[8:15], s[16:19] dmask:0x1",
        &t,
        &mem,
        ssharp(2, false, false, 1, 0, 0),
        &quad,
    );
    assert_eq!(
        got.iter().map(|v| f32::from_bits(v[0])).collect::<Vec<_>>(),
        [100.0, 101.0, 100.0, 101.0]
    );
}

/// A16 (16-bit coordinates) and D16 (16-bit results) on GCN 1.4.
#[test]
fn sample_a16_d16() {
    let (t, mem) = ramp(false);
    let gen = Gen::Gcn14;
    let h = |x: f32| u32::from(f16_bits(x));
    let got = sample(
        gen,
        "image_sample_lz v0, v4, s[8:15], s[16:19] dmask:0x1 a16",
        &t,
        &mem,
        ssharp(2, true, true, 0, 0, 0),
        &[vec![h(1.75) | h(1.0) << 16]],
    );
    assert_eq!(f32::from_bits(got[0][0]), 6.25);
    let got = sample(
        gen,
        "image_sample_lz v0, v[4:5], s[8:15], s[16:19] dmask:0x3 d16",
        &t,
        &mem,
        ssharp(2, true, false, 0, 0, 0),
        &[xy(2.5, 1.5)],
    );
    // R = 12.0 as f16 (0x4a00), G = 0 (R32 has no G).
    assert_eq!(got[0][0], 0x4a00);
}
