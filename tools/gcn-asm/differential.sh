#!/bin/sh
# Differential test of the GCN assembler against llvm-mc, every generation:
# N random instructions of every form (LLVM syntax) are assembled by
# `llvm-mc -filetype=obj` and by `risa asm`; the .text bytes must be equal.
# Lines llvm-mc rejects (none since the generator models LLVM 14's rules;
# kept as a guard) are dropped first and counted.
# Usage: tools/gcn-asm/differential.sh [N] [SEED]   (from the repository root)
set -e
N=${1:-50000}
SEED=${2:-1}
cargo build -q --release -p risa-cli
cargo build -q --release -p risa-gcn-asm --example gen_bench_source
T=$(mktemp -d)
status=0
for g in tahiti:gcn1.0 hawaii:gcn1.1 fiji:gcn1.2 gfx900:gcn1.4; do
    cpu=${g%%:*}; gen=${g##*:}
    ./target/release/examples/gen_bench_source "$N" "$gen" "$SEED" > "$T/$gen.all.s"
    llvm-mc -arch=amdgcn -mcpu="$cpu" -filetype=null "$T/$gen.all.s" 2>&1 \
        | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: error:.*/\1/p' | sort -un > "$T/$gen.rejected"
    awk -v rej="$T/$gen.rejected" 'BEGIN { while ((getline l < rej) > 0) bad[l] = 1 } !(NR in bad)' \
        "$T/$gen.all.s" > "$T/$gen.s"
    dropped=$(wc -l < "$T/$gen.rejected")
    llvm-mc -arch=amdgcn -mcpu="$cpu" -filetype=obj "$T/$gen.s" -o "$T/$gen.o" 2> "$T/$gen.err" || true
    llvm-objcopy -O binary --only-section=.text "$T/$gen.o" "$T/$gen.llvm.bin"
    ./target/release/risa asm --arch "$gen" --syntax llvm -o "$T/$gen.risa.bin" "$T/$gen.s"
    if cmp -s "$T/$gen.llvm.bin" "$T/$gen.risa.bin" && [ ! -s "$T/$gen.err" ]; then
        echo "$gen: $(wc -l < "$T/$gen.s") lines identical ($(wc -c < "$T/$gen.risa.bin") bytes; $dropped of $N dropped: llvm-mc rejects them)"
    else
        echo "$gen: DIFFERENT (llvm-mc errors: $(grep -c error "$T/$gen.err"); files in $T)"
        status=1
    fi
done
[ $status = 0 ] && rm -rf "$T"
exit $status
