"""What the page needs to make a move in each game: the moves the engine allows the seat now and
what each would do, read from the engine (a move tried on the state, its events read), never
worked out again here. One module per game, each with ``play(match, seat) -> dict | None``
(None when the seat has nothing to choose). No words: the page says them in the person's
language (static/i18n.js); the game's JSON (bot/webapp/views.py) carries this as ``play``.
"""
from __future__ import annotations

import importlib
from typing import Any

from bot.table.book import Match


def play(match: Match, seat: int) -> dict[str, Any] | None:
    """The seat's choices now, as its game's module gives them."""
    return importlib.import_module(f"bot.webapp.boards.{match.game.kind}").play(match, seat)
