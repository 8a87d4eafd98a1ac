#!/usr/bin/env python3
"""Extract the instruction facts of CLRX's GCN pages into a data file.

Usage: tools/docs/extract-clrx-syntax.py [CLRX_DOC_DIR] [OUT]
Defaults: /work/shared/reference/clrx-doc, tests/vectors/clrx-doc/instructions.txt

What it reads (facts only, no prose): from every GcnInstrs*.md page the
`#### NAME` sections with their `Opcode...` and `Syntax...` lines, the
opcode tables (per generation), the page-wide `Syntax` lines (those that say
INSTRUCTION), and every literal GCN instruction written as an example in
GcnInstrs*.md, GcnOperands.md, GcnSdwaDpp.md and ClrxDisasm.md. Each example is
assembled with `llvm-mc -arch=amdgcn -mcpu=CPU -show-encoding` for every
generation the page gives the mnemonic; the words are stored so that the test
(crates/gcn/tests/clrx_doc.rs) needs neither the pages nor llvm-mc.

The output format is described in the header the script writes (HEADER below).
"""

import os
import re
import subprocess
import sys

DOC = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference/clrx-doc"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(__file__), "..", "..", "tests", "vectors", "clrx-doc", "instructions.txt")

GENS = ["1.0", "1.1", "1.2", "1.4"]
CPU = {"1.0": "tahiti", "1.1": "hawaii", "1.2": "fiji", "1.4": "gfx900"}

HEADER = """\
# Facts extracted from CLRX's GCN instruction pages by tools/docs/extract-clrx-syntax.py.
# Regenerate: python3 tools/docs/extract-clrx-syntax.py /path/to/clrx-doc
# One record per line, fields separated by TAB. GENS is a comma list of
# generations (1.0,1.1,1.2,1.4) or * (the statement names none). ENC is the
# encoding a statement is qualified with (VOP1, VOP2, VOP3A, VOP3B, VOPC, ...)
# or - (none). LINE is the 1-based line in PAGE.
#
# I  PAGE NAME LINE                      a `#### NAME` instruction section
# O  PAGE NAME ENC GENS DEC HEX LINE     an `Opcode` statement of a section, one
#                                        record per opcode in it, as written in
#                                        decimal and in hex (a few disagree)
# S  PAGE NAME ENC GENS LINE SYNTAX      a `Syntax` line of a section (NAME = the
#                                        section; SYNTAX = the text after the colon)
# P  PAGE ENC GENS LINE SYNTAX           a page-wide `Syntax: INSTRUCTION ...` line
#                                        (ENC from the field list above it)
# T  PAGE NAME GENS OPCODE VOP3OP LINE   a row of an opcode table (VOP3OP = the
#                                        VOP3 opcode column, or -)
# E  PAGE LINE GEN TEXT LLVMTEXT WORDS   a literal example instruction: TEXT as
#                                        documented, LLVMTEXT as given to llvm-mc
#                                        (CLRX-only spellings translated), WORDS the
#                                        hex words llvm-mc produced, or `- REASON`
#                                        when llvm-mc rejects it
# N  PAGE LINE NOTE                      an oddity the parser met (typo it corrected)
"""


def parse_gens(text, notes, page, line):
    """Generations named in text like 'GCN 1.0/1.1' or 'GCN1.2/1.4'."""
    out = []
    for tok in re.findall(r"\d+(?:\.\d+)?", text):
        fixed = {"1.01": "1.0", "11": "1.1"}.get(tok, tok)
        if fixed != tok:
            notes.append((page, line, f"generation {tok!r} read as {fixed}"))
        if fixed in GENS and fixed not in out:
            out.append(fixed)
    return out


OPC_RE = re.compile(r"(\d+)\s*\((0x[0-9a-fA-F]+)\)\s*(?:only\s+)?(?:for\s*)?((?:GCN\s*[\d./]+)?)")


