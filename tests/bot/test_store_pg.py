"""What only the PostgreSQL store does: a server it cannot use is a StoreError of one line that
never shows the password (a StoreUnavailable when it cannot be reached now: the bot waits and
tries again), and ping() tells when the server stops answering. What every store
does is in test_store_contract.py; all of it runs on a real server (tests/pg.py)."""
from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage.store import Seat, StoreError, StoreUnavailable
from bot.storage.choose import make_store
from bot.storage.migrations import MIGRATIONS
from tests.pg import shut_down, start_again, start_server, stop_server

PASSWORD = "s3cret-pw"


def _one_line(exc: pytest.ExceptionInfo, *, for_later: bool = False) -> str:
    """The error's line; ``for_later``: whether it is a StoreUnavailable (else a person's to fix)."""
    line = str(exc.value)
    assert "\n" not in line and PASSWORD not in line, line
    assert isinstance(exc.value, StoreUnavailable) == for_later, (type(exc.value), line)
    return line


async def test_a_server_that_does_not_answer_is_one_line(tmp_path):
    url = f"postgresql://tablebot:{PASSWORD}@/tablebot?host={tmp_path}"  # no server on that socket
    with pytest.raises(StoreError) as exc:
        await make_store(url).open()
    assert _one_line(exc, for_later=True).startswith(
        f"cannot reach the PostgreSQL server at {tmp_path}:5432 (database tablebot)")


async def test_a_refused_password_is_one_line(postgres_server, postgres_url):
    admin = await asyncpg.connect(postgres_url)
    await admin.execute("CREATE ROLE pwuser LOGIN PASSWORD 'right-pw'")
    await admin.close()
    # The test server trusts everyone: this role alone must give its password.
    hba = postgres_server.pgdata / "pg_hba.conf"
    hba.write_text("local all pwuser scram-sha-256\n" + hba.read_text())
    postgres_server.psql("SELECT pg_reload_conf();")
    wrong = postgres_url.replace("postgres:@", f"pwuser:{PASSWORD}@")
    with pytest.raises(StoreError) as exc:
        await make_store(wrong).open()
    assert "refused the login" in _one_line(exc)
    right = postgres_url.replace("postgres:@", "pwuser:right-pw@")
    with pytest.raises(StoreError) as exc:  # let in, but not the owner of the database's schema
        await make_store(right).open()
    assert "the user may not create or change tables" in _one_line(exc)
    admin = await asyncpg.connect(postgres_url)
    await admin.execute("GRANT ALL ON SCHEMA public TO pwuser")
    await admin.close()
    store = await make_store(right).open()
    await store.close()


async def test_a_missing_database_is_one_line(postgres_url):
    with pytest.raises(StoreError) as exc:
        await make_store(postgres_url.replace("/t", "/nosuch", 1)).open()
    assert "does not exist" in _one_line(exc)


async def test_a_newer_schema_is_refused_and_left_as_it_was(postgres_url):
    store = await make_store(postgres_url).open()
    await store.close()
    admin = await asyncpg.connect(postgres_url)
    await admin.execute("INSERT INTO schema_version VALUES ($1)", len(MIGRATIONS) + 1)
    with pytest.raises(StoreError) as exc:
        await make_store(postgres_url).open()
    assert "newer version of tablebot" in _one_line(exc)
    assert await admin.fetchval("SELECT MAX(version) FROM schema_version") == len(MIGRATIONS) + 1
    await admin.close()


async def test_another_programs_tables_are_refused_and_not_touched(postgres_url):
    admin = await asyncpg.connect(postgres_url)
    await admin.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StoreError) as exc:
        await make_store(postgres_url).open()
    assert "another program's tables (invoices)" in _one_line(exc)
    assert await admin.fetchval("SELECT COUNT(*) FROM pg_tables WHERE schemaname='public'") == 1
    await admin.close()


async def test_two_stores_opening_a_new_database_together_migrate_it_once(postgres_url):
    stores = await asyncio.gather(*(make_store(postgres_url).open() for _ in range(3)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 3
        rows = await stores[0]._rows("SELECT COUNT(*) FROM schema_version")
        assert rows == [(len(MIGRATIONS),)]
    finally:
        for s in stores:
            await s.close()


async def test_a_server_gone_and_back_is_unavailable_meanwhile_for_ping_and_every_query():
    server = start_server()  # its own server, to stop it
    try:
        store = await make_store(server.get_uri()).open()
        await store.ping()
        game = await store.create_game(kind="lucky", chat_id=-1, thread_id=0, host=Seat(0, 1, "A"), options={},
                                       seed=1)
        assert game.id == 1
        shut_down(server)
        with pytest.raises(StoreError) as exc:
            await store.ping()
        assert _one_line(exc, for_later=True).startswith("cannot reach the PostgreSQL server")
        game.status = "cancelled"
        with pytest.raises(StoreError) as exc:
            await store.save_game(game)
        _one_line(exc, for_later=True)
        with pytest.raises(StoreError) as exc:
            await store.get_game(game.id)
        _one_line(exc, for_later=True)
        assert game.version == 0
        start_again(server)
        assert (await store.get_game(game.id)).status == "lobby"  # nothing half-way, and it answers again
        await store.save_game(game)
        assert (await store.get_game(game.id)).status == "cancelled"
        await store.close()
    finally:
        stop_server(server)
