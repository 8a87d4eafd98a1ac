//! Parameter interpolation (guide 7.3.2-7.3.3 and 8.2 INTERP_*), in programs
//! written with risa's Cayman assembler. Parameter n is 12 dwords of LDS at
//! PARAM_BASE_ADDR + 12n: xyzw of P0, P1 − P0, P2 − P0 (7.3.3; a compute wave
//! is one primitive and its parameter base is 0). Expected values are the
//! guide's formula dst = P0 + (P1 − P0)·i + (P2 − P0)·j computed here.

mod common;
use common::*;
use risa_cayman_emu::wave::Wave;
use risa_cayman_emu::*;

fn run(src: &str, lds: &mut [u32], setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    let out = risa_cayman_asm::assemble("t.s", src, Default::default());
    assert!(out.output.diagnostics.is_empty(), "{}", out.diagnostics());
    let k = Kernel::from_code("t", &out.text());
    let (pool, gds) = (Pool::new(64), Pool::new(64));
    let cb = [vec![0u32; 64]];
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, lds)?;
    Ok(w)
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// LDS with parameter `n` = (P0, P10, P20), each xyzw.
fn params(lds: &mut [u32], n: usize, p: [[f32; 4]; 3]) {
    for (k, v) in p.iter().enumerate() {
        for c in 0..4 {
            lds[12 * n + 4 * k + c] = f(v[c]);
        }
    }
}

const P2: [[f32; 4]; 3] = [
    [1.0, 2.0, 3.0, 4.0],
    [0.5, -1.0, 8.0, 0.25],
    [2.0, 4.0, -0.5, 16.0],
];

/// i in R0.x, j in R0.y: lane l has i = l / 4, j = l / 16 (exact in f32).
fn ij(w: &mut Wave) {
    for l in 0..64 {
        w.gpr_mut(0, 0)[l] = f(l as f32 / 4.0);
        w.gpr_mut(0, 1)[l] = f(l as f32 / 16.0);
    }
}

fn want(p: [[f32; 4]; 3], c: usize, l: usize) -> u32 {
    let (i, j) = (l as f32 / 4.0, l as f32 / 16.0);
    f(p[0][c] + p[1][c] * i + p[2][c] * j)
}

#[test]
fn interp_xy_and_zw_follow_the_guide_formula() {
    // 7.3.2: X and Z read I, Y and W read J; the parameter is src1. XY's
    // results appear in X and Y, ZW's in Z and W.
    let src = "
    ALU:
        0 x: INTERP_XY R1.x, R0.x, (2) VEC_210
          y: INTERP_XY R1.y, R0.y, (2) VEC_210
          z: INTERP_XY (R1.z), R0.x, (2) VEC_210
          w: INTERP_XY (R1.w), R0.y, (2) VEC_210
        1 x: INTERP_ZW (R2.x), R0.x, (2) VEC_210
          y: INTERP_ZW (R2.y), R0.y, (2) VEC_210
          z: INTERP_ZW R2.z, R0.x, (2) VEC_210
          w: INTERP_ZW R2.w, R0.y, (2) VEC_210
    END:
";
    let mut lds = vec![0u32; 64];
    params(&mut lds, 2, P2);
    let w = run(src, &mut lds, |w| {
        ij(w);
        w.gpr_mut(1, 2).fill(0xdead);
        w.gpr_mut(2, 0).fill(0xbeef);
    })
    .unwrap();
    for l in [0, 1, 7, 33, 63] {
        assert_eq!(w.gpr(1, 0)[l], want(P2, 0, l), "x lane {l}");
        assert_eq!(w.gpr(1, 1)[l], want(P2, 1, l), "y lane {l}");
        assert_eq!(w.gpr(2, 2)[l], want(P2, 2, l), "z lane {l}");
        assert_eq!(w.gpr(2, 3)[l], want(P2, 3, l), "w lane {l}");
    }
    // the masked slots write nothing
    assert_eq!(w.gpr(1, 2)[5], 0xdead);
    assert_eq!(w.gpr(2, 0)[5], 0xbeef);
}

#[test]
fn interp_x_and_z_use_their_slot_pairs() {
    let src = "
    ALU:
        0 x: INTERP_X R1.x, R0.x, (2) VEC_210
          y: INTERP_X (R1.y), R0.y, (2) VEC_210
          z: INTERP_Z R1.z, R0.x, (2) VEC_210
          w: INTERP_Z (R1.w), R0.y, (2) VEC_210
    END:
";
    let mut lds = vec![0u32; 64];
    params(&mut lds, 2, P2);
    let w = run(src, &mut lds, ij).unwrap();
    assert_eq!(w.gpr(1, 0)[9], want(P2, 0, 9));
    assert_eq!(w.gpr(1, 2)[9], want(P2, 2, 9));
    assert_eq!(w.gpr(1, 1)[9], 0);
    assert_eq!(w.gpr(1, 3)[9], 0);
}

