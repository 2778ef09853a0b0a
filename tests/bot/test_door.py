"""The door for every press, the settings and the game loop's listeners, wired by ``bot.wiring``
over an in-memory store and a recording messenger: who may do what, in milliseconds."""
from __future__ import annotations

import pytest

from engines import genial, lucky, registry
from bot.outgoing import keyboard
from bot.updates.context import Where
from bot.words.refusals import Refused, word
from bot.storage.store import Status
from tests.bot.recording import build_core

GROUP = -100700


@pytest.fixture
async def core():
    built = await build_core()
    yield built
    await built.close()


async def running(core, kind: str, n: int = 2, **options):
    people = [await core.person(i + 1, f"P{i + 1}") for i in range(n)]
    info = registry.info(kind)
    match = await core.lobby.open(chat_id=GROUP, thread_id=0, person=people[0], info=info,
                                  options={**info.default_options(), **options}, chat_lang="en")
    for p in people[1:]:
        await core.lobby.join(match, p)
    await core.lobby.start(match, people[0])
    await core.idle()
    return match, people


def to_move(match, people):
    seat = match.current
    mover = next(p for p in people if p.id == match.game.seats[seat].user_id)
    return mover, [p for p in people if p is not mover]


def refusal(code: str, **params) -> str:
    return word(Refused(code, **params), "en")


def table(match) -> Where:
    return Where(GROUP, match.game.table_msg)


def move(match, action: str) -> str:
    return keyboard.data(match.game.short_id, match.turn, action)


DRAW = lucky.encode_action(lucky.Draw())


async def test_a_table_button_counts_only_on_the_table(core):
    match, people = await running(core, "lucky")
    mover, _ = to_move(match, people)
    turn = match.turn
    # The same data sent from another message of the group, and from the presser's private chat
    # (lucky has no private message there): refused, nothing played.
    for where in (Where(GROUP, match.game.table_msg + 1000), Where(mover.id, 5), Where(mover.id, None)):
        answer = await core.door.press(mover, where, move(match, DRAW))
        assert answer.alert and answer.text == refusal("old_message"), where
    assert match.turn == turn and await core.store.actions(match.id) == []
    answer = await core.door.press(mover, table(match), move(match, DRAW))
    assert not answer.alert and match.turn == turn + 1


async def test_strangers_other_chats_and_garbage_change_nothing(core):
    match, people = await running(core, "lucky")
    stranger = await core.person(99, "Stranger")
    version = match.game.version
    answer = await core.door.press(stranger, table(match), move(match, DRAW))
    assert not answer.alert and answer.text == refusal("not_playing")  # a toast: nothing to read twice
    answer = await core.door.press(people[0], Where(-100999, 1), move(match, DRAW))
    assert answer.text == refusal("other_chat")
    for data in ("", "garbage", "zz:1:dr aw", "0:-:x", None, "1:-:" + "!" * 60):
        assert (await core.door.press(people[0], table(match), data)).text == refusal("unknown_button"), data
    assert (await core.door.press(None, table(match), move(match, DRAW))).text == refusal("unknown_button")
    assert (await core.door.press(people[0], table(match), keyboard.data("zzz", 1, "draw"))).text == refusal("no_game")
    assert match.game.version == version and await core.store.actions(match.id) == []


async def test_a_step_of_a_move_on_the_table_is_only_for_the_player_to_move(core):
    match, people = await running(core, "cones")
    mover, (other,) = to_move(match, people)
    colour = next(b.action for row in match.ui.table(match.ctx("en")).rows for b in row
                  if b.action and b.action.startswith("~c."))
    answer = await core.door.press(other, table(match), move(match, colour))
    assert answer.text == refusal("not_your_turn", name=match.game.seats[match.current].name)
    answer = await core.door.press(mover, table(match), move(match, colour))
    assert answer.text is None and not answer.alert
    await core.idle()
    shown = [c for c in core.messenger.calls if c.chat_id == GROUP and c.markup is not None][-1]
    piles = [b.callback_data for row in shown.markup.inline_keyboard for b in row
             if b.text.isdigit()]
    assert piles, "the table shows the piles for the chosen colour"


async def test_a_game_not_running_refuses_moves(core):
    info = registry.info("lucky")
    host = await core.person(1, "P1")
    lobby = await core.lobby.open(chat_id=GROUP, thread_id=0, person=host, info=info,
                                  options=info.default_options(), chat_lang="en")
    data = keyboard.data(lobby.game.short_id, 0, DRAW)
    assert (await core.door.press(host, Where(GROUP, 1), data)).text == refusal("not_started")
    await core.lobby.cancel_game(lobby, by="P1")
    assert (await core.door.press(host, Where(GROUP, 1), data)).text == refusal("over")


async def test_hand_over_and_take_back(core):
    match, people = await running(core, "cones", 3)
    host = next(p for p in people if p.id == match.game.host_id)
    current = match.game.seats[match.current].user_id
    other = next(p for p in people if p.id not in (host.id, current))  # not to move: no computer move now
    guest = next(p for p in people if p.id not in (host.id, other.id))
    seat = match.game.seat_of(other.id)
    away = keyboard.data(match.game.short_id, None, f"!away.{seat}")
    answer = await core.door.press(guest, table(match), away)
    assert answer.text == refusal("away_rights", name=match.game.host_name)
    assert not match.game.seats[seat].autoplayed
    answer = await core.door.press(host, table(match), away)
    assert "computer plays for \u2068P" in answer.text and match.game.seats[seat].autoplayed
    assert (await core.store.get_game(match.id)).seats[seat].level == "normal"
    answer = await core.door.press(other, table(match), move(match, "~c.b"))  # a seat handed over
    assert answer.text == refusal("handed_over")
    back = keyboard.data(match.game.short_id, None, "!back")
    assert (await core.door.press(guest, table(match), back)).text == refusal("no_seat_back")
    answer = await core.door.press(other, table(match), back)
    assert answer.text.startswith("Welcome back") and not match.game.seats[seat].autoplayed
    assert (await core.store.get_game(match.id)).seats[seat].level is None


