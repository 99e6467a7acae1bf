"""Gift cards received and opened a game, and points by kind, per agent,
from a tournament folder kept in data/ (records.jsonl.gz, games.csv).

    python3 gift_counts.py data/gifts2-3-match
"""
import collections
import csv
import gzip
import json
import sys


def short(agent):
    return agent.split(":")[0]


def main(folder):
    received, opened, games = collections.Counter(), collections.Counter(), collections.Counter()
    with gzip.open(f"{folder}/records.jsonl.gz", "rt") as f:
        for line in f:
            record = json.loads(line)
            agents = [short(a) for a in record["agents"]]
            games.update(agents)
            for turn in record["turns"]:
                who = agents[turn["player"]]
                received[who] += "gift_received" in turn
                opened[who] += "gift_open" in turn
    points = collections.defaultdict(collections.Counter)
    seats = collections.Counter()
    with open(f"{folder}/games.csv") as f:
        for row in csv.DictReader(f):
            who = short(row["agent"])
            seats[who] += 1
            for k in ("score", "road", "city", "monastery", "farm", "gifts"):
                points[who][k] += float(row[k])
    for who in sorted(games):
        per = {k: round(v / seats[who], 1) for k, v in points[who].items()}
        print(f"{who}: received {received[who] / games[who]:.2f} a game, "
              f"opened {opened[who] / games[who]:.2f}; points a game {per}")


if __name__ == "__main__":
    main(sys.argv[1])
