//! Early resolution with [`Waiting`] against the plain rule it stands for
//! (every pending symbol in id order, then every data fixup, then every
//! back-end fixup evaluated at each resolution), on random sources full of
//! forward references, reassignments, `.eqv`, `.undef` and errors.

use std::cell::Cell;

use super::*;
use crate::{ExprResult, Options};

thread_local! {
    /// Resolve by the plain rule ([`Assembler::resolve_ready_reference`]).
    pub(super) static REFERENCE: Cell<bool> = const { Cell::new(false) };
    /// Expressions evaluated by early resolution.
    pub(super) static EVALS: Cell<usize> = const { Cell::new(0) };
}

impl Assembler {
    /// The plain rule: evaluate everything pending.
    pub(super) fn resolve_ready_reference(&mut self) {
        for i in 0..self.symbols.len() {
            if let SymState::Pending(e) = self.symbols[i].state.clone() {
                if let Some(v) = self.try_eval(&e) {
                    self.symbols[i].state = SymState::Value(v);
                }
            }
        }
        let data_fixups = std::mem::take(&mut self.data_fixups);
        let mut keep = Vec::new();
        for f in data_fixups {
            match self.try_eval(&f.expr) {
                Some(v) => self.write_data(f.section, f.offset, f.size, v, f.expr.pos()),
                None => keep.push(f),
            }
        }
        self.data_fixups = keep;
        let fixups = std::mem::take(&mut self.fixups);
        for (i, f) in fixups.iter().enumerate() {
            let i = i as u32;
            if self.open_fixups.is_open(i) {
                if let Some(v) = self.try_eval(&f.expr) {
                    self.open_fixups.resolved(i);
                    self.resolved_fixups.push((i, v));
                }
            }
        }
        self.fixups = fixups;
    }
}

/// `j EXPR`: 4 bytes of the value (a fixup when pending); more than 16
/// bits is an error, more than 8 a warning (diagnostics from fixups).
struct Jump;

impl Backend for Jump {
    fn instruction(&mut self, asm: &mut Assembler, st: &Statement<'_>) {
        let (section, offset) = (asm.current_section(), asm.offset());
        match asm.expr_str(st.args) {
            ExprResult::Value(v) => asm.emit(&(v.value as u32).to_le_bytes()),
            ExprResult::Pending(expr) => {
                asm.emit(&[0; 4]);
                asm.add_fixup(Fixup {
                    section,
                    offset,
                    kind: 0,
                    payload: 0,
                    expr,
                });
            }
            ExprResult::Error => {}
        }
    }
    fn apply_fixup(&mut self, f: &Fixup, v: Value, data: &mut [u8]) -> Result<(), String> {
        let o = f.offset as usize;
        data[o..o + 4].copy_from_slice(&(v.value as u32).to_le_bytes());
        match v.value {
            0..=0xff => Ok(()),
            0x100..=0xffff => Err(format!("warning: value {} is wide", v.value)),
            _ => Err(format!("value {} too big", v.value)),
        }
    }
}

const SYMS: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

fn expr(r: &mut risa_rng::Rng, depth: u32) -> String {
    match r.below(if depth > 2 { 4 } else { 8 }) {
        0 | 1 => SYMS[r.below(6) as usize].to_string(),
        2 => r.below(300).to_string(),
        3 => [".", "1f", "1b", "L1", "L2"][r.below(5) as usize].to_string(),
        4 => format!("{} + {}", expr(r, depth + 1), expr(r, depth + 1)),
        5 => format!("({}) - {}", expr(r, depth + 1), expr(r, depth + 1)),
        6 => format!("{} * {}", expr(r, depth + 1), expr(r, depth + 1)),
        _ => format!(
            "{} ? {} : {}",
            expr(r, depth + 1),
            expr(r, depth + 1),
            expr(r, depth + 1)
        ),
    }
}

fn source(r: &mut risa_rng::Rng) -> String {
    let mut s = String::new();
    for _ in 0..r.below(40) + 5 {
        let sym = SYMS[r.below(6) as usize];
        let line = match r.below(12) {
            0 | 1 => format!("{sym} = {}", expr(r, 0)),
            2 => format!(".set {sym}, {}", expr(r, 0)),
            3 => format!(".equiv {sym}, {}", expr(r, 0)),
            4 => format!(".eqv {sym}, {}", expr(r, 0)),
            5 => format!(".undef {sym}"),
            6 => ["L1:", "L2:", "1:"][r.below(3) as usize].to_string(),
            7 | 8 => format!(".int {}", expr(r, 0)),
            9 => format!(".byte {}", expr(r, 0)),
            _ => format!("j {}", expr(r, 0)),
        };
        s.push_str(&line);
        s.push('\n');
    }
    // Definitions at the end resolve what still waits (unless undone).
    for sym in SYMS {
        s.push_str(&format!("{sym} = {}\n", r.below(300)));
    }
    for l in ["L1:", "L2:", "1:"] {
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn assemble(src: &str, reference: bool) -> String {
    REFERENCE.set(reference);
    let out = Assembler::new(Options::default()).assemble("r.s", src, &mut Jump);
    REFERENCE.set(false);
    let syms: Vec<String> = out
        .symbols
        .iter()
        .map(|s| format!("{} {:?}", s.name, s.value))
        .collect();
    format!(
        "{:?}\n{}\n{}",
        out.section(".text").map(|s| &s.data),
        crate::diag::render_all(&out.diagnostics),
        syms.join("\n")
    )
}

#[test]
fn skipping_what_still_waits_changes_nothing() {
    let mut r = risa_rng::Rng::new(14);
    let mut complete = 0;
    for _ in 0..3000 {
        let src = source(&mut r);
        let fast = assemble(&src, false);
        let plain = assemble(&src, true);
        assert_eq!(fast, plain, "source:\n{src}");
        if !fast.contains("undefined") {
            complete += 1;
        }
    }
    // Most sources end with every symbol defined (see `source`).
    assert!(complete > 1500, "{complete}");
}

#[test]
fn a_long_tail_of_forward_labels_is_not_quadratic() {
    // n forward references, each defined at the end by `x = . - N`: every
    // definition resolves early; the plain rule would evaluate the pending
    // fixups n * n / 2 times, waiting items are evaluated about once each.
    let n = 2000;
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!("j x{i}\n"));
    }
    for i in 0..n {
        src.push_str(&format!("x{i} = . - {}\n", 4 * (n - i)));
    }
    EVALS.set(0);
    let out = Assembler::new(Options::default()).assemble("t.s", &src, &mut Jump);
    assert!(EVALS.get() < 3 * n, "{} evaluations", EVALS.get());
    let d = &out.section(".text").unwrap().data;
    for i in 0..n {
        assert_eq!(d[4 * i..4 * i + 4], (4 * i as u32).to_le_bytes());
    }
    // x64..x2047 are over 0xff: the toy's warnings, in source order.
    assert_eq!(out.warnings().count(), n - 64);
    assert!(out.diagnostics[0]
        .to_string()
        .starts_with("t.s:65:3: warning: value 256"));
}
