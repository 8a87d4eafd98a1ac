#!/bin/sh
# Rebuild the Cayman test fixtures from the OpenCL C sources in tests/kernels.
# For each kernel K.cl this writes tests/fixtures/cayman/K.o (r600 ELF object
# produced by clang's integrated assembler) and K.s (llc's text output with
# -show-mc-encoding, the reference the agreement test compares against).
# Needs: apt-get install -y clang-14 libclc-14 lld-14
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC="$ROOT/tests/kernels"
OUT="$ROOT/tests/fixtures/cayman"
CLANG=${CLANG:-clang-14}
LLC=${LLC:-llc-14}
CLC=${CLC:-$(dpkg -L libclc-14 | grep 'cayman-r600--.bc$')}
COMMON="-x cl -cl-std=CL1.2 -Xclang -finclude-default-header -O2 -Xclang -cl-ext=+cl_khr_fp64"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
for cl in "$SRC"/*.cl; do
  k=$(basename "$cl" .cl)
  # shellcheck disable=SC2086
  if ! $CLANG $COMMON -target r600-- -mcpu=cayman -fintegrated-as \
      -Xclang -mlink-builtin-bitcode -Xclang "$CLC" -c "$cl" -o "$OUT/$k.o" 2>"$TMP/err"; then
    echo "skip $k (clang failed: $(head -1 "$TMP/err"))" >&2
    rm -f "$OUT/$k.o" "$OUT/$k.s"
    fail=$((fail + 1))
    continue
  fi
  # shellcheck disable=SC2086
  $CLANG $COMMON -target r600-- -mcpu=cayman \
    -Xclang -mlink-builtin-bitcode -Xclang "$CLC" -emit-llvm -c "$cl" -o "$TMP/$k.bc"
  $LLC -march=r600 -mcpu=cayman -show-mc-encoding "$TMP/$k.bc" -o "$OUT/$k.s"
  echo "built $k"
done
echo "done ($fail skipped)"
