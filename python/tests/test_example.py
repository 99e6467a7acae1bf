"""The worked example runs (a tiny budget: it only has to work)."""

import importlib.util
import pathlib

import numpy as np
import pytest

import carcassonne

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "linear_policy.py"


def test_the_linear_policy_example_trains_evaluates_and_plots(tmp_path):
    spec = importlib.util.spec_from_file_location("linear_policy", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--steps", "200", "--envs", "8", "--games", "2",
                            "--out", str(tmp_path)])
    assert summary["status"] == "finished"
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == "episodes,mean_reward_last_100" and len(lines) > 1
    assert "<polyline" in (tmp_path / "curve.svg").read_text()
    assert "python:linear" in (tmp_path / "eval" / "games.csv").read_text()
    assert (tmp_path / "weights.json").exists()


NUMPY_NET = EXAMPLE.with_name("numpy_net.py")


def test_the_numpy_network_example_trains_saves_and_plays(tmp_path):
    spec = importlib.util.spec_from_file_location("numpy_net", NUMPY_NET)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--games", "2", "--iterations", "8", "--steps", "30",
                            "--eval-games", "1", "--hidden", "16", "--threads", "1",
                            "--out", str(tmp_path)])
    assert summary["status"] == "finished" and summary["games"] == 2
    rows = (tmp_path / "losses.csv").read_text().splitlines()
    assert rows[0] == "step,policy,value,held_policy,held_value" and len(rows) == 31
    value = [float(r.split(",")[2]) for r in rows[1:]]
    assert sum(value[-5:]) < sum(value[:5]), "the value loss should fall"
    net = carcassonne.Network(tmp_path / "net.safetensors")
    assert net.config["hidden"] == 16 and net.metadata["trainer"] == "numpy"
    assert "az:net=" in (tmp_path / "eval" / "games.csv").read_text()


def test_the_numpy_networks_gradients_are_the_derivatives_of_its_loss(tmp_path):
    spec = importlib.util.spec_from_file_location("numpy_net", NUMPY_NET)
    nn = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nn)
    carcassonne.selfplay("az:iterations=4", games=2, seed=1, out=str(tmp_path / "sp"), threads=1)
    ex = carcassonne.load_examples(tmp_path / "sp")
    w = {k: v.astype(np.float64)
         for k, v in nn.init(dict(hidden=8, context=4, cell=2, policy_hidden=5), 3).items()}
    batch = tuple(a.astype(np.float64) if a.dtype == np.float32 else a
                  for a in nn.batch_of(ex, np.array([3, 50, 90, 120])))
    policy, value, grads = nn.loss_and_grads(w, batch)
    rng = np.random.default_rng(0)
    used_cells = np.unique(batch[2])
    for name in w:
        if name.startswith("lead"):
            continue
        for _ in range(3):
            at = tuple(int(rng.integers(s)) for s in w[name].shape)
            if name == "trunk1.weight":   # an input that is not zero in the batch
                at = (at[0], int(rng.choice(np.flatnonzero(batch[0].any(0)))))
            if name.startswith("cells."):  # a cell some action acts on
                at = (int(rng.choice(used_cells)) * 2 + at[0] % 2,) + at[1:]
            up = {k: v.copy() for k, v in w.items()}
            down = {k: v.copy() for k, v in w.items()}
            up[name][at] += 1e-6
            down[name][at] -= 1e-6
            numeric = (sum(nn.loss_and_grads(up, batch)[:2])
                       - sum(nn.loss_and_grads(down, batch)[:2])) / 2e-6
            assert abs(numeric - grads[name][at]) < 1e-6 + 1e-4 * abs(numeric), (name, at)


TORCH_NET = EXAMPLE.with_name("torch_net.py")


def test_the_torch_network_example_trains_saves_and_plays(tmp_path):
    """The PyTorch trainer, when torch is installed (CI does not install
    it: the numpy round trip above is CI's test of the same path)."""
    pytest.importorskip("torch", reason="PyTorch is not installed: examples/torch_net.py not run")
    spec = importlib.util.spec_from_file_location("torch_net", TORCH_NET)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    summary = example.main(["--games", "2", "--iterations", "8", "--steps", "30",
                            "--eval-games", "1", "--hidden", "16", "--threads", "1",
                            "--out", str(tmp_path)])
    assert summary["status"] == "finished" and summary["games"] == 2
    rows = (tmp_path / "losses.csv").read_text().splitlines()
    assert rows[0] == "step,policy,value,held_policy,held_value" and len(rows) == 31
    value = [float(r.split(",")[2]) for r in rows[1:]]
    assert sum(value[-5:]) < sum(value[:5]), "the value loss should fall"
    net = carcassonne.Network(tmp_path / "net.safetensors")
    assert net.config["hidden"] == 16 and net.metadata["trainer"] == "torch"
    assert "az:net=" in (tmp_path / "eval" / "games.csv").read_text()
