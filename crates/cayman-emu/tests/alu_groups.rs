//! Hand-encoded ALU groups for multi-slot instructions, with expected values
//! from the guide's worked examples and result tables (section 8.2/8.3):
//! the double-precision slot layout (ADD_64 and LDEXP_64 examples), FREXP_64
//! (table 8.5), the one-slot double transcendentals, FLT_TO_UINT4, CUBE,
//! the `_PREV` chains (DOT, MBCNT), OFFSET_TO_FLT, MUL_LIT and KILL in a
//! compute program.

mod common;
use common::*;
use risa_cayman::fields::*;
use risa_cayman::ops::{ALU_OP2, ALU_OP3};
use risa_cayman_emu::wave::Wave;
use risa_cayman_emu::*;

fn code2(name: &str) -> u32 {
    ALU_OP2.iter().find(|o| o.name == name).expect(name).code as u32
}
fn code3(name: &str) -> u32 {
    ALU_OP3.iter().find(|o| o.name == name).expect(name).code as u32
}
fn w0(s0: (u32, u32), s1: (u32, u32), last: bool) -> u32 {
    let mut w = 0;
    ALU_WORD0::SRC0_SEL.set(&mut w, s0.0);
    ALU_WORD0::SRC0_CHAN.set(&mut w, s0.1);
    ALU_WORD0::SRC1_SEL.set(&mut w, s1.0);
    ALU_WORD0::SRC1_CHAN.set(&mut w, s1.1);
    ALU_WORD0::LAST.set(&mut w, last as u32);
    w
}
/// OP2 `name` writing GPR `dst` in slot `chan`.
fn op2(name: &str, dst: u32, chan: u32, s0: (u32, u32), s1: (u32, u32), last: bool) -> [u32; 2] {
    let mut w1 = 0;
    ALU_WORD1_OP2::WRITE_MASK.set(&mut w1, 1);
    ALU_WORD1_OP2::ALU_INST.set(&mut w1, code2(name));
    ALU_WORD1_OP2::DST_GPR.set(&mut w1, dst);
    ALU_WORD1_OP2::DST_CHAN.set(&mut w1, chan);
    [w0(s0, s1, last), w1]
}
#[allow(clippy::too_many_arguments)]
fn op3(
    name: &str,
    dst: u32,
    chan: u32,
    s0: (u32, u32),
    s1: (u32, u32),
    s2: (u32, u32),
    last: bool,
) -> [u32; 2] {
    let mut w1 = 0;
    ALU_WORD1_OP3::SRC2_SEL.set(&mut w1, s2.0);
    ALU_WORD1_OP3::SRC2_CHAN.set(&mut w1, s2.1);
    ALU_WORD1_OP3::ALU_INST.set(&mut w1, code3(name));
    ALU_WORD1_OP3::DST_GPR.set(&mut w1, dst);
    ALU_WORD1_OP3::DST_CHAN.set(&mut w1, chan);
    [w0(s0, s1, last), w1]
}

/// CF: ALU clause of the given instructions at slot 2, END at slot 1.
fn run_group(instrs: &[[u32; 2]], setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    run_group_lds(instrs, setup, &mut [0u32; 16])
}

fn run_group_lds(
    instrs: &[[u32; 2]],
    setup: impl Fn(&mut Wave),
    lds: &mut [u32],
) -> Result<Wave, Fault> {
    let mut w = vec![2, ((instrs.len() as u32 - 1) << 18) | (8 << 26) | (1 << 31)];
    w.extend([0, (32 << 22) | (1 << 31)]);
    for i in instrs {
        w.extend(i);
    }
    let k = kernel_from_words(&w);
    let pool = Pool::new(64);
    let cb = vec![vec![0u32; 64]];
    let gds = Pool::new(64);
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut wave = Wave::new(u64::MAX, [0; 3], 0, 1000);
    setup(&mut wave);
    wave.run(&env, lds)?;
    Ok(wave)
}
fn set(w: &mut Wave, r: usize, c: usize, v: u32) {
    w.gpr_mut(r, c).fill(v);
}
fn get(w: &Wave, r: usize, c: usize) -> u32 {
    let v = w.gpr(r, c)[0];
    assert!(w.gpr(r, c).iter().all(|&x| x == v), "lanes differ");
    v
}

