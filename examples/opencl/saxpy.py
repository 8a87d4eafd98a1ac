#!/usr/bin/python3
"""saxpy on every risa OpenCL device (or the ones RISA_OPENCL_DEVICES names).

Needs the risa ICD registered with the loader (see docs/opencl.md):
    cargo build --release -p risa-opencl
    ./target/release/risa opencl install            # or OCL_ICD_VENDORS=DIR
    /usr/bin/python3 examples/opencl/saxpy.py
"""
import numpy as np
import pyopencl as cl

SRC = """
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

risa = [p for p in cl.get_platforms() if p.name == "risa"]
if not risa:
    raise SystemExit("no OpenCL platform named risa: install the ICD (docs/opencl.md)")
n = 1000
x = np.arange(n, dtype=np.float32)
y0 = np.full(n, 1.0, dtype=np.float32)
ok = True
for dev in risa[0].get_devices():
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    yb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y0)
    prg = cl.Program(ctx, SRC).build()
    prg.saxpy(q, (1024,), (64,), np.float32(2.0), xb, yb, np.uint32(n))
    y = np.empty_like(y0)
    cl.enqueue_copy(q, y, yb)
    good = np.array_equal(y, 2.0 * x + y0)
    ok &= good
    print(f"{dev.name}: y = 2*x + 1 = [{y[0]:g}, {y[1]:g}, {y[2]:g}, ..., {y[-1]:g}] "
          f"({'correct' if good else 'WRONG'})")
raise SystemExit(0 if ok else 1)
