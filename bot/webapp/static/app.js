// The Mini App: who opened it (Telegram's signed initData), which game, and keeping that game's
// board live. The server says which games there are (/api/me: the registry's list); each game's
// board is a module of its own, boards/<game>.js (mount(root, page) → update). A game still in
// its lobby shows who sits there and a Join button where the person may join.

import { Api, wordsIn } from "./api.js";
import { html } from "./svg.js";
import { setWords, t, wordsOf } from "./i18n.js";

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
  if (document.body.dataset.ready) return;
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

// A link the bot gave (the private chat, to join a game with a secret): through Telegram.
function openLink(url) {
  if (tg && offers(tg, "openTelegramLink") && url.startsWith("https://t.me/")) tg.openTelegramLink(url);
  else window.open(url, "_blank", "noopener");
}

function wantedGame() {
  // A group table's link: "<game>-<tag>" (the tag lets a watcher in; the server checks it).
  const start = tg && tg.initDataUnsafe ? tg.initDataUnsafe.start_param : null;
  if (start) return start.split("-")[0];
  return new URLSearchParams(location.search).get("game");
}

let kinds = new Map(); // the games there are, by id (the server's list)
let telegramLang = "en"; // the language Telegram says the person uses, until /me says which the bot uses

async function showList(api, games) {
  root.replaceChildren();
  statusLine.textContent = t("Your games");
  if (!games.length) { say(t("You have no running game. Start one in a group with /new.")); return; }
  const list = html("ul", { class: "games" }, root);
  for (const game of games) {
    const item = html("li", {}, list);
    const button = html("button", { type: "button", class: "game-link" }, item);
    const kind = kinds.get(game.kind);
    html("b", {}, button, `${kind ? kind.sign + " " : ""}${game.title}`);
    const waiting = game.status === "lobby" ? ` · ${t("not started yet")}` : "";
    html("span", {}, button, " · " + game.names.join(", ") + waiting);
    button.addEventListener("click", () => openGame(api, game.id, true));
  }
}

let running = 0; // the live loop of the game on screen (a new game stops the old one)

// What shows one game: its lobby until it starts, then its board (mounted once).
function screen(api) {
  let mounted = null;
  let lobby = null;
  return {
    async update(game) {
      if (!game.view && game.status !== "lobby") { // closed before it started
        root.replaceChildren();
        statusLine.textContent = game.title;
        say(t("This game was cancelled before it started."));
      } else if (game.status === "lobby") {
        if (!lobby) { // rare: loaded when needed
          const { showLobby } = await import("./lobby.js");
          root.replaceChildren();
          lobby = showLobby(root, pageFor(api, game.kind));
        }
        lobby.update(game);
      } else {
        if (!mounted) {
          if (!kinds.has(game.kind)) return;
          const module = await import(`./boards/${game.kind}.js`);
          root.replaceChildren();
          lobby = null;
          mounted = module.mount(root, pageFor(api, game.kind));
        }
        mounted.update(game);
      }
      mark(game);
    },
  };
}

// Which state the page shows, on <body> (tests and the bench wait on it): set wherever a game is
// drawn, the answer to a move included, so that it never lags behind what the board shows.
function mark(game) {
  document.body.dataset.turn = String(game.turn);
  document.body.dataset.version = String(game.version);
  document.body.dataset.status = game.status;
}

function pageFor(api, kind) {
  return { api, t: wordsOf(kind), haptic, say, mark, status: statusLine, main: controls.main, back: controls.back, tg, openLink };
}

async function openGame(api, id, fromList, asked = null) {
  const mine = ++running;
  root.replaceChildren();
  say("");
  controls.main.hide();
  const first = await (asked || api.game(id));
  if (first.status === 401) { say(t("This page has expired: open it again from the chat.")); return; }
  if (first.status !== 200) { // a link to someone else's game (or one long gone): the person's own games
    const me = await api.me();
    if (me.status === 200 && me.data.games.length) await showList(api, me.data.games);
    say(t("This game is not yours to see."));
    usable();
    return;
  }
  const shown = screen(api);
  await shown.update(first.data);
  usable();
  if (fromList) controls.back.home(() => { running++; controls.main.hide(); controls.back.home(null); start(api); });
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
    if (answer.status === 200) { etag = answer.etag; say(""); await shown.update(answer.data); }
    else if (answer.status === 304) continue;
    else if (answer.status === 401) { say(t("This page has expired: open it again from the chat.")); return; }
    else await sleep(2000);
  }
}

async function start(api) {
  const wanted = wantedGame();
  const asked = wanted ? api.game(wanted) : null; // asked for beside /me: the board comes sooner
  const me = await api.me();
  if (me.status !== 200) {
    const words = await wordsIn(telegramLang);
    if (words) setWords(words.lang, words.words);
    say(t(me.status === 401 ? "This page has expired: open it again from the chat." : "No connection, trying again…"));
    return;
  }
  setWords(me.data.user.lang, me.data.words);
  kinds = new Map(me.data.kinds.map((kind) => [kind.id, kind]));
  if (wanted) return openGame(api, wanted, false, asked);
  if (me.data.games.length === 1) return openGame(api, me.data.games[0].id, false);
  await showList(api, me.data.games);
  usable();
}

function main() {
  if (tg) {
    if (offers(tg, "ready")) tg.ready();
    if (offers(tg, "expand")) tg.expand();
    telegramLang = (tg.initDataUnsafe && tg.initDataUnsafe.user && tg.initDataUnsafe.user.language_code) || "en";
  }
  const initData = tg ? tg.initData : "";
  if (!initData) { say(t("Open this page from Telegram.")); return; }
  start(new Api(initData));
}

main();