#[test]
fn add_64_guide_example_slot_layout() {
    // guide 8.2 ADD_64 example: X/Z slots take the high dwords, Y/W the low;
    // results: X/Z = low dword, Y/W = high dword. 3 + 6 = 9, 6 + 12 = 18.
    let g = [
        op2("ADD_64", 5, 0, (0, 0), (1, 0), false),
        op2("ADD_64", 5, 1, (0, 1), (1, 1), false),
        op2("ADD_64", 5, 2, (2, 0), (3, 0), false),
        op2("ADD_64", 5, 3, (2, 1), (3, 1), true),
    ];
    let w = run_group(&g, |w| {
        for (r, hi) in [
            (0, 0x4008_0000),
            (1, 0x4018_0000),
            (2, 0x4018_0000),
            (3, 0x4028_0000),
        ] {
            set(w, r, 0, hi);
            set(w, r, 1, 0);
        }
    })
    .unwrap();
    assert_eq!(
        [0, 1, 2, 3].map(|c| get(&w, 5, c)),
        [0, 0x4022_0000, 0, 0x4032_0000]
    );
}

#[test]
fn ldexp_64_guide_example() {
    // guide 8.2 LDEXP_64 example: 0x47F000006FC6A731 * 2^0x2C6 and
    // 0xC7EFFFFEE072B19F * 2^0x15E; exponent in the X/Z slot's src0,
    // double in src1 (X/Z high, Y/W low)
    let g = [
        op2("LDEXP_64", 5, 0, (2, 0), (0, 0), false),
        op2("LDEXP_64", 5, 1, (2, 0), (0, 1), false),
        op2("LDEXP_64", 5, 2, (2, 1), (1, 0), false),
        op2("LDEXP_64", 5, 3, (2, 1), (1, 1), true),
    ];
    let w = run_group(&g, |w| {
        set(w, 0, 0, 0x47F0_0000);
        set(w, 0, 1, 0x6FC6_A731);
        set(w, 1, 0, 0xC7EF_FFFE);
        set(w, 1, 1, 0xE072_B19F);
        set(w, 2, 0, 0x2C6);
        set(w, 2, 1, 0x15E);
    })
    .unwrap();
    assert_eq!(
        [0, 1, 2, 3].map(|c| get(&w, 5, c)),
        [0x6FC6_A731, 0x7450_0000, 0xE072_B19F, 0xDDCF_FFFE]
    );
}

#[test]
fn frexp_64_table() {
    // guide table 8.5: exponent to X and Y, fraction (low, high) to Z, W
    let cases: [(u64, u64, u32); 5] = [
        (6.0f64.to_bits(), 0.75f64.to_bits(), 3),
        ((-0.3f64).to_bits(), (-0.6f64).to_bits(), (-1i32) as u32),
        (f64::INFINITY.to_bits(), 0xFFF8_0000_0000_0000, u32::MAX),
        ((-0.0f64).to_bits(), (-0.0f64).to_bits(), 0),
        (1, 0, 0), // denormal
    ];
    for (v, frac, exp) in cases {
        let g = [
            op2("FREXP_64", 5, 0, (0, 0), (0, 0), false),
            op2("FREXP_64", 5, 1, (0, 1), (0, 0), false),
            op2("FREXP_64", 5, 2, (0, 0), (0, 0), false),
            op2("FREXP_64", 5, 3, (0, 0), (0, 0), true),
        ];
        let w = run_group(&g, |w| {
            set(w, 0, 0, (v >> 32) as u32);
            set(w, 0, 1, v as u32);
        })
        .unwrap();
        assert_eq!(
            [0, 1, 2, 3].map(|c| get(&w, 5, c)),
            [exp, exp, frac as u32, (frac >> 32) as u32],
            "frexp({})",
            f64::from_bits(v)
        );
    }
}

