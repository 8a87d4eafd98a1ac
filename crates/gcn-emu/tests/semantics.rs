//! Per-instruction semantics at edge values (NaN, ±0, ±inf, denormals,
//! overflow, shift counts ≥ width). Every expected value comes from the ISA
//! documents: the instruction's pseudo-code in the CLRX GCN documentation
//! (`reference/clrx-doc/GcnInstrs*.md`, cited by file and section), the MODE
//! register description (`GcnState.md`), or IEEE 754 where the pseudo-code is
//! plain arithmetic ("VDST = SRC0 + SRC1").
//!
//! Each case is encoded with the instruction tables (VOP3 / SOP forms), run
//! as a one-instruction program on every generation that has the instruction,
//! and the destination of lane 0 compared.

use risa_gcn::layout::{set, Enc, Field};
use risa_gcn::table::{find_by_name, flag, Role};
use risa_gcn::{Gen, ALL_GENS};
use risa_gcn_emu::wave::{EXEC, VCC};
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};

/// Any NaN (the documents do not fix the payload).
const NAN: u64 = u64::MAX;
/// A NaN with the sign bit set ("-NAN" in the pseudo-code).
const NEG_NAN: u64 = u64::MAX - 1;

/// MODE: round to nearest, f32 and f64/f16 denormals allowed, DX10_CLAMP, IEEE
/// (GcnState.md "MODE register"; what clang-14 asks for on gfx900).
const MODE_DENORM: u32 = 0x3f0;
/// MODE with f32 denormals flushed (FP_DENORM[5:4] = 0), as clang asks on gfx6-8.
const MODE_FLUSH32: u32 = 0x3c0;

fn enc_vop3(gen: Gen, name: &str, dst: u32, srcs: [u32; 3], neg: u32) -> Option<Vec<u32>> {
    let (_, info) = find_by_name(name, gen).find(|(_, o)| o.vop3_opcode(gen).is_some())?;
    let enc = if info.has(flag::VOP3B) {
        Enc::Vop3b
    } else {
        Enc::Vop3
    };
    let (_, val) = Enc::Vop3.prefix(gen)?;
    let mut raw = u64::from(val);
    assert!(set(
        enc,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.vop3_opcode(gen)?)
    ));
    set(enc, gen, &mut raw, Field::Vdst, dst);
    set(enc, gen, &mut raw, Field::Src0, srcs[0]);
    set(enc, gen, &mut raw, Field::Src1, srcs[1]);
    set(enc, gen, &mut raw, Field::Src2, srcs[2]);
    set(enc, gen, &mut raw, Field::Neg, neg);
    if enc == Enc::Vop3b {
        set(enc, gen, &mut raw, Field::Sdst3, VCC as u32);
    }
    Some(vec![raw as u32, (raw >> 32) as u32])
}

fn run(gen: Gen, words: &[u32], mode: u32, init: impl FnOnce(&mut Wave)) -> Wave {
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    code.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    let mut lds = vec![0u8; 64];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.mode = mode;
    w.set_s64(EXEC, 1);
    init(&mut w);
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen}: {f}"));
    w
}

fn matches(got: u64, want: u64, bits: u32) -> bool {
    let nan = |x: u64| {
        if bits == 64 {
            f64::from_bits(x).is_nan()
        } else {
            f32::from_bits(x as u32).is_nan()
        }
    };
    let sign = got >> (bits - 1) & 1 == 1;
    match want {
        NAN => nan(got),
        NEG_NAN => nan(got) && sign,
        w => got == w,
    }
}

/// A VALU case: instruction, source bits, expected result bits, citation.
struct V {
    name: &'static str,
    src: [u64; 3],
    want: u64,
    mode: u32,
    gens: &'static [Gen],
    doc: &'static str,
}

const ALL: &[Gen] = &ALL_GENS;
const GCN10: &[Gen] = &[Gen::Gcn10];
const NOT10: &[Gen] = &[Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}
fn d(x: f64) -> u64 {
    x.to_bits()
}
const INF: u64 = 0x7f80_0000;
const NINF: u64 = 0xff80_0000;
const QNAN: u64 = 0x7fc0_0000;
const SNAN: u64 = 0x7f80_0001;
const NZERO: u64 = 0x8000_0000;
const DENORM_MIN: u64 = 1;

fn v(name: &'static str, src: [u64; 3], want: u64, doc: &'static str) -> V {
    V {
        name,
        src,
        want,
        mode: MODE_DENORM,
        gens: ALL,
        doc,
    }
}

