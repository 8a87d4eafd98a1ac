//! Hand-encoded CF programs for the stack, loop and subroutine forms clang
//! rarely or never emits (guide ch. 3 and 4): DX9 loops with aL (loop-index
//! sources, loop-relative destinations, kcache LOOP_INDEX mode), kcache
//! LOCK_2, CALL/RETURN, ALU_REACTIVATE_BEFORE, ALU_VALID_PIXEL_MODE, ALU_ELSE_AFTER,
//! ALU_POP2_AFTER, LOOP_BREAK with a condition, PUSH_WQM.

mod common;
use common::*;
use risa_cayman::fields::*;
use risa_cayman::ops::ALU_OP2;
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::*;

fn code2(name: &str) -> u32 {
    ALU_OP2.iter().find(|o| o.name == name).expect(name).code as u32
}
/// OP2 `name`: dst GPR `dst` slot `chan`; sources (sel, chan); exec-mask/pred
/// update when `pred`; `dst_rel` + INDEX_MODE 4 (loop) when `rel`.
fn op2(name: &str, dst: u32, chan: u32, s0: (u32, u32), s1: (u32, u32), last: bool) -> [u32; 2] {
    let mut w0 = 0;
    ALU_WORD0::SRC0_SEL.set(&mut w0, s0.0);
    ALU_WORD0::SRC0_CHAN.set(&mut w0, s0.1);
    ALU_WORD0::SRC1_SEL.set(&mut w0, s1.0);
    ALU_WORD0::SRC1_CHAN.set(&mut w0, s1.1);
    ALU_WORD0::LAST.set(&mut w0, last as u32);
    let mut w1 = 0;
    ALU_WORD1_OP2::ALU_INST.set(&mut w1, code2(name));
    ALU_WORD1_OP2::DST_GPR.set(&mut w1, dst);
    ALU_WORD1_OP2::DST_CHAN.set(&mut w1, chan);
    if name.starts_with("PRED_SET") {
        ALU_WORD1_OP2::UPDATE_EXEC_MASK.set(&mut w1, 1);
        ALU_WORD1_OP2::UPDATE_PRED.set(&mut w1, 1);
    } else {
        ALU_WORD1_OP2::WRITE_MASK.set(&mut w1, 1);
    }
    [w0, w1]
}
fn loop_rel(mut i: [u32; 2]) -> [u32; 2] {
    ALU_WORD0::INDEX_MODE.set(&mut i[0], 4);
    ALU_WORD1_OP2::DST_REL.set(&mut i[1], 1);
    i
}
const LIT: u32 = 253;
const LOOP_IDX: u32 = 238;
const KC0: u32 = 128;

/// A CF entry: either a plain CF instruction or an ALU clause (its slots).
enum Cf {
    Op {
        inst: u32,
        addr: u32,
        pop: u32,
        cond: u32,
        cf_const: u32,
    },
    Alu {
        inst: u32,
        kcache0: (u32, u32),
        slots: Vec<[u32; 2]>,
    },
}
fn op(inst: u32, addr: u32) -> Cf {
    Cf::Op {
        inst,
        addr,
        pop: 0,
        cond: 0,
        cf_const: 0,
    }
}
fn alu(inst: u32, slots: Vec<[u32; 2]>) -> Cf {
    Cf::Alu {
        inst,
        kcache0: (0, 0),
        slots,
    }
}
const ALU: u32 = 8;
const PUSH_BEFORE: u32 = 9;
const POP_AFTER: u32 = 10;
const POP2_AFTER: u32 = 11;
const REACTIVATE_BEFORE: u32 = 13;
const VALID_PIXEL_MODE: u32 = 14;
const ELSE_AFTER: u32 = 15;
const LOOP_START: u32 = 4;
const LOOP_END: u32 = 5;
const LOOP_START_DX10: u32 = 6;
const LOOP_BREAK: u32 = 9;
const CALL: u32 = 18;
const RETURN: u32 = 20;
const END: u32 = 32;
const PUSH_WQM: u32 = 34;
const POP: u32 = 14;

/// Lays the CF words out first and the clauses after them.
fn assemble(cf: &[Cf]) -> Vec<u32> {
    let mut words = vec![];
    let mut clauses = vec![];
    let mut at = cf.len() as u32;
    for c in cf {
        match c {
            Cf::Op {
                inst,
                addr,
                pop,
                cond,
                cf_const,
            } => words.extend([
                *addr,
                pop | (cf_const << 3) | (cond << 8) | (inst << 22) | (1 << 31),
            ]),
            Cf::Alu {
                inst,
                kcache0,
                slots,
            } => {
                let n = slots.len() as u32;
                words.extend([
                    at | (kcache0.0 << 30),
                    (kcache0.1 << 2) | ((n - 1) << 18) | (inst << 26) | (1 << 31),
                ]);
                clauses.extend(slots.iter().flatten().copied());
                at += n;
            }
        }
    }
    words.extend(clauses);
    words
}

