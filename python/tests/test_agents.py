"""Built-in agents, Python agents, and tournaments through the CLI runner."""

import collections.abc
import csv
import json
import os

import pytest

import carcassonne


def test_agent_specs_build_and_select_legal_actions():
    game = carcassonne.Game(seed=3)
    game.draw_random()
    for spec in ("random", "greedy", "mcts:iterations=50"):
        action = carcassonne.agent(spec, seed=1).select(game.view(0))
        assert action in game.legal_actions()
    with pytest.raises(ValueError, match="valid"):
        carcassonne.agent("alphazero")
    with pytest.raises(carcassonne.IllegalActionError):
        carcassonne.agent("random").select(game.view(1))


def test_analyze_gives_the_searchs_top_moves_as_legal_actions_with_values():
    game = carcassonne.Game(seed=3)
    game.draw_random()
    view = game.view(0)
    legal = {str(a) for a in game.legal_actions()}
    a = carcassonne.agent("mcts:iterations=300", seed=2).analyze(view, top=3)
    assert a["seat"] == 0 and a["legal"] == len(legal) and a["iterations"] == 300
    assert 1 <= len(a["top"]) <= 3
    assert a["top"][0] == a["best"]
    visits = [m["visits"] for m in a["top"]]
    assert visits[1:] == sorted(visits[1:], reverse=True)
    for m in a["top"]:
        assert m["action"] in legal
        assert 0.0 <= m["share"] <= 1.0 and 0.0 <= m["win"] <= 1.0
        assert isinstance(m["lead"], float)
        assert m["place"]["tile"] == m["action"].split()[0]
    # The same seed, the same analysis; an agent without a search gives
    # its choice only.
    again = carcassonne.agent("mcts:iterations=300", seed=2).analyze(view, top=3)
    assert again == a
    g = carcassonne.agent("greedy").analyze(view)
    assert g["iterations"] == 0 and g["best"]["visits"] == 0 and g["best"]["lead"] is None
    with pytest.raises(carcassonne.IllegalActionError):
        carcassonne.agent("greedy").analyze(game.view(1))


def test_a_python_agent_that_raises_forfeits_its_tournament_game(tmp_path):
    def crashing(view):
        if view.seat == 0 and len(view.board()) > 4:
            raise RuntimeError("boom")
        return view.legal_actions()[0]

    out = tmp_path / "run"
    result = carcassonne.tournament(["random", crashing], games=2, seed=4,
                                    out=str(out), threads=1)
    assert result["status"] == "finished"
    assert result["games"] == 2
    with open(out / "games.csv") as f:
        rows = list(csv.DictReader(f))
    forfeits = [r for r in rows if r["forfeit"]]
    assert forfeits, rows
    for r in forfeits:
        assert r["agent"] == "python:crashing"
        assert "RuntimeError" in r["forfeit"] and "boom" in r["forfeit"]
        assert r["result"] == "loss"
    assert {"run.json", "summary.csv", "pairwise.csv", "games.csv"} <= set(os.listdir(out))


def test_python_agents_play_tournaments_like_built_in_ones(tmp_path):
    class First:
        name = "first"

        def select(self, view):
            return view.legal_actions()[0].id

    result = carcassonne.tournament([First(), "random", carcassonne.agent("greedy")],
                                    games=2, seed=1, out=str(tmp_path / "t"), threads=2,
                                    records=True)
    labels = {row["agent"] for row in result["summary"]}
    assert labels == {"python:first", "random", "greedy"}
    assert result["games"] == 6
    run = json.loads((tmp_path / "t" / "run.json").read_text())
    assert run["settings"]["agents"] == ["python:first", "random", "greedy"]
    records = (tmp_path / "t" / "records.jsonl").read_text().splitlines()
    assert len(records) == 6
    for line in records:
        assert carcassonne.Game.from_record(line).is_over()


def test_tournament_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError):
        carcassonne.tournament(["random"], games=2, out=str(tmp_path / "a"))
    with pytest.raises(ValueError):
        carcassonne.tournament(["random", "nope"], games=2, out=str(tmp_path / "b"))
    with pytest.raises(TypeError):
        carcassonne.tournament(["random", 3], games=2, out=str(tmp_path / "c"))


def test_a_python_agent_returning_nonsense_or_an_illegal_action_forfeits():
    def nothing(view):
        return None

    def far_away(view):
        return 0  # an id no opening position has

    for bad, reason in ((nothing, "TypeError"), (far_away, "illegal")):
        result = carcassonne.play_game([bad, "random"], seed=3)
        seat, text = result["forfeit"]
        assert seat == 0 and reason in text, text


def test_python_agents_see_their_own_view_in_games_with_gifts():
    seen = []

    def careful(view):
        assert view.is_to_play()
        seen.append(sum(c for _, c in view.own_gifts()) == view.gift_counts()[view.seat])
        actions = view.legal_actions()
        return actions[len(actions) // 2]

    result = carcassonne.play_game([careful, "greedy", careful], seed=5, gifts=True)
    assert result["forfeit"] is None
    assert len(seen) > 40 and all(seen)
    assert carcassonne.Game.from_record(result["record"]).is_over()


def test_other_seats_views_list_no_actions():
    game = carcassonne.Game(gifts=True, seed=1)
    game.draw_random()
    assert len(game.view(0).legal_actions()) > 0
    assert len(game.view(1).legal_actions()) == 0
    assert isinstance(game.legal_actions(), collections.abc.Sequence)


def test_ctrl_c_interrupts_a_tournament_as_it_does_the_command_line(tmp_path):
    import signal
    import threading

    out = tmp_path / "stopped"
    # Python raises KeyboardInterrupt on SIGINT only through its default
    # handler, which it does not install when started with SIGINT ignored
    # (a background job of a shell without job control): install it here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            carcassonne.tournament(["mcts:iterations=200", "greedy"], games=400, seed=2,
                                   out=str(out), threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # The games complete are written with their summaries; run.json says
    # interrupted, so `carcassonne tournament --resume` continues it.
    run = json.loads((out / "run.json").read_text())
    assert run["status"] == "interrupted"
    with open(out / "games.csv") as f:
        rows = list(csv.DictReader(f))
    assert 0 < len(rows) < 800
    assert run["games_finished"] == len(rows) // 2
    with open(out / "summary.csv") as f:
        assert sum(int(r["games"]) for r in csv.DictReader(f)) == len(rows)
    # A later tournament in the same process is not interrupted.
    again = carcassonne.tournament(["random", "greedy"], games=2, seed=2,
                                   out=str(tmp_path / "again"), threads=1)
    assert again["status"] == "finished"


def test_threads_are_checked_as_the_command_line_checks_them(tmp_path):
    """One thread policy (issue 42): too many threads are refused, as
    `--threads` refuses them, not clamped silently."""
    for threads, message in [(0, "threads must be at least 1"),
                             (5000, "threads must be at most 1024, not 5000")]:
        with pytest.raises(ValueError, match=message):
            carcassonne.tournament(["random", "random"], games=2,
                                   out=str(tmp_path / f"t{threads}"), threads=threads)
