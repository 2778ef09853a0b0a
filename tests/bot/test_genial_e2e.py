"""«Гениально» end to end through the fake Bot API: racks by private message, moves by buttons
(tile → row → cell → direction → preview → confirm) and typed, the group never sees a rack."""
from __future__ import annotations

import random
import re
import time

from engines import genial
from tests.bot.harness import Player, button_data, buttons
from tests.fakebotapi.spec import Upload

GROUP = -100700
NAMES = ["Anna", "Борис", "<i>Clara</i>", "Dan 🎲"]
RACK_LISTING = re.compile(r"\d [🔴🟠🟡🟢🔵🟣]{2}")


def sent_images(fake, chat_id: int) -> list[bytes]:
    """Every picture the bot uploaded to a chat (sendPhoto, editMessageMedia)."""
    out = []
    for r in fake.requests:
        if str(r.params.get("chat_id")) != str(chat_id):
            continue
        for value in r.params.values():
            if isinstance(value, Upload):
                out.append(value.content)
            elif isinstance(value, (bytes, bytearray)):
                out.append(bytes(value))
    return out


def group_texts(fake, chat_id: int) -> list[str]:
    return [str(r.params.get("text") or "") + str(r.params.get("caption") or "") + str(r.params.get("media") or "")
            for r in fake.requests if str(r.params.get("chat_id")) == str(chat_id)]


async def start_group_game(fake, runner, players: int, extra: str = ""):
    fake.add_group(GROUP, "Genial night")
    people = [Player(fake, runner, i + 1, NAMES[i], lang="ru" if i == 1 else "en") for i in range(players)]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, f"/new genial {extra}".strip())
    lobby = fake.last_bot_message(GROUP)
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in (await runner.games()) if g.chat_id == GROUP)
    assert game.status == "running"
    assert any("Racks were sent privately" in (m.text or "") + (m.caption or "") for m in fake.messages(GROUP))
    return game, people


def action_of(data: str) -> str:
    return data.split(":", 2)[2]


async def play_turn(fake, runner, game, by_id, rng: random.Random, *, swap: bool = True) -> dict:
    """The player to act composes one decision in the private chat by buttons; returns counters."""
    state = (await runner.state(game.id))
    seat = genial.current_player(state)
    person = by_id[game.seats[seat].user_id]
    seen = {"steps": 0, "swap": 0, "back": 0}
    for _ in range(12):
        msg = fake.message(person.id, game.seats[seat].dm_msg)
        assert msg is not None and msg.photo is not None
        datas = [b["callback_data"] for b in buttons(msg) if "callback_data" in b]
        assert datas, msg.caption
        acts = [action_of(d) for d in datas]
        if "S" in acts:
            seen["swap"] += 1
            choice = datas[acts.index("S" if swap and rng.random() < 0.5 else "K")]
        else:
            forward = [d for d, b in zip(datas, buttons(msg)) if "◀" not in b["text"]]
            if forward and action_of(forward[0]).startswith("P"):
                # the preview: the picture, the points, then sometimes a change of mind
                assert "Confirm" in str(msg.reply_markup) or "Подтвердить" in str(msg.reply_markup)
                if rng.random() < 0.1 and not seen["back"]:
                    seen["back"] += 1
                    await person.press(person.id, msg.message_id, next(d for d in datas if d not in forward))
                    continue
            choice = rng.choice(forward)
        answer = await person.press(person.id, msg.message_id, choice)
        assert not answer.get("show_alert"), answer
        seen["steps"] += 1
        if not action_of(choice).startswith("~"):
            assert genial.turn((await runner.state(game.id))) == genial.turn(state) + 1
            return seen
    raise AssertionError("no decision after 12 presses")


async def play(fake, runner, game, people, rng, *, max_turns: int = 10_000, swap=True) -> dict:
    by_id = {p.id: p for p in people}
    total = {"turns": 0, "swap": 0, "back": 0}
    while game.status == "running" and total["turns"] < max_turns:
        seen = await play_turn(fake, runner, game, by_id, rng, swap=swap)
        total["turns"] += 1
        total["swap"] += seen["swap"]
        total["back"] += seen["back"]
        table = fake.message(GROUP, game.table_msg)
        assert len(table.caption) <= 1024
    return total


