"""A season's end with a season of a few seconds (``TABLEBOT_SEASON``), through the real client and
the fake Bot API: the group that played gets one message, the others none, /top starts the new
season empty; and a kill at the turn of the season, with the message waiting for its turn in the
group's pace, sends it once after the restart."""
from __future__ import annotations

import asyncio
import random
import time

from bot.storage.store import GameRecord, RecordSeat
from tests.bot.harness import BotRunner, Player, press_until_over, start_game

PLAYED, QUIET = -1003100, -1003101


def season_messages(fake, chat_id: int) -> list:
    return [m for m in fake.messages(chat_id) if m.from_bot and "Season over" in (m.text or "")]


async def test_with_a_season_of_seconds_the_group_that_played_gets_one_message_and_top_starts_empty(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "bot.sqlite3", season="4s").start()
    try:
        fake.add_group(PLAYED, "Game night")
        fake.add_group(QUIET, "Book club")
        anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
        for p in (anna, boris):
            await p.start_private()
        await anna.say(QUIET, "/stats")  # the bot knows the quiet group: nothing is played there
        game = await start_game(fake, runner, PLAYED, "cones", [anna, boris])
        assert await press_until_over(fake, runner, game.id, random.Random(2))
        await runner.idle(timeout=60)
        record = await runner.store.game_record(game.id)
        ended = runner.bot.core.seasons.calendar.at(record.ended)
        [message] = await fake.wait_for(lambda: season_messages(fake, PLAYED), timeout=ended.end - time.time() + 15)
        assert message.text.startswith(f"🏁 Season over: {ended.label('en')}\n🏆 Champions here:\n«Cones»: ")
        assert "🎲 Games played: 1" in message.text and "/top" in message.text
        await asyncio.sleep(max(0.0, ended.end + 4.5 - time.time()))  # the next season ends too: nothing to say
        await runner.idle()
        assert len(season_messages(fake, PLAYED)) == 1 and not season_messages(fake, QUIET)
        await boris.say(PLAYED, "/top cones")
        top = fake.last_bot_message(PLAYED).text
        assert top.startswith("Cones: nobody here has a rated game this season"), top
        await anna.say(PLAYED, "/top cones all")
        assert "the best here of all time" in fake.last_bot_message(PLAYED).text
        [champion] = [p for p in (anna, boris) if await runner.store.titles_of(p.id)]
        await champion.say(champion.id, "/stats")
        assert f"🏆 {ended.label('en')} · «Cones»" in fake.last_bot_message(champion.id).text
    finally:
        await runner.stop()


async def test_a_kill_at_the_turn_of_the_season_sends_the_message_once(fake, tmp_path):
    db = tmp_path / "bot.sqlite3"
    # Two writes a minute to a group: once one is spent, the season's message waits its turn.
    runner = await BotRunner(fake, db, season="3s", group_writes_per_minute=2).start()
    fake.add_group(PLAYED, "Game night")
    fake.add_group(QUIET, "Book club")
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(PLAYED, "/stats")  # the group's write of the minute
    await anna.say(QUIET, "/stats")
    now = time.time()
    seats = [RecordSeat(0, 1, "Anna", place=1, score=5, team=0), RecordSeat(1, 2, "Boris", place=2, score=3, team=1)]
    record = GameRecord(10_001, "cones", PLAYED, 0, "finished", True, {}, None, now - 60, now, seats)
    await runner.store.record_game(record, [])
    await runner.bot.core.seasons.count(record)  # as the end of a game played now would
    ended = runner.bot.core.seasons.calendar.at(now)
    deadline = ended.end + 10
    while ended.key not in await runner.store.closed_seasons():
        assert time.time() < deadline, "the season was never closed"
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.3)
    assert [n.chat_id for n in await runner.store.due_season_news()] == [PLAYED]  # waiting for its turn
    await runner.crash()  # kill -9 at the turn of the season
    assert not season_messages(fake, PLAYED)

    runner = await BotRunner(fake, db, season="3s").start()
    try:
        await fake.wait_for(lambda: season_messages(fake, PLAYED), timeout=15)
        await asyncio.sleep(1.0)  # anything more it would send (it must not)
        await runner.idle()
        assert len(season_messages(fake, PLAYED)) == 1 and not season_messages(fake, QUIET)
        assert await runner.store.due_season_news() == []
    finally:
        await runner.stop()
