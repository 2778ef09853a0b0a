from __future__ import annotations

import pytest

from tests.bot.harness import BotRunner
from tests.pg import new_database, start_server, stop_server
from tests.fakebotapi import FakeBotAPI


@pytest.fixture
def fake():
    server = FakeBotAPI()
    server.start()
    yield server
    server.stop()
    assert not server.violations, "the strict fake rejected requests:\n" + "\n".join(server.violations)


@pytest.fixture
async def runner(fake, tmp_path):
    bot = BotRunner(fake, tmp_path / "tablebot.sqlite3")
    await bot.start()
    yield bot
    await bot.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def bot_db(request, tmp_path) -> str:
    """The ``TABLEBOT_DB`` of a new database: a test that takes it runs on SQLite, then on PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "tablebot.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def runner_on_each_db(fake, bot_db):
    """``runner``, on each database in turn (``bot_db``)."""
    bot = BotRunner(fake, bot_db)
    await bot.start()
    yield bot
    await bot.stop()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for this test session (and xdist worker)."""
    server = start_server()
    yield server
    stop_server(server)


@pytest.fixture
async def postgres_url(postgres_server) -> str:
    """The ``TABLEBOT_DB`` URL of a new, empty PostgreSQL database."""
    return await new_database(postgres_server)
