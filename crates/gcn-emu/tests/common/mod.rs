//! Helpers shared by the emulator's test programs.

use risa_gcn::Gen;

/// Assembles `src` (risa's GCN assembler; LLVM's meanings and names, `;`
/// separating statements as in CLRX's language) to little-endian code
/// bytes; assembly errors fail the test.
pub fn asm(gen: Gen, src: &str) -> Vec<u8> {
    let src = if src.ends_with('\n') {
        src.to_string()
    } else {
        format!("{src}\n")
    };
    let a = risa_gcn_asm::assemble_in(
        Some(risa_gcn::Processor::of_gen(gen)),
        "t.s",
        &src,
        Default::default(),
        false,
        risa_gcn::Dialect::Llvm,
    );
    assert!(!a.output.has_errors(), "{gen}: {}", a.diagnostics());
    a.code().iter().flat_map(|w| w.to_le_bytes()).collect()
}
