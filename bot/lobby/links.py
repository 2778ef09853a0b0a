"""``/start <payload>`` in the private chat: the deep links that join a lobby (``j<game>``),
bring a player's private message of a running game down (``g<game>``), or thank someone who
opened the chat from /nextgame's button (``next``)."""
from __future__ import annotations

import re

from engines import registry
from bot.lobby.lobby import Lobby
from bot.lobby.nextgame import START as NEXT_GAME_START
from bot.outgoing.messenger import Messenger
from bot.storage.store import GameStore, Status, from_base36
from bot.table.book import GameBook, Match
from bot.table.changes import Changes, Summoned
from bot.table.people import People, Person
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.refusals import Refused, word_html
from bot.words.texts import game_name

_START_PAYLOAD = re.compile(r"^([jg])([0-9a-z]{1,12})\Z")  # a deep link's payload: join, or back to a game


class DeepLinks:
    def __init__(self, lobby: Lobby, book: GameBook, store: GameStore, people: People, messenger: Messenger,
                 changes: Changes):
        self.lobby = lobby
        self.book = book
        self.store = store
        self.people = people
        self.messenger = messenger
        self.changes = changes

    async def start(self, person: Person, payload: str) -> str | None:
        """``/start <payload>`` in private: ``j<game>`` joins a lobby, ``g<game>`` brings the
        person's private message of a running game down (None: it was brought, nothing to say);
        anything else is the plain greeting ("")."""
        await self.people.opened_private(person)
        if payload == NEXT_GAME_START:  # from /nextgame's button: now a message can reach them
            return t(person.lang, "Thank you: now I can write to you here, and I will tell you when the next "
                                  "game opens in your group.")
        link = _START_PAYLOAD.match(payload)
        if link is None:
            return ""
        kind, short_id = link.groups()
        match = await self.book.load(from_base36(short_id))
        if kind == "j":
            return await self.join_from_private(person, match)
        seat = match.game.seat_of(person.id) if match is not None else None
        if match is None or not match.running or seat is None:
            return ""
        self.changes.publish(Summoned(match, seat))
        return None

    async def join_from_private(self, person: Person, match: Match | None) -> str:
        """``/start j<game>``: the person opened the private chat to join."""
        game = match.game if match is not None else None
        lang = person.lang
        if game is None or game.status != Status.LOBBY:
            if game is not None and game.status == Status.RUNNING and game.seat_of(person.id) is not None:
                self.changes.publish(Summoned(match, game.seat_of(person.id)))
                return t(lang, "Welcome back! Your game continues here.")
            return t(lang, "That lobby is closed. Ask for a new one with /new in the group.")
        info = registry.info(game.kind)
        if game.chat_id < 0 and not game.inline and game.seat_of(person.id) is None:  # (inline: no group to ask)
            member = await self.messenger.is_member(game.chat_id, person.id)
            if member is None:
                return t(lang, "I could not check that you are in that group. Please try again in a minute.")
            if not member:  # a forwarded link: the lobby is for the group's members
                return t(lang, "That lobby is for the members of its group. Join the group first, "
                               "then tap Join in the lobby.")
        try:
            answer = await self.lobby.join(match, person, via_private=True)
        except Refused as refused:
            return word_html(refused, lang)
        chat = await self.store.chat(game.chat_id)
        title = in_text(chat.title) if chat and chat.title else "—"
        if answer.outcome == "already":
            # They were in already (joined before); make sure Start is not blocked by a stale note.
            self.lobby.clear_note(match)
        if game.inline:  # a chat the bot knows by no title
            return t(lang, "You joined {game}. Your secrets will come here.", game=game_name(info, lang))
        return t(lang, "You joined {game} in {chat}. Your secrets will come here.",
                 game=game_name(info, lang), chat=title)
