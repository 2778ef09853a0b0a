"""Cones on the page: each chip colour of the seat's supply, the piles it may go on, and what it
would do there (covers a bare base, turns the pile its colour, or two chips of a colour leave
the game), as the engine's ``Played`` event of that very move says."""
from __future__ import annotations

from typing import Any

from engines import cones as engine


def play(state, seat: int) -> dict[str, Any] | None:
    if engine.current_player(state) != seat:
        return None
    chips = []
    for colour, count in zip(state.colours, state.supplies[seat]):
        if not count:
            continue
        piles = []
        for number in engine.legal_piles(state, seat, colour):
            action = engine.Play(colour, number)
            _, events = engine.apply(state, seat, action)
            played = next(e for e in events if isinstance(e, engine.Played))
            piles.append({"pile": number, "code": engine.encode_action(action), "result": played.result,
                          "before": played.before, "after": played.after, "height": played.height})
        chips.append({"colour": colour, "count": count, "piles": piles})
    return {"chips": chips}
