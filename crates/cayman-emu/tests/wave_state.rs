//! The per-wave registers ALU clauses write, in programs written with risa's
//! Cayman assembler: the CF index registers (SET_CF_IDX0/1 and MOVA_INT to
//! CF_IDX0/1) and everything that reads them — JUMPTABLE_SEL 4/5, the kcache
//! bank index modes of ALU_EXTENDED, RAT_INDEX_MODE, the vertex fetch
//! BUFFER_INDEX_MODE (guide 9.1/9.3 "*_INDEX_MODE": "add index0/index1 to
//! the constant (CB#/T#/S#/UAV#) number"); the floating-point exception
//! flags (4.13.2: STORE_FLAGS / LOAD_STORE_FLAGS); SET_LDS_SIZE (8.2: "the
//! (LDS size – 1) is the highest offset that can be accessed. Writes
//! outside this range are discarded; reads return 0").

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

/// Runs `src` as one wave (64 lanes) with constant buffers `cb`, the global
/// pool `pool` and LDS `lds`; `setup` fills GPRs first.
fn run_with(
    src: &str,
    cb: &[Vec<u32>],
    pool: &Pool,
    lds: &mut [u32],
    setup: impl Fn(&mut Wave),
) -> Result<Wave, Fault> {
    let k = asm(src);
    let gds = Pool::new(64);
    let env = one_wave_env(&k, cb, pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, lds)?;
    Ok(w)
}

fn run(src: &str, setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    run_with(src, &[vec![0; 64]], &Pool::new(256), &mut [0; 64], setup)
}

fn lane(w: &Wave, r: usize, c: usize, l: usize) -> u32 {
    w.gpr(r, c)[l]
}

/// A jump table of four entries whose targets write 10, 11, 12, 13 to R2.x
/// (the JUMPTABLE before it names `after` as its ADDR). The entries are
/// JUMPs with CF_COND_FALSE: "condition test fails for all pixels", so they
/// always jump.
const TABLE: &str = "
    JUMP: ADDR(e0) COND(FALSE)
    JUMP: ADDR(e1) COND(FALSE)
    JUMP: ADDR(e2) COND(FALSE)
    JUMP: ADDR(e3) COND(FALSE)
after:
    JUMP: ADDR(done) COND(FALSE)
e0:
    ALU:
        0 x: MOV R2.x, (10)
    JUMP: ADDR(done) COND(FALSE)
e1:
    ALU:
        0 x: MOV R2.x, (11)
    JUMP: ADDR(done) COND(FALSE)
e2:
    ALU:
        0 x: MOV R2.x, (12)
    JUMP: ADDR(done) COND(FALSE)
e3:
    ALU:
        0 x: MOV R2.x, (13)
done:
    END:
";

#[test]
fn set_cf_idx_selects_the_jump_table_entry() {
    // JUMPTABLE_SEL 4 (CF_JUMPTABLE_SEL_INDEX_0): the entry CF_IDX0 names
    for (idx, want) in [(0, 10), (2, 12), (3, 13)] {
        let src = format!(
            "
    ALU:
        0 x: SET_CF_IDX0 ____, R0.x
    JUMPTABLE: ADDR(after) JTS(4)
{TABLE}"
        );
        let w = run(&src, |w| w.gpr_mut(0, 0).fill(idx)).unwrap();
        assert_eq!(w.cf_idx(), [idx, 0]);
        assert_eq!(lane(&w, 2, 0, 5), want, "CF_IDX0 = {idx}");
    }
    // JUMPTABLE_SEL 5 reads CF_IDX1, written by SET_CF_IDX1 in slot y
    let src = format!(
        "
    ALU:
        0 y: SET_CF_IDX1 ____, R0.y
    JUMPTABLE: ADDR(after) JTS(5)
{TABLE}"
    );
    let w = run(&src, |w| w.gpr_mut(0, 1).fill(1)).unwrap();
    assert_eq!(w.cf_idx(), [0, 1]);
    assert_eq!(lane(&w, 2, 0, 0), 11);
}

