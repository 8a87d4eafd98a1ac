//! The interface between the assembler core and an ISA back end.

use crate::asm::Assembler;
use crate::expr::Expr;
use crate::lex::{split_operands, Cursor};
use crate::{SectionId, Value};

/// One instruction or pseudo-op statement, as handed to the back end.
///
/// All slices borrow from the current source line, so passing any of them
/// (or a sub-slice) to [`Assembler::error`] points the caret at it.
#[derive(Debug, Clone, Copy)]
pub struct Statement<'a> {
    /// The mnemonic or pseudo-op name as written (case preserved).
    pub name: &'a str,
    /// Everything after the name, trimmed (operands / arguments).
    pub args: &'a str,
    /// The whole statement text.
    pub text: &'a str,
}

impl<'a> Statement<'a> {
    /// Iterate over the operands split at top-level commas (trimmed).
    ///
    /// ```
    /// use risa_asm_core::Statement;
    /// let s = Statement { name: "op", args: "r1, foo(1,2)", text: "op r1, foo(1,2)" };
    /// assert_eq!(s.operands().collect::<Vec<_>>(), ["r1", "foo(1,2)"]);
    /// ```
    pub fn operands(&self) -> impl Iterator<Item = &'a str> {
        split_operands(self.args)
    }
    /// A cursor over the arguments.
    pub fn cursor(&self) -> Cursor<'a> {
        Cursor::new(self.args)
    }
}

/// A deferred patch requested by a back end: when `expr` can be evaluated
/// (at the end of assembly) the core calls [`Backend::apply_fixup`].
#[derive(Debug, Clone)]
pub struct Fixup {
    /// Section holding the bytes to patch.
    pub section: SectionId,
    /// Offset of the instruction/field inside the section.
    pub offset: u64,
    /// Back-end defined kind (e.g. "16-bit PC-relative branch").
    pub kind: u32,
    /// Back-end defined extra data.
    pub payload: u64,
    /// The expression (carries its source position for diagnostics).
    pub expr: Expr,
}

/// What an ISA back end implements. Only [`Backend::instruction`] is
/// required; everything else has a sensible default.
///
/// ```
/// use risa_asm_core::{Assembler, Backend, Options, Statement, ExprResult};
/// struct Bytes;
/// impl Backend for Bytes {
///     // "b EXPR" emits one byte
///     fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
///         let mut c = st.cursor();
///         match asm.expr(&mut c) {
///             ExprResult::Value(v) => asm.emit(&[v.value as u8]),
///             _ => asm.error(st.args, "need a known value"),
///         }
///     }
/// }
/// let out = Assembler::new(Options::default()).assemble("t.s", "b 1+2\nb 7", &mut Bytes);
/// assert!(!out.has_errors());
/// assert_eq!(out.section(".text").unwrap().data, [3, 7]);
/// ```
pub trait Backend {
    /// Assemble one instruction statement: parse `stmt.args`, evaluate
    /// expressions through `asm`, emit bytes with [`Assembler::emit`] and
    /// register [`Fixup`]s for values not known yet.
    fn instruction(&mut self, asm: &mut Assembler, stmt: &Statement<'_>);

    /// Offered the rest of every statement before the core reads a
    /// `label:` from it (after each label already read). Return `true` to
    /// take the statement over: the core then does nothing more with it.
    /// For targets whose line syntax starts with something that looks like
    /// a label (Cayman's `ALU_PUSH_BEFORE: ADDR(4)` CF lines and `x: MOV …`
    /// slot lines). `text` is a slice of the current line, so errors can
    /// point into it.
    fn claim(&mut self, asm: &mut Assembler, text: &str) -> bool {
        let _ = (asm, text);
        false
    }

    /// Handle a pseudo-op; `name` is lower-cased and includes the leading
    /// dot. Return `true` if handled. Called before the core's own
    /// pseudo-ops, so a back end may also override them.
    fn directive(&mut self, asm: &mut Assembler, name: &str, stmt: &Statement<'_>) -> bool {
        let _ = (asm, name, stmt);
        false
    }

    /// Patch `data` (the whole section) for `fixup` now that its
    /// expression evaluated to `value`. An `Err` is reported at the
    /// expression's source position: as a warning when the message starts
    /// with `"warning: "` (the patch was made), else as an error.
    fn apply_fixup(&mut self, fixup: &Fixup, value: Value, data: &mut [u8]) -> Result<(), String> {
        let _ = (fixup, value, data);
        Err("back end does not support fixups".into())
    }

    /// Fill `len` bytes of code (alignment in an executable section without
    /// an explicit fill value): typically no-op instructions.
    fn code_fill(&self, len: usize, out: &mut Vec<u8>) {
        out.resize(out.len() + len, 0);
    }

    /// Parse the text after `%` of a register symbol assignment
    /// (`name = %v[0:3]`) into an opaque value the back end later reads
    /// with [`Assembler::register_symbol`]. `None` = error (report it).
    fn register_symbol(&mut self, asm: &mut Assembler, text: &str) -> Option<u64> {
        asm.error(text, "register symbols are not supported by this target");
        None
    }

    /// Evaluate a target-specific condition of `.ifarch`, `.ifgpu`,
    /// `.iffmt` (`kind` is `"arch"`, `"gpu"` or `"fmt"`). `None` means not
    /// supported (the core reports an error).
    fn condition(&mut self, asm: &mut Assembler, kind: &str, arg: &str) -> Option<bool> {
        let _ = (asm, kind, arg);
        None
    }

    /// Receives the text captured by [`Assembler::capture_raw`] once its end
    /// pseudo-op (`end`, lower case) was seen.
    fn raw_block(&mut self, asm: &mut Assembler, end: &str, text: &str) {
        let _ = (asm, end, text);
    }

    /// Called before `. = expr` moves the location counter (`rhs` is the
    /// expression text): a back end that buffers code at the current location
    /// emits or rejects it here, as it does for `.org`.
    fn location_assign(&mut self, asm: &mut Assembler, rhs: &str) {
        let _ = (asm, rhs);
    }

    /// Called before line `line` of the source file is read when it is
    /// read from the file itself and `line` is at least the one given to
    /// [`Assembler::call_before_file_line`] (also at the end of the source):
    /// a back end that has the lines ahead prepared (assembled by other
    /// threads) can take them here ([`Assembler::take_plain_lines`]).
    fn before_file_line(&mut self, asm: &mut Assembler, line: u32) {
        let _ = (asm, line);
    }

    /// Called once when the source is exhausted, before symbols and fixups
    /// are resolved: a back end that buffers code (to lay it out once a
    /// unit is complete) emits the rest here.
    fn end_of_source(&mut self, asm: &mut Assembler) {
        let _ = asm;
    }

    /// Called once at the end, after all fixups were applied.
    fn finish(&mut self, asm: &mut Assembler) {
        let _ = asm;
    }
}
