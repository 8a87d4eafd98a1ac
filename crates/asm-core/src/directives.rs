//! The ISA-independent pseudo-ops.

use std::rc::Rc;

use crate::asm::{
    fits, Assembler, AssignKind, Cond, FrameKind, SectionKind, SymState, VERSION_NUMBER,
};
use crate::backend::{Backend, Statement};
use crate::expr::ExprResult;
use crate::lex::{self, split_operands, Cursor};
use crate::{Relocation, Value};

#[derive(Clone, Copy)]
enum FloatKind {
    Half,
    Single,
    Double,
}

impl Assembler {
    /// Handle `name = expr` and `.set/.equ/.equiv/.eqv`.
    pub(crate) fn assign(
        &mut self,
        backend: &mut dyn Backend,
        name: &str,
        rhs: &str,
        kind: AssignKind,
    ) {
        if name == "." {
            backend.location_assign(self, rhs);
            let mut c = Cursor::new(rhs);
            self.org(&mut c, rhs);
            return;
        }
        if rhs.is_empty() {
            self.error(rhs, "expected expression");
            return;
        }
        if let Some(id) = self.find_symbol(name) {
            let s = &self.symbols[id as usize];
            let defined = !matches!(s.state, SymState::Undefined);
            let same_scope =
                !name.contains("::") && s.scope == self.cur_scope() || name.contains("::");
            if defined && same_scope {
                if s.is_label {
                    self.error(name, format!("label '{name}' cannot be redefined"));
                    return;
                }
                if s.fixed || kind != AssignKind::Set {
                    self.error(name, format!("symbol '{name}' is already defined"));
                    return;
                }
            }
        }
        if let Some(reg) = rhs.strip_prefix('%') {
            if let Some(r) = backend.register_symbol(self, reg) {
                let id = self.def_symbol(name);
                self.set_symbol_state(id, SymState::Register(r));
                self.symbols[id as usize].fixed = kind != AssignKind::Set;
            }
            return;
        }
        let mut c = Cursor::new(rhs);
        if kind == AssignKind::Eqv {
            let Some(e) = self.parse_lazy(&mut c) else {
                return;
            };
            if !c.at_end() {
                self.error(c.rest(), "unexpected text after expression");
                return;
            }
            let id = self.def_symbol(name);
            self.set_symbol_state(id, SymState::Eqv(Rc::new(e)));
            self.symbols[id as usize].fixed = true;
            return;
        }
        let r = self.expr(&mut c);
        if !matches!(r, ExprResult::Error) && !c.at_end() {
            self.error(c.rest(), "unexpected text after expression");
            return;
        }
        let state = match r {
            ExprResult::Value(v) => SymState::Value(v),
            ExprResult::Pending(e) => SymState::Pending(Assembler::rc_expr(e)),
            ExprResult::Error => return,
        };
        let id = self.def_symbol(name);
        self.set_symbol_state(id, state);
        let s = &mut self.symbols[id as usize];
        s.fixed = kind == AssignKind::Equiv;
        if std::mem::take(&mut s.forward) {
            self.resolve_ready();
        }
    }

