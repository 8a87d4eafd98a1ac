//! What a back end needs to encode statements on other threads and hand
//! the results to the assembler that reads the source (parallel assembly,
//! e.g. `risa_gcn_asm::parallel`): which line of the source file the
//! current statement is, whether an encoding read any state of the
//! assembler (then it is not a function of the statement text alone), and
//! the diagnostics of an encoding made elsewhere.

use super::*;

impl Assembler {
    /// Notes a read of state an encoding could depend on.
    #[inline]
    pub(crate) fn read_context(&self) {
        self.context_reads.set(self.context_reads.get() + 1);
    }

    /// A count of reads of assembler state that an instruction's encoding
    /// could depend on: symbol look-ups (register symbols included), local
    /// labels, `.`, the current section and offset. An encoding during
    /// which it did not change depended only on the statement's text, the
    /// target, and the options (the same in every assembler with them).
    ///
    /// ```
    /// use risa_asm_core::{Assembler, Cursor, Options};
    /// let mut a = Assembler::new(Options::default());
    /// let n = a.context_reads();
    /// a.expr(&mut Cursor::new("1 + 2"));
    /// assert_eq!(a.context_reads(), n);
    /// a.expr(&mut Cursor::new("x + 2"));
    /// assert!(a.context_reads() > n);
    /// ```
    pub fn context_reads(&self) -> u64 {
        self.context_reads.get()
    }

    /// The current line's number and text when it is a line of the source
    /// file itself (not of an included file, a macro expansion or a
    /// repetition): what a statement's position in the file is checked
    /// against. The text is the line as the statements are read from it
    /// (comments cut off).
    pub fn file_line(&self) -> Option<(u32, &str)> {
        match self.frames.as_slice() {
            [f] if matches!(f.kind, FrameKind::File) => Some((
                self.line.line,
                &self.line.text[self.line.start..self.line.end],
            )),
            _ => None,
        }
    }

    /// The diagnostics reported so far.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diags
    }

    /// Reports a message at column `col` (1-based, 0: none) of the current
    /// line: replays a diagnostic of the same statement made by another
    /// assembler (its [`Diagnostic::col`]), as if reported here.
    pub fn report_at_col(&mut self, severity: Severity, col: u32, message: String) {
        let p = self.cur_pos(col);
        self.report(severity, p, message);
    }
}
