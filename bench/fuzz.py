"""``python -m bench fuzz [updates] [seed]``: thousands of random and mutated updates against four
running games (tests/bot/fuzz.py), counted: tracebacks, presses not answered, answered twice,
stored changes after a refused or non-press update, and how long a press waits after 25
commands in the same group.
"""
from __future__ import annotations

import asyncio
import logging
import pathlib
import random
import sys
import tempfile
import time

from bench.measure import TracebackCounter
from tests.bot.fuzz import Fuzzer
from tests.bot.harness import BotRunner, Player
from tests.bot.test_fuzz import four_running_games, stored
from tests.fakebotapi import FakeBotAPI


async def _run(updates: int, seed: int) -> dict:
    fake = FakeBotAPI()
    fake.start()
    counter = TracebackCounter()
    logging.getLogger().addHandler(counter)
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "fuzz.sqlite3").start()
    try:
        groups = await four_running_games(fake, runner)
        strangers = [90, 91]
        Player(fake, runner, 90, "Stranger", opened_private=True)
        Player(fake, runner, 91, "Other", opened_private=False)
        fuzz = Fuzzer(fake, random.Random(seed), groups, strangers)
        presses, wrong_changes = [], 0
        for _ in range(updates):
            before = await stored(runner)
            step = fuzz.step()
            await runner.idle(timeout=60)
            if step.query_id:
                presses.append(step.query_id)
            after = await stored(runner)
            if after != before and not step.may_change:
                answer = fake.callback_answer(step.query_id) if step.query_id else None
                if step.kind != "press" or answer is None or answer.get("show_alert"):
                    wrong_changes += 1
                    changed = {k: (before.get(k), after.get(k)) for k in set(before) | set(after)
                               if before.get(k) != after.get(k)}
                    print(f"fuzz: a change after {step} answered {answer}: {changed}; "
                          f"last request {fake.requests[-1].method if fake.requests else None}", file=sys.stderr)
        stats = {s.id: s for s in fake.callback_stats()}
        # 25 commands in a row in one group, then a press there: how long does the press wait?
        chat = next(iter(groups))
        for _ in range(25):
            fake.user_sends(groups[chat][0], chat, "/help")
        table = next(m for m in reversed(fake.messages(chat)) if m.from_bot and m.photo is not None)
        data = next(b["callback_data"] for b in table.buttons if "callback_data" in b)
        qid = fake.user_presses(groups[chat][1], chat, table.message_id, data)
        t0 = time.monotonic()
        await fake.wait_for(lambda: fake.callback_answer(qid) is not None, timeout=120)
        after_flood = time.monotonic() - t0
        await runner.idle(timeout=120)
        return {"updates": updates, "presses": len(presses),
                "unanswered": sum(1 for q in presses if stats[q].times_answered == 0),
                "twice": sum(1 for q in presses if stats[q].times_answered > 1),
                "wrong_changes": wrong_changes, "tracebacks": counter.tracebacks,
                "press_after_25_commands_s": after_flood}
    finally:
        await runner.stop()
        fake.stop()
        logging.getLogger().removeHandler(counter)


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    argv = argv or []
    updates = int(argv[0]) if argv else 2800
    seed = int(argv[1]) if len(argv) > 1 else 1
    m = asyncio.run(_run(updates, seed))
    return [
        (f"fuzz: updates sent (seed {seed})", float(m["updates"]), "updates"),
        ("fuzz: presses among them", float(m["presses"]), "presses"),
        ("fuzz: tracebacks", float(m["tracebacks"]), ""),
        ("fuzz: presses never answered", float(m["unanswered"]), ""),
        ("fuzz: presses answered twice", float(m["twice"]), ""),
        ("fuzz: stored changes by refused or invalid input (valid /new, /cancel, /leave may change)", float(m["wrong_changes"]), ""),
        ("fuzz: a press right after 25 commands in its group: answered in", m["press_after_25_commands_s"], "s"),
    ]


if __name__ == "__main__":
    for label, value, unit in figures(sys.argv[1:]):
        print(f"{label:<72} {value:>10.2f} {unit}")
