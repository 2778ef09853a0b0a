"""Refusals with a machine-readable reason, so the bot can say them in the reader's language."""
from __future__ import annotations

from typing import Any

from engines.base import InvalidAction


class MoveError(InvalidAction):
    """An illegal or unreadable move. ``code`` names the reason, ``params`` its JSON-safe details.

    Codes: bad_text, bad_tile_number, no_tile, bad_cell, same_cell, not_adjacent, occupied,
    first_round, not_tile, wrong_phase, not_allowed.
    str(error) is an English sentence for logs and tests.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
