"""Talking to the Mini App's API as Telegram's page would: initData signed with the test
bot's token (as Telegram signs it), sent raw in ``Authorization: tma …``."""
from __future__ import annotations

import itertools
import json
import os
import socket
import time
from contextlib import asynccontextmanager
from urllib.parse import quote

import aiohttp

from engines import registry
from engines.base import options_from_dict
from bot.webapp import auth
from tests.bot.harness import BotRunner, button_data, buttons


# Ports for the tests' servers: below Linux's ephemeral range (32768-60999), from which every
# outgoing connection of the machine gets its port. A port the kernel picked (a bind to 0) is
# from that range and, between being picked and being listened on, was once taken by one of the
# tests' own connections (the bot could not listen: "Address already in use"). Each xdist worker
# has a range of its own, so that two workers never choose the same port.
FIRST_PORT, PORTS_PER_WORKER = 20_000, 1_500
_ports_taken = itertools.count()


def free_port() -> int:
    """A port no one listens on, that no connection will be given meanwhile."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0) % 8
    base = FIRST_PORT + worker * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = base + next(_ports_taken) % PORTS_PER_WORKER
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))  # the bot listens on every address
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {base}-{base + PORTS_PER_WORKER - 1}")


@asynccontextmanager
async def bot_with_page(fake, db, **options):
    """The bot running with its Mini App on a free local port; ``runner.base`` is its address."""
    port = free_port()
    runner = BotRunner(fake, db, port=port, webapp_url=f"http://127.0.0.1:{port}", **options)
    await runner.start()
    runner.base = f"http://127.0.0.1:{port}"
    try:
        yield runner
    finally:
        await runner.stop()


def init_data(token: str, user_id: int, first_name: str, *, lang: str = "en", start_param: str | None = None,
              auth_date: float | None = None, photo_url: str | None = None) -> str:
    """A raw initData query string as Telegram builds it: the user as JSON written the way
    Telegram writes it (slashes escaped), URL-encoded."""
    user = {"id": user_id, "first_name": first_name, "language_code": lang, "allows_write_to_pm": True}
    text = json.dumps(user, ensure_ascii=False, separators=(",", ":"))
    if photo_url is not None:
        text = text[:-1] + ',"photo_url":"' + photo_url.replace("/", "\\/") + '"}'
    fields = {"user": text, "auth_date": str(int(auth_date if auth_date is not None else time.time())),
              "query_id": "AAH" + str(user_id)}
    if start_param is not None:
        fields["start_param"] = start_param
    fields["hash"] = auth.sign(fields, token)
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in fields.items())


def forged(raw: str) -> str:
    """The same initData with another hash."""
    head, _, digest = raw.rpartition("hash=")
    return head + "hash=" + ("0" if digest[0] != "0" else "1") + digest[1:]


class PageClient:
    """One person's page: its requests to the API."""

    def __init__(self, base: str, raw_init_data: str | None):
        self.base = base.rstrip("/") + "/app/api"
        self.raw = raw_init_data

    def _headers(self, extra: dict | None = None) -> dict:
        headers = {"Authorization": f"tma {self.raw}"} if self.raw is not None else {}
        return {**headers, **(extra or {})}

    async def get(self, path: str, *, headers: dict | None = None) -> tuple[int, dict | None, str]:
        async with aiohttp.ClientSession() as session:
            async with session.get(self.base + path, headers=self._headers(headers)) as response:
                text = await response.text()
                body = json.loads(text) if text and response.content_type == "application/json" else None
                return response.status, body, response.headers.get("ETag", "")

    async def post(self, path: str, payload) -> tuple[int, dict | None, str]:
        async with aiohttp.ClientSession() as session:
            async with session.post(self.base + path, data=json.dumps(payload), headers=self._headers()) as response:
                text = await response.text()
                body = json.loads(text) if text and response.content_type == "application/json" else None
                return response.status, body, text


# ---- secrets: what each answer to one person may hold ------------------------------------------

