"""The achievements that read the records (pure): a person's finished games one after another
(``Ledger``: how many, how many won, wins in a row, which games, the best rating) and one game's
record (who sat where, the computers and their level, the ratings, a series' standings).

``firsts`` folds a person's games in the order they ended and says at which game each of the
ledger's achievements was first reached: granted for that game, so that a person who had three
wins in a row long before an achievement existed gets it for that old game, silently, and not
for whatever game they finish next. ``of_record`` says what one game's record earned a seat.

Whose games count: a seat a computer played for most of the game (``autoplayed``) is not its
person's game; an achievement that does not count games with computers (``computers`` in the
catalogue) reads only the games no computer sat in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from bot.records.achievements.catalogue import BY_CODE, FOUR
from bot.storage.store import GameRecord, PlayedGame, RecordSeat, Series

HARD = "hard"


@dataclass
class Ledger:
    """A person's games so far, as the achievements count them."""

    games: int = 0
    wins: int = 0
    wins_people: int = 0  # in games no computer sat in
    streak: int = 0  # wins in a row (a solo game neither counts nor breaks it)
    streak_people: int = 0  # wins in a row among the games no computer sat in
    kinds: set[str] = field(default_factory=set)
    best: int = 0  # the best rating figure after a game

    def add(self, game: PlayedGame) -> None:
        if game.autoplayed:
            return  # a computer played it: not the person's game
        self.games += 1
        self.kinds.add(game.kind)
        if game.players > 1:
            won = game.place == 1
            self.wins += won
            self.streak = self.streak + 1 if won else 0
            if game.computers == 0:
                self.wins_people += won
                self.streak_people = self.streak_people + 1 if won else 0
        if game.after is not None:
            self.best = max(self.best, game.after)


# Each ledger achievement: reached, and (where it counts) how far along.
REACHED: dict[str, Callable[[Ledger], bool]] = {
    "first_game": lambda l: l.games >= 1,
    "first_win": lambda l: l.wins >= 1,
    "games_10": lambda l: l.games >= 10,
    "games_100": lambda l: l.games >= 100,
    "wins_10": lambda l: l.wins_people >= 10,
    "streak_3": lambda l: l.streak >= 3,
    "streak_5": lambda l: l.streak_people >= 5,
    "all_games": lambda l: set(FOUR) <= l.kinds,
    "rating_1600": lambda l: l.best >= 1600,
}
PROGRESS: dict[str, Callable[[Ledger], int]] = {
    "games_10": lambda l: l.games,
    "games_100": lambda l: l.games,
    "wins_10": lambda l: l.wins_people,
    "streak_3": lambda l: l.streak,
    "streak_5": lambda l: l.streak_people,
    "all_games": lambda l: len(l.kinds & set(FOUR)),
}


def firsts(games: list[PlayedGame], until: tuple[float, int] | None = None) -> tuple[dict[str, int], Ledger]:
    """Fold a person's games (oldest first), up to the game that ended at ``until`` (ended,
    game id) included: the game at which each ledger achievement was first reached, and the
    ledger at the end."""
    ledger, reached = Ledger(), {}
    for game in games:
        if until is not None and (game.ended, game.game_id) > until:
            break
        ledger.add(game)
        for code, done in REACHED.items():
            if code not in reached and done(ledger):
                reached[code] = game.game_id
    return reached, ledger


def played(record: GameRecord, seat: RecordSeat) -> PlayedGame:
    """One seat's game as the ledger reads it (``GameStore.history`` reads the same)."""
    computers = sum(1 for s in record.seats if s.is_computer)
    return PlayedGame(record.game_id, record.kind, record.ended, seat.place, len(record.seats), computers,
                      seat.autoplayed, seat.after)


# ---- one game's record -------------------------------------------------------------------

def _won(record: GameRecord, seat: RecordSeat) -> bool:
    return seat.place == 1 and len({s.team for s in record.seats}) > 1


def _hard_below(record: GameRecord, seat: RecordSeat) -> int:
    return sum(1 for s in record.seats if s.is_computer and s.level == HARD and s.place is not None
               and seat.place is not None and s.place > seat.place)


def _giant(record: GameRecord, seat: RecordSeat) -> bool:
    return record.rated and _won(record, seat) and seat.before is not None and any(
        not s.is_computer and s.team != seat.team and s.before is not None and s.before >= seat.before + 100
        and s.place is not None and s.place > seat.place for s in record.seats)


def _series_won(record: GameRecord, seat: RecordSeat, series: Series | None) -> bool:
    """The series ended with this game and this seat's person has its most points."""
    if series is None or series.played < series.total or not series.counted or series.counted[-1] != record.game_id:
        return False
    best = max(series.points.values(), default=0)
    return best > 0 and series.points.get(str(seat.user_id)) == best


RECORD: dict[str, Callable[[GameRecord, RecordSeat, Series | None], bool]] = {
    "beat_hard": lambda r, s, _: _won(r, s) and _hard_below(r, s) >= 1,
    "beat_three_hard": lambda r, s, _: _won(r, s) and _hard_below(r, s) >= 3,
    "full_table": lambda r, s, _: sum(1 for x in r.seats if not x.is_computer) == 4,
    "giant_slayer": lambda r, s, _: _giant(r, s),
    "shared_win": lambda r, s, _: _won(r, s) and any(
        x.place == 1 and x.team != s.team and not x.is_computer for x in r.seats),
    "series_win": lambda r, s, series: _series_won(r, s, series),
}


def counts(record: GameRecord, code: str) -> bool:
    """Whether the game counts for an achievement at all: one with a computer at the table only
    where the achievement says so."""
    return BY_CODE[code].computers or not any(s.is_computer for s in record.seats)


def of_record(record: GameRecord, seat: RecordSeat, series: Series | None = None) -> set[str]:
    """What this game's record earned the person in ``seat`` (nothing for a seat a computer played)."""
    if seat.is_computer or seat.user_id is None or seat.autoplayed or record.status != "finished":
        return set()
    return {code for code, decide in RECORD.items() if counts(record, code) and decide(record, seat, series)}
