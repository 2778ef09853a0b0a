"""Hearing that a game changed: whoever changes a game says what happened, once; whoever shows
it (the lobby, table and private messages, the turn pings, the end of a game, the records, the
Mini App's live pages) listens.

The game loop (``bot/table/play.py``), the lobby (``bot/lobby/lobby.py``) and the door
(``bot/updates/door.py``) publish a change after it is committed to the store; every listener
subscribed in the composition root hears it, and must not wait (it schedules background work).
Nothing depends on the order they hear it in: whoever must follow another's work waits for its
milestone on the match (``bot/table/stages.py``). A listener that fails is logged and the others
still hear. So nobody who changes a game imports anybody who shows it.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.table.book import Match
from bot.logs import ids

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Started:
    """The game began: its table and private messages are posted."""

    match: Match


@dataclass(frozen=True)
class Moved:
    """A move was committed. ``before``/``after``: the seat to act before and after it (the same
    seat for a bonus turn; None once the game is over); ``events``: what it caused, as stored."""

    match: Match
    seat: int
    before: int | None
    after: int | None
    events: list[dict] = field(default_factory=list)

    @property
    def turn_passed(self) -> bool:
        return self.after is not None and self.after != self.before


@dataclass(frozen=True)
class SeatChanged:
    """A seat was handed to a computer (``back=False``) or taken back by its person."""

    match: Match
    seat: int
    back: bool


@dataclass(frozen=True)
class Finished:
    """The game ended: its outcome is committed (its end is shown by ``bot/ending``)."""

    match: Match


@dataclass(frozen=True)
class Closed:
    """The game was cancelled while running. ``why``: "cancelled" (``by`` names who), "abandoned"
    (nobody moved for rounds), or None when the group is gone (nothing is said there)."""

    match: Match
    why: str | None
    by: str | None = None


@dataclass(frozen=True)
class Due:
    """The player to act has ``left`` seconds before the bot moves for them."""

    match: Match
    seat: int
    left: float


@dataclass(frozen=True)
class Shown:
    """Nothing changed, but every message of the game should show what the store holds (after a
    restart, a chat that moved, a new language)."""

    match: Match


@dataclass(frozen=True)
class Outdated:
    """One message of the game should show it again: a player took a step in composing a move
    (``match.scratch.paths``), pressed a button of an earlier turn, or one on a message the bot
    had lost track of. ``where``: "table", or "private" (``seat``'s)."""

    match: Match
    where: str
    seat: int | None = None


@dataclass(frozen=True)
class LobbyOpened:
    """A lobby opened (its message follows: ``LobbyChanged``)."""

    match: Match


@dataclass(frozen=True)
class LobbyChanged:
    """The lobby changed (a seat, an option, the note under its players): its message shows it
    as it is now."""

    match: Match


@dataclass(frozen=True)
class LobbyClosed:
    """The lobby is over: started (the game is running now), cancelled or left by everyone. Its
    message says ``text`` without buttons (None: nothing more is said: the group is gone)."""

    match: Match
    text: str | None


@dataclass(frozen=True)
class Summoned:
    """The player asked for their private message of a running game again (a deep link): it
    comes down to the bottom of the private chat."""

    match: Match
    seat: int


@dataclass(frozen=True)
class Looked:
    """A player pressed a button of the game: they are looking at it."""

    match: Match
    user_id: int


Change = (Started | Moved | SeatChanged | Finished | Closed | Due | Shown | Outdated | LobbyOpened | LobbyChanged
          | LobbyClosed | Summoned | Looked)
Listener = Callable[[Any], None]


class Changes:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def publish(self, change: Change) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:  # one listener's failure must not keep the change from the others
                log.exception("a listener failed on %s of game %s", type(change).__name__, change.match.id,
                              extra=ids(change.match.game))
