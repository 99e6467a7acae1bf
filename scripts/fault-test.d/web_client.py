#!/usr/bin/env python3
"""A hostile local client of `carcassonne web` for scripts/fault-test.d/web.sh
(issue 41). Talks only to 127.0.0.1 / [::1]. Each command prints one line of
key=value pairs; `rss_mb`/`peak_mb` are the server's VmRSS/VmHWM when --pid
is given.

  web_client.py PORT get [--host H] [--origin O] [--token T|--page-token] [--method M] [--path P] [--body B]
  web_client.py PORT raw TEXT            (\\r\\n written as \\r\\n)
  web_client.py PORT bighead MB
  web_client.py PORT idle N [--hold S]   (N idle connections, then a GET /)
  web_client.py PORT polls N PATH        (N GETs of PATH with the page's token)
"""
import argparse
import re
import resource
import socket
import sys
import time

ADDR = "127.0.0.1"


def memory(pid):
    if not pid:
        return ""
    try:
        with open(f"/proc/{pid}/status") as f:
            text = f.read()
    except OSError:
        return " rss_mb=dead peak_mb=dead"
    rss = int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) // 1024
    peak = int(re.search(r"VmHWM:\s+(\d+)", text).group(1)) // 1024
    return f" rss_mb={rss} peak_mb={peak}"


def connect(port, timeout=10.0):
    family = socket.AF_INET6 if ":" in ADDR else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect((ADDR, port))
    return s


def read_all(s):
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout, OSError):
        pass
    return data


def status_of(data):
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    return m.group(1).decode() if m else ("closed" if not data else "garbage")


def exchange(port, raw, timeout=10.0):
    start = time.monotonic()
    try:
        s = connect(port, timeout)
    except OSError as e:
        return "refused:" + type(e).__name__, b"", time.monotonic() - start
    try:
        s.sendall(raw)
    except OSError:
        pass
    data = read_all(s)
    s.close()
    return status_of(data), data, time.monotonic() - start


def request(port, method="GET", path="/", host=None, origin=None, token=None, body=""):
    host = host if host is not None else f"{ADDR if ':' not in ADDR else '[' + ADDR + ']'}:{port}"
    lines = [f"{method} {path} HTTP/1.1"]
    if host:
        lines.append(f"Host: {host}")
    if origin:
        lines.append(f"Origin: {origin}")
    if token:
        lines.append(f"X-Carcassonne-Token: {token}")
    lines += ["Connection: close", "Content-Type: text/plain", f"Content-Length: {len(body)}", "", body]
    return exchange(port, "\r\n".join(lines).encode())


def page_token(port):
    _, data, _ = request(port)
    m = re.search(rb'name="carcassonne-token" content="([0-9a-f]+)"', data)
    return m.group(1).decode() if m else ""


def main():
    global ADDR
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("command")
    p.add_argument("args", nargs="*")
    p.add_argument("--pid", type=int, default=0)
    p.add_argument("--addr", default="127.0.0.1")
    p.add_argument("--host")
    p.add_argument("--origin")
    p.add_argument("--token")
    p.add_argument("--page-token", action="store_true")
    p.add_argument("--method", default="GET")
    p.add_argument("--path", default="/")
    p.add_argument("--body", default="")
    p.add_argument("--hold", type=float, default=0.0)
    a = p.parse_args()
    ADDR = a.addr
    if ADDR not in ("127.0.0.1", "::1"):
        sys.exit("web_client.py: loopback addresses only")
    port = a.port
    if a.command == "get":
        token = page_token(port) if a.page_token else a.token
        code, data, took = request(port, a.method, a.path, a.host, a.origin, token, a.body)
        body = data.split(b"\r\n\r\n", 1)[-1][:200].decode("utf-8", "replace").replace("\n", " ")
        print(f"code={code} ms={int(took * 1000)}{memory(a.pid)} body={body}")
    elif a.command == "raw":
        raw = a.args[0].replace("\\r\\n", "\r\n").encode()
        code, _, took = exchange(port, raw)
        print(f"code={code} ms={int(took * 1000)}{memory(a.pid)}")
    elif a.command == "bighead":
        megabytes = int(a.args[0])
        s = connect(port)
        sent = 0
        line = b"a" * 65536
        try:
            s.sendall(f"GET / HTTP/1.1\r\nHost: {ADDR}:{port}\r\nX-Big: ".encode())
            while sent < megabytes << 20:
                s.sendall(line)
                sent += len(line)
            s.sendall(b"\r\n\r\n")
        except OSError:
            pass
        code = status_of(read_all(s))
        s.close()
        print(f"code={code} sent_mb={sent >> 20}{memory(a.pid)}")
    elif a.command == "idle":
        n = int(a.args[0])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, n + 100)), hard))
        held = []
        for i in range(n):
            try:
                s = connect(port, 5)
                if i % 2 == 0:
                    s.sendall(b"GET / HTTP/1.1\r\nHo")
                held.append(s)
            except OSError:
                break
        time.sleep(0.5)
        code, _, took = request(port)
        print(f"opened={len(held)} code={code} ms={int(took * 1000)}{memory(a.pid)}")
        time.sleep(a.hold)
        for s in held:
            s.close()
    elif a.command == "polls":
        n, path = int(a.args[0]), a.args[1]
        token = page_token(port)
        last = ""
        worst = 0.0
        for _ in range(n):
            code, data, took = request(port, "GET", path, token=token)
            worst = max(worst, took)
            last = data.split(b"\r\n\r\n", 1)[-1]
            if code != "200":
                print(f"code={code} body={last[:200]!r}")
                return
        m = re.search(rb'"records":(\d+)', last)
        records = m.group(1).decode() if m else "?"
        print(f"code=200 records={records} worst_ms={int(worst * 1000)}{memory(a.pid)}")
    else:
        sys.exit(f"web_client.py: no command {a.command}")


if __name__ == "__main__":
    main()
