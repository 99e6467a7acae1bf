"""A bot that tries, when it starts, each thing a sandboxed bot must not
be able to do, logs `probe NAME open` or `probe NAME blocked` on stderr
for each, then plays the first legal action of every decision (tests of
`sandbox=true`, docs/PROTOCOL.md).

Arguments, KEY=VALUE (not paths, so that the sandbox does not bind them):
results=DIR (the results folder), other=FILE (another bot's file),
canary=TEXT (a value in the toolkit's environment), port=N (a TCP port
listening on 127.0.0.1 outside), mem=MIB (an allocation over the memory
limit), procs=N (more processes than the process limit)."""

import json
import mmap
import os
import resource
import socket
import sys

args = dict(a.split("=", 1) for a in sys.argv[1:])


def probe(name, attempt):
    try:
        reached = attempt()
    except Exception:  # any failure is the sandbox holding
        reached = False
    sys.stderr.write("probe %s %s\n" % (name, "open" if reached else "blocked"))
    sys.stderr.flush()


def processes():
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            yield pid


def read_proc(pid, name):
    try:
        with open("/proc/%s/%s" % (pid, name), "rb") as f:
            return f.read()
    except OSError:
        return b""


def results():
    return len(os.listdir(args["results"])) > 0


def other_bot():
    with open(args["other"]) as f:
        return len(f.read()) > 0


def toolkit_command_line():
    return any(b"--agents" in read_proc(p, "cmdline") for p in processes())


def toolkit_environment():
    canary = args["canary"]
    if any(canary in v for v in os.environ.values()):
        return True
    return any(canary.encode() in read_proc(p, "environ") for p in processes())


def network():
    with socket.create_connection(("127.0.0.1", int(args["port"])), timeout=2):
        return True


def memory():
    # Address space, not memory: the pages are never touched.
    block = mmap.mmap(-1, int(args["mem"]) << 20)
    block.close()
    return True


def cpu_unlimited():
    soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
    return soft == resource.RLIM_INFINITY


def root():
    return os.getuid() == 0 or os.geteuid() == 0


def capabilities():
    with open("/proc/self/status") as f:
        line = next(l for l in f if l.startswith("CapEff:"))
    return int(line.split()[1], 16) != 0


def proc_sys():
    # Opening for writing is the escape (core_pattern runs a program as
    # root outside); nothing is written.
    with open("/proc/sys/kernel/core_pattern", "r+"):
        return True


def processes_unlimited():
    # Children that wait on a pipe: all exit when it closes.
    r, w = os.pipe()
    children = []
    try:
        for _ in range(int(args["procs"])):
            pid = os.fork()
            if pid == 0:
                os.close(w)
                os.read(r, 1)
                os._exit(0)
            children.append(pid)
        return True
    finally:
        os.close(w)
        os.close(r)
        for pid in children:
            os.waitpid(pid, 0)


probe("results", results)
probe("root", root)
probe("capabilities", capabilities)
probe("proc_sys", proc_sys)
probe("processes", processes_unlimited)
probe("other_bot", other_bot)
probe("command_line", toolkit_command_line)
probe("environment", toolkit_environment)
probe("network", network)
probe("memory", memory)
probe("cpu", cpu_unlimited)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "hello", "protocol": msg["protocol"], "name": "escape"})
    elif kind == "new_game":
        send({"type": "ready"})
    elif kind == "decide":
        send({"type": "action", "index": 0})
    elif kind == "quit":
        break
