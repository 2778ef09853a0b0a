"""The standby lock (``bot/ops/standby.py``) on a real PostgreSQL: one holder per bot, a waiting
process takes over when the holder's connection goes, and the holder hears of it at once."""
from __future__ import annotations

import asyncio
import logging

import asyncpg
import pytest

from bot.ops.standby import Standby, lock_key
from bot.storage.store import StoreError, StoreUnavailable

GRACE = 0.2  # short here: these tests look at the lock, not at the timing


def test_the_key_is_the_bots_the_same_for_every_process_of_it_and_not_another_bots():
    assert lock_key("123456:AAA") == lock_key("123456:AAA") == lock_key("123456:new-token-of-the-same-bot")
    assert lock_key("123456:AAA") != lock_key("654321:AAA")
    assert -2**63 <= lock_key("123456:AAA") < 2**63  # PostgreSQL's bigint


async def _lock_holders(url: str) -> list[int]:
    """The server pids of the sessions holding an advisory lock."""
    admin = await asyncpg.connect(url)
    try:
        return [row["pid"] for row in await admin.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted")]
    finally:
        await admin.close()


async def _wait_until(condition, seconds: float = 10.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not (value := condition()):
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)
    return value


async def test_one_process_is_active_the_other_waits_and_takes_over_when_the_lock_connection_is_cut(
        postgres_url, caplog):
    caplog.set_level(logging.INFO, logger="tablebot.standby")
    key = lock_key("123456:AAA")
    lost, changes = asyncio.Event(), []
    first = Standby(postgres_url, key, grace_seconds=GRACE, on_lost=lost.set,
                    on_change=lambda active: changes.append(("first", active)))
    second = Standby(postgres_url, key, grace_seconds=GRACE, retry_seconds=0.1,
                     on_change=lambda active: changes.append(("second", active)))
    never = asyncio.Event()
    assert await first.acquire(never) and first.active
    first.watch()
    waiting = asyncio.create_task(second.acquire(never))
    await _wait_until(lambda: any(r.message.startswith("standby:") for r in caplog.records))
    assert not waiting.done() and not second.active
    [holder] = await _lock_holders(postgres_url)

    admin = await asyncpg.connect(postgres_url)
    await admin.execute("SELECT pg_terminate_backend($1)", holder)
    await admin.close()
    await asyncio.wait_for(lost.wait(), 5)
    assert not first.active
    assert await asyncio.wait_for(waiting, 10) and second.active
    assert changes == [("first", True), ("first", False), ("second", True)]
    assert [r.levelname for r in caplog.records if "lost the lock" in r.message] == ["CRITICAL"]
    assert sum(r.message.startswith("standby:") for r in caplog.records) == 1  # said once
    await second.close()
    await first.close()
    assert await _lock_holders(postgres_url) == []


async def test_two_bots_on_one_server_are_both_active_and_a_stop_releases_the_lock(postgres_url):
    never = asyncio.Event()
    one = Standby(postgres_url, lock_key("111:A"), grace_seconds=GRACE)
    other = Standby(postgres_url, lock_key("222:B"), grace_seconds=GRACE)
    assert await one.acquire(never) and await other.acquire(never)
    await one.close()
    again = Standby(postgres_url, lock_key("111:A"), grace_seconds=GRACE)
    assert await asyncio.wait_for(again.acquire(never), 5)
    await again.close()
    await other.close()


async def test_a_standby_stopped_while_it_waits_holds_nothing(postgres_url):
    never, stop = asyncio.Event(), asyncio.Event()
    holder = Standby(postgres_url, lock_key("111:A"), grace_seconds=GRACE)
    assert await holder.acquire(never)
    waiting = Standby(postgres_url, lock_key("111:A"), grace_seconds=GRACE, retry_seconds=0.1)
    task = asyncio.create_task(waiting.acquire(stop))
    await asyncio.sleep(0.3)
    stop.set()
    assert await asyncio.wait_for(task, 5) is False and not waiting.active
    await holder.close()
    assert await _lock_holders(postgres_url) == []



async def test_a_standby_refused_by_the_database_raises_at_once_for_a_person_to_fix(postgres_url, caplog):
    """A refused login is not waited for (the bot says it in one line, exit code 2)."""
    refused = Standby(postgres_url.replace("postgres:@", "nobody_here:pw@"), lock_key("111:A"), grace_seconds=GRACE)
    with pytest.raises(StoreError) as exc:
        await asyncio.wait_for(refused.acquire(asyncio.Event()), 5)
    assert "refused the login" in str(exc.value) and "pw@" not in str(exc.value)
    assert not isinstance(exc.value, StoreUnavailable)
    assert not [r for r in caplog.records if "trying again" in r.getMessage()]
