"""Computer players: a move for one seat, chosen from what that seat may see.

A computer player is given the engine's ``view(state, seat)`` (never the full state), the
seat, a level and a seed, and returns one legal engine action. Hidden parts (other racks,
hands, goals, the bag order) are unknown to it: where it needs a full state to look ahead,
its game module samples one consistent with the view (``determinize``). The same view, level
and seed always give the same move, so a game replays from its action log and no choice can
depend on another seat's secret.

Each game has a module (``engines/ai/<game>.py``; a registered game names its own:
``engines/registry.py``) with

    determinize(view, seat, rng) -> State     a full state consistent with the seat's view
    choose(view, seat, level, rng) -> action  the move for level "easy", "normal" or "hard"

Thinking is bounded by counts (playouts, nodes), not by the clock, so it is deterministic;
the counts are tuned so that "hard" stays within about 250 ms on a small machine.
Stdlib only, like every engine.
"""
from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from engines import registry

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")  # what players choose from
ARENA_LEVELS: tuple[str, ...] = ("random",) + LEVELS  # "random": uniform legal moves, a yardstick
DEFAULT_LEVEL = "normal"


def module(game_id: str) -> ModuleType:
    """The computer player module of a game (KeyError for an unknown game)."""
    return registry.ai_module(game_id)


def seed_for(game_seed: int, turn: int, seat: int) -> int:
    """The seed of one decision: fixed by the game, the turn and the seat."""
    return random.Random(f"ai:{game_seed}:{turn}:{seat}").getrandbits(62)


def choose(game_id: str, view: dict, seat: int, level: str, seed: int) -> Any:
    """A legal action for ``seat`` from its ``view`` at ``level``."""
    return choose_in(registry.engine(game_id).__name__, module(game_id).__name__, view, seat, level, seed)


def choose_in(engine: str, players: str, view: dict, seat: int, level: str, seed: int) -> Any:
    """``choose`` with the game's engine and computer players named by their modules: a job for
    another process, where a game registered here is not (the bot's workers)."""
    if level not in ARENA_LEVELS:
        raise ValueError(f"unknown level {level!r}")
    rng = random.Random(seed)
    ai = importlib.import_module(players)
    if level == "random":
        state = ai.determinize(view, seat, rng)
        return rng.choice(importlib.import_module(engine).legal_actions(state, seat))
    return ai.choose(view, seat, level, rng)
