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

    /// [`Assembler::file_line`] with where the line starts in the text
    /// [`Assembler::run`] reads, when the line is a piece of that text (not
    /// one the assembler rebuilt: lines joined by `\\`, block comments).
    pub fn file_line_at(&self) -> Option<(u32, usize, &str)> {
        match self.frames.as_slice() {
            [f] if matches!(f.kind, FrameKind::File) && Rc::ptr_eq(&self.line.text, &f.text) => {
                let l = &self.line;
                Some((l.line, l.start, &l.text[l.start..l.end]))
            }
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

/// A diagnostic of a line of the source file, made by another assembler
/// (see [`Assembler::take_plain_lines`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineDiag {
    /// The line's number in the file (1-based).
    pub line: u32,
    /// The column (1-based, 0: none).
    pub col: u32,
    /// Error or warning.
    pub severity: Severity,
    /// The message.
    pub message: String,
    /// The line as its statements are read (comments cut off).
    pub source_line: String,
}

impl Assembler {
    /// Counts what makes a source more than instruction statements on
    /// plain lines: labels, assignments, pseudo-ops, macro calls, statements
    /// recorded (a macro body) or skipped (a false conditional), and lines
    /// joined by `\` or holding a block comment. While it stays the same, the
    /// lines read changed no state of the assembler but the output of their
    /// instructions.
    pub fn irregular_count(&self) -> u64 {
        self.irregular
    }

    /// Calls [`Backend::before_file_line`] before the source file's line
    /// `line` (and each line after it) is read, when it is read from the
    /// file itself (not in an include, a macro or a repetition); `u32::MAX`:
    /// never.
    pub fn call_before_file_line(&mut self, line: u32) {
        self.line_hook = line;
    }

    /// Whether line `line` of the source file is the next line read, in the
    /// ordinary state: outside block comments, macro or repetition bodies
    /// and false conditionals, with no macro defined and `.altmacro` off.
    /// Then an instruction statement on it means to this assembler what it
    /// means to a fresh one.
    fn at_plain_file_line(&self, line: u32) -> bool {
        let [fr] = self.frames.as_slice() else {
            return false;
        };
        matches!(fr.kind, FrameKind::File)
            && fr.line_map.is_none()
            && fr.line == line
            && !fr.in_comment
            && self.deferred.is_empty()
            && self.recording.is_none()
            && !self.is_skipping()
            && self.macros.is_empty()
            && !self.altmacro
            && !self.ended
    }

    /// Where the next line of the source file starts: a byte offset in the
    /// text [`Assembler::run`] reads (in [`Backend::before_file_line`], the
    /// line it is called for). With [`Assembler::take_plain_lines`], the
    /// text of lines another assembler read is measured in these.
    pub fn file_offset(&self) -> usize {
        self.frames.first().map_or(0, |f| f.pos.min(f.text.len()))
    }

    /// Takes lines `first..first + lines` of the source file as another
    /// assembler read them (from the same file, each line an instruction
    /// statement, a comment or blank: [`Assembler::irregular_count`] did not
    /// change; `text` bytes of it, as [`Assembler::file_offset`] measures):
    /// appends their code `bytes` to the current section, reports their
    /// diagnostics `diags` (in order) and goes on after them, passing over
    /// their text without reading it when it can ([`Assembler::assemble_file`]).
    /// False (nothing done) unless [`Backend::before_file_line`] is at line
    /// `first` in the ordinary state, the current section takes code
    /// (program or data) and has room, and the line limit allows.
    pub fn take_plain_lines(
        &mut self,
        first: u32,
        lines: u32,
        text: usize,
        bytes: &[u8],
        diags: &[LineDiag],
    ) -> bool {
        if !self.at_plain_file_line(first)
            || self.lines_done + u64::from(lines) > self.opts.max_lines
        {
            return false;
        }
        let s = &self.sections[self.cur_section as usize];
        if s.kind > SectionKind::Data
            || s.size != s.data.len() as u64
            || s.size + bytes.len() as u64 > self.opts.max_section_size
        {
            return false;
        }
        let file = self.files[self.frames[0].file as usize].clone();
        for d in diags {
            if !self.count_diagnostic(d.severity) {
                continue;
            }
            self.push_diagnostic(Diagnostic {
                severity: d.severity,
                file: file.clone(),
                line: d.line,
                col: d.col,
                message: d.message.clone(),
                source_line: d.source_line.clone(),
                notes: Vec::new(),
            });
        }
        let s = &mut self.sections[self.cur_section as usize];
        s.data.extend_from_slice(bytes);
        s.size += bytes.len() as u64;
        self.pass_file_lines(lines, text);
        true
    }

    /// Moves the file frame (on top, at a line start) past `lines` lines of
    /// `text` bytes: in the piece it holds, then in the stream.
    fn pass_file_lines(&mut self, lines: u32, text: usize) {
        let fr = &mut self.frames[0];
        let here = fr.text.len().saturating_sub(fr.pos).min(text);
        fr.pos += here;
        fr.line += lines;
        self.lines_done += u64::from(lines);
        let beyond = text - here;
        if beyond == 0 {
            return;
        }
        // (The piece is used up: the next line is read from the stream.)
        fr.text = Rc::from("");
        fr.pos = 0;
        let passed = match self.stream.as_mut() {
            Some(s) => s.pass(beyond as u64),
            None => Ok(()),
        };
        if let Err(e) = passed {
            let pos = self.cur_pos(0);
            self.report(Severity::Error, pos, format!("reading the source: {e}"));
            self.stream = None;
        }
    }
}
