"""The lobby and the table through the real client and the strict fake: joins (also through the
deep link), who may start and cancel, bad presses, /board, restarts, migration, double presses."""
from __future__ import annotations


from bot.games.colours import EMOJI, colour
from bot.words.i18n import t
from engines import cones
from tests.bot.harness import BotRunner, Player, button_data, buttons

GROUP = -100200
BOT = "tablebot_test_bot"


async def the_game(runner, chat=GROUP):
    return next(g for g in (await runner.games()) if g.chat_id == chat)


async def cones_lobby(fake, runner):
    fake.add_group(GROUP, "Board & <Games>", admins=[4])
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Boris", lang="ru")
    clara = Player(fake, runner, 3, "Clara", opened_private=False)
    admin = Player(fake, runner, 4, "Admin")
    for p in (anna, boris):
        await p.start_private()
    await anna.say(GROUP, "/new cones")
    lobby = fake.last_bot_message(GROUP)
    return anna, boris, clara, admin, lobby


async def test_three_people_join_one_through_the_deep_link(fake, runner):
    anna, boris, clara, admin, lobby = await cones_lobby(fake, runner)
    assert "Cones" in lobby.text and "Anna" in lobby.text
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    assert answer["text"] == "Вы в игре."  # Boris reads Russian: answers use the presser's language
    game = await the_game(runner)
    # Clara never opened the private chat: the press answers with a deep link, she is not in yet.
    answer = await clara.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    assert answer["url"] == f"https://t.me/{BOT}?start=j{game.short_id}"
    assert "Clara" not in fake.message(GROUP, lobby.message_id).text
    # START in the private chat completes the join and says so in both chats.
    await clara.start_private(f"j{game.short_id}")
    assert "You joined" in fake.last_bot_message(3).text
    lobby_now = fake.message(GROUP, lobby.message_id)
    assert "3. \u2068Clara\u2069" in lobby_now.text and "joined from the private chat" in lobby_now.text
    # Only the host (or an admin) starts.
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert answer["show_alert"] and "Anna" in answer["text"]
    assert game.status == "lobby"
    answer = await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert game.status == "running"
    # Every player got a private goal picture; the group got the table with a My goal button.
    for user in (1, 2, 3):
        dm = fake.message(user, game.seats[game.seat_of(user)].dm_msg)
        assert dm.photo is not None and "goal" in (dm.caption or "").lower() or "цель" in (dm.caption or "")
    table = fake.message(GROUP, game.table_msg)
    assert table.photo is not None
    assert any("My goal" in b["text"] for b in buttons(table))
    assert "started" in fake.message(GROUP, lobby.message_id).text
    assert not buttons(fake.message(GROUP, lobby.message_id))


async def test_a_forwarded_join_link_does_not_seat_someone_outside_the_group(fake, runner):
    anna, boris, clara, admin, lobby = await cones_lobby(fake, runner)
    game = await the_game(runner)
    stranger = Player(fake, runner, 77, "Stranger", opened_private=False)
    fake.add_outsider(GROUP, stranger.id)
    await stranger.start_private(f"j{game.short_id}")
    assert "members of its group" in fake.last_bot_message(stranger.id).text
    assert game.seat_of(stranger.id) is None and "Stranger" not in fake.message(GROUP, lobby.message_id).text
    # A member following the same link is seated.
    await clara.start_private(f"j{game.short_id}")
    assert game.seat_of(clara.id) is not None


async def test_host_or_admin_cancels_and_the_host_alone_sets_options(fake, runner):
    anna, boris, clara, admin, lobby = await cones_lobby(fake, runner)
    join = button_data(lobby, text="Join")
    await boris.press(GROUP, lobby.message_id, join)
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Equal"))
    assert answer["show_alert"]
    game = await the_game(runner)
    assert game.options["equal"] is False
    # The same toggle pressed twice quickly sets the same value: no flip-flop.
    data = button_data(lobby, text="Equal")
    await anna.press(GROUP, lobby.message_id, data)
    assert game.options["equal"] is True
    await anna.press(GROUP, lobby.message_id, data)
    assert game.options["equal"] is True
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Cancel"))
    assert answer["show_alert"] and game.status == "lobby"
    await admin.press(GROUP, lobby.message_id, button_data(lobby, text="Cancel"))
    assert game.status == "cancelled"
    assert "cancelled by" in fake.message(GROUP, lobby.message_id).text
    assert not buttons(fake.message(GROUP, lobby.message_id))
    answer = await anna.press(GROUP, lobby.message_id, join)
    assert answer["show_alert"] and "over" in answer["text"]


