"""A worked example: the `az` network trained outside Rust — here in numpy,
by hand-written backpropagation — on the toolkit's self-play data, saved
with `carcassonne.save_network` and played by `az:net=` in a tournament.
It stands for any framework (PyTorch, JAX): what it shows is the data
(`load_examples`), the layout (`network_layout`, `neural.forward`) and
the round trip.

    python examples/numpy_net.py                        # a few minutes on 2 cores
    python examples/numpy_net.py --games 2 --iterations 8 --steps 20 --eval-games 1   # a smoke run

Steps, all written under --out (default `results/numpy-net`):

1. `selfplay/`: `--games` self-play games of `az:iterations=N` without a
   network (uniform priors, zero values: the search alone), with root
   noise and temperature for variety; its `examples/` hold the training
   data.
2. Training: the whole network of docs/neural.md (trunk, value head,
   policy head over the legal actions), Adam on the policy cross-entropy
   against the search's visit shares plus the squared error of the value
   of every seat against the game's outcome (the `lead` head is left as
   initialised: the search does not use it). Games are split 90/10 by
   shard for a held-out loss. `losses.csv` has the losses per step.
3. `net.safetensors`: the weights, with provenance in the metadata; the
   script checks `carcassonne.Network(path).evaluate(view)` against its
   own numpy forward pass.
4. `eval/`: a tournament of `az:net=net.safetensors,iterations=N` against
   `az:iterations=N` (the same search without the network), seats
   rotated, paired decks.
"""

from __future__ import annotations

import argparse
import csv
import pathlib

import numpy as np

import carcassonne
from carcassonne import neural

CELLS = carcassonne.ENCODING["cells"]


def init(sizes: dict, seed: int) -> dict:
    """Weights uniform in ±1/√fan_in (as PyTorch's nn.Linear)."""
    rng = np.random.default_rng(seed)
    shapes = dict(carcassonne.network_layout(**sizes))
    weights = {}
    for name, shape in shapes.items():
        fan_in = shapes[name.split(".")[0] + ".weight"][1]
        bound = 1 / np.sqrt(fan_in)
        weights[name] = rng.uniform(-bound, bound, size=shape).astype(np.float32)
    return weights


def forward(w: dict, x: np.ndarray, actions: np.ndarray, cell: np.ndarray, owner: np.ndarray):
    """The network on a batch: positions x [B, 7353]; actions [M, 51],
    their cells and positions. Returns the outputs and what backward needs."""
    def linear(name, inp):
        return inp @ w[name + ".weight"].T + w[name + ".bias"]

    b = len(x)
    a1 = linear("trunk1", x)
    h1 = np.maximum(a1, 0)
    a2 = linear("trunk2", h1)
    h = np.maximum(a2, 0)
    v = np.tanh(linear("value", h))
    c = linear("context", h)
    k = w["cells.weight"].shape[0] // CELLS
    m = linear("cells", h).reshape(b, CELLS, k)
    z = np.concatenate([c[owner], m[owner, cell], actions], axis=1)
    p1 = linear("policy1", z)
    q = np.maximum(p1, 0)
    logits = linear("policy2", q)[:, 0]
    return v, logits, (x, a1, h1, a2, h, z, p1, q, k)


def segment_softmax(logits: np.ndarray, owner: np.ndarray, b: int) -> np.ndarray:
    top = np.full(b, -np.inf, logits.dtype)
    np.maximum.at(top, owner, logits)
    e = np.exp(logits - top[owner])
    total = np.bincount(owner, weights=e, minlength=b)
    return (e / total[owner]).astype(logits.dtype)


def loss_and_grads(w, batch):
    """Policy cross-entropy plus value squared error (over the seats of
    each game), averaged over the positions; and their gradients."""
    x, actions, cell, owner, visits, outcome, seats = batch
    b = len(x)
    v, logits, (x, a1, h1, a2, h, z, p1, q, k) = forward(w, x, actions, cell, owner)
    priors = segment_softmax(logits, owner, b)
    policy = -np.sum(visits * np.log(np.maximum(priors, 1e-12))) / b
    err = (v - outcome) * seats
    value = np.sum(err ** 2) / b
    g = {}
    dlogit = (priors - visits) / b                     # softmax + cross-entropy, visits sum to 1
    g["policy2.weight"] = dlogit[None, :] @ q
    g["policy2.bias"] = np.array([dlogit.sum()], dlogit.dtype)
    dp1 = (dlogit[:, None] * w["policy2.weight"]) * (p1 > 0)
    g["policy1.weight"] = dp1.T @ z
    g["policy1.bias"] = dp1.sum(0)
    dz = dp1 @ w["policy1.weight"]
    ctx = w["context.weight"].shape[0]
    dc = np.zeros((b, ctx), dz.dtype)
    np.add.at(dc, owner, dz[:, :ctx])
    dm = np.zeros((b, CELLS, k), dz.dtype)
    np.add.at(dm, (owner, cell), dz[:, ctx:ctx + k])
    dm = dm.reshape(b, CELLS * k)
    dv = 2 * err / b * (1 - v ** 2)
    g["value.weight"] = dv.T @ h
    g["value.bias"] = dv.sum(0)
    g["context.weight"] = dc.T @ h
    g["context.bias"] = dc.sum(0)
    g["cells.weight"] = dm.T @ h
    g["cells.bias"] = dm.sum(0)
    dh = dv @ w["value.weight"] + dc @ w["context.weight"] + dm @ w["cells.weight"]
    da2 = dh * (a2 > 0)
    g["trunk2.weight"] = da2.T @ h1
    g["trunk2.bias"] = da2.sum(0)
    da1 = (da2 @ w["trunk2.weight"]) * (a1 > 0)
    g["trunk1.weight"] = da1.T @ x
    g["trunk1.bias"] = da1.sum(0)
    g["lead.weight"] = np.zeros_like(w["lead.weight"])
    g["lead.bias"] = np.zeros_like(w["lead.bias"])
    return policy, value, g


