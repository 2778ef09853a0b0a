"""The fake Bot API as a hostile and unlucky world: faults, outages, odd updates, answer
accounting. Driven by python-telegram-bot's Bot directly (no bot application needed)."""

from __future__ import annotations

import asyncio
import random
import time
import warnings

import pytest
from telegram import Bot
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut

from tests.fakebotapi import (CHANNEL_BOT, GROUP_ANONYMOUS_BOT, FakeBotAPI,
                              mutate_callback_data)

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

ANNA, BORIS = 1001, 1002
GROUP, OTHER, CHANNEL = -1001234567890, -1009876543210, -1005555555555


@pytest.fixture
def fake():
    f = FakeBotAPI()
    f.start()
    f.add_user(ANNA, "Anna")
    f.add_user(BORIS, "Boris")
    f.add_group(GROUP, "Game night", creator=ANNA)
    f.add_group(OTHER, "Other night", creator=BORIS)
    yield f
    f.stop()
    assert not [v for v in f.violations if "fake Bot API bug" in v], f.violations


@pytest.fixture
async def bot(fake):
    async with Bot(fake.token, base_url=fake.base_url) as b:
        yield b


async def outcome(call) -> str:
    """What the client saw: "ok" or the exception's class name."""
    try:
        await call
    except Exception as exc:  # noqa: BLE001 - the class is the observation
        return type(exc).__name__
    return "ok"


def seconds(retry_after) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(retry_after, "total_seconds", lambda: retry_after)()


# ---- fault mode --------------------------------------------------------------------------------


async def test_faults_happen_at_the_rate_are_recorded_and_repeat_with_the_seed(fake, bot):
    fake.set_faults(0.3, ("429", "500", "drop"), seed=7, methods={"getChat"})
    seen = [await outcome(bot.get_chat(GROUP)) for _ in range(100)]
    faults = list(fake.faults)
    assert 15 <= len(faults) <= 50, len(faults)
    assert {f.kind for f in faults} == {"429", "500", "drop"}
    assert {f.applied for f in faults if f.kind == "drop"} == {True, False}
    assert all(not f.applied for f in faults if f.kind in ("429", "500"))
    assert all(f.method == "getChat" and f.chat_id == GROUP for f in faults)
    assert seen.count("RetryAfter") == fake.faults_by_kind()["429"]
    assert seen.count("NetworkError") == fake.faults_by_kind()["500"] + fake.faults_by_kind()["drop"]
    assert seen.count("ok") == 100 - len(faults)
    failed = [r for r in fake.calls("getChat") if r.fault]
    assert [r.fault for r in failed] == [f.kind for f in faults]
    assert await outcome(bot.get_me()) == "ok"  # only the methods asked for
    fake.set_faults(0.3, ("429", "500", "drop"), seed=7, methods={"getChat"})
    again = [await outcome(bot.get_chat(GROUP)) for _ in range(100)]
    assert again == seen
    fake.set_faults(0)
    assert await outcome(bot.get_chat(GROUP)) == "ok"
    assert fake.violations == []


async def test_what_each_fault_looks_like_and_whether_the_call_took_effect(fake, bot):
    fake.set_faults(1.0, ("500",), methods={"sendMessage"})
    with pytest.raises(NetworkError, match="Internal Server Error"):
        await bot.send_message(GROUP, "500")
    fake.set_faults(1.0, ("drop_before",), methods={"sendMessage"})
    with pytest.raises(NetworkError, match="disconnected"):
        await bot.send_message(GROUP, "dropped before")
    fake.set_faults(1.0, ("drop_after",), methods={"sendMessage"})
    with pytest.raises(NetworkError, match="disconnected"):
        await bot.send_message(GROUP, "dropped after")
    fake.set_faults(1.0, ("slow",), methods={"sendMessage"}, slow_seconds=0.5)
    t0 = time.monotonic()
    with pytest.raises(TimedOut):
        await bot.send_message(GROUP, "slow", read_timeout=0.1)
    assert time.monotonic() - t0 < 0.4
    fake.set_faults(1.0)  # getUpdates is left alone by default, so updates keep flowing
    fake.user_sends(ANNA, GROUP, "/ping")
    [update] = await bot.get_updates()
    await bot.get_updates(offset=update.update_id + 1)
    fake.clear_faults()
    await fake.settle(quiet=0, timeout=2)  # waits for the held slow answer
    assert [m.text for m in fake.messages(GROUP) if m.from_bot] == ["dropped after", "slow"]
    assert [(f.kind, f.applied) for f in fake.faults] == [
        ("500", False), ("drop", False), ("drop", True), ("slow", True)]
    assert fake.violations == []


