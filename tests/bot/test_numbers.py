"""Numbers in commands and buttons are ASCII digits: «bots=٢», «/turntimer ３», «1_0» are refused
with the usual answer about a bad value (Python's int() would take them)."""
from __future__ import annotations

import pytest

from bot.words.numbers import ascii_int, has_foreign_digits
from tests.bot.harness import Player

GROUP = -100900


@pytest.mark.parametrize("text,value", [("0", 0), ("2", 2), ("1440", 1440), ("٢", None), ("３", None),
                                        ("1_0", None), (" 3", None), ("+3", None), ("-1", None), ("²", None),
                                        ("", None), ("1" * 10, None)])
def test_numbers_are_ascii_digits_only(text, value):
    assert ascii_int(text) == value


def test_foreign_digits_are_noticed():
    assert has_foreign_digits("٣ F٧ F٨") and has_foreign_digits("3 F7 F８") and not has_foreign_digits("3 F7 F8")


async def test_unicode_digits_and_underscores_are_refused_in_commands(fake, runner):
    fake.add_group(GROUP, "Numbers", admins=list(range(1, 20)))
    people = iter(Player(fake, runner, i, f"P{i}") for i in range(1, 20))  # (one command each: no flood guard)
    for word in ("bots=٢", "bots=３", "bots=1_0"):
        person = next(people)
        await person.start_private()
        await person.say(person.id, f"/new cones {word}")
        assert "«bots» takes a number of computer players" in fake.last_bot_message(person.id).text, word
    assert not [g for g in await runner.games() if g.status == "lobby"]
    for word in ("series=1_0", "series=٢"):
        await next(people).say(GROUP, f"/new lucky {word}")
        assert "Unknown option" in fake.last_bot_message(GROUP).text, word
    for value in ("٣", "３", "1_0", "²"):
        await next(people).say(GROUP, f"/turntimer {value}")
        assert fake.last_bot_message(GROUP).text == "Please give a number of minutes from 1 to 1440, or off.", value
        await next(people).say(GROUP, f"/lobbytimeout {value}0")
        assert fake.last_bot_message(GROUP).text == "Please give a number of minutes from 5 to 1440.", value
    await next(people).say(GROUP, "/turntimer 3")
    assert fake.last_bot_message(GROUP).text == "A move may now take 3 minutes."


def test_a_typed_genial_move_in_other_digits_is_refused_with_the_typing_hint():
    from types import SimpleNamespace

    from bot.games.base import Alert, Ctx
    from bot.games.genial.ui import UI
    from bot.storage.store import Seat
    from engines import genial, registry
    state = genial.setup(2, registry.info("genial").default_options(), 5)
    seat = genial.current_player(state)
    game = SimpleNamespace(seats=[Seat(0, 1, "Anna"), Seat(1, 2, "Boris")], last_events=[], short_id="z9",
                           kind="genial", chat_id=GROUP, table_msg=3)
    ctx = Ctx(game=game, eng=genial, state=state, lang="en", bot_username="tablebot")
    for text in ("١ F٧ F٨", "1 F7 F８"):
        reply = UI().typed(ctx, seat, text)
        assert isinstance(reply, Alert) and reply.text.startswith("I could not read that move"), (text, reply)
