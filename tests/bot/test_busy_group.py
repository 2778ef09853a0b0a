"""A busy group: people first in its write budget, a flood frozen out, the results exactly once,
one clear rematch. End to end through the fake Bot API, with Telegram's real pace where it matters."""
from __future__ import annotations

import asyncio
import re
import time

from bot.updates.floods import CommandGuard
from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data, buttons, start_game

GROUP = -100800

# Telegram's pace for a group (20 writes a minute, a second apart at first), six times faster:
# the same counts and the same order of things in a sixth of the time.
PACED = dict(group_writes_per_minute=20, group_fast_spacing=1.0 / 6, group_window_seconds=10.0)


async def lucky_game(fake, runner, names=("Anna", "Boris"), *, private=True):
    fake.add_group(GROUP, "Busy night")
    people = [Player(fake, runner, i + 1, name, opened_private=private) for i, name in enumerate(names)]
    if private:
        for p in people:
            await p.start_private()
    return await start_game(fake, runner, GROUP, "lucky", people), people


async def the_move(runner, game, people, *, ending: bool | None = None, passing: bool = False):
    """(player, callback data) of a move for the player to act: one that ends the game when
    ``ending`` is True, one that does not when False (None: any); with ``passing``, one that
    passes the turn to another player where there is one."""
    state = await runner.state(game.id)
    seat = lucky.current_player(state)
    fits = []
    for action in lucky.legal_actions(state, seat):
        after, _ = lucky.apply(state, seat, action)
        if ending is None or (lucky.outcome(after) is not None) == ending:
            fits.append((lucky.current_player(after) not in (seat, None), action))
    if not fits:
        return None, None
    action = max(fits, key=lambda fit: fit[0])[1] if passing else fits[0][1]
    mover = next(p for p in people if p.id == game.seats[seat].user_id)
    return mover, f"{game.short_id}:{lucky.turn(state)}:{lucky.encode_action(action)}"


async def play_until_one_move_is_left(runner, game, people, fake) -> tuple:
    """Play (not ending) until a move that ends the game is possible; return that move."""
    for _ in range(2000):
        mover, data = await the_move(runner, game, people, ending=True)
        if mover is not None:
            return mover, data
        mover, data = await the_move(runner, game, people, ending=False)
        await mover.press(GROUP, game.table_msg, data)
    raise AssertionError("no move could end the game")


def results_in(fake) -> list:
    """The group's messages that are a game's results (they carry 🔁 Rematch, or had it)."""
    return [m for m in fake.messages(GROUP) if m.from_bot and (m.text or "").startswith("🏁")]


# ---- the results, exactly once ---------------------------------------------------------------

