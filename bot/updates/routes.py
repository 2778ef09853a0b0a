"""How a feature says what it answers, once: its commands and its buttons.

Each feature of ``bot/updates`` (the lobby, the game's own buttons, the results' buttons, the
records, the settings, the owner's commands, the chat itself) is a class that declares, at class
level, ``COMMANDS`` (one :class:`Command` per /command: the method that answers it, where it
stands, the menus that list it and its line in /help) and ``PRESSES`` (callback data it answers,
by pattern, and the method). ``bot/updates/router.py`` registers them with python-telegram-bot
and builds the command menus and /help from the same declarations, so menus, help and handlers
cannot disagree (a test holds them together).

A menu's audience: ``private`` (the private chat), ``group`` (every member of a group),
``admins`` (a group's admins: the group's commands and these), ``owner`` (the bot's owner in
private: the private chat's commands and these).
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Mapping

from telegram import Update
from telegram.constants import ChatType

from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.storage.store import StoreUnavailable
from bot.table.people import Person
from bot.updates.context import TableContext, thread_of
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.refusals import Refused, is_toast, word

log = logging.getLogger(__name__)

AUDIENCES = ("private", "group", "admins", "owner")


@dataclass(frozen=True)
class Command:
    """One /command. ``handler``: the name of the feature's method that answers it; ``rank``:
    where it stands in the menus and in /help (lower first); ``menus``: audience → its
    description in that menu (an English msgid); ``help``: ``group`` or ``private`` → its line in
    /help there (an English msgid; several lines may share one)."""

    name: str
    handler: str
    rank: int
    menus: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Press:
    """Buttons a feature answers: callback data matching ``pattern`` go to its method ``handler``,
    which takes (person, where, data) and returns the :class:`Answer` to show."""

    pattern: re.Pattern
    handler: str


async def reply(messenger: Messenger, update: Update, context: TableContext, text: str | None,
                markup=None) -> None:
    """Answer a command (in the background: the chat's next update does not wait for it)."""
    if text:
        messenger.post(update.effective_chat.id, text, markup, thread_id=thread_of(update),
                       priority=context.reply_priority)


async def worded(person: Person | None, work: Callable[[], Awaitable[Answer]]) -> Answer:
    """What a press does, or its refusal worded for the presser."""
    try:
        if person is None:  # a channel or an anonymous admin: nobody to act for
            raise Refused("unknown_button")
        return await work()
    except Refused as refused:
        return Answer(word(refused, person.lang if person is not None else "en"), alert=not is_toast(refused))
    except StoreUnavailable as exc:  # a write that failed was not made (one transaction each)
        log.warning("a press was answered \"try again\": %s", exc)
        return Answer(word(Refused("store_unavailable"), person.lang), alert=True)


def unknown_command(update: Update, context: TableContext, bot_username: str) -> str | None:
    """What to say to a command nobody here knows (None: it is not for this bot)."""
    message = update.effective_message
    if not message.text:
        return None
    command = message.text.split()[0]
    if update.effective_chat.type != ChatType.PRIVATE and "@" not in command:
        return None  # in groups a bare /command may belong to another bot
    if "@" in command and command.split("@", 1)[1].lower() != bot_username.lower():
        return None
    return t(context.lang, "I don't know the command {cmd}. See /help.", cmd=in_text(command[:40]))
