#!/usr/bin/env python3
"""Cross-check the memory/export instruction tables against LLVM 14's llvm-mc.

Tables: crates/gcn/tables/{ds,mubuf,mtbuf,mimg,exp,flat,global,scratch}.tbl

For every row and every generation column (GCN 1.0/1.1/1.2/1.4 = tahiti,
hawaii, fiji, gfx900) a sample instruction in LLVM syntax is built from the
row's signature and flags, and all samples of one (file, generation) are fed
to one llvm-mc run.  Checks:

  (a) a column with an opcode: llvm-mc accepts the sample;
  (b) ... and the opcode field of the encoding equals the table's opcode
      (and, for GLOBAL/SCRATCH/FLAT on GCN 1.4, the SEG field matches the file;
      for EXP, which has no opcode field, the encoding-type field);
  (c) a column with `-` (and no other row of the file gives that NAME an
      opcode in that generation): llvm-mc rejects the sample.

Flag checks: DS `gds` rows are also tried without `gds` (must be accepted
with the GDS bit set: bit 17 on GCN 1.0/1.1, bit 16 on GCN 1.2/1.4),
DS `nogds` rows are tried with `gds` (must be rejected), other DS rows with
`gds` (must be accepted); MUBUF `lds` rows are tried with the `lds` modifier
(must be accepted).

Rows flagged `nollvm` are skipped (CLRX documents them; LLVM 14 does not).

Usage: check_mem.py [-v] [--repo DIR]
Prints `mem tables: N rows, M checks passed, K failed`; exits 1 on failure.
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tblparse  # noqa: E402

FILES = ("ds", "mubuf", "mtbuf", "mimg", "exp", "flat", "global", "scratch")
GEN_NAMES = ("1.0", "1.1", "1.2", "1.4")
CPUS = ("tahiti", "hawaii", "fiji", "gfx900")

# ---------------------------------------------------------------- operands

_WIDTH = {"16": 1, "32": 1, "64": 2, "96": 3, "128": 4, "160": 5, "256": 8,
          "512": 16}


def regs_of(typ, gen):
    """Number of VGPRs an operand of this type occupies in generation gen
    (index 0..3)."""
    typ = typ.split(":")[-1]
    m = re.match(r"^d16x(\d)$", typ)
    if m:
        n = int(m.group(1))
        return (n + 1) // 2 if gen == 3 else n  # packed on gfx9 only
    if typ.startswith("v2"):
        return 1
    m = re.match(r"^[buif](\d+)$", typ)
    if not m:
        raise ValueError("unknown type %r" % typ)
    return _WIDTH[m.group(1)]


def vreg(base, n):
    return "v%d" % base if n == 1 else "v[%d:%d]" % (base, base + n - 1)


# register bases per role, far enough apart never to overlap
BASE = {"D": 10, "A": 20, "B": 30, "C": 40, "V": 50}


def ops_text(row, gen, roles=None):
    out = []
    for role, typ in row["sig"]:
        if roles is not None and role not in roles:
            continue
        out.append(vreg(BASE[role], regs_of(typ, gen)))
    return out


def sig_of(row, role):
    for r, t in row["sig"]:
        if r == role:
            return t
    return None


# ---------------------------------------------------------------- samples
# Each builder returns a list of (kind, text):
#   kind "main"   - the row's sample; accepted+opcode check or rejected check
#   kind "accept" - an extra sample that must be accepted (flag check)
#   kind "reject" - an extra sample that must be rejected (flag check)
#   kind "gdsbit" - an extra DS sample without `gds` that must be accepted
#                   and still get the GDS bit (rows flagged `gds`)


def sample_ds(row, gen):
    ops = ", ".join(ops_text(row, gen))
    base = "%s %s" % (row["name"], ops) if ops else row["name"]
    fl = row["flags"]
    if "gds" in fl:
        # always GDS: llvm-mc accepts it without `gds` and sets the GDS bit
        return [("main", base + " gds"), ("gdsbit", base)]
    res = [("main", base)]
    if "nogds" in fl:
        res.append(("reject", base + " gds"))
    elif row["name"] != "ds_nop":
        res.append(("accept", base + " gds"))
    return res


def sample_mubuf(row, gen):
    fl = row["flags"]
    if "noargs" in fl:
        return [("main", row["name"])]
    ops = ops_text(row, gen)
    if not ops:  # buffer_store_lds_dword: only SRSRC, SOFFSET
        return [("main", "%s s[4:7], s1" % row["name"])]
    text = "%s %s, off, s[4:7], s1" % (row["name"], ops[0])
    if "atomic" in fl:
        text += " glc"
    res = [("main", text)]
    if "lds" in fl:
        res.append(("accept", "%s %s, off, s[4:7], s1 lds" % (row["name"], ops[0])))
    return res


def sample_mtbuf(row, gen):
    ops = ops_text(row, gen)
    return [("main", "%s %s, off, s[4:7], s1" % (row["name"], ops[0]))]


def sample_mimg(row, gen):
    fl = row["flags"]
    vt = sig_of(row, "V")
    at = sig_of(row, "A")
    nv = regs_of(vt, gen)
    dmask = (1 << nv) - 1
    if "gather4" in fl:
        nv, dmask = 4, 1
    text = "%s %s, %s, s[4:11]" % (row["name"], vreg(BASE["V"], nv),
                                   vreg(BASE["A"], regs_of(at, gen)))
    if "sampler" in fl:
        text += ", s[12:15]"
    text += " dmask:0x%x" % dmask
    if "atomic" in fl:
        text += " glc"
    return [("main", text)]


def sample_exp(row, gen):
    return [("main", "%s mrt0 v1, v2, v3, v4" % row["name"])]


def sample_flatlike(suffix):
    def build(row, gen):
        fl = row["flags"]
        ops = ops_text(row, gen)
        text = "%s %s" % (row["name"], ", ".join(ops))
        if suffix:
            text += suffix
        if "atomic" in fl:
            text += " glc"
        return [("main", text)]
    return build


BUILDERS = {
    "ds": sample_ds, "mubuf": sample_mubuf, "mtbuf": sample_mtbuf,
    "mimg": sample_mimg, "exp": sample_exp, "flat": sample_flatlike(""),
    "global": sample_flatlike(", off"), "scratch": sample_flatlike(", off"),
}

# ---------------------------------------------------------------- decoding


def bits(word, hi, lo):
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


def opcode_of(fname, gen, word):
    """Opcode field of the first instruction dword (positions per the CLRX
    encoding pages)."""
    if fname == "ds":
        return bits(word, 25, 18) if gen < 2 else bits(word, 24, 17)
    if fname == "mtbuf":
        return bits(word, 18, 16) if gen < 2 else bits(word, 18, 15)
    if fname == "exp":
        return 0  # EXP has no opcode field
    return bits(word, 24, 18)  # MUBUF, MIMG, FLAT, GLOBAL, SCRATCH


# encoding-type field (bits 31:26) per file and generation
ENC_ID = {
    "ds": (0x36,) * 4, "mubuf": (0x38,) * 4, "mtbuf": (0x3a,) * 4,
    "mimg": (0x3c,) * 4, "exp": (0x3e, 0x3e, 0x31, 0x31),
    "flat": (0x37,) * 4, "global": (0x37,) * 4, "scratch": (0x37,) * 4,
}
SEG = {"flat": 0, "scratch": 1, "global": 2}

# Generations where LLVM 14's llvm-mc accepts an instruction that the table
# (following the CLRX documentation) leaves out; see docs/tables/mem.md.
# (file, NAME, generation index) -> opcode llvm-mc encodes.  Instead of the
# rejection check, the checker confirms llvm-mc still behaves this way.
KNOWN_LAX = {
    ("mubuf", "buffer_load_dwordx3", 0): 0x0f,
    ("mubuf", "buffer_store_dwordx3", 0): 0x1f,
    ("mimg", "image_atomic_rsub", 1): 0x13,
}


def run_llvm_mc(cpu, lines):
    """Assemble lines (one instruction each).  Returns a list, per line,
    of either ('ok', first_dword, text) or ('err', message)."""
    src = "".join(l + "\n" for l in lines)
    p = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=" + cpu,
                        "-show-encoding"], input=src, capture_output=True,
                       text=True)
    errs = {}
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", p.stderr, re.M):
        errs.setdefault(int(m.group(1)), m.group(2))
    encs = []
    for l in p.stdout.splitlines():
        m = re.match(r"^\s*(\S.*?)\s*; encoding: \[([^\]]*)\]", l)
        if m:
            b = [int(x, 16) for x in m.group(2).split(",")]
            encs.append((b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24, m.group(1)))
    res = []
    k = 0
    for i in range(1, len(lines) + 1):
        if i in errs:
            res.append(("err", errs[i]))
        elif k < len(encs):
            res.append(("ok", encs[k][0], encs[k][1]))
            k += 1
        else:
            res.append(("err", "no output"))
    if k != len(encs):
        raise RuntimeError("llvm-mc output out of step for %s" % cpu)
    return res


# ---------------------------------------------------------------- main


def main(argv):
    verbose = "-v" in argv
    repo = os.path.normpath(os.path.join(HERE, "..", ".."))
    if "--repo" in argv:
        repo = argv[argv.index("--repo") + 1]
    tdir = os.path.join(repo, "crates", "gcn", "tables")
    nrows = npass = nfail = nskip = 0
    failures = []
    for fname in FILES:
        path = os.path.join(tdir, fname + ".tbl")
        rows = tblparse.parse_tbl(path)
        nrows += len(rows)
        present = set()
        for r in rows:
            for g, op in enumerate(r["ops"]):
                if op is not None:
                    present.add((r["name"], g))
        seen = set()
        for r in rows:
            for g, op in enumerate(r["ops"]):
                if op is not None:
                    if (r["name"], g) in seen:
                        failures.append("%s.tbl:%d: %s appears twice for GCN %s"
                                        % (fname, r["line"], r["name"], GEN_NAMES[g]))
                        nfail += 1
                    seen.add((r["name"], g))
        for g, cpu in enumerate(CPUS):
            jobs = []  # (row, kind, text)
            for r in rows:
                if "nollvm" in r["flags"]:
                    nskip += 1
                    continue
                op = r["ops"][g]
                if op is None and (r["name"], g) in present:
                    continue  # another row covers this generation
                for kind, text in BUILDERS[fname](r, g):
                    if op is None and kind != "main":
                        continue
                    jobs.append((r, kind, text))
            if not jobs:
                continue
            results = run_llvm_mc(cpu, [j[2] for j in jobs])
            for (r, kind, text), res in zip(jobs, results):
                where = "%s.tbl:%d: %s GCN %s: `%s`" % (
                    fname, r["line"], r["name"], GEN_NAMES[g], text)
                op = r["ops"][g]
                ok = True
                why = ""
                lax = KNOWN_LAX.get((fname, r["name"], g))
                if kind == "main" and op is None and lax is not None:
                    if res[0] != "ok" or opcode_of(fname, g, res[1]) != lax:
                        ok, why = False, "KNOWN_LAX entry no longer holds"
                elif kind == "reject" or (kind == "main" and op is None):
                    if res[0] == "ok":
                        ok, why = False, "llvm-mc accepts it (expected rejection)"
                elif res[0] == "err":
                    ok, why = False, "llvm-mc rejects it: " + res[1]
                elif kind == "gdsbit":
                    if bits(res[1], 17, 17) if g < 2 else bits(res[1], 16, 16):
                        pass
                    else:
                        ok, why = False, "GDS bit not set"
                elif kind == "main":
                    word = res[1]
                    got = opcode_of(fname, g, word)
                    if got != op:
                        ok, why = False, "opcode 0x%x, table says 0x%x" % (got, op)
                    elif bits(word, 31, 26) != ENC_ID[fname][g]:
                        ok, why = False, "encoding field 0x%x" % bits(word, 31, 26)
                    elif fname in SEG and g == 3 and bits(word, 15, 14) != SEG[fname]:
                        ok, why = False, "SEG field %d" % bits(word, 15, 14)
                    elif res[2].split()[0] != r["name"]:
                        ok, why = False, "llvm-mc prints it as %r" % res[2]
                if ok:
                    npass += 1
                    if verbose:
                        print("ok   " + where)
                else:
                    nfail += 1
                    failures.append(where + ": " + why)
    for f in failures:
        print("FAIL " + f)
    print("mem tables: %d rows, %d checks passed, %d failed" % (nrows, npass, nfail))
    print("(%d nollvm row-generations skipped)" % nskip)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
