//! MODE.FP_ROUND end to end. Each program sets MODE with
//! `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8)` (round bits 3:0, all
//! denormals kept so nothing is flushed), runs one VALU instruction on 64
//! lanes of operands and ends; every lane is compared bit for bit with the
//! host's IEEE result under fesetround for that rounding mode, read from
//! `crates/fp/tests/data/vectors.txt` (tools/fp-oracle/gen.sh). MODE bits
//! 1:0 round f32 results, bits 3:2 f64 and f16 results (GcnState.md).

use risa_gcn::Gen;
use risa_gcn_emu::wave::EXEC;
use risa_gcn_emu::{exec, Ctx, Program, SimpleMemory, Wave};
mod common;

/// One oracle line: operands and the results under nearest-even, +inf, -inf, zero.
struct Case {
    args: Vec<u64>,
    want: [u64; 4],
}

fn vectors(op: &str) -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fp/tests/data/vectors.txt");
    let text = std::fs::read_to_string(path).expect("crates/fp/tests/data/vectors.txt");
    let hex = |t: &str| u64::from_str_radix(t, 16).unwrap();
    text.lines()
        .filter_map(|l| {
            let (lhs, rhs) = l.split_once(" : ")?;
            let mut it = lhs.split(' ');
            if it.next()? != op {
                return None;
            }
            let args = it.map(hex).collect();
            let w: Vec<u64> = rhs.split(' ').map(hex).collect();
            Some(Case {
                args,
                want: [w[0], w[1], w[2], w[3]],
            })
        })
        .collect()
}

/// How an oracle op maps onto an instruction: its text (operands at v0, v2,
/// v4, result at v6; 64-bit values in pairs), operand and result widths.
struct Spec {
    oracle: &'static str,
    text: &'static str,
    arg_bits: u32,
    res_bits: u32,
    /// f16 values in both halves of each register (VOP3P), both results checked.
    packed: bool,
    /// The instruction exists from this generation on.
    from: Gen,
    /// Only operands this keeps (e.g. integers that fit 16 bits).
    keep: fn(&[u64]) -> bool,
}

fn any(_: &[u64]) -> bool {
    true
}
fn fits_i16(a: &[u64]) -> bool {
    (a[0] as i32) >= -32768 && (a[0] as i32) <= 32767
}
fn fits_u16(a: &[u64]) -> bool {
    a[0] <= 0xffff
}

const fn spec(
    oracle: &'static str,
    text: &'static str,
    arg_bits: u32,
    res_bits: u32,
    from: Gen,
) -> Spec {
    Spec {
        oracle,
        text,
        arg_bits,
        res_bits,
        packed: false,
        from,
        keep: any,
    }
}

const SPECS: &[Spec] = &[
    spec("add32", "v_add_f32_e64 v6, v0, v2", 32, 32, Gen::Gcn10),
    spec("sub32", "v_sub_f32_e64 v6, v0, v2", 32, 32, Gen::Gcn10),
    spec("mul32", "v_mul_f32_e64 v6, v0, v2", 32, 32, Gen::Gcn10),
    spec("fma32", "v_fma_f32 v6, v0, v2, v4", 32, 32, Gen::Gcn10),
    spec(
        "add64",
        "v_add_f64 v[6:7], v[0:1], v[2:3]",
        64,
        64,
        Gen::Gcn10,
    ),
    spec(
        "mul64",
        "v_mul_f64 v[6:7], v[0:1], v[2:3]",
        64,
        64,
        Gen::Gcn10,
    ),
    spec(
        "fma64",
        "v_fma_f64 v[6:7], v[0:1], v[2:3], v[4:5]",
        64,
        64,
        Gen::Gcn10,
    ),
    spec(
        "f64_to_f32",
        "v_cvt_f32_f64_e64 v6, v[0:1]",
        64,
        32,
        Gen::Gcn10,
    ),
    spec("f32_to_f16", "v_cvt_f16_f32_e64 v6, v0", 32, 16, Gen::Gcn10),
    spec("i32_to_f32", "v_cvt_f32_i32_e64 v6, v0", 32, 32, Gen::Gcn10),
    spec("u32_to_f32", "v_cvt_f32_u32_e64 v6, v0", 32, 32, Gen::Gcn10),
    spec("add16", "v_add_f16_e64 v6, v0, v2", 16, 16, Gen::Gcn12),
    spec("sub16", "v_sub_f16_e64 v6, v0, v2", 16, 16, Gen::Gcn12),
    spec("mul16", "v_mul_f16_e64 v6, v0, v2", 16, 16, Gen::Gcn12),
    spec("fma16", "v_fma_f16 v6, v0, v2, v4", 16, 16, Gen::Gcn12),
    Spec {
        keep: fits_i16,
        ..spec("i32_to_f16", "v_cvt_f16_i16_e64 v6, v0", 16, 16, Gen::Gcn12)
    },
    Spec {
        keep: fits_u16,
        ..spec("u32_to_f16", "v_cvt_f16_u16_e64 v6, v0", 16, 16, Gen::Gcn12)
    },
    Spec {
        packed: true,
        ..spec("add16", "v_pk_add_f16 v6, v0, v2", 16, 16, Gen::Gcn14)
    },
    Spec {
        packed: true,
        ..spec("mul16", "v_pk_mul_f16 v6, v0, v2", 16, 16, Gen::Gcn14)
    },
    Spec {
        packed: true,
        ..spec("fma16", "v_pk_fma_f16 v6, v0, v2, v4", 16, 16, Gen::Gcn14)
    },
];

