"""Before every update (python-telegram-bot's handler group -1): who sent it and the language to
answer in go on the context, so that no callback repeats it; a member who floods a group with
commands is slowed down (``bot/updates/floods.py``)."""
from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.logs import about
from bot.outgoing.messenger import Messenger
from bot.outgoing.pacing import GAME
from bot.table.people import People
from bot.updates.context import TableContext
from bot.updates.floods import CommandGuard, Verdict
from bot.updates.routes import reply
from bot.words.i18n import t
from bot.words.names import in_text


class Prepare:
    def __init__(self, people: People, guard: CommandGuard, messenger: Messenger):
        self.people = people
        self.guard = guard
        self.messenger = messenger

    async def __call__(self, update: object, context: TableContext) -> None:
        if not isinstance(update, Update):
            return
        if update.effective_chat is not None:
            about(update.effective_chat.id)  # this update's log records name its chat
        user = update.effective_user
        message = update.message
        if user is None or (message is not None and message.sender_chat is not None):
            return  # a channel post, or an anonymous admin or a channel writing in a group
        context.person = await self.people.person(user)
        chat = update.effective_chat
        context.lang = await self.people.lang_in(chat, context.person) if chat else context.person.lang
        if message is not None and chat is not None and (message.text or "").startswith("/"):
            verdict = self.guard.check(chat.id, user.id, message.text)
            if verdict is not Verdict.FIRST:  # more than one command in a short while: in turn
                context.reply_priority = GAME  # with the table's edits, not before them
            if verdict is Verdict.SLOW_DOWN:
                await reply(self.messenger, update, context, t(
                    context.lang, "⏳ {name}, that is a lot of commands at once: I will listen to you again in "
                                  "half a minute.", name=in_text(context.person.name)))
            if verdict not in (Verdict.FIRST, Verdict.OK):
                raise ApplicationHandlerStop  # the command is not taken (no other handler runs)
