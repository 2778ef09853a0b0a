"""A series of cones, genial and trio games end to end: standings after each game by place,
the next game seated so that everyone starts once, the series kept across a restart, and a
champion after the last game (lucky's series, with its victory points, is in test_lucky_e2e)."""
from __future__ import annotations

import random

import pytest

from bot.games.base import points_by_place
from bot.words.format import points_text
from bot.words.names import in_text
from engines import registry
from tests.bot.harness import BotRunner, Player, button_data, press_until_over

GROUP = -100900


async def open_series(fake, runner, people, kind: str, how: str):
    """A lobby of ``kind`` for a series of two games, chosen by ``how``: typed or by the button."""
    typed = " series=2" if how == "typed" else ""
    await people[0].say(GROUP, f"/new {kind}{typed}")
    lobby = fake.last_bot_message(GROUP)
    if how == "button":
        for _ in range(2):  # off -> one game per player -> 2 games
            await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Series:"))
            lobby = fake.message(GROUP, lobby.message_id)
    assert "2 games" in lobby.text, lobby.text
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    await runner.idle(timeout=60)


async def points_of(runner, game) -> dict[int, float]:
    """What each person should get for this game: by place, teams as one player (docs/series.md)."""
    match = await runner.bot.book.load(game.id)
    places = list(match.eng.outcome(match.state).places)
    if game.options.get("team"):
        teams = points_by_place([places[0], places[1]])
        return {s.user_id: teams[s.seat % 2] for s in game.seats}
    points = points_by_place(places)
    return {s.user_id: points[s.seat] for s in game.seats}


@pytest.mark.parametrize("kind,how", [("cones", "button"), ("genial", "typed"), ("trio", "typed")])
async def test_a_series_of_two_games_by_buttons_across_a_restart(fake, tmp_path, kind, how):
    fake.add_group(GROUP, "Series night")
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    runners = [runner]
    try:
        people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Борис")]
        for p in people:
            await p.start_private()
        await open_series(fake, runner, people, kind, how)
        first = next(g for g in await runner.games() if g.status == "running")
        assert await press_until_over(fake, runner, first.id, random.Random(3))
        await runner.idle(timeout=60)

        games = await runner.games()
        assert [g.status for g in games] == ["finished", "running"]
        first, second = games
        assert first.series_id == second.series_id is not None
        gained = await points_of(runner, first)
        standings = fake.message(GROUP, first.results_msg).text
        assert "Series: game 1 of 2" in standings and "next game starts" in standings, standings
        for p in people:
            assert f"{in_text(p.name)}: {points_text(gained[p.id])} (+{points_text(gained[p.id])})" in standings, standings
        # Everyone starts once: the second game's first seat was the first game's second.
        assert [s.user_id for s in second.seats] == [first.seats[1].user_id, first.seats[0].user_id]

        # The bot restarts in the middle of the series; the second game and the standings go on.
        await runner.stop()
        runner = runners[0] = await BotRunner(fake, tmp_path / "db.sqlite3").start()
        for p in people:
            p.runner = runner
        await runner.idle(timeout=60)
        assert await press_until_over(fake, runner, second.id, random.Random(4))
        await runner.idle(timeout=60)

        games = await runner.games()
        assert [g.status for g in games] == ["finished", "finished"], "no third game after the last"
        second = games[1]
        for user_id, value in (await points_of(runner, second)).items():
            gained[user_id] += value
        series = await runner.store.series(second.series_id)
        assert {int(k): v for k, v in series.points.items()} == gained
        final = fake.message(GROUP, second.results_msg).text
        assert "Series: game 2 of 2" in final, final
        best = max(gained.values())
        champions = [in_text(p.name) for p in people if gained[p.id] == best]
        if len(champions) == 1:
            assert f"Series winner: {champions[0]}" in final, final
        else:
            assert f"The series is shared: {', '.join(champions)}" in final, final
        assert registry.info(kind).option("series").switched_on == 1
    finally:
        await runners[0].stop()
