"""``python -m bot backup FILE``: a consistent copy of the SQLite database, taken while the bot runs.

Why not ``cp``: in WAL mode the newest commits live in ``<db>-wal`` until a checkpoint, so a copy
of the main file alone misses them, and a copy taken during a write may be torn. SQLite's online
backup API copies the database as one reader sees it (one snapshot, WAL included) and, in WAL
mode, never holds up the bot's writes.

The copy is written beside FILE under a temporary name, checked (``PRAGMA quick_check``) and only
then renamed to FILE: a failed backup never leaves half a file where the last good one was.
It is a single self-contained file (rollback journal mode, no ``-wal`` beside it); a bot started
on it switches it back to WAL.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse

from bot.storage.choose import is_postgres

BUSY_MS = 5000  # a checkpoint of the bot's may hold the reader back this long at most
_SQLITE_HEADER = b"SQLite format 3\x00"


class BackupError(Exception):
    """A backup that cannot be made: one line for the operator."""


def backup(db_path: str, dest: str, *, force: bool = False) -> str:
    """Copy the database ``db_path`` (``TABLEBOT_DB``) to ``dest``; return the line to print."""
    if is_postgres(db_path):
        # The URL is not repeated: it may hold a password.
        raise BackupError('TABLEBOT_DB is a PostgreSQL URL: back it up with pg_dump '
                          '(pg_dump --format=custom --file=tablebot.dump "$TABLEBOT_DB")')
    if db_path == ":memory:" or db_path.startswith("file:"):
        raise BackupError(f"TABLEBOT_DB is {db_path}, not a database file: there is nothing to back up")
    _check_source(db_path)
    _check_dest(db_path, dest, force)
    directory = os.path.dirname(os.path.abspath(dest))
    temporary = os.path.join(directory, f".{os.path.basename(dest)}.{os.getpid()}.part")
    try:
        with contextlib.closing(_open_source(db_path)) as source:
            _check_ours(db_path, source)
            try:
                target = sqlite3.connect(temporary)
            except sqlite3.Error as exc:
                raise BackupError(f"cannot write {dest} ({exc}): check the directory {directory}") from None
            with contextlib.closing(target):
                try:
                    source.backup(target)  # every page in one step: one snapshot of the database
                except sqlite3.Error as exc:
                    raise BackupError(_reason(db_path, dest, exc)) from None
                target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                verdict = target.execute("PRAGMA quick_check(1)").fetchone()[0]
                if verdict != "ok":
                    raise BackupError(f"the copy of {db_path} fails SQLite's check ({verdict}): the database is "
                                      "damaged; see the README (When something goes wrong)")
                games = target.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                schema = target.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0
        os.replace(temporary, dest)
    except OSError as exc:
        raise BackupError(f"cannot write {dest} ({exc.strerror or exc}): check the path and its permissions") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    size = os.path.getsize(dest)
    return f"backed up {db_path} to {dest}: {size} bytes, {games} games, schema {schema}"


def _check_source(db_path: str) -> None:
    """What the file system tells before SQLite opens the file (which would create a missing one)."""
    if not os.path.exists(db_path):
        raise BackupError(f"there is no database at {db_path}: check TABLEBOT_DB")
    if not os.path.isfile(db_path):
        raise BackupError(f"{db_path} is not a database file: check TABLEBOT_DB")
    try:
        with open(db_path, "rb") as f:
            head = f.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise BackupError(f"cannot read {db_path} ({exc.strerror}): check its permissions") from None
    if head != _SQLITE_HEADER:
        raise BackupError(f"{db_path} is not an SQLite database (empty, damaged, or another kind of file): "
                          "check TABLEBOT_DB")


def _check_dest(db_path: str, dest: str, force: bool) -> None:
    if os.path.isdir(dest):
        raise BackupError(f"{dest} is a directory: give the backup a file name, e.g. "
                          f"{os.path.join(dest, 'tablebot-backup.sqlite3')}")
    if os.path.exists(dest):
        if os.path.samefile(dest, db_path):
            raise BackupError(f"{dest} is the database itself: back it up to another file")
        if not force:
            raise BackupError(f"{dest} exists already: pass --force to overwrite it")
    directory = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(directory):
        raise BackupError(f"cannot write {dest}: the directory {directory} does not exist")


def _open_source(db_path: str) -> sqlite3.Connection:
    """A read-only connection: the backup never writes to the bot's database."""
    uri = "file:" + urllib.parse.quote(os.path.abspath(db_path)) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_MS / 1000)
    except sqlite3.Error as exc:
        raise BackupError(_reason(db_path, None, exc)) from None
    conn.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    return conn


def _check_ours(db_path: str, conn: sqlite3.Connection) -> None:
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise BackupError(_reason(db_path, None, exc)) from None
    if "schema_version" not in tables or "games" not in tables:
        raise BackupError(f"{db_path} is not a tablebot database (no games in it): check TABLEBOT_DB")


def _reason(db_path: str, dest: str | None, exc: sqlite3.Error) -> str:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    if dest is not None and ("readonly" in reason or "unable to open" in reason or "disk" in reason):
        return f"cannot write {dest} ({reason}): check the path, its permissions and free space"
    return f"cannot back up {db_path} ({reason}): check TABLEBOT_DB and the file's permissions"
