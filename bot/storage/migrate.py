"""``python -m bot migrate --from FILE --to postgresql://…``: copy an SQLite database into
PostgreSQL, every table and every row, with the same ids.

For an operator moving a bot to PostgreSQL: stop the bot (the SQLite file's lock says whether one
still runs), migrate, start it with ``TABLEBOT_DB`` set to the URL. The SQLite file is brought to
this version's schema first, as starting the bot on it would; nothing else in it changes.

The target must be empty: tablebot's schema with no rows, or a new database. One that holds rows
is refused unless ``--force``, which replaces what it holds (two bots' data are never mixed: ids
would collide). The copy is one PostgreSQL transaction: the rows of every table are counted on
both sides before it commits, so a failed or mismatched copy leaves the target as it was. The
identity sequences are moved past the copied ids, so new games and series get new ones.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3

import asyncpg

from bot.storage import instance
from bot.storage.store import StoreError
from bot.storage.choose import is_postgres
from bot.storage.postgres import PostgresStore, describe, explain
from bot.storage.sqlite import SqliteStore

# Every table of the schema but schema_version (each store writes its own), parents before children.
TABLES = ["chats", "users", "series", "games", "seats", "actions", "records", "record_seats", "ratings",
          "season_ratings", "season_games", "seasons", "season_news", "season_titles", "achievements", "marks"]
IDENTITIES = [("games", "id"), ("series", "id")]  # the ids the database numbers itself
CHUNK_ROWS = 5000  # rows read from SQLite and sent to PostgreSQL at a time


class MigrateError(Exception):
    """A migration that cannot be done: one line for the operator."""


async def migrate(source: str, target: str, *, force: bool = False) -> list[str]:
    """Copy the SQLite database ``source`` into the PostgreSQL database ``target``; the lines to
    print: the rows of every table on both sides, then a summary."""
    if is_postgres(source):
        raise MigrateError("--from is a URL: give the path of the bot's SQLite file (TABLEBOT_DB)")
    if not os.path.isfile(source):
        raise MigrateError(f"--from {source}: no such file; give the path of the bot's SQLite file (TABLEBOT_DB)")
    if not is_postgres(target):
        raise MigrateError("--to must be a PostgreSQL URL (postgresql://user:password@host/database)")
    try:
        instance.hold(source)  # the bot must not write while its rows are copied
    except instance.AlreadyRunning as exc:
        raise MigrateError(str(exc)) from None
    await _upgrade(source)
    store = await PostgresStore(target).open()
    try:
        async with store.pool.acquire() as conn, conn.transaction():
            await _make_room(conn, target, force)
            expected, schema = await _copy_all(source, conn)
            copied = await _counts(conn)
            if copied != expected:  # raised inside the transaction: nothing is committed
                wrong = [t for t in TABLES if copied[t] != expected[t]]
                raise MigrateError(f"the copy of {', '.join(wrong)} does not count as many rows as {source}: "
                                   "nothing was committed")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        raise MigrateError(explain(target, exc)) from None
    except sqlite3.Error as exc:
        raise MigrateError(f"cannot read {source} ({' '.join(str(exc).split())}): nothing was committed") from None
    finally:
        await store.close()
    return [f"{'table':<13} {'sqlite':>10} {'postgresql':>10}",
            *(f"{t:<13} {expected[t]:>10} {copied[t]:>10}" for t in TABLES),
            f"migrated {source} to {describe(target)}: games {expected['games']}, people {expected['users']}, "
            f"records {expected['records']}, schema {schema}"]


async def _make_room(conn: asyncpg.Connection, target: str, force: bool) -> None:
    """Empty tables to copy into: refused when they hold rows, unless ``force`` (then emptied)."""
    held = {t: n for t, n in (await _counts(conn)).items() if n}
    if held and not force:
        raise MigrateError(
            f"{describe(target)} is not empty ({', '.join(f'{n} {t}' for t, n in held.items())}): migrate "
            "into a new database, or add --force to replace what it holds")
    await conn.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY")


async def _copy_all(source: str, conn: asyncpg.Connection) -> tuple[dict[str, int], int]:
    """Every table from one snapshot of the SQLite file, and the identity sequences moved past the
    copied ids; the rows of every table in the file, and its schema version."""
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True, isolation_level=None)) as lite:
        lite.execute("BEGIN")  # one snapshot of every table
        for table in TABLES:
            await _copy(lite, conn, table)
        expected = {t: lite.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
        schema = lite.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    for table, column in IDENTITIES:
        await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                           f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
    return expected, schema


async def _upgrade(source: str) -> None:
    """The SQLite file at this version's schema, checked (a StoreError tells what is wrong)."""
    store = await SqliteStore(source).open()
    await store.close()


async def _counts(conn: asyncpg.Connection) -> dict[str, int]:
    return {t: await conn.fetchval(f"SELECT COUNT(*) FROM {t}") for t in TABLES}


async def _copy(lite: sqlite3.Connection, conn: asyncpg.Connection, table: str) -> None:
    """Every row of ``table``, column by column as PostgreSQL has them, through COPY."""
    columns = [r[0] for r in await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = $1 ORDER BY ordinal_position", table)]
    rows = lite.execute(f"SELECT {', '.join(columns)} FROM {table}")
    while chunk := rows.fetchmany(CHUNK_ROWS):
        await conn.copy_records_to_table(table, records=chunk, columns=columns)


def run(source: str, target: str, *, force: bool) -> list[str]:
    """``migrate`` for the command line: StoreError and MigrateError both become MigrateError."""
    import asyncio

    try:
        return asyncio.run(migrate(source, target, force=force))
    except StoreError as exc:
        raise MigrateError(str(exc)) from None