#[test]
fn one_slot_double_transcendentals() {
    // guide 8.2 RECIP_64 ...: src0 = high dword, src1 = low dword, result = high dword
    let run1 = |name: &str, v: f64| -> u32 {
        let g = [op2(name, 5, 0, (0, 0), (0, 1), true)];
        let w = run_group(&g, |w| {
            set(w, 0, 0, (v.to_bits() >> 32) as u32);
            set(w, 0, 1, v.to_bits() as u32);
        })
        .unwrap();
        get(&w, 5, 0)
    };
    let hi = |v: f64| (v.to_bits() >> 32) as u32;
    assert_eq!(run1("RECIP_64", 4.0), hi(0.25));
    assert_eq!(run1("RECIP_64", 1.0), hi(1.0));
    assert_eq!(run1("RECIP_64", 0.0), hi(f64::INFINITY));
    assert_eq!(run1("RECIP_CLAMPED_64", -0.0), hi(-f64::MAX));
    assert_eq!(run1("RECIPSQRT_64", 4.0), hi(0.5));
    assert_eq!(run1("RECIPSQRT_CLAMPED_64", 0.0), hi(f64::MAX));
    assert_eq!(run1("SQRT_64", 16.0), hi(4.0));
    assert_eq!(run1("SQRT_64", 2.0), hi(2f64.sqrt()));
}

#[test]
fn flt_to_uint4_packs_the_four_slots() {
    // guide 8.2 FLT_TO_UINT4: bytes of flt_to_uint(src0.x .. src0.w), replicated
    let g = [
        op2("FLT_TO_UINT4", 5, 0, (0, 0), (0, 0), false),
        op2("FLT_TO_UINT4", 5, 1, (0, 1), (0, 0), false),
        op2("FLT_TO_UINT4", 5, 2, (0, 2), (0, 0), false),
        op2("FLT_TO_UINT4", 5, 3, (0, 3), (0, 0), true),
    ];
    let w = run_group(&g, |w| {
        for (c, v) in [1.0f32, 2.9, 300.0, 255.5].iter().enumerate() {
            set(w, 0, c, v.to_bits());
        }
    })
    .unwrap();
    assert_eq!([0, 1, 2, 3].map(|c| get(&w, 5, c)), [0xFF2C_0201; 4]);
}

#[test]
fn cube_selects_face_and_coordinates() {
    // guide 8.2 CUBE: src0 = R.zzxy, src1 = R.yxzz; result (T, S, 2*major, face)
    // (face order and S/T as the OpenGL cube-map table: +X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5)
    let cases = [
        ([3.0f32, 1.0, -2.0], [-1.0f32, 2.0, 6.0, 0.0]),
        ([-3.0, 1.0, -2.0], [-1.0, -2.0, -6.0, 1.0]),
        ([0.5, 4.0, -1.0], [-1.0, 0.5, 8.0, 2.0]),
        ([0.5, -1.0, -4.0], [1.0, -0.5, -8.0, 5.0]),
    ];
    for (v, want) in cases {
        let g = [
            op2("CUBE", 5, 0, (0, 2), (0, 1), false),
            op2("CUBE", 5, 1, (0, 2), (0, 0), false),
            op2("CUBE", 5, 2, (0, 0), (0, 2), false),
            op2("CUBE", 5, 3, (0, 1), (0, 2), true),
        ];
        let w = run_group(&g, |w| {
            for (c, x) in v.iter().enumerate() {
                set(w, 0, c, x.to_bits());
            }
        })
        .unwrap();
        assert_eq!(
            [0, 1, 2, 3].map(|c| f32::from_bits(get(&w, 5, c))),
            want,
            "cube{v:?}"
        );
    }
}

#[test]
fn dot_chain_w_to_x() {
    // guide 8.2 DOT: w is a MUL, z, y, x add src0*src1 to the next channel's result
    let g = [
        op2("DOT", 5, 0, (0, 0), (1, 0), false),
        op2("DOT", 5, 1, (0, 1), (1, 1), false),
        op2("DOT", 5, 2, (0, 2), (1, 2), false),
        op2("MUL", 5, 3, (0, 3), (1, 3), true),
    ];
    let (a, b) = ([1.0f32, 2.0, 3.0, 4.0], [5.0f32, 6.0, 7.0, 8.0]);
    let w = run_group(&g, |w| {
        for c in 0..4 {
            set(w, 0, c, a[c].to_bits());
            set(w, 1, c, b[c].to_bits());
        }
    })
    .unwrap();
    assert_eq!(
        [0, 1, 2, 3].map(|c| f32::from_bits(get(&w, 5, c))),
        [70.0, 65.0, 53.0, 32.0]
    );
}

