// Sticks on the page: the sticks left, each player's card, and on your turn a big button per take.

import { html } from "../svg.js";
import { frame, mover, playerCard, status, story } from "./common.js";

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);
  const controls = html("div", { class: "big-actions", role: "group" });
  parts.wrap.insertBefore(controls, parts.players);
  let game = null;
  const send = mover(page, (next) => update(next));

  function update(next) {
    game = next;
    const v = game.view;
    if (!v) return;
    status(page, game, v.to_move);
    parts.board.replaceChildren();
    html("h3", {}, parts.board, t("Sticks left: {n}", { n: v.left }));
    html("p", { class: "sticks", "aria-hidden": "true" }, parts.board, "|".repeat(v.left));
    controls.replaceChildren();
    const choices = game.my_turn && game.play;
    controls.hidden = !choices;
    for (const take of choices ? game.play.takes : []) {
      const label = t("Take {n}", { n: take.count }) + (take.wins ? " 🏆" : "");
      const button = html("button", { type: "button", class: "big", "data-act": take.code }, controls, label);
      button.addEventListener("click", () => { page.haptic("light"); send(game, take.code); });
    }
    parts.players.replaceChildren();
    v.taken.forEach((n, seat) => html("p", {}, playerCard(parts.players, t, game, seat, v.to_move), String(n)));
    story(parts.story, game, v.over ? v.places : null);
  }

  return { update };
}
