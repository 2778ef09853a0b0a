"""The game store on SQLite through aiosqlite: the source of truth (memory is only a cache).

WAL mode; numbered migrations applied at start-up; one transaction per accepted action that
appends to the action log and writes the new state with a version check (optimistic
concurrency), committed before any message goes out. Implements ``bot.store.GameStore``.

``open()`` refuses a database it cannot use with a ``StoreError`` of one line (the file, what is
wrong, what to do) before anything is changed: a directory, a file that is not SQLite or is
damaged (``PRAGMA quick_check``), another program's database, one written by a newer version of
the bot, or one this user cannot write. A missing directory is created.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from typing import Any, AsyncIterator, Iterable

import aiosqlite

from bot.store import Game, PlaceTaken, Seat, Series, StaleVersion

log = logging.getLogger(__name__)

BUSY_SECONDS = 5.0  # a write waits this long for another connection's lock
_SQLITE_HEADER = b"SQLite format 3\x00"

MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE chats (
        chat_id   INTEGER PRIMARY KEY,
        lang      TEXT,
        settings  TEXT NOT NULL DEFAULT '{}',
        title     TEXT
    );
    CREATE TABLE users (
        user_id       INTEGER PRIMARY KEY,
        name          TEXT NOT NULL DEFAULT '',
        username      TEXT,
        lang          TEXT,
        lang_chosen   INTEGER NOT NULL DEFAULT 0,
        private_ok    INTEGER NOT NULL DEFAULT 0,
        updated       REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE series (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id   INTEGER NOT NULL,
        kind      TEXT NOT NULL,
        total     INTEGER NOT NULL,
        played    INTEGER NOT NULL DEFAULT 0,
        users     TEXT NOT NULL,
        points    TEXT NOT NULL,
        created   REAL NOT NULL
    );
    CREATE TABLE games (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        kind         TEXT NOT NULL,
        chat_id      INTEGER NOT NULL,
        thread_id    INTEGER NOT NULL DEFAULT 0,
        status       TEXT NOT NULL CHECK (status IN ('lobby','running','finished','cancelled')),
        host_id      INTEGER NOT NULL,
        options      TEXT NOT NULL DEFAULT '{}',
        seed         INTEGER NOT NULL,
        state        TEXT,
        version      INTEGER NOT NULL DEFAULT 0,
        lobby_msg    INTEGER,
        table_msg    INTEGER,
        results_msg  INTEGER,
        last_events  TEXT NOT NULL DEFAULT '[]',
        outcome      TEXT,
        series_id    INTEGER REFERENCES series(id),
        created      REAL NOT NULL,
        updated      REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_place ON games(chat_id, thread_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games(status);
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        seat      INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        name      TEXT NOT NULL,
        kind      TEXT NOT NULL DEFAULT 'human',
        dm_msg    INTEGER,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE actions (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        n         INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,
        at        REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    """,
    # 2: turns in a row the bot played for absent players (a game nobody plays is closed).
    """
    ALTER TABLE games ADD COLUMN idle_turns INTEGER NOT NULL DEFAULT 0
    """,
    # 3: turn pings (a person may switch them off; the last one is deleted when the next comes),
    # computer players (the level playing a seat), each game counted once in its series, and the
    # version each game message shows (after a crash, what lags behind the store is redrawn).
    """
    ALTER TABLE games ADD COLUMN table_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN dm_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN notify INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE users ADD COLUMN ping_msg INTEGER;
    ALTER TABLE seats ADD COLUMN level TEXT;
    ALTER TABLE series ADD COLUMN counted TEXT NOT NULL DEFAULT '[]'
    """,
]


_GAME_COLUMNS = ("id, kind, chat_id, thread_id, status, host_id, options, seed, state, version, "
                 "lobby_msg, table_msg, results_msg, last_events, outcome, series_id, created, updated, "
                 "idle_turns, table_version")


