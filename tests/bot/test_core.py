"""The lobby and the game loop on their own: real store (in memory), recorded messages, no Telegram."""
from __future__ import annotations

import pytest

from engines import cones, lucky, registry, trio
from bot.refusals import Refused, word
from bot.store import Status
from bot.turns import PlayFor, Remind, Wait
from tests.bot.recording import build_core

GROUP = -100500


@pytest.fixture
async def core():
    built = await build_core()
    yield built
    await built.close()


async def lobby_with(core, kind: str, n: int, **options):
    people = [await core.person(i + 1, f"P{i + 1}") for i in range(n)]
    info = registry.info(kind)
    game = await core.lobby.open(chat_id=GROUP, thread_id=0, person=people[0], info=info,
                                 options={**info.default_options(), **options}, chat_lang="en")
    for p in people[1:]:
        await core.lobby.join(game, p)
    return game, people


async def test_the_lobby_refuses_with_codes_and_changes_nothing(core):
    game, people = await lobby_with(core, "lucky", 1)
    with pytest.raises(Refused) as refused:
        await core.lobby.start(game, people[0])
    assert refused.value.code == "too_few" and refused.value.params == {"n": 2}
    assert word(refused.value, "ru") == "Нужно хотя бы 2 игрока."
    stranger = await core.person(9, "Stranger")
    with pytest.raises(Refused) as refused:
        await core.lobby.set_option(game, stranger, "series.1")
    assert refused.value.code == "options_host_only"
    with pytest.raises(Refused) as refused:
        await core.lobby.start(game, stranger)
    assert refused.value.code == "start_rights" and refused.value.params == {"name": "P1"}
    stored = await core.store.get_game(game.id)
    assert stored.status == Status.LOBBY and stored.version == game.version and len(stored.seats) == 1


async def test_join_stops_at_the_maximum_and_an_option_needs_its_player_count(core):
    game, people = await lobby_with(core, "cones", 4, equal=True)
    fifth = await core.person(5, "P5")
    with pytest.raises(Refused) as refused:
        await core.lobby.join(game, fifth)
    assert refused.value.code == "full" and refused.value.params == {"n": 4}
    with pytest.raises(Refused) as refused:
        await core.lobby.start(game, people[0])
    assert refused.value.code == "option_players"
    assert "2, 3" in word(refused.value, "en") and "Equal chips" in word(refused.value, "en")


async def test_a_hidden_information_game_waits_for_everyone_to_open_the_private_chat(core):
    game, people = await lobby_with(core, "cones", 2)
    await core.people.set_private_ok(2, False)
    with pytest.raises(Refused) as refused:
        await core.lobby.start(game, people[0])
    assert refused.value.code == "no_private_chat" and refused.value.params == {"names": "P2"}
    assert core.tables.lobby_note(game.id).code == "waiting"
    await core.people.set_private_ok(2, True)
    await core.lobby.start(game, people[0])
    assert game.status == Status.RUNNING and core.tables.lobby_note(game.id) is None


async def test_a_move_is_committed_and_stale_or_foreign_moves_are_refused(core):
    game, people = await lobby_with(core, "lucky", 2)
    await core.lobby.start(game, people[0])
    state = core.book.state(game.id)
    seat = lucky.current_player(state)
    with pytest.raises(Refused) as refused:
        await core.play.act(game.id, 1 - seat, lucky.turn(state), lucky.Draw())
    assert refused.value.code == "not_your_turn" and refused.value.params["name"] == game.seats[seat].name
    await core.play.act(game.id, seat, lucky.turn(state), lucky.Draw())
    stored = await core.store.get_game(game.id)
    assert lucky.turn(lucky.from_json(stored.state)) == lucky.turn(state) + 1
    assert [a[2] for a in await core.store.actions(game.id)] == ["draw"]
    with pytest.raises(Refused) as refused:  # the same button again: an earlier turn
        await core.play.act(game.id, seat, lucky.turn(state), lucky.Draw())
    assert refused.value.code == "stale_turn"
    assert len(await core.store.actions(game.id)) == 1


async def test_forced_draws_are_made_for_the_player_and_logged(core):
    for attempt in range(60):
        built = await build_core()
        try:
            game, people = await lobby_with(built, "trio", 2)
            await built.lobby.start(game, people[0])
            log = await built.store.actions(game.id)
            if log:  # the first player could not lay a tile: the bot drew for them
                assert all(code == trio.encode_action(trio.Draw()) for _, _, code in log)
                state = built.book.state(game.id)
                assert not trio.must_draw(state) or state.over
                return
        finally:
            await built.close()
    pytest.fail("no forced draw at the start of 60 games")


async def test_the_turn_policy_waits_reminds_once_then_plays(core):
    game, people = await lobby_with(core, "cones", 2)
    await core.lobby.start(game, people[0])
    since = game.updated
    assert await core.turns.decide(game, since + 60) == Wait(since + 300)
    remind = await core.turns.decide(game, since + 301)
    assert isinstance(remind, Remind) and remind.until == since + 600
    assert await core.turns.decide(game, since + 302) == Wait(since + 600)  # reminded once
    assert await core.turns.decide(game, since + 601) == PlayFor()
    before = cones.turn(core.book.state(game.id))
    assert await core.play.check_turn(game.id, since + 601) is None
    assert cones.turn(core.book.state(game.id)) == before + 1 and game.idle_turns == 1


async def test_a_series_adds_victory_points_and_starts_the_next_game(core):
    game, people = await lobby_with(core, "lucky", 2, series=2)
    await core.lobby.start(game, people[0])
    first_seats = [s.user_id for s in game.seats]
    while game.status == Status.RUNNING:
        state = core.book.state(game.id)
        seat = lucky.current_player(state)
        actions = lucky.legal_actions(state, seat)
        bank = [a for a in actions if isinstance(a, lucky.Bank)]
        await core.play.act(game.id, seat, lucky.turn(state), (bank or actions)[0])
    series = await core.store.series(game.series_id)
    points = lucky.victory_points(core.book.state(game.id))
    assert series.played == 1 and series.points == {str(u): points[i] for i, u in enumerate(first_seats)}
    await core.tables.jobs.drain()
    games = await core.store.all_games()
    assert len(games) == 2 and games[1].status == Status.RUNNING and games[1].series_id == game.series_id
    assert [s.user_id for s in games[1].seats] == first_seats[1:] + first_seats[:1]


def test_a_bare_series_is_as_many_games_as_players_as_the_rulebook_says():
    from bot.lobby import parse_options
    info = registry.info("lucky")
    assert parse_options(info, ["series"]) == ({"seven_for_three": False, "series": 1}, None)
    assert parse_options(info, ["series=3"])[0]["series"] == 3
    assert parse_options(info, ["series=9"])[1] == "series=9"  # out of range: refused, named


async def test_a_bare_series_of_three_players_plays_three_games(core):
    from bot.lobby import parse_options
    options, _ = parse_options(registry.info("lucky"), ["series"])
    game, people = await lobby_with(core, "lucky", 3, **options)
    await core.lobby.start(game, people[0])
    assert (await core.store.series(game.series_id)).total == 3
