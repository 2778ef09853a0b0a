"""Ratings: openskill's Plackett-Luce model, and the figure shown for a rating (pure).

Free-for-all games rank every seat (ties share a place); Ingenious with the team option
ranks two sides of two, rated together. Computer players are opponents of fixed strength, one
rating per level that no game changes, so a person's game against «hard» counts for the person.

The figure is the conservative ``ordinal`` (mu - 3 sigma: what the player is at least, nearly
surely) scaled as ``1500 + 20 * ordinal``: a new player shows 1500, one win over another new
player about +70, a loss about -35 (the loser's sigma shrinks too, so the conservative figure
falls less). A person's figure is marked provisional ("?") until PROVISIONAL_GAMES rated games.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.storage.store import Rating, RecordSeat
from bot.words.i18n import t

BASE, SCALE = 1500, 20
# Five rated games: by then sigma has fallen by about a quarter (8.3 -> 6.2), enough that the
# next game moves the figure by tens of points rather than a hundred; and a group plays that many
# in an evening, so a leaderboard fills the first night rather than after weeks.
PROVISIONAL_GAMES = 5

MODEL = PlackettLuce()
# One fixed rating per computer level (mu on openskill's 25-point scale, a small sigma: known
# strength). Easy plays mostly at random, hard looks ahead: apart by about a new player's sigma.
COMPUTER_MU = {"easy": 17.0, "normal": 23.0, "hard": 29.0}
COMPUTER_SIGMA = 1.0


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def figure(self) -> int:
        return figure(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


def figure(mu: float, sigma: float) -> int:
    """The number shown: openskill's ordinal (mu - 3 sigma), scaled around 1500."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=SCALE, target=BASE))


def computer(level: str | None) -> Skill:
    return Skill(COMPUTER_MU.get(level or "", COMPUTER_MU["normal"]), COMPUTER_SIGMA)


def shown(value: int | None, games: int) -> str:
    """A figure as text: «1523», or «1523?» while provisional."""
    if value is None:
        return "—"
    return f"{value}?" if games < PROVISIONAL_GAMES else str(value)


def provisional_note(lang: str) -> str:
    """What a «?» after a figure means: said once wherever one is shown (the results, /stats,
    the leaderboards)."""
    return t(lang, "«?»: provisional while there are fewer than {n} rated games.", n=PROVISIONAL_GAMES)


def rate(sides: list[list[Skill]], places: list[int]) -> list[list[Skill]]:
    """New skills after a game: ``sides`` (one list per team, or per player) finished at
    ``places`` (1 = best; equal places are a tie)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [[Skill(r.mu, r.sigma) for r in side] for side in new]


def rate_seats(seats: list[RecordSeat], current: dict[int, Rating]) -> list[tuple[RecordSeat, Skill, Skill, int]]:
    """Each person's new skill after a finished game, given their ratings before it
    (``current``, by user id; a newcomer starts at ``NEW``): (seat, before, after, rated games
    after). Computers are opponents of fixed strength and get none; a forgotten person
    (no user id) plays as a newcomer and gets none; a seat a computer played for most of the game
    may lose but never gains."""
    def skill(s: RecordSeat) -> Skill:
        if s.is_computer:
            return computer(s.level)
        had = current.get(s.user_id) if s.user_id is not None else None
        return Skill(had.mu, had.sigma) if had else NEW

    sides = sorted({s.team for s in seats})
    members = [[s for s in seats if s.team == side] for side in sides]
    places = [min(s.place for s in side) for side in members]
    new = rate([[skill(s) for s in side] for side in members], places)
    out = []
    for side, skills in zip(members, new):
        for s, after in zip(side, skills):
            if s.is_computer or s.user_id is None:
                continue  # fixed strength, or nobody to credit
            before = skill(s)
            if s.autoplayed and after.figure > before.figure:
                after = before  # a computer's play does not lift its person
            games = (current[s.user_id].games if s.user_id in current else 0) + 1
            out.append((s, before, after, games))
    return out
