"""Telegram's real limits, learnt: each group keeps to its 20 writes a minute (edits included),
the whole bot's pace is learnt from Telegram's 429s (a limit it is not told is found; without
one the pace grows as far as the groups need), a 429's retry_after is obeyed for its chat, and
broadcasts keep to 30 a second unless paid.

The pacer's minute-long tests run on a virtual clock (tests/bot/virtual_time.py) against the
fake Telegram's own limits (tests/fakebotapi/limits.py); the bot's own over HTTP against the
fake, in real time, for a few seconds."""
from __future__ import annotations

import asyncio
import collections

import pytest

from bot.app import Tablebot
from bot.ops.config import ConfigError, from_env
from bot.outgoing.inflight import InFlightLimit
from bot.outgoing.pace import BOT, CHAT, BotPace
from bot.outgoing.pacing import GAME, Pacer
from tests.bot.harness import BotRunner
from tests.bot.virtual_time import run_on_virtual_time
from tests.fakebotapi import Limits, most_within

WAY = 0.02  # seconds a request takes to Telegram, and its answer back


def busy_groups(groups: int, seconds: float, *, bot_limit: int | None) -> dict:
    """``groups`` groups, each with a table edit always waiting (a busy game's coalesced redraw
    asks again once the last is out), for ``seconds`` on a virtual clock, paced as the bot
    paces them, written to a Telegram with the fake's limits: 20 a minute a group and
    ``bot_limit`` a second for the whole bot. A 429 is waited out and the write made again,
    as the messenger does. What Telegram took and refused, and the pace each second."""
    async def run() -> dict:
        loop = asyncio.get_running_loop()
        pace = BotPace(clock=loop.time)
        pacer = Pacer(per_minute=20, fast_spacing=1.0, pace=pace, in_flight=InFlightLimit(clock=loop.time))
        telegram = Limits(group=20, group_window=60.0, bot=bot_limit)
        took: dict[int, list[float]] = collections.defaultdict(list)
        refused: collections.Counter = collections.Counter()
        paces: list[float] = []

        async def table(chat: int) -> None:
            while True:
                slot = await pacer.wait(chat, priority=GAME)
                await asyncio.sleep(WAY)
                refusal = telegram.refusal(chat, loop.time())
                if refusal is None:
                    telegram.wrote(chat, loop.time())
                    took[chat].append(loop.time())
                await asyncio.sleep(WAY)
                if refusal is None:
                    slot.done(2 * WAY)
                else:
                    slot.done()
                    refused[refusal[0]] += 1
                    pacer.refused(chat, refusal[1] + 0.1, slot)

        tables = [asyncio.ensure_future(table(-1000 - i)) for i in range(groups)]
        for _ in range(int(seconds)):
            await asyncio.sleep(1.0)
            paces.append(pace.value)
        for task in tables:
            task.cancel()
        await pacer.close()
        return {"took": took, "refused": refused, "paces": paces, "counts": pace.counts(), "pace": pace}
    return run_on_virtual_time(run())


def writes_a_second(took: dict[int, list[float]], since: float = 0.0) -> int:
    """The most writes Telegram took in any second (after ``since``)."""
    return most_within(sorted(t for times in took.values() for t in times if t >= since), 1.0)


def test_a_limit_for_the_whole_bot_that_it_is_not_told_is_found_within_a_minute():
    # 600 busy groups want about 170 writes a second; Telegram takes 60 a second, and says so
    # only by refusing the rest.
    run = busy_groups(600, 90, bot_limit=60)
    paces, refused = run["paces"], run["refused"]
    writes = sum(len(times) for times in run["took"].values())
    assert paces[0] < 48  # it starts at 30 a second, Telegram's figure for broadcasts
    # Within a minute its pace is within a fifth of the limit, and stays there.
    assert all(48 <= p <= 72 for p in paces[59:]), paces
    assert 48 <= writes_a_second(run["took"], since=60.0) <= 60
    # It met the limit a few times to find it: under 1 % of its writes were refused, every one
    # of them by the whole bot's limit (no group was ever over its 20 a minute), and no write
    # was made to a chat before its retry_after had passed.
    assert 0 < refused["bot"] < writes / 100, (refused, writes)
    assert set(refused) == {"bot"}
    assert run["counts"][BOT] >= refused["bot"] * 0.9, run["counts"]  # the bot saw them for what they were
    assert max(most_within(times, 60.0) for times in run["took"].values()) <= 20


