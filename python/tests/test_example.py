"""The worked example runs (a tiny budget: it only has to work)."""

import importlib.util
import pathlib

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
