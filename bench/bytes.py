"""``python -m bench bytes [games]``: picture bytes the bot uploads for a 2-player Ingenious game
played by buttons, in the group and in private.

The players behave the same on any version of the bot: the player whose private message has
move buttons presses one of them (never Back) until their move is made, and so on to the end
of the game. Only the fake Bot API, ``BotRunner`` and ``Player`` are used, so the same file can
measure an older checkout: ``PYTHONPATH=<old checkout> python bench/bytes.py``.
"""
from __future__ import annotations

import asyncio
import pathlib
import random
import sys
import tempfile

from tests.bot.harness import BotRunner, Player, button_data, buttons
from tests.fakebotapi import FakeBotAPI
from tests.fakebotapi.spec import Upload

GROUP = -1006000


def _pictures(value) -> list[bytes]:
    """The files in a request's parameters. tests/bot/test_genial_e2e.py walks them the same
    way; this copy stays so that the file can measure an older checkout, whose tests lack it."""
    if isinstance(value, Upload):
        return [value.content]
    if isinstance(value, (bytes, bytearray)):
        return [bytes(value)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _pictures(v)]
    if isinstance(value, list):
        return [p for v in value for p in _pictures(v)]
    return []


def _uploaded(fake, chats) -> int:
    return sum(len(p) for r in fake.requests if str(r.params.get("chat_id")) in {str(c) for c in chats}
               for p in _pictures(r.params))


async def one_game(seed: int) -> dict:
    fake = FakeBotAPI()
    fake.start()
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "bytes.sqlite3").start()
    rng = random.Random(seed)
    try:
        fake.add_group(GROUP, "Bytes")
        people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
        for p in people:
            await p.start_private()
        await people[0].say(GROUP, "/new genial")
        lobby = fake.last_bot_message(GROUP)
        await people[1].press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
        await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
        presses = 0
        for _ in range(3000):
            if any("results" in (m.text or "") for m in fake.messages(GROUP)):  # (the group speaks English)
                break
            moved = False
            for p in people:
                dm = next((m for m in reversed(fake.messages(p.id)) if m.from_bot and m.photo is not None), None)
                datas = [b["callback_data"] for b in buttons(dm) if "callback_data" in b
                         and "◀" not in b["text"] and "?" not in b["callback_data"]] if dm else []
                if datas:
                    await p.press(p.id, dm.message_id, rng.choice(datas))
                    presses += 1
                    moved = True
                    break
            if not moved:
                await runner.idle()
        return {"group": _uploaded(fake, [GROUP]), "private": _uploaded(fake, [1, 2]), "presses": presses}
    finally:
        await runner.stop()
        fake.stop()


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    games = int(argv[0]) if argv else 2
    results = [asyncio.run(one_game(seed)) for seed in range(games)]
    n = len(results)
    return [
        ("genial 2 players: picture bytes uploaded to the group per game", sum(r["group"] for r in results) / n / 1024, "KiB"),
        ("genial 2 players: picture bytes uploaded in private per game", sum(r["private"] for r in results) / n / 1024, "KiB"),
        ("genial 2 players: all picture bytes per game", sum(r["group"] + r["private"] for r in results) / n / 1024, "KiB"),
        ("genial 2 players: presses per game", sum(r["presses"] for r in results) / n, "presses"),
    ]


if __name__ == "__main__":
    for label, value, unit in figures(sys.argv[1:]):
        print(f"{label:<64} {value:>10.1f} {unit}")
