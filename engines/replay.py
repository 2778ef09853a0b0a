"""A whole game again, position by position, as the group saw it: the public views from the
set-up to the end, rebuilt from (game, players, options, seed, action log).

Engines are pure and seeded (``engines/base.py``), so applying the logged actions to a fresh
``setup`` gives back every state the game went through, forced and computer moves included
(they are logged like any other). Only public views come out (``view(state, None)``): a secret
(a cones goal, a trio hand, a genial rack) appears in none of them, except in the last, where
the game is over and the public view itself reveals what the final table shows.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from engines import registry
from engines.base import InvalidAction, event_dict, options_from_dict


@dataclass(frozen=True)
class Step:
    """One position of the replay: the public view, the seat that moved into it and what the
    move did (both None and [] for the opening)."""

    view: dict[str, Any]
    seat: int | None
    events: list[dict[str, Any]]


def public_views(kind: str, players: int, options: dict[str, Any] | None, seed: int,
                 log: Iterable[tuple[int, str]]) -> list[Step]:
    """The opening and one step per logged ``(seat, action code)``: ``len(log) + 1`` steps.

    Raises :class:`InvalidAction` when the log does not replay (it belongs to another game)."""
    eng = registry.engine(kind)
    state = eng.setup(players, options_from_dict(eng.Options, options), seed)
    steps = [Step(eng.view(state, None), None, [])]
    for n, (seat, code) in enumerate(log):
        try:
            state, events = eng.apply(state, seat, eng.decode_action(code))
        except ValueError as exc:  # IllegalAction or a code that does not decode
            raise InvalidAction(f"move {n + 1} ({seat}, {code!r}) does not replay: {exc}") from None
        steps.append(Step(eng.view(state, None), seat, [event_dict(e) for e in events]))
    return steps
