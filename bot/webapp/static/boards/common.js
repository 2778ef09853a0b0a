// What every read-only board shows around its picture: the status line (the game, whose turn,
// watching), the last moves as the table's caption tells them, and the places at the end.

import { html } from "../svg.js";

export const MEDALS = ["🥇", "🥈", "🥉"];

export function frame(root) {
  const wrap = html("div", { class: "readonly" }, root);
  const board = html("div", { class: "panel board-panel" }, wrap);
  const players = html("div", { class: "players" }, wrap);
  const story = html("ul", { class: "story" }, wrap);
  return { wrap, board, players, story };
}

export function name(game, seat) {
  return game.names[seat] + (game.computers[seat] ? " 🤖" : "");
}

export function status(page, game, current, extra = []) {
  const { t } = page;
  const parts = [];
  if (game.seat === null) parts.push(t("Watching"));
  if (game.status !== "running") parts.push(t("Game over."));
  else if (current !== null && current !== undefined) parts.push(t("Now: {name}", { name: name(game, current) }));
  page.status.textContent = [game.title, ...parts, ...extra].join(" · ");
}

export function story(list, game, places) {
  list.replaceChildren();
  for (const line of (game.story || []).slice(-3)) html("li", {}, list, line);
  if (!places) return;
  const order = game.names.map((_, s) => s).sort((a, b) => places[a] - places[b]);
  for (const s of order) html("li", { class: "result" }, list, `${MEDALS[places[s] - 1] || places[s] + "."} ${name(game, s)}`);
}

export function playerCard(parent, game, seat, current) {
  const card = html("div", { class: "panel player" + (seat === current ? " now" : "") + (seat === game.seat ? " mine" : "") }, parent);
  html("h3", {}, card, (seat === current ? "▶ " : "") + name(game, seat));
  return card;
}

export function count(parent, chipNode, value) {
  const box = html("span", { class: "count" }, parent);
  box.appendChild(chipNode);
  html("b", {}, box, String(value));
  return box;
}
