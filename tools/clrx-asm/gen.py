#!/usr/bin/env python3
"""CLRX-syntax assembler vectors with clrxasm as the oracle.

For each GCN generation this makes CLRX-syntax source lines from three
sources and asks clrxasm (CLRX 0.1.9) what each means:

  (a) clrxdisasm's output over random words of every encoding (every opcode,
      many field values; undecodable words are dropped);
  (b) the `Syntax` lines of CLRX's GcnInstrs*.md pages (records `S` of
      tests/vectors/clrx-doc/instructions.txt) with operands filled in;
  (c) mutations of (a) and (b): `mod:value` modifier forms, dropped modifiers
      (dialect defaults), spaces, letter case, register subscripts and
      register symbols, expressions, constant symbols defined before and after
      (forward references), one-line macros, `lit()`, CLRX compare aliases,
      hwreg/sendmsg names, and invalid lines (wrong register counts,
      out-of-range values, lines of another generation).

The oracle runs once per batch: every vector sits on its own line after a
label `L<i>:`; clrxasm reports errors by line, so the rejected lines are
known at once; they are removed and the batch is assembled again (until
nothing is rejected) and the bytes of vector i are the bytes between `L<i>`
and `L<i+1>`, read from a table `.int L<i>-L0` appended to the source.

Output: tests/vectors/clrx-asm/<gen>.txt, one vector per line:
  `+<TAB>hex bytes (dwords, space-separated, or -)<TAB>source`  accepted
  `!<TAB>-<TAB>source`                                          rejected

Usage: tools/clrx-asm/gen.py [--lines N] [--seed S] [--gens 1.0,1.1,1.2,1.4]
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

ORACLES = os.path.expanduser("~/.cache/risa-oracles/bin")
CLRXASM = os.path.join(ORACLES, "clrxasm")
CLRXDIS = os.path.join(ORACLES, "clrxdisasm")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEVICE = {"1.0": "Tahiti", "1.1": "Hawaii", "1.2": "Tonga", "1.4": "GFX900"}

# (prefix bits, words) per encoding and generation family.
ENC_OLD = [  # GCN 1.0 / 1.1
    ("10", 1), ("1011", 1), ("101111101", 1), ("101111110", 1), ("101111111", 1),
    ("11000", 1), ("0", 1), ("0111111", 1), ("0111110", 1), ("110100", 2),
    ("110010", 1), ("110110", 2), ("111000", 2), ("111010", 2), ("111100", 2),
    ("111110", 2),
]
ENC_NEW = [  # GCN 1.2 / 1.4
    ("10", 1), ("1011", 1), ("101111101", 1), ("101111110", 1), ("101111111", 1),
    ("110000", 2), ("0", 1), ("0111111", 1), ("0111110", 1), ("110100", 2),
    ("110101", 1), ("110110", 2), ("110111", 2), ("111000", 2), ("111010", 2),
    ("111100", 2), ("110001", 2),
]


def enc_table(gen):
    t = list(ENC_OLD if gen in ("1.0", "1.1") else ENC_NEW)
    if gen == "1.1":
        t.append(("110111", 2))  # FLAT
    if gen == "1.4":
        t.append(("110100111", 2))  # VOP3P
    return t


def random_words(rng, gen, n):
    """n instructions' worth of words, each encoding equally likely."""
    encs = enc_table(gen)
    out = []
    for _ in range(n):
        prefix, words = rng.choice(encs)
        w = rng.getrandbits(32 - len(prefix)) | (int(prefix, 2) << (32 - len(prefix)))
        if prefix in ("0", "0111111", "0111110") and rng.random() < 0.3:
            # SDWA / DPP / literal src0
            w = (w & ~0x1FF) | rng.choice([0xF9, 0xFA, 0xFF])
            words = 2
        if prefix == "0111111" or prefix == "0111110" or prefix == "0":
            # keep VOP opcodes low more often (fewer ill opcodes)
            pass
        out.append(w)
        for _ in range(words - 1):
            out.append(rng.getrandbits(32))
    return out


