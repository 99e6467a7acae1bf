"""A client for carcassonne-bot/1, the toolkit's bot protocol
(docs/PROTOCOL.md), using only the Python standard library.

Subclass Bot, override decide(), and call run(MyBot()). decide() gets the
`decide` message as a dict and returns an index into msg["legal"] (an int,
or any integer such as numpy's) or one of its entries (a string in record notation, e.g. "U (1, 0) r1 N").
"""

import json
import operator
import sys

PROTOCOL = "carcassonne-bot/1"


class Bot:
    """A bot: override decide(); the other hooks are optional."""

    name = "python bot"
    author = ""
    options = {}

    def new_game(self, game):
        """A game begins: game["seat"], game["players"], game["rules"],
        game["seed"] (seed your randomness with it to be reproducible)."""

    def decide(self, msg):
        """Return an index into msg["legal"] (any integer, numpy's too), or
        one of its strings.

        The first decide of a game may carry the set-up: msg.get("start")
        (start_in_bag: the start tile drawn, at (0, 0) in rotation 0) and
        msg.get("deal") (hands of tiles); game_over carries them if no
        decide did."""
        raise NotImplementedError

    def game_over(self, msg):
        """The game ended: msg["scores"], msg["forfeit"]."""


def send(out, message):
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def answer(msg, reply):
    """`reply` echoing the question's `request` number, if it has one
    (docs/PROTOCOL.md: an answer naming another request is stale)."""
    if "request" in msg:
        reply["request"] = msg["request"]
    return reply


def run(bot, inp=None, out=None):
    """Answer the toolkit's messages until `quit` or the end of input."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    for line in inp:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send(out, {"type": "hello", "protocol": PROTOCOL, "name": bot.name,
                       "author": bot.author, "options": bot.options})
        elif kind == "new_game":
            bot.new_game(msg)
            send(out, answer(msg, {"type": "ready"}))
        elif kind == "decide":
            choice = bot.decide(msg)
            if isinstance(choice, str):
                send(out, answer(msg, {"type": "action", "action": choice}))
            else:
                try:
                    index = operator.index(choice)  # int, numpy.int64, ...
                except TypeError:
                    raise TypeError(f"decide() returned {choice!r}: an index into "
                                    "msg['legal'] or one of its strings") from None
                send(out, answer(msg, {"type": "action", "index": index}))
        elif kind == "game_over":
            bot.game_over(msg)
        elif kind == "quit":
            break
