//! Assembler state, the line driver, symbols, scopes, sections and the
//! API offered to back ends.

use std::collections::HashMap as StdHashMap;
use std::path::PathBuf;
use std::rc::Rc;

use crate::backend::{Backend, Fixup, Statement};
use crate::diag::{Diagnostic, Note, Severity};
use crate::expr::Expr;
use crate::lex::{self, is_ident_char, is_space, Cursor};

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

/// A source position that stays valid after the line is gone (for
/// deferred diagnostics, e.g. of fixups).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    pub(crate) loc: u32,
    pub(crate) col: u32,
}

pub(crate) struct Loc {
    pub text: Rc<str>,
    pub start: usize,
    pub end: usize,
    pub file: u32,
    pub line: u32,
    pub ctx: u32,
}

pub(crate) struct ExpCtx {
    pub what: String,
    pub at: Pos,
}

/// The current line.
#[derive(Clone)]
pub(crate) struct LineCtx {
    pub text: Rc<str>,
    pub start: usize,
    pub end: usize,
    pub file: u32,
    pub line: u32,
    pub ctx: u32,
    pub loc: Option<u32>,
}

/// Recorded body of a macro or repetition: one statement per line.
#[derive(Debug, Default)]
pub(crate) struct Body {
    pub text: String,
    pub lines: Vec<u32>,
    pub file: u32,
}

pub(crate) enum RepMode {
    Rept(u64),
    Irp {
        name: String,
        values: Vec<String>,
    },
    For {
        sym: u32,
        cond: (usize, usize),
        next: (usize, usize),
        line: LineCtx,
    },
    While {
        cond: (usize, usize),
        line: LineCtx,
    },
}

pub(crate) struct RepeatState {
    pub body: Rc<Body>,
    pub shared: Rc<str>,
    pub iter: u64,
    pub mode: RepMode,
}

pub(crate) enum FrameKind {
    File,
    Macro,
    Repeat(Box<RepeatState>),
}

pub(crate) struct Frame {
    pub text: Rc<str>,
    pub pos: usize,
    pub file: u32,
    pub line: u32,
    pub line_map: Option<Rc<Body>>,
    pub body_idx: usize,
    pub ctx: u32,
    pub in_comment: bool,
    pub cond_depth: usize,
    pub kind: FrameKind,
}

#[derive(Debug, Clone)]
pub(crate) enum SymState {
    Undefined,
    Value(Value),
    Pending(Rc<Expr>),
    Eqv(Rc<Expr>),
    Register(u64),
}

#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub name: Box<str>,
    pub scope: u32,
    pub state: SymState,
    pub is_label: bool,
    pub fixed: bool,
    pub global: bool,
    pub weak: bool,
    pub local: bool,
    pub size: Option<u64>,
    /// Referenced while undefined (a forward reference waits for it).
    pub forward: bool,
}

/// Symbol tables hash with rustc-hash (Fx): fast on short keys; not
/// flooding-resistant, which an assembler does not need.
pub(crate) type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

pub(crate) struct Scope {
    pub name: Box<str>,
    pub parent: u32,
    pub children: HashMap<Box<str>, u32>,
    pub syms: HashMap<Box<str>, u32>,
    pub usings: Vec<u32>,
    pub enum_counter: u64,
}

pub(crate) struct Cond {
    pub parent_active: bool,
    pub active: bool,
    pub taken: bool,
    pub else_seen: bool,
    pub pos: Pos,
}

pub(crate) struct Param {
    pub name: String,
    pub default: Option<String>,
    pub required: bool,
    pub vararg: bool,
}

pub(crate) struct MacroDef {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Rc<Body>,
}

pub(crate) enum RecKind {
    Macro {
        name: String,
        params: Vec<Param>,
    },
    Repeat(RepMode),
    /// Text handed to the back end unprocessed, up to the pseudo-op `end`.
    Raw {
        end: String,
    },
}

pub(crate) struct Recording {
    pub kind: RecKind,
    pub depth: u32,
    pub body: Body,
    pub start: Pos,
}

pub(crate) struct DataFixup {
    pub section: SectionId,
    pub offset: u64,
    pub size: u8,
    pub expr: Expr,
}

#[derive(Default)]
pub(crate) struct LocalLabel {
    pub last: Option<u32>,
    pub next: Option<u32>,
}

/// The assembler: drives the source through the core and the back end,
/// and is the context object back ends work with (emit bytes, evaluate
/// expressions, report diagnostics, define symbols, switch sections).
pub struct Assembler {
    pub(crate) opts: Options,
    pub(crate) files: Vec<String>,
    pub(crate) locs: Vec<Loc>,
    pub(crate) ctxs: Vec<ExpCtx>,
    pub(crate) line: LineCtx,
    /// The current line may hold `;` (statement separators): false only when
    /// the line scan saw none, so splitting can be skipped.
    pub(crate) line_semi: bool,
    /// A raw block just completed (end pseudo-op, text), for the back end.
    pub(crate) raw_done: Option<(String, String)>,
    pub(crate) frames: Vec<Frame>,
    /// The rest of a line whose statement opened a frame (a macro call, a
    /// repetition, an include): it runs when the stack is back to the depth.
    pub(crate) deferred: Vec<(usize, LineCtx, bool)>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) n_errors: usize,
    pub(crate) sections: Vec<Section>,
    pub(crate) cur_section: u32,
    pub(crate) symbols: Vec<Symbol>,
    pub(crate) scopes: Vec<Scope>,
    pub(crate) scope_stack: Vec<u32>,
    pub(crate) locals: HashMap<u64, LocalLabel>,
    pub(crate) conds: Vec<Cond>,
    pub(crate) macros: HashMap<String, Rc<MacroDef>>,
    pub(crate) recording: Option<Recording>,
    pub(crate) fixups: Vec<Fixup>,
    /// Fixups whose value was fixed when their symbols were first defined
    /// (CLRX's rule), applied at the end.
    pub(crate) resolved_fixups: Vec<(Fixup, Value)>,
    pub(crate) data_fixups: Vec<DataFixup>,
    pub(crate) relocations: Vec<Relocation>,
    pub(crate) printed: Vec<String>,
    pub(crate) lines_done: u64,
    pub(crate) macro_counter: u64,
    pub(crate) ended: bool,
    pub(crate) altmacro: bool,
    pub(crate) macrocase: bool,
    pub(crate) bits64: bool,
    pub(crate) policy: u64,
    pub(crate) scratch: Vec<crate::expr::Item>,
    pub(crate) eval_stack: Vec<Value>,
    pub(crate) eval_budget: u64,
    pub(crate) finishing: bool,
    pub(crate) abs_section: Option<u32>,
}

