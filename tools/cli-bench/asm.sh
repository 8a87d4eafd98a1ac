#!/bin/bash
# `risa asm` against clrxasm (CLRX syntax) and llvm-mc (LLVM syntax), side by
# side on the same sources: medians of RUNS runs of wall time and peak RSS
# (/usr/bin/time -v), and the ratios.
#
# usage: tools/cli-bench/asm.sh DIR [CHIPS ("tahiti hawaii fiji gfx900")] [RUNS (5)]
#   DIR holds CHIP.clrx.s and CHIP.llvm.s from tools/cli-bench/inputs.sh DIR 2000000.
#   LLVM_RUNS (default RUNS) sets the llvm-mc runs (about 10 s each on 2 M lines).
#
# Lines a peer rejects (clrxasm refuses some of risa's CLRX text: its own
# limits, docs/clrx-differences.md) are left out of both tools' input first,
# so that both assemble the same complete file: DIR/CHIP.clrx.ok.s,
# DIR/CHIP.llvm.ok.s. The outputs are compared (raw code from clrxasm; the
# .text of llvm-mc's object): the bytes must be equal.
set -eu
dir=$1
chips=${2:-tahiti hawaii fiji gfx900}
runs=${3:-5}
llvm_runs=${LLVM_RUNS:-$runs}
root=$(cd "$(dirname "$0")/../.." && pwd)
clrxasm=${CLRXASM:-$HOME/.cache/risa-oracles/bin/clrxasm}
risa=$root/target/release/risa
(cd "$root" && cargo build -q --release -p risa-cli)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/cli-bench/measure.sh"

# Drops the lines named in "FILE:LINE:COL: error" messages of $2 from $1.
drop_errors() {
    grep -oE '^[^:]+:[0-9]+:[0-9]+: ([Ee]rror)' "$2" | cut -d: -f2 | sort -un > "$tmp/bad" || true
    awk 'NR == FNR { bad[$1] = 1; next } !(FNR in bad)' "$tmp/bad" "$1"
}

row() { # name file
    printf "%-34s %8.3f s %8.1f MB\n" "$1" "$(median "$2" 1)" "$(echo "$(median "$2" 2) / 1024" | bc -l)"
}

compare() { # label risa-file peer-file
    printf "%-34s throughput %sx the peer's, peak memory %sx the peer's\n" "$1" \
        "$(ratio "$(median "$3" 1)" "$(median "$2" 1)")" "$(ratio "$(median "$2" 2)" "$(median "$3" 2)")"
}

for c in $chips; do
    echo "== $c ($(wc -l < "$dir/$c.clrx.s") CLRX lines, $(wc -l < "$dir/$c.llvm.s") LLVM lines), medians of $runs runs"
    # (Dropping lines moves branches: a few passes, until the peer takes it.)
    if [ ! -f "$dir/$c.clrx.ok.s" ]; then
        cp "$dir/$c.clrx.s" "$tmp/in.s"
        for _ in 1 2 3 4 5 6; do
            "$clrxasm" -b rawcode -g "$c" -o "$tmp/x.bin" "$tmp/in.s" 2> "$tmp/err" && break
            drop_errors "$tmp/in.s" "$tmp/err" > "$tmp/next.s"
            mv "$tmp/next.s" "$tmp/in.s"
        done
        mv "$tmp/in.s" "$dir/$c.clrx.ok.s"
    fi
    if [ ! -f "$dir/$c.llvm.ok.s" ]; then
        cp "$dir/$c.llvm.s" "$tmp/in.s"
        for _ in 1 2 3 4 5 6; do
            llvm-mc -arch=amdgcn -mcpu="$c" -filetype=obj -o "$tmp/x.o" "$tmp/in.s" 2> "$tmp/err" && break
            drop_errors "$tmp/in.s" "$tmp/err" > "$tmp/next.s"
            mv "$tmp/next.s" "$tmp/in.s"
        done
        mv "$tmp/in.s" "$dir/$c.llvm.ok.s"
    fi
    echo "   (inputs the peers take whole: $(wc -l < "$dir/$c.clrx.ok.s") CLRX lines, $(wc -l < "$dir/$c.llvm.ok.s") LLVM lines)"
    : > "$tmp/r.clrx"; : > "$tmp/p.clrx"; : > "$tmp/r.llvm"; : > "$tmp/p.llvm"
    for _ in $(seq "$runs"); do
        time_rss "$risa" asm --arch "$c" -o "$tmp/r.bin" "$dir/$c.clrx.ok.s" >> "$tmp/r.clrx"
        time_rss "$clrxasm" -b rawcode -g "$c" -o "$tmp/c.bin" "$dir/$c.clrx.ok.s" >> "$tmp/p.clrx"
    done
    cmp -s "$tmp/r.bin" "$tmp/c.bin" && same=identical || same=DIFFERENT
    row "risa asm (CLRX)" "$tmp/r.clrx"
    row "clrxasm -b rawcode" "$tmp/p.clrx"
    compare "risa vs clrxasm (bytes $same):" "$tmp/r.clrx" "$tmp/p.clrx"
    for _ in $(seq "$runs"); do
        time_rss "$risa" asm --arch "$c" --syntax llvm -o "$tmp/r.bin" "$dir/$c.llvm.ok.s" >> "$tmp/r.llvm"
    done
    for _ in $(seq "$llvm_runs"); do
        time_rss llvm-mc -arch=amdgcn -mcpu="$c" -filetype=obj -o "$tmp/l.o" "$dir/$c.llvm.ok.s" >> "$tmp/p.llvm"
    done
    llvm-objcopy -O binary --only-section=.text "$tmp/l.o" "$tmp/l.bin"
    cmp -s "$tmp/r.bin" "$tmp/l.bin" && same=identical || same=DIFFERENT
    row "risa asm --syntax llvm" "$tmp/r.llvm"
    row "llvm-mc -filetype=obj" "$tmp/p.llvm"
    compare "risa vs llvm-mc (bytes $same):" "$tmp/r.llvm" "$tmp/p.llvm"
done
