#!/usr/bin/python3
"""CLSmith differential campaign: risa's emulators against PoCL.

For every seed of the range (or of this shard of it) and every CLSmith mode asked
for, generates one random kernel with CLSmith, runs it on PoCL through CLSmith's own
host driver cl_launcher (the reference), compiles it with clang for every target
(chip x toolchain), runs the object with `risa run` and compares the per-work-item
checksums; when they differ, Oclgrind (if installed) runs the kernel too, a third
opinion. Prints one TSV row per (kernel, target) on stdout, no header, so that
the outputs of many shards `cat` together; `summary.py` counts them.

With `--via-icd` the targets run through risa's OpenCL platform instead: the same
cl_launcher, pointed at the risa ICD (OCL_ICD_VENDORS, one device per run through
RISA_OPENCL_DEVICES), builds the kernel with the ICD's compiler and runs it there.

Columns: seed mode chip toolchain outcome seconds detail
(see docs/clsmith.md for the outcomes). Every external step runs under a time
limit in its own process group, killed whole when the limit passes.

Needs only the Python standard library; the tools come from ORACLES
(default ~/.cache/risa-oracles: bin/CLSmith, bin/cl_launcher, include/) and PATH
(clang-14 + libclc-14, clang-19 + rocm-device-libs, PoCL as an OpenCL ICD, and
optionally oclgrind).
"""

import argparse
import atexit
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import known_bugs  # noqa: E402  (the skip list lives next to this script)

ORACLES = Path(os.environ.get("ORACLES", Path.home() / ".cache/risa-oracles"))
REPO = Path(__file__).resolve().parents[2]

# CLSmith's modes (its command-line switches). `atomics` asks for both of CLSmith's
# atomic features: atomic sections and atomic reductions. `barriers` adds EMI blocks
# (dead code guarded by the EMI input buffer): CLSmith 34837b9 built without asserts
# turns a barrier statement it should not draw into an EMI block, which without
# `--emi` reads an undeclared `emi_input` (docs/clsmith.md).
MODES = {
    "basic": [],
    "vectors": ["--vectors"],
    "barriers": ["--barriers", "--emi"],
    "atomics": ["--atomics", "--atomic_reductions"],
    "itc": ["--inter_thread_comm"],
}

# Chips the ICD builds with clang-14 whatever is installed (crates/opencl compiler.rs:
# libclc for Cayman; GCN 1.0 and Hawaii have no clang-19 + ROCm build there).
ICD_CLANG14_ONLY = ("cayman", "tahiti", "hawaii")

# Chip families of the campaign; the clang-14 build is tried on GCN too.
DEFAULT_TARGETS = ("cayman:clang14,tahiti:clang19,tahiti:clang14,fiji:clang19,fiji:clang14,"
                   "gfx900:clang19,gfx900:clang14,gfx906:clang19,gfx906:clang14")


def dpkg_dir(package, suffix):
    """The folder of the first file of a Debian package whose name ends in `suffix`."""
    try:
        out = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for line in out.splitlines():
        if line.endswith(suffix):
            return str(Path(line).parent)
    return None


def run_limited(cmd, limit, cwd=None, env=None):
    """Runs `cmd` in its own process group with a time limit.

    Returns (returncode or None when the limit passed, stdout, stderr, seconds)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        rc = None
    return rc, out, err.decode(errors="replace"), time.monotonic() - start


def one_line(text, limit=160):
    """The first meaningful line of a tool's message, safe for a TSV cell."""
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("PLEASE submit", "Stack dump", "#")):
            return re.sub(r"\s+", " ", line)[:limit]
    return ""


