// Trio, read-only: the tiles on the table (each symbol a coloured shape), the last tile rimmed,
// the die, the pool and how many tiles each player holds. Hands stay secret.

import { COLOURS, el, html, shape } from "../svg.js";
import { frame, playerCard, status, story } from "./common.js";

const CELL = 30;

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);

  function drawTable(v) {
    const [x0, y0, x1, y1] = v.bounds || [0, 0, 0, 0];
    const w = (x1 - x0 + 3) * CELL;
    const h = (y1 - y0 + 3) * CELL;
    const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: "sheet trio", role: "img" }, parts.board);
    const at = (x, y) => [(x - x0 + 1) * CELL, (y - y0 + 1) * CELL];
    for (const tile of v.tiles) {
      const [a, b] = tile.cells.map(([x, y]) => at(x, y));
      const left = Math.min(a[0], b[0]);
      const top = Math.min(a[1], b[1]);
      el("rect", { x: left + 1, y: top + 1, width: Math.abs(a[0] - b[0]) + CELL - 2, height: Math.abs(a[1] - b[1]) + CELL - 2, rx: 5, class: "trio-tile" }, svg);
    }
    for (const [x, y, symbol] of v.cells) {
      const [colour, form] = symbol.split("-");
      const [px, py] = at(x, y);
      shape(svg, form, px + CELL / 2, py + CELL / 2, CELL * 0.32, { fill: COLOURS[colour] || "#888", stroke: "#222", width: 0.8 });
    }
    if (v.last) {
      const [a, b] = v.last.cells.map(([x, y]) => at(x, y));
      el("rect", { x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), width: Math.abs(a[0] - b[0]) + CELL, height: Math.abs(a[1] - b[1]) + CELL, rx: 6, fill: "none", stroke: "#ff9600", "stroke-width": 3 }, svg);
    }
  }

  function update(game) {
    const v = game.view;
    if (!v) return;
    const current = v.over ? null : v.current;
    status(page, game, current, [t("pool: {n}", { n: v.pool })]);
    parts.board.replaceChildren();
    drawTable(v);
    if (v.die) html("p", { class: "die" }, parts.board, `${t("die")}: ${t(v.die)}`);
    parts.players.replaceChildren();
    v.hand_sizes.forEach((n, seat) => {
      const card = playerCard(parts.players, game, seat, current);
      html("span", {}, card, t("hand: {n}", { n }));
    });
    story(parts.story, game, v.over && v.outcome ? v.outcome.places : null);
  }

  return { update };
}
