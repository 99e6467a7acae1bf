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
    ENCODING,
    ENCODING_VERSION,
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
    Network,
    View,
    action_count,
    agent,
    decode_action,
    network_layout,
    play_game,
    replay,
    selfplay,
    tournament,
)

__all__ = [
    "ACTION_FEATURES",
    "ACTION_FEATURES_VERSION",
    "ACTION_SPACE",
    "ENCODING",
    "ENCODING_VERSION",
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
    "Examples",
    "IllegalActionError",
    "Network",
    "View",
    "action_count",
    "agent",
    "decode_action",
    "env",
    "load_examples",
    "network_layout",
    "neural",
    "play_game",
    "replay",
    "save_network",
    "selfplay",
    "tournament",
    "vector",
    "vector_env",
]


import collections.abc as _abc

_abc.Sequence.register(ActionList)


def __getattr__(name):
    # `carcassonne.env`, `carcassonne.vector` and `vector_env` need the `rl` extra (numpy, pettingzoo,
    # gymnasium), `carcassonne.neural` and its names numpy: imported only when used.
    if name in ("env", "vector", "neural"):
        import importlib

        return importlib.import_module("." + name, __name__)
    if name == "vector_env":
        import importlib

        return importlib.import_module(".vector", __name__).vector_env
    if name in ("load_examples", "save_network", "Examples"):
        import importlib

        return getattr(importlib.import_module(".neural", __name__), name)
    raise AttributeError(f"module 'carcassonne' has no attribute {name!r}")
