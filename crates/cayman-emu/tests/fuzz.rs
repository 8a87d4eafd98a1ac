//! Fuzz-style robustness: random CF programs and random ALU clauses must
//! never panic or hang (instruction budget) and never touch memory outside
//! the pool (the pool checks every access; a fault is a fine outcome).

mod common;
use common::*;
use risa_cayman_emu::*;
use risa_runtime::cayman::{run, Arg};

fn dispatch() -> Dispatch {
    let mut d = Dispatch::linear(128, 64);
    d.max_instructions = 2_000;
    d
}

#[test]
fn random_words_never_panic() {
    let mut r = Rng::from_state(0x1234_5678);
    for _ in 0..3000 {
        let n = 2 + (r.next_u32() % 64) as usize * 2;
        let w: Vec<u32> = (0..n).map(|_| r.next_u32()).collect();
        let k = Kernel::from_code("fuzz", &bytes_u32(&w));
        let pool = Pool::new(4096);
        let _ = run(
            &k,
            &dispatch(),
            &[Arg::Ptr(0), Arg::U32(r.next_u32() % 4096), Arg::Local(256)],
            &pool,
        );
    }
}

/// A CF program that runs one random ALU clause, a fetch, a RAT store, END:
/// reaches far more of the ALU engine than random CF words do.
#[test]
fn random_alu_clauses_never_panic() {
    let mut r = Rng::from_state(0xfeed);
    let mut faults = 0;
    for it in 0..3000 {
        let nslots = 1 + r.next_u32() % 24;
        // CF: 0 ALU (kcache0 locked on CB0 lines 0-1), 1 TC, 2 RAT store, 3 END, then clauses at slot 4
        let alu_w0 = 4 | (2 << 30); // ADDR 4, KCACHE_MODE0 = lock 2 lines
        let alu_w1 = ((nslots - 1) << 18) | (8 << 26) | (1 << 31);
        let fetch_at = 4 + nslots;
        let fetch_at = fetch_at + (fetch_at & 1); // 16-byte aligned
        let tc_w0 = fetch_at;
        let tc_w1 = (1 << 22) | (1 << 31);
        let rat_w0 = (20 << 4) | (1 << 13) | (1 << 23); // STORE_DWORD, WRITE_IND, index T1
        let rat_w1 = (1 << 12) | (87 << 22) | (1 << 31);
        let end = [0u32, 32 << 22];
        let mut w = vec![alu_w0, alu_w1, tc_w0, tc_w1, rat_w0, rat_w1, end[0], end[1]];
        for _ in 0..nslots {
            let mut w0 = r.next_u32();
            let mut w1 = r.next_u32();
            if it % 2 == 0 {
                // keep sources mostly to GPRs 0-7, kcache and inline constants
                w0 &= !((0x1f0) | (0x1f0 << 13));
                w1 &= !(0x7f << 21);
            }
            w.push(w0);
            w.push(w1);
        }
        while w.len() < fetch_at as usize * 2 {
            w.push(0);
        }
        // one VTX_READ_32 of T0.X from buffer 1 into T2.X
        w.extend_from_slice(&[
            0x40 | (1 << 8),
            2 | (0x7ff << 12) | (13 << 22) | (1 << 28),
            0,
            0,
        ]);
        let k = Kernel::from_code("fuzz", &bytes_u32(&w));
        let pool = Pool::new(1024);
        if run(
            &k,
            &dispatch(),
            &[Arg::Ptr(0), Arg::U32(r.next_u32())],
            &pool,
        )
        .is_err()
        {
            faults += 1;
        }
    }
    // both outcomes must occur, or the generator is not reaching the engine
    assert!(faults > 0 && faults < 3000, "faults {faults}");
}

#[test]
fn endless_loop_hits_the_budget() {
    // LOOP_START_DX10 @2; LOOP_END @1 (jumps back forever); END
    let w = [2u32, 6 << 22, 1, 5 << 22, 0, 32 << 22];
    let k = Kernel::from_code("spin", &bytes_u32(&w));
    let pool = Pool::new(64);
    let f = run(&k, &dispatch(), &[], &pool).unwrap_err();
    assert!(f.message.contains("budget"), "{f}");
}

#[test]
fn out_of_pool_store_faults_with_location() {
    // ALU: MOV T1.X, 0x1000 (literal) ; RAT STORE_DWORD T0.X at index T1.X ; END
    let alu_w0 = 4 | (2 << 30);
    let alu_w1 = (1 << 18) | (8 << 26) | (1 << 31);
    let rat_w0 = (20 << 4) | (1 << 13) | (1 << 23);
    let rat_w1 = (1 << 12) | (87 << 22) | (1 << 31);
    // MOV: src0 = literal.x (253), LAST; dst T1.X, write mask, ALU_INST 25
    let mov_w0 = 253 | (1 << 31);
    let mov_w1 = (1 << 4) | (25 << 7) | (1 << 21);
    let w = [
        alu_w0,
        alu_w1,
        rat_w0,
        rat_w1,
        0,
        32 << 22,
        0,
        0,
        mov_w0,
        mov_w1,
        0x1000,
        0,
    ];
    let k = Kernel::from_code("oob", &bytes_u32(&w));
    let pool = Pool::new(256);
    let f = run(&k, &dispatch(), &[], &pool).unwrap_err();
    assert_eq!(f.at.cf, Some(1), "{f}");
    assert_eq!(f.at.lane, Some(0), "{f}");
    assert!(f.message.contains("outside the global pool"), "{f}");
    assert!(pool.to_bytes().iter().all(|&b| b == 0));
}

/// Random fetch, TEX, GDS, GWS, export and RAT words in a memory skeleton
/// (`fuzzing::memory_program`) with random resources: faults are fine, panics,
/// hangs and accesses outside the pool are not.
#[test]
fn random_memory_programs_never_panic_or_hang() {
    let mut r = Rng::from_state(0xc0ffee);
    let mut faults = 0;
    for _ in 0..2000 {
        let body: Vec<u32> = (0..96).map(|_| r.next_u32()).collect();
        let (code, res) = risa_cayman_emu::fuzzing::memory_program(&body, r.next_u32());
        let k = Kernel::from_code("fuzz", &bytes_u32(&code));
        let pool = Pool::new(4096);
        let mut d = Dispatch::linear(64 * (1 + r.next_u32() % 4), 64);
        d.max_instructions = 2_000;
        d.resources = res;
        if let Err(f) = run(&k, &d, &[Arg::Ptr(0), Arg::U32(r.next_u32() % 4096)], &pool) {
            if std::env::var("FUZZ_SHOW").is_ok() {
                eprintln!("FAULT {}", f.message);
            }
            faults += 1;
        }
    }
    assert!(faults > 0 && faults < 2000, "faults {faults}");
}