async def running_cones(fake, runner):
    anna, boris, clara, admin, lobby = await cones_lobby(fake, runner)
    await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = await the_game(runner)
    players = {1: anna, 2: boris}
    return game, players, clara


async def snapshot(runner, game):
    return (game.version, cones.to_json((await runner.state(game.id))))


async def test_bad_presses_get_a_clear_popup_and_change_nothing(fake, runner):
    game, players, stranger = await running_cones(fake, runner)
    table = fake.message(GROUP, game.table_msg)
    state = (await runner.state(game.id))
    mover = players[game.seats[cones.current_player(state)].user_id]
    waiter = next(p for p in players.values() if p is not mover)
    before = await snapshot(runner, game)
    colour_data = button_data(table, text="×")
    # Garbage, a stranger, the player who waits, an unknown game, another chat's game.
    # (Not playing, and not your turn, need no reading: a toast; the rest a pop-up.)
    for who, data, chat, msg, popup in [
        (mover, "garbage!!", GROUP, table.message_id, True),
        (mover, "x" * 64, GROUP, table.message_id, True),
        (stranger, colour_data, GROUP, table.message_id, False),
        (waiter, colour_data, GROUP, table.message_id, False),
        (mover, "zz9:0:b1", GROUP, table.message_id, True),
    ]:
        answer = await who.press(chat, msg, data)
        assert answer.get("text") and bool(answer.get("show_alert")) == popup, (data, answer)
        assert await snapshot(runner, game) == before
    fake.add_group(-100999, "Elsewhere")
    await mover.say(-100999, "/help")
    other = fake.last_bot_message(-100999)
    answer = await mover.press(-100999, other.message_id, colour_data)
    assert answer["show_alert"] and await snapshot(runner, game) == before
    # A stranger pressing My goal learns nothing; a player sees only their own goal.
    goal_data = button_data(table, text="My goal")
    answer = await stranger.press(GROUP, table.message_id, goal_data)
    assert "not playing" in answer["text"]
    answer = await waiter.press(GROUP, table.message_id, goal_data)
    own = cones.view((await runner.state(game.id)), game.seat_of(waiter.id))["goal"]
    assert answer["show_alert"] and EMOJI[own] in answer["text"]
    others = {cones.view((await runner.state(game.id)), s)["goal"] for s in range(2)} - {own}
    assert not any(EMOJI[o] in answer["text"] for o in others)
    # The mover plays: colour, then a pile (the first move covers a bare base: played at once,
    # no preview); the old buttons are then stale.
    await mover.press(GROUP, table.message_id, colour_data)
    table = fake.message(GROUP, game.table_msg)
    pile_data = next(b["callback_data"] for b in buttons(table) if b["text"].isdigit())
    assert "~" not in pile_data
    answer = await mover.press(GROUP, table.message_id, pile_data)
    assert not answer.get("show_alert") and answer["text"].startswith("✓ ") and mover.name in answer["text"]
    assert cones.turn((await runner.state(game.id))) == 1
    after = await snapshot(runner, game)
    # The same tap again is done; the other player's tap on that old turn's button says the turn moved on.
    answer = await mover.press(GROUP, table.message_id, pile_data)
    waiting_seat = game.seats[game.seat_of(waiter.id)]
    done = [t(lang, "✓ Done: now {name} moves.", name=f"\u2068{waiting_seat.name}\u2069") for lang in ("en", "ru")]
    assert not answer.get("show_alert") and answer["text"] in done, answer
    answer = await waiter.press(GROUP, table.message_id, pile_data)
    yours = [t(lang, "The turn has moved on: it is your move now.") for lang in ("en", "ru")]
    assert not answer.get("show_alert") and answer["text"] in yours, answer
    assert await snapshot(runner, game) == after


async def test_two_presses_at_once_apply_exactly_once(fake, runner):
    game, players, _ = await running_cones(fake, runner)
    table = fake.message(GROUP, game.table_msg)
    state = (await runner.state(game.id))
    seat = cones.current_player(state)
    mover = players[game.seats[seat].user_id]
    action = cones.legal_actions(state, seat)[0]
    data = f"{game.short_id}:{cones.turn(state)}:{cones.encode_action(action)}"
    q1 = fake.user_presses(mover.id, GROUP, table.message_id, data)
    q2 = fake.user_presses(mover.id, GROUP, table.message_id, data)
    await runner.idle()
    answers = [fake.callback_answer(q1), fake.callback_answer(q2)]
    assert all(a is not None for a in answers)
    # One applies it (its pop-up says what happened), the other is told it is done and whose move it is.
    done = [t(lang, "✓ Done: now {name} moves.", name=f"\u2068{g.name}\u2069") for lang in ("en", "ru")
            for g in game.seats if g.seat != seat]
    assert sum(a["text"] in done and not a.get("show_alert") for a in answers) == 1, answers
    assert cones.turn((await runner.state(game.id))) == 1
    assert len(await runner.store.actions(game.id)) == 1


