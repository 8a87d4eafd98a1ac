#!/bin/sh
# Regenerates encodings.txt: the words llvm-mc (the oracle) gives for the
# instructions of every kernel here (the lines after `.text`, without labels
# and comments). tests/gds.rs checks that risa assembles the same words.
set -e
cd "$(dirname "$0")"
for f in *.s; do
    echo "# $f"
    sed -n '/^\.text/,$p' "$f" | grep -v '^\.text' | grep -v '^#' |
        llvm-mc -arch=amdgcn -mcpu=gfx900 -show-encoding |
        sed -n 's/.*encoding: \[\(.*\)\]/\1/p' | tr -d ' '
done > encodings.txt