#[test]
fn mbcnt_counts_lanes_below() {
    // guide 8.2 MBCNT_32HI_INT (W) + MBCNT_32LO_ACCUM_PREV_INT (Z): with the
    // active mask as source, each lane gets the number of active lanes below it
    let g = [
        op2("MBCNT_32LO_ACCUM_PREV_INT", 5, 2, (0, 0), (0, 0), false),
        op2("MBCNT_32HI_INT", 5, 3, (0, 1), (0, 0), true),
    ];
    let w = run_group(&g, |w| {
        set(w, 0, 0, 0x5555_5555); // active mask low: even lanes
        set(w, 0, 1, 0xffff_ffff); // high: all
    })
    .unwrap();
    for l in 0..64u32 {
        let want = if l <= 32 {
            l.div_ceil(2)
        } else {
            16 + (l - 32)
        };
        assert_eq!(w.gpr(5, 2)[l as usize], want, "lane {l}");
    }
}

#[test]
fn a_prev_op_without_its_producer_faults() {
    let g = [op2("ADD_PREV", 5, 0, (0, 0), (0, 0), true)];
    let f = run_group(&g, |_| {}).err().expect("fault");
    assert_eq!(f.at.slot, Some(0), "{f}");
    assert!(f.message.contains("ADD_PREV"), "{f}");
}

#[test]
fn offset_to_flt_table() {
    // guide 8.2 OFFSET_TO_FLT: four-bit signed integer in sixteenths
    for (v, want) in [
        (0b1000u32, -0.5f32),
        (0b1111, -0.0625),
        (0, 0.0),
        (0b0111, 0.4375),
        (0x13, 0.1875),
    ] {
        let w = run_group(&[op2("OFFSET_TO_FLT", 5, 0, (0, 0), (0, 0), true)], |w| {
            set(w, 0, 0, v)
        })
        .unwrap();
        assert_eq!(f32::from_bits(get(&w, 5, 0)), want, "{v:#b}");
    }
}

#[test]
fn mul_lit_rules() {
    // guide 8.3 MUL_LIT: -MAX_FLOAT if src1 is -MAX, -inf or NaN, or src2 <= 0 or NaN
    let cases = [
        (2.0f32, 3.0f32, 1.0f32, 6.0f32),
        (0.0, f32::INFINITY, 1.0, 0.0),
        (2.0, 3.0, 0.0, -f32::MAX),
        (2.0, f32::NEG_INFINITY, 1.0, -f32::MAX),
        (2.0, 3.0, f32::NAN, -f32::MAX),
    ];
    for (a, b, c, want) in cases {
        let w = run_group(&[op3("MUL_LIT", 5, 0, (0, 0), (0, 1), (0, 2), true)], |w| {
            set(w, 0, 0, a.to_bits());
            set(w, 0, 1, b.to_bits());
            set(w, 0, 2, c.to_bits());
        })
        .unwrap();
        assert_eq!(
            f32::from_bits(get(&w, 5, 0)),
            want,
            "mul_lit({a}, {b}, {c})"
        );
    }
}

#[test]
fn kill_is_ignored_in_compute_programs() {
    // guide 8.2 KILLGT: "only a pixel shader can execute this instruction; it is
    // ignored in other program types" — the result is still 1.0 / 0.0
    let g = [
        op2("KILLGT", 5, 0, (0, 0), (0, 1), true),
        op2("MOV", 6, 0, (250, 0), (0, 0), true),
    ];
    let w = run_group(&g, |w| {
        for l in 0..64 {
            w.gpr_mut(0, 0)[l] = (l as f32).to_bits();
        }
        set(w, 0, 1, 31.5f32.to_bits());
    })
    .unwrap();
    for l in 0..64 {
        assert_eq!(
            f32::from_bits(w.gpr(5, 0)[l]),
            if l > 31 { 1.0 } else { 0.0 }
        );
        assert_eq!(w.gpr(6, 0)[l], 1, "lane {l} still runs");
    }
    assert_eq!(w.active(), u64::MAX);
}

