"""«Совершенно гениально» played end to end through the fake Bot API, by button presses only."""
from __future__ import annotations

import random

from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data, buttons

GROUP = -100100


def table_message(fake, runner, chat=GROUP):
    game = next(g for g in runner.service.games.values() if g.chat_id == chat and g.status == "running")
    return game, fake.message(chat, game.table_msg)


async def open_lobby(fake, runner, players, game="lucky", extra=""):
    await players[0].say(GROUP, f"/new {game} {extra}".strip())
    lobby = fake.last_bot_message(GROUP)
    assert "Join" in str(lobby.reply_markup)
    for p in players[1:]:
        answer = await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
        assert answer.get("url") is None
    return fake.message(GROUP, lobby.message_id)


async def play_by_buttons(fake, runner, players, rng, *, max_presses=3000, stop_after=None):
    """Press Draw/Bank/Take as the player to act until the game ends; return the press count."""
    by_id = {p.id: p for p in players}
    presses = 0
    while presses < max_presses:
        running = [g for g in runner.service.games.values() if g.chat_id == GROUP and g.status == "running"]
        if not running:
            return presses
        game, table = table_message(fake, runner)
        seat = lucky.current_player(runner.service.states[game.id])
        actor = by_id[game.seats[seat].user_id]
        datas = [b["callback_data"] for b in buttons(table) if "callback_data" in b]
        assert datas, "the player to act must have buttons"
        choice = rng.choice([d for d in datas if d.endswith((":bank", ":draw"))] or datas)
        answer = await actor.press(GROUP, table.message_id, choice)
        assert not answer.get("show_alert"), answer
        presses += 1
        if stop_after is not None and presses >= stop_after:
            return presses
    raise AssertionError("the game did not end")


async def test_three_players_play_a_whole_game_across_a_restart(fake, tmp_path):
    fake.add_group(GROUP, "Friday <games> & co", admins=[1])
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    players = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Борис 🎲"),
               Player(fake, runner, 3, "<b>Clara</b> & \u202eevil")]
    lobby = await open_lobby(fake, runner, players)
    answer = await players[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert "starts" in answer.get("text", "")
    rng = random.Random(5)
    await play_by_buttons(fake, runner, players, rng, stop_after=15)

    # Restart: a new Application on the same database continues the game.
    await runner.stop()
    runner2 = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    for p in players:
        p.runner = runner2
    await runner2.idle()
    await play_by_buttons(fake, runner2, players, rng)
    game = next(iter(runner2.service.games.values()))
    assert game.status == "finished"
    results = fake.message(GROUP, game.results_msg)
    assert "results" in results.text
    # The finished table keeps its picture but has no live buttons.
    assert fake.message(GROUP, game.table_msg).reply_markup in (None, {}) or not [
        b for b in buttons(fake.message(GROUP, game.table_msg)) if "callback_data" in b]
    # Names were escaped everywhere: the strict fake parses HTML like Telegram does.
    assert "<b>Clara</b>" in results.text
    await runner2.stop()
