"""The kernel corpus (tests/kernels/*.cl) through the ICD from OpenCL C source,
on every risa device, against `risa run` on the object the ICD built.

For each kernel and device: build the source with pyopencl (the ICD runs the
compiler), run every kernel on generated inputs (buffers of the argument's
element type, small non-negative integers or floats in [-4, 4), scalars 64),
then take the program binary, run the same kernel with the same inputs
through `risa run --llvm-r600-atomics` (as the platform runs clang's Cayman
atomics; one thread on both sides, so atomics land in the same order), and compare every buffer byte for byte: the ICD's argument passing,
NDRange and buffers must give what the command line gives.
A kernel a device cannot build (doubles on Cayman) or whose arguments
`risa run` cannot express (images, structs) is skipped with the reason.
"""
import os
import pathlib
import re
import subprocess
import tempfile

import numpy as np
import pyopencl as cl
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = sorted((ROOT / "tests/kernels").glob("*.cl"))
RISA = os.environ.get("RISA_BIN") or next(
    (str(p) for p in [ROOT / "target/release/risa", ROOT / "target/debug/risa"] if p.exists()), None)
MARKER = b"\0RISA-ARG-INFO\0\0"
N = 64

plats = [p for p in cl.get_platforms() if p.name == "risa"]
DEVICES = plats[0].get_devices() if plats else []
if not DEVICES:
    pytest.skip("no risa OpenCL platform registered", allow_module_level=True)
if RISA is None:
    pytest.skip("the risa binary is not built (cargo build)", allow_module_level=True)

TYPES = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "float": np.float32, "double": np.float64, "half": np.float16,
}
SPEC = {"int": "i32", "uint": "u32", "long": "i64", "ulong": "u64", "float": "f32", "double": "f64"}


def base_type(type_name):
    t = type_name.replace("*", "").replace("const", "").replace("volatile", "").strip()
    return re.sub(r"\d+$", "", t)


def inputs(kernel, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(kernel.num_args):
        aq = kernel.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER)
        tn = kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME)
        bt = base_type(tn)
        if aq == cl.kernel_arg_address_qualifier.LOCAL:
            out.append(("local", 4096))
        elif aq == cl.kernel_arg_address_qualifier.GLOBAL:
            dt = TYPES.get(bt)
            if dt is None:
                return None, f"argument {i} is a {tn}"
            n = 16384 // np.dtype(dt).itemsize
            v = rng.uniform(-4, 4, n) if np.dtype(dt).kind == "f" else rng.integers(0, 64, n)
            out.append(("buf", v.astype(dt).tobytes()))
        elif bt in SPEC and "*" not in tn:
            out.append(("scalar", bt, N))
        else:
            return None, f"argument {i} is a {tn}, which risa run cannot pass"
    return out, None


def run_icd(ctx, q, kernel, args):
    bufs, cl_args = [], []
    for a in args:
        if a[0] == "buf":
            b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=bytearray(a[1]))
            bufs.append(b)
            cl_args.append(b)
        elif a[0] == "local":
            cl_args.append(cl.LocalMemory(a[1]))
        else:
            cl_args.append(np.array(a[2], dtype=TYPES[a[1]])[()])
    ev = kernel(q, (N,), (N,), *cl_args)
    q.finish()
    faulted = ev.command_execution_status < 0
    outs = []
    for b in bufs:
        h = bytearray(b.size)
        cl.enqueue_copy(q, h, b)
        outs.append(bytes(h))
    return faulted, outs


def run_cli(obj, name, args, tmp):
    cmd = [RISA, "run", str(obj), "--kernel", name, "--grid", str(N), "--block", str(N),
           "--threads", "1", "--out", str(tmp / "out"),
           # The platform runs clang's Cayman atomics where the source means them.
           "--llvm-r600-atomics"]
    for i, a in enumerate(args):
        if a[0] == "buf":
            p = tmp / f"in{i}.bin"
            p.write_bytes(a[1])
            cmd += ["--arg", f"buf:{p}"]
        elif a[0] == "local":
            cmd += ["--arg", f"local:{a[1]}"]
        else:
            cmd += ["--arg", f"{SPEC[a[1]]}:{a[2]}"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode in (0, 3), r.stderr
    outs = [(tmp / "out" / f"arg{i}.bin").read_bytes() for i, a in enumerate(args) if a[0] == "buf"]
    return r.returncode == 3, outs


@pytest.mark.parametrize("dev", DEVICES, ids=lambda d: d.name)
@pytest.mark.parametrize("src", KERNELS, ids=lambda p: p.stem)
def test_corpus_kernel_matches_risa_run(dev, src, monkeypatch):
    monkeypatch.setenv("RISA_OPENCL_THREADS", "1")
    text = src.read_text()
    std = re.match(r"// risa-cl-std: *(CL[0-9.]+)", text)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    try:
        prg = cl.Program(ctx, text).build(options=[f"-cl-std={std.group(1)}"] if std else [])
    except cl.RuntimeError as e:
        why = next((l for l in str(e).splitlines() if "error" in l), str(e))
        pytest.skip(f"{dev.name} cannot build {src.name}: {why.strip()[:200]}")
    binary = prg.get_info(cl.program_info.BINARIES)[0].split(MARKER)[0]
    ran = faults = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        obj = tmp / "k.o"
        obj.write_bytes(binary)
        for k in prg.all_kernels():
            args, why = inputs(k, seed=len(k.function_name))
            if args is None:
                continue
            faulted, got = run_icd(ctx, q, k, args)
            cli_faulted, want = run_cli(obj, k.function_name, args, tmp)
            # A guest fault must be one on both sides.
            assert faulted == cli_faulted, f"{k.function_name}: fault on one side only"
            if faulted:
                faults += 1
                continue
            for i, (g, w) in enumerate(zip(got, want)):
                assert g == w, f"{k.function_name}: buffer {i} differs from risa run"
            ran += 1
    if ran == 0 and faults:
        pytest.skip(f"{src.name}: every kernel faulted, the same way through the ICD and risa run")
    if ran == 0:
        pytest.skip(f"{src.name}: {why}")
