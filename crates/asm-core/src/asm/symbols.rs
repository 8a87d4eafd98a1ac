//! Symbols and scopes: definition, look-up through `.using` and the scope
//! stack, local labels (`1:`/`1b`/`1f`), and the symbol table handed out.

use super::*;

#[derive(Debug, Clone)]
pub(crate) enum SymState {
    Undefined,
    Value(Value),
    Pending(Rc<Expr>),
    Eqv(Rc<Expr>),
    Register(u64),
}

#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub name: Box<str>,
    pub scope: u32,
    pub state: SymState,
    pub is_label: bool,
    pub fixed: bool,
    pub global: bool,
    pub weak: bool,
    pub local: bool,
    pub size: Option<u64>,
    /// Referenced while undefined (a forward reference waits for it).
    pub forward: bool,
}

/// Symbol tables hash with rustc-hash (Fx): fast on short keys; not
/// flooding-resistant, which an assembler does not need.
pub(crate) type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

pub(crate) struct Scope {
    pub name: Box<str>,
    pub parent: u32,
    pub children: HashMap<Box<str>, u32>,
    pub syms: HashMap<Box<str>, u32>,
    pub usings: Vec<u32>,
    pub enum_counter: u64,
}

#[derive(Default)]
pub(crate) struct LocalLabel {
    pub last: Option<u32>,
    pub next: Option<u32>,
}

impl Assembler {
    pub(crate) fn new_symbol(&mut self, scope: u32, name: &str) -> u32 {
        self.symbols.push(Symbol {
            name: name.into(),
            scope,
            state: SymState::Undefined,
            is_label: false,
            fixed: false,
            global: false,
            weak: false,
            local: false,
            size: None,
            forward: false,
        });
        let id = (self.symbols.len() - 1) as u32;
        if !name.is_empty() {
            self.scopes[scope as usize].syms.insert(name.into(), id);
        }
        id
    }

    pub(crate) fn anon_symbol(&mut self) -> u32 {
        self.new_symbol(0, "")
    }

    /// Find a child scope named `name` walking from the current scope to the global one.
    pub(crate) fn find_scope_from_stack(&self, name: &str) -> Option<u32> {
        for &s in self.scope_stack.iter().rev() {
            if let Some(&c) = self.scopes[s as usize].children.get(name) {
                return Some(c);
            }
        }
        None
    }

    pub(crate) fn child_scope(&mut self, parent: u32, name: &str, create: bool) -> Option<u32> {
        if let Some(&c) = self.scopes[parent as usize].children.get(name) {
            return Some(c);
        }
        if !create || self.scopes.len() > 1_000_000 {
            return None;
        }
        self.scopes.push(Scope {
            name: name.into(),
            parent,
            children: HashMap::default(),
            syms: HashMap::default(),
            usings: Vec::new(),
            enum_counter: 0,
        });
        let id = (self.scopes.len() - 1) as u32;
        self.scopes[parent as usize]
            .children
            .insert(name.into(), id);
        Some(id)
    }

    pub(crate) fn new_temp_scope(&mut self, parent: u32) -> u32 {
        self.scopes.push(Scope {
            name: "".into(),
            parent,
            children: HashMap::default(),
            syms: HashMap::default(),
            usings: Vec::new(),
            enum_counter: 0,
        });
        (self.scopes.len() - 1) as u32
    }

    /// Resolve the scope part of a path (`a::b::` of `a::b::x`).
    pub(crate) fn resolve_scope(&mut self, path: &str, create: bool) -> Option<u32> {
        let (abs, body) = match path.strip_prefix("::") {
            Some(r) => (true, r),
            None => (false, path),
        };
        let mut comps = body.split("::").filter(|c| !c.is_empty());
        let first = match comps.next() {
            None => return Some(if abs { 0 } else { self.cur_scope() }),
            Some(f) => f,
        };
        let mut s = if abs {
            self.child_scope(0, first, create)?
        } else {
            match self.find_scope_from_stack(first) {
                Some(s) => s,
                None => {
                    let cur = self.cur_scope();
                    self.child_scope(cur, first, create)?
                }
            }
        };
        for c in comps {
            s = self.child_scope(s, c, create)?;
        }
        Some(s)
    }

    pub(crate) fn cur_scope(&self) -> u32 {
        *self.scope_stack.last().unwrap_or(&0)
    }

    pub(crate) fn find_in_usings(&self, scope: u32, name: &str, depth: u32) -> Option<u32> {
        if depth > 8 {
            return None;
        }
        for &u in self.scopes[scope as usize].usings.iter().rev() {
            if let Some(&id) = self.scopes[u as usize].syms.get(name) {
                return Some(id);
            }
            if let Some(id) = self.find_in_usings(u, name, depth + 1) {
                return Some(id);
            }
        }
        None
    }

    /// Find a symbol by (possibly scoped) name without creating it.
    pub(crate) fn find_symbol(&mut self, path: &str) -> Option<u32> {
        self.read_context();
        match path.rfind("::") {
            None => {
                for &s in self.scope_stack.iter().rev() {
                    if let Some(&id) = self.scopes[s as usize].syms.get(path) {
                        return Some(id);
                    }
                    if let Some(id) = self.find_in_usings(s, path, 0) {
                        return Some(id);
                    }
                }
                None
            }
            Some(i) => {
                let scope = self.resolve_scope(&path[..i + 2], false)?;
                let name = &path[i + 2..];
                self.scopes[scope as usize]
                    .syms
                    .get(name)
                    .copied()
                    .or_else(|| self.find_in_usings(scope, name, 0))
            }
        }
    }