class Kernel:
    """One CLSmith kernel: its source and the launch cl_launcher would make."""

    def __init__(self, path):
        self.path = path
        first = path.read_text(errors="replace").splitlines()[0]
        toks = first.lstrip("/ ").split()
        opts = {}
        i = 0
        while i < len(toks):
            t = toks[i]
            if t in ("-g", "-l", "--atomics"):
                opts[t] = toks[i + 1]
                i += 2
            else:
                opts[t] = True
                i += 1
        self.grid = [int(x) for x in opts["-g"].split(",")]
        self.block = [int(x) for x in opts["-l"].split(",")]
        self.atomic_counters = int(opts.get("--atomics", 0))
        self.atomic_reductions = "---atomic_reductions" in opts
        self.inter_thread_comm = "---inter_thread_comm" in opts
        self.fake_divergence = "---fake_divergence" in opts
        self.emi = "---emi" in opts
        self.launcher_flags = first.lstrip("/ ").split()
        # Oclgrind's checksums once asked for: a list, or None when it gave none
        self.second = False
        # the first GCN chip clang-14 crashed on, if any
        self.gcn14_crash = None
        self.items = 1
        for g in self.grid:
            self.items *= g
        self.groups = 1
        for g, b in zip(self.grid, self.block):
            self.groups *= g // b

    def buffers(self, folder):
        """The argument buffers cl_launcher creates, in its order, as files."""
        def put(name, data):
            p = folder / name
            p.write_bytes(data)
            return p
        bufs = [put("result.bin", bytes(8 * self.items))]
        if self.atomic_counters:
            n = 4 * self.atomic_counters * self.groups
            bufs += [put("atomic_input.bin", bytes(n)), put("special_values.bin", bytes(n))]
        if self.atomic_reductions:
            bufs.append(put("reduction.bin", bytes(4 * self.groups)))
        if self.emi:
            bufs.append(put("emi.bin", b"".join((1024 - i).to_bytes(4, "little", signed=True)
                                               for i in range(1024))))
        if self.fake_divergence:
            n = max(self.grid)
            bufs.append(put("sequence.bin", b"".join((10 + i).to_bytes(4, "little", signed=True)
                                                    for i in range(n))))
        if self.inter_thread_comm:
            bufs.append(put("comm.bin", (1).to_bytes(8, "little") * self.items))
        return bufs


