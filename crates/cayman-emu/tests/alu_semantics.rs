//! Per-instruction semantics with edge values. Expected values come from the
//! instruction descriptions of chapter 8.2 of AMD's HD 6900 ISA guide (cited
//! per case) or from IEEE-754 where the guide says "IEEE".

use risa_cayman_emu::alu::{exec_slot, kill_test, pred_set, Lanes, Sem, LANES};

/// The semantics the ALU row `name` names in the table.
fn sem(name: &str) -> Sem {
    risa_cayman::ops::alu_sem(name).expect(name)
}

const NAN: u32 = 0x7fc0_0000;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const NZERO: u32 = 0x8000_0000;
const DENORM: u32 = 0x0000_0001;
const ONE: u32 = 0x3f80_0000;

fn run(name: &str, a: u32, b: u32, c: u32) -> u32 {
    let s: [Lanes; 3] = [[a; LANES], [b; LANES], [c; LANES]];
    let mut o = [0u32; LANES];
    assert!(exec_slot(sem(name), &s, &mut o), "{name} not per-slot");
    o[0]
}
fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn legacy_vs_ieee_multiply() {
    // 8.2 MUL: "Zero times anything equals zero"; MUL_IEEE: IEEE rules for 0*anything
    assert_eq!(run("MUL", 0, INF, 0), 0);
    assert_eq!(run("MUL", NAN, 0, 0), 0);
    assert_eq!(run("MUL_IEEE", 0, INF, 0) & 0x7fc0_0000, NAN);
    assert_eq!(run("MUL", f(3.0), f(-2.0), 0), f(-6.0));
    // MULADD (legacy) vs MULADD_IEEE: 0*inf + 1 = 1 vs NaN
    assert_eq!(run("MULADD", 0, INF, ONE), ONE);
    assert!(f32::from_bits(run("MULADD_IEEE", 0, INF, ONE)).is_nan());
    // MULADD_M2/M4/D2: the modifier is part of the opcode (4.9.1)
    assert_eq!(run("MULADD_M2", f(1.5), f(2.0), f(1.0)), f(8.0));
    assert_eq!(run("MULADD_M4", f(1.5), f(2.0), f(1.0)), f(16.0));
    assert_eq!(run("MULADD_D2", f(1.5), f(2.0), f(1.0)), f(2.0));
}

#[test]
fn denormals_flush_and_signed_zero() {
    // denormal inputs are treated as zero (the guide's ADD_64/MUL_64 tables: denorm rows = ±0)
    assert_eq!(run("ADD", DENORM, 0, 0), 0);
    assert_eq!(run("MUL_IEEE", DENORM, f(1.0e30), 0), 0);
    assert_eq!(run("ADD", NZERO, NZERO, 0), NZERO);
    assert_eq!(run("ADD", NZERO, 0, 0), 0);
    assert_eq!(run("ADD", INF, NINF, 0) & 0x7fc0_0000, NAN);
}

#[test]
fn min_max_nan_rules() {
    // 8.2 MAX_DX10/MIN_DX10: a NaN operand yields the other operand
    assert_eq!(run("MAX_DX10", NAN, f(1.0), 0), f(1.0));
    assert_eq!(run("MAX_DX10", f(1.0), NAN, 0), f(1.0));
    assert_eq!(run("MIN_DX10", NAN, f(-1.0), 0), f(-1.0));
    assert_eq!(run("MAX", f(2.0), f(1.0), 0), f(2.0));
    assert_eq!(run("MIN", f(2.0), f(1.0), 0), f(1.0));
}

#[test]
fn set_compares() {
    // SETcc: 1.0f / 0.0f; SETcc_DX10 and _INT/_UINT: 0xFFFFFFFF / 0
    assert_eq!(run("SETGT", f(2.0), f(1.0), 0), ONE);
    assert_eq!(run("SETE", NAN, NAN, 0), 0);
    assert_eq!(run("SETNE", NAN, NAN, 0), ONE);
    assert_eq!(run("SETGE_DX10", f(1.0), f(1.0), 0), u32::MAX);
    assert_eq!(run("SETGT_INT", u32::MAX, 0, 0), 0);
    assert_eq!(run("SETGT_UINT", u32::MAX, 0, 0), u32::MAX);
    assert_eq!(run("SETE", 0, NZERO, 0), ONE);
}

