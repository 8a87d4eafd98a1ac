//! Macros (`.macro`), repetitions (`.rept`, `.irp`, `.irpc`, `.for`,
//! `.while`): recording bodies, argument parsing, substitution, expansion.

use std::rc::Rc;

use crate::asm::{
    leading_directive, Assembler, Body, Frame, FrameKind, LineCtx, MacroDef, Param, RecKind,
    Recording, RepMode, RepeatState,
};
use crate::backend::Statement;
use crate::expr::ExprResult;
use crate::lex::{self, is_ident_char, is_ident_start, is_space, Cursor};
use crate::Value;

impl Assembler {
    /// Record one statement into the macro/repetition body being defined.
    pub(crate) fn record_statement(&mut self, stmt: &str) {
        let name = leading_directive(stmt).map(|(n, _)| n.to_ascii_lowercase());
        let line = self.line.line;
        let Some(rec) = self.recording.as_mut() else {
            return;
        };
        if let RecKind::Raw { end } = &rec.kind {
            if name.as_deref() == Some(end.as_str()) {
                if let Some(rec) = self.recording.take() {
                    if let RecKind::Raw { end } = rec.kind {
                        self.raw_done = Some((end, rec.body.text));
                    }
                }
                return;
            }
            rec.body.text.push_str(stmt);
            rec.body.text.push('\n');
            rec.body.lines.push(line);
            return;
        }
        if let Some(n) = name.as_deref() {
            let is_macro = matches!(rec.kind, RecKind::Macro { .. });
            let (open, close) = if is_macro {
                (n == ".macro", n == ".endm" || n == ".endmacro")
            } else {
                (
                    matches!(n, ".rept" | ".irp" | ".irpc" | ".for" | ".while"),
                    n == ".endr" || n == ".endrept",
                )
            };
            if open {
                rec.depth += 1;
            } else if close {
                rec.depth -= 1;
                if rec.depth == 0 {
                    if let Some(rec) = self.recording.take() {
                        self.finish_recording(rec);
                    }
                    return;
                }
            }
        }
        if rec.body.text.len() > (1 << 28) {
            return;
        }
        rec.body.text.push_str(stmt);
        rec.body.text.push('\n');
        rec.body.lines.push(line);
    }

    fn finish_recording(&mut self, rec: Recording) {
        match rec.kind {
            RecKind::Macro { name, params } => {
                let key = if self.macrocase {
                    name.to_ascii_lowercase()
                } else {
                    name.clone()
                };
                if self.macros.contains_key(&key) {
                    self.error_at(rec.start, format!("macro '{name}' is already defined"));
                    return;
                }
                self.macros.insert(
                    key,
                    Rc::new(MacroDef {
                        name,
                        params,
                        body: Rc::new(rec.body),
                    }),
                );
            }
            RecKind::Raw { end } => self.raw_done = Some((end, rec.body.text)),
            RecKind::Repeat(mode) => {
                let body = Rc::new(rec.body);
                let shared: Rc<str> = Rc::from(body.text.as_str());
                let rep = RepeatState {
                    body: body.clone(),
                    shared,
                    iter: 0,
                    mode,
                };
                if self.frames.len() >= self.opts.max_depth {
                    self.error_at(rec.start, "repetitions/macros nested too deeply");
                    return;
                }
                let Some(text) = self.first_iteration(&rep) else {
                    return;
                };
                let ctx = self.new_ctx("in repetition started here".into(), rec.start);
                let cond_depth = self.conds.len();
                self.frames.push(Frame {
                    text,
                    pos: 0,
                    file: body.file,
                    line: 0,
                    line_map: Some(body),
                    body_idx: 0,
                    ctx,
                    in_comment: false,
                    cond_depth,
                    kind: FrameKind::Repeat(Box::new(rep)),
                });
            }
        }
    }

