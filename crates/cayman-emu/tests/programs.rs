//! Hand-encoded programs (fields of chapter 9) for behaviour clang's kernels
//! only touch lightly: group read-before-write, PV, PUSH/ELSE/POP with an
//! exec-mask PRED_SET, predication by PRED_SEL.

mod common;
use common::*;
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::*;

/// OP2 instruction: ALU_WORD0 + ALU_WORD1_OP2.
#[allow(clippy::too_many_arguments)]
fn op2(
    inst: u32,
    dst: u32,
    chan: u32,
    src0: (u32, u32),
    src1: (u32, u32),
    last: bool,
    extra_w1: u32,
    pred_sel: u32,
) -> [u32; 2] {
    let w0 = src0.0
        | (src0.1 << 10)
        | (src1.0 << 13)
        | (src1.1 << 23)
        | (pred_sel << 29)
        | ((last as u32) << 31);
    let w1 = extra_w1 | (inst << 7) | (dst << 21) | (chan << 29);
    [w0, w1]
}
const WM: u32 = 1 << 4;
const MOV: u32 = 25;
fn cf_alu(addr: u32, slots: u32, cf_inst: u32) -> [u32; 2] {
    [addr, ((slots - 1) << 18) | (cf_inst << 26) | (1 << 31)]
}
fn cf(inst: u32, addr: u32, pop: u32) -> [u32; 2] {
    [addr, pop | (inst << 22) | (1 << 31)]
}

fn run_wave(words: &[u32], setup: impl Fn(&mut Wave)) -> Wave {
    let k = kernel_from_words(words);
    let pool = Pool::new(64);
    let cb = vec![vec![0u32; 64]];
    let gds = Pool::new(64);
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    let mut lds = vec![0u32; 16];
    w.run(&env, &mut lds).unwrap_or_else(|f| panic!("{f}"));
    w
}

#[test]
fn group_reads_before_writes_and_pv() {
    // group 0: x: MOV T0.X, T0.Y   y: MOV T0.Y, T0.X   (a swap, guide 4.3/4.7)
    // group 1: x: MOV T2.X, PV.Y  (PV.Y = the value group 0 wrote to Y, 4.6.2)
    let mut w = vec![];
    w.extend(cf_alu(2, 3, 8));
    w.extend(cf(32, 0, 0));
    w.extend(op2(MOV, 0, 0, (0, 1), (0, 0), false, WM, 0));
    w.extend(op2(MOV, 0, 1, (0, 0), (0, 0), true, WM, 0));
    w.extend(op2(MOV, 2, 0, (254, 1), (0, 0), true, WM, 0));
    let wave = run_wave(&w, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32;
            wv.gpr_mut(0, 1)[l] = 100 + l as u32;
        }
    });
    for l in 0..64 {
        assert_eq!(wave.gpr(0, 0)[l], 100 + l as u32);
        assert_eq!(wave.gpr(0, 1)[l], l as u32);
        assert_eq!(wave.gpr(2, 0)[l], l as u32);
    }
}

#[test]
fn push_else_pop_with_exec_mask_pred_set() {
    // 0 ALU_PUSH_BEFORE @6 (2 slots): PRED_SETGT_INT exec-mask/pred: T0.X > 31
    // 1 ALU @8: MOV T1.X, 1.0
    // 2 ELSE @4 POP:0
    // 3 ALU @9: MOV T1.X, 0.5
    // 4 POP POP:1
    // 5 END
    // then: 6 pred_set, 7 literal 31, 8 mov 1.0, 9 mov 0.5, 10 MOV T3.X, 1 (all lanes back)
    let pred_w1 = (1 << 2) | (1 << 3); // UPDATE_EXEC_MASK, UPDATE_PRED
    let mut w = vec![];
    w.extend(cf_alu(6, 2, 9));
    w.extend(cf_alu(8, 1, 8));
    w.extend(cf(13, 4, 0));
    w.extend(cf_alu(9, 1, 8));
    w.extend(cf(14, 5, 1));
    w.extend(cf_alu(10, 1, 8));
    w.extend(op2(67, 0, 0, (0, 0), (253, 0), true, pred_w1, 0));
    w.extend([31, 0]);
    w.extend(op2(MOV, 1, 0, (249, 0), (0, 0), true, WM, 0));
    w.extend(op2(MOV, 1, 0, (252, 0), (0, 0), true, WM, 0));
    w.extend(op2(MOV, 3, 0, (250, 0), (0, 0), true, WM, 0));
    // insert END as CF 6 and two padding slots, then move the clauses behind them
    let mut prog = w[..12].to_vec();
    prog.extend(cf(32, 0, 0)); // CF 6: END
    prog.extend([0, 0, 0, 0]); // CF 7, 8 padding
    let base = prog.len() as u32 / 2; // clause area
    let fix = |a: u32| a - 6 + base;
    prog[0] = fix(6);
    prog[2] = fix(8);
    prog[6] = fix(9);
    prog[10] = fix(10);
    prog.extend(&w[12..22]);
    let wave = run_wave(&prog, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32;
        }
    });
    for l in 0..64 {
        let want = if l > 31 { 1.0f32 } else { 0.5 };
        assert_eq!(f32::from_bits(wave.gpr(1, 0)[l]), want, "lane {l}");
        assert_eq!(wave.gpr(3, 0)[l], 1, "lane {l} active after POP");
    }
    assert_eq!(wave.active(), u64::MAX);
}

