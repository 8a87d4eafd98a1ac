#!/usr/bin/python3
"""Writes the expected outputs of tests/kernels/pocl/cases.txt from PoCL.

For every case: generates its random inputs (deterministic per case), runs the
kernel on the first PoCL device through pyopencl, and writes
tests/kernels/pocl/<case>.in<I>.bin (inputs) and <case>.arg<I>.bin (every buffer
argument after the run). Run with Debian's Python (pyopencl, numpy):

    /usr/bin/python3 tools/pocl-expected.py [CASE...]
"""

import struct
import sys
from pathlib import Path

import numpy as np
import pyopencl as cl

ROOT = Path(__file__).resolve().parents[1]
DIR = ROOT / "tests/kernels/pocl"
TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
         "float": np.float32}


def cases():
    for line in (DIR / "cases.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            f = line.split()
            yield f[0], f[1], f[2], f[3], f[4], f[5], f[6:]


def dims(text):
    return [int(x) for x in text.split(",")]


def random_values(ty, n, seed):
    """n values of numpy type `ty`: uniform bits, a quarter replaced by extremes."""
    rng = np.random.default_rng(seed)
    if ty is np.float32:
        v = (rng.choice([-1.0, 1.0], n) * rng.uniform(1.0, 2.0, n)
             * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
        # no magnitude under 2^-24: libclc-14's vstore_half_rtn/rtp round those to
        # zero (docs/clsmith.md, "Library bugs")
        special = np.array([0.0, -0.0, 65504.0, 65520.0, 1e6, -1e6, 6e-8, -3e-5,
                            1.0009765625, 1.00048828125, np.inf, -np.inf], np.float32)
    else:
        info = np.iinfo(ty)
        bits = rng.integers(0, 1 << 63, n, dtype=np.uint64) ^ (rng.integers(0, 2, n,
                                                                            dtype=np.uint64) << 63)
        v = bits.astype(np.dtype(ty).newbyteorder("<").str.replace("i", "u")).view(ty)
        special = np.array([info.min, info.max, 0, 1, info.max // 2, info.min // 2 + 1
                            if info.min else 2, info.max - 1], dtype=ty)
    pick = rng.integers(0, 4, n) == 0
    v[pick] = special[rng.integers(0, len(special), pick.sum())]
    return v


def run_case(ctx, queue, name, src, kernel, grid, block, offset, specs):
    prog = cl.Program(ctx, (ROOT / f"tests/kernels/{src}.cl").read_text()).build(
        options=["-cl-std=CL1.2"])
    k = getattr(prog, kernel)
    mf = cl.mem_flags
    bufs = []
    for i, s in enumerate(specs):
        kind, _, rest = s.partition(":")
        if kind == "in":
            ty, n = rest.split(":")
            data = random_values(TYPES[ty], int(n), seed=hash_name(name) * 16 + i)
            (DIR / f"{name}.in{i}.bin").write_bytes(data.tobytes())
            host = np.frombuffer(data.tobytes(), np.uint8).copy()
            b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            bufs.append((i, b, host))
            k.set_arg(i, b)
        elif kind == "zeros":
            host = np.zeros(int(rest), np.uint8)
            b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            bufs.append((i, b, host))
            k.set_arg(i, b)
        elif kind == "local":
            k.set_arg(i, cl.LocalMemory(int(rest)))
        elif kind in ("u32", "i32"):
            k.set_arg(i, struct.pack("<I" if kind == "u32" else "<i", int(rest, 0)))
        else:
            raise SystemExit(f"{name}: unknown argument spec {s!r}")
    off = None if offset == "-" else dims(offset)
    cl.enqueue_nd_range_kernel(queue, k, dims(grid), dims(block), global_work_offset=off)
    for i, b, host in bufs:
        cl.enqueue_copy(queue, host, b)
        (DIR / f"{name}.arg{i}.bin").write_bytes(host.tobytes())
    queue.finish()


def hash_name(name):
    """A stable small number from a case name (Python's hash() is salted)."""
    h = 0
    for c in name.encode():
        h = (h * 131 + c) % 1_000_003
    return h


def main():
    only = set(sys.argv[1:])
    dev = [d for p in cl.get_platforms() if "Portable" in p.name for d in p.get_devices()]
    if not dev:
        raise SystemExit("pocl-expected.py: no PoCL device (apt-get install pocl-opencl-icd)")
    ctx = cl.Context(dev[:1])
    queue = cl.CommandQueue(ctx)
    for name, src, kernel, grid, block, offset, specs in cases():
        if not only or name in only:
            run_case(ctx, queue, name, src, kernel, grid, block, offset, specs)
            print("wrote", name)


if __name__ == "__main__":
    main()
