#!/bin/sh
# Reprints the CLRX column (the third) of tests/vectors/gcn/*.txt with the
# current printer (`risa disasm --lines`), keeping the words and the LLVM
# text that llvm-mc checked (tools/vectors/gcn-llvm.py makes the files; the
# CLRX column is risa's own text, compared with clrxdisasm by
# tools/vectors/clrx-dis.py).
#
# usage: tools/vectors/reprint-clrx.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cargo build -q --release -p risa-cli --bin risa
for f in tests/vectors/gcn/gcn1.0.txt:tahiti tests/vectors/gcn/gcn1.1.txt:hawaii \
         tests/vectors/gcn/gcn1.2.txt:fiji tests/vectors/gcn/gcn1.4.txt:gfx900 \
         tests/vectors/gcn/gfx906.txt:gfx906; do
    file=${f%%:*}
    chip=${f##*:}
    tmp=$(mktemp)
    grep -v '^#' "$file" | cut -f1 | target/release/risa disasm --arch "$chip" --lines - > "$tmp.clrx"
    {
        grep '^#' "$file"
        grep -v '^#' "$file" | cut -f1,2 | paste - "$tmp.clrx"
    } > "$tmp"
    mv "$tmp" "$file"
    rm -f "$tmp.clrx"
done
