//! Any bytes, any generation: decoding, printing in both dialects and
//! whole-program listing must not panic, and decoded words must re-serialize.
#![no_main]
use libfuzzer_sys::fuzz_target;
use risa_gcn::{decode_bytes, listing, print, Dialect, ALL_GENS};

fuzz_target!(|data: &[u8]| {
    for gen in ALL_GENS {
        if let Ok(i) = decode_bytes(gen, data) {
            let (w, n) = i.words();
            for (k, word) in w[..n].iter().enumerate() {
                assert_eq!(&word.to_le_bytes()[..], &data[4 * k..4 * k + 4]);
            }
            let _ = print(&i, Dialect::Llvm);
            let _ = print(&i, Dialect::Clrx);
        }
    }
    if data.len() < 4096 {
        let _ = listing::disassemble(ALL_GENS[data.len() % 4], data, 0, &Default::default(), Default::default());
    }
});
