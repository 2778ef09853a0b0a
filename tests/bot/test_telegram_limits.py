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

from bot.outgoing.inflight import InFlightLimit
from bot.outgoing.pace import BOT, CHAT, BotPace
from bot.outgoing.pacing import GAME, Pacer
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
