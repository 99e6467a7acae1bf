"""Rule variants (RULES.md §8) from Python reach the engine's Rules."""

import json

import pytest

import carcassonne
from carcassonne import Game
from test_engine import play_random as play


def test_rules_by_text_dict_and_keyword_are_the_same():
    text = Game(rules="hole_bonus=true,final_incomplete=false").rules
    as_dict = Game(rules={"hole_bonus": True, "final_incomplete": False}).rules
    keywords = Game(hole_bonus=True, final_incomplete=False).rules
    assert text == as_dict == keywords
    assert text["hole_bonus"] is True and text["final_incomplete"] is False
    assert text["farmers"] is True and text["gifts"] is False
    assert set(Game().rules) == {
        "farmers", "gifts", "hand", "hand_visible", "start_in_bag", "unplaceable",
        "hole_bonus", "final_incomplete", "table", "table_closes"}


def test_keywords_override_the_rules_argument():
    game = Game(rules="farmers=false,hole_bonus=true", farmers=True, hole_bonus=False)
    assert game.rules["farmers"] is True and game.rules["hole_bonus"] is False
    assert Game(rules=Game(gifts=True).rules).rules["gifts"] is True


def test_refused_rules_raise_value_error_with_the_engine_reason():
    with pytest.raises(ValueError, match="unknown rules key `holes`"):
        Game(holes=True)
    with pytest.raises(ValueError, match="bad value `maybe`"):
        Game(rules="hole_bonus=maybe")
    with pytest.raises(ValueError, match="not KEY=VALUE"):
        Game(rules="hole_bonus")
    with pytest.raises(ValueError, match="cannot be combined"):
        Game(hand=1, gifts=True)
    with pytest.raises(ValueError, match="needs a `table`"):
        Game(table_closes=True)
    with pytest.raises(TypeError):
        Game(rules=3)


def test_start_in_bag_draws_the_start_tile_into_the_record():
    game = play(Game(players=2, seed=5, start_in_bag=True), 5)
    record = json.loads(game.to_record())
    assert record["rules"]["start_in_bag"] is True
    assert isinstance(record["start"], str) and len(record["start"]) == 1


def test_final_incomplete_false_scores_no_unfinished_feature():
    # Same seeds and choices (the variant does not change legality): only
    # the final scoring differs, and only by unfinished features.
    standard = play(Game(players=3, seed=17), 17)
    variant = play(Game(players=3, seed=17, final_incomplete=False), 17)
    assert standard.board() == variant.board()
    pairs = list(zip(standard.scores(), variant.scores()))
    assert all(v["farm"] == s["farm"] for s, v in pairs)
    assert all(v["total"] <= s["total"] for s, v in pairs)
    assert any(v["total"] < s["total"] for s, v in pairs)
    record = json.loads(variant.to_record())
    assert record["rules"]["final_incomplete"] is False
    again = Game.from_record(variant.to_record())
    assert again.rules == variant.rules and again.scores() == variant.scores()


def test_hole_bonus_games_give_extra_turns_and_replay():
    # Some seed fills a hole: the seat that filled it plays again.
    for seed in range(40):
        game = play(Game(seed=seed, hole_bonus=True), seed)
        turns = json.loads(game.to_record())["turns"]
        seats = [t["player"] for t in turns]
        if any(a == b for a, b in zip(seats, seats[1:])):
            assert Game.from_record(game.to_record()).scores() == game.scores()
            return
    pytest.fail("no hole filled in 40 games")


def test_rules_reach_play_game_tournaments_and_environments(tmp_path):
    result = carcassonne.play_game(["random", "greedy"], seed=2, final_incomplete=False)
    assert json.loads(result["record"])["rules"]["final_incomplete"] is False
    out = tmp_path / "t"
    carcassonne.tournament(["random", "greedy"], games=2, out=str(out), threads=1,
                           rules="hole_bonus=true")
    run = json.loads((out / "run.json").read_text())
    assert run["settings"]["rules"]["hole_bonus"] is True
    with pytest.raises(ValueError, match="unknown rules key"):
        carcassonne.tournament(["random", "greedy"], games=2, out=str(tmp_path / "u"),
                               rules={"nope": 1})
    env = pytest.importorskip("carcassonne.env")
    aec = env.aec_env(players=2, final_incomplete=False)
    aec.reset(seed=1)
    assert aec.game.rules["final_incomplete"] is False
    gym = env.CarcassonneGym(rules="hole_bonus=true")
    gym.reset(seed=1)
    assert gym.game.rules["hole_bonus"] is True
