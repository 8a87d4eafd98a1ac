//! Global data share clauses (guide 9.6 MEM_GDS, CF_INST_GDS): hand-encoded
//! GDS operations with and without return values, at wave level and across
//! work-groups running in parallel on a preloaded GDS.

mod common;
use common::*;
use risa_cayman_emu::wave::Wave;
use risa_cayman_emu::*;
use risa_runtime::cayman::{run, run_with_gds};

/// GDS_OP numbers (shared with LDS_IDX_OP, guide 9.6 MEM_GDS_WORD1).
const ADD_RET: u32 = 32;
const MAX_UINT: u32 = 8;
const READ_RET: u32 = 50;

/// MEM_GDS: address = src.X sel, data = src.Y sel; result to dst.X (others masked).
fn mem_gds(gds_op: u32, src: u32, sel: [u32; 3], dst: u32) -> [u32; 4] {
    [
        2 | (4 << 8) | (src << 11) | (sel[0] << 20) | (sel[1] << 23) | (sel[2] << 26),
        dst | (gds_op << 9),
        (7 << 3) | (7 << 6) | (7 << 9),
        0,
    ]
}
/// CF: 0 GDS @2 (n instructions), 1 END, clause at slot 2.
fn program(instrs: &[[u32; 4]]) -> Vec<u32> {
    let mut w = vec![2, ((instrs.len() as u32 - 1) << 10) | (3 << 22) | (1 << 31)];
    w.extend([0, (32 << 22) | (1 << 31)]);
    for i in instrs {
        w.extend(i);
    }
    w
}

#[test]
fn add_ret_returns_old_values_in_lane_order() {
    // lanes run in ascending order: GDS[0] += 1 gives lane l the old value l;
    // then READ_RET sees 64 everywhere
    let w = program(&[
        mem_gds(ADD_RET, 0, [4, 1, 4], 2),
        mem_gds(READ_RET, 0, [4, 4, 4], 3),
    ]);
    let k = kernel_from_words(&w);
    let pool = Pool::new(64);
    let gds = Pool::new(GDS_BYTES);
    let cb = vec![vec![0u32; 64]];
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut wave = Wave::new(u64::MAX, [0; 3], 0, 100);
    wave.gpr_mut(0, 1).fill(1);
    wave.run(&env, &mut [0u32; 4]).unwrap();
    for l in 0..64 {
        assert_eq!(wave.gpr(2, 0)[l], l as u32);
        assert_eq!(wave.gpr(3, 0)[l], 64);
    }
    assert_eq!(gds.load_u32(0).unwrap(), 64);
}

#[test]
fn work_groups_share_a_preloaded_gds() {
    // every work-item of 4 groups (run on 2 threads) adds its local id x to
    // GDS[0], preloaded with 100
    let w = program(&[mem_gds(ADD_RET, 0, [4, 0, 4], 2)]);
    let k = kernel_from_words(&w);
    let pool = Pool::new(64);
    let gds = Pool::new(GDS_BYTES);
    gds.write(0, &100u32.to_le_bytes()).unwrap();
    let mut d = Dispatch::linear(256, 64);
    d.threads = 2;
    run_with_gds(&k, &d, &[], &pool, &gds).unwrap();
    assert_eq!(gds.load_u32(0).unwrap(), 100 + 4 * (0..64).sum::<u32>());
    // run() gives each dispatch its own zeroed GDS
    let st = run(&k, &d, &[], &pool).unwrap();
    assert_eq!(st.workgroups, 4);
}

#[test]
fn gds_outside_its_64_kib_faults_with_the_lane() {
    let w = program(&[mem_gds(MAX_UINT, 0, [0, 1, 4], 2)]);
    let k = kernel_from_words(&w);
    let pool = Pool::new(64);
    let gds = Pool::new(GDS_BYTES);
    let cb = vec![vec![0u32; 64]];
    let env = one_wave_env(&k, &cb, &pool, &gds);
    let mut wave = Wave::new(u64::MAX, [0; 3], 0, 100);
    for l in 0..64 {
        wave.gpr_mut(0, 0)[l] = 1200 * l as u32; // lane 55 is the first past 64 KiB
    }
    let f = wave.run(&env, &mut [0u32; 4]).unwrap_err();
    assert_eq!(f.at.lane, Some(55), "{f}");
    assert!(f.message.contains("outside the 65536-byte GDS"), "{f}");
}
