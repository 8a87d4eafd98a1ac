//! SET_MODE (guide 4.13.1, 8.2) beyond the single-precision arithmetic ops:
//! the double-precision mode (SRC1_SEL bits 3:0) on the two-slot and
//! one-slot doubles and the conversions, kept single-precision denormals on
//! every other float op, and the exception flags (4.13.2) of doubles,
//! reductions and `_PREV` chains. Programs are written with risa's Cayman
//! assembler; `SET_MODE ____, R<s>.w, R<d>.w` writes single mode s and
//! double mode d (selects 0-15 are GPR numbers to the assembler). Mode bits:
//! 1:0 round (0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero),
//! 2 keep denormal inputs, 3 keep denormal results. Expected values are the
//! exact results rounded by hand (the neighbours named in each case) or the
//! guide's definitions.

mod common;
use common::*;
use risa_cayman_emu::alu::*;
use risa_cayman_emu::wave::Wave;
use risa_cayman_emu::*;

fn asm(src: &str) -> Kernel {
    let out = risa_cayman_asm::assemble("t.s", src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    Kernel::from_code("t", &out.text())
}

fn run(src: &str, setup: impl Fn(&mut Wave)) -> Wave {
    let k = asm(src);
    let (pool, gds) = (Pool::new(256), Pool::new(64));
    let cb = [vec![0; 64]];
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, &mut [0; 64]).unwrap_or_else(|e| panic!("{e}"));
    w
}

fn get(w: &Wave, r: usize, c: usize) -> u32 {
    w.gpr(r, c)[0]
}
/// A double in GPR r: high dword in .x (.z), low in .y (.w) — the operand
/// layout of the two-slot ops.
fn setd(w: &mut Wave, r: usize, c: usize, v: f64) {
    w.gpr_mut(r, c).fill((v.to_bits() >> 32) as u32);
    w.gpr_mut(r, c + 1).fill(v.to_bits() as u32);
}
/// A two-slot result: low dword in .x (.z), high in .y (.w).
fn getd(w: &Wave, r: usize, c: usize) -> u64 {
    (u64::from(get(w, r, c + 1)) << 32) | u64::from(get(w, r, c))
}
fn setf(w: &mut Wave, r: usize, c: usize, bits: u32) {
    w.gpr_mut(r, c).fill(bits);
}

const P52: f64 = 2.220_446_049_250_313e-16; // 2^-52

/// ADD_64 and MUL_64 in each double mode: 1 + 2^-53 lies halfway between 1
/// and 1 + 2^-52; (1 + 2^-52)² = 1 + 2^-51 + 2^-104 lies just above
/// 1 + 2^-51. FMA_64 rounds once: (1 + 2^-52)² - 1 = 2^-51 + 2^-104 is
/// halfway between 2^-51 and 2^-51 + 2^-103 (unfused toward +inf would
/// give 3·2^-52).
#[test]
fn double_mode_rounds_add_mul_fma() {
    assert_eq!(P52, 2f64.powi(-52));
    let up = |x: f64| f64::from_bits(x.to_bits() + 1);
    for (d, sum, neg, prod, fma) in [
        (0, 1.0, -1.0, 1.0 + 2.0 * P52, 2.0 * P52),
        (1, up(1.0), -1.0, up(1.0 + 2.0 * P52), up(2.0 * P52)),
        (2, 1.0, -up(1.0), 1.0 + 2.0 * P52, 2.0 * P52),
        (3, 1.0, -1.0, 1.0 + 2.0 * P52, 2.0 * P52),
    ] {
        let src = format!(
            "
    ALU:
        0 w: SET_MODE ____, R0.w, R{d}.w
        1 x: ADD_64 R5.x, R0.x, R1.x
          y: ADD_64 R5.y, R0.y, R1.y
          z: ADD_64 R5.z, -R0.z, -R1.z
          w: ADD_64 R5.w, R0.w, R1.w
        2 x: MUL_64 R6.x, R2.x, R2.x
          y: MUL_64 R6.y, R2.y, R2.y
          z: MUL_64 R6.z, R2.z, R2.z
          w: MUL_64 R6.w, R2.w, R2.w
        3 x: FMA_64 R7.x, R2.x, R2.x, R3.x
          y: FMA_64 R7.y, R2.y, R2.y, R3.y
    END:
"
        );
        let w = run(&src, |w| {
            for c in [0, 2] {
                setd(w, 0, c, 1.0);
                setd(w, 1, c, P52 / 2.0);
                setd(w, 2, c, 1.0 + P52);
                setd(w, 3, c, -1.0);
            }
        });
        assert_eq!(f64::from_bits(getd(&w, 5, 0)), sum, "ADD_64 mode {d}");
        assert_eq!(
            f64::from_bits(getd(&w, 5, 2)),
            neg,
            "ADD_64 negated, mode {d}"
        );
        assert_eq!(f64::from_bits(getd(&w, 6, 0)), prod, "MUL_64 mode {d}");
        assert_eq!(f64::from_bits(getd(&w, 6, 2)), prod, "MUL_64 z/w, mode {d}");
        assert_eq!(f64::from_bits(getd(&w, 7, 0)), fma, "FMA_64 mode {d}");
    }
}

