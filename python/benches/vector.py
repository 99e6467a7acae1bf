"""Steps per second of the vector environment against the single
environment, side by side in one run (a benchmark, not a test).

    python benches/vector.py [--steps N] [--envs N] [--threads N]

Every line plays random legal actions in 2-player games (standard rules)
and counts decisions (one seat's action = one step), in wall-clock time:

- the PettingZoo AEC environment, one game, observation (radius 10) and
  window mask at every step (today's single environment);
- the self-play vector environment (every seat a learner), `--envs` games
  per call, with window observations, per-action features and masks;
- the same without window observations (per-action features and masks),
  without per-action features (observations and masks: what the single
  environment gives), and with masks only;
- the single-agent vector environment against `random` (learner steps;
  the opponents' moves are played inside the step, not counted).
"""

import argparse
import time

import numpy as np

import carcassonne
from common import aec_steps


def vector_steps(steps, envs, threads, **kwargs):
    env = carcassonne.vector_env(envs, seed=1, threads=threads, copy=False, **kwargs)
    _, infos = env.reset()
    n = env.arrays["num_actions"]
    rng = np.random.default_rng(1)
    calls = max(1, steps // envs)
    start = time.perf_counter()
    for _ in range(calls):
        env.step((rng.random(envs) * n).astype(np.int64))
    return calls * envs / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    single = aec_steps(args.steps // 4)
    print(f"single AEC env (observation + mask + step):     {single:>10,.0f} steps/s")
    rows = [
        ("vector env, self-play, observations + features", dict(opponent=None)),
        ("vector env, self-play, features only", dict(opponent=None, observe=False)),
        ("vector env, self-play, observations, no features", dict(opponent=None, features=False)),
        ("vector env, self-play, masks only", dict(opponent=None, observe=False, features=False)),
        ("vector env vs random, observations + features", dict(opponent="random")),
    ]
    for label, kwargs in rows:
        rate = vector_steps(args.steps, args.envs, args.threads, **kwargs)
        print(f"{label}: {rate:>10,.0f} steps/s  ({rate / single:.1f}x)")


if __name__ == "__main__":
    main()
