"""Carcassonne AI toolkit from Python: the Rust rules engine, agents,
tournaments, and (with the ``rl`` extra) observations and PettingZoo /
Gymnasium environments.

>>> import carcassonne
>>> game = carcassonne.Game(players=2, seed=1)
>>> while not game.is_over():
...     if game.is_chance():
...         game.draw_random()
...     else:
...         game.apply(game.legal_actions()[0])
"""

from ._carcassonne import (
    ACTION_FEATURES,
    ACTION_FEATURES_VERSION,
    ACTION_SPACE,
    FULL_RADIUS,
    GIFTS,
    MAX_PLAYERS,
    PLANES,
    STATE_ENTRIES,
    TILES,
    Action,
    ActionList,
    Agent,
    EngineError,
    Game,
    IllegalActionError,
    View,
    action_count,
    agent,
    decode_action,
    play_game,
    replay,
    tournament,
)

__all__ = [
    "ACTION_FEATURES",
    "ACTION_FEATURES_VERSION",
    "ACTION_SPACE",
    "FULL_RADIUS",
    "GIFTS",
    "MAX_PLAYERS",
    "PLANES",
    "STATE_ENTRIES",
    "TILES",
    "Action",
    "ActionList",
    "Agent",
    "EngineError",
    "Game",
    "IllegalActionError",
    "View",
    "action_count",
    "agent",
    "decode_action",
    "env",
    "play_game",
    "replay",
    "tournament",
    "vector",
    "vector_env",
]


import collections.abc as _abc

_abc.Sequence.register(ActionList)


def __getattr__(name):
    # `carcassonne.env`, `carcassonne.vector` and `vector_env` need the `rl` extra (numpy, pettingzoo,
    # gymnasium): imported only when used.
    if name in ("env", "vector"):
        import importlib

        return importlib.import_module("." + name, __name__)
    if name == "vector_env":
        import importlib

        return importlib.import_module(".vector", __name__).vector_env
    raise AttributeError(f"module 'carcassonne' has no attribute {name!r}")