    fn first_iteration(&mut self, rep: &RepeatState) -> Option<Rc<str>> {
        match &rep.mode {
            RepMode::Rept(n) => (*n > 0).then(|| rep.shared.clone()),
            RepMode::Irp { name, values } => {
                let v = values.first()?;
                let text = substitute(
                    &rep.body.text,
                    &[name.as_str()],
                    std::slice::from_ref(v),
                    0,
                    self.altmacro,
                    &[],
                );
                Some(Rc::from(text))
            }
            RepMode::For { cond, line, .. } | RepMode::While { cond, line } => {
                let ok = self.eval_saved_cond(line.clone(), *cond);
                ok.then(|| rep.shared.clone())
            }
        }
    }

    pub(crate) fn eval_saved_cond(&mut self, line: LineCtx, cond: (usize, usize)) -> bool {
        let saved = std::mem::replace(&mut self.line, line);
        let t = self.line.text.clone();
        let base = self.line.start;
        let ctext = &t[base + cond.0..base + cond.1];
        let mut c = Cursor::new(ctext);
        let ok = self.abs_expr(&mut c).is_some_and(|v| v != 0);
        self.line = saved;
        ok
    }

    /// Starts capturing the following lines unprocessed, up to the
    /// pseudo-op `end` (e.g. `.end_amdgpu_metadata`); the back end then gets
    /// them through [`crate::Backend::raw_block`]. For embedded foreign text
    /// such as YAML metadata. `at` (a slice of the statement) is where an
    /// unterminated block is reported.
    pub fn capture_raw(&mut self, end: &str, at: &str) {
        self.new_recording(
            RecKind::Raw {
                end: end.to_ascii_lowercase(),
            },
            at,
        );
    }

    fn new_recording(&mut self, kind: RecKind, at: &str) {
        let start = self.pos(at);
        self.recording = Some(Recording {
            kind,
            depth: 1,
            body: Body {
                text: String::new(),
                lines: Vec::new(),
                file: self.line.file,
            },
            start,
        });
    }

