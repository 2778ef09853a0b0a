"""Ingenious on the page: where a tile of the seat's rack (or the tile drawn from the bag) may
go now, and what each placement would earn (``engines.genial.scored_placements``), with the
cells whose lines score (``scoring_cells``: the preview draws them) and the cells' labels as the
table picture and typed moves name them. Asked per tile (``GET …/ask/placements?tile=k``): a
rack's every placement at once would be some two thousand."""
from __future__ import annotations

from typing import Any, Mapping

from engines import genial as engine
from engines.genial.core import tile_names


def play(state, seat: int) -> dict[str, Any] | None:
    """Nothing up front: the page asks for a tile's placements when the tile is tapped."""
    return None


def placements(state, seat: int, query: Mapping[str, str]) -> list[dict[str, Any]]:
    """Where ``seat`` may put a tile now: ``tile`` is a rack index ("0".."5") or "drawn" (a tile
    drawn from the bag). Empty when it is not the seat's turn to place. Each entry: the cells of
    the tile's first and second colour and their labels, the action's code, the points per
    colour, and the scoring cells ([q, r, half]: on the line of the first or second half)."""
    tile = query.get("tile", "")
    if engine.current_player(state) != seat or state.phase not in (engine.PLACE, engine.BONUS):
        return []
    if tile == "drawn":
        if state.drawn is None:
            return []
        chosen: Any = tile_names(state.drawn)
    else:
        rack = state.racks[seat]
        if state.drawn is not None or not tile.isdigit() or not 0 <= int(tile) < len(rack):
            return []
        chosen = tile_names(rack[int(tile)])
    a, b = chosen
    public = engine.view(state, None)
    out = []
    for cell_a, cell_b, points in engine.scored_placements(state, seat, chosen):
        lines = [[*c["cell"], c["half"]] for c in engine.scoring_cells(public, chosen, cell_a, cell_b)]
        out.append({"a": list(cell_a), "b": list(cell_b),
                    "labels": [engine.cell_label(cell_a, state.radius), engine.cell_label(cell_b, state.radius)],
                    "code": engine.encode_action(engine.Place(a, b, cell_a, cell_b)),
                    "points": {c: {k: p[k] for k in ("gained", "lost", "bonus", "total")} for c, p in points.items()},
                    "lines": lines})
    return out
