//! Cayman (AMD TeraScale 3, VLIW4) assembler.
//!
//! It reads the text the disassembler prints (`docs/cayman-syntax.md`) plus
//! what hand-written code needs (labels as jump targets, clauses written in
//! place without `ADDR`/`CNT`, literals without a channel), on top of the
//! CLRX-language core of `risa-asm-core` (expressions, symbols, macros,
//! conditionals, includes, diagnostics). It lays out clauses, computes
//! clause addresses and counts, literal placement and the LAST bits, and
//! checks the VLIW4 rules of each instruction group ([`vliw`]).
//!
//! Layering: this crate is the syntax layer of the Cayman slice; it
//! depends on `risa-cayman` (tables, codec) and `risa-asm-core`, so the
//! disassembler stays free of the assembler core.
//!
//! ```
//! let src = "
//! ALU: KCACHE0(CB0:0-15)
//!     0 x: MOV R1.x, KC0[2].x
//!     1 y: ADD R1.y, R1.x, (0x3f800000)
//! END:
//! ";
//! let out = risa_cayman_asm::assemble("k.s", src, Default::default());
//! assert!(!out.has_errors(), "{}", out.diagnostics());
//! let code = out.text();
//! // CF program of two slots, then the clause: 2 instructions and a literal pair
//! assert_eq!(code.len(), 2 * 8 + 3 * 8);
//! let text = risa_cayman::disassemble(&code, &Default::default());
//! assert!(text.contains("ALU: ADDR(2) CNT(3) KCACHE0(CB0:0-15)"), "{text}");
//! assert!(text.contains("y: ADD R1.y, R1.x, (0x3f800000, 1e0).x"), "{text}");
//! ```

#![warn(missing_docs)]
pub mod alu;
mod backend;
pub mod cf;
pub mod config;
pub mod elf;
pub mod extras;
pub mod fetch;
pub mod text;
pub mod vliw;

pub use backend::{Cayman, ProgramInfo};
pub use risa_asm_core::{Diagnostic, Options, Output};

/// The result of an assembly.
#[derive(Debug)]
pub struct Assembled {
    /// Sections, symbols and diagnostics from the core.
    pub output: Output,
    /// The CF programs (kernels) assembled, in order.
    pub programs: Vec<ProgramInfo>,
    /// `.config_reg` pairs for `.AMDGPU.config`; when the source gives none,
    /// [`Assembled::object`] computes them ([`config`]).
    pub config: Vec<(u32, u32)>,
    /// The `.elf_*` lines: more sections, symbols and relocations ([`extras`]).
    pub extras: extras::ElfExtras,
}

impl Assembled {
    /// True if any error was reported.
    pub fn has_errors(&self) -> bool {
        self.output.has_errors()
    }
    /// All diagnostics rendered as `file:line:col: severity: message` with carets.
    pub fn diagnostics(&self) -> String {
        risa_asm_core::diag::render_all(&self.output.diagnostics)
    }
    /// The bytes of `.text`.
    pub fn text(&self) -> Vec<u8> {
        self.output
            .section(".text")
            .map(|s| s.data.clone())
            .unwrap_or_default()
    }
}

/// Assemble Cayman source. `;` starts a comment (as in the disassembler's
/// output); everything else is the CLRX language of the core.
pub fn assemble(name: &str, source: &str, opts: Options) -> Assembled {
    let opts = Options {
        semicolon_comments: true,
        ..opts
    };
    let mut be = Cayman::new();
    let output = risa_asm_core::Assembler::new(opts).assemble(name, source, &mut be);
    Assembled {
        output,
        programs: be.programs,
        config: be.config,
        extras: be.extras,
    }
}

impl Assembled {
    /// An r600 ELF32 object of `.text`: one GLOBAL FUNC symbol per CF
    /// program (named by the label at its start, preferring `.global` ones),
    /// `.AMDGPU.config` from the `.config_reg` lines, or, when the source
    /// has none, computed per kernel ([`config::resources`]: NUM_GPRS,
    /// STACK_SIZE; `SQ_LDS_ALLOC` from `.lds_size`).
    pub fn object(&self) -> Result<Vec<u8>, elf::ObjectError> {
        let text = self.text();
        let Some(tid) = self.output.sections.iter().position(|s| s.name == ".text") else {
            return Err(elf::ObjectError::NoText);
        };
        let mut kernels = Vec::new();
        let mut computed = Vec::new();
        for (n, p) in self
            .programs
            .iter()
            .filter(|p| p.section.0 as usize == tid)
            .enumerate()
        {
            let mut cands: Vec<&risa_asm_core::SymbolInfo> = self
                .output
                .symbols
                .iter()
                .filter(|s| {
                    s.is_label
                        && s.value.is_some_and(|v| {
                            v.section.map(|x| x.0 as usize) == Some(tid) && v.value == p.start
                        })
                })
                .collect();
            cands.sort_by_key(|s| (!s.global, s.name.contains("::")));
            let name = cands
                .first()
                .map_or_else(|| format!("kernel{n}"), |s| s.name.clone());
            if p.start > u32::MAX as u64 || p.size > u32::MAX as u64 {
                return Err(elf::ObjectError::TooLarge);
            }
            let code = text
                .get(p.start as usize..(p.start + p.size) as usize)
                .unwrap_or(&[]);
            computed.extend(config::resources(code).config(p.lds_bytes.div_ceil(4)));
            kernels.push(elf::KernelSym {
                name,
                offset: p.start as u32,
                size: p.size as u32,
            });
        }
        if !kernels.is_empty() && !self.config.len().is_multiple_of(kernels.len()) {
            return Err(elf::ObjectError::UnevenConfig {
                pairs: self.config.len(),
                kernels: kernels.len(),
            });
        }
        let cfg = if self.config.is_empty() {
            &computed
        } else {
            &self.config
        };
        elf::write_object(&text, cfg, &kernels, &self.extras)
    }
}
