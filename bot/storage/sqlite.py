"""The game store on SQLite through aiosqlite: the source of truth (memory is only a cache).

WAL mode; numbered migrations applied at start-up; one transaction per accepted action that
appends to the action log and writes the new state with a version check (optimistic
concurrency), committed before any message goes out. Implements ``bot.storage.store.GameStore``.

``open()`` refuses a database it cannot use with a ``StoreError`` of one line (the file, what is
wrong, what to do) before anything is changed: a directory, a file that is not SQLite or is
damaged (``PRAGMA quick_check``), another program's database, one written by a newer version of
the bot, or one this user cannot write. A missing directory is created. At start every failure
is a person's to fix: there is no server to wait for (a disk mounted late looks like a new
directory; start the bot after the mount).

Once open, a failure of the file for a moment (locked by another program beyond the busy
timeout, a disk I/O error, a full disk) is a ``StoreUnavailable``: the press that met it is
answered "try again", with no traceback in the log.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from typing import Any, Callable, TypeVar

import aiosqlite

from bot.storage.store import Game, PlaceTaken, Seat, StoreError, StoreUnavailable
from bot.storage.migrations import MIGRATIONS, newer_schema
from bot.storage.sql import (GAME_COLUMNS, INSERT_GAME, INSERT_HOST, MIGRATE_CHAT, SEAT_COLUMNS, SqlStore, Unchanged,
                             few, game_from_row)

T = TypeVar("T")

log = logging.getLogger(__name__)

BUSY_SECONDS = 5.0  # a write waits this long for another connection's lock
_SQLITE_HEADER = b"SQLite format 3\x00"

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


# SQLite's words for a file that fails for a moment, not for a bug in a statement (which is an
# OperationalError too: "no such table", a syntax error).
_FOR_A_MOMENT = ("locked", "busy", "disk i/o error", "disk is full", "unable to open", "readonly")


@contextlib.contextmanager
def _failing_for_a_moment(path: str):
    """Inside, an SQLite failure of the file for a moment becomes a ``StoreUnavailable``."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        if not any(words in reason.lower() for words in _FOR_A_MOMENT):
            raise
        raise StoreUnavailable(f"{path} cannot be used now ({reason})") from None


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


class SqliteStore(SqlStore):
    """One aiosqlite connection; every write is a short transaction, run whole in the
    connection's thread (see :meth:`_in_thread`), one after another in the order asked."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self._db: aiosqlite.Connection | None = None
        # Write transactions waiting for the database's thread, and the task that takes them there.
        self._waiting: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future]] = []
        self._committer: asyncio.Task | None = None
        self._file: tuple[int, int] | None = None  # the opened file's (device, inode), for ping()
        self._serving = False  # opened and checked: a failure from now on may be for a moment

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
            self._serving = True
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
                f"{self.path} is the database of another program (its tables: {few(tables)}), not tablebot's: "
                "point TABLEBOT_DB at a file of its own (a new file is created)")
        if not tables:
            return  # a new, empty database
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise newer_schema(self.path, version)
        if version >= 1 and "games" not in tables:
            raise StoreError(
                f"{self.path} has a tablebot schema version but no games table (its tables: {few(tables)}): "
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
        with self._for_a_moment():
            return await self.db._execute(work, self.db._conn)

    def _for_a_moment(self):
        """Once open, a failure of the file for a moment is a ``StoreUnavailable``; while
        opening, ``open()`` explains every failure for a person to fix."""
        return _failing_for_a_moment(self.path) if self._serving else contextlib.nullcontext()

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
        with self._for_a_moment():
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
        with self._for_a_moment():
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

    async def ping(self) -> None:
        """A read through the connection, and the file at TABLEBOT_DB still the one opened: a
        database file deleted or replaced under a running bot (a volume gone) still answers
        through the open descriptor, while every write goes where nobody will ever read it."""
        try:
            await self._rows("SELECT COUNT(*) FROM schema_version")
        except (sqlite3.Error, ValueError, AssertionError) as exc:  # ValueError: the connection is closed
            raise StoreError(f"{self.path} does not answer ({' '.join(str(exc).split()) or type(exc).__name__})") from None
        if self._file is not None and _identity(self.path) != self._file:
            raise StoreError(f"{self.path} is no longer the file this bot opened (deleted, moved or replaced): "
                             "restore it and restart the bot")

    async def _script(self, statements: list[tuple[str, Any]], *, guarded: bool = False) -> list[int] | None:
        def run(conn: sqlite3.Connection) -> list[int]:
            changed = []
            for sql, params in statements:
                cur = conn.executemany(sql, params) if isinstance(params, list) else conn.execute(sql, params)
                changed.append(cur.rowcount)
                if guarded and changed == [0]:
                    raise Unchanged
            return changed
        try:
            return await self._transaction(run)
        except Unchanged:
            return None

    async def _insert_id(self, sql: str, params: tuple) -> int:
        return await self._transaction(lambda conn: conn.execute(sql, params).lastrowid)

    # ---- games -------------------------------------------------------------------------

    def _games(self, conn: sqlite3.Connection, where: str, params: tuple = ()) -> list[Game]:
        """Games (with their seats) matching ``where``, read in the database's thread."""
        games = [game_from_row(r) for r in conn.execute(f"SELECT {GAME_COLUMNS} FROM games g {where}", params)]
        for game in games:
            game.seats = [Seat(*row) for row in conn.execute(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id=? ORDER BY seat", (game.id,))]
        return games

    async def _find(self, where: str, params: tuple = ()) -> list[Game]:
        return await self._in_thread(lambda conn: self._games(conn, where, params))

    async def create_game(self, *, kind: str, chat_id: int, thread_id: int, host: Seat,
                          options: dict[str, Any], seed: int, series_id: int | None = None,
                          inline_msg: str | None = None) -> Game:
        now = time.time()

        def create(conn: sqlite3.Connection) -> Game:
            cur = conn.execute(INSERT_GAME, (kind, chat_id, thread_id, "lobby", host.user_id, json.dumps(options),
                                             seed, now, now, series_id, inline_msg))
            conn.execute(INSERT_HOST, (cur.lastrowid, 0, host.user_id, host.name, host.kind, host.level))
            return self._games(conn, "WHERE id=?", (cur.lastrowid,))[0]
        try:
            return await self._transaction(create)
        except sqlite3.IntegrityError:
            existing = await (self.game_on_inline(inline_msg) if inline_msg else self.open_game_at(chat_id, thread_id))
            raise PlaceTaken(existing.id if existing else 0) from None

    async def _rekey_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]:
        def migrate(conn: sqlite3.Connection) -> list[int]:
            ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE chat_id=?", (old_chat_id,))]
            for sql in MIGRATE_CHAT:
                conn.execute(sql, (new_chat_id, old_chat_id))
            return ids
        return await self._transaction(migrate)
