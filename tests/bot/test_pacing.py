"""Group writes are paced and table edits coalesce; commands, menus and languages."""
from __future__ import annotations

import time

from bot.outgoing.messenger import GroupPacer
from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data

GROUP = -100500


async def test_the_pacer_never_exceeds_its_budget_in_any_window():
    pacer = GroupPacer(per_minute=6, fast_spacing=0.0, window=0.6)
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
