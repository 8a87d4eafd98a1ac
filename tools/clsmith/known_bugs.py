"""Compiler bugs the CLSmith campaign has recorded (docs/clsmith.md): skip rules and
per-case confirmations.

`match(chip, toolchain, source, object)` returns the name of the first recorded bug
whose pattern the kernel shows for that build, or None. A rule only skips a build
whose result the bug can change; every rule names its evidence in docs/clsmith.md.
"""

RULES = []

# Compiler bugs confirmed per case: a mismatching GCN build is rebuilt with the
# clang flags that switch the faulty transformation off, and if risa's run of
# that object matches PoCL the case is the compiler's (campaign.py), with the
# name given here. Each names its evidence in docs/clsmith.md.
CONFIRM = [
    ("amdgpu-codegenprepare narrows a 64-bit udiv/urem of sign-extended operands "
     "to 32 bits (LLVM 14 and 19; docs/clsmith.md, seed 163)",
     ["-mllvm", "-amdgpu-codegenprepare-disable-idiv-expansion=true"]),
]


def match(chip, toolchain, source, obj):
    for name, applies in RULES:
        if applies(chip, toolchain, source, obj):
            return name
    return None
