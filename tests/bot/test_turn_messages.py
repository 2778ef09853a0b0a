"""Every game's private turn message starts with its sign, its name and «your turn», and links to
the table in the group; each game has one sign everywhere (menu, lobby, table)."""
from __future__ import annotations

import pytest

from bot.games import game_sign, kits
from bot.words.texts import game_name
from engines import registry
from tests.bot.harness import Player, button_data, buttons, start_game

GROUP = -100900


async def test_every_game_shows_one_sign_in_the_menu_lobby_and_table(fake, runner):
    fake.add_group(GROUP, "Signs")
    for k, kind in enumerate(("lucky", "cones", "genial", "trio")):
        sign = game_sign(kind)
        pair = [Player(fake, runner, 10 * k + 1, "Anna"), Player(fake, runner, 10 * k + 2, "Boris")]
        for p in pair:
            await p.start_private()
        await pair[0].say(GROUP, f"/new {kind}")
        lobby = fake.last_bot_message(GROUP)
        assert lobby.text.startswith(sign), (kind, lobby.text)
        game = await start_game_from(fake, runner, lobby, pair)
        table = fake.message(GROUP, game.table_msg)
        assert table.caption.startswith(sign), (kind, table.caption)
        assert fake.message(GROUP, lobby.message_id).text.startswith(sign)  # «… started»
        await pair[1].say(GROUP, "/cancel")  # (not the host: refused, the game goes on)
        await pair[0].say(GROUP, "/cancel")
        assert game.status == "cancelled"
    assert {kit.sign for kit in kits()} == {"🎲", "🔺", "⬢", "🔷"}


# ---- «your turn» in every game's private turn message -----------------------------------------

async def start_game_from(fake, runner, lobby, people):
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    await runner.idle(timeout=60)
    return next(g for g in await runner.games() if g.chat_id == GROUP and g.status == "running")


def _turn_line_ok(text: str, kind: str, lang: str = "en") -> bool:
    name = game_name(registry.info(kind), lang)
    turn = "ваш ход" if lang == "ru" else "your turn"
    first = text.splitlines()[0]
    return first.startswith(f"{game_sign(kind)} {name}: {turn}")


def _link(message) -> str | None:
    for entity in message.caption_entities or message.entities or []:
        if entity.get("type") == "text_link":
            return entity["url"]
    for b in buttons(message):
        if b.get("url", "").startswith("https://t.me/c/"):
            return b["url"]
    return None


@pytest.mark.parametrize("kind", ["genial", "trio"])
async def test_the_private_turn_message_says_your_turn_and_links_to_the_table(fake, runner, kind):
    fake.add_group(GROUP, "Turns")
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Борис", lang="ru")
    for p in (anna, boris):
        await p.start_private()
    game = await start_game(fake, runner, GROUP, kind, [anna, boris])
    state = await runner.state(game.id)
    eng = __import__(f"engines.{kind}", fromlist=["current_player"])
    seat = eng.current_player(state)
    person = (anna, boris)[[anna.id, boris.id].index(game.seats[seat].user_id)]
    dm = fake.message(person.id, game.seats[seat].dm_msg)
    assert _turn_line_ok(dm.caption, kind, person.lang), dm.caption
    assert _link(dm) == f"https://t.me/c/900/{game.table_msg}"
    other = game.seats[1 - seat]
    waiting = fake.message(other.user_id, other.dm_msg)
    assert not _turn_line_ok(waiting.caption, kind, "ru" if other.user_id == boris.id else "en")


async def test_the_ping_of_a_game_played_on_the_table_says_your_turn_and_links_to_it(fake, runner):
    """Cones and lucky: their moves are made on the table, so the turn message is the ping."""
    from engines import lucky
    fake.add_group(GROUP, "Turns")
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Борис", lang="ru")
    for p in (anna, boris):
        await p.start_private()
    game = await start_game(fake, runner, GROUP, "lucky", [anna, boris])
    for _ in range(40):  # draw (and bank when it may) until the turn passes
        state = await runner.state(game.id)
        seat = lucky.current_player(state)
        action = next(a for a in lucky.legal_actions(state, seat) if isinstance(a, (lucky.Bank, lucky.Draw)))
        person = (anna, boris)[[anna.id, boris.id].index(game.seats[seat].user_id)]
        await person.press(GROUP, game.table_msg,
                           f"{game.short_id}:{lucky.turn(state)}:{lucky.encode_action(action)}")
        if lucky.current_player(await runner.state(game.id)) != seat:
            break
    nxt = game.seats[lucky.current_player(await runner.state(game.id))]
    ping = fake.last_bot_message(nxt.user_id)
    lang = "ru" if nxt.user_id == boris.id else "en"
    assert _turn_line_ok(ping.text, "lucky", lang), ping.text
    assert ("Turns" in ping.text) and _link(ping) == f"https://t.me/c/900/{game.table_msg}"


async def test_a_game_in_the_private_chat_says_your_turn_without_a_link(fake, runner):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(anna.id, "/new trio")
    lobby = fake.last_bot_message(anna.id)
    await anna.press(anna.id, lobby.message_id, button_data(lobby, text="Start"))
    await runner.idle(timeout=60)
    game = next(g for g in await runner.games() if g.chat_id == anna.id and g.status == "running")
    from engines import trio
    for _ in range(20):
        state = await runner.state(game.id)
        if trio.current_player(state) == game.seat_of(anna.id):
            break
        await runner.idle(timeout=10)
    dm = fake.message(anna.id, game.seats[game.seat_of(anna.id)].dm_msg)
    assert _turn_line_ok(dm.caption, "trio"), dm.caption
    assert _link(dm) is None and "t.me/c/" not in str(dm.caption_entities)


async def test_lucky_private_result_arrives_quietly(fake, runner):
    from engines import lucky
    fake.add_group(GROUP, "Quiet")
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Boris")
    for p in (anna, boris):
        await p.start_private()
    game = await start_game(fake, runner, GROUP, "lucky", [anna, boris])
    by_id = {anna.id: anna, boris.id: boris}
    for _ in range(3000):
        state = await runner.state(game.id)
        seat = lucky.current_player(state)
        if seat is None:
            break
        actions = lucky.legal_actions(state, seat)
        action = next((a for a in actions if isinstance(a, lucky.Bank)), actions[0])
        await by_id[game.seats[seat].user_id].press(
            GROUP, game.table_msg, f"{game.short_id}:{lucky.turn(state)}:{lucky.encode_action(action)}")
    await runner.idle(timeout=30)
    assert game.status == "finished"
    results = [r for u in by_id for r in fake.calls("sendMessage", chat_id=u) if "Played in" in str(r.params.get("text"))]
    assert len(results) == 2
    assert all(r.params.get("disable_notification") in (True, "true") for r in results)
