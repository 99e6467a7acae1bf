#!/usr/bin/env python3
"""Two `improve --net` runs with the same anchors side by side, by
generation: CPU-hours so far (every step, the gauntlet included), the
direct score against each anchor (gauntlet.csv: the same decks for every
generation of both runs when they share the seed) and each run's joint
rating (its own fit, the first anchor at 0).

    python3 compare.py NAME_A RUN_A NAME_B RUN_B > table.md
"""
import csv
import json
import os
import sys


def load(run):
    with open(os.path.join(run, "generations.csv"), newline="") as f:
        gens = list(csv.DictReader(f))
    with open(os.path.join(run, "gauntlet.csv"), newline="") as f:
        gauntlet = list(csv.DictReader(f))
    cpu, rows = 0.0, {}
    for g in gens:
        cpu += step_cpu(run, g)
        scores = {r["anchor"]: r for r in gauntlet if r["generation"] == g["generation"]}
        rows[int(g["generation"])] = (cpu / 3600, scores, g)
    anchors = list(dict.fromkeys(r["anchor"] for r in gauntlet))
    return rows, anchors


def step_cpu(run, g):
    """The generation's CPU-seconds: its steps' in gen-K/time.json (where
    a fresh run's generation 0 row before 6aa30bb missed its gauntlet),
    else the row's."""
    path = os.path.join(run, f"gen-{g['generation']}", "time.json")
    if os.path.exists(path):
        with open(path) as f:
            return sum(t[0] for t in json.load(f).values())
    return float(g["cpu_s"] or 0)


def score(row):
    if row is None:
        return "—"
    s, lo, hi = (100 * float(row[k]) for k in ("score", "score_low", "score_high"))
    return f"{s:.1f}% [{lo:.1f}, {hi:.1f}]"


def rating(g):
    if not g["rating"]:
        return "—"
    return f"{float(g['rating']):+.0f} [{float(g['rating_low']):+.0f}, {float(g['rating_high']):+.0f}]"


def main(name_a, run_a, name_b, run_b):
    a, anchors = load(run_a)
    b, anchors_b = load(run_b)
    if anchors != anchors_b:
        sys.exit(f"the runs' anchors differ: {anchors} / {anchors_b}")
    short = [x.split(":")[0] + ("…" if ":" in x else "") for x in anchors]
    head = ["gen"]
    for name in (name_a, name_b):
        head += [f"{name}: CPU-h"] + [f"{name}: vs `{s}`" for s in short] + [f"{name}: rating", f"{name}: promoted"]
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    for k in sorted(set(a) | set(b)):
        cells = [str(k)]
        for run in (a, b):
            if k not in run:
                cells += ["—"] * (len(anchors) + 3)
                continue
            cpu, scores, g = run[k]
            cells += [f"{cpu:.3f}"] + [score(scores.get(x)) for x in anchors] + [rating(g), g["promoted"]]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
