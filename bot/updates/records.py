"""The records' commands: /stats, /top, /achievements, /history, /forgetme, /forgetgroup and the
buttons that confirm forgetting. What they show and forget is ``bot/records``'."""
from __future__ import annotations

import re

from telegram import Update
from telegram.constants import ChatType

from bot.words.format import fits_caption
from bot.outgoing import keyboard
from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.records.stats import FORGET_GROUP, FORGET_ME, Stats
from bot.table.people import Person
from bot.updates.context import TableContext, thread_of
from bot.updates.context import Where
from bot.updates.routes import Command, Press, reply
from bot.words.i18n import t
from bot.words.names import person_name
from bot.words.refusals import Refused


class RecordRoutes:
    COMMANDS = (
        Command("stats", "on_stats", 60,
                menus={"private": "Your games and ratings", "group": "Games played and ratings"},
                help={"group": "/stats — games and ratings here (as a reply to someone: theirs)",
                      "private": "/stats — your games and ratings"}),
        Command("top", "on_top", 70,
                menus={"private": "The best players of a game", "group": "The best players of a game"},
                help={"group": "/top <i>game</i> — the best players of the season (<i>all</i>: of all time)",
                      "private": "/top <i>game</i> — the best players everywhere this season (<i>all</i>: of all "
                                 "time)"}),
        Command("achievements", "on_achievements", 72,
                menus={"private": "Your achievements", "group": "Achievements"},
                help={"group": "/achievements — your achievements (as a reply to someone: theirs)",
                      "private": "/achievements — your achievements, and how rare each is"}),
        Command("history", "on_history", 75, menus={"group": "The last games here"},
                help={"group": "/history — the last games"}),
        Command("forgetme", "on_forget_me", 95, menus={"private": "Delete your games and ratings"},
                help={"private": "/forgetme — delete your games and ratings from my records"}),
        Command("forgetgroup", "on_forget_group", 96,
                menus={"admins": "Delete this group's games and statistics (admin)"},
                help={"group": "/forgetgroup — delete this group's games and ratings from my records (admins)"}),
    )
    PRESSES = (Press(keyboard.menu_pattern(f"{re.escape(FORGET_ME)}|{re.escape(FORGET_GROUP)}"), "on_confirm"),)

    def __init__(self, stats: Stats, messenger: Messenger):
        self.stats = stats
        self.messenger = messenger

    async def on_stats(self, update: Update, context: TableContext) -> None:
        """/stats: in private the person's own record; in a group the group's, or, as a reply to
        someone's message, theirs. A person's record comes with the picture of their rating over
        time when they have one: as its caption if the text fits, else the text, then the picture."""
        chat = update.effective_chat
        replied = update.message.reply_to_message if update.message else None
        who = replied.from_user if replied is not None and not replied.sender_chat else None
        if chat.type == ChatType.PRIVATE:
            user_id, name = context.person.id, context.person.name
        elif who is not None and not who.is_bot:
            user_id = who.id
            name = person_name(who.first_name, who.last_name, who.username) or t(context.lang, "a player")
        else:
            await reply(self.messenger, update, context, await self.stats.group(chat.id, chat.title, context.lang))
            return
        text = await self.stats.person(user_id, name, context.lang)
        picture = await self.stats.chart(user_id, name, context.lang)
        if picture is None:
            await reply(self.messenger, update, context, text)
            return
        if not fits_caption(text):
            await reply(self.messenger, update, context, text)
            text = self.stats.chart_caption(name, context.lang)
        self.messenger.post(chat.id, text, thread_id=thread_of(update), priority=context.reply_priority,
                            picture=picture)

    async def on_achievements(self, update: Update, context: TableContext) -> None:
        """/achievements: the person's own (in a group, as a reply to someone's message: theirs)."""
        chat = update.effective_chat
        replied = update.message.reply_to_message if update.message else None
        who = replied.from_user if replied is not None and not replied.sender_chat else None
        if chat.type != ChatType.PRIVATE and who is not None and not who.is_bot:
            user_id = who.id
            name = person_name(who.first_name, who.last_name, who.username) or t(context.lang, "a player")
        else:
            user_id, name = context.person.id, context.person.name
        await reply(self.messenger, update, context, await self.stats.achievements_of(user_id, name, context.lang))

    async def on_top(self, update: Update, context: TableContext) -> None:
        """/top <game>: the leaderboard of this group (in private: of everyone)."""
        chat = update.effective_chat
        await reply(self.messenger, update, context, await self.stats.top(
            context.words, None if chat.type == ChatType.PRIVATE else chat.id, context.lang))

    async def on_history(self, update: Update, context: TableContext) -> None:
        """/history: the last games here with links to their results."""
        await reply(self.messenger, update, context, await self.stats.history(update.effective_chat.id,
                                                                             context.lang))

    async def on_forget_me(self, update: Update, context: TableContext) -> None:
        """/forgetme: in private, asks before deleting the person's records and ratings."""
        await reply(self.messenger, update, context, *self.stats.ask_forget_me(
            update.effective_chat.type == ChatType.PRIVATE, context.lang))

    async def on_forget_group(self, update: Update, context: TableContext) -> None:
        """/forgetgroup: an admin deletes the group's records, after a confirmation."""
        await reply(self.messenger, update, context, *await self.stats.ask_forget_group(
            update.effective_chat.id, context.person, context.lang))

    async def on_confirm(self, person: Person, where: Where, data: str) -> Answer:
        """Yes, forget (the button under /forgetme's or /forgetgroup's question)."""
        if where.chat_id is None:
            raise Refused("bad_button")
        return Answer(await self.stats.confirm(person, where.chat_id, where.message_id, keyboard.parse(data).action))
