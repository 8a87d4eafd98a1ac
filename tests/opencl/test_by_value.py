"""By-value kernel arguments of every shape (chars and shorts side by side,
vectors, 3-vectors, structs with small and large alignments) on every risa
device, checked against the values passed and, when PoCL is installed,
against PoCL running the same kernel. On Cayman these are laid out in
constant buffer 0 at their r600 ABI alignments (ABI-NOTES).

Run with the risa ICD registered (OCL_ICD_VENDORS=DIR holding risa.icd);
crates/opencl/tests/clients.rs runs it against the freshly built ICD.
"""
import numpy as np
import pyopencl as cl
import pytest

SRC = """
typedef struct { int a; float b; char c; } S3;
typedef struct { char x; short y; } Small;
typedef struct { int a, b; } Pair;
typedef struct { char tag; float4 v; } Wide;

__kernel void mixed(__global int *o, char c, float4 v, short s, Small sm,
                    int3 t, S3 st, uchar2 u2, int last) {
  o[0] = c; o[1] = as_int(v.x); o[2] = as_int(v.y); o[3] = as_int(v.z);
  o[4] = as_int(v.w); o[5] = s; o[6] = sm.x; o[7] = sm.y; o[8] = t.x;
  o[9] = t.y; o[10] = t.z; o[11] = st.a; o[12] = as_int(st.b); o[13] = st.c;
  o[14] = u2.x; o[15] = u2.y; o[16] = last;
}

__kernel void packed(char a, char b, short c, __global int *o, float f,
                     Pair p, Small q, char d, Wide w, int8 e, uchar3 g) {
  o[0] = a; o[1] = b; o[2] = c; o[3] = p.a; o[4] = p.b; o[5] = as_int(f);
  o[6] = q.x; o[7] = q.y; o[8] = d; o[9] = w.tag; o[10] = as_int(w.v.x);
  o[11] = as_int(w.v.w); o[12] = e.s0; o[13] = e.s7; o[14] = g.x;
  o[15] = g.y; o[16] = g.z;
}
"""

S3 = np.dtype([("a", np.int32), ("b", np.float32), ("c", np.int8)], align=True)
SMALL = np.dtype([("x", np.int8), ("y", np.int16)], align=True)
PAIR = np.dtype([("a", np.int32), ("b", np.int32)], align=True)
# OpenCL's float4 is 16-byte aligned; numpy's subarray is not: pad by hand.
WIDE = np.dtype({"names": ["tag", "v"], "formats": [np.int8, (np.float32, 4)],
                 "offsets": [0, 16], "itemsize": 32})


def record(dt, *vals):
    return np.array([tuple(vals)], dtype=dt)[0]


def f2i(x):
    return int(np.float32(x).view(np.int32))


CASES = {
    "mixed": (
        lambda: [np.int8(-5), np.array([1.5, -2.25, 3.0, 1e6], np.float32),
                 np.int16(-300), record(SMALL, 7, -12345),
                 np.array([11, -22, 33, 0], np.int32),
                 record(S3, 123456, 0.5, -9), np.array([200, 17], np.uint8),
                 np.int32(987654)],
        [-5, f2i(1.5), f2i(-2.25), f2i(3.0), f2i(1e6), -300, 7, -12345, 11,
         -22, 33, 123456, f2i(0.5), -9, 200, 17, 987654],
        0,
    ),
    "packed": (
        lambda: [np.int8(3), np.int8(-4), np.int16(1000),
                 np.float32(6.5), record(PAIR, -77, 88), record(SMALL, -1, 2),
                 np.int8(9), record(WIDE, 5, [1.0, 2.0, 3.0, 4.0]),
                 np.arange(1, 9, dtype=np.int32) * 100,
                 np.array([250, 1, 128, 0], np.uint8)],
        [3, -4, 1000, -77, 88, f2i(6.5), -1, 2, 9, 5, f2i(1.0), f2i(4.0),
         100, 800, 250, 1, 128],
        3,
    ),
}


def run(device, name):
    ctx = cl.Context([device])
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SRC).build()
    make, _, out_at = CASES[name]
    out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 17)
    args = make()
    args.insert(out_at, out)
    getattr(prg, name)(q, (1,), (1,), *args)
    host = np.empty(17, np.int32)
    cl.enqueue_copy(q, host, out)
    return host.tolist()


def platform_devices(name):
    plats = [p for p in cl.get_platforms() if p.name == name]
    return plats[0].get_devices() if plats else []


DEVICES = platform_devices("risa")
if not DEVICES:
    pytest.skip("no risa OpenCL platform registered", allow_module_level=True)
POCL = platform_devices("Portable Computing Language")


@pytest.mark.parametrize("kernel", sorted(CASES))
@pytest.mark.parametrize("device", DEVICES, ids=lambda d: d.name)
def test_by_value_arguments(device, kernel):
    got = run(device, kernel)
    assert got == CASES[kernel][1]
    if POCL:
        assert got == run(POCL[0], kernel)