#[test]
fn set_mode_in_a_group_of_its_own() {
    // guide 4.13.1: SET_MODE's source select fields hold the modes (the
    // rounding itself is tested in wave_state.rs); alone, mode 0 or 3,
    // it changes no register
    let ok = run_group(
        &[
            op2("SET_MODE", 0, 0, (0, 0), (0, 0), true),
            op2("MOV", 5, 0, (250, 0), (0, 0), true),
        ],
        |_| {},
    )
    .unwrap();
    assert_eq!(get(&ok, 5, 0), 1);
    let w = run_group(
        &[
            op2("SET_MODE", 0, 0, (3, 0), (0, 0), true),
            op2("MOV", 5, 0, (250, 0), (0, 0), true),
        ],
        |_| {},
    )
    .unwrap();
    assert_eq!(get(&w, 5, 0), 1);
    assert_eq!(get(&w, 0, 0), 0, "SET_MODE writes no GPR");
}

#[test]
fn lds_direct_reads_use_literal_0_for_offset_and_stride() {
    // guide 7.3.1 / 9.2 ALU_WORD1_LDS_DIRECT_LITERAL_LO/HI: lane l reads
    // LDS dword OFFSET + STRIDE * l; A from literal x, B from literal y
    let lo = 5 | (2 << 13); // OFFSET_A 5, STRIDE_A 2
    let hi = 300; // OFFSET_B 300, STRIDE_B 0 (every lane reads the same dword)
    let g = [
        op2("MOV", 5, 0, (223, 0), (0, 0), false),
        op2("MOV", 5, 1, (224, 0), (0, 0), true),
        [lo, hi],
    ];
    let mut lds: Vec<u32> = (0..512).map(|i| 1000 + i).collect();
    let w = run_group_lds(&g, |_| {}, &mut lds).unwrap();
    for l in 0..64 {
        assert_eq!(w.gpr(5, 0)[l], 1000 + 5 + 2 * l as u32, "A lane {l}");
        assert_eq!(w.gpr(5, 1)[l], 1300, "B lane {l}");
    }
    // a stride that walks off the group's LDS faults
    let mut small = vec![0u32; 64];
    let f = run_group_lds(&g, |_| {}, &mut small).err().expect("fault");
    assert!(f.message.contains("LDS direct read"), "{f}");
}

/// Runs a two-slot double op in X/Y on (a, b, c) and returns (result, pred bit of lane 0).
fn double_op(name: &str, a: f64, b: f64, c: f64, op3: bool) -> (u64, bool) {
    let (a, b, c) = (a.to_bits(), b.to_bits(), c.to_bits());
    let g = if op3 {
        [
            self::op3(name, 5, 0, (0, 0), (1, 0), (2, 0), false),
            self::op3(name, 5, 1, (0, 1), (1, 1), (2, 1), true),
        ]
    } else {
        let mut x = op2(name, 5, 0, (0, 0), (1, 0), false);
        let mut y = op2(name, 5, 1, (0, 1), (1, 1), true);
        if name.starts_with("PRED_SET") {
            // UPDATE_PRED on both slots
            ALU_WORD1_OP2::UPDATE_PRED.set(&mut x[1], 1);
            ALU_WORD1_OP2::UPDATE_PRED.set(&mut y[1], 1);
        }
        [x, y]
    };
    // then MOV T6.X, 1 with PRED_SEL = one (runs only where the predicate is set)
    let mut mv = op2("MOV", 6, 0, (250, 0), (0, 0), true);
    ALU_WORD0::PRED_SEL.set(&mut mv[0], 3);
    let w = run_group(&[g[0], g[1], mv], |w| {
        for (r, v) in [(0, a), (1, b), (2, c)] {
            set(w, r, 0, (v >> 32) as u32);
            set(w, r, 1, v as u32);
        }
    })
    .unwrap();
    let r = (get(&w, 5, 0) as u64) | ((get(&w, 5, 1) as u64) << 32);
    (r, get(&w, 6, 0) == 1)
}

