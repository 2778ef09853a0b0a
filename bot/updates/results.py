"""The results' buttons: 🎞 the replay of the game and 🔁 a rematch (``bot/ending``)."""
from __future__ import annotations

import re

from bot.ending.replays import Replays
from bot.ending.rematch import Rematch
from bot.outgoing import keyboard
from bot.outgoing.actions import REMATCH, REPLAY
from bot.outgoing.keyboard import Answer
from bot.table.people import Person
from bot.updates.context import Where
from bot.updates.door import Door
from bot.updates.routes import Press


class ResultsRoutes:
    COMMANDS = ()
    PRESSES = (Press(re.compile(rf"^[0-9a-z]{{1,12}}:-:(?:{re.escape(REPLAY())}|{re.escape(REMATCH())})\Z"), "on_press"),)

    def __init__(self, door: Door, replays: Replays, rematch: Rematch):
        self.door = door
        self.replays = replays
        self.rematch = rematch

    async def on_press(self, person: Person, where: Where, data: str) -> Answer:
        press = keyboard.parse(data)
        match = await self.door.pressed(person, where, press)
        if REPLAY.read(press.action) is not None:
            return await self.replays.press(match, person, where.chat_id, where.message_id)
        return await self.rematch.press(match, person)
