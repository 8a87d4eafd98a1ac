#!/usr/bin/python3
"""Writes the expected outputs of tests/kernels/image_sample.cl from PoCL.

The kernels sample a 5x4 image over a 12x10 grid (read_imagef on an
RGBA/UNORM_INT8 image; nearest_uint: read_imageui on RGBA/UNSIGNED_INT8).
The texels are a fixed pseudo-random pattern, written with the outputs to
tests/kernels/pocl/image_sample/: texels.bin (the 80 bytes of both images)
and <kernel>.out.bin (the 12x10 float4 or uint4 results). Run with Debian's
Python (pyopencl, numpy, PoCL):

    /usr/bin/python3 tools/images/pocl-sample.py
"""

from pathlib import Path

import numpy as np
import pyopencl as cl

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests/kernels/image_sample.cl"
OUT = ROOT / "tests/kernels/pocl/image_sample"
W, H = 5, 4
GRID = (12, 10)
FLOAT_KERNELS = [
    "nearest_none", "nearest_clamp", "nearest_edge", "linear_clamp", "linear_edge",
    "nearest_norm_clamp", "nearest_norm_repeat", "nearest_norm_mirror",
    "linear_norm_edge", "linear_norm_repeat", "linear_norm_mirror",
]


def texels():
    # (i * 37 + 11) mod 256: every texel differs from its neighbours.
    return np.array([(i * 37 + 11) % 256 for i in range(W * H * 4)], dtype=np.uint8)


def main():
    platform = next(p for p in cl.get_platforms() if "Portable" in p.name)
    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SRC.read_text()).build()
    OUT.mkdir(parents=True, exist_ok=True)
    data = texels()
    (OUT / "texels.bin").write_bytes(data.tobytes())
    mf = cl.mem_flags
    for name, ctype in [(k, cl.channel_type.UNORM_INT8) for k in FLOAT_KERNELS] + [
        ("nearest_uint", cl.channel_type.UNSIGNED_INT8)
    ]:
        fmt = cl.ImageFormat(cl.channel_order.RGBA, ctype)
        img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(W, H),
                       hostbuf=data.reshape(H, W, 4))
        kind = np.uint32 if name == "nearest_uint" else np.float32
        out = np.zeros((GRID[1], GRID[0], 4), dtype=kind)
        buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        getattr(prog, name)(queue, GRID, None, img, buf)
        cl.enqueue_copy(queue, out, buf)
        (OUT / f"{name}.out.bin").write_bytes(out.tobytes())
        print(name, "written")


if __name__ == "__main__":
    main()