#[test]
fn double_compares_give_integer_masks() {
    // guide 8.2 SETGT_64 ...: all ones if true, else 0; PRED_SETGT_64 ...: 0 and
    // execute if true, else all ones and skip
    let nan = f64::NAN;
    let cases = [(2.0, 1.0), (1.0, 2.0), (1.0, 1.0), (-0.0, 0.0), (nan, 1.0)];
    for (a, b) in cases {
        for (name, t) in [
            ("SETE_64", a == b),
            ("SETNE_64", a != b),
            ("SETGT_64", a > b),
            ("SETGE_64", a >= b),
        ] {
            let want = if t { u64::MAX } else { 0 };
            assert_eq!(
                double_op(name, a, b, 0.0, false).0,
                want,
                "{name}({a}, {b})"
            );
        }
        for (name, t) in [
            ("PRED_SETE_64", a == b),
            ("PRED_SETGT_64", a > b),
            ("PRED_SETGE_64", a >= b),
        ] {
            let (r, p) = double_op(name, a, b, 0.0, false);
            assert_eq!(r, if t { 0 } else { u64::MAX }, "{name}({a}, {b})");
            assert_eq!(p, t, "{name}({a}, {b}) predicate");
        }
    }
}

#[test]
fn double_arithmetic_against_the_guide_rules() {
    // MIN_64/MAX_64 (8.2): src0 < src1 ? src0 : src1, min(-0, +0) = -0, max(-0, +0) = +0
    assert_eq!(
        double_op("MIN_64", -0.0, 0.0, 0.0, false).0,
        (-0.0f64).to_bits()
    );
    assert_eq!(
        double_op("MIN_64", 0.0, -0.0, 0.0, false).0,
        (-0.0f64).to_bits()
    );
    assert_eq!(double_op("MAX_64", -0.0, 0.0, 0.0, false).0, 0);
    assert_eq!(double_op("MAX_64", 0.0, -0.0, 0.0, false).0, 0);
    assert_eq!(
        double_op("MIN_64", 3.5, -1.25, 0.0, false).0,
        (-1.25f64).to_bits()
    );
    assert_eq!(
        double_op("MAX_64", f64::NAN, 2.0, 0.0, false).0,
        2.0f64.to_bits()
    );
    // MUL_64, FMA_64 (single rounding), FRACT_64, CNDNE_64
    assert_eq!(
        double_op("MUL_64", 1.5, -2.25, 0.0, false).0,
        (-3.375f64).to_bits()
    );
    let (a, b, c) = (1.0 + f64::EPSILON, 1.0 - f64::EPSILON, -1.0);
    assert_eq!(
        double_op("FMA_64", a, b, c, true).0,
        a.mul_add(b, c).to_bits()
    );
    assert_ne!(
        a.mul_add(b, c),
        a * b + c,
        "the case needs the single rounding"
    );
    assert_eq!(
        double_op("FRACT_64", -1.25, 0.0, 0.0, false).0,
        0.75f64.to_bits()
    );
    assert_eq!(
        double_op("CNDNE_64", 0.0, 5.0, 7.0, true).0,
        7.0f64.to_bits()
    );
    assert_eq!(
        double_op("CNDNE_64", -2.0, 5.0, 7.0, true).0,
        5.0f64.to_bits()
    );
    // ADD_64 table 8.1: inf + -inf = NaN64 (0xFFF8000000000000 propagated as a NaN)
    let r = double_op("ADD_64", f64::INFINITY, f64::NEG_INFINITY, 0.0, false).0;
    assert!(f64::from_bits(r).is_nan());
    // denormals in, zero out (table 8.1: +denorm + +0 = +0)
    assert_eq!(double_op("ADD_64", f64::from_bits(1), 0.0, 0.0, false).0, 0);
}

