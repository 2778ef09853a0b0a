"""The settings' commands: /lang (and its buttons), /notify, /lobbytimeout, /turntimer. Who may
change what, and the values, are ``bot/lobby/settings.py``'s."""
from __future__ import annotations

import re

from telegram import Update

from bot.lobby.settings import LANG_BUTTON, Settings
from bot.outgoing import keyboard
from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.table.people import Person
from bot.updates.context import TableContext, thread_of
from bot.updates.context import Where
from bot.updates.routes import Command, Press, reply
from bot.words.i18n import LANGS
from bot.words.refusals import Refused


class SettingsRoutes:
    COMMANDS = (
        Command("lang", "on_lang", 85,
                menus={"private": "Your language", "admins": "The language of this chat (host or admin)"},
                help={"group": "/lang — language of this chat (host or admin) or, in private, your own",
                      "private": "/lang — your language"}),
        Command("turntimer", "on_turn_timer", 87, menus={"admins": "How long a move may take here (admin)"},
                help={"group": "/turntimer <i>minutes</i> or off — time for a move; then a reminder, and I move "
                               "for whoever is away (admins)"}),
        Command("lobbytimeout", "on_lobby_timeout", 88, menus={"admins": "When idle lobbies close (admin)"},
                help={"group": "/lobbytimeout <i>minutes</i> — close idle lobbies after this long (admins)"}),
        Command("notify", "on_notify", 90,
                menus={"private": "Pings when it is your turn: on or off", "group": "Pings when it is your turn: "
                                                                                   "on or off"},
                help={"group": "/notify on or off — whether I ping you when it is your turn",
                      "private": "/notify on or off — whether I ping you when it is your turn in a group"}),
    )
    PRESSES = (Press(keyboard.menu_pattern(re.escape(LANG_BUTTON) + "[a-z]{2}"), "on_lang_button"),)

    def __init__(self, settings: Settings, messenger: Messenger):
        self.settings = settings
        self.messenger = messenger

    async def on_lang(self, update: Update, context: TableContext) -> None:
        """/lang [en|ru]: the chat's language (in private: the person's own)."""
        await reply(self.messenger, update, context, *await self.settings.lang(
            update.effective_chat.id, context.person, context.words, context.lang))

    async def on_lang_button(self, person: Person, where: Where, data: str) -> Answer:
        """A language's button under /lang."""
        lang = data.rsplit(".", 1)[1]
        if where.chat_id is None or lang not in LANGS:
            raise Refused("bad_button")
        return Answer(await self.settings.set_lang(where.chat_id, person, lang))

    async def on_notify(self, update: Update, context: TableContext) -> None:
        """/notify [on|off]: whether I ping the person when it is their turn."""
        await reply(self.messenger, update, context, await self.settings.notify(context.person, context.words,
                                                                               context.lang))

    async def on_lobby_timeout(self, update: Update, context: TableContext) -> None:
        """/lobbytimeout [minutes]: idle lobbies close after this long."""
        await reply(self.messenger, update, context, await self.settings.lobby_timeout(
            update.effective_chat.id, thread_of(update), context.person, context.words, context.lang))

    async def on_turn_timer(self, update: Update, context: TableContext) -> None:
        """/turntimer [minutes|off]: how long a move may take in this group."""
        await reply(self.messenger, update, context, await self.settings.turn_timer(
            update.effective_chat.id, thread_of(update), context.person, context.words, context.lang))
