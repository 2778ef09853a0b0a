"""Every game that is over, remembered: who played (people, and computers with their level),
places, scores, options, when, in which group and topic; and the ratings it moved.

``Records`` hears ``Finished`` and ``Closed`` (``bot/table/changes.py``) and records the game in the
background, once: ``GameStore.record_game`` refuses a game recorded already, and recordings
take turns (one lock) so that two games never read the same rating. The match's ``recorded``
milestone (``bot/table/stages.py``) then carries the record, with the rating changes the results
(``bot/ending``) show: the same record across a restart too. At start-up ``catch_up`` records,
in the order they ended, every game the store holds without a record: games of an older version
(the back-fill) and games the bot stopped before recording.

Not rated: a cancelled game, a game with one side (solo), a game in which no person made a
move. A seat that a computer played for most of the game (handed over, or the turn timer's
moves, as the action log tells) may lose rating but never gains any.
"""
from __future__ import annotations

import asyncio
import logging
import time

from bot.records import rating
from bot.table.changes import Change, Closed, Finished
from bot.games import kit_for
from bot.storage.store import Game, GameRecord, GameStore, Rating, RecordSeat, Status, StoreUnavailable
from bot.table.book import Match

log = logging.getLogger(__name__)

PRUNE_EVERY_SECONDS = 3600.0


class Records:
    def __init__(self, store: GameStore, background, *, keep_actions_days: float = 0):
        self.store = store
        self.background = background
        self.keep_actions_days = keep_actions_days
        self._lock = asyncio.Lock()
        self._pruned = 0.0

    # ---- hearing that a game is over -----------------------------------------------------

    def hear(self, change: Change) -> None:
        if isinstance(change, (Finished, Closed)):
            match = change.match
            self.background.schedule(("record", match.id), lambda: self._record_soon(match))

    async def _record_soon(self, match: Match) -> None:
        try:
            record = await self.record(match.game)
        except StoreUnavailable:
            raise  # the job runs again (bot/table/background.py): whoever waits, waits on
        except Exception as exc:
            match.stages.recorded.fail(exc)
            raise
        match.stages.recorded.reach(record)
        await self.prune()

    async def catch_up(self) -> int:
        """Record every game over that has no record yet, in the order they ended (ratings are
        computed in the order of play); how many."""
        games = await self.store.unrecorded_games()
        for game in games:
            await self.record(game)
        if games:
            log.info("recorded %d games that were over", len(games))
        await self.prune()
        return len(games)

    async def prune(self) -> None:
        """Delete old move logs, if the operator asked for it (TABLEBOT_KEEP_ACTIONS_DAYS);
        statistics live in the records and do not need them."""
        now = time.time()
        if self.keep_actions_days <= 0 or now - self._pruned < PRUNE_EVERY_SECONDS:
            return
        self._pruned = now
        gone = await self.store.prune_actions(now - self.keep_actions_days * 86400)
        if gone:
            log.info("deleted %d moves of games over more than %g days ago", gone, self.keep_actions_days)

    # ---- recording -----------------------------------------------------------------------

    async def record(self, game: Game) -> GameRecord | None:
        """The game's record, made now if it has none (None: the game is not over, or never began)."""
        if game.status not in (Status.FINISHED, Status.CANCELLED) or game.state is None:
            return None
        async with self._lock:
            existing = await self.store.game_record(game.id)
            if existing is not None:
                return existing
            record = await self._build(game)
            ratings = await self._rate(record) if record.rated else []
            await self.store.record_game(record, ratings)
            return record

    async def _build(self, game: Game) -> GameRecord:
        ui = kit_for(game.kind).ui
        counts = await self.store.move_counts(game.id)
        finished = game.status == Status.FINISHED and game.outcome is not None
        places = game.outcome["places"] if finished else [None] * len(game.seats)
        teams = ui.teams(game.options, len(game.seats))
        seats = []
        person_moved = False
        for s in game.seats:
            moves, auto = counts.get(s.seat, (0, 0))
            user = None if s.is_computer else await self.store.user(s.user_id)
            forgotten = user is not None and user.forgotten
            if not s.is_computer and moves > auto:
                person_moved = True
            seats.append(RecordSeat(
                seat=s.seat, user_id=None if forgotten else s.user_id, name=None if forgotten else s.name,
                kind=s.kind, level=s.level if s.is_computer else None,
                place=places[s.seat] if s.seat < len(places) else None,
                score=ui.score(game.outcome, s.seat) if finished else None, team=teams[s.seat],
                # A computer made most of its moves, or plays it at the end (left, or away).
                autoplayed=not s.is_computer and (s.autoplayed or auto * 2 > moves)))
        rated = (finished and len(set(teams)) > 1 and person_moved
                 and any(s.user_id is not None and not s.is_computer for s in seats))
        return GameRecord(game.id, game.kind, game.chat_id, game.thread_id, str(game.status), rated,
                          dict(game.options), game.series_id, game.created, game.updated, seats,
                          results_msg=game.results_msg)

    async def _rate(self, record: GameRecord) -> list[Rating]:
        """Rate the people of a finished game; fills each person's seat's before/after."""
        people = [s for s in record.seats if not s.is_computer and s.user_id is not None]
        current = await self.store.ratings(record.kind, [s.user_id for s in people])
        out = []
        for s, before, after, games in rating.rate_seats(record.seats, current):
            s.before, s.after, s.games = before.figure, after.figure, games
            out.append(Rating(s.user_id, record.kind, after.mu, after.sigma, after.figure, games))
        return out
