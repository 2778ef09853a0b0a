"""What the two SQL stores share (SQLite in ``bot/storage/sqlite.py``, PostgreSQL in
``bot/storage/postgres.py``): the columns read and how rows become records, and every method that
is one statement or one query, written once in the SQL both databases speak (the schema is
``bot/storage/migrations.py``).

Statements use ``?`` placeholders (SQLite's); the PostgreSQL store numbers them (``$1``…) and
translates the column types of the migrations (see ``postgres.postgres_ddl``), so both databases
have the same tables, columns and schema versions. A store built on :class:`SqlStore` supplies the
few primitives at the bottom of it: reading rows, reading games with their seats, running
statements as one transaction, and inserting a row whose id the database numbers.
"""
from __future__ import annotations

import dataclasses
import json
import time
from typing import Any, Callable, Iterable

from bot.storage.honours import FORGET_USER, HonoursSql
from bot.storage.store import (Chat, Game, GameRecord, PlayedSeat, RatedGame, Rating, RecordSeat, Series,
                               StaleVersion, User)

GAME_COLUMNS = ("id, kind, chat_id, thread_id, status, host_id, options, seed, state, version, "
                "lobby_msg, table_msg, results_msg, last_events, outcome, series_id, created, updated, "
                "idle_turns, table_version, end_shown, inline_msg")
SEAT_COLUMNS = "seat, user_id, name, kind, dm_msg, level, dm_version, result_sent"
RECORD_SEAT_COLUMNS = "seat, user_id, name, kind, level, place, score, team, autoplayed, before, after, games"

# Written by create_game (the lobby and its host's seat) and save_game.
INSERT_GAME = ("INSERT INTO games (kind, chat_id, thread_id, status, host_id, options, seed, created, updated, "
               "series_id, inline_msg) VALUES (?,?,?,?,?,?,?,?,?,?,?)")
INSERT_HOST = "INSERT INTO seats (game_id, seat, user_id, name, kind, level) VALUES (?,?,?,?,?,?)"
INSERT_SERIES = "INSERT INTO series (chat_id, kind, total, users, points, created) VALUES (?,?,?,?,?,?)"
# migrate_chat: posted results stay posted (their id is unknown in the new chat, not lost: a
# restart must not post them again).
MIGRATE_CHAT = [
    "UPDATE games SET chat_id=?, lobby_msg=NULL, table_msg=NULL, "
    "results_msg=CASE WHEN results_msg IS NULL THEN NULL ELSE 0 END WHERE chat_id=?",
    "UPDATE series SET chat_id=? WHERE chat_id=?",
    "UPDATE records SET chat_id=? WHERE chat_id=?",
    "UPDATE season_titles SET chat_id=? WHERE chat_id=?",
    "INSERT INTO chats (chat_id, lang, settings, title) SELECT CAST(? AS BIGINT), lang, settings, title FROM chats "
    "WHERE chat_id=? ON CONFLICT (chat_id) DO NOTHING",
]


def few(names: list[str], most: int = 4) -> str:
    """The first few names, for a one-line error: «a, b, c, d, …»."""
    return ", ".join(names[:most]) + (", …" if len(names) > most else "")


def game_from_row(row: Iterable[Any]) -> Game:
    (gid, kind, chat_id, thread_id, status, host_id, options, seed, state, version, lobby_msg,
     table_msg, results_msg, last_events, outcome, series_id, created, updated, idle_turns, table_version,
     end_shown, inline_msg) = row
    return Game(
        id=gid, kind=kind, chat_id=chat_id, thread_id=thread_id, status=status, host_id=host_id,
        options=json.loads(options), seed=seed, state=json.loads(state) if state else None,
        version=version, lobby_msg=lobby_msg, table_msg=table_msg, results_msg=results_msg,
        last_events=json.loads(last_events), outcome=json.loads(outcome) if outcome else None,
        series_id=series_id, created=created, updated=updated, idle_turns=idle_turns,
        table_version=table_version, end_shown=end_shown, inline_msg=inline_msg,
    )


def series_from_row(row: Iterable[Any]) -> Series:
    sid, chat_id, kind, total, played, users, points, counted = row
    return Series(sid, chat_id, kind, total, played, json.loads(users), json.loads(points), json.loads(counted))


def record_seat_from_row(row: Iterable[Any]) -> RecordSeat:
    seat, user_id, name, kind, level, place, score, team, auto, before, after, games = row
    return RecordSeat(seat, user_id, name, kind, level, place, score, team, bool(auto), before, after, games)