def assert_racks_private(fake, people):
    texts = group_texts(fake, GROUP)
    for text in texts:
        assert not RACK_LISTING.search(text), text
        assert "Your rack" not in text and "подставка" not in text.lower()
    group_pics = set(sent_images(fake, GROUP))
    assert group_pics
    for p in people:
        private_pics = set(sent_images(fake, p.id))
        assert private_pics and not (group_pics & private_pics)


async def test_two_players_play_a_whole_game_by_buttons_and_typed_moves(fake, runner):
    started = time.monotonic()
    game, people = await start_group_game(fake, runner, 2)
    table = fake.message(GROUP, game.table_msg)
    link = [b for b in buttons(table) if b.get("url")]
    assert link and link[0]["url"].endswith(f"?start=g{game.short_id}")
    assert "Now:" in table.caption
    rng = random.Random(7)
    by_id = {p.id: p for p in people}

    # A few turns by buttons, then typed moves: a bad one gets a clear answer, a good one plays.
    for _ in range(3):
        await play_turn(fake, runner, game, by_id, rng)
    state = (await runner.state(game.id))
    while genial.view(state, genial.current_player(state))["pending"] != genial.PLACE:
        await play_turn(fake, runner, game, by_id, rng)
        state = (await runner.state(game.id))
    seat = genial.current_player(state)
    person = by_id[game.seats[seat].user_id]
    other = by_id[game.seats[1 - seat].user_id]
    await person.say(person.id, "9 A1 A2")
    reply = fake.last_bot_message(person.id).text
    assert "no tile 9" in reply or "нет тайла 9" in reply, reply
    await person.say(person.id, "1 Z1 Z2")
    reply = fake.last_bot_message(person.id).text
    assert "no cell Z1" in reply or "нет клетки Z1" in reply, reply
    await person.say(person.id, "1 F5 H5")
    reply = fake.last_bot_message(person.id).text
    assert "do not touch" in reply or "не соседние" in reply, reply
    await other.say(other.id, "1 F5 F6")
    reply = fake.last_bot_message(other.id).text
    assert "не ваш ход" in reply.lower() or "not your turn" in reply.lower(), reply
    radius = genial.view(state, None)["radius"]
    ca, cb = genial.legal_placements(state, seat, 0)[0]
    before = genial.turn(state)
    await person.say(person.id, f"1 {genial.cell_label(ca, radius)} {genial.cell_label(cb, radius)}")
    assert genial.turn((await runner.state(game.id))) == before + 1
    assert "placed" in fake.message(GROUP, game.table_msg).caption

    total = await play(fake, runner, game, people, rng)
    assert game.status == "finished"
    results = fake.message(GROUP, game.results_msg).text
    assert "results" in results and "sorted:" in results and "🥇" in results
    assert_racks_private(fake, people)
    assert not [b for b in buttons(fake.message(GROUP, game.table_msg)) if "callback_data" in b]
    assert total["turns"] >= 35
    ru = by_id[2]
    ru_dm = fake.message(ru.id, game.seats[game.seat_of(ru.id)].dm_msg)
    assert "Ваша подставка" in ru_dm.caption
    assert time.monotonic() - started < 90


async def test_four_player_teams_play_with_swap_decisions(fake, runner):
    game, people = await start_group_game(fake, runner, 4, "team")
    assert (await runner.state(game.id)).options.team
    rng = random.Random(3)
    total = await play(fake, runner, game, people, rng)
    assert game.status == "finished" and total["turns"] >= 60
    results = fake.message(GROUP, game.results_msg).text
    plain = results.replace("\u2068", "").replace("\u2069", "")
    assert "Anna & <i>Clara</i>" in plain and "Борис & Dan 🎲" in plain, plain
    assert "🥇" in plain and "🥈" in plain
    caption = fake.message(GROUP, game.table_msg).caption
    assert "teams" in caption or "команды" in caption
    # a team's shared tracks are in each partner's private caption
    dm = fake.message(people[0].id, game.seats[game.seat_of(people[0].id)].dm_msg)
    assert "shared with" in dm.caption
    assert_racks_private(fake, people)
    if total["swap"]:
        texts = "\n".join(group_texts(fake, GROUP))
        assert "swapped the rack" in texts or "kept the rack" in texts