# A seat's secret in its own view, by game; the keys that reveal everyone's (only at the end).
SECRET_KEYS = {"genial": ("rack",), "cones": ("goal",), "trio": ("hand", "hand_symbols"), "lucky": ()}
REVEALED_KEYS = ("racks", "goals", "hands", "hands_symbols")


async def states_by_turn(runner, game) -> dict[int, object]:
    """Every engine state the game went through, by turn (replayed from its seed and log)."""
    eng = registry.engine(game.kind)
    seed = (await runner.state(game.id)).seed  # the state's own (a test may have chosen it)
    state = eng.setup(len(game.seats), options_from_dict(eng.Options, game.options), seed)
    states = {eng.turn(state): state}
    for _, seat, code in await runner.store.actions(game.id):
        state, _ = eng.apply(state, seat, eng.decode_action(code))
        states[eng.turn(state)] = state
    return states


def _walk(value, key=None):
    """(key, value) of every entry of a JSON value, nested ones too."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from _walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v, key)


def assert_only_own_secrets(kind: str, bodies, seat: int | None, states: dict) -> int:
    """Each JSON answer (text) one person got holds no other seat's secret: the secret keys of its
    game's view are the person's own seat's at that turn (the engine's own view of it), none
    holds another seat's secret of that turn, the moves offered are made of the person's own
    pieces, and the keys that reveal everyone's appear only once the game is over. How many
    answers held a game view."""
    eng = registry.engine(kind)
    checked = 0
    for body in bodies:
        if not body or not body.lstrip().startswith("{"):
            continue
        data = json.loads(body)
        game = data.get("game", data)
        view = game.get("view") if isinstance(game, dict) else None
        if not view:
            assert not any(k in SECRET_KEYS[kind] + REVEALED_KEYS for k, _ in _walk(data)), body[:200]
            continue
        checked += 1
        state = states[game["turn"]]
        if not view.get("over"):
            assert not any(k in REVEALED_KEYS for k, _ in _walk(view)), body[:200]
        others = [s for s in range(len(game["names"])) if s != seat]
        for key in SECRET_KEYS[kind]:
            if seat is None:
                assert key not in view, body[:200]
                continue
            own = eng.view(state, seat)[key]
            assert view[key] == own, (key, view[key], own)
            for other in others if not view.get("over") else ():  # the end reveals them all
                theirs = eng.view(state, other)[key]
                if theirs != own:
                    assert all(v != theirs for k, v in _walk(data) if k == key), (key, theirs)
        if kind == "trio" and game.get("play"):
            assert {x["tile"] for x in game["play"]["tiles"]} <= set(state.hands[seat])
    return checked


async def start_seeded(fake, runner, chat_id: int, kind: str, people, *, seed: int | None = None, words: str = ""):
    """``/new <kind> <words>`` by the first person, the others Join, and Start, the game's seed
    set first where given (so that a test plays a known, short game): the running game."""
    await people[0].say(chat_id, f"/new {kind} {words}".strip())
    pending = next((g for g in await runner.games() if g.chat_id == chat_id and g.status == "lobby"), None)
    assert pending is not None, fake.last_bot_message(chat_id)
    lobby = fake.message(chat_id, pending.lobby_msg)
    for p in people[1:]:
        await p.press(chat_id, lobby.message_id, button_data(lobby, endswith=":!join"))
    if seed is not None:
        pending.seed = seed  # the book's own record: Start reads it
    await people[0].press(chat_id, lobby.message_id, button_data(lobby, endswith=":!start"))
    await runner.idle(timeout=60)
    return next(g for g in await runner.games() if g.chat_id == chat_id and g.status == "running")


def watch_link(fake, game) -> str:
    """The start parameter of the group table's link to the page (its «🖐 On the board»)."""
    table = fake.message(game.chat_id, game.table_msg)
    (url,) = [b["url"] for b in buttons(table) if "startapp=" in b.get("url", "")]
    return url.split("startapp=", 1)[1]
