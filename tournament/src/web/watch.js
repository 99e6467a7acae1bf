// The watch page: poll the folder's status and redraw the tables.
(function () {
  "use strict";
  // The server's secret: every request carries it (a link, in its query).
  const TOKEN = document.querySelector('meta[name="carcassonne-token"]').content;
  const pct = (x) => (100 * x).toFixed(1) + "%";
  const num = (x, d) => (Number.isInteger(x) ? String(x) : x.toFixed(d));
  function table(el, rows, columns) {
    el.innerHTML = "";
    const head = el.insertRow();
    for (const [, label] of columns) {
      const th = document.createElement("th");
      th.textContent = label;
      head.appendChild(th);
    }
    for (const r of rows) {
      const tr = el.insertRow();
      for (const [key, , fmt] of columns) {
        const td = tr.insertCell();
        td.textContent = fmt ? fmt(r) : r[key];
        if (typeof r[key] === "number") td.className = "num";
      }
    }
  }
  async function poll() {
    try {
      const res = await fetch("/watch/status", { headers: { "X-Carcassonne-Token": TOKEN } });
      const s = await res.json();
      if (!res.ok) throw new Error(s.error);
      document.getElementById("title").textContent = "Tournament " + s.name + " (" + s.status + ")";
      const bar = document.getElementById("progress");
      bar.max = Math.max(1, s.planned);
      bar.value = s.games;
      document.getElementById("count").textContent =
        s.games + " of " + s.planned + " games · " + s.players + " players · " + s.rules;
      table(document.getElementById("summary"), s.summary, [
        ["agent", "Agent"], ["games", "Games"], ["wins", "Wins"], ["draws", "Draws"], ["losses", "Losses"],
        ["win_rate", "Win rate", (r) => pct(r.win_rate) + " (" + pct(r.win_rate_ci_low) + "–" + pct(r.win_rate_ci_high) + ")"],
        ["mean_score", "Mean score", (r) => num(r.mean_score, 1) + " ± " + num(r.mean_score_se, 1)],
        ["elo", "Elo", (r) => num(r.elo, 0) + " (" + num(r.elo_ci_low, 0) + " to " + num(r.elo_ci_high, 0) + ")"],
      ]);
      table(document.getElementById("pairwise"), s.pairwise, [
        ["agent", "Agent"], ["opponent", "Opponent"], ["games", "Games"],
        ["win_rate", "Win rate", (r) => pct(r.win_rate)],
        ["mean_score_diff", "Mean score difference", (r) => num(r.mean_score_diff, 1)],
      ]);
      const games = document.getElementById("games");
      games.innerHTML = "";
      if (s.records === 0) games.textContent = "No records (run the tournament with --records to open games here).";
      // Numbered from 0, as the game column of games.csv.
      for (let n = s.first; n < s.first + s.records; n++) {
        const a = document.createElement("a");
        a.href = "/watch/game/" + n + "?token=" + TOKEN;
        a.textContent = "game " + n;
        games.appendChild(a);
        games.appendChild(document.createTextNode(" "));
      }
    } catch (e) {
      document.getElementById("count").textContent = "cannot read the folder: " + e.message;
    }
  }
  poll();
  setInterval(poll, 2000);
})();