#[test]
fn shifts_at_and_beyond_width() {
    // 8.2 LSHL_INT/LSHR_INT (table 4.4): "If src1 is > 31, the result is 0x0"
    assert_eq!(run("LSHL_INT", 1, 31, 0), 0x8000_0000);
    assert_eq!(run("LSHL_INT", 1, 32, 0), 0);
    assert_eq!(run("LSHR_INT", u32::MAX, 33, 0), 0);
    // ASHR_INT uses the low 5 bits of src1 (table 4.4)
    assert_eq!(run("ASHR_INT", 0x8000_0000, 31, 0), u32::MAX);
    assert_eq!(run("ASHR_INT", 0x8000_0000, 32, 0), 0x8000_0000);
}

#[test]
fn integer_ops() {
    assert_eq!(run("ADD_INT", u32::MAX, 1, 0), 0);
    assert_eq!(run("SUB_INT", 0, 1, 0), u32::MAX);
    // 8.2 ADDC_UINT: carry out; SUBB_UINT: src1 > src0
    assert_eq!(run("ADDC_UINT", u32::MAX, 1, 0), 1);
    assert_eq!(run("ADDC_UINT", u32::MAX, 0, 0), 0);
    assert_eq!(run("SUBB_UINT", 1, 2, 0), 1);
    assert_eq!(run("MULLO_INT", 0x1_0001, 0x1_0001, 0), 0x2_0001);
    assert_eq!(run("MULHI_INT", 0x8000_0000, 2, 0), u32::MAX);
    assert_eq!(run("MULHI_UINT", 0x8000_0000, 2, 0), 1);
    // 8.2 MUL_UINT24 / MULHI_UINT24: bits [31:24] ignored; high 16 of the 48-bit product
    assert_eq!(run("MUL_UINT24", 0xff00_0002, 3, 0), 6);
    assert_eq!(run("MULHI_UINT24", 0xff_ffff, 0xff_ffff, 0), 0xffff); // 0xffff_fe00_0001 >> 32
    assert_eq!(run("MULADD_UINT24", 0xff00_0002, 3, 10), 16);
    assert_eq!(run("MAX_INT", u32::MAX, 0, 0), 0);
    assert_eq!(run("MAX_UINT", u32::MAX, 0, 0), u32::MAX);
}

#[test]
fn bitfields() {
    // 8.2 BFE_UINT: width 0 → 0; offset+width ≥ 32 → src0 >> offset
    assert_eq!(run("BFE_UINT", 0xabcd_1234, 8, 8), 0x12);
    assert_eq!(run("BFE_UINT", 0xabcd_1234, 8, 0), 0);
    assert_eq!(run("BFE_UINT", 0xabcd_1234, 28, 8), 0xa);
    assert_eq!(run("BFE_INT", 0x0000_0f00, 8, 4), u32::MAX);
    // 8.2 BFM_INT: ((1 << width) - 1) << offset
    assert_eq!(run("BFM_INT", 4, 8, 0), 0xf00);
    // 8.2 BFI_INT: (src1 & src0) | (src2 & ~src0)
    assert_eq!(run("BFI_INT", 0xff00, 0x1234, 0xabcd), 0x12cd);
    // 8.2 BIT_ALIGN_INT: ({src0, src1} >> src2[4:0]); BYTE_ALIGN_INT: >> 8*src2[1:0]
    assert_eq!(run("BIT_ALIGN_INT", 0x1, 0x0, 4), 0x1000_0000);
    assert_eq!(run("BYTE_ALIGN_INT", 0x11, 0x2233_4455, 1), 0x1122_3344);
    // 8.2 FFBH_UINT / FFBL_INT: -1 when no bit is set; FFBH_INT on -1 → -1
    assert_eq!(run("FFBH_UINT", 0, 0, 0), u32::MAX);
    assert_eq!(run("FFBH_UINT", 1, 0, 0), 31);
    assert_eq!(run("FFBL_INT", 0, 0, 0), u32::MAX);
    assert_eq!(run("FFBL_INT", 8, 0, 0), 3);
    assert_eq!(run("FFBH_INT", u32::MAX, 0, 0), u32::MAX);
    assert_eq!(run("FFBH_INT", 0xf000_0000, 0, 0), 4);
    assert_eq!(run("BCNT_INT", 0xf0f0, 0, 0), 8);
    assert_eq!(run("BFREV_INT", 1, 0, 0), 0x8000_0000);
}

