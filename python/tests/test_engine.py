"""The engine from Python: stepping, chance, records, views, errors."""

import json

import pytest

import carcassonne
from carcassonne import Game, IllegalActionError


def play_random(game, seed):
    """Step `game` to the end through legal_actions()/apply()."""
    k = seed
    while not game.is_over():
        if game.is_chance():
            game.draw_random()
        else:
            actions = game.legal_actions()
            k = (k * 6364136223846793005 + 1442695040888963407) % 2**64
            game.apply(actions[(k >> 33) % len(actions)])
    return game


def test_a_game_stepped_from_python_equals_the_rust_game_runner():
    # The Python loop asks the built-in random agents (seeded as the Rust
    # runner seeds them) and draws from the game's seeded deck: the record
    # must be the one agents::game::play_game writes in Rust.
    for gifts in (False, True):
        seed, agent_seeds = 11, [5, 6]
        rust = carcassonne.play_game(["random", "random"], seed=seed,
                                     agent_seeds=agent_seeds, gifts=gifts)
        game = Game(players=2, gifts=gifts, seed=seed)
        agents = [carcassonne.agent("random", seed=s) for s in agent_seeds]
        while not game.is_over():
            if game.is_chance():
                game.draw_random()
            else:
                seat = game.current_seat()
                game.apply(agents[seat].select(game.view(seat)))
        ours = json.loads(game.to_record())
        theirs = json.loads(rust["record"])
        theirs.pop("agents")
        assert ours == theirs
        assert [s["total"] for s in game.scores()] == rust["scores"]


def test_from_record_round_trips():
    for gifts in (False, True):
        game = play_random(Game(players=3, gifts=gifts, seed=3), 7)
        record = game.to_record()
        again = Game.from_record(record)
        assert again.is_over()
        assert again.scores() == game.scores()
        assert again.to_record() == record
        assert again.board() == game.board()


def test_a_record_of_a_game_in_progress_continues():
    game = Game(seed=4)
    for _ in range(30):
        if game.is_chance():
            game.draw_random()
        else:
            game.apply(game.legal_actions()[-1])
    again = Game.from_record(game.to_record())
    assert again.board() == game.board()
    assert again.scores() == game.scores()


def test_replay_reads_json_lines_and_names_a_bad_record(tmp_path):
    games = [play_random(Game(seed=s), s) for s in (1, 2)]
    path = tmp_path / "records.jsonl"
    path.write_text("".join(g.to_record() + "\n" for g in games))
    replayed = carcassonne.replay(str(path))
    assert [g.scores() for g in replayed] == [g.scores() for g in games]
    bad = json.loads(games[0].to_record())
    bad["turns"][3]["x"] = 40
    path.write_text(json.dumps(bad) + "\n")
    with pytest.raises(IllegalActionError, match="record 1: turn 4"):
        carcassonne.replay(str(path))


def test_illegal_actions_raise_with_the_reason_and_change_nothing():
    game = Game(seed=5)
    with pytest.raises(IllegalActionError, match="no seat is to play"):
        game.apply(0)
    game.draw_random()
    before = game.to_record()
    legal = {a.id for a in game.legal_actions()}
    placement = game.legal_actions()[0].placement
    far = next(i for i in range(carcassonne.action_count()) if i not in legal)
    with pytest.raises(IllegalActionError):
        game.apply(far)
    with pytest.raises(IllegalActionError):
        game.apply("X (9, 9) r0")
    with pytest.raises(IllegalActionError):
        game.apply_chance("A")
    with pytest.raises(IllegalActionError):
        game.apply(carcassonne.action_count())
    with pytest.raises(TypeError):
        game.apply(1.5)
    assert game.to_record() == before
    assert placement is not None


def test_actions_apply_by_object_id_and_notation_alike():
    for how in ("object", "id", "notation"):
        game = Game(seed=8)
        game.draw_random()
        action = game.legal_actions()[3]
        game.apply({"object": action, "id": action.id, "notation": str(action)}[how])
        assert game.board()[-1][:2] == action.placement[:2]


def test_the_full_window_numbers_actions_as_the_engine_ids():
    assert carcassonne.action_count(carcassonne.FULL_RADIUS) == carcassonne.ACTION_SPACE


