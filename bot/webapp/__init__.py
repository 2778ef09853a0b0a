"""The Mini App: a page inside Telegram with the board of a game, and its small JSON API.

Mounted on the bot's one web server (bot/ops/web.py) at ``/app`` when ``WEBAPP_URL`` is set, so the
page is ``<WEBAPP_URL>/app/``. Every game is played on it (a piece, a place, ✅; lucky's one tap),
each with its board module and the moves the engine allows with what each does, from the
game's kit (bot/games/<game>/: board.js, page.py). Every API request carries Telegram's signed ``initData``
(``auth``); the page and its files are served as a phone's cache wants them (``assets``: hashed
URLs kept a year, the page revalidated, no body on a 304); the server decides everything (``api``: the routes; ``views``: what one person may
see of a game, never another's secret), and a move goes through the same door as a button press
(bot/updates/door.py). Open pages hear a game's changes (``live``); a script hammering the API
is held back (``limits``).

    GET  /app/                              the page (static/index.html, revalidated on every open)
    GET  /app/static/<name>.<hash>.<ext>    its modules, styles: URLs that change with the bytes, kept
                                            a year (bot/webapp/assets.py; the page's import map)
    GET  /app/api/me                        the games there are (the registry's), the person's
                                            lobbies and running games, the start parameter
    GET  /app/api/games/{id}[?wait=1]       the game as this person may see it (on their turn, the
                                            moves they may make); with If-None-Match and wait,
                                            held until the game changes (live updates)
    GET  /app/api/games/{id}/ask/{query}    what else a game answers the page (its kit's
                                            page_queries: Ingenious' placements?tile=k)
    POST /app/api/games/{id}/move           {"turn": n, "action": code}: through the door
    POST /app/api/games/{id}/join           a game in its lobby: the lobby's Join, through the door

It may use ``updates`` (the door), ``table`` and what lies below them.
"""
from __future__ import annotations

import time
from typing import Callable

from aiohttp import web

from bot.webapp import auth
from bot.webapp.api import PageApi

PREFIX = "/app"


def build(core, token: str, *, clock: Callable[[], float] = time.time) -> web.Application:
    """The Mini App as an aiohttp sub-application, listening to the game's changes from now on."""
    api = PageApi(core.book, core.door, core.people, token, clock=clock)
    core.changes.subscribe(api.live.hear)
    return api.application()


def group_link(bot_username: str, short_name: str, token: str) -> Callable[[str], str]:
    """The direct link to the Mini App on a group's table, by game id: it opens the live board
    of that game for anyone in the group (and a seated player's own rack and moves)."""
    return lambda game_id: (f"https://t.me/{bot_username}/{short_name}"
                            f"?startapp={auth.watch_param(game_id, token)}")


def page_url(webapp_url: str) -> str:
    """The page's address under the public address of the web server."""
    return webapp_url.rstrip("/") + PREFIX + "/"
