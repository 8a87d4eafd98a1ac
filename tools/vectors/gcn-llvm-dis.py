#!/usr/bin/env python3
"""Differential check of risa's GCN decoder against llvm-mc's disassembler (GFX8/9).

LLVM 14 can disassemble GCN 1.2 (fiji) and 1.4 (gfx900) but not 1.0/1.1.
Random words with the fixed bits of every encoding, and the words of every
opcode and form in tests/vectors/gcn/<gen>.txt, are given to
`llvm-mc --disassemble`; every word that llvm-mc decodes must decode in risa
to the same instruction. "Same" is checked twice: the LLVM-dialect texts are
equal, or (when they are spelled differently) llvm-mc assembles both texts to
identical bytes.

Rows are written to tests/vectors/gcn-dis/<gen>.txt:
    hex words <TAB> llvm-mc's text <TAB> risa's text
(the Rust test re-decodes the words and expects risa's text; where llvm-mc is
installed it also re-runs the disassembler on a sample and expects its text).
Words that risa decodes but llvm-mc rejects are counted and reported.

Usage: tools/vectors/gcn-llvm-dis.py [--per N] [--seed S] [--write] [GEN...]
"""
import argparse, os, random, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CPU = {"gcn1.2": "fiji", "gcn1.4": "gfx900", "gfx906": "gfx906"}

# (name, mask, value) of the first dword; SDWA/DPP are VOP1/2/C with SRC0 = 0xf9/0xfa.
COMMON = [
    ("sop2", 0xC000_0000, 0x8000_0000), ("sopk", 0xF000_0000, 0xB000_0000),
    ("sop1", 0xFF80_0000, 0xBE80_0000), ("sopc", 0xFF80_0000, 0xBF00_0000),
    ("sopp", 0xFF80_0000, 0xBF80_0000), ("vop2", 0x8000_0000, 0x0000_0000),
    ("vop1", 0xFE00_0000, 0x7E00_0000), ("vopc", 0xFE00_0000, 0x7C00_0000),
    ("vop2_sdwa", 0x8000_01FF, 0x0000_00F9), ("vop1_sdwa", 0xFE00_01FF, 0x7E00_00F9),
    ("vopc_sdwa", 0xFE00_01FF, 0x7C00_00F9), ("vop2_dpp", 0x8000_01FF, 0x0000_00FA),
    ("vop1_dpp", 0xFE00_01FF, 0x7E00_00FA), ("vopc_dpp", 0xFE00_01FF, 0x7C00_00FA),
    ("smem", 0xFC00_0000, 0xC000_0000), ("vintrp", 0xFC00_0000, 0xD400_0000),
    ("vop3", 0xFC00_0000, 0xD000_0000), ("ds", 0xFC00_0000, 0xD800_0000),
    ("flat", 0xFC00_0000, 0xDC00_0000), ("mubuf", 0xFC00_0000, 0xE000_0000),
    ("mtbuf", 0xFC00_0000, 0xE800_0000), ("mimg", 0xFC00_0000, 0xF000_0000),
    ("exp", 0xFC00_0000, 0xC400_0000),
]
EXTRA = {g: [("vop3p", 0xFF80_0000, 0xD380_0000)] for g in ("gcn1.4", "gfx906")}
# Separates the candidates in one llvm-mc run: s_trap 0x5a.
MARKER = 0xBF92_005A


def candidates(gen, per, rng):
    out = []
    for name, mask, val in COMMON + EXTRA.get(gen, []):
        for _ in range(per):
            w0 = (rng.getrandbits(32) & ~mask) | val
            w1 = rng.getrandbits(32)
            # Half the time clear some high bits of the second dword, where most
            # encodings keep register numbers and modifiers: more valid operands.
            if rng.random() < 0.5:
                w1 &= 0x3F7F_87FF
            lit = rng.getrandbits(32)
            if (w0 & mask) == val and w0 != MARKER:
                out.append([w0, w1, lit])
    return out


