//! Any text, any generation: the assembler must not panic or hang, and
//! what it accepts must decode back (see `risa_gcn_asm::fuzz::check`).
//!
//! `cd crates/gcn-asm/fuzz && cargo +nightly fuzz run parse -- -max_total_time=600`
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    risa_gcn_asm::fuzz::check(data);
});