/// The double denormal controls: 2^-1074 + 2^-1074 = 2^-1073 (flushed in,
/// kept in and flushed out, kept); LDEXP_64 of 1.5 by -1074 (1.5·2^-1074:
/// halfway, nearest even 2^-1073, toward zero 2^-1074); MIN_64(-2^-1074,
/// +0) (flushed in or out: -0 by the zeros' rule or the flush); SETGT_64(2^-1074, 0); SQRT_64
/// of 2^-1074 = 2^-537 (high dword 0x1E600000).
#[test]
fn double_denormal_controls() {
    let tiny = f64::from_bits(1);
    for (d, sum, ldexp, min, gt, sqrt_hi) in [
        (0u32, 0u64, 0u64, 0x8000_0000_0000_0000u64, 0u64, 0u32),
        (4, 0, 0, 0x8000_0000_0000_0000, u64::MAX, 0x1E60_0000),
        (8, 0, 2, 0x8000_0000_0000_0000, 0, 0),
        (12, 2, 2, 0x8000_0000_0000_0001, u64::MAX, 0x1E60_0000),
        (11, 0, 1, 0x8000_0000_0000_0000, 0, 0),
        (15, 2, 1, 0x8000_0000_0000_0001, u64::MAX, 0x1E60_0000),
    ] {
        let src = format!(
            "
    ALU:
        0 w: SET_MODE ____, R0.w, R{d}.w
        1 x: ADD_64 R5.x, R0.x, R0.x
          y: ADD_64 R5.y, R0.y, R0.y
          z: LDEXP_64 R5.z, R2.z, R1.z
          w: LDEXP_64 R5.w, R2.z, R1.w
        2 x: MIN_64 R6.x, R3.x, R4.x
          y: MIN_64 R6.y, R3.y, R4.y
          z: SETGT_64 R6.z, R0.z, R4.z
          w: SETGT_64 R6.w, R0.w, R4.w
        3 x: SQRT_64 R7.x, R0.x, R0.y
    END:
"
        );
        let w = run(&src, |w| {
            for c in [0, 2] {
                setd(w, 0, c, tiny);
                setd(w, 1, c, 1.5);
                setf(w, 2, c, -1074i32 as u32);
                setd(w, 3, c, -tiny);
                setd(w, 4, c, 0.0);
            }
        });
        assert_eq!(getd(&w, 5, 0), sum, "ADD_64 mode {d}");
        assert_eq!(getd(&w, 5, 2), ldexp, "LDEXP_64 mode {d}");
        assert_eq!(getd(&w, 6, 0), min, "MIN_64 mode {d}");
        assert_eq!(getd(&w, 6, 2), gt, "SETGT_64 mode {d}");
        assert_eq!(get(&w, 7, 0), sqrt_hi, "SQRT_64 mode {d}");
    }
}

