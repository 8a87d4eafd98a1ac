//! OMOD (×2, ×4, ×0.5) and CLAMP in every MODE.FP_ROUND mode.
//!
//! OMOD multiplies the instruction's rounded result ("Multiply destination
//! floating point value by 2.0, 4.0 or 0.5", CLRX GcnInstrsVop3.md; clamping
//! after it). risa scales that value exactly and rounds only when the scaled
//! value leaves the normal range, by the wave's rounding mode, with overflow
//! as the mode's table in GcnState.md gives it (toward zero: ±MAX). Output
//! denormals are flushed after OMOD when MODE says so.
//!
//! Expected values are worked out by hand from IEEE 754 (each case says how);
//! the programs are assembled by risa and checked against llvm-mc 14's
//! encodings (`llvm-mc -arch=amdgcn -mcpu=tahiti|fiji|gfx900 -show-encoding`).

mod common;
use common::asm;
use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

/// MODE with every denormal kept, IEEE and DX10_CLAMP, and rounding mode `rm`
/// (0 nearest-even, 1 +inf, 2 -inf, 3 zero) for f32 (bits 1:0) and f64/f16 (3:2).
fn mode(rm: u32) -> u32 {
    0x3f0 | rm | rm << 2
}

/// Runs `line` with v1, v2 (or v[2:3]) from `src`; returns v0 | v1 << 32.
fn run(gen: Gen, line: &str, llvm: &[u8], mode: u32, src: [u64; 2]) -> u64 {
    let mut code = asm(gen, line);
    assert_eq!(code, llvm, "{gen}: `{line}` encodes as llvm-mc does");
    code.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    let mut lds = vec![];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.mode = mode;
    w.set_s64(EXEC, 1);
    if line.contains("v[2:3]") {
        w.v[2][0] = src[0] as u32;
        w.v[3][0] = (src[0] >> 32) as u32;
    } else {
        w.v[1][0] = src[0] as u32;
        w.v[2][0] = src[1] as u32;
    }
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen} `{line}`: {f}"));
    let hi = if line.contains("v[0:1]") {
        w.v[1][0]
    } else {
        0
    };
    u64::from(w.v[0][0]) | u64::from(hi) << 32
}

/// An instruction line and its llvm-mc encoding per generation.
struct Line {
    text: &'static str,
    enc: &'static [(Gen, [u8; 8])],
}

