#!/usr/bin/env python3
"""Cross-check the scalar instruction tables against llvm-mc.

Tables: crates/gcn/tables/{sop2,sopk,sop1,sopc,sopp,smrd,smem}.tbl

For every row and every generation column that has an opcode, a sample
instruction is built from the row's signature and assembled with
`llvm-mc -arch=amdgcn -mcpu=<cpu> -show-encoding` (one llvm-mc run per file
and generation).  Checks:

  (a) llvm-mc accepts the sample;
  (b) the encoding-type bits match the file's encoding and the opcode field
      of the first dword equals the table's opcode, and llvm-mc prints the
      instruction back with the same operands (order and register widths);
  (c) for a `-` column, llvm-mc rejects the sample -- unless the same
      mnemonic is defined for that generation by another scalar row (e.g.
      s_load_dword is SMRD on gfx6/7 and SMEM on gfx8/9), or the pair is a
      documented case where llvm-mc is more permissive than the hardware
      documentation (PERMISSIVE below; printed, not counted as a failure).

Rows flagged `nollvm` are checked the other way round: llvm-mc must reject
the mnemonic on every generation.

When the CLRX documentation is present (--clrx), every (mnemonic, generation,
opcode) of its opcode tables must be in the tables and vice versa (known
slips of those tables: CLRX_ERRATA).

Usage: check_scalar.py [-v] [--llvm-mc PATH] [--tables DIR]
Exit status 0 when every check passes.

The helpers (sample_operand, sample_line, run_llvm_mc, field) are meant to be
imported by other checkers.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tblparse import CPUS, GENS, parse_tbl  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLE_DIR = os.path.join(ROOT, "crates", "gcn", "tables")

SCALAR_FILES = ("sop2", "sopk", "sop1", "sopc", "sopp", "smrd", "smem")

# Encoding of each file: (opcode lsb, opcode width, encoding-field lsb,
# encoding-field width, encoding-field value), all in the first dword.
ENCODINGS = {
    "sop2": (23, 7, 30, 2, 0b10),
    "sopk": (23, 5, 28, 4, 0b1011),
    "sop1": (8, 8, 23, 9, 0b101111101),
    "sopc": (16, 7, 23, 9, 0b101111110),
    "sopp": (16, 7, 23, 9, 0b101111111),
    "smrd": (22, 5, 27, 5, 0b11000),
    "smem": (18, 8, 26, 6, 0b110000),
}

# (mnemonic, generation) pairs that the CLRX documentation marks as absent
# but that LLVM 14 still assembles (its definitions are not gated for that
# subtarget).  The tables follow the hardware documentation; see
# docs/tables/scalar.md for the evidence.
PERMISSIVE = {
    ("s_setkill", "g10"): "LLVM defines SOPP s_setkill for SI as well; CLRX: GCN 1.1+",
    ("s_cbranch_cdbgsys", "g10"): "LLVM defines it for SI as well; CLRX: GCN 1.1+",
    ("s_cbranch_cdbguser", "g10"): "LLVM defines it for SI as well; CLRX: GCN 1.1+",
    ("s_cbranch_cdbgsys_or_user", "g10"): "LLVM defines it for SI as well; CLRX: GCN 1.1+",
    ("s_cbranch_cdbgsys_and_user", "g10"): "LLVM defines it for SI as well; CLRX: GCN 1.1+",
}

# --------------------------------------------------------------------------
# sample generation

_WIDTH = {"16": 1, "32": 1, "64": 2, "96": 3, "128": 4, "160": 5,
          "256": 8, "512": 16}

# first SGPR used for each role, chosen so that every width stays aligned
# and the roles never overlap
_ROLE_BASE = {"D": 0, "A": 32, "B": 48, "O": 60, "C": 56}


def reg_dwords(typ):
    """Number of 32-bit registers an operand type occupies (None: not a reg)."""
    typ = typ.split(":")[-1]
    m = re.match(r"^[biuf](\d+)$", typ)
    if m:
        return _WIDTH.get(m.group(1))
    return None


def sgpr(base, n):
    return "s%d" % base if n == 1 else "s[%d:%d]" % (base, base + n - 1)


# samples for the special immediate types
SPECIAL_IMM = {
    "label": "4",
    "hwreg": "hwreg(HW_REG_MODE, 0, 4)",
    "sendmsg": "sendmsg(MSG_INTERRUPT)",
    "waitcnt": "vmcnt(0) lgkmcnt(0)",
    "imm16": "0x3",
    "simm16": "-12",
    "gpridx": "gpr_idx(SRC0,DST)",
}


def sample_operand(fam, role, typ, flags):
    """Text of one operand of a sample instruction."""
    if typ in SPECIAL_IMM:
        return SPECIAL_IMM[typ]
    if role == "L":
        return "0x12345678"
    if role == "D" and "imm:D" in flags:
        return "0x3"
    if role == "O":
        return "0x4"
    n = reg_dwords(typ)
    if n is None:
        raise ValueError("no sample for %s:%s" % (role, typ))
    return sgpr(_ROLE_BASE.get(role, 40), n)


def sample_line(fam, row):
    ops = [sample_operand(fam, r, t, row["flags"]) for r, t in row["sig"]]
    return row["name"] + (" " + ", ".join(ops) if ops else "")


# --------------------------------------------------------------------------
# llvm-mc

_ENC_RE = re.compile(r"encoding:\s*\[([^\]]*)\]")
_ERR_RE = re.compile(r"^<stdin>:(\d+):\d+:\s*error:\s*(.*)$", re.M)


def run_llvm_mc(lines, cpu, llvm_mc="llvm-mc"):
    """Assemble `lines` in one llvm-mc run.

    Returns a list parallel to `lines` of ("ok", bytes, printed_text) or
    ("err", message, None).
    """
    src = "".join(l + "\n" for l in lines)
    p = subprocess.run([llvm_mc, "-arch=amdgcn", "-mcpu=" + cpu,
                        "-show-encoding"],
                       input=src, capture_output=True, text=True)
    errors = {}
    for m in _ERR_RE.finditer(p.stderr):
        errors.setdefault(int(m.group(1)), m.group(2).strip())
    encs = []
    for out in p.stdout.splitlines():
        m = _ENC_RE.search(out)
        if m:
            encs.append((bytes(int(b, 16) for b in m.group(1).split(",") if b.strip()),
                         out.split(";", 1)[0].strip()))
    result = []
    it = iter(encs)
    for i in range(len(lines)):
        if i + 1 in errors:
            result.append(("err", errors[i + 1], None))
        else:
            enc = next(it, None)
            if enc is None:
                result.append(("err", "no encoding printed", None))
            else:
                result.append(("ok", enc[0], enc[1]))
    return result


def _canon_tok(tok):
    """Numbers compare by value modulo 2^16 (llvm-mc prints simm16 as 0xfff4)."""
    try:
        return "#%d" % (int(tok, 0) & 0xffff)
    except ValueError:
        return tok


def canon_text(text):
    """Normalise an instruction's text: whitespace, number formats."""
    toks = re.split(r"\s*,\s*|\s+", text.strip())
    return [_canon_tok(t) for t in toks if t]


