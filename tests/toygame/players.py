"""Sticks' computer players (the contract of engines/ai/__init__.py): nothing is hidden, so the
view is the state; "hard" leaves a multiple of four, the others take at random."""
from __future__ import annotations

import random

from tests.toygame import engine


def determinize(view: dict, seat: int, rng: random.Random) -> engine.State:
    return engine.State(left=view["left"], current=view["to_move"] if view["to_move"] is not None else seat,
                        taken=tuple(view["taken"]), winner=view["winner"])


def choose(view: dict, seat: int, level: str, rng: random.Random) -> engine.Take:
    legal = engine.legal_actions(determinize(view, seat, rng), seat)
    best = view["left"] % (engine.MOST + 1)
    if level == "hard" and best:
        return engine.Take(best)
    return rng.choice(legal)