fn cases() -> Vec<V> {
    let mut c = vec![
        // IEEE 754 arithmetic (GcnInstrsVop2.md V_ADD_F32, V_MUL_F32: plain + and *).
        v(
            "v_add_f32",
            [INF, NINF, 0],
            NAN,
            "Vop2 V_ADD_F32; IEEE 754 inf - inf",
        ),
        v(
            "v_add_f32",
            [NZERO, NZERO, 0],
            NZERO,
            "Vop2 V_ADD_F32; IEEE 754 -0 + -0 = -0",
        ),
        v(
            "v_add_f32",
            [0, NZERO, 0],
            0,
            "Vop2 V_ADD_F32; IEEE 754 +0 + -0 = +0 (round to nearest)",
        ),
        v(
            "v_add_f32",
            [f(f32::MAX), f(f32::MAX), 0],
            INF,
            "Vop2 V_ADD_F32; IEEE 754 overflow",
        ),
        v(
            "v_mul_f32",
            [DENORM_MIN, f(0.5), 0],
            0,
            "Vop2 V_MUL_F32; 2^-150 ties to even 0",
        ),
        v(
            "v_mul_f32",
            [DENORM_MIN, f(2.0), 0],
            2,
            "Vop2 V_MUL_F32; denormals kept in MODE 3",
        ),
        V {
            mode: MODE_FLUSH32,
            ..v(
                "v_mul_f32",
                [DENORM_MIN, f(1073741824.0), 0],
                0,
                "GcnState.md FP_DENORM 0: input denormals flushed",
            )
        },
        V {
            mode: MODE_FLUSH32,
            ..v(
                "v_mul_f32",
                [f(1.0e-20), f(1.0e-20), 0],
                0,
                "GcnState.md FP_DENORM 0: output denormals flushed",
            )
        },
        v(
            "v_mul_f32",
            [0, INF, 0],
            NAN,
            "Vop2 V_MUL_F32; IEEE 754 0 * inf",
        ),
        // IEEE-mode min/max: a quiet NaN loses (GcnState.md MODE.IEEE; Vop2 V_MIN_F32 MIN()).
        v(
            "v_min_f32",
            [QNAN, f(1.0), 0],
            f(1.0),
            "Vop2 V_MIN_F32 with MODE.IEEE (minNum)",
        ),
        v(
            "v_max_f32",
            [f(1.0), QNAN, 0],
            f(1.0),
            "Vop2 V_MAX_F32 with MODE.IEEE (maxNum)",
        ),
        v(
            "v_min_f32",
            [SNAN, f(1.0), 0],
            NAN,
            "Vop2 V_MIN_F32 with MODE.IEEE: signalling NaN gives NaN",
        ),
        v(
            "v_min_f64",
            [d(f64::NAN), d(-2.0), 0],
            d(-2.0),
            "Vop3 V_MIN_F64 with MODE.IEEE (minNum)",
        ),
        // Legacy DX9 rules.
        v(
            "v_mul_legacy_f32",
            [0, INF, 0],
            0,
            "Vop2 V_MUL_LEGACY_F32: 0 * x = 0",
        ),
        v(
            "v_mul_legacy_f32",
            [QNAN, 0, 0],
            0,
            "Vop2 V_MUL_LEGACY_F32: 0 * NaN = 0",
        ),
        V {
            gens: &[Gen::Gcn10, Gen::Gcn11],
            ..v(
                "v_max_legacy_f32",
                [f(1.0), QNAN, 0],
                NAN,
                "Vop2 V_MAX_LEGACY_F32: NaN in SRC1 gives NaN",
            )
        },
        V {
            gens: &[Gen::Gcn10, Gen::Gcn11],
            ..v(
                "v_min_legacy_f32",
                [QNAN, f(1.0), 0],
                f(1.0),
                "Vop2 V_MIN_LEGACY_F32: MIN(NaN, 1)",
            )
        },
        // Conversions (GcnInstrsVop1.md).
        v(
            "v_cvt_i32_f32",
            [QNAN, 0, 0],
            0,
            "Vop1 V_CVT_I32_F32: NaN gives 0",
        ),
        v(
            "v_cvt_i32_f32",
            [f(3e9), 0, 0],
            0x7fff_ffff,
            "Vop1 V_CVT_I32_F32: saturates at MAX_INT32",
        ),
        v(
            "v_cvt_i32_f32",
            [f(-3e9), 0, 0],
            0x8000_0000,
            "Vop1 V_CVT_I32_F32: saturates at MIN_INT32",
        ),
        v(
            "v_cvt_i32_f32",
            [f(-1.75), 0, 0],
            0xffff_ffff,
            "Vop1 V_CVT_I32_F32: rounds toward zero",
        ),
        v(
            "v_cvt_u32_f32",
            [f(5e9), 0, 0],
            0xffff_ffff,
            "Vop1 V_CVT_U32_F32: saturates at MAX_UINT32",
        ),
        v(
            "v_cvt_u32_f32",
            [QNAN, 0, 0],
            0,
            "Vop1 V_CVT_U32_F32: NaN gives 0",
        ),
        v(
            "v_cvt_flr_i32_f32",
            [f(-1.5), 0, 0],
            0xffff_fffe,
            "Vop1 V_CVT_FLR_I32_F32: floor",
        ),
        v(
            "v_cvt_flr_i32_f32",
            [QNAN, 0, 0],
            0x7fff_ffff,
            "Vop1 V_CVT_FLR_I32_F32: NaN gives MAX_INT32",
        ),
        v(
            "v_cvt_flr_i32_f32",
            [0xffc0_0000, 0, 0],
            0x8000_0000,
            "Vop1 V_CVT_FLR_I32_F32: -NaN gives MIN_INT32",
        ),
        v(
            "v_cvt_rpi_i32_f32",
            [f(2.5), 0, 0],
            3,
            "Vop1 V_CVT_RPI_I32_F32: floor(x + 0.5)",
        ),
        v(
            "v_cvt_rpi_i32_f32",
            [f(-2.5), 0, 0],
            0xffff_fffe,
            "Vop1 V_CVT_RPI_I32_F32: floor(x + 0.5)",
        ),
        v(
            "v_cvt_f16_f32",
            [f(65520.0), 0, 0],
            0x7c00,
            "Vop1 V_CVT_F16_F32: too large gives infinity",
        ),
        v(
            "v_cvt_f16_f32",
            [f(2f32.powi(-25)), 0, 0],
            0,
            "Vop1 V_CVT_F16_F32: half of the smallest denormal ties to even 0",
        ),
        v(
            "v_cvt_f16_f32",
            [f(1.5 * 2f32.powi(-25)), 0, 0],
            1,
            "Vop1 V_CVT_F16_F32: denormal result (denormals enabled)",
        ),
        v(
            "v_cvt_f32_f16",
            [0x0001, 0, 0],
            f(2f32.powi(-24)),
            "Vop1 V_CVT_F32_F16: exact",
        ),
        v(
            "v_cvt_f32_f16",
            [0xfc00, 0, 0],
            NINF,
            "Vop1 V_CVT_F32_F16: exact",
        ),
        v(
            "v_cvt_pkrtz_f16_f32",
            [f(1.0), f(65520.0), 0],
            0x7bff_3c00,
            "Vop2 V_CVT_PKRTZ_F16_F32: toward zero",
        ),
        v(
            "v_cvt_f64_i32",
            [0x8000_0000, 0, 0],
            d(-2147483648.0),
            "Vop1 V_CVT_F64_I32: exact",
        ),
        v(
            "v_cvt_i32_f64",
            [d(-1e10), 0, 0],
            0x8000_0000,
            "Vop1 V_CVT_I32_F64: saturates at MIN_INT32",
        ),
        // Rounding (Vop1 V_RNDNE/TRUNC/CEIL/FLOOR: infinity and NaN pass through).
        v(
            "v_rndne_f32",
            [f(2.5), 0, 0],
            f(2.0),
            "Vop1 V_RNDNE_F32: nearest even",
        ),
        v(
            "v_rndne_f32",
            [f(-0.5), 0, 0],
            NZERO,
            "Vop1 V_RNDNE_F32: nearest even keeps the sign",
        ),
        v("v_ceil_f32", [f(-0.5), 0, 0], NZERO, "Vop1 V_CEIL_F32"),
        v("v_floor_f32", [f(-0.5), 0, 0], f(-1.0), "Vop1 V_FLOOR_F32"),
        v(
            "v_trunc_f32",
            [NINF, 0, 0],
            NINF,
            "Vop1 V_TRUNC_F32: infinity passes",
        ),
        v(
            "v_fract_f32",
            [f(-0.25), 0, 0],
            f(0.75),
            "Vop1 V_FRACT_F32: x - floor(x)",
        ),
        v(
            "v_fract_f32",
            [NINF, 0, 0],
            NEG_NAN,
            "Vop1 V_FRACT_F32: infinity gives NaN with its sign",
        ),
        v(
            "v_fract_f64",
            [d(-0.25), 0, 0],
            d(0.75),
            "Vop1 V_FRACT_F64: x - floor(x)",
        ),
        // Transcendentals: special values from the pseudo-code.
        v("v_rcp_f32", [0, 0, 0], INF, "Vop1 V_RCP_F32: 1/+0 = +inf"),
        v(
            "v_rcp_f32",
            [NZERO, 0, 0],
            NINF,
            "Vop1 V_RCP_F32: 1/-0 = -inf",
        ),
        v("v_rcp_f32", [INF, 0, 0], 0, "Vop1 V_RCP_F32: 1/inf = 0"),
        v(
            "v_rcp_f32",
            [f(4.0), 0, 0],
            f(0.25),
            "Vop1 V_RCP_F32: exact when representable",
        ),
        v(
            "v_sqrt_f32",
            [f(-1.0), 0, 0],
            NEG_NAN,
            "Vop1 V_SQRT_F32: negative gives -NaN",
        ),
        v(
            "v_sqrt_f32",
            [NZERO, 0, 0],
            NZERO,
            "Vop1 V_SQRT_F32: IEEE sqrt(-0) = -0",
        ),
        v("v_sqrt_f32", [f(16.0), 0, 0], f(4.0), "Vop1 V_SQRT_F32"),
        v(
            "v_rsq_f32",
            [f(-4.0), 0, 0],
            NEG_NAN,
            "Vop1 V_RSQ_F32: negative gives -NaN",
        ),
        v("v_rsq_f32", [f(4.0), 0, 0], f(0.5), "Vop1 V_RSQ_F32"),
        v(
            "v_rsq_f32",
            [DENORM_MIN, 0, 0],
            INF,
            "Vop1 V_RSQ_F32: denormals not handled (flushed)",
        ),
        v(
            "v_log_f32",
            [f(1.0), 0, 0],
            0,
            "Vop1 V_LOG_F32: log2(1) = 0",
        ),
        v("v_log_f32", [f(8.0), 0, 0], f(3.0), "Vop1 V_LOG_F32"),
        v(
            "v_log_f32",
            [f(-1.0), 0, 0],
            NEG_NAN,
            "Vop1 V_LOG_F32: negative gives -NaN",
        ),
        v(
            "v_log_f32",
            [DENORM_MIN, 0, 0],
            NINF,
            "Vop1 V_LOG_F32: denormals not handled (flushed)",
        ),
        v(
            "v_exp_f32",
            [f(-127.0), 0, 0],
            0,
            "Vop1 V_EXP_F32: below -126 gives 0",
        ),
        v("v_exp_f32", [f(3.0), 0, 0], f(8.0), "Vop1 V_EXP_F32"),
        v("v_exp_f32", [INF, 0, 0], INF, "Vop1 V_EXP_F32"),
        v(
            "v_sin_f32",
            [f(0.25), 0, 0],
            f(1.0),
            "Vop1 V_SIN_F32: sin(2*pi*x)",
        ),
        v(
            "v_sin_f32",
            [INF, 0, 0],
            NEG_NAN,
            "Vop1 V_SIN_F32: infinity gives -NaN",
        ),
        v(
            "v_sin_f32",
            [f(300.0), 0, 0],
            0,
            "Vop1 V_SIN_F32: out of range gives 0",
        ),
        v(
            "v_cos_f32",
            [f(0.5), 0, 0],
            f(-1.0),
            "Vop1 V_COS_F32: cos(2*pi*x)",
        ),
        v(
            "v_ldexp_f32",
            [f(1.0), 128, 0],
            INF,
            "Vop2 V_LDEXP_F32: overflow",
        ),
        v(
            "v_ldexp_f32",
            [f(1.0), (-149i32) as u32 as u64, 0],
            DENORM_MIN,
            "Vop2 V_LDEXP_F32: denormal result",
        ),
        v(
            "v_ldexp_f32",
            [f(1.5), u64::from(u32::MAX), 0],
            f(0.75),
            "Vop2 V_LDEXP_F32: SRC1 is signed",
        ),
        // frexp: GCN 1.0 differs for infinity and NaN.
        v(
            "v_frexp_exp_i32_f32",
            [f(8.0), 0, 0],
            4,
            "Vop1 V_FREXP_EXP_I32_F32",
        ),
        V {
            gens: GCN10,
            ..v(
                "v_frexp_exp_i32_f32",
                [INF, 0, 0],
                0xffff_ffff,
                "Vop1 V_FREXP_EXP_I32_F32: -1 on GCN 1.0",
            )
        },
        V {
            gens: NOT10,
            ..v(
                "v_frexp_exp_i32_f32",
                [INF, 0, 0],
                0,
                "Vop1 V_FREXP_EXP_I32_F32: 0 after GCN 1.0",
            )
        },
        v(
            "v_frexp_mant_f32",
            [f(-3.0), 0, 0],
            f(-0.75),
            "Vop1 V_FREXP_MANT_F32: sign kept",
        ),
        V {
            gens: GCN10,
            ..v(
                "v_frexp_mant_f32",
                [INF, 0, 0],
                NEG_NAN,
                "Vop1 V_FREXP_MANT_F32: -NaN on GCN 1.0",
            )
        },
        V {
            gens: NOT10,
            ..v(
                "v_frexp_mant_f32",
                [INF, 0, 0],
                INF,
                "Vop1 V_FREXP_MANT_F32: infinity after GCN 1.0",
            )
        },
        // Three-operand float.
        v(
            "v_fma_f32",
            [f(1.0 + f32::EPSILON), f(1.0 - f32::EPSILON), f(-1.0)],
            f(-f32::EPSILON * f32::EPSILON),
            "Vop3 V_FMA_F32: one rounding",
        ),
        v(
            "v_fma_f64",
            [d(1.0 + f64::EPSILON), d(1.0 - f64::EPSILON), d(-1.0)],
            d(-f64::EPSILON * f64::EPSILON),
            "Vop3 V_FMA_F64: one rounding",
        ),
        v(
            "v_med3_f32",
            [QNAN, f(1.0), f(2.0)],
            f(1.0),
            "Vop3 V_MED3_F32: NaN in SRC0 gives MIN(SRC1, SRC2)",
        ),
        v(
            "v_med3_f32",
            [f(3.0), f(1.0), f(2.0)],
            f(2.0),
            "Vop3 V_MED3_F32",
        ),
        v(
            "v_div_fixup_f32",
            [f(5.0), 0, 0],
            NAN,
            "Vop3 V_DIV_FIXUP_F32: 0/0",
        ),
        v(
            "v_div_fixup_f32",
            [f(5.0), 0, f(1.0)],
            INF,
            "Vop3 V_DIV_FIXUP_F32: x/0 = inf",
        ),
        v(
            "v_div_fixup_f32",
            [f(5.0), NINF, f(1.0)],
            NZERO,
            "Vop3 V_DIV_FIXUP_F32: x/-inf = -0",
        ),
        v(
            "v_div_fixup_f32",
            [f(5.0), f(-1.0), f(1.0)],
            f(-5.0),
            "Vop3 V_DIV_FIXUP_F32: sign from operands",
        ),
        v(
            "v_div_fixup_f32",
            [f(5.0), QNAN, f(1.0)],
            NAN,
            "Vop3 V_DIV_FIXUP_F32: NaN denominator",
        ),
        // Integer shifts: counts are masked to the width (Vop2 V_LSHLREV_B32 etc.).
        v(
            "v_lshlrev_b32",
            [33, 1, 0],
            2,
            "Vop2 V_LSHLREV_B32: SRC0 & 31",
        ),
        v(
            "v_lshrrev_b32",
            [32, 0x8000_0000, 0],
            0x8000_0000,
            "Vop2 V_LSHRREV_B32: SRC0 & 31",
        ),
        v(
            "v_ashrrev_i32",
            [31, 0x8000_0000, 0],
            0xffff_ffff,
            "Vop2 V_ASHRREV_I32",
        ),
        v(
            "v_bfe_u32",
            [0xffff_ffff, 28, 8],
            0xf,
            "Vop3 V_BFE_U32: field past bit 31",
        ),
        v(
            "v_bfe_u32",
            [0xffff_ffff, 4, 32],
            0,
            "Vop3 V_BFE_U32: length & 31 = 0",
        ),
        v(
            "v_bfe_i32",
            [0x80, 4, 4],
            0xffff_fff8,
            "Vop3 V_BFE_I32: sign extension",
        ),
        v(
            "v_bfi_b32",
            [0xff00_ff00, 0x1234_5678, 0x9abc_def0],
            0x12bc_56f0,
            "Vop3 V_BFI_B32",
        ),
        v(
            "v_alignbit_b32",
            [1, 0, 1],
            0x8000_0000,
            "Vop3 V_ALIGNBIT_B32",
        ),
        v(
            "v_alignbit_b32",
            [1, 7, 32],
            7,
            "Vop3 V_ALIGNBIT_B32: SRC2 & 31",
        ),
        v(
            "v_alignbyte_b32",
            [0x1122_3344, 0x5566_7788, 1],
            0x4455_6677,
            "Vop3 V_ALIGNBYTE_B32",
        ),
        v(
            "v_mul_hi_u32",
            [0xffff_ffff, 0xffff_ffff, 0],
            0xffff_fffe,
            "Vop3 V_MUL_HI_U32",
        ),
        v(
            "v_mul_hi_i32",
            [0xffff_ffff, 0xffff_ffff, 0],
            0,
            "Vop3 V_MUL_HI_I32",
        ),
        v(
            "v_mul_lo_u32",
            [0x1_0000, 0x1_0000, 0],
            0,
            "Vop3 V_MUL_LO_U32: low 32 bits",
        ),
        v(
            "v_mul_i32_i24",
            [0x0080_0000, 2, 0],
            0xff00_0000,
            "Vop2 V_MUL_I32_I24: 24-bit signed",
        ),
        v(
            "v_mul_i32_i24",
            [0xff00_0001, 2, 0],
            2,
            "Vop2 V_MUL_I32_I24: bits 31:24 ignored",
        ),
        v(
            "v_mul_hi_i32_i24",
            [0x0080_0000, 0x0080_0000, 0],
            0x4000,
            "Vop2 V_MUL_HI_I32_I24",
        ),
        v(
            "v_mul_u32_u24",
            [0x0100_0003, 5, 0],
            15,
            "Vop2 V_MUL_U32_U24: bits 31:24 ignored",
        ),
        v(
            "v_bcnt_u32_b32",
            [0xffff_ffff, 5, 0],
            37,
            "Vop2 V_BCNT_U32_B32",
        ),
        v(
            "v_ffbh_u32",
            [0, 0, 0],
            0xffff_ffff,
            "Vop1 V_FFBH_U32: no bit gives -1",
        ),
        v("v_ffbh_u32", [1, 0, 0], 31, "Vop1 V_FFBH_U32"),
        v("v_ffbl_b32", [8, 0, 0], 3, "Vop1 V_FFBL_B32"),
        v(
            "v_ffbh_i32",
            [0xc000_0000, 0, 0],
            2,
            "Vop1 V_FFBH_I32: first bit opposite to the sign",
        ),
        v(
            "v_ffbh_i32",
            [0xffff_ffff, 0, 0],
            0xffff_ffff,
            "Vop1 V_FFBH_I32: none gives -1",
        ),
        v(
            "v_min_i32",
            [0x8000_0000, 0x7fff_ffff, 0],
            0x8000_0000,
            "Vop2 V_MIN_I32: signed",
        ),
        v(
            "v_max_u32",
            [0x8000_0000, 0x7fff_ffff, 0],
            0x8000_0000,
            "Vop2 V_MAX_U32: unsigned",
        ),
        v(
            "v_lshlrev_b64",
            [65, 1, 0],
            2,
            "Vop3 V_LSHLREV_B64: SRC0 & 63",
        ),
        v(
            "v_ashrrev_i64",
            [63, 0x8000_0000_0000_0000, 0],
            u64::MAX,
            "Vop3 V_ASHRREV_I64",
        ),
        v(
            "v_add_f64",
            [d(f64::MAX), d(f64::MAX), 0],
            d(f64::INFINITY),
            "Vop3 V_ADD_F64: IEEE 754 overflow",
        ),
        v(
            "v_mul_f64",
            [d(f64::MIN_POSITIVE), d(0.5), 0],
            d(f64::MIN_POSITIVE / 2.0),
            "Vop3 V_MUL_F64: denormal result (MODE 3)",
        ),
        v(
            "v_ldexp_f64",
            [d(1.0), 1024, 0],
            d(f64::INFINITY),
            "Vop3 V_LDEXP_F64: overflow",
        ),
        v(
            "v_rcp_f64",
            [d(0.0), 0, 0],
            d(f64::INFINITY),
            "Vop1 V_RCP_F64: 1/0",
        ),
        v(
            "v_sqrt_f64",
            [d(-4.0), 0, 0],
            NAN,
            "Vop1 V_SQRT_F64: negative gives NaN",
        ),
    ];
    c.extend([
        v(
            "v_cubeid_f32",
            [f(1.0), f(-3.0), f(2.0)],
            f(3.0),
            "Vop3 V_CUBEID_F32: |y| largest, y < 0 gives 3",
        ),
        v(
            "v_cubeid_f32",
            [f(1.0), f(2.0), f(2.0)],
            f(4.0),
            "Vop3 V_CUBEID_F32: ties go to z",
        ),
        v(
            "v_cubema_f32",
            [f(1.0), f(-3.0), f(2.0)],
            f(-6.0),
            "Vop3 V_CUBEMA_F32: 2 * major axis",
        ),
        v(
            "v_cubesc_f32",
            [f(1.0), f(-3.0), f(2.0)],
            f(1.0),
            "Vop3 V_CUBESC_F32: y major gives x",
        ),
        v(
            "v_cubesc_f32",
            [f(-5.0), f(1.0), f(2.0)],
            f(2.0),
            "Vop3 V_CUBESC_F32: x major gives -SIGN(x) * z",
        ),
        v(
            "v_cubetc_f32",
            [f(1.0), f(-3.0), f(2.0)],
            f(-2.0),
            "Vop3 V_CUBETC_F32: y major gives SIGN(y) * z",
        ),
        v(
            "v_cubetc_f32",
            [f(1.0), f(-3.0), f(7.0)],
            f(3.0),
            "Vop3 V_CUBETC_F32: z major gives -y",
        ),
        v(
            "v_cvt_pkaccum_u8_f32",
            [f(2.5), 1, 0],
            0x200,
            "Vop2 V_CVT_PKACCUM_U8_F32: round to even, byte SRC1 & 3",
        ),
        v(
            "v_cvt_pkaccum_u8_f32",
            [f(300.0), 7, 0],
            0xff00_0000,
            "Vop2 V_CVT_PKACCUM_U8_F32: saturates",
        ),
    ]);
    // Byte windows of 0x0807060504030201 against 0x01010101: SADs 6, 10, 14, 18 plus 1, 2, 3, 4.
    let qsad_gens: &'static [Gen] = ALL;
    c.extend([
        V {
            gens: qsad_gens,
            ..v(
                "v_qsad_pk_u16_u8",
                [0x0807_0605_0403_0201, 0x0101_0101, 0x0004_0003_0002_0001],
                0x0016_0011_000c_0007,
                "Vop3 V_QSAD_PK_U16_U8",
            )
        },
        V {
            gens: qsad_gens,
            ..v(
                "v_qsad_u8",
                [0x0807_0605_0403_0201, 0x0101_0101, 0x0004_0003_0002_0001],
                0x0016_0011_000c_0007,
                "Vop3 V_QSAD_U8",
            )
        },
        V {
            gens: qsad_gens,
            ..v(
                "v_mqsad_pk_u16_u8",
                [0x0807_0605_0403_0201, 0x0001_0001, 0],
                0x0008_0006_0004_0002,
                "Vop3 V_MQSAD_PK_U16_U8: zero bytes of SRC1 skipped",
            )
        },
    ]);
    let gcn10_11: &'static [Gen] = &[Gen::Gcn10, Gen::Gcn11];
    c.extend([
        V {
            gens: gcn10_11,
            ..v(
                "v_mullit_f32",
                [f(2.0), f(3.0), f(1.0)],
                f(6.0),
                "Vop3 V_MULLIT_F32",
            )
        },
        V {
            gens: gcn10_11,
            ..v(
                "v_mullit_f32",
                [0, INF, f(1.0)],
                0,
                "Vop3 V_MULLIT_F32: 0 * inf = 0",
            )
        },
        V {
            gens: gcn10_11,
            ..v(
                "v_mullit_f32",
                [f(2.0), f(3.0), QNAN],
                f(-f32::MAX),
                "Vop3 V_MULLIT_F32: SRC2 not > 0",
            )
        },
    ]);
    // GCN 1.2+ only (16-bit and gfx8 additions).
    let gfx8: &'static [Gen] = &[Gen::Gcn12, Gen::Gcn14];
    c.extend([
        V {
            gens: gfx8,
            ..v(
                "v_perm_b32",
                [0x1122_3344, 0x5566_7788, 0x0c0d_0704],
                0x00ff_1144,
                "Vop3 V_PERM_B32: bytes 0-7, 12 = 0, 13+ = 0xff",
            )
        },
        V {
            gens: gfx8,
            ..v(
                "v_perm_b32",
                [0x8000_0000, 0, 0x0000_0b08],
                0x0000_ff00,
                "Vop3 V_PERM_B32: 8-11 give the sign of bytes 1, 3, 5, 7",
            )
        },
        V {
            gens: gfx8,
            ..v(
                "v_add_f16",
                [0x7bff, 0x7bff, 0],
                0x7c00,
                "Vop2 V_ADD_F16: IEEE 754 overflow",
            )
        },
        V {
            gens: gfx8,
            ..v(
                "v_mul_f16",
                [0x0001, 0x3800, 0],
                0,
                "Vop2 V_MUL_F16: 2^-25 ties to even 0",
            )
        },
        V {
            gens: gfx8,
            ..v(
                "v_lshlrev_b16",
                [17, 1, 0],
                2,
                "Vop2 V_LSHLREV_B16: SRC0 & 15",
            )
        },
        V {
            gens: gfx8,
            ..v(
                "v_max_i16",
                [0x8000, 0x7fff, 0],
                0x7fff,
                "Vop2 V_MAX_I16: signed 16-bit",
            )
        },
    ]);
    c
}

