//! GDS, GWS, ordered count and the rarer DS atomics at their edges. Expected
//! values come from the DS documentation (`reference/clrx-doc/GcnInstrsDs.md`:
//! the M0 note for GDS — size in bits 15:0, base in bits 31:16 —, DS_WRAP_RTN_B32)
//! and, for what that page leaves open (GWS, ordered count, condxchg32), from
//! the model documented in docs/gcn-emulator.md ("GDS and GWS").

use risa_gcn::layout::{set, Enc, Field};
use risa_gcn::table::find_by_name;
use risa_gcn::{Gen, ALL_GENS};
use risa_gcn_emu::wave::{Status, EXEC, M0};
use risa_gcn_emu::{exec, Ctx, FaultKind, Gds, Program, SimpleMemory, Wave};

fn enc(gen: Gen, name: &str, f: &[(Field, u32)]) -> Option<Vec<u32>> {
    let (_, info) = find_by_name(name, gen).next()?;
    let (_, val) = Enc::Ds.prefix(gen).unwrap();
    let mut raw = u64::from(val);
    assert!(set(
        Enc::Ds,
        gen,
        &mut raw,
        Field::Op,
        u32::from(info.opcode(gen)?)
    ));
    for &(k, v) in f {
        assert!(set(Enc::Ds, gen, &mut raw, k, v), "{k:?}");
    }
    Some(vec![raw as u32, (raw >> 32) as u32])
}

fn code(prog: &[Vec<u32>]) -> Vec<u8> {
    let mut c: Vec<u8> = prog
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    c.extend(0xbf81_0000u32.to_le_bytes()); // s_endpgm
    c
}

/// Runs `prog` as one work-group of `waves` waves (lane count per wave:
/// `lanes`) with `gds`; `init` sets each wave up.
fn run_group(
    gen: Gen,
    prog: &[Vec<u32>],
    waves: u32,
    gds: Option<&Gds>,
    init: impl Fn(&mut Wave),
) -> (Vec<Wave>, Result<(), risa_gcn_emu::Fault>) {
    let p = Program::new(gen, &code(prog), 0x1000);
    let mem = SimpleMemory::new();
    let mut lds = vec![0u8; 256];
    let mut ctx = Ctx::new(&p, &mem, &mut lds);
    ctx.gds = gds;
    ctx.budget = 10_000;
    let mut ws: Vec<Wave> = (0..waves)
        .map(|i| {
            let mut w = Wave::new(i);
            w.set_s64(EXEC, 0xf);
            init(&mut w);
            w
        })
        .collect();
    let r = exec::run_group(&mut ws, &mut ctx, |_, _| {});
    (ws, r)
}

fn dword(g: &Gds, at: usize) -> u32 {
    u32::from_le_bytes(g.bytes()[at..at + 4].try_into().unwrap())
}