const MUL_F32_X2: Line = Line {
    text: "v_mul_f32_e64 v0, v1, v2 mul:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0x10, 0xd2, 0x01, 0x05, 0x02, 0x08]),
        (Gen::Gcn14, [0x00, 0x00, 0x05, 0xd1, 0x01, 0x05, 0x02, 0x08]),
    ],
};
const MUL_F32_HALF: Line = Line {
    text: "v_mul_f32_e64 v0, v1, 1.0 div:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0x10, 0xd2, 0x01, 0xe5, 0x01, 0x18]),
        (Gen::Gcn14, [0x00, 0x00, 0x05, 0xd1, 0x01, 0xe5, 0x01, 0x18]),
    ],
};
const MUL_F32_ONE_X2: Line = Line {
    text: "v_mul_f32_e64 v0, v1, 1.0 mul:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0x10, 0xd2, 0x01, 0xe5, 0x01, 0x08]),
        (Gen::Gcn14, [0x00, 0x00, 0x05, 0xd1, 0x01, 0xe5, 0x01, 0x08]),
    ],
};
const MUL_F64_HALF: Line = Line {
    text: "v_mul_f64 v[0:1], v[2:3], 1.0 div:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0xca, 0xd2, 0x02, 0xe5, 0x01, 0x18]),
        (Gen::Gcn14, [0x00, 0x00, 0x81, 0xd2, 0x02, 0xe5, 0x01, 0x18]),
    ],
};
const MUL_F64_X2: Line = Line {
    text: "v_mul_f64 v[0:1], v[2:3], 1.0 mul:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0xca, 0xd2, 0x02, 0xe5, 0x01, 0x08]),
        (Gen::Gcn14, [0x00, 0x00, 0x81, 0xd2, 0x02, 0xe5, 0x01, 0x08]),
    ],
};
const MUL_F16_HALF: Line = Line {
    text: "v_mul_f16_e64 v0, v1, 1.0 div:2",
    enc: &[
        (Gen::Gcn12, [0x00, 0x00, 0x22, 0xd1, 0x01, 0xe5, 0x01, 0x18]),
        (Gen::Gcn14, [0x00, 0x00, 0x22, 0xd1, 0x01, 0xe5, 0x01, 0x18]),
    ],
};
const MUL_F16_X2: Line = Line {
    text: "v_mul_f16_e64 v0, v1, 1.0 mul:2",
    enc: &[
        (Gen::Gcn12, [0x00, 0x00, 0x22, 0xd1, 0x01, 0xe5, 0x01, 0x08]),
        (Gen::Gcn14, [0x00, 0x00, 0x22, 0xd1, 0x01, 0xe5, 0x01, 0x08]),
    ],
};
const ADD_F16_X4: Line = Line {
    text: "v_add_f16_e64 v0, v1, v2 mul:4",
    enc: &[
        (Gen::Gcn12, [0x00, 0x00, 0x1f, 0xd1, 0x01, 0x05, 0x02, 0x10]),
        (Gen::Gcn14, [0x00, 0x00, 0x1f, 0xd1, 0x01, 0x05, 0x02, 0x10]),
    ],
};
const ADD_F16_CLAMP: Line = Line {
    text: "v_add_f16_e64 v0, v1, v2 clamp",
    enc: &[
        (Gen::Gcn12, [0x00, 0x80, 0x1f, 0xd1, 0x01, 0x05, 0x02, 0x00]),
        (Gen::Gcn14, [0x00, 0x80, 0x1f, 0xd1, 0x01, 0x05, 0x02, 0x00]),
    ],
};

const CVT_F16_CLAMP: Line = Line {
    text: "v_cvt_f16_f32_e64 v0, v1 clamp",
    enc: &[
        (Gen::Gcn10, [0x00, 0x08, 0x14, 0xd3, 0x01, 0x01, 0x00, 0x00]),
        (Gen::Gcn12, [0x00, 0x80, 0x4a, 0xd1, 0x01, 0x01, 0x00, 0x00]),
        (Gen::Gcn14, [0x00, 0x80, 0x4a, 0xd1, 0x01, 0x01, 0x00, 0x00]),
    ],
};
const CVT_F16_X2: Line = Line {
    text: "v_cvt_f16_f32_e64 v0, v1 mul:2",
    enc: &[
        (Gen::Gcn10, [0x00, 0x00, 0x14, 0xd3, 0x01, 0x01, 0x00, 0x08]),
        (Gen::Gcn12, [0x00, 0x00, 0x4a, 0xd1, 0x01, 0x01, 0x00, 0x08]),
        (Gen::Gcn14, [0x00, 0x00, 0x4a, 0xd1, 0x01, 0x01, 0x00, 0x08]),
    ],
};

/// Checks `line` on every generation it lists, in the four modes:
/// `want[rm]` for rounding mode `rm`.
fn check(line: &Line, src: [u64; 2], want: [u64; 4], why: &str) {
    for (gen, enc) in line.enc {
        for rm in 0..4 {
            let got = run(*gen, line.text, enc, mode(rm), src);
            assert_eq!(
                got, want[rm as usize],
                "{gen} `{}` {src:x?} mode {rm}: {got:#x} ({why})",
                line.text
            );
        }
    }
}

#[test]
fn omod_scales_the_rounded_result() {
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22 (0x3f800002), or
    // to 1 + 3 * 2^-23 toward +inf; ×2 is exact.
    check(
        &MUL_F32_X2,
        [0x3f80_0001, 0x3f80_0001],
        [0x4000_0002, 0x4000_0003, 0x4000_0002, 0x4000_0002],
        "rounded product times 2",
    );
    check(
        &MUL_F32_X2,
        [0xbf80_0001, 0x3f80_0001],
        [0xc000_0002, 0xc000_0002, 0xc000_0003, 0xc000_0002],
        "negative: toward -inf takes the larger magnitude",
    );
}

