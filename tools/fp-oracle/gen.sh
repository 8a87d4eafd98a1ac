#!/bin/sh
# Regenerates crates/fp/tests/data/vectors.txt from the host's IEEE arithmetic
# (x86-64 with FMA3; gcc or clang with _Float16). See oracle.c for the method.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../crates/fp/tests/data/vectors.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-gcc}
# -frounding-math: no constant folding or reordering across fesetround.
"$cc" -O1 -frounding-math -mfma -o "$tmp/selfcheck" "$here/selfcheck.c" -lm
"$tmp/selfcheck"
"$cc" -O1 -frounding-math -mfma -o "$tmp/oracle" "$here/oracle.c" -lm
mkdir -p "$(dirname "$out")"
"$tmp/oracle" > "$out"
wc -l "$out"