    /// Handle core pseudo-ops. Returns false if `name` is not one.
    pub(crate) fn core_directive(
        &mut self,
        backend: &mut dyn Backend,
        name: &str,
        st: &Statement<'_>,
    ) -> bool {
        let args = st.args;
        match name {
            // ---------------- sections
            ".text" => {
                let id = self.add_section(".text", SectionKind::Code);
                self.switch_section(id);
            }
            ".data" => {
                let id = self.add_section(".data", SectionKind::Data);
                self.switch_section(id);
            }
            ".rodata" => {
                let id = self.add_section(".rodata", SectionKind::Data);
                self.sections[id.0 as usize].flags = "a".into();
                self.switch_section(id);
            }
            ".bss" => {
                let id = self.add_section(".bss", SectionKind::NoBits);
                self.switch_section(id);
            }
            ".section" => self.section_directive(args),
            ".struct" | ".offset" => {
                let v = if args.is_empty() {
                    Some(0)
                } else {
                    let mut c = Cursor::new(args);
                    let v = self.abs_expr(&mut c);
                    self.expect_end(&mut c);
                    v
                };
                if let Some(v) = v {
                    let id = match self.abs_section {
                        Some(i) => i,
                        None => {
                            let id = self.add_section("(absolute)", SectionKind::Absolute).0;
                            self.abs_section = Some(id);
                            id
                        }
                    };
                    self.sections[id as usize].size = v;
                    self.cur_section = id;
                }
            }
            // ---------------- data
            ".byte" => self.data_directive(args, 1),
            ".short" | ".hword" => self.data_directive(args, 2),
            ".int" | ".long" | ".word" => self.data_directive(args, 4),
            ".quad" => self.data_directive(args, 8),
            ".octa" => self.octa_directive(args),
            ".half" => self.float_directive(args, FloatKind::Half),
            ".float" | ".single" => self.float_directive(args, FloatKind::Single),
            ".double" => self.float_directive(args, FloatKind::Double),
            ".ascii" => self.string_directive(args, 1, false),
            ".asciz" | ".string" => self.string_directive(args, 1, true),
            ".string16" => self.string_directive(args, 2, true),
            ".string32" => self.string_directive(args, 4, true),
            ".string64" => self.string_directive(args, 8, true),
            ".fill" => self.fill_directive(args, false),
            ".fillq" => self.fill_directive(args, true),
            ".skip" | ".space" | ".zero" => {
                let a = self.opt_args(args, 2);
                if let Some(a) = a {
                    let n = a[0].unwrap_or(0);
                    let v = a[1].unwrap_or(0);
                    if a[1].is_some_and(|v| !fits(v, 1)) {
                        self.warning(args, "fill value truncated to 8 bits");
                    }
                    self.emit_fill(&[v as u8], n);
                }
            }
            ".align" | ".balign" => self.align_directive(backend, args, false, 1),
            ".balignw" => self.align_directive(backend, args, false, 2),
            ".balignl" => self.align_directive(backend, args, false, 4),
            ".p2align" => self.align_directive(backend, args, true, 1),
            ".p2alignw" => self.align_directive(backend, args, true, 2),
            ".p2alignl" => self.align_directive(backend, args, true, 4),
            ".org" => {
                let mut c = Cursor::new(args);
                self.org(&mut c, args);
            }
            // ---------------- symbols
            ".set" | ".equ" | ".equiv" | ".eqv" => {
                let mut c = Cursor::new(args);
                let Some(sym) = c.symbol_path() else {
                    self.error(args, "expected symbol name");
                    return true;
                };
                if !c.eat(b',') {
                    self.error(c.rest(), "expected ','");
                    return true;
                }
                let rhs = c.rest().trim();
                let kind = match name {
                    ".equiv" => AssignKind::Equiv,
                    ".eqv" => AssignKind::Eqv,
                    _ => AssignKind::Set,
                };
                self.assign(backend, sym, rhs, kind);
            }
            ".global" | ".globl" | ".local" | ".weak" | ".extern" => {
                for s in split_operands(args) {
                    let mut c = Cursor::new(s);
                    match c.symbol_path() {
                        Some(n) if c.at_end() => {
                            if name == ".extern" {
                                continue;
                            }
                            let id = self.lookup_symbol(n);
                            let sym = &mut self.symbols[id as usize];
                            match name {
                                ".local" => sym.local = true,
                                ".weak" => sym.weak = true,
                                _ => sym.global = true,
                            }
                        }
                        _ => self.error(s, "expected symbol name"),
                    }
                }
            }
            ".size" => {
                let mut c = Cursor::new(args);
                let Some(n) = c.symbol_path() else {
                    self.error(args, "expected symbol name");
                    return true;
                };
                if !c.eat(b',') {
                    self.error(c.rest(), "expected ','");
                    return true;
                }
                if let Some(v) = self.abs_expr(&mut c) {
                    self.expect_end(&mut c);
                    let id = self.lookup_symbol(n);
                    self.symbols[id as usize].size = Some(v);
                }
            }
            ".undef" => {
                let mut c = Cursor::new(args);
                match c.symbol_path() {
                    Some(n) => {
                        self.expect_end(&mut c);
                        match self.find_symbol(n) {
                            Some(id) if self.is_defined(id) => {
                                self.set_symbol_state(id, SymState::Undefined);
                                let s = &mut self.symbols[id as usize];
                                s.fixed = false;
                                s.is_label = false;
                            }
                            _ => self.warning(n, format!("symbol '{n}' is not defined")),
                        }
                    }
                    None => self.error(args, "expected symbol name"),
                }
            }
            ".enum" => self.enum_directive(args),
            // ---------------- scopes
            ".scope" => {
                let mut c = Cursor::new(args);
                let cur = self.cur_scope();
                if c.at_end() {
                    let id = self.new_temp_scope(cur);
                    self.scope_stack.push(id);
                } else {
                    match c.ident() {
                        Some(n) if c.at_end() => {
                            if let Some(id) = self.child_scope_pub(cur, n) {
                                self.scope_stack.push(id);
                            }
                        }
                        _ => self.error(args, "expected scope name"),
                    }
                }
                if self.scope_stack.len() > 10_000 {
                    self.error(st.name, "scopes nested too deeply");
                    self.scope_stack.pop();
                }
            }
            ".ends" | ".endscope" => {
                if self.scope_stack.len() <= 1 {
                    self.error(st.name, "no scope to close");
                } else {
                    self.scope_stack.pop();
                }
            }
            ".using" => {
                let mut c = Cursor::new(args);
                match c.symbol_path() {
                    Some(p) if c.at_end() => {
                        if let Some(s) = self.resolve_scope(p, true) {
                            let cur = self.cur_scope();
                            let u = &mut self.scopes[cur as usize].usings;
                            if u.len() < 1000 {
                                u.retain(|&x| x != s);
                                u.push(s);
                            }
                        }
                    }
                    _ => self.error(args, "expected scope path"),
                }
            }
            ".unusing" => {
                let cur = self.cur_scope();
                let mut c = Cursor::new(args);
                if c.at_end() {
                    self.scopes[cur as usize].usings.clear();
                } else {
                    match c.symbol_path() {
                        Some(p) if c.at_end() => {
                            if let Some(s) = self.resolve_scope(p, false) {
                                self.scopes[cur as usize].usings.retain(|&x| x != s);
                            }
                        }
                        _ => self.error(args, "expected scope path"),
                    }
                }
            }
            // ---------------- macros and repetition
            ".macro" => self.start_macro(st),
            ".endm" | ".endmacro" => self.error(st.name, format!("'{}' without '.macro'", st.name)),
            ".endr" | ".endrept" => self.error(st.name, format!("'{}' without '.rept'", st.name)),
            ".rept" | ".irp" | ".irpc" | ".for" | ".while" => self.start_repeat(name, st),
            ".exitm" => self.exit_macro(st),
            ".purgem" => {
                let mut c = Cursor::new(args);
                let n = c.word();
                let key = if self.macrocase {
                    n.to_ascii_lowercase()
                } else {
                    n.to_string()
                };
                if self.macros.remove(&key).is_none() {
                    self.error(n, format!("macro '{n}' is not defined"));
                }
            }
            ".altmacro" => self.altmacro = true,
            ".noaltmacro" => self.altmacro = false,
            ".macrocase" => self.macrocase = true,
            ".nomacrocase" => self.macrocase = false,
            ".include" => self.include_directive(args),
            ".incbin" => self.incbin_directive(args),
            // ---------------- messages and control
            ".end" => self.ended = true,
            ".abort" => {
                self.error(st.name, "aborted by '.abort'");
                self.ended = true;
            }
            ".err" => self.error(st.name, "'.err' encountered"),
            ".error" | ".warning" | ".print" => {
                let msg = if args.is_empty() {
                    None
                } else {
                    let mut c = Cursor::new(args);
                    match c.string_literal() {
                        Ok(s) => {
                            self.expect_end(&mut c);
                            Some(String::from_utf8_lossy(&s).into_owned())
                        }
                        Err(e) => {
                            self.error(args, e.msg);
                            return true;
                        }
                    }
                };
                match name {
                    ".error" => self.error(
                        st.name,
                        msg.unwrap_or_else(|| "'.error' encountered".into()),
                    ),
                    ".warning" => self.warning(
                        st.name,
                        msg.unwrap_or_else(|| "'.warning' encountered".into()),
                    ),
                    _ => match msg {
                        Some(m) => self.printed.push(m),
                        None => self.error(args, "expected string"),
                    },
                }
            }
            ".fail" => {
                let mut c = Cursor::new(args);
                if let Some(v) = self.abs_expr(&mut c) {
                    if v >= 500 {
                        self.warning(st.name, format!(".fail {v} encountered"));
                    } else {
                        self.error(st.name, format!(".fail {v} encountered"));
                    }
                }
            }
            ".32bit" => self.bits64 = false,
            ".64bit" => self.bits64 = true,
            ".policy" => {
                let mut c = Cursor::new(args);
                if let Some(v) = self.abs_expr(&mut c) {
                    self.policy = v;
                }
            }
            ".get_64bit" | ".get_version" | ".get_policy" => {
                let v = match name {
                    ".get_64bit" => self.bits64 as u64,
                    ".get_version" => VERSION_NUMBER,
                    _ => self.policy,
                };
                let mut c = Cursor::new(args);
                match c.symbol_path() {
                    Some(n) if c.at_end() => {
                        if let Err(e) = self.set_symbol(n, Value::abs(v)) {
                            self.error(n, e);
                        }
                    }
                    _ => self.error(args, "expected symbol name"),
                }
            }
            ".file" | ".ln" | ".line" | ".lflags" | ".sbttl" | ".title" | ".tittle"
            | ".version" | ".ident" => {}
            _ => return false,
        }
        true
    }

