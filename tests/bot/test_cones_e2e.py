"""Cones played end to end through the fake Bot API by button presses, with goals kept secret."""
from __future__ import annotations

import random

import pytest

from bot.games.base import place_words
from bot.games.colours import EMOJI, colour
from engines import cones
from tests.bot.harness import Player, button_data, buttons

GROUP = -100400
NAMES = ["Anna", "Борис", "<i>Clara</i>", "Dan 🎲"]


def goal_phrases(goal: str) -> list[str]:
    return [colour(goal, lang) for lang in ("en", "ru")]


async def play_cones(fake, runner, players: int, seed: int):
    fake.add_group(GROUP, "Cones night")
    people = [Player(fake, runner, i + 1, NAMES[i], lang="ru" if i == 1 else "en",
                     opened_private=(i != players - 1)) for i in range(players)]
    for p in people[:-1]:
        await p.start_private()
    await people[0].say(GROUP, "/new cones")
    lobby = fake.last_bot_message(GROUP)
    join = button_data(lobby, text="Join")
    for p in people[1:-1]:
        await p.press(GROUP, lobby.message_id, join)
    # The last one never opened the private chat: deep link, START, in.
    last = people[-1]
    answer = await last.press(GROUP, lobby.message_id, join)
    assert "start=j" in answer["url"]
    await last.start_private(answer["url"].split("start=")[1])
    game = next(iter((await runner.games())))
    assert len(game.seats) == players
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    assert game.status == "running"
    goals = {s.user_id: cones.view((await runner.state(game.id)), s.seat)["goal"] for s in game.seats}
    by_id = {p.id: p for p in people}
    rng = random.Random(seed)
    goal_answers = []
    closed_answers: list[str] = []
    presses = played_at_once = previewed = 0
    offered_preview = False
    while game.status == "running":
        state = (await runner.state(game.id))
        seat = cones.current_player(state)
        mover = by_id[game.seats[seat].user_id]
        table = fake.message(GROUP, game.table_msg)
        if presses % 7 == 0:  # someone checks their goal now and then; a stranger never learns it
            asker = rng.choice(people)
            answer = await asker.press(GROUP, table.message_id, button_data(table, text="🔒"))
            goal_answers.append((asker.id, answer["text"]))
        colours = [b for b in buttons(table) if b.get("callback_data", "").split(":")[-1].startswith("~c.")]
        await mover.press(GROUP, table.message_id, rng.choice(colours)["callback_data"])
        table = fake.message(GROUP, game.table_msg)
        piles = [b for b in buttons(table) if b["text"].isdigit()]
        assert piles, "a colour in the supply always has a legal pile"
        closed = [b for b in buttons(table) if b["text"].startswith("🚫")]
        # Every pile is on the keyboard: the open ones by number, the others marked 🚫.
        assert len(piles) + len(closed) == len(cones.view(state, None)["piles"])
        if closed and presses % 9 == 1:  # a closed pile explains itself and changes nothing
            answer = await mover.press(GROUP, table.message_id, rng.choice(closed)["callback_data"])
            assert answer.get("show_alert") and "🚫" in answer["text"], answer
            assert cones.turn(await runner.state(game.id)) == cones.turn(state)
            closed_answers.append(answer["text"])
        if presses % 11 == 3:  # a change of mind: Back to the colours, then choose again
            await mover.press(GROUP, table.message_id, button_data(table, text="◀"))
            table = fake.message(GROUP, game.table_msg)
            again = [b for b in buttons(table) if b.get("callback_data", "").split(":")[-1].startswith("~c.")]
            assert [b["text"] for b in again] == [b["text"] for b in colours]
            await mover.press(GROUP, table.message_id, rng.choice(again)["callback_data"])
            table = fake.message(GROUP, game.table_msg)
            piles = [b for b in buttons(table) if b["text"].isdigit()]
        previewable = [b for b in piles if b["callback_data"].split(":")[-1].startswith("~")]
        offered_preview = offered_preview or bool(previewable)
        # Both kinds of pile are played: one that is previewed first whenever none has been yet.
        pile = rng.choice(previewable if previewable and (not previewed or rng.random() < 0.5) else piles)
        answer = await mover.press(GROUP, table.message_id, pile["callback_data"])
        assert not answer.get("show_alert"), answer
        if not pile["callback_data"].split(":")[-1].startswith("~"):
            # What the chip does is plain (it covers the base, or turns the pile): played at once,
            # and the toast says so.
            assert answer["text"].startswith("✓ "), answer
            assert cones.turn(await runner.state(game.id)) == cones.turn(state) + 1
            played_at_once += 1
            presses += 1
            continue
        # Two chips of the colour would leave the game: the preview asks to confirm first.
        assert cones.turn(await runner.state(game.id)) == cones.turn(state)
        table = fake.message(GROUP, game.table_msg)
        assert f"pile {pile['text']}" in table.caption or f"башню {pile['text']}" in table.caption, table.caption
        if presses % 3 == 0:  # back from the preview to the piles of the same colour, then on
            await mover.press(GROUP, table.message_id, button_data(table, text="◀"))
            table = fake.message(GROUP, game.table_msg)
            assert [b["text"] for b in buttons(table) if b["text"].isdigit()] == [b["text"] for b in piles]
            await mover.press(GROUP, table.message_id, pile["callback_data"])
            table = fake.message(GROUP, game.table_msg)
        answer = await mover.press(GROUP, table.message_id, button_data(table, text="✅"))
        assert not answer.get("show_alert"), answer
        assert cones.turn(await runner.state(game.id)) == cones.turn(state) + 1
        previewed += 1
        presses += 1
    assert closed_answers, "some pile was closed at some point and told why"
    assert played_at_once and (previewed or not offered_preview), (played_at_once, previewed)
    return game, people, goals, goal_answers