#[test]
fn the_muladd_result_is_not_rounded_before_the_add() {
    // 8.2: "The MULADD result is not rounded or normalized before entering
    // this ADD": 1 + 2^-24 + 2^-24 is 1 + 2^-23 (rounding in between would
    // give 1, the tie going to even)
    let tiny = 2f32.powi(-24);
    let p = [[1.0; 4], [tiny; 4], [tiny; 4]];
    let src = "
    ALU:
        0 x: INTERP_X R1.x, R0.x, (0) VEC_210
          y: INTERP_X (R1.y), R0.y, (0) VEC_210
    END:
";
    let mut lds = vec![0u32; 16];
    params(&mut lds, 0, p);
    let w = run(src, &mut lds, |w| {
        w.gpr_mut(0, 0).fill(f(1.0));
        w.gpr_mut(0, 1).fill(f(1.0));
    })
    .unwrap();
    assert_eq!(w.gpr(1, 0)[0], f(1.0 + 2f32.powi(-23)));
    assert_ne!(f((1.0 + tiny) + tiny), f(1.0 + 2f32.powi(-23)));
}

#[test]
fn interp_load_reads_p0_p10_p20_per_slot() {
    // 8.2 INTERP_LOAD_P0/P10/P20: "SRC0 contains the parameter number";
    // each slot reads its element
    let src = "
    ALU:
        0 x: INTERP_LOAD_P0 R1.x, (1)
          y: INTERP_LOAD_P0 R1.y, (1)
          z: INTERP_LOAD_P10 R1.z, (1)
          w: INTERP_LOAD_P20 R1.w, (1)
    END:
";
    let mut lds = vec![0u32; 32];
    params(&mut lds, 1, P2);
    let w = run(src, &mut lds, |_| {}).unwrap();
    assert_eq!(
        [0, 1, 2, 3].map(|c| w.gpr(1, c)[0]),
        [f(1.0), f(2.0), f(8.0), f(16.0)]
    );
}

#[test]
fn misplaced_or_out_of_range_interpolation_faults() {
    // INTERP_XY must fill the group (the assembler refuses anything else, so
    // the z and w slots of a valid group are turned into NOPs here)
    let out = risa_cayman_asm::assemble(
        "t.s",
        "
    ALU:
        0 x: INTERP_XY R1.x, R0.x, (0) VEC_210
          y: INTERP_XY R1.y, R0.y, (0) VEC_210
          z: INTERP_XY (R1.z), R0.x, (0) VEC_210
          w: INTERP_XY (R1.w), R0.y, (0) VEC_210
    END:
",
        Default::default(),
    );
    let mut words: Vec<u32> = out
        .text()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    use risa_cayman::fields::ALU_WORD1_OP2 as W1;
    let op = |n: &str| {
        risa_cayman::ops::ALU_OP2
            .iter()
            .find(|o| o.name == n)
            .unwrap()
            .code as u32
    };
    let mut patched = 0;
    // ALU slots start after the two CF slots (ALU, END)
    for k in (4..words.len()).step_by(2) {
        let w1 = &mut words[k + 1];
        if W1::ALU_INST.get(*w1) == op("INTERP_XY") && W1::DST_CHAN.get(*w1) >= 2 {
            W1::ALU_INST.set(w1, op("NOP"));
            patched += 1;
        }
    }
    assert_eq!(patched, 2);
    let k = kernel_from_words(&words);
    let (pool, gds) = (Pool::new(64), Pool::new(64));
    let cb = [vec![0u32; 64]];
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 100);
    let e = w.run(&env, &mut [0; 16]).expect_err("a fault");
    assert!(e.message.contains("must occupy slots xyzw"), "{e}");
    assert_eq!(e.at.slot, Some(0));
    // parameter 33 does not exist; parameter 2 lies beyond 16 dwords of LDS
    for (p, msg) in [(33, "out of range"), (2, "outside the group")] {
        let src = format!(
            "
    ALU:
        0 x: INTERP_LOAD_P0 R1.x, ({p})
    END:
"
        );
        let e = run(&src, &mut [0; 16], |_| {}).err().expect("a fault");
        assert!(e.message.contains(msg), "{e}");
        assert_eq!(e.at.lane, Some(0));
    }
}
