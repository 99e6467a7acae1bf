#!/usr/bin/env python3
"""The web app in a real browser: headless Chromium, driven through the
DevTools protocol, plays complete games against `random` by clicking —
the base game, The Gifts, and a hand of tiles — and checks that each saved
record replays (`carcassonne replay`) to the scores the page shows, and
that the pages logged no console error. At the end of each game it clicks
what is left (nothing may be offered or throw), and checks the whole page
of the web app and of `carcassonne view` at 600, 1000, 1280 and 1920 px:
no sideways scroll, every column of the score tables in the window. It
steps through the analysis panel of the base and the Gifts game
(`analyze-game`, then `view --analysis`: candidate moves and chart marks
clicked). In the base game (`--hints`) it presses the Hint button on three
turns (three moves must be listed and drawn on the board), checks the
record counts them, and waits for the analysis of its moves after the game.

    python scripts/web_browser_test.py target/debug/carcassonne [--screenshot docs/web.png] [--shots docs/screenshots] [--hint-shot docs/screenshots/web-hint.png]

Needs Debian's `chromium` (or CHROMIUM=/path) and the `websocket-client`
package; a missing browser is an error, never a skip. Exit status 0 when
every game passed.
"""

import argparse
import base64
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
    "--remote-debugging-port=0",
]

# The base game offers hints (`--hints`): the test presses the Hint button
# on a few turns and reads the analysis of its moves after the game.
HINTS = ["--hints", "mcts:iterations=300"]
HINT_PRESSES = 3

GAMES = [
    ("base game", HINTS),
    ("The Gifts", ["--gifts", "--agents", "mcts:iterations=2,c=0.7"]),
    ("a hand of two tiles", ["--rules", "hand=2"]),
]


def fail(message):
    print(f"web_browser_test: {message}", file=sys.stderr)
    sys.exit(1)


