#!/usr/bin/env python3
"""One `improve --net` run's curve as a Markdown table: per generation,
CPU-hours so far (every step, the gauntlet included), the held-out
value loss and top-1, the direct score against each anchor with its
interval (gauntlet.csv), and the run's joint rating.

    python3 run_table.py RUN > table.md
"""
import csv
import json
import os
import sys


def name(anchor):
    """An anchor's short name: the network's file, the run's own
    generation, or the agent's kind."""
    if "net=gen-" in anchor:
        return "gen " + anchor.split("net=gen-")[1].split("/")[0]
    if "net=" in anchor:
        return anchor.split("net=")[1].split(",")[0].split("/")[-1]
    return anchor.split(":")[0] + ("…" if ":" in anchor else "")


def main(run):
    with open(os.path.join(run, "generations.csv"), newline="") as f:
        gens = list(csv.DictReader(f))
    with open(os.path.join(run, "gauntlet.csv"), newline="") as f:
        gauntlet = list(csv.DictReader(f))
    anchors = list(dict.fromkeys(r["anchor"] for r in gauntlet))
    short = [name(a) for a in anchors]
    head = ["gen", "CPU-h", "held-out value loss", "held-out top-1"] + [f"vs `{s}`" for s in short] + ["rating"]
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    cpu = 0.0
    for g in gens:
        path = os.path.join(run, f"gen-{g['generation']}", "time.json")
        if os.path.exists(path):
            with open(path) as f:
                cpu += sum(t[0] for t in json.load(f).values())
        else:
            cpu += float(g["cpu_s"] or 0)
        cells = [g["generation"], f"{cpu / 3600:.2f}", g["heldout_value_loss"] or "—",
                 f"{100 * float(g['heldout_top1']):.1f}%" if g["heldout_top1"] else "—"]
        for a in anchors:
            row = next((r for r in gauntlet if r["generation"] == g["generation"] and r["anchor"] == a), None)
            if row is None:
                cells.append("—")
            else:
                s, lo, hi = (100 * float(row[k]) for k in ("score", "score_low", "score_high"))
                cells.append(f"{s:.1f}% [{lo:.1f}, {hi:.1f}]")
        cells.append(f"{float(g['rating']):+.0f}" if g["rating"] else "—")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
