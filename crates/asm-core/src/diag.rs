//! Diagnostics: errors and warnings with position, source line and caret.

use std::fmt;

/// Severity of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Informational note (used for expansion/include context).
    Note,
    /// Warning: output is still produced.
    Warning,
    /// Error: the assembly failed.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One message of the assembler.
///
/// Rendered by `Display` as
///
/// ```text
/// file.s:3:9: error: message
///     .int foo+
///             ^
/// file.s:10:1: note: in expansion of macro 'm'
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// File name as given to the assembler (or included).
    pub file: String,
    /// 1-based line number (0 if unknown).
    pub line: u32,
    /// 1-based column in bytes (0 if unknown).
    pub col: u32,
    /// The message.
    pub message: String,
    /// The source line the position refers to (may be empty).
    pub source_line: String,
    /// Context: where the macro/repetition was expanded or the file included.
    pub notes: Vec<Note>,
}

/// A context note attached to a [`Diagnostic`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// Text such as `in expansion of macro 'm'`.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.line, self.col, self.severity, self.message
        )?;
        if !self.source_line.is_empty() {
            writeln!(f, "{}", self.source_line)?;
            let mut caret = String::new();
            for (i, ch) in self.source_line.char_indices() {
                if i + 1 >= self.col as usize {
                    break;
                }
                caret.push(if ch == '\t' { '\t' } else { ' ' });
            }
            caret.push('^');
            writeln!(f, "{caret}")?;
        }
        for n in &self.notes {
            writeln!(f, "{}:{}:{}: note: {}", n.file, n.line, n.col, n.message)?;
        }
        Ok(())
    }
}

/// Render a list of diagnostics, one after another.
pub fn render_all(diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| d.to_string()).collect()
}
