// «Совершенно гениально» (lucky), read-only: the centre, the tokens drawn this turn, the reserve,
// every player's collection against the target and their weakest colour.

import { COLOURS, chip, html } from "../svg.js";
import { count, frame, playerCard, status, story } from "./common.js";

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);
  parts.players.classList.add("wide"); // six colours a player: a row each

  function update(game) {
    const v = game.view;
    if (!v) return;
    status(page, game, v.current, [t("target: {n}", { n: v.target }), t("reserve: {n}", { n: v.reserve })]);
    parts.board.replaceChildren();
    html("h3", {}, parts.board, t("centre"));
    const centre = html("div", { class: "row centre" }, parts.board);
    for (const colour of v.colours) if (v.centre[colour]) count(centre, chip(colour, 26), v.centre[colour]);
    if (v.zone.length) {
      const zone = html("div", { class: "row zone" }, parts.board);
      html("span", {}, zone, "→");
      for (const colour of v.zone) zone.appendChild(chip(colour, 26));
    }
    parts.players.replaceChildren();
    v.collections.forEach((collection, seat) => {
      const card = playerCard(parts.players, game, seat, v.current);
      const row = html("div", { class: "values" }, card);
      for (const colour of v.colours) {
        const cell = html("span", { class: "value" + (v.weakest[seat].includes(colour) ? " low" : "") }, row);
        cell.appendChild(chip(colour, 16));
        html("b", {}, cell, String(collection[colour]));
        const bar = html("i", { class: "bar" }, cell);
        bar.style.width = `${Math.round((100 * collection[colour]) / v.target)}%`;
        bar.style.background = COLOURS[colour];
      }
    });
    story(parts.story, game, v.over ? v.places : null);
  }

  return { update };
}