const GENS: [Gen; 4] = [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];

fn program(gen: Gen, mode: u32, text: &str) -> Program {
    let src = format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), {mode:#x}\n{text}\ns_endpgm\n");
    let a = common::assembled(gen, &src);
    assert!(
        a.diagnostics().is_empty(),
        "{gen}: {src}\n{}",
        a.diagnostics()
    );
    let bytes: Vec<u8> = a.code().iter().flat_map(|w| w.to_le_bytes()).collect();
    Program::new(gen, &bytes, 0x1000)
}

/// Runs `s` on up to 64 cases in `mode` (0..4); returns the mismatches.
fn run_batch(gen: Gen, s: &Spec, mode: u32, cases: &[&Case]) -> Vec<String> {
    // Round bits for both precisions, FP_DENORM = 3 for both (nothing flushed).
    let prog = program(gen, mode | mode << 2 | 0xf0, s.text);
    let mem = SimpleMemory::new();
    let mut lds = vec![0u8; 0];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.set_s64(EXEC, u64::MAX);
    let lane_val = |x: u64| -> u64 {
        if s.packed {
            x | x << 16
        } else {
            x
        }
    };
    for (l, c) in cases.iter().enumerate() {
        for (k, &x) in c.args.iter().enumerate() {
            let x = lane_val(x);
            w.v[2 * k][l] = x as u32;
            if s.arg_bits == 64 {
                w.v[2 * k + 1][l] = (x >> 32) as u32;
            }
        }
    }
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen} {}: {f}", s.text));
    assert_eq!(
        w.mode & 0xff,
        mode | mode << 2 | 0xf0,
        "s_setreg wrote MODE"
    );
    let mut bad = Vec::new();
    for (l, c) in cases.iter().enumerate() {
        let got = match s.res_bits {
            64 => u64::from(w.v[6][l]) | u64::from(w.v[7][l]) << 32,
            32 => u64::from(w.v[6][l]),
            _ => u64::from(w.v[6][l]) & if s.packed { 0xffff_ffff } else { 0xffff },
        };
        let want = lane_val(c.want[mode as usize]);
        if got != want && !nan_choice(s, &c.args, got) {
            bad.push(format!(
                "{gen} mode {mode} `{}` {:x?}: got {got:#x}, want {want:#x}",
                s.text, c.args
            ));
        }
    }
    bad
}

/// With two or more NaN operands, which one comes back is the host's choice
/// in the default mode (its FMA instruction's operand priority, which
/// differs from SSE's first-operand rule the oracle records); accept any
/// operand NaN, quieted. The rounding-mode handlers follow the oracle exactly.
fn nan_choice(s: &Spec, args: &[u64], got: u64) -> bool {
    let (quiet, is_nan): (u64, fn(u64) -> bool) = match s.arg_bits {
        64 => (1 << 51, |x| f64::from_bits(x).is_nan()),
        32 => (1 << 22, |x| f32::from_bits(x as u32).is_nan()),
        _ => (1 << 9, |x| x & 0x7c00 == 0x7c00 && x & 0x3ff != 0),
    };
    let nans: Vec<u64> = args.iter().copied().filter(|&x| is_nan(x)).collect();
    let lanes = |x: u64| if s.packed { x | x << 16 } else { x };
    s.res_bits == s.arg_bits && nans.len() >= 2 && nans.iter().any(|&x| lanes(x | quiet) == got)
}