async def test_a_kill_while_the_results_are_on_their_way_does_not_post_them_twice(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    game, people = await lucky_game(fake, runner)
    mover, data = await play_until_one_move_is_left(runner, game, people, fake)
    # Telegram takes the results, but its answer never reaches the bot before it is killed.
    fake.set_faults(1.0, ("slow",), methods={"sendMessage"}, slow_seconds=60.0)
    fake.user_presses(mover.id, GROUP, game.table_msg, data)
    await fake.wait_for(lambda: results_in(fake), timeout=20)
    await runner.crash()
    fake.set_faults(0)
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await runner.idle(timeout=30)
    assert len(results_in(fake)) == 1, [m.text for m in results_in(fake)]
    await runner.stop()


async def test_a_kill_before_the_results_went_out_posts_them_once_after_the_restart(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    game, people = await lucky_game(fake, runner)
    mover, data = await play_until_one_move_is_left(runner, game, people, fake)
    # The final table's edit hangs, so the results (which come after it) have not gone out.
    fake.set_faults(1.0, ("slow",), methods={"editMessageMedia", "editMessageCaption"}, slow_seconds=60.0)
    qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
    await fake.wait_for(lambda: fake.callback_answer(qid), timeout=20)
    assert not results_in(fake)
    await runner.crash()
    fake.set_faults(0)
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await runner.idle(timeout=30)
    assert len(results_in(fake)) == 1
    # And a second restart adds nothing.
    await runner.stop()
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    await runner.idle(timeout=30)
    assert len(results_in(fake)) == 1
    await runner.stop()


# ---- rematch ------------------------------------------------------------------------------------

async def test_rematch_is_hosted_by_whoever_asked_and_its_button_goes_once_used(fake, runner):
    game, people = await lucky_game(fake, runner)
    anna, boris = people
    mover, data = await play_until_one_move_is_left(runner, game, people, fake)
    await mover.press(GROUP, game.table_msg, data)
    await runner.idle()
    results = results_in(fake)[-1]
    rematch = button_data(results, text="Rematch")
    answer = await boris.press(GROUP, results.message_id, rematch)
    assert "you host it" in answer["text"], answer
    lobby_game = next(g for g in await runner.games() if g.status == "lobby")
    assert lobby_game.host_id == boris.id and [s.user_id for s in lobby_game.seats] == [boris.id]
    lobby = fake.message(GROUP, lobby_game.lobby_msg)
    assert "Anna" in lobby.text and "Join" in lobby.text  # the others are asked to join
    # The used 🔁 is gone; the replay stays.
    assert [b["text"] for b in buttons(fake.message(GROUP, results.message_id))] == ["🎞 Replay"]
    # A late second tap (on a client that still shows the button) posts nothing.
    before = len(fake.messages(GROUP))
    answer = await anna.press(GROUP, results.message_id, rematch)
    assert not answer.get("show_alert") and "open already" in answer["text"], answer
    assert len(fake.messages(GROUP)) == before
    answer = await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    assert "joined" in answer["text"]


# ---- the group's budget: people first ----------------------------------------------------------

async def test_a_command_reply_goes_before_the_tables_pending_edits(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner)
    # A few quick moves: their table edits queue up behind the group's pace.
    for _ in range(4):
        mover, data = await the_move(runner, game, people, ending=False)
        qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
    edits_before = len(fake.calls("editMessageMedia", GROUP)) + len(fake.calls("editMessageCaption", GROUP))
    fake.user_sends(people[1].id, GROUP, "/rules lucky")
    reply = await fake.wait_for(lambda: [r for r in fake.calls("sendMessage", GROUP)
                                         if "Totally Genial" in (r.params.get("text") or "")], timeout=10)
    edits_then = [r for r in fake.calls("editMessageMedia", GROUP) + fake.calls("editMessageCaption", GROUP)
                  if r.time <= reply[0].time]
    assert len(edits_then) <= edits_before + 1, "the reply did not wait for the table to catch up"
    await runner.idle(timeout=60)
    await runner.stop()


async def keep_moving(runner, fake, game, people, stop: asyncio.Event, every: float = 0.25) -> list[float]:
    """Press a move every ``every`` seconds until ``stop``: a busy table. Returns when each
    press was answered."""
    answered = []
    while not stop.is_set():
        mover, data = await the_move(runner, game, people, ending=False)
        if mover is None:
            break
        qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        answer = await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
        assert answer["text"].startswith("✓ "), answer
        answered.append(time.monotonic())
        await asyncio.sleep(every)
    return answered


def reply_to(fake, text: str):
    return [r for r in fake.calls("sendMessage", GROUP) if text in (r.params.get("text") or "")]


async def test_replies_in_a_busy_group_keep_their_order_and_take_turns_with_the_table(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner)
    dora, emil = Player(fake, runner, 11, "Dora"), Player(fake, runner, 12, "Emil")
    stop = asyncio.Event()
    moving = asyncio.ensure_future(keep_moving(runner, fake, game, people, stop))
    try:
        await asyncio.sleep(0.5)
        fake.user_sends(dora.id, GROUP, "/help")  # her first command: before the table
        await fake.wait_for(lambda: reply_to(fake, "/rules"), timeout=10)
        fake.user_sends(dora.id, GROUP, "/rules trio")  # her second within a while: in turn with the table
        await asyncio.sleep(0.05)
        fake.user_sends(emil.id, GROUP, "/rules cones")  # his first, asked after hers
        await asyncio.sleep(0.05)
        fake.user_sends(dora.id, GROUP, "/rules genial")  # and her third, after his
        second = await fake.wait_for(lambda: reply_to(fake, "<b>Trio</b>"), timeout=10)
        first_of_emil = await fake.wait_for(lambda: reply_to(fake, "<b>Cones</b>"), timeout=10)
        third = await fake.wait_for(lambda: reply_to(fake, "<b>Ingenious</b>"), timeout=10)
        assert second[0].time < first_of_emil[0].time < third[0].time, "the replies came in another order"
        await asyncio.sleep(0.3)
    finally:
        stop.set()
        answered = await moving
    # The replies went out while the table was still busy, not once the moves stopped.
    assert third[0].time < answered[-1], "the replies waited for the game to go quiet"
    await runner.idle(timeout=60)
    await runner.stop()


async def test_board_in_a_busy_game_brings_the_newest_table_down_once(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner)
    old = game.table_msg
    photos_before = len(fake.calls("sendPhoto", GROUP))
    for i in range(5):
        if i == 2:  # asked while a redraw waits for the group's budget, and moves come after it
            fake.user_sends(people[0].id, GROUP, "/board")
        mover, data = await the_move(runner, game, people, ending=False)
        qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
    fake.user_sends(people[1].id, GROUP, "/board")  # asked again while one waits: still one
    await runner.idle(timeout=60)
    assert len([p for p in fake.calls("sendPhoto", GROUP)[photos_before:] if p.ok]) == 1
    assert game.table_msg != old
    assert not [b for b in buttons(fake.message(GROUP, old)) if "callback_data" in b], "the old one lost its buttons"
    state = await runner.state(game.id)
    assert f"{game.short_id}:{lucky.turn(state)}:" in button_data(fake.message(GROUP, game.table_msg), text="")
    await runner.stop()


async def test_a_ping_whose_turn_has_passed_is_not_sent(fake, tmp_path):
    # Nobody opened the private chat: pings are mentions in the group, paced like everything else.
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner, ("Anna", "Boris", "Clara"), private=False)
    # (when the move was pressed, when Telegram got its answer, the user to act after it)
    turns = [(0.0, 0.0, game.seats[lucky.current_player(await runner.state(game.id))].user_id)]
    passed = 0
    # Moves faster than the group's pace, so most turns pass on before a ping could go out; the
    # last move passes the turn, so its player (who has not moved since) is due a ping.
    for _ in range(30):
        mover, data = await the_move(runner, game, people, ending=False, passing=True)
        pressed = time.monotonic()  # the fake's clock
        qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
        answered = next(r.time for r in fake.calls("answerCallbackQuery") if r.params["callback_query_id"] == qid)
        state = await runner.state(game.id)
        now_to_act = game.seats[lucky.current_player(state)].user_id
        turn_passed = now_to_act != mover.id
        turns.append((pressed, answered, now_to_act))
        passed += turn_passed
        if passed >= 3 and turn_passed:
            break
    await runner.idle(timeout=60)
    mentions = [r for r in fake.calls("sendMessage", GROUP) if (r.params.get("text") or "").startswith("🔔")]
    assert mentions, "the player to act was pinged"
    # Each ping named the player whose turn it was when it went out. A move is committed before
    # its answer goes out (in the background, so a ping may overtake it): a ping after a move's
    # answer names the player after that move; one between a press and its answer may name the
    # player before or after it.
    for request in mentions:
        answered = max(k for k, (_, at, _) in enumerate(turns) if k == 0 or at < request.time)
        pressed = max(k for k, (at, _, _) in enumerate(turns) if k == 0 or at < request.time)
        due = {turns[k][2] for k in range(answered, pressed + 1)}
        assert any(f"tg://user?id={user}" in request.params["text"] for user in due), (request.params["text"], turns)
    assert f"tg://user?id={turns[-1][2]}" in mentions[-1].params["text"], "the player to act now was pinged last"
    await runner.stop()


def to_act_on(request) -> int | None:
    """The user a table write of lucky shows to act («Now: <mention>»)."""
    caption = request.params.get("caption") or (request.params.get("media") or {}).get("caption") or ""
    found = re.search(r'Now: <a href="tg://user\?id=(\d+)"', caption)
    return int(found.group(1)) if found else None


async def test_the_group_sees_the_turn_before_it_hears_of_it(fake, tmp_path):
    # Nobody opened the private chat: a turn's ping is a mention in the group, in the group's budget.
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner, ("Anna", "Boris", "Clara"), private=False)
    passed = 0
    while passed < 3:  # at a person's pace: each move's messages are out before the next move
        mover, data = await the_move(runner, game, people, ending=False, passing=True)
        await mover.press(GROUP, game.table_msg, data)
        passed += game.seats[lucky.current_player(await runner.state(game.id))].user_id != mover.id
    await runner.idle(timeout=30)
    mentions = [r for r in fake.calls("sendMessage", GROUP) if (r.params.get("text") or "").startswith("🔔")]
    assert len(mentions) >= 3, [r.params.get("text") for r in mentions]
    tables = [r for r in fake.calls(chat_id=GROUP) if r.ok and r.method in ("editMessageMedia", "editMessageCaption")]
    for mention in mentions:
        pinged = int(re.search(r"tg://user\?id=(\d+)", mention.params["text"]).group(1))
        shown = [r for r in tables if r.time < mention.time]
        assert shown and to_act_on(shown[-1]) == pinged, "the mention went out before the table showed the turn"
    await runner.stop()


