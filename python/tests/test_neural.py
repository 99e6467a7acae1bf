"""The az network from Python: self-play examples as numpy arrays, the
encoding of a view, and weights built in numpy played by ``az:net=``."""

import csv
import gzip
import json
import struct

import numpy as np
import pytest

import carcassonne
from carcassonne import neural

TINY = dict(hidden=16, context=8, cell=4, policy_hidden=16)


@pytest.fixture(scope="module")
def selfplay_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("neural") / "sp"
    result = carcassonne.selfplay("az:iterations=6", games=2, players=2, seed=3,
                                  out=str(out), threads=1)
    assert result["status"] == "finished" and result["games"] == 2
    return out


def read_safetensors(path):
    """A safetensors file with numpy alone (and gzip for a shard,
    ``.safetensors.gz``): 8 bytes of header length, the JSON header, the
    arrays."""
    raw = open(path, "rb").read()
    if str(path).endswith(".gz"):
        raw = gzip.decompress(raw)
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    dtypes = {"F32": "<f4", "U32": "<u4", "U8": "u1"}
    arrays = {}
    for name, h in header.items():
        lo, hi = h["data_offsets"]
        arrays[name] = np.frombuffer(raw[8 + n + lo:8 + n + hi],
                                     dtype=dtypes[h["dtype"]]).reshape(h["shape"])
    return arrays, meta


