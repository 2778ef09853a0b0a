"""The Mini App's HTTP handlers: who asks (by signature), what they may see, their moves.

Refusals: 401 without a valid signature (missing, forged, expired), 403 for a game the person
neither plays nor was linked to (or a move by someone who does not sit there), 429 past the
rate limit, 409 for a move or a join the door refused (not their turn, an old turn, a full
table: the text says why).
"""
from __future__ import annotations

import json
import logging
import pathlib
import re
import time
from collections import OrderedDict
from typing import Callable

from aiohttp import web
from telegram import User

from engines import registry
from bot.games import kits
from bot.outgoing import keyboard
from bot.outgoing.actions import JOIN
from bot.table.book import GameBook
from bot.updates.context import Where
from bot.updates.door import Door
from bot.table.people import People, Person
from bot.storage.store import from_base36
from bot.words.i18n import normalize_lang
from bot.words.texts import game_name
from bot.webapp import assets, auth, views
from bot.webapp.limits import RateLimit
from bot.webapp.live import Live

log = logging.getLogger(__name__)

STATIC = pathlib.Path(__file__).parent / "static"
WAIT_SECONDS = 25.0  # a live request is answered at the latest after this (proxies cut idle ones at 60)
GAME_ID = re.compile(r"[0-9a-z]{1,12}")
# An engine's action code ("Prbhfig", "b7", "L12r-3,4", "take-red"): never a navigation step
# ("~…"), a pop-up ("?…") or a lobby button ("!…"), which the page does not send as a move.
ACTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9,-]{0,23}")
MAX_BODY = 1024
VIEWS_KEPT = 256  # game views kept, by ETag
# The page may load Telegram's script and nothing else from elsewhere; its one inline script is
# the import map, allowed by its hash.
CSP = ("default-src 'self'; script-src 'self' {import_map} https://telegram.org; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'")


