"""Prefers monks, then any meeple: the 20-line example of the README."""
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from carcassonne_bot import Bot, run  # noqa: E402


class MonkBot(Bot):
    name = "monk lover"

    def new_game(self, game):
        self.rng = random.Random(game["seed"])  # reproducible games

    def decide(self, msg):
        legal = msg["legal"]  # actions in record notation
        monks = [i for i, a in enumerate(legal) if a.get("meeple") == "C"]
        meeples = [i for i, a in enumerate(legal) if "meeple" in a]
        return self.rng.choice(monks or meeples or range(len(legal)))


run(MonkBot())