def disasm_lines(rng, gen, n):
    words = random_words(rng, gen, n)
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "r.bin")
        with open(p, "wb") as f:
            f.write(struct.pack("<%dI" % len(words), *words))
        r = subprocess.run([CLRXDIS, "-r", "-g", DEVICE[gen], p],
                           capture_output=True, text=True)
    lines = []
    for l in r.stdout.splitlines():
        m = re.match(r"^/\*[0-9a-f]+\*/\s+(.*)$", l)
        if not m:
            continue
        t = m.group(1).strip()
        if t.startswith(".") or "ill_" in t or "&ill!" in t or "invalid_" in t:
            continue
        lines.append(re.sub(r"\s+", " ", t))
    return lines


# ---- (b) syntax lines ------------------------------------------------------

def load_syntax():
    recs = []
    path = os.path.join(ROOT, "tests/vectors/clrx-doc/instructions.txt")
    for l in open(path):
        f = l.rstrip("\n").split("\t")
        if f[0] == "S":
            recs.append((f[1], f[2], f[3], f[4], f[6]))
    return recs


def split_ops(s):
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def reg(rng, kind, count, maxs=100):
    if kind == "v":
        top = 255
        base = rng.randrange(0, top - count + 1)
    else:
        align = 4 if count >= 4 else (2 if count == 2 else 1)
        base = rng.randrange(0, (maxs - count) // align + 1) * align
    if count == 1 and rng.random() < 0.8:
        return "%s%d" % (kind, base)
    return "%s[%d:%d]" % (kind, base, base + count - 1)


def src_operand(rng, count, scalar=False):
    r = rng.random()
    if r < 0.3 and not scalar:
        return reg(rng, "v", count)
    if r < 0.55:
        return reg(rng, "s", count)
    if r < 0.7:
        return str(rng.randrange(-16, 65))
    if r < 0.8:
        return rng.choice(["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"])
    if r < 0.9:
        return hex(rng.getrandbits(32))
    return rng.choice(["vcc", "exec", "m0", "scc", "vccz", "execz", "lds", "tba", "tma",
                       "flat_scratch", "xnack_mask", "ttmp[2:3]" if count == 2 else "ttmp3",
                       "vcc_lo", "exec_hi"])


def fill_operand(rng, name, enc, page):
    name = name.strip()
    if "|" in name:
        alts = name.split("|")
        name = rng.choice(alts)
    if name.upper() == "OFF":
        return "off"
    m = re.match(r"([A-Z_0-9]+?)(?:\((\d+)(?::(\d+))?)?\)?$", name)
    if not m:
        return None
    base = m.group(1)
    lo = int(m.group(2)) if m.group(2) else 1
    hi = int(m.group(3)) if m.group(3) else lo
    count = rng.randrange(lo, hi + 1)
    if base in ("VCC",):
        return "vcc"
    if base in ("SIMM16", "IMM16"):
        return str(rng.choice([0, 1, 5, 0x7fff, -3, rng.getrandbits(16)]))
    if base == "RELADDR":
        return rng.choice([".+8", ".-4", ".", "0x10"])
    if base in ("OFFSET", "SGPROFFSET", "OFFSET0", "OFFSET1"):
        if "SMRD" in page or "SMEM" in page:
            return rng.choice([str(rng.randrange(0, 256)), reg(rng, "s", 1), hex(rng.getrandbits(20))])
        return str(rng.randrange(0, 4096))
    if base.startswith("SRC") and "V" not in base[:1]:
        return src_operand(rng, count)
    if base.startswith("SSRC") or base.startswith("SDST") or base.startswith("SBASE") \
            or base.startswith("SRSRC") or base.startswith("SSAMP") or base.startswith("SDATA") \
            or base.startswith("SADDR") or base == "SOFFSET":
        if base.startswith("SSRC") and rng.random() < 0.3:
            return src_operand(rng, count, scalar=True)
        return reg(rng, "s", count)
    if base.startswith("V") or base in ("ADDR", "DST", "SRC", "DATA"):
        return reg(rng, "v", count)
    if base.startswith("ATTR"):
        return "attr%d.%s" % (rng.randrange(0, 33), rng.choice("xyzw"))
    return reg(rng, "v", count)


MODS_BY_PAGE = {
    "Ds": ["offset:%d", "gds"],
    "Mubuf": ["offset:%d", "glc", "slc", "tfe", "offen", "idxen", "addr64", "lds"],
    "Mtbuf": ["offset:%d", "glc", "slc", "tfe", "offen", "idxen", "addr64",
              "format:[%s]"],
    "Mimg": ["dmask:%d", "unorm", "glc", "slc", "r128", "tfe", "lwe", "da", "d16", "a16"],
    "Flat": ["glc", "slc", "tfe", "offset:%d", "inst_offset:%d", "nv"],
    "Smem": ["glc", "nv"],
    "Vop1": ["vop3", "clamp", "mul:2", "div:2", "omod:1", "neg:1", "abs:1",
             "dst_sel:word1", "src0_sel:byte0", "dst_unused:sext", "quad_perm:[1,0,3,2]",
             "row_shl:3", "bound_ctrl", "row_mask:5", "bank_mask:3"],
    "Vop2": ["vop3", "clamp", "mul:4", "omod:2", "neg:2", "abs:3", "dst_sel:byte3",
             "src1_sel:word0", "dst_unused:pad", "row_ror:5", "wave_shl", "row_bcast15",
             "bound_ctrl:0", "sext:1"],
    "Vopc": ["vop3", "src0_sel:word1", "src1_sel:byte2", "sext:2", "neg:[1,0]"],
    "Vop3": ["clamp", "mul:2", "neg:[1,0,1]", "abs:[0,1,1]", "op_sel:[1,0,0,0]", "vop3"],
    "Vop3p": ["op_sel:[1,0,1]", "op_sel_hi:[0,1,0]", "neg_lo:[1,0,0]", "neg_hi:[0,0,1]", "clamp"],
    "Vintrp": ["high", "vop3"],
}


def syntax_lines(rng, gen, recs, n):
    use = [r for r in recs if r[3] == "*" or gen in r[3].split(",")]
    lines = []
    for _ in range(n):
        page, name, enc, gens, syn = rng.choice(use)
        s = syn.strip()
        # drop optional parts and the mnemonic
        s = re.sub(r"\[[^\]]*\]", "", s)
        parts = s.split(None, 1)
        if not parts:
            continue
        mnem = parts[0].lower()
        ops = split_ops(parts[1]) if len(parts) > 1 else []
        filled = []
        ok = True
        for o in ops:
            if " " in o.strip():  # e.g. "HWREG(HWREGNAME, ...)"
                ok = False
                break
            v = fill_operand(rng, o, enc, page)
            if v is None:
                ok = False
                break
            filled.append(v)
        if not ok:
            continue
        line = mnem + (" " + ", ".join(filled) if filled else "")
        key = page[len("GcnInstrs"):-3]
        mods = MODS_BY_PAGE.get(key, [])
        if enc.startswith("VOP3") and key in ("Vop1", "Vop2", "Vopc"):
            mods = mods + MODS_BY_PAGE["Vop3"]
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            if not mods:
                break
            m = rng.choice(mods)
            if "%d" in m:
                m = m % rng.choice([0, 4, 16, 255, 4095, 65535, rng.randrange(1, 16)])
            elif "%s" in m:
                m = m % rng.choice(["4,7", "1", "BUF_DATA_FORMAT_32", "@3,@5",
                                    "8, unorm", "14,float", "sint"])
            line += " " + m
        lines.append(line)
    return lines


# ---- (c) mutations ---------------------------------------------------------

FLAGS = ["glc", "slc", "gds", "tfe", "lwe", "da", "r128", "unorm", "addr64", "offen",
         "idxen", "clamp", "d16", "a16", "nv", "lds", "compr", "done", "vm", "high",
         "bound_ctrl", "vop3"]
HWREGS = ["mode", "hwreg_mode", "status", "HWREG_STATUS", "trapsts", "hw_id", "gpr_alloc",
          "lds_alloc", "ib_sts", "pc_lo", "pc_hi", "inst_dw0", "inst_dw1", "ib_dbg0",
          "HW_REG_MODE", "HW_REG_STATUS", "@3", "5", "xxx"]
SENDMSGS = ["interrupt", "msg_interrupt", "gs, emit", "gs, cut, 1", "gs_done, nop",
            "system", "sysmsg", "msg_system", "savewave", "stall_wave_gen",
            "halt_waves", "ordered_ps_done", "early_prim_dealloc", "gs_alloc_req",
            "get_doorbell", "MSG_GS, GS_OP_EMIT, 2", "@15", "gs, emit-cut, 3", "gs, emit_cut, 0",
            "bogus"]
CMP_ALIAS = [("_lg_", "_ne_"), ("_ne_", "_lg_"), ("_tru_", "_t_"), ("_t_", "_tru_"),
             ("_f_", "_t_"), ("_nlg_", "_nne_")]


def tokens_int(line):
    return [m for m in re.finditer(r"(?<![\w.\[:@\\%])(-?(?:0x[0-9a-fA-F]+|\d+))(?![\w.\]])", line)]


def mutate(rng, line, idx, other_gen_lines):
    kind = rng.randrange(20)
    mnem, _, rest = line.partition(" ")
    u = "%d" % idx
    if kind == 0:  # flag -> flag:value
        fl = [f for f in FLAGS if re.search(r"\b%s\b(?!:)" % f, line)]
        if fl:
            f = rng.choice(fl)
            return re.sub(r"\b%s\b(?!:)" % f, "%s:%s" % (f, rng.choice(["1", "0", "2", "(1+0)"])), line, 1)
        return line + rng.choice([" vop3:1", " vop3:0", " clamp:1", " glc:1", " slc:0"])
    if kind == 1:  # drop one modifier (dialect defaults)
        parts = line.split(" ")
        mods = [i for i, p in enumerate(parts) if i > 0 and not p.endswith(",")
                and re.match(r"^[a-z_0-9]+(:.*)?$", p) and i == len(parts) - 1 or
                (i > 1 and ":" in p and not p.endswith(","))]
        if mods:
            del parts[rng.choice(mods)]
            return " ".join(parts)
        return line
    if kind == 2:  # spaces
        return re.sub(r"([:,()\[\].])", lambda m: rng.choice(["", " ", "  "]) + m.group(1) + rng.choice(["", " "]), line)
    if kind == 3:  # letter case
        return rng.choice([line.upper(), mnem.upper() + " " + rest, line.title()])
    if kind == 4:  # register subscripts
        def sub(m):
            k, n = m.group(1), m.group(2)
            return rng.choice(["%s[%s]" % (k, n), "%s[%s:%s]" % (k, n, n)])
        l2 = re.sub(r"\b([sv])(\d+)\b", sub, line, count=rng.randrange(1, 3))
        l2 = re.sub(r"\bvcc\b", lambda m: rng.choice(["vcc", "vcc[0:1]", "vcc[0:0]"]), l2)
        l2 = re.sub(r"\bexec\b", lambda m: rng.choice(["exec", "exec[0:1]", "exec[1]"]), l2)
        return l2
    if kind == 5:  # register symbol
        ms = list(re.finditer(r"\b([sv])\[(\d+):(\d+)\]|\b([sv])(\d+)\b", line))
        if ms:
            m = rng.choice(ms)
            k = m.group(1) or m.group(4)
            a = int(m.group(2) or m.group(5))
            b = int(m.group(3) or m.group(5))
            lo = max(0, a - rng.randrange(0, 3))
            hi = b + rng.randrange(0, 3)
            sym = "rg%s" % u
            sub = "%s[%d:%d]" % (sym, a - lo, b - lo) if (b > a or rng.random() < 0.5) else "%s[%d]" % (sym, a - lo)
            if lo == a and hi == b and rng.random() < 0.5:
                sub = sym
            return "%s=%%%s[%d:%d]; %s" % (sym, k, lo, hi, line[:m.start()] + sub + line[m.end():])
        return line
    if kind in (6, 7, 8):  # numbers as expressions / symbols / forward refs
        ts = tokens_int(line)
        if ts:
            m = rng.choice(ts)
            v = m.group(1)
            sym = "cs%s" % u
            if kind == 6:
                rep = rng.choice(["(%s)" % v, "(%s-3+3)" % v, "(%s*2/2)" % v, "%s+0" % v])
                return line[:m.start()] + rep + line[m.end():]
            body = line[:m.start()] + sym + line[m.end():]
            if kind == 7:
                return "%s=%s; %s" % (sym, v, body)
            return "%s; %s=%s" % (body, sym, v)
        return line
    if kind == 9:  # one-line macro
        ops = split_ops(rest)
        if ops:
            k = rng.randrange(len(ops))
            first = ops[k]
            ops[k] = "\\a"
            name = "mc%s" % u
            return ".macro %s a; %s %s; .endm; %s %s" % (name, mnem, ", ".join(ops), name, first)
        return line
    if kind == 10:  # lit()
        ts = tokens_int(line)
        if ts:
            m = rng.choice(ts)
            return line[:m.start()] + "lit(%s)" % m.group(1) + line[m.end():]
        return line
    if kind == 11:  # compare aliases
        for a, b in rng.sample(CMP_ALIAS, len(CMP_ALIAS)):
            if a in mnem:
                return mnem.replace(a, b) + " " + rest
        return line
    if kind == 12:  # hwreg / sendmsg names
        if "hwreg(" in line:
            return re.sub(r"hwreg\(\s*[^,]+,", "hwreg(%s," % rng.choice(HWREGS), line)
        if "sendmsg(" in line:
            return re.sub(r"sendmsg\([^)]*\)", "sendmsg(%s)" % rng.choice(SENDMSGS), line)
        return line
    if kind == 13:  # wrong register count
        ms = list(re.finditer(r"\b([sv])\[(\d+):(\d+)\]|\b([sv])(\d+)\b", line))
        if ms:
            m = rng.choice(ms)
            k = m.group(1) or m.group(4)
            a = int(m.group(2) or m.group(5))
            b = int(m.group(3) or m.group(5))
            b2 = b + rng.choice([1, 2, -1]) if b > a else b + 1
            return line[:m.start()] + "%s[%d:%d]" % (k, a, max(a, b2)) + line[m.end():]
        return line
    if kind == 14:  # out-of-range values
        ts = tokens_int(line)
        if ts:
            m = rng.choice(ts)
            v = rng.choice(["65536", "4096", "-1", "256", "0x100000", "8191", "-17", "65"])
            return line[:m.start()] + v + line[m.end():]
        return line
    if kind == 15 and other_gen_lines:  # line of another generation
        return rng.choice(other_gen_lines)
    if kind == 16:  # offset spellings
        if "offset:" in line:
            return line.replace("offset:", rng.choice(["inst_offset:", "offset :", "offset: ", "OFFSET:"]), 1)
        return line
    if kind == 17:  # modifier parameter forms
        return line + " " + rng.choice(["neg:[0,1]", "abs:3", "omod:2", "op_sel:0xb", "neg:1",
                                        "abs:[1,0]", "sext:[0,1]", "mul:2", "div:2", "omod:(1+2)",
                                        "op_sel:[0,1]", "dmask:0xf", "dst_unused:preserve",
                                        "bound_ctrl:0:1", "clamp:0"])
    if kind == 18:  # expressions with a forward label and '.'
        ts = tokens_int(line)
        if ts:
            m = rng.choice(ts)
            v = m.group(1)
            sym = "lb%s" % u
            return "%s; %s=.+(%s)-." % (line[:m.start()] + ("(%s-.)" % sym) + line[m.end():], sym, v) \
                if rng.random() < 0.0 else "%s; %s=%s" % (line[:m.start()] + "(%s*1)" % sym + line[m.end():], sym, v)
        return line
    # 19: waitcnt forms and misc spaces
    if "vmcnt" in line or "lgkmcnt" in line or "expcnt" in line:
        return re.sub(r"(vmcnt|lgkmcnt|expcnt)\(", lambda m: m.group(1) + rng.choice(["  (", " (", "("]), line)
    return line


# ---- oracle ----------------------------------------------------------------

def clrx_run(lines, gen):
    """Assemble `lines` with clrxasm; returns (set of rejected indices, bytes list or None)."""
    src = []
    for i, l in enumerate(lines):
        src.append("L%d:" % i)
        src.append(l)
    src.append("L%d:" % len(lines))
    src.append(".int " + ",".join("L%d-L0" % i for i in range(len(lines) + 1)))
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "a.s")
        o = os.path.join(d, "a.bin")
        with open(p, "w") as f:
            f.write("\n".join(src) + "\n")
        r = subprocess.run([CLRXASM, "-b", "rawcode", "-g", DEVICE[gen], "-o", o, p],
                           capture_output=True, text=True, errors="replace")
        bad = set()
        for l in r.stderr.splitlines():
            m = re.match(r"^.*?a\.s:(\d+):\d+: Error:", l)
            if m:
                ln = int(m.group(1))
                if ln % 2 == 0 and ln // 2 - 1 < len(lines):
                    bad.add(ln // 2 - 1)
                else:
                    bad.add(-1)
        data = open(o, "rb").read() if r.returncode == 0 and os.path.exists(o) else None
    return bad, data


def oracle(lines, gen):
    """Per-line accept/reject and bytes."""
    verdict = {}
    alive = list(range(len(lines)))
    for _ in range(20):
        sub = [lines[i] for i in alive]
        bad, data = clrx_run(sub, gen)
        bad.discard(-1)
        if not bad and data is not None:
            n = len(sub)
            tab = struct.unpack("<%dI" % (n + 1), data[-4 * (n + 1):])
            for k, i in enumerate(alive):
                verdict[i] = data[tab[k]:tab[k + 1]]
            break
        if not bad:
            # an error not tied to a line: bisect
            if len(alive) == 1:
                verdict[alive[0]] = None
                alive = []
                break
            h = len(alive) // 2
            a = oracle([lines[i] for i in alive[:h]], gen)
            b = oracle([lines[i] for i in alive[h:]], gen)
            for k, i in enumerate(alive[:h]):
                verdict[i] = a[k]
            for k, i in enumerate(alive[h:]):
                verdict[i] = b[k]
            alive = []
            break
        for k in bad:
            verdict[alive[k]] = None
        alive = [i for k, i in enumerate(alive) if k not in bad]
        if not alive:
            break
    return [verdict.get(i) for i in range(len(lines))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=22000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gens", default="1.0,1.1,1.2,1.4")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/vectors/clrx-asm"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    recs = load_syntax()
    gens = a.gens.split(",")
    pools = {}
    for gi, gen in enumerate(gens):
        rng = random.Random(a.seed * 1000 + gi)
        pools[gen] = disasm_lines(rng, gen, int(a.lines * 1.2))
    for gi, gen in enumerate(gens):
        rng = random.Random(a.seed * 7777 + gi)
        na = int(a.lines * 0.5)
        nb = int(a.lines * 0.15)
        dis = pools[gen]
        rng.shuffle(dis)
        la = list(dict.fromkeys(dis))[:na]
        lb = list(dict.fromkeys(syntax_lines(rng, gen, recs, nb * 2)))[:nb]
        others = [l for g in gens if g != gen for l in pools[g][:2000]]
        base = la + lb
        # mutate mostly what clrxasm accepts (so the mutation is what is tested)
        bres = oracle(base, gen)
        good = [l for l, r in zip(base, bres) if r is not None]
        lc = []
        seen = set(base)
        i = 0
        while len(base) + len(lc) < a.lines and i < a.lines * 5:
            i += 1
            src = rng.choice(good if rng.random() < 0.85 else base)
            m = mutate(rng, src, len(base) + len(lc), others)
            if rng.random() < 0.3:
                m = mutate(rng, m, len(base) + len(lc), others)
            if m in seen:
                continue
            seen.add(m)
            lc.append(m)
        allv = base + lc
        allv = [l for l in allv if "\t" not in l and "\n" not in l]
        res = oracle(allv, gen)
        path = os.path.join(a.out, "gcn%s.txt" % gen)
        acc = 0
        with open(path, "w") as f:
            f.write("# CLRX-syntax assembler vectors for GCN %s (%s), clrxasm 0.1.9 as oracle.\n" % (gen, DEVICE[gen]))
            f.write("# Made by tools/clrx-asm/gen.py --lines %d --seed %d; + accepted (dwords), ! rejected.\n" % (a.lines, a.seed))
            f.write("# sections: a=clrxdisasm output %d, b=syntax lines %d, c=mutations %d\n" % (len(la), len(lb), len(allv) - len(la) - len(lb)))
            for l, r in zip(allv, res):
                if r is None:
                    f.write("!\t-\t%s\n" % l)
                else:
                    acc += 1
                    b = r + b"\0" * (-len(r) % 4)
                    ws = struct.unpack("<%dI" % (len(b) // 4), b)
                    f.write("+\t%s\t%s\n" % (" ".join("%08x" % w for w in ws) or "-", l))
        print("%s: %d vectors (%d accepted, %d rejected) -> %s" % (gen, len(allv), acc, len(allv) - acc, path), file=sys.stderr)


if __name__ == "__main__":
    main()
