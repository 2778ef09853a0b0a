"""The lobby and the game loop on their own: real store (in memory), recorded messages, no Telegram."""
from __future__ import annotations

import pytest

from engines import cones, lucky, registry, trio
from bot.outgoing import keyboard
from bot.updates.context import Where
from bot.words.refusals import Refused, word
from bot.storage.store import Status
from bot.table.turns import PlayFor, Remind, Wait
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
    match = await core.lobby.open(chat_id=GROUP, thread_id=0, person=people[0], info=info,
                                  options={**info.default_options(), **options}, chat_lang="en")
    for p in people[1:]:
        await core.lobby.join(match, p)
    return match, people


async def test_the_lobby_refuses_with_codes_and_changes_nothing(core):
    match, people = await lobby_with(core, "lucky", 1)
    game = match.game
    with pytest.raises(Refused) as refused:
        await core.lobby.start(match, people[0])
    assert refused.value.code == "too_few" and refused.value.params == {"n": 2}
    assert word(refused.value, "ru") == "Нужно хотя бы 2 игрока."
    stranger = await core.person(9, "Stranger")
    with pytest.raises(Refused) as refused:
        await core.lobby.set_option(match, stranger, "series", "1")
    assert refused.value.code == "options_host_only"
    with pytest.raises(Refused) as refused:
        await core.lobby.start(match, stranger)
    assert refused.value.code == "start_rights" and refused.value.params == {"name": "P1"}
    stored = await core.store.get_game(game.id)
    assert stored.status == Status.LOBBY and stored.version == game.version and len(stored.seats) == 1


async def test_join_stops_at_the_maximum_and_an_option_needs_its_player_count(core):
    match, people = await lobby_with(core, "cones", 4, equal=True)
    fifth = await core.person(5, "P5")
    with pytest.raises(Refused) as refused:
        await core.lobby.join(match, fifth)
    assert refused.value.code == "full" and refused.value.params == {"n": 4}
    with pytest.raises(Refused) as refused:
        await core.lobby.start(match, people[0])
    assert refused.value.code == "option_players"
    assert "2, 3" in word(refused.value, "en") and "Equal chips" in word(refused.value, "en")


async def test_a_hidden_information_game_waits_for_everyone_to_open_the_private_chat(core):
    match, people = await lobby_with(core, "cones", 2)
    await core.people.set_private_ok(2, False)
    with pytest.raises(Refused) as refused:
        await core.lobby.start(match, people[0])
    assert refused.value.code == "no_private_chat" and refused.value.params == {"names": ["P2"]}
    assert core.lobby.note(match.id).code == "waiting"
    await core.people.set_private_ok(2, True)
    await core.lobby.start(match, people[0])
    assert match.game.status == Status.RUNNING and core.lobby.note(match.id) is None


async def started(core, kind: str, n: int, **options):
    """A running game of ``n`` people whose table and private messages are posted."""
    match, people = await lobby_with(core, kind, n, **options)
    await core.lobby.start(match, people[0])
    await core.idle()
    return match, people


def on_table(match) -> Where:
    return Where(GROUP, match.game.table_msg)


def data(match, action: str, turn: int | None = -1) -> str:
    return keyboard.data(match.game.short_id, match.turn if turn == -1 else turn, action)


