"""The owner's commands: one Telegram user (``TABLEBOT_OWNER_ID``), in the private chat with the
bot, asks how it is doing (/botstats) and warns the groups with a game before a planned restart
(/broadcast_maintenance, after a confirmation button). For anyone else, and anywhere else, both
are unknown commands (``Owner.may``): nobody learns that they exist.
"""
from __future__ import annotations

import collections
import logging
import secrets
import time
from typing import Callable

from engines import registry
from bot.outgoing import keyboard
from bot.words.i18n import nt, t
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.table.people import People, Person
from bot.words.refusals import Refused
from bot.storage.store import GameStore, Status
from bot.storage.choose import is_postgres
from bot.words.texts import game_name

log = logging.getLogger(__name__)

BROADCAST = "o.bc"  # the confirmation button's action is ``o.bc.<token>``
WEEK_SECONDS = 7 * 24 * 3600
DAY_SECONDS = 24 * 3600

NOTICE = ("🛠 The bot will restart shortly for maintenance. Every game is saved and will go on "
          "from the same move.")


def database_kind(db: str) -> str:
    """The kind of database a ``TABLEBOT_DB`` value names (not the value: a URL may hold a password)."""
    return "PostgreSQL" if is_postgres(db) else "SQLite"


def _by_game(counts: collections.Counter, lang: str) -> str:
    return ", ".join(f"{game_name(registry.info(kind), lang)} {n}" for kind, n in sorted(counts.items()))


def _duration(seconds: float, lang: str) -> str:
    days, rest = divmod(int(seconds) // 60, 24 * 60)
    return t(lang, "{d} d {h} h {m} min", d=days, h=rest // 60, m=rest % 60)


class Owner:
    def __init__(self, store: GameStore, people: People, messenger: Messenger, *, owner_id: int | None,
                 errors: Callable[[], int], database: str):
        self.store = store
        self.people = people
        self.messenger = messenger
        self.owner_id = owner_id
        self.errors = errors
        self.database = database
        self.started = time.monotonic()
        self._token: str | None = None  # the one confirmation button that still sends

    def may(self, person: Person | None, chat_id: int) -> bool:
        """The owner, in their private chat."""
        return self.owner_id is not None and person is not None and person.id == self.owner_id == chat_id

    async def figures(self, lang: str) -> str:
        """/botstats: open games and lobbies by game, players this week, games finished today
        (UTC) and this week, errors logged, uptime and the database."""
        games = await self.store.open_games()
        running = collections.Counter(g.kind for g in games if g.status == Status.RUNNING)
        lobbies = collections.Counter(g.kind for g in games if g.status == Status.LOBBY)
        now = time.time()
        players, week = await self.store.activity(now - WEEK_SECONDS)
        _, today = await self.store.activity(now - now % DAY_SECONDS)
        lines = [t(lang, "📊 <b>The bot now</b>"),
                 t(lang, "Games running: {n}", n=sum(running.values()))
                 + (f" ({_by_game(running, lang)})" if running else ""),
                 t(lang, "Lobbies open: {n}", n=sum(lobbies.values()))
                 + (f" ({_by_game(lobbies, lang)})" if lobbies else ""),
                 t(lang, "Players this week: {n}", n=players),
                 t(lang, "Games finished today (UTC): {today}, this week: {week}", today=today, week=week),
                 t(lang, "Errors logged since the start: {n}", n=self.errors()),
                 t(lang, "Up for: {time}", time=_duration(time.monotonic() - self.started, lang)),
                 t(lang, "Database: {kind}", kind=self.database)]
        return "\n".join(lines)

    async def _groups(self) -> dict[int, int]:
        """The groups with a running game or an open lobby, each with the forum topic of its
        first one (0: none)."""
        places: dict[int, int] = {}
        for game in sorted(await self.store.open_games(), key=lambda g: g.id):
            if game.chat_id < 0:
                places.setdefault(game.chat_id, game.thread_id)
        return places

    async def ask_broadcast(self, lang: str) -> tuple[str, object]:
        """/broadcast_maintenance: the notice and how many groups it would reach, with the
        button that sends it (a new button makes the earlier ones old)."""
        groups = await self._groups()
        if not groups:
            return t(lang, "No group has a running game or an open lobby: there is nobody to tell."), None
        self._token = secrets.token_hex(3)
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "📣 Send"), f"{BROADCAST}.{self._token}",
                                                      turn_free=True)]])
        return nt(lang, "Send this notice to {n} group with a running game or an open lobby?",
                  "Send this notice to {n} groups with a running game or an open lobby?", len(groups)) \
            + "\n\n" + t(lang, NOTICE), markup

    async def broadcast(self, person: Person, chat_id: int, message_id: int | None, action: str) -> str:
        """The confirmation button: the notice goes to every group with a game now, in its
        language, as a broadcast (the messenger's broadcast class: 30 a second, or paid); the
        button goes; the owner hears how many."""
        if not self.may(person, chat_id):
            raise Refused("bad_button")
        if self._token is None or action != f"{BROADCAST}.{self._token}":
            return t(person.lang, "This button is old: write /broadcast_maintenance again.")
        self._token = None  # a second press (a double tap) sends nothing
        groups = await self._groups()
        for group, thread_id in groups.items():
            self.messenger.broadcast_soon(group, t(await self.people.chat_lang(group), NOTICE), thread_id=thread_id)

        log.info("maintenance notice sent to %d groups", len(groups))
        done = nt(person.lang, "Sent to {n} group.", "Sent to {n} groups.", len(groups))
        if message_id is not None:
            await self.messenger.edit_text(chat_id, message_id, done, None)
        return done
