"""``python -m bench faults [rate] [seed] [--game G]``: every game of every kind (or one kind)
played to its end while a share of the bot's requests fail (429 with retry_after, 500,
time-outs, dropped connections).

Two people play each game by pressing the buttons of the message where their move is made (the
table, or their private message), as in a group. Counted: games finished, tracebacks in the log,
presses never answered (besides those whose answer the fault itself swallowed), presses answered
too late for Telegram to take the answer (about 15 s after the press), press -> first answer, and
time.
"""
from __future__ import annotations

import asyncio
import logging
import pathlib
import random
import sys
import tempfile
import time

from bench.measure import TracebackCounter, percentile
from engines import registry
from tests.bot.harness import BotRunner, Player, press_until_over, start_game
from tests.fakebotapi import FakeBotAPI

GAMES = registry.game_ids()


async def _play(fake, runner, kind: str, chat: int, rng: random.Random, presses: list[str]) -> bool:
    people = [Player(fake, runner, 100 + 10 * abs(chat % 97) + k, n) for k, n in enumerate(("Anna", "Boris"))]
    for p in people:
        await p.start_private()
    game = await start_game(fake, runner, chat, kind, people)
    return await press_until_over(fake, runner, game.id, rng, presses)


async def _run(rate: float, seed: int, games: tuple[str, ...]) -> dict:
    fake = FakeBotAPI()
    fake.start()
    counter = TracebackCounter()
    logging.getLogger().addHandler(counter)
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "faults.sqlite3").start()
    started = time.monotonic()
    try:
        for i, kind in enumerate(games):
            fake.add_group(-1005000 - i, f"{kind} under faults")
        fake.set_faults(rate, ("429", "500", "slow", "drop"), seed=seed)
        presses: list[str] = []
        finished = 0
        for i, kind in enumerate(games):
            finished += await _play(fake, runner, kind, -1005000 - i, random.Random(seed + i), presses)
        fake.set_faults(0)
        await runner.idle(timeout=120)
        swallowed = {f.request.params.get("callback_query_id") for f in fake.faults
                     if f.method == "answerCallbackQuery"}
        stats = {s.id: s for s in fake.callback_stats()}
        unanswered = sum(1 for q in presses if stats[q].times_answered == 0 and q not in swallowed)
        # Press -> the first answer the fake performed (a swallowed one counts: it was sent).
        waits = [stats[q].answer_times[0] - stats[q].pressed_at for q in presses if stats[q].answer_times]
        return {"finished": finished, "presses": len(presses), "unanswered": unanswered,
                "late": sum(1 for q in presses if stats[q].late), "waits": waits,
                "faults": len(fake.faults), "tracebacks": counter.tracebacks,
                "minutes": (time.monotonic() - started) / 60}
    finally:
        await runner.stop()
        fake.stop()
        logging.getLogger().removeHandler(counter)


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    argv = list(argv or [])
    games = GAMES
    if "--game" in argv:
        at = argv.index("--game")
        games = (argv[at + 1],)
        del argv[at:at + 2]
    rate = float(argv[0]) if argv else 0.2
    seed = int(argv[1]) if len(argv) > 1 else 1
    m = _run_sync(rate, seed, games)
    label = f"faults {rate:.0%}"
    waits = m["waits"]
    return [
        (f"{label}: games finished (of {len(games)}: {', '.join(games)})", float(m["finished"]), "games"),
        (f"{label}: requests that failed", float(m["faults"]), "requests"),
        (f"{label}: presses", float(m["presses"]), "presses"),
        (f"{label}: presses never answered (the fault not on the answer itself)", float(m["unanswered"]), ""),
        (f"{label}: presses answered too late for Telegram (after ~15 s)", float(m["late"]), ""),
        (f"{label}: press -> first answer p50", 1000 * percentile(waits, 0.5), "ms"),
        (f"{label}: press -> first answer p99", 1000 * percentile(waits, 0.99), "ms"),
        (f"{label}: press -> first answer, the slowest", 1000 * max(waits, default=float("nan")), "ms"),
        (f"{label}: tracebacks", float(m["tracebacks"]), ""),
        (f"{label}: time for the games", m["minutes"], "min"),
    ]


def _run_sync(rate: float, seed: int, games: tuple[str, ...]) -> dict:
    return asyncio.run(_run(rate, seed, games))


if __name__ == "__main__":
    for label, value, unit in figures(sys.argv[1:]):
        print(f"{label:<72} {value:>10.2f} {unit}")
