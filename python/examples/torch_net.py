"""A worked example: the `az` network trained in PyTorch on the toolkit's
self-play data, saved with `carcassonne.save_network` and played by
`az:net=` in a tournament. The same round trip as `numpy_net.py`, with
autograd and `torch.optim.Adam` instead of hand-written backpropagation.

    python examples/torch_net.py                        # a few minutes on 2 cores
    python examples/torch_net.py --games 2 --iterations 8 --steps 30 --eval-games 1 --hidden 16   # a smoke run

Needs `torch` (any recent version; the CPU build is enough), which the
package does not install.

Steps, all written under --out (default `results/torch-net`):

1. `selfplay/`: `--games` self-play games of `az:iterations=N` without a
   network (uniform priors, zero values: the search alone), with root
   noise and temperature for variety; its `examples/` hold the training
   data, read with `carcassonne.load_examples`.
2. Training: docs/neural.md's network as an `nn.Module` of eight
   `nn.Linear` layers named as `carcassonne.network_layout()` names them
   (so `state_dict()` is what `save_network` takes), Adam on the policy
   cross-entropy against the search's visit shares (a log-softmax over
   each position's legal actions) plus the squared error of every seat's
   value against the game's outcome (the `lead` head is left as
   initialised). Games are split 90/10 by shard for a held-out loss;
   `losses.csv` has the losses per step.
3. `net.safetensors`: the weights, with provenance in the metadata; the
   script checks `carcassonne.Network(path).evaluate(view)` against the
   module's own forward pass.
4. `eval/`: a tournament of `az:net=net.safetensors,iterations=N` against
   `az:iterations=N` (the same search without the network), seats
   rotated, paired decks.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import pathlib

import numpy as np
import torch
from torch import nn

import carcassonne

CELLS = carcassonne.ENCODING["cells"]
LAYERS = ("trunk1", "trunk2", "value", "lead", "context", "cells", "policy1", "policy2")

# The batches (positions and their legal actions, renumbered) are
# numpy_net.py's, beside this file.
_spec = importlib.util.spec_from_file_location(
    "numpy_net", pathlib.Path(__file__).resolve().with_name("numpy_net.py"))
numpy_net = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(numpy_net)


class AzNet(nn.Module):
    """docs/neural.md's layout: a two-layer trunk, a value head (one value
    per seat-relative seat), a lead head, and a policy head that scores
    each legal action from the position's context, its cell's vector and
    the action's own features."""

    def __init__(self, sizes: dict):
        super().__init__()
        shapes = dict(carcassonne.network_layout(**sizes))
        for name in LAYERS:
            out_features, in_features = shapes[name + ".weight"]
            setattr(self, name, nn.Linear(in_features, out_features))
        self.cell = shapes["cells.weight"][0] // CELLS

    def forward(self, x, actions, cell, owner):
        """Positions x [B, inputs]; actions [M, 51], the window cell and
        the position (0..B) of each. Returns values [B, 6] and logits [M]."""
        h = torch.relu(self.trunk2(torch.relu(self.trunk1(x))))
        value = torch.tanh(self.value(h))
        context = self.context(h)
        cells = self.cells(h).view(len(x), CELLS, self.cell)
        z = torch.cat([context[owner], cells[owner, cell], actions], dim=1)
        logits = self.policy2(torch.relu(self.policy1(z)))[:, 0]
        return value, logits


def segment_log_softmax(logits, owner, b: int):
    """log-softmax of the logits over each position's own actions."""
    top = torch.full((b,), float("-inf"), dtype=logits.dtype)
    top = top.scatter_reduce(0, owner, logits.detach(), reduce="amax")
    shifted = logits - top[owner]
    total = torch.zeros(b, dtype=logits.dtype).index_add(0, owner, torch.exp(shifted))
    return shifted - torch.log(total[owner])


def tensors(batch):
    """numpy_net.batch_of's arrays as tensors (copies: torch wants
    writable arrays)."""
    return tuple(torch.from_numpy(np.array(a)) for a in batch)


def losses(model, batch):
    """Policy cross-entropy and value squared error (over the seats of
    each game), each averaged over the positions."""
    x, actions, cell, owner, visits, outcome, seats = batch
    b = len(x)
    value, logits = model(x, actions, cell, owner)
    policy = -(visits * segment_log_softmax(logits, owner, b)).sum() / b
    value_loss = (((value - outcome) * seats) ** 2).sum() / b
    return policy, value_loss


def train(ex, sizes, steps, batch, lr, seed, log):
    """Adam over random batches of the training games; the held-out loss
    every 10 steps. Returns the module."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    held = (ex.shard % 10) == 9 if len(ex.files) >= 10 else np.zeros(len(ex), bool)
    train_idx = np.flatnonzero(~held)
    test_idx = np.flatnonzero(held)
    model = AzNet(sizes)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(1, steps + 1):
        pick = rng.choice(train_idx, size=min(batch, len(train_idx)), replace=False)
        policy, value = losses(model, tensors(numpy_net.batch_of(ex, pick)))
        optimiser.zero_grad()
        (policy + value).backward()
        optimiser.step()
        row = {"step": step, "policy": policy.item(), "value": value.item(),
               "held_policy": "", "held_value": ""}
        if len(test_idx) and (step % 10 == 0 or step == steps):
            with torch.no_grad():
                hp, hv = losses(model, tensors(numpy_net.batch_of(ex, test_idx)))
            row.update(held_policy=hp.item(), held_value=hv.item())
        log.writerow(row)
    return model


def check_against_rust(model, path, seed):
    """The saved file, played by Rust, gives what the module gives."""
    game = carcassonne.Game(seed=seed)
    game.draw_random()
    view = game.view(game.current_seat())
    enc = view.encode()
    x = np.concatenate([enc["board"], enc["globals"]]).astype(np.float32)[None, :]
    actions = np.asarray(enc["actions"], dtype=np.float32)
    cell = np.asarray(enc["action_cell"], dtype=np.int64)
    owner = np.zeros(len(actions), dtype=np.int64)
    with torch.no_grad():
        value, logits = model(*tensors((x, actions, cell, owner)))
    theirs = carcassonne.Network(path).evaluate(view)
    np.testing.assert_allclose(logits.numpy(), theirs["logits"], rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(value.numpy()[0], theirs["value"], rtol=1e-3, atol=1e-3)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/torch-net")
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
        model = train(ex, sizes, args.steps, args.batch, args.lr, args.seed, log)

    net = out / "net.safetensors"
    carcassonne.save_network(net, {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}, {
        "seed": args.seed, "data": [str(data)], "revision": "python/examples/torch_net.py",
        "fitted_on": {"players": [2], "rules": [carcassonne.Game().rules]},
        "trainer": "torch", "steps": args.steps,
    })
    check_against_rust(model, net, args.seed)

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