    pub(crate) fn expect_end(&mut self, c: &mut Cursor<'_>) {
        if !c.at_end() {
            self.error(c.rest(), "unexpected text");
        }
    }

    fn child_scope_pub(&mut self, parent: u32, name: &str) -> Option<u32> {
        self.child_scope(parent, name, true)
    }

    fn section_directive(&mut self, args: &str) {
        // .section NAME[, "FLAGS"[, @TYPE]] [align=N]
        let mut c = Cursor::new(args);
        c.skip_ws();
        let start = c.pos();
        let b = c.rest_bytes();
        let n = b
            .iter()
            .take_while(|&&x| !lex::is_space(x) && x != b',')
            .count();
        let name = c.slice(start, start + n);
        if name.is_empty() {
            self.error(args, "expected section name");
            return;
        }
        c.set_pos(start + n);
        let mut flags: Option<String> = None;
        let mut ty: Option<String> = None;
        let mut align: Option<u64> = None;
        if c.eat(b',') {
            c.skip_ws();
            if c.peek() == Some(b'#') {
                // Solaris-style flags (`#alloc,#write,#execinstr`), as clang writes them.
                let mut f = String::new();
                loop {
                    c.skip_ws();
                    if !c.eat(b'#') {
                        break;
                    }
                    match c.ident() {
                        Some("alloc") => f.push('a'),
                        Some("write") => f.push('w'),
                        Some("execinstr") => f.push('x'),
                        Some("tls") => f.push('T'),
                        _ => {
                            self.error(c.rest(), "expected #alloc, #write, #execinstr or #tls");
                            return;
                        }
                    }
                    let save = c.pos();
                    if !(c.eat(b',') && c.rest().trim_start().starts_with('#')) {
                        c.set_pos(save);
                        break;
                    }
                }
                flags = Some(f);
            } else {
                match c.string_literal() {
                    Ok(f) => flags = Some(String::from_utf8_lossy(&f).into_owned()),
                    Err(e) => {
                        self.error(c.rest(), e.msg);
                        return;
                    }
                }
            }
            if c.eat(b',') {
                c.skip_ws();
                let _ = c.eat(b'@') || c.eat(b'%');
                match c.ident() {
                    Some(t) => ty = Some(t.to_ascii_lowercase()),
                    None => {
                        self.error(c.rest(), "expected section type");
                        return;
                    }
                }
            }
        }
        c.skip_ws();
        if c.eat_str("align") {
            if !c.eat(b'=') {
                self.error(c.rest(), "expected '='");
                return;
            }
            match self.abs_expr(&mut c) {
                Some(v) if v.is_power_of_two() => align = Some(v),
                Some(_) => {
                    self.error(args, "alignment must be a power of two");
                    return;
                }
                None => return,
            }
        }
        self.expect_end(&mut c);
        let existing = self.find_section(name);
        let kind = if ty.as_deref() == Some("nobits") {
            SectionKind::NoBits
        } else if flags.as_deref().is_some_and(|f| f.contains('x')) || name == ".text" {
            SectionKind::Code
        } else {
            SectionKind::Data
        };
        let id = match existing {
            Some(id) => id,
            None => self.add_section(name, kind),
        };
        let s = &mut self.sections[id.0 as usize];
        if let Some(f) = flags {
            if existing.is_none() {
                s.flags = f;
            }
        }
        if ty.is_some() {
            s.elf_type = ty;
        }
        if let Some(a) = align {
            s.align = s.align.max(a);
        }
        self.switch_section(id);
    }

