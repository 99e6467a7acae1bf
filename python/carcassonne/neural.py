"""The ``az`` agent's network from Python (needs numpy): training examples
as numpy arrays, and weights trained elsewhere saved where ``az:net=``
plays them.

- ``load_examples(*paths)`` reads the examples ``carcassonne selfplay
  --agent az:…`` (or ``carcassonne.selfplay``) writes, as one ``Examples``
  of concatenated arrays.
- ``save_network(path, tensors, metadata)`` writes numpy (or PyTorch
  ``state_dict``) arrays in the layout of docs/neural.md;
  ``carcassonne.Network(path)`` reads a weights file back and evaluates it
  on any ``View``.
- ``forward(tensors, encoded)`` is the network in numpy: the reference of
  the layout (tests check it against the Rust network).

The package README ("The neural network") documents the arrays.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Dict, List, Mapping, Optional, Union

import numpy as np

from ._carcassonne import ENCODING, _load_examples, _save_network

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["Examples", "load_examples", "save_network", "forward"]


@dataclasses.dataclass(frozen=True)
class Examples:
    """Training examples of one or more shards, concatenated.

    ``N`` positions, ``M`` actions in all. Position ``i``'s actions are rows
    ``action_offset[i]:action_offset[i + 1]`` of ``actions``,
    ``action_cell`` and ``visits`` (``action_owner`` gives the position of
    each row). Seats are relative to the seat to play: column ``k`` of
    ``outcome`` and ``score`` is the seat ``k`` places after it.
    """

    board: np.ndarray
    """uint8 [N, 7200]: the board window × 8 (``board_float()`` is the input)."""
    globals: np.ndarray
    """float32 [N, 193]."""
    actions: np.ndarray
    """float32 [M, 51]: each legal action's features."""
    action_cell: np.ndarray
    """uint32 [M]: the window cell (0–224) each action acts on."""
    action_offset: np.ndarray
    """int64 [N + 1]: position i's actions are rows offset[i]:offset[i+1]."""
    action_owner: np.ndarray
    """int64 [M]: the position of each action row."""
    visits: np.ndarray
    """float32 [M]: the search's visit share of each action (sums to 1 per position)."""
    outcome: np.ndarray
    """float32 [N, 6]: value target per seat-relative seat: the mean over the other seats of 1 (ahead), 0 (level), −1 (behind); 0 past the seats."""
    score: np.ndarray
    """float32 [N, 6]: final totals per seat-relative seat."""
    categories: Optional[np.ndarray]
    """float32 [N, 6, 5]: final points per seat-relative seat by category (roads, cities, monasteries, farms, unopened gifts), summing to ``score``; ``None`` when a shard was written before they were kept."""
    search_value: Optional[np.ndarray]
    """float32 [N]: the search's value of the position for the seat to play, on ``outcome``'s scale (``az``: the mean of what its root's visits found); ``None`` when a search gave none (``mcts``, ``az`` with ``lead=``) or a shard was written before they were kept."""
    game: np.ndarray
    """uint32 [N]: the game number within its run (as in games.csv)."""
    turn: np.ndarray
    """uint32 [N]: turns played before the position."""
    phase: np.ndarray
    """uint8 [N]: 0 for turns 0–23, 1 for 24–47, 2 from 48 (train-net's phases)."""
    players: np.ndarray
    """uint32 [N]: seats of the game."""
    shard: np.ndarray
    """uint32 [N]: the file of each position (index into ``files``; one game per file)."""
    files: List[str]
    """The shard files read, in order."""
    metadata: List[Dict[str, str]]
    """Each file's metadata (rules, players, agent, seed, revision, encoding_version)."""
    encoding_version: int

    def __len__(self) -> int:
        return len(self.globals)

    def board_float(self) -> np.ndarray:
        """The board input as float32 [N, 7200] (the bytes / 8)."""
        return self.board.astype(np.float32) / 8

    def x(self) -> np.ndarray:
        """The input of a trunk that reads the board, float32 [N, 7393]: board then globals."""
        return np.concatenate([self.board_float(), self.globals], axis=1)

    def position(self, i: int) -> Dict[str, Any]:
        """Position ``i`` as ``View.encode()`` gives it, with its targets."""
        lo, hi = int(self.action_offset[i]), int(self.action_offset[i + 1])
        return {
            "board": self.board[i].astype(np.float32) / 8,
            "globals": self.globals[i],
            "actions": self.actions[lo:hi],
            "action_cell": self.action_cell[lo:hi],
            "visits": self.visits[lo:hi],
            "outcome": self.outcome[i],
            "score": self.score[i],
            "encoding_version": self.encoding_version,
        }


