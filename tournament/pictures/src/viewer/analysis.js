// The analysis panel: at the shown turn, the analysing agent's top moves
// (ghost tiles on the board, a table), its evaluation as a bar, and a
// chart of the evaluation over the game with the costliest moves marked.
// Fed by ANALYSIS (carcassonne analyze-game's output, docs/analysis.md).
(function () {
  "use strict";
  const A = ANALYSIS;
  const panel = document.getElementById("analysis");
  const cands = Array.from(document.querySelectorAll("#board g.cand"));
  const two = A.players === 2;
  let picked = null;

  // The decisions of the position shown at frame n: those of turn n + 1.
  function decisionsAt(n) {
    return A.decisions.map((d, i) => [d, i]).filter(([d]) => d.turn === n + 1);
  }

  // The evaluation of a decision for the bar and the chart: seat 0's win
  // share with two players, else the seat to play's.
  function evaluation(d) {
    const w = d.best.win;
    if (w === null || w === undefined) return null;
    return two && d.seat === 1 ? 1 - w : w;
  }

  const pct = (x) => (x === null || x === undefined ? "–" : Math.round(100 * x) + "%");
  const pts = (x) => (x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(1));

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function pick(d, i) {
    picked = picked && picked[0] === d && picked[1] === i ? null : [d, i];
    for (const g of cands) {
      const on = picked && +g.dataset.d === picked[0] && +g.dataset.i === picked[1];
      g.classList.toggle("picked", !!on);
    }
    for (const tr of panel.querySelectorAll("tr[data-i]")) {
      tr.classList.toggle("picked", !!picked && +tr.dataset.d === picked[0] && +tr.dataset.i === picked[1]);
    }
  }

  function render(n) {
    picked = null;
    const here = decisionsAt(n);
    const shown = new Set(here.map(([, i]) => i));
    for (const g of cands) {
      g.style.display = shown.has(+g.dataset.d) ? "" : "none";
      g.classList.remove("picked");
    }
    const body = document.getElementById("analysis-body");
    body.innerHTML = "";
    if (here.length === 0) {
      body.appendChild(el("p", "No decision to analyse at this turn."));
      return;
    }
    for (const [d, i] of here) {
      const box = el("div", undefined, "decision");
      const e = evaluation(d);
      const bar = el("div", undefined, "evalbar");
      const fill = el("div", undefined, "evalfill");
      fill.style.width = (e === null ? 50 : 100 * e) + "%";
      fill.style.background = GAME.colours[two ? 0 : d.seat];
      bar.style.background = two ? GAME.colours[1] : "#ddd";
      bar.appendChild(fill);
      bar.title = two ? "seat 0's chance of winning as the agent sees it" : "the seat to play's chance";
      box.appendChild(bar);
      box.appendChild(el("p",
        "Seat " + d.seat + " (" + GAME.names[d.seat] + ") to play, " + d.kind + ", " + d.legal +
        " legal: best " + d.best.action + " (lead " + pts(d.best.lead) + ", win " + pct(d.best.win) + ")"));
      if (d.best.scores) {
        // Each seat's mean end-now score where the search valued the
        // positions after the best move: its expected final scores.
        const expected = el("p", "Expected scores: ", "expected");
        expected.title = "each seat's mean end-now score where the search valued the positions after the best move";
        d.best.scores.forEach((v, s) => {
          const dot = el("span", "● ");
          dot.style.color = GAME.colours[s];
          expected.appendChild(dot);
          expected.appendChild(el("span", "seat " + s + " " + v.toFixed(1) + (s + 1 < d.best.scores.length ? " · " : "")));
        });
        box.appendChild(expected);
      }
      const verdict = el("p", "Played " + d.played.action + ": " + d.verdict +
        (d.points_lost ? ", " + d.points_lost.toFixed(1) + " points lost" : ""), "verdict " + d.verdict);
      box.appendChild(verdict);
      const table = el("table", undefined, "top");
      const head = table.insertRow();
      for (const c of ["move", "visits", "lead", "win", "prior"]) head.appendChild(el("th", c));
      d.top.forEach((m, k) => {
        const tr = table.insertRow();
        tr.dataset.d = i;
        tr.dataset.i = k;
        if (m.action === d.played.action) tr.classList.add("played");
        tr.insertCell().textContent = m.action;
        tr.insertCell().textContent = m.visits + " (" + pct(m.share) + ")";
        tr.insertCell().textContent = pts(m.lead);
        tr.insertCell().textContent = pct(m.win);
        tr.insertCell().textContent = m.prior === null || m.prior === undefined ? "–" : pct(m.prior);
        tr.addEventListener("click", () => pick(i, k));
      });
      box.appendChild(table);
      body.appendChild(box);
    }
  }

  // The chart: the evaluation per turn, mistakes and blunders marked.
  function chart() {
    const W = 440, H = 120, P = 6;
    const last = GAME.frames.length - 1;
    const x = (turn) => P + ((W - 2 * P) * (turn - 1)) / Math.max(1, last);
    const y = (v) => P + (H - 2 * P) * (1 - v);
    const ns = document.getElementById("board").namespaceURI; // SVG's
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("id", "evalchart");
    const mid = document.createElementNS(ns, "line");
    for (const [k, v] of [["x1", P], ["x2", W - P], ["y1", y(0.5)], ["y2", y(0.5)]]) mid.setAttribute(k, v);
    mid.setAttribute("stroke", "#bbb");
    svg.appendChild(mid);
    const points = [];
    for (const d of A.decisions) {
      const e = evaluation(d);
      if (e !== null) points.push(x(d.turn).toFixed(1) + "," + y(e).toFixed(1));
    }
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", two ? GAME.colours[0] : "#444");
    line.setAttribute("stroke-width", "2");
    svg.appendChild(line);
    for (const d of A.decisions) {
      if (d.verdict !== "mistake" && d.verdict !== "blunder") continue;
      const e = evaluation(d);
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", x(d.turn));
      dot.setAttribute("cy", y(e === null ? 0.5 : e));
      dot.setAttribute("r", d.verdict === "blunder" ? 6 : 4);
      dot.setAttribute("class", "mark " + d.verdict);
      dot.setAttribute("fill", GAME.colours[d.seat]);
      const title = document.createElementNS(ns, "title");
      title.textContent = "turn " + d.turn + ", seat " + d.seat + ": " + d.played.action + ", " +
        d.verdict + " (" + (d.points_lost || 0).toFixed(1) + " points)";
      dot.appendChild(title);
      dot.addEventListener("click", () => window.viewerShow(d.turn - 1));
      svg.appendChild(dot);
    }
    return svg;
  }

  panel.appendChild(el("h2", "Analysis by " + A.agent));
  panel.appendChild(chart());
  panel.appendChild(el("p",
    (two ? "Seat 0's chance of winning" : "The seat to play's chance of winning") +
    " before each turn; dots: mistakes (≥ " + A.mistake + " points) and blunders (≥ " + A.blunder +
    "), click to go there. Click a move below to show it on the board.", "note"));
  const body = el("div");
  body.id = "analysis-body";
  panel.appendChild(body);
  document.addEventListener("viewer-frame", (e) => render(e.detail));
  render(window.viewerCurrent());
})();
