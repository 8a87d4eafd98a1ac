//! The rarely used instructions: the fork/join stack, VSKIP, s_sethalt,
//! s_rfe_*, the `_regrd`/`_regwr`/`_prsv` variants, v_screen_partition_4se_b32,
//! v_mqsad_u32_u8, s_scratch_* and VOP3 OP_SEL. Programs are assembled by
//! risa's assembler (their encodings agree with `llvm-mc -show-encoding` for
//! every instruction LLVM knows; see the commit that added this file); the
//! expected values come from the CLRX pages cited at each test.

mod common;
use common::asm;
use risa_gcn::Gen;
use risa_gcn_emu::wave::{EXEC, M0};
use risa_gcn_emu::{exec, Ctx, FaultKind, Program, SimpleMemory, Wave};

const BASE: u64 = 0x1000;

/// Runs `src` (s_endpgm appended) on one wave; returns the wave or the fault.
fn run_with(
    gen: Gen,
    src: &str,
    mem: &SimpleMemory,
    init: impl FnOnce(&mut Wave),
) -> (Wave, Result<(), risa_gcn_emu::Fault>) {
    let code = asm(gen, &format!("{src}\ns_endpgm\n"));
    let prog = Program::new(gen, &code, BASE);
    let mut lds = vec![0u8; 256];
    let mut ctx = Ctx::new(&prog, mem, &mut lds);
    ctx.budget = 10_000;
    let mut w = Wave::new(0);
    w.set_s64(EXEC, u64::MAX);
    init(&mut w);
    let r = exec::run_wave(&mut w, &mut ctx);
    (w, r)
}

fn run(gen: Gen, src: &str, init: impl FnOnce(&mut Wave)) -> Wave {
    let (w, r) = run_with(gen, src, &SimpleMemory::new(), init);
    r.unwrap_or_else(|f| panic!("{gen}: {f}"));
    w
}

const GENS: [Gen; 4] = [Gen::Gcn10, Gen::Gcn11, Gen::Gcn12, Gen::Gcn14];

// ---------------------------------------------------------------------------
// s_cbranch_g_fork / s_cbranch_i_fork / s_cbranch_join
// (GcnInstrsSop2.md S_CBRANCH_G_FORK, GcnInstrsSopk.md S_CBRANCH_I_FORK,
// GcnInstrsSop1.md S_CBRANCH_JOIN; CSP = MODE[31:29], GcnState.md).

/// A fork over the lanes of `s[4:5]`, each path recording itself in v0 (1 for
/// the passing lanes, 2 for the failing ones), in s9 (path order, one hex
/// digit per path) and in s10 (CSP seen by each path). `fork` is the fork
/// instruction; `taken` its target label.
fn fork_program(fork: &str) -> String {
    format!(
        "s_getreg_b32 s8, hwreg(HW_REG_MODE, 29, 3)
         s_getpc_b64 s[6:7]
       after:
         s_add_u32 s6, s6, taken-after
         s_addc_u32 s7, s7, 0
         {fork}
       fails:
         v_mov_b32 v0, 2
         s_lshl_b32 s9, s9, 4
         s_or_b32 s9, s9, 2
         s_getreg_b32 s11, hwreg(HW_REG_MODE, 29, 3)
         s_lshl_b32 s10, s10, 4
         s_or_b32 s10, s10, s11
         s_branch join
       taken:
         v_mov_b32 v0, 1
         s_lshl_b32 s9, s9, 4
         s_or_b32 s9, s9, 1
         s_getreg_b32 s11, hwreg(HW_REG_MODE, 29, 3)
         s_lshl_b32 s10, s10, 4
         s_or_b32 s10, s10, s11
       join:
         s_cbranch_join s8
         s_getreg_b32 s12, hwreg(HW_REG_MODE, 29, 3)
         s_getpc_b64 s[14:15]
       fails_addr:
         s_sub_u32 s14, s14, fails_addr-fails"
    )
}

struct ForkCase {
    exec: u64,
    mask: u64,
    /// Paths in the order they run (1 = passing lanes, 2 = failing lanes).
    order: u32,
    /// CSP each path saw, in the same order.
    csp: u32,
    /// The stack entry pushed: (EXEC of the waiting path, whether it is the
    /// failing path (address of the next instruction) or the passing one).
    pushed: Option<(u64, bool)>,
}

