"""Open games in memory, each loaded once as a :class:`Match` (its record, its game's kit, its
parsed state, its milestones and what the bot keeps of it only while it is open) and passed
down from there, and one lock per game. The store stays the source of truth; this is only a
cache of it.
"""
from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from bot.games import kit_for
from bot.games.base import Ctx, GameUI
from bot.games.kit import GameKit
from bot.logs import about
from bot.storage.store import Game, GameStore, Status
from bot.table.stages import Stages


@dataclass
class Scratch:
    """What the bot keeps of an open game in memory only: it goes with the match (a restart, or
    the game's end, starts it afresh). Each field has one owner that writes it."""

    # Where each player is in composing a move, the adapter's navigation path: on the table
    # ("table") or on a seat's private message (its seat number) (bot/updates/door.py sets it,
    # bot/showing/tables.py shows it; a move clears it).
    paths: dict[Any, str] = field(default_factory=dict)
    # The line under a lobby's players: who joined from the private chat, whom Start waits for
    # (bot/lobby/lobby.py).
    lobby_note: Any = None
    # Seats whose person the bot cannot write to in private: the table says so (bot/showing/tables.py).
    unreachable: set[int] = field(default_factory=set)
    # /board asked for the lobby or the table again at the bottom of the chat (bot/showing/tables.py).
    repost: bool = False
    # Each person's last applied button, so that a second tap on it is answered "done" (the door).
    last_press: dict[int, str] = field(default_factory=dict)
    # When each person last pressed a button of the game (no turn ping while they look) and the
    # last turn ping mentioned in the group, deleted at the next (bot/showing/pings.py).
    looked: dict[int, float] = field(default_factory=dict)
    group_ping: int | None = None
    # The version whose turn reminder went out, and when this process took a running game over
    # (the time it was down does not count) (bot/table/turns.py).
    reminded: int | None = None
    resumed: float = 0.0
    # Where an inline game's pictures go up (bot/showing/messages.py: ``Carrier``).
    carrier: Any = None
    # Every event of the game as this process heard it from its start (None: it did not hear
    # the start), for the achievements decided at its end (bot/records/achievements/keeper.py).
    heard: list[dict] | None = None


@dataclass(eq=False)
class Match:
    """One game as the bot holds it: the stored record, its game's kit (engine, adapter, page),
    and the engine state parsed once (None before the game starts). Everyone who holds a match holds the same
    object, so a move's new state is seen by all; ``gone`` says the book let go of it (a job
    that still holds it does nothing)."""

    game: Game
    kit: GameKit
    bot_username: str
    state: Any = None
    gone: bool = field(default=False)
    stages: Stages = field(default_factory=Stages)
    scratch: Scratch = field(default_factory=Scratch)

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def eng(self) -> ModuleType:
        return self.kit.engine

    @property
    def ui(self) -> GameUI:
        return self.kit.ui

    @property
    def running(self) -> bool:
        return self.game.status == Status.RUNNING and self.state is not None

    @property
    def turn(self) -> int | None:
        """The engine's turn number (None before the start)."""
        return self.eng.turn(self.state) if self.state is not None else None

    @property
    def current(self) -> int | None:
        """The seat to act (None before the start and after the end)."""
        return self.eng.current_player(self.state) if self.running else None

    def ctx(self, lang: str, state: Any = None) -> Ctx:
        """What the adapter may look at, in ``lang`` (``state``: another than the latest)."""
        game = self.game
        return Ctx(game=game, eng=self.eng, state=state if state is not None else self.state, lang=lang,
                   bot_username=self.bot_username, seat_user_ids=[s.user_id for s in game.seats])


class GameBook:
    def __init__(self, store: GameStore, *, bot_username: str):
        self.store = store
        self.bot_username = bot_username
        self._matches: dict[int, Match] = {}
        self._locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)

    def put(self, game: Game) -> Match:
        """Keep ``game`` (as just read or created), its engine state parsed once."""
        about(game.chat_id, game.id)  # what this task logs from here on is about this game
        kit = kit_for(game.kind)
        state = kit.engine.from_json(game.state) if game.state is not None else None
        match = Match(game, kit, self.bot_username, state)
        old = self._matches.get(game.id)
        if old is not None and old is not match:
            old.gone = True
            match.stages, match.scratch = old.stages, old.scratch  # the same game, read again
        self._matches[game.id] = match
        return match

    async def load(self, game_id: int) -> Match | None:
        """The game, from memory or else from the store; None when there is no such game."""
        match = self._matches.get(game_id)
        if match is None:
            game = await self.store.get_game(game_id)
            if game is None:
                return None
            match = self._matches.get(game_id) or self.put(game)  # another load may have won
        about(match.game.chat_id, game_id)  # what this task logs from here on is about this game
        return match

    async def reload(self, game_id: int) -> Match | None:
        """Read the game again from the store (after a concurrent change)."""
        game = await self.store.get_game(game_id)
        if game is None:
            old = self._matches.pop(game_id, None)
            if old is not None:
                old.gone = True
            return None
        return self.put(game)  # (the match it replaces is gone; its stages and scratch go on)

    async def open_at(self, chat_id: int, thread_id: int) -> Match | None:
        """The lobby or running game of a chat (or forum topic)."""
        found = await self.store.open_game_at(chat_id, thread_id)
        return await self.load(found.id) if found is not None else None

    async def on_inline(self, inline_msg: str) -> Match | None:
        """The game played on a message posted via the bot (inline mode), if there is one."""
        found = await self.store.game_on_inline(inline_msg)
        return await self.load(found.id) if found is not None else None

    async def open_of(self, user_id: int) -> list[Match]:
        """The lobbies and running games a person sits in."""
        found = await self.store.open_games_of(user_id)
        return [m for m in [await self.load(g.id) for g in found] if m is not None]

    def cached(self, game_id: int) -> Match | None:
        return self._matches.get(game_id)

    def lock(self, game_id: int) -> asyncio.Lock:
        """Held while a game changes, so that its changes apply one at a time."""
        return self._locks[game_id]

    def forget(self, game_id: int) -> None:
        """Let go of a game that is over; the store still has it."""
        match = self._matches.pop(game_id, None)
        if match is not None:
            match.gone = True
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._locks[game_id]
