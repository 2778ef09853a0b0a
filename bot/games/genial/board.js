// Ingenious on the page: the hex board (SVG, pinch and drag), every player's six tracks (the
// lowest colour underlined, and a line that says why), whose turn, the last placement rimmed as
// on the table picture, and for a seated player their rack: tap a tile → the cells where it may
// go light up, each with what it would earn (the more, the deeper its shade; the best
// rimmed); tap it again (or ↻) to turn it; tap a cell → the placement, its points, and the lines
// that score drawn on the board; ✅ plays it. The server says what is legal and what it scores.

import { COLOURS, SHAPES, chip, el, hexPoints, html, shape } from "../svg.js";
import { Zoom } from "../zoom.js";
import { MEDALS, mover, name } from "./common.js";

const SIZE = 10; // a cell's radius in board units
const SQRT3 = Math.sqrt(3);
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const ANGLES = [0, -60, -120, 180, 120, 60];

const key = (cell) => `${cell[0]},${cell[1]}`;
const centre = ([q, r]) => [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];

function dirOf(a, b) {
  return DIRS.findIndex(([dq, dr]) => a[0] + dq === b[0] && a[1] + dr === b[1]);
}

// A short bar across the edge two halves of a tile share, so that tiles read as tiles.
function bridge(parent, cellA, cellB) {
  const [a, b] = [centre(cellA), centre(cellB)];
  const at = (k) => [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k];
  const [p, q] = [at(0.36), at(0.64)];
  el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "bridge" }, parent);
}

// Two hex halves side by side (first colour on the left), turned to direction ``dir``.
function tileDrawing(parent, colours, dir = 0, scale = 1) {
  const g = el("g", { transform: `rotate(${ANGLES[dir]}) scale(${scale})` }, parent);
  const half = SIZE * SQRT3 / 2;
  colours.forEach((colour, i) => {
    const x = i === 0 ? -half : half;
    el("polygon", { points: hexPoints(x, 0, SIZE * 0.97), fill: COLOURS[colour], stroke: "#222", "stroke-width": 0.8 }, g);
    shape(g, SHAPES[colour], x, 0, SIZE * 0.5, { fill: "#fff" });
  });
  return g;
}