#[test]
fn the_index_register_takes_the_first_executing_lane() {
    // one register per wavefront (table 2.9): lanes 0-3 are predicated
    // off, so lane 4's value (7 & 0x1ff) is written
    let src = "
    ALU:
        0 x: PRED_SETGE_INT ____, R0.x, (4) UPDATE_PRED
        1 x: SET_CF_IDX0 ____, R0.y PRED_SEL_ONE
    END:
";
    let w = run(src, |w| {
        for l in 0..64 {
            w.gpr_mut(0, 0)[l] = l as u32;
            w.gpr_mut(0, 1)[l] = 0x1000 + l as u32 + 3;
        }
    })
    .unwrap();
    assert_eq!(w.cf_idx(), [(0x1000 + 4 + 3) & 0x1ff, 0]);
}

#[test]
fn mova_int_writes_cf_idx_registers() {
    // ALU_WORD1_OP2_MOVA MOVA_DST 2/3: "store MOVA result nine lsbs in
    // CF_IDX0/1"; MOVA_INT clamps to [-256, 255] first (-256 for out of range)
    let src = format!(
        "
    ALU:
        0 x: MOVA_INT CF_IDX0.x, R0.x
          y: MOVA_INT CF_IDX1.y, R0.y
    JUMPTABLE: ADDR(after) JTS(5)
{TABLE}"
    );
    let w = run(&src, |w| {
        w.gpr_mut(0, 0).fill(1000);
        w.gpr_mut(0, 1).fill(2);
    })
    .unwrap();
    assert_eq!(
        w.cf_idx(),
        [0x100, 2],
        "1000 clamps to -256 = 0x100 in nine bits"
    );
    assert_eq!(lane(&w, 2, 0, 0), 12);
    // and MOVA_DST 0 still writes AR: no GPR (the field is not a GPR)
    let w = run(
        "
    ALU:
        0 x: MOVA_INT AR.x, R0.x
        1 x: MOV R3.x, R4[AR.x].x
    END:
",
        |w| {
            w.gpr_mut(0, 0).fill(2);
            w.gpr_mut(6, 0).fill(66);
        },
    )
    .unwrap();
    assert_eq!(lane(&w, 3, 0, 9), 66);
    assert_eq!(lane(&w, 0, 0, 9), 2, "R0.x untouched");
}

#[test]
fn a_jump_table_index_past_the_table_faults() {
    let src = format!(
        "
    ALU:
        0 x: SET_CF_IDX0 ____, R0.x
    JUMPTABLE: ADDR(after) JTS(4)
{TABLE}"
    );
    let e = run(&src, |w| w.gpr_mut(0, 0).fill(4))
        .err()
        .expect("a fault");
    assert!(e.message.contains("past the table"), "{e}");
}

#[test]
fn kcache_bank_index_modes_add_cf_idx_at_clause_start() {
    // ALU_EXTENDED KCACHE_INDEX_MODE(m0, m1, m2, m3): bank + CF_IDX0/1.
    // Constant buffer b holds 100 * b + dword.
    let cb: Vec<Vec<u32>> = (0..6)
        .map(|b| (0..64).map(|d| 100 * b + d).collect())
        .collect();
    let src = "
    ALU:
        0 x: SET_CF_IDX0 ____, (2)
          y: SET_CF_IDX1 ____, (3)
    ALU_EXTENDED: KCACHE_INDEX_MODE(1,2,0,1) KCACHE2(CB1:0-15) KCACHE3(CB1:0-15)
    ALU: KCACHE0(CB0:0-15) KCACHE1(CB1:0-15)
        0 x: MOV R2.x, KC0[1].y
          y: MOV R2.y, KC1[0].x
        1 z: MOV R2.z, KC2[0].z
          w: MOV R2.w, KC3[0].w
    END:
";
    let w = run_with(src, &cb, &Pool::new(256), &mut [0; 64], |_| {}).unwrap();
    // bank 0 + CF_IDX0 (2) = CB2; bank 1 + CF_IDX1 (3) = CB4; bank 1 unindexed;
    // bank 1 + CF_IDX0 = CB3
    assert_eq!(
        [0, 1, 2, 3].map(|c| lane(&w, 2, c, 0)),
        [205, 400, 102, 303]
    );
}

