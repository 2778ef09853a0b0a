"""Achievements through the real client and the fake Bot API, in Russian: a person who wins three
games in a row sees «Три победы подряд» once, in the results of the game that made it three, and
finds it in /achievements and /stats."""
from __future__ import annotations

import time

from bot.storage.store import GameRecord, RecordSeat
from tests.bot.harness import Player, buttons, start_game

GROUP = -1003200


async def play_lucky_for(fake, runner, game_id: int, winner: int) -> None:
    """Press the table's buttons: ``winner`` banks after every match, the other draws until a
    bust; the winner completes every colour (or the game stalls with them ahead)."""
    for _ in range(1000):
        game = await runner.game(game_id)
        if game.status != "running":
            return
        state = await runner.state(game_id)
        seat = game.seats[state.current]
        table = fake.message(GROUP, game.table_msg)
        data = [b["callback_data"] for b in buttons(table) if "callback_data" in b]
        wanted = ":bank" if seat.user_id == winner else ":draw"
        press = next((d for d in data if d.endswith(wanted)), None) or next(d for d in data if d.endswith(":draw")
                                                                          or ":take-" in d)
        fake.user_presses(seat.user_id, GROUP, game.table_msg, press)
        await runner.idle(timeout=60)
    raise AssertionError("the game did not end")


def results_of(fake, game) -> str:
    return fake.message(GROUP, game.results_msg).text


async def test_three_wins_in_a_row_are_announced_once_in_russian(fake, runner):
    fake.add_group(GROUP, "Игровой вечер")
    anna, boris = Player(fake, runner, 1, "Аня", lang="ru"), Player(fake, runner, 2, "Борис", lang="ru")
    for p in (anna, boris):
        await p.start_private()
    # Two games Anna won here before (as recorded then): the third win in a row is the next one.
    now = time.time()
    for n in (1, 2):
        seats = [RecordSeat(0, 1, "Аня", place=1, score=7, team=0), RecordSeat(1, 2, "Борис", place=2, score=2, team=1)]
        await runner.store.record_game(GameRecord(90_000 + n, "lucky", GROUP, 0, "finished", True, {}, None,
                                                  now - 900 + n, now - 800 + n, seats), [])
    texts = []
    for host, guest in ((anna, boris), (boris, anna)):  # (the same /new twice in a row is answered once)
        game = await start_game(fake, runner, GROUP, "lucky", [host, guest])
        await play_lucky_for(fake, runner, game.id, anna.id)
        game = await runner.game(game.id)
        assert game.outcome["places"][game.seat_of(anna.id)] == 1
        texts.append(results_of(fake, game))
    first, second = texts
    line = next(x for x in first.split("\n") if x.startswith("🏅 \u2068Аня\u2069 — "))
    assert "«Три победы подряд»" in line and "«Первая победа»" not in line  # (that one was an old game's)
    assert "Три победы подряд" not in second
    assert "🏅 \u2068Борис\u2069" not in first + second  # his first game was one of the old ones
    await anna.say(anna.id, "/achievements")
    listing = fake.last_bot_message(anna.id).text
    assert "✅ 🔥 Три победы подряд — Выиграть три партии подряд. 🤖 · " in listing
    await anna.say(anna.id, "/stats")
    stats = fake.last_bot_message(anna.id)  # (with her rating's picture: its caption, or the text before it)
    assert any("🏅 Достижения: " in (m.text or m.caption or "") for m in fake.messages(anna.id)[-2:]), stats
