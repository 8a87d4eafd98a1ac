#!/usr/bin/env python3
"""CLRX differential of risa's CLRX-dialect disassembly.

For each generation (CLRX devices Tahiti, Hawaii, Tonga, GFX900) this makes
random instruction words of every encoding and every opcode (crates/gcn
example `garbage --instr`: random fields, the opcode of each table row in
turn, reserved bits cleared; one case in five fully random), then

  * disassembles them with clrxdisasm and with `risa disasm --syntax clrx`,
    compares the text of each instruction after whitespace normalisation;
  * assembles risa's text with clrxasm and compares the bytes of each
    instruction with the input words.

It writes the vectors to tests/vectors/clrx-dis/GEN.txt, one per line:
    offset <TAB> words <TAB> clrxdisasm text <TAB> risa text <TAB> clrxasm words of risa's text | error: ...
    <TAB> clrxasm words of clrxdisasm's text | error: ...
(texts after whitespace normalisation; `=` in the risa column: the same as
clrxdisasm's; `=` in an assembler column: the same as the words).
(read by crates/gcn-asm/tests/clrx_dis.rs) and prints the figures.

usage: tools/vectors/clrx-dis.py [CASES_PER_GEN (20000)] [SEED (7)] [--reserved]
  --reserved: keep reserved bits (reported, not written; CLRX drops them)
"""
import os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.expanduser("~/.cache/risa-oracles/bin")
GENS = [("gcn1.0", "tahiti", "Tahiti"), ("gcn1.1", "hawaii", "Hawaii"),
        ("gcn1.2", "fiji", "Tonga"), ("gcn1.4", "gfx900", "GFX900")]

def norm(t):
    return " ".join(t.split())

def clrx_dis(path, dev):
    """clrxdisasm's text per offset, and its listing as (lines, [(line, pc, text)])
    (its `.org` lines dropped: they move backwards or pad, see docs/clrx-differences.md)."""
    out = subprocess.run([f"{BIN}/clrxdisasm", "-r", "-g", dev, path],
                         capture_output=True, text=True).stdout
    res = {}
    lines, items = [], []
    for l in out.splitlines():
        m = re.match(r"/\*([0-9a-f]{12})\*/\s+(.*)$", l)
        if m:
            pc = int(m.group(1), 16)
            res[pc] = norm(m.group(2))
            items.append((len(lines), pc, res[pc]))
            lines.append("    " + m.group(2))
        elif not l.startswith(".org") and not l.startswith("/*"):
            lines.append(l)
    return res, lines, items