def parse_opcode_stmt(body, notes, page, line):
    """Returns (enc, [(opcode, gens or None)]) for the text after 'Opcode'."""
    m = re.match(r"\s*:?\s*\(?(VOP\w+)\)?\s*:?(.*)$", body)
    enc = "-"
    if m:
        enc, body = m.group(1), m.group(2)
    else:
        body = body.lstrip(" :")
    res = []
    for dec, hx, gtext in OPC_RE.findall(body):
        gens = parse_gens(gtext, notes, page, line) if gtext else None
        res.append((int(dec), int(hx, 16), gens))
    # 'Nfor GCN ...' (no space) is matched by the regex too.
    return enc, res


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def expand_flat(name, checks):
    if name.startswith("\\*_") or name.startswith("*_"):
        base = name.split("_", 1)[1]
        return [f"{seg}_{base}" for seg, on in checks if on]
    return [name]


def parse_tables(page, lines, page_gens, notes):
    """Opcode table rows: (name, gens, opcode, vop3op, line)."""
    rows = []
    i = 0
    op_tables = {}  # OP16/OP8 name tables of the VOPC page
    while i < len(lines):
        hdr = lines[i]
        if "|" in hdr and re.match(r"\s*Opcode", hdr) and i + 1 < len(lines) and re.match(r"\s*-+\|", lines[i + 1]):
            cols = split_row(hdr)
            # title: the last non-empty line before the header
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            title = lines[j] if j >= 0 else ""
            tgens = parse_gens(title[title.find("(GCN"):], notes, page, j + 1) if "(GCN" in title else []
            body = []
            k = i + 2
            while k < len(lines) and "|" in lines[k]:
                body.append((k + 1, split_row(lines[k])))
                k += 1
            if cols[0].startswith("Opcode offset"):
                key = cols[1].split()[0]  # OP16 / OP8
                op_tables[key] = [(int(r[0].split()[0]), [n.strip() for n in r[1].split(",")]) for _, r in body]
            elif cols[0].startswith("Opcode range"):
                for ln, r in body:
                    lo = int(r[0].split("-")[0])
                    rows.append(("RANGE", r[1], tgens or page_gens, lo, ln))
            else:
                for ln, r in body:
                    m = re.match(r"(\d+)", r[0])
                    if not m:
                        continue
                    opc = int(m.group(1))
                    vop3 = "-"
                    checks = []
                    names = []  # (name, gens)
                    for c, cell in zip(cols[1:], r[1:]):
                        if c.startswith("Opcode(VOP3)"):
                            mm = re.match(r"(\d+)", cell)
                            vop3 = mm.group(1) if mm else "-"
                        elif re.fullmatch(r"GCN\s*[\d.]+", c) or c in ("FLAT", "GLOBAL", "SCRATCH"):
                            checks.append((c, "✓" in cell))
                        elif c.startswith("Mnemonic"):
                            cg = parse_gens(c, notes, page, i + 1) if "GCN" in c else None
                            for n in re.split(r"[,\s]+", cell):
                                if re.fullmatch(r"\\?\*?_?[A-Z][A-Z0-9_]*", n):
                                    names.append((n, cg))
                    for n, cg in names:
                        if cg is None:
                            gck = [parse_gens(c, notes, page, i + 1)[0] for c, on in checks if on and c.startswith("GCN")]
                            cg = gck or tgens or page_gens
                        fl = [(c, on) for c, on in checks if c in ("FLAT", "GLOBAL", "SCRATCH")]
                        for nn in expand_flat(n, fl):
                            rows.append((nn, cg, opc, vop3, ln))
            i = k
        else:
            i += 1
    # expand the VOPC range tables with the OP16/OP8 name tables
    out = []
    for r in rows:
        if r[0] != "RANGE":
            out.append(r)
            continue
        _, pat, gens, lo, ln = r
        key = re.search(r"\{(OP\d+)\}", pat).group(1)
        for off, names in op_tables.get(key, []):
            for n in names:
                out.append((pat.replace("{" + key + "}", n), gens, lo + off, "-", ln))
    return out


