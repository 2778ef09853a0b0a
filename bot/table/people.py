"""Who is who: the person behind an update, chat and user languages, who may manage a game.

Reading who someone is writes nothing: a stranger's stray press leaves no trace in the store.
A person is remembered (``remember``) once they take part (open or join a game, open the
private chat), and a group (``adopt_chat``) once a game is opened there. Languages and admin
rights are read on every press, so they are cached here (admin rights for two minutes, as
Telegram's own clients do); the store stays the source of truth.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from telegram import Chat, User
from telegram.constants import ChatType

from bot.words.i18n import normalize_lang, t
from bot.outgoing.messenger import Messenger
from bot.words.names import person_name
from bot.storage.store import Game, GameStore, is_inline_chat

ADMIN_CACHE_SECONDS = 120


@dataclass
class Person:
    """The Telegram user behind an update, as the bot needs it."""

    id: int
    name: str  # never blank: "Player" in their language when the Telegram name shows nothing
    lang: str
    nameless: bool = False

    @property
    def seat_name(self) -> str:
        """The name a seat of theirs starts with ('' lets the lobby say "Player N")."""
        return "" if self.nameless else self.name


KEPT = 50_000  # people (and a group's admins) each cache keeps: the oldest go first


def _keep(cache: dict, key, value) -> None:
    """``cache[key] = value``, as the newest entry; the oldest goes once there are ``KEPT``, so
    that memory does not grow with everyone the bot has ever seen."""
    cache.pop(key, None)
    cache[key] = value
    if len(cache) > KEPT:
        del cache[next(iter(cache))]


class People:
    def __init__(self, store: GameStore, messenger: Messenger):
        self.store = store
        self.messenger = messenger
        self._seen: dict[int, tuple[str, str | None, str | None]] = {}  # as the last update showed them
        self._known: dict[int, tuple[str, str | None, str | None]] = {}  # as the store has them
        self._langs: dict[int, str] = {}
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}

    async def person(self, user: User) -> Person:
        """The person of a Telegram user (nothing is written)."""
        name = person_name(user.first_name, user.last_name, user.username)
        _keep(self._seen, user.id, (name, user.username, user.language_code))
        lang = await self.user_lang(user.id, telegram_code=user.language_code)
        return Person(user.id, name or t(lang, "Player"), lang, nameless=not name)

    async def remember(self, person: Person) -> None:
        """Keep the person in the store (name, language) now that they take part."""
        seen = self._seen.get(person.id, (person.name, None, person.lang))
        if self._known.get(person.id) != seen:
            await self.store.touch_user(person.id, *seen)
            _keep(self._known, person.id, seen)
            self._langs.pop(person.id, None)

    async def known(self, user_id: int) -> Person | None:
        """A person the store knows, as they were last seen (None: unknown, or forgotten)."""
        row = await self.store.user(user_id)
        if row is None or row.forgotten or not row.name:
            return None
        return Person(user_id, row.name, await self.user_lang(user_id))

    # ---- languages -----------------------------------------------------------------------

    async def user_lang(self, user_id: int, *, telegram_code: str | None = None) -> str:
        """The person's language: the one they chose, else their Telegram app's."""
        lang = self._langs.get(user_id)
        if lang is None:
            row = await self.store.user(user_id)
            if row is not None and (row.lang_chosen or telegram_code is None):
                lang = normalize_lang(row.lang)
                _keep(self._langs, user_id, lang)
            else:
                return normalize_lang(telegram_code)
        return lang

    async def set_user_lang(self, user_id: int, lang: str) -> None:
        await self.store.set_user_lang(user_id, lang)
        _keep(self._langs, user_id, lang)

    async def chat_lang(self, chat_id: int) -> str:
        """The language of a chat: a group's own, or in a private chat the user's."""
        if chat_id > 0:
            return await self.user_lang(chat_id)
        row = await self.store.chat(chat_id)
        return normalize_lang(row.lang) if row and row.lang else "en"

    async def lang_in(self, chat: Chat, person: Person) -> str:
        """The language to answer the person in this chat: the group's, or until the group has
        one, the person's (nothing is written)."""
        if chat.type == ChatType.PRIVATE:
            return person.lang
        row = await self.store.chat(chat.id)
        return normalize_lang(row.lang) if row and row.lang else person.lang

    async def adopt_chat(self, chat_id: int, title: str | None, person: Person) -> str:
        """A game is opened in this chat: keep a group's title; its first language is the person's."""
        await self.remember(person)
        if chat_id > 0:
            return person.lang
        row = await self.store.chat(chat_id)
        if row is None or not row.lang or (title and row.title != title):
            lang = row.lang if row and row.lang else person.lang
            await self.store.set_chat(chat_id, lang=lang, title=title or "")
            return lang
        return normalize_lang(row.lang)

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await self.store.set_chat(chat_id, lang=lang)

    # ---- a group's settings and a person's pings -----------------------------------------

    async def chat_settings(self, chat_id: int) -> dict:
        row = await self.store.chat(chat_id)
        return dict(row.settings) if row else {}

    async def set_chat_setting(self, chat_id: int, key: str, value: object) -> None:
        await self.store.set_chat_setting(chat_id, key, value)

    async def notify_on(self, user_id: int) -> bool:
        """Whether the person wants a ping when it is their turn (yes until they say no)."""
        row = await self.store.user(user_id)
        return row is None or row.notify

    async def set_notify(self, person: Person, on: bool) -> None:
        await self.remember(person)
        await self.store.set_notify(person.id, on)

    # ---- rights --------------------------------------------------------------------------

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0 or is_inline_chat(chat_id):
            return False  # a private chat, or a chat the bot is not in (it cannot ask there)
        cached = self._admins.get((chat_id, user_id))
        if cached and time.monotonic() - cached[0] < ADMIN_CACHE_SECONDS:
            return cached[1]
        value = await self.messenger.is_admin(chat_id, user_id)
        _keep(self._admins, (chat_id, user_id), (time.monotonic(), value))
        return value

    async def may_manage(self, game: Game, user_id: int) -> bool:
        """The host or an admin of the game's chat may start, cancel and change it."""
        return user_id == game.host_id or await self.is_admin(game.chat_id, user_id)

    # ---- private chats -------------------------------------------------------------------

    async def private_ok(self, user_id: int) -> bool:
        """Whether the person opened the private chat with the bot (and did not block it)."""
        row = await self.store.user(user_id)
        return bool(row and row.private_ok)

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self.store.set_private_ok(user_id, ok)
        self._known.pop(user_id, None)  # the row may be new: remember() fills in the name

    async def opened_private(self, person: Person) -> None:
        """The person wrote to the bot in private: private messages reach them."""
        await self.set_private_ok(person.id, True)
        await self.remember(person)
