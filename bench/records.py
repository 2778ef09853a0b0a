"""``python -m bench records [games]``: /top, /stats and /history over a database of recorded games.

Fills a new SQLite file with ``games`` (10,000) finished games of the four games in 50 groups
among 600 people, rated in order with openskill as the bot does, then times the answers the
commands read from the store (``bot/records/stats.py``; the first call after the fill
may wait for SQLite's checkpoint of the write-ahead log, and this machine is shared: p95): /top in a group and everywhere, a group's
/stats and /history, a person's /stats. The target: /top within 50 ms at 10,000 games.
"""
from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from engines import registry
from bot.records import rating
from bot.records.achievements.keeper import Achievements
from bot.records.calendar import Calendar
from bot.records.seasons import SeasonRatings
from bot.records.stats import Stats
from bot.storage.store import GameRecord, Rating, RecordSeat
from bot.storage.choose import make_store
from bench.measure import timed

KINDS = registry.game_ids()
GROUPS, PEOPLE = 50, 600


async def _fill(store, games: int, rng: random.Random) -> None:
    skills: dict[tuple[str, int], tuple[rating.Skill, int]] = {}
    members = {g: rng.sample(range(1, PEOPLE + 1), 25) for g in range(GROUPS)}
    for gid in range(1, games + 1):
        group = rng.randrange(GROUPS)
        kind = rng.choice(KINDS)
        users = rng.sample(members[group], rng.randint(2, 4))
        places = list(range(1, len(users) + 1))
        rng.shuffle(places)
        before = [skills.get((kind, u), (rating.NEW, 0)) for u in users]
        after = rating.rate([[s] for s, _ in before], places)
        seats, ratings = [], []
        for i, (u, (old, n), [new]) in enumerate(zip(users, before, after)):
            skills[(kind, u)] = (new, n + 1)
            seats.append(RecordSeat(i, u, f"Player {u}", place=places[i], score=rng.randint(0, 18), team=i,
                                    before=old.figure, after=new.figure, games=n + 1))
            ratings.append(Rating(u, kind, new.mu, new.sigma, new.figure, n + 1))
        await store.record_game(GameRecord(gid, kind, -1000 - group, 0, "finished", True, {}, None,
                                           gid * 600.0, gid * 600.0 + 500, seats), ratings)


async def _figures(games: int) -> list[tuple[str, float, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await make_store(str(Path(tmp) / "records.sqlite3")).open()
        try:
            started = time.perf_counter()
            await _fill(store, games, random.Random(1))
            rows.append((f"records: {games} games recorded and rated", time.perf_counter() - started, "s"))
            # (the commands timed here draw nothing; the games were rated before seasons: of all time)
            stats = Stats(store, None, None, SeasonRatings(store, Calendar()), Achievements(store), render=None)
            cases = [("/top cones all in a group", lambda: stats.top(["cones", "all"], -1007, "en")),
                     ("/top cones all everywhere (private)", lambda: stats.top(["cones", "all"], None, "en")),
                     ("/top cones of the season in a group", lambda: stats.top(["cones"], -1007, "en")),
                     ("/stats of a group", lambda: stats.group(-1007, "", "en")),
                     ("/history of a group", lambda: stats.history(-1007, "en")),
                     ("/stats of a person", lambda: stats.person(7, "Player 7", "en"))]
            for label, make in cases:
                times = await timed(make)
                rows.append((f"records: {label} at {games} games, first call", times[0], "ms"))
                rows.append((f"records: {label} at {games} games, median of 50", statistics.median(times), "ms"))
                rows.append((f"records: {label} at {games} games, p95 of 50", sorted(times)[47], "ms"))
        finally:
            await store.close()
    return rows


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    games = int(argv[0]) if argv else 10_000
    return asyncio.run(_figures(games))
