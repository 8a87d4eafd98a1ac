"""Compiler bugs the CLSmith campaign has recorded (docs/clsmith.md), as skip rules.

`match(chip, toolchain, source, object)` returns the name of the first recorded bug
whose pattern the kernel shows for that build, or None. A rule only skips a build
whose result the bug can change; every rule names its evidence in docs/clsmith.md.
"""

RULES = []


def match(chip, toolchain, source, obj):
    for name, applies in RULES:
        if applies(chip, toolchain, source, obj):
            return name
    return None
