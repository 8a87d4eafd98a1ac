#!/bin/sh
# Noise-free assembler cost: instructions (Ir) per source line under
# callgrind, from the `assemble` bench. Two runs differing only in the
# number of timed gcn-asm runs (1 vs 3): the difference is two assemblies,
# so setup, source generation and the core-alone loop cancel out.
#   tools/gcn-asm/ir_per_line.sh [lines]   (default 50000)
set -e
lines=${1:-50000}
cargo bench -p risa-gcn-asm --no-run 2>/dev/null
bin=$(ls -t target/release/deps/assemble-* | grep -v '\.d$' | head -1)
ir() {
    RISA_BENCH_LINES=$lines RISA_BENCH_RUNS=$1 valgrind --tool=callgrind \
        --callgrind-out-file=/tmp/ir_per_line.$$.$1 "$bin" >/dev/null 2>/tmp/ir_per_line.$$.err
    grep -o 'Collected : [0-9]*' /tmp/ir_per_line.$$.err | grep -o '[0-9]*$'
}
a=$(ir 1)
b=$(ir 3)
echo "lines=$lines  Ir per line (gcn-asm assemble): $(( (b - a) / 2 / lines ))"
echo "callgrind output of the 3-run profile: /tmp/ir_per_line.$$.3"