#[test]
fn valu_edge_values() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        for &gen in case.gens {
            let Some((_, info)) =
                find_by_name(case.name, gen).find(|(_, o)| o.vop3_opcode(gen).is_some())
            else {
                continue;
            };
            let wide = |r: Role| info.operand(r).is_some_and(|o| o.ty.dwords() == 2);
            // Sources in v2/v4/v6 (pairs for 64-bit operands), result in v0(:v1).
            let words = enc_vop3(gen, case.name, 0, [258, 260, 262], 0).unwrap();
            let w = run(gen, &words, case.mode, |w| {
                for (k, r) in [Role::A, Role::B, Role::C].into_iter().enumerate() {
                    let x = case.src[k];
                    w.v[2 + 2 * k][0] = x as u32;
                    if wide(r) {
                        w.v[3 + 2 * k][0] = (x >> 32) as u32;
                    }
                }
            });
            let bits = if wide(Role::D) { 64 } else { 32 };
            let got = u64::from(w.v[0][0])
                | if bits == 64 {
                    u64::from(w.v[1][0]) << 32
                } else {
                    0
                };
            checked += 1;
            if !matches(got, case.want, bits) {
                failures.push(format!(
                    "{gen} {}({:#x}, {:#x}, {:#x}) = {got:#x}, expected {:#x} [{}]",
                    case.name, case.src[0], case.src[1], case.src[2], case.want, case.doc
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 400, "only {checked} checks ran");
}

/// Compares: one bit per lane, written to VCC (GcnInstrsVopc.md).
#[test]
fn compare_and_class_edge_values() {
    let cases: &[(&str, u64, u64, bool, &str)] = &[
        (
            "v_cmp_lt_f32",
            QNAN,
            f(1.0),
            false,
            "Vopc V_CMP_LT_F32: unordered is false",
        ),
        (
            "v_cmp_neq_f32",
            QNAN,
            QNAN,
            true,
            "Vopc V_CMP_NEQ_F32: !(a == b)",
        ),
        (
            "v_cmp_nlt_f32",
            QNAN,
            f(1.0),
            true,
            "Vopc V_CMP_NLT_F32: !(a < b)",
        ),
        (
            "v_cmp_lg_f32",
            QNAN,
            f(1.0),
            false,
            "Vopc V_CMP_LG_F32: ordered and not equal",
        ),
        (
            "v_cmp_u_f32",
            QNAN,
            f(1.0),
            true,
            "Vopc V_CMP_U_F32: unordered",
        ),
        (
            "v_cmp_o_f32",
            f(1.0),
            f(2.0),
            true,
            "Vopc V_CMP_O_F32: ordered",
        ),
        (
            "v_cmp_eq_f32",
            NZERO,
            0,
            true,
            "Vopc V_CMP_EQ_F32: -0 == +0",
        ),
        (
            "v_cmp_lt_i32",
            0xffff_ffff,
            0,
            true,
            "Vopc V_CMP_LT_I32: signed",
        ),
        (
            "v_cmp_lt_u32",
            0xffff_ffff,
            0,
            false,
            "Vopc V_CMP_LT_U32: unsigned",
        ),
        (
            "v_cmp_class_f32",
            SNAN,
            1,
            true,
            "Vopc V_CMP_CLASS_F32: bit 0 signalling NaN",
        ),
        (
            "v_cmp_class_f32",
            QNAN,
            2,
            true,
            "Vopc V_CMP_CLASS_F32: bit 1 quiet NaN",
        ),
        (
            "v_cmp_class_f32",
            NINF,
            4,
            true,
            "Vopc V_CMP_CLASS_F32: bit 2 -inf",
        ),
        (
            "v_cmp_class_f32",
            0x8000_0001,
            16,
            true,
            "Vopc V_CMP_CLASS_F32: bit 4 negative denormal",
        ),
        (
            "v_cmp_class_f32",
            NZERO,
            32,
            true,
            "Vopc V_CMP_CLASS_F32: bit 5 -0",
        ),
        (
            "v_cmp_class_f32",
            DENORM_MIN,
            128,
            true,
            "Vopc V_CMP_CLASS_F32: bit 7, no flushing of SRC0",
        ),
        (
            "v_cmp_class_f32",
            f(1.0),
            0x2ff,
            false,
            "Vopc V_CMP_CLASS_F32: bit 8 +normal not in mask",
        ),
        (
            "v_cmp_class_f64",
            d(f64::INFINITY),
            512,
            true,
            "Vopc V_CMP_CLASS_F64: bit 9 +inf",
        ),
    ];
    for &(name, a, b, want, doc) in cases {
        for gen in ALL_GENS {
            let Some(words) = enc_vop3(gen, name, VCC as u32, [258, 260, 0], 0) else {
                continue;
            };
            // Flush mode: class must still see the denormal (no flushing of SRC0).
            let w = run(gen, &words, MODE_FLUSH32, |w| {
                w.v[2][0] = a as u32;
                w.v[3][0] = (a >> 32) as u32;
                w.v[4][0] = b as u32;
                w.v[5][0] = (b >> 32) as u32;
            });
            assert_eq!(
                w.vcc() & 1 == 1,
                want,
                "{gen} {name}({a:#x}, {b:#x}) [{doc}]"
            );
            assert_eq!(w.vcc() >> 1, 0, "{gen} {name}: inactive lanes write 0");
        }
    }
}

/// Carry-out and carry-in of the vector integer adds (Vop2 V_ADD_CO_U32 /
/// V_ADD_I32 / V_ADDC_U32: "store carry flag to SDST").
#[test]
fn vector_carry() {
    for gen in ALL_GENS {
        let add = if gen == Gen::Gcn14 {
            "v_add_co_u32"
        } else if gen == Gen::Gcn12 {
            "v_add_u32"
        } else {
            "v_add_i32"
        };
        let words = enc_vop3(gen, add, 0, [258, 260, 0], 0).unwrap();
        let w = run(gen, &words, MODE_DENORM, |w| {
            w.v[2][0] = 0xffff_ffff;
            w.v[4][0] = 1;
        });
        assert_eq!((w.v[0][0], w.vcc()), (0, 1), "{gen} {add}: 0xffffffff + 1");
        let addc = if gen == Gen::Gcn14 {
            "v_addc_co_u32"
        } else {
            "v_addc_u32"
        };
        // src2 = VCC (code 106) holds the carry-in.
        let words = enc_vop3(gen, addc, 0, [258, 260, VCC as u32], 0).unwrap();
        let w = run(gen, &words, MODE_DENORM, |w| {
            w.v[2][0] = 0xffff_ffff;
            w.v[4][0] = 0;
            w.set_s64(VCC, 1);
        });
        assert_eq!(
            (w.v[0][0], w.vcc()),
            (0, 1),
            "{gen} {addc}: 0xffffffff + 0 + 1"
        );
    }
}

fn enc_sop2(gen: Gen, name: &str, d: u32, a: u32, b: u32) -> Vec<u32> {
    let (_, info) = find_by_name(name, gen).next().unwrap();
    let enc = match info.family {
        risa_gcn::Family::Sop2 => Enc::Sop2,
        risa_gcn::Family::Sop1 => Enc::Sop1,
        _ => Enc::Sopc,
    };
    let (_, val) = enc.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    set(
        enc,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.opcode(gen).unwrap()),
    );
    set(enc, gen, &mut raw, Field::Sdst, d);
    set(enc, gen, &mut raw, Field::Ssrc0, a);
    set(enc, gen, &mut raw, Field::Ssrc1, b);
    vec![raw as u32]
}

/// Scalar ALU: results and SCC (GcnInstrsSop1.md / GcnInstrsSop2.md / GcnInstrsSopc.md).
#[test]
fn salu_edge_values() {
    // (name, s2:s3, s4:s5, expected s0:s1, expected SCC (None: unchanged from 1), doc)
    type Case = (&'static str, u64, u64, u64, Option<bool>, &'static str);
    let cases: &[Case] = &[
        (
            "s_add_u32",
            0xffff_ffff,
            1,
            0,
            Some(true),
            "Sop2 S_ADD_U32: SCC = carry",
        ),
        (
            "s_sub_u32",
            0,
            1,
            0xffff_ffff,
            Some(true),
            "Sop2 S_SUB_U32: SCC = borrow",
        ),
        (
            "s_add_i32",
            0x7fff_ffff,
            1,
            0x8000_0000,
            Some(true),
            "Sop2 S_ADD_I32: SCC = overflow",
        ),
        (
            "s_add_i32",
            0xffff_ffff,
            1,
            0,
            Some(false),
            "Sop2 S_ADD_I32: no overflow",
        ),
        (
            "s_lshl_b32",
            1,
            33,
            2,
            Some(true),
            "Sop2 S_LSHL_B32: SSRC1 & 31",
        ),
        (
            "s_lshr_b32",
            0x8000_0000,
            63,
            1,
            Some(true),
            "Sop2 S_LSHR_B32: SSRC1 & 31",
        ),
        (
            "s_ashr_i32",
            0x8000_0000,
            31,
            0xffff_ffff,
            Some(true),
            "Sop2 S_ASHR_I32",
        ),
        (
            "s_lshl_b64",
            1,
            64,
            1,
            Some(true),
            "Sop2 S_LSHL_B64: SSRC1 & 63",
        ),
        (
            "s_bfe_u32",
            0xabcd,
            4 | 8 << 16,
            0xbc,
            Some(true),
            "Sop2 S_BFE_U32",
        ),
        (
            "s_bfe_u32",
            0xabcd,
            4,
            0,
            Some(false),
            "Sop2 S_BFE_U32: length 0",
        ),
        (
            "s_bfe_i32",
            0x80,
            4 | 4 << 16,
            0xffff_fff8,
            Some(true),
            "Sop2 S_BFE_I32: sign extension",
        ),
        (
            "s_min_i32",
            0xffff_ffff,
            1,
            0xffff_ffff,
            Some(true),
            "Sop2 S_MIN_I32: SCC = SSRC0 < SSRC1",
        ),
        (
            "s_max_u32",
            0xffff_ffff,
            1,
            0xffff_ffff,
            Some(true),
            "Sop2 S_MAX_U32: SCC = SSRC0 > SSRC1",
        ),
        (
            "s_mul_i32",
            0x1_0000,
            0x1_0000,
            0,
            None,
            "Sop2 S_MUL_I32: low 32 bits, SCC unchanged",
        ),
        (
            "s_and_b32",
            0xf0,
            0x0f,
            0,
            Some(false),
            "Sop2 S_AND_B32: SCC = result != 0",
        ),
        (
            "s_xor_b64",
            u64::MAX,
            0xffff_ffff,
            0xffff_ffff_0000_0000,
            Some(true),
            "Sop2 S_XOR_B64",
        ),
        ("s_bfm_b32", 4, 8, 0xf00, None, "Sop2 S_BFM_B32"),
        (
            "s_not_b32",
            0xffff_ffff,
            0,
            0,
            Some(false),
            "Sop1 S_NOT_B32: SCC = result != 0",
        ),
        ("s_brev_b32", 1, 0, 0x8000_0000, None, "Sop1 S_BREV_B32"),
        (
            "s_ff1_i32_b32",
            0,
            0,
            0xffff_ffff,
            None,
            "Sop1 S_FF1_I32_B32: none gives -1",
        ),
        ("s_ff1_i32_b32", 0x100, 0, 8, None, "Sop1 S_FF1_I32_B32"),
        ("s_flbit_i32_b32", 1, 0, 31, None, "Sop1 S_FLBIT_I32_B32"),
        (
            "s_flbit_i32",
            0xffff_ffff,
            0,
            0xffff_ffff,
            None,
            "Sop1 S_FLBIT_I32: none gives -1",
        ),
        (
            "s_flbit_i32",
            0xc000_0000,
            0,
            2,
            None,
            "Sop1 S_FLBIT_I32: first bit opposite to the sign",
        ),
        (
            "s_bcnt1_i32_b64",
            u64::MAX,
            0,
            64,
            Some(true),
            "Sop1 S_BCNT1_I32_B64",
        ),
        (
            "s_sext_i32_i8",
            0x80,
            0,
            0xffff_ff80,
            None,
            "Sop1 S_SEXT_I32_I8",
        ),
        (
            "s_abs_i32",
            0x8000_0000,
            0,
            0x8000_0000,
            Some(true),
            "Sop1 S_ABS_I32: |MIN_INT| wraps",
        ),
    ];
    for &(name, a, b, want, scc, doc) in cases {
        for gen in ALL_GENS {
            if find_by_name(name, gen).next().is_none() {
                continue;
            }
            let words = enc_sop2(gen, name, 0, 2, 4);
            let w = run(gen, &words, MODE_DENORM, |w| {
                w.set_s64(2, a);
                w.set_s64(4, b);
                w.scc = true;
            });
            let (_, info) = find_by_name(name, gen).next().unwrap();
            let wide = info.operand(Role::D).is_some_and(|o| o.ty.dwords() == 2);
            let got = if wide { w.s64(0) } else { u64::from(w.s[0]) };
            assert_eq!(got, want, "{gen} {name}({a:#x}, {b:#x}) [{doc}]");
            assert_eq!(w.scc, scc.unwrap_or(true), "{gen} {name}: SCC [{doc}]");
        }
    }
}

/// Encodes a VOP1/VOP2 instruction in SDWA (`dpp` false) or DPP form with
/// the extra dword's fields given as (field, value) pairs.
fn enc_ext(
    gen: Gen,
    name: &str,
    dpp: bool,
    vdst: u32,
    src0: u32,
    vsrc1: u32,
    fields: &[(Field, u32)],
) -> Vec<u32> {
    let (_, info) = find_by_name(name, gen)
        .find(|(_, o)| matches!(o.family, risa_gcn::Family::Vop1 | risa_gcn::Family::Vop2))
        .unwrap();
    let enc = match (info.family, dpp) {
        (risa_gcn::Family::Vop1, false) => Enc::Vop1Sdwa,
        (risa_gcn::Family::Vop1, true) => Enc::Vop1Dpp,
        (_, false) => Enc::Vop2Sdwa,
        (_, true) => Enc::Vop2Dpp,
    };
    let (_, val) = enc.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    assert!(set(
        enc,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.opcode(gen).unwrap())
    ));
    set(enc, gen, &mut raw, Field::Vdst, vdst);
    set(enc, gen, &mut raw, Field::Vsrc1, vsrc1);
    set(enc, gen, &mut raw, Field::Src0, src0);
    for &(f, v) in fields {
        assert!(set(enc, gen, &mut raw, f, v), "{f:?}");
    }
    vec![raw as u32, (raw >> 32) as u32]
}

