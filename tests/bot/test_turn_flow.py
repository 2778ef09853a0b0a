"""Turn flow on phones: a ping when the turn passes, an answer to every tap, pacing, shut-down."""
from __future__ import annotations

import asyncio
import time

from bot.outgoing.pacing import GAME, PERSON, TIDY, Pacer
from engines import cones, lucky
from tests.bot.harness import BotRunner, Player, button_data, buttons

GROUP = -1001234500  # a supergroup: its messages have t.me/c links


async def start_lucky(fake, runner, *, opened=(True, True), names=("Anna", "Boris")):
    fake.add_group(GROUP, "Friday games")
    people = [Player(fake, runner, i + 1, name, opened_private=o) for i, (name, o) in enumerate(zip(names, opened))]
    await people[0].say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    assert "/notify off" in lobby.text  # the lobby says how turns are announced
    await people[1].press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in await runner.games() if g.status == "running")
    return game, {p.id: p for p in people}


async def start_cones(fake, runner) -> None:
    """Anna and Boris, who both opened the private chat, start a game of cones in the group."""
    fake.add_group(GROUP, "Cones night")
    people = [Player(fake, runner, i + 1, n) for i, n in enumerate(("Anna", "Boris"))]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, "/new cones")
    lobby = fake.last_bot_message(GROUP)
    await people[1].press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))


async def press_on_table(fake, runner, game, by_id, kind: type):
    """The player to act presses the button of an action of ``kind``; returns (seat, answer)."""
    state = await runner.state(game.id)
    seat = lucky.current_player(state)
    action = next(a for a in lucky.legal_actions(state, seat) if isinstance(a, kind))
    data = f"{game.short_id}:{lucky.turn(state)}:{lucky.encode_action(action)}"
    answer = await by_id[game.seats[seat].user_id].press(GROUP, game.table_msg, data)
    return seat, answer


def rings(text: str) -> bool:
    """A ping: a mention in the group («🔔 Anna, your turn.»), or in private the game's sign and
    name and «your turn» («🎲 <b>Totally Genial</b>: your turn in Friday games.»)."""
    return text.startswith("🔔") or ": your turn" in text


def pings_to(fake, chat_id: int) -> list:
    return [m for m in fake.messages(chat_id) if m.from_bot and rings(m.text or "")]


async def make_bank_possible(fake, runner, game, by_id):
    """Draw until the player to act may bank (or their turn passed by a bust)."""
    for _ in range(20):
        state = await runner.state(game.id)
        seat = lucky.current_player(state)
        if any(isinstance(a, lucky.Bank) for a in lucky.legal_actions(state, seat)):
            return
        await press_on_table(fake, runner, game, by_id, lucky.Draw)


async def test_the_next_player_is_pinged_in_private_and_the_old_ping_goes(fake, runner):
    game, by_id = await start_lucky(fake, runner)
    for p in by_id.values():
        await p.start_private()
    pinged: list[int] = []
    for _ in range(30):
        state = await runner.state(game.id)
        before = lucky.current_player(state)
        kind = lucky.Bank if any(isinstance(a, lucky.Bank) for a in lucky.legal_actions(state, before)) \
            else lucky.Draw
        seat, answer = await press_on_table(fake, runner, game, by_id, kind)
        assert answer["text"].startswith("✓ ") and not answer.get("show_alert"), answer
        after = lucky.current_player(await runner.state(game.id))
        if after is not None and after != before:
            pinged.append(game.seats[after].user_id)
        if len(pinged) >= 3:
            break
    assert len(pinged) >= 3
    for user_id in set(pinged):
        live = [m for m in pings_to(fake, user_id) if not m.deleted]
        assert len(live) == 1, "each ping replaces the one before"
        ping = live[0]
        assert "Totally Genial" in ping.text and "Friday games" in ping.text
        link = buttons(ping)[0]["url"]
        assert link == f"https://t.me/c/1234500/{game.table_msg}"
        sent = [r for r in fake.calls("sendMessage", chat_id=user_id) if rings(str(r.params.get("text", "")))]
        assert sent and not any(r.params.get("disable_notification") in (True, "true") for r in sent)
    # Only turns that passed rang a phone: a draw that matched (same player) rang nobody.
    sent = [r for u in by_id for r in fake.calls("sendMessage", chat_id=u)
            if rings(str(r.params.get("text", "")))]
    assert len(sent) == len(pinged)
    assert len([r for u in by_id for r in fake.calls("deleteMessage", chat_id=u)]) == len(pinged) - len(set(pinged))


