// The Mini App: who opened it (Telegram's signed initData), which game, and keeping that game's
// board live. Each game's board is a module of its own in boards/ (mount(root, page) → update).

import { Api } from "./api.js";
import { html } from "./svg.js";
import { setLang, t } from "./i18n.js";

const BOARDS = {
  genial: () => import("./boards/genial.js"),
  lucky: () => import("./boards/lucky.js"),
  cones: () => import("./boards/cones.js"),
  trio: () => import("./boards/trio.js"),
};

const tg = window.Telegram ? window.Telegram.WebApp : null;

// Whether Telegram's object offers these methods (older clients, and stubs, may lack some).
function offers(object, ...methods) {
  return Boolean(object) && methods.every((m) => typeof object[m] === "function");
}
const statusLine = document.getElementById("status");
const root = document.getElementById("game");
const note = document.getElementById("note");

function say(text) {
  note.textContent = text || "";
  note.hidden = !text;
}

function haptic(kind) {
  const h = tg && tg.HapticFeedback;
  if (!offers(h, "selectionChanged", "notificationOccurred", "impactOccurred")) return;
  try {
    if (kind === "select") h.selectionChanged();
    else if (kind === "success" || kind === "error") h.notificationOccurred(kind);
    else h.impactOccurred(kind || "light");
  } catch (_) { /* older clients */ }
}

// The page is usable: tests and the bench wait for this mark (and read how long it took since
// the navigation began).
function usable() {
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "1";
}

function sleep(ms) { return new Promise((done) => setTimeout(done, ms)); }

// Telegram's MainButton where there is one; else a button of our own at the bottom.
function mainButton() {
  const own = html("button", { id: "main", class: "main", type: "button", hidden: true });
  document.body.appendChild(own);
  const tgButton = tg && tg.platform !== "unknown" && offers(tg.MainButton, "setText", "show", "hide", "onClick")
    ? tg.MainButton : null;
  let handler = null;
  if (tgButton) tgButton.onClick(() => handler && handler());
  own.addEventListener("click", () => handler && handler());
  return {
    show(text, onClick) {
      handler = onClick;
      if (tgButton) {
        tgButton.setText(text);
        tgButton.show();
        if (offers(tgButton, "enable")) tgButton.enable();
      } else { own.textContent = text; own.hidden = false; }
    },
    hide() {
      handler = null;
      if (tgButton) tgButton.hide(); else own.hidden = true;
    },
  };
}

// Telegram's BackButton: a board may use it for a while (a tile chosen: back un-chooses it);
// otherwise it leads back to where the page came from (the list of games), if anywhere.
function backButton() {
  const b = tg && offers(tg.BackButton, "show", "hide", "onClick") ? tg.BackButton : null;
  let base = null;
  let handler = null;
  if (b) b.onClick(() => handler && handler());
  const shown = () => { if (b) { if (handler) b.show(); else b.hide(); } };
  return {
    home(onClick) { base = onClick; handler = onClick; shown(); },
    show(onClick) { handler = onClick; shown(); },
    hide() { handler = base; shown(); },
  };
}

// One of each for the page's life (a board that replaces another takes them over).
const controls = { main: mainButton(), back: backButton() };

function wantedGame() {
  // A group table's link: "<game>-<tag>" (the tag lets a watcher in; the server checks it).
  const start = tg && tg.initDataUnsafe ? tg.initDataUnsafe.start_param : null;
  if (start) return start.split("-")[0];
  return new URLSearchParams(location.search).get("game");
}

async function showList(api, games) {
  root.replaceChildren();
  statusLine.textContent = t("Your games");
  if (!games.length) { say(t("You have no running game. Start one in a group with /new.")); return; }
  const list = html("ul", { class: "games" }, root);
  for (const game of games) {
    const item = html("li", {}, list);
    const button = html("button", { type: "button", class: "game-link" }, item);
    html("b", {}, button, game.title);
    html("span", {}, button, " · " + game.names.join(", "));
    button.addEventListener("click", () => openGame(api, game.id, true));
  }
}

let running = 0; // the live loop of the game on screen (a new game stops the old one)

async function openGame(api, id, fromList) {
  const mine = ++running;
  root.replaceChildren();
  say("");
  const first = await api.game(id);
  if (first.status === 401) { say(t("This page has expired: open it again from the chat.")); return; }
  if (first.status !== 200) { // a link to someone else's game (or one long gone): the person's own games
    const me = await api.me();
    if (me.status === 200 && me.data.games.length) await showList(api, me.data.games);
    say(t("This game is not yours to see."));
    usable();
    return;
  }
  const game = first.data;
  const load = BOARDS[game.kind];
  if (!load) return;
  const module = await load();
  controls.main.hide();
  const page = { api, t, haptic, say, status: statusLine, main: controls.main, back: controls.back, tg };
  const mounted = module.mount(root, page);
  const board = {
    update(next) { // what the page shows, for tests and the bench to wait on
      mounted.update(next);
      document.body.dataset.turn = String(next.turn);
      document.body.dataset.version = String(next.version);
    },
  };
  board.update(game);
  usable();
  if (fromList) page.back.home(() => { running++; page.main.hide(); page.back.home(null); start(api); });
  let etag = first.etag;
  while (mine === running) {
    let answer;
    try {
      answer = await api.game(id, etag, true);
    } catch (_) {
      say(t("No connection, trying again…"));
      await sleep(2000);
      continue;
    }
    if (mine !== running) return;
    if (answer.status === 200) { etag = answer.etag; say(""); board.update(answer.data); }
    else if (answer.status === 304) continue;
    else if (answer.status === 401) { say(t("This page has expired: open it again from the chat.")); return; }
    else await sleep(2000);
  }
}

async function start(api) {
  const me = await api.me();
  if (me.status !== 200) {
    say(t(me.status === 401 ? "This page has expired: open it again from the chat." : "No connection, trying again…"));
    return;
  }
  setLang(me.data.user.lang);
  const wanted = wantedGame();
  if (wanted) return openGame(api, wanted, false);
  if (me.data.games.length === 1) return openGame(api, me.data.games[0].id, false);
  await showList(api, me.data.games);
  usable();
}

function main() {
  if (tg) {
    if (offers(tg, "ready")) tg.ready();
    if (offers(tg, "expand")) tg.expand();
    setLang((tg.initDataUnsafe && tg.initDataUnsafe.user && tg.initDataUnsafe.user.language_code) || "en");
  }
  const initData = tg ? tg.initData : "";
  if (!initData) { say(t("Open this page from Telegram.")); return; }
  start(new Api(initData));
}

main();