/// SDWA operand and destination selection (GcnSdwaDpp.md, "VOP_SDWA").
#[test]
fn sdwa_selects() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        // v_and_b32 v0, v2, v4 dst_sel:BYTE_2 dst_unused:PRESERVE src0_sel:BYTE_1 src1_sel:WORD_1
        let f = [
            (Field::DstSel, 2),
            (Field::DstUnused, 2),
            (Field::Src0Sel, 1),
            (Field::Src1Sel, 5),
        ];
        let words = enc_ext(gen, "v_and_b32", false, 0, 2, 4, &f);
        let w = run(gen, &words, MODE_DENORM, |w| {
            w.v[0][0] = 0xaabb_ccdd;
            w.v[2][0] = 0x1122_3344;
            w.v[4][0] = 0xffff_00ff;
        });
        assert_eq!(
            w.v[0][0], 0xaa33_ccdd,
            "{gen}: byte 1 & word 1 into byte 2, rest preserved"
        );
        // v_mov_b32 v0, sext(v2) src0_sel:BYTE_0 (dst DWORD).
        let words = enc_ext(
            gen,
            "v_mov_b32",
            false,
            0,
            2,
            0,
            &[
                (Field::DstSel, 6),
                (Field::Src0Sel, 0),
                (Field::Src0Sext, 1),
            ],
        );
        let w = run(gen, &words, MODE_DENORM, |w| w.v[2][0] = 0x1234_5680);
        assert_eq!(w.v[0][0], 0xffff_ff80, "{gen}: SRC0_SEXT of byte 0");
        // dst_sel:WORD_1 dst_unused:SEXT: the sign fills the bits above, zeros below.
        let words = enc_ext(
            gen,
            "v_mov_b32",
            false,
            0,
            2,
            0,
            &[
                (Field::DstSel, 4),
                (Field::DstUnused, 1),
                (Field::Src0Sel, 6),
            ],
        );
        let w = run(gen, &words, MODE_DENORM, |w| w.v[2][0] = 0x0000_8000);
        assert_eq!(w.v[0][0], 0xffff_8000, "{gen}: UNUSED_SEXT of word 0");
        let words = enc_ext(
            gen,
            "v_mov_b32",
            false,
            0,
            2,
            0,
            &[
                (Field::DstSel, 5),
                (Field::DstUnused, 0),
                (Field::Src0Sel, 6),
            ],
        );
        let w = run(gen, &words, MODE_DENORM, |w| {
            w.v[0][0] = 0xffff_ffff;
            w.v[2][0] = 0x0000_1234;
        });
        assert_eq!(w.v[0][0], 0x1234_0000, "{gen}: UNUSED_PAD into word 1");
    }
}

