"""Play anywhere (inline mode): two people in their own private chat, the bot in neither's
contacts of that chat, start a game with ``@bot``, play it to its results on that one message,
secrets and turn pings by private message; and three people in a group the bot is not in."""
from __future__ import annotations

import random

import pytest

from bot.storage.store import is_inline_chat
from tests.bot.harness import Player, buttons, press_until_over

SECRETS = ("Your secret goal", "Your rack", "Your hand", "Твоя цель", "Ваша цель")  # what a private message says


def fake_inline(fake) -> None:
    fake.set_inline_mode(True, feedback=True)


async def invite(fake, runner, host: Player, chat, query: str, kind: str):
    """``@bot <query>`` typed by the host in ``chat`` and the game chosen: the posted message."""
    qid = fake.user_queries_inline(host.id, chat, query)
    await runner.idle()
    results = fake.inline_results(qid)
    assert results and fake.inline_answer(qid)["is_personal"], results
    assert kind in [r["id"] for r in results]
    message = fake.user_chooses_result(host.id, qid, kind)
    await runner.idle()
    return message


async def press(fake, runner, person: Player, inline_id: str, text: str) -> dict:
    message = fake.inline_message(inline_id)
    data = next(b["callback_data"] for b in buttons(message) if text in b["text"] and "callback_data" in b)
    qid = fake.user_presses_inline(person.id, inline_id, data)
    await runner.idle()
    answer = fake.callback_answer(qid)
    assert answer is not None, "every press is answered"
    return answer


def shared_texts(fake, inline_id: str) -> list[str]:
    """Every text and caption the shared message was ever edited to."""
    out = []
    for call in fake.calls():
        if call.params.get("inline_message_id") == inline_id:
            media = call.params.get("media")
            caption = media.get("caption") if isinstance(media, dict) else None
            out += [v for v in (call.params.get("text"), call.params.get("caption"), caption) if v]
    return out


async def game_on(runner, inline_id: str):
    return (await runner.bot.book.on_inline(inline_id)).game


@pytest.mark.parametrize("kind", ["lucky", "cones", "genial", "trio"])
async def test_two_people_in_their_own_chat_play_a_whole_game(fake, runner, kind):
    fake_inline(fake)
    anna = Player(fake, runner, 1, "Anna")
    boris = Player(fake, runner, 2, "Борис", lang="ru", opened_private=False)
    await anna.start_private()
    pair = fake.add_private_pair(1, 2)
    message = await invite(fake, runner, anna, pair, {"lucky": "luck", "cones": "конус", "genial": "gen",
                                                      "trio": "trio"}[kind], kind)
    iid = message.inline_message_id
    assert "Anna" in message.text and "Join" in str(message.reply_markup)
    # Boris never opened the bot: in a game with secrets his Join is answered with the way there.
    answer = await press(fake, runner, boris, iid, "Join")
    game = await game_on(runner, iid)
    assert game.status == "lobby" and game.inline and is_inline_chat(game.chat_id)
    assert game.seat_of(1) == 0  # the host is who posted it
    if kind == "lucky":
        assert game.seat_of(2) is not None
    else:
        assert answer["url"] and answer["url"].startswith("https://t.me/"), answer
        assert game.seat_of(2) is None
        await boris.start_private(answer["url"].rsplit("start=", 1)[1])  # he opens it: dealt in
        assert (await game_on(runner, iid)).seat_of(2) is not None
    lobby = fake.inline_message(iid)
    assert "Anna" in lobby.text and "Start" in str(lobby.reply_markup)
    await press(fake, runner, anna, iid, "Start")
    game = await game_on(runner, iid)
    assert game.status == "running"
    table = fake.inline_message(iid)
    assert table.photo is not None  # the table's picture went up through Anna's private chat
    first_move = next((b["callback_data"] for b in buttons(table) if ":-:" not in b.get("callback_data", ":-:")), None)
    assert await press_until_over(fake, runner, game.id, random.Random(3))
    await runner.idle()
    game = await game_on(runner, iid)
    results = fake.inline_message(iid)
    assert game.status == "finished" and results.photo is not None
    assert "🥇" in results.caption or "🏆" in results.caption, results.caption
    labels = [b["text"] for b in buttons(results)]
    assert any("Replay" in b for b in labels) and any(b.get("switch_inline_query_current_chat") == kind
                                                        for b in buttons(results))
    record = await runner.store.game_record(game.id)
    assert record is not None and record.rated and record.chat_id == game.chat_id
    if first_move is not None:  # a move's button of the game that is over: a pop-up, nothing else
        qid = fake.user_presses_inline(2, iid, first_move)
        await runner.idle()
        assert fake.callback_answer(qid)["text"] and (await game_on(runner, iid)).version == game.version
    if kind == "lucky":  # 🎞 comes to the presser's private chat: the bot cannot write in theirs
        answer = await press(fake, runner, anna, iid, "Replay")
        assert "private" in answer["text"]
        await fake.wait_for(lambda: fake.last_bot_message(1).animation is not None, timeout=30)
    # Nothing secret was ever in the shared message; each got their own result in private.
    assert not [t for t in shared_texts(fake, iid)[:-1] for s in SECRETS if s in t]
    assert fake.calls("sendMessage", chat_id=pair) == [] and not fake.violations


