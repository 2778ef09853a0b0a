"""Moves chosen for a seat by the bot rather than by its person.

- ``forced_move``: a move nobody has a choice about (trio: a player who cannot lay a tile
  draws), applied at once so that the game never waits for it.
- ``move_for_absent``: what the bot plays for a player whose time ran out: the cautious legal
  move of their game (bank what was drawn, keep the rack), else the first legal one.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

from engines import genial, lucky, trio

# The cautious choice per game, in order of preference.
CAUTIOUS: dict[str, tuple[type, ...]] = {
    "lucky": (lucky.Bank, lucky.Take),  # keep what was drawn, or end the turn quietly
    "genial": (genial.Keep,),  # keep the rack
}


def forced_move(kind: str, state: Any) -> Any | None:
    """The move the player to act must make anyway, or None when they have a choice."""
    if kind == "trio" and state is not None and trio.must_draw(state):
        return trio.Draw()
    return None


def move_for_absent(kind: str, eng: ModuleType, state: Any, seat: int) -> Any | None:
    actions = eng.legal_actions(state, seat)
    for wanted in CAUTIOUS.get(kind, ()):
        for action in actions:
            if isinstance(action, wanted):
                return action
    return actions[0] if actions else None
