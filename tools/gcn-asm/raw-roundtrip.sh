#!/bin/sh
# The raw round trip of the CLI for any bytes (DESIGN.md principle 7):
#   risa disasm --arch A [--syntax S] F > F.s; risa asm --arch A [--syntax S] --format raw F.s
# must give F back, byte for byte, for random code of every encoding and
# opcode (reserved bits, odd registers, literals equal to inline constants,
# undecodable words, ...), per generation and dialect.
#
# usage: tools/gcn-asm/raw-roundtrip.sh [CASES_PER_GEN (default 100000)] [SEED]
# (the per-case pass rate is measured by crates/gcn-asm/tests/raw_roundtrip.rs)
set -u
n=${1:-100000}
seed=${2:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
cargo build -q --release -p risa-cli --bin risa -p risa-gcn --example garbage || exit 2
risa=target/release/risa
gen=target/release/examples/garbage
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for arch in tahiti hawaii fiji gfx900 gfx906; do
    g=$arch
    "$gen" $g "$n" "$seed" "$tmp/$arch.bin" || exit 2
    words=$(($(wc -c < "$tmp/$arch.bin") / 4))
    for syntax in clrx llvm; do
        s="$tmp/$arch.$syntax.s"
        o="$tmp/$arch.$syntax.bin"
        "$risa" disasm --arch $arch --syntax $syntax "$tmp/$arch.bin" > "$s" || { fail=1; continue; }
        if ! "$risa" asm --arch $arch --syntax $syntax --format raw -o "$o" "$s" 2> "$tmp/err"; then
            echo "$arch $syntax: FAIL: $(grep -c 'error:' "$tmp/err") assembler errors, first:"
            grep -m3 -A2 'error:' "$tmp/err"
            fail=1
        elif cmp -s "$tmp/$arch.bin" "$o"; then
            echo "$arch $syntax: ok, $words words identical"
        else
            echo "$arch $syntax: FAIL: bytes differ: $(cmp "$tmp/$arch.bin" "$o" 2>&1 | head -1)"
            fail=1
        fi
    done
done
exit $fail