def _game_from_row(row: Iterable[Any]) -> Game:
    (gid, kind, chat_id, thread_id, status, host_id, options, seed, state, version, lobby_msg,
     table_msg, results_msg, last_events, outcome, series_id, created, updated, idle_turns, table_version) = row
    return Game(
        id=gid, kind=kind, chat_id=chat_id, thread_id=thread_id, status=status, host_id=host_id,
        options=json.loads(options), seed=seed, state=json.loads(state) if state else None,
        version=version, lobby_msg=lobby_msg, table_msg=table_msg, results_msg=results_msg,
        last_events=json.loads(last_events), outcome=json.loads(outcome) if outcome else None,
        series_id=series_id, created=created, updated=updated, idle_turns=idle_turns,
        table_version=table_version,
    )


class StoreError(Exception):
    """The database cannot be used; the message is one line for the operator."""


def _few(names: list[str], most: int = 4) -> str:
    return ", ".join(names[:most]) + (", …" if len(names) > most else "")


def _check_path(path: str) -> None:
    """What can be told from the file system before SQLite opens the file."""
    if path == ":memory:" or path.startswith("file:"):
        return
    full = os.path.abspath(path)
    directory = os.path.dirname(full)
    if os.path.isdir(full):
        raise StoreError(f"{path} is a directory, not a database file: set TABLEBOT_DB to a file path, "
                         f"e.g. {os.path.join(path, 'tablebot.sqlite3')}")
    if not os.path.exists(directory):
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory {directory} for {path} ({exc.strerror}): "
                             "create it yourself, or point TABLEBOT_DB elsewhere") from None
        log.info("created the directory %s for the database", directory)
    elif not os.path.isdir(directory):
        raise StoreError(f"{directory} is not a directory, so {path} cannot be created in it: "
                         "point TABLEBOT_DB elsewhere")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise StoreError(f"the directory {directory} is not writable by this user (the database keeps "
                         f"{os.path.basename(full)}-wal and -shm files beside {path}): fix its permissions, "
                         "or point TABLEBOT_DB elsewhere")
    if not os.path.exists(full):
        return  # a new database
    if not os.path.isfile(full):
        raise StoreError(f"{path} is not a regular file: point TABLEBOT_DB at a database file")
    if not os.access(full, os.R_OK | os.W_OK):
        raise StoreError(f"{path} is not readable and writable by this user: fix its permissions "
                         "(chown/chmod), or point TABLEBOT_DB elsewhere")
    try:
        with open(full, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"cannot read {path} ({exc.strerror}): fix its permissions, or point TABLEBOT_DB elsewhere") from None
    if head and head != _SQLITE_HEADER:
        raise StoreError(f"{path} is not an SQLite database (damaged, or another kind of file): restore it "
                         "from a backup, or point TABLEBOT_DB at a new file")


