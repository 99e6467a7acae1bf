"""Reinforcement-learning environments (needs the ``rl`` extra: numpy,
pettingzoo, gymnasium).

- :func:`aec_env` / :class:`CarcassonneAEC`: a PettingZoo AEC environment,
  one agent per seat (``player_0`` …), chance (tile and gift draws) resolved
  inside ``step``.
- :class:`CarcassonneGym`: a single-agent Gymnasium environment, one seat
  against built-in opponents (``"random"``, ``"greedy"``, ``"mcts:…"``).

Observations are dicts ``{"observation": {...}, "action_mask": int8[N]}``
(see the package README for every plane and index); actions are indices of
the window encoding of radius ``radius`` (``N = carcassonne.action_count(radius)``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

import gymnasium
from pettingzoo import AECEnv

from . import PLANES, STATE_ENTRIES, Game, action_count, agent

__all__ = ["CarcassonneAEC", "CarcassonneGym", "aec_env", "observation_space"]

# Each vector's length and upper bound (scores: a generous bound).
_VECTORS = {
    "tile": (24, 1.0),
    "scores": (6, 1000.0),
    "supplies": (6, 7.0),
    "bag": (24, 9.0),
    "gifts": (5, 5.0),
    "gift_counts": (6, 25.0),
    "state": (len(STATE_ENTRIES), [6.0, 100.0, 5.0, 1.0, 1.0, 71.0, 25.0, 1.0]),
}


def observation_space(radius: int) -> spaces.Dict:
    """The observation space of window radius ``radius``."""
    width = 2 * radius + 1
    inner = {
        "board": spaces.Box(0.0, 1.0, (len(PLANES), width, width), np.float32),
    }
    for name, (size, high) in _VECTORS.items():
        high = np.broadcast_to(np.asarray(high, np.float32), (size,))
        inner[name] = spaces.Box(np.zeros(size, np.float32), high, (size,), np.float32)
    return spaces.Dict(
        {
            "observation": spaces.Dict(inner),
            "action_mask": spaces.Box(0, 1, (action_count(radius),), np.int8),
        }
    )


def _final_rewards(game: Game) -> list[float]:
    """+1 for the sole best total, 0 for a shared best, -1 otherwise."""
    totals = [s["total"] for s in game.scores()]
    best = max(totals)
    winners = totals.count(best)
    return [(1.0 if winners == 1 else 0.0) if t == best else -1.0 for t in totals]


def _rules(players, farmers, gifts, rules, variants) -> dict:
    """The rules of the arguments as Game takes them, as a full dict
    (checked now, so a bad key fails when the environment is made)."""
    return Game(players=players, farmers=farmers, gifts=gifts, rules=rules, **variants).rules


class CarcassonneAEC(AECEnv):
    """PettingZoo AEC environment of Carcassonne.

    Rewards: 0 during the game; at the end +1 to the seat with the sole
    best total, 0 to seats sharing the best total, -1 to the others.
    ``infos[agent]["action_mask"]`` repeats the observation's mask. A
    seat whose legal actions all lie outside the window (very rare with
    radius 10) has a random legal action played for it.
    """

    metadata = {"name": "carcassonne_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 2, farmers: bool | None = None,
                 gifts: bool | None = None, radius: int = 10,
                 render_mode: str | None = None, rules=None, **variants):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' or None")
        self.players = players
        self.rules = _rules(players, farmers, gifts, rules, variants)
        self.radius = radius
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._obs_space = observation_space(radius)
        self._act_space = spaces.Discrete(action_count(radius))
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def _advance(self):
        while not self.game.is_over():
            if self.game.is_chance():
                self.game.draw_random()
            elif not self.game.action_mask(self.radius).any():
                self.game.apply_random(int(self._rng.integers(2**63)))
            else:
                return

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**63))
        self.game = Game(players=self.players, seed=game_seed, rules=self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._advance()
        self._update()

    def _update(self):
        """Select the next agent, and set rewards and terminations."""
        if self.game.is_over():
            for a, r in zip(self.possible_agents, _final_rewards(self.game)):
                if a in self.rewards:
                    self.rewards[a] = r
                    self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game.current_seat()]
        mask = self.game.action_mask(self.radius)
        for a in self.agents:
            self.infos[a] = {"action_mask": mask if a == self.agent_selection and
                             not self.game.is_over() else np.zeros_like(mask)}

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = self.game.observation(seat, self.radius)
        if self.game.current_seat() == seat:
            mask = self.game.action_mask(self.radius)
        else:
            mask = np.zeros(self._act_space.n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_index(int(action), self.radius)
        for a in self.agents:
            self.rewards[a] = 0.0
        self._advance()
        self._update()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return repr(self.game)

    def close(self):
        pass


def aec_env(players: int = 2, farmers: bool | None = None, gifts: bool | None = None,
            radius: int = 10, render_mode: str | None = None, rules=None,
            **variants) -> CarcassonneAEC:
    """A PettingZoo AEC environment (see :class:`CarcassonneAEC`). The
    rules as for :class:`carcassonne.Game`: ``farmers``, ``gifts``,
    ``rules`` (text or dict) and variant keywords (``hole_bonus=True``)."""
    return CarcassonneAEC(players=players, farmers=farmers, gifts=gifts, radius=radius,
                          render_mode=render_mode, rules=rules, **variants)


class CarcassonneGym(gymnasium.Env):
    """Single-agent Gymnasium environment: the learner plays seat ``seat``,
    built-in ``opponent`` agents (one spec, or one per other seat) play the
    others.

    Reward: at the end, +1 for the sole best total, 0 for a shared best,
    -1 otherwise. An illegal action (not in the mask) ends the episode
    with reward ``illegal_reward`` and ``info["illegal_action"] = True``.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent="random", players: int = 2, seat: int = 0,
                 farmers: bool | None = None, gifts: bool | None = None, radius: int = 10,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 rules=None, **variants):
        super().__init__()
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        specs = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != players - 1:
            raise ValueError(f"{len(specs)} opponents for {players - 1} other seats")
        for spec in specs:
            agent(spec)  # raises on a bad spec
        self.opponent_specs = specs
        self.players = players
        self.seat = seat
        self.rules = _rules(players, farmers, gifts, rules, variants)
        self.radius = radius
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space(radius)
        self.action_space = spaces.Discrete(action_count(radius))
        self.game = None

    def _observe(self):
        obs = self.game.observation(self.seat, self.radius)
        if self.game.current_seat() == self.seat:
            mask = self.game.action_mask(self.radius)
        else:
            mask = np.zeros(self.action_space.n, np.int8)
        return {"observation": obs, "action_mask": mask}

    def _play_until_learner(self):
        while not self.game.is_over():
            if self.game.is_chance():
                self.game.draw_random()
                continue
            seat = self.game.current_seat()
            if seat == self.seat:
                if self.game.action_mask(self.radius).any():
                    return
                self.game.apply_random(int(self.np_random.integers(2**63)))
                continue
            other = self._opponents[seat]
            self.game.apply(other.select(self.game.view(seat)))

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        self.game = Game(players=self.players, seed=game_seed, rules=self.rules)
        others = [s for s in range(self.players) if s != self.seat]
        self._opponents = {
            s: agent(spec, seed=int(self.np_random.integers(2**63)))
            for s, spec in zip(others, self.opponent_specs)
        }
        self._play_until_learner()
        return self._observe(), {}

    def step(self, action):
        mask = self.game.action_mask(self.radius)
        action = int(action)
        if not (0 <= action < len(mask)) or not mask[action]:
            return self._observe(), float(self.illegal_reward), True, False, {"illegal_action": True}
        self.game.apply_index(action, self.radius)
        self._play_until_learner()
        reward = 0.0
        done = self.game.is_over()
        if done:
            reward = _final_rewards(self.game)[self.seat]
        return self._observe(), reward, done, False, {}

    def render(self):
        if self.render_mode == "ansi":
            return repr(self.game)
        return None