PAGE_GENS = {
    "GcnInstrsSmem.md": ["1.2", "1.4"],
    "GcnInstrsVop3p.md": ["1.4"],
    "GcnInstrsFlat.md": ["1.1", "1.2", "1.4"],
}

MNEMONIC = re.compile(r"(?i)^(s|v|ds|buffer|tbuffer|image|flat|global|scratch)_[a-z0-9_]+$")


def strip_comment(t):
    return re.split(r"\s(#|//)", t)[0].strip()


# CLRX-only spellings, translated so that llvm-mc can assemble the example.
# (regex, replacement, why)
LLVM_SPELLING = [
    (r"(?i)\b(dst|src0|src1)_sel:b(?:yte)?_?([0-3])\b", r"\1_sel:BYTE_\2", "CLRX byteN/b N/byte_N = LLVM BYTE_N"),
    (r"(?i)\b(dst|src0|src1)_sel:w(?:ord)?_?([01])\b", r"\1_sel:WORD_\2", "CLRX wordN/wN = LLVM WORD_N"),
    (r"(?i)\bdst_unused:preserve\b", "dst_unused:UNUSED_PRESERVE", "CLRX preserve"),
    (r"(?i)\bdst_unused:sext\b", "dst_unused:UNUSED_SEXT", "CLRX sext"),
    (r"(?i)\bdst_unused:pad\b", "dst_unused:UNUSED_PAD", "CLRX pad"),
    (r"(?i)\bwave_(shl|shr|rol|ror)(?!:)", r"wave_\1:1", "CLRX allows wave_shl without :1"),
    (r"(?i)\bbound_ctrl(?!:)", "bound_ctrl:0", "LLVM spells the flag bound_ctrl:0"),
    (r"(?i)(row|bank)_mask:0b([01]+)", lambda m: f"{m.group(1)}_mask:{int(m.group(2), 2):#x}", "binary literal"),
]


SDWA_ORDER = ["dst_sel", "dst_unused", "src0_sel", "src1_sel"]


def llvm_text(t):
    # CLRX is case-insensitive; llvm-mc wants lower-case names.
    t = t.lower()
    for pat, rep, _ in LLVM_SPELLING:
        t = re.sub(pat, rep, t)
    # CLRX takes SDWA modifiers in any order, llvm-mc 14 only in this one.
    toks = t.split(" ")
    sd = [x for x in toks if x.split(":")[0] in SDWA_ORDER]
    if sd:
        rest = [x for x in toks if x not in sd]
        sd.sort(key=lambda x: SDWA_ORDER.index(x.split(":")[0]))
        t = " ".join(rest + sd)
    return t


def assemble(text, gen):
    try:
        p = subprocess.run(["llvm-mc", "-arch=amdgcn", f"-mcpu={CPU[gen]}", "-show-encoding"],
                           input=text + "\n", capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        sys.exit("llvm-mc not found")
    if p.returncode != 0 or "error" in p.stderr:
        msg = p.stderr.strip().splitlines()
        err = next((m for m in msg if "error" in m), msg[0] if msg else "rejected")
        return None, re.sub(r"^<stdin>:\d+:\d+:\s*", "", err)
    m = re.search(r"encoding: \[([^\]]*)\]", p.stdout)
    if not m:
        return None, "no encoding"
    b = [int(x, 16) for x in m.group(1).split(",")]
    words = [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, len(b), 4)]
    return words, None


def examples_of(page, lines):
    """(line, text, context gens or None) of literal GCN instructions."""
    out = []
    in_code = False
    for n, l in enumerate(lines, 1):
        s = l.strip()
        if s.startswith("```"):
            in_code = not in_code
            continue
        cands = []
        if in_code:
            cands.append(strip_comment(s))
        m = re.match(r"Examples?:\s*(.+)$", s)
        if m:
            cands.append(m.group(1).strip())
        cands += re.findall(r"`([^`]+)`", l)
        for c in cands:
            first = c.split()[0] if c.split() else ""
            # LGKMCNT(X): X is a placeholder, not an example
            if MNEMONIC.match(first) and "=" not in c and "(X)" not in c:
                # sdwa/dpp examples exist only on gfx8+
                ctx = ["1.2", "1.4"] if page == "GcnSdwaDpp.md" else None
                if (page, n, c) not in [(page, x[0], x[1]) for x in out]:
                    out.append((n, c, ctx))
    return out


