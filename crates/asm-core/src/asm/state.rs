//! The assembler's inner state: source locations, the line being read,
//! the frame stack (files, macro expansions, repetitions), conditionals,
//! macro definitions and recordings.

use super::*;

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
    pub wait: Waiting,
}
