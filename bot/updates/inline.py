"""Play anywhere: a game started with ``@bot`` in a chat the bot is not in (inline mode).

Typing ``@bot`` in any chat offers the games (a text after it filters them, by any of their names
in any language); the one chosen is posted there via the bot as an invitation with ✋ Join. Its
first press opens the lobby on that very message, hosted by whoever posted it (the press carries
the chat's ``chat_instance``, which a chosen result does not: the game is keyed by it,
``bot/storage/store.py``: ``inline_chat``). From then on the message is the game's lobby, then its
table, then its results, through the same door and the same table code as a group's; secrets
and turn pings go by private message. A second game in that chat waits until the first is over,
as in a group.
"""
from __future__ import annotations

import logging
import re

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.constants import ParseMode

from engines import registry
from bot.games import game_sign, kit_for
from bot.lobby.lobby import Lobby
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Answer, Button
from bot.outgoing.messenger import Messenger
from bot.storage.store import from_base36, to_base36
from bot.table.book import GameBook
from bot.table.people import People, Person
from bot.updates.context import TableContext, Where
from bot.updates.routes import Press
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.refusals import Refused
from bot.words.texts import game_name, games_named

log = logging.getLogger(__name__)

INVITE = "iv."  # an invitation's ✋ Join: ``iv.<game>.<host>`` (no game exists before its first press)
CACHE_SECONDS = 30  # how long Telegram may show a person the same results again


class InlineRoutes:
    COMMANDS = ()
    PRESSES = (Press(keyboard.menu_pattern(re.escape(INVITE) + r"[a-z0-9_]{1,12}\.[0-9a-z]{1,12}"), "on_invitation"),)

    def __init__(self, lobby: Lobby, book: GameBook, people: People, messenger: Messenger):
        self.lobby = lobby
        self.book = book
        self.people = people
        self.messenger = messenger

    async def on_query(self, update: Update, context: TableContext) -> None:
        """``@bot <text>``: the games whose names hold the text (every game when none does)."""
        query, person = update.inline_query, context.person
        if person is None:
            return
        await self.people.remember(person)  # their name, for the lobby their invitation opens
        results = [self._result(info, person) for info in games_named(query.query) or registry.all_infos()]
        await self.messenger.answer_inline(query.id, results, cache_time=CACHE_SECONDS)

    async def on_chosen(self, update: Update, context: TableContext) -> None:
        """An invitation was posted (with inline feedback on): its lobby opens at its first press,
        which tells its chat."""
        chosen = update.chosen_inline_result
        log.info("an invitation to %s was posted via inline mode", chosen.result_id)

    @staticmethod
    def _result(info, person: Person) -> InlineQueryResultArticle:
        lang, kit = person.lang, kit_for(info.id)
        name = game_name(info, lang)
        text = t(lang, "{sign} <b>{game}</b> · {tag}\n{name} invites you to play: tap ✋ Join.",
                 sign=kit.sign, game=name, tag=t(lang, kit.tag), name=in_text(person.name))
        join = Button(t(lang, "✋ Join"), f"{INVITE}{info.id}.{to_base36(person.id)}")
        return InlineQueryResultArticle(
            id=info.id, title=f"{kit.sign} {name}", description=f"{t(lang, kit.tag)} — {t(lang, kit.blurb)}",
            input_message_content=InputTextMessageContent(text, parse_mode=ParseMode.HTML),
            reply_markup=keyboard.markup(MENU, None, [[join]]))

    async def on_invitation(self, person: Person, where: Where, data: str) -> Answer:
        """The first press on an invitation opens its lobby on that message (its host seated, and
        whoever pressed, if someone else); a later one on a lobby opened meanwhile joins it."""
        if where.inline is None or where.inline_chat is None:
            raise Refused("bad_button")
        kind, host_id = keyboard.parse(data).action[len(INVITE):].split(".")
        try:
            info = registry.info(kind)
        except KeyError:
            raise Refused("no_game") from None
        match = await self.book.on_inline(where.inline)
        if match is None:
            host = await self.people.known(from_base36(host_id)) or person
            chat_lang = await self.people.adopt_chat(where.inline_chat, None, host)
            match = await self.lobby.open(chat_id=where.inline_chat, thread_id=0, person=host, info=info,
                                          options=info.default_options(), chat_lang=chat_lang, inline_msg=where.inline)
            if match is None:
                await self._taken(where, info, chat_lang)
                raise Refused("game_open")
        if person.id == match.game.host_id and match.game.seat_of(person.id) is not None:
            return Answer(t(person.lang, "You host it: friends tap ✋ Join, then you tap ▶️ Start."))
        return await self.lobby.join(match, person)

    async def _taken(self, where: Where, info, lang: str) -> None:
        """The chat has a game open already: the invitation says so, and leads nowhere."""
        text = t(lang, "{sign} <b>{game}</b>: a game is already open in this chat. Finish it first, then "
                       "invite again.", sign=game_sign(info.id), game=game_name(info, lang))
        await self.messenger.edit_text(where.inline_chat, where.inline, text, None)