/// GcnInstrsDs.md: for GDS, M0[15:0] is the size the kernel may access and
/// M0[31:16] the base. Inside the window the access goes to base + address;
/// an access reaching past the size (or past the 64 KiB) reads 0 and writes nothing.
#[test]
fn gds_window() {
    for gen in ALL_GENS {
        let gds = Gds::from_bytes(&[0x11; 256]).unwrap();
        let write = enc(
            gen,
            "ds_write_b32",
            &[(Field::Addr, 1), (Field::Data0, 2), (Field::Gds, 1)],
        )
        .unwrap();
        let read = enc(
            gen,
            "ds_read_b32",
            &[(Field::Addr, 1), (Field::Vdst, 3), (Field::Gds, 1)],
        )
        .unwrap();
        // Window base 32, size 16: lane addresses 0, 12 (last dword), 14 (straddles), 16.
        let (ws, r) = run_group(gen, &[write, read], 1, Some(&gds), |w| {
            w.s[M0] = 32 << 16 | 16;
            w.v[1][..4].copy_from_slice(&[0, 12, 14, 16]);
            w.v[2][..4].copy_from_slice(&[0xa0, 0xa1, 0xa2, 0xa3]);
        });
        r.unwrap();
        assert_eq!(&ws[0].v[3][..4], &[0xa0, 0xa1, 0, 0], "{gen}");
        let g = gds.bytes();
        assert_eq!(dword(&gds, 32), 0xa0, "{gen}");
        assert_eq!(dword(&gds, 44), 0xa1, "{gen}");
        assert_eq!(
            &g[48..52],
            &[0x11; 4],
            "{gen}: out-of-window writes dropped"
        );
        // Base near the end of the 64 KiB: base + address past it is dropped too.
        let full = Gds::from_bytes(&vec![0x22; risa_gcn_emu::GDS_BYTES]).unwrap();
        let (ws, r) = run_group(
            gen,
            &[enc(
                gen,
                "ds_read_b32",
                &[(Field::Addr, 1), (Field::Vdst, 3), (Field::Gds, 1)],
            )
            .unwrap()],
            1,
            Some(&full),
            |w| {
                w.s[M0] = 0xfffc << 16 | 0xffff;
                w.v[1][..4].copy_from_slice(&[0, 4, 2, 8]);
                w.v[3] = [7; 64];
            },
        );
        r.unwrap();
        assert_eq!(&ws[0].v[3][..4], &[0x2222_2222, 0, 0, 0], "{gen}");
        // Without a GDS in the context, GDS=1 is a clear fault.
        let (_, r) = run_group(
            gen,
            &[enc(gen, "ds_read_b32", &[(Field::Vdst, 3), (Field::Gds, 1)]).unwrap()],
            1,
            None,
            |_| {},
        );
        let f = r.unwrap_err();
        assert!(matches!(f.kind, FaultKind::BadOperand(_)), "{gen}: {f}");
    }
}

/// GDS atomics reuse the LDS atomics: ds_append with GDS=1 adds the active
/// lane count at OFFSET in the window.
#[test]
fn gds_append_and_atomics() {
    for gen in ALL_GENS {
        let gds = Gds::new();
        let prog = [
            enc(
                gen,
                "ds_append",
                &[(Field::Vdst, 4), (Field::Offset, 4), (Field::Gds, 1)],
            )
            .unwrap(),
            enc(
                gen,
                "ds_max_rtn_u32",
                &[
                    (Field::Addr, 1),
                    (Field::Data0, 2),
                    (Field::Vdst, 5),
                    (Field::Gds, 1),
                ],
            )
            .unwrap(),
        ];
        let (ws, r) = run_group(gen, &prog, 2, Some(&gds), |w| {
            w.s[M0] = 8 << 16 | 64;
            w.v[1] = [0; 64];
            w.v[2][..4].copy_from_slice(&[3, 9, 1, 4 + w.id]);
        });
        r.unwrap();
        assert_eq!(ws[0].v[4][0], 0, "{gen}");
        assert_eq!(
            ws[1].v[4][3], 4,
            "{gen}: second wave sees the first's 4 lanes"
        );
        assert_eq!(dword(&gds, 12), 8, "{gen}: append counter at base 8 + 4");
        assert_eq!(dword(&gds, 8), 9, "{gen}: max");
        assert_eq!(&ws[1].v[5][..4], &[9, 9, 9, 9], "{gen}");
    }
}

