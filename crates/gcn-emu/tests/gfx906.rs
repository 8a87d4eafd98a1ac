//! gfx906 (GCN 1.4 + `dl-insts`, `dot1/2/7-insts`, `fma-mix-insts`):
//! v_fmac_f32, v_xnor_b32, the fused v_fma_mix*, every v_dot* with and
//! without CLAMP. Encodings are llvm-mc's (`-mcpu=gfx906 -show-encoding`);
//! expected values follow AMD's Vega 7nm descriptions as LLVM documents them
//! (AMDGPUAsmGFX906.rst): v_fmac_f32 D = A*B + D fused; v_fma_mix* fused,
//! one rounding; v_dot2_f32_f16 D = A.lo*B.lo + A.hi*B.hi + C; the integer
//! dot products sum signed or unsigned 16/8/4-bit lanes plus C, CLAMP
//! saturating the 32-bit result.

use risa_gcn::{Gen, Processor, Target};
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

fn gfx906() -> Target {
    Processor::parse("gfx906").unwrap().target()
}

/// Runs `bytes` (one instruction) with v1..v3 = `src` and v0 = `d0` in every
/// lane on `t`; returns v0 of lane 0.
fn run_on(t: Target, bytes: &[u8], src: [u32; 3], d0: u32, mode: u32) -> Result<u32, String> {
    let mut code = bytes.to_vec();
    code.extend_from_slice(&0xbf81_0000u32.to_le_bytes());
    let prog = Program::new(t, &code, 0);
    let mem = SimpleMemory::new();
    let mut lds = vec![];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.set_s64(EXEC, u64::MAX);
    w.mode = mode;
    w.v[0] = [d0; 64];
    for (k, &x) in src.iter().enumerate() {
        w.v[k + 1] = [x; 64];
    }
    exec::run_wave(&mut w, &mut ctx).map_err(|f| format!("{f:?}"))?;
    Ok(w.v[0][0])
}

/// Default MODE of an OpenCL kernel: f32 denormals flushed, f64/f16 kept.
const MODE: u32 = 0xc0;

