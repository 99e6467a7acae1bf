"""A bot that plays the first legal action, then misbehaves at its third
decision as MODE says (tests of forfeits and process clean-up). It starts
two grandchildren (`sleep`; the second in a session of its own, out of
the bot's process group) and logs the three pids on stderr, so a test can
check that every process of the bot is gone afterwards. MODE `spy` misbehaves
never, logs every line it receives, and asks for the history now and
then. MODEs `notation` and `ids` never misbehave either: they answer
with the first legal action in record notation, or the last one's id.
MODE `twice` answers every decision twice (the second line stale and
illegal), `stale` echoes `request` and sends a stale answer naming the
previous request first; neither should ever forfeit."""

import json
import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
grandchild = subprocess.Popen(["sleep", "300"])
escaped = subprocess.Popen(["sleep", "300"], start_new_session=True)
sys.stderr.write("pids %d %d %d\n" % (os.getpid(), grandchild.pid, escaped.pid))
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
        if mode == "stale":
            send({"type": "ready", "request": msg["request"]})
        else:
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
        if mode == "twice":
            # One write: the stale line is there before the next question.
            sys.stdout.write(json.dumps({"type": "action", "index": 0}) + "\n"
                             + json.dumps({"type": "action", "index": 10**6}) + "\n")
            sys.stdout.flush()
        elif mode == "stale":
            request = msg["request"]
            send({"type": "action", "index": 10**6, "request": request - 1})
            time.sleep(0.01)
            send({"type": "action", "index": 0, "request": request})
        elif mode == "notation":
            send({"type": "action", "action": msg["legal"][0]})
        elif mode == "ids":
            send({"type": "action", "id": msg["legal_ids"][-1]})
        elif decisions < 3 or mode in ("spy", "ignore_quit", "slow"):
            send({"type": "action", "index": 0, "seat": msg["seat"]})
        elif mode == "sleep":
            time.sleep(30)
        elif mode == "deaf":
            # Stop reading stdin and ignore SIGTERM; keep answering.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                send({"type": "action", "index": 0})
                time.sleep(0.002)
        elif mode == "latin1":
            sys.stdout.buffer.write(b'{"type":"action","index":0,"note":"caf\xe9"}\n')
            sys.stdout.flush()
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