#[test]
fn float_double_conversions_use_the_pair_layout() {
    // FLT32_TO_FLT64: src0 of the X slot; result low dword in X, high in Y
    let g = [
        op2("FLT32_TO_FLT64", 5, 0, (0, 0), (0, 0), false),
        op2("FLT32_TO_FLT64", 5, 1, (0, 0), (0, 0), true),
    ];
    let w = run_group(&g, |w| set(w, 0, 0, (-0.1f32).to_bits())).unwrap();
    let d = ((get(&w, 5, 1) as u64) << 32) | get(&w, 5, 0) as u64;
    assert_eq!(f64::from_bits(d), -0.1f32 as f64);
    // FLT64_TO_FLT32: X slot src0 = high dword, Y slot src0 = low dword
    let v = 1.0f64 / 3.0;
    let g = [
        op2("FLT64_TO_FLT32", 5, 0, (0, 0), (0, 0), false),
        op2("FLT64_TO_FLT32", 5, 1, (0, 1), (0, 0), true),
    ];
    let w = run_group(&g, |w| {
        set(w, 0, 0, (v.to_bits() >> 32) as u32);
        set(w, 0, 1, v.to_bits() as u32);
    })
    .unwrap();
    assert_eq!(f32::from_bits(get(&w, 5, 0)), v as f32);
}

#[test]
fn reductions_dot4_and_max4() {
    // guide 8.2 DOT4: srcA.W*srcB.W + ... + srcA.X*srcB.X, legacy 0*anything = 0;
    // DOT4_IEEE with IEEE rules; MAX4: max of the four srcA; the result is in every slot
    let (a, b) = ([1.0f32, 0.0, -3.0, 4.0], [5.0f32, f32::INFINITY, 7.0, 0.5]);
    let run4 = |name: &str| {
        let g: Vec<[u32; 2]> = (0..4)
            .map(|c| op2(name, 5, c, (0, c), (1, c), c == 3))
            .collect();
        run_group(&g, |w| {
            for c in 0..4 {
                set(w, 0, c, a[c].to_bits());
                set(w, 1, c, b[c].to_bits());
            }
        })
        .unwrap()
    };
    let w = run4("DOT4");
    assert_eq!(
        [0, 1, 2, 3].map(|c| f32::from_bits(get(&w, 5, c))),
        [-14.0; 4]
    );
    let w = run4("DOT4_IEEE");
    assert!(
        (0..4).all(|c| f32::from_bits(get(&w, 5, c)).is_nan()),
        "0 * inf is NaN under IEEE rules"
    );
    let w = run4("MAX4");
    assert_eq!(
        [0, 1, 2, 3].map(|c| f32::from_bits(get(&w, 5, c))),
        [4.0; 4]
    );
}

#[test]
fn prev_chains_of_each_kind() {
    // guide 8.2: the previous channel of Y is W, of X is Z (for ADD_PREV, MUL_PREV,
    // MULADD_PREV); BCNT_ACCUM_PREV_INT and SAD_ACCUM_PREV_UINT chain W -> Z -> Y -> X
    let run_chain = |g: &[[u32; 2]]| {
        run_group(g, |w| {
            for c in 0..4 {
                set(w, 0, c, (2.0f32 + c as f32).to_bits()); // 2, 3, 4, 5
                set(w, 1, c, 0x0102_0304 << c);
            }
        })
        .unwrap()
    };
    // W: MUL (5*5 = 25), Z: MUL_PREV (4 * 25 = 100), Y: ADD_PREV (3 + 100), X: MULADD_PREV (2*2 + 103)
    let w = run_chain(&[
        op2("MULADD_PREV", 5, 0, (0, 0), (0, 0), false),
        op2("ADD_PREV", 5, 1, (0, 1), (0, 0), false),
        op2("MUL_PREV", 5, 2, (0, 2), (0, 0), false),
        op2("MUL", 5, 3, (0, 3), (0, 3), true),
    ]);
    assert_eq!(
        [0, 1, 2, 3].map(|c| f32::from_bits(get(&w, 5, c))),
        [107.0, 103.0, 100.0, 25.0]
    );
    // W: BCNT_INT, Z..X: BCNT_ACCUM_PREV_INT
    let w = run_chain(&[
        op2("BCNT_ACCUM_PREV_INT", 5, 0, (1, 0), (0, 0), false),
        op2("BCNT_ACCUM_PREV_INT", 5, 1, (1, 1), (0, 0), false),
        op2("BCNT_ACCUM_PREV_INT", 5, 2, (1, 2), (0, 0), false),
        op2("BCNT_INT", 5, 3, (1, 3), (0, 0), true),
    ]);
    let bc = (0x0102_0304u32).count_ones();
    assert_eq!(
        [0, 1, 2, 3].map(|c| get(&w, 5, c)),
        [4 * bc, 3 * bc, 2 * bc, bc]
    );
    // W: SAD_ACCUM_UINT (OP3, src2 = 0), Z: SAD_ACCUM_PREV_UINT
    let w = run_group(
        &[
            op2("SAD_ACCUM_PREV_UINT", 5, 2, (0, 0), (0, 1), false),
            op3("SAD_ACCUM_UINT", 5, 3, (0, 2), (0, 3), (248, 0), true),
        ],
        |w| {
            for (c, v) in [0x0a00_0005u32, 0x0000_0a01, 0x0000_0009, 0x0000_0001]
                .iter()
                .enumerate()
            {
                set(w, 0, c, *v);
            }
        },
    )
    .unwrap();
    assert_eq!(get(&w, 5, 3), 8);
    assert_eq!(get(&w, 5, 2), 8 + 10 + 10 + 4);
}

