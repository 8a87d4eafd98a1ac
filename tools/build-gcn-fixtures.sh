#!/usr/bin/env bash
# Rebuilds tests/fixtures/gcn/<chip>/<kernel>.o (and clang's own .s text) from
# tests/kernels/*.cl for tahiti, bonaire, hawaii, tonga, fiji, gfx900 and gfx906 with clang-14 +
# libclc (code object v4). Needs: apt-get install clang-14 libclc-14 lld-14
#
# usage: tools/build-gcn-fixtures.sh [KERNEL...]   (default: every kernel)
#        CHIPS="gfx906" tools/build-gcn-fixtures.sh   (only those chips)
# Kernels are OpenCL C 1.2 unless their first line says `// risa-cl-std: CL2.0`
# (generic address space). A kernel a chip cannot compile (e.g. FLAT on tahiti)
# is skipped with a message and has no object for that chip.
set -euo pipefail
cd "$(dirname "$0")/.."
CLC=$(dirname "$(dpkg -L libclc-14 | grep 'amdgcn--amdhsa.bc$' | head -1)")
if [ $# -gt 0 ]; then
  KERNELS=(); for n in "$@"; do KERNELS+=("tests/kernels/$n.cl"); done
else
  KERNELS=(tests/kernels/*.cl)
fi
# The OpenCL C version of kernel $1: from its `// risa-cl-std:` line, else CL1.2.
std_of() {
  local s
  s=$(sed -n '1s|^// risa-cl-std: *\(CL[0-9.]*\).*|\1|p' "$1")
  echo "${s:-CL1.2}"
}
COMMON=(-x cl -Xclang -finclude-default-header -O2)
read -r -a CHIP_LIST <<< "${CHIPS:-tahiti bonaire hawaii tonga fiji gfx900 gfx906}"
for chip in "${CHIP_LIST[@]}"; do
  out=tests/fixtures/gcn/$chip
  mkdir -p "$out"
  for k in "${KERNELS[@]}"; do
    n=$(basename "$k" .cl)
    flags=("${COMMON[@]}" -cl-std="$(std_of "$k")" -target amdgcn-amd-amdhsa -mcpu=$chip -nogpulib -Wno-linker-warnings
           -Xclang -mlink-builtin-bitcode -Xclang "$CLC/amdgcn--amdhsa.bc")
    if clang-14 "${flags[@]}" -c "$k" -o "$out/$n.o" 2>/dev/null; then
      clang-14 "${flags[@]}" -S "$k" -o "$out/$n.s" 2>/dev/null || true
      # libclc-14 has no image builtins: their calls stay external and the
      # object cannot run (image_rw); such objects are not fixtures.
      if [ -n "$(llvm-nm-14 -u "$out/$n.o" 2>/dev/null || llvm-nm -u "$out/$n.o")" ]; then
        echo "skip $chip/$n: clang-14 leaves external calls" >&2
        rm -f "$out/$n.o" "$out/$n.s"
      fi
    else
      echo "skip $chip/$n: clang-14 cannot build it" >&2
      rm -f "$out/$n.o"
    fi
  done
done
if [ $# -eq 0 ] && [ -z "${CHIPS:-}" ]; then
  mkdir -p examples/gcn
  cp tests/fixtures/gcn/gfx900/vadd.o examples/gcn/vadd-gfx900.o
fi

# Code object v5: clang-19 + ROCm device libraries, into tests/fixtures/gcn-v5/<chip>.
# Needs: apt-get install clang-19 llvm-19 lld-19 rocm-device-libs
if command -v clang-19 >/dev/null && dpkg -L rocm-device-libs >/dev/null 2>&1; then
  ROCM=$(dirname "$(dpkg -L rocm-device-libs | grep 'ockl.bc$' | head -1)")
  for chip in "${CHIP_LIST[@]}"; do
    out=tests/fixtures/gcn-v5/$chip
    mkdir -p "$out"
    for k in "${KERNELS[@]}"; do
      n=$(basename "$k" .cl)
      flags=("${COMMON[@]}" -cl-std="$(std_of "$k")" -target amdgcn-amd-amdhsa -mcpu=$chip --rocm-device-lib-path="$ROCM")
      if clang-19 "${flags[@]}" -c "$k" -o "$out/$n.o" 2>/dev/null; then
        clang-19 "${flags[@]}" -S "$k" -o "$out/$n.s" 2>/dev/null || true
      else
        echo "skip v5 $chip/$n: clang-19 cannot build it" >&2
        rm -f "$out/$n.o"
      fi
    done
  done
  if [ $# -eq 0 ] && [ -z "${CHIPS:-}" ]; then
    # A linked code object (what a ROCm runtime loads), for the loader's .co path.
    ld.lld-19 -shared tests/fixtures/gcn-v5/gfx900/vadd.o -o tests/fixtures/gcn-v5/gfx900/vadd.co
    ld.lld-14 -shared tests/fixtures/gcn/gfx900/libm_float.o -o tests/fixtures/gcn/gfx900/libm_float.co
  fi
else
  echo "clang-19 or rocm-device-libs missing: code object v5 fixtures not rebuilt" >&2
fi