fn run(cf: &[Cf], cb0: &[u32], loop_consts: [u32; 32], setup: impl Fn(&mut Wave)) -> Wave {
    let k = kernel_from_words(&assemble(cf));
    let pool = Pool::new(64);
    let gds = Pool::new(64);
    let cb = vec![cb0.to_vec()];
    let env = Env {
        loop_consts,
        ..one_wave_env(&k, &cb, &pool, &gds)
    };
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    for l in 0..64 {
        w.gpr_mut(0, 0)[l] = l as u32;
    }
    setup(&mut w);
    w.run(&env, &mut [0u32; 16])
        .unwrap_or_else(|f| panic!("{f}"));
    w
}
fn loop_const(count: u32, init: u32, inc: u32) -> u32 {
    count | (init << 12) | (inc << 24)
}

#[test]
fn dx9_loop_walks_al_through_the_loop_constant() {
    // LOOP_START (count 5, init 2, increment 3): T1.X += aL, and MOV T(10 + aL).X, aL
    // (guide 3.7.4: aL starts at init and steps by increment each iteration)
    let mut lc = [0; 32];
    lc[0] = loop_const(5, 2, 3);
    let cf = [
        op(LOOP_START, 3),
        alu(
            ALU,
            vec![
                op2("ADD_INT", 1, 0, (1, 0), (LOOP_IDX, 0), true),
                loop_rel(op2("MOV", 10, 0, (LOOP_IDX, 0), (0, 0), true)),
            ],
        ),
        op(LOOP_END, 1),
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], lc, |_| {});
    assert_eq!(w.gpr(1, 0)[7], 2 + 5 + 8 + 11 + 14);
    for al in [2u32, 5, 8, 11, 14] {
        assert_eq!(w.gpr(10 + al as usize, 0)[7], al, "T{}.X", 10 + al);
    }
}

#[test]
fn kcache_loop_index_mode_and_lock_2() {
    // KCACHE_MODE 3 (LOOP_INDEX): KC0[0] is constant 0 + aL; mode 2 (LOCK_2)
    // makes KC0[16..31] the next line (guide 4.6.1)
    let mut cb = vec![0u32; 4 * 32];
    for k in 0..3 {
        cb[4 * k] = 10u32.pow(k as u32);
    }
    cb[4 * 16 + 1] = 77;
    let mut lc = [0; 32];
    lc[0] = loop_const(3, 0, 1);
    let cf = [
        op(LOOP_START, 3),
        Cf::Alu {
            inst: ALU,
            kcache0: (3, 0),
            slots: vec![op2("ADD_INT", 1, 0, (1, 0), (KC0, 0), true)],
        },
        op(LOOP_END, 1),
        Cf::Alu {
            inst: ALU,
            kcache0: (2, 0),
            slots: vec![op2("MOV", 2, 0, (KC0 + 16, 1), (0, 0), true)],
        },
        op(END, 0),
    ];
    let w = run(&cf, &cb, lc, |_| {});
    assert_eq!(w.gpr(1, 0)[0], 111);
    assert_eq!(w.gpr(2, 0)[0], 77);
}

