// A game still in its lobby: it says so (how many sit there, how many it takes, who hosts), and
// offers Join where the person may join, through the same door as the lobby's ✋ Join (the
// server answers; a game with secrets may ask to open the private chat with the bot first).

import { html } from "./svg.js";

export function showLobby(root, page) {
  const { t } = page;
  const box = html("div", { class: "panel lobby" }, root);
  const line = html("p", { class: "lobby-line" }, box);
  const who = html("p", { class: "hint-inline" }, box);
  const actions = html("div", { class: "actions" }, box);
  let game = null;
  let busy = false;

  async function join() {
    if (busy) return;
    busy = true;
    try {
      const answer = await page.api.join(game.id);
      if (answer.data && answer.data.game) update(answer.data.game);
      const text = answer.data && (answer.data.text || answer.data.error);
      page.say(text || "");
      if (answer.data && answer.data.url) {
        const open = html("button", { type: "button", class: "act" }, actions, "💬 " + t("Open the private chat"));
        open.addEventListener("click", () => page.openLink(answer.data.url));
      }
      page.haptic(answer.status === 200 ? "success" : "error");
    } finally {
      busy = false;
    }
  }

  function update(next) {
    game = next;
    const lobby = game.lobby;
    page.status.textContent = `${game.title} · ${t("not started yet")}`;
    line.textContent = t("This game has not started yet: {n} of {min}–{max} players.",
      { n: lobby.seats, min: lobby.min, max: lobby.max });
    who.textContent = t("At the table: {names}", { names: game.names.join(", ") });
    actions.replaceChildren();
    if (lobby.can_join) {
      const button = html("button", { type: "button", class: "act big" }, actions, "✋ " + t("Join"));
      button.addEventListener("click", join);
    } else if (lobby.joined) {
      html("p", { class: "hint-inline" }, actions, t("You are in: the game starts when the host taps Start."));
    } else {
      html("p", { class: "hint-inline" }, actions, t("The game is full."));
    }
  }

  return { update };
}