async def test_unknown_game_shows_the_menu_and_the_menu_opens_a_lobby(fake, runner):
    fake.add_group(GROUP, "G")
    anna = Player(fake, runner, 1, "Anna")
    await anna.say(GROUP, "/new chess")
    menu = fake.last_bot_message(GROUP)
    assert "chess" in menu.text and len(buttons(menu)) == 4
    await anna.say(GROUP, "/new@tablebot_test_bot")
    menu = fake.last_bot_message(GROUP)
    await anna.press(GROUP, menu.message_id, button_data(menu, text="Cones"))
    assert (await the_game(runner)).kind == "cones"
    await anna.say(GROUP, "/new конусы")
    assert "already open" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/new cones frobnicate")
    assert "Unknown option" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/frobnicate@tablebot_test_bot")
    assert "don't know the command" in fake.last_bot_message(GROUP).text


async def test_board_reposts_the_table_and_strips_the_old_buttons(fake, runner):
    game, players, _ = await running_cones(fake, runner)
    old = game.table_msg
    await players[1].say(GROUP, "/board")
    assert game.table_msg != old
    assert not [b for b in buttons(fake.message(GROUP, old)) if "callback_data" in b]
    assert fake.message(GROUP, game.table_msg).photo is not None
    assert buttons(fake.message(GROUP, game.table_msg))
    # A deleted table is posted again at the next move.
    fake.user_deletes_message(GROUP, game.table_msg)
    state = (await runner.state(game.id))
    seat = cones.current_player(state)
    await runner.bot.play.act(game.id, seat, None, cones.legal_actions(state, seat)[0])
    await runner.idle()
    assert fake.message(GROUP, game.table_msg) is not None


async def test_restart_in_the_middle_of_a_lobby_and_of_a_game(fake, tmp_path):
    db = tmp_path / "db.sqlite3"
    first = await BotRunner(fake, db).start()
    anna, boris, clara, admin, lobby = await cones_lobby(fake, first)
    await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await first.stop()
    second = await BotRunner(fake, db).start()
    for p in (anna, boris, clara):
        p.runner = second
    await second.idle()
    await clara.start_private()
    await clara.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    game = await the_game(second)
    assert [s.name for s in game.seats] == ["Anna", "Boris", "Clara"]
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    state = (await second.state(game.id))
    seat = cones.current_player(state)
    action = cones.legal_actions(state, seat)[0]
    table_msg = game.table_msg
    await second.stop()
    third = await BotRunner(fake, db).start()
    await third.idle()
    game = (await third.bot.book.load(game.id)).game
    assert game.status == "running" and game.table_msg == table_msg
    players = {1: anna, 2: boris, 3: clara}
    mover = players[game.seats[seat].user_id]
    mover.runner = third
    answer = await mover.press(GROUP, table_msg, f"{game.short_id}:0:{cones.encode_action(action)}")
    assert not answer.get("show_alert"), answer
    assert cones.turn((await third.state(game.id))) == 1
    await third.stop()


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(fake, runner):
    old_id, new_id = -300, -100300
    fake.add_group(old_id, "Basic", type="group", creator=1)
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Boris")
    await anna.say(old_id, "/new lucky")
    lobby = fake.last_bot_message(old_id)
    await boris.press(old_id, lobby.message_id, button_data(lobby, text="Join"))
    await anna.press(old_id, lobby.message_id, button_data(lobby, text="Start"))
    game = await the_game(runner, old_id)
    fake.migrate_group(old_id, new_id)
    await runner.idle()
    game = (await runner.game(game.id))
    assert game.chat_id == new_id
    table = fake.message(new_id, game.table_msg)
    assert table is not None and table.photo is not None
    seat = (await runner.state(game.id)).current
    mover = anna if game.seats[seat].user_id == 1 else boris
    answer = await mover.press(new_id, table.message_id, button_data(table, text="Draw"))
    assert not answer.get("show_alert"), answer
    status = await runner.store.open_game_at(new_id, 0)
    assert status is not None and status.id == game.id


