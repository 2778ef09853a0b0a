"""Telling a person it is their turn, so that their phone rings.

Telegram does not notify on edits, and the table is edited in place: so when the turn passes
to a person, they get a new message in their private chat with the bot, naming the game and
the group and linking back to the table. Someone who never opened the private chat gets a
short mention in the group instead. Each ping replaces the previous one (deleted), so chats
stay clean. ``/notify off`` switches them off; games whose moves are made in private (genial,
trio) need none: the player's own message moves down there. Nor does a player who pressed a
button of the game in the last ``quiet_seconds``: they are looking at it. The turn timer's
reminder (half the time gone) is a ping too. Pings hear of a game's changes (``bot/table/changes.py``).
"""
from __future__ import annotations

import math
import time

from engines import registry
from bot.outgoing import keyboard
from bot.outgoing.actions import AWAY
from bot.table.background import Background
from bot.table.book import Match
from bot.table.changes import Change, Closed, Due, Finished, Looked, Moved
from bot.words.format import message_link
from bot.words.i18n import t
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.words.names import clean, in_text
from bot.outgoing.pacing import PERSON, TIDY
from bot.table.people import People
from bot.storage.store import GameStore, Status
from bot.games import game_sign
from bot.words.texts import game_name


class Pings:
    def __init__(self, store: GameStore, messenger: Messenger, people: People, background: Background, *,
                 quiet_seconds: float = 15.0):
        self.store = store
        self.messenger = messenger
        self.people = people
        self.background = background
        self.quiet_seconds = quiet_seconds

    def hear(self, change: Change) -> None:
        """Ping whom a change of a game concerns (subscribed to ``bot.table.changes.Changes``)."""
        match = change.match
        if isinstance(change, Looked):
            match.scratch.looked[change.user_id] = time.monotonic()
        elif isinstance(change, Moved):
            if change.turn_passed and match.game.status == Status.RUNNING:
                self._turn_passed(match, change.after)
        elif isinstance(change, Due):
            self.background.schedule(("remind", match.id), lambda: self._remind(match, change.seat, change.left))
        elif isinstance(change, (Finished, Closed)):
            self._game_over(match)

    def _looking(self, match: Match, user_id: int) -> bool:
        last = match.scratch.looked.get(user_id)
        return last is not None and time.monotonic() - last < self.quiet_seconds

    def _turn_passed(self, match: Match, seat: int) -> None:
        """The turn passed to ``seat``: ping its person in the background, unless the turn has
        passed again by the time the ping could go out."""
        entry = match.game.seats[seat]
        if entry.is_computer or entry.autoplayed or match.ui.moves_in_private:
            return
        if self._looking(match, entry.user_id):
            return
        turn = match.turn

        def still() -> bool:
            return not match.gone and match.current == seat and match.turn == turn
        self.background.schedule(("ping", match.id), lambda: self._ping(match, seat, still))

    async def _ping(self, match: Match, seat: int, still) -> None:
        """In private where the person opened the chat with the bot (no group's budget is spent
        or waited for); else a mention in the group, a job of its own, so that a private ping
        never waits behind the group's pace."""
        game = match.game
        user_id = game.seats[seat].user_id
        row = await self.store.user(user_id)
        if row is not None and not row.notify or not still():
            return
        if row is not None and row.private_ok and await self._ping_in_private(match, user_id, row.ping_msg):
            self._clear_group_ping(match)
            return
        if not game.inline:  # (the bot cannot write in the chat of a game played via inline mode)
            self.background.schedule(("mention", game.id), lambda: self._mention(match, seat, still))

    async def _mention(self, match: Match, seat: int, still) -> None:
        """The ping as a mention in the group: once the table's edit that shows the turn is out
        (the group sees the turn, then hears of it), before the table's next edits (a person is
        waiting), and not at all once the turn has passed; the previous mention goes after it."""
        await match.stages.table.caught_up()
        game = match.game
        lang = await self.people.chat_lang(game.chat_id)
        text = t(lang, "🔔 {name}, your turn.", name=match.ctx(lang).mention(seat))
        sent = await self.messenger.send_text(game.chat_id, text, thread_id=game.thread_id, priority=PERSON,
                                              still=still)
        if sent.message is not None:
            self._clear_group_ping(match)
            match.scratch.group_ping = sent.message.message_id

    async def _ping_in_private(self, match: Match, user_id: int, previous: int | None) -> bool:
        game = match.game
        lang = await self.people.user_lang(user_id)
        info = registry.info(game.kind)
        chat = await self.store.chat(game.chat_id) if game.chat_id < 0 else None
        if chat is not None and chat.title:
            text = t(lang, "{sign} <b>{game}</b>: your turn in {chat}.", sign=game_sign(info.id),
                     game=game_name(info, lang), chat=in_text(chat.title))
        else:  # a game played here, in the private chat (or a group with no title known)
            text = t(lang, "{sign} <b>{game}</b>: your turn!", sign=game_sign(info.id), game=game_name(info, lang))
        link = message_link(game.chat_id, game.table_msg)
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "➡️ To the table"), url=link)]]) if link else None
        if previous is not None:  # (a person waits: first in the bot's budget, both)
            await self.messenger.delete(user_id, previous, priority=PERSON)
        sent = await self.messenger.send_text(user_id, text, markup, priority=PERSON)
        await self.store.set_ping(user_id, sent.message.message_id if sent.message is not None else None)
        return sent.message is not None

    async def _remind(self, match: Match, seat: int, left: float) -> None:
        """Half the time for a move is gone: tell the player (in private where that game's moves
        are made, else in the group, with a button for the host to let a computer play)."""
        game = match.game
        if match.gone or match.current != seat:
            return
        user_id = game.seats[seat].user_id
        minutes_left = max(1, math.ceil(left / 60))
        info = registry.info(game.kind)
        if match.ui.moves_in_private or game.inline:
            lang = await self.people.user_lang(user_id)
            text = t(lang, "⏰ Your move in {game}: {n} min left, then I will move for you.",
                     game=game_name(info, lang), n=minutes_left)
            sent = await self.messenger.send_text(user_id, text)
            if sent.message is not None or game.inline:
                return
        lang = await self.people.chat_lang(game.chat_id)
        text = t(lang, "⏰ {name}, your move: {n} min left, then I will move for you.",
                 name=match.ctx(lang).mention(seat), n=minutes_left)
        # The host or an admin may give the seat to a computer for the rest of the game.
        away = keyboard.markup(game.short_id, None, [[Button(
            t(lang, "🤖 Let a computer play for {name}", name=clean(game.seats[seat].name)), AWAY(seat),
            turn_free=True)]])
        turn = match.turn
        await self.messenger.send_text(game.chat_id, text, away, thread_id=game.thread_id, priority=PERSON,
                                       still=lambda: not match.gone and match.turn == turn)

    def _clear_group_ping(self, match: Match) -> None:
        """The last mention in the group goes (clean-up: after everything else the group waits for)."""
        previous, match.scratch.group_ping = match.scratch.group_ping, None
        if previous is not None:
            chat_id = match.game.chat_id
            self.background.schedule(("unmention", match.id, previous),
                                     lambda: self.messenger.delete(chat_id, previous, priority=TIDY))

    def _game_over(self, match: Match) -> None:
        """The game ended or closed: no more pings; its last group ping goes. (Each person's own
        result in private is the end of a game's: ``bot/ending/private.py``.)"""
        self._clear_group_ping(match)
