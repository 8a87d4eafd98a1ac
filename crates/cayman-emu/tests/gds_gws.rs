//! Every GDS operation (guide 9.6 MEM_GDS_WORD1 GDS_OP, the DS_INST table)
//! against a model written from the table's definitions, the two-value
//! returns, BCAST_FIRST_REQ, REL_GLOBAL, ALLOC_CONSUME on the append/consume
//! counters (UAV_ID, UAV_INDEX_MODE); GWS semaphores and barriers across
//! the waves of a dispatch (guide 8.1 GWS_*), ordered append in wave order,
//! deadlocks ending in faults; LDS direct reads with THREAD_REL; the
//! exports and CALL_FS a compute program cannot run. Programs are written
//! with risa's Cayman assembler.

#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use risa_cayman_emu::wave::{Env, Wave};
use risa_cayman_emu::*;
use risa_runtime::cayman::{load, run, run_with_gds};

/// The guide's DS_INST definitions on a dword model, one lane after the
/// other: returns (first, second) returned values. `a` = address (bytes),
/// `x` = data 0, `y` = data 1, `off` = the instruction's dword offset.
fn model(op: &str, m: &mut [u32], a: u32, x: u32, y: u32, off: u32) -> (u32, u32) {
    let w = (a / 4) as usize;
    let b = a % 4;
    let base = op.strip_suffix("_RET").unwrap_or(op);
    let old = m[w];
    let set = |m: &mut [u32], v: u32| {
        m[w] = v;
    };
    match base {
        "ADD" => set(m, old.wrapping_add(x)),
        "SUB" => set(m, old.wrapping_sub(x)),
        "RSUB" => set(m, x.wrapping_sub(old)),
        "INC" => set(m, if old >= x { 0 } else { old + 1 }),
        "DEC" => set(m, if old == 0 || old > x { x } else { old - 1 }),
        "MIN_INT" => set(m, (old as i32).min(x as i32) as u32),
        "MAX_INT" => set(m, (old as i32).max(x as i32) as u32),
        "MIN_UINT" => set(m, old.min(x)),
        "MAX_UINT" => set(m, old.max(x)),
        "AND" => set(m, old & x),
        "OR" => set(m, old | x),
        "XOR" => set(m, old ^ x),
        // MSKOR(dst, src0, src1): DS(dst) = (DS(dst) & ~src0) | src1
        "MSKOR" => set(m, (old & !x) | y),
        "WRITE" | "XCHG" => set(m, x),
        "CMP_STORE" | "CMP_XCHG" => set(m, if old == x { y } else { old }),
        "CMP_STORE_SPF" | "CMP_XCHG_SPF" => set(
            m,
            if f32::from_bits(old) == f32::from_bits(x) {
                y
            } else {
                old
            },
        ),
        "BYTE_WRITE" => {
            let mut bytes = old.to_le_bytes();
            bytes[b as usize] = x as u8;
            set(m, u32::from_le_bytes(bytes))
        }
        "SHORT_WRITE" => {
            let mut bytes = old.to_le_bytes();
            let h = (b & 2) as usize;
            bytes[h..h + 2].copy_from_slice(&(x as u16).to_le_bytes());
            set(m, u32::from_le_bytes(bytes))
        }
        "WRITE_REL" | "XCHG_REL" | "WRITE2" | "XCHG2" => {
            // tmp = dst + offset (REL) or + offset * 64 (2), in dwords
            let t = w + off as usize * if base.ends_with('2') { 64 } else { 1 };
            let o2 = m[t];
            m[w] = x;
            m[t] = y;
            return (old, o2);
        }
        "READ_REL" => return (old, m[w + off as usize]),
        "READ2" => return (old, m[(x / 4) as usize]),
        "READWRITE" => {
            m[(x / 4) as usize] = y;
            return (old, 0);
        }
        "BYTE_READ" => return ((old >> (8 * b)) as u8 as i8 as i32 as u32, 0),
        "UBYTE_READ" => return ((old >> (8 * b)) as u8 as u32, 0),
        "SHORT_READ" => return ((old >> (8 * (b & 2))) as u16 as i16 as i32 as u32, 0),
        "USHORT_READ" => return ((old >> (8 * (b & 2))) as u16 as u32, 0),
        "READ" => {}
        other => panic!("no model for {other}"),
    }
    (old, 0)
}

