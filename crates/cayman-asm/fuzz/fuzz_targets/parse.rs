#![no_main]
//! Assembler fuzz target: any text through the whole assembler (core +
//! Cayman back end), and each line through the stand-alone line parsers.
//! Whatever assembles without errors must disassemble without panicking.
use libfuzzer_sys::fuzz_target;
use risa_cayman_asm::text::Plain;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let opts = risa_cayman_asm::Options {
        allow_fs: false,
        max_lines: 20_000,
        // `.=1221222020` is a valid 1.2 GB section; keep runs small.
        max_section_size: 1 << 20,
        ..Default::default()
    };
    let out = risa_cayman_asm::assemble("fuzz.s", &src, opts);
    if !out.has_errors() {
        let _ = risa_cayman::disassemble(&out.text(), &Default::default());
        let _ = out.object();
    }
    for line in src.lines().take(64) {
        let _ = risa_cayman_asm::cf::parse_cf(line, &mut Plain);
        let _ = risa_cayman_asm::alu::parse_alu(1, line, &mut Plain);
        let _ = risa_cayman_asm::fetch::parse_fetch(line, &mut Plain);
        let _ = risa_cayman_asm::alu::parse_lds_direct(line, &mut Plain);
    }
});