async def test_flood_control_is_waited_out_and_presses_are_still_answered(fake, runner):
    fake.add_group(GROUP, "G")
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Boris")
    await anna.say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = await the_game(runner)
    fake.fail_next("editMessageMedia", error_code=429, description="Too Many Requests: retry after 1",
                   retry_after=1)
    seat = (await runner.state(game.id)).current
    mover = anna if game.seats[seat].user_id == 1 else boris
    table = fake.message(GROUP, game.table_msg)
    qid = fake.user_presses(mover.id, GROUP, table.message_id, button_data(table, text="Draw"))
    await fake.wait_for(lambda: fake.callback_answer(qid) is not None, timeout=0.9)
    await runner.idle()
    edits = fake.calls("editMessageMedia", chat_id=GROUP)
    assert [r.ok for r in edits][-2:] == [False, True]
    assert fake.message(GROUP, game.table_msg).edits >= 1


async def test_a_blocked_player_is_flagged_on_the_table(fake, runner):
    game, players, _ = await running_cones(fake, runner)
    fake.user_blocks_bot(2)
    fake.user_deletes_message(2, game.seats[game.seat_of(2)].dm_msg)
    runner.bot.tables.schedule_private(await runner.bot.book.load(game.id), game.seat_of(2), bump=True)
    await runner.idle()
    assert "cannot write to" in fake.message(GROUP, game.table_msg).caption


async def test_blocking_the_bot_shows_on_the_table_at_once_and_unblocking_brings_the_hand_back(fake, runner):
    game, players, _ = await running_cones(fake, runner)
    fake.user_blocks_bot(2)  # Telegram tells the bot with a my_chat_member update
    await runner.idle()
    assert "cannot write to" in fake.message(GROUP, game.table_msg).caption
    seat = game.seats[game.seat_of(2)]
    before = seat.dm_msg
    await players[2].start_private()  # writing to the bot again unblocks it
    await runner.idle()
    assert "cannot write to" not in fake.message(GROUP, game.table_msg).caption
    assert seat.dm_msg != before, "the private message came again, at the bottom of the chat"
    goal = cones.view((await runner.state(game.id)), seat.seat)["goal"]
    assert colour(goal, "ru") in fake.message(2, seat.dm_msg).caption  # Boris reads Russian


async def test_a_bot_removed_from_the_group_closes_its_games_quietly(fake, runner):
    game, players, _ = await running_cones(fake, runner)
    fake.remove_bot_from_group(GROUP)
    await runner.idle()
    assert game.status == "cancelled"
    stored = await runner.store.get_game(game.id)
    assert stored.status == "cancelled"
    calls_to_group = len(fake.calls(chat_id=GROUP))
    await runner.bot.play.check_turn(game.id, 10 ** 10)
    await runner.idle()
    assert len(fake.calls(chat_id=GROUP)) == calls_to_group, "nothing is sent to a group the bot left"


async def test_forum_topics_each_hold_their_own_game(fake, runner):
    forum = -100777
    fake.add_group(forum, "Forum", is_forum=True)
    anna = Player(fake, runner, 1, "Anna")
    await anna.say(forum, "/new lucky", message_thread_id=11)
    await anna.say(forum, "/new cones", message_thread_id=22)
    games = sorted((await runner.games()), key=lambda g: g.id)
    assert [(g.kind, g.thread_id) for g in games] == [("lucky", 11), ("cones", 22)]
    for g in games:
        assert fake.message(forum, g.lobby_msg).message_thread_id == g.thread_id
    await anna.say(forum, "/new trio", message_thread_id=11)
    assert "already open" in fake.last_bot_message(forum).text
    assert fake.last_bot_message(forum).message_thread_id == 11


async def test_network_errors_are_retried(fake, runner):
    fake.add_group(GROUP, "G")
    anna = Player(fake, runner, 1, "Anna")
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway", count=2)
    await anna.say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    assert lobby is not None and "Totally Genial" in lobby.text
    assert [r.ok for r in fake.calls("sendMessage", chat_id=GROUP)] == [False, False, True]


async def test_the_lobbys_rules_button_tells_the_game_and_sends_the_rules_in_private(fake, runner):
    """📖 on a lobby answers as 📖 on a table does (it answered «bad button» once: its action was
    one the door never routed)."""
    anna, boris, clara, admin, lobby = await cones_lobby(fake, runner)
    answer = await clara.press(GROUP, lobby.message_id, button_data(lobby, text="📖 Rules"))
    assert answer["show_alert"] and "Cones" in answer["text"] and "/rules cones" in answer["text"]
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="📖 Rules"))
    assert answer["show_alert"] and "Конусы" in answer["text"] and "в личке" in answer["text"]
    await runner.idle()
    assert "Kabaleo" in fake.last_bot_message(2).text  # the full rules, in Boris's private chat
    assert (await the_game(runner)).status == "lobby" and "Clara" not in fake.message(GROUP, lobby.message_id).text