def risa_lines(risa, arch, path):
    """risa's --hex listing: (line index, pc, text) of every instruction line."""
    out = subprocess.run([risa, "disasm", "--arch", arch, "--syntax", "clrx", "--hex", path],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    items = []
    for k, l in enumerate(lines):
        m = re.match(r"\s+(.*?)\s*# ([0-9a-f]{6,}):", l)
        if m:
            items.append((k, int(m.group(2), 16), norm(m.group(1))))
    return lines, items

def clrx_asm(lines, dev, tmp, data, items):
    """Assembles `lines` with clrxasm; lines with errors are replaced by their
    words as .int (and reported). Returns (bytes, {line: error})."""
    errs = {}
    # each instruction line's words: from its offset to the next one's
    line_words = {}
    for j, (k, pc, _) in enumerate(items):
        end = items[j + 1][1] if j + 1 < len(items) else len(data)
        line_words[k] = [int.from_bytes(data[o:o + 4], "little") for o in range(pc, end, 4)]
    lines = list(lines)
    for _ in range(4):
        src = os.path.join(tmp, "r.s")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        outp = os.path.join(tmp, "r.bin")
        if os.path.exists(outp):
            os.remove(outp)
        p = subprocess.run([f"{BIN}/clrxasm", "-b", "rawcode", "-g", dev, "-o", outp, src],
                           capture_output=True, text=True)
        bad = {}
        for l in p.stderr.splitlines():
            m = re.match(r".*?:(\d+):\d+: Error: (.*)", l)
            if m:
                bad.setdefault(int(m.group(1)) - 1, m.group(2))
        if not bad and p.returncode == 0:
            return open(outp, "rb").read(), errs
        for k, e in bad.items():
            if k in line_words:
                errs[k] = e
                lines[k] = "    .int " + ", ".join("0x%08x" % w for w in line_words[k])
            else:
                # a label or definition line: fatal for this run
                raise SystemExit(f"clrxasm error on a non-instruction line {k + 1}: {lines[k]!r}: {e}")
    raise SystemExit("clrxasm keeps failing")

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    reserved = "--reserved" in sys.argv
    n = int(args[0]) if args else 20000
    seed = int(args[1]) if len(args) > 1 else 7
    # (--bin as well: naming an example alone builds no binaries)
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "risa-cli", "--bin", "risa",
                    "-p", "risa-gcn", "--example", "garbage"], cwd=ROOT, check=True)
    risa = os.path.join(ROOT, "target/release/risa")
    garbage = os.path.join(ROOT, "target/release/examples/garbage")
    tmp = tempfile.mkdtemp()
    total_eq = total_n = total_rt = 0
    tot_c_ok = tot_eq_c_ok = 0
    for gen, arch, dev in GENS:
        binp = os.path.join(tmp, gen + ".bin")
        mode = "--instr-reserved" if reserved else "--instr"
        cases = subprocess.run([garbage, gen, str(n), str(seed), binp, mode],
                               capture_output=True, text=True, check=True).stdout.split("\n")
        data = open(binp, "rb").read()
        cases = [tuple(map(int, c.split())) for c in cases if c]
        words_at = {}
        for off, ln in cases:
            words_at[off] = [int.from_bytes(data[off + 4 * k:off + 4 * k + 4], "little")
                             for k in range(ln)]
        cx, clines, citems = clrx_dis(binp, dev)
        casm, cerrs = clrx_asm(clines, dev, tmp, data, citems)
        cpc_err = {pc: cerrs[k] for k, pc, _ in citems if k in cerrs}
        lines, items = risa_lines(risa, arch, binp)
        rtext = {pc: t for _, pc, t in items}
        asm, errs = clrx_asm(list(lines), dev, tmp, data, items)
        pc_err = {pc: errs[k] for k, pc, _ in items if k in errs}
        eq = rt = 0
        c_ok = eq_c_ok = 0
        rows = []
        for off, ln in cases:
            w = words_at[off]
            c = cx.get(off, "(no instruction at this offset)")
            r = rtext.get(off, "(no instruction at this offset)")
            got = [int.from_bytes(asm[off + 4 * k:off + 4 * k + 4], "little") for k in range(ln)]
            if off in pc_err:
                a = "error: " + pc_err[off]
            else:
                a = " ".join("%08x" % x for x in got)
            ok_rt = off not in pc_err and got == w
            cgot = [int.from_bytes(casm[off + 4 * k:off + 4 * k + 4], "little") for k in range(ln)]
            if off in cpc_err:
                ca = "error: " + cpc_err[off]
            else:
                ca = " ".join("%08x" % x for x in cgot)
            cok = off not in cpc_err and cgot == w and off in cx
            eq += c == r
            rt += ok_rt
            c_ok += cok
            eq_c_ok += cok and c == r
            ws = " ".join("%08x" % x for x in w)
            # "=": the same as the words (assembler columns) or as clrxdisasm's text (risa).
            rows.append("%d\t%s\t%s\t%s\t%s\t%s" % (off, ws, c, "=" if r == c else r,
                                                  "=" if a == ws else a, "=" if ca == ws else ca))
        m = len(cases)
        total_eq += eq; total_rt += rt; total_n += m
        print(f"{dev:7} {m} cases: risa text == clrxdisasm {eq} ({100.0 * eq / m:.2f} %), "
              f"clrxasm(risa text) == words {rt} ({100.0 * rt / m:.2f} %); "
              f"clrxasm(clrxdisasm text) == words {c_ok} ({100.0 * c_ok / m:.2f} %), "
              f"of these risa text == clrxdisasm {eq_c_ok} ({100.0 * eq_c_ok / max(c_ok, 1):.2f} %)")
        tot_c_ok += c_ok; tot_eq_c_ok += eq_c_ok
        if not reserved:
            with open(os.path.join(ROOT, "tests/vectors/clrx-dis", gen + ".txt"), "w") as f:
                f.write(f"# {dev}: {m} cases, seed {seed}; made by tools/vectors/clrx-dis.py\n")
                f.write("# offset\twords\tclrxdisasm\trisa\tclrxasm(risa)\tclrxasm(clrxdisasm)\n")
                f.write("\n".join(rows) + "\n")
    print(f"all     {total_n} cases: text {100.0 * total_eq / total_n:.2f} %, "
          f"re-assembly {100.0 * total_rt / total_n:.2f} %; where clrxasm takes clrxdisasm's "
          f"text back ({tot_c_ok} cases): text {100.0 * tot_eq_c_ok / max(tot_c_ok, 1):.2f} %")

main()