def test_without_a_limit_the_pace_grows_as_far_as_the_groups_need():
    run = busy_groups(600, 60, bot_limit=None)
    assert not run["refused"]
    # 600 busy groups need about 170 writes a second: after a minute they have them.
    assert run["paces"][-1] > 150, run["paces"]
    assert writes_a_second(run["took"], since=50.0) > 150
    assert max(most_within(times, 60.0) for times in run["took"].values()) <= 20
    # Sixty groups need 17 a second once their first bursts are out (180 writes at once, which
    # waited for the pace, so it grew): from then on it grows no more.
    few = busy_groups(60, 30, bot_limit=None)
    assert few["paces"][10] == few["paces"][-1] < 60, few["paces"]



def test_a_429_from_one_chat_alone_holds_that_chat_and_not_the_bot():
    pace = BotPace(clock=lambda: now)
    now = 10.0
    pace.refused(-1, granted=9.9)  # one group refused
    now = 12.0
    pace.refused(-1, granted=11.9)  # the same group again: still its own limit
    assert pace.value == 30.0 and pace.ceiling is None
    now = 20.0
    assert pace.counts() == {CHAT: 2, BOT: 0}
    for chat in (-1, -2, -3):  # three chats refused at once: a limit of the whole bot
        pace.refused(chat, granted=19.9)
    assert pace.value == 30.0 * 0.85 and pace.ceiling == 30.0
    pace.refused(-4, granted=19.95)  # let out before the cut: that cut's echo, no second cut
    assert pace.value == 30.0 * 0.85
    assert pace.counts() == {CHAT: 2, BOT: 4}


# ---- the bot itself, over HTTP, against the fake Telegram --------------------------------------

def writes_to(fake, chats) -> list[float]:
    """When the fake took each write to ``chats``, in order."""
    chats = set(chats)
    return sorted(r.time for r in fake.requests if r.ok and r.chat_id in chats and r.method.startswith("send"))


async def say_in_turn(messenger, chat: int, count: int) -> None:
    """``count`` messages into ``chat``, each once the one before it is out."""
    for i in range(count):
        await messenger.send_text(chat, f"{chat} {i}")


def told_in_order(fake, chat: int, count: int) -> bool:
    return [m.text for m in fake.messages(chat) if m.from_bot] == [f"{chat} {i}" for i in range(count)]


async def test_the_bot_meets_a_limit_it_was_not_told_and_loses_no_write(fake, tmp_path):
    fake.set_bot_limit(40)
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    try:
        groups = [-100700 - i for i in range(40)]
        for chat in groups:
            fake.add_group(chat, f"G{chat}")
        await asyncio.gather(*(say_in_turn(runner.bot.messenger, chat, 8) for chat in groups))
        floods = fake.floods_by_kind()
        # Telegram refused some writes for the whole bot's sake; each was made again once its
        # retry_after had passed (never before: no "held"), and every message arrived once, in order.
        assert floods.get("bot", 0) >= 1 and "held" not in floods, floods
        assert all(told_in_order(fake, chat, 8) for chat in groups)
        # The bot took those 429s for a limit of the whole bot, and its pace came down to it.
        pace = runner.bot.messenger.pacer.pace
        assert pace.counts()[BOT] >= 1 and pace.value < 48
        metrics = runner.bot.metrics.exposition_without_games().decode()
        assert f"tablebot_bot_writes_per_second {pace.value}" in metrics
        assert 'tablebot_write_floods_total{kind="bot"}' in metrics
    finally:
        await runner.stop()


async def test_busy_groups_get_more_than_30_writes_a_second_and_none_more_than_20_a_minute(fake, tmp_path):
    # Telegram's minute in 6 s: 20 writes into a group within any 6 s, edits included.
    fake.set_group_limit(20, window=6.0)
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", group_writes_per_minute=20, group_fast_spacing=0.0,
                             group_window_seconds=6.0).start()
    try:
        groups = [-100800 - i for i in range(60)]
        for chat in groups:
            fake.add_group(chat, f"G{chat}")
        await asyncio.gather(*(say_in_turn(runner.bot.messenger, chat, 8) for chat in groups))
        assert all(told_in_order(fake, chat, 8) for chat in groups)
        # The groups wanted more than 30 a second, and got it.
        assert runner.bot.messenger.pacer.pace.value > 30
        times = writes_to(fake, groups)
        assert len(times) / (times[-1] - times[0]) > 35 and most_within(times, 1.0) > 30

        # No group got more than its 20 in any (6-second) minute: Telegram refused none.
        assert not fake.floods_by_kind()
        assert max(fake.writes_per_minute(chat, window=6.0) for chat in groups) <= 20
    finally:
        await runner.stop()