class Unchanged(Exception):
    """The first statement of a guarded transaction changed no row: nothing is committed."""


CACHED_ROWS = 50_000  # chats, and people, whose rows are kept after a read


class SqlStore(HonoursSql):
    """The part of a ``GameStore`` that is the same SQL on every database, and the cache of the
    rows read on every update (a chat's language, a person's settings): kept after the first read;
    every write of them goes through this object, which forgets the row it changes."""

    def __init__(self) -> None:
        self._chats: dict[int, Chat | None] = {}
        self._users: dict[int, User | None] = {}
        self._writes = 0  # a read that overlapped a write of these rows is not kept

    # ---- what a database supplies --------------------------------------------------------

    async def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of one query."""
        raise NotImplementedError

    async def _find(self, where: str, params: tuple = ()) -> list[Game]:
        """Games (``games g``, with their seats) matching ``where``, as one consistent read."""
        raise NotImplementedError

    async def _script(self, statements: list[tuple[str, tuple | list[tuple]]], *,
                      guarded: bool = False) -> list[int] | None:
        """The statements as one transaction (a list of parameter tuples: the statement once for
        each); the rows each changed. ``guarded``: when the first changes no row, nothing is
        committed and the answer is None."""
        raise NotImplementedError

    async def _insert_id(self, sql: str, params: tuple) -> int:
        """One INSERT of a row whose ``id`` the database numbers, committed; that id."""
        raise NotImplementedError

    async def _rekey_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]:
        """``MIGRATE_CHAT`` as one transaction; the ids of the games it moved."""
        raise NotImplementedError

    # ---- games ---------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game | None:
        found = await self._find("WHERE id=?", (game_id,))
        return found[0] if found else None

    async def open_game_at(self, chat_id: int, thread_id: int = 0) -> Game | None:
        found = await self._find("WHERE chat_id=? AND thread_id=? AND status IN ('lobby','running')",
                                 (chat_id, thread_id))
        return found[0] if found else None

    async def open_games(self) -> list[Game]:
        return await self._find("WHERE status IN ('lobby','running') ORDER BY id")

    async def open_games_of(self, user_id: int) -> list[Game]:
        return await self._find("WHERE status IN ('lobby','running') AND EXISTS "
                                "(SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id=?) ORDER BY id",
                                (user_id,))

    async def game_on_inline(self, inline_msg: str) -> Game | None:
        found = await self._find("WHERE inline_msg=?", (inline_msg,))
        return found[0] if found else None

    async def unshown_ends(self, within_days: float = 7) -> list[Game]:
        """Recent games that ended (finished, or cancelled while running) but whose end was not
        all shown (their results, a person's own result in private, why it was cancelled: the
        bot stopped in between)."""
        return await self._find("WHERE end_shown=0 AND (status='finished' OR status='cancelled' AND state IS NOT "
                                "NULL) AND updated > ? ORDER BY id", (time.time() - within_days * 86400,))

    async def all_games(self) -> list[Game]:
        return await self._find("ORDER BY id")

    async def save_game(self, game: Game, *, action: tuple[int, str] | None = None,
                        by_computer: bool = False, seats_changed: bool = False) -> None:
        """Write the game with a version check; bump its version; append ``action`` to the log.

        ``game.version`` must be the version that was read; on success it is incremented.
        """
        now = time.time()
        if await self._script(self._save_statements(game, action, by_computer, seats_changed, now),
                              guarded=True) is None:
            raise StaleVersion(game.id)
        game.version += 1
        game.updated = now

    @staticmethod
    def _save_statements(game: Game, action: tuple[int, str] | None, by_computer: bool, seats_changed: bool,
                         now: float) -> list[tuple[str, Any]]:
        """save_game's statements: the version-checked update first."""
        statements: list[tuple[str, Any]] = [(
            "UPDATE games SET status=?, host_id=?, options=?, state=?, version=version+1, "
            "last_events=?, outcome=?, series_id=?, idle_turns=?, updated=? "
            "WHERE id=? AND version=?",
            (game.status, game.host_id, json.dumps(game.options),
             json.dumps(game.state) if game.state is not None else None,
             json.dumps(game.last_events),
             json.dumps(game.outcome) if game.outcome is not None else None,
             game.series_id, game.idle_turns, now, game.id, game.version))]
        if action is not None:
            seat, code = action
            statements.append(("INSERT INTO actions (game_id, n, seat, action, at, auto) VALUES (?,?,?,?,?,?)",
                               (game.id, game.version, seat, code, now, int(by_computer))))
        if seats_changed:
            statements.append(("DELETE FROM seats WHERE game_id=?", (game.id,)))
            statements.append((
                f"INSERT INTO seats (game_id, {SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
                [(game.id, s.seat, s.user_id, s.name, s.kind, s.dm_msg, s.level, s.dm_version, int(s.result_sent))
                 for s in game.seats]))
        return statements

    async def save_messages(self, game: Game) -> None:
        """Store message ids and the version each shows (not game logic: no version bump)."""
        await self._script([
            ("UPDATE games SET lobby_msg=?, table_msg=?, results_msg=?, table_version=?, end_shown=? WHERE id=?",
             (game.lobby_msg, game.table_msg, game.results_msg, game.table_version, int(game.end_shown), game.id)),
            ("UPDATE seats SET dm_msg=?, dm_version=?, result_sent=? WHERE game_id=? AND seat=?",
             [(s.dm_msg, s.dm_version, int(s.result_sent), game.id, s.seat) for s in game.seats])])

    async def actions(self, game_id: int) -> list[tuple[int, int, str]]:
        return await self._rows("SELECT n, seat, action FROM actions WHERE game_id=? ORDER BY n", (game_id,))

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]:
        """Re-key every game and the chat row of a group that became a supergroup."""
        for chat_id in (old_chat_id, new_chat_id):
            self._forget(self._chats, chat_id)
        ids = await self._rekey_chat(old_chat_id, new_chat_id)
        for chat_id in (old_chat_id, new_chat_id):
            self._forget(self._chats, chat_id)
        return ids

    # ---- users and chats ---------------------------------------------------------------

    async def _cached(self, cache: dict, key: int, read: Callable) -> Any:
        if key in cache:
            return cache[key]
        writes = self._writes
        row = await read(key)
        if writes == self._writes:
            cache[key] = row
            if len(cache) > CACHED_ROWS:  # the oldest read goes: memory does not grow with everyone ever seen
                del cache[next(iter(cache))]
        return row

    def _forget(self, cache: dict, key: int) -> None:
        """Called before the row is written: the next read goes to the database."""
        cache.pop(key, None)
        self._writes += 1

    async def _write(self, sql: str, params: tuple, *, row: tuple[dict, int] | None = None) -> None:
        """One statement; ``row``: the cached row it changes, forgotten before and after (a read
        that started in between may have read the old row)."""
        if row is not None:
            self._forget(*row)
        await self._script([(sql, params)])
        if row is not None:
            self._forget(*row)

    async def touch_user(self, user_id: int, name: str, username: str | None, lang_code: str | None) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, username, lang, updated) VALUES (?,?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET name=excluded.name, username=excluded.username, "
            "lang=CASE WHEN users.lang_chosen=1 THEN users.lang ELSE excluded.lang END, "
            "updated=excluded.updated",
            (user_id, name, username, lang_code, time.time()), row=(self._users, user_id))

    async def user(self, user_id: int) -> User | None:
        return await self._cached(self._users, user_id, self._read_user)  # frozen: shared safely

    async def _read_user(self, user_id: int) -> User | None:
        rows = await self._rows(
            "SELECT user_id, name, username, lang, lang_chosen, private_ok, notify, ping_msg, forgotten FROM users "
            "WHERE user_id=?", (user_id,))
        if not rows:
            return None
        user_id, name, username, lang, lang_chosen, private_ok, notify, ping_msg, forgotten = rows[0]
        return User(user_id, name, username, lang, bool(lang_chosen), bool(private_ok), bool(notify), ping_msg,
                    bool(forgotten))

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, private_ok, updated) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET private_ok=excluded.private_ok", (user_id, int(ok), time.time()),
            row=(self._users, user_id))

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, notify, updated) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET notify=excluded.notify", (user_id, int(on), time.time()),
            row=(self._users, user_id))

    async def set_ping(self, user_id: int, message_id: int | None) -> None:
        await self._write("UPDATE users SET ping_msg=? WHERE user_id=?", (message_id, user_id),
                          row=(self._users, user_id))

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        await self._write(
            "INSERT INTO users (user_id, lang, lang_chosen, updated) VALUES (?,?,1,?) "
            "ON CONFLICT(user_id) DO UPDATE SET lang=excluded.lang, lang_chosen=1", (user_id, lang, time.time()),
            row=(self._users, user_id))

    async def chat(self, chat_id: int) -> Chat | None:
        row = await self._cached(self._chats, chat_id, self._read_chat)
        # The settings are a dict the caller may change: theirs, not the cache's.
        return dataclasses.replace(row, settings=dict(row.settings)) if row is not None else None

    async def _read_chat(self, chat_id: int) -> Chat | None:
        rows = await self._rows("SELECT chat_id, lang, settings, title FROM chats WHERE chat_id=?", (chat_id,))
        if not rows:
            return None
        chat_id, lang, settings, title = rows[0]
        return Chat(chat_id, lang, json.loads(settings), title)

    async def set_chat(self, chat_id: int, *, lang: str | None = None, title: str | None = None,
                       settings: dict[str, Any] | None = None) -> None:
        current = await self.chat(chat_id) or Chat(chat_id, None, {}, None)
        await self._write(
            "INSERT INTO chats (chat_id, lang, settings, title) VALUES (?,?,?,?) "
            "ON CONFLICT(chat_id) DO UPDATE SET lang=excluded.lang, settings=excluded.settings, "
            "title=excluded.title",
            (chat_id, lang if lang is not None else current.lang,
             json.dumps(settings if settings is not None else current.settings),
             title if title is not None else current.title), row=(self._chats, chat_id))

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None:
        row = await self.chat(chat_id)
        settings = row.settings if row else {}  # already a copy
        settings[key] = value
        await self.set_chat(chat_id, settings=settings)

    # ---- series ------------------------------------------------------------------------

    async def create_series(self, chat_id: int, kind: str, total: int, users: list[int]) -> Series:
        points = {str(u): 0 for u in users}
        sid = await self._insert_id(INSERT_SERIES, (chat_id, kind, total, json.dumps(users), json.dumps(points),
                                                    time.time()))
        return Series(sid, chat_id, kind, total, 0, users, points)

    async def series(self, series_id: int) -> Series | None:
        rows = await self._rows(
            "SELECT id, chat_id, kind, total, played, users, points, counted FROM series WHERE id=?", (series_id,))
        return series_from_row(rows[0]) if rows else None

    async def save_series(self, s: Series) -> None:
        await self._script([("UPDATE series SET played=?, points=?, counted=? WHERE id=?",
                             (s.played, json.dumps(s.points), json.dumps(s.counted), s.id))])

    # ---- records and ratings -------------------------------------------------------------

    async def unrecorded_games(self) -> list[Game]:
        """Games that are over (finished, or cancelled after they began) with no record yet,
        in the order they ended: those of an older version, or one the bot stopped before
        recording."""
        return await self._find("WHERE (status='finished' OR (status='cancelled' AND state IS NOT NULL)) "
                                "AND NOT EXISTS (SELECT 1 FROM records r WHERE r.game_id = g.id) "
                                "ORDER BY updated, id")

    async def move_counts(self, game_id: int) -> dict[int, tuple[int, int]]:
        """Per seat: (moves in the log, of which a computer made)."""
        rows = await self._rows("SELECT seat, COUNT(*), CAST(SUM(auto) AS INTEGER) FROM actions WHERE game_id=? "
                                "GROUP BY seat", (game_id,))
        return {seat: (moves, auto or 0) for seat, moves, auto in rows}

    async def record_game(self, record: GameRecord, ratings: list[Rating]) -> bool:
        """Keep a game's record and the ratings it moved, in one transaction; False (and nothing
        changed) when the game was recorded already."""
        r = record
        return await self._script([
            ("INSERT INTO records (game_id, kind, chat_id, thread_id, status, rated, options, series_id, started, "
             "ended) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id) DO NOTHING",
             (r.game_id, r.kind, r.chat_id, r.thread_id, r.status, int(r.rated), json.dumps(r.options),
              r.series_id, r.started, r.ended)),
            (f"INSERT INTO record_seats (game_id, {RECORD_SEAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
             [(r.game_id, s.seat, s.user_id, s.name, s.kind, s.level, s.place, s.score, s.team,
               int(s.autoplayed), s.before, s.after, s.games) for s in r.seats]),
            ("INSERT INTO ratings (kind, user_id, mu, sigma, figure, games) VALUES (?,?,?,?,?,?) "
             "ON CONFLICT(kind, user_id) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma, "
             "figure=excluded.figure, games=excluded.games",
             [(x.kind, x.user_id, x.mu, x.sigma, x.figure, x.games) for x in ratings]),
        ], guarded=True) is not None

    async def _records(self, where: str, params: tuple, *, order: str = "", many: bool = False
                       ) -> list[GameRecord]:
        """Records (``records r``, with the game's results message) matching ``where`` (``order``:
        e.g. ``ORDER BY r.ended``), and their seats; ``many``: there may be many thousands, so
        the seats are read with the same condition rather than by a list of the records' ids."""
        rows = await self._rows(
            "SELECT r.game_id, r.kind, r.chat_id, r.thread_id, r.status, r.rated, r.options, r.series_id, "
            f"r.started, r.ended, g.results_msg FROM records r LEFT JOIN games g ON g.id = r.game_id {where} {order}",
            params)
        found = {gid: GameRecord(gid, kind, chat_id, thread_id, status, bool(rated), json.loads(options), series_id,
                                 started, ended, results_msg=results_msg)
                 for (gid, kind, chat_id, thread_id, status, rated, options, series_id, started, ended, results_msg)
                 in rows}
        if found:
            if many:
                columns = ", ".join("s." + c for c in RECORD_SEAT_COLUMNS.split(", "))
                seats = await self._rows(f"SELECT s.game_id, {columns} FROM record_seats s JOIN records r "
                                         f"ON r.game_id = s.game_id {where} ORDER BY s.game_id, s.seat", params)
            else:
                marks = ",".join("?" * len(found))
                seats = await self._rows(f"SELECT game_id, {RECORD_SEAT_COLUMNS} FROM record_seats "
                                         f"WHERE game_id IN ({marks}) ORDER BY game_id, seat", tuple(found))
            for row in seats:
                if row[0] in found:
                    found[row[0]].seats.append(record_seat_from_row(row[1:]))
        return list(found.values())

    async def game_record(self, game_id: int) -> GameRecord | None:
        found = await self._records("WHERE r.game_id=?", (game_id,))
        return found[0] if found else None

    async def chat_records(self, chat_id: int, limit: int) -> list[GameRecord]:
        """The chat's latest records, newest first."""
        return await self._records("WHERE r.chat_id=? AND r.status!='forgotten' ORDER BY r.ended DESC, "
                                   "r.game_id DESC LIMIT ?", (chat_id, limit))

    async def chat_counts(self, chat_id: int) -> dict[str, int]:
        """Finished games recorded in the chat, by game."""
        rows = await self._rows("SELECT kind, COUNT(*) FROM records WHERE chat_id=? AND status='finished' "
                                "GROUP BY kind", (chat_id,))
        return dict(rows)

    async def ratings(self, kind: str, user_ids: list[int]) -> dict[int, Rating]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._rows(f"SELECT user_id, kind, mu, sigma, figure, games FROM ratings WHERE kind=? "
                                f"AND user_id IN ({marks})", (kind, *user_ids))
        return {row[0]: Rating(*row) for row in rows}

    async def top(self, kind: str, *, min_games: int, limit: int,
                  chat_id: int | None = None) -> list[tuple[Rating, str]]:
        """The best ratings at ``kind`` of people with ``min_games`` rated games or more, with
        their names: everyone's, or of those who played it in ``chat_id``. People who asked to be
        forgotten have no rating left (and are not rated again)."""
        # The name Telegram gave last, else the one of their latest recorded seat.
        sql = ("SELECT x.user_id, x.kind, x.mu, x.sigma, x.figure, x.games, COALESCE(NULLIF(u.name, ''), "
               "(SELECT s.name FROM record_seats s WHERE s.user_id = x.user_id AND s.name IS NOT NULL "
               "ORDER BY s.game_id DESC LIMIT 1), '') "
               "FROM ratings x LEFT JOIN users u ON u.user_id = x.user_id "
               "WHERE x.kind=? AND x.games>=? AND COALESCE(u.forgotten, 0)=0 ")
        params: tuple = (kind, min_games)
        if chat_id is not None:
            # The group's games of this kind first (an index), then their players: a few hundred
            # rows, however many games the bot holds elsewhere.
            sql += ("AND x.user_id IN (SELECT s.user_id FROM records r JOIN record_seats s ON s.game_id = r.game_id "
                    "WHERE r.chat_id=? AND r.kind=?) ")
            params += (chat_id, kind)
        rows = await self._rows(sql + "ORDER BY x.figure DESC, x.games DESC, x.user_id LIMIT ?", params + (limit,))
        return [(Rating(*row[:6]), row[6]) for row in rows]

    async def played(self, user_id: int) -> list[PlayedSeat]:
        """Every recorded game of a person, oldest first."""
        rows = await self._rows(
            "SELECT r.kind, s.place, (SELECT COUNT(*) FROM record_seats o WHERE o.game_id = r.game_id), "
            "s.score, r.status, r.ended FROM record_seats s JOIN records r ON r.game_id = s.game_id "
            "WHERE s.user_id=? ORDER BY r.ended, r.game_id", (user_id,))
        return [PlayedSeat(*row) for row in rows]

    async def rating_history(self, user_id: int) -> list[RatedGame]:
        """Every rated game of a person, oldest first: the seats whose rating the game moved
        (a forgotten person's seats lost their id and figures, so they have none)."""
        rows = await self._rows(
            "SELECT r.kind, s.before, s.after, s.games, r.ended FROM record_seats s "
            "JOIN records r ON r.game_id = s.game_id WHERE s.user_id=? AND r.rated=1 AND s.after IS NOT NULL "
            "AND s.before IS NOT NULL ORDER BY r.ended, r.game_id", (user_id,))
        return [RatedGame(*row) for row in rows]

    async def forget_user(self, user_id: int) -> None:
        """/forgetme: the person's ratings go, their seats in records and in games that are over
        lose their id and name (they read «a player»), their achievements, season ratings and
        titles go, and they are not recorded again."""
        self._forget(self._users, user_id)
        await self._script([
            ("DELETE FROM ratings WHERE user_id=?", (user_id,)),
            *[(sql, (user_id,)) for sql in FORGET_USER],
            ("UPDATE record_seats SET user_id=NULL, name=NULL, before=NULL, after=NULL WHERE user_id=?", (user_id,)),
            ("UPDATE seats SET name='' WHERE user_id=? AND game_id IN "
             "(SELECT id FROM games WHERE status IN ('finished','cancelled'))", (user_id,)),
            ("INSERT INTO users (user_id, forgotten, updated) VALUES (?,1,?) "
             "ON CONFLICT(user_id) DO UPDATE SET forgotten=1", (user_id, time.time()))])
        self._forget(self._users, user_id)

    async def forget_chat(self, chat_id: int) -> int:
        """/forgetgroup: every record of the group goes, and the names in its games that are over
        (ratings are the players' own and stay); returns how many games. A record is kept as
        "forgotten" with nothing in it, so that the game is not recorded again at the next start."""
        changed = await self._script([
            ("DELETE FROM record_seats WHERE game_id IN (SELECT game_id FROM records WHERE chat_id=?)", (chat_id,)),
            ("UPDATE seats SET name='' WHERE game_id IN (SELECT id FROM games WHERE chat_id=? "
             "AND status IN ('finished','cancelled'))", (chat_id,)),
            ("UPDATE records SET status='forgotten', rated=0, options='{}' WHERE chat_id=? AND status!='forgotten'",
             (chat_id,))])
        return changed[-1]

    async def prune_actions(self, before: float) -> int:
        """Delete the move logs of recorded games that ended before ``before`` (statistics live
        in the records); returns how many moves went."""
        changed = await self._script([
            ("DELETE FROM actions WHERE game_id IN (SELECT game_id FROM records WHERE ended < ?)", (before,))])
        return changed[0]

    # ---- the operator's figures --------------------------------------------------------

    async def games_by_status(self) -> dict[str, int]:
        """How many games there are of each status (``/metrics``): one grouped count on an index."""
        return dict(await self._rows("SELECT status, COUNT(*) FROM games GROUP BY status"))

    async def activity(self, since: float) -> tuple[int, int]:
        """The people (not computers) seated in a game written since ``since`` (they joined or
        played), and the games finished since then (the owner's /botstats)."""
        rows = await self._rows(
            "SELECT (SELECT COUNT(DISTINCT s.user_id) FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.updated >= ? AND s.kind = 'human'), "
            "(SELECT COUNT(*) FROM games WHERE status = 'finished' AND updated >= ?)", (since, since))
        players, finished = rows[0]
        return players, finished
