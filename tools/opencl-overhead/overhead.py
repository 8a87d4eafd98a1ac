#!/usr/bin/python3
"""Launch overhead of an OpenCL platform, side by side: an empty kernel
enqueued N times (default 10,000) and a 1 MiB buffer round trip (write then
read), on risa's devices and on PoCL's CPU device when installed.

    OCL_ICD_VENDORS=DIR-with-risa.icd-and-pocl.icd /usr/bin/python3 tools/opencl-overhead/overhead.py
Prints microseconds per operation and risa / PoCL ratios.
"""
import sys
import time

import numpy as np
import pyopencl as cl

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
REPS = 20


def measure(dev):
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    k = cl.Program(ctx, "__kernel void empty(void) {}").build().empty
    k(q, (1,), (1,))
    q.finish()
    t = time.perf_counter()
    for _ in range(N):
        cl.enqueue_nd_range_kernel(q, k, (1,), (1,))
    q.finish()
    launch = (time.perf_counter() - t) / N
    host = np.random.default_rng(0).integers(0, 255, 1 << 20, dtype=np.uint8)
    back = np.empty_like(host)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    t = time.perf_counter()
    for _ in range(REPS):
        cl.enqueue_copy(q, buf, host)
        cl.enqueue_copy(q, back, buf)
    q.finish()
    trip = (time.perf_counter() - t) / REPS
    assert np.array_equal(host, back)
    return launch, trip


ROUNDS = 5
devs = [(p.name, d) for p in cl.get_platforms() for d in p.get_devices()]
runs = {d.name: [] for _, d in devs}
# Rounds interleave the devices, so drift on a shared machine hits all alike.
for _ in range(ROUNDS):
    for _, d in devs:
        runs[d.name].append(measure(d))
rows = []
for plat, d in devs:
    launch = sorted(r[0] for r in runs[d.name])[ROUNDS // 2]
    trip = sorted(r[1] for r in runs[d.name])[ROUNDS // 2]
    rows.append((plat, d.name, launch, trip))
    print(f"{plat[:8]:8} {d.name:32} empty kernel {launch * 1e6:9.2f} us   1 MiB round trip {trip * 1e6:9.1f} us  (medians of {ROUNDS})")
pocl = [r for r in rows if r[0].startswith("Portable")]
if pocl:
    _, _, pl, pt = pocl[0]
    for plat, name, launch, trip in rows:
        if plat == "risa":
            print(f"risa/PoCL {name:32} launch x{launch / pl:.2f}   round trip x{trip / pt:.2f}")