async def test_leave_in_a_group_game_hands_the_seat_over_and_the_last_person_ends_it(core):
    match, people = await running(core, "lucky", 2)
    text = await core.door.leave(people[0], GROUP, 0, "en")
    assert "computer plays for" in text and match.game.seats[match.game.seat_of(1)].autoplayed
    text = await core.door.leave(people[1], GROUP, 0, "en")
    assert text == "Cancelled." and match.game.status == Status.CANCELLED
    assert await core.door.leave(people[1], GROUP, 0, "en") == "You are not playing here."


async def test_the_menu_opens_a_lobby_and_changes_the_language(core):
    anna = await core.person(1, "Anna")
    answer = await core.press(anna, Where(GROUP, 7, title="Game night"), "0:-:n.chess")
    assert answer.text == refusal("bad_button") and await core.store.all_games() == []
    answer = await core.press(anna, Where(GROUP, 7, title="Game night"), "0:-:n.cones")
    assert answer.text is None
    games = await core.store.all_games()
    assert [(g.kind, g.status, g.host_id) for g in games] == [("cones", Status.LOBBY, 1)]
    assert (await core.store.chat(GROUP)).title == "Game night"
    boris = await core.person(2, "Boris")
    answer = await core.press(boris, Where(GROUP, 7), "0:-:l.ru")
    assert answer.text == refusal("lang_rights")
    answer = await core.press(anna, Where(GROUP, 7), "0:-:l.ru")  # the host of the lobby here
    assert answer.text == "Язык этого чата теперь русский." and await core.people.chat_lang(GROUP) == "ru"
    answer = await core.press(boris, Where(2, 8), "0:-:l.ru")  # in private: his own
    assert await core.people.user_lang(2) == "ru" and answer.text


async def test_group_settings_are_for_admins_and_read_by_anyone(core):
    anna, boris = await core.person(1, "Anna"), await core.person(2, "Boris")
    core.messenger.admins.add((GROUP, 1))
    settings = core.settings
    assert await settings.turn_timer(1, 0, anna, ["5"], "en") == "This setting is for groups."
    assert "10 minutes" in await settings.turn_timer(GROUP, 0, boris, [], "en")
    assert await settings.turn_timer(GROUP, 0, boris, ["5"], "en") == "Only a chat admin can change this."
    assert await settings.turn_timer(GROUP, 0, anna, ["5"], "en") == "A move may now take 5 minutes."
    assert await core.turns.minutes(GROUP) == 5
    assert "off" in await settings.turn_timer(GROUP, 0, anna, ["off"], "en")
    assert await core.turns.minutes(GROUP) == 0
    assert "1 to 1440" in await settings.turn_timer(GROUP, 0, anna, ["9999"], "en")
    assert "5 to 1440" in await settings.lobby_timeout(GROUP, 0, anna, ["off"], "en")
    assert "20 minutes" in await settings.lobby_timeout(GROUP, 0, anna, ["20"], "en")
    assert await core.lobby.timeout_minutes(GROUP) == 20
    assert "no pings" in await settings.notify(anna, ["off"], "en")
    assert not await core.people.notify_on(1)
    assert "I ping you" in await settings.notify(anna, ["on"], "en")


async def test_a_job_of_a_game_that_has_gone_does_nothing(core):
    match, people = await running(core, "cones")
    await core.lobby.cancel_game(match, by="P1")
    await core.idle()
    assert match.gone and core.book.cached(match.id) is None
    calls = len(core.messenger.calls)
    core.tables.schedule_private(match, 0, bump=True)
    core.tables.schedule_table(match)
    await core.idle()
    assert len(core.messenger.calls) == calls


async def test_a_move_from_the_page_counts_for_the_seat_alone(core):
    """``Where(page=True)``: no message; the seat's own player may move (the same turn checks),
    a stranger may not, and the buttons' navigation is not taken from the page."""
    match, people = await running(core, "genial")
    mover, others = to_move(match, people)
    page = Where(None, None, page=True)
    (cells, *_) = genial.legal_placements(match.state, match.current, 0)
    a, b = (genial.COLOURS[c] for c in match.state.racks[match.current][0])
    code = genial.encode_action(genial.Place(a, b, *cells))
    stranger = await core.person(99, "Eve")
    assert (await core.door.press(stranger, page, move(match, code))).text == refusal("not_playing")
    waiting = await core.door.press(others[0], page, move(match, code))
    assert waiting.outcome != "moved" and waiting.text == refusal("not_your_turn", name=mover.name)
    assert (await core.door.press(mover, page, move(match, "~" + a[0] + b[0]))).text == refusal("bad_button")
    turn = match.turn
    answer = await core.door.press(mover, page, move(match, code))
    assert answer.outcome == "moved" and match.turn == turn + 1
