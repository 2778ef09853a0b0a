"""The end of a game, in one place (as lila's ``Finisher``).

A game that finished: once it is recorded, what follows it hears of it (``bot/ending/after.py``:
the series counts it and seats its next game, 🔁 offers a rematch); once the final table and
private messages show the last move, the group gets the results (the game's own words, each
person's rating change, what its successors add: the series' standings, 🎞 and 🔁), what
follows goes on (the next game of a series starts below them), and each person gets their own
result in private where the game has no private message to end with it. A game that was
cancelled while running: the group is told why, and its messages lose their buttons. Then the
bot lets go of the game (``match.stages``: ``ended``, then ``released``).

Each of these goes out once across any stop. What must not be posted twice stores its intent
when its request leaves for Telegram, not while it waits for its turn in the group's queue: a
stop before then leaves it unsent and unmarked, and the next start shows it (``unshown_ends``,
``Play.show_end``); a kill in the milliseconds of the request itself may lose it, never double
it. When everything of an end has gone out, the game is marked ``end_shown``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from engines import registry
from bot.ending.after import End, Successor
from bot.ending.private import PrivateResults
from bot.ending.results import results_message
from bot.outgoing.messenger import Messenger, Result
from bot.outgoing.pacing import PERSON
from bot.showing.tables import Tables
from bot.storage.store import UNKNOWN_MESSAGE, GameStore
from bot.table.background import Background, TryLater
from bot.table.book import Match
from bot.table.changes import Change, Closed, Finished
from bot.table.people import People
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import game_name


class Finisher:
    def __init__(self, store: GameStore, messenger: Messenger, people: People, background: Background,
                 tables: Tables, successors: Sequence[Successor]):
        self.store = store
        self.messenger = messenger
        self.people = people
        self.background = background
        self.tables = tables
        self.successors = tuple(successors)
        self.private = PrivateResults(store, messenger, people)

    def hear(self, change: Change) -> None:
        """A game is over: show its end (subscribed to ``bot.table.changes.Changes``)."""
        match = change.match
        if isinstance(change, Finished):
            self.background.schedule(("end", match.id), lambda: self._follow(match))
        elif isinstance(change, Closed):
            self.background.schedule(("closed", match.id), lambda: self._closed(change))

    async def _follow(self, match: Match) -> None:
        """Once the game is recorded, what follows it hears of it, each in turn (a series seats its
        next game at once, so that no other game takes the group's place meanwhile); the results
        show what they add."""
        end = End(match, await match.stages.recorded.wait())
        for successor in self.successors:
            sequel = await successor.follow(end)
            if sequel is not None:
                end = replace(end, sequels=end.sequels + (sequel,))
        self.background.schedule(("results", match.id), lambda: self._show(end))

    async def _show(self, end: End) -> None:
        """Post the results below the final table (after its last edit), once; then what follows
        goes on (the next game of a series starts below them), the private results go out and
        the bot lets go of the game."""
        match = end.match
        await match.stages.messages_caught_up()
        game = match.game
        if game.results_msg is None and game.inline:
            # A game on a message posted via the bot: its results are that message's last edit
            # (an edit made twice is harmless: no intent to store first).
            lang = await self.people.chat_lang(game.chat_id)
            await self.tables.show_results(match, *results_message(match, lang, end.record, end.sequels))
            game.results_msg = UNKNOWN_MESSAGE
            await self.store.save_messages(game)
        elif game.results_msg is None:
            lang = await self.people.chat_lang(game.chat_id)
            text, markup = results_message(match, lang, end.record, end.sequels)

            async def leaving() -> None:
                game.results_msg = UNKNOWN_MESSAGE  # from now on they may be there: never again
                await self.store.save_messages(game)
            sent = await self.messenger.send_text(game.chat_id, text, markup, thread_id=game.thread_id,
                                                  priority=PERSON, patient=True, leaving=leaving)
            if sent.message is not None or sent.result == Result.FAILED:
                game.results_msg = sent.message.message_id if sent.message is not None else None
                await self.store.save_messages(game)
            if sent.result == Result.FAILED:
                raise TryLater()  # surely not posted (Telegram did not take it): again later
            # UNSURE (the connection broke after the request went out): it may be there, so
            # it is not posted a second time.
        for sequel in end.sequels:
            if sequel.then is not None:
                sequel.then()
        match.stages.ended.reach()
        self.background.schedule(("private results", game.id), lambda: self._private(match))

    async def _private(self, match: Match) -> None:
        await self.private.send(match)
        await self._shown(match)
        await self.tables.release(match)

    async def _closed(self, change: Closed) -> None:
        """A running game was cancelled: say why, take its buttons off, the table says so too
        (nothing is said when the group is gone)."""
        match, game = change.match, change.match.game
        if change.why is not None:
            lang = await self.people.chat_lang(game.chat_id)
            name = game_name(registry.info(game.kind), lang)
            if change.why == "abandoned":
                text = t(lang, "Nobody has moved in {game} for two rounds ({names}): the game is closed.",
                         game=name, names=", ".join(in_text(s.name) for s in game.seats))
            else:
                text = t(lang, "{game} was cancelled by {name}.", game=name, name=in_text(change.by or "?"))
            if not game.inline:  # (there, the table says it: the bot cannot write in that chat)
                await self.messenger.send_text(game.chat_id, text, thread_id=game.thread_id, priority=PERSON,
                                               leaving=lambda: self._shown(match))
            await self.tables.strip(match)
        await self._shown(match)
        match.stages.ended.reach()
        await self.tables.release(match)

    async def _shown(self, match: Match) -> None:
        """Everything of the game's end went out (or may have): a restart leaves it alone."""
        game = match.game
        if not game.end_shown:
            game.end_shown = True
            await self.store.save_messages(game)
