//! Hand-encoded RAT programs (guide 9.2 CF_ALLOC_EXPORT_WORD0_RAT): element
//! addressing for stores and atomics, `_RTN` results read back through the
//! return-buffer fetch resource, CMPXCHG's compare value in Z, burst stores.

#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use risa_cayman_emu::wave::{Wave, RET_RESOURCE};
use risa_cayman_emu::*;

const MEM_RAT: u32 = 86;
const TC: u32 = 1;
const END: u32 = 32;

/// MEM_RAT `inst` (RAT_INST number), TYPE 1 (write indexed): data in `rw`, index in `idx`.X.
fn rat(inst: u32, rw: u32, idx: u32, mask: u32, burst: u32) -> [u32; 2] {
    [
        (inst << 4) | (1 << 13) | (rw << 15) | (idx << 23),
        (mask << 12) | (burst << 16) | (MEM_RAT << 22) | (1 << 31),
    ]
}
fn cf(inst: u32, addr: u32) -> [u32; 2] {
    [addr, (inst << 22) | (1 << 31)]
}
/// VFETCH of one dword from `buffer` at GPR `src`.`sel` (+ `offset`) into `dst`.X (int).
fn vfetch(buffer: u32, src: u32, sel: u32, dst: u32, offset: u32) -> [u32; 4] {
    [
        (2 << 5) | (buffer << 8) | (src << 16) | (sel << 24),
        dst | (7 << 12) | (7 << 15) | (7 << 18) | (13 << 22) | (1 << 28),
        offset,
        0,
    ]
}

fn run_prog(words: &[u32], pool: &Pool, setup: impl Fn(&mut Wave)) -> Result<Wave, Fault> {
    let k = kernel_from_words(words);
    let cb = vec![vec![0u32; 64]];
    let gds = Pool::new(64);
    let env = one_wave_env(&k, &cb, pool, &gds);
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    let mut lds = vec![0u32; 16];
    w.run(&env, &mut lds)?;
    Ok(w)
}

fn pool_of(v: &[u32]) -> Pool {
    Pool::from_bytes(&bytes_u32(v))
}

#[test]
fn add_rtn_returns_old_values_through_the_return_buffer() {
    // 0 MEM_RAT ADD_RTN T1, T0.X ; 1 TC @4 ; 2 END ; 4: VFETCH T2.X <- res 160 [T1.Y]
    let mut w = vec![];
    w.extend(rat(39, 1, 0, 0xf, 0));
    w.extend(cf(TC, 4));
    w.extend(cf(END, 0));
    w.extend([0, 0]);
    w.extend(vfetch(RET_RESOURCE as u32, 1, 1, 2, 0));
    let init: Vec<u32> = (0..64).map(|i| 1000 + i).collect();
    let pool = pool_of(&init);
    let wave = run_prog(&w, &pool, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = 63 - l as u32; // element index
            wv.gpr_mut(1, 0)[l] = 5 + l as u32; // data
            wv.gpr_mut(1, 1)[l] = 2 * l as u32; // return address (dwords)
        }
    })
    .unwrap();
    let out = pool.to_bytes();
    for l in 0..64u32 {
        let e = 63 - l;
        let got = u32::from_le_bytes(out[4 * e as usize..4 * e as usize + 4].try_into().unwrap());
        assert_eq!(got, 1000 + e + 5 + l, "element {e}");
        assert_eq!(
            wave.gpr(2, 0)[l as usize],
            1000 + e,
            "old value of lane {l}"
        );
    }
}

#[test]
fn cmpxchg_compares_with_z() {
    // CMPXCHG_INT_RTN: X = new value, Y = return address, Z = compare (guide 9.2), W ignored
    let mut w = vec![];
    w.extend(rat(36, 1, 0, 0xf, 0));
    w.extend(cf(END, 0));
    let pool = pool_of(&[7; 64]);
    let wave = run_prog(&w, &pool, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32;
            wv.gpr_mut(1, 0)[l] = 100 + l as u32;
            wv.gpr_mut(1, 1)[l] = l as u32;
            wv.gpr_mut(1, 2)[l] = if l % 2 == 0 { 7 } else { 8 };
            wv.gpr_mut(1, 3)[l] = 7;
        }
    })
    .unwrap();
    let out = pool.to_bytes();
    for l in 0..64usize {
        let got = u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().unwrap());
        assert_eq!(
            got,
            if l % 2 == 0 { 100 + l as u32 } else { 7 },
            "element {l}"
        );
    }
    let _ = wave;
}