def assert_goals_stayed_secret(fake, game, goals, goal_answers, end_index):
    # 1. Nothing the group received before the results names a goal as a goal.
    group_texts = [(r.params.get("text") or r.params.get("caption") or "")
                   + str(r.params.get("media", "")) for r in fake.requests[:end_index]
                   if r.params.get("chat_id") in (GROUP, str(GROUP))]
    for text in group_texts:
        assert "goal:" not in text.lower() and "цель:" not in text.lower(), text
        assert "secret goal" not in text.lower()
    # 2. Each private goal message went to its owner only, with the owner's goal only.
    for user_id, goal in goals.items():
        for r in fake.requests:
            if r.method in ("sendPhoto", "editMessageMedia", "editMessageCaption") and \
                    str(r.params.get("chat_id")) == str(user_id):
                caption = r.params.get("caption") or str(r.params.get("media", ""))
                for other, other_goal in goals.items():
                    if other != user_id and other_goal != goal:
                        assert not any(p in caption for p in goal_phrases(other_goal)), caption
    # 3. "My goal" answers: the owner's goal to the owner, nothing to anyone else.
    for asker, text in goal_answers:
        if asker in goals:
            assert EMOJI[goals[asker]] in text
            assert not any(EMOJI[g] in text for u, g in goals.items() if g != goals[asker])
        else:
            assert not any(EMOJI[g] in text for g in goals.values())


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
async def test_a_whole_game_keeps_every_goal_secret_until_the_end(fake, runner, players, seed):
    game, people, goals, goal_answers = await play_cones(fake, runner, players, seed)
    assert game.status == "finished"
    results = fake.message(GROUP, game.results_msg)
    end_index = next(i for i, r in enumerate(fake.requests)
                     if r.method == "sendMessage" and "results" in str(r.params.get("text", "")))
    assert_goals_stayed_secret(fake, game, goals, goal_answers, end_index)
    # At the end every goal is revealed with the pile counts and the places.
    for person in people:
        assert any(p in results.text for p in goal_phrases(goals[person.id]))
    assert "Piles per colour" in results.text
    assert "🥇" in results.text
    # Each goal message now ends with its owner's own place (in the owner's language).
    await runner.idle()
    places = cones.view(await runner.state(game.id), None)["places"]
    for seat in game.seats:
        person = next(p for p in people if p.id == seat.user_id)
        mine = next((m for m in reversed(fake.messages(person.id)) if m.from_bot and m.photo is not None), None)
        if mine is None:
            continue  # never opened the private chat
        assert place_words(person.lang, places[seat.seat], places) in mine.caption, mine.caption
        assert any(p in mine.caption.splitlines()[-1] for p in goal_phrases(goals[person.id]))
    table = fake.message(GROUP, game.table_msg)
    assert not [b for b in buttons(table) if "callback_data" in b]


def test_results_show_tie_break_figures_only_where_they_decided():
    """Piles always; piles with chips and the tallest pile only for players level on piles."""
    from types import SimpleNamespace

    from bot.games.base import Ctx
    from bot.games.cones.ui import UI
    from bot.storage.store import Seat
    from engines.base import options_from_dict
    ui = UI()
    seen = {"chips": 0, "plain": 0}
    for seed in range(40):
        rng = random.Random(seed)
        state = cones.setup(4, options_from_dict(cones.Options, {}), seed)
        while cones.current_player(state) is not None:
            seat = cones.current_player(state)
            state, _ = cones.apply(state, seat, rng.choice(cones.legal_actions(state, seat)))
        game = SimpleNamespace(seats=[Seat(i, i + 1, n) for i, n in enumerate(NAMES)], last_events=[],
                               short_id="z9", status="finished", kind="cones")
        ctx = Ctx(game=game, eng=cones, state=state, lang="en", bot_username="tablebot")
        text = ui.results(ctx)
        scores = cones.outcome(state).scores
        level = any(a["piles"] == b["piles"] for i, a in enumerate(scores) for b in scores[i + 1:])
        assert text.split("\n")[1].startswith("🏆"), text  # what decided comes first
        if not level:
            assert "with chips" not in text and "tallest" not in text, text
            seen["plain"] += 1
        elif "with chips decide" in text or "tallest pile decides" in text:
            seen["chips"] += 1
        for s in range(4):
            line = ui.private_result(ctx, s)
            # (past the medals the game's sign: a lone "4." would read as list numbering)
            assert line.startswith(("🥇", "🥈", "🥉", "🔺 <b>Cones</b>: place 4")) and "Cones" in line and "pile" in line
    assert seen["plain"] and seen["chips"], seen