fn one_wave(src: &str, gds: &Pool, setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let pool = Pool::new(64);
    let env = one_wave_env(&k, &cb, &pool, gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, &mut [0u32; 512])?;
    Ok(w)
}

#[test]
fn every_gds_op_against_the_ds_inst_table() {
    let init: Vec<u32> = (0..1024u32)
        .map(|i| match i % 5 {
            0 => i.wrapping_mul(0x9e37_79b9),
            1 => 0,
            2 => (i as f32).to_bits(),
            3 => u32::MAX - i,
            _ => i,
        })
        .collect();
    const OFF: u32 = 3;
    let mut ran = 0;
    for o in risa_cayman::ops::LDS_OPS {
        if o.name == "ATOMIC_ORDERED_ALLOC_RET" {
            continue; // needs BCAST_FIRST_REQ and a dispatch: its own test
        }
        let narrow = o.name.contains("BYTE") || o.name.contains("SHORT");
        let lane = |l: usize| -> (u32, u32, u32) {
            let a = 4 * l as u32 + if narrow { (l % 4) as u32 } else { 0 };
            // data 0: the second address of READ2/READWRITE, a value otherwise
            let x = match o.name {
                "READ2_RET" | "READWRITE_RET" => 4 * (512 + l as u32),
                _ if l.is_multiple_of(3) => init[l + 1],
                _ if l % 3 == 1 => (l as f32).to_bits(),
                _ => l as u32 * 7,
            };
            (a, x, 0x5000_0000 | l as u32)
        };
        let src = format!("GDS:\n MEM_GDS {} R5.xy__, R1.xyz, R{OFF}\nEND:\n", o.name);
        let gds = Pool::from_bytes(&bytes_u32(&init));
        let wave = one_wave(&src, &gds, |wv| {
            for l in 0..64 {
                let (a, x, y) = lane(l);
                wv.gpr_mut(1, 0)[l] = a;
                wv.gpr_mut(1, 1)[l] = x;
                wv.gpr_mut(1, 2)[l] = y;
                wv.gpr_mut(5, 0)[l] = 0xdead;
                wv.gpr_mut(5, 1)[l] = 0xbeef;
            }
        })
        .unwrap_or_else(|f| panic!("{}: {f}", o.name));
        let mut m = init.clone();
        let ret = o.name.ends_with("_RET");
        for l in 0..64 {
            let (a, x, y) = lane(l);
            let (r0, r1) = model(o.name, &mut m, a, x, y, OFF);
            let (g0, g1) = (wave.gpr(5, 0)[l], wave.gpr(5, 1)[l]);
            if ret {
                assert_eq!((g0, g1), (r0, r1), "{} lane {l} returns", o.name);
            } else {
                assert_eq!((g0, g1), (0xdead, 0xbeef), "{}: nothing returned", o.name);
            }
        }
        assert_eq!(read_u32(&gds, 0, 1024), m, "{} GDS contents", o.name);
        ran += 1;
    }
    assert_eq!(ran, risa_cayman::ops::LDS_OPS.len() - 1);
}

