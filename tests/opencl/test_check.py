"""RISA_CHECK through the OpenCL platform: a kernel that shares LDS between
waves without a barrier gets a race finding on stderr; the same kernel with
the barrier gets none, and both compute through pyopencl as usual, on every
device (the GCN chips and Cayman, whose barrier is GROUP_BARRIER).

crates/opencl/tests/clients.rs runs this against the freshly built ICD.
"""
import numpy as np
import pyopencl as cl
import pytest

plats = [p for p in cl.get_platforms() if p.name == "risa"]
if not plats:
    pytest.skip("no risa OpenCL platform registered", allow_module_level=True)
DEVICES = plats[0].get_devices()

SRC = """__kernel void rev(__global int *o) {
    __local int t[128];
    int l = get_local_id(0);
    t[l] = l * 3;
    BARRIER
    o[get_global_id(0)] = t[127 - l];
}"""


@pytest.mark.parametrize("dev", DEVICES, ids=lambda d: d.name)
@pytest.mark.parametrize("barrier", [False, True])
def test_lds_race_is_reported_only_without_the_barrier(dev, barrier, monkeypatch, capfd):
    monkeypatch.setenv("RISA_CHECK", "races")
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    src = SRC.replace("BARRIER", "barrier(CLK_LOCAL_MEM_FENCE);" if barrier else "")
    prg = cl.Program(ctx, src).build()
    out = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 128 * 4)
    # Two waves of 64 work-items in one work-group share t[].
    prg.rev(q, (128,), (128,), out)
    h = np.empty(128, np.int32)
    cl.enqueue_copy(q, h, out)
    q.finish()
    err = capfd.readouterr().err
    races = [l for l in err.splitlines() if ": races: " in l]
    if barrier:
        assert races == [], err
        assert list(h) == [(127 - l) * 3 for l in range(128)]
    else:
        assert races, err
