//! Diagnostics: source positions that outlive their line, and reports
//! with the macro/include context they came through.

use super::*;

impl Assembler {
    pub(crate) fn cur_loc(&mut self) -> u32 {
        if let Some(l) = self.line.loc {
            return l;
        }
        // A line of a streamed source is copied: a position kept for later
        // (a fixup's) must not keep the source's pieces alive. Other text (a
        // whole source, a macro body, a line of its own) is shared.
        let l = &self.line;
        let own = l.start == 0 && l.end == l.text.len();
        let (text, start, end) = if self.stream.is_some() && !own {
            (Rc::from(&l.text[l.start..l.end]), 0, l.end - l.start)
        } else {
            (l.text.clone(), l.start, l.end)
        };
        self.locs.push(Loc {
            text,
            start,
            end,
            file: l.file,
            line: l.line,
            ctx: l.ctx,
        });
        let id = (self.locs.len() - 1) as u32;
        self.line.loc = Some(id);
        id
    }

    /// Column (1-based) of a slice of the current line; 0 if not inside it.
    pub(crate) fn col_of(&self, s: &str) -> u32 {
        let base = self.line.text.as_ptr() as usize + self.line.start;
        let p = s.as_ptr() as usize;
        if p >= base && p <= base + (self.line.end - self.line.start) {
            (p - base + 1) as u32
        } else {
            0
        }
    }

    pub(crate) fn cur_pos(&mut self, col: u32) -> Pos {
        Pos {
            loc: self.cur_loc(),
            col,
        }
    }

    /// A position for `at` (a slice of the current statement), valid after
    /// the line is gone.
    pub fn pos(&mut self, at: &str) -> Pos {
        let col = self.col_of(at);
        self.cur_pos(col)
    }

    /// Report an error at `at`, a slice of the current statement (use `""`
    /// or any foreign string for "no column").
    pub fn error(&mut self, at: &str, msg: impl Into<String>) {
        let p = self.pos(at);
        self.report(Severity::Error, p, msg.into());
    }

    /// Report a warning at `at` (see [`Assembler::error`]).
    pub fn warning(&mut self, at: &str, msg: impl Into<String>) {
        let p = self.pos(at);
        self.report(Severity::Warning, p, msg.into());
    }

    /// Report an error at a stored position.
    pub fn error_at(&mut self, pos: Pos, msg: impl Into<String>) {
        self.report(Severity::Error, pos, msg.into());
    }

    /// Report a warning at a stored position.
    pub fn warning_at(&mut self, pos: Pos, msg: impl Into<String>) {
        self.report(Severity::Warning, pos, msg.into());
    }

    /// Number of errors reported so far.
    pub fn error_count(&self) -> usize {
        self.n_errors
    }

    pub(crate) fn report(&mut self, sev: Severity, pos: Pos, message: String) {
        if !self.count_diagnostic(sev) {
            return;
        }
        let Some(loc) = self.locs.get(pos.loc as usize) else {
            return;
        };
        let file = self
            .files
            .get(loc.file as usize)
            .cloned()
            .unwrap_or_default();
        let source_line = loc.text[loc.start..loc.end].to_string();
        let mut notes = Vec::new();
        let mut ctx = loc.ctx;
        let mut guard = 0;
        while ctx != 0 && guard < 64 {
            guard += 1;
            let Some(c) = self.ctxs.get(ctx as usize) else {
                break;
            };
            let Some(l) = self.locs.get(c.at.loc as usize) else {
                break;
            };
            if notes.len() < 10 {
                notes.push(Note {
                    file: self.files.get(l.file as usize).cloned().unwrap_or_default(),
                    line: l.line,
                    col: c.at.col,
                    message: c.what.clone(),
                });
            }
            ctx = l.ctx;
        }
        if guard > 10 {
            notes.push(Note {
                file: String::new(),
                line: 0,
                col: 0,
                message: format!("... and {} more levels", guard - 10),
            });
        }
        self.push_diagnostic(Diagnostic {
            severity: sev,
            file,
            line: loc.line,
            col: pos.col,
            message,
            source_line,
            notes,
        });
    }

    /// Counts a diagnostic of severity `sev`: whether there is room to keep
    /// it ([`Options::max_diagnostics`]; errors are counted either way).
    pub(crate) fn count_diagnostic(&mut self, sev: Severity) -> bool {
        if sev == Severity::Error {
            self.n_errors += 1;
        }
        self.diags.len() < self.opts.max_diagnostics
    }

    /// Keeps `d` (counted already; room checked), with a note on the last
    /// one there is room for.
    pub(crate) fn push_diagnostic(&mut self, d: Diagnostic) {
        self.diags.push(d);
        if self.diags.len() == self.opts.max_diagnostics {
            if let Some(d) = self.diags.last_mut() {
                d.notes.push(Note {
                    file: String::new(),
                    line: 0,
                    col: 0,
                    message: "too many diagnostics; further ones are dropped".into(),
                });
            }
        }
    }

    pub(crate) fn new_ctx(&mut self, what: String, at: Pos) -> u32 {
        self.ctxs.push(ExpCtx { what, at });
        (self.ctxs.len() - 1) as u32
    }
}
