#![no_main]
//! Decoder fuzz target: raw programs, ELF objects and single words.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = risa_cayman::DisasmOptions { hex: true };
    let _ = risa_cayman::disassemble(data, &opts);
    let _ = risa_cayman::disassemble_object(data, &opts);
    let w: Vec<u32> = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for p in w.chunks_exact(4) {
        let _ = risa_cayman::decode_cf(p[0], p[1]);
        if let Ok(i) = risa_cayman::decode_alu(p[2], p[3]) {
            assert_eq!(risa_cayman::encode_alu(&i), [p[2], p[3]]);
        }
        let _ = risa_cayman::decode_fetch([p[0], p[1], p[2], p[3]], p[0] & 1 == 1);
    }
});
