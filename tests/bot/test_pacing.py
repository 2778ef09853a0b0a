"""Group writes are paced and table edits coalesce, groups share the bot's budget in turn, a
person goes first there too, and the writes in flight follow Telegram's speed; commands, menus
and languages."""
from __future__ import annotations

import asyncio
import time

from bot.outgoing.inflight import InFlightLimit, LoopLag
from bot.outgoing.pace import BotPace
from bot.outgoing.pacing import GAME, PERSON, Pacer
from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data

GROUP = -100500


async def test_the_pacer_never_exceeds_its_budget_in_any_window():
    pacer = Pacer(per_minute=6, fast_spacing=0.0, window=0.6)
    stamps = []
    for _ in range(14):
        await pacer.wait(GROUP)
        stamps.append(time.monotonic())
    for i, start in enumerate(stamps):
        assert sum(1 for s in stamps[i:] if s - start < 0.6 - 1e-3) <= 6
    assert stamps[-1] - stamps[0] >= 0.6  # it really waited
    # Other chats do not wait for this one.
    t0 = time.monotonic()
    await pacer.wait(-1)
    assert time.monotonic() - t0 < 0.05


async def test_groups_take_turns_in_the_bots_budget_and_a_person_goes_before_every_table():
    # Forty groups, each with its table's next edit always waiting (a busy game's coalesced
    # redraw asks again once the last is out): together far more than the bot's budget.
    pacer = Pacer(per_minute=60_000, fast_spacing=0.0, pace=BotPace(start=100.0, most=100.0))
    groups = list(range(-40, 0))
    grants: list = []

    async def table(chat: int) -> None:
        while True:
            slot = await pacer.wait(chat, priority=GAME)
            grants.append(chat)
            slot.done(0.001)
    tables = [asyncio.ensure_future(table(chat)) for chat in groups]
    try:
        while len(grants) < 200:
            await asyncio.sleep(0.05)
        # In turn: between two edits of one group's table, every other group's table had one.
        for i in range(len(grants) - len(groups)):
            assert len(set(grants[i:i + len(groups)])) == len(groups), grants[i:i + len(groups)]
        # A person waiting in one more group goes before all the tables waiting in the budget.
        before = len(grants)

        async def reply() -> None:
            (await pacer.wait(-99, priority=PERSON)).done(0.001)
            grants.append("reply")
        await reply()
        # (A table's grant already on its way when the reply came may still land first: 40 wait.)
        assert "reply" in grants[before:before + 3], grants[before:]
    finally:
        for task in tables:
            task.cancel()
        await pacer.close()


async def test_a_reply_that_a_more_urgent_one_waits_behind_takes_its_rank():
    # Burst 2, then a token every 0.6 s; a writer counts as a person after 1 s.
    pacer = Pacer(per_minute=12, fast_spacing=0.0, window=6.0)
    for _ in range(2):
        (await pacer.wait(-1, priority=PERSON)).done()
    order = []

    async def writer(name: str, **kw) -> None:
        (await pacer.wait(-1, priority=GAME, **kw)).done()
        order.append(name)
    table = asyncio.ensure_future(writer("table"))  # the table's edit came first
    reply = asyncio.ensure_future(writer("reply", tag="replies"))  # a member's quick second command
    await asyncio.sleep(0.05)
    pacer.hurry(-1, "replies", PERSON)  # someone's first command is now waiting behind that reply
    await asyncio.gather(table, reply)
    assert order == ["reply", "table"]
    await pacer.close()


def test_the_writes_in_flight_follow_how_fast_telegram_answers():
    now = [0.0]
    limit = InFlightLimit(least=4, most=64, start=16, clock=lambda: now[0])

    def answer(seconds: float, *, crowded: bool = True, started: float | None = None, failed: bool = False) -> None:
        now[0] += seconds
        limit.answered(now[0] - seconds if started is None else started, seconds, crowded=crowded, failed=failed)
    for _ in range(20):  # prompt answers while every place was taken: more places (at once at first)
        answer(0.05)
    assert limit.value == 36
    answer(0.05, crowded=False)  # not every place was taken: a prompt answer says nothing more
    assert limit.value == 36
    answer(1.0)  # one slow answer (a big picture, a hiccup): nothing is cut
    assert limit.value == 37
    cut_at = now[0]
    answer(1.0)  # Telegram stays slow: a fifth fewer
    assert limit.value == 29
    answer(1.0, started=cut_at - 0.5)  # sent before that cut: no second cut for the same slowness
    assert limit.value == 29
    answer(0.05, failed=True)  # no answer at all: half
    assert limit.value == 14
    now[0] += limit.memory  # a Telegram far away answers everything in 1.5 s: that is its pace
    for _ in range(100):
        answer(1.5)
    assert limit.value > 14
    for _ in range(100):  # and the limit never goes below its least, nor above its most
        answer(0.05, failed=True)
    assert limit.value == 4


def test_the_bots_own_lateness_is_not_taken_for_a_slow_telegram():
    now = [0.0]
    lag = LoopLag()
    limit = InFlightLimit(least=4, most=64, start=16, clock=lambda: now[0], lag=lag)

    def answer(seconds: float) -> None:
        now[0] += seconds
        limit.answered(now[0] - seconds, seconds, crowded=True)
    for _ in range(20):
        answer(0.05)
    grown = limit.value
    lag.value = 0.4  # the bot is busy: it reads each answer 0.4 s late, and resumes its writer as late
    for _ in range(20):
        answer(0.05 + 2 * 0.4)
    assert limit.value > grown  # Telegram answered as fast as before: no cut
    lag.value = 0.0  # the same answer times from a bot that is not late: Telegram is slow
    for _ in range(20):
        answer(0.85)
    assert limit.value < grown