/// GcnInstrsDs.md DS_WRAP_RTN_B32: VDST = old; new = old >= DATA0 ? old -
/// DATA0 : old + DATA1 (32-bit, wrapping).
#[test]
fn ds_wrap_rtn() {
    for gen in ALL_GENS {
        let Some(w) = enc(
            gen,
            "ds_wrap_rtn_b32",
            &[
                (Field::Addr, 1),
                (Field::Data0, 2),
                (Field::Data1, 3),
                (Field::Vdst, 4),
            ],
        ) else {
            continue;
        };
        // (old, data0, data1) -> new
        let cases: [(u32, u32, u32, u32); 4] = [
            (10, 10, 5, 0),             // equal: subtract
            (9, 10, 5, 14),             // below: add
            (u32::MAX, 0, 7, u32::MAX), // >= 0 always: subtract 0
            (1, 2, u32::MAX, 0),        // add wraps
        ];
        let p = Program::new(gen, &code(&[w]), 0x1000);
        let mem = SimpleMemory::new();
        let mut lds: Vec<u8> = cases.iter().flat_map(|c| c.0.to_le_bytes()).collect();
        let mut wv = Wave::new(0);
        {
            let mut ctx = Ctx::new(&p, &mem, &mut lds);
            wv.set_s64(EXEC, 0xf);
            wv.s[M0] = u32::MAX;
            for (l, c) in cases.iter().enumerate() {
                wv.v[1][l] = 4 * l as u32;
                wv.v[2][l] = c.1;
                wv.v[3][l] = c.2;
            }
            exec::run_wave(&mut wv, &mut ctx).unwrap();
        }
        for (l, c) in cases.iter().enumerate() {
            assert_eq!(wv.v[4][l], c.0, "{gen}: old returned");
            let new = u32::from_le_bytes(lds[4 * l..4 * l + 4].try_into().unwrap());
            assert_eq!(new, c.3, "{gen}: case {c:?}");
        }
    }
}

