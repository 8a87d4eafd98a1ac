#!/bin/sh
# Inputs of the command-line benchmarks against CLRX and llvm-mc: per chip,
# N random valid instructions (every form, picked at random) as raw code,
# and the same code as CLRX-syntax and LLVM-syntax sources printed by risa.
#
# usage: tools/cli-bench/inputs.sh OUTDIR [N (2000000)] [CHIPS (tahiti hawaii fiji gfx900)]
# writes OUTDIR/CHIP.bin, OUTDIR/CHIP.clrx.s, OUTDIR/CHIP.llvm.s
set -eu
out=$1
n=${2:-2000000}
chips=${3:-tahiti hawaii fiji gfx900}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cargo build -q --release -p risa-cli --bin risa -p risa-gcn --example garbage
mkdir -p "$out"
for c in $chips; do
    target/release/examples/garbage "$c" "$n" 1 "$out/$c.bin" --valid
    target/release/risa disasm --arch "$c" "$out/$c.bin" > "$out/$c.clrx.s"
    target/release/risa disasm --arch "$c" --syntax llvm "$out/$c.bin" > "$out/$c.llvm.s"
    echo "$c: $(($(wc -c < "$out/$c.bin") / 4)) words, $(wc -l < "$out/$c.clrx.s") lines"
done
