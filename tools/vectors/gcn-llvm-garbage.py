#!/usr/bin/env python3
"""llvm-mc 14 against risa's LLVM-dialect listing of random words.

For each generation: random words of every encoding and opcode (crates/gcn
example `garbage`, all other bits random), `risa disasm --syntax llvm --hex`,
then the whole listing (labels, `label = . + n` definitions, `.int` data and
instructions) is given to `llvm-mc -show-encoding`; every instruction line must
be accepted and encoded to the words risa decoded it from. Words risa prints as
`.int` are data llvm-mc copies as they are. (Branch offsets to labels are
fixups in -show-encoding's output and are not compared here.)

usage: tools/vectors/gcn-llvm-garbage.py [CASES_PER_GEN (20000)] [SEED (3)]
"""
import collections, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
n = sys.argv[1] if len(sys.argv) > 1 else "20000"
seed = sys.argv[2] if len(sys.argv) > 2 else "3"
subprocess.run(["cargo", "build", "-q", "--release", "-p", "risa-cli", "-p", "risa-gcn",
                "--example", "garbage"], cwd=ROOT, check=True)
R = os.path.join(ROOT, "target/release")
tmp = tempfile.mkdtemp()
bad_total = 0
cats = collections.Counter()
examples = {}
for gen, cpu in [("gcn1.0", "tahiti"), ("gcn1.1", "hawaii"), ("gcn1.2", "fiji"), ("gcn1.4", "gfx900")]:
    b = os.path.join(tmp, gen + ".bin")
    subprocess.run([R + "/examples/garbage", gen, n, seed, b], check=True)
    out = subprocess.run([R + "/risa", "disasm", "--arch", cpu, "--syntax", "llvm", "--hex", b],
                         capture_output=True, text=True, check=True).stdout
    items = []
    for ln, l in enumerate(out.splitlines()):
        m = re.match(r"\s+(\S.*?)\s*; ([0-9a-f]{6}):((?: [0-9a-f]{8})+)\s*$", l)
        if m and not m.group(1).startswith(".int"):
            items.append((m.group(1), m.group(3).split(), ln))
    p = subprocess.run(["llvm-mc", "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"],
                       input=out, capture_output=True, text=True)
    errors = {int(m.group(1)) - 1: m.group(2)
              for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", p.stderr)}
    encs = [m.group(1) for m in re.finditer(r"encoding: \[([^\]]*)\]", p.stdout)]
    bad = len(errors)
    for ln, e in errors.items():
        k = re.sub(r"\d+", "N", e)
        cats[(gen, k)] += 1
        examples.setdefault((gen, k), next((t for t, _, l in items if l == ln), ""))
    ok_items = [(t, ws) for t, ws, l in items if l not in errors]
    if len(encs) == len(ok_items):
        for (t, ws), e in zip(ok_items, encs):
            bs = [int(x, 16) if x.startswith("0x") else 0 for x in e.split(",")]
            got = ["%08x" % int.from_bytes(bytes(bs[i:i + 4]), "little") for i in range(0, len(bs), 4)]
            if ".L" in t:
                # -show-encoding leaves a label's offset as a fixup (zeros):
                # the rest of the word is compared (the offsets are checked by
                # risa's round trip, tools/gcn-asm/raw-roundtrip.sh).
                ws = [w[:4] for w in ws]
                got = [w[:4] for w in got]
            if got != ws:
                bad += 1
                cats[(gen, "differs: " + t.split()[0])] += 1
                examples.setdefault((gen, "differs: " + t.split()[0]), (t, ws, got))
    else:
        bad += abs(len(encs) - len(ok_items))
    bad_total += bad
    print(f"{gen}: {len(items)} instructions as text, {len(items) - bad} accepted by llvm-mc "
          f"with the same words ({100.0 * (len(items) - bad) / max(len(items), 1):.2f} %)")
for k, v in cats.most_common(20):
    print(v, k, examples.get(k, ""))
sys.exit(1 if bad_total else 0)