#[test]
fn bcast_first_req_and_rel_global() {
    // BCAST_FIRST_REQ: only the first active lane adds; all lanes get its
    // old value. SRC_REL_MODE 2 (REL_GLOBAL) addresses the same dwords as 0:
    // risa's dispatch owns the whole GDS from address 0.
    let src = "
        GDS:
            MEM_GDS ADD_RET R5.x___, R1.xy0, R0 BCAST_FIRST_REQ
            MEM_GDS ADD_RET R6.x___, R1.xy0, R0 SRC_REL_MODE(2) DST_REL_MODE(2)
        END:
    ";
    let gds = Pool::from_bytes(&bytes_u32(&[100, 0, 0, 0]));
    let wave = one_wave(src, &gds, |wv| {
        for l in 0..64 {
            wv.gpr_mut(1, 0)[l] = 0;
            wv.gpr_mut(1, 1)[l] = 1 + l as u32;
        }
    })
    .unwrap();
    for l in 0..64 {
        assert_eq!(wave.gpr(5, 0)[l], 100, "broadcast old value");
        // lanes in order after the broadcast add of lane 0's 1
        let before: u32 = (0..l as u32).map(|k| k + 1).sum();
        assert_eq!(wave.gpr(6, 0)[l], 101 + before, "lane {l}");
    }
    assert_eq!(gds.load_u32(0).unwrap(), 101 + (1..=64).sum::<u32>());
    // ordered alloc without BCAST_FIRST_REQ is refused, ALLOC_CONSUME not emulated
    let f = one_wave(
        "GDS:\n MEM_GDS ATOMIC_ORDERED_ALLOC_RET R5.x___, R1.x00, R0\nEND:\n",
        &gds,
        |_| {},
    )
    .err()
    .expect("fault");
    assert!(f.message.contains("BCAST_FIRST_REQ"), "{f}");
}

/// A dispatch of `groups` one-wave work-groups of `src`; returns the pool.
fn dispatch(src: &str, groups: u32, gds: &Pool) -> Result<Pool, Fault> {
    let k = kernel_from_asm(src);
    let pool = Pool::new(4 * 64 * groups as usize);
    let mut d = Dispatch::linear(64 * groups, 64);
    d.max_instructions = 10_000;
    run_with_gds(&k, &d, &[], &pool, gds)?;
    Ok(pool)
}

#[test]
fn gws_barrier_holds_every_wave_until_all_arrive() {
    // each wave adds 1 to GDS[0], meets the others at GWS_BARRIER VALUE(4),
    // then reads GDS[0]: 4 in every wave. Group 0 runs first, so without
    // the barrier it would read 1.
    let src = "
        GDS:
            MEM_GDS ADD R5.____, R2.x10, R0 BCAST_FIRST_REQ
        GWS_BARRIER: VALUE(4) RESOURCE(1)
        GDS:
            MEM_GDS READ_RET R5.x___, R2.x00, R0
        ALU:
            0 x: LSHL_INT R3.x, R1.x, (6)
            1 x: ADD_INT R3.x, R3.x, R0.x
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R3], R5.x___
        END:
    ";
    let gds = Pool::new(GDS_BYTES);
    let pool = dispatch(src, 4, &gds).unwrap_or_else(|f| panic!("{f}"));
    let out = read_u32(&pool, 0, 256);
    // SEL_1 is 1.0: four broadcast adds of 0x3f800000
    assert!(
        out.iter().all(|&v| v == 4u32.wrapping_mul(0x3f80_0000)),
        "{:x?}",
        &out[..4]
    );
}

#[test]
fn gws_semaphores_and_ordered_alloc_in_wave_order() {
    // group 0 waits at SEMA_P on resource 0 until group 3 signals SEMA_V;
    // every wave then allocates (group id + 1) from the ordered counter,
    // which hands out values in wave order although group 0 gets there last
    let src = "
        ALU:
            0 x: ADD_INT R2.x, R1.x, 1
        ALU:
            0 z: LSHL_INT R3.z, R1.x, (6)
            1 x: ADD_INT R3.x, R3.z, R0.x
        ALU_PUSH_BEFORE:
            0 x: PRED_SETE_INT ____, R1.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
        JUMP: ADDR(next) POP_CNT(1)
        GWS_SEMA_P: RESOURCE(0)
    not0:
        POP: ADDR(next) POP_CNT(1)
    next:
        ALU_PUSH_BEFORE:
            0 x: PRED_SETE_INT ____, R1.x, (3) UPDATE_EXEC_MASK UPDATE_PRED
        JUMP: ADDR(alloc) POP_CNT(1)
        GWS_SEMA_V: RESOURCE(0)
    not3:
        POP: ADDR(alloc) POP_CNT(1)
    alloc:
        GDS:
            MEM_GDS ATOMIC_ORDERED_ALLOC_RET R4.x___, R2.x00, R0 BCAST_FIRST_REQ
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R3], R4.x___
        END:
    ";
    let gds = Pool::new(GDS_BYTES);
    let pool = dispatch(src, 4, &gds).unwrap_or_else(|f| panic!("{f}"));
    let out = read_u32(&pool, 0, 256);
    for g in 0..4u32 {
        // waves before group g allocated 1 + 2 + ... + g
        let want = g * (g + 1) / 2;
        assert!(
            out[64 * g as usize..64 * (g as usize + 1)]
                .iter()
                .all(|&v| v == want),
            "group {g}: {:?}",
            &out[64 * g as usize..64 * g as usize + 4]
        );
    }
}

