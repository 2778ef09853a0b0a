"""The owner's commands (``TABLEBOT_OWNER_ID``, in the private chat): /botstats and
/broadcast_maintenance with its confirmation button. For anyone else they are unknown commands.
What they show and send is ``bot/ops/owner.py``'s."""
from __future__ import annotations

import re

from telegram import Update

from bot.ops.owner import BROADCAST, Owner
from bot.outgoing import keyboard
from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.table.people import Person
from bot.updates.context import TableContext
from bot.updates.context import Where
from bot.updates.routes import Command, Press, reply, unknown_command
from bot.words.refusals import Refused


class OwnerRoutes:
    COMMANDS = (
        Command("botstats", "on_botstats", 200, menus={"owner": "How the bot is doing (owner)"}),
        Command("broadcast_maintenance", "on_broadcast", 210,
                menus={"owner": "Warn the groups with a game before a restart (owner)"}),
    )
    PRESSES = (Press(keyboard.menu_pattern(re.escape(BROADCAST) + r"\.[0-9a-z]{1,12}"), "on_confirm"),)

    def __init__(self, owner: Owner, messenger: Messenger, *, bot_username: str):
        self.owner = owner
        self.messenger = messenger
        self.bot_username = bot_username

    async def on_botstats(self, update: Update, context: TableContext) -> None:
        """/botstats: the owner's figures."""
        if not self.owner.may(context.person, update.effective_chat.id):
            await reply(self.messenger, update, context, unknown_command(update, context, self.bot_username))
            return
        await reply(self.messenger, update, context, await self.owner.figures(context.lang))

    async def on_broadcast(self, update: Update, context: TableContext) -> None:
        """/broadcast_maintenance: the owner is asked to confirm the notice to the groups with a game."""
        if not self.owner.may(context.person, update.effective_chat.id):
            await reply(self.messenger, update, context, unknown_command(update, context, self.bot_username))
            return
        await reply(self.messenger, update, context, *await self.owner.ask_broadcast(context.lang))

    async def on_confirm(self, person: Person, where: Where, data: str) -> Answer:
        """📣 Send, under the question."""
        if where.chat_id is None:
            raise Refused("bad_button")
        return Answer(await self.owner.broadcast(person, where.chat_id, where.message_id, keyboard.parse(data).action))
