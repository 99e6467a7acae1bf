"""Speed of the package from Python (a benchmark, not a test).

    python benches/speed.py [--games N] [--steps N]

Prints complete random 2-player games per second stepped from Python
through legal_actions()/apply() (chance by draw_random()), the same with
legal_action_ids(), and PettingZoo AEC environment steps per second (random
legal actions from the mask; observations at every step, radius 10).
"""

import argparse
import random
import time

import carcassonne
from common import aec_steps


def random_games(games, ids):
    rng = random.Random(1)
    turns = 0
    start = time.process_time()
    for g in range(games):
        game = carcassonne.Game(players=2, seed=g)
        while not game.is_over():
            if game.is_chance():
                game.draw_random()
            else:
                actions = game.legal_action_ids() if ids else game.legal_actions()
                game.apply(actions[rng.randrange(len(actions))])
                turns += 1
    return games / (time.process_time() - start), turns / games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    rate, turns = random_games(args.games, ids=False)
    print(f"random games, legal_actions()/apply(): {rate:,.0f} games/s ({turns:.1f} decisions/game)")
    rate, _ = random_games(args.games, ids=True)
    print(f"random games, legal_action_ids()/apply(): {rate:,.0f} games/s")
    print(f"AEC env steps (observe + mask + step): {aec_steps(args.steps, clock=time.process_time):,.0f} steps/s")


if __name__ == "__main__":
    main()
