"""A series: several games in a row by the same people, of any kind.

``Standings.record`` adds a finished game's series points (the adapter's ``series_points``: by
place, or lucky's victory points) to its series and says who sits where in the next game.
``SeriesSuccessor`` follows every game (``bot/ending/after.py``): a game of a series is counted,
its next game seated at once, the standings shown below the results, and that game started
once they are posted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bot.ending.after import End, Sequel
from bot.table.book import Match
from bot.table.play import Play
from bot.words.format import points_text, whole
from bot.words.i18n import t
from bot.words.names import in_text
from bot.storage.store import Game, GameStore, Seat, Series


@dataclass
class SeriesNews:
    """Standings after a game of a series; ``next_seats`` is None when the series is over.
    ``gained``: what each person got in the game just played (by user id)."""

    series: Series
    names: dict[int, str]
    next_seats: list[Seat] | None
    gained: dict[int, float] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        s = self.series
        table = sorted(s.users, key=lambda u: -s.points.get(str(u), 0))
        lines = [t(lang, "<b>Series</b>: game {played} of {total}", played=s.played, total=s.total)]
        for user_id in table:
            line = f"{in_text(self.names.get(user_id, '?'))}: {points_text(s.points.get(str(user_id), 0))}"
            if user_id in self.gained:
                line += f" (+{points_text(self.gained[user_id])})"
            lines.append(line)
        if self.next_seats is None:
            best = max(s.points.values())
            champs = [in_text(self.names.get(u, "?")) for u in s.users if s.points.get(str(u), 0) == best]
            if len(champs) == 1:
                lines.append(t(lang, "🏆 Series winner: {name}", name=champs[0]))
            else:  # a tie shares the title (names stay as they are: a list after a colon)
                lines.append(t(lang, "🏆 The series is shared: {names}", names=", ".join(champs)))
        else:
            lines.append(t(lang, "The next game starts now."))
        return "\n".join(lines)


class Standings:
    def __init__(self, store: GameStore):
        self.store = store

    async def record(self, match: Match) -> SeriesNews | None:
        """Add a finished game of a series to its standings; None for a game on its own."""
        game = match.game
        if game.series_id is None:
            return None
        series = await self.store.series(game.series_id)
        if series is None:
            return None
        points = match.ui.series_points(match.state, len(game.seats))
        gained = {s.user_id: whole(points[s.seat]) for s in game.seats}
        if game.id in series.counted:  # already added (the bot stopped before posting the results)
            return self._news(game, series, gained)
        for user_id, got in gained.items():
            series.points[str(user_id)] = whole(series.points.get(str(user_id), 0) + got)
        series.played += 1
        series.counted.append(game.id)
        await self.store.save_series(series)
        return self._news(game, series, gained)

    @staticmethod
    def _news(game: Game, series: Series, gained: dict[int, float]) -> SeriesNews:
        names = {s.user_id: s.name for s in game.seats}
        if series.played >= series.total:
            return SeriesNews(series, names, None, gained)
        # Rotate the seats so that everyone starts once (a team game keeps its teams: partners
        # sit two apart, and a rotation keeps them so).
        rotated = game.seats[1:] + game.seats[:1]
        return SeriesNews(series, names, [s.moved_to(i) for i, s in enumerate(rotated)], gained)


class SeriesSuccessor:
    """What follows a game of a series: its standings, and the next game (no 🔁 while it goes on)."""

    def __init__(self, store: GameStore, play: Play):
        self.standings = Standings(store)
        self.play = play

    async def follow(self, end: End) -> Sequel | None:
        news = await self.standings.record(end.match)
        if news is None:
            return None
        goes_on = news.next_seats is not None
        following = await self.play.next_in_series(end.match, news.next_seats) if goes_on else None
        return Sequel(words=news.text, goes_on=goes_on,
                      then=(lambda: self.play.after_start(following)) if following is not None else None)
