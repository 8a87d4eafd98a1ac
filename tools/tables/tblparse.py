#!/usr/bin/env python3
"""Parser for the GCN instruction tables in crates/gcn/tables/*.tbl.

Row format (see crates/gcn/tables/README.md):

    NAME  G10  G11  G12  G14  [ROLE:TYPE ...]  [FLAG ...]  [clrx=NAME]

`parse_tbl(path)` returns one dict per row:

    name   mnemonic (str)
    ops    [g10, g11, g12, g14], each an int opcode or None for `-`
    sig    [(role, type), ...] in printed order; a class prefix stays in the
           type string (`D:s:b32` -> ("D", "s:b32"))
    flags  set of bare words (and `key:value` flags such as `imm:D`)
    clrx   CLRX mnemonic or None
    line   1-based line number in the file

Standard library only; other checkers in tools/tables/ import this module.
"""

import re
import sys

GENS = ("g10", "g11", "g12", "g14")
# llvm-mc -mcpu for each generation column
CPUS = ("tahiti", "hawaii", "fiji", "gfx900")

_ROLE_RE = re.compile(r"^([A-Z]{1,2}):(.+)$")


class TblError(Exception):
    pass


def _opcode(tok, path, lineno):
    if tok == "-":
        return None
    try:
        return int(tok, 0)
    except ValueError:
        raise TblError("%s:%d: bad opcode %r" % (path, lineno, tok))


def parse_line(text, path="<string>", lineno=0):
    """Parse one row; returns None for blank/comment lines."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    toks = body.split()
    if len(toks) < 5:
        raise TblError("%s:%d: need NAME and 4 opcode columns" % (path, lineno))
    row = {
        "name": toks[0],
        "ops": [_opcode(t, path, lineno) for t in toks[1:5]],
        "sig": [],
        "flags": set(),
        "clrx": None,
        "line": lineno,
    }
    for tok in toks[5:]:
        if tok.startswith("clrx="):
            row["clrx"] = tok[5:]
            continue
        m = _ROLE_RE.match(tok)
        if m:
            if row["flags"]:
                raise TblError("%s:%d: operand %r after a flag" % (path, lineno, tok))
            row["sig"].append((m.group(1), m.group(2)))
        else:
            row["flags"].add(tok)
    return row


def parse_tbl(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for lineno, text in enumerate(f, 1):
            row = parse_line(text, path, lineno)
            if row is not None:
                rows.append(row)
    return rows


def format_ops(ops):
    return " ".join("-" if o is None else "0x%x" % o for o in ops)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        for r in parse_tbl(p):
            print(r["line"], r["name"], format_ops(r["ops"]), r["sig"],
                  sorted(r["flags"]), r["clrx"] or "")