/// DPP lane movement, BOUND_CTRL and the row/bank masks (GcnSdwaDpp.md, "VOP_DPP").
#[test]
fn dpp_moves() {
    let all = |w: &mut Wave| {
        w.set_s64(EXEC, u64::MAX);
        for l in 0..64 {
            w.v[2][l] = 100 + l as u32;
            w.v[0][l] = 0xdead;
        }
    };
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let mov = |ctrl: u32, bound: u32, row: u32, bank: u32| {
            let f = [
                (Field::DppCtrl, ctrl),
                (Field::BoundCtrl, bound),
                (Field::RowMask, row),
                (Field::BankMask, bank),
            ];
            run(
                gen,
                &enc_ext(gen, "v_mov_b32", true, 0, 2, 0, &f),
                MODE_DENORM,
                all,
            )
        };
        // quad_perm:[3,2,1,0]
        let w = mov(0b00_01_10_11, 0, 0xf, 0xf);
        assert_eq!(&w.v[0][0..4], &[103, 102, 101, 100], "{gen}: quad_perm");
        // row_shr:1 without bound_ctrl: lane 0 of each row keeps its old value.
        let w = mov(0x111, 0, 0xf, 0xf);
        assert_eq!(
            (w.v[0][0], w.v[0][1], w.v[0][16]),
            (0xdead, 100, 0xdead),
            "{gen}: row_shr:1"
        );
        // row_shr:1 with bound_ctrl: invalid lanes read 0.
        let w = mov(0x111, 1, 0xf, 0xf);
        assert_eq!(
            (w.v[0][0], w.v[0][17]),
            (0, 116),
            "{gen}: row_shr:1 bound_ctrl"
        );
        // row_ror:1: lane 0 of a row reads lane 15.
        let w = mov(0x121, 0, 0xf, 0xf);
        assert_eq!((w.v[0][0], w.v[0][5]), (115, 104), "{gen}: row_ror:1");
        // row_shl:1 with row_mask 0b0001: only row 0 is written.
        let w = mov(0x101, 0, 0x1, 0xf);
        assert_eq!((w.v[0][0], w.v[0][16]), (101, 0xdead), "{gen}: row_mask");
        // bank_mask 0b0001: only lanes 0-3 of each row are written.
        let w = mov(0x140, 0, 0xf, 0x1);
        assert_eq!(
            (w.v[0][0], w.v[0][4]),
            (115, 0xdead),
            "{gen}: row_mirror with bank_mask"
        );
        // wave_shr:1 and row_bcast:15.
        let w = mov(0x138, 1, 0xf, 0xf);
        assert_eq!((w.v[0][0], w.v[0][40]), (0, 139), "{gen}: wave_shr:1");
        let w = mov(0x142, 0, 0xa, 0xf);
        assert_eq!(
            (w.v[0][16], w.v[0][31], w.v[0][48], w.v[0][0]),
            (115, 115, 147, 0xdead),
            "{gen}: row_bcast:15"
        );
    }
}

