"""Computer players through the real client: seats in the lobby, whole games, hand-over and back."""
from __future__ import annotations

import json
import random

from engines import cones, lucky
from tests.bot.harness import BotRunner, Player, button_data

GROUP = -1002000


def plain(text: str | None) -> str:
    return (text or "").replace("\u2068", "").replace("\u2069", "")


def caption_of(request) -> str:
    media = request.params.get("media")
    if isinstance(media, str):
        media = json.loads(media)
    return request.params.get("caption") or (media or {}).get("caption", "")


async def game_here(runner, chat=GROUP, status="running"):
    return next(g for g in await runner.games() if g.chat_id == chat and g.status == status)


async def play_person_moves(fake, runner, game, person: Player, chat: int, *, max_presses=400) -> int:
    """The person plays their own turns (a random legal button) until the game ends."""
    rng = random.Random(7)
    presses = 0
    while (game := await runner.game(game.id)).status == "running" and presses < max_presses:
        await runner.idle()
        game = await runner.game(game.id)
        if game.status != "running":
            break
        eng = {"lucky": lucky, "cones": cones}[game.kind]
        state = await runner.state(game.id)
        seat = eng.current_player(state)
        assert game.seats[seat].user_id == person.id, "a computer's turn must not wait for anyone"
        action = rng.choice(eng.legal_actions(state, seat))
        answer = await person.press(chat, game.table_msg, f"{game.short_id}:{eng.turn(state)}:{eng.encode_action(action)}")
        assert not answer.get("show_alert"), answer
        presses += 1
    return presses


async def test_one_person_and_two_hard_computers_play_cones_to_the_end_in_a_group(fake, runner):
    fake.add_group(GROUP, "Alone tonight")
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(GROUP, "/new cones bots=2 level=hard")
    lobby = fake.last_bot_message(GROUP)
    assert "🤖 Bot 1 (hard)" in plain(lobby.text) and "🤖 Bot 2 (hard)" in plain(lobby.text)
    answer = await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert "starts" in answer["text"]
    game = await game_here(runner)
    assert sorted(s.kind for s in game.seats) == ["computer", "computer", "human"]
    await play_person_moves(fake, runner, game, anna, GROUP)
    game = await runner.game(game.id)
    assert game.status == "finished"
    log = await runner.store.actions(game.id)
    computer_seats = {s.seat for s in game.seats if s.is_computer}
    assert sum(1 for _, seat, _ in log if seat in computer_seats) >= 10
    results = plain(fake.message(GROUP, game.results_msg).text)
    assert "🤖 Bot 1 (hard)" in results and "🤖 Bot 2 (hard)" in results
    # Computers never got a private message; Anna got her goal only.
    assert not fake.messages(-1001) and not fake.messages(-1002)


async def test_the_host_adds_changes_and_removes_computers_and_bad_input_opens_nothing(fake, runner):
    fake.add_group(GROUP, "Lobby work")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    for bad, expect in [("bots=9", "from 0 to 3"), ("bots=-1", "from 0 to 3"), ("bots=x", "from 0 to 3"),
                        ("level=genius", "easy, normal or hard")]:
        await anna.say(GROUP, f"/new lucky {bad}")
        assert expect in fake.last_bot_message(GROUP).text
    assert not await runner.games()
    await anna.say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    answer = await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Add a computer"))
    assert answer["show_alert"] and "Only the host" in answer["text"]
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Add a computer"))
    lobby = fake.message(GROUP, lobby.message_id)
    assert "2. 🤖 Bot (normal)" in plain(lobby.text)
    await anna.press(GROUP, lobby.message_id, button_data(lobby, startswith="🤖 2."))
    lobby = fake.message(GROUP, lobby.message_id)
    assert "🤖 Bot (hard)" in plain(lobby.text)
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Add a computer"))
    lobby = fake.message(GROUP, lobby.message_id)
    assert "🤖 Bot 1 (hard)" in plain(lobby.text) and "🤖 Bot 2 (normal)" in plain(lobby.text)
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Remove"))
    lobby = fake.message(GROUP, lobby.message_id)
    assert "🤖 Bot (normal)" in plain(lobby.text) and "hard" not in plain(lobby.text)
    game = await game_here(runner, status="lobby")
    assert [s.kind for s in game.seats] == ["human", "computer"]


