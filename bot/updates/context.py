"""What every callback knows about its update: who sent it, the language to answer in, the
forum topic it came from, and the message a button was pressed on."""
from __future__ import annotations

from dataclasses import dataclass

from telegram import Update
from telegram.ext import Application, CallbackContext, ExtBot

from bot.outgoing.pacing import PERSON
from bot.storage.store import inline_chat
from bot.table.people import Person


@dataclass(frozen=True)
class Where:
    """The message a button was pressed on (its chat and id; None when Telegram did not say),
    the forum topic, and the chat's title (a lobby opened from the menu keeps it). ``page``: the
    press came from the Mini App (bot/webapp), whose person the server checked by signature:
    there is no message, and it counts as the seat's own private message."""

    chat_id: int | None
    message_id: int | None
    thread_id: int = 0
    title: str | None = None
    page: bool = False
    # A message posted via the bot in a chat it is not in (inline mode): its id, and the key of
    # that chat (``bot/storage/store.py``: ``inline_chat``, from the press's chat_instance).
    inline: str | None = None
    inline_chat: int | None = None

    @property
    def private(self) -> bool:
        return self.chat_id is not None and self.chat_id > 0


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


def thread_of(update: Update) -> int:
    """The forum topic the update came from (0: none)."""
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def where_of(update: Update) -> Where:
    """The message a button was pressed on, as the door wants it."""
    query = update.callback_query
    message = query.message
    if message is None:
        if query.inline_message_id and query.chat_instance:
            return Where(None, None, inline=query.inline_message_id, inline_chat=inline_chat(query.chat_instance))
        return Where(None, None)
    chat = message.chat
    thread = message.message_thread_id if message.is_topic_message else 0
    return Where(chat.id, message.message_id, thread or 0, getattr(chat, "title", None))
