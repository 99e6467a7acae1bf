// The game viewer: show the board, scores and move of one turn at a time.
(function () {
  "use strict";
  const frames = GAME.frames;
  const last = frames.length - 1;
  const items = Array.from(document.querySelectorAll("#board > g[data-from]")).map(
    (el) => [el, +el.dataset.from, +el.dataset.to, el.classList.contains("now")]
  );
  const slider = document.getElementById("slider");
  const cursor = document.getElementById("cursor");
  const list = document.getElementById("turns");
  const seats = document.getElementById("seats");
  const move = document.getElementById("move");
  const playButton = document.getElementById("play");
  const x0 = +cursor.dataset.x0;
  const x1 = +cursor.dataset.x1;
  let current = last;
  let timer = null;

  frames.forEach((f, n) => {
    const li = document.createElement("li");
    li.textContent = (f.player >= 0 ? "seat " + f.player + ": " : "") + f.move.join("; ");
    li.addEventListener("click", () => show(n));
    list.appendChild(li);
  });

  function cell(row, text, cls) {
    const td = row.insertCell();
    td.textContent = text;
    if (cls) td.className = cls;
    return td;
  }

  function show(n) {
    current = Math.max(0, Math.min(last, n));
    slider.value = current;
    for (const [el, from, to, now] of items) {
      const on = now ? current === from : from <= current && current < to;
      el.style.display = on ? "" : "none";
    }
    const f = frames[current];
    document.getElementById("turn").textContent =
      "turn " + current + " of " + last + (f.over ? " (final scores)" : "");
    move.textContent =
      (f.player >= 0 ? "Turn " + current + ", seat " + f.player + ": " : "") + f.move.join("; ");
    seats.innerHTML = "";
    const head = seats.insertRow();
    // Short headings (the full name in their title) so the table fits the
    // side panel; gift columns only in games with The Gifts.
    const columns = [["", ""], ["seat", "seat"], ["total", "total"], ["±", "this turn"],
      ["road", "road"], ["city", "city"], ["mon.", "monastery"], ["farm", "farm"]];
    if (GAME.gifts) columns.push(["gifts", "gifts"]);
    columns.push(["meeples", "meeples in supply"]);
    if (GAME.gifts) columns.push(["hand", "gift cards in hand"]);
    for (const [c, title] of columns) cell(head, c, "head").title = title;
    f.seats.forEach((s, i) => {
      const row = seats.insertRow();
      if (i === f.player) row.className = "to-play";
      cell(row, "●", "swatch").style.color = GAME.colours[i];
      cell(row, GAME.names[i], "name");
      cell(row, s.total, "num total");
      cell(row, s.delta > 0 ? "+" + s.delta : s.delta < 0 ? String(s.delta) : "", "num");
      const keys = ["road", "city", "monastery", "farm"];
      if (GAME.gifts) keys.push("gifts");
      keys.push("supply");
      for (const k of keys) cell(row, s[k], "num");
      if (GAME.gifts) cell(row, s.hand, "num");
    });
    const x = last > 0 ? x0 + ((x1 - x0) * current) / last : x0;
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    Array.from(list.children).forEach((li, i) => li.classList.toggle("current", i === current));
    // Scroll the move list only (not the page) to the current turn.
    const li = list.children[current];
    if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = li.offsetTop - list.clientHeight / 2;
    }
    // For panels that follow the turn shown (the analysis panel).
    document.dispatchEvent(new CustomEvent("viewer-frame", { detail: current }));
  }

  window.viewerShow = (n) => { stop(); show(n); };
  window.viewerCurrent = () => current;

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = "play";
  }

  function play() {
    if (timer !== null) return stop();
    if (current === last) show(0);
    playButton.textContent = "pause";
    timer = setInterval(() => (current >= last ? stop() : show(current + 1)), 400);
  }

  document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", () => { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", () => { stop(); show(current + 1); });
  document.getElementById("last").addEventListener("click", () => { stop(); show(last); });
  playButton.addEventListener("click", play);
  slider.addEventListener("input", () => { stop(); show(+slider.value); });
  document.addEventListener("keydown", (e) => {
    const keys = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (e.key in keys) { stop(); show(keys[e.key]); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });
  // A link may name a turn: game.html#12.
  const named = /^#(\d+)$/.exec(window.location.hash);
  show(named ? +named[1] : last);
})();