/// ds_condxchg32_rtn_b64/b128: each dword returns its old value and is
/// replaced by DATA[k] with bit 31 cleared only when DATA[k] bit 31 is set.
#[test]
fn ds_condxchg32() {
    for gen in ALL_GENS {
        for (name, n) in [("ds_condxchg32_rtn_b64", 2), ("ds_condxchg32_rtn_b128", 4)] {
            let Some(w) = enc(
                gen,
                name,
                &[
                    (Field::Addr, 1),
                    (Field::Data0, 4),
                    (Field::Vdst, 8),
                    (Field::Offset, 4),
                ],
            ) else {
                continue;
            };
            let p = Program::new(gen, &code(&[w]), 0x1000);
            let mem = SimpleMemory::new();
            let mut lds: Vec<u8> = (0..8u32).flat_map(|i| (100 + i).to_le_bytes()).collect();
            let data = [0x8000_0005u32, 0x7fff_ffff, 0xffff_ffff, 0];
            let mut wv = Wave::new(0);
            {
                let mut ctx = Ctx::new(&p, &mem, &mut lds);
                wv.set_s64(EXEC, 1);
                wv.s[M0] = u32::MAX;
                wv.v[1][0] = 0;
                for (k, d) in data.iter().enumerate() {
                    wv.v[4 + k][0] = *d;
                }
                exec::run_wave(&mut wv, &mut ctx).unwrap();
            }
            let mem_after: Vec<u32> = lds
                .chunks(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            let want_new = [5, 102, 0x7fff_ffff, 104];
            for k in 0..n {
                assert_eq!(
                    wv.v[8 + k][0],
                    101 + k as u32,
                    "{gen} {name}: old dword {k}"
                );
                assert_eq!(mem_after[1 + k], want_new[k], "{gen} {name}: dword {k}");
            }
            assert_eq!(
                mem_after[1 + n],
                101 + n as u32,
                "{gen} {name}: past the data"
            );
        }
    }
}

/// GWS semaphores (resource = (M0[21:16] + OFFSET[5:0]) mod 64): P waits at 0
/// until V or BR raises the count; release_all lets parked waves go on
/// without taking a count; a P that nothing can satisfy is a deadlock fault.
#[test]
fn gws_semaphores() {
    for gen in ALL_GENS {
        let e = |name: &str, f: &[(Field, u32)]| {
            let mut f = f.to_vec();
            f.push((Field::Gds, 1));
            enc(gen, name, &f)
        };
        let p = e("ds_gws_sema_p", &[(Field::Offset, 6)]).unwrap();
        let v = e("ds_gws_sema_v", &[(Field::Offset, 6)]).unwrap();
        let br = e("ds_gws_sema_br", &[(Field::Addr, 1), (Field::Offset, 6)]).unwrap();
        // BR raises resource (63 + 6) mod 64 = 5 to 1; then three waves each
        // take P and give V back, one after another.
        let gds = Gds::new();
        let (_, r) = run_group(gen, std::slice::from_ref(&br), 1, Some(&gds), |w| {
            w.s[M0] = 63 << 16;
            w.v[1] = [1; 64];
        });
        r.unwrap();
        let (ws, r) = run_group(gen, &[p.clone(), v.clone()], 3, Some(&gds), |w| {
            w.s[M0] = 63 << 16;
        });
        r.unwrap();
        assert!(ws.iter().all(|w| w.status == Status::Done), "{gen}");
        // A handoff between waves: wave 0 parks in P until wave 1's V.
        let gds = Gds::new();
        let (_, r) = run_group(gen, std::slice::from_ref(&br), 1, Some(&gds), |w| {
            w.s[M0] = 6 << 16; // resource 12
            w.v[1] = [1; 64];
        });
        r.unwrap();
        let v0 = e("ds_gws_sema_v", &[(Field::Offset, 0)]).unwrap();
        let (ws, r) = run_group(gen, &[p.clone(), v0], 2, Some(&gds), |w| {
            w.s[M0] = if w.id == 0 { 0 } else { 6 << 16 };
        });
        // Wave 0: P on 6 parks. Wave 1: P on 12 passes, V on 6 releases wave 0,
        // whose V then goes to resource 0.
        r.unwrap();
        assert!(ws.iter().all(|w| w.status == Status::Done), "{gen}");
        // A P with nothing left to raise the count: deadlock, reported on the P.
        let gds = Gds::new();
        let (_, r) = run_group(gen, std::slice::from_ref(&p), 2, Some(&gds), |w| {
            w.s[M0] = 63 << 16
        });
        let f = r.unwrap_err();
        assert!(matches!(f.kind, FaultKind::GwsDeadlock(_)), "{gen}: {f}");
        assert!(f.to_string().contains("GWS semaphore 5"), "{gen}: {f}");
        assert!(f.to_string().contains("2 wave(s)"), "{gen}: {f}");
        assert_eq!(f.pc, 0, "{gen}");
        // release_all (GCN 1.1+): parked P waves go on, the count stays 0.
        if let Some(rel) = e("ds_gws_sema_release_all", &[(Field::Offset, 0)]) {
            // Waves 0 and 1 (M0 base 63) park in P on resource 5; wave 2 (base
            // 5) passes P on resource 11 (raised by BR) and releases resource 5.
            let gds = Gds::new();
            let (_, r) = run_group(gen, std::slice::from_ref(&br), 1, Some(&gds), |w| {
                w.s[M0] = 5 << 16;
                w.v[1] = [1; 64];
            });
            r.unwrap();
            let (ws, r) = run_group(gen, &[p.clone(), rel], 3, Some(&gds), |w| {
                w.s[M0] = if w.id == 2 { 5 << 16 } else { 63 << 16 };
            });
            r.unwrap();
            assert!(ws.iter().all(|w| w.status == Status::Done), "{gen}");
            // The count of resource 5 stayed 0: another P parks for good.
            let (_, r) = run_group(gen, std::slice::from_ref(&p), 1, Some(&gds), |w| {
                w.s[M0] = 63 << 16
            });
            assert!(
                matches!(r.unwrap_err().kind, FaultKind::GwsDeadlock(_)),
                "{gen}"
            );
        }
    }
}

/// The GWS barrier: ds_gws_init sets it to N - 1; the N-th arriving wave
/// releases the others and reloads it from its own data, so it can be used
/// again. 3 waves of one group meet twice.
#[test]
fn gws_barrier_rounds() {
    for gen in ALL_GENS {
        let e = |name: &str, f: &[(Field, u32)]| {
            let mut f = f.to_vec();
            f.push((Field::Gds, 1));
            enc(gen, name, &f).unwrap()
        };
        let init = e("ds_gws_init", &[(Field::Addr, 1)]);
        let bar = e("ds_gws_barrier", &[(Field::Addr, 1)]);
        let add = e("ds_add_u32", &[(Field::Addr, 2), (Field::Data0, 3)]);
        let read = e("ds_read_b32", &[(Field::Addr, 2), (Field::Vdst, 4)]);
        let gds = Gds::new();
        let (_, r) = run_group(gen, &[init], 1, Some(&gds), |w| {
            w.s[M0] = 0x40;
            w.v[1] = [2; 64];
        });
        r.unwrap();
        let prog = [
            add.clone(),
            bar.clone(),
            read.clone(),
            add,
            bar,
            read.clone(),
        ];
        let (ws, r) = run_group(gen, &prog, 3, Some(&gds), |w| {
            w.s[M0] = 0x40;
            w.v[1] = [2; 64];
            w.v[2] = [0; 64];
            w.v[3] = [0; 64];
            w.v[3][0] = 1;
        });
        r.unwrap();
        // After the second barrier every wave has seen all six adds.
        for w in &ws {
            assert_eq!(w.v[4][0], 6, "{gen}");
        }
        assert_eq!(dword(&gds, 0), 6, "{gen}");
        // Count instructions: a parked instruction is counted once, when it completes.
        assert!(ws.iter().all(|w| w.count == 7), "{gen}");
    }
}

/// ds_ordered_count in one work-group: each wave adds its value in wave
/// order; a wave that does not release keeps the turn until it ends.
#[test]
fn ordered_count_in_group() {
    for gen in ALL_GENS {
        let oc = |off1: u32| {
            enc(
                gen,
                "ds_ordered_count",
                &[
                    (Field::Addr, 1),
                    (Field::Vdst, 2),
                    (Field::Offset, off1 << 8 | 8),
                    (Field::Gds, 1),
                ],
            )
            .unwrap()
        };
        let gds = Gds::new();
        gds.begin_dispatch(1, true);
        // No release on the first, release on the second: each wave adds twice.
        let (ws, r) = run_group(gen, &[oc(0), oc(1)], 3, Some(&gds), |w| {
            w.s[M0] = 0x40;
            w.v[1] = [10 + w.id; 64];
            w.set_s64(EXEC, 0b110); // first active lane is 1
        });
        r.unwrap();
        // Index 2 lives at window dword 2: 2*10 + 2*11 + 2*12.
        assert_eq!(dword(&gds, 8), 66, "{gen}");
        assert_eq!(
            ws[2].v[2][1],
            66 - 12,
            "{gen}: old value before wave 2's second add"
        );
        assert_eq!(ws[2].v[2][0], 0, "{gen}: inactive lane untouched");
        // swap (OFFSET1[7:4] = 1)
        let (ws, r) = run_group(gen, &[oc(0x11)], 1, Some(&gds), |w| {
            w.s[M0] = 0x40;
            w.v[1] = [5; 64];
        });
        // group 0 again: turn is at (1, 0) now, so this wave (0, 0) never gets it.
        assert!(
            matches!(r.unwrap_err().kind, FaultKind::GwsDeadlock(_)),
            "{gen}"
        );
        drop(ws);
        gds.begin_dispatch(1, true);
        let (ws, r) = run_group(gen, &[oc(0x11)], 1, Some(&gds), |w| {
            w.s[M0] = 0x40;
            w.v[1] = [5; 64];
        });
        r.unwrap();
        assert_eq!((ws[0].v[2][0], dword(&gds, 8)), (66, 5), "{gen}: swap");
        // Operations 2..15 are defined nowhere: a clear fault, GDS unchanged.
        for opn in [2u32, 15] {
            gds.begin_dispatch(1, true);
            let (_, r) = run_group(gen, &[oc(opn << 4 | 1)], 1, Some(&gds), |w| {
                w.s[M0] = 0x40;
                w.v[1] = [9; 64];
            });
            let f = r.unwrap_err();
            assert!(
                matches!(&f.kind, FaultKind::BadOperand(m) if m.contains(&format!("operation {opn}"))),
                "{gen}: {f}"
            );
            assert_eq!(dword(&gds, 8), 5, "{gen}: GDS untouched");
        }
    }
}