    /// `.macro NAME[,] PARAMS...`
    pub(crate) fn start_macro(&mut self, st: &Statement<'_>) {
        let args = st.args;
        let b = args.as_bytes();
        let n = b.iter().take_while(|&&c| !is_space(c) && c != b',').count();
        let name = &args[..n];
        if name.is_empty() {
            self.error(st.name, "expected macro name");
            // still record to keep '.endm' matched
            self.new_recording(
                RecKind::Macro {
                    name: String::new(),
                    params: Vec::new(),
                },
                st.name,
            );
            return;
        }
        let mut rest = args[n..].trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r;
        }
        let mut params: Vec<Param> = Vec::new();
        let parts = split_params(rest);
        for p in parts {
            let (head, default) = match p.find('=') {
                Some(i) => (p[..i].trim(), Some(p[i + 1..].trim().to_string())),
                None => (p.trim(), None),
            };
            let mut it = head.split(':');
            let pname = it.next().unwrap_or("").trim();
            let mut required = false;
            let mut vararg = false;
            for q in it {
                match q.trim().to_ascii_lowercase().as_str() {
                    "req" => required = true,
                    "vararg" => vararg = true,
                    other => self.error(p, format!("unknown parameter qualifier '{other}'")),
                }
            }
            if pname.is_empty() || !pname.bytes().all(is_ident_char) {
                self.error(p, format!("bad macro parameter '{pname}'"));
                continue;
            }
            if params.iter().any(|x| x.name == pname) {
                self.error(p, format!("duplicate macro parameter '{pname}'"));
                continue;
            }
            if params.last().is_some_and(|x| x.vararg) {
                self.error(p, "a vararg parameter must be the last one");
            }
            params.push(Param {
                name: pname.to_string(),
                default,
                required,
                vararg,
            });
        }
        self.new_recording(
            RecKind::Macro {
                name: name.to_string(),
                params,
            },
            st.name,
        );
    }

    /// `.rept`, `.irp`, `.irpc`, `.for`, `.while`
    pub(crate) fn start_repeat(&mut self, name: &str, st: &Statement<'_>) {
        let args = st.args;
        let mode = match name {
            ".rept" => {
                let mut c = Cursor::new(args);
                let n = self.abs_expr(&mut c);
                if n.is_some() {
                    self.expect_end(&mut c);
                }
                let n = n.unwrap_or(0);
                if (n as i64) < 0 {
                    self.error(args, "repeat count is negative");
                    RepMode::Rept(0)
                } else {
                    RepMode::Rept(n)
                }
            }
            ".irp" | ".irpc" => {
                let mut c = Cursor::new(args);
                let Some(var) = c.ident() else {
                    self.error(args, "expected variable name");
                    self.new_recording(RecKind::Repeat(RepMode::Rept(0)), st.name);
                    return;
                };
                c.skip_ws();
                let _ = c.eat(b',');
                c.skip_ws();
                let rest = c.rest().trim();
                let mut values = Vec::new();
                if name == ".irp" {
                    for (s, e) in split_args(rest, self.altmacro) {
                        let v = self.convert_arg(&rest[s..e]);
                        values.push(v);
                    }
                    if values.is_empty() {
                        values.push(String::new());
                    }
                } else {
                    let s = if rest.len() >= 2 && rest.starts_with('"') && rest.ends_with('"') {
                        &rest[1..rest.len() - 1]
                    } else {
                        rest
                    };
                    values = s.chars().map(|ch| ch.to_string()).collect();
                    if values.is_empty() {
                        values.push(String::new());
                    }
                }
                RepMode::Irp {
                    name: var.to_string(),
                    values,
                }
            }
            ".for" => {
                // .for SYM=INIT, COND, NEXT
                let mut c = Cursor::new(args);
                let parts: Vec<&str> = lex::split_operands(args).collect();
                let sym_name = c.symbol_path();
                if parts.len() != 3 || sym_name.is_none() || !c.eat(b'=') {
                    self.error(args, "expected 'SYMBOL=INIT, CONDITION, NEXT'");
                    self.new_recording(RecKind::Repeat(RepMode::Rept(0)), st.name);
                    return;
                }
                let sym_name = sym_name.unwrap_or_default();
                let init_text = parts[0][parts[0].find('=').map_or(0, |i| i + 1)..].trim();
                let mut ic = Cursor::new(init_text);
                let init = self.abs_or_rel_expr(&mut ic);
                let sym = self.def_symbol(sym_name);
                match init {
                    Some(v) if !self.symbols[sym as usize].fixed => {
                        self.set_symbol_state(sym, crate::asm::SymState::Value(v));
                        let line = self.line.clone();
                        RepMode::For {
                            sym,
                            cond: self.range_in_line(parts[1]),
                            next: self.range_in_line(parts[2]),
                            line,
                        }
                    }
                    Some(_) => {
                        self.error(sym_name, format!("symbol '{sym_name}' cannot be redefined"));
                        RepMode::Rept(0)
                    }
                    None => RepMode::Rept(0),
                }
            }
            _ => {
                // .while COND
                if args.is_empty() {
                    self.error(st.name, "expected condition");
                    RepMode::Rept(0)
                } else {
                    let line = self.line.clone();
                    RepMode::While {
                        cond: self.range_in_line(args),
                        line,
                    }
                }
            }
        };
        self.new_recording(RecKind::Repeat(mode), st.name);
    }

    /// Byte range of a slice of the current line, relative to the line start.
    fn range_in_line(&self, s: &str) -> (usize, usize) {
        let base = self.line.text.as_ptr() as usize + self.line.start;
        let p = s.as_ptr() as usize;
        let len = self.line.end - self.line.start;
        if p >= base && p + s.len() <= base + len {
            (p - base, p - base + s.len())
        } else {
            (0, 0)
        }
    }

    pub(crate) fn exit_macro(&mut self, st: &Statement<'_>) {
        let Some(i) = self
            .frames
            .iter()
            .rposition(|f| matches!(f.kind, FrameKind::Macro))
        else {
            self.error(st.name, "'.exitm' outside of a macro");
            return;
        };
        let depth = self.frames[i].cond_depth;
        self.frames.truncate(i);
        self.close_conds(depth, false);
    }

    /// Expand macro `name` if it exists.
    pub(crate) fn try_macro_call(&mut self, name: &str, st: &Statement<'_>) -> bool {
        let m = if self.macrocase {
            let mut buf = [0u8; 64];
            if name.len() <= 64 {
                let b = &mut buf[..name.len()];
                b.copy_from_slice(name.as_bytes());
                b.make_ascii_lowercase();
                let key = std::str::from_utf8(b).unwrap_or("");
                self.macros.get(key).cloned()
            } else {
                self.macros.get(&name.to_ascii_lowercase()).cloned()
            }
        } else {
            self.macros.get(name).cloned()
        };
        let Some(m) = m else {
            return false;
        };
        if self.frames.len() >= self.opts.max_depth {
            self.error(
                name,
                format!("macro '{}' nested too deeply (recursion?)", m.name),
            );
            return true;
        }
        let Some(values) = self.macro_args(&m, st.args) else {
            return true;
        };
        self.macro_counter += 1;
        let mut locals = Vec::new();
        if self.altmacro {
            for l in m.body.text.lines() {
                let t = l.trim_start();
                if t.len() > 6
                    && t.as_bytes()[..5].eq_ignore_ascii_case(b"local")
                    && t.as_bytes()[5].is_ascii_whitespace()
                {
                    for n in lex::split_operands(&t[6..]).flat_map(|p| p.split_whitespace()) {
                        self.macro_counter += 1;
                        locals.push((n.to_string(), format!(".LL{}", self.macro_counter)));
                    }
                }
            }
        }
        let names: Vec<&str> = m.params.iter().map(|p| p.name.as_str()).collect();
        let text = substitute(
            &m.body.text,
            &names,
            &values,
            self.macro_counter - 1,
            self.altmacro,
            &locals,
        );
        let at = self.pos(name);
        let ctx = self.new_ctx(format!("in expansion of macro '{}'", m.name), at);
        let cond_depth = self.conds.len();
        self.frames.push(Frame {
            text: Rc::from(text),
            pos: 0,
            file: m.body.file,
            line: 0,
            line_map: Some(m.body.clone()),
            body_idx: 0,
            ctx,
            in_comment: false,
            cond_depth,
            kind: FrameKind::Macro,
        });
        true
    }

    /// Apply argument conversions: `\%expr` (and `%expr`, `<..>`, `'..'` in
    /// alternate macro mode).
    fn convert_arg(&mut self, a: &str) -> String {
        let a = a.trim();
        let ex = if let Some(r) = a.strip_prefix("\\%") {
            Some(r)
        } else if self.altmacro {
            a.strip_prefix('%')
        } else {
            None
        };
        if let Some(e) = ex {
            let mut c = Cursor::new(e);
            match self.expr(&mut c) {
                ExprResult::Value(Value {
                    section: None,
                    value,
                }) if c.at_end() => {
                    return (value as i64).to_string();
                }
                ExprResult::Error => return String::new(),
                _ => {
                    self.error(e, "macro argument expression must be absolute and known");
                    return String::new();
                }
            }
        }
        if self.altmacro {
            if a.len() >= 2 && a.starts_with('<') && a.ends_with('>') {
                return unescape_bang(&a[1..a.len() - 1]);
            }
            if a.len() >= 2 && a.starts_with('\'') && a.ends_with('\'') {
                return unescape_bang(&a[1..a.len() - 1]);
            }
        }
        a.to_string()
    }

    fn macro_args(&mut self, m: &MacroDef, args: &str) -> Option<Vec<String>> {
        let parts = split_args(args, self.altmacro);
        let mut values: Vec<Option<String>> = vec![None; m.params.len()];
        let mut pi = 0;
        for (k, &(s, e)) in parts.iter().enumerate() {
            let text = &args[s..e];
            // keyword argument NAME=VALUE
            if let Some(i) = text.find('=') {
                let key = text[..i].trim();
                if !text[i + 1..].starts_with('=') {
                    if let Some(idx) = m.params.iter().position(|p| p.name == key) {
                        let v = self.convert_arg(&text[i + 1..]);
                        values[idx] = Some(v);
                        pi = pi.max(idx + 1);
                        continue;
                    }
                }
            }
            if pi >= m.params.len() {
                self.error(text, format!("too many arguments for macro '{}'", m.name));
                return None;
            }
            if m.params[pi].vararg {
                let _ = k;
                values[pi] = Some(args[s..].trim().to_string());
                break;
            }
            if !text.trim().is_empty() {
                let v = self.convert_arg(text);
                values[pi] = Some(v);
            }
            pi += 1;
        }
        let mut out = Vec::with_capacity(m.params.len());
        for (p, v) in m.params.iter().zip(values) {
            match v {
                Some(v) if !v.is_empty() => out.push(v),
                _ => {
                    if p.required {
                        self.error(
                            args,
                            format!(
                                "missing value for required parameter '{}' of macro '{}'",
                                p.name, m.name
                            ),
                        );
                        return None;
                    }
                    out.push(p.default.clone().unwrap_or_default());
                }
            }
        }
        Some(out)
    }
}