async def test_solo_in_the_private_chat_is_played_on_the_table(fake, runner):
    solo = Player(fake, runner, 9, "Solo")
    await solo.start_private()
    await solo.say(solo.id, "/new genial")
    game = next(g for g in (await runner.games()) if g.chat_id == solo.id)
    assert game.status == "running" and len(game.seats) == 1
    rng = random.Random(1)
    moves = 0
    while game.status == "running":
        if moves == 10:  # a typed move works in solo too ("F7 F8": the drawn tile)
            state = (await runner.state(game.id))
            ca, cb = genial.legal_placements(state, 0, genial.view(state, 0)["drawn"])[0]
            before = genial.turn(state)
            await solo.say(solo.id, f"{genial.cell_label(ca, 5)} {genial.cell_label(cb, 5)}")
            assert genial.turn((await runner.state(game.id))) == before + 1
            moves += 1
            continue
        table = fake.message(solo.id, game.table_msg)
        for _ in range(8):
            datas = [b["callback_data"] for b in buttons(table) if "callback_data" in b and "◀" not in b["text"]]
            choice = rng.choice(datas)
            answer = await solo.press(solo.id, table.message_id, choice)
            assert not answer.get("show_alert"), answer
            table = fake.message(solo.id, game.table_msg)
            if not action_of(choice).startswith("~"):
                break
        moves += 1
    assert moves >= 30
    results = fake.message(solo.id, game.results_msg).text
    assert "Your score:" in results


async def test_ingenious_bonus_then_swap_decision(fake, runner):
    """A hand-built position: orange at 17 and no red in the rack. Tile 1 typed next to the printed
    orange symbol reaches 18: «Ingenious!», a bonus tile is drawn (the tile step is skipped), then
    the swap is offered and taken; the group hears of it, never of the new rack."""
    game, people = await start_group_game(fake, runner, 2)
    by_id = {p.id: p for p in people}
    state = genial.position(2, seed=5, current=0, racks=[["oy", "oy", "yg", "gb", "bp", "yy"]],
                            scores=[[0, 17, 5, 5, 5, 5], [3, 3, 3, 3, 3, 3]], started=[True, True])
    game.state = genial.to_json(state)
    async with runner.bot.book.lock(game.id):
        await runner.store.save_game(game)  # the position, committed as a move would be
    runner.bot.book.put(game)
    runner.bot.tables.schedule_private_all(game.id, bump_current=True)
    runner.bot.tables.schedule_table(game.id)
    await runner.idle()
    person = by_id[game.seats[0].user_id]
    await person.say(person.id, "1 A5 A4")
    caption = fake.message(GROUP, game.table_msg).caption
    assert "Ingenious!" in caption and "for the bonus placement" in caption, caption
    dm = fake.message(person.id, game.seats[0].dm_msg)
    assert "Bonus placement" in dm.caption or "Бонусный ход" in dm.caption
    # no tile step: the rows of the board are offered at once
    assert all(len(b["text"]) == 1 for b in buttons(dm) if "callback_data" in b), buttons(dm)
    await play_turn(fake, runner, game, by_id, random.Random(2))
    state = (await runner.state(game.id))
    assert genial.view(state, 0)["pending"] == genial.SWAP
    old_rack = genial.view(state, 0)["rack"]
    dm = fake.message(person.id, game.seats[0].dm_msg)
    answer = await person.press(person.id, dm.message_id, button_data(dm, endswith=":S"))
    assert not answer.get("show_alert"), answer
    state = (await runner.state(game.id))
    assert genial.current_player(state) == 1 and genial.view(state, 0)["rack"] != old_rack
    caption = fake.message(GROUP, game.table_msg).caption
    assert "swapped the rack" in caption, caption
    assert_racks_private(fake, people)