#[test]
fn waits_nothing_can_end_are_faults_not_hangs() {
    let gds = Pool::new(GDS_BYTES);
    // nobody signals the semaphore
    let f = dispatch("GWS_SEMA_P: RESOURCE(5)\nEND:\n", 2, &gds)
        .err()
        .expect("fault");
    assert!(f.message.contains("GWS_SEMA_P on GWS resource 5"), "{f}");
    assert!(f.message.contains("can never be met"), "{f}");
    assert_eq!(f.at.cf, Some(0), "{f}");
    // a barrier for five waves in a dispatch of four
    let f = dispatch("GWS_BARRIER: VALUE(5) RESOURCE(2)\nEND:\n", 4, &gds)
        .err()
        .expect("fault");
    assert!(f.message.contains("GWS_BARRIER on GWS resource 2"), "{f}");
    // INIT then P: the initial count lets exactly that many waves through
    let src = "GWS_INIT: VALUE(3) RESOURCE(7)\nGWS_SEMA_P: RESOURCE(7)\nEND:\n";
    // every wave re-initializes to 3 before taking one: 4 waves pass
    dispatch(src, 4, &gds).unwrap_or_else(|f| panic!("{f}"));
    // too many waves to keep resident
    let f = dispatch("GWS_SEMA_V: RESOURCE(0)\nEND:\n", 600, &gds)
        .err()
        .expect("fault");
    assert!(f.message.contains("at most 512"), "{f}");
}

#[test]
fn lds_direct_thread_rel_reads_the_same_dwords() {
    let src = "
        ALU:
            0 x: MOV R5.x, LDS_DIRECT_A
              y: MOV R5.y, LDS_DIRECT_B
            LDS_DIRECT A(OFFSET(5) STRIDE(3) THREAD_REL) B(OFFSET(7) STRIDE(1))
        END:
    ";
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let pool = Pool::new(64);
    let gds = Pool::new(64);
    let env: Env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 100);
    let mut lds: Vec<u32> = (0..512).map(|i| 9000 + i).collect();
    w.run(&env, &mut lds).unwrap_or_else(|f| panic!("{f}"));
    for l in 0..64u32 {
        assert_eq!(w.gpr(5, 0)[l as usize], 9000 + 5 + 3 * l);
        assert_eq!(w.gpr(5, 1)[l as usize], 9000 + 7 + l);
    }
}

#[test]
fn graphics_exports_and_fetch_subroutines_fault_with_the_guides_reason() {
    let gds = Pool::new(64);
    for (src, want) in [
        (
            "EXPORT: POS ARRAY_BASE(60) R1.xyzw\nEND:\n",
            "only by VS and PS",
        ),
        (
            "EXPORT_DONE: PIXEL ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "only by VS and PS",
        ),
        (
            "EXPORT: PARAM ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "only by VS and PS",
        ),
        (
            "MEM_STREAM0_BUF0: WRITE ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "only to VS",
        ),
        (
            "MEM_STREAM3_BUF2: WRITE ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "only to VS",
        ),
        (
            "MEM_RING: WRITE ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "ring buffers",
        ),
        (
            "MEM_RING3: WRITE ARRAY_BASE(0) R1.xyzw\nEND:\n",
            "ring buffers",
        ),
        ("CALL_FS:\nEND:\n", "only a vertex shader"),
        ("EMIT_VERTEX:\nEND:\n", "geometry shaders"),
        (
            "GDS:\n MEM_TF_WRITE ADD R0.____, R1.xy0, R0\nEND:\n",
            "hull shaders",
        ),
    ] {
        let f = one_wave(src, &gds, |_| {}).err().expect("fault");
        assert!(f.message.contains(want), "{src}: {f}");
        assert_eq!(f.at.cf, Some(0), "{f}");
    }
}

