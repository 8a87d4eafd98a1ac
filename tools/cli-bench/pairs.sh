#!/bin/sh
# `risa asm` and `risa disasm` against their peers in alternation: RUNS
# pairs (risa, then the peer, right after), and the median of the pairs'
# throughput ratios (the peer's wall time / risa's). On a shared host whose
# speed drifts by tens of percent over minutes, five risa runs followed by
# five peer runs (asm.sh, disasm.sh) compare two different machines; a pair
# compares the same one.
#
# usage: tools/cli-bench/pairs.sh DIR [RUNS (7)] [CHIPS (tahiti hawaii fiji gfx900)]
#   DIR: made by tools/cli-bench/inputs.sh (CHIP.bin, CHIP.clrx.ok.s, CHIP.llvm.ok.s;
#   CHIP.hex, llvm-mc's input, is made here once as disasm.sh makes it)
# Peers: clrxasm and clrxdisasm (CLRX syntax), llvm-mc (LLVM syntax: `asm`
# for every chip, `disasm` for the chips it reads, fiji and gfx900).
# ONLY=TEXT runs the comparisons whose name holds TEXT ("asm (CLRX)",
# "asm --syntax llvm", "disasm vs", ...).
set -eu
dir=$1
runs=${2:-7}
chips=${3:-tahiti hawaii fiji gfx900}
root=$(cd "$(dirname "$0")/../.." && pwd)
risa=${RISA:-$root/target/release/risa}
bin=${CLRX_BIN:-$HOME/.cache/risa-oracles/bin}
(cd "$root" && cargo build -q --release -p risa-cli --bin risa)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/cli-bench/measure.sh"

# pairs NAME "RISA COMMAND" "PEER COMMAND": RUNS alternations (commands
# split at blanks: paths without blanks); prints the medians of both tools'
# wall times and of the pairs' ratios (the peer's stdin: $PEER_STDIN).
pairs() {
    case "$1" in *"${ONLY:-}"*) ;; *) return 0 ;; esac
    : > "$tmp/r"
    : > "$tmp/p"
    : > "$tmp/q"
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086
        rt=$(time_rss $2 | cut -d' ' -f1)
        # shellcheck disable=SC2086
        pt=$(STDIN=${PEER_STDIN:-/dev/null} time_rss $3 | cut -d' ' -f1)
        if [ -z "$rt" ] || [ -z "$pt" ]; then
            echo "$1: a run failed (above)" >&2
            exit 1
        fi
        echo "$rt" >> "$tmp/r"
        echo "$pt" >> "$tmp/p"
        echo "$(ratio "$pt" "$rt")" >> "$tmp/q"
        i=$((i + 1))
    done
    echo "$1: risa $(median "$tmp/r" 1) s, peer $(median "$tmp/p" 1) s, median ratio" \
        "x$(median "$tmp/q" 1) (ratios $(sort -g "$tmp/q" | tr '\n' ' '))"
}

for c in $chips; do
    pairs "$c asm (CLRX) vs clrxasm" "$risa asm --arch $c -o $tmp/r.bin $dir/$c.clrx.ok.s" \
        "$bin/clrxasm -g $c -b rawcode -o $tmp/p.bin $dir/$c.clrx.ok.s"
    pairs "$c asm --syntax llvm vs llvm-mc" \
        "$risa asm --arch $c --syntax llvm -o $tmp/r.bin $dir/$c.llvm.ok.s" \
        "llvm-mc -arch=amdgcn -mcpu=$c -filetype=obj -o $tmp/p.o $dir/$c.llvm.ok.s"
    pairs "$c disasm vs clrxdisasm" "$risa disasm --arch $c $dir/$c.bin" "$bin/clrxdisasm -r -g $c $dir/$c.bin"
    case $c in fiji | gfx900) ;; *) continue ;; esac
    hex_text "$dir/$c.bin" "$dir/$c.hex"
    PEER_STDIN=$dir/$c.hex pairs "$c disasm --syntax llvm vs llvm-mc" \
        "$risa disasm --arch $c --syntax llvm $dir/$c.bin" "llvm-mc -arch=amdgcn -mcpu=$c --disassemble"
done