    /// Parse up to `n` optional comma-separated absolute expressions
    /// (`a, , c`); `None` entries are omitted ones.
    fn opt_args(&mut self, args: &str, n: usize) -> Option<Vec<Option<u64>>> {
        let mut out = vec![None; n];
        if args.trim().is_empty() {
            self.error(args, "expected expression");
            return None;
        }
        for (i, a) in split_operands(args).enumerate() {
            if i >= n {
                self.error(a, "too many arguments");
                return None;
            }
            if a.is_empty() {
                continue;
            }
            let mut c = Cursor::new(a);
            let v = self.abs_expr(&mut c)?;
            if !c.at_end() {
                self.error(c.rest(), "unexpected text after expression");
                return None;
            }
            out[i] = Some(v);
        }
        Some(out)
    }

    fn data_directive(&mut self, args: &str, size: u8) {
        if args.is_empty() {
            return;
        }
        for a in split_operands(args) {
            if a.is_empty() {
                self.warning(a, "empty expression; storing 0");
                self.emit(&[0u8; 8][..size as usize]);
                continue;
            }
            let mut c = Cursor::new(a);
            let r = self.expr(&mut c);
            if !matches!(r, ExprResult::Error) && !c.at_end() {
                self.error(c.rest(), "unexpected text after expression");
                continue;
            }
            let off = self.offset();
            let sec = self.current_section();
            match r {
                ExprResult::Value(v) => {
                    if let Some(t) = v.section {
                        self.add_relocation(Relocation {
                            section: sec,
                            offset: off,
                            size,
                            target: t,
                            addend: v.value,
                        });
                    } else if !fits(v.value, size) {
                        self.warning(
                            a,
                            format!(
                                "value 0x{:x} truncated to {} bits",
                                v.value,
                                size as u32 * 8
                            ),
                        );
                    }
                    self.emit(&v.value.to_le_bytes()[..size as usize]);
                }
                ExprResult::Pending(e) => {
                    self.emit(&[0u8; 8][..size as usize]);
                    if self.sections[sec.0 as usize].kind <= SectionKind::Data {
                        self.data_fixups.push(crate::asm::DataFixup {
                            section: sec,
                            offset: off,
                            size,
                            expr: e,
                            wait: crate::asm::Waiting::UNTRIED,
                        });
                    }
                }
                ExprResult::Error => {}
            }
        }
    }

