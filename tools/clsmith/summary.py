#!/usr/bin/python3
"""Counts the rows of CLSmith campaign results (campaign.py's TSV, any number of files
or stdin, e.g. merged shards) per target and outcome, as a Markdown table.

    summary.py results-*.tsv            # the table
    summary.py --list mismatch r.tsv    # the rows with that outcome
"""

import argparse
import collections
import sys

OUTCOMES = ["match", "mismatch", "pocl-outvoted", "schedule-dependent", "risa-fault", "risa-error", "risa-timeout", "clang-fail", "clang-skip",
            "clang-timeout", "known-clang-bug", "pocl-build-fail", "pocl-fail", "pocl-timeout", "gen-fail"]


def rows(files):
    streams = [open(f, encoding="utf-8") for f in files] if files else [sys.stdin]
    for s in streams:
        for line in s:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 6:
                yield cols


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="*")
    p.add_argument("--list", metavar="OUTCOME", help="print the rows with this outcome")
    a = p.parse_args()
    if a.list:
        for r in rows(a.files):
            if r[4] == a.list:
                print("\t".join(r))
        return
    counts = collections.defaultdict(collections.Counter)
    kernels = set()
    for seed, mode, chip, tc, outcome, *_ in rows(a.files):
        counts[(chip, tc)][outcome] += 1
        kernels.add((seed, mode))
    seen = [o for o in OUTCOMES if any(c[o] for c in counts.values())]
    seen += sorted({o for c in counts.values() for o in c} - set(OUTCOMES))
    print(f"{len(kernels)} kernels\n")
    print("| target | " + " | ".join(seen) + " | total |")
    print("|---|" + "---:|" * (len(seen) + 1))
    for (chip, tc), c in sorted(counts.items()):
        print(f"| {chip} {tc} | " + " | ".join(str(c[o]) for o in seen)
              + f" | {sum(c.values())} |")


if __name__ == "__main__":
    main()