fn lower_into<'b>(s: &str, buf: &'b mut [u8; 64], heap: &'b mut String) -> &'b str {
    if s.len() <= buf.len() {
        let b = &mut buf[..s.len()];
        b.copy_from_slice(s.as_bytes());
        b.make_ascii_lowercase();
        std::str::from_utf8(b).unwrap_or("")
    } else {
        *heap = s.to_ascii_lowercase();
        heap
    }
}

/// Version reported by `.get_version` (CLRX 0.1.9 compatible numbering).
pub const VERSION_NUMBER: u64 = 109;

impl Assembler {
    /// A new assembler with the given options.
    pub fn new(opts: Options) -> Self {
        let bits64 = opts.bits64;
        let empty: Rc<str> = Rc::from("");
        let mut a = Assembler {
            opts,
            files: Vec::new(),
            locs: Vec::new(),
            ctxs: vec![ExpCtx {
                what: String::new(),
                at: Pos { loc: 0, col: 0 },
            }],
            line: LineCtx {
                text: empty,
                start: 0,
                end: 0,
                file: 0,
                line: 0,
                ctx: 0,
                loc: None,
            },
            line_semi: true,
            raw_done: None,
            frames: Vec::new(),
            deferred: Vec::new(),
            diags: Vec::new(),
            n_errors: 0,
            sections: Vec::new(),
            cur_section: 0,
            symbols: Vec::new(),
            scopes: vec![Scope {
                name: "".into(),
                parent: 0,
                children: HashMap::default(),
                syms: HashMap::default(),
                usings: Vec::new(),
                enum_counter: 0,
            }],
            scope_stack: vec![0],
            locals: HashMap::default(),
            conds: Vec::new(),
            macros: HashMap::default(),
            recording: None,
            fixups: Vec::new(),
            data_fixups: Vec::new(),
            resolved_fixups: Vec::new(),
            relocations: Vec::new(),
            printed: Vec::new(),
            lines_done: 0,
            macro_counter: 0,
            ended: false,
            altmacro: false,
            macrocase: true,
            bits64,
            policy: 0,
            scratch: Vec::new(),
            eval_stack: Vec::new(),
            eval_budget: 0,
            finishing: false,
            abs_section: None,
        };
        a.add_section(".text", SectionKind::Code);
        a
    }

    /// Assemble `source` (named `name` in diagnostics) with `backend`.
    ///
    /// ```
    /// use risa_asm_core::{Assembler, Options, NoIsa};
    /// let out = Assembler::new(Options::default())
    ///     .assemble("a.s", ".byte 1, 2\n.short 0x304", &mut NoIsa);
    /// assert_eq!(out.section(".text").unwrap().data, [1, 2, 4, 3]);
    /// ```
    pub fn assemble(mut self, name: &str, source: &str, backend: &mut dyn Backend) -> Output {
        self.run(name, source, backend);
        self.into_output()
    }

    /// Assemble, then run `finish` of the back end, leaving the assembler
    /// available for inspection (used by back ends that build their own
    /// output from the sections and symbols).
    pub fn run(&mut self, name: &str, source: &str, backend: &mut dyn Backend) {
        let file = self.add_file(name);
        self.frames.push(Frame {
            text: Rc::from(source),
            pos: 0,
            file,
            line: 1,
            line_map: None,
            body_idx: 0,
            ctx: 0,
            in_comment: false,
            cond_depth: 0,
            kind: FrameKind::File,
        });
        while !self.ended && self.next_line() {
            self.lines_done += 1;
            if self.lines_done > self.opts.max_lines {
                let p = self.cur_pos(0);
                self.report(
                    Severity::Error,
                    p,
                    "line limit exceeded (endless repetition or recursion?)".into(),
                );
                break;
            }
            let text = self.line.text.clone();
            let line = &text[self.line.start..self.line.end];
            self.process_line(backend, line);
        }
        self.frames.clear();
        self.finish(backend);
    }

    /// Turn the assembler into its [`Output`].
    pub fn into_output(self) -> Output {
        let symbols = self.symbol_infos();
        Output {
            sections: self.sections,
            symbols,
            relocations: self.relocations,
            diagnostics: self.diags,
            printed: self.printed,
        }
    }

    pub(crate) fn add_file(&mut self, name: &str) -> u32 {
        self.files.push(name.to_string());
        (self.files.len() - 1) as u32
    }

    // ------------------------------------------------------------------
    // line reading
    // ------------------------------------------------------------------

    /// Fetch the next logical line into `self.line`. Returns false at the end.
    fn next_line(&mut self) -> bool {
        loop {
            let Some(fr) = self.frames.last_mut() else {
                return false;
            };
            if fr.pos >= fr.text.len() {
                self.end_frame();
                if self
                    .deferred
                    .last()
                    .is_some_and(|d| d.0 == self.frames.len())
                {
                    // The statements after a macro call (or `.endr`, an
                    // include) on its line come after the expansion.
                    if let Some((_, line, semi)) = self.deferred.pop() {
                        self.line = line;
                        self.line_semi = semi;
                        return true;
                    }
                }
                continue;
            }
            let text = fr.text.clone();
            let b = text.as_bytes();
            let start = fr.pos;
            let end = lex::find_newline(b, start);
            fr.pos = end + 1;
            let line_no = match &fr.line_map {
                Some(body) => {
                    let l = body.lines.get(fr.body_idx).copied().unwrap_or(0);
                    fr.body_idx += 1;
                    l
                }
                None => {
                    let l = fr.line;
                    fr.line += 1;
                    l
                }
            };
            let (file, ctx) = (fr.file, fr.ctx);
            let slash = self.opts.slash_comments;
            let semi = self.opts.semicolon_comments;
            match scan_simple(&b[start..end], fr.in_comment, slash, semi) {
                Some((cut, semi)) => {
                    self.line_semi = semi;
                    self.line = LineCtx {
                        text,
                        start,
                        end: start + cut,
                        file,
                        line: line_no,
                        ctx,
                        loc: None,
                    };
                }
                None => {
                    self.line_semi = true;
                    let s = self.clean_complex(start, end);
                    let len = s.len();
                    self.line = LineCtx {
                        text: Rc::from(s),
                        start: 0,
                        end: len,
                        file,
                        line: line_no,
                        ctx,
                        loc: None,
                    };
                }
            }
            return true;
        }
    }

