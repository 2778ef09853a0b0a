"""End-to-end latency of a button press through the real client and the fake Bot API.

The clock starts when the fake server enqueues a press (the update is ready for getUpdates)
and stops when the bot's answerCallbackQuery for it arrives; a second figure waits for the
table picture's edit. Group pacing is switched off here: these figures measure the bot, not
Telegram's 20-writes-a-minute limit.
"""
from __future__ import annotations

import asyncio
import pathlib
import random
import tempfile
import time

from bench.measure import percentile
from engines import lucky
from tests.bot.harness import BotRunner, Player, button_data
from tests.fakebotapi import FakeBotAPI


def _ms(seconds: list[float], q: float) -> float:
    return percentile(seconds, q) * 1000


async def _measure(games: int, rounds: int) -> dict[str, float]:
    fake = FakeBotAPI()
    fake.start()
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "bench.sqlite3").start()
    try:
        chats = [-(10_000 + i) for i in range(games)]
        people = {}
        for i, chat in enumerate(chats):
            fake.add_group(chat, f"bench {i}")
            people[chat] = (Player(fake, runner, 2 * i + 1, f"A{i}"), Player(fake, runner, 2 * i + 2, f"B{i}"))
        for chat in chats:
            fake.user_sends(people[chat][0].id, chat, "/new lucky")
        await runner.idle(timeout=300)
        lobbies = {chat: fake.last_bot_message(chat) for chat in chats}
        for chat in chats:
            fake.user_presses(people[chat][1].id, chat, lobbies[chat].message_id, button_data(lobbies[chat], text="Join"))
        await runner.idle(timeout=300)
        for chat in chats:
            fake.user_presses(people[chat][0].id, chat, lobbies[chat].message_id, button_data(lobbies[chat], text="Start"))
        await runner.idle(timeout=300)
        by_chat = {g.chat_id: g for g in await runner.games()}
        answer_lat: list[float] = []
        edit_lat: list[float] = []
        chooser = random.Random(1)
        actions = 0
        started = time.monotonic()
        for _ in range(rounds):
            pressed = {}
            for chat in chats:
                game = by_chat[chat]
                if game.status != "running":
                    continue
                state = runner.bot.book.cached(game.id).state
                seat = lucky.current_player(state)
                options = [lucky.encode_action(a) for a in lucky.legal_actions(state, seat)]
                code = chooser.choice(options)
                user = game.seats[seat].user_id
                edits_before = len(fake.calls("editMessageMedia", chat_id=chat))
                qid = fake.user_presses(user, chat, game.table_msg, f"{game.short_id}:{lucky.turn(state)}:{code}")
                pressed[qid] = (time.monotonic(), chat, edits_before)
            await runner.idle(timeout=300)
            answers = {r.params.get("callback_query_id"): r.time for r in fake.calls("answerCallbackQuery")}
            for qid, (t0, chat, edits_before) in pressed.items():
                answer_lat.append(answers[qid] - t0)
                edits = fake.calls("editMessageMedia", chat_id=chat)
                if len(edits) > edits_before:
                    edit_lat.append(edits[edits_before].time - t0)
            actions += len(pressed)
        elapsed = time.monotonic() - started
        return {"p50": _ms(answer_lat, 0.5), "p99": _ms(answer_lat, 0.99),
                "edit_p50": _ms(edit_lat, 0.5) if edit_lat else 0.0,
                "edit_p99": _ms(edit_lat, 0.99) if edit_lat else 0.0,
                "aps": actions / elapsed}
    finally:
        await runner.stop()
        fake.stop()


def figures() -> list[tuple[str, float, str]]:
    rows = []
    for games, rounds in ((1, 40), (200, 4)):
        m = asyncio.run(_measure(games, rounds))
        rows += [
            (f"press → answer, {games} game(s), p50", m["p50"], "ms"),
            (f"press → answer, {games} game(s), p99", m["p99"], "ms"),
            (f"press → table edited, {games} game(s), p50", m["edit_p50"], "ms"),
            (f"press → table edited, {games} game(s), p99", m["edit_p99"], "ms"),
            (f"actions per second, {games} game(s)", m["aps"], "/s"),
        ]
    return rows