#[test]
fn call_and_return() {
    // 0 CALL @3; 1 ALU T2.X = 2; 2 END; 3 ALU T1.X = 1; 4 RETURN (guide 3.7.6)
    let cf = [
        op(CALL, 3),
        alu(ALU, vec![op2("MOV", 2, 0, (LIT, 0), (0, 0), true), [2, 0]]),
        op(END, 0),
        alu(ALU, vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [1, 0]]),
        op(RETURN, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    assert_eq!((w.gpr(1, 0)[5], w.gpr(2, 0)[5]), (1, 2));
}

#[test]
fn alu_reactivate_before_restores_the_pushed_lanes() {
    // if (lane > 31) { T1.X = 1; ALU_REACTIVATE_BEFORE: T2.X = 9 on the lanes
    // of the PUSH (all 64) } (guide 3.7.7; CF_ALU 13 on Cayman)
    let cf = [
        alu(
            PUSH_BEFORE,
            vec![op2("PRED_SETGT_INT", 3, 0, (0, 0), (LIT, 0), true), [31, 0]],
        ),
        alu(ALU, vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [1, 0]]),
        alu(
            REACTIVATE_BEFORE,
            vec![op2("MOV", 2, 0, (LIT, 0), (0, 0), true), [9, 0]],
        ),
        op(POP, 1),
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    for l in 0..64 {
        assert_eq!(w.gpr(1, 0)[l], u32::from(l > 31), "lane {l}");
        assert_eq!(w.gpr(2, 0)[l], 9, "lane {l} reactivated");
    }
}

#[test]
fn alu_valid_pixel_mode_runs_on_the_active_lanes() {
    // CF_ALU 14 on Cayman: in a compute program every active lane is valid.
    let cf = [
        alu(
            PUSH_BEFORE,
            vec![op2("PRED_SETGT_INT", 3, 0, (0, 0), (LIT, 0), true), [9, 0]],
        ),
        alu(
            VALID_PIXEL_MODE,
            vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [4, 0]],
        ),
        op(POP, 1),
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    for l in 0..64 {
        assert_eq!(w.gpr(1, 0)[l], if l > 9 { 4 } else { 0 }, "lane {l}");
    }
}

#[test]
fn alu_else_after_and_pop_after() {
    // if (lane > 31) T1.X = 1 else T1.X = 2; then T2.X = 7 on all lanes
    let cf = [
        alu(
            PUSH_BEFORE,
            vec![op2("PRED_SETGT_INT", 3, 0, (0, 0), (LIT, 0), true), [31, 0]],
        ),
        alu(
            ELSE_AFTER,
            vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [1, 0]],
        ),
        alu(
            POP_AFTER,
            vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [2, 0]],
        ),
        alu(ALU, vec![op2("MOV", 2, 0, (LIT, 0), (0, 0), true), [7, 0]]),
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    for l in 0..64 {
        assert_eq!(w.gpr(1, 0)[l], if l > 31 { 1 } else { 2 }, "lane {l}");
        assert_eq!(w.gpr(2, 0)[l], 7);
    }
}

#[test]
fn alu_pop2_after_closes_two_levels() {
    let cf = [
        alu(
            PUSH_BEFORE,
            vec![op2("PRED_SETGT_INT", 3, 0, (0, 0), (LIT, 0), true), [15, 0]],
        ),
        alu(
            PUSH_BEFORE,
            vec![op2("PRED_SETGT_INT", 3, 0, (0, 0), (LIT, 0), true), [47, 0]],
        ),
        alu(
            POP2_AFTER,
            vec![op2("MOV", 1, 0, (LIT, 0), (0, 0), true), [9, 0]],
        ),
        alu(ALU, vec![op2("MOV", 2, 0, (LIT, 0), (0, 0), true), [1, 0]]),
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    for l in 0..64 {
        assert_eq!(w.gpr(1, 0)[l], if l > 47 { 9 } else { 0 }, "lane {l}");
        assert_eq!(w.gpr(2, 0)[l], 1, "lane {l}");
    }
    assert_eq!(w.active(), u64::MAX);
}

#[test]
fn loop_break_with_a_bool_condition_and_push_wqm() {
    // LOOP_BREAK COND=NOT_BOOL (3 in CF_WORD1 COND, guide 9.1; bool constant
    // 0 is false, so the break is taken by every active lane) ends the DX10
    // loop after one iteration
    let cf = [
        op(LOOP_START_DX10, 4),
        alu(
            ALU,
            vec![op2("ADD_INT", 1, 0, (1, 0), (LIT, 0), true), [1, 0]],
        ),
        // ADDR of LOOP_BREAK is the LOOP_END, which pops the loop
        Cf::Op {
            inst: LOOP_BREAK,
            addr: 3,
            pop: 0,
            cond: 3,
            cf_const: 0,
        },
        op(LOOP_END, 1),
        // PUSH_WQM with only lane 5 passing activates its whole quad (lanes 4..7)
        alu(
            ALU,
            vec![op2("PRED_SETE_INT", 3, 0, (0, 0), (LIT, 0), true), [5, 0]],
        ),
        op(PUSH_WQM, 8),
        alu(ALU, vec![op2("MOV", 2, 0, (LIT, 0), (0, 0), true), [3, 0]]),
        Cf::Op {
            inst: POP,
            addr: 8,
            pop: 1,
            cond: 0,
            cf_const: 0,
        },
        op(END, 0),
    ];
    let w = run(&cf, &[0; 16], [0; 32], |_| {});
    assert_eq!(w.gpr(1, 0)[9], 1, "one iteration");
    for l in 0..64 {
        assert_eq!(
            w.gpr(2, 0)[l],
            if (4..8).contains(&l) { 3 } else { 0 },
            "lane {l}"
        );
    }
}

#[test]
fn cf_kill_is_illegal_in_compute_programs() {
    let k = kernel_from_words(&assemble(&[op(24, 0), op(END, 0)]));
    let f = run_dispatch(&k);
    assert!(f.message.contains("KILL is illegal"), "{f}");
    assert_eq!(f.at.cf, Some(0));
}

fn run_dispatch(k: &Kernel) -> Fault {
    risa_cayman_emu::run(k, &Dispatch::linear(64, 64), &Pool::new(64)).unwrap_err()
}