class Page:
    """One page target over the DevTools protocol."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=60)
        self.next_id = 0
        self.errors = []

    def call(self, method, **params):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.event(message)

    def event(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            self.errors.append(params["exceptionDetails"].get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.errors.append(params["entry"].get("text", "log error"))

    def js(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click_at(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def click(self, selector, index=0):
        """Click the centre of the `index`-th element matching `selector`
        with a real mouse event; False if it is not there or covered."""
        where = self.js(
            f"""(() => {{
              const e = document.querySelectorAll({json.dumps(selector)})[{index}];
              if (!e) return null;
              const r = e.getBoundingClientRect();
              const x = r.left + r.width / 2, y = r.top + r.height / 2;
              const top = document.elementFromPoint(x, y);
              return (top === e || e.contains(top)) ? [x, y] : null;
            }})()"""
        )
        if where is None:
            return False
        self.click_at(*where)
        return True

    def count(self, selector):
        return self.js(f"document.querySelectorAll({json.dumps(selector)}).length")

    def phase(self):
        return self.js("(document.body && document.body.dataset.phase) || ''")


def start_server(binary, out, extra):
    server = subprocess.Popen(
        [binary, "web", "--port", "0", "--seed", "7", "--out", out, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = server.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not match:
        server.kill()
        fail(f"the server did not print its address: {line!r}")
    return server, match.group(1)


def start_browser(chromium, profile):
    browser = subprocess.Popen(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        line = browser.stderr.readline()
        match = re.search(r"DevTools listening on ws://([^/]+)/", line)
        if match:
            return browser, match.group(1)
        if not line and browser.poll() is not None:
            break
    browser.kill()
    fail("chromium did not start its DevTools server")


def page_target(host):
    deadline = time.time() + 30
    while time.time() < deadline:
        with urllib.request.urlopen(f"http://{host}/json/list") as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        time.sleep(0.2)
    fail("chromium has no page")


def wait_for(page, predicate, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    fail(f"timed out waiting for {what}")


def press_hint(page, name, hint_shot):
    """Press Hint: three moves listed and three placements drawn."""
    if not page.click("#hint"):
        fail(f"{name}: the Hint button cannot be clicked")
    wait_for(page, lambda: page.count("#hint-moves li[data-action]") > 0 or page.js("document.getElementById('error').textContent"), "the hint")
    error = page.js("document.getElementById('error').textContent")
    if error:
        fail(f"{name}: the hint failed: {error}")
    listed, drawn = page.count("#hint-moves li[data-action]"), page.count("#overlay g.hint-move")
    if (listed, drawn) != (3, 3):
        fail(f"{name}: the hint lists {listed} moves and draws {drawn} (3 and 3 wanted)")
    if page.count("#hint-moves li.expected") != 1:
        fail(f"{name}: the hint shows no expected scores")
    if page.js("document.getElementById('hint').disabled") is not True:
        fail(f"{name}: the Hint button stays enabled with its hint shown")
    if hint_shot:
        data = page.call("Page.captureScreenshot", format="png")["data"]
        with open(hint_shot, "wb") as f:
            f.write(base64.b64decode(data))


def play(page, url, name, binary, rng, screenshot, hints=False, hint_shot=None):
    page.call("Page.navigate", url=url + "?speed=0")
    wait_for(page, lambda: page.phase() in ("place", "wait", "choose", "over"), "the first view")
    clicks = opened = 0
    presses = turns = 0
    shot_taken = screenshot is None
    if not hints and page.js("!document.getElementById('hint-box').hidden"):
        fail(f"{name}: a Hint button without --hints")
    while True:
        phase = page.phase()
        if phase == "over":
            break
        if phase == "wait":
            time.sleep(0.02)
            continue
        if phase == "choose":
            before = page.js("document.getElementById('info').textContent + document.getElementById('log').children.length")
            if not page.click("#keep-tiles button", rng.randrange(page.count("#keep-tiles button"))):
                fail(f"{name}: cannot click Take 2's tiles")
            clicks += 1
            wait_for(page, lambda: page.phase() != "choose", "Take 2's choice to be taken")
            continue
        # Placing: perhaps open a gift first (one game in three turns).
        log_length = page.count("#log li")
        if page.count("#gift-buttons button") and rng.random() < 0.4:
            if page.click("#gift-buttons button", rng.randrange(page.count("#gift-buttons button"))):
                clicks += 1
                opened += 1
                wait_for(page, lambda: page.count("#log li") > log_length, "the gift to open")
                continue
        turns += 1
        if hints and presses < HINT_PRESSES and turns % 4 == 2:
            press_hint(page, name, hint_shot if presses == HINT_PRESSES - 1 else None)
            presses += 1
            clicks += 1
        if not shot_taken and page.count("#log li") >= 12:
            data = page.call("Page.captureScreenshot", format="png")["data"]
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(data))
            shot_taken = True
        # With a hand, sometimes choose the other tile.
        if page.count(".tile-choice") > 1 and rng.random() < 0.5:
            page.click(".tile-choice", 1)
        spots = page.count("rect.spot")
        if spots == 0:
            if page.count("rect.other") == 0:
                fail(f"{name}: no placement is highlighted")
            if not page.click("#rot-right"):
                fail(f"{name}: cannot click rotate")
            clicks += 1
            continue
        order = list(range(spots))
        rng.shuffle(order)
        if not any(page.click("rect.spot", i) for i in order):
            # Every highlight is under the zoom buttons: show the whole board.
            page.click("#zoom-fit")
            if not any(page.click("rect.spot", i) for i in order):
                fail(f"{name}: no highlighted cell can be clicked")
        clicks += 1
        wait_for(page, lambda: page.count("#no-meeple") > 0, "the meeple choice")
        meeples = page.count("circle.meeple-spot")
        placed = False
        if meeples and rng.random() < 0.5:
            placed = page.click("circle.meeple-spot", rng.randrange(meeples))
        if not placed and not page.click("#no-meeple"):
            fail(f"{name}: cannot click 'No meeple'")
        clicks += 1
        wait_for(page, lambda: page.count("#log li") > log_length, "the move to be played")
    errors = page.js("document.getElementById('error').textContent")
    if errors:
        fail(f"{name}: the page shows an error: {errors}")
    totals = page.js("Array.from(document.querySelectorAll('#seats td.total')).map(td => +td.dataset.total)")
    final = page.js("document.getElementById('final').textContent")
    match = re.search(r"saved as (\S+\.json)", final)
    if not match:
        fail(f"{name}: the page names no saved record: {final!r}")
    replay = subprocess.run([binary, "replay", match.group(1)], capture_output=True, text=True)
    if replay.returncode != 0:
        fail(f"{name}: the record does not replay: {replay.stderr.strip()}")
    scores = json.loads(replay.stdout.splitlines()[0])
    flat = [s["total"] for s in scores["scores"]]
    if not scores["finished"]:
        fail(f"{name}: the saved record is not a finished game")
    if flat != totals:
        fail(f"{name}: the page shows {totals}, the record replays to {flat} ({replay.stdout.strip()})")
    download = page.js("fetch(document.getElementById('download').href).then(r => r.status)")
    if download != 200:
        fail(f"{name}: the record's download answered {download}")
    if name == "The Gifts" and opened == 0:
        print(f"  note: no gift was opened in {name}")
    with open(match.group(1)) as f:
        counted = json.load(f).get("hints")
    if hints:
        if presses != HINT_PRESSES or counted != [presses, 0]:
            fail(f"{name}: {presses} hints pressed, the record counts {counted}")
        wait_for(page, lambda: page.count("#review-summary") or "could not" in page.js("document.getElementById('review').textContent"),
                 "the analysis of the person's moves", seconds=120)
        review = page.js("document.getElementById('review').textContent")
        if "Your moves analysed by mcts:iterations=300" not in review:
            fail(f"{name}: the analysis after the game says {review!r}")
        summary = page.js("document.getElementById('review-summary').textContent")
        print(f"  {presses} hints shown and counted in the record; after the game: {summary}")
    elif counted is not None:
        fail(f"{name}: the record counts hints without --hints: {counted}")
    print(f"{name}: {clicks} clicks, {opened} gifts opened, scores {totals} replayed from {match.group(1)}")
    return match.group(1)


# Whole-page layout: no sideways scroll of the document, and every column of
# each score table inside the window and inside whatever box clips it.
LAYOUT_JS = """(tables => {
  const doc = document.documentElement;
  const out = {scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, tables: []};
  for (const selector of tables) {
    const table = document.querySelector(selector);
    if (!table || table.getClientRects().length === 0) { out.tables.push([selector, 'missing']); continue; }
    // The horizontal window the table is seen through: the viewport cut by
    // every ancestor that clips its overflow.
    let left = 0, right = window.innerWidth;
    for (let e = table.parentElement; e && e !== doc; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== 'visible') {
        const r = e.getBoundingClientRect();
        left = Math.max(left, r.left);
        right = Math.min(right, r.right);
      }
    }
    const cut = [];
    for (const row of table.rows) {
      for (const c of row.cells) {
        const r = c.getBoundingClientRect();
        if (r.width < 1 || r.left < left - 0.5 || r.right > right + 0.5) {
          cut.push((c.textContent || '(empty)').trim().slice(0, 20) + ' at ' + Math.round(r.left) + '..' + Math.round(r.right));
        }
      }
    }
    out.tables.push([selector, cut.length ? 'cut: ' + cut.slice(0, 4).join(', ') + ' (visible ' + Math.round(left) + '..' + Math.round(right) + ')' : 'ok']);
  }
  return out;
})"""

LAYOUT_WIDTHS = (600, 1000, 1280, 1920)
SHOT_WIDTHS = (600, 1280, 1920)


def check_layout(page, what, tables, shots=None, prefix=None):
    """The whole page at each of LAYOUT_WIDTHS: the document no wider than
    the window, every column of `tables` visible; screenshots of the whole
    page at SHOT_WIDTHS into the folder `shots` (PREFIX-WIDTH.png)."""
    for width in LAYOUT_WIDTHS:
        page.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1, mobile=False)
        page.js("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        found = page.js(f"{LAYOUT_JS}({json.dumps(tables)})")
        if found["scrollWidth"] > found["clientWidth"]:
            fail(f"{what}: at {width} px the page scrolls sideways ({found['scrollWidth']} px wide in {found['clientWidth']})")
        for selector, verdict in found["tables"]:
            if verdict != "ok":
                fail(f"{what}: at {width} px the table {selector} is {verdict}")
        if shots and width in SHOT_WIDTHS:
            height = page.js("document.documentElement.scrollHeight")
            data = page.call(
                "Page.captureScreenshot",
                format="png",
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
            )["data"]
            with open(os.path.join(shots, f"{prefix}-{width}.png"), "wb") as f:
                f.write(base64.b64decode(data))
    page.call("Emulation.clearDeviceMetricsOverride")
    print(f"{what}: no sideways scroll, every column of {', '.join(tables)} shows at {', '.join(map(str, LAYOUT_WIDTHS))} px")


def check_game_over(page, name):
    """After the last move: no panel to place a tile or a meeple is left,
    and clicking what the page still shows changes nothing and raises no
    error (the stale "No meeple" button of issue 47 threw one)."""
    left = page.js(
        """['#place', '#meeple', '#keep'].filter(s => !document.querySelector(s).hidden)
             .concat(Array.from(document.querySelectorAll('#no-meeple, circle.meeple-spot, rect.spot, rect.other, #gift-buttons button'), e => e.id || e.tagName))"""
    )
    if left:
        fail(f"{name}: after the game the page still offers {left}")
    errors = len(page.errors)
    for i in range(page.count("#side button")):
        page.click("#side button", i)
    box = page.js("(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    page.click_at(*box)
    for key in ("Escape", "r", "q"):
        page.call("Input.dispatchKeyEvent", type="keyDown", key=key)
        page.call("Input.dispatchKeyEvent", type="keyUp", key=key)
    page.js("new Promise(r => setTimeout(r, 200))")
    if page.phase() != "over":
        fail(f"{name}: clicking the finished game changed it to {page.phase()!r}")
    shown = page.js("document.getElementById('error').textContent")
    if shown or len(page.errors) > errors:
        fail(f"{name}: clicking the finished game raised {shown or page.errors[errors:]}")


def board_visible(page, width):
    """The board's share of the window's width at `width` px (0 if cut off)."""
    page.call("Emulation.setDeviceMetricsOverride", width=width, height=800, deviceScaleFactor=1, mobile=False)
    shown = page.js(
        """(() => {
          // The board whole in the window (not cut by it or its box),
          // as a share of the window's width.
          const r = document.getElementById('board').getBoundingClientRect();
          const box = document.getElementById('board-box').getBoundingClientRect();
          const right = Math.min(r.right, box.right, window.innerWidth);
          const left = Math.max(r.left, box.left, 0);
          return (right - left) < r.width - 1 ? 0 : r.width / window.innerWidth;
        })()"""
    )
    page.call("Emulation.clearDeviceMetricsOverride")
    return shown


def check_widths(page, what, url):
    """The whole board shows, at least half the window wide, in narrow windows."""
    page.call("Page.navigate", url=url)
    wait_for(page, lambda: page.js("!!document.getElementById('board') && document.readyState === 'complete'"), what)
    for width in (600, 800, 1000):
        shown = board_visible(page, width)
        if shown < 0.5:
            fail(f"{what}: at {width} px the board is cut off or narrow ({100 * shown:.0f}% of the width)")
    print(f"{what}: the whole board shows at 600, 800 and 1000 px")


def check_analysis_panel(page, binary, record, tmp, what):
    """`view --analysis`: step through the turns, click candidate moves and
    a chart mark; each click must show what it names (console errors are
    collected with the rest)."""
    analysis = os.path.join(tmp, f"analysis-{what}.json")
    viewer = os.path.join(tmp, f"analysis-{what}.html")
    subprocess.run([binary, "analyze-game", record, "--agent", "mcts:iterations=100", "--out", analysis],
                   check=True, capture_output=True)
    subprocess.run([binary, "view", record, "--analysis", analysis, "--out", viewer],
                   check=True, capture_output=True)
    page.call("Page.navigate", url="file://" + viewer)
    wait_for(page, lambda: page.js("!!document.getElementById('analysis-body') && document.readyState === 'complete'"),
             f"the analysis panel ({what})")
    last = page.js("GAME.frames.length - 1")
    picked = 0
    for n in range(0, last, 7):
        page.js(f"window.viewerShow({n})")
        rows = page.count("#analysis tr[data-i]")
        if rows == 0:
            continue
        shown = page.js("Array.from(document.querySelectorAll('#board g.cand')).filter(g => g.style.display !== 'none').length")
        page.js(f"document.querySelectorAll('#analysis tr[data-i]')[{rows - 1}].scrollIntoView({{block: 'center'}})")
        if not page.click("#analysis tr[data-i]", rows - 1):
            fail(f"{what}: turn {n}: the last top move cannot be clicked")
        row_picked = page.js("document.querySelectorAll('#analysis tr.picked').length")
        if row_picked != 1:
            fail(f"{what}: turn {n}: clicking a top move picked {row_picked} rows")
        if shown and page.count("#board g.cand.picked") > 1:
            fail(f"{what}: turn {n}: more than one candidate highlighted")
        picked += page.count("#board g.cand.picked")
    if picked == 0:
        fail(f"{what}: no candidate placement was highlighted on the board")
    marks = page.count("#evalchart circle.mark")
    if marks:
        page.js("document.querySelector('#evalchart circle.mark').dispatchEvent(new MouseEvent('click'))")
        turn = page.js("window.viewerCurrent()")
        body = page.js("document.getElementById('analysis-body').textContent")
        if "Played" not in body:
            fail(f"{what}: the chart's mark led to turn {turn} without an analysed decision")
    print(f"{what}: the analysis panel steps, highlights {picked} candidates, {marks} marks on its chart")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the carcassonne binary")
    parser.add_argument("--screenshot", help="save a picture of the page mid-game (PNG)")
    parser.add_argument(
        "--shots",
        help="a folder for whole-page screenshots of the end of the game with The Gifts (web-end-W.png) and its viewer (view-W.png) at 600, 1280 and 1920 px",
    )
    parser.add_argument("--hint-shot", help="save a picture of the page with the first hint shown (PNG)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        fail("chromium is not installed (apt-get install chromium): the browser test cannot run")
    binary = os.path.abspath(args.binary)
    rng = random.Random(args.seed)
    failed_errors = []
    with tempfile.TemporaryDirectory() as tmp:
        browser, host = start_browser(chromium, os.path.join(tmp, "profile"))
        try:
            page = Page(page_target(host))
            page.call("Runtime.enable")
            page.call("Log.enable")
            page.call("Page.enable")
            for n, (name, extra) in enumerate(GAMES):
                server, url = start_server(binary, os.path.join(tmp, f"out{n}"), extra)
                try:
                    record = play(page, url, name, binary, rng, args.screenshot if n == 1 else None,
                                  hints="--hints" in extra, hint_shot=args.hint_shot)
                    check_game_over(page, name)
                    check_layout(
                        page,
                        f"the web app at the end of {name}",
                        ["#seats", "#final table"],
                        args.shots if n == 1 else None,
                        "web-end",
                    )
                    viewer = os.path.join(tmp, f"view{n}.html")
                    subprocess.run([binary, "view", record, "--out", viewer], check=True, capture_output=True)
                    page.call("Page.navigate", url="file://" + viewer)
                    wait_for(page, lambda: page.js("document.readyState === 'complete' && !!document.querySelector('#seats tr')"), "the viewer")
                    check_layout(page, f"the replay viewer of {name}", ["#seats"], args.shots if n == 1 else None, "view")
                    if n < 2:
                        check_analysis_panel(page, binary, record, tmp, name)
                    if n == 0:
                        check_widths(page, "the web app", url + "?speed=0")
                        check_widths(page, "the replay viewer", "file://" + viewer)
                finally:
                    page.call("Page.navigate", url="about:blank")
                    server.terminate()
                    server.wait(timeout=10)
            # Pump the last events, then look at every console error.
            page.js("1")
            failed_errors = page.errors
        finally:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
    if failed_errors:
        fail("console errors: " + "; ".join(failed_errors))
    print("web_browser_test: every game passed, no console errors")


if __name__ == "__main__":
    main()