async def test_a_429_keeps_the_chat_refusing_writes_until_retry_after(fake, bot):
    board = await bot.send_message(GROUP, "board")
    fake.set_faults(1.0, ("429",), methods={"sendPhoto", "sendMessage"}, retry_after=1)
    with pytest.raises(RetryAfter) as err:
        await bot.send_message(GROUP, "first")
    assert seconds(err.value.retry_after) == 1
    fake.set_faults(0)  # fault mode off: what follows is the chat's wait alone
    with pytest.raises(RetryAfter):
        await bot.edit_message_text("edited", chat_id=GROUP, message_id=board.message_id)
    await bot.send_message(OTHER, "other chats are not held")
    assert (await bot.get_chat(GROUP)).id == GROUP  # reads are not writes
    await asyncio.sleep(1.05)
    await bot.edit_message_text("edited", chat_id=GROUP, message_id=board.message_id)
    assert [(f.method, f.held) for f in fake.faults] == [
        ("sendMessage", False), ("editMessageText", True)]
    assert fake.faults[1].retry_after == 1
    assert fake.violations == []


# ---- outages -----------------------------------------------------------------------------------


async def test_down_refuses_connections_cuts_long_polls_and_comes_back(fake, bot):
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    requests_before = len(fake.requests)
    fake.set_down(True)
    with pytest.raises(NetworkError, match="disconnected|ReadError"):
        await poll
    with pytest.raises(NetworkError, match="ConnectError"):
        await bot.get_me()
    fake.set_down(True, how="502")
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await bot.send_message(GROUP, "x")
    assert len(fake.requests) == requests_before and fake.is_down
    fake.set_down(False)
    assert (await bot.get_me()).id == fake.bot_id
    fake.user_sends(ANNA, GROUP, "/new lucky")
    assert (await bot.get_updates(timeout=1))[0].message.text == "/new lucky"


async def test_an_api_that_starts_down_comes_up_later():
    fake = FakeBotAPI()
    fake.start(down=True)
    try:
        bot = Bot(fake.token, base_url=fake.base_url)
        with pytest.raises(NetworkError):
            await bot.initialize()  # getMe
        fake.up_after(0.3)
        t0 = time.monotonic()
        while await outcome(bot.get_me()) != "ok":
            await asyncio.sleep(0.05)
        assert 0.25 <= time.monotonic() - t0 < 2
        await bot.initialize()
        await bot.shutdown()
    finally:
        fake.stop()


# ---- raw and odd updates -----------------------------------------------------------------------


async def test_odd_updates_are_delivered_as_telegram_sends_them(fake, bot):
    fake.add_channel(CHANNEL, "News")
    first = fake.user_sends(ANNA, GROUP, "/new lucky")
    fake.channel_posts(CHANNEL, "/new lucky")
    fake.user_edits_message(ANNA, GROUP, first["message_id"], "/new trio")
    fake.anonymous_admin_sends(GROUP, "/cancel")
    fake.channel_sends(CHANNEL, GROUP, "/new cones")
    lost = fake.user_presses_missing(BORIS, GROUP, 999, "lucky:0:j\n")
    old = fake.user_presses_missing(BORIS, GROUP, 998, "é" * 40, inaccessible=False)
    inline = fake.user_presses_inline(ANNA, "BAAAAJ1x", "x" * 65)
    raw = fake.inject_update({"message": {"message_id": 77, "date": 0, "chat": {"id": GROUP,
                                                                                  "type": "supergroup"}}})
    ups = await bot.get_updates()
    kinds = [next(k for k in ("message", "edited_message", "channel_post", "callback_query")
                  if getattr(u, k)) for u in ups]
    assert kinds == ["message", "channel_post", "edited_message", "message", "message",
                     "callback_query", "callback_query", "callback_query", "message"]
    post, edited, anon, as_channel = ups[1].channel_post, ups[2].edited_message, ups[3].message, ups[4].message
    assert post.sender_chat.id == CHANNEL and post.from_user is None
    assert post.entities[0].type == "bot_command"
    assert edited.text == "/new trio" and edited.edit_date is not None
    assert anon.from_user.id == GROUP_ANONYMOUS_BOT["id"] and anon.sender_chat.id == GROUP
    assert as_channel.from_user.id == CHANNEL_BOT["id"] and as_channel.sender_chat.id == CHANNEL
    assert not ups[5].callback_query.message.is_accessible  # date 0: PTB keeps it a Message
    assert ups[5].callback_query.data == "lucky:0:j\n"
    assert ups[6].callback_query.message.text == "An old board"
    assert ups[7].callback_query.message is None and ups[7].callback_query.inline_message_id
    assert ups[8].update_id == raw and ups[8].message.message_id == 77
    for qid in (lost, old, inline):
        await bot.answer_callback_query(qid)
    assert fake.unanswered_callbacks() == [] and fake.violations == []


