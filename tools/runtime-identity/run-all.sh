#!/usr/bin/env bash
# Runs `risa run` over every PoCL-corpus case on every object built from its
# source (tests/kernels/pocl/cases.txt), plus the README examples, with
# --stats, --trace and --profile variants; writes one line per run (exit code,
# stdout, stderr without the wall-clock/rate lines, a hash of every output
# file) to OUT. Compare two OUTs with diff to show a refactor changed nothing.
# usage: tools/runtime-identity/run-all.sh RISA_BINARY OUT
set -u
risa=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$root/tests/kernels/pocl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$out"
strip() { grep -v -e '^wall time:' -e '^rate:' -e '^cpu time:' -e 'M wave-instructions' || true; }
one() { # label, args...
  local label=$1; shift
  rm -rf "$tmp/o"; mkdir -p "$tmp/o"
  "$risa" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; local rc=$?
  {
    echo "== $label rc=$rc"
    cat "$tmp/stdout"
    strip <"$tmp/stderr" | sed "s#$tmp#TMP#g"
    (cd "$tmp/o" && find . -type f | sort | xargs -r md5sum)
  } >>"$out"
}
while read -r name src kernel grid block offset specs; do
  case $name in ''|'#'*) continue;; esac
  for obj in "$root"/tests/fixtures/cayman/"$src".o "$root"/tests/fixtures/gcn/*/"$src".o "$root"/tests/fixtures/gcn-v5/*/"$src".o; do
    [ -e "$obj" ] || continue
    args=(run "$obj" --kernel "$kernel" --grid "$grid" --block "$block" --threads 1 --llvm-r600-atomics --out "$tmp/o" --stats)
    [ "$offset" != - ] && args+=(--offset "$offset")
    i=0
    for s in $specs; do
      kind=${s%%:*} rest=${s#*:}
      case $kind in
        in) args+=(--arg "buf:$dir/$name.in$i.bin");;
        zeros) args+=(--arg "buf:zeros:$rest");;
        *) args+=(--arg "$s");;
      esac
      i=$((i+1))
    done
    one "$name ${obj#$root/}" "${args[@]}"
  done
done <"$dir/cases.txt"
# README / docs examples, partial groups, traces, profiles, bad input.
fx=$root/tests/fixtures
one "cayman vadd 1000" run "$fx/cayman/vadd.o" --grid 1000 --arg buf:f32:0..1000 --arg buf:f32:0..1000 --arg buf:zeros:4000 --arg u32:1000 --print 2 --stats --out "$tmp/o"
one "gcn vadd 1000" run "$root/examples/gcn/vadd-gfx900.o" --grid 1000 --arg buf:f32:0..1000 --arg buf:f32:0..1000 --arg buf:zeros:4000 --arg i32:1000 --print 2 --stats --out "$tmp/o"
one "cayman vadd 1000 profile" run "$fx/cayman/vadd.o" --grid 1000 --arg buf:f32:0..1000 --arg buf:f32:0..1000 --arg buf:zeros:4000 --arg u32:1000 --profile --threads 1
one "gcn vadd 1000 profile" run "$root/examples/gcn/vadd-gfx900.o" --grid 1000 --arg buf:f32:0..1000 --arg buf:f32:0..1000 --arg buf:zeros:4000 --arg i32:1000 --profile --threads 1
one "cayman ids 900/128" run "$fx/cayman/ids.o" --grid 900 --block 128 --arg buf:zeros:28800 --stats --out "$tmp/o"
one "gcn ids 900/128" run "$fx/gcn/gfx900/ids.o" --grid 900 --block 128 --arg buf:zeros:28800 --stats --out "$tmp/o"
one "cayman vadd 256 trace" run "$fx/cayman/vadd.o" --grid 256 --arg buf:f32:0..256 --arg buf:f32:0..256 --arg buf:zeros:1024 --arg u32:256 --trace "$tmp/o/trace.txt"
one "gcn vadd 128 trace" run "$fx/gcn/gfx900/vadd.o" --grid 128 --arg buf:f32:0..128 --arg buf:f32:0..128 --arg buf:zeros:512 --arg i32:128 --trace "$tmp/o/trace.txt"
one "cayman lds_scan profile" run "$fx/cayman/lds_scan.o" --grid 1024 --block 256 --arg buf:u32:0..1024 --arg buf:zeros:4096 --profile --threads 1
one "gcn lds_scan profile" run "$fx/gcn/gfx900/lds_scan.o" --grid 1024 --block 256 --arg buf:u32:0..1024 --arg buf:zeros:4096 --profile --threads 1
one "cayman multi no kernel" run "$fx/cayman/multi_kernel.o" --grid 64
one "cayman bad kernel" run "$fx/cayman/vadd.o" --kernel nope --grid 64
one "gcn bad kernel" run "$fx/gcn/gfx900/vadd.o" --kernel nope --grid 64
one "cayman oob" run "$fx/cayman/vadd.o" --grid 256 --arg buf:f32:0..4 --arg buf:f32:0..4 --arg buf:zeros:16 --arg u32:256
one "gcn oob" run "$fx/gcn/gfx900/vadd.o" --grid 256 --arg buf:f32:0..4 --arg buf:f32:0..4 --arg buf:zeros:16 --arg i32:256
one "cayman block too big" run "$fx/cayman/vadd.o" --grid 2048 --block 2048 --arg buf:f32:0..4 --arg buf:f32:0..4 --arg buf:zeros:16 --arg u32:0
one "not elf" run "$root/README.md" --grid 64
one "gcn as cayman img" run "$fx/cayman/vadd.o" --grid 64 --arg img2d:2:2:r32ui:zeros --arg buf:f32:0..4 --arg buf:zeros:16 --arg u32:0
one "cayman check" run "$fx/cayman/vadd.o" --grid 64 --arg buf:f32:0..64 --arg buf:f32:0..64 --arg buf:zeros:256 --arg u32:64 --check all
for s in "$root"/examples/cayman/*.s "$root"/examples/gcn/*.s; do
  one "asm $(basename "$s")" asm "$s" -o "$tmp/o/obj.o"
done
echo >>"$out"; echo "$(grep -c '^== ' "$out") runs" >&2