#[test]
fn conversions() {
    // 8.2 FLT_TO_INT: NaN → 0, truncation
    assert_eq!(run("FLT_TO_INT", NAN, 0, 0), 0);
    assert_eq!(run("FLT_TO_INT", f(-2.7), 0, 0), (-2i32) as u32);
    // 8.2 FLT_TO_UINT: magnitudes too large saturate to max_uint; Inf → max_uint
    assert_eq!(run("FLT_TO_UINT", INF, 0, 0), u32::MAX);
    assert_eq!(run("FLT_TO_UINT", f(5.0e9), 0, 0), u32::MAX);
    assert_eq!(run("FLT_TO_UINT", f(-1.0), 0, 0), 0);
    assert_eq!(run("INT_TO_FLT", u32::MAX, 0, 0), f(-1.0));
    assert_eq!(run("UINT_TO_FLT", u32::MAX, 0, 0), f(4294967296.0));
    assert_eq!(run("UBYTE2_FLT", 0x00ab_0000, 0, 0), f(171.0));
    assert_eq!(run("FLT16_TO_FLT32", 0x3c00, 0, 0), ONE);
    assert_eq!(run("FLT32_TO_FLT16", f(65504.0), 0, 0), 0x7bff);
    assert_eq!(run("FLT32_TO_FLT16", f(1.0e6), 0, 0), 0x7c00);
}

#[test]
fn rounding_ops() {
    // 8.2 RNDNE: ties to even; FRACT = src0 - floor(src0); TRUNC/FLOOR/CEIL
    assert_eq!(run("RNDNE", f(2.5), 0, 0), f(2.0));
    assert_eq!(run("RNDNE", f(3.5), 0, 0), f(4.0));
    assert_eq!(run("RNDNE", f(-2.5), 0, 0), f(-2.0));
    assert_eq!(run("FRACT", f(-0.25), 0, 0), f(0.75));
    assert_eq!(run("TRUNC", f(-1.5), 0, 0), f(-1.0));
    assert_eq!(run("FLOOR", f(-1.5), 0, 0), f(-2.0));
    assert_eq!(run("CEIL", f(-1.5), 0, 0), f(-1.0));
}

#[test]
fn transcendentals() {
    // 8.2 RECIP_IEEE: IEEE reciprocal; RECIP_FF: infinity replaced by zero;
    // RECIP_CLAMPED: clamped to ±max float
    assert_eq!(run("RECIP_IEEE", 0, 0, 0), INF);
    assert_eq!(run("RECIP_IEEE", NZERO, 0, 0), NINF);
    assert_eq!(run("RECIP_FF", 0, 0, 0), 0);
    assert_eq!(run("RECIP_CLAMPED", 0, 0, 0), f(f32::MAX));
    assert_eq!(run("RECIP_IEEE", f(4.0), 0, 0), f(0.25));
    assert_eq!(run("RECIPSQRT_IEEE", f(4.0), 0, 0), f(0.5));
    assert_eq!(run("RECIPSQRT_IEEE", 0, 0, 0), INF);
    assert_eq!(run("SQRT_IEEE", f(-1.0), 0, 0) & 0x7fc0_0000, NAN);
    assert_eq!(run("EXP_IEEE", f(3.0), 0, 0), f(8.0));
    assert_eq!(run("LOG_IEEE", f(8.0), 0, 0), f(3.0));
    assert_eq!(run("LOG_IEEE", 0, 0, 0), NINF);
    assert_eq!(run("LOG_CLAMPED", 0, 0, 0), f(-f32::MAX));
    // SIN/COS take the angle in revolutions (see docs): sin(2π·0.25) = 1
    assert_eq!(run("SIN", f(0.25), 0, 0), ONE);
    assert_eq!(run("COS", 0, 0, 0), ONE);
}