# errors meaning "no such instruction here" (as opposed to bad operands)
_MNEMONIC_ERR = re.compile(r"instruction not supported on this GPU|invalid instruction")


def field(dword, lsb, width):
    return (dword >> lsb) & ((1 << width) - 1)


def check_encoding(fam, enc, opcode):
    """Return None when `enc` is a `fam` instruction with `opcode`, else why not."""
    if len(enc) < 4:
        return "short encoding %s" % enc.hex()
    d0 = int.from_bytes(enc[:4], "little")
    olsb, owid, elsb, ewid, eval_ = ENCODINGS[fam]
    if field(d0, elsb, ewid) != eval_:
        return "encoding field %#x is not %s (%s)" % (field(d0, elsb, ewid), fam, enc.hex())
    if fam == "sop2" and field(d0, 28, 2) == 0b11:
        return "SOP2 slot holds another encoding (%s)" % enc.hex()
    if fam == "sopk" and field(d0, 23, 5) >= 0x1c:
        return "SOPK slot holds SOP1/SOPC/SOPP (%s)" % enc.hex()
    got = field(d0, olsb, owid)
    if got != opcode:
        return "opcode %#x, table says %#x (%s)" % (got, opcode, enc.hex())
    return None


# --------------------------------------------------------------------------
# completeness against the CLRX opcode tables