#[test]
fn omod_into_the_denormal_range_rounds_by_the_mode() {
    // (2^23 + 1) * 2^-149 / 2 = 0x400000.8 denormal ulps: a tie, even is 0x400000.
    check(
        &MUL_F32_HALF,
        [0x0080_0001, 0],
        [0x0040_0000, 0x0040_0001, 0x0040_0000, 0x0040_0000],
        "f32 tie below the normal range",
    );
    check(
        &MUL_F32_HALF,
        [0x8080_0001, 0],
        [0x8040_0000, 0x8040_0000, 0x8040_0001, 0x8040_0000],
        "negative f32 tie",
    );
    // (2^23 + 3) / 2 = 0x400001.8: the tie goes up to the even 0x400002.
    check(
        &MUL_F32_HALF,
        [0x0080_0003, 0],
        [0x0040_0002, 0x0040_0002, 0x0040_0001, 0x0040_0001],
        "f32 tie to the even neighbour above",
    );
    // f64: (2^52 + 1) * 2^-1074 / 2, the same tie.
    check(
        &MUL_F64_HALF,
        [0x0010_0000_0000_0001, 0],
        [
            0x0008_0000_0000_0000,
            0x0008_0000_0000_0001,
            0x0008_0000_0000_0000,
            0x0008_0000_0000_0000,
        ],
        "f64 tie below the normal range",
    );
    // f16: 0x0401 / 2 = 0x200.8, 0x0403 / 2 = 0x201.8.
    check(
        &MUL_F16_HALF,
        [0x0401, 0],
        [0x0200, 0x0201, 0x0200, 0x0200],
        "f16 tie",
    );
    check(
        &MUL_F16_HALF,
        [0x0403, 0],
        [0x0202, 0x0202, 0x0201, 0x0201],
        "f16 tie to the even neighbour above",
    );
}

#[test]
fn omod_overflow_follows_the_mode() {
    // MAX * 2: +inf when rounding to nearest or up, MAX toward -inf and zero.
    check(
        &MUL_F32_ONE_X2,
        [0x7f7f_ffff, 0],
        [0x7f80_0000, 0x7f80_0000, 0x7f7f_ffff, 0x7f7f_ffff],
        "f32 MAX * 2",
    );
    check(
        &MUL_F32_ONE_X2,
        [0xff7f_ffff, 0],
        [0xff80_0000, 0xff7f_ffff, 0xff80_0000, 0xff7f_ffff],
        "f32 -MAX * 2",
    );
    check(
        &MUL_F64_X2,
        [0x7fef_ffff_ffff_ffff, 0],
        [
            0x7ff0_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x7fef_ffff_ffff_ffff,
        ],
        "f64 MAX * 2",
    );
    check(
        &MUL_F16_X2,
        [0x7bff, 0],
        [0x7c00, 0x7c00, 0x7bff, 0x7bff],
        "f16 MAX (65504) * 2",
    );
}

#[test]
fn omod_and_clamp_apply_to_half_results() {
    // (1 + 5) * 4 = 24 (0x4e00), exact in every mode.
    check(&ADD_F16_X4, [0x3c00, 0x4500], [0x4e00; 4], "f16 OMOD ×4");
    // 1 + 5 = 6 clamps to 1.0; -1 + 0.5 = -0.5 clamps to 0.
    check(
        &ADD_F16_CLAMP,
        [0x3c00, 0x4500],
        [0x3c00; 4],
        "f16 clamp above 1",
    );
    check(
        &ADD_F16_CLAMP,
        [0xbc00, 0x3800],
        [0; 4],
        "f16 clamp below 0",
    );
    // v_cvt_f16_f32: 2.0 clamps to 1.0, -3.0 to 0.
    check(
        &CVT_F16_CLAMP,
        [0x4000_0000, 0],
        [0x3c00; 4],
        "cvt clamp above 1",
    );
    check(
        &CVT_F16_CLAMP,
        [0xc040_0000, 0],
        [0; 4],
        "cvt clamp below 0",
    );
    // 1 + 2^-12 is a quarter of an f16 ulp above 1.0: 1.0 (0x3c00), or
    // 0x3c01 toward +inf; ×2 is exact.
    check(
        &CVT_F16_X2,
        [0x3f80_0800, 0],
        [0x4000, 0x4001, 0x4000, 0x4000],
        "cvt rounded by the mode, then ×2",
    );
}

