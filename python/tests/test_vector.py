"""Per-action features, the vector environments and action coverage."""

import random

import numpy as np
import pytest

import carcassonne
from carcassonne import ACTION_FEATURES, Game, agent
from carcassonne.vector import SelfPlayVectorEnv, VectorEnv, vector_env

COL = {name: i for i, name in enumerate(ACTION_FEATURES)}
VARIANTS = [None, "gifts=true", "hand=3,hand_visible=true"]


def total(game, seat):
    return game.scores()[seat]["total"]


def random_decisions(rules, games, seed):
    """Every decision of `games` random games under `rules`."""
    rng = random.Random(seed)
    for g in range(games):
        game = Game(players=2 + g % 3, seed=seed * 1000 + g, rules=rules)
        while not game.is_over():
            if game.is_chance():
                game.draw_random()
                continue
            yield game
            game.apply(rng.choice(game.legal_action_ids()))


@pytest.mark.parametrize("rules", VARIANTS)
def test_action_features_equal_clone_and_apply(rules):
    checked = 0
    for game in random_decisions(rules, 3, 5):
        seat = game.current_seat()
        features = game.action_features()
        actions = game.legal_actions()
        assert features.shape == (len(actions), len(ACTION_FEATURES))
        assert features.dtype == np.float32
        for action, row in zip(actions, features):
            after = game.clone()
            after.apply(action)
            others = [total(after, s) - total(game, s)
                      for s in range(game.players) if s != seat]
            assert row[COL["points_self"]] == total(after, seat) - total(game, seat)
            assert row[COL["points_others"]] == max([0] + others)
            assert row[COL["supply_after"]] == after.supplies()[seat]
            kind = {"place": "place", "open": "open_gift", "keep": "keep_tile"}[action.kind]
            assert row[COL[kind]] == 1
            assert row[COL["meeple"]] == (action.meeple is not None)
            if action.placement is not None:
                x, y, rotation = action.placement
                assert (row[COL["x"]], row[COL["y"]], row[COL["rotation"]]) == (x, y, rotation)
            checked += 1
    assert checked > 1000


def test_view_action_features_are_the_games():
    game = Game(players=2, seed=3)
    game.draw_random()
    seat = game.current_seat()
    assert np.array_equal(game.view(seat).action_features(), game.action_features())
    assert game.view(1 - seat).action_features().shape == (0, len(ACTION_FEATURES))


def test_action_features_are_empty_at_chance():
    game = Game(players=2, seed=3)
    assert game.is_chance()
    assert game.action_features().shape == (0, len(ACTION_FEATURES))


@pytest.mark.parametrize("rules", VARIANTS)
def test_every_legal_action_has_an_index_and_a_mask_bit(rules):
    """Thousands of random games (self-play, random actions): at every
    decision the list holds exactly the legal actions, each with a mask
    bit; the radius-10 window misses some of them."""
    envs = SelfPlayVectorEnv(64, players=2, rules=rules, observe=False, seed=11, copy=False)
    arrays = envs.arrays
    rng = np.random.default_rng(0)
    games, decisions, outside = 0, 0, 0
    target = 1000 if rules is None else 500
    step = 0
    while games < target:
        n = arrays["num_actions"]
        assert (n > 0).all()
        mask = arrays["action_mask"]
        assert (mask.sum(axis=1) == n).all()
        assert (mask[np.arange(64), n - 1] == 1).all()
        if step % 8 == 0:  # a sample checked against the engine
            i = step // 8 % 64
            legal = sorted(envs.game(i).legal_action_ids())
            assert sorted(arrays["action_ids"][i, : n[i]].tolist()) == legal
        step += 1
        outside += int(((arrays["action_window"] == -1) & (mask == 1)).sum())
        decisions += 64
        envs.step((rng.random(64) * n).astype(np.int64))
        games += int(arrays["terminated"].sum())
    assert decisions > 20_000
    if rules is None:
        assert outside > 0  # what the window encoding cannot play