#[test]
fn conditional_moves() {
    // 8.2 CNDE/CNDGT/CNDGE compare src0 with 0.0; _INT with 0
    assert_eq!(run("CNDE", NZERO, 1, 2), 1);
    assert_eq!(run("CNDGT", NAN, 1, 2), 2);
    assert_eq!(run("CNDGE_INT", u32::MAX, 1, 2), 2);
    assert_eq!(run("CNDE_INT", 0, 1, 2), 1);
}

#[test]
fn predicate_sets() {
    use risa_cayman_emu::alu::Sem;
    // 8.2 PRED_SETE: dst = 0.0 and execute when equal, else 1.0 and skip
    let s = sem("PRED_SETE");
    assert_eq!(pred_set(s, ONE, ONE), (0, true));
    assert_eq!(pred_set(s, ONE, 0), (ONE, false));
    assert_eq!(pred_set(sem("PRED_SETGT_UINT"), u32::MAX, 0), (0, true));
    assert_eq!(pred_set(sem("PRED_SETGT_INT"), u32::MAX, 0), (ONE, false));
    // 8.2 PRED_SET_INV: 1.0 → 0.0 execute; 0.0 → 1.0 skip; other → itself, skip
    assert_eq!(pred_set(Sem::PredSetInv, ONE, 0), (0, true));
    assert_eq!(pred_set(Sem::PredSetInv, 0, 0), (ONE, false));
    assert_eq!(pred_set(Sem::PredSetInv, f(5.0), 0), (f(5.0), false));
    // 8.2 PRED_SET_POP: src0 <= src1 → 0.0 execute, else src0 - src1
    assert_eq!(pred_set(Sem::PredSetPop, f(3.0), f(1.0)), (f(2.0), false));
    assert_eq!(pred_set(Sem::PredSetPop, f(1.0), f(1.0)), (0, true));
    // 8.2 PRED_SET_RESTORE: 0.0 → execute
    assert_eq!(pred_set(Sem::PredSetRestore, 0, 0), (0, true));
}

#[test]
fn float_to_int_rounding_forms() {
    // 8.2 FLT_TO_INT_FLOOR: floor; inf & NaN -> max_int, -inf & -NaN -> -max_int; 0 & -0 -> 0
    assert_eq!(run("FLT_TO_INT_FLOOR", f(-1.5), 0, 0), (-2i32) as u32);
    assert_eq!(run("FLT_TO_INT_FLOOR", f(2.9), 0, 0), 2);
    assert_eq!(run("FLT_TO_INT_FLOOR", NAN, 0, 0), i32::MAX as u32);
    assert_eq!(run("FLT_TO_INT_FLOOR", NAN | NZERO, 0, 0), i32::MIN as u32);
    assert_eq!(run("FLT_TO_INT_FLOOR", NINF, 0, 0), i32::MIN as u32);
    assert_eq!(run("FLT_TO_INT_FLOOR", NZERO, 0, 0), 0);
    // 8.2 FLT_TO_INT_RPI: (int)floor(src0 + 0.5), same special cases
    assert_eq!(run("FLT_TO_INT_RPI", f(2.5), 0, 0), 3);
    assert_eq!(run("FLT_TO_INT_RPI", f(-2.5), 0, 0), (-2i32) as u32);
    assert_eq!(run("FLT_TO_INT_RPI", INF, 0, 0), i32::MAX as u32);
    // 8.2 FLT_TO_INT: truncation; NaN -> 0
    assert_eq!(run("FLT_TO_INT", f(-2.7), 0, 0), (-2i32) as u32);
    assert_eq!(run("FLT_TO_INT", NAN, 0, 0), 0);
}

