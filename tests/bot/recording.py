"""The lobby and the game loop without Telegram: a messenger that records what would be sent.

``build_core()`` wires the bot with the same ``bot.wiring.build_core`` as ``bot.app.Tablebot``, over
an in-memory SQLite store (the real store) and a ``RecordingMessenger``, so the rules of the door,
the lobby and the game loop can be tested in milliseconds. Pictures are not drawn (their jobs return empty bytes); the end-to-end
tests against the fake Bot API cover what people see.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from bot import wiring as platform
from bot.outgoing.messenger import Result, Sent
from bot.outgoing.sent import Posted
from bot.table.people import Person
from bot.storage.choose import make_store
from bot.table.timers import Timers


@dataclass
class Call:
    method: str
    chat_id: int | None
    text: str | None = None
    markup: Any = None


@dataclass
class RecordingMessenger:
    """Answers like Telegram would when every call succeeds; ``unreachable`` users never opened
    the private chat with the bot."""

    admins: set[tuple[int, int]] = field(default_factory=set)
    unreachable: set[int] = field(default_factory=set)
    calls: list[Call] = field(default_factory=list)
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def _sent(self, method: str, chat_id: int, text: str | None = None, markup: Any = None) -> Sent:
        self.calls.append(Call(method, chat_id, text, markup))
        if chat_id in self.unreachable:
            return Sent(Result.FORBIDDEN)
        return Sent(Result.OK, Posted(next(self._ids)))

    def texts(self, chat_id: int) -> list[str]:
        return [c.text for c in self.calls if c.chat_id == chat_id and c.text is not None]

    async def send_text(self, chat_id, text, markup=None, **_):
        return self._sent("sendMessage", chat_id, text, markup)

    async def broadcast(self, chat_id, text, markup=None, **kw):
        """A message to many chats (the broadcasts' class): sent as any message is here."""
        return await self.send_text(chat_id, text, markup, **kw)

    async def send_photo(self, chat_id, picture, caption, markup=None, **_):
        await picture()  # drawn when it goes out, as the Messenger does
        return self._sent("sendPhoto", chat_id, caption, markup)

    async def edit_text(self, chat_id, message_id, text, markup=None):
        return self._sent("editMessageText", chat_id, text, markup)

    async def edit_photo(self, chat_id, message_id, picture, caption, markup=None):
        await picture()
        return self._sent("editMessageMedia", chat_id, caption, markup)

    async def edit_caption(self, chat_id, message_id, caption, markup=None):
        return self._sent("editMessageCaption", chat_id, caption, markup)

    async def edit_markup(self, chat_id, message_id, markup, **_):
        return self._sent("editMessageReplyMarkup", chat_id, None, markup)

    async def delete(self, chat_id, message_id, **_):
        return self._sent("deleteMessage", chat_id)

    def post(self, chat_id, text, markup=None, *, picture=None, **_):
        self._sent("sendPhoto" if picture is not None else "sendMessage", chat_id, text, markup)

    def answer_soon(self, query_id, text=None, *, alert=False, url=None):
        self.calls.append(Call("answerCallbackQuery", None, text))

    async def answer(self, query_id, text=None, *, alert=False, url=None):
        self.calls.append(Call("answerCallbackQuery", None, text))
        return Sent(Result.OK)

    async def is_member(self, chat_id, user_id):
        return True

    async def is_admin(self, chat_id, user_id):
        return (chat_id, user_id) in self.admins


async def no_picture(job) -> bytes:
    return b""


class Core:
    """The bot's objects (``bot.wiring.Core``'s fields: ``door``, ``lobby``, ``play``, ``book``…),
    with a few helpers for tests."""

    def __init__(self, built: platform.Core):
        self.built = built

    def __getattr__(self, name: str) -> Any:
        return getattr(self.built, name)

    async def person(self, user_id: int, name: str, lang: str = "en", *, private_ok: bool = True) -> Person:
        await self.store.touch_user(user_id, name, None, lang)
        await self.store.set_private_ok(user_id, private_ok)
        return Person(user_id, name, lang)

    async def idle(self) -> None:
        """Wait until the background work (redraws, pings, computers) has run."""
        while self.background.busy:
            await self.background.drain()

    async def close(self) -> None:
        await self.idle()
        await self.store.close()


async def build_core(*, turn_minutes: float = 10, lobby_minutes: int = 30, db: str = ":memory:",
                     messenger: RecordingMessenger | None = None, **more) -> Core:
    """The bot's objects, wired as in bot/app.py, over a store (in memory, or the file ``db``,
    where a test may build the bot again as a restart would) and a recorder; ``more``: other
    arguments of ``bot.wiring.build_core`` (``season``, ``clock``)."""
    store = await make_store(db).open()
    return Core(platform.build_core(store, messenger or RecordingMessenger(), Timers(None), bot_username="tablebot",
                                    turn_minutes=turn_minutes, lobby_minutes=lobby_minutes, computer_pause=0.0,
                                    render=no_picture, **more))