def load_examples(*paths: PathLike) -> Examples:
    """Read training examples: shard files (``game-NNNNNNN.safetensors.gz``,
    or ``.safetensors`` as written before issue 47),
    folders of them, or self-play run folders (their ``examples/``), in
    the order given, each folder's shards sorted by name.

    Raises ``ValueError`` naming the file for a missing path, a folder
    without shards, a damaged shard or one of another encoding version.
    """
    if len(paths) == 1 and isinstance(paths[0], (list, tuple)):
        paths = tuple(paths[0])
    d = _load_examples([os.fspath(p) for p in paths])
    return Examples(**d)


def _meta_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return json.dumps(value)
    return json.dumps(value, sort_keys=True)


def save_network(path: PathLike, tensors: Mapping[str, Any],
                 metadata: Optional[Mapping[str, Any]] = None) -> None:
    """Write a network's weights where ``az:net=PATH`` plays them.

    ``tensors`` maps the layout's names (``carcassonne.network_layout()``:
    ``trunk1.weight``, ``trunk1.bias``, … ``policy2.bias``) to arrays of
    those shapes: numpy arrays, or anything ``np.asarray`` takes (a
    PyTorch ``state_dict`` after ``.detach().numpy()``); they are stored as
    float32. The sizes (``hidden``, ``context``, ``cell``,
    ``policy_hidden``) are read from the shapes. ``metadata`` adds
    provenance (``seed``, ``revision``, ``data`` as a list, ``fitted_on``
    as ``{"players": [2], "rules": [{…}]}``, anything else); non-string
    values are stored as JSON. ``format`` and ``encoding_version`` are
    set; an ``encoding_version`` other than this build's is refused.

    Raises ``ValueError`` naming the file and the array for a missing or
    unknown array, a wrong shape or a value that is not finite; nothing is
    written then. The file is written whole or not at all.
    """
    arrays = {str(k): np.ascontiguousarray(np.asarray(v, dtype=np.float32))
              for k, v in tensors.items()}
    meta = {str(k): _meta_text(v) for k, v in (metadata or {}).items()}
    _save_network(os.fspath(path), arrays, meta)


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0)


def forward(tensors: Mapping[str, np.ndarray], encoded: Mapping[str, np.ndarray]) -> Dict[str, np.ndarray]:
    """The network in numpy on one encoded position (``View.encode()``):
    ``value`` and ``lead`` (6, seat-relative), ``logits`` and ``priors``
    (one per action). The reference implementation of docs/neural.md's
    layout, in float32."""
    t = {k: np.asarray(v, dtype=np.float32) for k, v in tensors.items()}

    def linear(name: str, x: np.ndarray) -> np.ndarray:
        return x @ t[name + ".weight"].T + t[name + ".bias"]

    x = np.asarray(encoded["globals"], dtype=np.float32)
    if t["trunk1.weight"].shape[1] != len(x):  # a network that reads the board
        x = np.concatenate([encoded["board"], x]).astype(np.float32)
    h = _relu(linear("trunk2", _relu(linear("trunk1", x))))
    value = np.tanh(linear("value", h))
    lead = np.tanh(linear("lead", h))
    context = linear("context", h)
    cell = t["cells.weight"].shape[0] // ENCODING["cells"]
    cells = linear("cells", h).reshape(ENCODING["cells"], cell)
    actions = np.asarray(encoded["actions"], dtype=np.float32)
    m = len(actions)
    rows = np.concatenate(
        [np.repeat(context[None, :], m, axis=0),
         cells[np.asarray(encoded["action_cell"], dtype=np.int64)],
         actions], axis=1)
    logits = linear("policy2", _relu(linear("policy1", rows)))[:, 0]
    if m:
        e = np.exp(logits - logits.max())
        priors = e / e.sum()
    else:
        priors = logits
    return {"value": value, "lead": lead, "logits": logits, "priors": priors}