#[test]
fn omod_result_is_flushed_when_output_denormals_are() {
    // MODE.FP_DENORM[5:4] = 0 (f32 denormals flushed, as clang asks on gfx6-8):
    // the ×0.5 of the smallest normals lands below the normal range and is flushed.
    for (gen, enc) in MUL_F32_HALF.enc {
        for rm in 0..4 {
            for (src, want) in [(0x0080_0001u64, 0u64), (0x8080_0001, 0x8000_0000)] {
                let m = 0x3c0 | rm | rm << 2;
                let got = run(*gen, MUL_F32_HALF.text, enc, m, [src, 0]);
                assert_eq!(got, want, "{gen} mode {rm}: {src:#x} flushed to {got:#x}");
            }
        }
    }
}

/// CLAMP on 16-bit integer add/sub saturates (CLRX GcnInstrsVop3.md: CLAMP
/// affects "addition/subtraction instructions"; LLVM uses it for saturating
/// i16 adds): unsigned to [0, 0xffff], signed to [-32768, 32767].
#[test]
fn clamp_saturates_16_bit_integer_add_and_sub() {
    const G12_14: [Gen; 2] = [Gen::Gcn12, Gen::Gcn14];
    // (line, encoding, gens, v1, v2, result)
    type Case<'a> = (&'a str, [u8; 8], &'a [Gen], u64, u64, u64);
    let cases: [Case; 8] = [
        (
            "v_add_u16_e64 v0, v1, v2 clamp",
            [0x00, 0x80, 0x26, 0xd1, 0x01, 0x05, 0x02, 0x00],
            &G12_14,
            0xfff0,
            0x20,
            0xffff,
        ),
        (
            "v_add_u16_e64 v0, v1, v2",
            [0x00, 0x00, 0x26, 0xd1, 0x01, 0x05, 0x02, 0x00],
            &G12_14,
            0xfff0,
            0x20,
            0x0010,
        ),
        (
            "v_sub_u16_e64 v0, v1, v2 clamp",
            [0x00, 0x80, 0x27, 0xd1, 0x01, 0x05, 0x02, 0x00],
            &G12_14,
            0x10,
            0x20,
            0,
        ),
        (
            "v_sub_u16_e64 v0, v1, v2 clamp",
            [0x00, 0x80, 0x27, 0xd1, 0x01, 0x05, 0x02, 0x00],
            &G12_14,
            0x30,
            0x20,
            0x10,
        ),
        (
            "v_subrev_u16_e64 v0, v1, v2 clamp",
            [0x00, 0x80, 0x28, 0xd1, 0x01, 0x05, 0x02, 0x00],
            &G12_14,
            0xfff0,
            0x20,
            0,
        ),
        (
            "v_add_i16 v0, v1, v2 clamp",
            [0x00, 0x80, 0x9e, 0xd2, 0x01, 0x05, 0x02, 0x00],
            &[Gen::Gcn14],
            0x7ff0,
            0x20,
            0x7fff,
        ),
        (
            "v_sub_i16 v0, v1, v2 clamp",
            [0x00, 0x80, 0x9f, 0xd2, 0x01, 0x05, 0x02, 0x00],
            &[Gen::Gcn14],
            0x8000,
            1,
            0x8000,
        ),
        (
            "v_sub_i16 v0, v1, v2",
            [0x00, 0x00, 0x9f, 0xd2, 0x01, 0x05, 0x02, 0x00],
            &[Gen::Gcn14],
            0x8000,
            1,
            0x7fff,
        ),
    ];
    for (line, enc, gens, a, b, want) in cases {
        for &gen in gens {
            let got = run(gen, line, &enc, mode(0), [a, b]);
            assert_eq!(got, want, "{gen} `{line}` {a:#x}, {b:#x}: {got:#x}");
        }
    }
}
