// The solution page: shows position n of DATA.positions (0 = the deal) and marks the
// cards the next move moves. The DOM is the contract of the README: every card is an
// element with data-card, inside an element with data-cell, data-pile or data-foundation;
// #step holds n; window.wedlock.step(n) shows position n, window.wedlock.count is the
// number of moves.
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const count = DATA.moves.length;
  const table = document.getElementById("table");
  const list = document.getElementById("moves");
  const slider = document.getElementById("slider");
  const stepShown = document.getElementById("step");
  const playButton = document.getElementById("play");
  const speed = document.getElementById("speed");
  let shown = 0;
  let timer = null;

  // Suit shapes in a 10 x 10 box, drawn by hand: no font is needed for them.
  const SUITS = {
    S: "M5 0 C7 3 10 4 10 6.5 C10 8.5 7.5 9 6 7.5 L7 10 L3 10 L4 7.5 C2.5 9 0 8.5 0 6.5 C0 4 3 3 5 0 Z",
    H: "M5 10 C2 7 0 5 0 3 C0 1 2 0 3.2 0 C4.2 0 5 1 5 2 C5 1 5.8 0 6.8 0 C8 0 10 1 10 3 C10 5 8 7 5 10 Z",
    D: "M5 0 L9 5 L5 10 L1 5 Z",
  };
  const CLUB_BLOBS = [[5, 2.4], [2.5, 5.6], [7.5, 5.6]];

  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function suit(parent, s, x, y, size, colour) {
    const g = el("g", { transform: `translate(${x},${y}) scale(${size / 10})`, fill: colour }, parent);
    if (s === "C") {
      for (const [cx, cy] of CLUB_BLOBS) el("circle", { cx, cy, r: 2.4 }, g);
      el("path", { d: "M4.3 5.5 L5.7 5.5 L6.8 10 L3.2 10 Z" }, g);
    } else {
      el("path", { d: SUITS[s] }, g);
    }
  }

  function cardElement(code, marked) {
    const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    const s = code.slice(-1);
    const colour = s === "H" || s === "D" ? "#c62828" : "#1a1a1a";
    const box = document.createElement("div");
    box.className = "card" + (marked ? " marked" : "");
    box.dataset.card = code;
    box.title = code;
    const svg = el("svg", { viewBox: "0 0 60 84", role: "img", "aria-label": code }, box);
    el("rect", { class: "face", x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fff", stroke: "#999", "stroke-width": 1.5 }, svg);
    // The rank in the top-left corner, and the same turned about the card's centre into
    // the bottom-right one: both lie inside the card whatever the rank's width.
    for (const turned of [false, true]) {
      const t = el("text", { x: 6, y: 17, "font-size": 15, "font-weight": "bold", fill: colour, "font-family": "sans-serif" }, svg);
      if (turned) t.setAttribute("transform", "rotate(180 30 42)");
      t.textContent = rank;
    }
    suit(svg, s, 6, 21, 9, colour);
    suit(svg, s, 17, 30, 26, colour);
    return box;
  }

  function div(className, parent, data) {
    const node = document.createElement("div");
    if (className) node.className = className;
    for (const [k, v] of Object.entries(data || {})) node.dataset[k] = v;
    if (parent) parent.appendChild(node);
    return node;
  }

  function marks(n) {
    const out = { cells: new Set(), piles: new Set(), tops: new Set(), foundations: new Set(), stock: false };
    if (n >= count) return out;
    for (const t of DATA.touches[n]) {
      if ("cell" in t) out.cells.add(t.cell);
      else if ("foundation" in t) out.foundations.add(t.foundation);
      else if ("pile" in t) (t.top ? out.tops : out.piles).add(t.pile);
      else if (t.stock) out.stock = true;
    }
    return out;
  }

  function stockBox(parent, size, marked, lines) {
    const side = div("side", parent);
    div("stock" + (size ? "" : " empty") + (marked ? " marked" : ""), side, { stock: size });
    for (const line of lines) div("count", side).textContent = line;
  }

  function drawGrid(pos, mark) {
    const wrap = div("mc", table);
    const grid = div("grid", wrap);
    grid.style.gridTemplateColumns = `1.2em repeat(${pos.cols}, var(--card-w))`;
    div("axis", grid);
    for (let c = 1; c <= pos.cols; c++) div("axis", grid).textContent = String(c);
    pos.cells.forEach((code, i) => {
      if (i % pos.cols === 0) div("axis", grid).textContent = "ABCDEFGHIJ"[i / pos.cols];
      const cell = div("cell", grid, { cell: i });
      if (code) cell.appendChild(cardElement(code, mark.cells.has(i)));
    });
    stockBox(wrap, pos.stock, mark.stock, [`stock: ${pos.stock}`, `out: ${pos.out}`]);
  }

  function drawMatrimony(pos, mark) {
    const top = div("mat-top", table);
    const talon = div("", top);
    talon.style.gridRow = "1 / span 2";
    const turn = pos.next ? [pos.next] : [`deal ${Math.round((86 - pos.stock) / 16) + 1} of 6 next`];
    stockBox(talon, pos.stock, mark.stock, [`stock: ${pos.stock}`, ...turn]);
    div("", top).style.gridRow = "1 / span 2";
    pos.foundations.forEach((f, i) => {
      const holder = div("", top);
      const place = div("foundation", holder, { foundation: i + 1 });
      f.cards.forEach((code, k) => place.appendChild(cardElement(code, k === f.cards.length - 1 && mark.foundations.has(i + 1))));
      const label = div("flabel", holder);
      const name = document.createElement("span");
      name.textContent = f.name;
      const long = document.createElement("span");
      long.className = "long";
      long.textContent = f.label;
      label.append(name, long);
    });
    const piles = div("piles", table);
    const fan = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-h")) * 0.28 || 20;
    pos.piles.forEach((cards, i) => {
      const pile = div("pile" + (mark.piles.has(i + 1) ? " marked" : ""), piles, { pile: i + 1 });
      div("pnum", pile).textContent = String(i + 1);
      cards.forEach((code, k) => {
        const c = cardElement(code, k === cards.length - 1 && mark.tops.has(i + 1));
        c.style.top = `${k * fan}px`;
        pile.appendChild(c);
      });
      pile.style.height = `calc(var(--card-h) + ${Math.max(0, cards.length - 1) * fan}px)`;
    });
  }

  function show(n) {
    n = Math.max(0, Math.min(count, Number(n) | 0));
    shown = n;
    table.replaceChildren();
    const pos = DATA.positions[n];
    const mark = marks(n);
    if (pos.kind === "grid") drawGrid(pos, mark);
    else drawMatrimony(pos, mark);
    stepShown.textContent = String(n);
    slider.value = String(n);
    for (const li of list.children) {
      const k = Number(li.dataset.move);
      li.classList.toggle("done", k < n);
      li.classList.toggle("current", k === n);
      li.classList.toggle("next", k === n + 1);
    }
    const current = list.children[Math.max(0, n - 1)];
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    if (location.hash !== `#${n}`) history.replaceState(null, "", `#${n}`);
    if (n >= count) stop();
    return n;
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
  }

  function toggle() {
    if (timer) return stop();
    if (shown >= count) show(0);
    playButton.textContent = "Pause";
    timer = setInterval(() => show(shown + 1), 1000 / Number(speed.value));
  }

  DATA.moves.forEach((text, i) => {
    const li = document.createElement("li");
    li.dataset.move = String(i + 1);
    li.textContent = text;
    li.addEventListener("click", () => { stop(); show(i + 1); });
    list.appendChild(li);
  });
  slider.max = String(count);
  slider.addEventListener("input", () => { stop(); show(slider.value); });
  document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", () => { stop(); show(shown - 1); });
  document.getElementById("next").addEventListener("click", () => { stop(); show(shown + 1); });
  document.getElementById("last").addEventListener("click", () => { stop(); show(count); });
  playButton.addEventListener("click", toggle);
  speed.addEventListener("change", () => { if (timer) { stop(); toggle(); } });
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: () => show(shown - 1), ArrowRight: () => show(shown + 1), Home: () => show(0), End: () => show(count) };
    if (e.key in keys) { stop(); keys[e.key](); e.preventDefault(); }
    else if (e.key === " ") { toggle(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  window.wedlock = { step: show, count: count };
  show(/^#\d+$/.test(location.hash) ? location.hash.slice(1) : 0);
})();