#[test]
fn bitwise_and_integer_min_max() {
    // 8.2 AND_INT, OR_INT, XOR_INT, NOT_INT, MIN_INT, MIN_UINT
    assert_eq!(run("AND_INT", 0xf0f0, 0xff00, 0), 0xf000);
    assert_eq!(run("OR_INT", 0xf0f0, 0xff00, 0), 0xfff0);
    assert_eq!(run("XOR_INT", 0xf0f0, 0xff00, 0), 0x0ff0);
    assert_eq!(run("NOT_INT", 0xf0f0, 0, 0), !0xf0f0);
    assert_eq!(run("MIN_INT", u32::MAX, 1, 0), u32::MAX);
    assert_eq!(run("MIN_UINT", u32::MAX, 1, 0), 1);
}

#[test]
fn twenty_four_bit_multiplies() {
    // 8.2 MUL_INT24: signed 24-bit operands (bits 31:24 ignored), low 32 bits of the product;
    // MULHI_INT24: the bits above them; MULADD_INT24 adds src2
    assert_eq!(run("MUL_INT24", 0x7f_ff_ff_ff, 2, 0), (-2i32) as u32);
    assert_eq!(run("MULHI_INT24", 0x00ff_ffff, 2, 0), u32::MAX);
    // (2^23 - 1)^2 = 2^46 - 2^24 + 1: bits 47:32 are 0x3fff
    assert_eq!(run("MULHI_INT24", 0x007f_ffff, 0x007f_ffff, 0), 0x3fff);
    assert_eq!(run("MULADD_INT24", 0x00ff_ffff, 3, 10), 7);
    assert_eq!(run("MUL_UINT24", 0xff00_0003, 5, 0), 15);
}

#[test]
fn predicate_counter_ops() {
    // 8.2 PRED_SET_INV: 1.0 -> 0.0 execute; 0.0 -> 1.0 skip; else src0 skip
    assert_eq!(pred_set(sem("PRED_SET_INV"), f(1.0), 0), (0, true));
    assert_eq!(pred_set(sem("PRED_SET_INV"), 0, 0), (f(1.0), false));
    assert_eq!(pred_set(sem("PRED_SET_INV"), f(3.0), 0), (f(3.0), false));
    // PRED_SET_POP: src0 <= src1 -> 0.0 execute, else src0 - src1 skip
    assert_eq!(pred_set(sem("PRED_SET_POP"), f(2.0), f(3.0)), (0, true));
    assert_eq!(
        pred_set(sem("PRED_SET_POP"), f(5.0), f(3.0)),
        (f(2.0), false)
    );
    // PRED_SET_CLR: +MAX_FLOAT, skip
    assert_eq!(pred_set(sem("PRED_SET_CLR"), 0, 0), (f(f32::MAX), false));
    // PRED_SET_RESTORE: 0.0 -> execute, else src0 skip
    assert_eq!(pred_set(sem("PRED_SET_RESTORE"), 0, 0), (0, true));
    assert_eq!(
        pred_set(sem("PRED_SET_RESTORE"), f(4.0), 0),
        (f(4.0), false)
    );
    // PRED_SETE_PUSH: src0 == 0.0 and src1 == 0 -> 0.0 execute, else src0 + 1.0 skip
    assert_eq!(pred_set(sem("PRED_SETE_PUSH"), 0, 0), (0, true));
    assert_eq!(pred_set(sem("PRED_SETE_PUSH"), f(1.0), 0), (f(2.0), false));
    // PRED_SETGT_PUSH_INT: src0 == 0.0 and src1 > 0 -> execute
    assert_eq!(pred_set(sem("PRED_SETGT_PUSH_INT"), 0, 5), (0, true));
    assert_eq!(
        pred_set(sem("PRED_SETGT_PUSH_INT"), 0, (-5i32) as u32),
        (f(1.0), false)
    );
}

