"""Trio on the page: each tile of the seat's hand with the places it may be laid now (its first
symbol's cell and the other's), and what laying it there does: the sets it forms (their cells)
and whether it empties the hand, from the engine's events of that very move. A seat that cannot
lay any tile has nothing to choose: the bot draws for it (``UI.forced_move``)."""
from __future__ import annotations

from typing import Any

from engines import trio as engine


def play(state, seat: int) -> dict[str, Any] | None:
    if engine.current_player(state) != seat:
        return None
    tiles = []
    for tile in state.hands[seat]:
        places = []
        for a, b in engine.legal_placements(state, seat, tile):
            action = engine.Lay(tile, a, b)
            _, events = engine.apply(state, seat, action)
            laid = next(e for e in events if isinstance(e, engine.Laid))
            places.append({"a": list(a), "b": list(b), "code": engine.encode_action(action),
                           "sets": [[list(c) for c in run] for run in laid.set_cells],
                           "wins": any(isinstance(e, engine.Won) for e in events)})
        tiles.append({"tile": tile, "symbols": list(engine.tile_symbols(tile)), "places": places})
    return {"tiles": tiles, "must_draw": engine.must_draw(state)}