async def test_three_people_play_cones_in_a_group_the_bot_is_not_in(fake, runner):
    fake_inline(fake)
    fake.add_chat_without_bot(-100777, "No bots here")
    people = [Player(fake, runner, 10 + k, name) for k, name in enumerate(("Ann", "Ben", "Cat"))]
    for p in people:
        await p.start_private()
    message = await invite(fake, runner, people[0], -100777, "", "cones")
    iid = message.inline_message_id
    for p in people:
        await press(fake, runner, p, iid, "Join")
    game = await game_on(runner, iid)
    assert len(game.seats) == 3
    await press(fake, runner, people[0], iid, "Start")
    dan = Player(fake, runner, 19, "Dan")  # in the chat, not at the table: refused as in a group
    version = (await game_on(runner, iid)).version
    move = next(b["callback_data"] for b in buttons(fake.inline_message(iid)) if ":-:" not in b.get("callback_data", ":-:"))
    qid = fake.user_presses_inline(dan.id, iid, move)
    await runner.idle()
    assert fake.callback_answer(qid)["text"] and (await game_on(runner, iid)).version == version
    for p in people:  # each goal in its owner's private chat only
        seat = (await game_on(runner, iid)).seats
        dm = fake.message(p.id, next(s.dm_msg for s in seat if s.user_id == p.id))
        assert "goal" in dm.caption
    assert await press_until_over(fake, runner, game.id, random.Random(8))
    await runner.idle()
    assert (await game_on(runner, iid)).status == "finished"
    assert not [t for t in shared_texts(fake, iid)[:-1] for s in SECRETS if s in t]
    assert not fake.violations


async def test_bad_presses_and_queries_get_a_polite_answer(fake, runner):
    fake_inline(fake)
    anna, boris, cleo = (Player(fake, runner, 21, "Anna"), Player(fake, runner, 22, "Boris"),
                         Player(fake, runner, 23, "Cleo"))
    for p in (anna, boris):
        await p.start_private()
    pair = fake.add_private_pair(21, 22)
    for query in ("", "x" * 256, "人生ゲーム", "gen"):  # empty, the longest, any script: the list
        qid = fake.user_queries_inline(21, pair, query)
        await runner.idle()
        assert fake.inline_results(qid), query
    qid = fake.user_queries_inline(21, pair, "gen")
    await runner.idle()
    assert {r["id"] for r in fake.inline_results(qid)} == {"genial", "lucky"}  # «Гениально», «Совершенно гениально»
    message = fake.user_chooses_result(21, qid, "lucky")
    await runner.idle()
    iid = message.inline_message_id
    await press(fake, runner, boris, iid, "Join")
    await press(fake, runner, anna, iid, "Start")
    game = await game_on(runner, iid)
    # A second invitation in the same chat: the first game is still open there.
    second = await invite(fake, runner, boris, pair, "trio", "trio")
    answer = await press(fake, runner, anna, second.inline_message_id, "Join")
    assert answer["show_alert"] and "already" in fake.inline_message(second.inline_message_id).text
    # Garbage, a foreign bot's data and an old turn's button: a pop-up, nothing changes.
    version = game.version
    for data in ("garbage", "0:-:zz.nothing", "7:1:x"):
        qid = fake.user_presses_inline(22, iid, data)
        await runner.idle()
        assert fake.callback_answer(qid)["text"]
    assert (await game_on(runner, iid)).version == version