class PageApi:
    def __init__(self, book: GameBook, door: Door, people: People, token: str, *,
                 clock: Callable[[], float] = time.time):
        self.book = book
        self.door = door
        self.people = people
        self._token = token
        self.clock = clock
        self.live = Live()
        self.limits = RateLimit()
        # A game's JSON by ETag: every page on a game wakes on the same move and asks for it.
        self._views: OrderedDict[str, dict] = OrderedDict()
        # The page and its files, hashed and compressed once (bot/webapp/assets.py).
        # The page's own files, and each game's board from its kit (``static/boards/<game>.js``).
        self.assets = assets.Assets(STATIC, extra={f"boards/{kit.id}.js": kit.board for kit in kits()})
        self.csp = CSP.format(import_map=self.assets.script_hash)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=MAX_BODY)
        app.router.add_get("/", self.page)
        app.router.add_get("/static/{path:.+}", self.static)
        app.router.add_get("/words/{lang}", self.words)
        app.router.add_get("/api/me", self.me)
        app.router.add_get("/api/games/{id}", self.game)
        app.router.add_get("/api/games/{id}/ask/{query}", self.ask)
        app.router.add_post("/api/games/{id}/move", self.move)
        app.router.add_post("/api/games/{id}/join", self.join)
        app.on_shutdown.append(self._wake_all)
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler):
        response = await handler(request)
        assets.compress(request, response)  # the JSON shrinks to a third; the files come compressed
        response.headers.setdefault("Content-Security-Policy", self.csp)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    async def _wake_all(self, app: web.Application) -> None:
        self.live.close()

    # ---- who asks ------------------------------------------------------------------------

    async def _person(self, request: web.Request) -> tuple[Person, auth.WebUser]:
        """The signed person of the request (``Authorization: tma <initData>``), or 401 / 429."""
        header = request.headers.get("Authorization", "")
        raw = header[4:] if header.startswith("tma ") else None
        user = auth.check(raw, self._token, self.clock())
        if user is None:
            raise _refuse(web.HTTPUnauthorized, "init data missing, forged or expired")
        if not self.limits.allow(user.id, time.monotonic()):
            raise _refuse(web.HTTPTooManyRequests, "too many requests")
        person = await self.people.person(User(user.id, user.first_name, False, last_name=user.last_name,
                                               username=user.username, language_code=user.language_code))
        return person, user

    async def _match(self, request: web.Request, person: Person, user: auth.WebUser):
        """The game the path names, if this person may look at it: they sit there, or they
        opened the page from the game's link on its group's table (``auth.watch_param``)."""
        short = request.match_info["id"]
        if not GAME_ID.fullmatch(short):
            raise _refuse(web.HTTPNotFound, "no such game")
        match = await self.book.load(from_base36(short))
        if match is None:
            raise _refuse(web.HTTPNotFound, "no such game")
        seat = match.game.seat_of(person.id)
        if seat is None and auth.watched_game(user.start_param, self._token) != short:
            raise _refuse(web.HTTPForbidden, "not your game")
        return match, seat

    # ---- the page ------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        """The page, revalidated on every open: it names its files' hashed URLs."""
        return assets.answer(request, self.assets.page, assets.REVALIDATE)

    async def static(self, request: web.Request) -> web.Response:
        """A module, a style: by its hashed URL, kept by the phone for a year."""
        found = self.assets.find(request.match_info["path"])
        if found is None:
            raise web.HTTPNotFound()
        return assets.answer(request, *found)

    async def me(self, request: web.Request) -> web.Response:
        person, user = await self._person(request)
        games = [_summary(match, person.id, person.lang) for match in await self.book.open_of(person.id)]
        return _json({"user": {"id": person.id, "lang": person.lang}, "start": user.start_param,
                      "kinds": views.games(person.lang), "games": games, "words": views.page_words(person.lang)})

    async def words(self, request: web.Request) -> web.Response:
        """The page's words in a language (a Telegram code: the bot's nearest), for what the page
        says before it knows whose it is, when /api/me cannot answer (a signature expired, the
        database away): the same for everyone, as a static file is, so no signature asked."""
        lang = normalize_lang(request.match_info["lang"])
        return _json({"lang": lang, "words": views.page_words(lang)})

    async def game(self, request: web.Request) -> web.Response:
        person, user = await self._person(request)
        match, seat = await self._match(request, person, user)
        tag = views.etag(match, seat, person.lang)
        if _shows(request, tag):
            if request.query.get("wait") and await self.live.wait(match.id, WAIT_SECONDS):
                match = await self.book.load(match.id) or match
                seat = match.game.seat_of(person.id)  # the change may be this person's Join
                tag = views.etag(match, seat, person.lang)
            if _shows(request, tag):
                return web.Response(status=304, headers={"ETag": tag, "Cache-Control": "no-store"})
        return _json(self._view(match, seat, person.lang, tag), headers={"ETag": tag})

    def _view(self, match, seat: int | None, lang: str, tag: str | None = None) -> dict:
        """``views.game_json``, made once per ETag (which names everything it depends on)."""
        tag = tag or views.etag(match, seat, lang)
        data = self._views.get(tag)
        if data is None:
            data = self._views[tag] = views.game_json(match, seat, lang)
            if len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(tag)
        return data

    async def ask(self, request: web.Request) -> web.Response:
        """What the page may ask a game besides its JSON (its kit's ``page_queries``: the
        placements of an Ingenious tile), for the seat of the person who asks, while it runs."""
        person, user = await self._person(request)
        match, seat = await self._match(request, person, user)
        if seat is None or not match.ui.moves_on_page:
            raise _refuse(web.HTTPForbidden, "not your seat")
        name = request.match_info["query"]
        query = match.kit.page_queries.get(name)
        if query is None:
            raise _refuse(web.HTTPNotFound, "no such question")
        found = query(match.state, seat, request.query) if match.running else None
        return _json({"turn": match.turn, name: found})

    async def move(self, request: web.Request) -> web.Response:
        """A move from the page, through the door (the same checks, commit, table and pings as
        a button press)."""
        person, user = await self._person(request)
        match, seat = await self._match(request, person, user)
        if seat is None or not match.ui.moves_on_page:
            raise _refuse(web.HTTPForbidden, "not your seat")
        try:
            body = json.loads(await request.text())
            turn, action = body["turn"], body["action"]
            if type(turn) is not int or not isinstance(action, str) or not ACTION.fullmatch(action):
                raise ValueError
            data = keyboard.data(match.game.short_id, turn, action)
        except (ValueError, KeyError, TypeError):
            raise _refuse(web.HTTPBadRequest, "a move is {\"turn\": n, \"action\": code}") from None
        answer = await self.door.press(person, Where(None, None, page=True), data)
        match = await self.book.load(match.id) or match
        moved = answer.outcome == "moved"
        return _json({"moved": moved, "text": answer.text, "game": self._view(match, seat, person.lang)},
                     status=200 if moved else 409)

    async def join(self, request: web.Request) -> web.Response:
        """Join from the page a game still in its lobby: the lobby's ✋ Join, through the door
        (its checks, its answer; ``url`` when the person must open the private chat first)."""
        person, user = await self._person(request)
        match, _ = await self._match(request, person, user)
        answer = await self.door.press(person, Where(None, None, page=True),
                                       keyboard.data(match.game.short_id, None, JOIN()))
        match = await self.book.load(match.id) or match
        seat = match.game.seat_of(person.id)
        joined = answer.outcome in ("joined", "already")
        return _json({"joined": joined, "text": answer.text, "url": answer.url,
                      "game": self._view(match, seat, person.lang)}, status=200 if joined else 409)


def _shows(request: web.Request, tag: str) -> bool:
    """The page already shows the game as ``tag`` says (its If-None-Match, compressed or not)."""
    header = request.headers.get("If-None-Match")
    return header is not None and any(assets.plain_tag(t) == tag for t in header.split(","))


def _summary(match, user_id: int, lang: str) -> dict:
    game = match.game
    return {"id": game.short_id, "kind": game.kind, "title": game_name(registry.info(game.kind), lang),
            "status": str(game.status), "seat": game.seat_of(user_id), "turn": match.turn,
            "current": match.current, "names": match.ctx(lang).plain_names}


def _json(data: dict, *, status: int = 200, headers: dict | None = None) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store", **(headers or {})},
                             dumps=lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":")))


def _refuse(kind, reason: str) -> web.HTTPException:
    return kind(text=json.dumps({"error": reason}), content_type="application/json")