async def test_a_move_is_committed_and_stale_or_foreign_moves_are_refused(core):
    match, people = await started(core, "lucky", 2)
    game = match.game
    seat = match.current
    mover, other = (people[0], people[1]) if game.seats[seat].user_id == 1 else (people[1], people[0])
    turn = match.turn
    draw = data(match, lucky.encode_action(lucky.Draw()))
    answer = await core.door.press(other, on_table(match), draw)
    assert not answer.alert and answer.text == word(Refused("not_your_turn", name=game.seats[seat].name), "en")
    answer = await core.door.press(mover, on_table(match), draw)
    assert not answer.alert and answer.text.startswith("✓ ")
    stored = await core.store.get_game(game.id)
    assert lucky.turn(lucky.from_json(stored.state)) == turn + 1
    assert [a[2] for a in await core.store.actions(game.id)] == ["draw"]
    again = await core.door.press(mover, on_table(match), draw)  # the same tap again: done, and whose move now
    answer = await core.door.press(other, on_table(match), draw)  # an earlier turn's button: what happened
    if match.current == seat:
        assert again.text == "✓ Done: it is your move again."
        assert answer.text == f"The turn has moved on: now \u2068{game.seats[seat].name}\u2069 moves."
    else:
        assert again.text == f"✓ Done: now \u2068{game.seats[match.current].name}\u2069 moves."
        assert answer.text == "The turn has moved on: it is your move now."
    assert not again.alert and not answer.alert
    assert len(await core.store.actions(game.id)) == 1


async def test_forced_draws_are_made_for_the_player_and_logged(core):
    for attempt in range(60):
        built = await build_core()
        try:
            match, people = await lobby_with(built, "trio", 2)
            await built.lobby.start(match, people[0])
            log = await built.store.actions(match.id)
            if log:  # the first player could not lay a tile: the bot drew for them
                assert all(code == trio.encode_action(trio.Draw()) for _, _, code in log)
                assert not trio.must_draw(match.state) or match.state.over
                return
        finally:
            await built.close()
    pytest.fail("no forced draw at the start of 60 games")


async def test_the_turn_policy_waits_reminds_once_then_plays(core):
    match, people = await lobby_with(core, "cones", 2)
    await core.lobby.start(match, people[0])
    game = match.game
    since = game.updated
    assert await core.turns.decide(match, since + 60) == Wait(since + 300)
    remind = await core.turns.decide(match, since + 301)
    assert isinstance(remind, Remind) and remind.until == since + 600
    assert await core.turns.decide(match, since + 302) == Wait(since + 600)  # reminded once
    assert await core.turns.decide(match, since + 601) == PlayFor()
    before = cones.turn(match.state)
    assert await core.play.check_turn(game.id, since + 601) is None
    assert cones.turn(match.state) == before + 1 and game.idle_turns == 1


async def test_a_series_adds_victory_points_and_starts_the_next_game(core):
    match, people = await lobby_with(core, "lucky", 2, series=2)
    await core.lobby.start(match, people[0])
    game = match.game
    first_seats = [s.user_id for s in game.seats]
    while game.status == Status.RUNNING:
        state = match.state
        seat = lucky.current_player(state)
        actions = lucky.legal_actions(state, seat)
        bank = [a for a in actions if isinstance(a, lucky.Bank)]
        await core.play.act(game.id, seat, lucky.turn(state), (bank or actions)[0], by="computer")
    await core.idle()  # the end of the game (bot/ending) counts it in its series
    series = await core.store.series(game.series_id)
    points = lucky.victory_points(match.state)
    assert series.played == 1 and series.points == {str(u): points[i] for i, u in enumerate(first_seats)}
    games = await core.store.all_games()
    assert len(games) == 2 and games[1].status == Status.RUNNING and games[1].series_id == game.series_id
    assert [s.user_id for s in games[1].seats] == first_seats[1:] + first_seats[:1]


def test_a_bare_series_is_as_many_games_as_players_as_the_rulebook_says():
    from bot.lobby.options import parse_options
    info = registry.info("lucky")
    assert parse_options(info, ["series"]) == ({"seven_for_three": False, "series": 1}, None)
    assert parse_options(info, ["series=3"])[0]["series"] == 3
    assert parse_options(info, ["series=9"])[1] == "series=9"  # out of range: refused, named


async def test_a_bare_series_of_three_players_plays_three_games(core):
    from bot.lobby.options import parse_options
    options, _ = parse_options(registry.info("lucky"), ["series"])
    match, people = await lobby_with(core, "lucky", 3, **options)
    await core.lobby.start(match, people[0])
    assert (await core.store.series(match.game.series_id)).total == 3
