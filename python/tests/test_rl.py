"""Observations, the action encoding, and the RL environments."""

import numpy as np
import pytest

import carcassonne
from carcassonne import PLANES, Game

P = {name: i for i, name in enumerate(PLANES)}


def test_the_observation_of_the_opening_has_the_expected_planes():
    game = Game(players=2, seed=1)
    tile = game.draw_random()
    obs = game.observation(0, radius=3)
    board = obs["board"]
    assert board.shape == (len(PLANES), 7, 7) and board.dtype == np.float32
    # Only the start tile D at the origin (row = y + 3, column = x + 3):
    # city north, road east and west, field south.
    centre = (3, 3)
    for plane in ("tile", "edge_n_city", "edge_e_road", "edge_s_field", "edge_w_road",
                  "last_placed"):
        assert board[P[plane]][centre] == 1, plane
        assert board[P[plane]].sum() == 1, plane
    for plane in ("edge_n_road", "edge_s_city", "monastery", "shield", "meeple_seat_0"):
        assert board[P[plane]].sum() == 0, plane
    open_cells = {tuple(c) for c in np.argwhere(board[P["open"]] == 1)}
    assert open_cells == {(4, 3), (2, 3), (3, 4), (3, 2)}
    fits = {tuple(c) for c in np.argwhere(board[P["fits"]] == 1)}
    assert fits and fits <= open_cells
    assert obs["tile"][carcassonne.TILES.index(tile)] == 1 and obs["tile"].sum() == 1
    assert obs["bag"].sum() == 70
    assert list(obs["supplies"]) == [7, 7, 0, 0, 0, 0]
    assert list(obs["scores"]) == [0] * 6
    state = dict(zip(carcassonne.STATE_ENTRIES, obs["state"]))
    assert state["players"] == 2 and state["is_to_play"] == 1 and state["tiles_left"] == 70
    # Seat 1 is not to play and sees no tile-to-place difference but its flag.
    assert dict(zip(carcassonne.STATE_ENTRIES, game.observation(1, 3)["state"]))["is_to_play"] == 0


def test_meeples_are_seen_relative_to_the_observer():
    game = Game(players=3, seed=2)
    game.draw_random()
    with_meeple = next(a for a in game.legal_actions() if a.meeple is not None)
    game.apply(with_meeple)
    x, y, _ = with_meeple.placement
    cell = (y + 10, x + 10)
    assert game.observation(0)["board"][P["meeple_seat_0"]][cell] == 1
    assert game.observation(1)["board"][P["meeple_seat_2"]][cell] == 1  # seat 0 is 2 after 1
    assert game.observation(2)["board"][P["meeple_seat_1"]][cell] == 1
    assert game.observation(0)["supplies"][0] == 6
    assert game.observation(1)["supplies"][2] == 6


def test_the_mask_marks_exactly_the_legal_actions_in_the_window():
    game = Game(players=2, gifts=True, seed=5)
    radius = 10
    steps = 0
    while not game.is_over():
        if game.is_chance():
            game.draw_random()
            continue
        mask = game.action_mask(radius)
        assert mask.shape == (carcassonne.action_count(radius),)
        indices = {a.index(radius) for a in game.legal_actions()} - {None}
        assert set(np.flatnonzero(mask)) == indices
        index = sorted(indices)[steps % len(indices)]
        game.apply_index(index, radius)
        steps += 1
    assert steps > 70


def test_pettingzoo_api_test_passes():
    from pettingzoo.test import api_test

    for gifts in (False, True):
        env = carcassonne.env.aec_env(players=2, gifts=gifts)
        api_test(env, num_cycles=300, verbose_progress=False)


def test_gymnasium_check_env_passes_and_an_episode_ends_with_a_result():
    from gymnasium.utils.env_checker import check_env

    env = carcassonne.env.CarcassonneGym(opponent="greedy")
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    done, reward = False, 0.0
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        assert "illegal_action" not in info
    assert reward in (-1.0, 0.0, 1.0)
    obs, reward, done, _, info = env.reset(seed=3)[0], 0, False, False, {}
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]


def test_aec_env_plays_whole_games_with_final_rewards():
    env = carcassonne.env.aec_env(players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert (info["action_mask"] == obs["action_mask"]).all()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values())[-1] >= 0
    assert env.game.is_over()


def test_a_seat_sees_its_own_hand_as_the_tiles_to_place():
    game = Game(players=2, hand=3)
    for tile in ["D", "U", "V", "E", "K", "L"]:
        game.apply_chance(tile)
    assert game.phase() == "place_hand"
    assert sorted(game.view(0).tiles_to_place()) == ["D", "U", "V"]
    assert game.view(1).tiles_to_place() == []


def test_a_seat_does_not_see_another_seats_hidden_hand():
    # Issue 11: two hand=3 deals differing only in seat 1's hidden hand
    # (and the bag correspondingly) look the same to seat 0.
    def deal(seat1):
        game = Game(players=2, hand=3)
        for tile in ["D", "U", "V", *seat1]:
            game.apply_chance(tile)
        return game

    a, b = deal("EKL"), deal("BJW")
    assert a.bag() != b.bag()
    assert a.view(0).bag() == b.view(0).bag()
    obs_a, obs_b = a.observation(0), b.observation(0)
    for key in obs_a:
        assert np.array_equal(obs_a[key], obs_b[key]), key