fn check_fork(gen: Gen, fork: &str, c: &ForkCase) {
    let src = fork_program(fork);
    let w = run(gen, &src, |w| {
        w.set_s64(EXEC, c.exec);
        w.set_s64(4, c.mask);
    });
    let ctx = format!("{gen} `{fork}` exec {:#x} mask {:#x}", c.exec, c.mask);
    for l in 0..64 {
        let want = if c.exec >> l & 1 == 0 {
            0
        } else if c.mask >> l & 1 != 0 {
            1
        } else {
            2
        };
        assert_eq!(w.v[0][l], want, "{ctx}: lane {l}");
    }
    assert_eq!(w.s[9], c.order, "{ctx}: path order");
    assert_eq!(w.s[10], c.csp, "{ctx}: CSP per path");
    assert_eq!(w.s[12], 0, "{ctx}: CSP after the join");
    if let Some((exec, fails)) = c.pushed {
        assert_eq!(w.s64(0), exec, "{ctx}: pushed EXEC");
        let fails_addr = w.s64(14);
        let taken = w.s64(6);
        let want = if fails { fails_addr } else { taken };
        assert_eq!(w.s64(2), want, "{ctx}: pushed address");
        // The join restored the waiting path's EXEC.
        assert_eq!(w.exec(), exec, "{ctx}: EXEC after the join");
    } else {
        assert_eq!(w.exec(), c.exec, "{ctx}: EXEC unchanged");
    }
}

#[test]
fn fork_and_join_follow_the_pseudo_code() {
    let cases = [
        // One passing lane, three failing: "BITCOUNT(failures) < BITCOUNT(passes)"
        // is false, so the passing lane runs first and the failing ones wait.
        ForkCase {
            exec: 0xf,
            mask: 0x1,
            order: 0x12,
            csp: 0x10,
            pushed: Some((0xe, true)),
        },
        // Three passing, one failing: the failing lane runs first.
        ForkCase {
            exec: 0xf,
            mask: 0x7,
            order: 0x21,
            csp: 0x10,
            pushed: Some((0x7, false)),
        },
        // Equal counts: not "<", so the passing lanes first.
        ForkCase {
            exec: 0xf0,
            mask: 0x30,
            order: 0x12,
            csp: 0x10,
            pushed: Some((0xc0, true)),
        },
        // passes == EXEC: a plain jump, nothing pushed.
        ForkCase {
            exec: 0xff,
            mask: u64::MAX,
            order: 0x1,
            csp: 0x0,
            pushed: None,
        },
        // failures == EXEC: fall through, nothing pushed.
        ForkCase {
            exec: 0xff,
            mask: 0xff00,
            order: 0x2,
            csp: 0x0,
            pushed: None,
        },
        // EXEC = 0: passes (0) == EXEC is tested first, so it jumps.
        ForkCase {
            exec: 0,
            mask: 0x5,
            order: 0x1,
            csp: 0x0,
            pushed: None,
        },
        // All 64 lanes, split in the upper half.
        ForkCase {
            exec: u64::MAX,
            mask: 0xffff_ffff_0000_0000,
            order: 0x12,
            csp: 0x10,
            pushed: Some((0xffff_ffff, true)),
        },
    ];
    for gen in GENS {
        for c in &cases {
            check_fork(gen, "s_cbranch_g_fork s[4:5], s[6:7]", c);
            check_fork(gen, "s_cbranch_i_fork s[4:5], taken", c);
        }
    }
}

