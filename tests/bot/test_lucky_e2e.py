"""«Совершенно гениально» played end to end through the fake Bot API, by button presses only."""
from __future__ import annotations

import random

from bot.games.base import place_words
from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data, buttons

GROUP = -100100


async def table_message(fake, runner, chat=GROUP):
    game = next(g for g in (await runner.games()) if g.chat_id == chat and g.status == "running")
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
    game, _ = await table_message(fake, runner)
    game_id = game.id
    while presses < max_presses:
        game = (await runner.game(game_id))
        if game.status != "running":
            return presses
        table = fake.message(GROUP, game.table_msg)
        # The caption asks once, for the current state only (not after every earlier draw).
        assert (table.caption or "").lower().count("draw again or bank") <= 1, table.caption
        seat = lucky.current_player((await runner.state(game.id)))
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


async def test_three_players_play_a_whole_game_across_a_restart(fake, bot_db):
    fake.add_group(GROUP, "Friday <games> & co", admins=[1])
    runner = await BotRunner(fake, bot_db).start()
    players = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Борис 🎲"),
               Player(fake, runner, 3, "<b>Clara</b> & \u202eevil")]
    for p in players[:2]:  # Clara never opens the private chat
        await p.start_private()
    lobby = await open_lobby(fake, runner, players)
    answer = await players[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert "starts" in answer.get("text", "")
    rng = random.Random(5)
    await play_by_buttons(fake, runner, players, rng, stop_after=15)

    # Restart: a new Application on the same database continues the game.
    await runner.stop()
    runner2 = await BotRunner(fake, bot_db).start()
    for p in players:
        p.runner = runner2
    await runner2.idle()
    await play_by_buttons(fake, runner2, players, rng)
    game = next(iter((await runner2.games())))
    assert game.status == "finished"
    results = fake.message(GROUP, game.results_msg)
    assert "results" in results.text
    # What decided the game, with the winner's name when someone completed every colour.
    state = await runner2.state(game.id)
    if state.ended == lucky.REASON_COMPLETED:
        winner = lucky.outcome(state).winners[0]
        assert f"{game.seats[winner].name.split()[0]}" in results.text.split("\n")[1], results.text
    else:
        assert "weakest colour" in results.text
    # The finished table keeps its picture but has no live buttons.
    assert fake.message(GROUP, game.table_msg).reply_markup in (None, {}) or not [
        b for b in buttons(fake.message(GROUP, game.table_msg)) if "callback_data" in b]
    # Names were escaped everywhere: the strict fake parses HTML like Telegram does.
    assert "<b>Clara</b>" in results.text
    # Each player who opened the private chat gets their own place there, linked to the results.
    await runner2.idle()
    places = lucky.outcome(state).places
    for p in players:
        mine = [m for m in fake.messages(p.id) if m.from_bot and "Totally Genial:" in (m.text or "")
                and "Played in" in m.text]
        if p is players[2]:
            assert mine == []
            continue
        assert len(mine) == 1, [m.text for m in fake.messages(p.id)]
        seat = next(s.seat for s in game.seats if s.user_id == p.id)
        assert place_words("en", places[seat], places) in mine[0].text
        assert "Friday <games> & co" in mine[0].text
        assert [b["text"] for b in buttons(mine[0])] == ["➡️ To the results"]
    await runner2.stop()


async def test_a_two_game_series_keeps_victory_points_and_offers_a_rematch(fake, runner):
    fake.add_group(GROUP, "Series night")
    players = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    lobby = await open_lobby(fake, runner, players, extra="series=2")
    assert "2 games" in lobby.text
    await players[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    rng = random.Random(11)
    await play_by_buttons(fake, runner, players, rng)
    games = sorted((await runner.games()), key=lambda g: g.id)
    assert len(games) == 2 and games[0].status == "finished" and games[1].status == "running"
    first_results = fake.message(GROUP, games[0].results_msg).text
    assert "Series: game 1 of 2" in first_results and "next game starts" in first_results
    # Everyone starts once: the second game's first player is the first game's second seat.
    assert games[1].seats[0].user_id == games[0].seats[1].user_id
    await play_by_buttons(fake, runner, players, rng)
    games = sorted((await runner.games()), key=lambda g: g.id)
    final = fake.message(GROUP, games[1].results_msg)
    series = await runner.store.series(games[1].series_id)
    points = [lucky.victory_points((await runner.state(g.id))) for g in games]
    for seat_user in (1, 2):
        expected = sum(p[g.seat_of(seat_user)] for p, g in zip(points, games))
        assert series.points[str(seat_user)] == expected
    # The champion, or a shared title when the games' random deals left the two level.
    tied = series.points["1"] == series.points["2"]
    assert "Series: game 2 of 2" in final.text
    assert ("The series is shared" if tied else "Series winner") in final.text, final.text
    # Rematch opens a new lobby: its host keeps the seat, last game's players are named and asked to join.
    answer = await players[1].press(GROUP, final.message_id, button_data(final, text="Rematch"))
    assert not answer.get("show_alert"), answer
    lobby = fake.last_bot_message(GROUP)
    assert "Boris" in lobby.text and "Anna" in lobby.text and "Start" in str(lobby.reply_markup)


async def test_join_stops_at_the_maximum(fake, runner):
    fake.add_group(GROUP, "Crowd")
    players = [Player(fake, runner, i, f"P{i}") for i in range(1, 6)]
    lobby = await open_lobby(fake, runner, players[:4])
    answer = await players[4].press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    assert answer["show_alert"] and "full" in answer["text"]
    game = next(iter((await runner.games())))
    assert len(game.seats) == 4
