"""Vectorised environments (needs the ``rl`` extra): N games stepped per
call in Rust on a thread pool with the GIL released (EnvPool style).

- :func:`vector_env` with an ``opponent`` (a built-in agent spec, or one
  per other seat): :class:`VectorEnv`, Gymnasium's ``VectorEnv``
  interface, one learner seat per game against built-in agents.
- :func:`vector_env` with ``opponent=None``: :class:`SelfPlayVectorEnv`,
  every seat a learner (self-play); each step plays the action of the
  seat to play in each game, whose seat is in ``to_play``.

Actions are indices into the decision's list of legal actions (in the
order of ``Game.legal_actions()``): ``action_mask[i, :num_actions[i]]``
is 1, so every legal action is reachable. Observations are dicts of numpy
arrays with a leading ``num_envs`` axis: the window observation of the
single environments (``board``, ``tile``, ``scores``, … for the seat to
play, when ``observe=True``), ``action_features`` (float32
``[N, max_actions, len(ACTION_FEATURES)]``, zero past ``num_actions``;
absent with ``features=False``),
``action_mask`` (int8 ``[N, max_actions]``), ``action_ids`` (engine ids,
-1 past the list) and ``action_window`` (the window index of radius
``radius`` of each legal action, -1 outside the window or past the list).

Auto-reset is Gymnasium's *same-step* mode: the step that ends a game
reports its reward and ``terminated=True`` together with the first
observation of the next game of that slot; ``infos["final_scores"]``
holds the finished game's totals. Game ``i``'s episode ``k`` is dealt
from a seed that depends only on (``seed``, ``i``, ``k``) (in
``infos["game_seed"]``), and the built-in agent in seat ``s`` draws from
``VectorEnv.agent_seed(game_seed, s)``: a game replays alone as
``Game(seed=game_seed)`` with ``agent(spec, seed=agent_seed(game_seed, s))``
whatever the thread count.

The arrays are allocated once; with ``copy=False`` the returned arrays
are shared and overwritten by the next step (faster; copy what you keep).
``copy=True`` copies only the arrays a step returns, and
``features=False`` and ``observe=False`` leave theirs out altogether.
"""

from __future__ import annotations

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from . import ACTION_FEATURES
from ._carcassonne import VectorEnv as _RustVectorEnv
from .env import _rules, observation_space

__all__ = ["VectorEnv", "SelfPlayVectorEnv", "vector_env", "single_observation_space"]

_INFO_KEYS = ("num_actions", "to_play", "final_scores", "episode", "game_seed",
              "action_ids", "action_window")


def single_observation_space(radius: int, max_actions: int, observe: bool = True,
                             features: bool = True) -> spaces.Dict:
    """The observation space of one game of a vector environment."""
    inner = dict(observation_space(radius)["observation"].spaces) if observe else {}
    if features:
        inner["action_features"] = spaces.Box(
            -np.inf, np.inf, (max_actions, len(ACTION_FEATURES)), np.float32)
    inner["action_mask"] = spaces.Box(0, 1, (max_actions,), np.int8)
    return spaces.Dict(inner)


class _Base:
    def _make(self, num_envs, players, specs, farmers, gifts, rules, radius, max_actions,
              observe, seed, threads, copy, variants, features):
        self.num_envs = num_envs
        self.players = players
        self.rules = _rules(players, farmers, gifts, rules, variants)
        self.radius = radius
        self.max_actions = max_actions
        self.observe = observe
        self.copy = copy
        self._env = _RustVectorEnv(num_envs, players, specs, rules=self.rules, radius=radius,
                                   max_actions=max_actions, observe=observe, seed=seed,
                                   threads=threads, features=features)
        self._arrays = self._env.arrays()
        self.features = features
        self._obs_keys = list(
            single_observation_space(radius, max_actions, observe, features).spaces)

    def _obs(self):
        a = self._arrays
        if self.copy:
            return {k: a[k].copy() for k in self._obs_keys}
        return {k: a[k] for k in self._obs_keys}

    def _infos(self):
        a = self._arrays
        return {k: a[k].copy() if self.copy else a[k] for k in _INFO_KEYS}

    def _step(self, actions):
        self._env.step(np.asarray(actions, dtype=np.int64).reshape(self.num_envs).tolist())

    @property
    def arrays(self) -> dict:
        """Every array of the environment by name (shared, overwritten by
        each step)."""
        return self._arrays

    def game(self, index: int):
        """Game ``index``'s position now as a :class:`carcassonne.Game`
        (a copy; its further draws come from a fresh generator)."""
        return self._env.game(index)

    @staticmethod
    def agent_seed(game_seed: int, seat: int) -> int:
        """The seed of the built-in agent in ``seat`` of the game dealt
        from ``game_seed``."""
        return _RustVectorEnv.agent_seed(int(game_seed), seat)


