"""``python -m bench honours [games]`` (and part of ``python -m bench records``): achievements and
seasons over a database of recorded games with their move logs.

Plays ``DISTINCT`` real games of the four games by random legal moves, then fills a new SQLite
file with ``games`` (10,000) finished games made of them (each with its seed, move log, outcome,
seats and record) in 50 groups among 600 people, ended ten minutes apart (about ten weeks, three
calendar months). Then times:

- deciding a game's achievements at its end (``Achievements.decide``) for a person with many
  games: from the game's events as heard being played (the usual case), and from a replay of
  its log in the worker process (a game the process did not see from its start);
- reading every achievement again from all the records (``Achievements.recompute``: every game
  replayed in the worker process, 50 to a job), as a start after the catalogue changed does;
- counting every game in its season's ratings (``SeasonRatings.catch_up_past``), and closing a
  season (its champions in each group that played, its messages due: ``SeasonEnd.close``).
"""
from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from engines import registry
from engines.base import event_dict, options_from_dict
from bot.games import kit_for
from bot.records.achievements.keeper import Achievements
from bot.records.calendar import Calendar
from bot.records.season_end import SeasonEnd
from bot.records.seasons import SeasonRatings
from bot.storage.choose import make_store
from bench.measure import timed
from bot.table.book import GameBook
from bot.workers import pool

KINDS = registry.game_ids()
DISTINCT = 120  # real games, reused with other people and groups
GROUPS, PEOPLE = 50, 600
START = 1_800_000_000.0  # 2027-01-15


def _play(kind: str, players: int, seed: int) -> dict:
    eng = registry.engine(kind)
    rng = random.Random(seed)
    state = eng.setup(players, options_from_dict(eng.Options, {}), seed)
    log, events = [], []
    while eng.current_player(state) is not None:
        seat = eng.current_player(state)
        action = rng.choice(eng.legal_actions(state, seat))
        log.append((seat, eng.encode_action(action)))
        state, happened = eng.apply(state, seat, action)
        events += [event_dict(e) for e in happened]
    result = eng.outcome(state)
    outcome = {"places": list(result.places), "reason": result.reason,
               "scores": json.loads(json.dumps(list(result.scores)))}
    scores = [kit_for(kind).ui.score(outcome, seat) for seat in range(players)]
    return {"kind": kind, "players": players, "seed": seed, "log": log, "events": events, "outcome": outcome,
            "scores": scores}