/// FRACT_64 of -2^-60 is 1 - 2^-60: nearest even 1.0, toward zero
/// 1 - 2^-53. FLT64_TO_FLT32 takes its input control from the double mode
/// and rounds and flushes by the single mode: 2^-140 is a float denormal
/// (0x200), 1 + 2^-40 rounds up to 1 + 2^-23 toward +inf. FLT32_TO_FLT64
/// reads a single-precision source (single input control): 2^-149.
#[test]
fn double_conversions_and_fract_by_mode() {
    for (s, d, fract, narrow, narrow_up, widen) in [
        (0u32, 0u32, 1.0f64, 0u32, 0x3f80_0000u32, 0u64),
        (0, 3, 1.0 - P52 / 2.0, 0, 0x3f80_0000, 0),
        (8, 0, 1.0, 0x200, 0x3f80_0000, 0),
        (1, 0, 1.0, 0, 0x3f80_0001, 0),
        (4, 0, 1.0, 0, 0x3f80_0000, 2f64.powi(-149).to_bits()),
    ] {
        let src = format!(
            "
    ALU:
        0 w: SET_MODE ____, R{s}.w, R{d}.w
        1 x: FRACT_64 R5.x, R0.x, R0.x
          y: FRACT_64 R5.y, R0.y, R0.y
          z: FLT64_TO_FLT32 R5.z, R1.z
          w: FLT64_TO_FLT32 R5.w, R1.w
        2 x: FLT32_TO_FLT64 R6.x, R3.x
          y: FLT32_TO_FLT64 R6.y, R3.y
          z: FLT64_TO_FLT32 R6.z, R2.z
          w: FLT64_TO_FLT32 R6.w, R2.w
    END:
"
        );
        let w = run(&src, |w| {
            setd(w, 0, 0, -(2f64.powi(-60)));
            setd(w, 1, 2, 2f64.powi(-140));
            setd(w, 2, 2, 1.0 + 2f64.powi(-40));
            setf(w, 3, 0, 1);
        });
        assert_eq!(f64::from_bits(getd(&w, 5, 0)), fract, "FRACT_64 {s} {d}");
        assert_eq!(get(&w, 5, 2), narrow, "FLT64_TO_FLT32 {s} {d}");
        assert_eq!(get(&w, 6, 2), narrow_up, "FLT64_TO_FLT32 {s} {d}");
        assert_eq!(getd(&w, 6, 0), widen, "FLT32_TO_FLT64 {s} {d}");
    }
}

