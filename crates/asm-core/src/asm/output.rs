//! What the assembler gives back: sections, symbols, relocations,
//! diagnostics, and the options it runs with.

use super::*;
use std::collections::HashMap as StdHashMap;
use std::path::PathBuf;

/// Identifier of a section (index into [`Output::sections`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectionId(pub u32);

/// A value: an absolute 64-bit integer, or an offset relative to the start
/// of a section (labels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Value {
    /// `None` for absolute values, else the section the value is relative to.
    pub section: Option<SectionId>,
    /// The value (offset for relative values).
    pub value: u64,
}

impl Value {
    /// An absolute value.
    pub const fn abs(value: u64) -> Value {
        Value {
            section: None,
            value,
        }
    }
    /// True for absolute values.
    pub fn is_abs(&self) -> bool {
        self.section.is_none()
    }
}

/// Kind of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionKind {
    /// Executable code (alignment fills with the back end's no-ops).
    Code,
    /// Data with content.
    Data,
    /// Occupies space but has no content (`@nobits`, `.bss`).
    NoBits,
    /// Only addressable (`.struct`/`.offset`); its labels are absolute.
    Absolute,
    /// Holds configuration, not bytes; putting data there is an error.
    Config,
}

/// A section of the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Name (`.text`, `.data`, ...).
    pub name: String,
    /// Kind.
    pub kind: SectionKind,
    /// Flags string as given to `.section` (`"axw"`), or the default.
    pub flags: String,
    /// ELF type from `.section` (`progbits`, `note`, `nobits`), if given.
    pub elf_type: Option<String>,
    /// Alignment (largest `.align` seen, or `align=` of `.section`).
    pub align: u64,
    /// Content (empty for `NoBits`, `Absolute` and `Config`).
    pub data: Vec<u8>,
    /// Current size / location counter.
    pub size: u64,
    /// Free for the back end (kernel id etc.).
    pub user: u64,
}

/// A relocation the core recorded for a data directive whose value is
/// relative to a section (e.g. `.quad label`). The bytes already hold the
/// section-relative offset; writers of relocatable formats can use this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocation {
    /// Section containing the field.
    pub section: SectionId,
    /// Offset of the field.
    pub offset: u64,
    /// Size of the field in bytes.
    pub size: u8,
    /// Section the value is relative to.
    pub target: SectionId,
    /// Offset inside the target section.
    pub addend: u64,
}

/// A symbol as reported in the [`Output`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolInfo {
    /// Name, with its scope path (`ala::sym`) when not global.
    pub name: String,
    /// Value, if it is defined.
    pub value: Option<Value>,
    /// Register symbol payload (see [`Backend::register_symbol`]).
    pub register: Option<u64>,
    /// Defined as a label.
    pub is_label: bool,
    /// Declared `.global`/`.globl`.
    pub global: bool,
    /// Declared `.weak`.
    pub weak: bool,
    /// Declared `.local`.
    pub local: bool,
    /// Size from `.size`.
    pub size: Option<u64>,
}

/// Options of an assembly run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Directories searched by `.include` and `.incbin`.
    pub include_paths: Vec<PathBuf>,
    /// In-memory files (name → content), looked up before the file system.
    pub files: StdHashMap<String, Vec<u8>>,
    /// Allow reading the file system for `.include`/`.incbin`.
    pub allow_fs: bool,
    /// Treat `//` as a line comment (LLVM style). CLRX uses `//` as the
    /// unsigned division operator, so this is off by default.
    pub slash_comments: bool,
    /// Treat `;` as a line comment (LLVM's AMDGPU assembly) instead of a
    /// statement separator (CLRX, GNU as). Off by default.
    pub semicolon_comments: bool,
    /// Maximum nesting of includes, macro expansions and repetitions.
    pub max_depth: usize,
    /// Maximum number of lines processed (including every expanded line
    /// and every repetition); guards against endless `.while`/recursion.
    pub max_lines: u64,
    /// Maximum size of one section in bytes (default 256 MiB: far above any
    /// GPU program, low enough that `. = 3000000000` is an error rather than
    /// gigabytes of zeros).
    pub max_section_size: u64,
    /// Maximum number of diagnostics kept.
    pub max_diagnostics: usize,
    /// Start in 64-bit mode (`.64bit`).
    pub bits64: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            include_paths: Vec::new(),
            files: StdHashMap::default(),
            allow_fs: true,
            slash_comments: false,
            semicolon_comments: false,
            max_depth: 256,
            max_lines: 50_000_000,
            max_section_size: 1 << 28,
            max_diagnostics: 10_000,
            bits64: false,
        }
    }
}

/// The result of an assembly run.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// All sections, in order of creation.
    pub sections: Vec<Section>,
    /// All named symbols.
    pub symbols: Vec<SymbolInfo>,
    /// Relocations of data directives with section-relative values.
    pub relocations: Vec<Relocation>,
    /// Errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Text printed by `.print`.
    pub printed: Vec<String>,
}

impl Output {
    /// True if any error was reported.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
    /// Errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
    /// Warnings only.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }
    /// Section by name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }
    /// Symbol by (scoped) name.
    pub fn symbol(&self, name: &str) -> Option<&SymbolInfo> {
        self.symbols.iter().find(|s| s.name == name)
    }
}
