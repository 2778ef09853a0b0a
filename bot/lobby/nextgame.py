"""/nextgame: a person asks, in a group, to be told in private when a lobby opens there.

The requests of a group are a list of user ids in the group's settings (``next_game``), so they
survive a restart without a table of their own. A lobby opened in the group (``/new``, the game
menu, 🔁 rematch) uses the whole list up: everyone on it but the host is told once in private,
with a link to the lobby message; a person who wants the game after that asks again.
"""
from __future__ import annotations

import logging

from telegram.helpers import create_deep_linked_url

from engines import registry
from bot.words.format import message_link
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.storage.store import Status
from bot.table.background import Background
from bot.table.book import GameBook, Match
from bot.table.changes import Change, LobbyOpened
from bot.table.people import People, Person
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import game_name

log = logging.getLogger(__name__)

KEY = "next_game"  # the group's setting: who waits for its next lobby
START = "next"  # the /start payload of the button to the private chat (answered by DeepLinks.start, bot/lobby/links.py)


class NextGame:
    def __init__(self, book: GameBook, people: People, messenger: Messenger, background: Background, *,
                 bot_username: str):
        self.book = book
        self.people = people
        self.messenger = messenger
        self.background = background
        self.bot_username = bot_username

    async def ask(self, chat_id: int, thread_id: int, person: Person, lang: str) -> tuple[str, object]:
        """/nextgame: what to answer (text, markup). Asked again while waiting, it says so and
        changes nothing (a second tap by mistake must not cancel the first)."""
        if chat_id > 0:
            return t(lang, "/nextgame works in a group: write it there, and I will tell you here when "
                           "someone opens a game in that group."), None
        here = await self.book.open_at(chat_id, thread_id)
        if here is not None and here.game.status == Status.LOBBY:
            return t(lang, "A lobby is open here right now: tap Join in it."), None
        await self.people.remember(person)
        waiting = await self._waiting(chat_id)
        name = in_text(person.name)
        if person.id in waiting:
            text = t(lang, "{name}, you are already on the list: I will tell you in private when the next "
                           "game opens here.", name=name)
        else:
            await self.people.set_chat_setting(chat_id, KEY, waiting + [person.id])
            text = t(lang, "{name}, I will tell you in private when the next game opens here.", name=name)
        if await self.people.private_ok(person.id):
            return text, None
        # A message cannot reach someone who never opened the private chat: show the way there.
        text += "\n" + t(lang, "You have not opened the private chat with me yet: tap the button and press "
                               "START, or I cannot write to you.")
        return text, keyboard.markup(MENU, None, [[Button(t(lang, "💬 Open the private chat"),
                                                          url=create_deep_linked_url(self.bot_username, START))]])

    def hear(self, change: Change) -> None:
        """A lobby opened (subscribed to ``bot.table.changes.Changes``)."""
        if isinstance(change, LobbyOpened) and change.match.game.chat_id < 0:
            self.background.schedule(("next_game", change.match.id), lambda: self._lobby_opened(change.match))

    async def _lobby_opened(self, match: Match) -> None:
        """A lobby opened in a group: its waiting list is used up now, and everyone on it but the
        host hears of it once the lobby message is posted (the link needs its id)."""
        game = match.game
        waiting = await self._waiting(game.chat_id)
        if not waiting:
            return
        await self.people.set_chat_setting(game.chat_id, KEY, [])
        await match.stages.lobby.caught_up()  # the lobby message is there: the link needs its id
        chat = await self.people.store.chat(game.chat_id)
        title = in_text(chat.title) if chat and chat.title else "—"
        info = registry.info(game.kind)
        link = message_link(game.chat_id, game.lobby_msg)
        for user_id in waiting:
            if user_id == game.host_id:
                continue
            lang = await self.people.user_lang(user_id)
            text = t(lang, "🔔 A game of {game} is open in {chat}: join it there.", game=game_name(info, lang),
                     chat=title)
            markup = keyboard.markup(MENU, None, [[Button(t(lang, "➡️ To the lobby"), url=link)]]) if link else None
            await self.messenger.broadcast(user_id, text, markup)  # one of many notices: 30 a second at most


    async def _waiting(self, chat_id: int) -> list[int]:
        value = (await self.people.chat_settings(chat_id)).get(KEY)
        return [u for u in value if isinstance(u, int)] if isinstance(value, list) else []