#[test]
fn rounded_ops_match_the_host_in_every_mode() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for s in SPECS {
        let all = vectors(s.oracle);
        let cases: Vec<&Case> = all.iter().filter(|c| (s.keep)(&c.args)).collect();
        assert!(
            cases.len() >= 50,
            "{}: only {} vectors",
            s.oracle,
            cases.len()
        );
        for gen in GENS.into_iter().filter(|g| *g >= s.from) {
            for mode in 0..4 {
                for chunk in cases.chunks(64) {
                    bad.extend(run_batch(gen, s, mode, chunk));
                    checked += chunk.len();
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {checked} lanes differ:\n{}",
        bad.len(),
        bad[..bad.len().min(60)].join("\n")
    );
}

/// Runs `text` (after the MODE write) on lane 0 with `init` and returns the wave.
fn run_text(gen: Gen, mode: u32, text: &str, init: impl FnOnce(&mut Wave)) -> Wave {
    let prog = program(gen, mode, text);
    let mem = SimpleMemory::new();
    let mut lds = vec![0u8; 0];
    let mut ctx = Ctx::new(&prog, &mem, &mut lds);
    let mut w = Wave::new(0);
    w.set_s64(EXEC, 1);
    init(&mut w);
    exec::run_wave(&mut w, &mut ctx).unwrap_or_else(|f| panic!("{gen} {text}: {f}"));
    w
}

const ONE_PLUS_ULP: u32 = 0x3f80_0001; // 1 + 2^-23

/// f32 results follow MODE bits 1:0 only; f64 and f16 results (and
/// conversions to f16) bits 3:2 only. Expected values by hand: the exact
/// results lie strictly between two neighbours, so each direction picks one.
#[test]
fn f32_and_f64_f16_round_bits_are_separate() {
    // (1 + 2^-23) + 2^-25: between 1 + 2^-23 and 1 + 2^-22.
    let f32_sum = |mode: u32| {
        let w = run_text(Gen::Gcn14, mode | 0xf0, "v_add_f32_e64 v6, v0, v2", |w| {
            w.v[0][0] = ONE_PLUS_ULP;
            w.v[2][0] = 0x3300_0000; // 2^-25
        });
        w.v[6][0]
    };
    // 1 + 2^-60 in f64: between 1 and 1 + 2^-52.
    let f64_sum = |mode: u32| {
        let w = run_text(
            Gen::Gcn14,
            mode | 0xf0,
            "v_add_f64 v[6:7], v[0:1], v[2:3]",
            |w| {
                w.v[1][0] = 0x3ff0_0000;
                w.v[3][0] = 0x3c30_0000; // 2^-60
            },
        );
        u64::from(w.v[6][0]) | u64::from(w.v[7][0]) << 32
    };
    // half: 1 + 2^-12 is between 1 (0x3c00) and 1 + 2^-10 (0x3c01).
    let f16_sum = |mode: u32| {
        let w = run_text(Gen::Gcn14, mode | 0xf0, "v_add_f16_e64 v6, v0, v2", |w| {
            w.v[0][0] = 0x3c00;
            w.v[2][0] = 0x0c00; // 2^-12
        });
        w.v[6][0] & 0xffff
    };
    // v_cvt_f16_f32 of 1 + 2^-20 rounds by bits 3:2.
    let cvt_f16 = |mode: u32| {
        let w = run_text(Gen::Gcn14, mode | 0xf0, "v_cvt_f16_f32_e64 v6, v0", |w| {
            w.v[0][0] = 0x3f80_0008; // 1 + 2^-20
        });
        w.v[6][0] & 0xffff
    };
    // f32 up (1), f64/f16 nearest (0): only the f32 result moves.
    assert_eq!(f32_sum(0x1), 0x3f80_0002);
    assert_eq!(f64_sum(0x1), 0x3ff0_0000_0000_0000);
    assert_eq!(f16_sum(0x1), 0x3c00);
    assert_eq!(cvt_f16(0x1), 0x3c00);
    // f32 nearest, f64/f16 up (1 << 2).
    assert_eq!(f32_sum(0x4), 0x3f80_0001);
    assert_eq!(f64_sum(0x4), 0x3ff0_0000_0000_0001);
    assert_eq!(f16_sum(0x4), 0x3c01);
    assert_eq!(cvt_f16(0x4), 0x3c01);
    // Toward -inf and toward zero on negative values: -(1 + 2^-23) - 2^-25.
    let neg = |mode: u32| {
        let w = run_text(Gen::Gcn10, mode | 0xf0, "v_sub_f32_e64 v6, v0, v2", |w| {
            w.v[0][0] = ONE_PLUS_ULP | 0x8000_0000;
            w.v[2][0] = 0x3300_0000;
        });
        w.v[6][0]
    };
    assert_eq!(neg(0x2), 0xbf80_0002, "toward -inf: away from zero");
    assert_eq!(neg(0x3), 0xbf80_0001, "toward zero");
    assert_eq!(neg(0x1), 0xbf80_0001, "toward +inf");
}

/// Overflow: toward zero and toward -inf give the largest finite value for a
/// positive overflow, toward +inf and nearest give infinity (IEEE 754 7.4).
#[test]
fn overflow_follows_the_direction() {
    for (mode, want) in [
        (0u32, 0x7f80_0000),
        (1, 0x7f80_0000),
        (2, 0x7f7f_ffff),
        (3, 0x7f7f_ffff),
    ] {
        let w = run_text(Gen::Gcn12, mode | 0xf0, "v_mul_f32_e64 v6, v0, v2", |w| {
            w.v[0][0] = 0x7f7f_ffff; // MAX
            w.v[2][0] = 0x4000_0000; // 2
        });
        assert_eq!(w.v[6][0], want, "mode {mode}");
    }
}

/// v_mad_f32/v_mac_f32 round the product (and flush it), then the sum, both
/// in the mode; v_ldexp_f32 rounds a result below the normal range;
/// v_cvt_f32_i32 rounds integers above 2^24.
#[test]
fn mad_ldexp_and_int_conversion_round() {
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46; + 0: the product's rounding shows.
    let mad = |mode: u32| {
        let w = run_text(Gen::Gcn10, mode | 0xf0, "v_mad_f32 v6, v0, v2, v4", |w| {
            w.v[0][0] = ONE_PLUS_ULP;
            w.v[2][0] = ONE_PLUS_ULP;
        });
        w.v[6][0]
    };
    assert_eq!(mad(0), 0x3f80_0002);
    assert_eq!(mad(1), 0x3f80_0003);
    assert_eq!(mad(3), 0x3f80_0002);
    // 1.5 * 2^-149 lies halfway between the two smallest denormals.
    let ldexp = |mode: u32| {
        let w = run_text(Gen::Gcn12, mode | 0xf0, "v_ldexp_f32 v6, v0, v2", |w| {
            w.v[0][0] = 0x3fc0_0000; // 1.5
            w.v[2][0] = (-149i32) as u32;
        });
        w.v[6][0]
    };
    assert_eq!([ldexp(0), ldexp(1), ldexp(2), ldexp(3)], [2, 2, 1, 1]);
    // 2^24 + 1 is between 2^24 and 2^24 + 2.
    let cvt = |mode: u32| {
        let w = run_text(Gen::Gcn11, mode | 0xf0, "v_cvt_f32_i32_e32 v6, v0", |w| {
            w.v[0][0] = (1 << 24) + 1;
        });
        w.v[6][0]
    };
    assert_eq!(
        [cvt(0), cvt(1), cvt(2), cvt(3)],
        [0x4b80_0000, 0x4b80_0001, 0x4b80_0000, 0x4b80_0000]
    );
}

/// Approximate instructions ignore the mode: v_rcp_f32 gives what it gives
/// under nearest-even (see docs/gcn-emulator.md).
#[test]
fn approximate_ops_ignore_the_mode() {
    let rcp = |mode: u32| {
        let w = run_text(Gen::Gcn14, mode | 0xf0, "v_rcp_f32_e32 v6, v0", |w| {
            w.v[0][0] = 0x4040_0000; // 3
        });
        w.v[6][0]
    };
    assert_eq!(rcp(0), 0x3eaa_aaab);
    for mode in [0x5, 0xa, 0xf] {
        assert_eq!(rcp(mode), rcp(0));
    }
}

/// The SDWA form runs its rounding-mode semantics too, and s_getreg reads
/// the MODE that s_setreg wrote.
#[test]
fn sdwa_form_and_getreg() {
    let w = run_text(
        Gen::Gcn14,
        0xf3,
        "v_add_f32_sdwa v6, v0, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD\ns_getreg_b32 s10, hwreg(HW_REG_MODE, 0, 8)",
        |w| {
            w.v[0][0] = ONE_PLUS_ULP;
            w.v[2][0] = 0x33c0_0000; // 1.5 * 2^-24: 3/4 of an ulp, nearest would round up
        },
    );
    assert_eq!(w.v[6][0], 0x3f80_0001, "toward zero");
    assert_eq!(w.s[10], 0xf3);
}

/// An OP_SEL form (GCN 1.4) runs its rounding-mode semantics on the selected
/// halves: the high half of v0 plus 2^-12 (between 1 and 1 + 2^-10 in
/// half), written to the high half of v6 with its low half kept.
#[test]
fn op_sel_form_rounds_in_the_mode() {
    let add = |mode: u32| {
        let w = run_text(
            Gen::Gcn14,
            mode | 0xf0,
            "v_add_f16_e64 v6, v0, v2 op_sel:[1,0,1]",
            |w| {
                w.v[0][0] = 0x3c00_1234; // high half 1.0
                w.v[2][0] = 0x0c00; // 2^-12
                w.v[6][0] = 0x0000_beef;
            },
        );
        w.v[6][0]
    };
    assert_eq!(add(0x0), 0x3c00_beef, "nearest");
    assert_eq!(add(0x4), 0x3c01_beef, "toward +inf (bits 3:2)");
    assert_eq!(add(0xc), 0x3c00_beef, "toward zero");
}