    /// Build a cleaned line: block comments blanked, continuation lines joined.
    fn clean_complex(&mut self, mut start: usize, mut end: usize) -> String {
        let slash = self.opts.slash_comments;
        let semi_comments = self.opts.semicolon_comments;
        let mut out: Vec<u8> = Vec::new();
        let Some(fr) = self.frames.last_mut() else {
            return String::new();
        };
        let text = fr.text.clone();
        let b = text.as_bytes();
        let mut joins = 0;
        loop {
            let line = &b[start..end];
            let mut i = 0;
            let mut cont = false;
            let base = out.len();
            while i < line.len() {
                if fr.in_comment {
                    match find2(&line[i..], b'*', b'/') {
                        Some(p) => {
                            out.extend(std::iter::repeat_n(b' ', p + 2));
                            i += p + 2;
                            fr.in_comment = false;
                        }
                        None => {
                            i = line.len();
                        }
                    }
                    continue;
                }
                let c = line[i];
                match c {
                    b'"' => {
                        let e = lex::skip_string(line, i);
                        out.extend_from_slice(&line[i..e]);
                        i = e;
                    }
                    b'\'' => {
                        let e = lex::skip_char_lit(line, i);
                        out.extend_from_slice(&line[i..e]);
                        i = e;
                    }
                    b'#' if !semi_comments || line[..i].iter().all(|&x| lex::is_space(x)) => break,
                    b';' if semi_comments => break,
                    b'/' if line.get(i + 1) == Some(&b'/') && slash => break,
                    b'/' if line.get(i + 1) == Some(&b'*') => {
                        fr.in_comment = true;
                        out.extend_from_slice(b"  ");
                        i += 2;
                    }
                    b'\\' if line[i + 1..].iter().all(|&c| c == b'\r') => {
                        cont = true;
                        i = line.len();
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            let _ = base;
            if cont && fr.pos < b.len() && joins < 10_000 {
                joins += 1;
                start = fr.pos;
                end = b[start..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| start + p);
                fr.pos = end + 1;
                if let Some(body) = &fr.line_map {
                    let _ = body;
                    fr.body_idx += 1;
                } else {
                    fr.line += 1;
                }
                continue;
            }
            break;
        }
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    fn end_frame(&mut self) {
        let Some(fr) = self.frames.last_mut() else {
            return;
        };
        if let FrameKind::Repeat(rep) = &mut fr.kind {
            rep.iter += 1;
            let iter = rep.iter;
            let cond_depth = fr.cond_depth;
            // unbalanced conditionals inside one iteration
            self.close_conds(cond_depth, true);
            self.lines_done += 1;
            if self.lines_done > self.opts.max_lines {
                let p = self.cur_pos(0);
                self.report(
                    Severity::Error,
                    p,
                    "line limit exceeded (endless repetition or recursion?)".into(),
                );
                self.ended = true;
                self.frames.pop();
                return;
            }
            if let Some(text) = self.next_iteration(iter) {
                if let Some(fr) = self.frames.last_mut() {
                    fr.text = text;
                    fr.pos = 0;
                    fr.body_idx = 0;
                    fr.in_comment = false;
                }
                return;
            }
            self.frames.pop();
            return;
        }
        let depth = fr.cond_depth;
        self.close_conds(depth, true);
        self.frames.pop();
    }

    /// Pop conditionals opened above `depth`, reporting them if `report`.
    pub(crate) fn close_conds(&mut self, depth: usize, report: bool) {
        while self.conds.len() > depth {
            if let Some(c) = self.conds.pop() {
                if report {
                    self.report(
                        Severity::Error,
                        c.pos,
                        "unterminated '.if' (missing '.endif')".into(),
                    );
                }
            }
        }
    }

    /// Compute the text of iteration `iter` of the repeat frame on top of
    /// the stack, or None when the repetition is over.
    fn next_iteration(&mut self, iter: u64) -> Option<Rc<str>> {
        let fr = self.frames.last()?;
        let FrameKind::Repeat(rep) = &fr.kind else {
            return None;
        };
        match &rep.mode {
            RepMode::Rept(n) => {
                if iter < *n {
                    Some(rep.shared.clone())
                } else {
                    None
                }
            }
            RepMode::Irp { name, values } => {
                let v = values.get(iter as usize)?;
                let names = [name.as_str()];
                let vals = [v.clone()];
                let text = crate::macros::substitute(&rep.body.text, &names, &vals, 0, false, &[]);
                Some(Rc::from(text))
            }
            RepMode::For {
                sym,
                cond,
                next,
                line,
            } => {
                let (sym, cond, next, line) = (*sym, *cond, *next, line.clone());
                let shared = rep.shared.clone();
                let saved = std::mem::replace(&mut self.line, line);
                let t = self.line.text.clone();
                let base = self.line.start;
                // x = next
                let ntext = &t[base + next.0..base + next.1];
                let mut c = Cursor::new(ntext);
                let mut ok = false;
                if let Some(v) = self.abs_or_rel_expr(&mut c) {
                    self.symbols[sym as usize].state = SymState::Value(v);
                    let ctext = &t[base + cond.0..base + cond.1];
                    let mut c = Cursor::new(ctext);
                    ok = self.abs_expr(&mut c).is_some_and(|v| v != 0);
                }
                self.line = saved;
                ok.then_some(shared)
            }
            RepMode::While { cond, line } => {
                let (cond, line) = (*cond, line.clone());
                let shared = rep.shared.clone();
                let saved = std::mem::replace(&mut self.line, line);
                let t = self.line.text.clone();
                let base = self.line.start;
                let ctext = &t[base + cond.0..base + cond.1];
                let mut c = Cursor::new(ctext);
                let ok = self.abs_expr(&mut c).is_some_and(|v| v != 0);
                self.line = saved;
                ok.then_some(shared)
            }
        }
    }

    // ------------------------------------------------------------------
    // statements
    // ------------------------------------------------------------------

    fn process_line(&mut self, backend: &mut dyn Backend, line: &str) {
        if !self.line_semi {
            return self.process_statement(backend, line);
        }
        let b = line.as_bytes();
        // split on top-level ';'
        const SET: &[u8] = b"\"';";
        static STOP: [bool; 256] = lex::stop_table(SET);
        let mut start = 0;
        let mut i = 0;
        loop {
            i = lex::skip_until(b, i, &STOP, SET);
            if i >= b.len() {
                break;
            }
            match b[i] {
                b'"' => {
                    i = lex::skip_string(b, i);
                    continue;
                }
                b'\'' => {
                    i = lex::skip_char_lit(b, i);
                    continue;
                }
                b';' => {
                    let depth = self.frames.len();
                    self.process_statement(backend, &line[start..i]);
                    if self.ended {
                        return;
                    }
                    start = i + 1;
                    if self.frames.len() > depth && self.recording.is_none() {
                        // A frame opened: the rest of the line waits for it.
                        let mut rest = self.line.clone();
                        rest.start += start;
                        self.deferred.push((depth, rest, true));
                        return;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.process_statement(backend, &line[start.min(line.len())..]);
    }

    fn process_statement(&mut self, backend: &mut dyn Backend, stmt: &str) {
        if self.recording.is_some() {
            self.record_statement(stmt);
            if let Some((end, text)) = self.raw_done.take() {
                backend.raw_block(self, &end, &text);
            }
            return;
        }
        let mut c = Cursor::new(stmt);
        if self.is_skipping() {
            if let Some((name, rest)) = leading_directive(stmt) {
                let mut buf = [0u8; 64];
                let mut heap = String::new();
                let lname = lower_into(name, &mut buf, &mut heap);
                if is_cond_directive(lname) {
                    let st = Statement {
                        name,
                        args: rest,
                        text: stmt,
                    };
                    self.cond_directive(backend, lname, &st);
                }
            }
            return;
        }
        // labels (the name read last, if it was no label, is reused below)
        let mut last_sym: Option<(usize, &str, usize)> = None;
        loop {
            c.skip_ws();
            if backend.claim(self, c.rest()) {
                return;
            }
            let save = c.pos();
            match c.peek() {
                Some(d) if d.is_ascii_digit() => {
                    let b = c.rest().as_bytes();
                    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
                    if b.get(n) == Some(&b':') && b.get(n + 1) != Some(&b':') {
                        let digits = &c.rest()[..n];
                        c.set_pos(save + n + 1);
                        self.define_local_label(digits);
                        continue;
                    }
                    break;
                }
                Some(_) => {
                    if let Some(name) = c.symbol_path() {
                        if c.peek() == Some(b':') && c.peek_at(1) != Some(b':') {
                            c.bump();
                            self.define_label(name);
                            continue;
                        }
                        last_sym = Some((save, name, c.pos()));
                    }
                    c.set_pos(save);
                    break;
                }
                None => break,
            }
        }
        if c.at_end() {
            return;
        }
        let body_start = c.pos();
        // assignment?
        let sym = match last_sym {
            Some((at, name, end)) if at == body_start => {
                c.set_pos(end);
                Some(name)
            }
            _ => c.symbol_path(),
        };
        if let Some(name) = sym {
            let after = c.pos();
            c.skip_ws();
            if c.peek() == Some(b'=') && c.peek_at(1) != Some(b'=') {
                c.bump();
                let rest = c.rest().trim();
                self.assign(backend, name, rest, AssignKind::Set);
                return;
            }
            c.set_pos(after);
        } else if c.peek() == Some(b'.') {
            // "." alone
        }
        c.set_pos(body_start);
        let rest = c.rest();
        // The name ends at white space; the symbol just read usually is it.
        let known = sym
            .map(str::len)
            .filter(|&n| rest.as_bytes().get(n).is_none_or(|&b| is_space(b)));
        let name_len = known.unwrap_or_else(|| {
            rest.as_bytes()
                .iter()
                .position(|&b| is_space(b))
                .unwrap_or(rest.len())
        });
        let name = &rest[..name_len];
        let args = lex::trim(&rest[name_len..]);
        let st = Statement {
            name,
            args,
            text: stmt,
        };
        let mut buf = [0u8; 64];
        let mut heap = String::new();
        if name.starts_with('.') && name.len() > 1 {
            let lname = lower_into(name, &mut buf, &mut heap);
            if is_cond_directive(lname) {
                self.cond_directive(backend, lname, &st);
                return;
            }
            if backend.directive(self, lname, &st) {
                return;
            }
            if self.core_directive(backend, lname, &st) {
                return;
            }
            if self.try_macro_call(name, &st) {
                return;
            }
            self.error(name, format!("unknown pseudo-op '{name}'"));
            return;
        }
        if !self.macros.is_empty() && self.try_macro_call(name, &st) {
            return;
        }
        if self.altmacro && !self.frames.is_empty() && name.eq_ignore_ascii_case("local") {
            // `local` outside a macro body: nothing to substitute
            return;
        }
        backend.instruction(self, &st);
    }

    pub(crate) fn is_skipping(&self) -> bool {
        self.conds.last().is_some_and(|c| !c.active)
    }

    // ------------------------------------------------------------------
    // diagnostics
    // ------------------------------------------------------------------

    fn cur_loc(&mut self) -> u32 {
        if let Some(l) = self.line.loc {
            return l;
        }
        self.locs.push(Loc {
            text: self.line.text.clone(),
            start: self.line.start,
            end: self.line.end,
            file: self.line.file,
            line: self.line.line,
            ctx: self.line.ctx,
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
        if sev == Severity::Error {
            self.n_errors += 1;
        }
        if self.diags.len() >= self.opts.max_diagnostics {
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
        self.diags.push(Diagnostic {
            severity: sev,
            file,
            line: loc.line,
            col: pos.col,
            message,
            source_line,
            notes,
        });
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

    // ------------------------------------------------------------------
    // sections and emission (public back-end API)
    // ------------------------------------------------------------------

    /// Create a section (or return the existing one of that name).
    pub fn add_section(&mut self, name: &str, kind: SectionKind) -> SectionId {
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            return SectionId(i as u32);
        }
        let flags = match kind {
            SectionKind::Code => "ax",
            SectionKind::Data | SectionKind::NoBits => "aw",
            _ => "",
        };
        self.sections.push(Section {
            name: name.to_string(),
            kind,
            flags: flags.into(),
            elf_type: None,
            align: 1,
            data: Vec::new(),
            size: 0,
            user: 0,
        });
        SectionId((self.sections.len() - 1) as u32)
    }

    /// Find a section by name.
    pub fn find_section(&self, name: &str) -> Option<SectionId> {
        self.sections
            .iter()
            .position(|s| s.name == name)
            .map(|i| SectionId(i as u32))
    }

    /// Make `id` the current section.
    pub fn switch_section(&mut self, id: SectionId) {
        if (id.0 as usize) < self.sections.len() {
            self.cur_section = id.0;
        }
    }

    /// The current section.
    pub fn current_section(&self) -> SectionId {
        SectionId(self.cur_section)
    }

    /// A section.
    pub fn section(&self, id: SectionId) -> &Section {
        &self.sections[id.0 as usize]
    }

    /// A section, mutably (e.g. to set `user` or patch bytes).
    pub fn section_mut(&mut self, id: SectionId) -> &mut Section {
        &mut self.sections[id.0 as usize]
    }

    /// All sections.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// Offset (location counter) in the current section.
    pub fn offset(&self) -> u64 {
        self.sections[self.cur_section as usize].size
    }

    /// The value of `.`: current section and offset (absolute inside an
    /// absolute section).
    pub fn here(&self) -> Value {
        let s = &self.sections[self.cur_section as usize];
        if s.kind == SectionKind::Absolute {
            Value::abs(s.size)
        } else {
            Value {
                section: Some(SectionId(self.cur_section)),
                value: s.size,
            }
        }
    }

    /// True after `.64bit` (or [`Options::bits64`]).
    pub fn is_64bit(&self) -> bool {
        self.bits64
    }

    /// Policy version set by `.policy`.
    pub fn policy(&self) -> u64 {
        self.policy
    }

    fn check_writable(&mut self, n: u64) -> bool {
        let lim = self.opts.max_section_size;
        let s = &self.sections[self.cur_section as usize];
        match s.kind {
            SectionKind::Config | SectionKind::Absolute if n > 0 => {
                let msg = format!("cannot put data into section '{}'", s.name);
                let p = self.cur_pos(0);
                self.report(Severity::Error, p, msg);
                false
            }
            _ => {
                if s.size.saturating_add(n) > lim {
                    let p = self.cur_pos(0);
                    self.report(Severity::Error, p, "section too big".into());
                    false
                } else {
                    true
                }
            }
        }
    }

    /// Append bytes to the current section.
    pub fn emit(&mut self, bytes: &[u8]) {
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind <= SectionKind::Data && s.size == s.data.len() as u64 {
            let lim = self.opts.max_section_size;
            if s.size + (bytes.len() as u64) <= lim {
                s.data.extend_from_slice(bytes);
                s.size += bytes.len() as u64;
                return;
            }
        }
        if !self.check_writable(bytes.len() as u64) {
            return;
        }
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind == SectionKind::NoBits {
            if bytes.iter().any(|&b| b != 0) {
                let p = self.cur_pos(0);
                self.report(
                    Severity::Warning,
                    p,
                    "ignoring non-zero data in a nobits section".into(),
                );
            }
        } else {
            s.data.extend_from_slice(bytes);
        }
        let s = &mut self.sections[self.cur_section as usize];
        s.size += bytes.len() as u64;
    }

    /// Append `count` copies of `pattern` (bounded by the section size limit).
    pub fn emit_fill(&mut self, pattern: &[u8], count: u64) {
        let n = count.saturating_mul(pattern.len() as u64);
        if n == 0 {
            return;
        }
        let s = &self.sections[self.cur_section as usize];
        if s.kind == SectionKind::Absolute {
            self.sections[self.cur_section as usize].size += n;
            return;
        }
        if !self.check_writable(n) {
            return;
        }
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind != SectionKind::NoBits {
            s.data.reserve(n as usize);
            if pattern.iter().all(|&b| b == 0) {
                let l = s.data.len();
                s.data.resize(l + n as usize, 0);
            } else {
                for _ in 0..count {
                    s.data.extend_from_slice(pattern);
                }
            }
        }
        s.size += n;
    }

    /// Register a fixup; the core evaluates its expression at the end and
    /// calls [`Backend::apply_fixup`].
    pub fn add_fixup(&mut self, fixup: Fixup) {
        self.fixups.push(fixup);
    }

    /// Record a relocation (see [`Relocation`]).
    pub fn add_relocation(&mut self, r: Relocation) {
        self.relocations.push(r);
    }

    /// Text printed by `.print` so far.
    pub fn printed(&self) -> &[String] {
        &self.printed
    }

    // ------------------------------------------------------------------
    // symbols and scopes
    // ------------------------------------------------------------------

    fn new_symbol(&mut self, scope: u32, name: &str) -> u32 {
        self.symbols.push(Symbol {
            name: name.into(),
            scope,
            state: SymState::Undefined,
            is_label: false,
            fixed: false,
            global: false,
            weak: false,
            local: false,
            size: None,
            forward: false,
        });
        let id = (self.symbols.len() - 1) as u32;
        if !name.is_empty() {
            self.scopes[scope as usize].syms.insert(name.into(), id);
        }
        id
    }

    pub(crate) fn anon_symbol(&mut self) -> u32 {
        self.new_symbol(0, "")
    }

    /// Find a child scope named `name` walking from the current scope to the global one.
    fn find_scope_from_stack(&self, name: &str) -> Option<u32> {
        for &s in self.scope_stack.iter().rev() {
            if let Some(&c) = self.scopes[s as usize].children.get(name) {
                return Some(c);
            }
        }
        None
    }

    pub(crate) fn child_scope(&mut self, parent: u32, name: &str, create: bool) -> Option<u32> {
        if let Some(&c) = self.scopes[parent as usize].children.get(name) {
            return Some(c);
        }
        if !create || self.scopes.len() > 1_000_000 {
            return None;
        }
        self.scopes.push(Scope {
            name: name.into(),
            parent,
            children: HashMap::default(),
            syms: HashMap::default(),
            usings: Vec::new(),
            enum_counter: 0,
        });
        let id = (self.scopes.len() - 1) as u32;
        self.scopes[parent as usize]
            .children
            .insert(name.into(), id);
        Some(id)
    }

    pub(crate) fn new_temp_scope(&mut self, parent: u32) -> u32 {
        self.scopes.push(Scope {
            name: "".into(),
            parent,
            children: HashMap::default(),
            syms: HashMap::default(),
            usings: Vec::new(),
            enum_counter: 0,
        });
        (self.scopes.len() - 1) as u32
    }

    /// Resolve the scope part of a path (`a::b::` of `a::b::x`).
    pub(crate) fn resolve_scope(&mut self, path: &str, create: bool) -> Option<u32> {
        let (abs, body) = match path.strip_prefix("::") {
            Some(r) => (true, r),
            None => (false, path),
        };
        let mut comps = body.split("::").filter(|c| !c.is_empty());
        let first = match comps.next() {
            None => return Some(if abs { 0 } else { self.cur_scope() }),
            Some(f) => f,
        };
        let mut s = if abs {
            self.child_scope(0, first, create)?
        } else {
            match self.find_scope_from_stack(first) {
                Some(s) => s,
                None => {
                    let cur = self.cur_scope();
                    self.child_scope(cur, first, create)?
                }
            }
        };
        for c in comps {
            s = self.child_scope(s, c, create)?;
        }
        Some(s)
    }

    pub(crate) fn cur_scope(&self) -> u32 {
        *self.scope_stack.last().unwrap_or(&0)
    }

    fn find_in_usings(&self, scope: u32, name: &str, depth: u32) -> Option<u32> {
        if depth > 8 {
            return None;
        }
        for &u in self.scopes[scope as usize].usings.iter().rev() {
            if let Some(&id) = self.scopes[u as usize].syms.get(name) {
                return Some(id);
            }
            if let Some(id) = self.find_in_usings(u, name, depth + 1) {
                return Some(id);
            }
        }
        None
    }

    /// Find a symbol by (possibly scoped) name without creating it.
    pub(crate) fn find_symbol(&mut self, path: &str) -> Option<u32> {
        match path.rfind("::") {
            None => {
                for &s in self.scope_stack.iter().rev() {
                    if let Some(&id) = self.scopes[s as usize].syms.get(path) {
                        return Some(id);
                    }
                    if let Some(id) = self.find_in_usings(s, path, 0) {
                        return Some(id);
                    }
                }
                None
            }
            Some(i) => {
                let scope = self.resolve_scope(&path[..i + 2], false)?;
                let name = &path[i + 2..];
                self.scopes[scope as usize]
                    .syms
                    .get(name)
                    .copied()
                    .or_else(|| self.find_in_usings(scope, name, 0))
            }
        }
    }

    /// Symbol for reading: found through the scope rules or created undefined.
    pub(crate) fn lookup_symbol(&mut self, path: &str) -> u32 {
        if let Some(id) = self.find_symbol(path) {
            return id;
        }
        match path.rfind("::") {
            None => {
                let cur = self.cur_scope();
                self.new_symbol(cur, path)
            }
            Some(i) => {
                let scope = self.resolve_scope(&path[..i + 2], true).unwrap_or(0);
                self.new_symbol(scope, &path[i + 2..])
            }
        }
    }

    /// Symbol for definition: simple names always live in the current scope.
    pub(crate) fn def_symbol(&mut self, path: &str) -> u32 {
        let (scope, name) = match path.rfind("::") {
            None => (self.cur_scope(), path),
            Some(i) => (
                self.resolve_scope(&path[..i + 2], true).unwrap_or(0),
                &path[i + 2..],
            ),
        };
        match self.scopes[scope as usize].syms.get(name) {
            Some(&id) => id,
            None => self.new_symbol(scope, name),
        }
    }

    pub(crate) fn is_defined(&self, id: u32) -> bool {
        !matches!(self.symbols[id as usize].state, SymState::Undefined)
    }

    fn define_label(&mut self, name: &str) {
        let col = self.col_of(name);
        if self.sections[self.cur_section as usize].kind == SectionKind::Config {
            self.error(name, "labels are not allowed in a configuration section");
            return;
        }
        let id = self.def_symbol(name);
        let here = self.here();
        if self.is_defined(id) {
            let p = self.cur_pos(col);
            self.report(
                Severity::Error,
                p,
                format!("symbol '{name}' is already defined"),
            );
            return;
        }
        let s = &mut self.symbols[id as usize];
        s.state = SymState::Value(here);
        s.is_label = true;
        s.fixed = true;
    }

    fn define_local_label(&mut self, digits: &str) {
        let Ok(n) = digits.parse::<u64>() else {
            self.error(digits, "local label number too big");
            return;
        };
        let here = self.here();
        let entry = self.locals.entry(n).or_default();
        let id = match entry.next.take() {
            Some(id) => id,
            None => self.anon_symbol(),
        };
        self.locals.entry(n).or_default().last = Some(id);
        let s = &mut self.symbols[id as usize];
        s.state = SymState::Value(here);
        s.is_label = true;
    }

    /// Reference to local label `n` forward (`nf`) or backward (`nb`).
    pub(crate) fn local_label_ref(&mut self, n: u64, forward: bool) -> Option<u32> {
        if forward {
            if let Some(id) = self.locals.get(&n).and_then(|l| l.next) {
                return Some(id);
            }
            let id = self.anon_symbol();
            self.locals.entry(n).or_default().next = Some(id);
            Some(id)
        } else {
            self.locals.get(&n).and_then(|l| l.last)
        }
    }

    /// Define (or redefine) symbol `name` with an absolute or relative value,
    /// as `.set` does. Errors if the symbol is a label or fixed.
    pub fn set_symbol(&mut self, name: &str, value: Value) -> Result<(), String> {
        let id = self.def_symbol(name);
        let s = &mut self.symbols[id as usize];
        if s.fixed && !matches!(s.state, SymState::Undefined) {
            return Err(format!("symbol '{name}' cannot be redefined"));
        }
        s.state = SymState::Value(value);
        Ok(())
    }

    /// The current value of a symbol, if it is defined and resolvable now.
    pub fn symbol_value(&mut self, name: &str) -> Option<Value> {
        let id = self.find_symbol(name)?;
        self.symbol_value_by_id(id)
    }

    pub(crate) fn symbol_value_by_id(&mut self, id: u32) -> Option<Value> {
        match self.symbols[id as usize].state.clone() {
            SymState::Value(v) => Some(v),
            SymState::Pending(e) | SymState::Eqv(e) => self.try_eval(&e),
            _ => None,
        }
    }

    /// Payload of register symbol `name` (set by `name = %...`).
    pub fn register_symbol(&mut self, name: &str) -> Option<u64> {
        let id = self.find_symbol(name)?;
        match self.symbols[id as usize].state {
            SymState::Register(r) => Some(r),
            _ => None,
        }
    }

    fn scope_path(&self, mut s: u32) -> String {
        let mut parts = Vec::new();
        let mut guard = 0;
        while s != 0 && guard < 1000 {
            parts.push(&*self.scopes[s as usize].name);
            s = self.scopes[s as usize].parent;
            guard += 1;
        }
        parts.reverse();
        let mut out = String::new();
        for p in parts {
            out.push_str(p);
            out.push_str("::");
        }
        out
    }

    /// All named symbols with their final values.
    pub fn symbol_infos(&self) -> Vec<SymbolInfo> {
        let mut v = Vec::new();
        for s in &self.symbols {
            if s.name.is_empty() {
                continue;
            }
            let mut name = self.scope_path(s.scope);
            name.push_str(&s.name);
            let (value, register) = match &s.state {
                SymState::Value(v) => (Some(*v), None),
                SymState::Register(r) => (None, Some(*r)),
                _ => (None, None),
            };
            v.push(SymbolInfo {
                name,
                value,
                register,
                is_label: s.is_label,
                global: s.global,
                weak: s.weak,
                local: s.local,
                size: s.size,
            });
        }
        v
    }

    // ------------------------------------------------------------------
    // finishing
    // ------------------------------------------------------------------

    fn finish(&mut self, backend: &mut dyn Backend) {
        backend.end_of_source(self);
        self.finishing = true;
        if let Some(rec) = self.recording.take() {
            let what = match rec.kind {
                RecKind::Macro { .. } => "unterminated macro definition (missing '.endm')".into(),
                RecKind::Repeat(_) => "unterminated repetition (missing '.endr')".into(),
                RecKind::Raw { end } => format!("unterminated block (missing '{end}')"),
            };
            self.report(Severity::Error, rec.start, what);
        }
        self.close_conds(0, true);
        // undefined symbols in inner scopes fall back to outer scopes
        for i in 0..self.symbols.len() {
            let s = &self.symbols[i];
            if s.scope == 0 || !matches!(s.state, SymState::Undefined) {
                continue;
            }
            let mut sc = self.scopes[s.scope as usize].parent;
            let mut guard = 0;
            loop {
                guard += 1;
                if let Some(&id) = self.scopes[sc as usize].syms.get(&*self.symbols[i].name) {
                    if id as usize != i
                        && !matches!(self.symbols[id as usize].state, SymState::Undefined)
                    {
                        let e = Expr::symbol_ref(id);
                        self.symbols[i].state = SymState::Pending(Rc::new(e));
                        break;
                    }
                }
                if sc == 0 || guard > 1000 {
                    break;
                }
                sc = self.scopes[sc as usize].parent;
            }
        }
        // resolve pending symbols
        for i in 0..self.symbols.len() {
            if let SymState::Pending(e) = self.symbols[i].state.clone() {
                if let Some(v) = self.try_eval(&e) {
                    self.symbols[i].state = SymState::Value(v);
                }
            }
        }
        let data_fixups = std::mem::take(&mut self.data_fixups);
        for f in data_fixups {
            if let Some(v) = self.eval_final(&f.expr) {
                self.write_data(f.section, f.offset, f.size, v, f.expr.pos());
            }
        }
        let resolved = std::mem::take(&mut self.resolved_fixups);
        for (f, v) in resolved {
            let data = &mut self.sections[f.section.0 as usize].data;
            if let Err(msg) = backend.apply_fixup(&f, v, data) {
                match msg.strip_prefix("warning: ") {
                    Some(w) => self.report(Severity::Warning, f.expr.pos(), w.to_string()),
                    None => self.report(Severity::Error, f.expr.pos(), msg),
                }
            }
        }
        let fixups = std::mem::take(&mut self.fixups);
        for f in &fixups {
            if let Some(v) = self.eval_final(&f.expr) {
                let data = &mut self.sections[f.section.0 as usize].data;
                if let Err(msg) = backend.apply_fixup(f, v, data) {
                    match msg.strip_prefix("warning: ") {
                        Some(w) => self.report(Severity::Warning, f.expr.pos(), w.to_string()),
                        None => self.report(Severity::Error, f.expr.pos(), msg),
                    }
                }
            }
        }
        backend.finish(self);
    }

    /// CLRX resolves a forward reference as soon as its expression can be
    /// evaluated (when the symbols it waits for get values), not at the end:
    /// `.int x; x=1; x=2` writes 1. Called after an assignment to a symbol
    /// that was referenced while undefined: pending symbols, data and
    /// instruction fixups that can be evaluated now are resolved.
    pub(crate) fn resolve_ready(&mut self) {
        for i in 0..self.symbols.len() {
            if let SymState::Pending(e) = self.symbols[i].state.clone() {
                if let Some(v) = self.try_eval(&e) {
                    self.symbols[i].state = SymState::Value(v);
                }
            }
        }
        let data_fixups = std::mem::take(&mut self.data_fixups);
        let mut keep = Vec::with_capacity(data_fixups.len());
        for f in data_fixups {
            match self.try_eval(&f.expr) {
                Some(v) => self.write_data(f.section, f.offset, f.size, v, f.expr.pos()),
                None => keep.push(f),
            }
        }
        self.data_fixups = keep;
        // Back-end fixups keep their value and are applied at the end, after
        // `end_of_source` (a back end may emit its bytes only then).
        let fixups = std::mem::take(&mut self.fixups);
        let mut keep = Vec::with_capacity(fixups.len());
        for f in fixups {
            match self.try_eval(&f.expr) {
                Some(v) => self.resolved_fixups.push((f, v)),
                None => keep.push(f),
            }
        }
        self.fixups = keep;
    }

    /// Write a data value of `size` bytes at `offset` (fixup resolution).
    pub(crate) fn write_data(&mut self, sec: SectionId, offset: u64, size: u8, v: Value, pos: Pos) {
        if let Some(t) = v.section {
            self.relocations.push(Relocation {
                section: sec,
                offset,
                size,
                target: t,
                addend: v.value,
            });
        } else if !fits(v.value, size) {
            self.report(
                Severity::Warning,
                pos,
                format!(
                    "value 0x{:x} truncated to {} bits",
                    v.value,
                    size as u32 * 8
                ),
            );
        }
        let data = &mut self.sections[sec.0 as usize].data;
        let off = offset as usize;
        let bytes = v.value.to_le_bytes();
        for (i, b) in bytes
            .iter()
            .chain(std::iter::repeat(&0u8))
            .take(size as usize)
            .enumerate()
        {
            if let Some(d) = data.get_mut(off + i) {
                *d = *b;
            }
        }
    }
}

/// Does `v` fit into `size` bytes as a signed or unsigned value?
pub(crate) fn fits(v: u64, size: u8) -> bool {
    if size >= 8 {
        return true;
    }
    if size == 0 {
        return v == 0;
    }
    let bits = size as u32 * 8;
    v < (1u64 << bits) || ((v as i64) < 0 && (v as i64) >= -(1i64 << (bits - 1)))
}

fn find2(b: &[u8], a: u8, c: u8) -> Option<usize> {
    b.windows(2).position(|w| w[0] == a && w[1] == c)
}

/// Fast path: if the line has no block comment and no continuation, return
/// the end of its code part (cut at `#`).
#[inline]
/// Scans a line for what needs the slow path (block comments, continuation
/// lines): `None`; else the length without a `#`/`//` comment and whether
/// it holds a `;`.
fn scan_simple(
    b: &[u8],
    in_comment: bool,
    slash: bool,
    semi_comment: bool,
) -> Option<(usize, bool)> {
    if in_comment {
        return None;
    }
    const SET: &[u8] = b"\"'#/;";
    static STOP: [bool; 256] = lex::stop_table(SET);
    let mut semi = false;
    let mut i = 0;
    loop {
        i = lex::skip_until(b, i, &STOP, SET);
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'"' => {
                i = lex::skip_string(b, i);
                continue;
            }
            b'\'' => {
                i = lex::skip_char_lit(b, i);
                continue;
            }
            b'#' if !semi_comment || b[..i].iter().all(|&x| lex::is_space(x)) => {
                return Some((i, semi))
            }
            b';' if semi_comment => return Some((i, false)),
            b';' => semi = true,
            b'/' => match b.get(i + 1) {
                Some(b'*') => return None,
                Some(b'/') if slash => return Some((i, semi)),
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut e = b.len();
    while e > 0 && b[e - 1] == b'\r' {
        e -= 1;
    }
    if e > 0 && b[e - 1] == b'\\' {
        return None;
    }
    Some((b.len(), semi))
}

/// The pseudo-op name (after optional labels) of a statement and the rest.
pub(crate) fn leading_directive(stmt: &str) -> Option<(&str, &str)> {
    let mut c = Cursor::new(stmt);
    loop {
        c.skip_ws();
        let save = c.pos();
        let b = c.rest().as_bytes();
        let n = if b.first().is_some_and(|c| c.is_ascii_digit()) {
            b.iter().take_while(|c| c.is_ascii_digit()).count()
        } else {
            match c.symbol_path() {
                Some(s) => {
                    c.set_pos(save);
                    s.len()
                }
                None => 0,
            }
        };
        if n > 0 && b.get(n) == Some(&b':') && b.get(n + 1) != Some(&b':') {
            c.set_pos(save + n + 1);
            continue;
        }
        break;
    }
    c.skip_ws();
    let rest = c.rest();
    if !rest.starts_with('.') {
        return None;
    }
    let n = rest
        .as_bytes()
        .iter()
        .skip(1)
        .take_while(|&&b| is_ident_char(b))
        .count()
        + 1;
    Some((&rest[..n], rest[n..].trim()))
}

pub(crate) fn is_cond_directive(l: &str) -> bool {
    l.starts_with(".if") || l.starts_with(".elseif") || l == ".else" || l == ".endif"
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum AssignKind {
    Set,
    Equiv,
    Eqv,
}
