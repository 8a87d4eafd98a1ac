//! The end of the source: unterminated blocks, undefined and pending
//! symbols, fixups.

use super::*;

impl Assembler {
    pub(crate) fn finish(&mut self, backend: &mut dyn Backend) {
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
                        self.set_symbol_state(i as u32, SymState::Pending(Rc::new(e)));
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
        let fixups = std::mem::take(&mut self.fixups);
        let resolved = std::mem::take(&mut self.resolved_fixups);
        for (i, v) in resolved {
            let f = &fixups[i as usize];
            let data = &mut self.sections[f.section.0 as usize].data;
            if let Err(msg) = backend.apply_fixup(f, v, data) {
                match msg.strip_prefix("warning: ") {
                    Some(w) => self.report(Severity::Warning, f.expr.pos(), w.to_string()),
                    None => self.report(Severity::Error, f.expr.pos(), msg),
                }
            }
        }
        let open = std::mem::take(&mut self.open_fixups);
        for (i, f) in fixups.iter().enumerate() {
            if !open.is_open(i as u32) {
                continue;
            }
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
}