def write_safetensors(path, arrays, meta):
    """The format by hand, from numpy alone (float32 arrays)."""
    header, offset, blobs = {"__metadata__": meta}, 0, []
    for name, a in sorted(arrays.items()):
        b = np.ascontiguousarray(a, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        blobs.append(b)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def numpy_weights(seed=1, scale=1.0, **sizes):
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in carcassonne.network_layout(**sizes):
        fan_in = shape[-1] if len(shape) == 2 else 16
        out[name] = (rng.uniform(-1, 1, size=shape) * scale / np.sqrt(fan_in)).astype(np.float32)
    return out


def midgame_view(seed, players=2, turns=12, **rules):
    rng = np.random.default_rng(seed)
    game = carcassonne.Game(players=players, seed=seed, **rules)
    while True:
        if game.is_chance():
            game.draw_random()
            continue
        if len(game.board()) > turns:
            return game
        actions = game.legal_actions()
        game.apply(actions[int(rng.integers(len(actions)))])


def test_load_examples_concatenates_the_games_of_a_selfplay_run(selfplay_run):
    ex = carcassonne.load_examples(selfplay_run)
    n, m = len(ex), len(ex.actions)
    enc = carcassonne.ENCODING
    assert ex.encoding_version == carcassonne.ENCODING_VERSION == enc["version"]
    assert ex.board.shape == (n, enc["board"]) and ex.board.dtype == np.uint8
    assert ex.globals.shape == (n, enc["globals"]) and ex.globals.dtype == np.float32
    assert ex.actions.shape == (m, enc["actions"])
    assert ex.action_cell.shape == ex.visits.shape == ex.action_owner.shape == (m,)
    assert ex.action_cell.max() < enc["cells"]
    assert ex.action_offset[0] == 0 and ex.action_offset[-1] == m
    assert (np.diff(ex.action_offset) >= 1).all()
    assert (ex.action_owner == np.repeat(np.arange(n), np.diff(ex.action_offset))).all()
    np.testing.assert_allclose(np.add.reduceat(ex.visits, ex.action_offset[:-1]), 1, rtol=1e-5)
    # Two games, one shard each, every decision of both seats searched.
    assert len(ex.files) == 2 and sorted(set(ex.game.tolist())) == [0, 1]
    assert (ex.shard == ex.game).all()
    assert ex.phase.tolist() == np.minimum(ex.turn // 24, 2).tolist()
    assert set(ex.phase.tolist()) == {0, 1, 2}
    assert (ex.players == 2).all()
    assert all(meta["encoding_version"] == str(carcassonne.ENCODING_VERSION) and meta["players"] == "2" for meta in ex.metadata)
    # Outcomes are seat-relative: the two seats see opposite results, and
    # they agree with the final scores of games.csv.
    with open(selfplay_run / "games.csv") as f:
        rows = list(csv.DictReader(f))
    for g in (0, 1):
        at = ex.game == g
        scores = sorted(float(r["score"]) for r in rows if int(r["game"]) == g)
        assert sorted(ex.score[at][0, :2].tolist()) == scores
        assert set(ex.outcome[at][:, 0].tolist()) <= {1.0, -1.0, 0.0}
        assert (ex.outcome[at][:, 2:] == 0).all()
        assert (ex.outcome[at][:, 0] == -ex.outcome[at][:, 1]).all()
    # The points by category add up to the scores, seat by seat.
    assert ex.categories.shape == (n, 6, 5) and ex.categories.dtype == np.float32
    assert (ex.categories.sum(axis=2) == ex.score).all()
    assert ex.categories[:, :2].max() > 0
    # az's value of each position for the seat to play, on the outcome's
    # scale. Without a network az values every leaf 0 but the game's end,
    # which the searches near it reach.
    assert ex.search_value.shape == (n,) and ex.search_value.dtype == np.float32
    assert (np.abs(ex.search_value) <= 1).all()
    assert (ex.search_value == 0).any() and (ex.search_value != 0).any()
    x = ex.x()
    assert x.shape == (n, enc["board"] + enc["globals"])
    assert set(np.unique(x[:, :enc["board"]] * 8)) <= set(range(256))


def test_load_examples_takes_several_sources_with_offsets_shifted(selfplay_run):
    shards = selfplay_run / "examples"
    zero = carcassonne.load_examples(shards / "game-0000000.safetensors.gz")
    one = carcassonne.load_examples(shards / "game-0000001.safetensors.gz")
    both = carcassonne.load_examples(shards / "game-0000000.safetensors.gz",
                                     shards / "game-0000001.safetensors.gz")
    full = carcassonne.load_examples(selfplay_run)
    n, m = len(zero), len(zero.actions)
    assert len(both) == n + len(one) == len(full) and len(both.files) == 2
    assert (both.action_offset[n:] == one.action_offset + m).all()
    assert (both.actions[m:] == one.actions).all()
    assert (both.shard[n:] == 1).all()
    # The same shard twice (here: in its folder and by name) would count
    # its games twice: refused, as train-net refuses it.
    with pytest.raises(ValueError, match="given twice"):
        carcassonne.load_examples(selfplay_run, shards / "game-0000001.safetensors.gz")
    # The arrays are the file's, as numpy reads it alone.
    arrays, meta = read_safetensors(selfplay_run / "examples" / "game-0000001.safetensors.gz")
    assert meta["format"] == "carcassonne-examples"
    assert (arrays["board"] == one.board).all() and (arrays["visits"] == one.visits).all()
    assert (arrays["action_offset"] == one.action_offset).all()


def test_compressed_and_uncompressed_shards_load_bit_for_bit(selfplay_run, tmp_path):
    """Issue 47: shards are gzip-compressed safetensors; a shard written
    before (plain ``.safetensors``) still loads, to the same bits, and every
    array is the file's own, byte for byte."""
    gz = selfplay_run / "examples" / "game-0000001.safetensors.gz"
    raw = gzip.decompress(gz.read_bytes())
    assert len(gz.read_bytes()) * 8 < len(raw)
    old = tmp_path / "old" / "game-0000001.safetensors"
    old.parent.mkdir()
    old.write_bytes(raw)
    new, before = carcassonne.load_examples(gz), carcassonne.load_examples(old)
    arrays, _ = read_safetensors(gz)
    for name in ("board", "globals", "actions", "action_cell", "action_offset", "visits",
                 "outcome", "score", "categories", "search_value", "game", "turn", "players"):
        a, b = getattr(new, name), getattr(before, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), name
        # The loader's array holds the file's values (dtypes may widen:
        # action_offset is int64 in Python, u32 in the file; categories
        # is [N, 6, 5] in Python, [N, 30] in the file).
        assert (a == arrays[name].astype(a.dtype).reshape(a.shape)).all(), name


def test_load_examples_names_what_it_cannot_read(tmp_path):
    with pytest.raises(ValueError, match="no-such"):
        carcassonne.load_examples(tmp_path / "no-such")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no example shards"):
        carcassonne.load_examples(tmp_path / "empty")
    bad = tmp_path / "bad" / "game-0000000.safetensors"
    bad.parent.mkdir()
    bad.write_bytes(b"junk")
    with pytest.raises(ValueError, match="game-0000000"):
        carcassonne.load_examples(bad.parent)
    # A shard of another encoding version.
    write_safetensors(tmp_path / "old.safetensors", {"x": np.zeros(1)},
                      {"format": "carcassonne-examples", "encoding_version": "0"})
    with pytest.raises(ValueError, match="encoding version 0"):
        carcassonne.load_examples(tmp_path / "old.safetensors")


def test_view_encode_equals_what_selfplay_wrote(selfplay_run):
    ex = carcassonne.load_examples(selfplay_run)
    records = [json.loads(line) for line in open(selfplay_run / "records.jsonl")]
    checked = 0
    for i in range(len(ex)):
        record = dict(records[int(ex.game[i])])
        turn = int(ex.turn[i])
        nxt = record["turns"][turn]
        if "discarded" in nxt:
            continue
        record["turns"] = record["turns"][:turn]
        record.pop("final", None)
        game = carcassonne.Game.from_record(json.dumps(record))
        game.apply_chance(nxt["tile"])
        view = game.view(game.current_seat())
        enc = view.encode()
        assert enc["encoding_version"] == ex.encoding_version
        want = ex.position(i)
        assert (enc["board"] == want["board"]).all(), i
        assert (enc["globals"] == want["globals"]).all(), i
        # The search lists the actions in an order of its own: compare the
        # rows as sets.
        got = np.column_stack([enc["actions"], enc["action_cell"]])
        exp = np.column_stack([want["actions"], want["action_cell"]])
        assert got.shape == exp.shape, i
        assert (np.unique(got, axis=0) == np.unique(exp, axis=0)).all(), i
        checked += 1
    assert checked > 100


def test_view_encode_takes_given_actions_and_refuses_illegal_ones():
    game = midgame_view(4)
    seat = game.current_seat()
    view = game.view(seat)
    actions = view.legal_actions()
    full = view.encode()
    assert full["actions"].shape == (len(actions), carcassonne.ENCODING["actions"])
    picked = [actions[2], actions[0].id, str(actions[1])]
    part = view.encode(picked)
    assert (part["actions"] == full["actions"][[2, 0, 1]]).all()
    assert (part["action_cell"] == full["action_cell"][[2, 0, 1]]).all()
    assert (part["board"] == full["board"]).all()
    other = game.view(1 - seat)
    assert other.encode()["actions"].shape == (0, carcassonne.ENCODING["actions"])
    with pytest.raises(carcassonne.IllegalActionError):
        other.encode([actions[0]])
    illegal = next(i for i in range(carcassonne.ACTION_SPACE) if i not in {a.id for a in actions})
    with pytest.raises(carcassonne.IllegalActionError):
        view.encode([illegal])


def test_weights_built_in_numpy_round_trip_and_play(tmp_path):
    weights = numpy_weights(seed=2, scale=3.0, **TINY)
    path = tmp_path / "net.safetensors"
    carcassonne.save_network(path, weights, {"seed": 5, "data": ["numpy"], "note": "hand-made"})
    net = carcassonne.Network(path)
    assert net.config == TINY
    assert net.encoding_version == carcassonne.ENCODING_VERSION
    meta = net.metadata
    assert meta["format"] == "carcassonne-net" and meta["encoding_version"] == str(carcassonne.ENCODING_VERSION)
    assert net.board and meta["board"] == "true"
    assert meta["hidden"] == "16" and meta["note"] == "hand-made" and meta["seed"] == "5"
    back = net.tensors()
    assert set(back) == set(weights)
    for name, w in weights.items():
        assert back[name].dtype == np.float32
        assert (back[name].view(np.uint32) == w.view(np.uint32)).all(), name
    # Byte-deterministic, and numpy alone reads the same arrays.
    again = tmp_path / "again.safetensors"
    carcassonne.save_network(again, {k: weights[k] for k in sorted(weights, reverse=True)},
                             {"note": "hand-made", "data": ["numpy"], "seed": 5})
    assert path.read_bytes() == again.read_bytes()
    arrays, _ = read_safetensors(path)
    assert all((arrays[k] == weights[k]).all() for k in weights)

    # The Rust network's outputs are the numpy forward pass of the
    # documented layout.
    for seed, players, rules in ((4, 2, {}), (5, 3, {"gifts": True})):
        game = midgame_view(seed, players=players, **rules)
        seat = game.current_seat()
        view = game.view(seat)
        out = net.evaluate(view)
        ref = neural.forward(weights, view.encode())
        np.testing.assert_allclose(out["logits"], ref["logits"], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(out["priors"], ref["priors"], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(out["value"], ref["value"], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(out["lead"], ref["lead"], rtol=1e-4, atol=1e-5)
        assert out["logits"].std() > 0.01, "the logits should differ between actions"
        for k in range(players):
            assert out["values"][(seat + k) % players] == out["value"][k]

    # az:net= plays it, from Python, in a game and alone.
    record = carcassonne.play_game([f"az:net={path},iterations=8", "random"], seed=2)
    assert carcassonne.Game.from_record(record["record"]).is_over()
    game = midgame_view(6)
    action = carcassonne.agent(f"az:net={path},iterations=8", seed=1).select(game.view(game.current_seat()))
    assert action in game.legal_actions()


def test_a_network_without_the_board_round_trips_and_plays(tmp_path):
    weights = numpy_weights(seed=3, scale=3.0, board=False, **TINY)
    assert weights["trunk1.weight"].shape == (16, carcassonne.ENCODING["globals"])
    path = tmp_path / "globals-only.safetensors"
    carcassonne.save_network(path, weights)
    net = carcassonne.Network(path)
    assert not net.board and net.metadata["board"] == "false" and net.config == TINY
    for seed, players in ((7, 2), (8, 4)):
        game = midgame_view(seed, players=players)
        view = game.view(game.current_seat())
        encoded = view.encode()
        out = net.evaluate(view)
        ref = neural.forward(weights, encoded)
        np.testing.assert_allclose(out["logits"], ref["logits"], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(out["value"], ref["value"], rtol=1e-4, atol=1e-5)
        # The board is not read: blanked, the numpy pass gives the same.
        blank = dict(encoded, board=np.zeros_like(encoded["board"]))
        np.testing.assert_array_equal(neural.forward(weights, blank)["value"], ref["value"])
    record = carcassonne.play_game([f"az:net={path},iterations=8,expand=2", "random"], seed=3)
    assert carcassonne.Game.from_record(record["record"]).is_over()


def test_save_network_refuses_what_az_could_not_play(tmp_path):
    good = numpy_weights(**TINY)
    path = tmp_path / "net.safetensors"
    missing = {k: v for k, v in good.items() if k != "value.bias"}
    with pytest.raises(ValueError, match="value.bias"):
        carcassonne.save_network(path, missing)
    with pytest.raises(ValueError, match="unknown array `extra`"):
        carcassonne.save_network(path, {**good, "extra": np.zeros(1)})
    with pytest.raises(ValueError, match=r"policy1.weight.*\[16, 63\]"):
        carcassonne.save_network(path, {**good, "policy1.weight": np.zeros((16, 62))})
    with pytest.raises(ValueError, match="not finite"):
        carcassonne.save_network(path, {**good, "lead.bias": np.full(6, np.nan)})
    # Finite weights whose forward pass overflows f32 (agents::neural::check_network).
    with pytest.raises(ValueError, match="overflows in its forward pass"):
        carcassonne.save_network(path, {**good, "trunk1.weight": np.full_like(good["trunk1.weight"], 1e30)})
    with pytest.raises(ValueError, match=f"encoding version 1, this build encodes version {carcassonne.ENCODING_VERSION}"):
        carcassonne.save_network(path, good, {"encoding_version": 1})
    with pytest.raises(ValueError, match="metadata `board` is false, the arrays' shapes say true"):
        carcassonne.save_network(path, good, {"board": "false"})
    with pytest.raises(ValueError, match="hidden"):
        carcassonne.save_network(path, good, {"hidden": 32})
    assert not path.exists()
    with pytest.raises(OSError, match="no-such-folder"):
        carcassonne.save_network(tmp_path / "no-such-folder" / "net.safetensors", good)


def test_a_weights_file_of_another_encoding_version_is_refused(tmp_path):
    weights = numpy_weights(**TINY)
    meta = {"format": "carcassonne-net", "encoding_version": "0",
            **{k: str(v) for k, v in TINY.items()}}
    old = tmp_path / "old.safetensors"
    write_safetensors(old, weights, meta)
    for load in (carcassonne.Network, lambda p: carcassonne.agent(f"az:net={p}")):
        with pytest.raises(ValueError, match=f"encoding version 0, this build encodes version {carcassonne.ENCODING_VERSION}"):
            load(old)
    # The same file with this build's version plays: only the version differed.
    meta["encoding_version"] = str(carcassonne.ENCODING_VERSION)
    write_safetensors(tmp_path / "new.safetensors", weights, meta)
    carcassonne.agent(f"az:net={tmp_path / 'new.safetensors'}")
    with pytest.raises(OSError, match="no such file"):
        carcassonne.Network(tmp_path / "missing.safetensors")


def test_what_a_seat_cannot_see_does_not_change_its_encoding():
    # A position where another seat holds gift cards.
    for turns in range(10, 60):
        game = midgame_view(8, players=3, turns=turns, gifts=True)
        seat = game.current_seat()
        if any(n > 0 for s, n in enumerate(game.view(seat).gift_counts()) if s != seat):
            break
    want = game.view(seat).encode()
    differed = False
    for k in range(6):
        det = game.view(seat).determinize(100 + k)
        for other in range(3):
            if other != seat:
                differed |= det.view(other).own_gifts() != game.view(other).own_gifts()
        got = det.view(seat).encode()
        for key in ("board", "globals", "actions", "action_cell"):
            assert (got[key] == want[key]).all(), (k, key)
    assert differed, "the other seats' gift cards never differed"
