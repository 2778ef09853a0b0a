// The cones game on the page: the piles as they stand (each a button: its base, its chips, its
// number), the player's chips; tap a chip, the piles where it may go light up; tap a pile, the
// page says what the move does (a base covered, the pile turned, two chips leaving the game) and
// what it does to the piles of the player's secret goal; ✅ plays it. The goal shows only on its
// owner's page (the server sends it to nobody else); the lobby's rule variants are said under the
// piles, and a pile the variant closes this turn is marked. Goals are revealed at the end.

import { COLOURS, SHAPES, chip, el, html, shape } from "../svg.js";
import { count, frame, mover, playerCard, status, story, variants } from "./common.js";

const W = 40;
const H = 52;
const SHOWN_CHIPS = 4; // chips drawn on a pile (its count says how many)

export function mount(root, page) {
  const { t } = page;
  const parts = frame(root);
  const goal = html("p", { class: "goal", hidden: true }, parts.board);
  const grid = html("div", { class: "piles", role: "group" }, parts.board);
  const counts = html("div", { class: "row" }, parts.board);
  const rules = html("div", {}, parts.board);
  const entry = html("div", { class: "entry" }, parts.wrap);
  parts.wrap.insertBefore(entry, parts.players);
  const hint = html("p", { class: "hint" }, entry);
  const chipsRow = html("div", { class: "chips", role: "group" }, entry);
  const preview = html("p", { class: "preview-line" }, entry);

  let game = null;
  let chosen = null; // {colour, pile: entry of play.chips[].piles or null}
  const send = mover(page, (next) => update(next));

  const colourWord = (c) => t(c);

  function pileName(pile, v) {
    let text = `${t("Pile {n}", { n: pile.number })}: ` + (pile.chips.length
      ? t("{top} on top, {base} base, {n} chips", { top: colourWord(pile.top), base: colourWord(pile.base), n: pile.height })
      : t("bare {base} base", { base: colourWord(pile.base) }));
    if (pile.number === v.blocked_pile) text += `, ${t("closed this turn")}`;
    return text;
  }

  function drawPile(button, pile, v) {
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "pile-art", "aria-hidden": "true" }, button);
    el("rect", { x: 3, y: H - 13, width: W - 6, height: 10, rx: 3, fill: COLOURS[pile.base], stroke: "#222", "stroke-width": 0.6 }, svg);
    shape(svg, SHAPES[pile.base], W / 2, H - 8, 3.6, { fill: "#fff" });
    const shown = pile.chips.slice(-SHOWN_CHIPS);
    shown.forEach((colour, k) => {
      const y = H - 18 - k * 6;
      el("ellipse", { cx: W / 2, cy: y, rx: 11, ry: 3.6, fill: COLOURS[colour], stroke: "#222", "stroke-width": 0.5 }, svg);
    });
    const topY = pile.chips.length ? H - 18 - (shown.length - 1) * 6 - 9 : H - 22;
    shape(svg, SHAPES[pile.top], W / 2, topY, 5.2, { fill: COLOURS[pile.top], stroke: "#222", width: 0.6 });
    el("text", { x: 4, y: 9, class: "pile-no" }, svg).textContent = String(pile.number);
    if (pile.height) el("text", { x: W - 3, y: 9, "text-anchor": "end", class: "pile-h" }, svg).textContent = `×${pile.height}`;
    if (pile.number === v.blocked_pile) html("span", { class: "blocked", "aria-hidden": "true" }, button, "🚫");
  }

  function legalPiles() {
    if (!chosen) return new Map();
    const entryOf = game.play.chips.find((c) => c.colour === chosen.colour);
    return new Map((entryOf ? entryOf.piles : []).map((p) => [p.pile, p]));
  }

  function drawPiles(v) {
    grid.replaceChildren();
    grid.classList.toggle("choosing", Boolean(chosen));
    const lit = legalPiles();
    for (const pile of v.piles) {
      const move = lit.get(pile.number);
      const picked = chosen && chosen.pile && chosen.pile.pile === pile.number;
      const button = html("button", {
        type: "button", class: "pile" + (move ? " lit" : "") + (picked ? " picked" : "") + (pile.number === v.last_pile ? " last" : ""),
        "aria-label": pileName(pile, v), "aria-pressed": picked ? "true" : "false", disabled: !move,
        "data-pile": pile.number,
      }, grid);
      drawPile(button, pile, v);
      if (move) button.addEventListener("click", () => tapPile(move));
    }
  }

  function drawChips(v) {
    chipsRow.replaceChildren();
    if (!game.my_turn || !game.play) { chipsRow.hidden = true; return; }
    chipsRow.hidden = false;
    for (const c of game.play.chips) {
      const picked = chosen && chosen.colour === c.colour;
      const button = html("button", {
        type: "button", class: "chip-button" + (picked ? " selected" : ""), "aria-pressed": picked ? "true" : "false",
        "aria-label": t("Chip: {colour}, {n} left", { colour: colourWord(c.colour), n: c.count }), "data-colour": c.colour,
      }, chipsRow);
      button.appendChild(chip(c.colour, 26));
      html("b", {}, button, `×${c.count}`);
      button.addEventListener("click", () => tapChip(c.colour));
    }
  }

  // What the chosen move does, in words: to the pile, and to the piles of the player's goal.
  function effect(move, v) {
    const c = colourWord(chosen.colour);
    let text;
    if (move.result === "covered_base") text = t("it covers the {base} base and the pile becomes {colour}.", { base: colourWord(move.before), colour: c });
    else if (move.result === "recoloured") text = t("the pile turns from {before} to {colour}.", { before: colourWord(move.before), colour: c });
    else text = t("both {colour} chips leave the game and the pile is {after} again.", { colour: c, after: colourWord(move.after) });
    const head = t("{colour} on pile {pile}:", { colour: c, pile: move.pile });
    let line = `${head.charAt(0).toUpperCase()}${head.slice(1)} ${text}`;
    if (v.goal && move.before !== move.after && (move.before === v.goal || move.after === v.goal)) {
      const now = v.piles_by_colour[v.goal];
      const then = now + (move.after === v.goal ? 1 : 0) - (move.before === v.goal ? 1 : 0);
      line += " " + t("Piles of your goal colour: {now} → {then}.", { now, then });
    }
    return line;
  }

  function refresh() {
    const v = game.view;
    drawPiles(v);
    drawChips(v);
    preview.textContent = "";
    hint.textContent = "";
    page.main.hide();
    if (!game.my_turn || !game.play) { page.back.hide(); return; }
    if (!chosen) { hint.textContent = t("Tap a chip, then a pile."); page.back.hide(); return; }
    page.back.show(() => { chosen = null; refresh(); });
    if (!chosen.pile) { hint.textContent = t("Tap a lit pile."); return; }
    preview.textContent = effect(chosen.pile, v);
    const code = chosen.pile.code;
    page.main.show(`✅ ${t("Play")}`, () => send(game, code));
  }

  function tapChip(colour) {
    if (send.busy()) return;
    page.haptic("select");
    chosen = chosen && chosen.colour === colour ? null : { colour, pile: null };
    refresh();
  }

  function tapPile(move) {
    if (send.busy() || !chosen) return;
    page.haptic("light");
    chosen.pile = move;
    refresh();
  }


  function update(next) {
    const turned = !game || next.version !== game.version;
    game = next;
    const v = game.view;
    if (!v) return;
    if (turned) chosen = null;
    const current = v.over ? null : v.to_move;
    status(page, game, current, [t("chips left: {n}", { n: v.supply_left.reduce((a, b) => a + b, 0) })]);
    goal.hidden = !v.goal;
    if (v.goal) {
      goal.replaceChildren();
      html("span", {}, goal, "🔒 " + t("Your secret goal:") + " ");
      goal.appendChild(chip(v.goal, 20));
      html("b", {}, goal, ` ${colourWord(v.goal)}`);
      html("span", { class: "hint-inline" }, goal, " · " + t("piles of it now: {n}", { n: v.piles_by_colour[v.goal] }));
    }
    counts.replaceChildren();
    html("span", { class: "hint-inline" }, counts, t("Piles per colour:"));
    for (const colour of v.colours) count(counts, chip(colour, 18), v.piles_by_colour[colour]);
    rules.replaceChildren();
    variants(rules, t, game);
    parts.players.replaceChildren();
    v.supplies.forEach((supply, seat) => {
      const card = playerCard(parts.players, t, game, seat, current);
      const row = html("div", { class: "row" }, card);
      for (const colour of v.colours) count(row, chip(colour, 18), supply[colour]);
      html("span", { class: "hint-inline" }, row, t("chips left: {n}", { n: v.supply_left[seat] }));
      if (v.goals) {
        const line = html("div", { class: "row" }, card);
        html("span", { class: "hint-inline" }, line, t("goal:"));
        count(line, chip(v.goals[seat], 18), t("{n} piles", { n: v.scores[seat].piles }));
      }
    });
    story(parts.story, game, v.over ? v.places : null);
    refresh();
  }

  return { update };
}
