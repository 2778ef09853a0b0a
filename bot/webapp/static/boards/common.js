// What every board shares: the status line (the game, whose turn, watching), a player's card
// (their name, "you" for the person's own), the last moves as the table's caption tells them, the
// places at the end, the rule variants switched on in the lobby, a move sent through the door,
// and SVG shapes that act as buttons (a role, a name a screen reader says, Enter and Space).

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

// A seat's name as the person reads it: their own seat says so in words (a symbol such as ★
// is also a colour's shape on these boards).
export function whoIs(t, game, seat) {
  return name(game, seat) + (seat === game.seat ? ` (${t("you")})` : "");
}

export function status(page, game, current, extra = []) {
  const { t } = page;
  const parts = [];
  if (game.seat === null) parts.push(t("Watching"));
  if (game.status !== "running") parts.push(t("Game over."));
  else if (game.my_turn) parts.push(t("Your turn!"));
  else if (current !== null && current !== undefined) parts.push(t("Now: {name}", { name: name(game, current) }));
  page.status.textContent = [game.title, ...parts, ...extra].join(" · ");
}

export function story(list, game, places, detail = () => "") {
  list.replaceChildren();
  for (const line of (game.story || []).slice(-3)) html("li", {}, list, line);
  if (!places) return;
  const order = game.names.map((_, s) => s).sort((a, b) => places[a] - places[b]);
  for (const s of order) html("li", { class: "result" }, list, `${MEDALS[places[s] - 1] || places[s] + "."} ${name(game, s)}${detail(s)}`);
}

export function playerCard(parent, t, game, seat, current) {
  const card = html("div", { class: "panel player" + (seat === current ? " now" : "") + (seat === game.seat ? " mine" : "") }, parent);
  html("h3", {}, card, (seat === current ? "▶ " : "") + whoIs(t, game, seat));
  return card;
}

export function count(parent, chipNode, value) {
  const box = html("span", { class: "count" }, parent);
  box.appendChild(chipNode);
  html("b", {}, box, String(value));
  return box;
}

// The lobby's rule variants that are on, as the lobby words them (the server's words).
export function variants(parent, t, game) {
  if (!game.variants || !game.variants.length) return;
  const line = html("p", { class: "variants hint-inline" }, parent);
  line.textContent = `${t("Rules:")} ${game.variants.map((v) => v.hint ? `${v.label} (${v.hint})` : v.label).join("; ")}`;
}

// An SVG shape that chooses something: a button to a screen reader and to a keyboard.
export function pressable(node, label, onTap) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", onTap);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTap(e); }
  });
  return node;
}

// Moves through the door: the same {turn, action} a button sends, one at a time (taps while a
// move is on its way choose nothing). The answer's game (the new one, or the same with the
// reason in words when the door refused) is shown at once.
export function mover(page, show) {
  let busy = false;
  const send = async (game, code) => {
    if (busy) return;
    busy = true;
    try {
      const answer = await page.api.move(game.id, game.turn, code);
      if (answer.data && answer.data.game) { show(answer.data.game); page.mark(answer.data.game); }
      if (answer.status === 200) { page.haptic("success"); page.say(""); return; }
      page.haptic("error");
      page.say((answer.data && (answer.data.text || answer.data.error)) || "");
    } finally {
      busy = false;
    }
  };
  send.busy = () => busy;
  return send;
}