def main():
    pages = sorted(f for f in os.listdir(DOC) if f.startswith("GcnInstrs") and f.endswith(".md"))
    recs = []
    notes = []
    doc_gens = {}  # mnemonic -> set of gens, from tables and opcode statements
    for page in pages:
        lines = open(os.path.join(DOC, page), encoding="utf-8").read().split("\n")
        page_gens = PAGE_GENS.get(page, GENS)
        for name, gens, opc, vop3, ln in parse_tables(page, lines, page_gens, notes):
            recs.append(("T", page, name, ",".join(gens), str(opc), vop3, str(ln)))
            doc_gens.setdefault(name.lower(), set()).update(gens)
        sect = None
        enc_ctx = "-"
        in_code = False
        for n, l in enumerate(lines, 1):
            s = l.rstrip()
            if s.strip().startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            m = re.match(r"####\s+(.+?)\s*$", s)
            if m:
                sect = m.group(1)
                recs.append(("I", page, sect, str(n)))
                continue
            m = re.match(r"List of fields for (?:the )?(\S+) encoding", s)
            if m:
                enc_ctx = m.group(1).split("/")[0]
                continue
            if re.match(r"#{1,3}\s", s):
                sect = None
                continue
            m = re.match(r"Opcode\b(.*)$", s)
            if m and sect and "|" not in s:
                enc, ops = parse_opcode_stmt(m.group(1), notes, page, n)
                if not ops:
                    notes.append((page, n, f"unparsed opcode line {s.strip()!r}"))
                for opc, hx, gens in ops:
                    recs.append(("O", page, sect, enc, ",".join(gens) if gens else "*", str(opc), f"{hx:#x}", str(n)))
                    doc_gens.setdefault(sect.lower(), set()).update(gens or [])
                continue
            m = re.match(r"Syntax\b([^:]*?)\s*:\s*(.*)$", s) or re.match(r"Syntax\s+()(S_\w+.*)$", s)
            if m:
                qual, text = m.group(1).strip(), m.group(2).strip()
                qual = qual.strip("()")
                em = re.search(r"\b(VOP\w+)\b", qual)
                enc = em.group(1) if em else "-"
                gens = parse_gens(qual, notes, page, n) if "GCN" in qual else []
                if text.startswith("INSTRUCTION") or sect is None:
                    if text.startswith("INSTRUCTION"):
                        recs.append(("P", page, enc if enc != "-" else enc_ctx, ",".join(gens) or "*", str(n), text))
                    continue
                recs.append(("S", page, sect, enc, ",".join(gens) or "*", str(n), text))
    # literal examples
    ex_pages = pages + ["GcnOperands.md", "GcnSdwaDpp.md", "ClrxDisasm.md"]
    for page in ex_pages:
        lines = open(os.path.join(DOC, page), encoding="utf-8").read().split("\n")
        for n, text, ctx in examples_of(page, lines):
            mn = text.split()[0].lower()
            gens = sorted(doc_gens.get(mn, set()))
            if ctx:
                gens = [g for g in gens if g in ctx]
            if not gens:
                notes.append((page, n, f"example {text!r}: mnemonic not documented"))
            lt = llvm_text(text)
            for g in gens:
                words, err = assemble(lt, g)
                w = " ".join(f"{x:08x}" for x in words) if words else f"- {err}"
                recs.append(("E", page, str(n), g, text, lt, w))
    for page, n, note in notes:
        recs.append(("N", page, str(n), note))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(HEADER)
        for r in recs:
            assert all("\t" not in x and "\n" not in x for x in r), r
            f.write("\t".join(r) + "\n")
    kinds = {}
    for r in recs:
        kinds[r[0]] = kinds.get(r[0], 0) + 1
    print(OUT, kinds)


if __name__ == "__main__":
    main()
