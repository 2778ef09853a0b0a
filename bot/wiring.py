"""The composition root of the game platform: every object built once, with its collaborators.

``build_core`` is the one wiring, used by the bot (``bot/app.py``, once python-telegram-bot's
Application knows the bot's name) and by the fast tests (``tests/bot/recording.py``, over an
in-memory store and a recording messenger). Bottom up: the store, the messenger and the timers
come from outside; then the background scheduler and the change bus, the book of open games,
people, the turn policy; the tables and the pings listen to the changes the game loop publishes;
the lobby, the settings, the door for every press, and the Telegram handlers on top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from bot.table.background import Background
from bot.table.book import GameBook
from bot.table.changes import Changes
from bot.updates.door import Door
from bot.updates.floods import CommandGuard
from bot.updates.handlers import Handlers
from bot.lobby.lobby import Lobby
from bot.outgoing.messenger import Messenger
from bot.lobby.nextgame import NextGame
from bot.ops.owner import Owner
from bot.table.people import People
from bot.showing.pings import Pings
from bot.table.play import COMPUTER_PAUSE, Play
from bot.records.records import Records
from bot.workers.pool import render_picture
from bot.ending.replays import Replays
from bot.ending.series import Results
from bot.lobby.settings import Settings
from bot.records.stats import Stats
from bot.storage.store import GameStore
from bot.showing.tables import Tables
from bot.outgoing.timers import Timers
from bot.table.turns import TurnPolicy


@dataclass
class Core:
    store: GameStore
    messenger: Messenger
    timers: Timers
    background: Background
    changes: Changes
    book: GameBook
    people: People
    turns: TurnPolicy
    tables: Tables
    pings: Pings
    play: Play
    lobby: Lobby
    settings: Settings
    door: Door
    replays: Replays
    handlers: Handlers
    records: Records
    owner: Owner

    async def forget_caches(self) -> None:
        """This process becomes the active one: what memory holds may be stale (another process
        may have served meanwhile), so open games, people and chats are read from the store again."""
        await self.store.forget_cache()
        self.people.forget_cache()
        self.book.clear()


def build_core(store: GameStore, messenger: Messenger, timers: Timers, *, bot_username: str,
               turn_minutes: float = 10, lobby_minutes: int = 30, ping_quiet_seconds: float = 15.0,
               computer_pause: float = COMPUTER_PAUSE, keep_actions_days: float = 0,
               owner_id: int | None = None, errors: Callable[[], int] = lambda: 0, database: str = "SQLite",
               webapp_url: str = "", group_link: Callable[[str], str] | None = None,
               render: Callable[[Callable[[], bytes]], Awaitable[bytes]] = render_picture) -> Core:
    background = Background()
    changes = Changes()
    book = GameBook(store, bot_username=bot_username)
    people = People(store, messenger)
    turns = TurnPolicy(store, turn_minutes)
    records = Records(store, background, keep_actions_days=keep_actions_days)
    tables = Tables(book, store, messenger, people, turns, background, bot_username=bot_username, render=render,
                    results_note=records.results_note, webapp_url=webapp_url,
                    group_link=group_link)
    pings = Pings(store, messenger, people, background, quiet_seconds=ping_quiet_seconds)
    changes.subscribe(records.hear)  # recorded first: the results show the ratings it moved
    changes.subscribe(tables.hear)  # the table first: a ping links to the table as it is now
    changes.subscribe(pings.hear)
    play = Play(book, store, changes, background, timers, turns, Results(store), computer_pause=computer_pause)
    next_game = NextGame(book, people, messenger, background, bot_username=bot_username)
    lobby = Lobby(book, store, play, tables, people, timers, messenger, bot_username=bot_username,
                  timeout_minutes=lobby_minutes, next_game=next_game)
    settings = Settings(book, people, turns, play, lobby, changes)
    stats = Stats(store, people, messenger, render=render)
    replays = Replays(store, messenger, people, background, render=render)
    owner = Owner(store, people, messenger, owner_id=owner_id, errors=errors, database=database)
    door = Door(book, play, lobby, tables, people, settings, changes, messenger, replays, stats, owner,
                bot_username=bot_username)
    handlers = Handlers(door=door, lobby=lobby, settings=settings, play=play, tables=tables, people=people,
                        messenger=messenger, guard=CommandGuard(), bot_username=bot_username, stats=stats,
                        next_game=next_game, owner=owner)
    return Core(store, messenger, timers, background, changes, book, people, turns, tables, pings, play, lobby,
                settings, door, replays, handlers, records, owner)
