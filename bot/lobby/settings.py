"""Settings people change with a command: a chat's language (/lang), turn pings (/notify), and a
group's times (/lobbytimeout, /turntimer). Who may change what is decided here: a person their
own language and pings; in a group, an admin the times and an admin or the host of the game
there the language. Each call returns what to answer, in the asker's language.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from bot.outgoing import keyboard
from bot.table.book import GameBook
from bot.table.changes import Changes, Shown
from bot.words.i18n import LANGS, fold, language_name, t, typed
from bot.outgoing.keyboard import MENU, Button
from bot.words.numbers import ascii_int
from bot.lobby.lobby import Lobby
from bot.words.names import in_text
from bot.table.people import People, Person
from bot.table.play import Play
from bot.words.refusals import Refused, word_html
from bot.storage.store import Status
from bot.table.turns import MAX_MINUTES, MIN_MINUTES, TurnPolicy

LANG_BUTTON = "l."  # /lang's buttons: ``l.<lang>``


@dataclass(frozen=True)
class Minutes:
    """A group setting in minutes: its stored key, its range, and whether 0 switches it off."""

    key: str
    low: int
    high: int
    may_be_off: bool


LOBBY_TIMEOUT = Minutes("lobby_timeout", 5, 1440, may_be_off=False)
TURN_TIMER = Minutes("turn_timeout", MIN_MINUTES, MAX_MINUTES, may_be_off=True)


class Settings:
    def __init__(self, book: GameBook, people: People, turns: TurnPolicy, play: Play, lobby: Lobby,
                 changes: Changes):
        self.book = book
        self.people = people
        self.turns = turns
        self.play = play
        self.lobby = lobby
        self.changes = changes

    # ---- language --------------------------------------------------------------------------

    async def lang(self, chat_id: int, person: Person, words: list[str], lang: str) -> tuple[str, object]:
        """/lang [en|ru]: the chat's language (in private: the person's own); without a word, the
        choice as buttons. Returns the text and its keyboard."""
        if not words or words[0].lower() not in LANGS:
            rows = [[Button(language_name(code), f"{LANG_BUTTON}{code}") for code in LANGS]]
            return t(lang, "Choose the language:"), keyboard.markup(MENU, None, rows)
        try:
            return await self.set_lang(chat_id, person, words[0].lower()), None
        except Refused as refused:
            return word_html(refused, person.lang), None

    async def set_lang(self, chat_id: int, person: Person, lang: str) -> str:
        """Set the language; in a group only an admin or the host of the game there may."""
        if chat_id > 0:
            await self.people.remember(person)
            await self.people.set_user_lang(person.id, lang)
            return t(lang, "Your language is now English.")
        match = await self.book.open_at(chat_id, 0)
        is_host = match is not None and match.game.host_id == person.id
        if not is_host and not await self.people.is_admin(chat_id, person.id):
            raise Refused("lang_rights")
        await self.people.set_chat_lang(chat_id, lang)
        if match is not None:
            self.changes.publish(Shown(match))  # the lobby or the table in the new language
        return t(lang, "The language of this chat is now English.")

    # ---- pings ---------------------------------------------------------------------------

    async def notify(self, person: Person, words: list[str], lang: str) -> str:
        """/notify [on|off]: whether I ping the person when it is their turn."""
        value = fold(words[0]) if words else ""
        if value in typed("on") | typed("off"):
            await self.people.set_notify(person, value in typed("on"))
        if await self.people.notify_on(person.id):
            return t(lang, "🔔 {name}: I ping you when it is your turn. /notify off stops it.",
                     name=in_text(person.name))
        return t(lang, "🔕 {name}: no pings when it is your turn. /notify on brings them back.",
                 name=in_text(person.name))

    # ---- a group's times -------------------------------------------------------------------

    async def lobby_timeout(self, chat_id: int, thread_id: int, person: Person, words: list[str],
                            lang: str) -> str:
        """/lobbytimeout [minutes]: idle lobbies close after this long."""
        async def describe() -> str:
            return t(lang, "Idle lobbies close after {n} minutes. Change it with /lobbytimeout <i>minutes</i> (5-1440).",
                     n=await self.lobby.timeout_minutes(chat_id))
        return await self._minutes(
            LOBBY_TIMEOUT, chat_id, person, words, lang, describe=describe,
            invalid=t(lang, "Please give a number of minutes from 5 to 1440."),
            changed=lambda n: t(lang, "Idle lobbies now close after {n} minutes.", n=n))

    async def turn_timer(self, chat_id: int, thread_id: int, person: Person, words: list[str], lang: str) -> str:
        """/turntimer [minutes|off]: how long a move may take in this group."""
        async def describe() -> str:
            current = await self.turns.minutes(chat_id)
            if current <= 0:
                return t(lang, "There is no turn timer here: players take as long as they like. "
                               "Turn it on with /turntimer <i>minutes</i> (1-1440).")
            return t(lang, "A move may take {n} minutes here; then I remind, and move for whoever is away. "
                           "Change it with /turntimer <i>minutes</i> (1-1440) or /turntimer off.", n=f"{current:g}")

        async def restart_timer() -> None:
            match = await self.book.open_at(chat_id, thread_id)
            if match is not None and match.game.status == Status.RUNNING:
                self.play.arm_turn_timer(match)  # the running game takes the new time at once
        return await self._minutes(
            TURN_TIMER, chat_id, person, words, lang, describe=describe, after=restart_timer,
            invalid=t(lang, "Please give a number of minutes from 1 to 1440, or off."),
            changed=lambda n: t(lang, "A move may now take {n} minutes.", n=n) if n else
            t(lang, "The turn timer is off: players take as long as they like."))

    async def _minutes(self, setting: Minutes, chat_id: int, person: Person, words: list[str], lang: str, *,
                       describe: Callable[[], Awaitable[str]], invalid: str, changed: Callable[[int], str],
                       after: Callable[[], Awaitable[None]] | None = None) -> str:
        """Anyone may read a group's setting; an admin changes it (``after`` applies the new value
        to what is already running)."""
        if chat_id > 0:
            return t(lang, "This setting is for groups.")
        if not words:
            return await describe()
        if not await self.people.is_admin(chat_id, person.id):
            return t(lang, "Only a chat admin can change this.")
        value = words[0].lower()
        if setting.may_be_off and (value == "0" or fold(value) in typed("off") | typed("no")):
            minutes = 0
        else:
            minutes = ascii_int(value)
            if minutes is None or not setting.low <= minutes <= setting.high:
                return invalid
        await self.people.set_chat_setting(chat_id, setting.key, minutes)
        if after is not None:
            await after()
        return changed(minutes)