fn run(bytes: &[u8], src: [u32; 3], d0: u32) -> u32 {
    run_on(gfx906(), bytes, src, d0, MODE).unwrap()
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn h2(lo: f32, hi: f32) -> u32 {
    let c = |x: f32| u32::from(risa_gcn_emu::float::f64_to_f16(f64::from(x)));
    c(lo) | c(hi) << 16
}

#[test]
fn fmac_is_fused_and_accumulates_into_vdst() {
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    // a*a = 1 + 2^-11 + 2^-24: fused, the 2^-24 survives; unfused it would round away.
    let e32 = [0x01, 0x05, 0x00, 0x76];
    assert_eq!(run(&e32, [f(a), f(a), 0], f(c)), f(2f32.powi(-24)));
    // VOP3 with CLAMP.
    let e64 = [0x00, 0x80, 0x3b, 0xd1, 0x01, 0x05, 0x02, 0x00];
    assert_eq!(run(&e64, [f(3.0), f(2.0), 0], f(-1.0)), f(1.0));
    assert_eq!(run(&e64, [f(0.25), f(2.0), 0], f(0.125)), f(0.625));
    // DPP: quad_perm:[1,0,3,2] reads v1 from the neighbour lane (all lanes equal here).
    let dpp = [0xfa, 0x04, 0x00, 0x76, 0x01, 0xb1, 0x00, 0xff];
    assert_eq!(run(&dpp, [f(1.5), f(2.0), 0], f(1.0)), f(4.0));
    // Not on gfx900: the word does not decode to v_fmac_f32 there.
    assert!(run_on(Gen::Gcn14.into(), &e32, [f(a), f(a), 0], f(c), MODE).is_err());
}

#[test]
fn xnor() {
    let e32 = [0x01, 0x05, 0x00, 0x7a];
    let e64 = [0x00, 0x00, 0x3d, 0xd1, 0x01, 0x05, 0x02, 0x00];
    for bytes in [&e32[..], &e64[..]] {
        assert_eq!(run(bytes, [0xf0f0_1234, 0x0ff0_1234, 0], 7), 0x00ff_ffff);
    }
}

#[test]
fn fma_mix_rounds_once() {
    let mix_f32 = [0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x04];
    let mixlo = [0x00, 0x00, 0xa1, 0xd3, 0x01, 0x05, 0x0e, 0x04];
    // f32 sources: a*a + c with a = 1 + 2^-12, c = -(1 + 2^-11) is 2^-24 only if fused.
    let a = 1.0 + 2f32.powi(-12);
    let c = -(1.0 + 2f32.powi(-11));
    assert_eq!(run(&mix_f32, [f(a), f(a), f(c)], 0), f(2f32.powi(-24)));
    // (1 + 2^-15)^2 + (2^-11 - 2^-14) = 1 + 2^-11 + 2^-30: just above the f16
    // tie between 1.0 and 1 + 2^-10. One rounding gives 1 + 2^-10 (0x3c01);
    // rounding to f32 first would land on the tie and give 1.0 (0x3c00).
    let a = 1.0 + 2f32.powi(-15);
    let c = 2f32.powi(-11) - 2f32.powi(-14);
    assert_eq!(run(&mixlo, [f(a), f(a), f(c)], 0xabcd_0000), 0xabcd_3c01);
    // The same on v_mad_mixlo_f16 (gfx900) rounds twice.
    let madlo = [0x00, 0x00, 0xa1, 0xd3, 0x01, 0x05, 0x0e, 0x04];
    assert_eq!(
        run_on(
            Gen::Gcn14.into(),
            &madlo,
            [f(a), f(a), f(c)],
            0xabcd_0000,
            MODE
        )
        .unwrap(),
        0xabcd_3c00
    );
    // mixhi with f16 sources (op_sel_hi:[1,1,1]): 1.5 * 2 + 0.25 into the high half.
    let mixhi = [0x00, 0x40, 0xa2, 0xd3, 0x01, 0x05, 0x0e, 0x1c];
    let r = run(
        &mixhi,
        [h2(1.5, 0.0), h2(2.0, 0.0), h2(0.25, 0.0)],
        0x1234_5678,
    );
    assert_eq!(r, h2(0.0, 3.25) & 0xffff_0000 | 0x5678);
}

#[test]
fn dot2_f32_f16() {
    let plain = [0x00, 0x40, 0xa3, 0xd3, 0x01, 0x05, 0x0e, 0x1c];
    let clamp = [0x00, 0xc0, 0xa3, 0xd3, 0x01, 0x05, 0x0e, 0x1c];
    let neg_lo_a_c = [0x00, 0x40, 0xa3, 0xd3, 0x01, 0x05, 0x0e, 0xbc];
    let neg_hi_b = [0x00, 0x42, 0xa3, 0xd3, 0x01, 0x05, 0x0e, 0x1c];
    // op_sel:[1,0,0] op_sel_hi:[0,1,1]: low product A.hi*B.lo, high product A.lo*B.hi.
    let swapped = [0x00, 0x48, 0xa3, 0xd3, 0x01, 0x05, 0x0e, 0x14];
    let (a, b, c) = (h2(2.0, 3.0), h2(4.0, 5.0), f(1.0));
    assert_eq!(run(&plain, [a, b, c], 0), f(24.0));
    assert_eq!(run(&clamp, [a, b, c], 0), f(1.0));
    assert_eq!(run(&clamp, [a, b, f(-100.0)], 0), f(0.0));
    assert_eq!(run(&neg_lo_a_c, [a, b, c], 0), f(-8.0 + 15.0 - 1.0));
    assert_eq!(run(&neg_hi_b, [a, b, c], 0), f(8.0 - 15.0 + 1.0));
    assert_eq!(run(&swapped, [a, b, c], 0), f(12.0 + 10.0 + 1.0));
    // One rounding: 2^-24 products survive next to 1.0 only if summed exactly first.
    let tiny = h2(2f32.powi(-12), 2f32.powi(-12));
    let r = run(&plain, [tiny, tiny, f(1.0)], 0);
    // 1 + 2^-23 exactly (2^-24 + 2^-24): representable, so exact.
    assert_eq!(r, f(1.0 + 2f32.powi(-23)));
}

/// The reference integer dot product: `n` lanes of `bits` bits.
fn dot_ref(a: u32, b: u32, c: u32, bits: u32, signed: bool, clamp: bool) -> u32 {
    let mask = (1u32 << bits) - 1;
    let lane = |v: u32, k: u32| -> i64 {
        let x = (v >> (bits * k)) & mask;
        if signed && x >> (bits - 1) != 0 {
            i64::from(x) - (1i64 << bits)
        } else {
            i64::from(x)
        }
    };
    let c = if signed {
        i64::from(c as i32)
    } else {
        i64::from(c)
    };
    let s = (0..32 / bits).fold(c, |t, k| t + lane(a, k) * lane(b, k));
    match (clamp, signed) {
        (false, _) => s as u32,
        (true, true) => s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
        (true, false) => s.clamp(0, i64::from(u32::MAX)) as u32,
    }
}

#[test]
fn integer_dot_products_with_and_without_clamp() {
    let rows: [(&str, u8, u32, bool); 6] = [
        ("v_dot2_i32_i16", 0xa6, 16, true),
        ("v_dot2_u32_u16", 0xa7, 16, false),
        ("v_dot4_i32_i8", 0xa8, 8, true),
        ("v_dot4_u32_u8", 0xa9, 8, false),
        ("v_dot8_i32_i4", 0xaa, 4, true),
        ("v_dot8_u32_u4", 0xab, 4, false),
    ];
    let mut rng = risa_gcn::random::Rng::from_state(0x1234_5678_9abc_def1);
    let mut next = || rng.next_u64() as u32;
    for (name, opc, bits, signed) in rows {
        for clamp in [false, true] {
            let bytes = [
                0x00,
                if clamp { 0xc0 } else { 0x40 },
                opc,
                0xd3,
                0x01,
                0x05,
                0x0e,
                0x1c,
            ];
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
            for i in 0..200 {
                let pick = |k: usize, r: u32| {
                    if i < 81 {
                        edges[(i / [1, 9][k]) % 9]
                    } else {
                        r
                    }
                };
                let (a, b) = (pick(0, next()), pick(1, next()));
                let c = if i % 3 == 0 { edges[i % 9] } else { next() };
                let got = run(&bytes, [a, b, c], 0);
                let want = dot_ref(a, b, c, bits, signed, clamp);
                assert_eq!(
                    got, want,
                    "{name} clamp={clamp}: a={a:#x} b={b:#x} c={c:#x}"
                );
            }
        }
    }
}
