"""python-telegram-bot callbacks: read the update, call the one object it is about, answer.

``prepare`` runs first for every update (handler group -1) and puts the person and the chat's
language on the context, so the callbacks do not repeat it. Every button press goes through the
door (``bot/updates/door.py``) and is answered exactly once with what it returns. No rule lives here:
who may do what is the door's, the lobby's and the settings' business.
"""
from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import Application, ApplicationHandlerStop, CallbackContext, ExtBot

from bot.outgoing import keyboard
from bot.updates.door import Door, Where
from bot.updates.floods import CommandGuard, Verdict
from bot.games import rules_text
from bot.games.base import fits_caption
from bot.words.i18n import t
from bot.outgoing.keyboard import MENU, Button
from bot.lobby.lobby import Lobby
from bot.showing.lobby_view import add_to_group_link, game_menu
from bot.logs import about
from bot.outgoing.messenger import Messenger
from bot.words.names import in_text, person_name
from bot.lobby.nextgame import NextGame
from bot.ops.owner import Owner
from bot.outgoing.pacing import GAME, PERSON
from bot.table.people import People, Person
from bot.table.play import Play
from bot.lobby.settings import Settings
from bot.records.stats import Stats
from bot.showing.tables import Tables
from bot.words.texts import help_text, private_help_text

log = logging.getLogger(__name__)

_PRESENT = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER,
            ChatMemberStatus.RESTRICTED)


class TableContext(CallbackContext[ExtBot, dict, dict, dict]):
    """The context of one update, with who sent it and in which language to answer."""

    def __init__(self, application: Application, chat_id: int | None = None, user_id: int | None = None):
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self.person: Person | None = None  # None: no person sent it (a channel, an anonymous admin)
        self.lang: str = "en"  # the chat's language (in private: the person's)
        self.reply_priority: int = PERSON  # a member's next commands in a while take turns with the table

    @property
    def words(self) -> list[str]:
        return [w for w in (self.args or []) if w]


def _thread(update: Update) -> int:
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def _where(update: Update) -> Where:
    """The message a button was pressed on, as the door wants it."""
    message = update.callback_query.message
    if message is None:
        return Where(None, None)
    chat = message.chat
    thread = message.message_thread_id if message.is_topic_message else 0
    return Where(chat.id, message.message_id, thread or 0, getattr(chat, "title", None))