class Campaign:
    def __init__(self, a):
        self.a = a
        self.risa = a.risa
        self.include = ORACLES / "include"
        self.clc = dpkg_dir("libclc-14", "amdgcn--amdhsa.bc")
        self.rocm = dpkg_dir("rocm-device-libs", "ockl.bc")
        self.icd_dir = None
        if a.via_icd:
            # a vendors folder holding risa's ICD alone: platform 0 is risa
            self.icd_dir = Path(tempfile.mkdtemp(prefix="risa-icd-"))
            (self.icd_dir / "risa.icd").write_text(f"{a.icd}\n")
            atexit.register(shutil.rmtree, self.icd_dir, True)
        self.targets = []
        for t in a.targets.split(","):
            chip, tc = t.split(":")
            self.targets.append((chip, tc))

    def compile_cmd(self, chip, tc, src, obj):
        common = ["-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-O2",
                  "-w", "-fno-crash-diagnostics", "-I", str(self.include)]
        if tc == "clang14" and chip == "cayman":
            return ["clang-14", *common, "-target", "r600--", "-mcpu=cayman", "-fintegrated-as",
                    "-Xclang", "-mlink-builtin-bitcode", "-Xclang",
                    f"{self.clc}/cayman-r600--.bc", "-c", str(src), "-o", str(obj)]
        if tc == "clang14":
            return ["clang-14", *common, "-target", "amdgcn-amd-amdhsa", f"-mcpu={chip}",
                    "-nogpulib", "-Wno-linker-warnings", "-Xclang", "-mlink-builtin-bitcode",
                    "-Xclang", f"{self.clc}/amdgcn--amdhsa.bc", "-c", str(src), "-o", str(obj)]
        if tc == "clang19":
            return ["clang-19", *common, "-target", "amdgcn-amd-amdhsa", f"-mcpu={chip}",
                    f"--rocm-device-lib-path={self.rocm}", "-c", str(src), "-o", str(obj)]
        raise SystemExit(f"campaign.py: unknown toolchain {tc!r} (clang14 or clang19)")

    def reference(self, k, work):
        """PoCL's checksums through cl_launcher: (list, None) or (None, (outcome, detail))."""
        env = dict(os.environ, POCL_CACHE_DIR=str(work / "pocl-cache"),
                   POCL_MAX_PTHREAD_COUNT="1", POCL_CPU_MAX_CU_COUNT="1")
        cmd = [str(ORACLES / "bin/cl_launcher"), "-f", str(k.path), "-p", str(self.a.platform),
               "-d", str(self.a.device), "-i", str(self.include), *k.launcher_flags]
        rc, out, err, _ = run_limited(cmd, self.a.pocl_timeout, cwd=work, env=env)
        shutil.rmtree(work / "pocl-cache", ignore_errors=True)
        if rc is None:
            return None, ("pocl-timeout", f"> {self.a.pocl_timeout} s")
        vals = [v for v in out.decode(errors="replace").strip().split(",") if v]
        if "Error building program" in err:
            # PoCL prints only the count of errors: name the first from clang-19's check
            _, _, why, _ = run_limited(["clang-19", "-x", "cl", "-cl-std=CL1.2", "-Xclang",
                                        "-finclude-default-header", "-fsyntax-only", "-w",
                                        "-I", str(self.include), str(k.path)],
                                       self.a.clang_timeout)
            first = next((ln for ln in why.splitlines() if "error:" in ln), err)
            return None, ("pocl-build-fail", one_line(first.split("error:", 1)[-1]))
        if rc != 0 or len(vals) != k.items:
            return None, ("pocl-fail", f"exit {rc}, {len(vals)} values: {one_line(err)}")
        return [int(v, 16) for v in vals], None

    def second_opinion(self, k, work):
        """Oclgrind's checksums for a kernel risa and PoCL disagree on, or None.

        Oclgrind (a third OpenCL implementation, an LLVM IR interpreter) runs the same
        cl_launcher launch; it is asked once per kernel and only on a mismatch."""
        if k.second is False:
            k.second = None
            if self.a.second_opinion and shutil.which("oclgrind"):
                cmd = ["oclgrind", "--num-threads", "1", "--log", str(work / "oclgrind.log"),
                       str(ORACLES / "bin/cl_launcher"), "-f", str(k.path), "-p", "0", "-d", "0",
                       "-i", str(self.include), *k.launcher_flags]
                rc, out, _, _ = run_limited(cmd, self.a.oclgrind_timeout, cwd=work)
                vals = [v for v in out.decode(errors="replace").strip().split(",") if v]
                if rc == 0 and len(vals) == k.items:
                    k.second = [int(v, 16) for v in vals]
        return k.second

    def outvoted(self, k, got, work, secs, detail):
        """`pocl-outvoted` when Oclgrind gives risa's checksums `got`, else `mismatch`."""
        if self.second_opinion(k, work) == got:
            return "pocl-outvoted", secs, f"oclgrind agrees with risa on every item; {detail}"
        return "mismatch", secs, detail

    def run_target_icd(self, k, chip, tc, ref, work):
        """(outcome, seconds, detail) of one target through risa's OpenCL platform:
        cl_launcher builds and runs the kernel on the one risa device left visible."""
        if tc == "clang19" and chip in ICD_CLANG14_ONLY:
            return "icd-no-toolchain", 0.0, f"the ICD builds {chip} with clang-14 only"
        env = dict(os.environ, OCL_ICD_VENDORS=str(self.icd_dir), RISA_OPENCL_DEVICES=chip,
                   RISA_OPENCL_THREADS="1")
        if tc == "clang14":
            env["RISA_OPENCL_COMPILER"] = "clang-14"
        cmd = [str(ORACLES / "bin/cl_launcher"), "-f", str(k.path), "-p", "0", "-d", "0",
               "-i", str(self.include), *k.launcher_flags]
        rc, out, err, secs = run_limited(cmd, self.a.risa_timeout, cwd=work, env=env)
        if rc is None:
            return "risa-timeout", secs, f"> {self.a.risa_timeout} s"
        if "Error building program" in err:
            return "clang-fail", 0.0, one_line(err)
        if "risa OpenCL:" in err:
            return "risa-fault", secs, one_line(err[err.index("risa OpenCL:"):])
        vals = [v for v in out.decode(errors="replace").strip().split(",") if v]
        if rc != 0 or len(vals) != k.items:
            return "risa-error", secs, f"exit {rc}, {len(vals)} values: {one_line(err)}"
        got = [int(v, 16) for v in vals]
        outcome, secs, detail = compare(ref, got, k.items, secs)
        if outcome == "mismatch":
            return self.outvoted(k, got, work, secs, detail)
        return outcome, secs, detail

    def run_target(self, k, chip, tc, ref, work):
        """(outcome, seconds, detail) of one target."""
        if self.a.via_icd:
            return self.run_target_icd(k, chip, tc, ref, work)
        obj = work / f"{chip}-{tc}.o"
        if tc == "clang14" and chip != "cayman" and k.gcn14_crash and not self.a.every_build:
            return "clang-skip", 0.0, f"clang-14 crashed selecting instructions for {k.gcn14_crash}"
        rc, _, err, _ = run_limited(self.compile_cmd(chip, tc, k.path, obj),
                                    self.a.clang_timeout)
        if rc is None:
            return "clang-timeout", 0.0, f"> {self.a.clang_timeout} s"
        if rc != 0:
            if tc == "clang14" and chip != "cayman" and "Cannot select" in err:
                # the same crash of the shared GCN back end on every chip (private-array
                # initialisers); the next chips are not tried (--every-build tries them)
                k.gcn14_crash = chip
            return "clang-fail", 0.0, one_line(err)
        bug = known_bugs.match(chip, tc, k.path, obj)
        if bug:
            return "known-clang-bug", 0.0, bug
        outcome, secs, detail, got = self.run_object(k, ref, obj, work, f"{chip}-{tc}")
        if outcome != "mismatch":
            return outcome, secs, detail
        # The order of atomics between work-items is open in OpenCL: run the items
        # one after another between barriers, as PoCL does (one item a wave); this
        # takes seconds, so it comes before Oclgrind (minutes).
        if chip != "cayman" and self.run_object(k, ref, obj, work, f"{chip}-{tc}-w1",
                                                ["--wave-items", "1"])[0] == "match":
            return "schedule-dependent", secs, f"one work-item per wave matches pocl; {detail}"
        outcome, secs, detail = self.outvoted(k, got, work, secs, detail)
        if outcome == "mismatch" and chip != "cayman":
            # Confirm or rule out a recorded compiler bug by rebuilding without the
            # transformation that has it: a match then convicts the compiler.
            for i, (name, flags) in enumerate(known_bugs.CONFIRM):
                obj2 = work / f"{chip}-{tc}-confirm{i}.o"
                cmd = self.compile_cmd(chip, tc, k.path, obj2)
                rc, _, _, _ = run_limited(cmd[:1] + flags + cmd[1:], self.a.clang_timeout)
                if rc == 0 and self.run_object(k, ref, obj2, work, f"{chip}-{tc}-confirm{i}")[0] == "match":
                    return "known-clang-bug", secs, f"{name}; {detail}"
        return outcome, secs, detail

    def run_object(self, k, ref, obj, work, tag, extra=()):
        """(outcome, seconds, detail, checksums or None) of `risa run` on one built
        object (with the `extra` options) against PoCL's checksums `ref`."""
        out = work / f"out-{tag}"
        bufs = k.buffers(work)
        # CLSmith's kernel is `entry`; an r600 object also lists the helper
        # functions clang kept as global symbols
        cmd = [str(self.risa), "run", str(obj), "--kernel", "entry", "--grid", ",".join(map(str, k.grid)),
               "--block", ",".join(map(str, k.block)), "--threads", "1",
               "--max-instructions", str(self.a.max_instructions), "--out", str(out), *extra]
        for b in bufs:
            cmd += ["--arg", f"buf:{b}"]
        rc, _, err, secs = run_limited(cmd, self.a.risa_timeout)
        if rc is None:
            return "risa-timeout", secs, f"> {self.a.risa_timeout} s", None
        if rc == 3:
            return "risa-fault", secs, one_line(err), None
        if rc != 0:
            return "risa-error", secs, one_line(err), None
        data = (out / "arg0.bin").read_bytes()
        got = [int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), 8)]
        return (*compare(ref, got, k.items, secs), got)

    def kernel(self, seed, mode):
        """Generates, references and runs one kernel; yields TSV rows."""
        with tempfile.TemporaryDirectory(prefix=f"clsmith-{mode}-{seed}-") as tmp:
            work = Path(tmp)
            rc, _, err, _ = run_limited([str(ORACLES / "bin/CLSmith"), "--seed", str(seed),
                                         *MODES[mode]], self.a.gen_timeout, cwd=work)
            src = work / "CLProg.c"
            if rc != 0 or not src.exists():
                why = f"> {self.a.gen_timeout} s" if rc is None else one_line(err)
                for chip, tc in self.targets:
                    yield (seed, mode, chip, tc, "gen-fail", 0.0, why)
                return
            if self.a.keep:
                keep = Path(self.a.keep)
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, keep / f"{mode}-{seed}.cl")
            k = Kernel(src)
            ref, why = self.reference(k, work)
            for chip, tc in self.targets:
                if ref is None:
                    yield (seed, mode, chip, tc, why[0], 0.0, why[1])
                    continue
                outcome, secs, detail = self.run_target(k, chip, tc, ref, work)
                yield (seed, mode, chip, tc, outcome, secs, detail)