#[test]
fn pred_sel_predicates_within_a_clause() {
    // group 0: PRED_SETE_INT (update pred only): T0.X == 5 ; group 1: MOV T1.X, 1 pred_sel ONE;
    // group 2: MOV T1.Y, 1 pred_sel ZERO (guide 4.10)
    let mut w = vec![];
    w.extend(cf_alu(2, 4, 8));
    w.extend(cf(32, 0, 0));
    w.extend(op2(66, 0, 0, (0, 0), (253, 0), true, 1 << 3, 0));
    w.extend([5, 0]);
    w.extend(op2(MOV, 1, 0, (250, 0), (0, 0), true, WM, 3));
    w.extend(op2(MOV, 1, 1, (250, 0), (0, 0), true, WM, 2));
    let wave = run_wave(&w, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32;
        }
    });
    for l in 0..64 {
        assert_eq!(wave.gpr(1, 0)[l], (l == 5) as u32, "ONE lane {l}");
        assert_eq!(wave.gpr(1, 1)[l], (l != 5) as u32, "ZERO lane {l}");
    }
}

#[test]
fn jumptable_picks_an_entry_by_loop_constant_byte() {
    // 0 JUMPTABLE ADDR 4 (JTS 1 = byte B of loop constant 0)
    // 1..3 JUMP (COND BOOL on false: always taken) to 4 / 6 / 8
    // 4 ALU MOV T1.X, 1   5 END   6 ALU MOV T1.X, 2   7 END   8 ALU MOV T1.X, 3   9 END
    const JUMP: u32 = 10;
    let run_with = |idx: u32| {
        let mut w = vec![4 | (1 << 24), (29 << 22) | (1 << 31)];
        for t in [4u32, 6, 8] {
            w.extend([t, (1 << 8) | (JUMP << 22) | (1 << 31)]);
        }
        for k in 0..3 {
            // one MOV and its literal slot each, at slots 10, 12, 14
            w.extend(cf_alu(10 + 2 * k, 2, 8));
            w.extend(cf(32, 0, 0));
        }
        for v in [1u32, 2, 3] {
            w.extend(op2(MOV, 1, 0, (253, 0), (0, 0), true, WM, 0));
            w.extend([v, 0]);
        }
        let k = kernel_from_words(&w);
        let pool = Pool::new(64);
        let cb = vec![vec![0u32; 64]];
        let mut lc = [0u32; 32];
        lc[0] = idx << 8;
        let gds = Pool::new(64);
        let env = Env {
            loop_consts: lc,
            ..one_wave_env(&k, &cb, &pool, &gds)
        };
        let mut wave = Wave::new(u64::MAX, [0; 3], 0, 1000);
        let mut lds = vec![0u32; 16];
        wave.run(&env, &mut lds).map(|_| wave.gpr(1, 0)[0])
    };
    assert_eq!(run_with(0).unwrap(), 1);
    assert_eq!(run_with(1).unwrap(), 2);
    assert_eq!(run_with(2).unwrap(), 3);
    let f = run_with(3).unwrap_err();
    assert!(f.message.contains("past the table"), "{f}");
    assert_eq!(f.at.cf, Some(0));
}
