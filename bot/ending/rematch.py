"""🔁 under the results: a new lobby with the same options, hosted by whoever tapped it (they
want the game), with the computers of last time; the other players of last time are asked, in
the lobby, to tap Join. It follows every game (``bot/ending/after.py``) whose play does not go on
by itself (a series). The button goes once used; a second tap is told where the lobby is, and
nothing is posted. A rematch lobby that is cancelled (or left by everyone) gives the results
their 🔁 back."""
from __future__ import annotations

from engines import registry
from bot.ending.after import End, Sequel
from bot.ending.results import rematch_button, results_markup
from bot.lobby.lobby import Lobby
from bot.lobby.menu import LobbyNote
from bot.outgoing.keyboard import Answer, Button
from bot.outgoing.messenger import Messenger
from bot.outgoing.pacing import TIDY
from bot.storage.store import Game, Seat, Status
from bot.table.background import Background
from bot.table.book import GameBook, Match
from bot.table.changes import Change, LobbyClosed
from bot.table.people import People, Person
from bot.words.i18n import t
from bot.words.refusals import Refused


KEPT = 5000  # results remembered without their 🔁 (memory only: after a restart a tap edits once more)


class Rematch:
    def __init__(self, book: GameBook, lobby: Lobby, people: People, messenger: Messenger, background: Background):
        self.book = book
        self.lobby = lobby
        self.people = people
        self.messenger = messenger
        self.background = background
        self._taken: dict[tuple[int, int], None] = {}  # results whose 🔁 is off, oldest first
        self._rematches: dict[int, Game] = {}  # a rematch lobby's id -> the game it came from

    async def follow(self, end: End) -> Sequel | None:
        """🔁 under the results, unless play goes on by itself."""
        if any(sequel.goes_on for sequel in end.sequels):
            return None
        game = end.match.game
        if game.inline:  # there: a new invitation to the same game, in the same chat (the bot is not in it)
            return Sequel(buttons=lambda lang: [Button(t(lang, "🔁 Rematch"), switch_inline=game.kind)])
        return Sequel(buttons=lambda lang: [rematch_button(lang)])

    def hear(self, change: Change) -> None:
        """A rematch lobby closed without its game starting: the results get their 🔁 back."""
        if isinstance(change, LobbyClosed):
            old = self._rematches.pop(change.match.id, None)
            if old is not None and change.match.game.status != Status.RUNNING:
                self._show(old, rematch=True)

    async def press(self, match: Match, person: Person) -> Answer:
        game = match.game
        if game.is_open:
            raise Refused("not_over")
        here = await self.book.open_at(game.chat_id, game.thread_id)
        if here is not None:
            self._used(game)
            raise Refused("rematch_open" if here.game.status == Status.LOBBY else "game_open")
        info = registry.info(game.kind)
        chat_lang = await self.people.chat_lang(game.chat_id)
        mine = game.seat_of(person.id)
        host = game.seats[mine] if mine is not None else Seat(0, person.id, person.seat_name)
        seated = [host] + [s for s in game.seats if s.is_computer]
        others = tuple(s.name for s in game.seats if s not in seated and not s.is_computer)
        new = await self.lobby.open(chat_id=game.chat_id, thread_id=game.thread_id, person=person, info=info,
                                    options=dict(game.options), chat_lang=chat_lang, players=seated,
                                    note=LobbyNote("again", {"names": others}) if others else None)
        if new is None:
            raise Refused("game_open")
        self._rematches[new.id] = game
        self._used(game)
        return Answer(t(person.lang, "A new lobby is open below, and you host it: tap ▶️ Start when everyone "
                                     "has joined."))

    def _used(self, game: Game) -> None:
        """The results keep their text and 🎞, not their 🔁 (it has been used): once (a second
        tap on a 🔁 still showing would edit it to the same buttons again)."""
        if (game.chat_id, game.results_msg) not in self._taken:
            self._show(game, rematch=False)

    def _show(self, game: Game, *, rematch: bool) -> None:
        chat_id, message_id, short_id = game.chat_id, game.results_msg, game.short_id
        if not message_id:  # (not UNKNOWN_MESSAGE)
            return
        if rematch:
            self._taken.pop((chat_id, message_id), None)
        else:
            self._taken[(chat_id, message_id)] = None
            if len(self._taken) > KEPT:
                self._taken.pop(next(iter(self._taken)))

        async def job() -> None:
            lang = await self.people.chat_lang(chat_id)
            await self.messenger.edit_markup(chat_id, message_id, results_markup(short_id, lang, rematch=rematch),
                                             priority=TIDY)
        self.background.schedule(("strip", chat_id, message_id), job)
