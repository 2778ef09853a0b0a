// The cones game, read-only: the sixteen piles (their base colour, the chips on them, the last
// pile played, the one that may not be played), what each player has left to play, and whose
// turn. Goals stay secret until the end, as on the table.

import { COLOURS, SHAPES, chip, el, html, shape } from "../svg.js";
import { count, frame, playerCard, status, story } from "./common.js";

const CELL = 40;

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);

  function drawPiles(v) {
    const cols = 4;
    const rows = Math.ceil(v.piles.length / cols);
    const svg = el("svg", { viewBox: `0 0 ${cols * CELL} ${rows * CELL}`, class: "sheet", role: "img" }, parts.board);
    v.piles.forEach((pile, i) => {
      const x = (i % cols) * CELL + 2;
      const y = Math.floor(i / cols) * CELL + 2;
      const last = pile.number === v.last_pile;
      el("rect", { x, y, width: CELL - 4, height: CELL - 4, rx: 6, fill: COLOURS[pile.base], "fill-opacity": 0.25, stroke: last ? "#ff9600" : COLOURS[pile.base], "stroke-width": last ? 3 : 1.5 }, svg);
      shape(svg, SHAPES[pile.top], x + 12, y + 12, 7, { fill: COLOURS[pile.top], stroke: "#222", width: 0.6 });
      el("text", { x: x + CELL - 9, y: y + 13, "text-anchor": "middle", class: "pile-no" }, svg).textContent = String(pile.number);
      pile.chips.slice(-6).forEach((colour, k) => {
        el("circle", { cx: x + 7 + k * 5, cy: y + CELL - 11, r: 4, fill: COLOURS[colour], stroke: "#222", "stroke-width": 0.5 }, svg);
      });
      if (pile.height) el("text", { x: x + CELL - 9, y: y + CELL - 8, "text-anchor": "middle", class: "pile-h" }, svg).textContent = `×${pile.height}`;
      if (pile.number === v.blocked_pile) el("path", { d: `M${x + 4},${y + 4}L${x + CELL - 8},${y + CELL - 8}`, stroke: "#c00", "stroke-width": 2 }, svg);
    });
  }

  function update(game) {
    const v = game.view;
    if (!v) return;
    const current = v.over ? null : v.to_move;
    status(page, game, current);
    parts.board.replaceChildren();
    drawPiles(v);
    const counts = html("div", { class: "row" }, parts.board);
    html("span", { class: "hint-inline" }, counts, t("Piles per colour:"));
    for (const colour of v.colours) count(counts, chip(colour, 18), v.piles_by_colour[colour]);
    parts.players.replaceChildren();
    v.supplies.forEach((supply, seat) => {
      const card = playerCard(parts.players, game, seat, current);
      const row = html("div", { class: "row" }, card);
      for (const colour of v.colours) count(row, chip(colour, 18), supply[colour]);
      html("span", { class: "hint-inline" }, row, t("chips left: {n}", { n: v.supply_left[seat] }));
    });
    const places = v.outcome ? v.outcome.places : v.places || null;
    story(parts.story, game, v.over ? places : null);
  }

  return { update };
}