#[test]
fn mem_export_combined_writes_x_and_y_at_w() {
    // export memory = the pool at byte 0; dwords ARRAY_BASE + W, + 1;
    // ARRAY_SIZE clamps; COMP_MASK.y clear drops Y
    let src = "
        MEM_EXPORT_COMBINED: WRITE ARRAY_BASE(4) R1.xy__ ARRAY_SIZE(100)
        MEM_EXPORT_COMBINED: WRITE ARRAY_BASE(200) R2.x___ ARRAY_SIZE(40)
        END:
    ";
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let pool = Pool::new(4 * 512);
    let gds = Pool::new(64);
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 100);
    for l in 0..64 {
        w.gpr_mut(1, 0)[l] = 1000 + l as u32;
        w.gpr_mut(1, 1)[l] = 2000 + l as u32;
        w.gpr_mut(1, 3)[l] = 2 * l as u32;
        w.gpr_mut(2, 0)[l] = 3000 + l as u32;
        w.gpr_mut(2, 1)[l] = 4000 + l as u32;
        w.gpr_mut(2, 3)[l] = l as u32;
    }
    w.run(&env, &mut [0u32; 16])
        .unwrap_or_else(|f| panic!("{f}"));
    let out = read_u32(&pool, 0, 512);
    let mut want = vec![0u32; 512];
    for l in 0..64usize {
        for (c, v) in [(0, 1000 + l as u32), (1, 2000 + l as u32)] {
            let d = 2 * l + c;
            if d < 100 {
                want[4 + d] = v;
            }
        }
        if l < 40 {
            want[200 + l] = 3000 + l as u32;
        }
    }
    assert_eq!(out, want);
}

#[test]
fn resident_waves_keep_group_barriers_and_lds_per_group() {
    // two groups of two waves: every work-item writes LDS[lid] = lid + 1,
    // meets its group at GROUP_BARRIER, reads LDS[127 - lid], then all four
    // waves meet at a GWS barrier before storing. Wave 1 of group 0 first
    // waits at GWS_SEMA_P for wave 0 of group 1, so group 0's barrier must
    // hold wave 0 (already there) until wave 1 has written its half.
    let out = risa_cayman_asm::assemble(
        "t.s",
        "
        .lds_size 512
        k:
        ALU:
            0 x: SETGE_UINT R5.x, R0.x, (64)
            1 y: SETE_INT R5.y, R1.x, 0.0f
            2 x: AND_INT R5.x, R5.x, R5.y
            3 z: SETGT_UINT R5.z, (64), R0.x
            4 w: SETE_INT R5.w, R1.x, 1
            5 z: AND_INT R5.z, R5.z, R5.w
        ALU_PUSH_BEFORE:
            0 x: PRED_SETNE_INT ____, R5.x, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
        JUMP: ADDR(a) POP_CNT(1)
        GWS_SEMA_P: RESOURCE(1)
        POP: ADDR(a) POP_CNT(1)
    a:
        ALU_PUSH_BEFORE:
            0 x: PRED_SETNE_INT ____, R5.z, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
        JUMP: ADDR(b) POP_CNT(1)
        GWS_SEMA_V: RESOURCE(1)
        POP: ADDR(b) POP_CNT(1)
    b:
        ALU:
            0 x: LSHL_INT R2.x, R0.x, (2)
            1 y: ADD_INT R2.y, R0.x, 1
            2 x: LDS_WRITE R2.x, R2.y
            3 x: GROUP_BARRIER ____
            4 z: SUB_INT R2.z, (508), R2.x
            5 x: LDS_READ_RET R2.z
            6 x: MOV R3.x, OQAP
        GWS_BARRIER: VALUE(4) RESOURCE(3)
        ALU:
            0 z: LSHL_INT R4.z, R1.x, (7)
            1 x: ADD_INT R4.x, R4.z, R0.x
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R4], R3.x___
        END:
    ",
        Default::default(),
    );
    assert!(!out.has_errors(), "{}", out.diagnostics());
    let k = load(&out.object().unwrap()).unwrap().remove(0);
    assert_eq!(k.lds_bytes, 512);
    let pool = Pool::new(4 * 256);
    let mut d = Dispatch::linear(256, 128);
    d.max_instructions = 10_000;
    let st = run(&k, &d, &[], &pool).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!((st.workgroups, st.waves), (2, 4));
    let got = read_u32(&pool, 0, 256);
    for i in 0..256u32 {
        assert_eq!(got[i as usize], 128 - i % 128, "work-item {i}");
    }
}

