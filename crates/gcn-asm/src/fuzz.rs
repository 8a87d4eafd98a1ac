//! The property the parser fuzz target checks, shared with a `#[test]` that
//! runs it over generated and mutated inputs where cargo-fuzz is not used.

use crate::assemble_with;
use risa_asm_core::Options;
use risa_gcn::ALL_GENS;

/// Assembles `data` (as text; the first byte picks the generation) and
/// checks: no panic; bounded work (the core's limits are lowered so that
/// `.rept` bombs stop quickly); the YAML reader and the code object
/// writer take the result without panicking; every diagnostic has a position in the
/// source; and when the source is a single instruction that assembled
/// without errors, its words decode back to an instruction of that length.
pub fn check(data: &[u8]) {
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    let gen = ALL_GENS[g as usize % 4];
    let text = String::from_utf8_lossy(rest);
    let opts = Options {
        max_lines: 20_000,
        max_section_size: 1 << 20,
        allow_fs: false,
        ..Default::default()
    };
    // The metadata YAML reader takes any text.
    let _ = risa_metadata::from_yaml(&text);
    let a = assemble_with(Some(gen), "fuzz.s", &text, opts, true);
    if !a.output.has_errors() {
        // Code objects are built or refused with a message, never a panic.
        let _ = crate::codeobj::build(&a);
    }
    for d in &a.output.diagnostics {
        assert!(
            d.line >= 1 || d.message.contains("limit"),
            "diagnostic without a line: {d:?}"
        );
    }
    let single = !text.contains(['\n', ';', '.', '\\', '#', '/']) && a.backend.listing.len() == 1;
    if single && !a.output.has_errors() && a.backend.gen() == Some(gen) {
        let code = a.code();
        let e = &a.backend.listing[0];
        let words = &code[(e.offset / 4) as usize..];
        match risa_gcn::decode(gen, words) {
            Ok(i) => assert_eq!(
                i.len as usize, e.len,
                "{text:?} on {gen}: assembled {} words, decodes as {}",
                e.len, i.len
            ),
            Err(err) => {
                panic!("{text:?} on {gen}: assembled {words:08x?} which does not decode: {err}")
            }
        }
    }
}