fn enc_vop3p(
    name: &str,
    srcs: [u32; 3],
    op_sel: u32,
    op_sel_hi: u32,
    neg: u32,
    neg_hi: u32,
    clamp: u32,
) -> Vec<u32> {
    let gen = Gen::Gcn14;
    let (_, info) = find_by_name(name, gen).next().unwrap();
    let enc = Enc::Vop3p;
    let (_, val) = enc.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    for (f, v) in [
        (Field::Op, u32::from(info.opcode(gen).unwrap())),
        (Field::Vdst, 0),
        (Field::Src0, srcs[0]),
        (Field::Src1, srcs[1]),
        (Field::Src2, srcs[2]),
        (Field::OpSel, op_sel),
        (Field::OpSelHi, op_sel_hi & 3),
        (Field::OpSelHi2, op_sel_hi >> 2),
        (Field::Neg, neg),
        (Field::NegHi, neg_hi),
        (Field::Clamp, clamp),
    ] {
        assert!(set(enc, gen, &mut raw, f, v), "{f:?}");
    }
    vec![raw as u32, (raw >> 32) as u32]
}

/// Packed math: OP_SEL / OP_SEL_HI pick the halves per result half, NEG /
/// NEG_HI negate them (GcnInstrsVop3p.md, V_PK_ADD_F16 and the VOP3P encoding).
#[test]
fn vop3p_halves() {
    let gen = Gen::Gcn14;
    let init = |w: &mut Wave| {
        w.v[2][0] = 0x3c00_4000; // hi 1.0, lo 2.0
        w.v[4][0] = 0x4200_3800; // hi 3.0, lo 0.5
        w.v[6][0] = 0xfffe_0003; // hi -2, lo 3 (as i16)
    };
    let run1 = |words: Vec<u32>| run(gen, &words, MODE_DENORM, init).v[0][0];
    // Default selection: lo = 2.0 + 0.5, hi = 1.0 + 3.0.
    assert_eq!(
        run1(enc_vop3p("v_pk_add_f16", [258, 260, 0], 0, 0b11, 0, 0, 0)),
        0x4400_4100
    );
    // op_sel:[1,0]: the low result takes src0's high half: 1.0 + 0.5.
    assert_eq!(
        run1(enc_vop3p(
            "v_pk_add_f16",
            [258, 260, 0],
            0b01,
            0b11,
            0,
            0,
            0
        )),
        0x4400_3e00
    );
    // op_sel_hi:[0,1]: the high result takes src0's low half: 2.0 + 3.0; neg_hi on src1: 2.0 - 3.0.
    assert_eq!(
        run1(enc_vop3p(
            "v_pk_add_f16",
            [258, 260, 0],
            0,
            0b10,
            0,
            0b10,
            0
        )),
        0xbc00_4100
    );
    // Integer: v_pk_add_u16 with clamp saturates each half.
    let w = run(
        gen,
        &enc_vop3p("v_pk_add_u16", [258, 260, 0], 0, 0b11, 0, 0, 1),
        MODE_DENORM,
        |w| {
            w.v[2][0] = 0xffff_0001;
            w.v[4][0] = 0x0002_0002;
        },
    );
    assert_eq!(w.v[0][0], 0xffff_0003);
    // v_pk_ashrrev_i16: shift counts are masked to 4 bits.
    let w = run(
        gen,
        &enc_vop3p("v_pk_ashrrev_i16", [258, 262, 0], 0, 0b11, 0, 0, 0),
        MODE_DENORM,
        |w| {
            w.v[2][0] = 0x0011_0001;
            w.v[6][0] = 0x8000_8000;
        },
    );
    assert_eq!(w.v[0][0], 0xc000_c000);
}

