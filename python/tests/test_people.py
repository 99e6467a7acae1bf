"""Errors for people: Python agents' tracebacks, readable action names,
the stdlib bot client with numpy integers."""

import io
import json
import pathlib
import sys

import numpy as np

import carcassonne

CLIENTS = pathlib.Path(__file__).resolve().parents[2] / "clients" / "python"


def crashing(view):
    actions = view.legal_actions()
    if len(view.board()) > 5:
        return actions[0] / 0  # the line the forfeit names
    return actions[0]


def test_a_raising_agent_forfeits_with_the_exception_and_its_line(tmp_path):
    out = tmp_path / "run"
    summary = carcassonne.tournament(agents=["random", crashing], games=2, seed=1, out=str(out),
                                     threads=1)
    assert summary["games"] == 2
    games = (out / "games.csv").read_text()
    assert "TypeError" in games and "test_people.py:" in games and "in crashing" in games
    log = (out / "agents.log").read_text()
    assert "python:crashing" in log
    assert "Traceback (most recent call last)" in log
    assert "return actions[0] / 0" in log


def test_play_game_returns_the_traceback():
    result = carcassonne.play_game(["random", crashing], seed=3)
    seat, reason = result["forfeit"]
    assert seat == 1
    assert reason.startswith("python exception: TypeError")
    assert "test_people.py" in reason
    assert "actions[0] / 0" in result["traceback"]
    assert carcassonne.play_game(["random", "random"], seed=3)["traceback"] is None


def test_decode_action_is_readable():
    game = carcassonne.Game(players=2, seed=4)
    game.draw_random()
    action = game.legal_actions()[-1]
    index = action.index(10)
    assert carcassonne.decode_action(index, 10, game) == str(action)
    text = carcassonne.decode_action(index, 10)
    x, y, r = action.placement
    assert text.startswith(f"place ({x}, {y}) r{r}")
    assert carcassonne.decode_action(carcassonne.action_count(10), 10) is None
    assert carcassonne.decode_action(6 + carcassonne.TILES.index("F"), 10) == "keep F"


def test_the_bot_client_takes_numpy_integers():
    sys.path.insert(0, str(CLIENTS))
    try:
        import carcassonne_bot
    finally:
        sys.path.pop(0)

    class NumpyBot(carcassonne_bot.Bot):
        def decide(self, msg):
            return np.int64(len(msg["legal"]) - 1)

    inp = io.StringIO(json.dumps({"type": "decide", "legal": ["a", "b", "c"]}) + "\n")
    out = io.StringIO()
    carcassonne_bot.run(NumpyBot(), inp, out)
    assert json.loads(out.getvalue()) == {"type": "action", "index": 2}