#[test]
fn mova_int_clamps_and_indexes() {
    // guide 8.2 MOVA_INT: AR = src0 clamped to [-256, 255] (out of range -> -256);
    // then T(2 + AR.X).Y is read with INDEX_MODE 0 (AR.X), out-of-range reads give GPR 0
    let mova = {
        let mut i = op2("MOVA_INT", 0, 0, (0, 0), (0, 0), true);
        ALU_WORD1_OP2::WRITE_MASK.set(&mut i[1], 0);
        i
    };
    let mut rd = op2("MOV", 5, 0, (2, 1), (0, 0), true);
    ALU_WORD0::SRC0_REL.set(&mut rd[0], 1);
    let w = run_group(&[mova, rd], |w| {
        for l in 0..64 {
            w.gpr_mut(0, 0)[l] = match l {
                0 => 1,
                1 => 3,
                2 => 1000, // clamps to -256: GPR 2 - 256 is out of range -> GPR 0
                _ => 0,
            };
            w.gpr_mut(0, 1)[l] = 7;
            for r in 2..6 {
                w.gpr_mut(r, 1)[l] = 100 * r as u32;
            }
        }
    })
    .unwrap();
    assert_eq!(w.gpr(5, 0)[0], 300);
    assert_eq!(w.gpr(5, 0)[1], 500);
    assert_eq!(w.gpr(5, 0)[2], 7, "out of range reads GPR 0");
    assert_eq!(w.gpr(5, 0)[3], 200);
}

#[test]
fn ieee_prev_forms_and_group_sequencing_rows() {
    // MUL_IEEE_PREV / MULADD_IEEE_PREV / DOT_IEEE use IEEE rules for 0 * inf (NaN)
    let g = [
        op2("MULADD_IEEE_PREV", 5, 0, (0, 0), (0, 1), false),
        op2("DOT_IEEE", 5, 1, (0, 0), (0, 0), false),
        op2("MUL_IEEE_PREV", 5, 2, (0, 0), (0, 0), false),
        op2("MUL_IEEE", 5, 3, (0, 1), (0, 1), true),
    ];
    let w = run_group(&g, |w| {
        set(w, 0, 0, 0); // 0.0
        set(w, 0, 1, f32::INFINITY.to_bits());
    })
    .unwrap();
    // W = inf*inf = inf; Z = 0 * inf = NaN; Y = 0*0 + NaN; X = 0*inf + NaN
    assert_eq!(f32::from_bits(get(&w, 5, 3)), f32::INFINITY);
    for c in 0..3 {
        assert!(f32::from_bits(get(&w, 5, c)).is_nan(), "slot {c}");
    }
    // GROUP_SEQ_BEGIN / GROUP_SEQ_END change nothing a single wave can observe
    // (GROUP_BARRIER runs in the clang LDS kernels, where waves meet)
    let g = [
        op2("GROUP_SEQ_BEGIN", 0, 0, (0, 0), (0, 0), true),
        op2("GROUP_SEQ_END", 0, 0, (0, 0), (0, 0), true),
        op2("MOV", 5, 0, (250, 0), (0, 0), true),
    ];
    let w = run_group(&g, |w| set(w, 0, 0, 9)).unwrap();
    assert_eq!((get(&w, 5, 0), get(&w, 0, 0)), (1, 9));
}
