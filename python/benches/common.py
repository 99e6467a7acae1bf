"""What the benchmarks share (speed.py, vector.py): the single PettingZoo
AEC environment's steps per second, the baseline both report.

Imported from the scripts' own folder (``python python/benches/speed.py``
puts it on ``sys.path``).
"""

import time

import numpy as np

import carcassonne


def aec_steps(steps, clock=time.perf_counter):
    """Steps per second of one PettingZoo AEC environment (2 players,
    observation at radius 10 and window mask at every step, random legal
    actions from the mask, reset at each game's end), timed by `clock`:
    ``time.process_time`` for CPU time, ``time.perf_counter`` for wall
    clock."""
    env = carcassonne.env.aec_env(players=2)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = 0
    start = clock()
    while done < steps:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return steps / (clock() - start)