    fn octa_directive(&mut self, args: &str) {
        if args.is_empty() {
            return;
        }
        for a in split_operands(args) {
            if a.is_empty() {
                self.warning(a, "empty expression; storing 0");
                self.emit(&[0u8; 16]);
                continue;
            }
            let (neg, body) = match a.strip_prefix('-') {
                Some(r) => (true, r.trim_start()),
                None => (false, a.strip_prefix('+').unwrap_or(a).trim_start()),
            };
            let lit = if body.as_bytes().first().is_some_and(|c| c.is_ascii_digit()) {
                match lex::parse_int_literal(body.as_bytes()) {
                    Ok((v, n)) if n == body.len() => Some(v),
                    _ => None,
                }
            } else {
                None
            };
            let v: u128 = match lit {
                Some(v) => {
                    if neg {
                        v.wrapping_neg()
                    } else {
                        v
                    }
                }
                None => {
                    let mut c = Cursor::new(a);
                    let Some(v) = self.abs_expr(&mut c) else {
                        continue;
                    };
                    if !c.at_end() {
                        self.error(c.rest(), "unexpected text after expression");
                        continue;
                    }
                    v as i64 as i128 as u128
                }
            };
            self.emit(&v.to_le_bytes());
        }
    }

    fn float_directive(&mut self, args: &str, kind: FloatKind) {
        if args.is_empty() {
            return;
        }
        for a in split_operands(args) {
            let bits: u64 = if a.is_empty() {
                self.warning(a, "empty value; storing 0");
                0
            } else if let Some((f, n)) = lex::parse_float_literal(a).filter(|&(_, n)| n == a.len())
            {
                let _ = n;
                match kind {
                    FloatKind::Half => f.to_f16_bits() as u64,
                    FloatKind::Single => f.to_f32_bits() as u64,
                    FloatKind::Double => f.to_f64_bits(),
                }
            } else {
                let mut c = Cursor::new(a);
                let Some(v) = self.abs_expr(&mut c) else {
                    continue;
                };
                if !c.at_end() {
                    self.error(c.rest(), "unexpected text after value");
                    continue;
                }
                let f = v as i64 as f64;
                match kind {
                    FloatKind::Half => lex::f64_to_f16_bits(f) as u64,
                    FloatKind::Single => (v as i64 as f32).to_bits() as u64,
                    FloatKind::Double => f.to_bits(),
                }
            };
            let n = match kind {
                FloatKind::Half => 2,
                FloatKind::Single => 4,
                FloatKind::Double => 8,
            };
            self.emit(&bits.to_le_bytes()[..n]);
        }
    }

