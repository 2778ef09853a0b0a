"""Turn timers: a reminder at half time, then the bot moves for whoever is away; a game nobody
plays is closed; each group sets its own time; restarts do not count against anybody."""
from __future__ import annotations

import asyncio
import time

import aiosqlite
import pytest

from engines import cones, lucky, trio
from bot.words.names import in_text
from tests.bot.harness import BotRunner, Player, button_data, buttons

GROUP = -100900


async def start(fake, runner, game, names=("Anna", "Boris")):
    fake.add_group(GROUP, "Timers", admins=(1,))
    people = [Player(fake, runner, i + 1, name) for i, name in enumerate(names)]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, f"/new {game}")
    lobby = fake.last_bot_message(GROUP)
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    answer = await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert not answer.get("show_alert"), answer
    running = next(g for g in (await runner.games()) if g.chat_id == GROUP and g.status == "running")
    return people, running


@pytest.fixture
async def quick(fake, tmp_path):
    """A bot whose moves may take 3 seconds (a reminder after 1.5)."""
    runner = await BotRunner(fake, tmp_path / "quick.sqlite3", turn_timeout_minutes=0.05).start()
    yield runner
    await runner.stop()


async def wait_until(condition, timeout=15.0):
    """Wait until ``condition()`` (a function or a coroutine function) holds."""
    deadline = time.monotonic() + timeout

    async def holds() -> bool:
        value = condition()
        return await value if asyncio.iscoroutine(value) else value
    while not await holds():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


async def test_an_absent_player_is_reminded_in_the_group_then_the_bot_moves_for_them(fake, quick):
    runner = quick
    people, game = await start(fake, runner, "lucky")
    state = (await runner.state(game.id))
    seat = lucky.current_player(state)
    absent = game.seats[seat]
    turn = lucky.turn(state)
    await wait_until(lambda: any("min left" in (m.text or "") for m in fake.messages(GROUP)))
    reminder = next(m for m in fake.messages(GROUP) if "min left" in (m.text or ""))
    assert absent.name in reminder.text and "I will move for you" in reminder.text
    assert lucky.turn((await runner.state(game.id))) == turn, "half time only reminds"
    async def moved() -> bool:
        return lucky.turn(await runner.state(game.id)) != turn
    await wait_until(moved)
    await runner.idle()
    assert game.idle_turns == 1
    assert any(e["kind"] == "TimedOut" and e["seat"] == seat for e in game.last_events)
    line = f"⏰ {in_text(absent.name)} ran out of time, so I moved for them."
    match = await runner.bot.book.load(game.id)
    story = match.ui.story(match.ctx("en"), game.last_events)
    assert line in story
    if story.index(line) >= len(story) - 4:  # the caption shows the four newest lines
        assert line in fake.message(GROUP, game.table_msg).caption
    # Whoever moves next by hand resets the count of absent turns.
    state = (await runner.state(game.id))
    mover = next(p for p in people if p.id == game.seats[lucky.current_player(state)].user_id)
    table = fake.message(GROUP, game.table_msg)
    answer = await mover.press(GROUP, table.message_id, button_data(table, text="Draw"))
    assert not answer.get("show_alert"), answer
    assert game.idle_turns == 0


async def test_where_moves_are_private_the_reminder_is_private_and_the_move_is_narrated(fake, quick):
    runner = quick
    people, game = await start(fake, runner, "trio")
    state = (await runner.state(game.id))
    seat = trio.current_player(state)
    absent = game.seats[seat]
    turn = trio.turn(state)
    await wait_until(lambda: any("min left" in (m.text or "") for m in fake.messages(absent.user_id)))
    assert not any("min left" in (m.text or "") for m in fake.messages(GROUP))
    async def moved() -> bool:
        return trio.turn(await runner.state(game.id)) != turn
    await wait_until(moved)
    await runner.idle()
    # The story of the table tells it (forced draws that follow may push it out of the
    # caption's six newest lines, so read the story itself).
    match = await runner.bot.book.load(game.id)
    story = match.ui.story(match.ctx("en"), game.last_events)
    assert f"⏰ {in_text(absent.name)} ran out of time, so I moved for them." in story
    assert any(e["kind"] in ("Laid", "Drew") and e["seat"] == seat for e in game.last_events)


async def test_a_game_nobody_plays_is_closed_after_two_rounds(fake, runner):
    people, game = await start(fake, runner, "cones")
    clock = runner.bot.turns
    assert await clock.minutes(GROUP) == 10
    # A look before half time changes nothing and says when to look again.
    again = await runner.bot.play.check_turn(game.id, time.time() + 60)
    assert again is not None and again > time.time() + 200
    for n in range(1, 5):
        assert game.status == "running"
        assert await runner.bot.play.check_turn(game.id, time.time() + 601) is None
        await runner.idle()
        assert game.idle_turns == n
    assert game.status == "cancelled"
    closing = fake.last_bot_message(GROUP).text
    assert "Nobody has moved" in closing and "two rounds" in closing
    assert not buttons(fake.message(GROUP, game.table_msg))
    # Every move the bot made is a legal, logged move of the game.
    assert len(await runner.store.actions(game.id)) == 4
    assert await runner.bot.play.check_turn(game.id, time.time() + 6000) is None


async def test_only_admins_set_the_turn_timer_and_off_means_off(fake, runner):
    people, game = await start(fake, runner, "cones")
    anna, boris = people
    await boris.say(GROUP, "/turntimer 3")
    assert "Only a chat admin" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/turntimer 0.5")
    assert "from 1 to 1440" in fake.last_bot_message(GROUP).text
    await anna.say(GROUP, "/turntimer 3")
    assert "3 minutes" in fake.last_bot_message(GROUP).text
    assert await runner.bot.turns.minutes(GROUP) == 3
    await boris.say(GROUP, "/turntimer")
    assert "3 minutes" in fake.last_bot_message(GROUP).text
    turn = cones.turn((await runner.state(game.id)))
    assert await runner.bot.play.check_turn(game.id, time.time() + 181) is None
    assert cones.turn((await runner.state(game.id))) == turn + 1
    await anna.say(GROUP, "/turntimer off")
    assert "off" in fake.last_bot_message(GROUP).text
    assert await runner.bot.play.check_turn(game.id, time.time() + 10_000) is None
    assert cones.turn((await runner.state(game.id))) == turn + 1
    await boris.say(GROUP, "/turntimer")
    assert "no turn timer" in fake.last_bot_message(GROUP).text


async def test_time_the_bot_was_down_does_not_count(fake, tmp_path):
    db = tmp_path / "db.sqlite3"
    runner = await BotRunner(fake, db).start()
    people, game = await start(fake, runner, "cones")
    await runner.stop()
    # Pretend the last move was an hour ago, then restart.
    async with aiosqlite.connect(db) as conn:
        await conn.execute("UPDATE games SET updated = updated - 3600 WHERE id = ?", (game.id,))
        await conn.commit()
    runner = await BotRunner(fake, db).start()
    try:
        game = await runner.bot.book.load(game.id)
        turn = cones.turn((await runner.state(game.id)))
        # An hour after the last move but only just restarted: a reminder is due, not a move.
        again = await runner.bot.play.check_turn(game.id, time.time() + 301)
        assert again is not None
        assert cones.turn((await runner.state(game.id))) == turn
        await runner.bot.play.check_turn(game.id, time.time() + 601)
        assert cones.turn((await runner.state(game.id))) == turn + 1
    finally:
        await runner.stop()
