#![no_main]
//! Emulator fuzz target: random programs must never panic or hang (every
//! wave has an instruction budget) and never touch memory outside the guest
//! pool (the pool checks each access; faults are fine outcomes).
//!
//! The first byte picks the shape: raw CF words; a fixed CF skeleton (ALU
//! clause with kcache locked, fetch clause, RAT store, END) around random
//! clause words, which reaches far deeper into the ALU engine; or a memory
//! skeleton (`memory_program`: random TEX/VTX/MEM_RD clause words, random
//! GDS clause words, a random CF word — GWS, exports, … — and a random RAT
//! op) run with host-bound resources and a RAT window.
//! Bit 2 of the first byte runs the dispatch traced (into a sink).
use libfuzzer_sys::fuzz_target;
use risa_cayman_emu::*;
use risa_runtime::cayman::{run, Arg};

fn words(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let mode = data[0];
    let arg = u32::from_le_bytes([data[1], data[2], data[3], data[4]]);
    let body = words(&data[8..]);
    if mode & 3 == 2 {
        let (code, res) = risa_cayman_emu::fuzzing::memory_program(&body, arg);
        let k = Kernel::from_code("fuzz", &bytes(&code));
        let pool = Pool::new(4096);
        let mut d = Dispatch::linear(64 * (1 + (data[7] as u32 & 3)), 64);
        d.max_instructions = 5_000;
        d.threads = 1;
        d.resources = res;
        if mode & 4 != 0 {
            d.trace = Some(TraceSink::new(std::io::sink()));
        }
        let _ = run(&k, &d, &[Arg::Ptr(0), Arg::U32(arg % 8192)], &pool);
        return;
    }
    let code = if mode & 1 == 0 {
        bytes(&body)
    } else {
        // skeleton: 0 ALU over the random words, 1 TC, 2 RAT store, 3 END; clause at slot 4
        let nslots = (body.len() / 2).clamp(1, 128) as u32;
        let mut w = vec![
            4 | (2 << 30),
            ((nslots - 1) << 18) | (8 << 26) | (1 << 31),
            0,
            (1 << 23) | (1 << 31),
            (20 << 4) | (1 << 13) | (1 << 23),
            (15 << 12) | (85 << 22) | (1 << 31),
            0,
            (32 << 22) | (1 << 21) | (1 << 31),
        ];
        w.extend_from_slice(&body[..(2 * nslots as usize).min(body.len())]);
        while w.len() < 8 + 2 * nslots as usize {
            w.push(0);
        }
        // fetch clause (one VFETCH from buffer 1) at the next 16-byte boundary
        if w.len() % 4 != 0 {
            w.extend_from_slice(&[0, 0]);
        }
        let fetch_at = (w.len() / 2) as u32;
        w[2] = fetch_at;
        w.extend_from_slice(&[
            (1 << 8) | (1 << 16) | (data[5] as u32 & 0x7f) << 24,
            (2 << 12) | (13 << 15) | (1 << 23) | (1 << 26),
            u32::from(data[6]),
            0,
        ]);
        bytes(&w)
    };
    let k = Kernel::from_code("fuzz", &code);
    let pool = Pool::new(4096);
    let mut d = Dispatch::linear(64 + (data[7] as u32 & 0x7f), 64);
    d.max_instructions = 5_000;
    d.threads = 1;
    if mode & 4 != 0 {
        // the trace path: its listing decodes and prints whatever words the program has
        d.trace = Some(TraceSink::new(std::io::sink()));
    }
    let _ = run(
        &k,
        &d,
        &[Arg::Ptr(0), Arg::U32(arg % 8192), Arg::Local(256)],
        &pool,
    );
});
