"""Achievements granted and shown: decided at each game's end, granted once each, announced in the
results of the game that earned them; the records read again when the catalogue changes; what a
person reads of them (/achievements, a line of their /stats).

At a game's end (``decide``, called by the successor of ``bot/ending/achievements.py``): what the
game itself earned each person (``plays.py``, from the game's events as this process heard them
being played, ``hear``; a game it did not see from its start is replayed from its log in a worker
process), what its record earned them (``ledger.of_record``), and, from the person's games in
order (``ledger.firsts``), the game at which each ledger achievement was first reached. Each is
granted with the game that earned it; the results announce those of this game only. Computers
earn nothing; a seat a computer played earns nothing.

At start-up (``catch_up``, in the background), when the catalogue is not the one the records were
last read with (an achievement added, a rule changed), every finished game is read again in the
order they ended, its game replayed from its log (whose logs were deleted, TABLEBOT_KEEP_ACTIONS_DAYS,
count for what their records say): what is missing is granted, for the game that earned it,
without a word in any group.
"""
from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import Any, Awaitable, Callable

from engines import registry
from bot.records.achievements.catalogue import BY_CODE, CATALOGUE, Achievement, signature
from bot.records.achievements.ledger import PROGRESS, REACHED, Ledger, counts, firsts, of_record, played
from bot.records.achievements.plays import Feats, feats, games, replayed, replayed_many
from bot.storage.store import Earned, GameRecord, GameStore, Series
from bot.table.book import Match
from bot.table.changes import Change, Moved, Started
from bot.table.play import RECENT_EVENTS
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import game_name
from bot.workers.pool import think as in_worker

log = logging.getLogger(__name__)

MARK = "achievements"  # the store's mark: the catalogue the records were last read with
BATCH = 50  # games replayed in one job of a worker process
JOBS = 4  # jobs given to the worker processes at a time (bot/workers/pool.py has at most four)

Think = Callable[[Callable[[], Any]], Awaitable[Any]]


