#!/usr/bin/env python3
"""The variants table of issue 44 from the folders run.sh wrote.

    python3 summarize.py RESULTS_DIR > table.md

Reads RESULTS_DIR/analysis/{seats,decks,length}.csv (`carcassonne
analyze` over every folder) and each folder's ratings.csv (`carcassonne
ratings`, greedy anchored at 0), and prints one Markdown row per rules and
player count."""
import csv
import os
import sys


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def pct(x):
    return f"{100 * float(x):.1f}"


def main(root):
    analysis = os.path.join(root, "analysis")
    seats = read(os.path.join(analysis, "seats.csv"))
    decks = read(os.path.join(analysis, "decks.csv"))
    length = {(r["rules"], r["players"]): r for r in read(os.path.join(analysis, "length.csv"))}
    share = {(r["rules"], r["players"], r["measure"]): r for r in decks}
    keys = []
    for r in seats:
        key = (r["rules"], r["players"])
        if key not in keys:
            keys.append(key)
    print(
        "| rules | players | games | first seat's win share [95%] (fair) | last seat's | "
        "first seat's margin (points ± se) | mcts:200 over greedy, Elo [95%] | "
        "deck's share of the variance: total points | mcts–greedy margin | first seat's margin | turns |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for rules, players in keys:
        rows = [r for r in seats if (r["rules"], r["players"]) == (rules, players)]
        rows.sort(key=lambda r: int(r["seat"]))
        first, last = rows[0], rows[-1]
        folder = rules.replace("=", "-").replace(",", "-") + f"-{players}p"
        ladder = read(os.path.join(root, folder + "-ratings", "ratings.csv"))
        mcts = next(r for r in ladder if r["agent"].startswith("mcts"))
        cells = []
        for measure in ("total", "margin", "first_seat"):
            d = share.get((rules, players, measure))
            if d and d["share"]:
                cells.append(f"{pct(d['share'])}% [{pct(d['share_low'])}, {pct(d['share_high'])}]")
            else:
                cells.append("—")
        print(
            f"| {rules} | {players} | {first['games']} | "
            f"{pct(first['win_share'])}% [{pct(first['win_share_low'])}, {pct(first['win_share_high'])}] "
            f"({pct(first['fair_share'])}%) | {pct(last['win_share'])}% | "
            f"{float(first['mean_margin']):+.1f} ± {float(first['mean_margin_se']):.1f} | "
            f"{float(mcts['rating']):+.0f} [{float(mcts['low']):+.0f}, {float(mcts['high']):+.0f}] | "
            f"{cells[0]} | {cells[1]} | {cells[2]} | {float(length[(rules, players)]['turns_mean']):.1f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1])
