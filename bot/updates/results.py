"""The results' buttons: 🎞 the replay of the game and 🔁 a rematch (``bot/ending``)."""
from __future__ import annotations

import re

from bot.ending.replays import Replays
from bot.ending.rematch import Rematch
from bot.outgoing import keyboard
from bot.outgoing.actions import REMATCH, REPLAY
from bot.outgoing.keyboard import Answer
from bot.storage.store import from_base36
from bot.table.book import GameBook
from bot.table.people import Person
from bot.updates.door import Where
from bot.updates.routes import Press
from bot.words.refusals import Refused


class ResultsRoutes:
    COMMANDS = ()
    PRESSES = (Press(re.compile(rf"^[0-9a-z]{{1,12}}:-:(?:{re.escape(REPLAY())}|{re.escape(REMATCH())})\Z"), "on_press"),)

    def __init__(self, book: GameBook, replays: Replays, rematch: Rematch):
        self.book = book
        self.replays = replays
        self.rematch = rematch

    async def on_press(self, person: Person, where: Where, data: str) -> Answer:
        press = keyboard.parse(data)
        match = await self.book.load(from_base36(press.game))
        if match is None:
            raise Refused("no_game")
        if where.chat_id is not None and where.chat_id not in (match.game.chat_id, person.id):
            raise Refused("other_chat")
        if REPLAY.read(press.action) is not None:
            return await self.replays.press(match, person, where.chat_id, where.message_id)
        return await self.rematch.press(match, person)
