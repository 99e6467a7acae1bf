"""A bot that plays the first legal action, then misbehaves at its third
decision as MODE says (tests of forfeits and process clean-up). It starts
a grandchild (`sleep`) and logs both pids on stderr, so a test can check
that the whole process group is gone afterwards. MODE `spy` misbehaves
never, logs every line it receives, and asks for the history now and
then. MODEs `notation` and `ids` never misbehave either: they answer
with the first legal action in record notation, or the last one's id."""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
grandchild = subprocess.Popen(["sleep", "300"])
sys.stderr.write("pids %d %d\n" % (os.getpid(), grandchild.pid))
sys.stderr.flush()
decisions = 0


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    if mode == "spy":
        sys.stderr.write("got " + line)
        sys.stderr.flush()
    kind = msg["type"]
    if kind == "hello":
        protocol = "carcassonne-bot/0" if mode == "handshake" else msg["protocol"]
        send({"type": "hello", "protocol": protocol, "name": mode})
    elif kind == "new_game":
        send({"type": "ready"})
    elif kind == "history":
        send({"type": "action", "index": 0})
    elif kind == "decide":
        decisions += 1
        if mode == "spy" and decisions % 7 == 5:
            send({"type": "history"})
            continue
        if mode == "slow":
            time.sleep(0.05)
        if mode == "notation":
            send({"type": "action", "action": msg["legal"][0]})
        elif mode == "ids":
            send({"type": "action", "id": msg["legal_ids"][-1]})
        elif decisions < 3 or mode in ("spy", "ignore_quit", "slow"):
            send({"type": "action", "index": 0, "seat": msg["seat"]})
        elif mode == "sleep":
            time.sleep(30)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "garbage":
            sys.stdout.write("bestmove e2e4\n")
            sys.stdout.flush()
        elif mode == "huge":
            sys.stdout.write("x" * (100 << 20) + "\n")
            sys.stdout.flush()
        elif mode == "illegal":
            # Well-formed notation, but no tile is to be kept now.
            send({"type": "action", "action": "keep A"})
        elif mode == "seat":
            send({"type": "action", "index": 0, "seat": msg["seat"] + 1})
        elif mode == "flood":
            for _ in range(300):
                sys.stderr.write("y" * 10000 + "\n")
            sys.stderr.flush()
            send({"type": "action", "index": 0})
    elif kind == "quit":
        if mode == "ignore_quit":
            signal_free = time.time() + 30
            while time.time() < signal_free:
                time.sleep(0.05)
        break
