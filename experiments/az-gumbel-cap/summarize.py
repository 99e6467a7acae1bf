#!/usr/bin/env python3
"""The generations table of an `improve --net` run with a gauntlet.

    python3 summarize.py RUN_DIR > table.md

One row per generation: CPU-hours so far (every step, the gauntlet
included), its direct score against each anchor with the paired 95%
interval (gauntlet.csv), its joint rating with the 95% interval (the
first anchor at 0) and whether it was promoted (generations.csv)."""
import csv
import os
import sys


def main(run):
    with open(os.path.join(run, "generations.csv"), newline="") as f:
        gens = list(csv.DictReader(f))
    with open(os.path.join(run, "gauntlet.csv"), newline="") as f:
        gauntlet = list(csv.DictReader(f))
    anchors = []
    for r in gauntlet:
        if r["anchor"] not in anchors:
            anchors.append(r["anchor"])
    short = [a.split(",net=")[0] + (",net=…" if ",net=" in a else "") for a in anchors]
    print("| gen | CPU-h so far | " + " | ".join(f"vs `{a}`" for a in short) + " | rating [95%] | promoted |")
    print("|---" * (4 + len(anchors)) + "|")
    cpu = 0.0
    for g in gens:
        cpu += float(g["cpu_s"] or 0)
        cells = []
        for a in anchors:
            row = next((r for r in gauntlet if r["generation"] == g["generation"] and r["anchor"] == a), None)
            cells.append(
                f"{100 * float(row['score']):.1f}% [{100 * float(row['score_low']):.1f}, {100 * float(row['score_high']):.1f}]"
                if row else "—"
            )
        rating = f"{float(g['rating']):+.0f} [{float(g['rating_low']):+.0f}, {float(g['rating_high']):+.0f}]" if g["rating"] else "—"
        print(f"| {g['generation']} | {cpu / 3600:.3f} | " + " | ".join(cells) + f" | {rating} | {g['promoted']} |")


if __name__ == "__main__":
    main(sys.argv[1])
