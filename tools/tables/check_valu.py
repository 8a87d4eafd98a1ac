#!/usr/bin/env python3
"""Cross-check the vector ALU instruction tables against llvm-mc.

Tables: crates/gcn/tables/{vop2,vop1,vopc,vop3,vop3p,vintrp}.tbl

For every row and every generation column that has an opcode, sample
instructions are built from the row's signature:

  * VOP2/VOP1/VOPC rows: the `_e32` form, the `_e64` form (unless `novop3`),
    and on GCN 1.2/1.4 the `_sdwa` and `_dpp` forms (unless `nosdwa`/`nodpp`);
  * VINTRP rows: the plain form, and on GCN 1.2/1.4 the `_e64` (VOP3) form;
  * VOP3/VOP3P rows: the plain form.

All samples of one (file, generation) are assembled by a single
`llvm-mc -arch=amdgcn -mcpu=<cpu> -show-encoding` run.  Checks:

  (a) llvm-mc accepts the sample;
  (b) the encoding-type bits are those of the expected encoding and the
      opcode field equals the table's opcode -- for `_e64` forms of
      VOP1/VOP2/VOPC/VINTRP rows, the opcode derived by the README rule;
  (c) for a `-` column, llvm-mc rejects the row's primary form (e32 / plain),
      unless the mnemonic is defined for that generation by another row;
  (d) source types: in the VOP3 form, a float-typed source (f16/f32/f64)
      accepts the `-` (neg) modifier and an integer/bit-typed one does not,
      except for the pairs listed in NEG_EXCEPTIONS;
  (e) forms flagged `novop3`/`nosdwa`/`nodpp` are rejected by llvm-mc;
  (f) VOP3-only rows whose destination is a float accept `mul:2` (omod)
      unless flagged `noomod`, and reject it when flagged.

Rows flagged `nollvm` are checked the other way round: llvm-mc must reject
the primary form on every generation of the row.

Usage: check_valu.py [-v] [--llvm-mc PATH] [--tables DIR]
Prints `valu tables: N rows, M checks passed, K failed`; exit status 0 when
every check passes.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tblparse import CPUS, parse_tbl  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLE_DIR = os.path.join(ROOT, "crates", "gcn", "tables")
FILES = ("vop2", "vop1", "vopc", "vop3", "vop3p", "vintrp")

# Sources whose neg-modifier acceptance in llvm-mc 14 does not follow the
# float/integer type of the table (see docs/tables/valu.md).  Keyed by
# (name, role); value: the set of generation indexes concerned (None = all).
NEG_EXCEPTIONS = {
    # v_cndmask_b32_e64 takes abs/neg on its b32 sources in llvm-mc 14.
    ("v_cndmask_b32", "A"): None,
    ("v_cndmask_b32", "B"): None,
}

# (name, generation) pairs that the CLRX documentation does not list but that
# llvm-mc 14 accepts as another spelling of a listed instruction; the check
# (c) is skipped for them (see docs/tables/valu.md).
LLVM_ALIASES = {
    ("v_mul_lo_i32", 2): "v_mul_lo_u32",   # same encoding, VOP3 0x285
    ("v_mul_lo_i32", 3): "v_mul_lo_u32",
}

LITERAL = {"f16": "0x4900", "f32": "0x41200000"}
DPP = " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"


def width(ty):
    """Register width of a type in dwords."""
    ty = ty.split(":")[-1]
    if ty.startswith("v2"):
        return 1
    m = re.match(r"^[biuf](\d+)$", ty)
    if not m:
        return 1
    return max(1, int(m.group(1)) // 32)


def is_float(ty):
    return re.match(r"^f\d+$", ty) is not None


def is_int(ty):
    return re.match(r"^[biu]\d+$", ty) is not None


def vreg(n, w):
    return "v%d" % n if w == 1 else "v[%d:%d]" % (n, n + w - 1)


def sreg(n, w):
    return "s%d" % n if w == 1 else "s[%d:%d]" % (n, n + w - 1)


def sample(fname, row, gen, form, neg=None, omod=False):
    """Build one sample line.  form: e32, e64, sdwa, dpp, plain."""
    name = row["name"]
    scalar_form = form in ("e32", "sdwa", "dpp")
    ops = []
    vnext, snext, s_src_used = 1, 10, False
    if fname == "vopc":
        ops.append("vcc" if scalar_form or fname == "vintrp" else "s[20:21]")
    for role, ty in row["sig"]:
        base = ty.split(":")[-1]
        w = width(ty)
        if role in ("SD", "SC"):
            if scalar_form or fname == "vintrp":
                txt = "vcc"
            else:
                txt = "s[20:21]" if role == "SD" else "s[22:23]"
        elif role == "L":
            txt = LITERAL.get(base, "0x41200000")
        elif role == "T":
            txt = "attr0.x"
        elif role == "P":
            txt = "p10"
        elif ty.startswith("s:"):
            if role == "D":
                txt = sreg(0, w)
            elif not s_src_used:
                snext += snext % 2 if w > 1 else 0
                txt = sreg(snext, w)
                snext += w
                s_src_used = True
            else:
                txt = "1"
        elif role == "D":
            txt = vreg(100, w)
        else:
            txt = vreg(vnext, w)
            vnext += w
            if neg == role:
                txt = "-" + txt
        ops.append(txt)
    suffix = {"e32": "_e32", "e64": "_e64", "sdwa": "_sdwa", "dpp": "_dpp",
              "plain": ""}[form]
    line = name + suffix
    if ops:
        line += " " + ", ".join(ops)
    if form == "dpp":
        line += DPP
    if omod:
        line += " mul:2"
    return line


def run_llvm_mc(llvm_mc, cpu, lines):
    """Assemble lines; returns a list with the encoding bytes (list of int) or
    None (rejected) for each line, and the error text per rejected line."""
    proc = subprocess.run(
        [llvm_mc, "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"],
        input="\n".join(lines) + "\n", capture_output=True, text=True)
    errors = {}
    for ln in proc.stderr.splitlines():
        m = re.match(r"^<stdin>:(\d+):\d+: error: (.*)$", ln)
        if m:
            errors.setdefault(int(m.group(1)) - 1, m.group(2))
    encs = []
    for ln in proc.stdout.splitlines():
        m = re.search(r"; encoding: \[([^\]]*)\]", ln)
        if m:
            encs.append([int(x, 16) for x in m.group(1).split(",")])
    result, it = [], iter(encs)
    for i in range(len(lines)):
        if i in errors:
            result.append(None)
        else:
            result.append(next(it, None))
    return result, errors


def dword(enc, i=0):
    b = enc[4 * i:4 * i + 4]
    return b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24


def decode(fname, form, gen, enc):
    """Return (encoding ok, opcode) for the first dword of enc."""
    d = dword(enc)
    if form == "e64" or fname == "vop3":
        ok = (d >> 26) == 0b110100
        op = (d >> 17) & 0x1ff if gen < 2 else (d >> 16) & 0x3ff
        return ok, op
    if fname == "vop3p":
        return (d >> 23) == 0b110100111, (d >> 16) & 0x7f
    ok_src0 = True
    if form == "sdwa":
        ok_src0 = (d & 0x1ff) == 0xf9
    elif form == "dpp":
        ok_src0 = (d & 0x1ff) == 0xfa
    if fname == "vop2":
        return ok_src0 and (d >> 31) == 0, (d >> 25) & 0x3f
    if fname == "vop1":
        return ok_src0 and (d >> 25) == 0b0111111, (d >> 9) & 0xff
    if fname == "vopc":
        return ok_src0 and (d >> 25) == 0b0111110, (d >> 17) & 0xff
    if fname == "vintrp":
        want = 0b110010 if gen < 2 else 0b110101
        return (d >> 26) == want, (d >> 16) & 0x3
    raise ValueError(fname)


def derived_vop3(fname, gen, op):
    if fname == "vopc":
        return op
    if fname == "vop2":
        return 0x100 + op
    if fname == "vop1":
        return (0x180 if gen < 2 else 0x140) + op
    if fname == "vintrp":
        return 0x270 + op
    return op


def forms_for(fname, row, gen):
    fl = row["flags"]
    if fname in ("vop3", "vop3p"):
        return ["plain"]
    if fname == "vintrp":
        return ["e32"] + (["e64"] if gen >= 2 else [])
    out = ["e32"]
    if "novop3" not in fl:
        out.append("e64")
    if gen >= 2:
        if "nosdwa" not in fl:
            out.append("sdwa")
        if "nodpp" not in fl:
            out.append("dpp")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--llvm-mc", default="llvm-mc")
    ap.add_argument("--tables", default=TABLE_DIR)
    args = ap.parse_args()

    tables = {f: parse_tbl(os.path.join(args.tables, f + ".tbl")) for f in FILES}
    defined = set()  # (name, gen) pairs defined by any row
    for f in FILES:
        for r in tables[f]:
            for g in range(4):
                if r["ops"][g] is not None:
                    defined.add((r["name"], g))

    nrows = sum(len(v) for v in tables.values())
    passed, failed = 0, 0
    fails = []

    for f in FILES:
        for g in range(4):
            jobs = []  # (line, row, kind, form, extra)
            for r in tables[f]:
                op = r["ops"][g]
                if "nollvm" in r["flags"]:
                    if op is not None:
                        primary = "plain" if f in ("vop3", "vop3p") else "e32"
                        jobs.append((sample(f, r, g, primary), r, "reject", primary, None))
                    continue
                if op is None:
                    if (r["name"], g) not in defined and (r["name"], g) not in LLVM_ALIASES:
                        primary = "plain" if f in ("vop3", "vop3p") else "e32"
                        jobs.append((sample(f, r, g, primary), r, "reject", primary, None))
                    continue
                for form in forms_for(f, r, g):
                    jobs.append((sample(f, r, g, form), r, "accept", form, None))
                # flagged forms must really be rejected
                if f in ("vop1", "vop2", "vopc"):
                    flagged = [("novop3", "e64")]
                    if g >= 2:
                        flagged += [("nosdwa", "sdwa"), ("nodpp", "dpp")]
                    for flag, form in flagged:
                        if flag in r["flags"]:
                            jobs.append((sample(f, r, g, form), r, flag, form, None))
                # (d) neg modifier follows the source type
                if f in ("vop3p", "vintrp"):
                    continue
                vop3form = "plain" if f == "vop3" else "e64"
                if vop3form == "e64" and "novop3" in r["flags"]:
                    continue
                for role, ty in r["sig"]:
                    if role not in ("A", "B", "C") or ty.startswith("s:"):
                        continue
                    if not (is_float(ty) or is_int(ty)):
                        continue
                    want = is_float(ty)
                    exc = NEG_EXCEPTIONS.get((r["name"], role), ())
                    if exc is None or g in exc:  # None: every generation
                        want = not want
                    jobs.append((sample(f, r, g, vop3form, neg=role), r,
                                 "neg-accept" if want else "neg-reject", vop3form, role))
                # (e) omod on VOP3-only rows with a float destination
                if f == "vop3" and r["sig"] and r["sig"][0][0] == "D" \
                        and is_float(r["sig"][0][1]):
                    want = "noomod" not in r["flags"]
                    jobs.append((sample(f, r, g, "plain", omod=True), r,
                                 "omod-accept" if want else "omod-reject", "plain", None))
            if not jobs:
                continue
            res, errs = run_llvm_mc(args.llvm_mc, CPUS[g], [j[0] for j in jobs])
            for i, (line, r, kind, form, extra) in enumerate(jobs):
                enc = res[i]
                where = "%s.tbl:%d %s [%s]" % (f, r["line"], r["name"], CPUS[g])
                msg = None
                if kind in ("reject", "neg-reject", "omod-reject", "novop3", "nosdwa", "nodpp"):
                    if enc is not None:
                        msg = "%s: llvm-mc accepts `%s`" % (kind, line)
                elif enc is None:
                    msg = "%s: llvm-mc rejects `%s`: %s" % (kind, line, errs.get(i))
                elif kind == "accept":
                    ok, op = decode(f, form, g, enc)
                    want = r["ops"][g]
                    if form == "e64" and f in ("vop1", "vop2", "vopc", "vintrp"):
                        want = derived_vop3(f, g, want)
                    if not ok:
                        msg = "`%s`: unexpected encoding %s" % (line, enc)
                    elif op != want:
                        msg = "`%s`: opcode 0x%x, table says 0x%x" % (line, op, want)
                if msg:
                    failed += 1
                    fails.append(where + ": " + msg)
                else:
                    passed += 1
                    if args.v:
                        print("ok   %s: %s `%s`" % (where, kind, line))
    for m in fails:
        print("FAIL " + m)
    print("valu tables: %d rows, %d checks passed, %d failed" % (nrows, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