def batch_of(ex: carcassonne.Examples, positions: np.ndarray):
    """The arrays of some positions, actions renumbered to the batch."""
    lo, hi = ex.action_offset[positions], ex.action_offset[positions + 1]
    rows = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)])
    owner = np.repeat(np.arange(len(positions)), hi - lo)
    x = np.concatenate([ex.board[positions].astype(np.float32) / 8, ex.globals[positions]], axis=1)
    seats = (np.arange(carcassonne.MAX_PLAYERS)[None, :] < ex.players[positions][:, None])
    return (x, ex.actions[rows], ex.action_cell[rows].astype(np.int64), owner,
            ex.visits[rows], ex.outcome[positions], seats.astype(np.float32))


def train(ex, sizes, steps, batch, lr, seed, log):
    """Adam over random batches of the training games; the held-out loss
    every 10 steps. Returns the weights."""
    rng = np.random.default_rng(seed)
    held = (ex.shard % 10) == 9 if len(ex.files) >= 10 else np.zeros(len(ex), bool)
    train_idx = np.flatnonzero(~held)
    test_idx = np.flatnonzero(held)
    w = init(sizes, seed)
    m1 = {k: np.zeros_like(v) for k, v in w.items()}
    m2 = {k: np.zeros_like(v) for k, v in w.items()}
    for step in range(1, steps + 1):
        pick = rng.choice(train_idx, size=min(batch, len(train_idx)), replace=False)
        policy, value, g = loss_and_grads(w, batch_of(ex, pick))
        for k in w:
            m1[k] = 0.9 * m1[k] + 0.1 * g[k]
            m2[k] = 0.999 * m2[k] + 0.001 * g[k] ** 2
            update = (m1[k] / (1 - 0.9 ** step)) / (np.sqrt(m2[k] / (1 - 0.999 ** step)) + 1e-8)
            w[k] = (w[k] - lr * update).astype(np.float32)
        row = {"step": step, "policy": policy, "value": value, "held_policy": "", "held_value": ""}
        if len(test_idx) and (step % 10 == 0 or step == steps):
            hp, hv, _ = loss_and_grads(w, batch_of(ex, test_idx))
            row.update(held_policy=hp, held_value=hv)
        log.writerow(row)
    return w


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/numpy-net")
    parser.add_argument("--games", type=int, default=40, help="self-play games")
    parser.add_argument("--iterations", type=int, default=100, help="az iterations per move")
    parser.add_argument("--steps", type=int, default=300, help="Adam steps")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--eval-games", type=int, default=20, help="per pairing (seats rotated)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    search = f"az:iterations={args.iterations}"

    data = out / "selfplay"
    if not data.exists():
        carcassonne.selfplay(f"{search},noise=0.25,temp=1", games=args.games, seed=args.seed,
                             out=str(data), threads=args.threads)
    ex = carcassonne.load_examples(data)
    print(f"{len(ex)} positions, {len(ex.actions)} actions from {len(ex.files)} games")

    sizes = dict(hidden=args.hidden, context=16, cell=4, policy_hidden=32)
    with open(out / "losses.csv", "w", newline="") as f:
        log = csv.DictWriter(f, ["step", "policy", "value", "held_policy", "held_value"])
        log.writeheader()
        w = train(ex, sizes, args.steps, args.batch, args.lr, args.seed, log)

    net = out / "net.safetensors"
    carcassonne.save_network(net, w, {
        "seed": args.seed, "data": [str(data)], "revision": "python/examples/numpy_net.py",
        "fitted_on": {"players": [2], "rules": [carcassonne.Game().rules]},
        "trainer": "numpy", "steps": args.steps,
    })
    # The file plays what this script computes.
    game = carcassonne.Game(seed=args.seed)
    game.draw_random()
    view = game.view(game.current_seat())
    mine = neural.forward(w, view.encode())
    theirs = carcassonne.Network(net).evaluate(view)
    np.testing.assert_allclose(mine["logits"], theirs["logits"], rtol=1e-3, atol=1e-3)

    evaluation = out / "eval"
    k = 2
    while evaluation.exists():
        evaluation = out / f"eval-{k}"
        k += 1
    summary = carcassonne.tournament([f"az:net={net},iterations={args.iterations}", search],
                                     games=args.eval_games, seed=args.seed + 1000,
                                     out=str(evaluation), threads=args.threads)
    print(summary["text"])
    return summary


if __name__ == "__main__":
    main()
