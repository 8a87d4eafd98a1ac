//! Feed arbitrary bytes through the assembler core with the toy ISA of the
//! tests. The core must never panic, hang or blow up memory.
//!
//! Run: `cd crates/asm-core/fuzz && cargo +nightly fuzz run parse -- -max_total_time=600`
//! (with only a stable toolchain: `RUSTC_BOOTSTRAP=1 cargo fuzz run parse ...`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use risa_asm_core::{Assembler, Options};

#[path = "../../tests/common/mod.rs"]
#[allow(dead_code, unused_imports)]
mod common;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let mut opts = Options {
        allow_fs: false,
        max_lines: 20_000,
        max_section_size: 1 << 20,
        max_depth: 64,
        max_diagnostics: 200,
        ..Default::default()
    };
    opts.files.insert("inc.s".into(), b".byte 1\n.macro im a\n.int \\a\n.endm\n".to_vec());
    opts.files.insert("bin".into(), vec![1, 2, 3]);
    let out = Assembler::new(opts).assemble("fuzz.s", &src, &mut common::Toy::default());
    // exercise rendering too
    for d in &out.diagnostics {
        let _ = d.to_string();
    }
});