fn unescape_bang(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '!' {
            if let Some(n) = it.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Split macro parameters of a definition (commas if any, else spaces).
fn split_params(s: &str) -> Vec<&str> {
    let s = s.trim();
    if s.is_empty() {
        return Vec::new();
    }
    if s.contains(',') {
        s.split(',')
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .collect()
    } else {
        // `a b=1 c` ; tolerate `a = 1` by gluing '=' parts
        let mut out: Vec<&str> = Vec::new();
        let toks: Vec<&str> = s.split_ascii_whitespace().collect();
        let mut i = 0;
        while i < toks.len() {
            let t = toks[i];
            if (t == "=" || t.ends_with('=')) && i + 1 < toks.len() {
                // join by slicing the original string
                let start = t.as_ptr() as usize - s.as_ptr() as usize;
                let nt = toks[i + 1];
                let end = nt.as_ptr() as usize - s.as_ptr() as usize + nt.len();
                if t == "=" {
                    if let Some(prev) = out.pop() {
                        let ps = prev.as_ptr() as usize - s.as_ptr() as usize;
                        out.push(&s[ps..end]);
                    }
                } else {
                    out.push(&s[start..end]);
                }
                i += 2;
                continue;
            }
            out.push(t);
            i += 1;
        }
        out
    }
}

/// Split macro call arguments into byte ranges: at commas if there is any
/// (as CLRX does, also inside parentheses and brackets: `m hwreg(mode, 0,
/// 32)` passes three arguments), else at white space outside parentheses.
/// Quotes (and `<...>` in alternate mode) group.
pub(crate) fn split_args(s: &str, alt: bool) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    if s.trim().is_empty() {
        return out;
    }
    let comma_mode = has_top_comma(b, alt);
    let mut i = 0;
    loop {
        if !comma_mode {
            while i < b.len() && is_space(b[i]) {
                i += 1;
            }
            if i >= b.len() {
                break;
            }
        }
        let start = i;
        let mut depth = 0i32;
        let mut at_start = true;
        while i < b.len() {
            let c = b[i];
            if comma_mode && c == b',' {
                break;
            }
            if !comma_mode && is_space(c) && depth <= 0 {
                break;
            }
            match c {
                b'"' => {
                    i = lex::skip_string(b, i);
                    at_start = false;
                    continue;
                }
                b'\'' if alt => {
                    i = skip_alt_quote(b, i, b'\'');
                    at_start = false;
                    continue;
                }
                b'\'' => {
                    i = lex::skip_char_lit(b, i);
                    at_start = false;
                    continue;
                }
                b'<' if alt && (at_start || i == start) => {
                    i = skip_alt_quote(b, i, b'>');
                    at_start = false;
                    continue;
                }
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                _ => {}
            }
            if !is_space(c) {
                at_start = false;
            }
            i += 1;
        }
        let (mut a, mut e) = (start, i.min(b.len()));
        while a < e && is_space(b[a]) {
            a += 1;
        }
        while e > a && is_space(b[e - 1]) {
            e -= 1;
        }
        out.push((a, e));
        if i >= b.len() {
            break;
        }
        if comma_mode {
            i += 1; // skip ','
            if i >= b.len() {
                out.push((b.len(), b.len()));
                break;
            }
        }
    }
    out
}

fn has_top_comma(b: &[u8], alt: bool) -> bool {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = lex::skip_string(b, i);
                continue;
            }
            b'\'' if alt => {
                i = skip_alt_quote(b, i, b'\'');
                continue;
            }
            b'<' if alt && (i == 0 || is_space(b[i - 1]) || b[i - 1] == b',') => {
                i = skip_alt_quote(b, i, b'>');
                continue;
            }
            b',' => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Skip an alternate-mode quoted argument starting at `i` (`<...>` or
/// `'...'`), honouring `!` escapes.
fn skip_alt_quote(b: &[u8], i: usize, close: u8) -> usize {
    let mut p = i + 1;
    while p < b.len() {
        if b[p] == b'!' {
            p += 2;
            continue;
        }
        if b[p] == close {
            return p + 1;
        }
        p += 1;
    }
    b.len()
}

/// Substitute macro parameters in `body`: `\name`, `\()`, `\@`; in
/// alternate mode also bare `name`, and `local` names.
pub(crate) fn substitute(
    body: &str,
    names: &[&str],
    values: &[String],
    counter: u64,
    alt: bool,
    locals: &[(String, String)],
) -> String {
    let b = body.as_bytes();
    let mut out = String::with_capacity(body.len() + 16);
    let mut i = 0;
    let mut copy_from = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            let n = b.get(i + 1).copied().unwrap_or(0);
            if n == b'(' && b.get(i + 2) == Some(&b')') {
                out.push_str(&body[copy_from..i]);
                i += 3;
                copy_from = i;
                continue;
            }
            if n == b'@' {
                out.push_str(&body[copy_from..i]);
                out.push_str(&counter.to_string());
                i += 2;
                copy_from = i;
                continue;
            }
            if is_ident_char(n) {
                let s = i + 1;
                let mut e = s;
                while e < b.len() && is_ident_char(b[e]) {
                    e += 1;
                }
                let id = &body[s..e];
                if let Some(k) = names.iter().position(|&x| x == id) {
                    out.push_str(&body[copy_from..i]);
                    out.push_str(values.get(k).map_or("", |v| v.as_str()));
                    copy_from = e;
                }
                i = e;
                continue;
            }
            i += 1;
            continue;
        }
        if alt && is_ident_start(c) && (i == 0 || !is_ident_char(b[i - 1])) {
            let mut e = i + 1;
            while e < b.len() && is_ident_char(b[e]) {
                e += 1;
            }
            let id = &body[i..e];
            if let Some(k) = names.iter().position(|&x| x == id) {
                out.push_str(&body[copy_from..i]);
                out.push_str(values.get(k).map_or("", |v| v.as_str()));
                copy_from = e;
            } else if let Some((_, u)) = locals.iter().find(|(n, _)| n == id) {
                out.push_str(&body[copy_from..i]);
                out.push_str(u);
                copy_from = e;
            }
            i = e;
            continue;
        }
        i += 1;
    }
    out.push_str(&body[copy_from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn split() {
        let s = "a, b c,,d";
        let r: Vec<&str> = split_args(s, false)
            .iter()
            .map(|&(a, e)| &s[a..e])
            .collect();
        assert_eq!(r, ["a", "b c", "", "d"]);
        let s = "1 2  3";
        let r: Vec<&str> = split_args(s, false)
            .iter()
            .map(|&(a, e)| &s[a..e])
            .collect();
        assert_eq!(r, ["1", "2", "3"]);
        let s = "<this is test !<!>> x";
        let r: Vec<&str> = split_args(s, true).iter().map(|&(a, e)| &s[a..e]).collect();
        assert_eq!(r, ["<this is test !<!>>", "x"]);
        let s = ",7";
        let r: Vec<&str> = split_args(s, false)
            .iter()
            .map(|&(a, e)| &s[a..e])
            .collect();
        assert_eq!(r, ["", "7"]);
    }
    #[test]
    fn subst() {
        let r = substitute(
            ".set \\x\\()Symbol, 10\n",
            &["x"],
            &["Linux".into()],
            0,
            false,
            &[],
        );
        assert_eq!(r, ".set LinuxSymbol, 10\n");
        let r = substitute(".ascii \"\\n\\a\"", &["a"], &["Q".into()], 0, false, &[]);
        assert_eq!(r, ".ascii \"\\nQ\"");
    }
}
