"""🎞 under the results, end to end: the whole game as one animation posted in the chat, one frame
per logged move plus the opening, once per game; stale, early and foreign presses refused."""
from __future__ import annotations

import io
import random
import time

from PIL import Image

from bot.ending.replays import FRESH_SECONDS
from tests.bot.harness import Player, button_data, buttons, press_until_over, start_game

GROUP = -100900
OTHER = -100901


def animations(fake, chat_id: int) -> list:
    return [m for m in fake.messages(chat_id) if m.from_bot and m.animation is not None]


def plain(text: str) -> str:
    """Without the isolates names are shown in (bot/words/names.py)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def frames_of(data: bytes) -> tuple[int, tuple[int, int], list[int]]:
    """(frames, size, durations in ms) of a GIF."""
    with Image.open(io.BytesIO(data)) as im:
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
        return im.n_frames, im.size, durations


async def finished_game(fake, runner, kind: str, people: list[Player], seed: int):
    game = await start_game(fake, runner, GROUP, kind, people)
    assert await press_until_over(fake, runner, game.id, random.Random(seed))
    await runner.idle(timeout=60)
    return await runner.game(game.id)


async def test_the_replay_of_a_cones_game_is_one_animation_answering_the_results(fake, runner):
    fake.add_group(GROUP, "Replays")
    fake.add_group(OTHER, "Elsewhere")
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    for p in people:
        await p.start_private()
    game = await finished_game(fake, runner, "cones", people, 1)
    moves = len(await runner.store.actions(game.id))
    results = fake.message(GROUP, game.results_msg)
    replay = button_data(results, text="🎞")
    assert [b["text"] for b in buttons(results)] == ["🎞 Replay", "🔁 Rematch"]

    # Pressed on anything but the results (the old table), or in another chat: refused, nothing made.
    answer = await people[0].press(GROUP, game.table_msg, replay)
    assert "out of date" in answer["text"], answer
    fake.user_sends(people[1].id, OTHER, "hello")
    elsewhere = fake.messages(OTHER)[-1]
    answer = await people[1].press(OTHER, elsewhere.message_id, replay)
    assert "another chat" in answer["text"], answer
    assert not animations(fake, GROUP) and not animations(fake, OTHER)

    # Someone who did not even play asks for it: the animation answers the results, for everyone.
    carl = Player(fake, runner, 3, "Carl")
    answer = await carl.press(GROUP, results.message_id, replay)
    assert "Making the replay" in answer["text"], answer
    await runner.idle(timeout=60)
    [sent] = animations(fake, GROUP)
    assert sent.reply_to_message_id == results.message_id
    seated = ", ".join(s.name for s in game.seats)  # in the order they played
    count, size, durations = frames_of(sent.animation)
    # The caption says how long the animation runs (the GIF's own delays).
    lasts = round(sum(durations) / 1000)
    assert f"Cones, the whole game: {moves} moves · lasts {lasts} s · {seated}" in plain(sent.caption), sent.caption
    assert count == moves + 1  # the opening and one frame per move (a short game: none skipped)
    assert durations[-1] > 3 * durations[1] and size[0] <= 800
    assert len(sent.animation) < 2 * 1024 * 1024

    # Asked again: told where it is; nothing is made or posted twice.
    answer = await people[0].press(GROUP, results.message_id, replay)
    assert "already in the chat" in answer["text"], answer
    await runner.idle()
    assert len(animations(fake, GROUP)) == 1 and len(fake.calls("sendAnimation")) == 1

    # Long after, it has scrolled far up: posted again by its file_id, not drawn again.
    replays = runner.bot.core.replays
    replays.clock = lambda: time.monotonic() + FRESH_SECONDS + 1
    await people[0].press(GROUP, results.message_id, replay)
    await runner.idle(timeout=60)
    first, again = fake.calls("sendAnimation")
    assert again.params["animation"] == first.result["animation"]["file_id"]
    assert animations(fake, GROUP)[-1].animation == sent.animation

    # A rematch takes 🔁 off the results; 🎞 stays.
    await people[1].press(GROUP, results.message_id, button_data(results, text="Rematch"))
    await runner.idle()
    assert [b["text"] for b in buttons(fake.message(GROUP, results.message_id))] == ["🎞 Replay"]


async def test_a_replay_asked_twice_at_once_is_made_once_and_speaks_russian(fake, runner):
    fake.add_group(GROUP, "Повторы", admins=[1])
    people = [Player(fake, runner, 1, "Анна", lang="ru"), Player(fake, runner, 2, "Борис", lang="ru")]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, "/lang ru")
    # Before the end there are no results to press on; a forged 🎞 on the table is refused.
    await people[0].say(GROUP, "/new trio")
    lobby = fake.last_bot_message(GROUP)
    await people[1].press(GROUP, lobby.message_id, button_data(lobby, text="Играю"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Начать"))
    await runner.idle(timeout=60)
    [game] = await runner.games()
    answer = await people[0].press(GROUP, game.table_msg, f"{game.short_id}:-:!replay")
    assert "ещё не окончена" in answer["text"], answer
    assert await press_until_over(fake, runner, game.id, random.Random(3))
    await runner.idle(timeout=60)
    game = await runner.game(game.id)
    moves = len(await runner.store.actions(game.id))
    results = fake.message(GROUP, game.results_msg)
    replay = button_data(results, text="🎞")
    assert [b["text"] for b in buttons(results)] == ["🎞 Повтор", "🔁 Реванш"]
    first = fake.user_presses(people[0].id, GROUP, results.message_id, replay)
    second = fake.user_presses(people[1].id, GROUP, results.message_id, replay)
    await runner.idle(timeout=60)
    answers = [fake.callback_answer(first)["text"], fake.callback_answer(second)["text"]]
    assert "Готовлю повтор" in answers[0] and "уже готовится" in answers[1], answers
    [sent] = animations(fake, GROUP)
    seated = ", ".join(s.name for s in game.seats)
    assert f"Трио, вся партия: {moves} " in sent.caption and seated in plain(sent.caption), sent.caption
    assert frames_of(sent.animation)[0] == moves + 1


async def test_a_game_whose_moves_were_pruned_says_so_and_posts_nothing(fake, runner):
    fake.add_group(GROUP, "Replays")
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    for p in people:
        await p.start_private()
    game = await finished_game(fake, runner, "cones", people, 3)
    assert await runner.store.prune_actions(time.time() + 1) > 0  # TABLEBOT_KEEP_ACTIONS_DAYS did it
    results = fake.message(GROUP, game.results_msg)
    answer = await people[1].press(GROUP, game.results_msg, button_data(results, text="🎞"))
    await runner.idle()
    assert "no longer kept" in answer["text"] and answer.get("show_alert"), answer
    assert animations(fake, GROUP) == []