fn enc_ds(gen: Gen, name: &str, f: &[(Field, u32)]) -> Vec<u32> {
    let (_, info) = find_by_name(name, gen).next().unwrap();
    let (_, val) = Enc::Ds.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    assert!(set(
        Enc::Ds,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.opcode(gen).unwrap())
    ));
    for &(k, v) in f {
        assert!(set(Enc::Ds, gen, &mut raw, k, v), "{k:?}");
    }
    vec![raw as u32, (raw >> 32) as u32]
}

/// Runs one DS instruction on 4 lanes with LDS dwords 0, 10, 20, ... and M0 = -1.
fn run_ds(gen: Gen, words: &[u32], init: impl FnOnce(&mut Wave)) -> (Wave, Vec<u32>) {
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    code.extend(0xbf81_0000u32.to_le_bytes());
    let prog = Program::new(gen, &code, 0x1000);
    let mem = SimpleMemory::new();
    let mut lds: Vec<u8> = (0..64u32).flat_map(|i| (10 * i).to_le_bytes()).collect();
    let mut w = Wave::new(0);
    {
        let mut ctx = Ctx::new(&prog, &mem, &mut lds);
        w.mode = MODE_DENORM;
        w.set_s64(EXEC, 0xf);
        w.s[risa_gcn_emu::wave::M0] = u32::MAX;
        init(&mut w);
        exec::run_wave(&mut w, &mut ctx).unwrap();
    }
    let lds = lds
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (w, lds)
}