    fn string_directive(&mut self, args: &str, width: usize, zero: bool) {
        if args.is_empty() {
            self.error(args, "expected string");
            return;
        }
        let mut c = Cursor::new(args);
        let mut buf = Vec::new();
        loop {
            c.skip_ws();
            let at = c.rest();
            match c.string_literal() {
                Ok(s) => {
                    buf.clear();
                    for &ch in &s {
                        buf.push(ch);
                        buf.extend(std::iter::repeat_n(0, width - 1));
                    }
                    if zero {
                        buf.extend(std::iter::repeat_n(0, width));
                    }
                    self.emit(&buf);
                }
                Err(e) => {
                    self.error(at, e.msg);
                    return;
                }
            }
            if c.at_end() {
                break;
            }
            if !c.eat(b',') {
                self.error(c.rest(), "expected ','");
                return;
            }
        }
    }

    fn fill_directive(&mut self, args: &str, q: bool) {
        let Some(a) = self.opt_args(args, 3) else {
            return;
        };
        let count = a[0].unwrap_or(0);
        let mut size = a[1].unwrap_or(1);
        let value = a[2].unwrap_or(0);
        if (count as i64) < 0 {
            self.error(args, "repeat count is negative");
            return;
        }
        if size > 8 {
            self.warning(args, "fill size is bigger than 8; using 8");
            size = 8;
        }
        let v = if q { value } else { value & 0xffff_ffff };
        if size > 0 && count > 0 && !fits(v, size as u8) {
            self.warning(args, "fill value truncated");
        }
        let bytes = v.to_le_bytes();
        self.emit_fill(&bytes[..size as usize], count);
    }

    fn align_directive(&mut self, backend: &mut dyn Backend, args: &str, p2: bool, width: usize) {
        let Some(a) = self.opt_args(args, 3) else {
            return;
        };
        let Some(al) = a[0] else {
            self.error(args, "expected alignment");
            return;
        };
        let align = if p2 {
            if al >= 64 {
                self.error(args, "alignment too big");
                return;
            }
            1u64 << al
        } else {
            if !al.is_power_of_two() {
                self.error(args, "alignment must be a power of two");
                return;
            }
            al
        };
        let off = self.offset();
        let pad = (align - off % align) % align;
        if let Some(limit) = a[2] {
            if pad > limit {
                return;
            }
        }
        let s = &mut self.sections[self.cur_section as usize];
        s.align = s.align.max(align);
        if pad == 0 {
            return;
        }
        let kind = s.kind;
        match a[1] {
            None if kind == SectionKind::Code => {
                if pad > self.opts.max_section_size {
                    self.error(args, "section too big");
                    return;
                }
                let mut out = Vec::new();
                backend.code_fill(pad as usize, &mut out);
                out.resize(pad as usize, 0);
                self.emit(&out);
            }
            _ => {
                let v = a[1].unwrap_or(0);
                // pad an unaligned head with zero bytes, then whole words
                let head = pad % width as u64;
                self.emit_fill(&[0], head);
                let bytes = v.to_le_bytes();
                self.emit_fill(&bytes[..width], (pad - head) / width as u64);
            }
        }
    }

    fn org(&mut self, c: &mut Cursor<'_>, args: &str) {
        let Some(v) = self.abs_or_rel_expr(c) else {
            return;
        };
        let mut fill = 0u8;
        if c.eat(b',') {
            match self.abs_expr(c) {
                Some(f) => fill = f as u8,
                None => return,
            }
        }
        self.expect_end(c);
        let here = self.here();
        let cur = self.offset();
        let kind = self.sections[self.cur_section as usize].kind;
        let target = match v.section {
            None if kind == SectionKind::Absolute => {
                self.sections[self.cur_section as usize].size = v.value;
                return;
            }
            None => v.value,
            Some(s) if Some(s) == here.section => v.value,
            Some(_) => {
                self.error(args, "'.org' to a different section");
                return;
            }
        };
        if target < cur {
            self.error(args, "'.org' cannot move the location counter backwards");
            return;
        }
        self.emit_fill(&[fill], target - cur);
    }

    fn enum_directive(&mut self, args: &str) {
        let scope = self.cur_scope();
        let mut first = true;
        for a in split_operands(args) {
            if first && a.starts_with('>') {
                first = false;
                let rest = a[1..].trim();
                let v = if rest.is_empty() {
                    0
                } else {
                    let mut c = Cursor::new(rest);
                    match self.abs_expr(&mut c) {
                        Some(v) => v,
                        None => return,
                    }
                };
                self.scopes[scope as usize].enum_counter = v;
                continue;
            }
            first = false;
            let mut c = Cursor::new(a);
            match c.symbol_path() {
                Some(n) if c.at_end() => {
                    let v = self.scopes[scope as usize].enum_counter;
                    let id = self.def_symbol(n);
                    if self.is_defined(id) {
                        self.error(n, format!("symbol '{n}' is already defined"));
                    } else {
                        self.set_symbol_state(id, SymState::Value(Value::abs(v)));
                        self.symbols[id as usize].fixed = true;
                    }
                    self.scopes[scope as usize].enum_counter = v.wrapping_add(1);
                }
                _ => self.error(a, "expected symbol name"),
            }
        }
    }