    /// Symbol for reading: found through the scope rules or created undefined.
    pub(crate) fn lookup_symbol(&mut self, path: &str) -> u32 {
        if let Some(id) = self.find_symbol(path) {
            return id;
        }
        match path.rfind("::") {
            None => {
                let cur = self.cur_scope();
                self.new_symbol(cur, path)
            }
            Some(i) => {
                let scope = self.resolve_scope(&path[..i + 2], true).unwrap_or(0);
                self.new_symbol(scope, &path[i + 2..])
            }
        }
    }

    /// Symbol for definition: simple names always live in the current scope.
    pub(crate) fn def_symbol(&mut self, path: &str) -> u32 {
        let (scope, name) = match path.rfind("::") {
            None => (self.cur_scope(), path),
            Some(i) => (
                self.resolve_scope(&path[..i + 2], true).unwrap_or(0),
                &path[i + 2..],
            ),
        };
        match self.scopes[scope as usize].syms.get(name) {
            Some(&id) => id,
            None => self.new_symbol(scope, name),
        }
    }

    pub(crate) fn is_defined(&self, id: u32) -> bool {
        !matches!(self.symbols[id as usize].state, SymState::Undefined)
    }

    pub(crate) fn define_label(&mut self, name: &str) {
        let col = self.col_of(name);
        if self.sections[self.cur_section as usize].kind == SectionKind::Config {
            self.error(name, "labels are not allowed in a configuration section");
            return;
        }
        let id = self.def_symbol(name);
        let here = self.here();
        if self.is_defined(id) {
            let p = self.cur_pos(col);
            self.report(
                Severity::Error,
                p,
                format!("symbol '{name}' is already defined"),
            );
            return;
        }
        self.set_symbol_state(id, SymState::Value(here));
        let s = &mut self.symbols[id as usize];
        s.is_label = true;
        s.fixed = true;
    }

    pub(crate) fn define_local_label(&mut self, digits: &str) {
        let Ok(n) = digits.parse::<u64>() else {
            self.error(digits, "local label number too big");
            return;
        };
        let here = self.here();
        let entry = self.locals.entry(n).or_default();
        let id = match entry.next.take() {
            Some(id) => id,
            None => self.anon_symbol(),
        };
        self.locals.entry(n).or_default().last = Some(id);
        self.set_symbol_state(id, SymState::Value(here));
        self.symbols[id as usize].is_label = true;
    }

    /// Reference to local label `n` forward (`nf`) or backward (`nb`).
    pub(crate) fn local_label_ref(&mut self, n: u64, forward: bool) -> Option<u32> {
        self.read_context();
        if forward {
            if let Some(id) = self.locals.get(&n).and_then(|l| l.next) {
                return Some(id);
            }
            let id = self.anon_symbol();
            self.locals.entry(n).or_default().next = Some(id);
            Some(id)
        } else {
            self.locals.get(&n).and_then(|l| l.last)
        }
    }

    /// Define (or redefine) symbol `name` with an absolute or relative value,
    /// as `.set` does. Errors if the symbol is a label or fixed.
    pub fn set_symbol(&mut self, name: &str, value: Value) -> Result<(), SymbolError> {
        let id = self.def_symbol(name);
        let s = &self.symbols[id as usize];
        if s.fixed && !matches!(s.state, SymState::Undefined) {
            return Err(SymbolError::Fixed(name.to_string()));
        }
        self.set_symbol_state(id, SymState::Value(value));
        Ok(())
    }

    /// The current value of a symbol, if it is defined and resolvable now.
    pub fn symbol_value(&mut self, name: &str) -> Option<Value> {
        let id = self.find_symbol(name)?;
        self.symbol_value_by_id(id)
    }

    pub(crate) fn symbol_value_by_id(&mut self, id: u32) -> Option<Value> {
        match self.symbols[id as usize].state.clone() {
            SymState::Value(v) => Some(v),
            SymState::Pending(e) | SymState::Eqv(e) => self.try_eval(&e),
            _ => None,
        }
    }

    /// Payload of register symbol `name` (set by `name = %...`).
    pub fn register_symbol(&mut self, name: &str) -> Option<u64> {
        let id = self.find_symbol(name)?;
        match self.symbols[id as usize].state {
            SymState::Register(r) => Some(r),
            _ => None,
        }
    }

    pub(crate) fn scope_path(&self, mut s: u32) -> String {
        let mut parts = Vec::new();
        let mut guard = 0;
        while s != 0 && guard < 1000 {
            parts.push(&*self.scopes[s as usize].name);
            s = self.scopes[s as usize].parent;
            guard += 1;
        }
        parts.reverse();
        let mut out = String::new();
        for p in parts {
            out.push_str(p);
            out.push_str("::");
        }
        out
    }

    /// All named symbols with their final values.
    pub fn symbol_infos(&self) -> Vec<SymbolInfo> {
        let mut v = Vec::new();
        for s in &self.symbols {
            if s.name.is_empty() {
                continue;
            }
            let mut name = self.scope_path(s.scope);
            name.push_str(&s.name);
            let (value, register) = match &s.state {
                SymState::Value(v) => (Some(*v), None),
                SymState::Register(r) => (None, Some(*r)),
                _ => (None, None),
            };
            v.push(SymbolInfo {
                name,
                value,
                register,
                is_label: s.is_label,
                global: s.global,
                weak: s.weak,
                local: s.local,
                size: s.size,
            });
        }
        v
    }
}

/// Why [`Assembler::set_symbol`] refused a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymbolError {
    /// The symbol is a label or was made fixed (`.eqv`, `.equiv`).
    #[error("symbol '{0}' cannot be redefined")]
    Fixed(String),
}

impl From<SymbolError> for String {
    fn from(e: SymbolError) -> String {
        e.to_string()
    }
}
