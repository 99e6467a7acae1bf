"""A random bot: a uniformly random legal action, seeded by the game."""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from carcassonne_bot import Bot, run  # noqa: E402


class RandomBot(Bot):
    name = "python random"
    author = "carcassonne toolkit"

    def new_game(self, game):
        self.rng = random.Random(game["seed"])

    def decide(self, msg):
        return self.rng.randrange(len(msg["legal"]))


if __name__ == "__main__":
    run(RandomBot())