async def broadcast_to(fake, runner, groups: list[int], text: str) -> None:
    """``text`` to every group as a broadcast, while a person's reply goes to another chat."""
    for chat in groups:
        runner.bot.messenger.broadcast_soon(chat, text)
    await asyncio.sleep(0.2)
    reply = await runner.bot.messenger.send_text(-100999, "a reply someone waits for")
    assert reply.ok
    await runner.idle(timeout=30)


async def test_broadcasts_keep_to_30_a_second_and_hold_up_nobody_else(fake, tmp_path):
    # The bot's own pace is no limit here (200 a second): only the broadcast class is.
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", bot_writes_per_second=200).start()
    try:
        groups = [-100900 - i for i in range(75)]
        for chat in groups + [-100999]:
            fake.add_group(chat, f"G{chat}")
        await broadcast_to(fake, runner, groups, "🛠 notice")
        notices = writes_to(fake, groups)
        assert len(notices) == 75 and all(len(fake.messages(chat)) == 1 for chat in groups)
        # One every 1/30 s as they leave; on their way to Telegram one may come a little late,
        # next to the one after it (a busy machine), so the fake may count one more in a second.
        assert most_within(notices, 1.0) <= 31 and notices[-1] - notices[0] >= 2.0

        assert not any(r.params.get("allow_paid_broadcast") for r in fake.calls("sendMessage"))
        # The reply that came while they waited did not wait for them.
        [reply] = writes_to(fake, [-100999])
        assert reply < notices[-1]
    finally:
        await runner.stop()


async def test_paid_broadcasts_go_faster_and_are_counted(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", paid_broadcast=True).start()
    try:
        groups = [-100900 - i for i in range(75)]
        for chat in groups + [-100999]:
            fake.add_group(chat, f"G{chat}")
        await broadcast_to(fake, runner, groups, "🛠 notice")
        notices = [r for r in fake.calls("sendMessage") if r.ok and r.chat_id in set(groups)]
        assert len(notices) == 75 and all(r.params.get("allow_paid_broadcast") is True for r in notices)
        # Outside the bot's pace (30 a second here) and the free 30 a second of broadcasts.
        assert most_within(sorted(r.time for r in notices), 1.0) > 30
        reply = next(r for r in fake.calls("sendMessage") if r.chat_id == -100999)
        assert "allow_paid_broadcast" not in reply.params  # only broadcasts are paid for
        metrics = runner.bot.metrics.exposition_without_games().decode()
        assert "tablebot_paid_broadcasts_total 75.0" in metrics
    finally:
        await runner.stop()


def test_an_operator_may_fix_the_pace_and_pay_for_broadcasts(tmp_path):
    env = {"TELEGRAM_BOT_TOKEN": "1:x", "TABLEBOT_DB": str(tmp_path / "db.sqlite3")}
    learnt = from_env(env)
    assert learnt.bot_writes_per_second is None and not learnt.paid_broadcast
    fixed = from_env({**env, "TABLEBOT_BOT_WRITES_PER_SECOND": "45", "TABLEBOT_PAID_BROADCAST": "1"})
    assert fixed.bot_writes_per_second == 45.0 and fixed.paid_broadcast
    pacer = Tablebot(fixed).messenger.pacer
    assert pacer.pace.value == pacer.pace.most == 45.0 and pacer.paid_broadcasts
    assert Tablebot(learnt).messenger.pacer.pace.value == 30.0
    for wrong in ({"TABLEBOT_BOT_WRITES_PER_SECOND": "0"}, {"TABLEBOT_BOT_WRITES_PER_SECOND": "fast"},
                  {"TABLEBOT_PAID_BROADCAST": "maybe"}):
        with pytest.raises(ConfigError):
            from_env({**env, **wrong})
