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
import dataclasses
import json
import logging
import os
import sqlite3
import time
from typing import Any, Callable, Iterable, TypeVar

import aiosqlite

from bot.store import (Chat, Game, GameRecord, PlaceTaken, PlayedSeat, RatedGame, Rating, RecordSeat, Seat, Series,
                       StaleVersion, StoreError, User)

T = TypeVar("T")

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
    # 4: records of games that are over, ratings, who made each move (a person, or a computer
    # for them), people who asked to be forgotten. Games already over are recorded by
    # bot/records.py at the next start (ratings need openskill, not SQL).
    """
    ALTER TABLE actions ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE records (
        game_id    INTEGER PRIMARY KEY,
        kind       TEXT NOT NULL,
        chat_id    INTEGER NOT NULL,
        thread_id  INTEGER NOT NULL DEFAULT 0,
        status     TEXT NOT NULL,
        rated      INTEGER NOT NULL,
        options    TEXT NOT NULL DEFAULT '{}',
        series_id  INTEGER,
        started    REAL NOT NULL,
        ended      REAL NOT NULL
    );
    CREATE INDEX records_by_chat ON records(chat_id, ended);
    CREATE INDEX records_by_chat_kind ON records(chat_id, kind);
    CREATE TABLE record_seats (
        game_id    INTEGER NOT NULL REFERENCES records(game_id),
        seat       INTEGER NOT NULL,
        user_id    INTEGER,
        name       TEXT,
        kind       TEXT NOT NULL,
        level      TEXT,
        place      INTEGER,
        score      INTEGER,
        team       INTEGER NOT NULL DEFAULT 0,
        autoplayed INTEGER NOT NULL DEFAULT 0,
        before     INTEGER,
        after      INTEGER,
        games      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX record_seats_by_user ON record_seats(user_id, game_id);
    CREATE TABLE ratings (
        kind     TEXT NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        figure   INTEGER NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (kind, user_id)
    );
    CREATE INDEX ratings_by_figure ON ratings(kind, figure DESC)
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


def _identity(path: str) -> tuple[int, int] | None:
    """The (device, inode) of the database file; None for one in memory or a missing file."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


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