#[test]
fn stores_index_elements_and_bursts_step_by_element() {
    // STORE_DWORD (20), X only, BURST_COUNT 1: T1.X -> element i, T2.X -> element i + 1
    let mut w = vec![];
    w.extend(rat(20, 1, 0, 0x1, 1));
    w.extend(cf(END, 0));
    let pool = pool_of(&[0; 130]);
    run_prog(&w, &pool, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = 2 * l as u32;
            wv.gpr_mut(1, 0)[l] = 0x100 + l as u32;
            wv.gpr_mut(2, 0)[l] = 0x200 + l as u32;
        }
    })
    .unwrap();
    let out = pool.to_bytes();
    let at = |e: usize| u32::from_le_bytes(out[4 * e..4 * e + 4].try_into().unwrap());
    for l in 0..64usize {
        assert_eq!(at(2 * l), 0x100 + l as u32);
        assert_eq!(at(2 * l + 1), 0x200 + l as u32);
    }
}

#[test]
fn atomics_outside_the_pool_fault_with_the_lane() {
    let mut w = vec![];
    w.extend(rat(7, 1, 0, 0xf, 0));
    w.extend(cf(END, 0));
    let pool = pool_of(&[0; 16]);
    let f = run_prog(&w, &pool, |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = l as u32; // lanes 16.. are outside
        }
    })
    .err()
    .expect("fault");
    assert_eq!(f.at.lane, Some(16), "{f}");
    assert!(f.message.contains("outside the global pool"), "{f}");
}

#[test]
fn vertex_fetch_endian_swap() {
    // guide 9.3 VTX_WORD2 ENDIAN_SWAP: 8IN16 AABBCCDD -> BBAADDCC, 8IN32 -> DDCCBBAA
    for (es, want) in [(0u32, 0xAABB_CCDDu32), (1, 0xBBAA_DDCC), (2, 0xDDCC_BBAA)] {
        let mut w = vec![];
        w.extend(cf(TC, 2));
        w.extend(cf(END, 0));
        let mut f = vfetch(1, 0, 0, 2, 0);
        f[2] |= es << 16;
        w.extend(f);
        let pool = pool_of(&[0xAABB_CCDD, 0]);
        let wave = run_prog(&w, &pool, |wv| wv.gpr_mut(0, 0).fill(0)).unwrap();
        assert_eq!(wave.gpr(2, 0)[0], want, "ENDIAN_SWAP {es}");
    }
}

/// The guide's RAT_INST formulas (9.2 CF_ALLOC_EXPORT_WORD0_RAT), on one dword.
fn reference(name: &str, dst: u32, src: u32, cmp: u32, mask: u32) -> u32 {
    match name.strip_suffix("_RTN").unwrap_or(name) {
        "CMPXCHG_INT" => {
            if cmp == dst {
                src
            } else {
                dst
            }
        }
        "XCHG" => src,
        "ADD" => src.wrapping_add(dst),
        "SUB" => dst.wrapping_sub(src),
        "RSUB" => src.wrapping_sub(dst),
        "MIN_INT" => (src as i32).min(dst as i32) as u32,
        "MIN_UINT" => src.min(dst),
        "MAX_INT" => (src as i32).max(dst as i32) as u32,
        "MAX_UINT" => src.max(dst),
        "AND" => dst & src,
        "OR" => dst | src,
        "XOR" => dst ^ src,
        "MSKOR" => (dst & !mask) | (src & mask),
        "INC_UINT" => {
            if dst >= src {
                0
            } else {
                dst + 1
            }
        }
        "DEC_UINT" => {
            if dst == 0 || dst > src {
                src
            } else {
                dst - 1
            }
        }
        "NOP" => dst,
        other => panic!("no reference for {other}"),
    }
}

