//! One line's statements: splitting on `;`, labels, assignments, and the
//! dispatch to conditionals, pseudo-ops, macros and the back end's instructions.

use super::*;

/// `s` in lower case, in `buf` when it fits (pseudo-op names: no allocation).
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

impl Assembler {
    pub(super) fn process_line(&mut self, backend: &mut dyn Backend, line: &str) {
        if !self.line_semi {
            return self.process_statement(backend, line);
        }
        let b = line.as_bytes();
        // split on top-level ';'
        const SET: &[u8] = b"\"';";
        static STOP: [bool; 256] = lex::stop_table(SET);
        // `"` `'` (and `#` `&`) as 0x22 with bits 0 and 2 ignored.
        const PATS: &[(u8, u8)] = &[(0x05, 0x22), (0, b';')];
        const _: () = assert!(lex::covers(SET, PATS));
        let mut start = 0;
        let mut i = 0;
        loop {
            i = lex::skip_until(b, i, &STOP, PATS);
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
            self.irregular += 1;
            self.record_statement(stmt);
            if let Some((end, text)) = self.raw_done.take() {
                backend.raw_block(self, &end, &text);
            }
            return;
        }
        if self.is_skipping() {
            self.irregular += 1;
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
        if let Some((start, end, args)) = lex::plain_instruction_name(stmt) {
            // The common statement: what the general path below finds
            // for it, without its steps.
            if backend.claim(self, &stmt[start..]) {
                return;
            }
            let st = Statement {
                name: &stmt[start..end],
                args: lex::trim(&stmt[args..]),
                text: stmt,
            };
            return self.dispatch(backend, &st);
        }
        let mut c = Cursor::new(stmt);
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
                    let b = c.rest_bytes();
                    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
                    if b.get(n) == Some(&b':') && b.get(n + 1) != Some(&b':') {
                        let digits = &c.rest()[..n];
                        c.set_pos(save + n + 1);
                        self.irregular += 1;
                        self.define_local_label(digits);
                        continue;
                    }
                    break;
                }
                Some(_) => {
                    if let Some(name) = c.symbol_path() {
                        if c.peek() == Some(b':') && c.peek_at(1) != Some(b':') {
                            c.bump();
                            self.irregular += 1;
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
                self.irregular += 1;
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
        self.dispatch(backend, &st);
    }

    /// A statement without labels or assignment: a conditional, a pseudo-op,
    /// a macro call, or the back end's instruction.
    fn dispatch(&mut self, backend: &mut dyn Backend, st: &Statement<'_>) {
        let name = st.name;
        if name.starts_with('.') && name.len() > 1 {
            let mut buf = [0u8; 64];
            let mut heap = String::new();
            self.irregular += 1;
            let lname = lower_into(name, &mut buf, &mut heap);
            if is_cond_directive(lname) {
                self.cond_directive(backend, lname, st);
                return;
            }
            if backend.directive(self, lname, st) {
                return;
            }
            if self.core_directive(backend, lname, st) {
                return;
            }
            if self.try_macro_call(name, st) {
                return;
            }
            self.error(name, format!("unknown pseudo-op '{name}'"));
            return;
        }
        if !self.macros.is_empty() && self.try_macro_call(name, st) {
            self.irregular += 1;
            return;
        }
        if self.altmacro && !self.frames.is_empty() && name.eq_ignore_ascii_case("local") {
            self.irregular += 1;
            // `local` outside a macro body: nothing to substitute
            return;
        }
        backend.instruction(self, st);
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
        let b = c.rest_bytes();
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
