//! Expressions: parsing into postfix form, evaluation with 64-bit
//! wrap-around arithmetic and section-relative values, deferred
//! evaluation for forward references.

use std::rc::Rc;

use crate::asm::{Assembler, Pos, SymState};
use crate::diag::Severity;
use crate::lex::{self, is_ident_char, is_ident_start, Cursor};
use crate::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Neg,
    Not,
    LNot,
    Mul,
    Div,
    UDiv,
    Rem,
    URem,
    Shl,
    Shr,
    Sar,
    And,
    Or,
    Xor,
    OrNot,
    Add,
    Sub,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LtU,
    LeU,
    GtU,
    GeU,
    LAnd,
    LOr,
    Cond,
}

impl Op {
    fn level(self) -> u8 {
        use Op::*;
        match self {
            Mul | Div | UDiv | Rem | URem | Shl | Shr | Sar => 2,
            And | Or | Xor | OrNot | Add | Sub => 3,
            Eq | Ne | Lt | Le | Gt | Ge | LtU | LeU | GtU | GeU => 4,
            LAnd | LOr => 5,
            _ => 1,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Node {
    Val(Value),
    Sym(u32),
    Op(Op),
}

#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub node: Node,
    pub col: u32,
}

/// An expression that could not be evaluated yet (it refers to symbols
/// defined later). Symbols known when it was parsed are already
/// substituted. It remembers its source position.
#[derive(Clone, Debug)]
pub struct Expr {
    items: Box<[Item]>,
    loc: u32,
    col: u32,
}

impl Expr {
    /// Source position of the expression (for diagnostics).
    pub fn pos(&self) -> Pos {
        Pos {
            loc: self.loc,
            col: self.col,
        }
    }
    pub(crate) fn symbol_ref(id: u32) -> Expr {
        Expr {
            items: Box::new([Item {
                node: Node::Sym(id),
                col: 0,
            }]),
            loc: 0,
            col: 0,
        }
    }
}

/// Result of parsing and evaluating an expression.
#[derive(Clone, Debug)]
pub enum ExprResult {
    /// Known now.
    Value(Value),
    /// Refers to undefined symbols; can become a [`crate::Fixup`].
    Pending(Expr),
    /// A syntax or evaluation error was already reported.
    Error,
}

#[derive(Clone, Copy)]
enum LocRef {
    Current,
    Stored(u32),
}

enum Ev {
    Ok(Value),
    /// undefined symbol, column of the top-level reference
    Unresolved(u32, u32),
    Err,
}

const MAX_DEPTH: u32 = 128;

impl Assembler {
    /// Parse an expression at the cursor and evaluate it if possible.
    /// Stops before the first character that cannot continue the
    /// expression (`,`, `)`, `]`, `:` ...).
    ///
    /// ```
    /// use risa_asm_core::{Assembler, Cursor, ExprResult, Options};
    /// let mut a = Assembler::new(Options::default());
    /// let mut c = Cursor::new("1 + 2*3, x");
    /// match a.expr(&mut c) { ExprResult::Value(v) => assert_eq!(v.value, 7), _ => panic!() }
    /// assert_eq!(c.rest(), ", x");
    /// ```
    pub fn expr(&mut self, c: &mut Cursor<'_>) -> ExprResult {
        let mut items = std::mem::take(&mut self.scratch);
        items.clear();
        c.skip_ws();
        let col = self.col_of(c.rest());
        let ok = self.parse_ternary(c, &mut items, 0, false);
        let res = if ok {
            self.finish_expr(&items, col)
        } else {
            ExprResult::Error
        };
        self.scratch = items;
        res
    }

    /// Like [`Assembler::expr`] but for a whole string: trailing text is an error.
    pub fn expr_str(&mut self, s: &str) -> ExprResult {
        let mut c = Cursor::new(s);
        let r = self.expr(&mut c);
        if !matches!(r, ExprResult::Error) && !c.at_end() {
            self.error(c.rest(), "unexpected text after expression");
            return ExprResult::Error;
        }
        r
    }

    fn finish_expr(&mut self, items: &[Item], col: u32) -> ExprResult {
        self.eval_budget = 1_000_000;
        match self.eval_items(items, LocRef::Current, 0, false) {
            Ev::Ok(v) => ExprResult::Value(v),
            Ev::Err => ExprResult::Error,
            Ev::Unresolved(..) => {
                let loc = self.pos("").loc;
                ExprResult::Pending(Expr {
                    items: items.into(),
                    loc,
                    col,
                })
            }
        }
    }

    /// Parse an expression that must be known now and absolute.
    pub fn abs_expr(&mut self, c: &mut Cursor<'_>) -> Option<u64> {
        c.skip_ws();
        let at = c.rest();
        match self.abs_or_rel_expr(c)? {
            Value {
                section: None,
                value,
            } => Some(value),
            _ => {
                self.error(at, "expression must be absolute");
                None
            }
        }
    }

    /// Parse an expression that must be known now (absolute or relative).
    pub fn abs_or_rel_expr(&mut self, c: &mut Cursor<'_>) -> Option<Value> {
        c.skip_ws();
        let at = c.rest();
        match self.expr(c) {
            ExprResult::Value(v) => Some(v),
            ExprResult::Pending(e) => {
                let name = self.first_undefined(&e);
                self.error(
                    at,
                    format!("expression must be resolvable now (undefined symbol '{name}')"),
                );
                None
            }
            ExprResult::Error => None,
        }
    }

    fn first_undefined(&mut self, e: &Expr) -> String {
        self.eval_budget = 1_000_000;
        match self.eval_items(&e.items, LocRef::Stored(e.loc), 0, true) {
            Ev::Unresolved(s, _) => self.symbols[s as usize].name.to_string(),
            _ => String::new(),
        }
    }

    /// Evaluate a pending expression now, without reporting anything.
    pub fn try_eval(&mut self, e: &Expr) -> Option<Value> {
        self.eval_budget = 1_000_000;
        match self.eval_items(&e.items, LocRef::Stored(e.loc), 0, true) {
            Ev::Ok(v) => Some(v),
            _ => None,
        }
    }

    /// [`Assembler::try_eval`], telling on failure the undefined symbol the
    /// evaluation stopped at (None: another error).
    pub(crate) fn try_eval_blocker(&mut self, e: &Expr) -> Result<Value, Option<u32>> {
        self.eval_budget = 1_000_000;
        match self.eval_items(&e.items, LocRef::Stored(e.loc), 0, true) {
            Ev::Ok(v) => Ok(v),
            Ev::Unresolved(s, _) => Err(Some(s)),
            Ev::Err => Err(None),
        }
    }

    /// Evaluate a pending expression at the end; undefined symbols are errors.
    pub(crate) fn eval_final(&mut self, e: &Expr) -> Option<Value> {
        self.eval_budget = 1_000_000;
        match self.eval_items(&e.items, LocRef::Stored(e.loc), 0, false) {
            Ev::Ok(v) => Some(v),
            Ev::Err => None,
            Ev::Unresolved(s, col) => {
                let name = if self.symbols[s as usize].name.is_empty() {
                    "local label".to_string()
                } else {
                    format!("symbol '{}'", self.symbols[s as usize].name)
                };
                self.report(
                    Severity::Error,
                    Pos { loc: e.loc, col },
                    format!("undefined {name}"),
                );
                None
            }
        }
    }

    fn eval_err(&mut self, loc: LocRef, col: u32, quiet: bool, msg: &str) -> Ev {
        if !quiet {
            let pos = match loc {
                LocRef::Current => self.cur_pos(col),
                LocRef::Stored(l) => Pos { loc: l, col },
            };
            self.report(Severity::Error, pos, msg.to_string());
        }
        Ev::Err
    }

    fn eval_items(&mut self, items: &[Item], loc: LocRef, depth: u32, quiet: bool) -> Ev {
        let base = self.eval_stack.len();
        let r = self.eval_inner(items, loc, depth, quiet, base);
        self.eval_stack.truncate(base);
        r
    }

    fn eval_inner(
        &mut self,
        items: &[Item],
        loc: LocRef,
        depth: u32,
        quiet: bool,
        base: usize,
    ) -> Ev {
        macro_rules! push {
            ($v:expr) => {{
                let v = $v;
                self.eval_stack.push(v);
            }};
        }
        macro_rules! pop {
            () => {{
                if self.eval_stack.len() <= base {
                    return Ev::Err;
                }
                self.eval_stack.pop().unwrap_or_default()
            }};
        }
        if self.eval_budget < items.len() as u64 {
            return self.eval_err(loc, 0, quiet, "expression too complex");
        }
        self.eval_budget -= items.len() as u64;
        for it in items {
            match &it.node {
                Node::Val(v) => push!(*v),
                Node::Sym(id) => {
                    let state = self.symbols[*id as usize].state.clone();
                    match state {
                        SymState::Value(v) => push!(v),
                        SymState::Undefined => return Ev::Unresolved(*id, it.col),
                        SymState::Register(_) => {
                            let msg = format!(
                                "register symbol '{}' used in an expression",
                                self.symbols[*id as usize].name
                            );
                            return self.eval_err(loc, it.col, quiet, &msg);
                        }
                        SymState::Pending(e) | SymState::Eqv(e) => {
                            if depth >= MAX_DEPTH {
                                return self.eval_err(
                                    loc,
                                    it.col,
                                    quiet,
                                    "symbol definitions are circular or nested too deeply",
                                );
                            }
                            match self.eval_items(&e.items, LocRef::Stored(e.loc), depth + 1, quiet)
                            {
                                Ev::Ok(v) => push!(v),
                                Ev::Unresolved(s, _) => return Ev::Unresolved(s, it.col),
                                Ev::Err => return Ev::Err,
                            }
                        }
                    }
                }
                Node::Op(op) => {
                    let r = match op {
                        Op::Neg | Op::Not | Op::LNot => {
                            let a = pop!();
                            if a.section.is_some() {
                                Err("operation requires an absolute value")
                            } else {
                                Ok(Value::abs(match op {
                                    Op::Neg => a.value.wrapping_neg(),
                                    Op::Not => !a.value,
                                    _ => (a.value == 0) as u64,
                                }))
                            }
                        }
                        Op::Cond => {
                            let f = pop!();
                            let t = pop!();
                            let c = pop!();
                            if c.section.is_some() {
                                Err("condition must be absolute")
                            } else {
                                Ok(if c.value != 0 { t } else { f })
                            }
                        }
                        _ => {
                            let b = pop!();
                            let a = pop!();
                            binop(*op, a, b)
                        }
                    };
                    match r {
                        Ok(v) => push!(v),
                        Err(m) => return self.eval_err(loc, it.col, quiet, m),
                    }
                }
            }
        }
        if self.eval_stack.len() != base + 1 {
            return Ev::Err;
        }
        Ev::Ok(self.eval_stack[base])
    }

    // ------------------------------------------------------------------
    // parsing
    // ------------------------------------------------------------------

    fn parse_ternary(
        &mut self,
        c: &mut Cursor<'_>,
        out: &mut Vec<crate::expr::Item>,
        depth: u32,
        lazy: bool,
    ) -> bool {
        if depth > MAX_DEPTH {
            self.error(c.rest(), "expression nested too deeply");
            return false;
        }
        if !self.parse_level(c, out, 5, depth, lazy) {
            return false;
        }
        c.skip_ws();
        if c.peek() == Some(b'?') {
            let col = self.col_of(c.rest());
            c.bump();
            if !self.parse_ternary(c, out, depth + 1, lazy) {
                return false;
            }
            if !c.eat(b':') {
                self.error(c.rest(), "expected ':' of '?:'");
                return false;
            }
            if !self.parse_ternary(c, out, depth + 1, lazy) {
                return false;
            }
            out.push(Item {
                node: Node::Op(Op::Cond),
                col,
            });
        }
        true
    }

    fn parse_level(
        &mut self,
        c: &mut Cursor<'_>,
        out: &mut Vec<Item>,
        level: u8,
        depth: u32,
        lazy: bool,
    ) -> bool {
        if level <= 1 {
            return self.parse_unary(c, out, depth, lazy);
        }
        if !self.parse_level(c, out, level - 1, depth, lazy) {
            return false;
        }
        loop {
            c.skip_ws();
            let Some((op, len)) = peek_binop(c.rest_bytes()) else {
                return true;
            };
            if op.level() != level {
                return true;
            }
            let col = self.col_of(c.rest());
            c.set_pos(c.pos() + len);
            if !self.parse_level(c, out, level - 1, depth, lazy) {
                return false;
            }
            out.push(Item {
                node: Node::Op(op),
                col,
            });
        }
    }

    fn parse_unary(
        &mut self,
        c: &mut Cursor<'_>,
        out: &mut Vec<Item>,
        depth: u32,
        lazy: bool,
    ) -> bool {
        if depth > MAX_DEPTH {
            self.error(c.rest(), "expression nested too deeply");
            return false;
        }
        c.skip_ws();
        let rest = c.rest();
        let col = self.col_of(rest);
        let b = rest.as_bytes();
        let Some(&ch) = b.first() else {
            self.error(rest, "expected expression");
            return false;
        };
        let push = |out: &mut Vec<Item>, node| out.push(Item { node, col });
        match ch {
            b'(' => {
                c.bump();
                if !self.parse_ternary(c, out, depth + 1, lazy) {
                    return false;
                }
                if !c.eat(b')') {
                    self.error(c.rest(), "expected ')'");
                    return false;
                }
                true
            }
            b'-' | b'~' | b'!' | b'+' => {
                c.bump();
                if !self.parse_unary(c, out, depth + 1, lazy) {
                    return false;
                }
                match ch {
                    b'-' => push(out, Node::Op(Op::Neg)),
                    b'~' => push(out, Node::Op(Op::Not)),
                    b'!' => push(out, Node::Op(Op::LNot)),
                    _ => {}
                }
                true
            }
            b'0'..=b'9' => {
                let nd = b.iter().take_while(|c| c.is_ascii_digit()).count();
                if let Some(&s) = b.get(nd) {
                    if (s == b'b' || s == b'f') && !b.get(nd + 1).is_some_and(|&x| is_ident_char(x))
                    {
                        let Ok(n) = rest[..nd].parse::<u64>() else {
                            self.error(rest, "local label number too big");
                            return false;
                        };
                        c.set_pos(c.pos() + nd + 1);
                        match self.local_label_ref(n, s == b'f') {
                            Some(id) => {
                                let node = match (&self.symbols[id as usize].state, lazy) {
                                    (SymState::Value(v), false) => Node::Val(*v),
                                    _ => Node::Sym(id),
                                };
                                push(out, node);
                                return true;
                            }
                            None => {
                                self.error(rest, format!("no previous local label '{n}'"));
                                return false;
                            }
                        }
                    }
                }
                if lex::parse_float_literal(rest).is_some() {
                    self.error(
                        rest,
                        "floating point literal not allowed in an integer expression",
                    );
                    return false;
                }
                match lex::parse_int_literal(b) {
                    Ok((v, len)) => {
                        if v > u64::MAX as u128 {
                            self.error(rest, "number is too big");
                            return false;
                        }
                        c.set_pos(c.pos() + len);
                        if c.peek().is_some_and(is_ident_char) {
                            self.error(c.rest(), "garbage after number");
                            return false;
                        }
                        push(out, Node::Val(Value::abs(v as u64)));
                        true
                    }
                    Err(m) => {
                        self.error(rest, m);
                        false
                    }
                }
            }
            b'\'' => match lex::parse_char_literal(b) {
                Ok((v, len)) => {
                    c.set_pos(c.pos() + len);
                    push(out, Node::Val(Value::abs(v)));
                    true
                }
                Err(m) => {
                    self.error(rest, m);
                    false
                }
            },
            b'.' if !b.get(1).is_some_and(|&x| is_ident_char(x)) => {
                c.bump();
                let h = self.here();
                push(out, Node::Val(h));
                true
            }
            b'.' if b.get(1).is_some_and(|x| x.is_ascii_digit()) => {
                self.error(
                    rest,
                    "floating point literal not allowed in an integer expression",
                );
                false
            }
            _ if is_ident_start(ch) || (ch == b':' && b.get(1) == Some(&b':')) => {
                let Some(name) = c.symbol_path() else {
                    self.error(rest, "expected expression");
                    return false;
                };
                if name.ends_with("::") {
                    self.error(rest, "expected symbol name after '::'");
                    return false;
                }
                let id = self.lookup_symbol(name);
                if lazy {
                    push(out, Node::Sym(id));
                    return true;
                }
                match self.symbols[id as usize].state.clone() {
                    SymState::Value(v) => push(out, Node::Val(v)),
                    SymState::Eqv(e) => match self.try_eval(&e) {
                        Some(v) => push(out, Node::Val(v)),
                        None => push(out, Node::Sym(id)),
                    },
                    SymState::Register(_) => {
                        self.error(
                            rest,
                            format!("register symbol '{name}' used in an expression"),
                        );
                        return false;
                    }
                    _ => {
                        self.symbols[id as usize].forward = true;
                        push(out, Node::Sym(id))
                    }
                }
                true
            }
            _ => {
                self.error(rest, "expected expression");
                false
            }
        }
    }

    /// Parse an expression without substituting symbol values (for `.eqv`).
    pub(crate) fn parse_lazy(&mut self, c: &mut Cursor<'_>) -> Option<Expr> {
        c.skip_ws();
        let col = self.col_of(c.rest());
        let mut items = Vec::new();
        if !self.parse_ternary(c, &mut items, 0, true) {
            return None;
        }
        let loc = self.pos("").loc;
        Some(Expr {
            items: items.into(),
            loc,
            col,
        })
    }

    /// Turn a pending expression into shared form for symbol definitions.
    pub(crate) fn rc_expr(e: Expr) -> Rc<Expr> {
        Rc::new(e)
    }
}

fn peek_binop(b: &[u8]) -> Option<(Op, usize)> {
    let c0 = *b.first()?;
    let c1 = b.get(1).copied().unwrap_or(0);
    let c2 = b.get(2).copied().unwrap_or(0);
    use Op::*;
    Some(match c0 {
        b'*' => (Mul, 1),
        b'/' => {
            if c1 == b'/' {
                (UDiv, 2)
            } else {
                (Div, 1)
            }
        }
        b'%' => {
            if c1 == b'%' {
                (URem, 2)
            } else {
                (Rem, 1)
            }
        }
        b'<' => match (c1, c2) {
            (b'<', _) => (Shl, 2),
            (b'=', b'@') => (LeU, 3),
            (b'=', _) => (Le, 2),
            (b'>', _) => (Ne, 2),
            (b'@', _) => (LtU, 2),
            _ => (Lt, 1),
        },
        b'>' => match (c1, c2) {
            (b'>', b'>') => (Sar, 3),
            (b'>', _) => (Shr, 2),
            (b'=', b'@') => (GeU, 3),
            (b'=', _) => (Ge, 2),
            (b'@', _) => (GtU, 2),
            _ => (Gt, 1),
        },
        b'&' => {
            if c1 == b'&' {
                (LAnd, 2)
            } else {
                (And, 1)
            }
        }
        b'|' => {
            if c1 == b'|' {
                (LOr, 2)
            } else {
                (Or, 1)
            }
        }
        b'^' => (Xor, 1),
        b'!' => {
            if c1 == b'=' {
                (Ne, 2)
            } else {
                (OrNot, 1)
            }
        }
        b'+' => (Add, 1),
        b'-' => (Sub, 1),
        b'=' if c1 == b'=' => (Eq, 2),
        _ => return None,
    })
}

fn binop(op: Op, a: Value, b: Value) -> Result<Value, &'static str> {
    use Op::*;
    let t = |c: bool| Ok(Value::abs(if c { u64::MAX } else { 0 }));
    match op {
        Add => match (a.section, b.section) {
            (Some(_), Some(_)) => Err("cannot add two section-relative values"),
            (s, None) | (None, s) => Ok(Value {
                section: s,
                value: a.value.wrapping_add(b.value),
            }),
        },
        Sub => match (a.section, b.section) {
            (Some(x), Some(y)) if x == y => Ok(Value::abs(a.value.wrapping_sub(b.value))),
            (Some(_), Some(_)) => Err("cannot subtract values relative to different sections"),
            (s, None) => Ok(Value {
                section: s,
                value: a.value.wrapping_sub(b.value),
            }),
            (None, Some(_)) => {
                Err("cannot subtract a section-relative value from an absolute value")
            }
        },
        Eq | Ne | Lt | Le | Gt | Ge | LtU | LeU | GtU | GeU => {
            if a.section != b.section {
                return Err("cannot compare values relative to different sections");
            }
            let (x, y) = (a.value, b.value);
            let (sx, sy) = (x as i64, y as i64);
            match op {
                Eq => t(x == y),
                Ne => t(x != y),
                Lt => t(sx < sy),
                Le => t(sx <= sy),
                Gt => t(sx > sy),
                Ge => t(sx >= sy),
                LtU => t(x < y),
                LeU => t(x <= y),
                GtU => t(x > y),
                _ => t(x >= y),
            }
        }
        _ => {
            if a.section.is_some() || b.section.is_some() {
                return Err("operation requires absolute values");
            }
            let (x, y) = (a.value, b.value);
            let v = match op {
                Mul => x.wrapping_mul(y),
                Div => {
                    if y == 0 {
                        return Err("division by zero");
                    }
                    (x as i64).wrapping_div(y as i64) as u64
                }
                UDiv => {
                    if y == 0 {
                        return Err("division by zero");
                    }
                    x / y
                }
                Rem => {
                    if y == 0 {
                        return Err("division by zero");
                    }
                    (x as i64).wrapping_rem(y as i64) as u64
                }
                URem => {
                    if y == 0 {
                        return Err("division by zero");
                    }
                    x % y
                }
                Shl => {
                    if y >= 64 {
                        0
                    } else {
                        x << y
                    }
                }
                Shr => {
                    if y >= 64 {
                        0
                    } else {
                        x >> y
                    }
                }
                Sar => ((x as i64) >> y.min(63)) as u64,
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                OrNot => x | !y,
                LAnd => (x != 0 && y != 0) as u64,
                LOr => (x != 0 || y != 0) as u64,
                _ => return Err("bad operator"),
            };
            Ok(Value::abs(v))
        }
    }
}
