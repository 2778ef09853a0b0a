"""Computer players for Ingenious (engines/genial), under the contract of engines/ai.

A seat sees the board, every score track, the bag's size, the other racks' sizes and its own
rack: :mod:`sight` reads that from the seat's view and deals the unseen tiles at random when a
full state is needed (``determinize``). The players themselves never build engine states:
every legal placement is priced from a table of the raw points each colour would score on each
empty cell (:mod:`gains`), through a weakest-colour utility (:mod:`values`), because Knizia's
ranking rewards balance and a player who maxes one colour is a weak one. :mod:`levels` explains
easy, normal and hard: the same one-move look-ahead over every placement, with bonus chains,
rack management and swaps from normal on, and the opponents' best replies for hard.

Solo games (one seat, a drawn tile each turn) and team games (2 v 2, shared tracks up to 36,
a partner's good reply counts for us) go through the same code.
"""
from __future__ import annotations

import random
from typing import Any

from engines.genial import legal_actions
from engines.ai.genial.levels import STYLES, decide
from engines.ai.genial.sight import determinize, read

__all__ = ["choose", "determinize"]


def choose(view: dict[str, Any], seat: int, level: str, rng: random.Random) -> Any:
    """The action of ``seat`` at ``level`` ("easy", "normal", "hard") from its own view."""
    if level not in STYLES:
        raise ValueError(f"unknown level {level!r}")
    action = decide(read(view, seat), level, rng)
    if action is None:  # nothing to place where the look-up tables see it: ask the engine
        actions = legal_actions(determinize(view, seat, rng), seat)
        if not actions:
            raise ValueError("no legal action for this seat")
        action = actions[0]
    return action
