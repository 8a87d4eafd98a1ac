//! Helpers shared by the emulator's test programs.

use risa_gcn::Gen;

/// Assembles `src` for `gen`'s reference chip with risa's GCN assembler:
/// LLVM's meanings and names, `;` separating statements as in CLRX's
/// language.
#[allow(dead_code)] // (not every test program uses every helper)
pub fn assembled(gen: Gen, src: &str) -> risa_gcn_asm::Assembled {
    let opts = Default::default();
    let chip = Some(risa_gcn::Processor::of_gen(gen));
    risa_gcn_asm::assemble_in(chip, "t.s", src, opts, false, risa_gcn::Dialect::Llvm)
}

/// [`assembled`] to little-endian code bytes; assembly errors fail the test.
#[allow(dead_code)]
pub fn asm(gen: Gen, src: &str) -> Vec<u8> {
    let src = if src.ends_with('\n') {
        src.to_string()
    } else {
        format!("{src}\n")
    };
    let a = assembled(gen, &src);
    assert!(!a.output.has_errors(), "{gen}: {}", a.diagnostics());
    a.code().iter().flat_map(|w| w.to_le_bytes()).collect()
}
