"""Every feature's commands and buttons registered with python-telegram-bot, in the order it
tries them, and the command menus, all from the features' own declarations
(``bot/updates/routes.py``).

The order: who and in which language first (group -1, ``Prepare``); then each feature's commands;
every button press (``Presses``: the first feature whose pattern matches answers it, the door
answers the rest: a game's buttons, and data that is nobody's); then what is not a command of
ours (a chat member change, a migrated group, an unknown command, a move typed in private).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from telegram import (BotCommandScopeAllChatAdministrators, BotCommandScopeAllGroupChats,
                      BotCommandScopeAllPrivateChats, BotCommandScopeChat, Update)
from telegram.ext import (Application, CallbackQueryHandler, ChatMemberHandler, ChosenInlineResultHandler,
                          CommandHandler, InlineQueryHandler, MessageHandler, TypeHandler, filters)

from bot.outgoing import keyboard
from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.storage.store import Status, from_base36
from bot.table.people import Person
from bot.updates.chat import ChatRoutes
from bot.updates.context import TableContext, where_of
from bot.updates.context import Where
from bot.updates.door import Door
from bot.updates.game import GameRoutes
from bot.updates.help import game_ids
from bot.updates.inline import InlineRoutes
from bot.updates.lobby import LobbyRoutes
from bot.updates.owner import OwnerRoutes
from bot.updates.prepare import Prepare
from bot.updates.records import RecordRoutes
from bot.updates.results import ResultsRoutes
from bot.updates.routes import Command, worded
from bot.updates.settings import SettingsRoutes
from bot.words.i18n import t

# Every feature that answers commands or buttons, in the order its buttons are tried.
FEATURES = (LobbyRoutes, InlineRoutes, ResultsRoutes, RecordRoutes, SettingsRoutes, OwnerRoutes, GameRoutes,
            ChatRoutes)
# The updates the bot asks Telegram for (polling and webhook alike).
UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER, Update.INLINE_QUERY,
           Update.CHOSEN_INLINE_RESULT]


def commands() -> list[Command]:
    """Every command of every feature, in their order (menus and /help)."""
    return sorted((c for feature in FEATURES for c in feature.COMMANDS), key=lambda c: c.rank)


def menus(owner_id: int | None = None) -> list[tuple[Any, list[tuple[str, str]]]]:
    """The command menus by scope: (scope, [(command, description msgid)]). A group's admins see
    the group's commands and theirs; the owner sees the private chat's and theirs. Every command
    works wherever it makes sense whatever the menu says: a menu lists what its reader needs."""
    def menu(*audiences: str) -> list[tuple[str, str]]:
        return [(c.name, next(c.menus[a] for a in audiences if a in c.menus)) for c in commands()
                if any(a in c.menus for a in audiences)]
    scopes = [(BotCommandScopeAllPrivateChats(), menu("private")),
              (BotCommandScopeAllGroupChats(), menu("group")),
              (BotCommandScopeAllChatAdministrators(), menu("admins", "group"))]
    if owner_id is not None:  # last: Telegram refuses it until the owner has opened the private chat
        scopes.append((BotCommandScopeChat(owner_id), menu("owner", "private")))
    return scopes


def menu_words() -> dict[str, str]:
    """What a menu's descriptions are formatted with (the games /new takes)."""
    return {"games": game_ids()}


class Presses:
    """Every button press, answered exactly once."""

    def __init__(self, features: Iterable[object], door: Door, messenger: Messenger):
        self._routes = [(press.pattern, getattr(feature, press.handler))
                        for feature in features for press in type(feature).PRESSES]
        self.door = door
        self.messenger = messenger

    async def press(self, person: Person | None, where: Where, data: str | None) -> Answer:
        """What a press did, or why not, in the presser's words."""
        for pattern, handler in self._routes:
            if data is not None and pattern.match(data):
                return await worded(person, lambda: handler(person, where, data))
        return await self.door.press(person, where, data)

    async def on_press(self, update: Update, context: TableContext) -> None:
        """python-telegram-bot's callback: the press is answered once, whatever happens."""
        query, person = update.callback_query, context.person
        answer = Answer(t(person.lang if person else "en", "Something went wrong. Please try again."), alert=True)
        try:
            answer = await self.press(person, where_of(update), query.data)
        finally:
            self.messenger.answer_soon(query.id, answer.text, alert=answer.alert, url=answer.url)


def register(application: Application, prepare: Prepare, features: Iterable[object], presses: Presses) -> None:
    """Every handler, in the order python-telegram-bot tries them."""
    features = list(features)
    by_kind = {type(f): f for f in features}
    game, chat, inline = by_kind[GameRoutes], by_kind[ChatRoutes], by_kind[InlineRoutes]
    # New messages written by a person: not edits, channel posts, or messages sent as a chat.
    by_person = filters.UpdateType.MESSAGE & filters.USER & ~filters.SenderChat.ALL
    as_chat = filters.UpdateType.MESSAGE & filters.SenderChat.ALL & filters.COMMAND
    application.add_handler(TypeHandler(Update, prepare), group=-1)
    for feature in features:
        for command in type(feature).COMMANDS:
            application.add_handler(CommandHandler(command.name, getattr(feature, command.handler), filters=by_person))
    application.add_handler(MessageHandler(as_chat, chat.on_anonymous))
    application.add_handler(CallbackQueryHandler(presses.on_press))
    application.add_handler(InlineQueryHandler(inline.on_query))
    application.add_handler(ChosenInlineResultHandler(inline.on_chosen))
    application.add_handler(ChatMemberHandler(chat.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat.on_migrate))
    application.add_handler(MessageHandler(by_person & filters.COMMAND, chat.on_unknown_command))
    application.add_handler(MessageHandler(by_person & filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND,
                                           game.on_private_text))
    application.add_error_handler(chat.on_error)


def press_kind(data: str | None, cached: Callable[[int], Any]) -> str:
    """What a press was made on: ``menu``, ``lobby`` (a game still gathering players), the game's
    kind, or ``other`` (not our data, or a game no longer in memory). ``cached``: the book's."""
    press = keyboard.parse(data)
    if press is None:
        return "other"
    if press.game == keyboard.MENU:
        return "menu"
    match = cached(from_base36(press.game))
    if match is None:
        return "other"
    return "lobby" if match.game.status == Status.LOBBY else match.game.kind