async def test_a_private_ping_does_not_wait_for_the_groups_table(fake, tmp_path):
    # Everyone opened the private chat: the ping rings there, whatever the group's budget says.
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner, ("Anna", "Boris", "Clara"))
    for _ in range(30):  # quick moves: the table's edits fall behind the group's pace
        mover, data = await the_move(runner, game, people, ending=False, passing=True)
        qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
        state = await runner.state(game.id)
        to_act = game.seats[lucky.current_player(state)].user_id
        if to_act != mover.id and len(fake.calls("answerCallbackQuery")) >= 5:
            break
    ping = await fake.wait_for(lambda: [r for r in fake.calls("sendMessage", to_act)
                                        if ": your turn" in (r.params.get("text") or "")], timeout=10)
    await runner.idle(timeout=60)
    edits = fake.calls("editMessageMedia", GROUP) + fake.calls("editMessageCaption", GROUP)
    assert [e for e in edits if e.time > ping[-1].time], "the ping went out while the table was catching up"
    await runner.stop()


# ---- a flood -------------------------------------------------------------------------------------

async def test_a_member_flooding_commands_is_slowed_and_freezes_nobody(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", **PACED).start()
    game, people = await lucky_game(fake, runner)
    eve = Player(fake, runner, 9, "Eve")
    sent_before = len(fake.calls("sendMessage", GROUP))
    commands = ["/help", "/board", "/new lucky", "/rules trio", "/help@" + fake.bot_username]
    mover, data = await the_move(runner, game, people, ending=False)
    qid = None
    for i in range(50):
        fake.user_sends(eve.id, GROUP, commands[i % len(commands)])
        if i == 25:  # a player moves in the middle of it
            qid = fake.user_presses(mover.id, GROUP, game.table_msg, data)
        await asyncio.sleep(0.04)
    answer = await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
    assert answer["text"].startswith("✓ "), answer
    await runner.idle(timeout=90)
    replies = [r.params.get("text") or "" for r in fake.calls("sendMessage", GROUP)[sent_before:]]
    to_eve = [t for t in replies if "your turn" not in t]
    # A few commands taken, then one word to slow down, then nothing: not 50 answers.
    assert len(to_eve) <= CommandGuard().burst + 1, to_eve
    assert sum("a lot of commands" in t for t in replies) == 1
    photos = fake.calls("sendPhoto", GROUP)
    assert len([p for p in photos if p.ok]) == 2, "the table itself, and one /board re-post however often asked"
    await runner.stop()


# ---- answers ----------------------------------------------------------------------------------------

async def test_a_flood_controlled_answer_holds_up_no_other_answer(fake, runner, caplog):
    game, people = await lucky_game(fake, runner)
    anna, boris = people
    table = fake.message(GROUP, game.table_msg)
    # Telegram refuses the next answer for 30 s: later than a press can still be answered.
    fake.fail_next("answerCallbackQuery", error_code=429, description="Too Many Requests: retry after 30",
                   retry_after=30)
    stranger = Player(fake, runner, 7, "Stranger")
    first = fake.user_presses(stranger.id, GROUP, table.message_id, button_data(table, text="📖"))
    # The refusal must meet this answer, not the next one (under load the move's could come first).
    await fake.wait_for(lambda: any(r.params.get("callback_query_id") == first
                                    for r in fake.calls("answerCallbackQuery")), timeout=10)
    mover, data = await the_move(runner, game, people, ending=False)
    second = fake.user_presses(mover.id, GROUP, table.message_id, data)
    answer = await fake.wait_for(lambda: fake.callback_answer(second), timeout=5)
    assert answer["text"].startswith("✓ ")
    await runner.idle()
    attempts = [r for r in fake.calls("answerCallbackQuery") if r.params.get("callback_query_id") == first]
    assert len(attempts) == 1, "not tried again when Telegram would no longer take it"
    assert not any("chat None" in r.message for r in caplog.records)