async def test_alone_in_a_group_start_asks_before_a_solo_game(fake, runner):
    fake.add_group(GROUP, "Quiet")
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(GROUP, "/new genial")
    lobby = fake.last_bot_message(GROUP)
    answer = await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert answer["show_alert"] and "alone" in answer["text"]
    assert (await game_here(runner, status="lobby")).status == "lobby"
    answer = await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert not answer.get("show_alert")
    assert len((await game_here(runner)).seats) == 1


async def test_a_game_against_a_computer_in_the_private_chat(fake, runner):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(anna.id, "/new lucky")
    lobby = fake.last_bot_message(anna.id)
    assert "🤖 Bot (normal)" in plain(lobby.text) and "Join" not in str(lobby.reply_markup)
    await anna.press(anna.id, lobby.message_id, button_data(lobby, text="Start"))
    game = await game_here(runner, chat=anna.id)
    await play_person_moves(fake, runner, game, anna, anna.id)
    game = await runner.game(game.id)
    assert game.status == "finished" and game.results_msg is not None
    story = plain(" ".join(caption_of(r) for r in fake.calls("editMessageMedia") + fake.calls("editMessageCaption")))
    assert "🤖 Bot (normal) drew" in story  # a computer's move is narrated like a person's


async def test_a_player_hands_their_seat_over_and_takes_it_back(fake, runner):
    fake.add_group(GROUP, "Half here")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    await anna.say(GROUP, "/new lucky")
    lobby = fake.last_bot_message(GROUP)
    await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = await game_here(runner)
    await boris.say(GROUP, "/leave")
    assert any("A computer plays for Boris" in plain(m.text) for m in fake.messages(GROUP))
    game = await runner.game(game.id)
    assert game.seats[game.seat_of(boris.id)].autoplayed
    table = fake.message(GROUP, game.table_msg)
    assert "I'm back" in str(table.reply_markup)
    # Anna plays; Boris's turns are made by the computer meanwhile.
    await play_person_moves(fake, runner, game, anna, GROUP, max_presses=6)
    boris_moves = [a for a in await runner.store.actions(game.id) if a[1] == game.seat_of(boris.id)]
    assert boris_moves, "the computer moved for Boris"
    story = plain(" ".join(caption_of(r) for r in fake.calls("editMessageMedia") + fake.calls("editMessageCaption")))
    assert "Boris 🤖" in story, "his moves are narrated as a computer's, under his name"
    # Only Boris can take his seat back, with one tap.
    table = fake.message(GROUP, (await runner.game(game.id)).table_msg)
    answer = await anna.press(GROUP, table.message_id, button_data(table, text="I'm back"))
    assert answer["show_alert"] and "no seat to take back" in answer["text"]
    answer = await boris.press(GROUP, table.message_id, button_data(table, text="I'm back"))
    assert "Welcome back" in answer["text"]
    game = await runner.game(game.id)
    assert not game.seats[game.seat_of(boris.id)].autoplayed
    assert "I'm back" not in str(fake.message(GROUP, game.table_msg).reply_markup)


async def test_consecutive_computer_moves_are_each_shown_and_spaced(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "db.sqlite3", computer_pause=0.3).start()
    try:
        fake.add_group(GROUP, "Watching")
        anna = Player(fake, runner, 1, "Anna")
        await anna.start_private()
        await anna.say(GROUP, "/new cones bots=3")
        lobby = fake.last_bot_message(GROUP)
        await anna.press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
        game = await game_here(runner)
        await runner.idle(timeout=30)
        state = await runner.state(game.id)
        assert game.seats[cones.current_player(state)].user_id == anna.id
        before = len(await runner.store.actions(game.id))
        marks = len(fake.requests)
        seat = cones.current_player(state)
        await anna.press(GROUP, game.table_msg,
                         f"{game.short_id}:{cones.turn(state)}:{cones.encode_action(cones.legal_actions(state, seat)[0])}")
        await runner.idle(timeout=30)
        computer_moves = len(await runner.store.actions(game.id)) - before - 1
        assert computer_moves == 3
        edits = [r for r in fake.requests[marks:] if r.method in ("editMessageMedia", "editMessageCaption")
                 and str(r.params.get("chat_id")) == str(GROUP)]
        assert len(edits) >= 1 + computer_moves, "each computer move got its own table"
        gaps = [b.time - a.time for a, b in zip(edits, edits[1:])]
        assert min(gaps[-computer_moves:]) >= 0.3
    finally:
        await runner.stop()
