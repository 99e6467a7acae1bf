"""A worked example: a linear softmax policy over the per-action features,
trained with REINFORCE on the vector environment against `random`, then
evaluated in a tournament against `random` and `greedy`. numpy only
(matplotlib, if installed, also draws the curve as a PNG).

    python examples/linear_policy.py                       # about a minute on 2 cores
    python examples/linear_policy.py --steps 300 --envs 16 --games 2   # a smoke run

Writes to --out (default `results/linear-policy`): `curve.csv` (episodes
finished, mean reward of the last episodes), `curve.svg` (the same, drawn
by hand), `weights.json`, and the tournament's folder `eval/` (games.csv,
summary.csv, …; `eval-2/`, … when it exists).

The policy: pi(a) ∝ exp(w · phi(a)), phi the scaled per-action features
of `carcassonne.ACTION_FEATURES` (position columns left out). The reward
comes only at the end of a game (+1 win, 0 shared, -1 loss), so each
game's gradient is the sum over its decisions of
phi(a) - E_pi[phi], times (reward - baseline).
"""

from __future__ import annotations

import argparse
import json
import pathlib

import numpy as np

import carcassonne

# Columns used, and a scale bringing each near [-1, 1].
USED = [
    "open_gift", "keep_tile", "meeple", "meeple_road", "meeple_city", "meeple_monastery",
    "meeple_field", "points_self", "points_others", "gain_self", "gain_others", "lead_after",
    "meeple_feature_tiles", "meeple_feature_value", "meeple_feature_complete", "completed",
    "city_tiles", "road_tiles", "neighbours", "supply_after",
]
COLUMNS = [carcassonne.ACTION_FEATURES.index(c) for c in USED]
SCALE = np.array([1, 1, 1, 1, 1, 1, 1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.1, 0.1, 1, 1, 0.1, 0.1,
                  0.25, 1 / 7], np.float32)


def phi(features: np.ndarray) -> np.ndarray:
    """The policy's inputs from raw per-action features (..., 25)."""
    return features[..., COLUMNS] * SCALE


def policy(weights: np.ndarray, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities [N, max_actions] (0 outside the mask)."""
    logits = phi(features) @ weights
    logits = np.where(mask == 1, logits, -np.inf)
    logits -= logits.max(axis=-1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=-1, keepdims=True)


def train(steps: int, envs: int, seed: int, lr: float = 0.05):
    """REINFORCE with a running-mean baseline. Returns the weights and the
    learning curve [(episodes, mean reward of the last 100)]."""
    rng = np.random.default_rng(seed)
    env = carcassonne.vector_env(envs, opponent="random", observe=False, seed=seed,
                                 max_actions=1024)
    obs, _ = env.reset()
    weights = np.zeros(len(COLUMNS), np.float32)
    grads = np.zeros((envs, len(COLUMNS)), np.float32)
    baseline, recent, curve, episodes = 0.0, [], [], 0
    for _ in range(steps):
        p = policy(weights, obs["action_features"], obs["action_mask"])
        actions = (p.cumsum(axis=1) > rng.random((envs, 1))).argmax(axis=1)
        x = phi(obs["action_features"])
        chosen = x[np.arange(envs), actions]
        grads += chosen - np.einsum("na,naf->nf", p, x)
        obs, rewards, terminated, _, _ = env.step(actions)
        for i in np.flatnonzero(terminated):
            r = float(rewards[i])
            weights += lr * (r - baseline) * grads[i] / 30.0
            grads[i] = 0
            baseline += 0.02 * (r - baseline)
            recent = (recent + [r])[-100:]
            episodes += 1
            curve.append((episodes, float(np.mean(recent))))
    return weights, curve


class LinearAgent:
    """The trained policy as a tournament agent (greedy on its logits)."""

    def __init__(self, weights):
        self.weights = np.asarray(weights, np.float32)
        self.name = "linear"

    def select(self, view):
        features = view.action_features()
        return view.legal_actions()[int(np.argmax(phi(features) @ self.weights))]


def write_svg(path: pathlib.Path, curve):
    """The learning curve as a hand-drawn SVG line chart."""
    w, h, pad = 480, 240, 30
    if not curve:
        path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"/>\n')
        return
    xs = np.array([c[0] for c in curve], float)
    ys = np.array([c[1] for c in curve], float)
    sx = lambda x: pad + (x - xs.min()) / max(1.0, xs.max() - xs.min()) * (w - 2 * pad)  # noqa: E731
    sy = lambda y: h - pad - (y + 1) / 2 * (h - 2 * pad)  # noqa: E731
    points = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys))
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">\n'
        f'<rect width="{w}" height="{h}" fill="white"/>\n'
        f'<line x1="{pad}" y1="{sy(0):.1f}" x2="{w - pad}" y2="{sy(0):.1f}" stroke="#ccc"/>\n'
        f'<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{points}"/>\n'
        f'<text x="{pad}" y="18" font-size="12">mean reward of the last 100 games vs random '
        f'(−1 … +1) over {int(xs.max())} games</text>\n'
        f'</svg>\n')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="vector env steps")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--games", type=int, default=20, help="evaluation games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="results/linear-policy")
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    weights, curve = train(args.steps, args.envs, args.seed)
    with open(out / "curve.csv", "w") as f:
        f.write("episodes,mean_reward_last_100\n")
        f.writelines(f"{e},{r:.4f}\n" for e, r in curve)
    write_svg(out / "curve.svg", curve)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        plt.plot([c[0] for c in curve], [c[1] for c in curve])
        plt.xlabel("games")
        plt.ylabel("mean reward, last 100")
        plt.savefig(out / "curve.png")
    except ImportError:
        pass
    (out / "weights.json").write_text(json.dumps(dict(zip(USED, weights.tolist())), indent=1))

    evaluation, n = out / "eval", 2
    while evaluation.exists():  # never overwrite an earlier run's
        evaluation, n = out / f"eval-{n}", n + 1
    summary = carcassonne.tournament(agents=[LinearAgent(weights), "random", "greedy"],
                                     games=args.games, players=2, seed=args.seed,
                                     out=str(evaluation))
    print(summary["text"])
    print(f"learning curve: {out / 'curve.svg'} ({len(curve)} games)")
    return summary


if __name__ == "__main__":
    main()