#[test]
fn nested_forks_use_successive_stack_entries() {
    // Two forks deep: the inner one pushes at CSP 1, into s[4:7].
    let src = "
        s_getreg_b32 s20, hwreg(HW_REG_MODE, 29, 3)
        s_cbranch_i_fork s[40:41], outer_taken
        v_mov_b32 v0, 2
        s_branch outer_join
      outer_taken:
        s_getreg_b32 s21, hwreg(HW_REG_MODE, 29, 3)
        s_cbranch_i_fork s[42:43], inner_taken
        v_mov_b32 v0, 3
        s_branch inner_join
      inner_taken:
        v_mov_b32 v0, 4
      inner_join:
        s_cbranch_join s21
      outer_join:
        s_cbranch_join s20";
    for gen in GENS {
        let w = run(gen, src, |w| {
            w.set_s64(EXEC, 0xff);
            w.set_s64(40, 0x0f); // lanes 0-3 pass the outer fork
            w.set_s64(42, 0x03); // lanes 0-1 pass the inner one
        });
        let want = [4, 4, 3, 3, 2, 2, 2, 2];
        for (l, &x) in want.iter().enumerate() {
            assert_eq!(w.v[0][l], x, "{gen} lane {l}");
        }
        assert_eq!(w.s[21], 1, "{gen}: CSP inside the outer fork");
        assert_eq!(w.s64(4), 0x0c, "{gen}: inner entry EXEC");
    }
}

#[test]
fn join_with_an_empty_stack_falls_through() {
    for gen in GENS {
        let w = run(gen, "s_cbranch_join s0\nv_mov_b32 v0, 7", |_| {});
        assert_eq!(w.v[0][0], 7, "{gen}");
    }
}

// ---------------------------------------------------------------------------
// s_setvskip (GcnInstrsSopc.md S_SETVSKIP: VSKIP = (SSRC0 & 1<<(SSRC1&31)) != 0).

#[test]
fn vskip_skips_vector_instructions_only() {
    let src = "
        v_mov_b32 v0, 1
        s_getreg_b32 s20, hwreg(HW_REG_MODE)
        s_setvskip s0, 35
        v_mov_b32 v0, 2
        v_add_f32 v1, 1.0, v1
        ds_write_b32 v2, v0
        v_readfirstlane_b32 s10, v0
        s_mov_b32 s1, 5
        s_waitcnt 0
        s_getreg_b32 s21, hwreg(HW_REG_MODE)
        s_setvskip s0, 2
        v_mov_b32 v3, 9
        ds_read_b32 v4, v2
        s_waitcnt 0";
    for gen in GENS {
        let w = run(gen, src, |w| {
            w.s[0] = 8;
            w.s[10] = 0xdead;
            w.s[M0] = u32::MAX;
            w.mode = 0x3c0;
            w.v[2] = [0; 64];
            w.v[4] = [0xbad; 64];
        });
        assert_eq!(w.v[0][0], 1, "{gen}: v_mov skipped");
        assert_eq!(w.v[1][0], 0, "{gen}: v_add skipped");
        assert_eq!(w.s[10], 0xdead, "{gen}: v_readfirstlane skipped");
        assert_eq!(w.s[1], 5, "{gen}: scalar ALU runs");
        assert_eq!(w.s[21], w.s[20], "{gen}: VSKIP is not a MODE bit");
        assert_eq!(w.v[3][0], 9, "{gen}: vector ALU runs again");
        assert_eq!(w.v[4][0], 0, "{gen}: the skipped ds_write left LDS alone");
    }
    // s_setvskip s0, 35 tested bit 35 & 31 = 3 of s0 = 8 (set), s_setvskip s0, 2
    // bit 2 (clear). A skipped VMEM access at an unmapped address does not fault.
    let src = "s_setvskip 1, 0\nflat_load_dword v0, v[4:5]\ns_setvskip 0, 0";
    for gen in [Gen::Gcn11, Gen::Gcn12, Gen::Gcn14] {
        run(gen, src, |_| {});
    }
}

// ---------------------------------------------------------------------------
// s_sethalt (GcnInstrsSopp.md S_SETHALT: HALT = SIMM16&1).

#[test]
fn sethalt_one_stops_the_wave_with_a_report() {
    for gen in GENS {
        let w = run(gen, "s_sethalt 0\nv_mov_b32 v0, 1", |_| {});
        assert_eq!(w.v[0][0], 1, "{gen}: s_sethalt 0 resumes (no effect)");
        let (_, r) = run_with(
            gen,
            "s_sethalt 1\nv_mov_b32 v0, 1",
            &SimpleMemory::new(),
            |_| {},
        );
        let f = r.expect_err("halt must stop the wave");
        assert_eq!(f.kind, FaultKind::Halted, "{gen}");
        assert_eq!(f.pc, 0);
        assert!(f.to_string().contains("wave halted"), "{f}");
        // Only SIMM16[0] counts.
        let w = run(gen, "s_sethalt 2\nv_mov_b32 v0, 1", |_| {});
        assert_eq!(w.v[0][0], 1, "{gen}: s_sethalt 2 clears HALT");
    }
}

