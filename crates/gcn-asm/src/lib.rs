//! # risa-gcn-asm
//!
//! The GCN 1.0–1.4 assembler: the GCN back end of [`risa_asm_core`]. It reads
//! instructions in CLRX's syntax and in LLVM's (suffixes `_e32`/`_e64`/
//! `_sdwa`/`_dpp`, LLVM modifier spellings), driven by the instruction tables
//! of [`risa_gcn`]: operands are read in the order of a row's signature and
//! written into the fields of the chosen encoding through its layout.
//!
//! ```
//! use risa_gcn::{Gen, Processor};
//! let out = risa_gcn_asm::assemble(Some(Gen::Gcn12), "t.s", "v_add_f32 v0, v1, v2\ns_endpgm\n");
//! assert!(!out.output.has_errors());
//! assert_eq!(out.code(), [0x0200_0501, 0xbf81_0000]);
//! ```
#![warn(missing_docs)]

pub mod backend;
pub mod codeobj;
pub mod disasm;
pub mod encode;
#[doc(hidden)]
#[cfg(feature = "test-utils")]
pub mod fuzz;
pub mod kernel;
pub mod mods;
mod names;
mod nameset;
pub mod objdis;
pub mod opnd;
pub mod parallel;

pub use backend::{GcnBackend, ListEntry};
use risa_asm_core::{Assembler, Options, Output};
use risa_gcn::{Gen, Processor};

/// The result of assembling a source.
pub struct Assembled {
    /// Sections, symbols and diagnostics.
    pub output: Output,
    /// The back end after the run (listing, kernels, final generation).
    pub backend: GcnBackend,
}

impl Assembled {
    /// The `.text` section as little-endian dwords (a partial dword is zero-padded).
    pub fn code(&self) -> Vec<u32> {
        let data = self
            .output
            .section(".text")
            .map(|s| s.data.as_slice())
            .unwrap_or(&[]);
        data.chunks(4)
            .map(|c| {
                let mut b = [0u8; 4];
                b[..c.len()].copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect()
    }

    /// The listing: one line per instruction with its byte offset, its words
    /// in hex and its source text (needs `listing` when assembling).
    ///
    /// ```
    /// let a = risa_gcn_asm::assemble_with(Some(risa_gcn::Gen::Gcn12), "t.s",
    ///     "v_mov_b32 v0, 1.5", Default::default(), true);
    /// assert_eq!(a.listing_text(), "00000000: 7e0002ff 3fc00000  v_mov_b32 v0, 1.5\n");
    /// ```
    pub fn listing_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        for e in &self.backend.listing {
            let sec = &self.output.sections[e.section.0 as usize];
            let o = e.offset as usize;
            let _ = write!(s, "{:08x}:", e.offset);
            let mut width = 0;
            for k in 0..e.len {
                let w = sec
                    .data
                    .get(o + 4 * k..o + 4 * k + 4)
                    .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                let _ = write!(s, " {w:08x}");
                width += 9;
            }
            let pad = 18usize.saturating_sub(width);
            let _ = writeln!(s, "{:pad$}  {}", "", e.text);
        }
        s
    }

    /// All diagnostics rendered as text (`file:line:col: error: ...` with carets).
    pub fn diagnostics(&self) -> String {
        risa_asm_core::diag::render_all(&self.output.diagnostics)
    }
}

/// Assembles `source` (named `name` in messages) for `gen` with default options.
pub fn assemble(gen: Option<Gen>, name: &str, source: &str) -> Assembled {
    assemble_with(gen, name, source, Options::default(), false)
}

/// Assembles with explicit core options; `listing` keeps a [`ListEntry`] per
/// instruction. The dialect is LLVM's when `opts.semicolon_comments` is set
/// (what `--syntax llvm` sets), else CLRX's; see [`assemble_in`].
pub fn assemble_with(
    gen: Option<Gen>,
    name: &str,
    source: &str,
    opts: Options,
    listing: bool,
) -> Assembled {
    assemble_for(gen.map(Processor::of_gen), name, source, opts, listing)
}

/// Assembles for `chip` (its generation and features; `None`: the source
/// must name one with `.gpu`/`.arch`/`.amdgcn_target`), in the dialect the
/// options imply (`;` comments: LLVM's).
pub fn assemble_for(
    chip: Option<&'static Processor>,
    name: &str,
    source: &str,
    opts: Options,
    listing: bool,
) -> Assembled {
    let dialect = if opts.semicolon_comments {
        risa_gcn::Dialect::Llvm
    } else {
        risa_gcn::Dialect::Clrx
    };
    assemble_in(chip, name, source, opts, listing, dialect)
}

/// Assembles in `dialect`: where CLRX and LLVM give the same text different
/// meanings (MIMG `dmask` default, buffer `tfe` data registers, MTBUF
/// `format:[..]` numbers, ...), the dialect's meaning is taken.
pub fn assemble_in(
    chip: Option<&'static Processor>,
    name: &str,
    source: &str,
    opts: Options,
    listing: bool,
    dialect: risa_gcn::Dialect,
) -> Assembled {
    let mut backend = backend_for(chip, listing, dialect);
    let output = Assembler::new(opts).assemble(name, source, &mut backend);
    Assembled { output, backend }
}

/// The back end for `chip` in `dialect`, keeping a listing if asked.
fn backend_for(
    chip: Option<&'static Processor>,
    listing: bool,
    dialect: risa_gcn::Dialect,
) -> GcnBackend {
    let mut backend = GcnBackend::for_chip(chip);
    backend.dialect = dialect;
    backend.keep_listing = listing;
    backend
}

/// [`assemble_in`] reading the source from `reader` a piece at a time
/// ([`Assembler::assemble_reader`]): `risa asm` uses it, so its memory does
/// not grow with the size of the source.
pub fn assemble_reader_in(
    chip: Option<&'static Processor>,
    name: &str,
    reader: Box<dyn std::io::BufRead>,
    opts: Options,
    listing: bool,
    dialect: risa_gcn::Dialect,
) -> Assembled {
    let mut backend = backend_for(chip, listing, dialect);
    let output = Assembler::new(opts).assemble_reader(name, reader, &mut backend);
    Assembled { output, backend }
}

/// A deterministic benchmark source: `lines` random valid GCN 1.4
/// instructions of every (instruction, encoding) form, in LLVM syntax, one
/// per line (the forms are picked at random).
pub fn bench_source(lines: usize) -> String {
    random_source(Gen::Gcn14, lines, 0xbe4c)
}

/// `lines` random valid instructions of `gen` (every form LLVM knows), in
/// LLVM syntax, one per line; deterministic for a `seed`.
pub fn random_source(gen: Gen, lines: usize, seed: u64) -> String {
    use risa_gcn::random::{all_forms, random_of, Rng};
    use risa_gcn::table::flag;
    let mut rng = Rng::new(seed);
    let forms: Vec<_> = all_forms(gen)
        .into_iter()
        .filter(|&(op, enc)| {
            let o = &risa_gcn::OPS[op as usize];
            let no_llvm_form = o.has(flag::NOLLVM64) && enc == risa_gcn::Enc::Vop3;
            !o.has(flag::NOLLVM) && !no_llvm_form
        })
        .collect();
    let mut s = String::with_capacity(lines * 40);
    for _ in 0..lines {
        let i = random_of(&mut rng, gen.into(), &forms);
        s.push_str(&risa_gcn::print(&i, risa_gcn::Dialect::Llvm));
        s.push('\n');
    }
    s
}
