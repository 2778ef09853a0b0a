"""The composition root of the game platform: every object built once, with its collaborators.

``build_core`` is the one wiring, used by the bot (``bot/app.py``, once python-telegram-bot's
Application knows the bot's name) and by the fast tests (``tests/bot/recording.py``, over an
in-memory store and a recording messenger). Bottom up, a package at a time (each a small group
of objects, as lila builds one ``Env`` per module): the store, the messenger and the timers come
from outside; then the game being played (``bot/table``), the records, the lobby and the
settings, the messages that show a game, the end of a game, and what comes in from Telegram.
Whoever shows a game listens to the change bus; nothing is assigned onto an object after it is
built.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Awaitable, Callable

from bot.ending.achievements import AchievementsSuccessor
from bot.ending.finisher import Finisher
from bot.ending.rematch import Rematch
from bot.ending.replays import Replays
from bot.ending.seasons import SeasonSuccessor
from bot.ending.series import SeriesSuccessor
from bot.lobby.links import DeepLinks
from bot.lobby.lobby import Lobby
from bot.lobby.new import NewGame
from bot.lobby.nextgame import NextGame
from bot.lobby.settings import Settings
from bot.ops.owner import Owner
from bot.outgoing.messenger import Messenger
from bot.table.timers import Timers
from bot.records.achievements.keeper import Achievements
from bot.records.calendar import Calendar
from bot.records.records import Records
from bot.records.season_end import SeasonEnd
from bot.records.seasons import SeasonRatings
from bot.records.stats import Stats
from bot.showing.messages import Messages
from bot.showing.pings import Pings
from bot.showing.tables import Tables
from bot.storage.store import GameStore
from bot.table.background import Background
from bot.table.book import GameBook
from bot.table.changes import Changes
from bot.table.people import People
from bot.table.play import COMPUTER_PAUSE, Play
from bot.table.turns import TurnPolicy
from bot.updates import router
from bot.updates.chat import ChatRoutes
from bot.updates.door import Door
from bot.updates.floods import CommandGuard
from bot.updates.game import GameRoutes
from bot.updates.help import Help
from bot.updates.inline import InlineRoutes
from bot.updates.lobby import LobbyRoutes
from bot.updates.owner import OwnerRoutes
from bot.updates.prepare import Prepare
from bot.updates.records import RecordRoutes
from bot.updates.results import ResultsRoutes
from bot.updates.settings import SettingsRoutes
from bot.workers.pool import render_picture

Render = Callable[[Callable[[], bytes]], Awaitable[bytes]]


@dataclass
class TableRoom:
    """A game being played (``bot/table``)."""

    timers: Timers
    background: Background
    changes: Changes
    book: GameBook
    people: People
    turns: TurnPolicy
    play: Play


@dataclass
class LobbyRoom:
    """Gathering a table, and a chat's settings (``bot/lobby``)."""

    lobby: Lobby
    new_game: NewGame
    links: DeepLinks
    next_game: NextGame
    settings: Settings


@dataclass
class EndingRoom:
    """The end of a game (``bot/ending``) and what is remembered of it (``bot/records``): the
    records, the seasons and their ends, the statistics."""

    finisher: Finisher
    replays: Replays
    rematch: Rematch
    records: Records
    seasons: SeasonRatings
    season_end: SeasonEnd
    achievements: Achievements
    stats: Stats


@dataclass
class UpdatesRoom:
    """What comes in from Telegram (``bot/updates``): before every update, the door, every
    feature's routes and the presses routed to them (``router.register`` registers them)."""

    prepare: Prepare
    door: Door
    features: list
    presses: router.Presses


@dataclass
class Core:
    store: GameStore
    messenger: Messenger
    table: TableRoom
    lobbies: LobbyRoom
    tables: Tables
    pings: Pings
    ending: EndingRoom
    updates: UpdatesRoom

    # The objects most callers want, by name (the tests, the Mini App, the start-up).
    background = property(lambda self: self.table.background)
    changes = property(lambda self: self.table.changes)
    book = property(lambda self: self.table.book)
    people = property(lambda self: self.table.people)
    turns = property(lambda self: self.table.turns)
    play = property(lambda self: self.table.play)
    timers = property(lambda self: self.table.timers)
    lobby = property(lambda self: self.lobbies.lobby)
    settings = property(lambda self: self.lobbies.settings)
    finisher = property(lambda self: self.ending.finisher)
    replays = property(lambda self: self.ending.replays)
    records = property(lambda self: self.ending.records)
    seasons = property(lambda self: self.ending.seasons)
    season_end = property(lambda self: self.ending.season_end)
    achievements = property(lambda self: self.ending.achievements)
    stats = property(lambda self: self.ending.stats)
    door = property(lambda self: self.updates.door)
    press = property(lambda self: self.updates.presses.press)