#[test]
fn ordered_alloc_alone_runs_resident_in_wave_order() {
    // no GWS: the ordered-append instruction alone puts the dispatch on the
    // all-resident path, whatever the thread count asked for
    let src = "
        ALU:
            0 x: ADD_INT R2.x, R1.x, 1
            1 z: LSHL_INT R3.z, R1.x, (6)
            2 x: ADD_INT R3.x, R3.z, R0.x
        GDS:
            MEM_GDS ATOMIC_ORDERED_ALLOC_RET R4.x___, R2.x00, R0 BCAST_FIRST_REQ
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R3], R4.x___
        END:
    ";
    let k = kernel_from_asm(src);
    assert!(k.program.uses_sync);
    let pool = Pool::new(4 * 64 * 6);
    let mut d = Dispatch::linear(64 * 6, 64);
    d.threads = 2;
    run(&k, &d, &[], &pool).unwrap_or_else(|f| panic!("{f}"));
    let out = read_u32(&pool, 0, 64 * 6);
    for g in 0..6u32 {
        assert!(
            out[64 * g as usize..64 * (g as usize + 1)]
                .iter()
                .all(|&v| v == g * (g + 1) / 2),
            "group {g}"
        );
    }
}

#[test]
fn gws_index_modes_add_the_cf_index_registers() {
    // VALUE(1) + CF_IDX1 (3) = 4 waves, RESOURCE(0) + CF_IDX0 (1) = resource
    // 1: the same barrier as above, so every wave reads 4 adds
    let src = "
        ALU:
            0 x: SET_CF_IDX0 ____, (1)
              y: SET_CF_IDX1 ____, (3)
        GDS:
            MEM_GDS ADD R5.____, R2.x10, R0 BCAST_FIRST_REQ
        GWS_BARRIER: VALUE(1) RESOURCE(0) VIM(2) RIM(1)
        GDS:
            MEM_GDS READ_RET R5.x___, R2.x00, R0
        ALU:
            0 x: LSHL_INT R3.x, R1.x, (6)
            1 x: ADD_INT R3.x, R3.x, R0.x
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R3], R5.x___
        END:
    ";
    let gds = Pool::new(GDS_BYTES);
    let pool = dispatch(src, 4, &gds).unwrap_or_else(|f| panic!("{f}"));
    let out = read_u32(&pool, 0, 256);
    assert!(
        out.iter().all(|&v| v == 4u32.wrapping_mul(0x3f80_0000)),
        "{:x?}",
        &out[..4]
    );
    // without VIM the barrier counts one wave: each wave passes alone
    // (groups run in order), so group 0 reads a single add
    let gds = Pool::new(GDS_BYTES);
    let pool = dispatch(&src.replace(" VIM(2)", ""), 4, &gds).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(read_u32(&pool, 0, 1)[0], 0x3f80_0000);
}

/// One wave of `src` with its own dispatch state, the append/consume
/// counters starting at `counters`; returns the wave and the counters after.
fn one_wave_counters(
    src: &str,
    gds: &Pool,
    counters: [u32; APPEND_COUNTERS],
    setup: impl Fn(&mut Wave),
) -> Result<(Wave, [u32; APPEND_COUNTERS]), Fault> {
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let pool = Pool::new(64);
    let sync = SyncState::with_append_counters(counters);
    let env = Env {
        sync: &sync,
        ..one_wave_env(&k, &cb, &pool, gds)
    };
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, &mut [0u32; 512])?;
    Ok((w, sync.append_counters()))
}