class Achievements:
    def __init__(self, store: GameStore, *, think: Think = in_worker, clock: Callable[[], float] = time.time):
        self.store = store
        self.think = think  # runs a picklable job in a worker process (bot/workers/pool.py)
        self.clock = clock

    # ---- hearing a game being played -------------------------------------------------------

    def hear(self, change: Change) -> None:
        """Keep every event of a game this process sees from its start (subscribed to the
        change bus): its end is then decided without a replay."""
        scratch = change.match.scratch
        if isinstance(change, Started):
            opening = change.match.game.last_events  # the set-up's, and forced moves' before the start
            scratch.heard = list(opening) if len(opening) < RECENT_EVENTS else None  # (none cut off)
        elif isinstance(change, Moved) and scratch.heard is not None:
            scratch.heard.extend(change.events)

    # ---- a game's end --------------------------------------------------------------------------

    async def decide(self, match: Match | None, record: GameRecord | None) -> dict[int, list[Achievement]]:
        """Grant what a finished game earned its people; what each person (by user id) earned
        with this very game, in the catalogue's order (the same again after a restart)."""
        if record is None or record.status != "finished":
            return {}
        people = [s for s in record.seats if not s.is_computer and s.user_id is not None and not s.autoplayed]
        if people:
            play = await self._play(match, record)
            series = await self.store.series(record.series_id) if record.series_id is not None else None
            grants = []
            for seat in people:
                grants += await self._earned(record, seat, play, series)
            await self.store.grant(grants)
        return _by_person(await self.store.achievements_of_game(record.game_id))

    async def _earned(self, record: GameRecord, seat, play: Feats, series: Series | None) -> list[Earned]:
        held = {e.code for e in await self.store.achievements_of(seat.user_id)}
        history = await self.store.history(seat.user_id)
        reached, _ = firsts(history, until=(record.ended, record.game_id))
        ended = {game.game_id: game.ended for game in history}
        earned = dict(reached)
        for code in of_record(record, seat, series) | _of_play(record, seat.seat, play):
            earned.setdefault(code, record.game_id)
        return [Earned(seat.user_id, code, game_id, ended.get(game_id, record.ended))
                for code, game_id in earned.items() if code not in held]

    async def _play(self, match: Match | None, record: GameRecord) -> Feats:
        """What happened in the game, from its events as heard, else from a replay of its log."""
        heard = match.scratch.heard if match is not None else None
        if heard is not None and match.game.outcome is not None:
            return feats(record.kind, heard, match.game.outcome, len(record.seats), record.options)
        if record.kind not in games():
            return {}
        inputs = await self.store.replay_inputs([record.game_id])
        if record.game_id not in inputs:
            return {}  # its log is gone: what its record says counts
        seed, moves = inputs[record.game_id]
        return await self.think(partial(replayed, record.kind, len(record.seats), record.options, seed, moves)) or {}

    # ---- the records read again ----------------------------------------------------------------

    async def missed(self) -> None:
        """A game's achievements could not be decided (a bug, logged): the next start reads the
        records again and grants what was missed, silently."""
        try:
            await self.store.set_mark(MARK, "")
        except Exception:
            log.exception("the achievements' mark could not be cleared")

    async def catch_up(self) -> int:
        """Read every finished game again if the catalogue changed since the records were last
        read; the achievements granted (silently: each for the game that earned it)."""
        if await self.store.mark(MARK) == signature():
            return 0
        started = time.monotonic()
        grants = await self.recompute(await self.store.finished_records())
        await self.store.grant(grants)
        await self.store.set_mark(MARK, signature())
        log.info("achievements read from the records again: %d granted in %.1f s", len(grants),
                 time.monotonic() - started)
        return len(grants)

    async def recompute(self, records: list[GameRecord]) -> list[Earned]:
        """Every achievement these records (in the order they ended) earned, each once per person,
        for the first game that earned it."""
        plays = await self._replay_all(records)
        series: dict[int, Series | None] = {}
        for sid in sorted({r.series_id for r in records if r.series_id is not None}):
            series[sid] = await self.store.series(sid)
        ledgers: dict[int, Ledger] = {}
        done: set[tuple[int, str]] = set()
        grants = []
        for record in records:
            for seat in record.seats:
                if seat.is_computer or seat.user_id is None:
                    continue
                ledger = ledgers.setdefault(seat.user_id, Ledger())
                ledger.add(played(record, seat))
                codes = {code for code, reached in REACHED.items() if reached(ledger)}
                if not seat.autoplayed:
                    codes |= of_record(record, seat, series.get(record.series_id))
                    codes |= _of_play(record, seat.seat, plays.get(record.game_id, {}))
                for code in sorted(codes):
                    if (seat.user_id, code) not in done:
                        done.add((seat.user_id, code))
                        grants.append(Earned(seat.user_id, code, record.game_id, record.ended))
        return grants

    async def _replay_all(self, records: list[GameRecord]) -> dict[int, Feats]:
        """Each game's ``feats`` from a replay of its log, BATCH games to a job of the worker
        processes, a few jobs at a time (as many as there are workers, up to JOBS)."""
        deciding = games()
        wanted = [r for r in records if r.kind in deciding]
        out: dict[int, Feats] = {}
        running = asyncio.Semaphore(JOBS)

        async def batch(chunk: list[GameRecord]) -> None:
            async with running:
                inputs = await self.store.replay_inputs([r.game_id for r in chunk])
                ready = [r for r in chunk if r.game_id in inputs]
                results = await self.think(partial(replayed_many, [
                    (r.kind, len(r.seats), r.options, *inputs[r.game_id]) for r in ready]))
            out.update({r.game_id: found for r, found in zip(ready, results) if found})
        await asyncio.gather(*(batch(wanted[i:i + BATCH]) for i in range(0, len(wanted), BATCH)))
        return out

    # ---- what a person reads ---------------------------------------------------------------------

    async def listing(self, user_id: int, name: str, lang: str) -> str:
        """/achievements: every achievement, with what the person has, progress where there is a
        count, and how rare each is among the bot's players."""
        mine = {e.code for e in await self.store.achievements_of(user_id) if e.code in BY_CODE}
        held, players = await self.store.achievement_counts()
        _, ledger = firsts(await self.store.history(user_id))
        lines = [t(lang, "🏅 <b>Achievements</b>: {name}, {n} of {total}", name=in_text(name), n=len(mine),
                   total=len(CATALOGUE))]
        for game in dict.fromkeys(a.game for a in CATALOGUE):  # every game's first, then each game's own
            lines += ["", f"<b>{t(lang, 'Every game') if game is None else game_name(registry.info(game), lang)}</b>"]
            for a in (a for a in CATALOGUE if a.game == game):
                line = f"{'✅' if a.code in mine else '▫️'} {a.icon} <b>{a.title(lang)}</b> — {a.says(lang)}"
                if a.computers:
                    line += " 🤖"
                if a.code not in mine and a.target is not None and a.code in PROGRESS:
                    line += f" · {min(PROGRESS[a.code](ledger), a.target)}/{a.target}"
                lines.append(f"{line} · {_share(held.get(a.code, 0), players)}")
        lines += ["", t(lang, "🤖: games with computers count; without it, only games among people. %: the share of "
                              "my players who have it.")]
        return "\n".join(lines)

    async def summary(self, user_id: int, lang: str) -> str | None:
        """A person's /stats line: how many, and the latest (None: none yet)."""
        mine = [e for e in await self.store.achievements_of(user_id) if e.code in BY_CODE]
        if not mine:
            return None
        latest = BY_CODE[mine[-1].code]
        return t(lang, "🏅 Achievements: {n} of {total} · the latest: {icon} «{name}» · /achievements", n=len(mine),
                 total=len(CATALOGUE), icon=latest.icon, name=latest.title(lang))


def _of_play(record: GameRecord, seat: int, play: Feats) -> set[str]:
    return {code for code, seats in play.items() if seat in seats and code in BY_CODE and counts(record, code)}


def _by_person(earned: list[Earned]) -> dict[int, list[Achievement]]:
    order = {a.code: i for i, a in enumerate(CATALOGUE)}
    out: dict[int, list[Achievement]] = {}
    for e in sorted((e for e in earned if e.code in BY_CODE), key=lambda e: (e.user_id, order[e.code])):
        out.setdefault(e.user_id, []).append(BY_CODE[e.code])
    return out


def _share(holders: int, players: int) -> str:
    """«12%» of the players (a few: «<1%»)."""
    if not holders or not players:
        return "0%"
    share = 100 * holders / players
    return "<1%" if share < 1 else f"{round(share)}%"