def build_core(store: GameStore, messenger: Messenger, timers: Timers, *, bot_username: str,
               turn_minutes: float = 10, lobby_minutes: int = 30, ping_quiet_seconds: float = 15.0,
               computer_pause: float = COMPUTER_PAUSE, keep_actions_days: float = 0,
               owner_id: int | None = None, errors: Callable[[], int] = lambda: 0, database: str = "SQLite",
               webapp_url: str = "", group_link: Callable[[str], str] | None = None,
               render: Render = render_picture, season: str = "month",
               clock: Callable[[], float] = time.time) -> Core:
    table = _table(store, messenger, timers, bot_username, turn_minutes, computer_pause)
    records = Records(store, table.background, keep_actions_days=keep_actions_days)
    seasons = SeasonRatings(store, Calendar(season), clock=clock)
    achievements = Achievements(store, clock=clock)
    lobbies = _lobbies(store, messenger, table, bot_username, lobby_minutes)
    tables = Tables(table.book, store, Messages(messenger, table.background, render), table.people, table.turns,
                    table.background, webapp_url=webapp_url, group_link=group_link)
    pings = Pings(store, messenger, table.people, table.background, quiet_seconds=ping_quiet_seconds)
    rematch = Rematch(table.book, lobbies.lobby, table.people, messenger, table.background)
    # What follows a game, in the order each hears it (a rematch only where a series does not go on).
    successors = [SeriesSuccessor(store, table.play), SeasonSuccessor(seasons), AchievementsSuccessor(achievements),
                  rematch]
    ending = EndingRoom(Finisher(store, messenger, table.people, table.background, tables, successors),
                        Replays(store, messenger, table.people, table.background, render=render),
                        rematch, records, seasons, SeasonEnd(seasons, messenger, table.people, table.background, timers),
                        achievements, Stats(store, table.people, messenger, seasons, achievements, render=render))
    # Whoever follows another's work waits for its milestone (match.stages), not for its turn here.
    for listener in (records.hear, tables.hear, pings.hear, ending.finisher.hear, ending.rematch.hear,
                     achievements.hear):
        table.changes.subscribe(listener)
    owner = Owner(store, table.people, messenger, owner_id=owner_id, errors=errors, database=database)
    updates = _updates(messenger, table, lobbies, tables, ending, owner, bot_username)
    return Core(store, messenger, table, lobbies, tables, pings, ending, updates)


def _table(store: GameStore, messenger: Messenger, timers: Timers, bot_username: str, turn_minutes: float,
           computer_pause: float) -> TableRoom:
    background, changes = Background(), Changes()
    book, people, turns = GameBook(store, bot_username=bot_username), People(store, messenger), \
        TurnPolicy(store, turn_minutes)
    play = Play(book, store, changes, background, timers, turns, computer_pause=computer_pause)
    return TableRoom(timers, background, changes, book, people, turns, play)


def _lobbies(store: GameStore, messenger: Messenger, table: TableRoom, bot_username: str,
             lobby_minutes: int) -> LobbyRoom:
    next_game = NextGame(table.book, table.people, messenger, table.background, bot_username=bot_username)
    lobby = Lobby(table.book, store, table.play, table.changes, table.people, table.timers, messenger,
                  timeout_minutes=lobby_minutes)
    table.changes.subscribe(next_game.hear)
    return LobbyRoom(lobby, NewGame(lobby, table.people, messenger, bot_username=bot_username),
                     DeepLinks(lobby, table.book, store, table.people, messenger, table.changes), next_game,
                     Settings(table.book, table.people, table.turns, table.play, lobby, table.changes))


def _updates(messenger: Messenger, table: TableRoom, lobbies: LobbyRoom, tables: Tables,
             ending: EndingRoom, owner: Owner, bot_username: str) -> UpdatesRoom:
    door = Door(table.book, table.play, lobbies.lobby, table.people, table.changes, messenger,
                bot_username=bot_username)
    help_ = Help(router.commands(), bot_username=bot_username)
    features = [
        LobbyRoutes(lobbies.new_game, lobbies.links, lobbies.lobby, lobbies.next_game, messenger, help_,
                    bot_username=bot_username),
        InlineRoutes(lobbies.lobby, table.book, table.people, messenger),
        ResultsRoutes(door, ending.replays, ending.rematch),
        RecordRoutes(ending.stats, messenger),
        SettingsRoutes(lobbies.settings, messenger),
        OwnerRoutes(owner, messenger, bot_username=bot_username),
        GameRoutes(door, tables, messenger),
        ChatRoutes(table.people, tables, lobbies.lobby, table.play, messenger, help_, bot_username=bot_username),
    ]
    return UpdatesRoom(Prepare(table.people, CommandGuard(), messenger), door, features,
                       router.Presses(features, door, messenger))