/// The returning ops that address two dwords, part of one, or the ordered
/// count: they cannot work on one append/consume counter (guide 9.6).
const NOT_ON_A_COUNTER: [&str; 10] = [
    "XCHG_REL_RET",
    "XCHG2_RET",
    "READ_REL_RET",
    "READ2_RET",
    "READWRITE_RET",
    "BYTE_READ_RET",
    "UBYTE_READ_RET",
    "SHORT_READ_RET",
    "USHORT_READ_RET",
    "ATOMIC_ORDERED_ALLOC_RET",
];

#[test]
fn alloc_consume_ops_work_on_the_uav_id_counter() {
    // guide 9.6 MEM_GDS_WORD1: ALLOC_CONSUME "accesses append/consume
    // counter", UAV_ID "identifies append/consume count": the DS_INST
    // definition with counter UAV_ID as DS(dst), lanes in ascending order;
    // GDS memory and the other counters stay as they were
    let init: [u32; APPEND_COUNTERS] = std::array::from_fn(|i| 0x100 * i as u32 + 7);
    let mut ran = 0;
    for o in risa_cayman::ops::LDS_OPS {
        if !o.name.ends_with("_RET") {
            continue;
        }
        let src = format!(
            "GDS:\n MEM_GDS {} R5.xy__, R1.xyz, R0 UAV_ID(9) ALLOC_CONSUME\nEND:\n",
            o.name
        );
        let data = |l: usize| -> (u32, u32) {
            // lanes 4k: the counter's initial value (a CMP_XCHG hit), the
            // others a spread of small, large and float values
            let x = match l % 4 {
                0 => init[9],
                1 => l as u32 * 3,
                2 => u32::MAX - l as u32,
                _ => (l as f32).to_bits(),
            };
            (x, 0x7000_0000 | l as u32)
        };
        let gds = Pool::new(256);
        let r = one_wave_counters(&src, &gds, init, |wv| {
            for l in 0..64 {
                let (x, y) = data(l);
                wv.gpr_mut(1, 0)[l] = 4 * l as u32; // address: not used
                wv.gpr_mut(1, 1)[l] = x;
                wv.gpr_mut(1, 2)[l] = y;
                wv.gpr_mut(5, 1)[l] = 0xbeef;
            }
        });
        if NOT_ON_A_COUNTER.contains(&o.name) {
            let f = r.err().unwrap_or_else(|| panic!("{}: fault", o.name));
            assert!(f.message.contains("ALLOC_CONSUME"), "{f}");
            continue;
        }
        let (wave, after) = r.unwrap_or_else(|f| panic!("{}: {f}", o.name));
        let mut m = [init[9]];
        for l in 0..64 {
            let (x, y) = data(l);
            let (r0, r1) = model(o.name, &mut m, 0, x, y, 0);
            assert_eq!(
                (wave.gpr(5, 0)[l], wave.gpr(5, 1)[l]),
                (r0, r1),
                "{} lane {l}",
                o.name
            );
        }
        let mut want = init;
        want[9] = m[0];
        assert_eq!(after, want, "{} counters", o.name);
        assert!(
            read_u32(&gds, 0, 64).iter().all(|&v| v == 0),
            "{} GDS",
            o.name
        );
        ran += 1;
    }
    // READ and the 16 one-dword atomics of the table
    assert_eq!(ran, 17);
}

