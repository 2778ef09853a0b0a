from __future__ import annotations

import pytest

from tests.bot.harness import BotRunner
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
