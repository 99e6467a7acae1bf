"""Count each agent's mistakes and blunders over the analysed games.

Usage: python3 summarize.py DATA_DIR   (run.sh's OUT_DIR)
Prints per agent: decisions with a choice, mistakes, blunders, their rate
per choice with a Wilson 95% interval, points lost per choice (mean and
standard error over games), and in how many games each made more."""

import csv
import glob
import math
import os
import sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main(data):
    per_agent = {}
    per_game = []
    paths = glob.glob(os.path.join(data, "analysis", "game-*.csv"))
    for path in sorted(paths, key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0])):
        game = {}
        with open(path) as f:
            for row in csv.DictReader(f):
                a = row["agent"]
                s = per_agent.setdefault(a, {"choices": 0, "mistakes": 0, "blunders": 0, "games": []})
                g = game.setdefault(a, {"choices": 0, "bad": 0, "lost": 0.0})
                if row["verdict"] == "forced":
                    continue
                s["choices"] += 1
                g["choices"] += 1
                s["mistakes"] += row["verdict"] == "mistake"
                s["blunders"] += row["verdict"] == "blunder"
                g["bad"] += row["verdict"] in ("mistake", "blunder")
                g["lost"] += float(row["points_lost"] or 0)
        for a, g in game.items():
            per_agent[a]["games"].append(g["lost"] / max(1, g["choices"]))
        per_game.append(game)
    print(f"{len(per_game)} games")
    print("| agent | choices | mistakes | blunders | (mistakes + blunders) per choice [Wilson 95%] "
          "| points lost per choice (mean ± s.e. over games) |")
    print("|---|---|---|---|---|---|")
    for a, s in sorted(per_agent.items()):
        bad = s["mistakes"] + s["blunders"]
        lo, hi = wilson(bad, s["choices"])
        g = s["games"]
        mean = sum(g) / len(g)
        se = math.sqrt(sum((x - mean) ** 2 for x in g) / (len(g) - 1) / len(g)) if len(g) > 1 else 0.0
        print(f"| `{a}` | {s['choices']} | {s['mistakes']} | {s['blunders']} | "
              f"{100 * bad / s['choices']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | {mean:.2f} ± {se:.2f} |")
    agents = sorted(per_agent)
    if len(agents) == 2:
        a, b = agents
        more = sum(1 for g in per_game if g[a]["bad"] > g[b]["bad"])
        fewer = sum(1 for g in per_game if g[a]["bad"] < g[b]["bad"])
        lost_more = sum(1 for g in per_game if g[a]["lost"] > g[b]["lost"])
        print(f"\ngames in which `{a}` made more mistakes and blunders than `{b}`: {more}; fewer: {fewer}; "
              f"as many: {len(per_game) - more - fewer}. Lost more points: {lost_more} of {len(per_game)}.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "experiments/analyze-greedy-vs-mcts/data")