async def test_a_player_who_pressed_a_moment_ago_is_not_pinged_but_one_who_looked_away_is(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", ping_quiet_seconds=3.0).start()
    try:
        game, by_id = await start_lucky(fake, runner)
        for p in by_id.values():
            await p.start_private()

        async def pass_the_turn() -> int:
            """Bank (or draw) until the turn passes; the player to act next."""
            for _ in range(20):
                state = await runner.state(game.id)
                before = lucky.current_player(state)
                kind = lucky.Bank if any(isinstance(a, lucky.Bank) for a in lucky.legal_actions(state, before)) \
                    else lucky.Draw
                await press_on_table(fake, runner, game, by_id, kind)
                after = lucky.current_player(await runner.state(game.id))
                if after != before:
                    return game.seats[after].user_id
            raise AssertionError("the turn did not pass")

        def rung(user_id: int) -> int:
            return len([r for r in fake.calls("sendMessage", chat_id=user_id)
                        if rings(str(r.params.get("text", "")))])

        first = await pass_the_turn()  # to a player who has pressed nothing yet: a ring
        assert rung(first) == 1
        second = await pass_the_turn()  # back to the player who pressed a moment ago: none
        assert second != first and rung(second) == 0
        await asyncio.sleep(3.1)  # the first one looked away meanwhile
        assert await pass_the_turn() == first
        assert rung(first) == 2
    finally:
        await runner.stop()


async def test_someone_who_never_opened_the_private_chat_is_mentioned_in_the_group(fake, runner):
    game, by_id = await start_lucky(fake, runner, opened=(False, False))
    for _ in range(40):
        state = await runner.state(game.id)
        before = lucky.current_player(state)
        kind = lucky.Bank if any(isinstance(a, lucky.Bank) for a in lucky.legal_actions(state, before)) \
            else lucky.Draw
        await press_on_table(fake, runner, game, by_id, kind)
        if len([r for r in fake.calls("sendMessage", chat_id=GROUP)
                if rings(str(r.params.get("text", "")))]) >= 2:
            break
    group_pings = pings_to(fake, GROUP)
    assert len(group_pings) == 1, "each group ping replaces the one before"
    sent = [r for r in fake.calls("sendMessage", chat_id=GROUP) if rings(str(r.params.get("text", "")))]
    assert len(sent) >= 2
    current = lucky.current_player(await runner.state(game.id))
    mention = next(e for e in group_pings[-1].entities if e["type"] == "text_mention")
    assert mention["user"]["id"] == game.seats[current].user_id


async def test_notify_off_stops_the_pings_and_on_brings_them_back(fake, runner):
    game, by_id = await start_lucky(fake, runner)
    for p in by_id.values():
        await p.start_private()
        await p.say(p.id, "/notify off")
        assert "🔕" in fake.last_bot_message(p.id).text
    for _ in range(12):
        await make_bank_possible(fake, runner, game, by_id)
        await press_on_table(fake, runner, game, by_id, lucky.Bank)
    assert not any(pings_to(fake, u) for u in by_id) and not pings_to(fake, GROUP)
    for p in by_id.values():
        await p.say(p.id, "/notify on")
    await make_bank_possible(fake, runner, game, by_id)
    seat, _ = await press_on_table(fake, runner, game, by_id, lucky.Bank)
    after = lucky.current_player(await runner.state(game.id))
    assert pings_to(fake, game.seats[after].user_id)


async def test_a_second_tap_is_already_done_and_a_toast_says_what_happened(fake, runner):
    game, by_id = await start_lucky(fake, runner)
    state = await runner.state(game.id)
    seat = lucky.current_player(state)
    data = f"{game.short_id}:{lucky.turn(state)}:draw"
    mover = by_id[game.seats[seat].user_id]
    first = fake.user_presses(mover.id, GROUP, game.table_msg, data)
    second = fake.user_presses(mover.id, GROUP, game.table_msg, data)
    await runner.idle()
    a, b = fake.callback_answer(first), fake.callback_answer(second)
    assert a["text"].startswith(("✓ \u2068Anna\u2069 drew", "✓ \u2068Boris\u2069 drew")), a
    after = game.seats[lucky.current_player(await runner.state(game.id))]
    told = "✓ Done: it is your move again." if after.seat == seat else f"✓ Done: now \u2068{after.name}\u2069 moves."
    assert b["text"] == told and not b.get("show_alert")
    assert len(await runner.store.actions(game.id)) == 1


def test_the_pacer_spreads_a_busy_group_evenly_and_serves_people_first():
    async def scenario():
        # Burst 2, then one per 0.12 s; nobody waits long enough to move up a rank.
        pacer = Pacer(per_minute=12, fast_spacing=0.0, window=1.2, patience=60.0)
        stamps = []
        for _ in range(10):
            await pacer.wait(-1)
            stamps.append(time.monotonic())
        gaps = [b - a for a, b in zip(stamps[2:], stamps[3:])]
        assert all(0.09 < g < 0.2 for g in gaps), gaps  # even, no stall
        for i, start in enumerate(stamps):
            assert sum(1 for s in stamps[i:] if s - start < 1.2 - 1e-3) <= 12
        # A 429: every write to that group waits it out; other groups do not.
        pacer.hold(-1, 0.3)
        t0 = time.monotonic()
        await pacer.wait(-2)
        assert time.monotonic() - t0 < 0.05
        order = []

        async def writer(name, priority):
            await pacer.wait(-1, priority=priority)
            order.append(name)
        # A person waiting (a reply, a ping) goes before the table's edit and the clean-up,
        # whoever asked first.
        await asyncio.gather(writer("tidy", TIDY), writer("table", GAME), writer("reply", PERSON))
        assert time.monotonic() - t0 >= 0.3
        assert order == ["reply", "table", "tidy"]
    asyncio.run(scenario())


def test_a_stream_of_replies_delays_the_table_but_never_starves_it():
    async def scenario():
        # One token per 0.1 s; a writer waiting 0.5 s moves up a rank.
        pacer = Pacer(per_minute=12, fast_spacing=0.0, window=1.0, patience=0.5)
        order = []

        async def writer(name, priority):
            await pacer.wait(-1, priority=priority)
            order.append(name)
        replies = []

        async def keep_replying():  # a new reply always waiting: people alone would fill the budget
            for i in range(30):
                replies.append(asyncio.ensure_future(writer(f"reply{i}", PERSON)))
                await asyncio.sleep(0.05)
        replying = asyncio.ensure_future(keep_replying())
        await asyncio.sleep(0.12)
        table = asyncio.ensure_future(writer("table", GAME))  # people keep coming before it
        await replying
        await asyncio.gather(table, *replies)
        assert order.index("table") >= 3, order  # after the replies waiting when it came, and more
        assert order.index("table") < len(order) - 5, order  # but while replies still waited
    asyncio.run(scenario())


def test_game_writes_leave_a_token_to_people_and_an_unwanted_write_spends_none():
    async def scenario():
        # Burst 2, then one token per 0.6 s: "at once" is well under that, "waited" well over.
        pacer = Pacer(per_minute=12, fast_spacing=0.0, window=6.0)
        await pacer.wait(-1, priority=GAME)  # one of the two tokens
        t0 = time.monotonic()
        await pacer.wait(-1, priority=GAME)  # the last token is kept for a person: the table waits
        assert time.monotonic() - t0 >= 0.45
        await pacer.wait(-1, priority=GAME)
        t1 = time.monotonic()
        await pacer.wait(-1, priority=PERSON)  # a reply takes the kept token at once
        assert time.monotonic() - t1 < 0.3
        # A ping whose turn has passed while it waited is dropped, and costs no token.
        wanted = [True]
        late = asyncio.ensure_future(pacer.wait(-1, priority=PERSON, still=lambda: wanted[0]))
        await asyncio.sleep(0.05)
        wanted[0] = False
        assert await late is None
        t2 = time.monotonic()
        await pacer.wait(-1, priority=PERSON)
        assert time.monotonic() - t2 < 0.3  # the dropped one took nothing from the bucket
    asyncio.run(scenario())


async def test_pending_edits_are_sent_before_the_bot_stops_and_private_messages_redrawn_after(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", group_writes_per_minute=20,
                             group_fast_spacing=1.0).start()
    await start_cones(fake, runner)
    await runner.idle(timeout=30)
    game = next(g for g in await runner.games() if g.status == "running")
    state = await runner.state(game.id)
    seat = cones.current_player(state)
    action = cones.legal_actions(state, seat)[0]
    qid = fake.user_presses(game.seats[seat].user_id, GROUP, game.table_msg,
                            f"{game.short_id}:{cones.turn(state)}:{cones.encode_action(action)}")
    await fake.wait_for(lambda: fake.callback_answer(qid) is not None, timeout=5)
    edits = len(fake.calls("editMessageMedia", chat_id=GROUP)) + len(fake.calls("editMessageCaption", chat_id=GROUP))
    await runner.stop()  # at once: the edit is still waiting for the group's pace
    after = len(fake.calls("editMessageMedia", chat_id=GROUP)) + len(fake.calls("editMessageCaption", chat_id=GROUP))
    assert after > edits, "the pending edit went out while the connection was open"
    # A graceful stop leaves nothing behind: every message shows the stored version.
    runner2 = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    stored = await runner2.store.get_game(game.id)
    assert stored.table_version == stored.version
    assert all(s.dm_version == stored.version for s in stored.seats)
    await runner2.stop()


async def test_after_a_crash_what_lags_behind_the_store_is_redrawn(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await start_cones(fake, runner)
    game = next(g for g in await runner.games() if g.status == "running")
    state = await runner.state(game.id)
    seat = cones.current_player(state)
    await runner.bot.play.act(game.id, seat, cones.turn(state), cones.legal_actions(state, seat)[0])
    await runner.crash()  # committed, but neither the table nor the private messages were redrawn
    stored = await _stored(tmp_path, game.id)
    assert stored.table_version < stored.version
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await runner.idle()
    stored = await runner.store.get_game(game.id)
    assert stored.table_version == stored.version and all(s.dm_version == stored.version for s in stored.seats)
    caption = fake.message(GROUP, stored.table_msg).caption.replace("\u2068", "").replace("\u2069", "")
    assert game.seats[seat].name + " played" in caption
    await runner.stop()


async def test_a_game_stopped_at_its_last_move_ends_in_the_group_after_the_restart(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await start_cones(fake, runner)
    game = next(g for g in await runner.games() if g.status == "running")
    while True:
        state = await runner.state(game.id)
        seat = cones.current_player(state)
        await runner.bot.play.act(game.id, seat, cones.turn(state), cones.legal_actions(state, seat)[-1])
        if (await runner.game(game.id)).status == "finished":
            break
    await runner.crash()  # the last move is committed; nothing about it was shown
    assert not [m for m in fake.messages(GROUP) if "results" in (m.text or "")]
    for attempt in range(2):  # a second restart posts nothing more
        runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
        await runner.idle()
        await runner.stop()
    results = [m for m in fake.messages(GROUP) if "results" in (m.text or "")]
    assert len(results) == 1
    stored = await _stored(tmp_path, game.id)
    assert stored.results_msg == results[0].message_id
    table = fake.message(GROUP, stored.table_msg)
    assert not [b for b in buttons(table) if "callback_data" in b], "the final table has no live buttons"


async def _stored(tmp_path, game_id):
    from bot.storage.choose import make_store
    store = await make_store(str(tmp_path / "db.sqlite3")).open()
    try:
        return await store.get_game(game_id)
    finally:
        await store.close()


async def test_a_table_post_that_timed_out_is_not_posted_twice(fake, runner):
    fake.add_group(GROUP, "Slow day")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    await anna.say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    fake.set_faults(1.0, ("slow",), methods={"sendPhoto"}, slow_seconds=6.0)
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    await asyncio.sleep(6.5)  # the post arrived, but the bot's request timed out
    fake.set_faults(0)
    await runner.idle()
    tables = [m for m in fake.messages(GROUP) if m.from_bot and m.photo is not None]
    assert len(tables) == 1, "posted once"
    game = next(g for g in await runner.games() if g.status == "running")
    assert game.table_msg is None
    # The first press on it tells the bot which message is the table.
    state = await runner.state(game.id)
    seat = lucky.current_player(state)
    mover = (anna, boris)[game.seats[seat].user_id - 1]
    answer = await mover.press(GROUP, tables[0].message_id, f"{game.short_id}:{lucky.turn(state)}:draw")
    assert answer["text"].startswith("✓ "), answer
    game = await runner.game(game.id)
    assert game.table_msg == tables[0].message_id
    assert len([m for m in fake.messages(GROUP) if m.from_bot and m.photo is not None]) == 1