// ---------------------------------------------------------------------------
// s_rfe_b64 / s_rfe_restore_b64 (GcnInstrsSop1.md S_RFE_B64: PC = SSRC0).

#[test]
fn rfe_jumps_to_the_saved_pc() {
    let body = |rfe: &str| {
        format!(
            "s_getpc_b64 s[2:3]
           after:
             s_add_u32 s2, s2, resume-after
             s_addc_u32 s3, s3, 0
             {rfe}
             v_mov_b32 v0, 1
           resume:
             v_mov_b32 v1, 2"
        )
    };
    for gen in GENS {
        let w = run(gen, &body("s_rfe_b64 s[2:3]"), |_| {});
        assert_eq!((w.v[0][0], w.v[1][0]), (0, 2), "{gen}");
        // A return address that is no instruction is a clean fault.
        let (_, r) = run_with(gen, "s_rfe_b64 s[2:3]", &SimpleMemory::new(), |w| {
            w.set_s64(2, 0x1002)
        });
        assert_eq!(r.unwrap_err().kind, FaultKind::BadPc(0x1002), "{gen}");
    }
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let w = run(gen, &body("s_rfe_restore_b64 s[2:3], s4"), |_| {});
        assert_eq!((w.v[0][0], w.v[1][0]), (0, 2), "{gen}");
    }
}

// ---------------------------------------------------------------------------
// The _regrd / _regwr / _prsv variants: the data moved is that of the base
// instruction (see docs/gcn-emulator.md for why).

#[test]
fn regrd_variants_move_like_their_base_instruction() {
    for gen in GENS {
        let w = run(
            gen,
            "s_mov_regrd_b32 s0, s1
             s_getreg_regrd_b32 s2, hwreg(HW_REG_MODE, 4, 4)
             s_getreg_b32 s3, hwreg(HW_REG_MODE, 4, 4)",
            |w| {
                w.s[1] = 0x8000_0001;
                w.mode = 0x3c0;
            },
        );
        assert_eq!(w.s[0], 0x8000_0001, "{gen}");
        assert_eq!((w.s[2], w.s[3]), (0xc, 0xc), "{gen}");
    }
    for gen in [Gen::Gcn12, Gen::Gcn14] {
        let w = run(gen, "v_readlane_regrd_b32 s0, v1, s2", |w| {
            w.v[1][63] = 0x1234_5678;
            w.s[2] = 63 + 64; // lane select uses bits 5:0
        });
        assert_eq!(w.s[0], 0x1234_5678, "{gen}");
    }
    let w = run(
        Gen::Gcn14,
        "v_mov_prsv_b32 v0, v1\nv_writelane_regwr_b32 v2, s1",
        |w| {
            w.set_s64(EXEC, 0b101);
            w.v[1] = [7; 64];
            w.s[1] = 0xffff_ffff;
        },
    );
    assert_eq!(&w.v[0][..4], &[7, 0, 7, 0]);
    assert_eq!(&w.v[2][..4], &[0xffff_ffff, 0, 0xffff_ffff, 0]);
}

// ---------------------------------------------------------------------------
// v_screen_partition_4se_b32 (GcnInstrsVop1.md: VDST = TABLE[SRC0&0xff]).

#[test]
fn screen_partition_looks_up_the_low_byte() {
    // (SRC0, TABLE entry as printed in the document: row SRC0/16, column SRC0%16)
    let cases: [(u32, u32); 8] = [
        (0x00, 0x1),
        (0x01, 0x3),
        (0x11, 0x2),
        (0x22, 0x4),
        (0x33, 0x8),
        (0x80, 0xb),
        (0xff, 0x1),
        (0xffff_ff04, 0x5), // only the low byte counts
    ];
    for (x, want) in cases {
        let w = run(Gen::Gcn14, "v_screen_partition_4se_b32 v0, v1", |w| {
            w.v[1] = [x; 64];
        });
        assert_eq!(w.v[0][0], want, "{x:#x}");
        let w = run(Gen::Gcn14, "v_screen_partition_4se_b32_e64 v0, s1", |w| {
            w.s[1] = x;
        });
        assert_eq!(w.v[0][5], want, "{x:#x} (VOP3, SGPR source)");
    }
}

