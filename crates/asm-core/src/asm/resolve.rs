//! CLRX's early resolution of forward references: a pending symbol or
//! fixup gets its value as soon as the symbols it waits for are defined.
//! Done after every assignment to a symbol that was referenced while
//! undefined, so it must not cost a pass over every symbol and fixup each
//! time (a source ending in thousands of `label = . - N` would be quadratic):
//! each pending item remembers what it waited for ([`Waiting`]), and is not
//! evaluated again while that is unchanged.

use super::*;

/// What a pending item (symbol, data fixup, back-end fixup) waited for
/// when it was last tried: the undefined symbol its evaluation stopped at
/// (`blocker`), and [`Assembler::redefinitions`] then (`epoch`).
///
/// While the blocker is still undefined and no pending or lazy symbol was
/// redefined since, evaluating again gives "not yet" for sure: expressions
/// evaluate every item (no short circuit), so the walk reaches the blocker
/// again through the same pending expressions, or stops earlier at another
/// undefined symbol or an error. (A pending symbol resolved to a value is
/// no redefinition: its expression evaluated, so whatever it waited for is
/// defined.) Skipping such items leaves the order and outcome of
/// resolution exactly as if every item were evaluated each time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Waiting {
    blocker: u32,
    epoch: u64,
}

impl Waiting {
    /// Not tried yet (or stopped at an error, not at a symbol): evaluate.
    pub(crate) const UNTRIED: Waiting = Waiting {
        blocker: u32::MAX,
        epoch: 0,
    };
}

impl Assembler {
    /// Set symbol `id`'s state (every change but the resolution of a
    /// pending symbol to its value goes through here).
    pub(crate) fn set_symbol_state(&mut self, id: u32, state: SymState) {
        let s = &mut self.symbols[id as usize];
        if matches!(s.state, SymState::Pending(_) | SymState::Eqv(_)) {
            self.redefinitions += 1;
        }
        if matches!(s.state, SymState::Undefined) {
            self.open_fixups.defined(id);
        }
        if matches!(state, SymState::Pending(_)) {
            self.pending_syms.push((id, Waiting::UNTRIED));
        }
        s.state = state;
    }

    /// `e`'s value if it can be evaluated now; `wait` records what it
    /// waits for otherwise (and spares the evaluation while that holds).
    fn try_eval_waiting(&mut self, e: &Expr, wait: &mut Waiting) -> Option<Value> {
        if wait.blocker != u32::MAX
            && wait.epoch == self.redefinitions
            && matches!(
                self.symbols[wait.blocker as usize].state,
                SymState::Undefined
            )
        {
            return None;
        }
        #[cfg(test)]
        tests::EVALS.set(tests::EVALS.get() + 1);
        match self.try_eval_blocker(e) {
            Ok(v) => Some(v),
            Err(blocker) => {
                *wait = Waiting {
                    blocker: blocker.unwrap_or(u32::MAX),
                    epoch: self.redefinitions,
                };
                None
            }
        }
    }

    /// CLRX resolves a forward reference as soon as its expression can be
    /// evaluated (when the symbols it waits for get values), not at the end:
    /// `.int x; x=1; x=2` writes 1. Called after an assignment to a symbol
    /// that was referenced while undefined: pending symbols (in the order
    /// of their ids), data and instruction fixups (in the order they were
    /// made) that can be evaluated now are resolved.
    pub(crate) fn resolve_ready(&mut self) {
        #[cfg(test)]
        if tests::REFERENCE.get() {
            return self.resolve_ready_reference();
        }
        let mut pending = std::mem::take(&mut self.pending_syms);
        pending.sort_by_key(|p| p.0);
        pending.dedup_by_key(|p| p.0);
        pending.retain_mut(|(id, wait)| {
            let SymState::Pending(e) = self.symbols[*id as usize].state.clone() else {
                return false;
            };
            match self.try_eval_waiting(&e, wait) {
                Some(v) => {
                    self.symbols[*id as usize].state = SymState::Value(v);
                    false
                }
                None => true,
            }
        });
        // (Symbols made pending meanwhile: none, evaluation defines nothing.)
        self.pending_syms = pending;
        let mut data_fixups = std::mem::take(&mut self.data_fixups);
        data_fixups.retain_mut(|f| match self.try_eval_waiting(&f.expr, &mut f.wait) {
            Some(v) => {
                self.write_data(f.section, f.offset, f.size, v, f.expr.pos());
                false
            }
            None => true,
        });
        self.data_fixups = data_fixups;
        // Back-end fixups keep their value and are applied at the end, after
        // `end_of_source` (a back end may emit its bytes only then). Only
        // those that may be ready are visited ([`OpenFixups::candidates`]).
        let fixups = std::mem::take(&mut self.fixups);
        for i in self.open_fixups.candidates(self.redefinitions) {
            let mut wait = self.open_fixups.wait(i);
            match self.try_eval_waiting(&fixups[i as usize].expr, &mut wait) {
                Some(v) => {
                    self.open_fixups.resolved(i);
                    self.resolved_fixups.push((i, v));
                }
                None => self.open_fixups.blocked(i, wait),
            }
        }
        self.open_fixups.epoch = self.redefinitions;
        self.fixups = fixups;
    }
}

