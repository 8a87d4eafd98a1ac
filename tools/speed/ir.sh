#!/bin/bash
# Noise-free speed figures of issue 11 (decode+print, assembler) as callgrind
# instruction counts, for side-by-side comparisons of two commits (wall time
# drifts on the shared machine; instruction counts do not).
#
# usage: tools/speed/ir.sh OUT [ROOT]
#   ROOT (default: this worktree) is the tree measured; OUT holds the inputs,
#   made once from this worktree's fixtures so that both commits read the
#   same bytes:
#   - OUT/{fiji,gfx900}.clang.bin: the .text of every clang fixture of
#     tests/fixtures/gcn/CHIP (sorted by name), repeated and cut to 1.0 M
#     words (the bench's "clang kernels" corpus);
#   - OUT/bench20k.s: 20,000 lines of `gen_bench_source` (LLVM syntax,
#     GCN 1.4), written by ROOT's generator the first time.
# Counted: decode+print of the corpus (crates/gcn/examples/dp_count.rs, the
# call of `run` only) and one assembly of bench20k.s
# (crates/gcn-asm/examples/asm_count.rs, `run` only). An older tree needs
# copies of the two examples (at 72856f5, asm_count calls
# `risa_gcn_asm::assemble(Some(Gen::Gcn14), ..)`: there is one dialect).
set -eu
out=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
root=${2:-$here}
mkdir -p "$out"
for c in fiji gfx900; do
    [ -s "$out/$c.clang.bin" ] && continue
    : > "$out/$c.one"
    for o in $(ls "$here"/tests/fixtures/gcn/$c/*.o | LC_ALL=C sort); do
        llvm-objcopy -O binary --only-section=.text "$o" "$out/t.bin"
        cat "$out/t.bin" >> "$out/$c.one"
    done
    python3 -c "
import sys
one = open(sys.argv[1], 'rb').read()
out = one * (4_000_000 // len(one) + 1)
open(sys.argv[2], 'wb').write(out[:4_000_000])" "$out/$c.one" "$out/$c.clang.bin"
done
(cd "$root" && cargo build -q --release -p risa-gcn --example dp_count \
    && cargo build -q --release -p risa-gcn-asm --example asm_count --example gen_bench_source)
[ -s "$out/bench20k.s" ] || "$root/target/release/examples/gen_bench_source" 20000 > "$out/bench20k.s"
count() { # name toggle cmd...
    local name=$1 toggle=$2
    shift 2
    valgrind --tool=callgrind --toggle-collect="$toggle" --callgrind-out-file="$out/cg.$name" "$@" \
        2>&1 >/dev/null | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$'
}
echo "$root"
echo "decode+print GCN 1.2: $(count dp12 'dp_count::run*' "$root/target/release/examples/dp_count" gcn1.2 "$out/fiji.clang.bin") Ir"
echo "decode+print GCN 1.4: $(count dp14 'dp_count::run*' "$root/target/release/examples/dp_count" gcn1.4 "$out/gfx900.clang.bin") Ir"
echo "assembler, 20,000 lines: $(count asm 'asm_count::run*' "$root/target/release/examples/asm_count" "$out/bench20k.s") Ir ($("$root/target/release/examples/asm_count" "$out/bench20k.s"))"