class Handlers:
    def __init__(self, *, door: Door, lobby: Lobby, settings: Settings, play: Play, tables: Tables,
                 people: People, messenger: Messenger, guard: CommandGuard, bot_username: str, stats: Stats,
                 next_game: NextGame, owner: Owner):
        self.door = door
        self.owner = owner
        self.stats = stats
        self.next_game = next_game
        self.guard = guard
        self.lobby = lobby
        self.settings = settings
        self.play = play
        self.tables = tables
        self.people = people
        self.messenger = messenger
        self.bot_username = bot_username

    # ---- every update --------------------------------------------------------------------

    async def prepare(self, update: object, context: TableContext) -> None:
        """Who sent the update and the language to answer in (handler group -1)."""
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
                await self._reply(update, context, t(context.lang, "⏳ {name}, that is a lot of commands at once: I "
                                                                   "will listen to you again in half a minute.",
                                                     name=in_text(context.person.name)))
            if verdict not in (Verdict.FIRST, Verdict.OK):
                raise ApplicationHandlerStop  # the command is not taken (no other handler runs)

    async def _reply(self, update: Update, context: TableContext, text: str | None, markup=None) -> None:
        """Answer a command (in the background: the chat's next update does not wait for it)."""
        if text:
            self.messenger.post(update.effective_chat.id, text, markup, thread_id=_thread(update),
                                priority=context.reply_priority)

    # ---- commands ------------------------------------------------------------------------

    async def on_new(self, update: Update, context: TableContext) -> None:
        """/new [game] [options]: open a lobby, or show the game menu."""
        chat = update.effective_chat
        await self.lobby.new_here(chat_id=chat.id, thread_id=_thread(update), title=chat.title,
                                  person=context.person, words=context.words)

    async def on_start(self, update: Update, context: TableContext) -> None:
        """/start: the greeting, or a deep link back to a lobby (``j…``) or a game (``g…``)."""
        person = context.person
        if update.effective_chat.type != ChatType.PRIVATE:
            await self._reply(update, context, help_text(context.lang, self.bot_username))
            return
        words = context.words
        said = await self.lobby.start_link(person, words[0] if words else "")
        if said is None:
            return  # the person's private message of the game came down
        if said:
            await self._reply(update, context, said)
            return
        add_me = keyboard.markup(MENU, None, [[Button(
            t(person.lang, "➕ Add me to a group"), url=add_to_group_link(self.bot_username))]])
        await self._reply(update, context, t(person.lang, "👋 Hello, {name}!", name=in_text(person.name)) + "\n\n"
                          + private_help_text(person.lang), add_me)

    async def on_anonymous(self, update: Update, context: TableContext) -> None:
        """A command written as the group (an anonymous admin) or as a channel: nobody to seat."""
        command = (update.message.text or "").split()[0]
        if "@" in command and command.split("@", 1)[1].lower() != self.bot_username.lower():
            return
        lang = await self.people.chat_lang(update.effective_chat.id)
        await self._reply(update, context, t(
            lang, "I cannot tell who you are when you write as the group or as a channel, so I cannot "
                  "seat you or take orders from you. Write as yourself (switch off «Remain anonymous» "
                  "in your admin rights), then try again."))

    async def on_help(self, update: Update, context: TableContext) -> None:
        """/help: in a group, the commands for playing here; in private, what one can do there."""
        if update.effective_chat.type == ChatType.PRIVATE:
            await self._reply(update, context, private_help_text(context.lang))
        else:
            await self._reply(update, context, help_text(context.lang, self.bot_username))

    async def on_rules(self, update: Update, context: TableContext) -> None:
        """/rules <game>: the rules in short."""
        await self._reply(update, context, rules_text(context.words, context.lang))

    async def on_cancel(self, update: Update, context: TableContext) -> None:
        """/cancel: the host or an admin stops the game here."""
        await self._reply(update, context, await self.lobby.cancel_here(update.effective_chat.id, _thread(update),
                                                               context.person, context.lang))

    async def on_board(self, update: Update, context: TableContext) -> None:
        """/board: the table (or the lobby) again at the bottom of the chat."""
        if not await self.tables.board(update.effective_chat.id, _thread(update)):
            await self._reply(update, context, t(context.lang, "No game is running here. Start one with /new."))

    async def on_nextgame(self, update: Update, context: TableContext) -> None:
        """/nextgame: tell me in private when a lobby opens in this group."""
        await self._reply(update, context, *await self.next_game.ask(
            update.effective_chat.id, _thread(update), context.person, context.lang))

    async def on_lang(self, update: Update, context: TableContext) -> None:
        """/lang [en|ru]: the chat's language (in private: the person's own)."""
        await self._reply(update, context, *await self.settings.lang(update.effective_chat.id, context.person,
                                                            context.words, context.lang))

    async def on_notify(self, update: Update, context: TableContext) -> None:
        """/notify [on|off]: whether I ping the person when it is their turn."""
        await self._reply(update, context, await self.settings.notify(context.person, context.words, context.lang))

    async def on_lobby_timeout(self, update: Update, context: TableContext) -> None:
        """/lobbytimeout [minutes]: idle lobbies close after this long."""
        await self._reply(update, context, await self.settings.lobby_timeout(
            update.effective_chat.id, _thread(update), context.person, context.words, context.lang))

    async def on_turn_timer(self, update: Update, context: TableContext) -> None:
        """/turntimer [minutes|off]: how long a move may take in this group."""
        await self._reply(update, context, await self.settings.turn_timer(
            update.effective_chat.id, _thread(update), context.person, context.words, context.lang))

    async def on_leave(self, update: Update, context: TableContext) -> None:
        """/leave: out of the lobby here, or, in a running game, a computer plays your seat."""
        await self._reply(update, context, await self.door.leave(context.person, update.effective_chat.id, _thread(update),
                                                        context.lang))

    async def on_away(self, update: Update, context: TableContext) -> None:
        """/away: a computer plays for whoever keeps everyone waiting (host or admin)."""
        await self._reply(update, context, await self.door.away(context.person, update.effective_chat.id, _thread(update),
                                                       context.lang))

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
            await self._reply(update, context, await self.stats.group(chat.id, chat.title, context.lang))
            return
        text = await self.stats.person(user_id, name, context.lang)
        picture = await self.stats.chart(user_id, name, context.lang)
        if picture is None:
            await self._reply(update, context, text)
            return
        if not fits_caption(text):
            await self._reply(update, context, text)
            text = self.stats.chart_caption(name, context.lang)
        self.messenger.post(chat.id, text, thread_id=_thread(update), priority=context.reply_priority, picture=picture)

    async def on_top(self, update: Update, context: TableContext) -> None:
        """/top <game>: the leaderboard of this group (in private: of everyone)."""
        chat = update.effective_chat
        await self._reply(update, context, await self.stats.top(
            context.words, None if chat.type == ChatType.PRIVATE else chat.id, context.lang))

    async def on_history(self, update: Update, context: TableContext) -> None:
        """/history: the last games here with links to their results."""
        await self._reply(update, context, await self.stats.history(update.effective_chat.id, context.lang))

    async def on_forget_me(self, update: Update, context: TableContext) -> None:
        """/forgetme: in private, asks before deleting the person's records and ratings."""
        await self._reply(update, context, *self.stats.ask_forget_me(
            update.effective_chat.type == ChatType.PRIVATE, context.lang))

    async def on_forget_group(self, update: Update, context: TableContext) -> None:
        """/forgetgroup: an admin deletes the group's records, after a confirmation."""
        await self._reply(update, context, *await self.stats.ask_forget_group(
            update.effective_chat.id, context.person, context.lang))

    async def on_botstats(self, update: Update, context: TableContext) -> None:
        """/botstats: the owner's figures (for anyone else, an unknown command)."""
        if not self.owner.may(context.person, update.effective_chat.id):
            await self.on_unknown_command(update, context)
            return
        await self._reply(update, context, await self.owner.figures(context.lang))

    async def on_broadcast_maintenance(self, update: Update, context: TableContext) -> None:
        """/broadcast_maintenance: the owner is asked to confirm the notice to the groups with a
        game (for anyone else, an unknown command)."""
        if not self.owner.may(context.person, update.effective_chat.id):
            await self.on_unknown_command(update, context)
            return
        await self._reply(update, context, *await self.owner.ask_broadcast(context.lang))

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

    async def on_unknown_command(self, update: Update, context: TableContext) -> None:
        message = update.effective_message
        if not message.text:
            return
        command = message.text.split()[0]
        if update.effective_chat.type != ChatType.PRIVATE and "@" not in command:
            return  # in groups a bare /command may belong to another bot
        if "@" in command and command.split("@", 1)[1].lower() != self.bot_username.lower():
            return
        await self._reply(update, context, t(context.lang, "I don't know the command {cmd}. See /help.",
                                    cmd=in_text(command[:40])))

    async def on_private_text(self, update: Update, context: TableContext) -> None:
        """A typed move in the private chat (e.g. genial's ``3 F7 F8``)."""
        reply = await self.door.typed(context.person, (update.effective_message.text or "").strip())
        if reply:
            self.messenger.post(context.person.id, reply)

    async def on_migrate(self, update: Update, context: TableContext) -> None:
        message = update.effective_message
        if message.migrate_to_chat_id:
            await self.play.migrate_chat(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.play.migrate_chat(message.migrate_from_chat_id, message.chat.id)

    # ---- buttons -------------------------------------------------------------------------

    async def on_press(self, update: Update, context: TableContext) -> None:
        """Any button: the door says what it did, and the press is answered exactly once."""
        query = update.callback_query
        person = context.person
        answer = keyboard.Answer(t(person.lang if person else "en", "Something went wrong. Please try again."),
                                 alert=True)
        try:
            answer = await self.door.press(person, _where(update), query.data)
        finally:
            self.messenger.answer_soon(query.id, answer.text, alert=answer.alert, url=answer.url)

    # ---- errors --------------------------------------------------------------------------

    async def on_error(self, update: object, context: TableContext) -> None:
        log.error("error while handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat and update.message:
            try:
                lang = await self.people.chat_lang(update.effective_chat.id)
                self.messenger.post(update.effective_chat.id,
                                    t(lang, "Something went wrong on my side; nothing was changed."))
            except Exception:  # the error handler itself must never raise
                log.exception("could not report an error to the chat")