def test_every_legal_action_id_is_distinct_and_decodes_to_itself():
    game = Game(players=2, gifts=True, seed=9)
    k = 0
    while not game.is_over():
        if game.is_chance():
            game.draw_random()
            continue
        actions = game.legal_actions()
        ids = [a.id for a in actions]
        assert len(set(ids)) == len(ids)
        assert ids == [a.index(carcassonne.FULL_RADIUS) for a in actions]
        assert all(0 <= i < carcassonne.ACTION_SPACE for i in ids)
        for i in range(min(3, len(actions))):  # notation parses back
            by_text, by_object = game.clone(), game.clone()
            by_text.apply(str(actions[i]))
            by_object.apply(actions[i])
            assert by_text.to_record() == by_object.to_record()
        assert ids == game.legal_action_ids()
        k += 1
        pick = actions[k % len(actions)]
        copy = game.clone()
        copy.apply(pick.id)
        game.apply(pick)
        assert copy.to_record() == game.to_record()


def test_chance_outcomes_cover_tiles_and_gifts():
    game = Game(gifts=True, seed=2)
    outcomes = game.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert dict(outcomes)["D"] == pytest.approx(3 / 71)  # 4 D tiles, one is the start
    seen_gift = False
    while not game.is_over() and not seen_gift:
        if game.phase() == "draw_gift":
            outcomes = game.chance_outcomes()
            assert {name for name, _ in outcomes} <= set(carcassonne.GIFTS)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
            game.apply_chance(outcomes[0][0])
            seen_gift = True
        elif game.is_chance():
            tile, _ = game.chance_outcomes()[game.turns % len(game.chance_outcomes())]
            game.apply_chance(tile)
        else:
            actions = game.legal_actions()
            game.apply(actions[(game.turns * 7) % len(actions)])
    assert seen_gift


def test_a_view_shows_own_cards_only_and_determinizes():
    game = Game(players=2, gifts=True, seed=21)
    while not game.is_over():
        if game.is_chance():
            game.draw_random()
        else:
            game.apply(game.legal_actions()[-1])
        view0 = game.view(0)
        if view0.gift_counts()[1] > 0 and view0.gift_counts()[0] > 0:
            break
    view0, view1 = game.view(0), game.view(1)
    assert view0.gift_counts() == view1.gift_counts()
    assert sum(c for _, c in view0.own_gifts()) == view0.gift_counts()[0]
    det = view0.determinize(3)
    assert det.view(0).own_gifts() == view0.own_gifts()
    assert det.board() == game.board()
    assert det.scores() == game.scores()
    with pytest.raises(ValueError):
        game.view(2)


def test_scores_break_down_by_category():
    game = play_random(Game(seed=13), 13)
    for s in game.scores():
        assert s["total"] == s["road"] + s["city"] + s["monastery"] + s["farm"] + s["gifts"]
    returns = game.returns()
    assert sum(returns) == pytest.approx(1)
    totals = [s["total"] for s in game.scores()]
    assert returns[totals.index(max(totals))] > 0
    assert Game(seed=1).returns() is None


def test_clone_is_independent():
    game = Game(seed=1)
    game.draw_random()
    copy = game.clone()
    copy.apply(copy.legal_actions()[0])
    assert game.board() != copy.board()
    assert len(game.board()) == 1


def test_a_window_index_applies_the_action_it_was_taken_from():
    # Window indices are the engine's ids with cells renumbered: in a small
    # window each legal action inside it maps to one index, applying that
    # index does what applying the action does, and outside actions have none.
    assert carcassonne.action_count(2) == 30 + 25 * (1 + 8 + 8 + 64 + 36)
    game = Game(players=2, gifts=True, seed=12)
    outside = 0
    while not game.is_over():
        if game.is_chance():
            game.draw_random()
            continue
        actions = game.legal_actions()
        indices = [a.index(2) for a in actions]
        inside = [i for i in indices if i is not None]
        assert len(set(inside)) == len(inside)
        outside += len(indices) - len(inside)
        for a, i in list(zip(actions, indices))[:4]:
            if i is None:
                if a.placement is not None:
                    assert max(abs(a.placement[0]), abs(a.placement[1])) > 2
                continue
            by_index, by_action = game.clone(), game.clone()
            by_index.apply_index(i, 2)
            by_action.apply(a)
            assert by_index.to_record() == by_action.to_record()
        game.apply(actions[game.turns % len(actions)])
    assert outside > 0
