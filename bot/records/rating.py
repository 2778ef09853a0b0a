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
