//! Disassembly that always assembles back to the same bytes.
//!
//! [`risa_gcn::listing`] prints instructions from the tables; this module
//! adds the assembler's check: every instruction's text is assembled on its
//! own, and when it would not give back the instruction's words (an operand
//! code no register name stands for, a form the syntax cannot express) the
//! words are printed as `.int` with the text in a comment. `risa disasm`
//! uses it, so `risa disasm F > F.s; risa asm --format raw F.s` gives F back
//! for any bytes (tests/raw_roundtrip.rs).

use risa_asm_core::Options;
use risa_gcn::listing::{self, disassemble_checked};
use risa_gcn::{Dialect, Instr, Processor};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// Whether `text` assembles (alone, at address 0, for `chip`) to exactly
/// `i`'s words.
pub fn text_is_exact(chip: &'static Processor, i: &Instr, text: &str, dialect: Dialect) -> bool {
    let opts = Options {
        semicolon_comments: dialect == Dialect::Llvm,
        allow_fs: false,
        max_diagnostics: 1,
        ..Default::default()
    };
    let a = crate::assemble_for(Some(chip), "", text, opts, false);
    if a.output.has_errors() {
        return false;
    }
    let (w, n) = i.words();
    let got = a.output.section(".text").map_or(&[][..], |s| &s.data[..]);
    got.len() == 4 * n
        && got
            .chunks_exact(4)
            .zip(&w[..n])
            .all(|(b, x)| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) == *x)
}

/// [`listing::disassemble`] whose every instruction is checked with
/// [`text_is_exact`]: the result assembles back to `code` with
/// `risa asm` (`--syntax llvm` for the LLVM dialect).
pub fn disassemble(
    chip: &'static Processor,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    opts: listing::Options,
) -> String {
    disassemble_relocated(chip, code, base, symbols, &BTreeMap::new(), opts)
}

/// [`disassemble`] with relocated literals (see
/// [`listing::disassemble_checked`]), for code objects.
pub fn disassemble_relocated(
    chip: &'static Processor,
    code: &[u8],
    base: u64,
    symbols: &BTreeMap<u64, String>,
    relocs: &BTreeMap<u64, String>,
    opts: listing::Options,
) -> String {
    let d = opts.dialect;
    // The same words always print the same text (branch offsets as
    // numbers), so each distinct instruction is assembled once: compiled
    // code repeats many of its instructions.
    let seen: RefCell<HashMap<(u64, Option<u32>), bool>> = RefCell::default();
    disassemble_checked(chip, code, base, symbols, relocs, opts, &|i, t| {
        let key = (i.raw, i.lit);
        if let Some(&ok) = seen.borrow().get(&key) {
            return ok;
        }
        let ok = text_is_exact(chip, i, t, d);
        seen.borrow_mut().insert(key, ok);
        ok
    })
}