def _fill(path: str, games: int, templates: list[dict], rng: random.Random) -> None:
    members = {g: rng.sample(range(1, PEOPLE + 1), 25) for g in range(GROUPS)}
    rows: dict[str, list[tuple]] = {"games": [], "seats": [], "actions": [], "records": [], "record_seats": []}
    for gid in range(1, games + 1):
        t = templates[gid % len(templates)]
        group = rng.randrange(GROUPS)
        chat_id = -1000 - group
        users = rng.sample(members[group], t["players"])
        ended = START + gid * 600.0
        rows["games"].append((gid, t["kind"], chat_id, "finished", users[0], "{}", t["seed"], json.dumps(t["outcome"]),
                              ended - 500, ended, 1))
        rows["records"].append((gid, t["kind"], chat_id, 0, "finished", 1, "{}", None, ended - 500, ended))
        for seat, user in enumerate(users):
            rows["seats"].append((gid, seat, user, f"Player {user}", "human"))
            rows["record_seats"].append((gid, seat, user, f"Player {user}", "human", None, t["outcome"]["places"][seat],
                                         t["scores"][seat], seat, 0, None, None, 0))
        for n, (seat, code) in enumerate(t["log"]):
            rows["actions"].append((gid, n, seat, code, ended - 400 + n, 0))
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany("INSERT INTO games (id, kind, chat_id, status, host_id, options, seed, outcome, created, "
                         "updated, end_shown) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows["games"])
        conn.executemany("INSERT INTO seats (game_id, seat, user_id, name, kind) VALUES (?,?,?,?,?)", rows["seats"])
        conn.executemany("INSERT INTO actions (game_id, n, seat, action, at, auto) VALUES (?,?,?,?,?,?)",
                         rows["actions"])
        conn.executemany("INSERT INTO records (game_id, kind, chat_id, thread_id, status, rated, options, series_id, "
                         "started, ended) VALUES (?,?,?,?,?,?,?,?,?,?)", rows["records"])
        conn.executemany("INSERT INTO record_seats (game_id, seat, user_id, name, kind, level, place, score, team, "
                         "autoplayed, before, after, games) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows["record_seats"])
    conn.close()


async def _figures(games: int) -> list[tuple[str, float, str]]:
    rows = []
    started = time.perf_counter()
    templates = [_play(kind, 2 + i % 3, 1000 + i) for i in range(DISTINCT // len(KINDS)) for kind in KINDS]
    rows.append((f"honours: {len(templates)} real games played to fill the records", time.perf_counter() - started, "s"))
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "honours.sqlite3")
        store = await make_store(path).open()
        await store.close()
        started = time.perf_counter()
        _fill(path, games, templates, random.Random(2))
        rows.append((f"honours: {games} games with their logs written", time.perf_counter() - started, "s"))
        store = await make_store(path).open()
        try:
            rows += await _achievements(store, games, templates)
            rows += await _seasons(store, games)
        finally:
            await store.close()
            pool.shutdown()
    return rows


async def _achievements(store, games: int, templates: list[dict]) -> list[tuple[str, float, str]]:
    rows = []
    keeper = Achievements(store)
    records = await store.finished_records()
    started = time.perf_counter()
    grants = await keeper.recompute(records)
    rows.append((f"achievements: recomputed over {games} recorded games (replayed in a worker)",
                 time.perf_counter() - started, "s"))
    await store.grant(grants)
    rows.append((f"achievements: granted by the {games} games", len(grants), "rows"))
    # A game's end, for the person with the most games: as heard, and from a replay.
    busiest = max({s.user_id for r in records[-500:] for s in r.seats},
                  key=lambda u: sum(1 for r in records for s in r.seats if s.user_id == u))
    record = next(r for r in reversed(records) if any(s.user_id == busiest for s in r.seats))
    match = GameBook(store, bot_username="bench").put(await store.get_game(record.game_id))
    match.scratch.heard = templates[record.game_id % len(templates)]["events"]
    history = len(await store.history(busiest))
    heard = await timed(lambda: keeper.decide(match, record), 50)
    rows.append((f"achievements: decided at a game's end, as heard ({history} games of the busiest), median",
                 statistics.median(heard), "ms"))
    rows.append(("achievements: decided at a game's end, as heard, p95", sorted(heard)[47], "ms"))
    match.scratch.heard = None
    await keeper.decide(match, record)  # (the worker process started)
    replay = await timed(lambda: keeper.decide(match, record), 20)
    rows.append((f"achievements: decided at a game's end, replayed ({record.kind}), median", statistics.median(replay),
                 "ms"))
    return rows


async def _seasons(store, games: int) -> list[tuple[str, float, str]]:
    rows = []
    seasons = SeasonRatings(store, Calendar("month"), clock=lambda: START + (games + 1) * 600.0)
    started = time.perf_counter()
    counted = await seasons.catch_up() + await seasons.catch_up_past()
    rows.append((f"seasons: {counted} games counted in their seasons' ratings", time.perf_counter() - started, "s"))
    end = SeasonEnd(seasons, None, None, None, None)
    march = seasons.calendar.at(START + games * 300.0)
    started = time.perf_counter()
    await end.close(march, time.time(), announce=True)
    news = await store.due_season_news()
    rows.append((f"seasons: a month closed, champions and {len(news)} groups' messages due",
                 (time.perf_counter() - started) * 1000, "ms"))
    text = await timed(lambda: end.text(news[0], "ru"), 20)
    rows.append(("seasons: one group's season message worded, median", statistics.median(text), "ms"))
    return rows


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    games = int(argv[0]) if argv else 10_000
    return asyncio.run(_figures(games))
