#!/bin/sh
# `risa disasm` side by side with clrxdisasm (CLRX syntax) and llvm-mc
# --disassemble (LLVM syntax) on the inputs of tools/cli-bench/inputs.sh:
# medians of RUNS runs of wall time and peak RSS (/usr/bin/time -v), and
# the ratios (throughput: the other tool's time / risa's; memory: risa's
# peak / the other's).
#
# usage: tools/cli-bench/disasm.sh DIR [RUNS (5)] [CHIPS (tahiti hawaii fiji gfx900 gfx906)]
#   DIR: made by `tools/cli-bench/inputs.sh DIR 2000000 "tahiti hawaii fiji gfx900 gfx906"`
# One line per chip and syntax (every generation: GCN 1.0, 1.1, 1.2, 1.4).
# llvm-mc reads the code as hex text (DIR/CHIP.hex, made here once); it
# runs for the chips it disassembles (fiji, gfx900, gfx906).
set -eu
dir=$1
runs=${2:-5}
chips=${3:-tahiti hawaii fiji gfx900 gfx906}
root=$(cd "$(dirname "$0")/../.." && pwd)
risa=${RISA:-$root/target/release/risa}
clrx=${CLRXDISASM:-$HOME/.cache/risa-oracles/bin/clrxdisasm}
(cd "$root" && cargo build -q --release -p risa-cli --bin risa)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/cli-bench/measure.sh"

# runs RUNS times "$@" (stdin from $STDIN): prints the medians "SECONDS KBYTES CPU"
measure() {
    : > "$tmp/runs"
    i=0
    while [ $i -lt "$runs" ]; do
        time_rss "$@" >> "$tmp/runs"
        i=$((i + 1))
    done
    echo "$(median "$tmp/runs" 1) $(median "$tmp/runs" 2) $(median "$tmp/runs" 3)"
}

for c in $chips; do
    bin=$dir/$c.bin
    mb=$(awk -v n="$(wc -c < "$bin")" 'BEGIN { printf "%.1f", n / 1e6 }')
    set -- $(measure "$risa" disasm --arch "$c" "$bin")
    rt=$1 rm=$2 rc=$3
    set -- $(measure "$clrx" -r -g "$c" "$bin")
    ct=$1 cm=$2 cc=$3
    echo "$c ($mb MB) clrx syntax: risa ${rt}s (CPU ${rc}s) ${rm}KB, clrxdisasm ${ct}s (CPU ${cc}s) ${cm}KB:" \
        "throughput x$(ratio "$ct" "$rt") (CPU x$(ratio "$cc" "$rc")), memory x$(ratio "$rm" "$cm") of CLRX's"
    case $c in fiji | gfx900 | gfx906) ;; *) continue ;; esac
    hex=$dir/$c.hex
    hex_text "$bin" "$hex"
    set -- $(measure "$risa" disasm --arch "$c" --syntax llvm "$bin")
    rt=$1 rm=$2 rc=$3
    set -- $(STDIN=$hex measure llvm-mc -arch=amdgcn -mcpu="$c" --disassemble)
    lt=$1 lm=$2 lc=$3
    echo "$c ($mb MB) llvm syntax: risa ${rt}s (CPU ${rc}s) ${rm}KB, llvm-mc ${lt}s (CPU ${lc}s) ${lm}KB:" \
        "throughput x$(ratio "$lt" "$rt") (CPU x$(ratio "$lc" "$rc")), memory x$(ratio "$rm" "$lm") of llvm-mc's"
done