#[test]
fn byte_lerp_and_sad() {
    // 8.2 LERP_UINT: per byte (a + b + src2 bit) >> 1
    assert_eq!(
        run("LERP_UINT", 0x0102_0304, 0x0304_0506, 0x0101_0101),
        0x0203_0405
    );
    assert_eq!(run("LERP_UINT", 0x0000_0001, 0x0000_0002, 0), 0x0000_0001);
    // SAD_ACCUM_UINT: sum of |byte differences| + src2; _HI puts the SAD in bits 31:16
    assert_eq!(
        run("SAD_ACCUM_UINT", 0x0a00_0005, 0x0000_0a01, 100),
        100 + 10 + 10 + 4
    );
    assert_eq!(run("SAD_ACCUM_HI_UINT", 0x0000_0005, 0, 1), (5 << 16) + 1);
}

/// Every compare family of 8.2 over edge pairs: SETcc (1.0/0.0), SETcc_DX10
/// and SETcc_INT/UINT (~0/0), PRED_SETcc* (0.0 and execute / 1.0 and skip),
/// KILLcc* (1.0/0.0; the kill itself is ignored in compute programs).
#[test]
fn every_compare_family() {
    let fl = [0u32, NZERO, ONE, f(-1.0), f(2.5), NAN, INF, NINF, DENORM];
    let ints = [0u32, 1, u32::MAX, 0x7fff_ffff, 0x8000_0000, 5];
    type Cmp = fn(std::cmp::Ordering) -> bool;
    let conds: [(&str, Cmp); 4] = [
        ("E", |o| o.is_eq()),
        ("GT", |o| o.is_gt()),
        ("GE", |o| o.is_ge()),
        ("NE", |o| o.is_ne()),
    ];
    let fcmp = |a: u32, b: u32| -> Option<std::cmp::Ordering> {
        // denormals compare as zero
        let z = |x: u32| {
            if x & 0x7f80_0000 == 0 {
                0.0
            } else {
                f32::from_bits(x)
            }
        };
        z(a).partial_cmp(&z(b))
    };
    for (cc, test) in conds {
        for &a in &fl {
            for &b in &fl {
                // NaN: only NE holds
                let t = fcmp(a, b).map_or(cc == "NE", test);
                let what = format!("{cc}({a:#x}, {b:#x})");
                assert_eq!(
                    run(&format!("SET{cc}"), a, b, 0),
                    if t { ONE } else { 0 },
                    "SET{what}"
                );
                assert_eq!(
                    run(&format!("SET{cc}_DX10"), a, b, 0),
                    if t { u32::MAX } else { 0 },
                    "DX10 {what}"
                );
                assert_eq!(
                    pred_set(sem(&format!("PRED_SET{cc}")), a, b),
                    if t { (0, true) } else { (ONE, false) },
                    "PRED_SET{what}"
                );
                assert_eq!(kill_test(sem(&format!("KILL{cc}")), a, b), t, "KILL{what}");
            }
        }
        for &a in &ints {
            for &b in &ints {
                let ti = test((a as i32).cmp(&(b as i32)));
                let tu = test(a.cmp(&b));
                let what = format!("{cc}({a:#x}, {b:#x})");
                let names = [("INT", ti), ("UINT", tu)];
                for (ty, t) in names {
                    if !(cc == "E" || cc == "NE") || ty == "INT" {
                        assert_eq!(
                            run(&format!("SET{cc}_{ty}"), a, b, 0),
                            if t { u32::MAX } else { 0 },
                            "SET{what}_{ty}"
                        );
                        assert_eq!(
                            pred_set(sem(&format!("PRED_SET{cc}_{ty}")), a, b),
                            if t { (0, true) } else { (ONE, false) },
                            "PRED_SET{what}_{ty}"
                        );
                        assert_eq!(
                            kill_test(sem(&format!("KILL{cc}_{ty}")), a, b),
                            t,
                            "KILL{what}_{ty}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn remaining_one_source_rows() {
    // 8.2 RECIPSQRT_CLAMPED: +inf result -> +MAX_FLOAT; RECIPSQRT_FF: -> +0
    assert_eq!(run("RECIPSQRT_CLAMPED", 0, 0, 0), f(f32::MAX));
    assert_eq!(run("RECIPSQRT_FF", 0, 0, 0), 0);
    assert_eq!(run("RECIPSQRT_CLAMPED", f(4.0), 0, 0), f(0.5));
    assert_eq!(run("RECIPSQRT_FF", ONE, 0, 0), ONE);
    // UBYTEn_FLT: byte n as an unsigned float
    assert_eq!(run("UBYTE0_FLT", 0x0403_02ff, 0, 0), f(255.0));
    assert_eq!(run("UBYTE1_FLT", 0x0403_02ff, 0, 0), f(2.0));
    assert_eq!(run("UBYTE3_FLT", 0x8003_02ff, 0, 0), f(128.0));
    // MULLO_UINT: low 32 bits of the unsigned product
    assert_eq!(run("MULLO_UINT", 0xffff_ffff, 3, 0), 0xffff_fffd);
    // RECIP_UINT: 2^32 / x as a 0.32 fraction (8.2; 0 is undefined)
    assert_eq!(run("RECIP_UINT", 2, 0, 0), 0x8000_0000);
    assert_eq!(run("RECIP_UINT", 3, 0, 0), 0x5555_5555);
    // RECIP_INT: signed 2^32 / x
    assert_eq!(run("RECIP_INT", (-2i32) as u32, 0, 0), 0x8000_0000);
    assert_eq!(run("RECIP_INT", 4, 0, 0), 0x4000_0000);
    // CNDGE (float) and CNDGT_INT
    assert_eq!(run("CNDGE", NZERO, 1, 2), 1);
    assert_eq!(run("CNDGE", f(-1.0), 1, 2), 2);
    assert_eq!(run("CNDGT_INT", 1, 1, 2), 1);
    assert_eq!(run("CNDGT_INT", 0, 1, 2), 2);
}

#[test]
fn pred_set_push_families() {
    // 8.2 PRED_SETcc_PUSH(_INT): if (src1 cc 0) and (src0 == 0.0): 0.0, execute;
    // else src0 + 1.0, skip
    type Test = fn(i32) -> bool;
    let cases: [(&str, Test); 8] = [
        ("PRED_SETGT_PUSH", |v| v > 0),
        ("PRED_SETGE_PUSH", |v| v >= 0),
        ("PRED_SETNE_PUSH", |v| v != 0),
        ("PRED_SETE_PUSH_INT", |v| v == 0),
        ("PRED_SETGE_PUSH_INT", |v| v >= 0),
        ("PRED_SETNE_PUSH_INT", |v| v != 0),
        ("PRED_SETLT_PUSH_INT", |v| v < 0),
        ("PRED_SETLE_PUSH_INT", |v| v <= 0),
    ];
    for (name, t) in cases {
        let float = !name.ends_with("_INT");
        for v in [-3i32, 0, 4] {
            let src1 = if float { f(v as f32) } else { v as u32 };
            let want = if t(v) { (0, true) } else { (ONE, false) };
            assert_eq!(pred_set(sem(name), 0, src1), want, "{name}(0, {v})");
            // a non-zero counter always skips and counts up
            assert_eq!(
                pred_set(sem(name), f(2.0), src1),
                (f(3.0), false),
                "{name}(2, {v})"
            );
        }
    }
}

#[test]
fn fma_rounds_once() {
    // 8.2 FMA: single rounding of src0 * src1 + src2
    let (a, b, c) = (1.0 + f32::EPSILON, 1.0 - f32::EPSILON, -1.0f32);
    assert_ne!(a.mul_add(b, c), a * b + c);
    assert_eq!(run("FMA", f(a), f(b), f(c)), f(a.mul_add(b, c)));
    // _ALT rows compute what their base rows do
    assert_eq!(sem("MUL_64_ALT"), sem("MUL_64"));
    assert_eq!(sem("FLT64_TO_FLT32_ALT"), sem("FLT64_TO_FLT32"));
    assert_eq!(sem("FLT32_TO_FLT64_ALT"), sem("FLT32_TO_FLT64"));
}
