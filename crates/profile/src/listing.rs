//! The disassembly a profile is shown on: one line per counted unit of the
//! program (for GCN one per op, in the order of [`Program::ops`], so an op
//! index picks its line; for Cayman see [`crate::cayman`]).

use risa_gcn::{Dialect, Enc};
use risa_gcn_emu::program::{Cat, Op};
use risa_gcn_emu::Program;

/// What the timeline files an instruction under: its `--stats` category,
/// except that waits and barriers get events of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// An instruction counted under this category.
    Cat(Cat),
    /// `s_waitcnt` (and its GCN 1.4 variants).
    Wait,
    /// `s_barrier`.
    Barrier,
    /// A Cayman instruction-mix class (`cf`, `alu`, `lds`, `fetch`,
    /// `rat/exp`) or `GROUP_BARRIER`.
    Mix(&'static str),
}

impl Class {
    /// The name shown in reports and timelines.
    pub fn name(self) -> &'static str {
        match self {
            Class::Cat(c) => Cat::NAMES[c as usize],
            Class::Wait => "s_waitcnt",
            Class::Barrier => "s_barrier",
            Class::Mix(m) => m,
        }
    }
}

/// One instruction of the listing.
#[derive(Debug, Clone)]
pub struct Line {
    /// Byte offset from the start of the code.
    pub offset: u32,
    /// The instruction as the disassembler prints it.
    pub text: String,
    /// Its mnemonics (the dialect's spelling): one for a GCN instruction,
    /// one per slot for a Cayman ALU group.
    pub mnemonics: Vec<&'static str>,
    /// Its class in the instruction mix (one of [`Listing::classes`]).
    pub mix: &'static str,
    /// Its timeline class (GCN only).
    pub class: Option<Class>,
    /// The byte offset a branch goes to, when it has one.
    pub target: Option<u32>,
}

/// The program's instructions as text, indexed like [`Program::ops`].
#[derive(Debug, Clone)]
pub struct Listing {
    /// One line per op.
    pub lines: Vec<Line>,
    /// The instruction-mix classes, in the order reports show them.
    pub classes: &'static [&'static str],
}

impl Listing {
    /// Prints every op of `prog` in `dialect`.
    pub fn new(prog: &Program, dialect: Dialect) -> Listing {
        let lines = prog
            .ops
            .iter()
            .map(|op| {
                let info = op.instr.info();
                let mnemonic = match dialect {
                    Dialect::Clrx => info.clrx,
                    Dialect::Llvm => info.name,
                };
                let class = if info.name.starts_with("s_waitcnt") {
                    Class::Wait
                } else if info.name == "s_barrier" {
                    Class::Barrier
                } else {
                    Class::Cat(op.cat)
                };
                Line {
                    offset: op.offset,
                    text: text(prog, op, dialect),
                    mnemonics: vec![mnemonic],
                    mix: Cat::NAMES[op.cat as usize],
                    class: Some(class),
                    target: prog.ops.get(op.target as usize).map(|t| t.offset),
                }
            })
            .collect();
        Listing {
            lines,
            classes: &Cat::NAMES,
        }
    }
}

/// The op as text; a word the decoder rejected (lowered to a faulting
/// placeholder, see [`Program::new`]) is shown as the raw word.
fn text(prog: &Program, op: &Op, dialect: Dialect) -> String {
    let raw = op.instr.raw as u32;
    let placeholder = op.instr.op == 0 && op.instr.enc == Enc::Sopp && op.instr.len == 1;
    if placeholder && risa_gcn::decode(prog.target, &[raw]).is_err() {
        return format!(".long {raw:#010x}");
    }
    risa_gcn::print(&op.instr, dialect)
}