def _run_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> tuple[bool, Any]:
    """``work(conn)`` as one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on any error):
    (True, its result) or (False, the exception). Never leaves a transaction open: the next one
    runs on the same connection."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except BaseException as exc:
        return False, exc
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the failure that brought us here is the one to report
        return False, exc
    return True, result


class SqliteStore:
    """One aiosqlite connection; every write is a short transaction, run whole in the
    connection's thread (see :meth:`_in_thread`), one after another in the order asked."""

    def __init__(self, path: str):
        self.path = path
        self._db: aiosqlite.Connection | None = None
        # Write transactions waiting for the database's thread, and the task that takes them there.
        self._waiting: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future]] = []
        self._committer: asyncio.Task | None = None
        # Rows read on every update (a chat's language, a person's settings), kept after the first
        # read; every write of them goes through this object, which forgets the row it changes.
        self._chats: dict[int, Chat | None] = {}
        self._users: dict[int, User | None] = {}
        self._writes = 0  # a read that overlapped a write of these rows is not kept
        self._file: tuple[int, int] | None = None  # the opened file's (device, inode), for ping()

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
            self._file = _identity(self.path)
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
        def try_to_write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("DELETE FROM schema_version WHERE 0")
            finally:
                conn.execute("ROLLBACK")
        await self._in_thread(try_to_write)

    async def close(self) -> None:
        if self._committer is not None and not self._committer.done():
            await asyncio.wait([self._committer])  # writes already asked for are committed first
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` in the database's own thread, as one round trip however many
        statements it runs. Why: aiosqlite hands every statement and every fetch to its thread
        and wakes the event loop with each result, so a four-statement transaction waited for
        four turns of a busy loop while holding the write lock; at 50 presses a second the
        writes, one at a time, queued for seconds (press → answer p50 1.4 s in ``bench load``).
        aiosqlite has no public call for this; ``_execute`` is what its own methods use."""
        return await self.db._execute(work, self.db._conn)

    async def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` as one write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on
        any error), run whole in the database's thread; it returns once committed.

        Transactions asked for while others run wait, and then go to the thread together, each
        still its own transaction. Why: one at a time, each paid a trip to the thread and back
        through a busy event loop (~4 ms for well under 1 ms of SQLite), so 200 presses at once
        (a burst of Join) queued for a second behind one another."""
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_waiting())
        return await future

    async def _commit_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                outcomes = await self._in_thread(
                    lambda conn: [_run_transaction(conn, work) for work, _ in batch])
            except BaseException as exc:  # the connection is closed or broken: none of them ran
                for _, future in batch:
                    if future.done():
                        continue
                    if isinstance(exc, asyncio.CancelledError):
                        future.cancel()
                    else:
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, future), (ok, value) in zip(batch, outcomes):
                if future.done():  # its caller was cancelled (the transaction stands, as it would have)
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    async def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of one query, in one round trip."""
        return [tuple(r) for r in await self.db.execute_fetchall(sql, params)]

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
            def migrate(conn: sqlite3.Connection, script: str = script, number: int = number) -> None:
                for statement in script.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO schema_version VALUES (?)", (number,))
            await self._transaction(migrate)

    async def schema_version(self) -> int:
        cur = await self.db.execute("SELECT MAX(version) FROM schema_version")
        return (await cur.fetchone())[0] or 0

    # ---- games -------------------------------------------------------------------------

    def _games(self, conn: sqlite3.Connection, where: str, params: tuple = ()) -> list[Game]:
        """Games (with their seats) matching ``where``, read in the database's thread."""
        games = [_game_from_row(r) for r in conn.execute(f"SELECT {_GAME_COLUMNS} FROM games g {where}", params)]
        for game in games:
            game.seats = [Seat(*row) for row in conn.execute(
                "SELECT seat, user_id, name, kind, dm_msg, level, dm_version FROM seats WHERE game_id=? "
                "ORDER BY seat", (game.id,))]
        return games

    async def _find(self, where: str, params: tuple = ()) -> list[Game]:
        return await self._in_thread(lambda conn: self._games(conn, where, params))

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

    async def finished_without_results(self, within_days: float = 7) -> list[Game]:
        """Recent games that ended but whose results were never posted (the bot stopped in
        between, or the group was gone)."""
        return await self._find("WHERE status='finished' AND results_msg IS NULL AND updated > ? ORDER BY id",
                                (time.time() - within_days * 86400,))

    async def all_games(self) -> list[Game]:
        return await self._find("ORDER BY id")

    async def create_game(self, *, kind: str, chat_id: int, thread_id: int, host: Seat,
                          options: dict[str, Any], seed: int, series_id: int | None = None) -> Game:
        now = time.time()

        def create(conn: sqlite3.Connection) -> Game:
            cur = conn.execute(
                "INSERT INTO games (kind, chat_id, thread_id, status, host_id, options, seed, "
                "created, updated, series_id) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (kind, chat_id, thread_id, "lobby", host.user_id, json.dumps(options), seed, now, now, series_id))
            conn.execute("INSERT INTO seats (game_id, seat, user_id, name, kind, level) VALUES (?,?,?,?,?,?)",
                         (cur.lastrowid, 0, host.user_id, host.name, host.kind, host.level))
            return self._games(conn, "WHERE id=?", (cur.lastrowid,))[0]
        try:
            return await self._transaction(create)
        except sqlite3.IntegrityError:
            existing = await self.open_game_at(chat_id, thread_id)
            raise PlaceTaken(existing.id if existing else 0) from None

    async def save_game(self, game: Game, *, action: tuple[int, str] | None = None,
                        by_computer: bool = False, seats_changed: bool = False) -> None:
        """Write the game with a version check; bump its version; append ``action`` to the log.

        ``game.version`` must be the version that was read; on success it is incremented.
        """
        now = time.time()

        def save(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
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
                conn.execute("INSERT INTO actions (game_id, n, seat, action, at, auto) VALUES (?,?,?,?,?,?)",
                             (game.id, game.version, seat, code, now, int(by_computer)))
            if seats_changed:
                conn.execute("DELETE FROM seats WHERE game_id=?", (game.id,))
                conn.executemany(
                    "INSERT INTO seats (game_id, seat, user_id, name, kind, dm_msg, level, dm_version) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    [(game.id, s.seat, s.user_id, s.name, s.kind, s.dm_msg, s.level, s.dm_version)
                     for s in game.seats])
        await self._transaction(save)
        game.version += 1
        game.updated = now

    async def save_messages(self, game: Game) -> None:
        """Store message ids and the version each shows (not game logic: no version bump)."""
        def save(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET lobby_msg=?, table_msg=?, results_msg=?, table_version=? WHERE id=?",
                         (game.lobby_msg, game.table_msg, game.results_msg, game.table_version, game.id))
            conn.executemany("UPDATE seats SET dm_msg=?, dm_version=? WHERE game_id=? AND seat=?",
                             [(s.dm_msg, s.dm_version, game.id, s.seat) for s in game.seats])
        await self._transaction(save)

    async def actions(self, game_id: int) -> list[tuple[int, int, str]]:
        return await self._rows("SELECT n, seat, action FROM actions WHERE game_id=? ORDER BY n", (game_id,))

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]:
        """Re-key every game and the chat row of a group that became a supergroup."""
        def migrate(conn: sqlite3.Connection) -> list[int]:
            ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE chat_id=?", (old_chat_id,))]
            # Posted results stay posted (their id is unknown in the new chat, not lost: a restart
            # must not post them again).
            conn.execute("UPDATE games SET chat_id=?, lobby_msg=NULL, table_msg=NULL, "
                         "results_msg=CASE WHEN results_msg IS NULL THEN NULL ELSE 0 END "
                         "WHERE chat_id=?", (new_chat_id, old_chat_id))
            conn.execute("UPDATE series SET chat_id=? WHERE chat_id=?", (new_chat_id, old_chat_id))
            conn.execute("UPDATE records SET chat_id=? WHERE chat_id=?", (new_chat_id, old_chat_id))
            conn.execute("INSERT OR IGNORE INTO chats (chat_id, lang, settings, title) "
                         "SELECT ?, lang, settings, title FROM chats WHERE chat_id=?", (new_chat_id, old_chat_id))
            return ids
        for chat_id in (old_chat_id, new_chat_id):
            self._forget(self._chats, chat_id)
        ids = await self._transaction(migrate)
        for chat_id in (old_chat_id, new_chat_id):
            self._forget(self._chats, chat_id)
        return ids

    # ---- users and chats ---------------------------------------------------------------

    async def ping(self) -> None:
        """A read through the connection, and the file at TABLEBOT_DB still the one opened: a
        database file deleted or replaced under a running bot (a volume gone) still answers
        through the open descriptor, while every write goes where nobody will ever read it."""
        if self._db is None:
            raise StoreError(f"{self.path} is not open")
        try:
            await self._in_thread(lambda conn: conn.execute("SELECT MAX(version) FROM schema_version").fetchone())
        except sqlite3.Error as exc:
            raise StoreError(_explain(self.path, exc)) from None
        except ValueError as exc:  # aiosqlite: the connection is closed
            raise StoreError(f"{self.path}: {exc}") from None
        if self._file is not None and _identity(self.path) != self._file:
            raise StoreError(f"{self.path} is no longer the file this bot opened (deleted, moved or replaced): "
                             "restore it and restart the bot")

    async def games_by_status(self) -> dict[str, int]:
        return dict(await self._rows("SELECT status, COUNT(*) FROM games GROUP BY status"))

    async def forget_cache(self) -> None:
        """Drop every cached user and chat: the next reads come from the database."""
        self._chats.clear()
        self._users.clear()
        self._writes += 1  # and a read under way now is not kept: it may have read the old row

    async def _cached(self, cache: dict, key: int, read: Callable) -> Any:
        if key in cache:
            return cache[key]
        writes = self._writes
        row = await read(key)
        if writes == self._writes:
            cache[key] = row
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
        await self._transaction(lambda conn: conn.execute(sql, params))
        if row is not None:
            self._forget(*row)

    async def touch_user(self, user_id: int, name: str, username: str | None, lang_code: str | None) -> None:
        await self._write(
            "INSERT INTO users (user_id, name, username, lang, updated) VALUES (?,?,?,?,?) "
            "ON CONFLICT(user_id) DO UPDATE SET name=excluded.name, username=excluded.username, "
            "lang=CASE WHEN users.lang_chosen THEN users.lang ELSE excluded.lang END, "
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
        sid = await self._transaction(lambda conn: conn.execute(
            "INSERT INTO series (chat_id, kind, total, users, points, created) VALUES (?,?,?,?,?,?)",
            (chat_id, kind, total, json.dumps(users), json.dumps(points), time.time())).lastrowid)
        return Series(sid, chat_id, kind, total, 0, users, points)

    async def series(self, series_id: int) -> Series | None:
        rows = await self._rows(
            "SELECT id, chat_id, kind, total, played, users, points, counted FROM series WHERE id=?", (series_id,))
        if not rows:
            return None
        row = rows[0]
        return Series(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), json.loads(row[6]),
                      json.loads(row[7]))

    async def save_series(self, s: Series) -> None:
        await self._write("UPDATE series SET played=?, points=?, counted=? WHERE id=?",
                          (s.played, json.dumps(s.points), json.dumps(s.counted), s.id))

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
        rows = await self._rows("SELECT seat, COUNT(*), SUM(auto) FROM actions WHERE game_id=? GROUP BY seat",
                                (game_id,))
        return {seat: (moves, auto or 0) for seat, moves, auto in rows}

    async def record_game(self, record: GameRecord, ratings: list[Rating]) -> bool:
        """Keep a game's record and the ratings it moved, in one transaction; False (and nothing
        changed) when the game was recorded already."""
        def write(conn: sqlite3.Connection) -> bool:
            if conn.execute("SELECT 1 FROM records WHERE game_id=?", (record.game_id,)).fetchone():
                return False
            r = record
            conn.execute("INSERT INTO records (game_id, kind, chat_id, thread_id, status, rated, options, "
                         "series_id, started, ended) VALUES (?,?,?,?,?,?,?,?,?,?)",
                         (r.game_id, r.kind, r.chat_id, r.thread_id, r.status, int(r.rated), json.dumps(r.options),
                          r.series_id, r.started, r.ended))
            conn.executemany(
                "INSERT INTO record_seats (game_id, seat, user_id, name, kind, level, place, score, team, "
                "autoplayed, before, after, games) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(r.game_id, s.seat, s.user_id, s.name, s.kind, s.level, s.place, s.score, s.team,
                  int(s.autoplayed), s.before, s.after, s.games) for s in r.seats])
            conn.executemany(
                "INSERT INTO ratings (kind, user_id, mu, sigma, figure, games) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT(kind, user_id) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma, "
                "figure=excluded.figure, games=excluded.games",
                [(x.kind, x.user_id, x.mu, x.sigma, x.figure, x.games) for x in ratings])
            return True
        return await self._transaction(write)

    _RECORD_COLUMNS = ("r.game_id, r.kind, r.chat_id, r.thread_id, r.status, r.rated, r.options, r.series_id, "
                       "r.started, r.ended, g.results_msg")

    def _records(self, conn: sqlite3.Connection, where: str, params: tuple) -> list[GameRecord]:
        found = []
        for row in conn.execute(f"SELECT {self._RECORD_COLUMNS} FROM records r LEFT JOIN games g "
                                f"ON g.id = r.game_id {where}", params):
            (gid, kind, chat_id, thread_id, status, rated, options, series_id, started, ended, results_msg) = row
            record = GameRecord(gid, kind, chat_id, thread_id, status, bool(rated), json.loads(options), series_id,
                                started, ended, results_msg=results_msg)
            record.seats = [RecordSeat(seat, user_id, name, kind_, level, place, score, team, bool(auto),
                                       before, after, games)
                            for (seat, user_id, name, kind_, level, place, score, team, auto, before, after, games)
                            in conn.execute("SELECT seat, user_id, name, kind, level, place, score, team, "
                                            "autoplayed, before, after, games FROM record_seats WHERE game_id=? "
                                            "ORDER BY seat", (gid,))]
            found.append(record)
        return found

    async def game_record(self, game_id: int) -> GameRecord | None:
        found = await self._in_thread(lambda conn: self._records(conn, "WHERE r.game_id=?", (game_id,)))
        return found[0] if found else None

    async def chat_records(self, chat_id: int, limit: int) -> list[GameRecord]:
        """The chat's latest records, newest first."""
        return await self._in_thread(lambda conn: self._records(
            conn, "WHERE r.chat_id=? AND r.status!='forgotten' ORDER BY r.ended DESC, r.game_id DESC LIMIT ?", (chat_id, limit)))

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
        lose their id and name (they read «a player»), and they are not recorded again."""
        def forget(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM ratings WHERE user_id=?", (user_id,))
            conn.execute("UPDATE record_seats SET user_id=NULL, name=NULL, before=NULL, after=NULL "
                         "WHERE user_id=?", (user_id,))
            conn.execute("UPDATE seats SET name='' WHERE user_id=? AND game_id IN "
                         "(SELECT id FROM games WHERE status IN ('finished','cancelled'))", (user_id,))
            conn.execute("INSERT INTO users (user_id, forgotten, updated) VALUES (?,1,?) "
                         "ON CONFLICT(user_id) DO UPDATE SET forgotten=1", (user_id, time.time()))
        self._forget(self._users, user_id)
        await self._transaction(forget)
        self._forget(self._users, user_id)

    async def forget_chat(self, chat_id: int) -> int:
        """/forgetgroup: every record of the group goes, and the names in its games that are over
        (ratings are the players' own and stay); returns how many games. A record is kept as
        "forgotten" with nothing in it, so that the game is not recorded again at the next start."""
        def forget(conn: sqlite3.Connection) -> int:
            conn.execute("DELETE FROM record_seats WHERE game_id IN (SELECT game_id FROM records WHERE chat_id=?)",
                         (chat_id,))
            conn.execute("UPDATE seats SET name='' WHERE game_id IN (SELECT id FROM games WHERE chat_id=? "
                         "AND status IN ('finished','cancelled'))", (chat_id,))
            return conn.execute("UPDATE records SET status='forgotten', rated=0, options='{}' "
                                "WHERE chat_id=? AND status!='forgotten'", (chat_id,)).rowcount
        return await self._transaction(forget)

    async def prune_actions(self, before: float) -> int:
        """Delete the move logs of recorded games that ended before ``before`` (statistics live
        in the records); returns how many moves went."""
        return await self._transaction(lambda conn: conn.execute(
            "DELETE FROM actions WHERE game_id IN (SELECT game_id FROM records WHERE ended < ?)",
            (before,)).rowcount)
