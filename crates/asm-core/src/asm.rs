//! The assembler object and its entry points. The line reader, the
//! statement dispatch, the inner state types, the output types,
//! diagnostics, sections and symbols are in the submodules.

use std::rc::Rc;

use crate::backend::{Backend, Fixup, Statement};
use crate::diag::{Diagnostic, Note, Severity};
use crate::expr::Expr;
use crate::lex::{self, is_ident_char, is_space, Cursor};

mod context;
mod finish;
mod lines;
mod output;
mod report;
mod resolve;
mod sections;
mod state;
mod statement;
mod stream;
mod symbols;

pub use context::LineDiag;
pub use symbols::SymbolError;

pub use output::*;
pub(crate) use resolve::{OpenFixups, Waiting};
pub(crate) use sections::fits;
pub(crate) use state::*;
pub(crate) use statement::{leading_directive, AssignKind};
pub(crate) use symbols::*;

/// A source position that stays valid after the line is gone (for
/// deferred diagnostics, e.g. of fixups).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    pub(crate) loc: u32,
    pub(crate) col: u32,
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
    /// The back-end fixups, in the order they were made (resolved ones
    /// stay, marked in `open_fixups`, until the end).
    pub(crate) fixups: Vec<Fixup>,
    /// Which of `fixups` are not resolved yet, and what they wait for.
    pub(crate) open_fixups: OpenFixups,
    /// Symbols made pending (ids, possibly repeated or no longer pending),
    /// so that early resolution need not scan every symbol.
    pub(crate) pending_syms: Vec<(u32, Waiting)>,
    /// Counts redefinitions of pending or lazy (`.eqv`) symbols: each can
    /// change what a pending expression depends on ([`Waiting`]).
    pub(crate) redefinitions: u64,
    /// Counts reads of state an instruction's encoding could depend on
    /// (symbols, the location counter, the section): see
    /// [`Assembler::context_reads`].
    pub(crate) context_reads: std::cell::Cell<u64>,
    /// Counts statements that are not instruction statements, and lines
    /// that are not plain: see [`Assembler::irregular_count`].
    pub(crate) irregular: u64,
    /// The line of the source file before which [`Backend::before_file_line`]
    /// is called next (`u32::MAX`: never).
    pub(crate) line_hook: u32,
    /// Fixups whose value was fixed when their symbols were first defined
    /// (CLRX's rule), applied at the end.
    /// (Indices into `fixups`, in the order they were resolved.)
    pub(crate) resolved_fixups: Vec<(u32, Value)>,
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
    pub(crate) stream: Option<stream::Source>,
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
            open_fixups: OpenFixups::default(),
            pending_syms: Vec::new(),
            redefinitions: 0,
            context_reads: std::cell::Cell::new(0),
            irregular: 0,
            line_hook: u32::MAX,
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
        self.run_stream(name, Box::new(reader), backend);
    }

    /// [`Assembler::assemble_reader`] of a file: the lines a back end takes
    /// whole ([`Assembler::take_plain_lines`]) are not read again.
    pub fn assemble_file(
        mut self,
        name: &str,
        file: std::io::BufReader<std::fs::File>,
        backend: &mut dyn Backend,
    ) -> Output {
        self.run_stream(name, Box::new(file), backend);
        self.into_output()
    }

    /// [`Assembler::run`] of a source read from `stream` a piece at a time.
    fn run_stream(
        &mut self,
        name: &str,
        stream: Box<dyn stream::Stream>,
        backend: &mut dyn Backend,
    ) {
        self.stream = Some(stream::Source::new(stream));
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
        while !self.ended {
            // (A file line is next, or the end of the source; asked again
            // after the back end took lines.)
            while self.frames.len() == 1 && self.frames[0].line >= self.line_hook {
                let line = self.frames[0].line;
                backend.before_file_line(self, line);
                if self.frames.len() != 1 || self.frames[0].line == line {
                    break;
                }
            }
            if !self.next_line() {
                break;
            }
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
}