def _explain(path: str, exc: sqlite3.Error) -> str:
    """One line for an SQLite error met while opening and checking the database."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    text = reason.lower()
    if "locked" in text or "busy" in text:
        return (f"{path} is locked by another process ({reason}): is another tablebot using it? "
                "stop that one first")
    if "readonly" in text or "read-only" in text or "unable to open" in text or "permission" in text:
        return (f"cannot write to {path} ({reason}): fix the permissions of the file and its directory, "
                "or point TABLEBOT_DB elsewhere")
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError) \
            or "malformed" in text or "not a database" in text or "quick_check" in text or "corrupt" in text:
        return (f"{path} is damaged ({reason}): restore it from a backup, or move it away and "
                "start with a new file")
    return f"cannot use {path} ({reason}): check the file, or point TABLEBOT_DB elsewhere"


class SqliteStore:
    """One aiosqlite connection; every write is a short transaction under one lock."""

    def __init__(self, path: str):
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> "SqliteStore":
        """Connect, check the database and bring its schema up to date; raise StoreError (one
        line) when it cannot be used. Nothing is written before the checks pass."""
        _check_path(self.path)
        try:
            self._db = await aiosqlite.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        except sqlite3.Error as exc:
            raise StoreError(_explain(self.path, exc)) from None
        try:
            await self._db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            await self._check()
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._migrate()
            await self._check_writable()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(_explain(self.path, exc)) from None
            raise
        return self

    async def _check(self) -> None:
        """A quick integrity check, and the database must be ours and not newer than this code."""
        cur = await self.db.execute("PRAGMA quick_check(1)")
        verdict = (await cur.fetchone() or ("no answer",))[0]
        if verdict != "ok":
            raise StoreError(_explain(self.path, sqlite3.DatabaseError(f"quick_check: {verdict}")))
        cur = await self.db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
        tables = sorted(row[0] for row in await cur.fetchall())
        if tables and "schema_version" not in tables:
            raise StoreError(
                f"{self.path} is the database of another program (its tables: {_few(tables)}), not tablebot's: "
                "point TABLEBOT_DB at a file of its own (a new file is created)")
        if not tables:
            return  # a new, empty database
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} was written by a newer version of tablebot (schema {version}; this version "
                f"knows up to {len(MIGRATIONS)}): run the newer version, or restore a backup made before the upgrade")
        if version >= 1 and "games" not in tables:
            raise StoreError(
                f"{self.path} has a tablebot schema version but no games table (its tables: {_few(tables)}): "
                "restore it from a backup, or point TABLEBOT_DB at a new file")

    async def _check_writable(self) -> None:
        """A read-only file opens and reads fine and fails at the first move: find out now."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                await self.db.execute("DELETE FROM schema_version WHERE 0")
            finally:
                await self.db.execute("ROLLBACK")

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    @property
    def db(self) -> aiosqlite.Connection:
        assert self._db is not None, "storage is not open"
        return self._db

    async def _migrate(self) -> None:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            async with self._transaction() as db:
                for statement in script.split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute("INSERT INTO schema_version VALUES (?)", (number,))

    async def schema_version(self) -> int:
        cur = await self.db.execute("SELECT MAX(version) FROM schema_version")
        return (await cur.fetchone())[0] or 0

    # ---- games -------------------------------------------------------------------------

    async def _load_seats(self, game: Game) -> Game:
        cur = await self.db.execute(
            "SELECT seat, user_id, name, kind, dm_msg, level, dm_version FROM seats WHERE game_id=? ORDER BY seat",
            (game.id,))
        game.seats = [Seat(*row) for row in await cur.fetchall()]
        return game

    async def get_game(self, game_id: int) -> Game | None:
        cur = await self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id=?", (game_id,))
        row = await cur.fetchone()
        return await self._load_seats(_game_from_row(row)) if row else None

    async def open_game_at(self, chat_id: int, thread_id: int = 0) -> Game | None:
        cur = await self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE chat_id=? AND thread_id=? "
            "AND status IN ('lobby','running')", (chat_id, thread_id))
        row = await cur.fetchone()
        return await self._load_seats(_game_from_row(row)) if row else None

    async def open_games(self) -> list[Game]:
        cur = await self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby','running') ORDER BY id")
        return [await self._load_seats(_game_from_row(r)) for r in await cur.fetchall()]

    async def open_games_of(self, user_id: int) -> list[Game]:
        cur = await self.db.execute(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g "
            "JOIN seats s ON s.game_id = g.id WHERE s.user_id=? AND g.status IN ('lobby','running') "
            "ORDER BY g.id", (user_id,))
        return [await self._load_seats(_game_from_row(r)) for r in await cur.fetchall()]

    async def finished_without_results(self, within_days: float = 7) -> list[Game]:
        """Recent games that ended but whose results were never posted (the bot stopped in
        between, or the group was gone)."""
        cur = await self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status='finished' AND results_msg IS NULL "
            "AND updated > ? ORDER BY id", (time.time() - within_days * 86400,))
        return [await self._load_seats(_game_from_row(r)) for r in await cur.fetchall()]

    async def all_games(self) -> list[Game]:
        cur = await self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")
        return [await self._load_seats(_game_from_row(r)) for r in await cur.fetchall()]

    async def create_game(self, *, kind: str, chat_id: int, thread_id: int, host: Seat,
                          options: dict[str, Any], seed: int, series_id: int | None = None) -> Game:
        now = time.time()
        try:
            async with self._transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (kind, chat_id, thread_id, status, host_id, options, seed, "
                    "created, updated, series_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (kind, chat_id, thread_id, "lobby", host.user_id, json.dumps(options), seed, now,
                     now, series_id))
                gid = cur.lastrowid
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, kind, level) VALUES (?,?,?,?,?,?)",
                    (gid, 0, host.user_id, host.name, host.kind, host.level))
        except aiosqlite.IntegrityError:
            existing = await self.open_game_at(chat_id, thread_id)
            raise PlaceTaken(existing.id if existing else 0) from None
        game = await self.get_game(gid)
        assert game is not None
        return game

    async def save_game(self, game: Game, *, action: tuple[int, str] | None = None,
                        seats_changed: bool = False) -> None:
        """Write the game with a version check; bump its version; append ``action`` to the log.

        ``game.version`` must be the version that was read; on success it is incremented.
        """
        now = time.time()
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status=?, host_id=?, options=?, state=?, version=version+1, "
                "last_events=?, outcome=?, series_id=?, idle_turns=?, updated=? "
                "WHERE id=? AND version=?",
                (game.status, game.host_id, json.dumps(game.options),
                 json.dumps(game.state) if game.state is not None else None,
                 json.dumps(game.last_events),
                 json.dumps(game.outcome) if game.outcome is not None else None,
                 game.series_id, game.idle_turns, now, game.id, game.version))
            if cur.rowcount != 1:
                raise StaleVersion(game.id)
            if action is not None:
                seat, code = action
                await db.execute(
                    "INSERT INTO actions (game_id, n, seat, action, at) VALUES (?,?,?,?,?)",
                    (game.id, game.version, seat, code, now))
            if seats_changed:
                await db.execute("DELETE FROM seats WHERE game_id=?", (game.id,))
                await db.executemany(
                    "INSERT INTO seats (game_id, seat, user_id, name, kind, dm_msg, level, dm_version) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    [(game.id, s.seat, s.user_id, s.name, s.kind, s.dm_msg, s.level, s.dm_version)
                     for s in game.seats])
        game.version += 1
        game.updated = now

    async def save_messages(self, game: Game) -> None:
        """Store message ids and the version each shows (not game logic: no version bump)."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET lobby_msg=?, table_msg=?, results_msg=?, table_version=? WHERE id=?",
                             (game.lobby_msg, game.table_msg, game.results_msg, game.table_version, game.id))
            await db.executemany("UPDATE seats SET dm_msg=?, dm_version=? WHERE game_id=? AND seat=?",
                                 [(s.dm_msg, s.dm_version, game.id, s.seat) for s in game.seats])

    async def actions(self, game_id: int) -> list[tuple[int, int, str]]:
        cur = await self.db.execute(
            "SELECT n, seat, action FROM actions WHERE game_id=? ORDER BY n", (game_id,))
        return [tuple(r) for r in await cur.fetchall()]

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]:
        """Re-key every game and the chat row of a group that became a supergroup."""
        async with self._transaction() as db:
            cur = await db.execute("SELECT id FROM games WHERE chat_id=?", (old_chat_id,))
            ids = [r[0] for r in await cur.fetchall()]
            await db.execute("UPDATE games SET chat_id=?, lobby_msg=NULL, table_msg=NULL, results_msg=NULL "
                             "WHERE chat_id=?", (new_chat_id, old_chat_id))
            await db.execute("UPDATE series SET chat_id=? WHERE chat_id=?", (new_chat_id, old_chat_id))
            await db.execute("INSERT OR IGNORE INTO chats (chat_id, lang, settings, title) "
                             "SELECT ?, lang, settings, title FROM chats WHERE chat_id=?", (new_chat_id, old_chat_id))
        return ids

    # ---- users and chats ---------------------------------------------------------------

    async def _write(self, sql: str, params: tuple) -> None:
        async with self._lock:
            await self.db.execute(sql, params)

    async def touch_user(self, user_id: int, name: str, username: str | None, lang_code: str | None) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, username, lang, updated) VALUES (?,?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET name=excluded.name, username=excluded.username, "
            "lang=CASE WHEN users.lang_chosen THEN users.lang ELSE excluded.lang END, "
            "updated=excluded.updated",
            (user_id, name, username, lang_code, time.time()))

    async def user(self, user_id: int) -> dict[str, Any] | None:
        cur = await self.db.execute(
            "SELECT user_id, name, username, lang, lang_chosen, private_ok, notify, ping_msg FROM users "
            "WHERE user_id=?", (user_id,))
        row = await cur.fetchone()
        if not row:
            return None
        keys = ("user_id", "name", "username", "lang", "lang_chosen", "private_ok", "notify", "ping_msg")
        return dict(zip(keys, row))

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, private_ok, updated) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET private_ok=excluded.private_ok", (user_id, int(ok), time.time()))

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._write(
            "INSERT INTO users (user_id, notify, updated) VALUES (?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET notify=excluded.notify", (user_id, int(on), time.time()))

    async def set_ping(self, user_id: int, message_id: int | None) -> None:
        await self._write("UPDATE users SET ping_msg=? WHERE user_id=?", (message_id, user_id))

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        await self._write(
            "INSERT INTO users (user_id, lang, lang_chosen, updated) VALUES (?,?,1,?) "
            "ON CONFLICT(user_id) DO UPDATE SET lang=excluded.lang, lang_chosen=1", (user_id, lang, time.time()))

    async def chat(self, chat_id: int) -> dict[str, Any] | None:
        cur = await self.db.execute("SELECT chat_id, lang, settings, title FROM chats WHERE chat_id=?", (chat_id,))
        row = await cur.fetchone()
        if not row:
            return None
        return {"chat_id": row[0], "lang": row[1], "settings": json.loads(row[2]), "title": row[3]}

    async def set_chat(self, chat_id: int, *, lang: str | None = None, title: str | None = None,
                       settings: dict[str, Any] | None = None) -> None:
        current = await self.chat(chat_id) or {"lang": None, "settings": {}, "title": None}
        await self._write(
            "INSERT INTO chats (chat_id, lang, settings, title) VALUES (?,?,?,?) "
            "ON CONFLICT(chat_id) DO UPDATE SET lang=excluded.lang, settings=excluded.settings, "
            "title=excluded.title",
            (chat_id, lang if lang is not None else current["lang"],
             json.dumps(settings if settings is not None else current["settings"]),
             title if title is not None else current["title"]))

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None:
        row = await self.chat(chat_id)
        settings = dict(row["settings"]) if row else {}
        settings[key] = value
        await self.set_chat(chat_id, settings=settings)

    # ---- series ------------------------------------------------------------------------

    async def create_series(self, chat_id: int, kind: str, total: int, users: list[int]) -> Series:
        points = {str(u): 0 for u in users}
        async with self._lock:
            cur = await self.db.execute(
                "INSERT INTO series (chat_id, kind, total, users, points, created) VALUES (?,?,?,?,?,?)",
                (chat_id, kind, total, json.dumps(users), json.dumps(points), time.time()))
            sid = cur.lastrowid
        return Series(sid, chat_id, kind, total, 0, users, points)

    async def series(self, series_id: int) -> Series | None:
        cur = await self.db.execute(
            "SELECT id, chat_id, kind, total, played, users, points, counted FROM series WHERE id=?", (series_id,))
        row = await cur.fetchone()
        if not row:
            return None
        return Series(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), json.loads(row[6]),
                      json.loads(row[7]))

    async def save_series(self, s: Series) -> None:
        await self._write("UPDATE series SET played=?, points=?, counted=? WHERE id=?",
                          (s.played, json.dumps(s.points), json.dumps(s.counted), s.id))