def test_a_moment_of_lateness_does_not_make_a_far_telegram_look_near():
    """Telegram 0.3 s away; one answer comes while the bot's loop runs 0.13 s late. With the lag
    taken off it that answer looked 0.04 s quick, the baseline for the next 30 s, and every answer
    after it slow: the places fell to their least (16 at 125 presses a second, bench load)."""
    now = [0.0]
    lag = LoopLag()
    limit = InFlightLimit(least=4, most=64, start=16, clock=lambda: now[0], lag=lag)

    def answer(seconds: float) -> None:
        now[0] += 0.01
        limit.answered(now[0] - seconds, seconds, crowded=True)
    for _ in range(40):
        answer(0.3)
    grown = limit.value
    lag.value = 0.13
    answer(0.3)
    lag.value = 0.0
    for _ in range(200):
        answer(0.3)
    assert limit.value >= grown


async def test_the_loops_lateness_is_measured_by_a_timer():
    lag = LoopLag(every=0.02)
    lag.watch()
    try:
        await asyncio.sleep(0.1)
        assert lag.value < 0.15  # (a busy machine runs every timer a little late)
        time.sleep(0.3)  # the loop is held up: the timer due meanwhile runs late
        await asyncio.sleep(0.001)  # (it runs now; the next is due 0.02 s later)
        assert lag.value >= 0.2
        await asyncio.sleep(1.5)  # and it falls back once the loop is on time again
        assert lag.value < 0.15
    finally:
        lag.stop()


async def test_fast_presses_are_answered_at_once_and_table_edits_coalesce(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", group_writes_per_minute=20,
                             group_fast_spacing=1.0).start()
    try:
        fake.add_group(GROUP, "G")
        anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
        await anna.say(GROUP, "/new lucky")
        lobby = fake.last_bot_message(GROUP)
        await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
        await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
        game = next(iter((await runner.games())))
        edits_before = len(fake.calls("editMessageMedia", chat_id=GROUP))
        presses = 0
        for _ in range(12):
            state = (await runner.state(game.id))
            seat = lucky.current_player(state)
            if seat is None:
                break
            code = lucky.encode_action(lucky.legal_actions(state, seat)[0])
            user = game.seats[seat].user_id
            qid = fake.user_presses(user, GROUP, game.table_msg, f"{game.short_id}:{lucky.turn(state)}:{code}")
            await fake.wait_for(lambda: fake.callback_answer(qid) is not None, timeout=2.0)
            assert not fake.callback_answer(qid).get("show_alert")
            presses += 1
        await runner.idle(timeout=60)
        edits = len(fake.calls("editMessageMedia", chat_id=GROUP)) - edits_before
        assert 1 <= edits < presses
        # The picture shows the final state: its caption names the player to act now.
        seat = lucky.current_player((await runner.state(game.id)))
        assert game.seats[seat].name in fake.message(GROUP, game.table_msg).caption
        assert fake.writes_per_minute(GROUP) <= 20
    finally:
        await runner.stop()


async def test_help_rules_lang_and_command_menus(fake, runner):
    fake.add_group(GROUP, "G", admins=[1])
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    for lang in ("en", "ru"):
        code = "" if lang == "en" else lang
        in_groups = [c["command"] for c in fake.commands({"type": "all_group_chats"}, code)]
        for_admins = [c["command"] for c in fake.commands({"type": "all_chat_administrators"}, code)]
        in_private = [c["command"] for c in fake.commands({"type": "all_private_chats"}, code)]
        assert in_groups[0] == for_admins[0] == in_private[0] == "new"
        # Players see what they can use; admins also see what only they (or the host) may do.
        assert {"cancel", "away", "turntimer", "lobbytimeout", "lang"}.isdisjoint(in_groups)
        assert {"cancel", "away", "turntimer", "lobbytimeout", "lang"} <= set(for_admins)
        assert set(in_groups) < set(for_admins)
        # In private: your own language and game; nothing about groups.
        assert {"lang", "notify", "board", "cancel"} <= set(in_private)
        assert {"away", "turntimer", "lobbytimeout", "leave"}.isdisjoint(in_private)
    descriptions = {c["command"]: c["description"] for c in fake.commands({"type": "all_chat_administrators"}, "ru")}
    assert descriptions["turntimer"] == "Сколько можно думать над ходом (администратор)"
    await anna.say(GROUP, "/rules конусы")
    assert "Cones" in fake.last_bot_message(GROUP).text
    await boris.say(GROUP, "/lang ru")
    assert "Only" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/lang ru")
    assert "русский" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/rules lucky")
    assert "Совершенно гениально" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/help")
    assert "проводит настольные игры" in fake.last_bot_message(GROUP).text
    await boris.say(2, "/lang ru")
    assert "ваш язык" in fake.last_bot_message(2).text


async def test_an_idle_lobby_closes_after_the_chat_timeout(fake, runner):
    fake.add_group(GROUP, "G", admins=[1])
    anna = Player(fake, runner, 1, "Anna")
    await anna.say(GROUP, "/lobbytimeout 10")
    assert "10" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/new trio")
    game = next(iter((await runner.games())))
    assert await runner.bot.lobby.check_timeout(game.id, time.time() + 5 * 60) is not None
    assert game.status == "lobby"
    assert await runner.bot.lobby.check_timeout(game.id, time.time() + 11 * 60) is None
    await runner.idle()
    assert game.status == "cancelled"
    assert "10 minutes" in fake.message(GROUP, game.lobby_msg).text