export function mount(root, page) {
  const { t } = page;
  const wrap = html("div", { class: "genial" }, root);
  const boardBox = html("div", { class: "board" }, wrap);
  const svg = el("svg", { class: "hexboard", role: "group", "aria-label": t("the board") }, boardBox);
  const resetButton = html("button", { type: "button", class: "reset", title: t("Reset the view"), "aria-label": t("Reset the view") }, boardBox, "⤢");
  const hint = html("p", { class: "hint" }, wrap);
  const preview = html("div", { class: "preview" }, wrap);
  const rackBox = html("div", { class: "rack", role: "group" }, wrap);
  const actions = html("div", { class: "actions" }, wrap);
  const tracks = html("div", { class: "tracks" }, wrap);
  const legend = html("p", { class: "hint-inline legend" }, wrap);
  const story = html("ul", { class: "story" }, wrap);

  let game = null;
  let zoom = null;
  let radius = null;
  let layers = null;
  let cellNodes = new Map();
  let pick = null; // {tile, colours, dir, options, byDir, chosen}
  let placementCache = new Map();

  resetButton.addEventListener("click", () => zoom && zoom.reset());

  function drawEmptyBoard(view) {
    radius = view.radius;
    svg.replaceChildren();
    cellNodes = new Map();
    const cells = [];
    for (let r = -radius; r <= radius; r++) {
      for (let q = Math.max(-radius, -radius - r); q <= Math.min(radius, radius - r); q++) cells.push([q, r]);
    }
    const xs = cells.map((c) => centre(c)[0]);
    const ys = cells.map((c) => centre(c)[1]);
    const pad = SIZE * 1.6;
    const box = { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, w: Math.max(...xs) - Math.min(...xs) + 2 * pad, h: Math.max(...ys) - Math.min(...ys) + 2 * pad };
    const grid = el("g", { class: "grid" }, svg);
    for (const cell of cells) {
      const [x, y] = centre(cell);
      const node = el("polygon", { points: hexPoints(x, y, SIZE * 0.96), class: "cell", "data-cell": key(cell) }, grid);
      node.addEventListener("click", () => tapCell(cell));
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tapCell(cell); }
      });
      cellNodes.set(key(cell), node);
    }
    // Row letters at the left end of each row, as on the table picture and in typed moves.
    view.row_lengths.forEach((_, i) => {
      const r = i - radius;
      const q = Math.max(-radius, -radius - r);
      const [x, y] = centre([q, r]);
      el("text", { x: x - SIZE * 1.25, y: y + 3, class: "label", "text-anchor": "middle" }, grid).textContent = String.fromCharCode(65 + i);
    });
    layers = {
      pieces: el("g", { class: "pieces" }, svg),
      marks: el("g", { class: "marks" }, svg),
      gains: el("g", { class: "gains" }, svg),
      ghost: el("g", { class: "ghost" }, svg),
    };
    zoom = new Zoom(svg, box);
  }

  function drawPieces(view) {
    layers.pieces.replaceChildren();
    layers.marks.replaceChildren();
    for (const c of view.cells) {
      const [x, y] = centre(c.cell);
      const g = el("g", { class: c.printed ? "printed" : "piece", "data-cell": key(c.cell) }, layers.pieces);
      el("polygon", { points: hexPoints(x, y, SIZE * 0.96), fill: COLOURS[c.colour], stroke: c.printed ? "#222" : "rgba(0,0,0,.55)", "stroke-width": c.printed ? 1.6 : 0.7 }, g);
      shape(g, SHAPES[c.colour], x, y, SIZE * (c.printed ? 0.62 : 0.5), { fill: "#fff" });
      g.addEventListener("click", () => tapCell(c.cell));
    }
    // A tile's two halves joined by a bar, so tiles read as tiles.
    for (const tile of view.tiles) bridge(layers.marks, tile.cells[0], tile.cells[1]);
    const recent = new Set(view.recent || []);
    view.tiles.forEach((tile, i) => {
      if (!recent.has(i) || (view.last && i === view.last.tile)) return;
      for (const cell of tile.cells) el("polygon", { points: hexPoints(...centre(cell), SIZE * 0.9), class: "recent" }, layers.marks);
    });
    if (view.last) {
      for (const cell of view.last.cells) el("polygon", { points: hexPoints(...centre(cell), SIZE * 0.9), class: "last" }, layers.marks);
    }
  }

  function holderName(view, h) {
    return view.scores[h].seats.map((s) => name(game, s)).join(" + ");
  }

  function drawTracks(view) {
    tracks.replaceChildren();
    view.scores.forEach((holder, h) => {
      const row = html("div", { class: "track" + (holder.seats.includes(view.current) ? " now" : "") + (holder.seats.includes(game.seat) ? " mine" : "") }, tracks);
      html("div", { class: "who" }, row, (holder.seats.includes(view.current) ? "▶ " : "") + holderName(view, h)
        + (holder.seats.includes(game.seat) && game.seat !== null ? ` (${t("you")})` : ""));
      const values = html("div", { class: "values" }, row);
      for (const [colour, value] of Object.entries(holder.values)) {
        const cellBox = html("span", { class: "value" + (holder.lowest.includes(colour) ? " low" : ""), title: t(colour) }, values);
        cellBox.appendChild(chip(colour, 16));
        html("b", {}, cellBox, String(value));
        const bar = html("i", { class: "bar" }, cellBox);
        bar.style.width = `${Math.round((100 * value) / view.track_max)}%`;
        bar.style.background = COLOURS[colour];
      }
    });
    legend.textContent = t("Underlined: the lowest colour, the one that decides the places. A colour stops at {max}.", { max: view.track_max });
  }

  function drawStatus(view) {
    const parts = [];
    if (view.over) parts.push(t("Game over."));
    else if (game.my_turn) parts.push(t("Your turn!"));
    else if (view.current !== null) parts.push(t("Now: {name}", { name: game.names[view.current] }));
    if (game.seat === null) parts.unshift(t("Watching"));
    parts.push(t("bag: {n}", { n: view.bag }));
    page.status.textContent = `${game.title} · ${parts.join(" · ")}`;
    story.replaceChildren();
    for (const line of (game.story || []).slice(-3)) html("li", {}, story, line);
    if (view.over && view.outcome) {
      const seats = game.names.map((name, s) => ({ name, s, place: view.outcome.places[s] }));
      seats.sort((a, b) => a.place - b.place);
      for (const { name, s, place } of seats) {
        const scores = view.scores[view.holder_of[s]].sorted.join(" · ");
        html("li", { class: "result" }, story, `${MEDALS[place - 1] || place + "."} ${name}: ${scores}`);
      }
    }
  }

  // ---- the rack and choosing a move -------------------------------------------------------

  function placeable(view) {
    if (!game.my_turn || !["place", "bonus"].includes(view.pending)) return [];
    if (view.drawn) return [{ tile: "drawn", colours: view.drawn }];
    return view.rack.map((colours, i) => ({ tile: String(i), colours }));
  }

  function tileName(item) {
    const colours = item.colours.map((c) => t(c)).join("–");
    return item.drawn ? t("Tile drawn from the bag: {colours}", { colours }) : t("Tile {n}: {colours}", { n: Number(item.tile) + 1, colours });
  }

  function drawRack(view) {
    rackBox.replaceChildren();
    if (game.seat === null || !view.rack) { rackBox.hidden = true; return; }
    rackBox.hidden = false;
    const can = new Map(placeable(view).map((p) => [p.tile, p]));
    const shown = view.drawn && game.my_turn ? [{ tile: "drawn", colours: view.drawn, drawn: true }] : [];
    view.rack.forEach((colours, i) => shown.push({ tile: String(i), colours }));
    for (const item of shown) {
      const active = can.has(item.tile);
      const selected = pick && pick.tile === item.tile;
      const button = html("button", {
        type: "button", class: "tile" + (selected ? " selected" : "") + (item.drawn ? " drawn" : ""),
        "data-tile": item.tile, disabled: !active, "aria-pressed": selected ? "true" : "false",
        "aria-label": tileName(item),
      }, rackBox);
      const small = el("svg", { viewBox: "-22 -16 44 32", width: 56, height: 40 }, button);
      tileDrawing(small, item.colours, selected ? pick.dir : 0, 1.05);
      button.addEventListener("click", () => tapTile(item));
    }
  }

  function drawActions(view) {
    actions.replaceChildren();
    hint.textContent = "";
    if (!game.my_turn) return;
    if (view.pending === "swap") {
      hint.textContent = t("Your rack has no tile with your lowest colour: swap all six for new ones, or keep them?");
      const swap = html("button", { type: "button", class: "act", "data-act": "S" }, actions, "🔄 " + t("Swap the rack"));
      const keep = html("button", { type: "button", class: "act", "data-act": "K" }, actions, "✋ " + t("Keep it"));
      swap.addEventListener("click", () => send(game, "S"));
      keep.addEventListener("click", () => send(game, "K"));
      return;
    }
    const lines = [];
    if (view.pending === "bonus") {
      lines.push(view.drawn ? t("🎉 Bonus placement: the tile drawn from the bag.") : t("🎉 Bonus placement: one more tile."));
    }
    else if (view.first_tile_rule) lines.push(t("First tile: next to a printed symbol nobody touches yet."));
    if (!pick) lines.push(t("Tap a tile."));
    else if (!pick.options.length) lines.push(t("This tile fits nowhere."));
    else lines.push(t("Tap a lit cell; tap the tile again to turn it."));
    hint.textContent = lines.join(" ");
    if (pick && pick.options.length) {
      const turn = html("button", { type: "button", class: "act", "data-act": "turn" }, actions, "↻ " + t("Turn"));
      turn.addEventListener("click", () => rotate());
    }
  }

  async function tapTile(item) {
    if (send.busy()) return;
    page.haptic("select");
    if (pick && pick.tile === item.tile) { rotate(); return; }
    const cacheKey = `${game.turn}:${game.view.pending}:${item.tile}`;
    let options = placementCache.get(cacheKey);
    if (!options) {
      const answer = await page.api.ask(game.id, "placements", { tile: item.tile });
      if (answer.status !== 200) { page.say(t("No connection, trying again…")); return; }
      options = answer.data.placements;
      if (item.colours[0] === item.colours[1]) { // a double: each pair of cells comes once; both ways fit
        options = options.concat(options.map((p) => ({ ...p, a: p.b, b: p.a })));
      }
      placementCache.set(cacheKey, options);
    }
    const byDir = DIRS.map(() => new Map());
    for (const p of options) {
      const d = dirOf(p.a, p.b);
      if (d >= 0) byDir[d].set(key(p.a), p);
    }
    const dirs = byDir.map((m, d) => (m.size ? d : -1)).filter((d) => d >= 0);
    const keepDir = pick && dirs.includes(pick.dir) ? pick.dir : dirs[0] ?? 0;
    pick = { tile: item.tile, colours: item.colours, dir: keepDir, options, byDir, chosen: null };
    refreshChoice();
  }

  function rotate() {
    if (!pick || !pick.options.length) return;
    for (let step = 1; step <= 6; step++) {
      const d = (pick.dir + step) % 6;
      if (pick.byDir[d].size) { pick.dir = d; break; }
    }
    // The chosen cell keeps its place when the turned tile still fits there.
    if (pick.chosen) pick.chosen = pick.byDir[pick.dir].get(key(pick.chosen.a)) || null;
    page.haptic("select");
    refreshChoice();
  }

  function tapCell(cell) {
    if (!pick || send.busy()) return;
    const p = pick.byDir[pick.dir].get(key(cell));
    if (!p) return;
    pick.chosen = p;
    page.haptic("light");
    refreshChoice();
  }

  const gainOf = (p) => Object.values(p.points).reduce((sum, x) => sum + x.gained, 0);

  // Each lit cell says what the tile laid from it (as it is turned now) would earn: its figure on
  // the cell, its shade by the figure, those that earn most rimmed; a cell is a button named so.
  function drawGains() {
    const options = [...pick.byDir[pick.dir].entries()];
    const top = Math.max(0, ...options.map(([, p]) => gainOf(p)));
    const most = Math.max(1, top);
    for (const [cellKey, p] of options) {
      const node = cellNodes.get(cellKey);
      if (!node) continue;
      const gain = gainOf(p);
      node.classList.add("lit");
      if (top > 0 && gain === top) node.classList.add("best");
      node.style.fillOpacity = String(0.2 + 0.8 * (gain / most));
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.setAttribute("aria-label", t("{cell}: +{n}", { cell: p.labels[0], n: gain }));
      const [x, y] = centre(p.a);
      el("text", { x, y: y + 2.6, "text-anchor": "middle", class: "gain-figure" }, layers.gains).textContent = `+${gain}`;
    }
  }

  // The preview's scoring lines: from each half through the cells of its colour it counts.
  function drawLines(p) {
    for (const [q, r, half] of p.lines) {
      const from = centre(half === 0 ? p.a : p.b);
      const to = centre([q, r]);
      // Dark on a white halo: the line shows across cells of its own colour.
      el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "score-halo" }, layers.ghost);
      el("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "score-line" }, layers.ghost);
      el("circle", { cx: to[0], cy: to[1], r: SIZE * 0.3, class: "score-dot" }, layers.ghost);
    }
  }

  function clearPick() {
    pick = null;
    refreshChoice();
  }

  function refreshChoice() {
    const view = game.view;
    for (const node of cellNodes.values()) {
      node.classList.remove("lit", "chosen", "best");
      for (const attr of ["role", "tabindex", "aria-label"]) node.removeAttribute(attr);
      node.style.removeProperty("fill-opacity");
    }
    layers.ghost.replaceChildren();
    layers.gains.replaceChildren();
    preview.replaceChildren();
    drawRack(view);
    drawActions(view);
    if (!pick) { page.main.hide(); page.back.hide(); return; }
    page.back.show(clearPick);
    drawGains();
    if (!pick.chosen) { page.main.hide(); return; }
    const p = pick.chosen;
    for (const [cell, colour] of [[p.a, pick.colours[0]], [p.b, pick.colours[1]]]) {
      const [x, y] = centre(cell);
      el("polygon", { points: hexPoints(x, y, SIZE * 0.96), fill: COLOURS[colour], class: "ghost-half" }, layers.ghost);
      shape(layers.ghost, SHAPES[colour], x, y, SIZE * 0.5, { fill: "#fff" });
    }
    bridge(layers.ghost, p.a, p.b);
    drawLines(p);
    let total = 0;
    let genial = false;
    html("b", { class: "cells" }, preview, `${p.labels[0]}–${p.labels[1]}`);
    for (const [colour, points] of Object.entries(p.points)) {
      total += points.gained;
      const item = html("span", { class: "gain" }, preview);
      item.appendChild(chip(colour, 18));
      html("b", {}, item, `+${points.gained}`);
      html("span", { class: "to" }, item, `→ ${points.total}`);
      if (points.lost) html("span", { class: "lost" }, item, t("{n} lost at the top", { n: points.lost }));
      if (points.bonus) genial = true;
    }
    if (genial) html("span", { class: "genial-word" }, preview, "🎉 " + t("Ingenious!"));
    page.main.show(`✅ ${t("Play")} +${total}`, () => send(game, p.code));
  }

  const send = mover(page, (next) => { pick = null; update(next); });

  function update(next) {
    const turned = !game || next.turn !== game.turn || next.version !== game.version;
    game = next;
    const view = game.view;
    if (!view) return;
    if (radius !== view.radius) drawEmptyBoard(view);
    drawPieces(view);
    drawTracks(view);
    drawStatus(view);
    if (turned) { pick = null; placementCache = new Map(); }
    if (!game.my_turn) pick = null;
    refreshChoice();
  }

  return { update };
}