// ---------------------------------------------------------------------------
// v_mqsad_u32_u8 (GcnInstrsVop3.md V_MQSAD_U32_U8): dword N = MIN(SRC2[N] +
// sum over bytes i with SRC1.byte[i] != 0 of |SRC0.byte[N+i] - SRC1.byte[i]|,
// 0xffffffff).

#[test]
fn mqsad_u32_u8_edge_values() {
    struct C {
        src0: u64,
        src1: u32,
        src2: [u32; 4],
        want: [u32; 4],
    }
    let cases = [
        // All zero reference bytes: masked out, the accumulators pass through.
        C {
            src0: 0xffff_ffff_ffff_ffff,
            src1: 0,
            src2: [1, 2, 3, 0xffff_ffff],
            want: [1, 2, 3, 0xffff_ffff],
        },
        // Reference 0x01010101 against windows of 0xff bytes: 4 * 254 each.
        C {
            src0: 0xffff_ffff_ffff_ffff,
            src1: 0x0101_0101,
            src2: [0; 4],
            want: [1016; 4],
        },
        // Saturation at 2^32 - 1 (1016 = 0x3f8): 0xfffffffe and 0xfffffc08 overflow
        // and clamp, 0xfffffc07 reaches 0xffffffff exactly, 0xfffffc06 stays below.
        C {
            src0: 0xffff_ffff_ffff_ffff,
            src1: 0x0101_0101,
            src2: [0xffff_fffe, 0xffff_fc08, 0xffff_fc07, 0xffff_fc06],
            want: [0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0xffff_fffe],
        },
        // Sliding windows over bytes 01 02 03 04 05 06 07 08 against 01 02 03 04:
        // window N is (N+1 .. N+4): each byte differs by N, so N * 4.
        C {
            src0: 0x0807_0605_0403_0201,
            src1: 0x0403_0201,
            src2: [10, 20, 30, 40],
            want: [10, 24, 38, 52],
        },
        // A zero reference byte in the middle is skipped; a zero window byte is not.
        C {
            src0: 0x0000_0000_0000_0000,
            src1: 0x8000_ff00,
            src2: [0; 4],
            want: [0x17f; 4],
        },
    ];
    for gen in [Gen::Gcn11, Gen::Gcn12, Gen::Gcn14] {
        for c in &cases {
            let w = run(gen, "v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[8:11]", |w| {
                w.v[4] = [c.src0 as u32; 64];
                w.v[5] = [(c.src0 >> 32) as u32; 64];
                w.v[6] = [c.src1; 64];
                for k in 0..4 {
                    w.v[8 + k] = [c.src2[k]; 64];
                }
            });
            let got = [w.v[0][9], w.v[1][9], w.v[2][9], w.v[3][9]];
            assert_eq!(
                got, c.want,
                "{gen} {:#x} {:#x} {:?}",
                c.src0, c.src1, c.src2
            );
        }
        // Result overlapping SRC2 (in place accumulation) reads SRC2 first.
        let w = run(gen, "v_mqsad_u32_u8 v[8:11], v[4:5], v6, v[8:11]", |w| {
            w.set_s64(EXEC, 1);
            w.v[4] = [0x0403_0201; 64];
            w.v[5] = [0x0807_0605; 64];
            w.v[6] = [0x0403_0201; 64];
            for k in 0..4 {
                w.v[8 + k] = [100; 64];
            }
        });
        assert_eq!(
            [w.v[8][0], w.v[9][0], w.v[10][0], w.v[11][0]],
            [100, 104, 108, 112]
        );
        assert_eq!(w.v[8][1], 100, "{gen}: lanes outside EXEC keep their value");
    }
}

// ---------------------------------------------------------------------------
// s_scratch_load/store (GCN 1.4, GcnInstrsSmem.md S_SCRATCH_LOAD_DWORD:
// address = SBASE + (OFFSET & ~3) + (SGPROFFSET & ~3) * 64).

const SCRATCH: u64 = 0x10_0000;