CLRX_DIR = "/work/shared/reference/clrx-doc"

# CLRX page per file, and how its opcode table's columns map to generations:
# each entry lists, per generation g10..g14, which table column holds the
# mnemonic ("tick" tables: column i is a check mark, the name is in `name`).
_CLRX_LAYOUT = {
    "sop2": ("GcnInstrsSop2.md", (0, 0, 1, 2), None),
    "sopk": ("GcnInstrsSopk.md", (0, 0, 1, 2), None),
    "sop1": ("GcnInstrsSop1.md", (0, 0, 1, 2), None),
    "sopc": ("GcnInstrsSopc.md", (0, 0, 1, 1), None),
    "smrd": ("GcnInstrsSmrd.md", (0, 1, None, None), None),
    "sopp": ("GcnInstrsSopp.md", (0, 1, 2, 3), 4),
    "smem": ("GcnInstrsSmem.md", (None, None, 0, 1), 2),
}

# Known slips of the CLRX opcode tables (docs/tables/scalar.md):
# (file, opcode, name in the CLRX table) -> the real mnemonic, or None to drop.
CLRX_ERRATA = {
    ("smem", 24, "s_buffer_load_dword"): "s_buffer_store_dword",
    ("smem", 25, "s_buffer_load_dwordx2"): "s_buffer_store_dwordx2",
    ("smem", 26, "s_buffer_load_dwordx4"): "s_buffer_store_dwordx4",
    ("sopc", 19, "s_cmp_ne_u64"): None,   # CLRX alias of s_cmp_lg_u64
}

_CLRX_ROW = re.compile(r"^\s*(\d+) \(0x[0-9a-fA-F]+\)\s*\|(.*)$")


def clrx_opcodes(fam, doc_dir=CLRX_DIR):
    """{(name, gen): opcode} from the opcode table of a CLRX page."""
    page, cols, name_col = _CLRX_LAYOUT[fam]
    out = {}
    with open(os.path.join(doc_dir, page), encoding="utf-8") as f:
        for line in f:
            m = _CLRX_ROW.match(line)
            if not m:
                continue
            op = int(m.group(1))
            cells = [c.strip() for c in m.group(2).split("|")]
            for gi, col in enumerate(cols):
                if col is None or col >= len(cells):
                    continue
                if name_col is None:
                    names = cells[col]
                elif cells[col]:
                    names = cells[name_col]
                else:
                    continue
                for n in names.split(","):
                    n = n.strip().lower()
                    if not n or n == "--":
                        continue
                    n = CLRX_ERRATA.get((fam, op, n), n)
                    if n:
                        out[(n, GENS[gi])] = op
    return out


def check_clrx(tables, doc_dir):
    """Compare the tables with CLRX's opcode tables; returns (n_ok, failures)."""
    ok, fails = 0, []
    for fam, rows in tables.items():
        want = clrx_opcodes(fam, doc_dir)
        have = {}
        for r in rows:
            name = r["clrx"] or r["name"]
            for gi, g in enumerate(GENS):
                if r["ops"][gi] is not None:
                    have[(name, g)] = (r["ops"][gi], r["line"])
        for key, op in sorted(want.items()):
            if key not in have:
                fails.append("%s.tbl: CLRX lists %s for %s (opcode %#x), table does not"
                             % (fam, key[0], key[1], op))
            elif have[key][0] != op:
                fails.append("%s.tbl:%d: %s %s opcode %#x, CLRX says %#x"
                             % (fam, have[key][1], key[0], key[1], have[key][0], op))
            else:
                ok += 1
        for key, (op, line) in sorted(have.items()):
            if key not in want:
                fails.append("%s.tbl:%d: %s %s not in CLRX's opcode table"
                             % (fam, line, key[0], key[1]))
    return ok, fails


