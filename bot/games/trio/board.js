// Trio on the page: the tiles on the table (each symbol a coloured shape; pinch and drag), the
// last tile rimmed, the die, and the player's own hand (nobody else's reaches the page). On their
// turn the symbols that answer the die are ringed; tap a tile of the hand, and each place it may
// go gets a numbered mark on the edge between its two cells (numbered as the private chat numbers
// them); tap a mark, the tile shows there with the sets it forms; tap the mark again (or ↻) to
// lay it the other way round where that fits too; ✅ lays it. Someone who cannot lay a tile draws
// one without a tap (the bot does it, and the story says so).

import { COLOURS, el, html, shape } from "../svg.js";
import { Zoom } from "../zoom.js";
import { frame, mover, playerCard, pressable, status, story } from "./common.js";

const CELL = 30;
const MARGIN = 2; // cells around the tiles, where new ones may go

const pairKey = (a, b) => (a[1] < b[1] || (a[1] === b[1] && a[0] < b[0]) ? `${a}|${b}` : `${b}|${a}`);

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);
  const boardBox = html("div", { class: "board" }, parts.board);
  const resetButton = html("button", { type: "button", class: "reset", "aria-label": t("Reset the view") }, boardBox, "⤢");
  const die = html("p", { class: "die" }, parts.board);
  const entry = html("div", { class: "entry" });
  parts.wrap.insertBefore(entry, parts.players);
  const hint = html("p", { class: "hint" }, entry);
  const preview = html("p", { class: "preview-line" }, entry);
  const actions = html("div", { class: "actions" }, entry);
  const handBox = html("div", { class: "hand", role: "group" }, entry);

  let game = null;
  let svg = null;
  let zoom = null;
  let layers = null;
  let bounds = null;
  let pick = null; // {tile, symbols, places, byPair, chosen}
  const send = mover(page, (next) => update(next));

  resetButton.addEventListener("click", () => zoom && zoom.reset());

  const symbolWord = (name) => t(name.replace("-", " ")); // "red-star": the msgid "red star"
  const tileWord = (symbols) => symbols.map(symbolWord).join(" + ");
  const at = ([x, y]) => [(x - bounds[0] + MARGIN) * CELL, (y - bounds[1] + MARGIN) * CELL];

  function drawSymbol(parent, name, x, y, r = CELL * 0.32) {
    const [colour, form] = name.split("-");
    shape(parent, form, x, y, r, { fill: COLOURS[colour] || "#888", stroke: "#222", width: 0.8 });
  }

  function newBoard(v) {
    bounds = v.bounds;
    boardBox.querySelector("svg")?.remove();
    const w = (bounds[2] - bounds[0] + 1 + 2 * MARGIN) * CELL;
    const h = (bounds[3] - bounds[1] + 1 + 2 * MARGIN) * CELL;
    svg = el("svg", { class: "hexboard trioboard", role: "group", "aria-label": t("the table") });
    boardBox.insertBefore(svg, resetButton);
    layers = { grid: el("g", {}, svg), tiles: el("g", {}, svg), marks: el("g", {}, svg), ghost: el("g", { class: "ghost" }, svg), places: el("g", {}, svg) };
    for (let x = 0; x <= w; x += CELL) el("line", { x1: x, y1: 0, x2: x, y2: h, class: "gridline" }, layers.grid);
    for (let y = 0; y <= h; y += CELL) el("line", { x1: 0, y1: y, x2: w, y2: y, class: "gridline" }, layers.grid);
    zoom = new Zoom(svg, { x: 0, y: 0, w, h });
  }

  function drawTiles(v) {
    layers.tiles.replaceChildren();
    for (const tile of v.tiles) {
      const [a, b] = tile.cells.map(at);
      el("rect", { x: Math.min(a[0], b[0]) + 1.5, y: Math.min(a[1], b[1]) + 1.5, width: Math.abs(a[0] - b[0]) + CELL - 3,
        height: Math.abs(a[1] - b[1]) + CELL - 3, rx: 5, class: "trio-tile" }, layers.tiles);
    }
    const answers = game.my_turn ? dieAnswers(v.die) : () => false;
    for (const [x, y, name] of v.cells) {
      const [px, py] = at([x, y]);
      if (answers(name)) el("circle", { cx: px + CELL / 2, cy: py + CELL / 2, r: CELL * 0.45, class: "die-match" }, layers.tiles);
      drawSymbol(layers.tiles, name, px + CELL / 2, py + CELL / 2);
    }
    layers.marks.replaceChildren();
    if (v.last) {
      const [a, b] = v.last.cells.map(at);
      el("rect", { x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(a[0] - b[0]) + CELL, height: Math.abs(a[1] - b[1]) + CELL,
        rx: 6, class: "last-tile" }, layers.marks);
    }
  }

  // Whether a symbol answers the die's face (its colour or its shape): rule 1's neighbours.
  function dieAnswers(face) {
    return (name) => name.split("-").includes(face);
  }

  function drawHand(v) {
    handBox.replaceChildren();
    if (!v.hand) { handBox.hidden = true; return; }
    handBox.hidden = false;
    html("span", { class: "hint-inline" }, handBox, t("Your tiles:"));
    const playing = game.my_turn && game.play ? new Map(game.play.tiles.map((x) => [x.tile, x])) : new Map();
    v.hand.forEach((tile, i) => {
      const choice = playing.get(tile);
      const can = choice && choice.places.length > 0;
      const selected = pick && pick.tile === tile;
      const symbols = v.hand_symbols[i];
      const button = html("button", { type: "button", class: "tile domino" + (selected ? " selected" : ""), disabled: !can,
        "aria-pressed": selected ? "true" : "false", "aria-label": t("Tile: {tile}", { tile: tileWord(symbols) }), "data-tile": tile }, handBox);
      const art = el("svg", { viewBox: `0 0 ${2 * CELL} ${CELL}`, width: 64, height: 32, "aria-hidden": "true" }, button);
      el("rect", { x: 1, y: 1, width: 2 * CELL - 2, height: CELL - 2, rx: 5, class: "trio-tile" }, art);
      symbols.forEach((name, k) => drawSymbol(art, name, CELL / 2 + k * CELL, CELL / 2));
      if (can) button.addEventListener("click", () => tapTile(choice));
    });
  }

  function tapTile(choice) {
    if (send.busy()) return;
    page.haptic("select");
    if (pick && pick.tile === choice.tile) { clearPick(); return; }
    const byPair = new Map();
    choice.places.forEach((place, i) => {
      const key = pairKey(place.a, place.b);
      if (!byPair.has(key)) byPair.set(key, []);
      byPair.get(key).push({ ...place, number: i + 1 });
    });
    pick = { tile: choice.tile, symbols: choice.symbols, byPair, chosen: null };
    refresh();
  }

  function clearPick() { pick = null; refresh(); }

  function tapPlace(options) {
    if (send.busy() || !pick) return;
    page.haptic("light");
    const k = pick.chosen ? options.indexOf(pick.chosen) : -1;
    pick.chosen = options[(k + 1) % options.length]; // a second tap lays it the other way round
    refresh();
  }

  function drawPlaces() {
    layers.places.replaceChildren();
    layers.ghost.replaceChildren();
    if (!pick) return;
    for (const options of pick.byPair.values()) {
      const [a, b] = [at(options[0].a), at(options[0].b)];
      const cx = (a[0] + b[0]) / 2 + CELL / 2;
      const cy = (a[1] + b[1]) / 2 + CELL / 2;
      const chosenHere = pick.chosen && options.includes(pick.chosen);
      const g = el("g", { class: "place" + (chosenHere ? " chosen" : "") }, layers.places);
      el("circle", { cx, cy, r: 8.5, class: "place-mark" }, g);
      el("text", { x: cx, y: cy + 3.2, "text-anchor": "middle", class: "place-no" }, g).textContent = String(options[0].number);
      pressable(g, t("Place {k}", { k: options[0].number }), () => tapPlace(options));
    }
    if (!pick.chosen) return;
    const p = pick.chosen;
    const [a, b] = [at(p.a), at(p.b)];
    el("rect", { x: Math.min(a[0], b[0]) + 1.5, y: Math.min(a[1], b[1]) + 1.5, width: Math.abs(a[0] - b[0]) + CELL - 3,
      height: Math.abs(a[1] - b[1]) + CELL - 3, rx: 5, class: "trio-tile ghost-tile" }, layers.ghost);
    drawSymbol(layers.ghost, pick.symbols[0], a[0] + CELL / 2, a[1] + CELL / 2);
    drawSymbol(layers.ghost, pick.symbols[1], b[0] + CELL / 2, b[1] + CELL / 2);
    for (const run of p.sets) {
      const ends = [at(run[0]), at(run[run.length - 1])];
      el("line", { x1: ends[0][0] + CELL / 2, y1: ends[0][1] + CELL / 2, x2: ends[1][0] + CELL / 2, y2: ends[1][1] + CELL / 2, class: "set-line" }, layers.ghost);
    }
  }

  function refresh() {
    const v = game.view;
    drawHand(v);
    drawPlaces();
    actions.replaceChildren();
    preview.textContent = "";
    hint.textContent = "";
    page.main.hide();
    if (!game.my_turn || !game.play) { page.back.hide(); return; }
    const face = t(v.die);
    if (!pick) {
      hint.textContent = game.play.tiles.some((x) => x.places.length)
        ? t("The die shows {face}: lay a tile touching a ringed symbol so that it forms a set. Tap a tile.", { face })
        : t("You cannot lay any tile: one is drawn for you.");
      page.back.hide();
      return;
    }
    page.back.show(clearPick);
    if (!pick.chosen) { hint.textContent = t("Tap a numbered mark: the tile goes on the two cells beside it."); return; }
    const p = pick.chosen;
    const options = pick.byPair.get(pairKey(p.a, p.b));
    if (options.length > 1) {
      const turn = html("button", { type: "button", class: "act", "data-act": "turn" }, actions, "↻ " + t("Turn"));
      turn.addEventListener("click", () => tapPlace(options));
    }
    const sets = p.sets.length;
    let text = t("Place {k}: {tile}.", { k: p.number, tile: tileWord(pick.symbols) }) + " " + t("Sets formed: {n}.", { n: sets });
    if (p.wins) text += " " + t("Your last tile: you win!");
    preview.textContent = text;
    const code = p.code;
    page.main.show(`✅ ${t("Lay it")}`, () => send(game, code));
  }


  function update(next) {
    const turned = !game || next.version !== game.version;
    game = next;
    const v = game.view;
    if (!v) return;
    if (turned) pick = null;
    const current = v.over ? null : v.current;
    status(page, game, current, [t("reserve: {n}", { n: v.pool })]);
    if (!bounds || String(bounds) !== String(v.bounds)) newBoard(v);
    drawTiles(v);
    die.replaceChildren();
    if (!v.over) {
      html("span", { class: "hint-inline" }, die, t("The die:") + " ");
      const art = el("svg", { viewBox: "-10 -10 20 20", width: 22, height: 22, class: "chip", "aria-hidden": "true" }, die);
      if (["red", "blue", "yellow"].includes(v.die)) el("rect", { x: -9, y: -9, width: 18, height: 18, rx: 4, fill: COLOURS[v.die] }, art);
      else shape(art, v.die, 0, 0, 8, { fill: "#555" });
      html("b", {}, die, " " + t(v.die));
    }
    parts.players.replaceChildren();
    v.hand_sizes.forEach((n, seat) => {
      const card = playerCard(parts.players, t, game, seat, current);
      html("span", {}, card, t("tiles in hand: {n}", { n }));
      if (v.hands_symbols) html("p", { class: "hint-inline" }, card, v.hands_symbols[seat].map(tileWord).join("; "));
    });
    story(parts.story, game, v.over && v.outcome ? v.outcome.places : null);
    refresh();
  }

  return { update };
}
