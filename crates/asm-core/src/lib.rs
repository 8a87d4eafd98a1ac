//! # risa-asm-core
//!
//! The ISA-independent core of the risa assemblers. It implements the
//! CLRX (GNU as compatible) assembler language: statements, comments,
//! labels and local labels, symbols and scopes, 64-bit expressions with
//! forward references, sections, data pseudo-ops, conditionals, macros,
//! repetitions, includes, and `file:line:col` diagnostics with carets and
//! expansion context.
//!
//! An ISA back end implements [`Backend`]: the core hands it every
//! instruction statement ([`Statement`]: mnemonic and operand text, all
//! borrowed from the source so diagnostics can point at them) together
//! with the [`Assembler`] context, through which it evaluates expressions
//! ([`Assembler::expr`]), emits bytes ([`Assembler::emit`]), registers
//! [`Fixup`]s for values known only at the end, and reports errors.
//!
//! ## What the core implements
//!
//! * Statements separated by newlines or `;`, `\` line continuation,
//!   comments `#` and `/* */` (and `//` with [`Options::slash_comments`];
//!   CLRX itself uses `//` as unsigned division; `;` with
//!   [`Options::semicolon_comments`], for TeraScale-style listings).
//! * Labels `name:`, local labels `1:` with `1b`/`1f`, assignments `=`,
//!   `.set`, `.equ`, `.equiv`, `.eqv` (lazy), register symbols `x = %...`
//!   (parsed by the back end), `.enum`, `.undef`, `.global`/`.local`/`.weak`/`.size`,
//!   scopes `.scope`/`.ends`/`.using`/`.unusing` with `a::b` paths.
//! * Expressions: all CLRX operators and precedences, 64-bit wrap-around,
//!   comparisons yield -1, `.`, character literals, decimal/hex/octal/binary
//!   literals, section-relative values, forward references (fixups resolved at
//!   the end, undefined symbols reported where used).
//! * Sections `.text`, `.data`, `.rodata`, `.bss`, `.section NAME, "FLAGS", @TYPE align=N`,
//!   `.struct`/`.offset`; `.align`, `.balign[wl]`, `.p2align[wl]`, `.org`, `.fill`,
//!   `.fillq`, `.skip`, `.space`, `.zero`.
//! * Data: `.byte`, `.short`, `.hword`, `.word`, `.int`, `.long`, `.quad`, `.octa`,
//!   `.half`, `.float`, `.single`, `.double`, `.ascii`, `.asciz`, `.string`,
//!   `.string16/32/64`, `.incbin`.
//! * Conditionals: `.if`, `.ifeq/ne/gt/ge/lt/le`, `.ifdef/.ifndef/.ifnotdef`,
//!   `.ifb/.ifnb`, `.ifc/.ifnc`, `.ifeqs/.ifnes`, `.if32/.if64`, and through
//!   [`Backend::condition`] `.ifarch/.ifgpu/.iffmt` (+ negated); all as `.elseif…`;
//!   `.else`, `.endif`.
//! * Macros with named, default, `:req` and `:vararg` parameters, keyword
//!   arguments, `\@`, `\()`, `\%expr`, `.exitm`, `.purgem`, nested definitions,
//!   `.altmacro` (bare names, `%expr`, `<..>`/`'..'` quoting, `local`),
//!   `.macrocase`/`.nomacrocase`; `.rept`, `.irp`, `.irpc`, `.for`, `.while`.
//! * `.include` (current file's directory, working directory, include paths,
//!   in-memory files), `.end`, `.abort`, `.err`, `.error`, `.warning`, `.print`,
//!   `.fail`, `.32bit/.64bit/.get_64bit`, `.policy/.get_policy/.get_version`.
//! * Limits: nesting depth, total processed lines, section size and number of
//!   diagnostics are bounded ([`Options`]); nothing recurses without a bound.
//!
//! Target pseudo-ops (`.gpu`, `.arch`, `.kernel`, `.config`, `.format`, …) are
//! left to the back end via [`Backend::directive`].
//!
//! ```
//! use risa_asm_core::{Assembler, Backend, ExprResult, Fixup, Options, Statement, Value};
//!
//! /// `jmp TARGET`: opcode byte 0xEB, then a 16-bit absolute offset.
//! struct Toy;
//! impl Backend for Toy {
//!     fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
//!         if !st.name.eq_ignore_ascii_case("jmp") {
//!             return asm.error(st.name, format!("unknown instruction '{}'", st.name));
//!         }
//!         let (section, offset) = (asm.current_section(), asm.offset());
//!         match asm.expr_str(st.args) {
//!             ExprResult::Value(v) => asm.emit(&[0xeb, v.value as u8, (v.value >> 8) as u8]),
//!             ExprResult::Pending(expr) => {
//!                 asm.emit(&[0xeb, 0, 0]);
//!                 asm.add_fixup(Fixup { section, offset, kind: 0, payload: 0, expr });
//!             }
//!             ExprResult::Error => {}
//!         }
//!     }
//!     fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
//!         let o = f.offset as usize;
//!         data[o + 1..o + 3].copy_from_slice(&(v.value as u16).to_le_bytes());
//!         Ok(())
//!     }
//! }
//!
//! let out = Assembler::new(Options::default()).assemble("t.s", "jmp end\nend: jmp end", &mut Toy);
//! assert!(!out.has_errors());
//! assert_eq!(out.section(".text").unwrap().data, [0xeb, 3, 0, 0xeb, 3, 0]);
//! ```

#![warn(missing_docs)]

mod asm;
mod backend;
pub mod diag;
mod directives;
mod expr;
pub mod lex;
mod macros;

pub use asm::{
    Assembler, LineDiag, Options, Output, Pos, Relocation, Section, SectionId, SectionKind,
    SymbolError, SymbolInfo, Value, VERSION_NUMBER,
};
pub use backend::{Backend, Fixup, Statement};
pub use diag::{Diagnostic, Note, Severity};
pub use expr::{Expr, ExprResult};
pub use lex::{Cursor, FloatLit, IntLiteralError, LexError};

/// A back end without instructions: every instruction statement is an
/// error. Useful for data-only sources and tests of the core.
///
/// ```
/// use risa_asm_core::{Assembler, Options, NoIsa};
/// let out = Assembler::new(Options::default()).assemble("x.s", "nop", &mut NoIsa);
/// assert!(out.has_errors());
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct NoIsa;

impl Backend for NoIsa {
    fn instruction(&mut self, asm: &mut Assembler, stmt: &Statement<'_>) {
        asm.error(stmt.name, format!("unknown instruction '{}'", stmt.name));
    }
}