    fn read_file(&mut self, name: &str) -> Option<(String, Vec<u8>)> {
        if let Some(d) = self.opts.files.get(name) {
            return Some((name.to_string(), d.clone()));
        }
        if !self.opts.allow_fs {
            return None;
        }
        let mut cands = Vec::new();
        let cur_file = self
            .files
            .get(self.line.file as usize)
            .cloned()
            .unwrap_or_default();
        if let Some(dir) = std::path::Path::new(&cur_file).parent() {
            cands.push(dir.join(name));
        }
        cands.push(std::path::PathBuf::from(name));
        for p in &self.opts.include_paths {
            cands.push(p.join(name));
        }
        for p in cands {
            if let Ok(d) = std::fs::read(&p) {
                return Some((p.to_string_lossy().into_owned(), d));
            }
        }
        None
    }

    fn include_directive(&mut self, args: &str) {
        let mut c = Cursor::new(args);
        let name = match c.string_literal() {
            Ok(s) => String::from_utf8_lossy(&s).into_owned(),
            Err(e) => {
                self.error(args, e.msg);
                return;
            }
        };
        self.expect_end(&mut c);
        if self.frames.len() >= self.opts.max_depth {
            self.error(args, "include/macro nesting too deep");
            return;
        }
        let Some((path, data)) = self.read_file(&name) else {
            self.error(args, format!("cannot open include file '{name}'"));
            return;
        };
        let text = String::from_utf8_lossy(&data).into_owned();
        let at = self.pos(args);
        let ctx = self.new_ctx("in file included from here".into(), at);
        let file = self.add_file(&path);
        let cond_depth = self.conds.len();
        self.frames.push(crate::asm::Frame {
            text: Rc::from(text),
            pos: 0,
            file,
            line: 1,
            line_map: None,
            body_idx: 0,
            ctx,
            in_comment: false,
            cond_depth,
            kind: FrameKind::File,
        });
    }

    fn incbin_directive(&mut self, args: &str) {
        let mut c = Cursor::new(args);
        let name = match c.string_literal() {
            Ok(s) => String::from_utf8_lossy(&s).into_owned(),
            Err(e) => {
                self.error(args, e.msg);
                return;
            }
        };
        let mut off = 0u64;
        let mut count = None;
        if c.eat(b',') {
            let rest = c.rest();
            let Some(a) = self.opt_args_allow_empty(rest, 2) else {
                return;
            };
            off = a[0].unwrap_or(0);
            count = a[1];
        } else {
            self.expect_end(&mut c);
        }
        let Some((_, data)) = self.read_file(&name) else {
            self.error(args, format!("cannot open binary file '{name}'"));
            return;
        };
        if off > data.len() as u64 {
            self.error(args, "offset beyond the end of the file");
            return;
        }
        let mut d = &data[off as usize..];
        if let Some(n) = count {
            if n < d.len() as u64 {
                d = &d[..n as usize];
            }
        }
        self.emit(d);
    }

    fn opt_args_allow_empty(&mut self, args: &str, n: usize) -> Option<Vec<Option<u64>>> {
        if args.trim().is_empty() {
            return Some(vec![None; n]);
        }
        self.opt_args(args, n)
    }

    // ------------------------------------------------------------------
    // conditionals
    // ------------------------------------------------------------------