fn scratch_mem() -> SimpleMemory {
    let m = SimpleMemory::new();
    m.add(SCRATCH, vec![0u8; 0x1000]);
    m
}

fn dword(m: &SimpleMemory, off: usize) -> u32 {
    let b = m.get(SCRATCH).unwrap();
    u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
}

#[test]
fn scalar_scratch_round_trip_and_addressing() {
    let mem = scratch_mem();
    let src = "
        s_scratch_store_dwordx4 s[8:11], s[2:3], 0x13
        s_scratch_store_dword s12, s[2:3], s5
        s_scratch_store_dwordx2 s[14:15], s[2:3], s6
        s_waitcnt 0
        s_scratch_load_dwordx4 s[20:23], s[2:3], 0x10
        s_scratch_load_dword s24, s[2:3], s7
        s_scratch_load_dwordx2 s[26:27], s[2:3], 0xff8";
    let (w, r) = run_with(Gen::Gcn14, src, &mem, |w| {
        w.set_s64(2, SCRATCH);
        for k in 0..4 {
            w.s[8 + k] = 0x1111_1111 * (k as u32 + 1);
        }
        w.s[12] = 0xdead_beef;
        w.s[14] = 0x0102_0304;
        w.s[15] = 0x0506_0708;
        w.s[5] = 7; // (7 & ~3) * 64 = 256
        w.s[6] = 0x3c; // 0x3c * 64 = 0xf00
        w.s[7] = 4; // 256 again
    });
    r.unwrap();
    // OFFSET 0x13 is used as 0x10.
    for k in 0..4 {
        assert_eq!(dword(&mem, 0x10 + 4 * k), 0x1111_1111 * (k as u32 + 1));
        assert_eq!(w.s[20 + k], 0x1111_1111 * (k as u32 + 1));
    }
    assert_eq!(dword(&mem, 256), 0xdead_beef);
    assert_eq!(w.s[24], 0xdead_beef);
    assert_eq!(
        (dword(&mem, 0xf00), dword(&mem, 0xf04)),
        (0x0102_0304, 0x0506_0708)
    );
    // The last 8 bytes of the segment (all zero) load without a fault.
    assert_eq!((w.s[26], w.s[27]), (0, 0));
}

#[test]
fn scalar_scratch_outside_the_segment_faults() {
    for (src, write) in [
        ("s_scratch_load_dwordx2 s[0:1], s[2:3], 0xffc", false),
        ("s_scratch_store_dword s0, s[2:3], s5", true),
    ] {
        let mem = scratch_mem();
        let (_, r) = run_with(Gen::Gcn14, src, &mem, |w| {
            w.set_s64(2, SCRATCH);
            w.s[5] = 0x40; // 0x40 * 64 = 0x1000: one past the end
        });
        match r.unwrap_err().kind {
            FaultKind::Memory {
                lane,
                addr,
                write: wr,
                ..
            } => {
                assert_eq!((lane, wr), (None, write), "{src}");
                assert!(addr >= SCRATCH + 0xffc, "{src}: {addr:#x}");
            }
            k => panic!("{src}: {k}"),
        }
        assert!(mem.get(SCRATCH).unwrap().iter().all(|&b| b == 0));
    }
}

// ---------------------------------------------------------------------------
// VOP3 OP_SEL (GCN 1.4; GcnInstrsVop3.md "Operand half selection": OP_SEL
// bits 11-13 pick the high 16 bits of SRC0-2, bit 14 the high half of VDST).
// Encodings of every program below agree with llvm-mc -mcpu=gfx900.

/// f16 bit patterns.
const H1: u32 = 0x3c00; // 1.0
const H2: u32 = 0x4000; // 2.0
const H3: u32 = 0x4200; // 3.0
const H5: u32 = 0x4500; // 5.0
const HALF: u32 = 0x3800; // 0.5
const H100: u32 = 0x5640; // 100.0

fn opsel_run(src: &str) -> Wave {
    run(Gen::Gcn14, src, |w| {
        w.set_s64(EXEC, 0b11);
        w.v[0] = [0xaaaa_bbbb; 64];
        w.v[1] = [H2 << 16 | H1; 64];
        w.v[2] = [H3 << 16 | H5; 64];
        w.v[3] = [HALF << 16 | H100; 64];
    })
}

