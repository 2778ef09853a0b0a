"""Random and mutated updates against four running games: no traceback, every press answered
exactly once, and nothing stored changes unless the bot said it did something."""
from __future__ import annotations

import logging
import random

from tests.bot.fuzz import Fuzzer
from tests.bot.harness import Player, button_data

GAMES = ("lucky", "cones", "genial", "trio")
STEPS = 250  # python -m bench fuzz runs thousands


async def four_running_games(fake, runner) -> dict[int, list[int]]:
    groups = {}
    for i, kind in enumerate(GAMES):
        chat = -1003000 - i
        fake.add_group(chat, f"{kind} <night> {i}", admins=[10 + 2 * i])
        a, b = (Player(fake, runner, 10 + 2 * i + k, name) for k, name in enumerate(("Anna", "<b>Борис</b> 🎲")))
        for p in (a, b):
            await p.start_private()
        await a.say(chat, f"/new {kind}")
        lobby = fake.last_bot_message(chat)
        await b.press(chat, lobby.message_id, button_data(lobby, text="Join"))
        await a.press(chat, lobby.message_id, button_data(lobby, text="Start"))
        groups[chat] = [a.id, b.id]
    return groups


async def stored(runner) -> dict[int, tuple]:
    return {g.id: (str(g.status), g.version, len(g.seats)) for g in await runner.store.all_games()}


async def test_fuzzed_updates_break_nothing_and_change_nothing_they_should_not(fake, runner, caplog):
    caplog.set_level(logging.ERROR)
    groups = await four_running_games(fake, runner)
    strangers = []
    for k, opened in ((90, True), (91, False)):
        Player(fake, runner, k, f"Stranger {k}", opened_private=opened)
        strangers.append(k)
    fuzz = Fuzzer(fake, random.Random(2026), groups, strangers)
    kinds: dict[str, int] = {}
    presses = []
    for _ in range(STEPS):
        before = await stored(runner)
        step = fuzz.step()
        await runner.idle()
        kinds[step.kind] = kinds.get(step.kind, 0) + 1
        after = await stored(runner)
        answer = fake.callback_answer(step.query_id) if step.query_id else None
        if step.query_id:
            presses.append(step.query_id)
        if after != before and not step.may_change:
            # Only a press the bot answered as done (or a valid /new, /cancel, /leave) may change what is stored.
            assert step.kind == "press" and answer is not None and not answer.get("show_alert"), (step, answer)
    stats = {s.id: s for s in fake.callback_stats()}
    assert presses and all(stats[q].times_answered == 1 for q in presses), \
        [(stats[q].data, stats[q].times_answered) for q in presses if stats[q].times_answered != 1]
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not tracebacks, [r.getMessage() for r in tracebacks[:3]]
    # The fuzz reached every kind of update, and the games still play.
    assert {"press", "press-odd", "press-missing", "command", "anonymous", "raw"} <= set(kinds), kinds
    assert all(g.status in ("running", "finished", "lobby") for g in await runner.store.all_games())
