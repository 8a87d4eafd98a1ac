"""pyopencl on every risa device, compared with numpy.

Run with the risa ICD registered (OCL_ICD_VENDORS=DIR holding risa.icd):
    /usr/bin/python3 -m pytest tests/opencl
crates/opencl/tests/clients.rs runs this suite against the freshly built ICD.
"""
import numpy as np
import pyopencl as cl
import pytest


def risa_devices():
    plats = [p for p in cl.get_platforms() if p.name == "risa"]
    return plats[0].get_devices() if plats else []


DEVICES = risa_devices()
if not DEVICES:
    pytest.skip("no risa OpenCL platform registered", allow_module_level=True)


@pytest.fixture(params=DEVICES, ids=lambda d: d.name)
def cq(request):
    ctx = cl.Context([request.param])
    return ctx, cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)


def test_elementwise_float_math(cq):
    ctx, q = cq
    rng = np.random.default_rng(1)
    a = rng.uniform(-100, 100, 777).astype(np.float32)
    b = rng.uniform(1, 100, 777).astype(np.float32)
    src = """__kernel void f(__global const float *a, __global const float *b,
                              __global float *o, int n) {
        int i = get_global_id(0);
        if (i < n) o[i] = a[i] * b[i] + a[i] / b[i] - fabs(a[i]);
    }"""
    prg = cl.Program(ctx, src).build()
    mf = cl.mem_flags
    ab = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=a)
    bb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=b)
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
    ev = prg.f(q, (832,), (64,), ab, bb, ob, np.int32(777))
    out = np.empty_like(a)
    cl.enqueue_copy(q, out, ob)
    want = a * b + a / b - np.abs(a)
    np.testing.assert_allclose(out, want, rtol=3e-6, atol=1e-4)
    assert ev.profile.end > ev.profile.start > 0


def test_local_memory_reduction(cq):
    ctx, q = cq
    x = np.arange(4096, dtype=np.int32) * 7 - 1000
    src = """__kernel void red(__global const int *x, __global int *part, __local int *t) {
        int l = get_local_id(0);
        t[l] = x[get_global_id(0)];
        for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (l < s) t[l] += t[l + s];
        }
        if (l == 0) part[get_group_id(0)] = t[0];
    }"""
    prg = cl.Program(ctx, src).build()
    mf = cl.mem_flags
    xb = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=x)
    pb = cl.Buffer(ctx, mf.WRITE_ONLY, 16 * 4)
    prg.red(q, (4096,), (256,), xb, pb, cl.LocalMemory(256 * 4))
    part = np.empty(16, dtype=np.int32)
    cl.enqueue_copy(q, part, pb)
    np.testing.assert_array_equal(part, x.reshape(16, 256).sum(axis=1))


def test_2d_offset_and_integer_ops(cq):
    ctx, q = cq
    src = """__kernel void g(__global uint *o) {
        uint x = get_global_id(0), y = get_global_id(1), w = 48;
        o[y * w + x] = (x * 2654435761u) ^ (y << 7) ^ rotate(x + y, 5u);
    }"""
    prg = cl.Program(ctx, src).build()
    o = np.zeros((16, 48), dtype=np.uint32)
    ob = cl.Buffer(ctx, cl.mem_flags.COPY_HOST_PTR, hostbuf=o)
    prg.g(q, (32, 16), (16, 4), ob, global_offset=(16, 0))
    cl.enqueue_copy(q, o, ob)
    y, x = np.mgrid[0:16, 0:48].astype(np.uint64)
    s = (x + y) & 0xFFFFFFFF
    rot = ((s << 5) | (s >> 27)) & 0xFFFFFFFF
    want = (((x * 2654435761) & 0xFFFFFFFF) ^ (y << 7) ^ rot).astype(np.uint32)
    want[:, :16] = 0
    np.testing.assert_array_equal(o, want)


def test_copy_fill_map_and_sub_buffers(cq):
    ctx, q = cq
    mf = cl.mem_flags
    a = np.arange(1024, dtype=np.float32)
    ab = cl.Buffer(ctx, mf.COPY_HOST_PTR, hostbuf=a)
    bb = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
    cl.enqueue_fill_buffer(q, bb, np.float32(3.5), 0, a.nbytes)
    cl.enqueue_copy(q, bb, ab, byte_count=512, src_offset=1024, dst_offset=0)
    sub = bb.get_sub_region(1024, 512)
    m, _ = cl.enqueue_map_buffer(q, sub, cl.map_flags.READ | cl.map_flags.WRITE, 0, (128,), np.float32)
    m[:] *= 2
    del m
    out = np.empty_like(a)
    cl.enqueue_copy(q, out, bb)
    want = np.full_like(a, 3.5)
    want[:128] = a[256:384]
    want[256:384] *= 2
    np.testing.assert_array_equal(out, want)


def test_build_error_has_the_compiler_log(cq):
    ctx, _ = cq
    with pytest.raises(cl.RuntimeError) as e:
        cl.Program(ctx, "__kernel void k() { nonsense; }").build()
    assert "nonsense" in str(e.value)