#[test]
fn rat_index_mode_adds_cf_idx_to_the_rat_id() {
    // RAT(0) RIM(1) with CF_IDX0 = 0 is RAT 0 (the pool); with CF_IDX0 = 1
    // it is RAT 1, which risa does not bind: a fault naming RAT 1
    let src = |idx: u32| {
        format!(
            "
    ALU:
        0 x: SET_CF_IDX0 ____, ({idx})
        1 x: MOV R1.x, (0x11)
        2 x: MOV R2.x, (3)
    MEM_RAT_CACHELESS STORE_DWORD: WRITE_IND RAT(0) RIM(1) [R2], R1.x___
    END:
"
        )
    };
    let pool = Pool::new(256);
    run_with(&src(0), &[vec![0; 64]], &pool, &mut [0; 64], |_| {}).unwrap();
    assert_eq!(pool.to_bytes()[12..16], [0x11, 0, 0, 0]);
    let e = run_with(&src(1), &[vec![0; 64]], &pool, &mut [0; 64], |_| {})
        .err()
        .expect("a fault");
    assert!(e.message.contains("RAT 1"), "{e}");
}

#[test]
fn vertex_fetch_buffer_index_mode_adds_cf_idx_to_the_buffer_id() {
    // fc0 BIM(2) with CF_IDX1 = 1 fetches from buffer 1 (the global pool)
    let src = "
    ALU:
        0 x: MOV R1.x, (8)
          y: SET_CF_IDX1 ____, (1)
    TC:
        VFETCH R3.x___, R1.x, fc0 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT BIM(2)
    END:
";
    let mut bytes = vec![0u8; 256];
    bytes[8..12].copy_from_slice(&0xabcd_u32.to_le_bytes());
    let pool = Pool::from_bytes(&bytes);
    let w = run_with(src, &[vec![0; 64]], &pool, &mut [0; 64], |_| {}).unwrap();
    assert_eq!(lane(&w, 3, 0, 0), 0xabcd);
    // without the index, buffer 0 is not bound
    let e = run_with(
        &src.replace(" BIM(2)", ""),
        &[vec![0; 64]],
        &pool,
        &mut [0; 64],
        |_| {},
    )
    .err()
    .expect("a fault");
    assert!(e.message.contains("buffer 0"), "{e}");
}

#[test]
fn vertex_buffer_3_reads_the_kernel_parameters() {
    // Mesa's r600 driver binds the parameter buffer (constant buffer 0) as
    // vertex buffer 3 too; libclc's get_work_dim() reads it with VFETCH fc3.
    let src = "
    ALU:
        0 x: MOV R1.x, (36)
          y: MOV R1.y, (44)
    TC:
        VFETCH R3.x___, R1.x, fc3 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32 NUM_INT
        VFETCH R4.xy__, R1.y, fc3 FETCH_TYPE(NO_INDEX_OFFSET) FMT_32_32 NUM_INT
    END:
";
    let mut cb0 = vec![0u32; 16];
    for (k, v) in cb0.iter_mut().enumerate() {
        *v = 0x100 + k as u32;
    }
    let w = run_with(src, &[cb0.clone()], &Pool::new(256), &mut [0; 64], |_| {}).unwrap();
    assert_eq!(lane(&w, 3, 0, 5), 0x109);
    assert_eq!((lane(&w, 4, 0, 0), lane(&w, 4, 1, 0)), (0x10b, 0x10c));
    // Past the parameters: a fault naming the buffer.
    let far = src.replace("(36)", "(64)");
    let e = run_with(&far, &[cb0], &Pool::new(256), &mut [0; 64], |_| {})
        .err()
        .expect("a fault");
    assert!(e.message.contains("kernel parameters"), "{e}");
}