def compare(ref, got, items, secs):
    """The outcome of comparing risa's checksums with PoCL's."""
    bad = [i for i, (x, y) in enumerate(zip(ref, got)) if x != y]
    if not bad:
        return "match", secs, ""
    i = bad[0]
    return "mismatch", secs, f"{len(bad)}/{items} items differ; item {i}: pocl {ref[i]:#x} risa {got[i]:#x}"


def seed_range(text):
    m = re.fullmatch(r"(\d+)\.\.(\d+)", text)
    if not m:
        raise argparse.ArgumentTypeError("--seeds takes A..B (B excluded)")
    return int(m.group(1)), int(m.group(2))


def shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not 0 <= int(m.group(1)) < int(m.group(2)):
        raise argparse.ArgumentTypeError("--shard takes K/N with 0 <= K < N")
    return int(m.group(1)), int(m.group(2))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=seed_range, default=(0, 100),
                   help="seed range A..B, B excluded (default 0..100)")
    p.add_argument("--shard", type=shard, default=(0, 1),
                   help="K/N: only the seeds s with s %% N == K (default 0/1)")
    p.add_argument("--modes", default=",".join(MODES),
                   help=f"CLSmith modes, comma-separated (default all: {','.join(MODES)})")
    p.add_argument("--targets", default=DEFAULT_TARGETS,
                   help="chip:toolchain list, toolchain clang14 or clang19 "
                        "(cayman only with clang14)")
    p.add_argument("--risa", default=str(REPO / "target/release/risa"),
                   help="the risa binary (default: this checkout's release build)")
    p.add_argument("--keep", help="copy every generated kernel here as MODE-SEED.cl")
    p.add_argument("--every-build", action="store_true",
                   help="try clang-14 on every GCN chip even after it crashed in instruction "
                        "selection on one (by default the rest are `clang-skip`)")
    p.add_argument("--via-icd", action="store_true",
                   help="run the targets through risa's OpenCL platform with cl_launcher "
                        "(the ICD compiles) instead of clang + `risa run`")
    p.add_argument("--icd", default=str(REPO / "target/release/librisa_opencl.so"),
                   help="risa's ICD for --via-icd (default: this checkout's release build)")
    p.add_argument("--platform", type=int, default=0, help="PoCL's OpenCL platform index")
    p.add_argument("--device", type=int, default=0, help="PoCL's device index")
    p.add_argument("--gen-timeout", type=float, default=30)
    p.add_argument("--pocl-timeout", type=float, default=60)
    p.add_argument("--clang-timeout", type=float, default=60)
    p.add_argument("--risa-timeout", type=float, default=120)
    p.add_argument("--no-second-opinion", dest="second_opinion", action="store_false",
                   help="do not ask Oclgrind (when installed) about kernels risa and PoCL "
                        "disagree on")
    p.add_argument("--oclgrind-timeout", type=float, default=900)
    p.add_argument("--max-instructions", type=int, default=50_000_000,
                   help="risa's per-wave instruction limit")
    a = p.parse_args()
    modes = a.modes.split(",")
    for m in modes:
        if m not in MODES:
            p.error(f"unknown mode {m!r}; modes: {', '.join(MODES)}")
    if a.via_icd and not Path(a.icd).exists():
        p.error(f"no risa ICD at {a.icd} (cargo build --release -p risa-opencl)")
    if not a.via_icd and not Path(a.risa).exists():
        p.error(f"no risa binary at {a.risa} (cargo build --release -p risa-cli)")
    c = Campaign(a)
    k, n = a.shard
    for seed in range(*a.seeds):
        if seed % n != k:
            continue
        for mode in modes:
            for row in c.kernel(seed, mode):
                seed_, mode_, chip, tc, outcome, secs, detail = row
                print(f"{seed_}\t{mode_}\t{chip}\t{tc}\t{outcome}\t{secs:.2f}\t{detail}",
                      flush=True)


if __name__ == "__main__":
    main()