class VectorEnv(_Base, gymnasium.vector.VectorEnv):
    """``num_envs`` games, the learner in seat ``seat`` of each against
    built-in ``opponent`` agents (one spec, or one per other seat).

    Reward: 0 during a game; at its end +1 for the sole best total, 0 for
    a shared best, -1 otherwise (as :class:`carcassonne.env.CarcassonneGym`).
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, opponent="random", players: int = 2, seat: int = 0,
                 farmers: bool | None = None, gifts: bool | None = None, rules=None,
                 radius: int = 10, max_actions: int = 2048, observe: bool = True,
                 seed: int = 0, threads: int | None = None, copy: bool = True,
                 features: bool = True, **variants):
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        others = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(others) != players - 1:
            raise ValueError(f"{len(others)} opponents for {players - 1} other seats")
        specs = others[:seat] + [None] + others[seat:]
        self.seat = seat
        self._make(num_envs, players, specs, farmers, gifts, rules, radius, max_actions,
                   observe, seed, threads, copy, variants, features)
        self.single_observation_space = single_observation_space(
            radius, max_actions, observe, features)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(max_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, max_actions))

    def reset(self, *, seed: int | None = None, options=None):
        """Start every game afresh (from ``seed`` if given)."""
        self._env.reset(seed)
        return self._obs(), self._infos()

    def step(self, actions):
        """Play ``actions[i]`` (an index into game ``i``'s legal actions)
        in every game; returns (observations, rewards, terminations,
        truncations, infos)."""
        self._step(actions)
        a = self._arrays
        rewards = a["rewards"][:, self.seat].copy()
        terminated = a["terminated"].copy()
        return self._obs(), rewards, terminated, np.zeros(self.num_envs, bool), self._infos()

    def close(self, **kwargs):
        pass


class SelfPlayVectorEnv(_Base):
    """``num_envs`` games in which every seat is a learner (self-play).
    Each step plays one action in each game, for its seat to play
    (``infos["to_play"]``, read before the step); observations are the
    seat to play's. Rewards have shape ``[num_envs, players]`` (absolute
    seats): 0 during a game, the final rewards of every seat at its end.
    """

    def __init__(self, num_envs: int, players: int = 2, farmers: bool | None = None,
                 gifts: bool | None = None, rules=None, radius: int = 10,
                 max_actions: int = 2048, observe: bool = True, seed: int = 0,
                 threads: int | None = None, copy: bool = True, features: bool = True,
                 **variants):
        self._make(num_envs, players, [None] * players, farmers, gifts, rules, radius,
                   max_actions, observe, seed, threads, copy, variants, features)
        self.single_observation_space = single_observation_space(
            radius, max_actions, observe, features)
        self.single_action_space = spaces.Discrete(max_actions)

    def reset(self, *, seed: int | None = None, options=None):
        """Start every game afresh (from ``seed`` if given)."""
        self._env.reset(seed)
        return self._obs(), self._infos()

    def step(self, actions):
        """Play ``actions[i]`` in game ``i`` for its seat to play; returns
        (observations, rewards[N, players], terminations, truncations,
        infos)."""
        self._step(actions)
        a = self._arrays
        return (self._obs(), a["rewards"].copy(), a["terminated"].copy(),
                np.zeros(self.num_envs, bool), self._infos())

    def close(self):
        pass


def vector_env(num_envs: int, opponent="random", **kwargs):
    """``num_envs`` games stepped together in Rust: a :class:`VectorEnv`
    (one learner seat against built-in ``opponent`` agents), or with
    ``opponent=None`` a :class:`SelfPlayVectorEnv` (every seat a
    learner). Keywords: ``players``, ``seat`` (not for self-play), the
    rules as for :class:`carcassonne.Game` (``farmers``, ``gifts``,
    ``rules``, variant keywords), ``radius`` (of the window observation),
    ``max_actions`` (legal actions per decision at most: more raises
    ValueError), ``observe`` (False: no window observation, faster),
    ``features`` (False: no ``action_features`` array, much faster),
    ``seed``, ``threads`` (None: every core), ``copy``."""
    if opponent is None:
        return SelfPlayVectorEnv(num_envs, **kwargs)
    return VectorEnv(num_envs, opponent=opponent, **kwargs)

