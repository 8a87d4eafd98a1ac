#!/usr/bin/env bash
# Every mutant of the run-time checkers' mutant test (crates/cli/tests/check_mutants.rs):
# each PoCL corpus kernel on every GCN chip and toolchain with one s_waitcnt
# removed or weakened, one instruction moved above its wait, or one s_barrier
# removed; prints mutants / changed outputs / found at the right PC per
# generation and kind (docs/checks.md quotes the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
RISA_MUTANTS=all cargo test --release -p risa-cli --test check_mutants -- --nocapture 2>/dev/null |
  sed -n '/^generation/,/^test result/p'
