#!/usr/bin/env bash
# Rebuilds tests/fixtures/gcn/<chip>/<kernel>.o (and clang's own .s text) from
# tests/kernels/*.cl for tahiti, hawaii, fiji and gfx900 with clang-14 + libclc
# (code object v4). Needs: apt-get install clang-14 libclc-14 lld-14
set -euo pipefail
cd "$(dirname "$0")/.."
CLC=$(dirname "$(dpkg -L libclc-14 | grep 'amdgcn--amdhsa.bc$' | head -1)")
COMMON=(-x cl -cl-std=CL1.2 -Xclang -finclude-default-header -O2)
for chip in tahiti hawaii fiji gfx900; do
  out=tests/fixtures/gcn/$chip
  mkdir -p "$out"
  for k in tests/kernels/*.cl; do
    n=$(basename "$k" .cl)
    flags=("${COMMON[@]}" -target amdgcn-amd-amdhsa -mcpu=$chip -nogpulib -Wno-linker-warnings
           -Xclang -mlink-builtin-bitcode -Xclang "$CLC/amdgcn--amdhsa.bc")
    if clang-14 "${flags[@]}" -c "$k" -o "$out/$n.o" 2>/dev/null; then
      clang-14 "${flags[@]}" -S "$k" -o "$out/$n.s" 2>/dev/null || true
    else
      echo "skip $chip/$n: clang-14 cannot build it" >&2
      rm -f "$out/$n.o"
    fi
  done
done
mkdir -p examples/gcn
cp tests/fixtures/gcn/gfx900/vadd.o examples/gcn/vadd-gfx900.o