#[test]
fn opsel_selects_source_and_destination_halves() {
    // (program, expected v0 in lane 0; lanes outside EXEC keep 0xaaaabbbb)
    let cases = [
        // All high: 2 * 3 + 0.5 = 6.5 (0x4680) into the high half, low half kept.
        ("v_fma_f16 v0, v1, v2, v3 op_sel:[1,1,1,1]", 0x4680_bbbb),
        // No OP_SEL: 1 * 5 + 100 = 105 (0x5690) in the low half; v_fma_f16
        // keeps the high half on GCN 1.4 (tests/half_dst.rs).
        ("v_fma_f16 v0, v1, v2, v3", 0xaaaa_5690),
        // SRC0 high only: 2 * 5 + 100 = 110 (0x56e0).
        ("v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0,0]", 0xaaaa_56e0),
        // NEG applies to the selected half: -2 * 5 + 100 = 90 (0x55a0).
        ("v_fma_f16 v0, -v1, v2, v3 op_sel:[1,0,0,0]", 0xaaaa_55a0),
        // Integer: lo(v1) * hi(v2) + lo(v3) = 0x3c00 * 0x4200 + 0x5640 mod 2^16.
        (
            "v_mad_u16 v0, v1, v2, v3 op_sel:[0,1,0,1]",
            ((0x3c00u32 * 0x4200 + 0x5640) & 0xffff) << 16 | 0xbbbb,
        ),
        // 32-bit result from high 16-bit sources: 0x4000 * 0x4200 + v3.
        (
            "v_mad_u32_u16 v0, v1, v2, v3 op_sel:[1,1,0,0]",
            0x4000u32 * 0x4200 + (HALF << 16 | H100),
        ),
        // v_pack_b32_f16 of the two high halves.
        ("v_pack_b32_f16 v0, v1, v2 op_sel:[1,1,0]", H3 << 16 | H2),
        // max3_i16(0x3c00, 0x4500, hi(v3) = 0x3800) = 0x4500 into the high half.
        ("v_max3_i16 v0, v1, v2, v3 op_sel:[0,0,1,1]", 0x4500_bbbb),
        // add_i16 of the high halves into the high half: 0x4000 + 0x4200.
        ("v_add_i16 v0, v1, v2 op_sel:[1,1,1]", 0x8200_bbbb),
    ];
    for (src, want) in cases {
        let w = opsel_run(src);
        assert_eq!(w.v[0][0], want, "{src}: {:#x}", w.v[0][0]);
        assert_eq!(w.v[0][1], want, "{src}: lane 1");
        assert_eq!(w.v[0][2], 0xaaaa_bbbb, "{src}: lane outside EXEC");
    }
    // The high half of an SGPR and an inline constant (1.0 as f16 in the low half,
    // 0 above): med3(hi v1 = 2, hi s2 = 3, 1.0) = 2.0 into the high half.
    let w = run(
        Gen::Gcn14,
        "v_med3_f16 v0, v1, s2, 1.0 op_sel:[1,1,0,1]",
        |w| {
            w.v[0] = [0x1234_5678; 64];
            w.v[1] = [H2 << 16 | H5; 64];
            w.s[2] = H3 << 16 | H100;
        },
    );
    assert_eq!(w.v[0][0], H2 << 16 | 0x5678);
}

#[test]
fn opsel_on_a_32_bit_operand_is_refused() {
    // LLVM rejects these; the raw encodings are v_mad_u32_u16 with OP_SEL[3]
    // (a 32-bit destination) and v_add_f32_e64 with OP_SEL[0].
    for words in [[0xd1f1_4000u32, 0x040e_0501], [0xd101_0800, 0x0002_0501]] {
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let prog = Program::new(Gen::Gcn14, &code, BASE);
        let mem = SimpleMemory::new();
        let mut lds = vec![];
        let mut ctx = Ctx::new(&prog, &mem, &mut lds);
        let mut w = Wave::new(0);
        w.set_s64(EXEC, 1);
        let f = exec::run_wave(&mut w, &mut ctx).unwrap_err();
        assert!(
            matches!(&f.kind, FaultKind::BadOperand(m) if m.contains("op_sel")),
            "{f}"
        );
    }
}
