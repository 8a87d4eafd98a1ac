//! Assembler state and the line driver (lines, frames, statements). The
//! output types, diagnostics, sections and symbols are in the submodules.

use std::rc::Rc;

use crate::backend::{Backend, Fixup, Statement};
use crate::diag::{Diagnostic, Note, Severity};
use crate::expr::Expr;
use crate::lex::{self, is_ident_char, is_space, Cursor};

mod finish;
mod lines;
mod output;
mod report;
mod sections;
mod symbols;

pub use symbols::SymbolError;

pub use output::*;
pub(crate) use sections::fits;
pub(crate) use symbols::*;

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
    /// The rest of a source read as a stream ([`Assembler::run_reader`]):
    /// the base file frame holds one piece of it at a time.
    pub(crate) stream: Option<Box<dyn std::io::BufRead>>,
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
            stream: None,
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

    /// [`Assembler::assemble`] reading the source from `reader` a piece at
    /// a time (whole lines, about 1 MB): the source is never held whole, so
    /// memory does not grow with its size (only with the output, the
    /// symbols, and what refers to a later symbol).
    pub fn assemble_reader(
        mut self,
        name: &str,
        reader: Box<dyn std::io::BufRead>,
        backend: &mut dyn Backend,
    ) -> Output {
        self.run_reader(name, reader, backend);
        self.into_output()
    }

    /// [`Assembler::run`] reading the source from `reader` (see
    /// [`Assembler::assemble_reader`]).
    pub fn run_reader(
        &mut self,
        name: &str,
        reader: Box<dyn std::io::BufRead>,
        backend: &mut dyn Backend,
    ) {
        self.stream = Some(reader);
        self.run(name, "", backend);
        self.stream = None;
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