    pub(crate) fn cond_directive(
        &mut self,
        backend: &mut dyn Backend,
        name: &str,
        st: &Statement<'_>,
    ) {
        let pos = self.pos(st.name);
        match name {
            ".endif" => {
                if self.conds.pop().is_none() {
                    self.error(st.name, "'.endif' without '.if'");
                }
                return;
            }
            ".else" => {
                let Some(c) = self.conds.last_mut() else {
                    self.error(st.name, "'.else' without '.if'");
                    return;
                };
                if c.else_seen {
                    self.error(st.name, "duplicate '.else'");
                    return;
                }
                c.else_seen = true;
                c.active = c.parent_active && !c.taken;
                c.taken = true;
                return;
            }
            _ => {}
        }
        let (is_else, suffix) = if let Some(s) = name.strip_prefix(".elseif") {
            (true, s)
        } else if let Some(s) = name.strip_prefix(".if") {
            (false, s)
        } else {
            return;
        };
        if is_else {
            let Some(c) = self.conds.last() else {
                self.error(st.name, format!("'{}' without '.if'", st.name));
                return;
            };
            if c.else_seen {
                self.error(st.name, format!("'{}' after '.else'", st.name));
                return;
            }
            if !c.parent_active || c.taken {
                if let Some(c) = self.conds.last_mut() {
                    c.active = false;
                }
                return;
            }
            let v = self.eval_condition(backend, suffix, st).unwrap_or(false);
            if let Some(c) = self.conds.last_mut() {
                c.active = v;
                c.taken = v;
            }
            return;
        }
        // new .if
        let parent_active = !self.is_skipping();
        if self.conds.len() > 100_000 {
            self.error(st.name, "conditionals nested too deeply");
            return;
        }
        let v = if parent_active {
            self.eval_condition(backend, suffix, st).unwrap_or_default()
        } else {
            if !known_cond_suffix(suffix) {
                // unknown name inside a skipped block: ignore silently
            }
            false
        };
        self.conds.push(Cond {
            parent_active,
            active: parent_active && v,
            taken: v,
            else_seen: false,
            pos,
        });
    }

    fn eval_condition(
        &mut self,
        backend: &mut dyn Backend,
        suffix: &str,
        st: &Statement<'_>,
    ) -> Option<bool> {
        let args = st.args;
        let abs = |a: &mut Assembler| {
            let mut c = Cursor::new(args);
            let v = a.abs_expr(&mut c);
            if v.is_some() {
                a.expect_end(&mut c);
            }
            v.map(|v| v as i64)
        };
        Some(match suffix {
            "" | "ne" => abs(self)? != 0,
            "eq" => abs(self)? == 0,
            "gt" => abs(self)? > 0,
            "ge" => abs(self)? >= 0,
            "lt" => abs(self)? < 0,
            "le" => abs(self)? <= 0,
            "def" | "ndef" | "notdef" => {
                let mut c = Cursor::new(args);
                let Some(n) = c.symbol_path() else {
                    self.error(args, "expected symbol name");
                    return None;
                };
                self.expect_end(&mut c);
                let d = self.find_symbol(n).is_some_and(|id| self.is_defined(id));
                if suffix == "def" {
                    d
                } else {
                    !d
                }
            }
            "b" => args.trim().is_empty(),
            "nb" => !args.trim().is_empty(),
            "c" | "nc" => {
                let Some(i) = lex::find_top_level(args.as_bytes(), b',') else {
                    self.error(args, "expected two strings separated by ','");
                    return None;
                };
                let a = unquote_single(args[..i].trim());
                let b = unquote_single(args[i + 1..].trim());
                (a == b) == (suffix == "c")
            }
            "eqs" | "nes" => {
                let mut c = Cursor::new(args);
                let a = match c.string_literal() {
                    Ok(a) => a,
                    Err(e) => {
                        self.error(args, e.msg);
                        return None;
                    }
                };
                if !c.eat(b',') {
                    self.error(c.rest(), "expected ','");
                    return None;
                }
                let b = match c.string_literal() {
                    Ok(b) => b,
                    Err(e) => {
                        self.error(c.rest(), e.msg);
                        return None;
                    }
                };
                self.expect_end(&mut c);
                (a == b) == (suffix == "eqs")
            }
            "32" => !self.bits64,
            "64" => self.bits64,
            "arch" | "narch" | "gpu" | "ngpu" | "fmt" | "nfmt" => {
                let neg = suffix.starts_with('n');
                let kind = if neg { &suffix[1..] } else { suffix };
                match backend.condition(self, kind, args.trim()) {
                    Some(v) => v != neg,
                    None => {
                        self.error(
                            st.name,
                            format!("'{}' is not supported by this target", st.name),
                        );
                        return None;
                    }
                }
            }
            _ => {
                self.error(st.name, format!("unknown pseudo-op '{}'", st.name));
                return None;
            }
        })
    }
}

fn known_cond_suffix(s: &str) -> bool {
    matches!(
        s,
        "" | "ne"
            | "eq"
            | "gt"
            | "ge"
            | "lt"
            | "le"
            | "def"
            | "ndef"
            | "notdef"
            | "b"
            | "nb"
            | "c"
            | "nc"
            | "eqs"
            | "nes"
            | "32"
            | "64"
            | "arch"
            | "narch"
            | "gpu"
            | "ngpu"
            | "fmt"
            | "nfmt"
    )
}

fn unquote_single(s: &str) -> &str {
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}