# --------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--llvm-mc", default="llvm-mc")
    ap.add_argument("--tables", default=TABLE_DIR)
    ap.add_argument("--clrx", default=CLRX_DIR,
                    help="CLRX doc folder for the completeness check ('' to skip)")
    args = ap.parse_args(argv)

    tables = {f: parse_tbl(os.path.join(args.tables, f + ".tbl")) for f in SCALAR_FILES}
    defined = {}  # (name, gen) -> file of the row that defines it
    failures = []
    for fam, rows in tables.items():
        for r in rows:
            for gi, g in enumerate(GENS):
                if r["ops"][gi] is not None:
                    key = (r["name"], g)
                    if key in defined:
                        failures.append("%s.tbl:%d: %s defined twice for %s (also %s.tbl)"
                                        % (fam, r["line"], r["name"], g, defined[key]))
                    defined[key] = fam

    nrows = sum(len(r) for r in tables.values())
    passed = 0
    exceptions = []
    for fam, rows in tables.items():
        for gi, (g, cpu) in enumerate(zip(GENS, CPUS)):
            jobs = []  # (row, kind, line)
            for r in rows:
                try:
                    line = sample_line(fam, r)
                except ValueError as e:
                    failures.append("%s.tbl:%d: %s" % (fam, r["line"], e))
                    continue
                op = r["ops"][gi]
                if "nollvm" in r["flags"]:
                    jobs.append((r, "reject", line))
                elif op is not None:
                    jobs.append((r, "accept", line))
                elif (r["name"], g) not in defined:
                    jobs.append((r, "reject", line))
            results = run_llvm_mc([j[2] for j in jobs], cpu, args.llvm_mc)
            for (r, kind, line), (st, val, text) in zip(jobs, results):
                where = "%s.tbl:%d: %s [%s/%s] `%s`" % (fam, r["line"], r["name"], g, cpu, line)
                if kind == "accept":
                    if st != "ok":
                        failures.append("%s: llvm-mc rejects: %s" % (where, val))
                        continue
                    why = check_encoding(fam, val, r["ops"][gi])
                    if not why and canon_text(text) != canon_text(line):
                        why = "llvm-mc prints it as `%s`" % text
                    if why:
                        failures.append("%s: %s" % (where, why))
                        continue
                    passed += 1
                    if args.verbose:
                        print("ok   %s -> %s" % (where, val.hex()))
                else:
                    if st == "err" and not _MNEMONIC_ERR.search(val):
                        failures.append("%s: rejected, but for its operands, not its "
                                        "mnemonic: %s" % (where, val))
                    elif st == "err":
                        passed += 1
                        if args.verbose:
                            print("ok   %s rejected: %s" % (where, val))
                    elif (r["name"], g) in PERMISSIVE and "nollvm" not in r["flags"]:
                        exceptions.append("%s: llvm-mc accepts (%s); %s"
                                          % (where, val.hex(), PERMISSIVE[(r["name"], g)]))
                    else:
                        failures.append("%s: table says absent but llvm-mc accepts (%s)"
                                        % (where, val.hex()))

    clrx_note = "CLRX completeness skipped"
    if args.clrx and os.path.isdir(args.clrx):
        n_ok, clrx_fails = check_clrx(tables, args.clrx)
        failures.extend(clrx_fails)
        clrx_note = "%d (name,gen) opcodes agree with CLRX" % n_ok

    for e in exceptions:
        print("exception: " + e)
    for f in failures:
        print("FAIL: " + f)
    print("scalar tables: %d rows, %d (row,gen) checks passed, %d failed, "
          "%d exceptions; %s" % (nrows, passed, len(failures), len(exceptions), clrx_note))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