def assembled(gen):
    """The words of tests/vectors/gcn/<gen>.txt (valid instances of every
    opcode and form, made by gcn-llvm.py), so every opcode is disassembled."""
    out = []
    with open(os.path.join(ROOT, "tests", "vectors", "gcn", f"{gen}.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            words = [int(w, 16) for w in line.split("\t")[0].split()]
            out.append((words + [0, 0, 0])[:3])
    return out


def le_bytes(words):
    return " ".join(f"0x{(w >> (8 * k)) & 0xFF:02x}" for w in words for k in range(4))


def llvm_disassemble(cpu, cands):
    """For each candidate: (text, dword count) of llvm-mc's first instruction,
    None if llvm-mc rejects it, or "crash" if llvm-mc 14 dies on it (it does,
    on some SDWA/DPP words): such chunks are retried one candidate at a time."""
    res = []
    for k in range(0, len(cands), 64):
        chunk = cands[k : k + 64]
        got = llvm_disassemble_run(cpu, chunk)
        if got is None:
            got = [(llvm_disassemble_run(cpu, [c]) or ["crash"])[0] for c in chunk]
        res.extend(got)
    return res


def llvm_disassemble_run(cpu, cands):
    src = "".join(f"{le_bytes(c)}\n{le_bytes([MARKER])}\n" for c in cands)
    p = subprocess.run(["llvm-mc", "-arch=amdgcn", f"-mcpu={cpu}", "--disassemble", "-show-encoding"],
                       input=src, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    lines = [l for l in p.stdout.splitlines() if "encoding:" in l]
    res, k = [], 0
    marker_enc = le_bytes([MARKER]).replace("0x", "").split()
    for c in cands:
        first = None
        want = le_bytes(c).replace("0x", "").split()
        # Outputs up to (not including) the marker belong to this candidate.
        while k < len(lines):
            text, enc = lines[k].split(";", 1)
            enc = re.search(r"\[([^\]]*)\]", enc).group(1).replace("0x", "").replace(",", " ").split()
            k += 1
            if enc == marker_enc and text.strip().startswith("s_trap"):
                break
            if first is None:
                # Only an instruction that starts at the candidate's first byte counts.
                first = (text.strip(), len(enc) // 4) if enc == want[: len(enc)] else False
        res.append(first or None)
    return res


def risa_disassemble(gen, cands):
    exe = os.path.join(ROOT, "target", "release", "risa")
    src = "".join(" ".join(f"{w:08x}" for w in c) + "\n" for c in cands)
    p = subprocess.run([exe, "disasm", "--lines", "--syntax", "llvm", "--arch", gen, "-"],
                       input=src, capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        RESERVED_NOTES.append("reserved bits set" in line)
        line = re.sub(r"\s*//.*$", "", line).strip()
        out.append(None if line.startswith("error") else line)
    return out


# Per risa output line: whether risa pointed out reserved bits.
RESERVED_NOTES = []


def mnemonic(text):
    return re.sub(r"_e(32|64)$", "", text.split()[0])


def llvm_assemble(cpu, lines):
    src = "\n".join(lines) + "\n"
    p = subprocess.run(["llvm-mc", "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"],
                       input=src, capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"<stdin>:(\d+):\d+: error", p.stderr)}
    encs = iter(re.findall(r"encoding: \[([^\]]*)\]", p.stdout))
    return [None if n in bad else next(encs, None) for n in range(len(lines))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--show", type=int, default=30)
    ap.add_argument("gens", nargs="*", default=list(CPU))
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "risa-cli"], cwd=ROOT, check=True)
    failed = 0
    for gen in a.gens:
        rng = random.Random(f"{a.seed}-{gen}")
        cands = candidates(gen, a.per, rng) + assembled(gen)
        ll = llvm_disassemble(CPU[gen], cands)
        RESERVED_NOTES.clear()
        rs = risa_disassemble(gen, cands)
        reserved = sum(1 for l, n in zip(ll, RESERVED_NOTES) if n and l not in (None, "crash"))
        rows, differ, bad, extra = [], [], [], 0
        crashes = [c for c, l in zip(cands, ll) if l == "crash"]
        for c, l, r in zip(cands, ll, rs):
            if l == "crash":
                continue
            if l is None:
                extra += r is not None
                continue
            text, n = l
            hexw = " ".join(f"{w:08x}" for w in c[:n])
            if r is None:
                bad.append((hexw, text, "risa: does not decode"))
            elif r == text:
                rows.append((hexw, text, r))
            else:
                differ.append((hexw, text, r))
        # Differently spelled: the same instruction if llvm-mc assembles both
        # alike. Where llvm-mc cannot assemble its own text (operands this GPU
        # lacks, reserved values it prints as comments or drops), risa's text
        # is accepted if it re-encodes to the original words, or if neither
        # text re-encodes to them and the mnemonics agree ("inexpressible").
        cat = {}
        if differ:
            e1 = llvm_assemble(CPU[gen], [d[1] for d in differ])
            e2 = llvm_assemble(CPU[gen], [d[2] for d in differ])
            for d, x, y in zip(differ, e1, e2):
                orig = ",".join(f"0x{b[2:]}" for b in le_bytes([int(w, 16) for w in d[0].split()]).split())
                if x is not None and x == y:
                    cat[d] = "equivalent"
                elif y is not None and y.replace(" ", "") == orig:
                    cat[d] = "risa-exact"
                elif (x or "").replace(" ", "") != orig and mnemonic(d[1]) == mnemonic(d[2]):
                    cat[d] = "inexpressible"
                else:
                    bad.append((d[0], d[1], f"risa: {d[2]}"))
                    continue
                rows.append(d)
        same = sum(1 for r in rows if r[1] == r[2])
        kinds = {k: sum(1 for v in cat.values() if v == k) for k in ("equivalent", "risa-exact", "inexpressible")}
        print(f"{gen}: {len(cands)} candidates, llvm-mc decodes {len(rows) + len(bad)}: "
              f"{same} identical text, {kinds['equivalent']} equivalent, {kinds['risa-exact']} where only "
              f"risa's text re-encodes exactly, {kinds['inexpressible']} inexpressible in LLVM syntax "
              f"(same mnemonic); {len(bad)} differ; "
              f"risa-only decodes {extra}; llvm-mc crashes on {len(crashes)}; "
              f"reserved bits llvm-mc drops silently and risa points out: {reserved}")
        for c in crashes[:5]:
            print("    llvm-mc crash:", " ".join(f"{w:08x}" for w in c))
        for b in bad[: a.show]:
            print("   ", "\t".join(b))
        failed += len(bad)
        if a.write:
            d = os.path.join(ROOT, "tests", "vectors", "gcn-dis")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{gen}.txt"), "w") as f:
                f.write(f"# generated by tools/vectors/gcn-llvm-dis.py --per {a.per} --seed {a.seed}\n")
                f.write("# hex words\tllvm-mc --disassemble\trisa --syntax llvm\thow they agree\n")
                for r in sorted(rows):
                    f.write("\t".join(r + (cat.get(r, "identical"),)) + "\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
