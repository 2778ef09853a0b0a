"""Moves chosen for a seat by the bot rather than by its person, and the computer seats.

(A move nobody has a choice about, such as trio's forced draw, is the game adapter's
``forced_move``.)

- ``computer_move``: a computer player's move (engines/ai) for a computer seat, a seat its
  person handed over, or a person whose time ran out (the ``normal`` level). It sees only the
  seat's own view, is seeded by the game and the turn (a game replays from its action log),
  and thinks in a worker process, never on the event loop.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from engines import ai
from bot.table.book import Match
from bot.words.i18n import fold, t, typed
from bot.words.names import clean, tell_apart
from bot.workers.pool import think
from bot.storage.store import Seat

ABSENT_LEVEL = "normal"  # how the bot plays for someone whose time ran out
COMPUTER_ID_BASE = -1_000  # computer seats have user ids -1001, -1002… (never a person's or a chat's)


async def computer_move(match: Match, seat: int, level: str) -> Any:
    """The move of a computer player of ``level`` for ``seat``, from that seat's view only."""
    view = match.eng.view(match.state, seat)
    seed = ai.seed_for(match.game.seed, match.turn, seat)
    kit = match.kit
    return await think(partial(ai.choose_in, kit.engine.__name__, kit.ai.__name__, view, seat, level, seed))


def typed_level(word: str) -> str | None:
    """The computer level a typed word names ("hard", or its word in any language the
    catalogues have), or None."""
    return next((level for level in ai.LEVELS if fold(word) in typed(level)), None)


def next_level(level: str) -> str:
    """The level a lobby button cycles to: easy → normal → hard → easy."""
    return ai.LEVELS[(ai.LEVELS.index(level) + 1) % len(ai.LEVELS)] if level in ai.LEVELS else ai.DEFAULT_LEVEL


def name_seats(seats: list[Seat], lang: str) -> None:
    """Name the computer seats by level (numbered in seat order when there are several), a
    person whose name shows nothing "Player N", and give people who would look alike (to each
    other, or to a computer) a suffix."""
    computers = [s for s in seats if s.is_computer]
    for number, s in enumerate(computers, start=1):
        s.name = computer_name(s.level, number if len(computers) > 1 else None, lang)
    for s in seats:
        if not clean(s.name):
            s.name = t(lang, "Player {n}", n=s.seat + 1)
    for s, name in zip(seats, tell_apart([s.name for s in seats], [s.is_computer for s in seats])):
        s.name = name


def computer_seat(seats: list[Seat], level: str) -> Seat:
    """A new computer seat after ``seats`` (its name is set by ``name_seats``)."""
    user_id = min([s.user_id for s in seats if s.is_computer] + [COMPUTER_ID_BASE]) - 1
    return Seat(len(seats), user_id, "🤖", kind="computer", level=level)


def level_word(level: str, lang: str) -> str:
    return {"easy": t(lang, "easy"), "normal": t(lang, "normal"), "hard": t(lang, "hard")}.get(level, level)


def computer_name(level: str, number: int | None, lang: str) -> str:
    """"🤖 Bot (hard)", numbered when a table has several: "🤖 Bot 2 (normal)"."""
    if number is None:
        return t(lang, "🤖 Bot ({level})", level=level_word(level, lang))
    return t(lang, "🤖 Bot {n} ({level})", n=number, level=level_word(level, lang))
