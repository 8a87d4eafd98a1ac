#!/usr/bin/python3
"""Writes what tests/kernels/image_info.cl reports under PoCL for every image
format `risa run --arg img2d:` accepts: one line per format,

    NAME CHANNEL_DATA_TYPE CHANNEL_ORDER WIDTH HEIGHT

(the values get_image_channel_data_type / get_image_channel_order /
get_image_width / get_image_height return, decimal) into
tests/kernels/pocl/image_info/formats.txt. Run with Debian's Python
(pyopencl, numpy, PoCL):

    /usr/bin/python3 tools/images/pocl-image-info.py
"""

from pathlib import Path

import numpy as np
import pyopencl as cl

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests/kernels/image_info.cl"
OUT = ROOT / "tests/kernels/pocl/image_info/formats.txt"
W, H = 3, 2
O, T = cl.channel_order, cl.channel_type
# The img2d: format names and the OpenCL format each stands for.
FORMATS = [
    ("r8", O.R, T.UNORM_INT8),
    ("r8ui", O.R, T.UNSIGNED_INT8),
    ("r16ui", O.R, T.UNSIGNED_INT16),
    ("r32ui", O.R, T.UNSIGNED_INT32),
    ("r32i", O.R, T.SIGNED_INT32),
    ("r32f", O.R, T.FLOAT),
    ("rgba8", O.RGBA, T.UNORM_INT8),
    ("rgba8ui", O.RGBA, T.UNSIGNED_INT8),
    ("rgba8i", O.RGBA, T.SIGNED_INT8),
    ("rgba16ui", O.RGBA, T.UNSIGNED_INT16),
    ("rgba16i", O.RGBA, T.SIGNED_INT16),
    ("rgba16f", O.RGBA, T.HALF_FLOAT),
    ("rgba32ui", O.RGBA, T.UNSIGNED_INT32),
    ("rgba32i", O.RGBA, T.SIGNED_INT32),
    ("rgba32f", O.RGBA, T.FLOAT),
]


def main():
    platform = next(p for p in cl.get_platforms() if "Portable" in p.name)
    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SRC.read_text()).build()
    mf = cl.mem_flags
    lines = []
    for name, order, ctype in FORMATS:
        img = cl.Image(ctx, mf.READ_ONLY, cl.ImageFormat(order, ctype), shape=(W, H))
        out = np.zeros(4, dtype=np.int32)
        buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        prog.image_info(queue, (1,), None, img, buf)
        cl.enqueue_copy(queue, out, buf)
        lines.append(f"{name} {' '.join(str(v) for v in out)}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("# NAME CHANNEL_DATA_TYPE CHANNEL_ORDER WIDTH HEIGHT (PoCL, "
                   "tools/images/pocl-image-info.py)\n" + "\n".join(lines) + "\n")
    print(OUT.read_text(), end="")


if __name__ == "__main__":
    main()