/// Kept single-precision denormals (d = 2^-149, bits 1) on the ops that
/// are not plain arithmetic, against the guide's definitions with the
/// denormal as a number (kept, mode 12) or as a zero of its sign (mode 0).
#[test]
fn kept_single_denormals_reach_every_float_op() {
    const D: u32 = 1;
    const ND: u32 = 0x8000_0001;
    let one = 1.0f32.to_bits();
    // (op text, R0.xyz, expected flushed, expected kept)
    type Case = (&'static str, [u32; 3], u32, u32);
    let cases: &[Case] = &[
        ("MAX R5.x, R0.x, R0.y", [D, 0, 0], 0, D),
        // flushed: -0 < +0 does not hold, src1 (+0)
        ("MIN_DX10 R5.x, R0.x, R0.y", [ND, 0, 0], 0, ND),
        ("SETGT R5.x, R0.x, R0.y", [D, 0, 0], 0, one),
        ("SETNE_DX10 R5.x, R0.x, R0.y", [D, 0, 0], 0, u32::MAX),
        ("FLOOR R5.x, R0.x", [ND, 0, 0], 0x8000_0000, 0xbf80_0000),
        ("CEIL R5.x, R0.x", [D, 0, 0], 0, one),
        ("TRUNC R5.x, R0.x", [ND, 0, 0], 0x8000_0000, 0x8000_0000),
        // 1 - 2^-149 rounds to nearest 1.0
        ("FRACT R5.x, R0.x", [ND, 0, 0], 0, one),
        ("FLT_TO_INT_FLOOR R5.x, R0.x", [ND, 0, 0], 0, u32::MAX),
        // 1 / 2^127 = 2^-127 (a denormal result)
        ("RECIP_IEEE R5.x, R0.x", [0x7f00_0000, 0, 0], 0, 0x0040_0000),
        // 1 / 2^-149 = 2^149 overflows; RECIP_CLAMPED gives MAX, and a
        // flushed input is 1/0
        (
            "RECIP_CLAMPED R5.x, R0.x",
            [D, 0, 0],
            0x7f7f_ffff,
            0x7f7f_ffff,
        ),
        ("RECIP_IEEE R5.x, R0.x", [D, 0, 0], 0x7f80_0000, 0x7f80_0000),
        (
            "EXP_IEEE R5.x, R0.x",
            [0xc30c_0000, 0, 0], // -140.0
            0,
            0x200,
        ),
        (
            "LOG_IEEE R5.x, R0.x",
            [0x200, 0, 0],
            0xff80_0000,
            0xc30c_0000,
        ),
        // 1/sqrt(2^-127) = 2^63.5, sqrt(2^-127) = 2^-63.5 (rounded to
        // nearest, checked below)
        (
            "RECIPSQRT_IEEE R5.x, R0.x",
            [0x0040_0000, 0, 0],
            0x7f80_0000,
            0x5f35_04f3,
        ),
        ("SQRT_IEEE R5.x, R0.x", [0x0040_0000, 0, 0], 0, 0x1fb5_04f3),
        (
            "CNDE R5.x, R0.x, R0.y, R0.z",
            [D, one, 0x4000_0000],
            one,
            0x4000_0000,
        ),
        ("MUL_IEEE R5.x, R0.x, R0.y", [D, 0x4080_0000, 0], 0, 4),
        // OMOD /2 of 2^-126 is 2^-127
        (
            "MUL_IEEE R5.x, R0.x, R0.y DIV2",
            [0x0080_0000, one, 0],
            0,
            0x0040_0000,
        ),
        ("FLT_TO_INT R5.x, R0.x", [D, 0, 0], 0, 0),
        (
            "MUL_LIT R5.x, R0.x, R0.y, R0.z",
            [D, 0x4000_0000, one],
            0,
            2,
        ),
        // 2^-24 is the smallest half denormal (1) in both modes
        ("FLT32_TO_FLT16 R5.x, R0.x", [0x3380_0000, 0, 0], 1, 1),
        ("PRED_SETGT R5.x, R0.x, R0.y", [D, 0, 0], one, 0),
        ("KILLGT R5.x, R0.x, R0.y", [D, 0, 0], 0, one),
    ];
    // the two transcendental expectations, from the exact values
    let rsq = (2f64.powf(63.5)) as f32;
    assert_eq!(rsq.to_bits(), 0x5f35_04f3);
    assert_eq!((2f64.powf(-63.5) as f32).to_bits(), 0x1fb5_04f3);
    for &(op, s, flushed, kept) in cases {
        // Cayman runs the transcendentals replicated in x, y, z
        let name = op.split(' ').next().unwrap();
        let repl = if ["RECIP", "EXP_", "LOG_", "SQRT_"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            let srcs = op.split_once(", ").unwrap().1;
            format!("\n          y: {name} ____, {srcs}\n          z: {name} ____, {srcs}")
        } else {
            String::new()
        };
        for (mode, want) in [(0, flushed), (12, kept)] {
            let src = format!(
                "
    ALU:
        0 w: SET_MODE ____, R{mode}.w, R0.w
        1 x: {op}{repl}
    END:
"
            );
            let w = run(&src, |w| {
                for (c, &v) in s.iter().enumerate() {
                    setf(w, 0, c, v);
                }
            });
            assert_eq!(get(&w, 5, 0), want, "{op} mode {mode} ({s:x?})");
        }
    }
}

/// Reductions and `_PREV` chains under kept denormals and rounding: DOT4
/// of four 2^-149 × 1 products is 2^-147 (bits 4) when kept; ADD_PREV adds
/// the next slot's 2^-149 to 2^-149; MAX4 picks the denormal over +0;
/// DOT4_IEEE of 1·1 + 2^-24·1 + 0 + 0 is halfway between 1 and 1 + 2^-23
/// (nearest even 1, toward +inf 1 + 2^-23).
#[test]
fn reductions_and_prev_chains_keep_denormals_and_round() {
    let one = 1.0f32.to_bits();
    for (mode, dot, prev, max4, dot_up) in [
        (0u32, 0u32, 0u32, 0u32, one),
        (12, 4, 2, 1, one),
        (1, 0, 0, 0, one + 1),
        (13, 4, 2, 1, one + 1),
    ] {
        let src = format!(
            "
    ALU:
        0 w: SET_MODE ____, R{mode}.w, R0.w
        1 x: DOT4 R5.x, R0.x, R1.x
          y: DOT4 ____, R0.x, R1.x
          z: DOT4 ____, R0.x, R1.x
          w: DOT4 ____, R0.x, R1.x
        2 x: ADD_PREV R8.x, R0.x
          y: MOV R6.y, R0.x
        3 x: MAX4 R10.x, R0.y
          y: MAX4 ____, R0.x
          z: MAX4 ____, R0.y
          w: MAX4 ____, R0.y
        4 x: DOT4_IEEE R11.x, R1.x, R1.x
          y: DOT4_IEEE ____, R0.z, R1.x
          z: DOT4_IEEE ____, R0.y, R1.x
          w: DOT4_IEEE ____, R0.y, R1.x
    END:
"
        );
        let w = run(&src, |w| {
            setf(w, 0, 0, 1);
            setf(w, 0, 2, 2f32.powi(-24).to_bits());
            setf(w, 1, 0, one);
        });
        assert_eq!(get(&w, 5, 0), dot, "DOT4 mode {mode}");
        assert_eq!(get(&w, 8, 0), prev, "ADD_PREV mode {mode}");
        assert_eq!(get(&w, 10, 0), max4, "MAX4 mode {mode}");
        assert_eq!(get(&w, 11, 0), dot_up, "DOT4_IEEE mode {mode}");
    }
}

/// Runs `body` (groups numbered from 1) after a SET_MODE of (single,
/// double) modes, then STORE_FLAGS; returns lane 0's flags.
fn flags_of(mode: (u32, u32), body: &str, setup: &dyn Fn(&mut Wave)) -> u32 {
    let groups = body.lines().filter(|l| l.contains(" x:")).count();
    let src = format!(
        "
    ALU:
        0 w: SET_MODE ____, R{}.w, R{}.w
{body}
        {} w: STORE_FLAGS R9.w, (0)
    END:
",
        mode.0,
        mode.1,
        groups + 1
    );
    let w = run(&src, setup);
    get(&w, 9, 3)
}

fn pair(a: f64, b: f64) -> impl Fn(&mut Wave) {
    move |w: &mut Wave| {
        setd(w, 0, 0, a);
        setd(w, 1, 0, b);
    }
}

/// Exception flags (4.13.2) of the double-precision ops.
#[test]
fn flags_of_doubles() {
    let add64 = "        1 x: ADD_64 R5.x, R0.x, R1.x\n          y: ADD_64 R5.y, R0.y, R1.y";
    let max = f64::MAX;
    assert_eq!(flags_of((0, 0), add64, &pair(1.0, 2.0)), 0);
    assert_eq!(
        flags_of((0, 0), add64, &pair(1.0, 2f64.powi(-60))),
        FLAG_INEXACT
    );
    assert_eq!(
        flags_of((0, 0), add64, &pair(max, max)),
        FLAG_OVERFLOW | FLAG_INEXACT
    );
    // toward zero: MAX + MAX is MAX, still an overflow (the exact sum is 2^1025)
    assert_eq!(
        flags_of((0, 3), add64, &pair(max, max)),
        FLAG_OVERFLOW | FLAG_INEXACT
    );
    // MAX + 2^970 = 2^1024 - 2^970: a tie that rounds to infinity to
    // nearest (overflow), and stays below 2^1024 toward zero (inexact only)
    let h = 2f64.powi(970);
    assert_eq!(
        flags_of((0, 0), add64, &pair(max, h)),
        FLAG_OVERFLOW | FLAG_INEXACT
    );
    assert_eq!(flags_of((0, 3), add64, &pair(max, h)), FLAG_INEXACT);
    assert_eq!(
        flags_of((0, 0), add64, &pair(f64::INFINITY, f64::NEG_INFINITY)),
        FLAG_INVALID
    );
    assert_eq!(flags_of((0, 0), add64, &pair(f64::NAN, 1.0)), 0);
    let tiny = f64::from_bits(1);
    assert_eq!(flags_of((0, 0), add64, &pair(tiny, 1.0)), FLAG_DENORMAL);
    // 2^-1074 + 2^-1074 kept in: an exact denormal result raises no
    // underflow when kept, and underflow when flushed
    assert_eq!(flags_of((0, 12), add64, &pair(tiny, tiny)), FLAG_DENORMAL);
    assert_eq!(
        flags_of((0, 4), add64, &pair(tiny, tiny)),
        FLAG_DENORMAL | FLAG_UNDERFLOW | FLAG_INEXACT
    );
    let mul64 = "        1 x: MUL_64 R5.x, R0.x, R1.x
          y: MUL_64 R5.y, R0.y, R1.y
          z: MUL_64 R5.z, R0.x, R1.x
          w: MUL_64 R5.w, R0.y, R1.y";
    let t600 = 2f64.powi(-600);
    assert_eq!(
        flags_of((0, 0), mul64, &pair(t600, t600)),
        FLAG_UNDERFLOW | FLAG_INEXACT
    );
    let recip = "        1 x: RECIP_64 R5.x, R0.x, R0.y
          y: RECIP_64 ____, R0.x, R0.y
          z: RECIP_64 ____, R0.x, R0.y";
    assert_eq!(flags_of((0, 0), recip, &pair(0.0, 0.0)), FLAG_DIV_ZERO);
    assert_eq!(flags_of((0, 0), recip, &pair(3.0, 0.0)), FLAG_INEXACT);
}

/// Exception flags of reductions, `_PREV` chains and float predicates.
#[test]
fn flags_of_reductions_prev_chains_and_predicates() {
    let dot4 = "        1 x: DOT4 R5.x, R0.x, R1.x
          y: DOT4 ____, R0.y, R1.y
          z: DOT4 ____, R0.z, R1.z
          w: DOT4 ____, R0.w, R1.w";
    let big = |w: &mut Wave| {
        setf(w, 0, 0, 1e30f32.to_bits());
        setf(w, 1, 0, 1e30f32.to_bits());
    };
    assert_eq!(flags_of((0, 0), dot4, &big), FLAG_OVERFLOW | FLAG_INEXACT);
    let prev = "        1 x: ADD_PREV R5.x, R0.x\n          y: MOV R5.y, R1.y";
    let inexact = |w: &mut Wave| {
        setf(w, 0, 0, 1.0f32.to_bits());
        setf(w, 1, 1, 2f32.powi(-30).to_bits());
    };
    assert_eq!(flags_of((0, 0), prev, &inexact), FLAG_INEXACT);
    let exact = |w: &mut Wave| {
        setf(w, 0, 0, 1.0f32.to_bits());
        setf(w, 1, 1, 2f32.to_bits());
    };
    assert_eq!(flags_of((0, 0), prev, &exact), 0);
    // the float predicate ops read floats: a denormal raises denormal
    let pred = "        1 x: PRED_SETGT R5.x, R0.x, R1.x";
    assert_eq!(flags_of((0, 0), pred, &|w| setf(w, 0, 0, 1)), FLAG_DENORMAL);
}
