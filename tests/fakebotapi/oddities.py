"""Odd but real updates, and raw ones: what a bot in a group meets besides tidy presses.

`OddUpdates` is mixed into FakeBotAPI (server.py), like TelegramMethods. Every helper builds the
update Telegram would send and enqueues it; getUpdates then delivers it, or drops it when the
bot's allowed_updates leaves its kind out (edited_message and channel_post are not in tablebot's
list, so a bot asking for message/callback_query/my_chat_member never sees them, as on Telegram).
`inject_update` takes any JSON at all: it is Telegram's side, so nothing is validated.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from .htmlparse import utf16_len
from .methods import _COMMAND_RE
from .world import ChatRec, Message

__all__ = ["OddUpdates", "GROUP_ANONYMOUS_BOT", "CHANNEL_BOT", "ODD_CALLBACK_DATA",
           "mutate_callback_data", "command_entities"]

# The placeholder users Telegram puts in "from" of messages sent on behalf of a chat.
GROUP_ANONYMOUS_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group",
                       "username": "GroupAnonymousBot"}
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel",
               "username": "Channel_Bot"}

# Callback data a modified client, an old keyboard or a buggy encoder may send.
ODD_CALLBACK_DATA = (
    "", " ", "\n", ":", "::", ":::", "x:y:z:w", "0:0:0", "-1:-1:-1", "99999999999999999999:0:j",
    "lucky:0:j\n", " lucky:0:j", "lucky:0:j ", "LUCKY:0:J", "lucky:-0:j", "lucky:0x1:j",
    "lucky:0:j:extra", "lucky::j", "lucky:0:", "null", "None", "undefined", "{}", "[]",
    "%s%s%n", "../../etc/passwd", "' OR 1=1 --", "<b>x</b>", "&amp;", "\x00", "\u202e",
    "ж:0:j", "🎲:🎲:🎲", "lucky:٣:j", "lucky:0:j\u200b", "\ud7ff", "x" * 64, "x" * 65,
    "é" * 33, "🎲" * 17,
)


def command_entities(text: str) -> list[dict]:
    """bot_command entities of a text, as Telegram adds them (offsets in UTF-16 units)."""
    return [{"type": "bot_command", "offset": utf16_len(text[: mt.start()]),
             "length": utf16_len(mt.group(0))}
            for mt in _COMMAND_RE.finditer(text)]


def mutate_callback_data(data: str, rng: random.Random) -> str:
    """One plausible corruption of real callback data, never the data itself: a changed
    field, a stray byte, a trailing newline, over 64 bytes, non-ASCII, a stale turn, or one of
    ODD_CALLBACK_DATA."""
    for _ in range(10):
        mutated = _mutate_once(data, rng)
        if mutated != data:
            return mutated
    return data + "\n"


def _mutate_once(data: str, rng: random.Random) -> str:
    parts = data.split(":")
    mutations = [
        lambda: data + "\n",
        lambda: data + "x" * max(1, 65 - len(data.encode("utf-8"))),
        lambda: data[: rng.randrange(len(data) + 1)],
        lambda: data + ":" + rng.choice(["", "0", "j", "🎲"]),
        lambda: ":".join(parts[:-1]) if len(parts) > 1 else data + ":",
        lambda: ":".join(rng.sample(parts, len(parts))),
        lambda: _replace_part(parts, rng, lambda p: str(int(p) + rng.choice([-1, 1, 1000]))
                              if p.lstrip("-").isdigit() else p + "1"),
        lambda: _replace_part(parts, rng, lambda p: rng.choice(["", "-1", "ж", "🎲", "0" * 40])),
        lambda: _flip_char(data, rng),
        lambda: data.upper() if data != data.upper() else data.lower(),
        lambda: rng.choice(ODD_CALLBACK_DATA),
    ]
    return rng.choice(mutations)()


def _replace_part(parts: list[str], rng: random.Random, change) -> str:
    i = rng.randrange(len(parts))
    return ":".join(parts[:i] + [change(parts[i])] + parts[i + 1:])


def _flip_char(data: str, rng: random.Random) -> str:
    if not data:
        return "\x00"
    i = rng.randrange(len(data))
    return data[:i] + rng.choice(["é", "\x00", "\n", ":", "Ж", "0"]) + data[i + 1:]


class OddUpdates:
    """Raw updates and the odd kinds of real ones (methods of FakeBotAPI)."""

    def inject_update(self, update: dict[str, Any]) -> int:
        """Enqueue any update JSON exactly as given (Telegram's side: nothing is checked);
        an update_id is added when missing. A callback_query with an id is registered, so its
        answers are counted and accepted. Returns the update_id."""
        payload = json.loads(json.dumps(update))  # a private copy; ValueError if not JSON
        if not isinstance(payload, dict):
            raise ValueError("an update is a JSON object")
        with self._lock:
            update_id = payload.get("update_id")
            if update_id is None:
                update_id = self._next_update_id
                payload = {"update_id": update_id, **payload}
            if isinstance(update_id, int) and update_id >= self._next_update_id:
                self._next_update_id = update_id + 1
            self._register_raw_query(payload.get("callback_query"))
            self._updates.append(payload)
            self._last_activity = time.monotonic()
            self._cond.notify_all()
            return update_id

    def _register_raw_query(self, query: Any) -> None:
        if not isinstance(query, dict) or not isinstance(query.get("id"), str):
            return
        if query["id"] in self._queries:
            return
        sender = query.get("from") if isinstance(query.get("from"), dict) else {}
        message = query.get("message") if isinstance(query.get("message"), dict) else {}
        chat = message.get("chat") if isinstance(message.get("chat"), dict) else {}
        self._new_query(sender.get("id"), chat.get("id"), message.get("message_id"),
                        query.get("data"), qid=query["id"])

    # ---- chats and messages on behalf of chats -------------------------------------------------

    def add_channel(self, chat_id: int, title: str) -> dict:
        """A channel the bot administers (it gets channel_post updates if it asks for them)."""
        if not isinstance(chat_id, int) or chat_id >= 0:
            raise ValueError("channel ids are negative integers")
        with self._lock:
            chat = ChatRec(chat_id, "channel", self._chat_instance(), title=title,
                           admins={self.bot_id})
            self._chats[chat_id] = chat
            return self._chat_dict(chat)

    def channel_posts(self, channel_id: int, text: str) -> dict:
        """A post in a channel (no "from", sender_chat = the channel): a channel_post update,
        with bot_command entities when it holds a command. Returns the Message dict."""
        with self._lock:
            channel = self._channel(channel_id)
            m = self._text_message(channel, text, sender=None, sender_chat=self._chat_dict(channel))
            msg = self._message_dict(m)
            self._enqueue("channel_post", msg)
            return msg

    def anonymous_admin_sends(self, chat_id: int, text: str) -> dict:
        """An admin who posts anonymously writes in a group: "from" is GroupAnonymousBot
        (1087968824) and sender_chat is the group itself; who really wrote is unknowable."""
        with self._lock:
            chat = self._group(chat_id)
            m = self._text_message(chat, text, sender=dict(GROUP_ANONYMOUS_BOT),
                                   sender_chat=self._chat_dict(chat))
            return self._enqueue_if_seen(chat, m)

    def channel_sends(self, channel_id: int, chat_id: int, text: str) -> dict:
        """Someone writes in a group on behalf of a channel: "from" is Channel_Bot (136817688)
        and sender_chat is the channel."""
        with self._lock:
            channel = self._channel(channel_id)
            chat = self._group(chat_id)
            m = self._text_message(chat, text, sender=dict(CHANNEL_BOT),
                                   sender_chat=self._chat_dict(channel))
            return self._enqueue_if_seen(chat, m)

    def user_edits_message(self, user_id: int, chat_id: int, message_id: int,
                           text: str) -> dict:
        """A user edits their earlier message (for instance into a command): an
        edited_message update, if privacy mode lets the bot see the new text."""
        with self._lock:
            chat = self._world_chat(chat_id)
            m = chat.messages.get(message_id)
            if m is None or m.deleted or (m.sender or {}).get("id") != user_id:
                raise ValueError(f"user {user_id} has no message {message_id} in {chat_id}")
            m.text = text
            m.entities = command_entities(text)
            m.edits += 1
            m.edit_date = int(time.time())
            msg = self._message_dict(m)
            if self._bot_sees(chat, m):
                self._enqueue("edited_message", msg)
            return msg

    # ---- odd presses -------------------------------------------------------------------------

    def user_presses_missing(self, user_id: int, chat_id: int, message_id: int,
                             data: str | None, *, inaccessible: bool = True) -> str:
        """A press on a message the fake does not hold (deleted, never sent, from before a
        wiped database). inaccessible=True: the query carries an InaccessibleMessage (date 0),
        as Telegram sends for messages it no longer shows the bot; False: a plausible old bot
        message with a button of that data. Returns the query id."""
        with self._lock:
            user = self._user(user_id)
            chat = self._world_chat(chat_id)
            message: dict[str, Any] = {"chat": self._chat_dict(chat), "message_id": message_id,
                                       "date": 0}
            if not inaccessible:
                message = {"message_id": message_id, "from": self._bot_user(),
                           "chat": self._chat_dict(chat), "date": int(time.time()) - 86400,
                           "text": "An old board",
                           "reply_markup": {"inline_keyboard": [[
                               {"text": "Old", "callback_data": data or "x"}]]}}
            qid = self._new_query(user_id, chat_id, message_id, data)
            query = {"id": qid, "from": user.to_dict(), "message": message,
                     "chat_instance": chat.chat_instance}
            if data is not None:
                query["data"] = data
            self._enqueue("callback_query", query)
            return qid

    def user_presses_inline(self, user_id: int, inline_message_id: str,
                            data: str | None) -> str:
        """A press on a message sent via inline mode: inline_message_id and no message nor
        chat. Returns the query id."""
        with self._lock:
            user = self._user(user_id)
            qid = self._new_query(user_id, None, None, data)
            query = {"id": qid, "from": user.to_dict(), "inline_message_id": inline_message_id,
                     "chat_instance": self._chat_instance()}
            if data is not None:
                query["data"] = data
            self._enqueue("callback_query", query)
            return qid

    # ---- helpers (lock held) -------------------------------------------------------------------

    def _text_message(self, chat: ChatRec, text: str, *, sender: dict | None,
                      sender_chat: dict | None) -> Message:
        m = self._new_message(chat, from_bot=False, sender=sender)
        m.sender_chat = sender_chat
        m.text = text
        m.entities = command_entities(text)
        return m

    def _enqueue_if_seen(self, chat: ChatRec, m: Message) -> dict:
        msg = self._message_dict(m)
        if self._bot_sees(chat, m):
            self._enqueue("message", msg)
        return msg

    def _channel(self, chat_id: int) -> ChatRec:
        chat = self._world_chat(chat_id)
        if chat.type != "channel":
            raise ValueError(f"chat {chat_id} is not a channel: add_channel first")
        return chat

    def _group(self, chat_id: int) -> ChatRec:
        chat = self._world_chat(chat_id)
        if chat.type not in ("group", "supergroup"):
            raise ValueError(f"chat {chat_id} is not a group")
        return chat