#[test]
fn alloc_consume_is_ignored_without_a_return_and_indexes_with_uim() {
    // "Ignored for ... GDS with no return": ADD goes to GDS memory
    let gds = Pool::new(64);
    let (_, after) = one_wave_counters(
        "GDS:\n MEM_GDS ADD R5.____, R1.xy0, R0 UAV_ID(3) ALLOC_CONSUME\nEND:\n",
        &gds,
        [5; APPEND_COUNTERS],
        |wv| {
            for l in 0..64 {
                wv.gpr_mut(1, 0)[l] = 8;
                wv.gpr_mut(1, 1)[l] = l as u32;
            }
        },
    )
    .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(after, [5; APPEND_COUNTERS]);
    assert_eq!(read_u32(&gds, 0, 4), [0, 0, 2016, 0]);
    // UIM(1)/UIM(2): UAV_ID + CF_IDX0/1 picks the counter; BCAST_FIRST_REQ
    // makes one request (the first active lane's) and broadcasts its result
    let src = |id: u32, uim: u32| {
        format!(
            "
        ALU:
            0 x: SET_CF_IDX0 ____, R2.x
        ALU:
            0 x: SET_CF_IDX1 ____, R2.y
        GDS:
            MEM_GDS ADD_RET R5.x___, R1.xy0, R0 UAV_ID({id}) UIM({uim}) ALLOC_CONSUME BCAST_FIRST_REQ
        END:
    "
        )
    };
    let setup = |wv: &mut Wave| {
        for l in 0..64 {
            wv.gpr_mut(1, 1)[l] = 10 + l as u32;
            wv.gpr_mut(2, 0)[l] = 4;
            wv.gpr_mut(2, 1)[l] = 11;
        }
    };
    let init: [u32; APPEND_COUNTERS] = std::array::from_fn(|i| 1000 * i as u32);
    for (uim, counter) in [(0, 2), (1, 6), (2, 13)] {
        let (wave, after) = one_wave_counters(&src(2, uim), &gds, init, setup)
            .unwrap_or_else(|f| panic!("UIM {uim}: {f}"));
        let mut want = init;
        want[counter] += 10;
        assert_eq!(after, want, "UIM {uim}");
        assert!(
            (0..64).all(|l| wave.gpr(5, 0)[l] == init[counter]),
            "UIM {uim}"
        );
    }
    // UAV_ID 5 + CF_IDX1 11 = 16: no such counter; UIM 3 is invalid
    for (id, uim, what) in [(5, 2, "= 16"), (0, 3, "CF_INVALID")] {
        let f = one_wave_counters(&src(id, uim), &gds, init, setup)
            .err()
            .expect("fault");
        assert!(
            f.message.contains("ALLOC_CONSUME") && f.message.contains(what),
            "{f}"
        );
    }
}

#[test]
fn append_consume_across_waves_and_threads() {
    // every work-item appends (ADD_RET 1 on counter 4) and writes its
    // global id to out[slot - 1000]; the odd ones also consume (SUB_RET 3 on
    // counter 11). The slots must be a permutation of 0 .. n (one atomic
    // counter across waves and worker threads) and the host reads both
    // counters back.
    let src = "
        ALU:
            0 z: LSHL_INT R3.z, R1.x, (6)
              y: MOV R2.y, 1
              w: MOV R2.w, (3)
            1 x: ADD_INT R3.x, R3.z, R0.x
              y: AND_INT R3.y, R0.x, 1
        GDS:
            MEM_GDS ADD_RET R4.x___, R2.xy0, R0 UAV_ID(4) ALLOC_CONSUME
        ALU:
            0 x: SUB_INT R4.x, R4.x, (1000)
        MEM_RAT STORE_DWORD: WRITE_IND RAT(0) [R4], R3.x___
        ALU_PUSH_BEFORE:
            0 x: PRED_SETNE_INT ____, R3.y, 0.0f UPDATE_EXEC_MASK UPDATE_PRED
        GDS:
            MEM_GDS SUB_RET R6.x___, R2.xw0, R0 UAV_ID(11) ALLOC_CONSUME
        POP: ADDR(end) POP_CNT(1)
    end:
        END:
    ";
    let k = kernel_from_asm(src);
    let n = 64 * 16u32;
    for threads in [1, 2] {
        let pool = Pool::new(4 * n as usize);
        let mut d = Dispatch::linear(n, 64);
        d.threads = threads;
        d.append_consume[4] = 1000;
        d.append_consume[11] = 5000;
        d.append_consume[0] = 77;
        let st = run(&k, &d, &[], &pool).unwrap_or_else(|f| panic!("{f}"));
        let mut want = d.append_consume;
        want[4] = 1000 + n;
        want[11] = 5000 - 3 * (n / 2);
        assert_eq!(st.append_consume, want, "{threads} threads");
        let mut ids = read_u32(&pool, 0, n as usize);
        ids.sort_unstable();
        assert_eq!(ids, (0..n).collect::<Vec<_>>(), "{threads} threads");
    }
}
