//! Scratch buffer (guide 3.4.2/3.4.3): MEM_WR_SCRATCH exports and
//! MEM_RD_SCRATCH reads with first_mem = (ARRAY_BASE + index) * (ELEM_SIZE + 1)
//! dwords, per-thread buffers, ARRAY_SIZE clamping.

mod common;
use common::*;
use risa_cayman_emu::wave::{Wave, SCRATCH_DWORDS};
use risa_cayman_emu::*;

const MEM_WR_SCRATCH: u32 = 80;
const TC: u32 = 1;
const END: u32 = 32;

/// MEM_WR_SCRATCH, TYPE 1 (indexed by `idx`.X), ELEM_SIZE 3 (four dwords).
fn wr(base: u32, size: u32, rw: u32, idx: u32, mask: u32, burst: u32) -> [u32; 2] {
    [
        base | (1 << 13) | (rw << 15) | (idx << 23) | (3 << 30),
        size | (mask << 12) | (burst << 16) | (MEM_WR_SCRATCH << 22) | (1 << 31),
    ]
}
/// MEM_RD_SCRATCH, INDEXED by `src`.X, ELEM_SIZE 3, into `dst` with `sel`.
fn rd(base: u32, size: u32, src: u32, dst: u32, sel: [u32; 4], burst: u32) -> [u32; 4] {
    [
        2 | (3 << 5) | (1 << 12) | (src << 16) | (burst << 26),
        dst | (sel[0] << 9) | (sel[1] << 12) | (sel[2] << 15) | (sel[3] << 18) | (34 << 22),
        base | (size << 20),
        0,
    ]
}
fn cf(inst: u32, addr: u32) -> [u32; 2] {
    [addr, (inst << 22) | (1 << 31)]
}

fn run(w: &[u32], setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    run_pool(w, setup, &Pool::new(64))
}

fn run_pool(w: &[u32], setup: impl Fn(&mut Wave), pool: &Pool) -> Result<Wave, Fault> {
    let k = kernel_from_words(w);
    let gds = Pool::new(64);
    let cb = vec![vec![0u32; 64]];
    let env = one_wave_env(&k, &cb, pool, &gds);
    let mut wave = Wave::new(u64::MAX, [0; 3], 0, 100);
    setup(&mut wave);
    wave.run(&env, &mut [0u32; 4])?;
    Ok(wave)
}

#[test]
fn write_then_read_back_per_thread_with_bursts_and_swizzle() {
    // 0 MEM_WR_SCRATCH base 2 size 64, T1..T2 (burst 1), XYZW, index T0.X
    // 1 TC @4: MEM_RD_SCRATCH base 2 size 64, index T0.X, burst 1 -> T5..T6, swizzle WZYX
    // 2 END
    let mut w = vec![];
    w.extend(wr(2, 64, 1, 0, 0xf, 1));
    w.extend(cf(TC, 4));
    w.extend(cf(END, 0));
    w.extend([0, 0]);
    w.extend(rd(2, 64, 0, 5, [3, 2, 1, 0], 1));
    let wave = run(&w, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = (l % 5) as u32; // lanes share indices but not buffers
            for c in 0..4 {
                wv.gpr_mut(1, c)[l] = 1000 * l as u32 + c as u32;
                wv.gpr_mut(2, c)[l] = 1000 * l as u32 + 10 + c as u32;
            }
        }
    })
    .unwrap();
    for l in 0..64 {
        for c in 0..4 {
            assert_eq!(
                wave.gpr(5, c)[l],
                1000 * l as u32 + 3 - c as u32,
                "T5 lane {l}"
            );
            assert_eq!(
                wave.gpr(6, c)[l],
                1000 * l as u32 + 13 - c as u32,
                "T6 lane {l}"
            );
        }
    }
}

#[test]
fn comp_mask_and_array_size_clamp() {
    // write only X and Z; the element at base + size is dropped and reads there give 0
    let mut w = vec![];
    w.extend(wr(0, 1, 1, 0, 0b0101, 1)); // two elements, the second past ARRAY_SIZE 1
    w.extend(cf(TC, 4));
    w.extend(cf(END, 0));
    w.extend([0, 0]);
    w.extend(rd(0, 2, 0, 5, [0, 1, 2, 3], 1));
    let wave = run(&w, |wv| {
        wv.gpr_mut(0, 0).fill(0);
        for c in 0..4 {
            wv.gpr_mut(1, c).fill(7 + c as u32);
            wv.gpr_mut(2, c).fill(70 + c as u32);
        }
    })
    .unwrap();
    assert_eq!([0, 1, 2, 3].map(|c| wave.gpr(5, c)[9]), [7, 0, 9, 0]);
    assert_eq!([0, 1, 2, 3].map(|c| wave.gpr(6, c)[9]), [0; 4]);
}

#[test]
fn scratch_beyond_risas_per_thread_size_faults() {
    let mut w = vec![];
    w.extend(wr(0, 4095, 1, 0, 0xf, 0));
    w.extend(cf(END, 0));
    let f = run(&w, |wv| {
        for l in 0..64 {
            // element 1024 starts at dword 4096
            wv.gpr_mut(0, 0)[l] = if l == 9 {
                (SCRATCH_DWORDS / 4) as u32
            } else {
                0
            };
        }
    })
    .err()
    .expect("fault");
    assert_eq!(f.at.lane, Some(9), "{f}");
    assert!(f.message.contains("scratch"), "{f}");
}

#[test]
fn mem_export_scatters_into_the_global_pool_and_mem_rd_scatter_reads_it() {
    // MEM_EXPORT (85), ELEM_SIZE 0: lane l writes T1.X at dword (ARRAY_BASE 3 + T0.X);
    // MEM_RD_SCATTER (MEM_OP 2) reads dword (3 + T0.Y) into T5.X
    let mut w = vec![];
    w.extend([
        3 | (1 << 13) | (1 << 15),
        4095 | (1 << 12) | (85 << 22) | (1 << 31),
    ]);
    w.extend(cf(TC, 4));
    w.extend(cf(END, 0));
    w.extend([0, 0]);
    w.extend([
        2 | (2 << 8) | (1 << 12) | (1 << 24), // MEM_OP 2, INDEXED, SRC_GPR 0, SRC_SEL_X = Y
        5 | (7 << 12) | (7 << 15) | (7 << 18) | (13 << 22),
        3,
        0,
    ]);
    let pool = Pool::new(4 * 80);
    let wave = run_pool(
        &w,
        |wv| {
            for l in 0..64 {
                wv.gpr_mut(0, 0)[l] = 63 - l as u32; // scatter reversed
                wv.gpr_mut(0, 1)[l] = l as u32;
                wv.gpr_mut(1, 0)[l] = 500 + l as u32;
            }
        },
        &pool,
    )
    .unwrap();
    let out = pool.to_bytes();
    for l in 0..64u32 {
        let d = (3 + 63 - l) as usize;
        let got = u32::from_le_bytes(out[4 * d..4 * d + 4].try_into().unwrap());
        assert_eq!(got, 500 + l, "dword {d}");
        // lane l reads dword 3 + l, written by lane 63 - l
        assert_eq!(wave.gpr(5, 0)[l as usize], 500 + 63 - l, "lane {l}");
    }
}
