// The web app: one game against the agents, drawn from the seat view the
// server sends (never the whole state).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const params = new URLSearchParams(window.location.search);
  // The server's secret: every request carries it (a link, in its query).
  const TOKEN = document.querySelector('meta[name="carcassonne-token"]').content;
  if (params.has("speed")) $("speed").value = params.get("speed");
  let game = null; // the last seat view
  let slot = 0; // the hand slot of the tile being placed
  let rot = 0; // its rotation
  let pending = null; // a placement chosen, waiting for its meeple
  let pumping = false;
  let generation = 0; // bumps on every new game: stale loops stop
  // The view box of the board: centre and units per pixel.
  let view = null;
  let fitted = true;
  let hinting = false; // a hint is being computed
  let review = null; // the person's moves analysed after the game (with --hints)

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, text, parent, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }
  function seatName(s) {
    return "seat " + s + (s === game.seat ? " (you)" : " (" + game.seats[s].name + ")");
  }

  async function call(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: body
        ? { "Content-Type": "application/json", "X-Carcassonne-Token": TOKEN }
        : { "X-Carcassonne-Token": TOKEN },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }

  function showError(e) {
    $("error").textContent = e ? String(e.message || e) : "";
  }

  async function newGame(mode) {
    generation++;
    const after = game ? game.id : undefined;
    try {
      const g = await call("POST", "/api/new", { mode, after });
      game = null;
      fitted = true;
      review = null;
      accept(g);
    } catch (e) {
      showError(e);
    }
  }

  function accept(g) {
    const fresh = !game || game.id !== g.id;
    game = g;
    pending = null;
    if (fresh || !game.choices || !game.choices.tiles.some((t) => t.slot === slot)) {
      slot = game.choices && game.choices.tiles.length ? game.choices.tiles[0].slot : 0;
      rot = firstRotation();
    }
    draw();
    pump();
  }

  // A rotation in which the tile fits somewhere (keeps the current one if it does).
  function firstRotation() {
    if (!game || !game.choices) return rot;
    const ps = game.choices.placements.filter((p) => p.slot === slot);
    if (ps.some((p) => p.rot === rot)) return rot;
    return ps.length ? ps[0].rot : 0;
  }

  async function act(action) {
    showError(null);
    try {
      accept(await call("POST", "/api/game/" + game.id + "/move", { action }));
    } catch (e) {
      showError(e);
      draw();
    }
  }

  // Agents play one action per request, at the chosen speed.
  async function pump() {
    if (pumping) return;
    pumping = true;
    const mine = generation;
    try {
      while (game && game.phase === "wait" && mine === generation) {
        const delay = +$("speed").value;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        if (mine !== generation) break;
        const g = await call("POST", "/api/game/" + game.id + "/step");
        if (mine !== generation) break;
        game = g;
        draw();
      }
    } catch (e) {
      showError(e);
    } finally {
      pumping = false;
    }
    if (game && game.phase === "place" && mine === generation) {
      slot = game.choices.tiles.length ? game.choices.tiles[0].slot : 0;
      rot = firstRotation();
      draw();
    }
    if (game && game.phase === "over" && game.hints !== undefined && !review && mine === generation) {
      review = { status: "queued" };
      pollReview();
    }
  }

  // ---- the board: zoom and pan -------------------------------------------
  const board = $("board");
  function setViewBox() {
    const r = board.getBoundingClientRect();
    const w = r.width * view.k, h = r.height * view.k;
    board.setAttribute("viewBox", [view.cx - w / 2, view.cy - h / 2, w, h].join(" "));
  }
  function fit() {
    const b = game.board;
    const r = board.getBoundingClientRect();
    const k = Math.max(b.width / Math.max(r.width, 1), b.height / Math.max(r.height, 1));
    view = { cx: b.width / 2, cy: b.height / 2, k: Math.max(k, 0.25) };
    fitted = true;
    setViewBox();
  }
  function zoom(f, px, py) {
    const r = board.getBoundingClientRect();
    if (px === undefined) { px = r.width / 2; py = r.height / 2; }
    const ux = view.cx + (px - r.width / 2) * view.k, uy = view.cy + (py - r.height / 2) * view.k;
    view.k = Math.min(8, Math.max(0.1, view.k * f));
    view.cx = ux - (px - r.width / 2) * view.k;
    view.cy = uy - (py - r.height / 2) * view.k;
    fitted = false;
    setViewBox();
  }
  $("zoom-in").addEventListener("click", () => zoom(1 / 1.25));
  $("zoom-out").addEventListener("click", () => zoom(1.25));
  $("zoom-fit").addEventListener("click", fit);
  board.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = board.getBoundingClientRect();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  let drag = null;
  board.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, cx: view ? view.cx : 0, cy: view ? view.cy : 0, moved: false };
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag || !view) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 5) return;
    drag.moved = true;
    view.cx = drag.cx - dx * view.k;
    view.cy = drag.cy - dy * view.k;
    fitted = false;
    setViewBox();
  });
  window.addEventListener("pointerup", () => {
    if (drag && drag.moved) {
      // The click that ends a drag is not a choice.
      const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
      window.addEventListener("click", stop, { capture: true, once: true });
      setTimeout(() => window.removeEventListener("click", stop, { capture: true }), 0);
    }
    drag = null;
  });
  window.addEventListener("resize", () => { if (game) (fitted ? fit() : setViewBox()); });

  // ---- drawing -------------------------------------------------------------
  function cell(x, y) {
    const b = game.board;
    return [b.x0 + x * b.size, b.y0 - y * b.size];
  }

  function drawBoard() {
    $("layer").innerHTML = game.board.svg;
    const overlay = $("overlay");
    overlay.innerHTML = "";
    if (!view || fitted) fit(); else setViewBox();
    if (game.phase !== "place") return;
    const size = game.board.size;
    if (pending) {
      const [x, y] = cell(pending.x, pending.y);
      const tile = game.choices.tiles.find((t) => t.slot === pending.slot);
      const g = el("g", { transform: "translate(" + x + "," + y + ")", class: "ghost" }, overlay);
      g.innerHTML = tile.svgs[pending.rot];
      el("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: "none", stroke: "#ff00cc", "stroke-width": 4 }, overlay);
      for (const m of pending.meeples) {
        const c = el("circle", { cx: x + m.px, cy: y + m.py, r: 9, class: "meeple-spot", "data-action": m.action }, overlay);
        const t = el("title", {}, c);
        t.textContent = "meeple on " + m.loc;
        c.addEventListener("click", () => act(m.action));
      }
      return;
    }
    const here = new Map();
    for (const p of game.choices.placements) {
      if (p.slot !== slot) continue;
      const key = p.x + "," + p.y;
      if (!here.has(key)) here.set(key, []);
      here.get(key).push(p);
    }
    for (const [, ps] of here) {
      const p = ps.find((q) => q.rot === rot);
      const [x, y] = cell(ps[0].x, ps[0].y);
      const r = el("rect", {
        x: x + 4, y: y + 4, width: size - 8, height: size - 8,
        class: p ? "spot" : "other", "data-x": ps[0].x, "data-y": ps[0].y,
      }, overlay);
      r.addEventListener("click", () => {
        if (!p) { rot = ps[0].rot; draw(); return; }
        choose(p);
      });
    }
    drawHintMoves(overlay);
  }

  // The hint's placements on the board: the tile as it would lie, the
  // meeple it puts, its rank and share of the search's visits (clicks go
  // through to the cells below).
  function drawHintMoves(overlay) {
    if (!game.hint) return;
    const size = game.board.size;
    for (const m of game.hint.moves) {
      if (!m.place) continue;
      const [x, y] = cell(m.place.x, m.place.y);
      const g = el("g", { class: "hint-move", "data-rank": m.rank, "data-action": m.action }, overlay);
      const t = el("g", { transform: "translate(" + x + "," + y + ")", class: "hint-tile" }, g);
      t.innerHTML = m.place.svg + (m.place.meeple ? m.place.meeple.svg : "");
      el("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, stroke: game.hint.colour }, g);
      const label = el("text", { x: x + 6, y: y + size - 8, fill: game.hint.colour }, g);
      label.textContent = m.rank + " · " + Math.round(100 * m.share) + "%";
    }
  }

  function number(v, digits, sign) {
    if (v === null || v === undefined) return "–";
    return (sign && v > 0 ? "+" : "") + v.toFixed(digits);
  }

  // What a move of a hint or an analysis says, in one line.
  function moveText(m) {
    const parts = [m.action];
    if (m.visits) parts.push(Math.round(100 * m.share) + "% of visits");
    if (m.lead !== null) parts.push("lead " + number(m.lead, 1, true));
    if (m.win !== null) parts.push("wins " + Math.round(100 * m.win) + "%");
    else if (m.value !== null) parts.push("value " + number(m.value, 2));
    return parts.join(" · ");
  }

  // The Hint button (with --hints): on the person's turn, before a
  // placement is chosen; the hint's moves listed below it.
  function drawHint() {
    const on = game.hints !== undefined;
    $("hint-box").hidden = !on;
    if (!on) return;
    const mine = game.phase === "place" || game.phase === "choose";
    const button = $("hint");
    button.hidden = !mine;
    button.disabled = hinting || !!game.hint;
    button.textContent = hinting ? "Thinking…" : "Hint";
    $("hint-count").textContent = "hints used: " + game.hints + " (saved in the record)";
    const list = $("hint-moves");
    list.innerHTML = "";
    if (!mine || !game.hint) return;
    for (const m of game.hint.moves) {
      const li = html("li", moveText(m), list);
      li.dataset.action = m.action;
    }
    const best = game.hint.moves[0];
    if (best && best.scores) {
      const p = html("li", "expected scores after 1: " +
        best.scores.map((v, s) => seatName(s) + " " + v.toFixed(1)).join(", "), list, "expected");
      p.style.listStyle = "none";
    }
  }

  async function askHint() {
    if (!game || hinting || game.hint || !(game.phase === "place" || game.phase === "choose")) return;
    const mine = generation;
    hinting = true;
    showError(null);
    drawHint();
    try {
      await call("POST", "/api/game/" + game.id + "/hint");
      const g = await call("GET", "/api/game/" + game.id);
      hinting = false;
      if (mine === generation) accept(g);
    } catch (e) {
      hinting = false;
      showError(e);
      draw();
    }
  }

  // After the game (with --hints): the person's moves analysed on the
  // server's analysis thread, polled until done.
  async function pollReview() {
    const mine = generation;
    while (game && game.phase === "over" && game.hints !== undefined && mine === generation) {
      try {
        const r = await call("GET", "/api/game/" + game.id + "/analysis");
        if (mine !== generation) return;
        review = r;
        drawReview();
        if (r.status === "done" || r.status === "failed") return;
      } catch (e) {
        showError(e);
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  function drawReview() {
    const box = $("review");
    box.hidden = !(game.phase === "over" && game.hints !== undefined);
    box.innerHTML = "";
    if (box.hidden) return;
    if (!review || review.status === "queued" || review.status === "running") {
      html("p", "Analysing your moves…", box).id = "review-wait";
      return;
    }
    if (review.status === "failed") {
      html("p", "Your moves could not be analysed: " + review.error, box);
      return;
    }
    const a = review.analysis;
    const summary = html("p", "Your moves analysed by " + a.agent + ": " + a.choices + " choices, " + a.best +
      " as the agent would play, " + a.mistakes + " mistakes, " + a.blunders + " blunders, " +
      number(a.points_lost, 1) + " points lost.", box);
    summary.id = "review-summary";
    if (a.costliest.length === 0) {
      html("p", "No move of yours cost points by its account.", box);
    } else {
      html("p", "The moves that cost most:", box);
      const wrap = html("div", undefined, box, "scroll");
      const t = html("table", undefined, wrap, "grid");
      t.id = "costliest";
      const head = t.insertRow();
      for (const c of ["turn", "you played", "better", "lost", "verdict"]) html("th", c, head);
      for (const c of a.costliest) {
        const row = t.insertRow();
        row.insertCell().textContent = c.turn;
        row.insertCell().textContent = c.played.action;
        row.insertCell().textContent = c.best.action;
        const lost = row.insertCell();
        lost.textContent = number(c.points_lost, 1);
        lost.className = "num";
        row.insertCell().textContent = c.verdict;
      }
    }
    if (a.file) {
      html("p", "Every decision: carcassonne view " + game.over.saved + " --analysis " + a.file, box);
    }
  }

  function choose(p) {
    pending = p;
    draw();
  }

  function drawPlace() {
    const panel = $("place");
    panel.hidden = game.phase !== "place" || !!pending;
    const tiles = $("tiles");
    tiles.innerHTML = "";
    drawMeeple();
    if (game.phase !== "place") return;
    for (const t of game.choices.tiles) {
      const b = html("button", undefined, tiles, "tile-choice" + (t.slot === slot ? " selected" : ""));
      b.title = "tile " + t.tile;
      b.dataset.tile = t.tile;
      b.innerHTML = '<svg viewBox="0 0 100 100">' + t.svgs[t.slot === slot ? rot : 0] + "</svg>";
      b.addEventListener("click", () => { slot = t.slot; rot = firstRotation(); draw(); });
    }
  }

  // The meeple choice: only while a placement of ours waits for it (never
  // after our move, an agent's turn or the end of the game), each button
  // holding its own action.
  function drawMeeple() {
    const mine = game.phase === "place" ? pending : null;
    $("meeple").hidden = !mine;
    const buttons = $("meeple-buttons");
    buttons.innerHTML = "";
    if (mine) {
      const none = html("button", "No meeple", buttons);
      none.id = "no-meeple";
      none.addEventListener("click", () => act(mine.none));
      for (const m of mine.meeples) {
        const b = html("button", "meeple " + m.loc, buttons);
        b.dataset.action = m.action;
        b.addEventListener("click", () => act(m.action));
      }
      const cancel = html("button", "Cancel", buttons);
      cancel.addEventListener("click", () => { pending = null; draw(); });
    }
  }

  function drawGifts() {
    const panel = $("gifts");
    panel.hidden = !game.rules.gifts;
    $("gift-cards").textContent = game.own_gifts.length
      ? game.own_gifts.map((g) => g.gift + (g.count > 1 ? " ×" + g.count : "")).join(", ")
      : "none";
    const buttons = $("gift-buttons");
    buttons.innerHTML = "";
    if (game.phase !== "place" || pending) return;
    for (const o of game.choices.opens) {
      const b = html("button", o.action, buttons, "open");
      b.dataset.action = o.action;
      b.addEventListener("click", () => act(o.action));
      if (o.at) {
        b.addEventListener("mouseenter", () => {
          const [x, y] = cell(o.at[0], o.at[1]);
          el("rect", { x, y, width: game.board.size, height: game.board.size, class: "target", id: "target" }, $("overlay"));
        });
        b.addEventListener("mouseleave", () => { const t = $("target"); if (t) t.remove(); });
      }
    }
  }

  function drawKeep() {
    const panel = $("keep");
    panel.hidden = game.phase !== "choose";
    const tiles = $("keep-tiles");
    tiles.innerHTML = "";
    if (game.phase !== "choose") return;
    for (const k of game.choices.keep) {
      const b = html("button", undefined, tiles, "tile-choice");
      b.title = k.action;
      b.dataset.action = k.action;
      b.innerHTML = '<svg viewBox="0 0 100 100">' + k.svg + "</svg>";
      b.addEventListener("click", () => act(k.action));
    }
  }

  function drawSeats() {
    const t = $("seats");
    t.innerHTML = "";
    const cols = ["", "seat", "total", "road", "city", "mon.", "farm"];
    if (game.rules.gifts) cols.push("gifts");
    cols.push("meeples");
    if (game.rules.gifts) cols.push("cards");
    if (game.rules.hand > 0) cols.push("hand");
    const head = t.insertRow();
    for (const c of cols) html("th", c, head).title = c === "mon." ? "monastery" : c === "cards" ? "gift cards held" : c;
    game.seats.forEach((s, i) => {
      const row = t.insertRow();
      row.dataset.seat = i;
      if (i === game.to_play && game.phase !== "over") row.className = "to-play";
      const sw = row.insertCell();
      sw.textContent = "●";
      sw.style.color = s.colour;
      const name = row.insertCell();
      name.textContent = seatName(i);
      name.className = "name";
      const total = row.insertCell();
      total.textContent = s.total;
      total.className = "num total";
      total.dataset.total = s.total;
      const keys = ["road", "city", "monastery", "farm"];
      if (game.rules.gifts) keys.push("gifts");
      keys.push("meeples");
      if (game.rules.gifts) keys.push("gift_cards");
      for (const k of keys) { const c = row.insertCell(); c.textContent = s[k]; c.className = "num"; }
      if (game.rules.hand > 0) {
        row.insertCell().textContent = s.hand ? s.hand.join(" ") || "–" : s.tiles_held + " hidden";
      }
    });
  }

  function drawFinal() {
    const f = $("final");
    f.hidden = game.phase !== "over";
    f.innerHTML = "";
    if (game.phase !== "over") return;
    const o = game.over;
    const best = Math.max(...game.seats.map((s) => s.total));
    const winners = game.seats.map((s, i) => (s.total === best ? seatName(i) : null)).filter((x) => x);
    html("p", "Game over. " + (winners.length > 1 ? "Shared first place: " : "Winner: ") + winners.join(", ") + " with " + best + " points.", f).id = "result";
    if (o.forfeit) html("p", o.forfeit, f);
    html("p", "The last turn and the final scoring (incomplete roads, cities and monasteries, farms" + (game.rules.gifts ? ", gift cards" : "") + ") added:", f);
    const t = html("table", undefined, f, "grid");
    const head = t.insertRow();
    const keys = ["road", "city", "monastery", "farm"];
    if (game.rules.gifts) keys.push("gifts");
    keys.push("total");
    html("th", "seat", head);
    for (const k of keys) html("th", k === "monastery" ? "mon." : k, head).title = k;
    game.seats.forEach((s, i) => {
      const b = o.before_last[i];
      const row = t.insertRow();
      const name = row.insertCell();
      name.textContent = seatName(i);
      name.className = "name";
      for (const k of keys) {
        const c = row.insertCell();
        const d = s[k] - b[k];
        c.textContent = (d > 0 ? "+" + d : String(d)) + (k === "total" ? " = " + s.total : "");
        c.className = "num";
      }
    });
    const p = html("p", "Deck seed " + o.seed + ". Record saved as " + o.saved + " — ", f);
    const a = html("a", "download it", p);
    a.id = "download";
    a.href = "/api/game/" + game.id + "/record?token=" + TOKEN;
    a.setAttribute("download", "");
    html("p", "Step through it with: carcassonne view " + o.saved, f);
  }

  function drawLog() {
    const log = $("log");
    log.innerHTML = "";
    for (const l of game.log) {
      html("li", seatName(l.seat) + ": " + l.text, log, l.seat === game.seat ? "you" : "");
    }
    log.scrollTop = log.scrollHeight;
  }

  function drawOwnHand() {
    const p = $("own-hand");
    p.hidden = !(game.rules.hand > 0) || game.phase === "place";
    p.textContent = "Your tiles: " + (game.own_tiles.join(" ") || "none");
  }

  function draw() {
    if (!game) return;
    document.body.dataset.phase = game.phase;
    $("info").textContent = game.players + " players · " + (game.rules.text || "standard rules") + " · turn " + game.turn + " · " + game.tiles_left + " tiles left";
    const status = {
      place: pending ? "Your turn: a meeple, or none." : "Your turn: place the tile.",
      choose: "Your turn: keep one of the two tiles.",
      wait: seatName(game.to_play) + " is playing…",
      over: "Game over.",
    };
    $("status").textContent = status[game.phase];
    drawBoard();
    drawPlace();
    drawGifts();
    drawKeep();
    drawHint();
    drawOwnHand();
    drawSeats();
    drawFinal();
    drawReview();
    drawLog();
  }

  function rotate(by) {
    if (!game || game.phase !== "place" || pending) return;
    rot = (rot + by + 4) % 4;
    draw();
  }
  $("rot-left").addEventListener("click", () => rotate(-1));
  $("rot-right").addEventListener("click", () => rotate(1));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const keys = {
      r: () => rotate(1), e: () => rotate(1), q: () => rotate(-1), R: () => rotate(-1),
      Escape: () => { pending = null; draw(); },
      h: askHint,
      "+": () => zoom(1 / 1.25), "=": () => zoom(1 / 1.25), "-": () => zoom(1.25), "0": fit,
    };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  $("new").addEventListener("click", () => newGame("new"));
  $("same").addEventListener("click", () => newGame("same"));
  $("swap").addEventListener("click", () => newGame("swap"));
  $("speed").addEventListener("change", pump);
  $("hint").addEventListener("click", askHint);
  // A closed tab ends its game on the server.
  window.addEventListener("pagehide", () => {
    if (game) {
      fetch("/api/game/" + game.id + "/close", {
        method: "POST",
        keepalive: true,
        headers: { "X-Carcassonne-Token": TOKEN },
      }).catch(() => {});
    }
  });
  newGame("new");
})();
