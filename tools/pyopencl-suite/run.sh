#!/usr/bin/env bash
# PyOpenCL's own test suite (the version Debian ships) against one OpenCL
# device: risa's or PoCL's, side by side.
#   tools/pyopencl-suite/run.sh WORKDIR DEVSPEC [SECONDS] [TESTFILES...]
# DEVSPEC is PyOpenCL's PYOPENCL_TEST syntax: risa:gfx900, risa:cayman,
# portable (PoCL). OCL_ICD_VENDORS must name a directory holding risa.icd
# (risa opencl install DIR) and, for the comparison, pocl.icd. One line per
# test (-v) so a run cut by the time limit still shows what passed.
set -euo pipefail
work=$1 spec=$2 secs=${3:-600}
shift $(( $# >= 3 ? 3 : 2 ))
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(test_wrapper.py test_enqueue_copy.py test_arrays_in_structs.py test_clmath.py test_array.py test_algorithm.py test_clrandom.py)
ver=$(dpkg-query -W -f '${Version}' python3-pyopencl | sed 's/-.*//')
mkdir -p "$work" && cd "$work"
if [ ! -d "pyopencl-$ver" ]; then
  # pip fetches the sdist, then fails to build its metadata without a
  # compiler toolchain for pybind11; the tarball is all we need.
  python3 -m pip download --no-deps --no-binary :all: --no-build-isolation "pyopencl==$ver" -d . >/dev/null 2>&1 || true
  tar=$(ls pyopencl-"$ver".tar.gz 2>/dev/null || find /tmp -maxdepth 2 -name "pyopencl-$ver.tar.gz" | head -1)
  tar xzf "$tar"
fi
cd "pyopencl-$ver/test"
PYOPENCL_NO_CACHE=1 PYOPENCL_TEST="$spec" timeout "$secs" /usr/bin/python3 -m pytest -v -p no:cacheprovider -rfE "${files[@]}" || true
