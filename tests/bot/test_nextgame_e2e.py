"""/nextgame end to end: asked in a group, the person hears in private (once) when a lobby opens
there, by /new or by 🔁 rematch, with a link to the lobby; the host is not told of their own."""
from __future__ import annotations

import json
import random

from tests.bot.harness import Player, button_data, buttons, press_until_over, start_game

GROUP = -100777
TITLE = "Board night"


def told(fake, person) -> list:
    """The bot's private messages to ``person`` about a lobby that opened."""
    return [m for m in fake.messages(person.id) if m.from_bot and "is open in" in (m.text or "")]


def lobby_link(message_id: int) -> str:
    return f"https://t.me/c/{str(GROUP)[4:]}/{message_id}"


async def test_nextgame_tells_each_person_once_when_a_lobby_opens(fake, runner):
    fake.add_group(GROUP, TITLE)
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    clara = Player(fake, runner, 3, "Clara", opened_private=False)
    for p in (anna, boris):
        await p.start_private()

    # In private it only explains where it works.
    await anna.say(anna.id, "/nextgame")
    assert "works in a group" in fake.last_bot_message(anna.id).text

    await boris.say(GROUP, "/nextgame")
    reply = fake.last_bot_message(GROUP)
    assert "I will tell you in private when the next game opens here" in reply.text
    assert not buttons(reply)

    # Clara never opened the private chat: she is told so, with the way there.
    await clara.say(GROUP, "/nextgame")
    reply = fake.last_bot_message(GROUP)
    assert "not opened the private chat" in reply.text
    url = next(b["url"] for b in buttons(reply) if b.get("url"))
    assert url.endswith("?start=next")
    await clara.start_private(url.split("start=")[1])
    assert "now I can write to you here" in fake.last_bot_message(clara.id).text
    await boris.say(GROUP, "/nextgame")  # again: it stays set, and says so
    assert "already on the list" in fake.last_bot_message(GROUP).text

    await anna.say(GROUP, "/nextgame")  # the host of the next lobby asks too: not told of her own
    await anna.say(GROUP, "/new cones")
    lobby = fake.last_bot_message(GROUP)
    assert "Join" in str(lobby.reply_markup)
    await runner.idle()
    for person in (boris, clara):
        [note] = told(fake, person)
        assert "Cones" in note.text and TITLE in note.text
        assert [b["url"] for b in buttons(note)] == [lobby_link(lobby.message_id)]
    assert told(fake, anna) == []
    # While the lobby is open, /nextgame points to it instead.
    await boris.say(GROUP, "/nextgame")
    assert "lobby is open here right now" in fake.last_bot_message(GROUP).text

    # The requests were used up: the next lobby tells nobody.
    await anna.say(GROUP, "/cancel")
    await anna.say(GROUP, "/new lucky")
    await runner.idle()
    assert len(told(fake, boris)) == len(told(fake, clara)) == 1

    # The command is in the group menus in both languages.
    menus = [r.params for r in fake.requests if r.method == "setMyCommands"]
    in_menus = [m for m in menus if "nextgame" in json.dumps(m.get("commands"))]
    assert {m.get("language_code") for m in in_menus} == {None, "ru"}


async def test_a_rematch_lobby_tells_those_waiting(fake, runner):
    fake.add_group(GROUP, TITLE)
    anna, boris, clara = (Player(fake, runner, i, name) for i, name in ((1, "Anna"), (2, "Boris"), (3, "Clara")))
    for p in (anna, boris, clara):
        await p.start_private()
    game = await start_game(fake, runner, GROUP, "cones", [anna, clara])
    await boris.say(GROUP, "/nextgame")
    await clara.say(GROUP, "/nextgame")  # she will open the rematch herself
    assert await press_until_over(fake, runner, game.id, random.Random(2))
    await runner.idle()
    game = await runner.game(game.id)
    results = fake.message(GROUP, game.results_msg)
    answer = await clara.press(GROUP, results.message_id, button_data(results, text="Rematch"))
    assert not answer.get("show_alert"), answer
    await runner.idle()
    lobby = fake.last_bot_message(GROUP)
    assert "Start" in str(lobby.reply_markup)
    [note] = told(fake, boris)
    assert [b["url"] for b in buttons(note)] == [lobby_link(lobby.message_id)]
    assert told(fake, clara) == []
