"""What a chat says to the bot besides a game's commands: /help, /rules, commands written as the
group or a channel, a command nobody here knows, the bot added to or removed from a group (or
blocked in private), a group that became a supergroup, and errors."""
from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ApplicationHandlerStop

from bot.games import rules_text
from bot.lobby.lobby import Lobby
from bot.lobby.menu import game_menu
from bot.outgoing.messenger import Messenger
from bot.showing.tables import Tables
from bot.table.people import People
from bot.table.play import Play
from bot.storage.store import StoreUnavailable
from bot.updates.context import TableContext, thread_of
from bot.updates.help import Help
from bot.updates.routes import Command, reply, unknown_command
from bot.words.i18n import normalize_lang, t
from bot.words.refusals import Refused, word

log = logging.getLogger(__name__)

_PRESENT = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER,
            ChatMemberStatus.RESTRICTED)


class ChatRoutes:
    COMMANDS = (
        Command("rules", "on_rules", 50, menus={"private": "The rules of a game", "group": "The rules of a game"},
                help={"group": "/rules <i>game</i> — the rules in short", "private": "/rules <i>game</i> — the "
                                                                                     "rules in short"}),
        Command("help", "on_help", 100, menus={"private": "How to play with me", "group": "How to play with me"}),
    )
    PRESSES = ()

    def __init__(self, people: People, tables: Tables, lobby: Lobby, play: Play, messenger: Messenger, help: Help,
                 *, bot_username: str):
        self.people = people
        self.tables = tables
        self.lobby = lobby
        self.play = play
        self.messenger = messenger
        self.help = help
        self.bot_username = bot_username

    async def on_help(self, update: Update, context: TableContext) -> None:
        """/help: in a group, the commands for playing here; in private, what one can do there."""
        private = update.effective_chat.type == ChatType.PRIVATE
        await reply(self.messenger, update, context, self.help.text(context.lang, private=private))

    async def on_rules(self, update: Update, context: TableContext) -> None:
        """/rules <game>: the rules in short."""
        await reply(self.messenger, update, context, rules_text(context.words, context.lang))

    async def on_anonymous(self, update: Update, context: TableContext) -> None:
        """A command written as the group (an anonymous admin) or as a channel: nobody to seat."""
        command = (update.message.text or "").split()[0]
        if "@" in command and command.split("@", 1)[1].lower() != self.bot_username.lower():
            return
        lang = await self.people.chat_lang(update.effective_chat.id)
        await reply(self.messenger, update, context, t(
            lang, "I cannot tell who you are when you write as the group or as a channel, so I cannot "
                  "seat you or take orders from you. Write as yourself (switch off «Remain anonymous» "
                  "in your admin rights), then try again."))

    async def on_unknown_command(self, update: Update, context: TableContext) -> None:
        await reply(self.messenger, update, context, unknown_command(update, context, self.bot_username))

    async def on_my_chat_member(self, update: Update, context: TableContext) -> None:
        """The bot was removed from a group (close its games quietly: nobody can see them any more),
        or a user blocked or unblocked the bot in private (their tables say so)."""
        change = update.my_chat_member
        chat = change.chat
        present = change.new_chat_member.status in _PRESENT
        if chat.type == ChatType.PRIVATE:
            await self.people.set_private_ok(chat.id, present)
            await self.tables.set_reachable(chat.id, present)
            return
        if present and change.old_chat_member.status not in _PRESENT:
            # Added to a group: greet once, in the language of whoever added the bot.
            if context.person is not None:
                lang = await self.people.adopt_chat(chat.id, chat.title, context.person)
            else:
                lang = await self.people.chat_lang(chat.id)
            text, markup = game_menu(lang, greet=True)
            self.messenger.post(chat.id, text, markup)
        elif not present:
            await self.lobby.bot_removed(chat.id)

    async def on_migrate(self, update: Update, context: TableContext) -> None:
        message = update.effective_message
        if message.migrate_to_chat_id:
            await self.play.migrate_chat(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.play.migrate_chat(message.migrate_from_chat_id, message.chat.id)

    async def on_error(self, update: object, context: TableContext) -> None:
        if isinstance(context.error, StoreUnavailable):  # not a bug: one line, and "try again"
            await self._database_away(update, context.error)
            raise ApplicationHandlerStop  # answered: no later handler (the press's) answers it again
        log.error("error while handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat and update.message:
            try:
                lang = await self.people.chat_lang(update.effective_chat.id)
                self.messenger.post(update.effective_chat.id,
                                    t(lang, "Something went wrong on my side; nothing was changed."))
            except Exception:  # the error handler itself must never raise
                log.exception("could not report an error to the chat")

    async def _database_away(self, update: object, error: StoreUnavailable) -> None:
        """An update (or a timer) met the database away: one log line; a press is answered and
        a command replied to with "try again", in the person's language as far as it is known
        without the database (their Telegram app's)."""
        log.warning("an update was not handled, the database cannot be reached: %s", error)
        if not isinstance(update, Update) or update.effective_user is None:
            return
        text = word(Refused("store_unavailable"), normalize_lang(update.effective_user.language_code))
        if update.callback_query is not None:  # not answered yet: the press's handler answers every press it gets
            self.messenger.answer_soon(update.callback_query.id, text, alert=True)
        elif update.effective_chat is not None and update.message is not None:
            self.messenger.post(update.effective_chat.id, text, thread_id=thread_of(update))
