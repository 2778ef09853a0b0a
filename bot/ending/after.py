"""What follows a game: the open door after its end (as lila's tournaments hear ``finishGame``).

A :class:`Successor` hears every game that finished, once it is recorded and before its results
are posted, and answers with its :class:`Sequel`: a paragraph of the results (a series'
standings), buttons under them (🔁), whether play goes on by itself (a series' next game: no 🔁
then), and what to do once the results are out (start that game). The Finisher asks each
successor in turn, in the order the composition root lists them (``bot/wiring.py``); each sees
the sequels of those before it. A new thing that follows games (a season, achievements, a
tournament) is a successor of its own, not code in the Finisher.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from bot.outgoing.keyboard import Button
from bot.table.book import Match


@dataclass(frozen=True)
class Sequel:
    """``words(lang)``: a paragraph of the results in that language; ``buttons(lang)``: buttons
    under them; ``goes_on``: the group's play goes on by itself; ``then()``: once the results are
    posted."""

    words: Callable[[str], str] | None = None
    buttons: Callable[[str], list[Button]] | None = None
    goes_on: bool = False
    then: Callable[[], None] | None = None


@dataclass(frozen=True)
class End:
    """A finished game as its successors hear it: the match, its record (with the ratings it
    moved; None when it was not recorded) and the sequels of the successors before."""

    match: Match
    record: Any
    sequels: tuple[Sequel, ...] = ()


class Successor(Protocol):
    async def follow(self, end: End) -> Sequel | None:
        """What follows ``end`` (None: nothing to add). Called again after a restart that came
        before the results were posted: do it once (a series counts a game once)."""
