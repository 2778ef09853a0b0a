"""Run the real bot (python-telegram-bot Application) against the fake Bot API, and drive it.

``BotRunner`` starts the bot the way ``python -m bot`` does, minus the signal handling, so a
test can stop it and start a new one on the same database (a restart).
"""
from __future__ import annotations

import asyncio
import pathlib
import random

from bot.updates import router

from bot.app import Tablebot
from bot.ops.config import Config


class BotRunner:
    def __init__(self, fake, db_path: pathlib.Path, **config):
        self.fake = fake
        self.db_path = db_path
        self.config_overrides = config
        self.bot: Tablebot | None = None
        self.app = None

    # ---- the games, through the bot's public objects ----------------------------------------

    @property
    def store(self):
        return self.bot.store

    async def games(self) -> list:
        """Every game the bot has stored, oldest first (open ones as the bot holds them now)."""
        return [(await self.bot.book.load(g.id)).game for g in await self.store.all_games()]

    async def game(self, game_id: int):
        return (await self.bot.book.load(game_id)).game

    async def state(self, game_id: int):
        """The engine state of a game (as last committed)."""
        return (await self.bot.book.load(game_id)).state

    async def start(self) -> "BotRunner":
        settings = dict(token=self.fake.token, api_url=self.fake.base_url, file_url=self.fake.base_file_url,
                        db_path=str(self.db_path), group_writes_per_minute=10_000, group_fast_spacing=0.0,
                        poll_timeout=1, computer_pause=0.0, ping_quiet_seconds=0.0)
        settings.update(self.config_overrides)
        self.bot = Tablebot(Config(**settings))
        self.app = self.bot.application
        await self.app.initialize()
        await self.app.post_init(self.app)
        updates = router.UPDATES
        if self.bot.config.webhook:  # as python -m bot serves it (bot/__main__.py: _serve_webhook)
            await self.app.start()
            # The fake delivers to our port what Telegram would POST to the public URL.
            self.fake.webhook_proxy = f"http://127.0.0.1:{self.bot.web.public_port}"
            await self.bot.set_webhook(updates)
            return self
        await self.app.updater.start_polling(poll_interval=0.0, timeout=1, allowed_updates=updates)
        await self.app.start()
        return self

    async def stop(self) -> None:
        if self.app is None:
            return
        if self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.post_stop(self.app)
        await self.app.post_shutdown(self.app)
        await self.app.shutdown()
        self.app = None

    async def crash(self) -> None:
        """Stop like kill -9 would: whatever was not sent yet is never sent, nothing is drained.
        (Telegram is cut off first, so that no request arrives half-written.)"""
        self.fake.set_down(True)
        jobs = self.bot.background
        jobs.close()
        for task in jobs.running() + list(self.bot.messenger._tasks):
            task.cancel()
        if self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.bot.store.close()
        await self.app.shutdown()
        self.app = None
        self.fake.set_down(False)

    def _quiet(self) -> bool:
        app = self.app
        return (self.fake.pending_updates() == 0 and app.update_queue.empty()
                and app.update_processor.current_concurrent_updates == 0
                and not self.bot.background.busy and not self.bot.messenger.busy)

    async def idle(self, timeout: float = 20.0) -> None:
        """Wait until every update sent so far was handled and the bot's background jobs ended."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        stable = 0
        while stable < 3:
            if loop.time() > deadline:
                raise AssertionError("the bot did not become idle")
            await asyncio.sleep(0.01)
            stable = stable + 1 if self._quiet() else 0
            if self.bot.background.busy:
                await self.bot.background.drain()
            if self.bot.messenger.busy:
                await self.bot.messenger.drain()


def buttons(message) -> list[dict]:
    """Every inline button of a fake message as dicts with text and callback_data or url."""
    markup = message.reply_markup or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


def button_data(message, *, text: str | None = None, startswith: str | None = None,
                endswith: str | None = None) -> str:
    for b in buttons(message):
        data = b.get("callback_data")
        if data is None:
            continue
        if text is not None and text not in b["text"]:
            continue
        if startswith is not None and not b["text"].startswith(startswith):
            continue
        if endswith is not None and not data.endswith(endswith):
            continue
        return data
    raise AssertionError(f"no such button in {[b['text'] for b in buttons(message)]}")


class Player:
    """A person in the fake world who presses buttons and writes commands."""

    def __init__(self, fake, runner: BotRunner, user_id: int, name: str, *, lang: str = "en",
                 opened_private: bool = True):
        self.fake = fake
        self.runner = runner
        self.id = user_id
        self.name = name
        self.lang = lang
        fake.add_user(user_id, name, language_code=lang, opened_private=opened_private)

    async def say(self, chat_id: int, text: str, **kw) -> None:
        self.fake.user_sends(self.id, chat_id, text, **kw)
        await self.runner.idle()

    async def press(self, chat_id: int, message_id: int, data: str) -> dict:
        qid = self.fake.user_presses(self.id, chat_id, message_id, data)
        await self.runner.idle()
        answer = self.fake.callback_answer(qid)
        assert answer is not None, "every press must be answered"
        return answer

    async def start_private(self, payload: str | None = None) -> None:
        self.fake.user_starts_private(self.id, payload)
        await self.runner.idle()


async def press_until_over(fake, runner, game_id: int, rng, presses: list[str] | None = None,
                           most: int = 3000) -> bool:
    """Whoever's turn it is presses one of the buttons of the message where their move is made
    (the table, or their private message in the games with a hand or a rack), chosen by ``rng``,
    until the game ends: whether it finished. Each press's query id goes into ``presses``."""
    match = await runner.bot.book.load(game_id)
    eng, in_private = match.eng, match.ui.moves_in_private
    for _ in range(most):
        game = await runner.game(game_id)
        if game.status != "running":
            return game.status == "finished"
        seat = game.seats[eng.current_player(await runner.state(game_id))]
        where, message_id = (seat.user_id, seat.dm_msg) if in_private else (game.chat_id, game.table_msg)
        if game.inline_msg is not None and not in_private:  # a game played via inline mode: its message
            where, message_id = None, game.inline_msg
        if where is None:
            message = fake.inline_message(message_id)
        else:
            message = fake.message(where, message_id) if message_id is not None else None
        choices = [b["callback_data"] for b in (buttons(message) if message is not None else [])
                   if "callback_data" in b and "◀" not in b["text"] and "?" not in b["callback_data"]
                   and "!" not in b["callback_data"]]
        if seat.is_computer or seat.autoplayed or not choices:
            await runner.idle(timeout=120)
            await asyncio.sleep(0.2)
            continue
        if where is None:
            qid = fake.user_presses_inline(seat.user_id, message_id, rng.choice(choices))
        else:
            qid = fake.user_presses(seat.user_id, where, message_id, rng.choice(choices))
        if presses is not None:
            presses.append(qid)
        await runner.idle(timeout=120)
    return False


