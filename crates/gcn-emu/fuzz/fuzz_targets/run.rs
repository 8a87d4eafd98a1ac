//! Any bytes as a GCN program: the first byte picks the generation, the
//! wave count and the register seed; the rest is code. Running it must end
//! (the instruction budget bounds it) without panicking; memory is reachable
//! only through the emulator's Memory trait, which holds one allocation.
#![no_main]
use libfuzzer_sys::fuzz_target;
use risa_gcn::ALL_GENS;
use risa_gcn_emu::fuzz::run_stream;

fuzz_target!(|data: &[u8]| {
    let Some((&head, code)) = data.split_first() else { return };
    let gen = ALL_GENS[usize::from(head & 3)];
    let waves = 1 + u32::from((head >> 2) & 3);
    let _ = run_stream(gen, code, u64::from(head) << 8 | code.len() as u64, waves, 5_000);
});
