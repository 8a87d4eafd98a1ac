#!/usr/bin/env bash
# The cost of the run-time checks on the benchmark kernels (the ones
# crates/runtime/benches/emu.rs runs): `risa run --threads 1` unchecked and
# with --check=LIST, alternated RUNS times, best wall time of each.
# Usage: tools/check-overhead.sh [LIST] [RUNS]   (default waitcnt,hazards 3)
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=${1:-waitcnt,hazards}
RUNS=${2:-3}
cargo build --release -q -p risa-cli
R=target/release/risa
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c $((16 << 18)) /dev/urandom >"$tmp/a.bin"
wall() { "$@" --stats 2>&1 | awk '/^wall time:/ {print $3}'; }
best() { sort -g | head -1; }
printf '%-16s %12s %12s %7s\n' kernel "plain ms" "checked ms" ratio
for chip in gfx900 tahiti; do
  for k in alu_loop mem_copy; do
    obj=tests/fixtures/gcn/$chip/$k.o
    if [ $k = alu_loop ]; then
      args=(--grid 8192 --arg buf:zeros:32768 --arg i32:3000)
    else
      args=(--grid $((1 << 18)) --arg buf:"$tmp/a.bin" --arg buf:"$tmp/a.bin" --arg buf:zeros:$((16 << 18)))
    fi
    : >"$tmp/p"; : >"$tmp/c"
    for _ in $(seq "$RUNS"); do
      wall $R run "$obj" --threads 1 "${args[@]}" >>"$tmp/p"
      wall $R run "$obj" --threads 1 "${args[@]}" --check="$LIST" >>"$tmp/c"
    done
    p=$(best <"$tmp/p"); c=$(best <"$tmp/c")
    printf '%-16s %12s %12s %7.2f\n' "$k/$chip" "$p" "$c" "$(echo "$c / $p" | bc -l)"
  done
done
