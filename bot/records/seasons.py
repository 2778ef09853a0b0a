"""Ratings per season: every rated game counted again in its season, where everyone starts fresh
(``bot/records/calendar.py`` says which season a game belongs to: the one it ended in), and the
leaderboards, of all time or of a season.

``SeasonRatings.count`` rates a recorded game in its season once (the store refuses a game counted
already), one game at a time in the order they are heard (ratings are computed in the order of
play); the successor of ``bot/ending/seasons.py`` calls it for every finished game. At start-up
``catch_up`` counts what was recorded but not counted (games of an older version, a game the bot
stopped before counting): the season now running before any game's end is followed, then the
older seasons in the background, whose champions a first start then names
(``bot/records/season_end.py``).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from bot.records import rating
from bot.records.calendar import Calendar, Season
from bot.records.rating import PROVISIONAL_GAMES
from bot.storage.store import GameRecord, GameStore, Rating

log = logging.getLogger(__name__)


async def leaderboard(store: GameStore, kind: str, chat_id: int | None, limit: int,
                      season: Season | None = None) -> list[tuple[Rating, str]]:
    """The first ``limit`` of a game's leaderboard, with names: of all time (``season`` None) or
    of a season; everyone's, or of the people who played it in ``chat_id`` (in that season).
    Settled ratings (PROVISIONAL_GAMES rated games or more) first, by figure; then provisional
    ones («?»), by figure: a first lucky win does not put a newcomer above the regulars."""
    async def top(min_games: int, most: int) -> list[tuple[Rating, str]]:
        if season is None:
            return await store.top(kind, min_games=min_games, limit=most, chat_id=chat_id)
        return await store.season_top(season.key, kind, start=season.start, end=season.end, min_games=min_games,
                                      limit=most, chat_id=chat_id)
    settled = await top(PROVISIONAL_GAMES, limit)
    if len(settled) == limit:
        return settled
    everyone = await top(1, limit + len(settled))
    return settled + [(r, name) for r, name in everyone if r.games < PROVISIONAL_GAMES][:limit - len(settled)]


class SeasonRatings:
    def __init__(self, store: GameStore, calendar: Calendar, *, clock: Callable[[], float] = time.time):
        self.store = store
        self.calendar = calendar
        self.clock = clock
        self._lock = asyncio.Lock()
        self.caught_up = asyncio.Event()  # every earlier season has its games counted (``catch_up_past``)
        self.caught_up.set()

    def now(self) -> Season:
        """The season running now."""
        return self.calendar.at(self.clock())

    async def count(self, record: GameRecord | None) -> None:
        """Count a recorded game in its season, once (nothing for a game that was not rated)."""
        if record is not None and record.rated:
            await self._count(record)

    async def _count(self, record: GameRecord) -> None:
        async with self._lock:
            key = self.calendar.at(record.ended).key
            people = [s.user_id for s in record.seats if not s.is_computer and s.user_id is not None]
            current = await self.store.season_ratings(key, record.kind, people)
            await self.store.count_season_game(record.game_id, key, [
                Rating(s.user_id, record.kind, after.mu, after.sigma, after.figure, games)
                for s, _, after, games in rating.rate_seats(record.seats, current)])

    async def catch_up(self) -> int:
        """Count the games of the season now running that are not counted yet, in the order
        they ended (at start-up, before any game's end is followed); how many. The older
        seasons' wait for ``catch_up_past``."""
        self.caught_up.clear()
        counted = 0
        for record in await self.store.uncounted_records(since=self.now().start):
            await self._count(record)
            counted += 1
        return counted

    async def catch_up_past(self) -> int:
        """Count the games of earlier seasons not counted yet (games of an older version of the
        bot: their champions are then named), in the background; how many."""
        counted, running = 0, self.now()
        try:
            for record in await self.store.uncounted_records():
                if record.ended < running.start:  # (one of now that ended meanwhile is its successor's)
                    await self._count(record)
                    counted += 1
        finally:
            self.caught_up.set()
        if counted:
            log.info("counted %d games of earlier seasons", counted)
        return counted