async def start_game(fake, runner, chat_id: int, kind: str, people: list[Player]):
    """``/new <kind>`` by the first person in ``chat_id``, the others Join, the first Start (the
    buttons found by their actions: a lobby in any language): the running game, once the bot is idle."""
    await people[0].say(chat_id, f"/new {kind}")
    lobby = fake.last_bot_message(chat_id)
    for p in people[1:]:
        await p.press(chat_id, lobby.message_id, button_data(lobby, endswith="!join"))
    await people[0].press(chat_id, lobby.message_id, button_data(lobby, endswith="!start"))
    await runner.idle(timeout=60)
    return next(g for g in await runner.games() if g.chat_id == chat_id and g.status == "running")


async def play_against_a_computer(fake, runner, person: Player, kind: str, seed: int):
    """``/new <kind> bots=1 level=easy`` in the person's private chat, started and played to its
    end by random presses: the game, once everything after it (record, results) is done."""
    await person.say(person.id, f"/new {kind} bots=1 level=easy")
    lobby = fake.last_bot_message(person.id)
    if any("Start" in b["text"] for b in buttons(lobby)):
        await person.press(person.id, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in await runner.games() if g.chat_id == person.id and g.kind == kind and g.is_open)
    assert await press_until_over(fake, runner, game.id, random.Random(seed))
    await runner.idle(timeout=60)
    return await runner.game(game.id)
