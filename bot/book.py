"""Open games in memory: the game records read from the store, their parsed engine states, and
one lock per game. The store stays the source of truth; this is only a cache of it.
"""
from __future__ import annotations

import asyncio
import collections
from typing import Any

from engines import registry
from bot.store import Game, GameStore


class GameBook:
    def __init__(self, store: GameStore):
        self.store = store
        self._games: dict[int, Game] = {}
        self._states: dict[int, Any] = {}
        self._locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)

    def put(self, game: Game) -> Game:
        """Keep ``game`` (as just read or created) and parse its engine state."""
        self._games[game.id] = game
        if game.state is not None:
            self._states[game.id] = registry.engine(game.kind).from_json(game.state)
        else:
            self._states.pop(game.id, None)
        return game

    async def load(self, game_id: int) -> Game | None:
        """The game, from memory or else from the store; None when there is no such game."""
        game = self._games.get(game_id)
        if game is None:
            game = await self.store.get_game(game_id)
            if game is None:
                return None
            self.put(game)
        return game

    async def reload(self, game_id: int) -> Game | None:
        """Read the game again from the store (after a concurrent change)."""
        self._games.pop(game_id, None)
        return await self.load(game_id)

    async def open_game_at(self, chat_id: int, thread_id: int) -> Game | None:
        found = await self.store.open_game_at(chat_id, thread_id)
        return await self.load(found.id) if found is not None else None

    def cached(self, game_id: int) -> Game | None:
        return self._games.get(game_id)

    def state(self, game_id: int) -> Any:
        """The parsed engine state of a game in memory (None before it starts)."""
        return self._states.get(game_id)

    def set_state(self, game_id: int, state: Any) -> None:
        self._states[game_id] = state

    def lock(self, game_id: int) -> asyncio.Lock:
        """Held while a game changes, so that its changes apply one at a time."""
        return self._locks[game_id]

    def forget(self, game_id: int) -> None:
        """Let go of a game that is over; the store still has it."""
        self._games.pop(game_id, None)
        self._states.pop(game_id, None)
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._locks[game_id]