#[test]
fn every_rat_atomic_against_the_guide_formulas() {
    // each lane hits its own element with edge-heavy data; _RTN variants also
    // return the old value, read back through resource 160
    let mut r = 0x9e37_79b9u32;
    let mut next = || {
        r ^= r << 13;
        r ^= r >> 17;
        r ^= r << 5;
        r
    };
    let edge = [0u32, 1, 2, 0x7fff_ffff, 0x8000_0000, u32::MAX, 5, 6];
    let dst: Vec<u32> = (0..64)
        .map(|l| if l < 8 { edge[l] } else { next() % 16 })
        .collect();
    let src: Vec<u32> = (0..64)
        .map(|l| if l < 8 { edge[7 - l] } else { next() % 16 })
        .collect();
    let cmp: Vec<u32> = (0..64)
        .map(|l| if l % 2 == 0 { dst[l] } else { next() })
        .collect();
    let mask: Vec<u32> = (0..64).map(|_| next()).collect();
    for o in risa_cayman::ops::RAT_OPS {
        if o.name.starts_with("STORE") || o.name == "NOP" {
            continue;
        }
        let mut w = vec![];
        w.extend(rat(o.code as u32, 1, 0, 0xf, 0));
        w.extend(cf(TC, 4));
        w.extend(cf(END, 0));
        w.extend([0, 0]);
        w.extend(vfetch(RET_RESOURCE as u32, 1, 1, 2, 0));
        let pool = pool_of(&dst);
        let wave = run_prog(&w, &pool, |wv| {
            for l in 0..64 {
                wv.gpr_mut(0, 0)[l] = l as u32;
                wv.gpr_mut(1, 0)[l] = src[l];
                wv.gpr_mut(1, 1)[l] = l as u32;
                wv.gpr_mut(1, 2)[l] = cmp[l];
                wv.gpr_mut(1, 3)[l] = mask[l];
                wv.gpr_mut(2, 0)[l] = 0xdead;
            }
        })
        .unwrap_or_else(|f| panic!("{}: {f}", o.name));
        let out = pool.to_bytes();
        for l in 0..64 {
            let got = u32::from_le_bytes(out[4 * l..4 * l + 4].try_into().unwrap());
            let want = reference(o.name, dst[l], src[l], cmp[l], mask[l]);
            assert_eq!(
                got, want,
                "{} lane {l}: dst {:#x} src {:#x}",
                o.name, dst[l], src[l]
            );
            let back = wave.gpr(2, 0)[l];
            if o.name.ends_with("_RTN") {
                assert_eq!(back, dst[l], "{} returned value, lane {l}", o.name);
            } else {
                assert_eq!(back, 0, "{}: nothing returned, lane {l}", o.name);
            }
        }
    }
}

/// One wave of assembly on `pool` with host-bound `res`.
fn run_asm(
    src: &str,
    pool: &Pool,
    res: &Resources,
    setup: impl Fn(&mut Wave),
) -> Result<Wave, Fault> {
    let k = kernel_from_asm(src);
    let cb = vec![vec![0u32; 64]];
    let gds = Pool::new(64);
    let env = wave::Env {
        resources: res,
        ..one_wave_env(&k, &cb, pool, &gds)
    };
    let mut w = Wave::new(u64::MAX, [0; 3], 0, 10_000);
    setup(&mut w);
    w.run(&env, &mut [0u32; 16])?;
    Ok(w)
}

#[test]
fn store_byte_and_store_short_write_their_low_bits_at_byte_and_short_indices() {
    // README decision: INDEX_GPR.X counts bytes (STORE_BYTE) or 16-bit units
    // (STORE_SHORT); X of each of the BURST_COUNT + 1 GPRs goes to consecutive elements
    let src = "
        MEM_RAT STORE_BYTE: WRITE_IND RAT(0) [R0], R1.x___ BURST_COUNT(1)
        MEM_RAT STORE_SHORT: WRITE_IND RAT(0) [R3], R1.x___
        MEM_RAT STORE_BYTE: WRITE_IND RAT(0) [R4], R1.____
        END:
    ";
    let pool = Pool::from_bytes(&vec![0xeeu8; 512]);
    run_asm(src, &pool, &Resources::new(), |wv| {
        for l in 0..64 {
            wv.gpr_mut(0, 0)[l] = 2 * l as u32; // bytes 0..127, burst fills the odd ones
            wv.gpr_mut(1, 0)[l] = 0x1234_5600 + l as u32;
            wv.gpr_mut(2, 0)[l] = 0xabcd_ef80 + l as u32;
            wv.gpr_mut(3, 0)[l] = 64 + l as u32; // shorts 64.. = bytes 128..255
            wv.gpr_mut(4, 0)[l] = 300 + l as u32; // COMP_MASK 0: nothing written
        }
    })
    .unwrap_or_else(|f| panic!("{f}"));
    let out = pool.to_bytes();
    for l in 0..64usize {
        assert_eq!(out[2 * l], l as u8, "byte {}", 2 * l);
        assert_eq!(out[2 * l + 1], 0x80 + l as u8, "burst byte {}", 2 * l + 1);
        let s = u16::from_le_bytes([out[128 + 2 * l], out[129 + 2 * l]]);
        assert_eq!(s, 0x5600 + l as u16, "short {}", 64 + l);
    }
    assert!(
        out[256..].iter().all(|&b| b == 0xee),
        "nothing else written"
    );
}