/// DS forms beyond plain reads/writes (GcnInstrsDs.md: DS_WRXCHG2_RTN_B32,
/// DS_APPEND, DS_ADD_SRC2_U32, DS_READ_ADDTID_B32, DS_READ2ST64_B32).
#[test]
fn ds_special_forms() {
    for gen in ALL_GENS {
        // wrxchg2_rtn: lane l exchanges dwords 4l+1 and 4l+3 (offsets in dwords).
        let words = enc_ds(
            gen,
            "ds_wrxchg2_rtn_b32",
            &[
                (Field::Addr, 1),
                (Field::Data0, 2),
                (Field::Data1, 3),
                (Field::Vdst, 4),
                (Field::Offset0, 1),
                (Field::Offset1, 3),
            ],
        );
        let (w, lds) = run_ds(gen, &words, |w| {
            for l in 0..4 {
                w.v[1][l] = 16 * l as u32;
                w.v[2][l] = 1000 + l as u32;
                w.v[3][l] = 2000 + l as u32;
            }
        });
        assert_eq!(
            (w.v[4][1], w.v[5][1]),
            (50, 70),
            "{gen}: old values returned"
        );
        assert_eq!((lds[5], lds[7]), (1001, 2001), "{gen}: new values stored");
        // read2st64: offsets in units of 64 dwords.
        let words = enc_ds(
            gen,
            "ds_read2st64_b32",
            &[
                (Field::Addr, 1),
                (Field::Vdst, 4),
                (Field::Offset0, 0),
                (Field::Offset1, 0),
            ],
        );
        let (w, _) = run_ds(gen, &words, |w| w.v[1][0] = 8);
        assert_eq!((w.v[4][0], w.v[5][0]), (20, 20), "{gen}: read2st64");
        // append: the dword at OFFSET grows by the active lane count; all lanes get the old value.
        if find_by_name("ds_append", gen).next().is_some() {
            let words = enc_ds(gen, "ds_append", &[(Field::Vdst, 4), (Field::Offset, 8)]);
            let (w, lds) = run_ds(gen, &words, |_| {});
            assert_eq!(
                (w.v[4][0], w.v[4][3], lds[2]),
                (20, 20, 24),
                "{gen}: ds_append"
            );
        }
        // add_src2: *A += *B with B = A + stride*4 (OFFSET = 2, bit 15 clear).
        let words = enc_ds(
            gen,
            "ds_add_src2_u32",
            &[(Field::Addr, 1), (Field::Offset, 2)],
        );
        let (_, lds) = run_ds(gen, &words, |w| {
            w.set_s64(EXEC, 1);
            w.v[1][0] = 4;
        });
        assert_eq!(lds[1], 10 + 30, "{gen}: ds_add_src2_u32");
        if gen == Gen::Gcn14 {
            let words = enc_ds(
                gen,
                "ds_read_addtid_b32",
                &[(Field::Vdst, 4), (Field::Offset, 4)],
            );
            let (w, _) = run_ds(gen, &words, |w| w.s[risa_gcn_emu::wave::M0] = 8);
            assert_eq!(&w.v[4][..4], &[30, 40, 50, 60], "{gen}: read_addtid");
        }
    }
}

/// Format conversion of buffer loads and stores (GcnInstrsMubuf.md /
/// GcnInstrsMtbuf.md: DATA_FORMAT and NUM_FORMAT; unorm = x / (2^n - 1),
/// sint saturates on store; missing components read as 0, and w as 1).
#[test]
fn buffer_formats() {
    for gen in ALL_GENS {
        let enc_buf = |enc: Enc, name: &str, f: &[(Field, u32)]| -> Vec<u32> {
            let (_, info) = find_by_name(name, gen).next().unwrap();
            let (_, val) = enc.prefix(gen).unwrap();
            let mut raw = u64::from(val);
            assert!(set(
                enc,
                gen,
                &mut raw,
                Field::Op,
                u32::from(info.opcode(gen).unwrap())
            ));
            // vaddr unused (no offen/idxen), srsrc = s[4:7], soffset = 0 (inline constant 128).
            set(enc, gen, &mut raw, Field::Srsrc, 1);
            set(enc, gen, &mut raw, Field::Soffset, 128);
            for &(k, v) in f {
                assert!(set(enc, gen, &mut raw, k, v), "{k:?}");
            }
            vec![raw as u32, (raw >> 32) as u32]
        };
        let go = |words: Vec<u32>, word3: u32, init: [u32; 4]| -> (Wave, Vec<u8>) {
            let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            code.extend(0xbf81_0000u32.to_le_bytes());
            let prog = Program::new(gen, &code, 0x1000);
            let mem = SimpleMemory::new();
            mem.add(0x10000, vec![0, 255, 51, 128, 0, 0, 0, 0]);
            let mut lds = vec![];
            let mut ctx = Ctx::new(&prog, &mem, &mut lds);
            let mut w = Wave::new(0);
            w.mode = MODE_DENORM;
            w.set_s64(EXEC, 1);
            w.s[4] = 0x10000;
            w.s[6] = 8; // NUM_RECORDS
            w.s[7] = word3;
            for (k, v) in init.into_iter().enumerate() {
                w.v[8 + k][0] = v;
            }
            exec::run_wave(&mut w, &mut ctx).unwrap();
            (w, mem.get(0x10000).unwrap())
        };
        // 8_8_8_8 unorm from the V#: DATA_FORMAT 10 (word3[18:15]), NUM_FORMAT 0.
        let (w, _) = go(
            enc_buf(Enc::Mubuf, "buffer_load_format_xyzw", &[(Field::Vdata, 8)]),
            10 << 15,
            [0; 4],
        );
        let got: Vec<f32> = (0..4).map(|k| f32::from_bits(w.v[8 + k][0])).collect();
        assert_eq!(got, [0.0, 1.0, 0.2, (128.0f64 / 255.0) as f32], "{gen}");
        // 8 uint (DATA_FORMAT 1, NUM_FORMAT 4) loaded as xyzw: y, z are 0 and w is 1.
        let (w, _) = go(
            enc_buf(Enc::Mubuf, "buffer_load_format_xyzw", &[(Field::Vdata, 8)]),
            1 << 15 | 4 << 12,
            [9; 4],
        );
        assert_eq!(
            (w.v[8][0], w.v[9][0], w.v[10][0], w.v[11][0]),
            (0, 0, 0, 1),
            "{gen}"
        );
        // tbuffer 16_16 sint (DFMT 5, NFMT 5) store saturates each component.
        let (_, m) = go(
            enc_buf(
                Enc::Mtbuf,
                "tbuffer_store_format_xy",
                &[(Field::Vdata, 8), (Field::Dfmt, 5), (Field::Nfmt, 5)],
            ),
            0,
            [(-40000i32) as u32, 7, 0, 0],
        );
        assert_eq!(&m[..4], &[0x00, 0x80, 7, 0], "{gen}");
    }
}

/// VGPR indexing (GcnInstrsSopc.md S_SET_GPR_IDX_ON, GCN 1.2+): with SRC0
/// indexing on, `v_mov_b32 v0, v1` reads v[1 + M0[7:0]]; with DST indexing the
/// destination moves instead; S_SET_GPR_IDX_OFF ends it.
#[test]
fn gpr_indexing() {
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let (_, mov) = find_by_name("v_mov_b32", gen)
            .find(|(_, o)| o.family == risa_gcn::Family::Vop1)
            .unwrap();
        let mov_e32 =
            |d: u32, s: u32| 0x7e00_0000 | d << 17 | u32::from(mov.opcode(gen).unwrap()) << 9 | s;
        let (_, off) = find_by_name("s_set_gpr_idx_off", gen).next().unwrap();
        let off_w = 0xbf80_0000 | u32::from(off.opcode(gen).unwrap()) << 16;
        for (mode, want_v0, want_v4) in [(1u32, 14u32, 0u32), (8, 0, 1)] {
            let mut words = enc_sop2(gen, "s_set_gpr_idx_on", 0, 2, mode);
            words.push(mov_e32(0, 257)); // v_mov_b32 v0, v1
            words.push(off_w);
            words.push(mov_e32(5, 258)); // v_mov_b32 v5, v2 (indexing off again)
            let w = run(gen, &words, MODE_DENORM, |w| {
                w.s[2] = 4;
                for r in 0..8 {
                    w.v[r][0] = 9 + r as u32;
                }
                w.v[0][0] = 0;
                w.v[4][0] = 0;
                w.v[1][0] = 1;
            });
            assert_eq!(w.v[0][0], want_v0, "{gen} mode {mode}: v0");
            if mode == 8 {
                assert_eq!(w.v[4][0], want_v4, "{gen}: dst indexed to v4");
            }
            assert_eq!(w.v[5][0], 11, "{gen}: indexing off after s_set_gpr_idx_off");
        }
    }
}