async def test_allowed_updates_leave_odd_kinds_out(fake, bot):
    fake.add_channel(CHANNEL, "News")
    msg = fake.user_sends(ANNA, GROUP, "/new lucky")
    fake.channel_posts(CHANNEL, "/new lucky")
    fake.user_edits_message(ANNA, GROUP, msg["message_id"], "/new trio")
    fake.inject_update({"business_message": {"anything": True}})
    fake.anonymous_admin_sends(GROUP, "/board")
    ups = await bot.get_updates(allowed_updates=["message", "callback_query"])
    assert [u.message.text for u in ups] == ["/new lucky", "/board"]
    assert fake.pending_updates() == 2


def test_mutated_callback_data_is_varied_and_seeded():
    rng = random.Random(3)
    out = [mutate_callback_data("lucky:12:draw", rng) for _ in range(300)]
    assert out == [mutate_callback_data("lucky:12:draw", r) for r in [random.Random(3)]
                   for _ in range(300)]
    assert any(d.endswith("\n") for d in out)
    assert any(len(d.encode()) > 64 for d in out)
    assert any(not d.isascii() for d in out)
    assert len(set(out)) > 50 and "lucky:12:draw" not in out


# ---- answers -----------------------------------------------------------------------------------


async def test_answers_are_counted_timed_and_refused_when_late(fake, bot):
    fake.callback_answer_timeout = 0.3
    board = await bot.send_message(GROUP, "board")
    once, twice, late, never = (fake.user_presses(ANNA, GROUP, board.message_id, f"b:{i}")
                                for i in range(4))
    await bot.get_updates()
    await bot.answer_callback_query(once)
    await bot.answer_callback_query(twice)
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(twice)
    assert "answered twice" in fake.violations[-1]
    await asyncio.sleep(0.35)
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(late)
    assert len(fake.violations) == 1  # a late answer is Telegram's refusal, not a bot violation
    stats = {s.id: s for s in fake.callback_stats()}
    assert [stats[q].times_answered for q in (once, twice, late, never)] == [1, 2, 1, 0]
    assert [stats[q].accepted for q in (once, twice, late, never)] == [True, True, False, False]
    assert stats[late].late and not stats[once].late
    assert 0 <= stats[once].latency < 0.3 <= stats[late].latency
    assert stats[never].latency is None and stats[never].delivered_at is not None
    assert fake.answer_latencies() == [stats[q].latency for q in (once, twice, late)]
    assert sorted(fake.unanswered_callbacks()) == sorted([late, never])


async def test_retrying_an_answer_whose_reply_a_fault_swallowed_is_not_a_violation(fake, bot):
    board = await bot.send_message(GROUP, "board")
    qid = fake.user_presses(ANNA, GROUP, board.message_id, "b:1")
    await bot.get_updates()
    fake.set_faults(1.0, ("drop_after",), methods={"answerCallbackQuery"})
    with pytest.raises(NetworkError):
        await bot.answer_callback_query(qid, text="Joined")
    fake.clear_faults()
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(qid, text="Joined")
    assert fake.violations == []
    [stat] = fake.callback_stats()
    assert stat.times_answered == 2 and stat.accepted
    assert fake.faults[0].applied and fake.callback_answer(qid)["text"] == "Joined"
