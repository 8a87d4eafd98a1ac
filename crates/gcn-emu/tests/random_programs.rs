//! Random instruction streams (valid instructions of every encoding from the
//! table-driven generator, mixed with raw random words) must run to an end or
//! a fault without panicking, on every generation.

use risa_gcn::random::{all_forms, random_instr, Rng};
use risa_gcn::ALL_GENS;
use risa_gcn_emu::fuzz::run_stream;

#[test]
fn random_streams_never_panic() {
    let mut total = 0;
    let mut faults = 0;
    for gen in ALL_GENS {
        let forms = all_forms(gen);
        let mut rng = Rng::new(0x5eed + gen as u64);
        let count: u32 = std::env::var("RISA_RANDOM_PROGRAMS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(600);
        for prog in 0..count {
            let mut words: Vec<u32> = Vec::new();
            let n = 1 + rng.below(24);
            for _ in 0..n {
                if rng.one_in(8) {
                    words.push(rng.next_u64() as u32);
                    continue;
                }
                let (op, enc) = forms[rng.below(forms.len() as u32) as usize];
                if let Some(i) = random_instr(&mut rng, gen, op, enc) {
                    let (w, len) = i.words();
                    words.extend_from_slice(&w[..len]);
                }
            }
            if rng.one_in(2) {
                words.push(0xbf81_0000); // s_endpgm
            }
            let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let r = std::panic::catch_unwind(|| {
                run_stream(gen, &code, prog as u64 + 1, 1 + (prog % 3), 2_000)
            });
            match r {
                Ok(f) => faults += f.is_some() as u32,
                Err(_) => panic!("{gen}: program {prog} panicked: {:08x?}", words),
            }
            total += 1;
        }
    }
    println!("{total} programs, {faults} ended in a fault");
    assert!(faults > 0 && faults < total);
}