def test_vector_env_replays_single_games():
    """Each slot's trajectory, episode after episode, is the one a single
    Game with the same seeds and actions gives."""
    n, opp = 3, "greedy"
    envs = vector_env(n, opponent=opp, players=3, seat=1, seed=5, radius=6)
    obs, infos = envs.reset()
    singles = [None] * n
    rng = np.random.default_rng(1)
    ended = np.zeros(n, int)

    def start(i, game_seed):
        game = Game(players=3, seed=int(game_seed))
        agents = {s: agent(opp, seed=VectorEnv.agent_seed(game_seed, s)) for s in (0, 2)}
        singles[i] = (game, agents)
        advance(i)

    def advance(i):
        game, agents = singles[i]
        while not game.is_over():
            if game.is_chance():
                game.draw_random()
            elif game.current_seat() == 1:
                return
            else:
                s = game.current_seat()
                game.apply(agents[s].select(game.view(s)))

    for i in range(n):
        start(i, infos["game_seed"][i])
    steps = 0
    while ended.min() < 2:
        for i in range(n):
            game, _ = singles[i]
            assert game.current_seat() == 1
            ob = game.observation(1, 6)
            for key, value in ob.items():
                assert np.array_equal(obs[key][i], value), key
            features = game.action_features()
            k = len(features)
            assert infos["num_actions"][i] == k
            assert np.array_equal(obs["action_features"][i, :k], features)
            assert not obs["action_features"][i, k:].any()
            assert infos["action_ids"][i, :k].tolist() == game.legal_action_ids()
        actions = (rng.random(n) * infos["num_actions"]).astype(np.int64)
        old_seeds = infos["game_seed"].copy()
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        steps += 1
        assert not truncated.any()
        for i in range(n):
            game, _ = singles[i]
            game.apply(game.legal_actions()[int(actions[i])])
            advance(i)
            assert terminated[i] == game.is_over()
            if game.is_over():
                totals = [s["total"] for s in game.scores()]
                assert infos["final_scores"][i].tolist() == totals
                best = max(totals)
                expected = (1.0 if totals.count(best) == 1 else 0.0) if totals[1] == best else -1.0
                assert rewards[i] == expected
                assert infos["game_seed"][i] != old_seeds[i]
                assert infos["episode"][i] == ended[i] + 1
                ended[i] += 1
                start(i, infos["game_seed"][i])
            else:
                assert rewards[i] == 0
                assert infos["game_seed"][i] == old_seeds[i]
    assert steps > 40


def test_seeds_reproduce_whatever_the_threads():
    def run(threads):
        envs = vector_env(4, opponent="random", seed=9, observe=False, threads=threads)
        _, infos = envs.reset()
        out = []
        for t in range(120):
            _, r, term, _, infos = envs.step(np.zeros(4, np.int64))
            out.append((r.tolist(), term.tolist(), infos["action_ids"][:, 0].tolist()))
        return out

    assert run(1) == run(2)


def test_self_play_rewards_and_seats():
    envs = vector_env(8, opponent=None, players=3, observe=False, seed=2)
    obs, infos = envs.reset()
    finished = 0
    while finished < 8:
        to_play = infos["to_play"].copy()
        assert ((0 <= to_play) & (to_play < 3)).all()
        obs, rewards, terminated, _, infos = envs.step(np.zeros(8, np.int64))
        assert rewards.shape == (8, 3)
        assert not rewards[~terminated].any()
        for i in np.flatnonzero(terminated):
            assert sorted(rewards[i].tolist())[-1] >= 0
            assert (rewards[i] != 0).any() or len(set(infos["final_scores"][i])) == 1
        finished += int(terminated.sum())


def test_gymnasium_spaces_and_errors():
    envs = vector_env(2, opponent="random", seed=1, max_actions=512)
    obs, _ = envs.reset(seed=3)
    assert envs.single_observation_space["board"].contains(obs["board"][0])
    assert envs.single_observation_space["action_mask"].contains(obs["action_mask"][1])
    assert envs.observation_space["board"].contains(obs["board"])
    assert envs.metadata["autoreset_mode"].value == "SameStep"
    with pytest.raises(ValueError, match="not an index"):
        envs.step(np.array([10_000, 0]))
    with pytest.raises(ValueError):
        vector_env(2, opponent="no-such-agent")
    with pytest.raises(ValueError, match="max_actions"):
        envs = vector_env(2, opponent="random", max_actions=3, seed=1)
    again, _ = vector_env(2, opponent="random", seed=1, max_actions=512).reset(seed=3)
    assert all(np.array_equal(obs[k], again[k]) for k in obs)


def test_without_features_the_actions_are_the_same():
    a = vector_env(4, opponent="random", seed=4, observe=False)
    b = vector_env(4, opponent="random", seed=4, observe=False, features=False)
    _, ia = a.reset()
    _, ib = b.reset()
    for _ in range(60):
        assert np.array_equal(ia["action_ids"], ib["action_ids"])
        _, _, _, _, ia = a.step(ia["num_actions"] - 1)
        ob, _, _, _, ib = b.step(ib["num_actions"] - 1)
        assert "action_features" not in ob
    assert "action_features" not in b.single_observation_space.spaces
    assert "action_features" not in b.arrays
