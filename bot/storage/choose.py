"""Which store a ``TABLEBOT_DB`` value names: a PostgreSQL URL, or else the path of an SQLite file.

The one module that knows both implementations: the process's wiring, the command-line commands
and the tests choose here; the protocol (``bot/storage/store.py``) names none of them.
"""
from __future__ import annotations

from bot.storage.store import GameStore


def make_store(db: str) -> GameStore:
    """The store (not yet opened) for a ``TABLEBOT_DB`` value: a PostgreSQL URL, or else the path
    of an SQLite file (``:memory:`` for one that lives as long as the process)."""
    # Imported here, not at the top: whoever imports the records does not load a database driver.
    if is_postgres(db):
        from bot.storage.postgres import PostgresStore
        return PostgresStore(db)
    from bot.storage.sqlite import SqliteStore
    return SqliteStore(db)


def is_postgres(db: str) -> bool:
    """Whether a ``TABLEBOT_DB`` value is a PostgreSQL URL."""
    return db.split("://", 1)[0].lower() in ("postgresql", "postgres")