/// The back-end fixups not resolved yet, indexed by what they wait for, so
/// that a resolution visits only those that may be ready rather than all
/// (a source ending in thousands of `label = . - N`, each resolving a branch
/// or two of thousands waiting, spent a tenth of its time scanning them).
///
/// A fixup that waits for an undefined symbol with no redefinition since
/// ([`Waiting`]) stays "not yet" until that symbol gets a state
/// ([`Assembler::set_symbol_state`] reports it: [`OpenFixups::defined`]) or
/// a pending or lazy symbol is redefined (then every fixup is visited).
/// The fixups visited are evaluated in the order they were made, as by a
/// scan of all; the others would have been skipped by the scan.
#[derive(Debug, Default)]
pub(crate) struct OpenFixups {
    /// What each fixup waited for when last tried (`None`: resolved).
    waits: Vec<Option<Waiting>>,
    /// Fixups to evaluate at the next resolution: new ones, and those whose
    /// evaluation stopped at an error rather than at a symbol.
    retry: Vec<u32>,
    /// The fixups waiting for each undefined symbol.
    by_blocker: rustc_hash::FxHashMap<u32, Vec<u32>>,
    /// Symbols that got a state since the last resolution (while any
    /// fixup waited for a symbol).
    defined: Vec<u32>,
    /// [`Assembler::redefinitions`] at the last resolution.
    pub(crate) epoch: u64,
}

impl OpenFixups {
    /// Fixup `i` was made.
    pub(crate) fn add(&mut self, i: u32) {
        debug_assert_eq!(i as usize, self.waits.len());
        self.waits.push(Some(Waiting::UNTRIED));
        self.retry.push(i);
    }

    /// Whether fixup `i` is not resolved yet.
    pub(crate) fn is_open(&self, i: u32) -> bool {
        self.waits[i as usize].is_some()
    }

    /// Symbol `id`, undefined, gets a state.
    pub(crate) fn defined(&mut self, id: u32) {
        if !self.by_blocker.is_empty() {
            self.defined.push(id);
        }
    }

    /// The open fixups that may be ready, in the order they were made
    /// (`epoch`: [`Assembler::redefinitions`] now).
    fn candidates(&mut self, epoch: u64) -> Vec<u32> {
        let mut c = std::mem::take(&mut self.retry);
        if epoch != self.epoch {
            for (_, v) in self.by_blocker.drain() {
                c.extend(v);
            }
        } else {
            for id in &self.defined {
                if let Some(v) = self.by_blocker.remove(id) {
                    c.extend(v);
                }
            }
        }
        self.defined.clear();
        c.sort_unstable();
        c
    }

    fn wait(&self, i: u32) -> Waiting {
        self.waits[i as usize].unwrap_or(Waiting::UNTRIED)
    }

    /// Fixup `i` got its value.
    pub(crate) fn resolved(&mut self, i: u32) {
        self.waits[i as usize] = None;
    }

    /// Fixup `i` is not ready: it waits for `wait`.
    fn blocked(&mut self, i: u32, wait: Waiting) {
        self.waits[i as usize] = Some(wait);
        if wait.blocker == u32::MAX {
            self.retry.push(i);
        } else {
            self.by_blocker.entry(wait.blocker).or_default().push(i);
        }
    }
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
