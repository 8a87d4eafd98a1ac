#!/bin/sh
# Two or more builds of risa on one command, in alternation: RUNS rounds,
# each running every binary once, and per binary the medians of the CPU
# time (user + sys) and the wall time. A change too small for the host's
# drift between separate runs (tens of percent over minutes) shows in
# alternating runs; the CPU time shows it even where the wall time is
# bounded by the cores.
#
# usage: tools/cli-bench/ab.sh RUNS BIN... -- ARGS...
#   e.g. tools/cli-bench/ab.sh 9 /tmp/risa-old target/release/risa -- \
#            disasm --arch tahiti /work/cli-in/tahiti.bin
# Each binary runs `BIN ARGS...` with stdout to /dev/null (ARGS split at
# blanks: paths without blanks).
set -eu
runs=$1
shift
bins=
while [ "$1" != "--" ]; do
    bins="$bins $1"
    shift
done
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$root/tools/cli-bench/measure.sh"

k=0
while [ $k -lt "$runs" ]; do
    n=0
    for b in $bins; do
        # (time_rss prints "SECONDS KBYTES CPU_SECONDS".)
        time_rss "$b" "$@" >> "$tmp/$n"
        n=$((n + 1))
    done
    k=$((k + 1))
done
n=0
for b in $bins; do
    echo "$b: cpu $(median "$tmp/$n" 3) s, wall $(median "$tmp/$n" 1) s (medians of $runs)"
    n=$((n + 1))
done