#[test]
fn exception_flags_accumulate_over_the_clause() {
    // 4.13.2: bit 0 invalid, 1 denormal, 2 division by zero, 3 overflow,
    // 4 underflow, 5 inexact; ORed over the clause's instructions, "inclusive
    // of the current VLIW"; STORE_FLAGS only in W
    let src = "
    ALU:
        0 x: ADD R2.x, R0.x, R0.y
          y: MUL_IEEE R2.y, R0.z, R0.z
          w: STORE_FLAGS R3.w, (0)
        1 x: RECIP_IEEE R2.x, R1.x
          y: RECIP_IEEE ____, R1.x
          z: RECIP_IEEE ____, R1.x
          w: STORE_FLAGS R4.w, (0)
    END:
";
    let w = run(src, |w| {
        for l in 0..64 {
            // lane 0: 1 + 2^-30 (inexact); lane 1: inf + -inf (invalid);
            // lane 2: exact; lane 3: a denormal input
            let (a, b) = match l {
                0 => (1.0f32.to_bits(), (2.0f32).powi(-30).to_bits()),
                1 => (f32::INFINITY.to_bits(), f32::NEG_INFINITY.to_bits()),
                3 => (1.0f32.to_bits(), 1),
                _ => (1.0f32.to_bits(), 2.0f32.to_bits()),
            };
            w.gpr_mut(0, 0)[l] = a;
            w.gpr_mut(0, 1)[l] = b;
            // lane 4: 1e30² overflows, lane 5: 1e-30² underflows
            w.gpr_mut(0, 2)[l] = match l {
                4 => 1e30f32.to_bits(),
                5 => 1e-30f32.to_bits(),
                _ => 0,
            };
            // lane 6: 1/0
            w.gpr_mut(1, 0)[l] = if l == 6 { 0 } else { 4.0f32.to_bits() };
        }
    })
    .unwrap();
    let first: Vec<u32> = (0..7).map(|l| lane(&w, 3, 3, l)).collect();
    assert_eq!(
        first,
        [
            FLAG_INEXACT,
            FLAG_INVALID,
            0,
            // the denormal input is flushed to 0 first (risa's denormal
            // mode): 1 + 0 is exact, only the denormal flag is raised
            FLAG_DENORMAL,
            FLAG_OVERFLOW | FLAG_INEXACT,
            FLAG_UNDERFLOW | FLAG_INEXACT,
            0,
        ]
    );
    // the second group ORs RECIP's flags in: 1/0 divides by zero
    assert_eq!(lane(&w, 4, 3, 6), FLAG_DIV_ZERO);
    assert_eq!(lane(&w, 4, 3, 0), FLAG_INEXACT);
    assert_eq!(w.flags()[6], FLAG_DIV_ZERO);
}

#[test]
fn load_store_flags_restores_and_a_new_clause_clears() {
    let src = "
    ALU:
        0 x: ADD R2.x, R0.x, R0.y
          w: LOAD_STORE_FLAGS R3.w, R1.w
        1 w: STORE_FLAGS R4.w, R0.x
    ALU:
        0 w: STORE_FLAGS R5.w, R0.x
    END:
";
    let w = run(src, |w| {
        w.gpr_mut(0, 0).fill(f32::INFINITY.to_bits());
        w.gpr_mut(0, 1).fill(f32::NEG_INFINITY.to_bits());
        w.gpr_mut(1, 3).fill(0xffff_ff00 | FLAG_OVERFLOW);
    })
    .unwrap();
    // dst = the flags including the group's ADD (invalid); then the working
    // copy is src0's six bits; the next clause starts from zero
    assert_eq!(lane(&w, 3, 3, 0), FLAG_INVALID);
    assert_eq!(lane(&w, 4, 3, 0), FLAG_OVERFLOW);
    assert_eq!(lane(&w, 5, 3, 0), 0);
}

#[test]
fn store_flags_outside_the_w_slot_faults() {
    let e = run(
        "
    ALU:
        0 x: STORE_FLAGS R3.x, R0.x
    END:
",
        |_| {},
    )
    .err()
    .expect("a fault");
    assert!(e.message.contains("only in the W slot"), "{e}");
}

