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
        // `end_of_source` (a back end may emit its bytes only then).
        let fixups = std::mem::take(&mut self.fixups);
        let mut waits = std::mem::take(&mut self.fixup_waits);
        let mut keep = Vec::with_capacity(fixups.len());
        let mut keep_waits = Vec::with_capacity(fixups.len());
        for (f, mut wait) in fixups.into_iter().zip(waits.drain(..)) {
            match self.try_eval_waiting(&f.expr, &mut wait) {
                Some(v) => self.resolved_fixups.push((f, v)),
                None => {
                    keep.push(f);
                    keep_waits.push(wait);
                }
            }
        }
        self.fixups = keep;
        self.fixup_waits = keep_waits;
    }
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
