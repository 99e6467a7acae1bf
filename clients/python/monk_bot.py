"""Prefers monks, then any meeple: the 20-line example of the README."""
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from carcassonne_bot import Bot, run  # noqa: E402


class MonkBot(Bot):
    name = "monk lover"

    def new_game(self, game):
        self.rng = random.Random(game["seed"])  # reproducible games

    def decide(self, msg):
        legal = msg["legal"]  # e.g. "U (1, 0) r1 NNE", "open synod (0, 1)"
        places = [(i, a.split()) for i, a in enumerate(legal)
                  if not a.startswith(("open", "keep"))]
        meeples = [i for i, w in places if len(w) == 5]  # T (x, y) rN LOC
        monks = [i for i, w in places if len(w) == 5 and w[4] == "C"]
        return self.rng.choice(monks or meeples or range(len(legal)))


run(MonkBot())