#[test]
fn set_lds_size_discards_writes_and_zeroes_reads_beyond_the_size() {
    // lanes write their lane id to LDS byte 4 * lane after SET_LDS_SIZE(64):
    // lanes 0-15 write (offsets 0..60 <= 63), the rest are discarded; then
    // every lane reads byte 4 * lane back: lanes 16+ read 0
    let src = "
    ALU:
        0 x: SET_LDS_SIZE ____, (64)
    ALU:
        0 x: LSHL_INT R1.x, R0.x, (2)
        1 x: LDS_WRITE R1.x, R0.x
        2 x: LDS_READ_RET R1.x
        3 x: MOV R2.x, OQAP
    END:
";
    let mut lds = [0x5555_5555u32; 64];
    let w = run_with(src, &[vec![0; 64]], &Pool::new(256), &mut lds, |w| {
        for l in 0..64 {
            w.gpr_mut(0, 0)[l] = l as u32;
        }
    })
    .unwrap();
    for l in 0..64 {
        let want = if l < 16 { l as u32 } else { 0 };
        assert_eq!(lane(&w, 2, 0, l), want, "lane {l}");
    }
    assert_eq!(lds[15], 15);
    assert_eq!(lds[16], 0x5555_5555, "discarded");
}

/// SET_MODE (guide 4.13.1, 8.2): SRC0_SEL bits 3:0 are the single-precision
/// mode (1:0 round: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward
/// zero; bit 2 keeps denormal inputs, bit 3 denormal results), SRC1_SEL the
/// double one. Selects 0-15 are GPRs to the assembler, so `R3.x` as SRC0
/// writes mode 3. The mode covers SET_MODE's whole group and the groups
/// after it, until the clause ends.
#[test]
fn set_mode_rounds_every_way_the_guide_lists() {
    let one_plus = |k: i32| f32::from_bits(0x3f80_0000) + 2f32.powi(-k);
    // 1 + 2^-24 lies halfway between 1 and 1 + 2^-23 (the next float up)
    for (mode, sum, neg_sum, i2f) in [
        (0, 1.0, -1.0, 16_777_216.0),
        (1, one_plus(23), -1.0, 16_777_218.0),
        (2, 1.0, -one_plus(23), 16_777_216.0),
        (3, 1.0, -1.0, 16_777_216.0),
    ] {
        let src = format!(
            "
    ALU:
        0 x: ADD R2.x, R0.x, R0.y
          y: ADD R2.y, -R0.x, -R0.y
          z: INT_TO_FLT R2.z, R0.z
          w: SET_MODE ____, R{mode}.w, R0.w
        1 x: ADD R3.x, R0.x, R0.y
    ALU:
        0 x: ADD R4.x, R0.x, R0.y
    END:
"
        );
        let w = run(&src, |w| {
            w.gpr_mut(0, 0).fill(f32::to_bits(1.0));
            w.gpr_mut(0, 1).fill(2f32.powi(-24).to_bits());
            w.gpr_mut(0, 2).fill(16_777_217); // 2^24 + 1: halfway again
        })
        .unwrap();
        assert_eq!(f32::from_bits(lane(&w, 2, 0, 0)), sum, "mode {mode}");
        assert_eq!(f32::from_bits(lane(&w, 2, 1, 0)), neg_sum, "mode {mode}");
        assert_eq!(f32::from_bits(lane(&w, 2, 2, 0)), i2f, "mode {mode}");
        // the next group of the clause still rounds so; the next clause is back to the default
        assert_eq!(f32::from_bits(lane(&w, 3, 0, 0)), sum, "mode {mode}");
        assert_eq!(f32::from_bits(lane(&w, 4, 0, 0)), 1.0, "mode {mode}");
    }
}

#[test]
fn set_mode_denormal_controls() {
    // 2^-149 + 2^-149 = 2^-148, both denormal: flushed in (0), kept in but
    // flushed out (0), kept in and out (2^-148); MUL stays legacy (0 × inf = 0)
    let tiny = f32::from_bits(1);
    for (mode, want) in [(0u32, 0u32), (4, 0), (12, 2), (8, 0)] {
        let src = format!(
            "
    ALU:
        0 w: SET_MODE ____, R{mode}.w, R0.w
        1 x: ADD R2.x, R0.x, R0.x
          y: MUL R2.y, R0.z, R0.w
    END:
"
        );
        let w = run(&src, |w| {
            w.gpr_mut(0, 0).fill(tiny.to_bits());
            w.gpr_mut(0, 2).fill(0);
            w.gpr_mut(0, 3).fill(f32::INFINITY.to_bits());
        })
        .unwrap();
        assert_eq!(lane(&w, 2, 0, 0), want, "mode {mode}");
        assert_eq!(lane(&w, 2, 1, 0), 0, "mode {mode}");
    }
}