#[test]
fn every_rat_op_on_a_host_bound_rat_window() {
    // RAT 3 = 256 bytes at byte 256: element indices are relative to the
    // window, and an index past the window faults although the pool goes on
    let dst: Vec<u32> = (0..64).map(|i| 3 * i + 1).collect();
    for o in risa_cayman::ops::RAT_OPS {
        let src = format!("MEM_RAT {}: WRITE_IND RAT(3) [R0], R1.x___\nEND:\n", o.name);
        let mut init = vec![0u32; 64];
        init.extend(&dst);
        init.extend(vec![0u32; 64]);
        let pool = pool_of(&init);
        let mut res = Resources::new();
        res.bind_rat(3, 256, 256);
        let setup = |wv: &mut Wave| {
            for l in 0..64 {
                wv.gpr_mut(0, 0)[l] = l as u32;
                wv.gpr_mut(1, 0)[l] = 0x100 + l as u32;
                wv.gpr_mut(1, 1)[l] = 4000; // return address: past the return buffer, dropped
                wv.gpr_mut(1, 2)[l] = if l % 2 == 0 { dst[l] } else { 7 };
                wv.gpr_mut(1, 3)[l] = 0x0f0f_0f0f;
            }
        };
        run_asm(&src, &pool, &res, setup).unwrap_or_else(|f| panic!("{}: {f}", o.name));
        let got = read_u32(&pool, 0, 192);
        // byte model of the window for the narrow stores
        let mut model: Vec<u8> = dst.iter().flat_map(|v| v.to_le_bytes()).collect();
        for l in 0..64usize {
            let x = (0x100 + l as u32).to_le_bytes();
            match o.name {
                "STORE_BYTE" => model[l] = x[0],
                "STORE_SHORT" => model[2 * l..2 * l + 2].copy_from_slice(&x[..2]),
                _ => {}
            }
        }
        for l in 0..64 {
            let d = dst[l];
            let x = 0x100 + l as u32;
            let want = match o.name {
                "NOP" | "NOP_RTN" => d,
                "STORE_DWORD" | "STORE_TYPED" => x,
                // one byte / one short at byte / short index l of the window
                "STORE_BYTE" | "STORE_SHORT" => {
                    u32::from_le_bytes(model[4 * l..4 * l + 4].try_into().unwrap())
                }
                n => reference(n, d, x, if l % 2 == 0 { d } else { 7 }, 0x0f0f_0f0f),
            };
            assert_eq!(got[64 + l], want, "{} element {l}", o.name);
            assert_eq!(got[l], 0, "{}: below the window untouched", o.name);
            assert_eq!(got[128 + l], 0, "{}: above the window untouched", o.name);
        }
        // the first element past the 256-byte window, inside the 2 KiB pool
        if o.name != "NOP" {
            let pool = Pool::new(2048);
            let first = match o.name {
                "STORE_BYTE" => 256,
                "STORE_SHORT" => 128,
                _ => 64,
            };
            let f = run_asm(&src, &pool, &res, |wv| {
                setup(wv);
                for l in 0..64 {
                    wv.gpr_mut(0, 0)[l] = first + l as u32;
                }
            })
            .err()
            .unwrap_or_else(|| panic!("{}: no fault", o.name));
            assert_eq!(f.at.lane, Some(0), "{}: {f}", o.name);
            assert!(
                f.message.contains("outside RAT 3 (256 bytes)"),
                "{}: {f}",
                o.name
            );
        }
    }
}
