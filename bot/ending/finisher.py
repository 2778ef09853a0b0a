"""The end of a game, in one place (as lila's ``Finisher``): when a game is over, its series
counts it and its next game is seated; once the final table and private messages show the last
move, the group gets the results (the game's own words, each person's rating change, the
series' standings, 🎞 and 🔁), each person their own result in private where the game has no
private message to end with it, and the next game of a series starts below the results.

The results are posted once across any stop: the intent is stored before the send, so a
restart never posts them twice; a send that surely failed is tried again later. A bot that
stopped before a game's end was shown shows it at the next start (``Play.show_end``).
"""
from __future__ import annotations

from bot.ending.private import PrivateResults
from bot.ending.results import results_message
from bot.ending.series import SeriesNews, Standings
from bot.outgoing.messenger import Messenger, Result
from bot.outgoing.pacing import PERSON
from bot.records.records import Records
from bot.showing.tables import Tables
from bot.storage.store import UNKNOWN_MESSAGE, GameStore
from bot.table.background import Background, TryLater
from bot.table.book import Match
from bot.table.changes import Change, Finished
from bot.table.people import People
from bot.table.play import Play


class Finisher:
    def __init__(self, store: GameStore, messenger: Messenger, people: People, background: Background,
                 records: Records, play: Play, tables: Tables):
        self.store = store
        self.messenger = messenger
        self.people = people
        self.background = background
        self.records = records
        self.play = play
        self.tables = tables
        self.standings = Standings(store)
        self.private = PrivateResults(store, messenger, people)

    def hear(self, change: Change) -> None:
        """A game is over: show its end (subscribed to ``bot.table.changes.Changes``)."""
        if isinstance(change, Finished):
            match = change.match
            self.background.schedule(("end", match.id), lambda: self._count(match))

    async def _count(self, match: Match) -> None:
        """The series counts the game and its next game is seated at once (so that no other game
        takes the group's place meanwhile); it is shown once the results are."""
        news = await self.standings.record(match)
        following = None
        if news is not None and news.next_seats is not None:
            following = await self.play.next_in_series(match, news.next_seats)
        self.background.schedule(("results", match.id), lambda: self._show(match, news, following))

    async def _show(self, match: Match, news: SeriesNews | None, following: Match | None) -> None:
        """Post the results below the final table (after its last edit), once; then start the
        next game of a series below them, send the private results and let the game go."""
        await self.tables.settled(match)
        game = match.game
        if game.results_msg is None:
            # Exactly once, across any stop: the intent is stored before the send, so a
            # restart never posts them again; a send that surely failed is tried again.
            game.results_msg = UNKNOWN_MESSAGE
            await self.store.save_messages(game)
            lang = await self.people.chat_lang(game.chat_id)
            text, markup = results_message(match, lang, await self.records.record(game), news)
            sent = await self.messenger.send_text(game.chat_id, text, markup, thread_id=game.thread_id,
                                                  priority=PERSON, patient=True)
            if sent.message is not None or sent.result == Result.FAILED:
                game.results_msg = sent.message.message_id if sent.message is not None else None
                await self.store.save_messages(game)
            if sent.result == Result.FAILED:
                raise TryLater()  # surely not posted (Telegram did not take it): again later
            # UNSURE (the connection broke after the request went out): it may be there, so
            # it is not posted a second time.
        if following is not None:
            self.play.after_start(following)
        self.background.schedule(("private results", game.id), lambda: self.private.send(match))
        self.tables.let_go(match)
