"""Telling a person it is their turn, so that their phone rings.

Telegram does not notify on edits, and the table is edited in place: so when the turn passes
to a person, they get a new message in their private chat with the bot, naming the game and
the group and linking back to the table. Someone who never opened the private chat gets a
short mention in the group instead. Each ping replaces the previous one (deleted), so chats
stay clean. ``/notify off`` switches them off; games whose moves are made in private (genial,
trio) need none: the player's own message moves down there. Nor does a player who pressed a
button of the game in the last ``quiet_seconds``: they are looking at it.
"""
from __future__ import annotations

import time

from engines import registry
from bot import keyboard
from bot.games.base import isolate
from bot.i18n import t
from bot.keyboard import MENU, Button
from bot.messenger import Messenger
from bot.people import People
from bot.store import Game, GameStore, Seat, Status
from bot.tables import Tables
from bot.texts import game_name


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a message of a supergroup (plain groups have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


class Pings:
    def __init__(self, store: GameStore, messenger: Messenger, people: People, tables: Tables, *,
                 quiet_seconds: float = 15.0):
        self.store = store
        self.messenger = messenger
        self.people = people
        self.tables = tables
        self.quiet_seconds = quiet_seconds
        self._in_group: dict[int, int] = {}  # game id -> the group ping to delete next time
        self._pressed: dict[tuple[int, int], float] = {}  # (game id, user id) -> last press

    def pressed(self, game: Game, user_id: int) -> None:
        """A player pressed a button of this game (any step of a move)."""
        self._pressed[(game.id, user_id)] = time.monotonic()

    def _looking(self, game: Game, user_id: int) -> bool:
        last = self._pressed.get((game.id, user_id))
        return last is not None and time.monotonic() - last < self.quiet_seconds

    def turn_passed(self, game: Game, seat: int) -> None:
        """The turn passed to ``seat``: ping its person in the background (after the table)."""
        entry = game.seats[seat]
        if entry.is_computer or entry.autoplayed or self.tables.ui(game).moves_in_private:
            return
        if self._looking(game, entry.user_id):
            return

        async def job() -> None:
            await self.tables.jobs.settled(("table", game.id))  # link to the table as it is now
            await self._ping(game, seat)
        self.tables.jobs.schedule(("ping", game.id), job)

    async def _ping(self, game: Game, seat: int) -> None:
        user_id = game.seats[seat].user_id
        row = await self.store.user(user_id)
        if row is not None and not row.notify:
            return
        await self._clear_group_ping(game)
        if row is not None and row.private_ok and await self._ping_in_private(game, user_id, row.ping_msg):
            return
        lang = await self.people.chat_lang(game.chat_id)
        text = t(lang, "🔔 {name}, your turn.", name=self.tables.ctx(game, lang).mention(seat))
        # After the table's own edits: a group's writes are few (about 20 a minute).
        sent = await self.messenger.send_text(game.chat_id, text, thread_id=game.thread_id, urgent=False)
        if sent.message is not None:
            self._in_group[game.id] = sent.message.message_id

    async def _ping_in_private(self, game: Game, user_id: int, previous: int | None) -> bool:
        lang = await self.people.user_lang(user_id)
        chat = await self.store.chat(game.chat_id)
        title = isolate(chat.title) if chat and chat.title else "—"
        text = t(lang, "🔔 Your turn in {game} ({chat}).", game=game_name(registry.info(game.kind), lang),
                 chat=title)
        link = message_link(game.chat_id, game.table_msg)
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "➡️ To the table"), url=link)]]) if link else None
        if previous is not None:
            await self.messenger.delete(user_id, previous)
        sent = await self.messenger.send_text(user_id, text, markup)
        await self.store.set_ping(user_id, sent.message.message_id if sent.message is not None else None)
        return sent.message is not None

    async def _clear_group_ping(self, game: Game) -> None:
        previous = self._in_group.pop(game.id, None)
        if previous is not None:
            await self.messenger.delete(game.chat_id, previous, urgent=False)

    def game_over(self, game: Game) -> None:
        """The game ended or closed: no more pings; its last group ping goes. Each person gets
        their own result in private where the game has no private message to end with it (lucky:
        genial, trio and cones show it there already), unless the game was played in private."""
        state = self.tables.book.state(game.id)  # taken now: a finished game's state is let go
        for seat in game.seats:
            self._pressed.pop((game.id, seat.user_id), None)

        async def job() -> None:
            await self._clear_group_ping(game)
            if state is not None and game.status == Status.FINISHED and game.chat_id < 0:
                await self.tables.jobs.settled(("results", game.id))  # to link to them
                for seat in game.seats:
                    await self._private_result(game, state, seat)
        self.tables.jobs.schedule(("ping", game.id), job)

    async def _private_result(self, game: Game, state, seat: Seat) -> None:
        if seat.kind != "human":
            return
        row = await self.store.user(seat.user_id)
        if row is None or not row.private_ok:
            return
        lang = await self.people.user_lang(seat.user_id)
        ui, ctx = self.tables.ui(game), self.tables.ctx(game, lang, state)
        text = ui.private_result(ctx, seat.seat)
        if text is None or ui.private(ctx, seat.seat) is not None:
            return
        chat = await self.store.chat(game.chat_id)
        if chat and chat.title:
            text += "\n" + t(lang, "Played in {chat}.", chat=isolate(chat.title))
        link = message_link(game.chat_id, game.results_msg or game.table_msg)
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "➡️ To the results"), url=link)]]) if link else None
        await self.messenger.send_text(seat.user_id, text, markup)
