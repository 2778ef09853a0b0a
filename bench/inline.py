"""``python -m bench inline [games]``: a game played via inline mode against the same game in a
group: the Bot API writes each move costs (its table's edit; inline, the picture's trip through
the host's private chat too) and the time from a press to the edit that shows it.

Whole games of Totally Genial (lucky: every move on the shared message), the presses
made one at a time, each waited for; group pacing off (these figures measure the bot, not
Telegram's 20 writes a minute), against the fake Bot API.
"""
from __future__ import annotations

import asyncio
import pathlib
import random
import tempfile

from bench.measure import percentile
from tests.bot.harness import BotRunner, Player, button_data, buttons
from tests.fakebotapi import FakeBotAPI

WRITES = ("sendMessage", "sendPhoto", "editMessageText", "editMessageMedia", "editMessageCaption",
          "editMessageReplyMarkup", "deleteMessage")


def _moves(message) -> list[str]:
    return [b["callback_data"] for b in buttons(message) if ":-:" not in b.get("callback_data", ":-:")]


async def _game(fake, runner, inline: bool, n: int, rng: random.Random) -> tuple[list[int], list[float]]:
    """One whole game: per move, its writes and the seconds from the press to its table's edit."""
    anna, boris = Player(fake, runner, 10 * n + 1, "Anna"), Player(fake, runner, 10 * n + 2, "Boris")
    await anna.start_private()
    if inline:
        chat = fake.add_private_pair(anna.id, boris.id)
        qid = fake.user_queries_inline(anna.id, chat, "lucky")
        await runner.idle()
        iid = fake.user_chooses_result(anna.id, qid, "lucky").inline_message_id
        for p in (boris, anna):
            message = fake.inline_message(iid)
            fake.user_presses_inline(p.id, iid, button_data(message, text="Join" if p is boris else "Start"))
            await runner.idle()
        show = lambda: fake.inline_message(iid)  # noqa: E731
        press = lambda who, data: fake.user_presses_inline(who, iid, data)  # noqa: E731
    else:
        chat = -(500_000 + n)
        fake.add_group(chat, f"bench {n}")
        await anna.say(chat, "/new lucky")
        lobby = fake.last_bot_message(chat)
        await boris.press(chat, lobby.message_id, button_data(lobby, text="Join"))
        await anna.press(chat, lobby.message_id, button_data(lobby, text="Start"))
        game = next(g for g in await runner.games() if g.chat_id == chat)
        show = lambda: fake.message(chat, game.table_msg)  # noqa: E731
        press = lambda who, data: fake.user_presses(who, chat, game.table_msg, data)  # noqa: E731
    await runner.idle()
    game_id = (await runner.bot.book.on_inline(iid)).id if inline else game.id
    writes, seconds = [], []
    loop = asyncio.get_running_loop()
    for _ in range(400):
        table = show()
        choices = _moves(table)
        match = await runner.bot.book.load(game_id)
        if not choices or match.current is None:
            break
        before, edits = len(fake.calls()), table.edits
        started = loop.time()
        press(match.game.seats[match.current].user_id, rng.choice(choices))
        await fake.wait_for(lambda: show().edits > edits, timeout=30)
        seconds.append(loop.time() - started)
        await runner.idle()
        writes.append(sum(1 for c in fake.calls()[before:] if c.method in WRITES))
    return writes, seconds


async def _measure(games: int) -> list[tuple[str, float, str]]:
    fake = FakeBotAPI()
    fake.start()
    fake.set_inline_mode(True)
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "bench.sqlite3").start()
    rows = []
    try:
        for inline in (False, True):
            writes, seconds = [], []
            for n in range(games):
                w, s = await _game(fake, runner, inline, n + (100 if inline else 0), random.Random(n))
                writes += w[:-1]  # the last move's writes are the end's too (results, private results)
                seconds += s
            where = "inline" if inline else "group"
            rows.append((f"lucky {where}: Bot API writes per move (mean)", sum(writes) / max(1, len(writes)), "writes"))
            rows.append((f"lucky {where}: press -> table edited p50", percentile(seconds, 0.5) * 1000, "ms"))
            rows.append((f"lucky {where}: press -> table edited p99", percentile(seconds, 0.99) * 1000, "ms"))
    finally:
        await runner.stop()
        fake.stop()
    return rows


def figures(argv: list[str] | None = None):
    games = int(argv[0]) if argv else 3
    return asyncio.run(_measure(games))
