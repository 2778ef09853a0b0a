// Totally Genial (lucky) on the page: the centre, the tokens drawn this turn, the reserve
// and the goal as on the table picture; every player's collection against the goal, the weakest
// colour underlined (and said what it means); on the player's turn three big controls, each one
// tap: Draw (with the chance that the token matches), Bank (with what it brings) and Take (the
// move instead of drawing). A bonus turn says so. The server says which are allowed and what
// Bank and Take would bring.

import { COLOURS, chip, html } from "../svg.js";
import { frame, mover, playerCard, status, story } from "./common.js";

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);
  parts.players.classList.add("wide"); // six colours a player: a row each
  const bonus = html("p", { class: "bonus-line", hidden: true });
  parts.wrap.insertBefore(bonus, parts.board);
  const controls = html("div", { class: "big-actions", role: "group" });
  parts.wrap.insertBefore(controls, parts.players);
  const legend = html("p", { class: "hint-inline legend" });
  parts.wrap.insertBefore(legend, parts.story);
  let game = null;
  const send = mover(page, (next) => update(next));

  const tokens = (counts) => Object.entries(counts).map(([c, n]) => `${t(c)} ×${n}`).join(", ");

  function bigButton(kind, label, detail, code, colour = null) {
    const button = html("button", { type: "button", class: `big ${kind}`, "data-act": kind }, controls);
    if (colour) button.appendChild(chip(colour, 28));
    html("span", { class: "big-label" }, button, label);
    if (detail) html("span", { class: "big-detail" }, button, detail);
    button.setAttribute("aria-label", detail ? `${label}: ${detail}` : label);
    button.addEventListener("click", () => act(code));
  }

  function drawControls() {
    controls.replaceChildren();
    const choices = game.my_turn && game.play;
    controls.hidden = !choices;
    if (!choices) return;
    const { draw, bank, take } = game.play;
    if (draw) {
      const chance = draw.chance === null ? "" : t("a match: {p} %", { p: draw.chance });
      bigButton("draw", "🎲 " + t("Draw"), chance, draw.code);
    }
    if (bank) {
      let detail = t("you get {tokens}", { tokens: tokens(bank.gains) });
      if (Object.keys(bank.back).length) detail += "; " + t("over the goal, back to the reserve: {tokens}", { tokens: tokens(bank.back) });
      if (bank.wins) detail += "; " + t("and you win!");
      else if (bank.bonus) detail += "; " + t("bonus turns: {n}", { n: bank.bonus });
      bigButton("bank", "💰 " + t("Bank"), detail, bank.code);
    }
    if (take) {
      const colour = Object.keys(take.gains)[0];
      let detail = t("one token from the centre, instead of drawing");
      if (take.wins) detail += "; " + t("and you win!");
      else if (take.bonus) detail += "; " + t("bonus turns: {n}", { n: take.bonus });
      bigButton("take", "✋ " + t("Take {colour}", { colour: t(colour) }), detail, take.code, colour);
    }
  }

  function act(code) {
    page.haptic("light");
    send(game, code);
  }

  function drawCentre(v) {
    parts.board.replaceChildren();
    const head = html("div", { class: "row spread" }, parts.board);
    html("h3", {}, head, t("Centre"));
    html("span", { class: "hint-inline" }, head, `${t("reserve: {n}", { n: v.reserve })} · ${t("goal: {n} of each colour", { n: v.target })}`);
    const centre = html("div", { class: "row centre", role: "list" }, parts.board);
    for (const colour of v.colours) {
      if (!v.centre[colour]) continue;
      const box = html("span", { class: "count", role: "listitem", "aria-label": `${t(colour)}: ${v.centre[colour]}` }, centre);
      box.appendChild(chip(colour, 30));
      html("b", {}, box, `×${v.centre[colour]}`);
    }
    if (!v.centre_total) html("span", { class: "hint-inline" }, centre, t("empty"));
    const zone = html("div", { class: "row zone" }, parts.board);
    html("span", { class: "hint-inline" }, zone, t("Zone:"));
    if (!v.zone.length) html("span", { class: "hint-inline" }, zone, "—");
    for (const colour of v.zone) zone.appendChild(chip(colour, 30));
  }

  function drawCollections(v) {
    parts.players.replaceChildren();
    v.collections.forEach((collection, seat) => {
      const card = playerCard(parts.players, t, game, seat, v.current);
      const row = html("div", { class: "values" }, card);
      for (const colour of v.colours) {
        const done = collection[colour] >= v.target;
        const cell = html("span", { class: "value" + (v.weakest[seat].includes(colour) && !done ? " low" : "") + (done ? " done" : ""),
          title: t(colour) }, row);
        cell.appendChild(chip(colour, 16));
        html("b", {}, cell, String(collection[colour]) + (done ? "✓" : ""));
        const bar = html("i", { class: "bar" }, cell);
        bar.style.width = `${Math.round((100 * collection[colour]) / v.target)}%`;
        bar.style.background = COLOURS[colour];
      }
    });
    legend.textContent = t("Underlined: each player's weakest colour; places go by it. ✓: the goal reached.");
  }

  function update(next) {
    game = next;
    const v = game.view;
    if (!v) return;
    status(page, game, v.current);
    bonus.hidden = !(v.bonus || v.bonus_pending) || v.over;
    bonus.textContent = v.bonus ? "🎉 " + t("Bonus turn!") + (v.bonus_pending ? " " + t("More bonus turns after it: {n}", { n: v.bonus_pending }) : "")
      : (v.bonus_pending ? "🎉 " + t("Bonus turns to come: {n}", { n: v.bonus_pending }) : "");
    drawCentre(v);
    drawControls();
    drawCollections(v);
    story(parts.story, game, v.over ? v.places : null);
  }

  return { update };
}
