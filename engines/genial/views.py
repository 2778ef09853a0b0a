"""What players see (view) and what they type (parse_move) in Ingenious."""
from __future__ import annotations

import re
from typing import Any

from engines.genial.core import (
    BONUS,
    OVER,
    PLACE,
    SWAP,
    Place,
    State,
    _lowest,
    outcome,
    tile_names,
    track_max,
)
from engines.genial.errors import MoveError
from engines.genial.geometry import COLOURS, DIRECTIONS, Cell, normalise_label, parse_cell


# ------------------------------------------------------------------------------ view

def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` may see (None: the group). JSON-safe. See the package docstring."""
    bd = state.board
    R = state.radius
    tiles = []
    cells = []
    for k, (a, b, i, j, who, bonus) in enumerate(state.tiles):
        tiles.append({"colours": [COLOURS[a], COLOURS[b]], "cells": [list(bd.cells[i]), list(bd.cells[j])],
                      "labels": [bd.labels[i], bd.labels[j]], "seat": who, "bonus": bonus})
        cells.append({"cell": list(bd.cells[i]), "label": bd.labels[i], "colour": COLOURS[a],
                      "tile": k, "half": 0, "printed": False})
        cells.append({"cell": list(bd.cells[j]), "label": bd.labels[j], "colour": COLOURS[b],
                      "tile": k, "half": 1, "printed": False})
    printed = []
    touched: dict[str, list[int]] = {}
    for (i, colour), nbrs in zip(bd.symbols, bd.symbol_nbrs):
        printed.append({"cell": list(bd.cells[i]), "label": bd.labels[i], "colour": COLOURS[colour]})
        cells.append({"cell": list(bd.cells[i]), "label": bd.labels[i], "colour": COLOURS[colour],
                      "tile": None, "half": None, "printed": True})
        touched[COLOURS[colour]] = sorted({t[4] for t in state.tiles if t[2] in nbrs or t[3] in nbrs})
    top = track_max(state)
    holders = []
    for h, vals in enumerate(state.scores):
        low = _lowest(vals)
        holders.append({
            "seats": [x for x in range(state.players) if state.holder(x) == h],
            "values": {COLOURS[c]: vals[c] for c in range(6)},
            "lowest": [COLOURS[c] for c in sorted(low)],
            "sorted": sorted(vals),
            "at_max": [COLOURS[c] for c in range(6) if vals[c] >= top],
        })
    last = None
    if state.tiles:
        a, b, i, j, who, bonus = state.tiles[-1]
        last = {"cells": [list(bd.cells[i]), list(bd.cells[j])], "labels": [bd.labels[i], bd.labels[j]],
                "seat": who, "tile": len(state.tiles) - 1}
    over = state.phase == OVER
    result = outcome(state)
    needs_first = [x for x in range(state.players) if not state.started[x]] if not over else []
    out: dict[str, Any] = {
        "game": "genial",
        "players": state.players,
        "solo": state.players == 1,
        "team": state.options.team,
        "bonus_from_rack": state.options.bonus_from_rack,
        "radius": R,
        "row_lengths": list(bd.row_lengths),
        "track_max": top,
        "two_boards": state.two_boards,
        "printed": printed,
        "tiles": tiles,
        "cells": cells,
        "last": last,
        "recent": list(range(state.turn_start, len(state.tiles))),
        "scores": holders,
        "holder_of": [state.holder(x) for x in range(state.players)],
        "current": None if over else state.current,
        "pending": None if over else state.phase,
        "bonus_pending": state.bonus_pending,
        "drawn": tile_names(state.drawn) if state.drawn is not None else None,
        "bag": sum(state.bag),
        "rack_sizes": [len(r) for r in state.racks],
        "first_round": bool(needs_first),
        "needs_first": needs_first,
        "symbols_touched": touched,
        "turn": state.turns,
        "over": over,
        "outcome": None if result is None else {
            "places": list(result.places), "reason": result.reason,
            "scores": [list(v) for v in result.scores], "winners": list(result.winners)},
    }
    if seat is not None and isinstance(seat, int) and 0 <= seat < state.players:
        out["seat"] = seat
        out["rack"] = [tile_names(t) for t in state.racks[seat]]
        out["swap_allowed"] = state.phase == SWAP and state.current == seat
        out["first_tile_rule"] = not state.started[seat] and not over
        out["my_turn"] = not over and state.current == seat
    return out


# ------------------------------------------------------------------------------ typed moves

# A cell: a row letter, Latin or Cyrillic (U+0401, U+0410-U+044F, U+0451: a Russian keyboard), and a number.
_TOKEN_RE = re.compile(r"\s*(?:(\d+)|([A-Za-z\u0401\u0410-\u044f\u0451]\s*\d+))\s*[,;.\-–—/]*")


def parse_move(text: str, view_: dict[str, Any]) -> Place:
    """A typed move from a seat's view: "3 F7 F8" = rack tile 3 (1-based, as the buttons are
    numbered) with its first colour on F7 and second on F8; "F7 F8" for a drawn tile (bonus from
    the bag, or solo). Separators: spaces, commas, dashes. Raises MoveError with a precise code.
    The result may still break the first-round rule: apply() checks that.
    """
    if not isinstance(text, str) or len(text) > 60:
        raise MoveError("bad_text", "type a move such as \"3 F7 F8\"")
    pos = 0
    number = None
    labels = []
    stripped = text.strip()
    while pos < len(stripped):
        m = _TOKEN_RE.match(stripped, pos)
        if not m or m.end() == pos:
            raise MoveError("bad_text", f"cannot read {stripped[pos:pos + 10]!r}: type a move such as \"3 F7 F8\"")
        if m.group(1) is not None:
            if number is not None or labels:
                raise MoveError("bad_text", "the tile number comes first: \"3 F7 F8\"")
            number = int(m.group(1))
        else:
            labels.append(re.sub(r"\s+", "", m.group(2)))
        pos = m.end()
    if len(labels) != 2:
        raise MoveError("bad_text", "name two cells, such as \"3 F7 F8\"", cells=len(labels))
    radius = view_["radius"]
    drawn = view_.get("drawn")
    if drawn is not None and view_.get("pending") in (PLACE, BONUS):
        if number is not None:
            raise MoveError("no_tile", "place the tile drawn from the bag: name just two cells",
                            drawn=list(drawn))
        a, b = drawn
    else:
        rack = view_.get("rack") or []
        if number is None:
            raise MoveError("bad_tile_number", "give the tile number first, such as \"3 F7 F8\"",
                            number=None, rack=len(rack))
        if not 1 <= number <= len(rack):
            raise MoveError("bad_tile_number", f"no tile {number} in the rack (1-{len(rack)})",
                            number=number, rack=len(rack))
        a, b = rack[number - 1]
    ca = parse_cell(labels[0], radius)
    cb = parse_cell(labels[1], radius)
    la, lb = normalise_label(labels[0]), normalise_label(labels[1])
    if ca == cb:
        raise MoveError("same_cell", f"both halves on {la}", cell=la)
    if (cb[0] - ca[0], cb[1] - ca[1]) not in DIRECTIONS:
        raise MoveError("not_adjacent", f"{la} and {lb} are not neighbours", cells=[la, lb])
    taken = {tuple(c["cell"]) for c in view_.get("cells", [])}
    for c, lab in ((ca, la), (cb, lb)):
        if c in taken:
            raise MoveError("occupied", f"{lab} is not empty", cell=lab)
    return Place(a, b, ca, cb)


def scoring_cells(view_: dict[str, Any], tile: Any, cell_a: Cell, cell_b: Cell) -> list[dict[str, Any]]:
    """The cells that would score if ``tile`` (first colour on cell_a) went on cell_a, cell_b,
    read from a view: [{"cell": [q, r], "colour": c, "half": 0 or 1}] (``half``: the half whose
    line it lies on, 0 for cell_a), a shoulder cell of a double twice. For drawing previews; the
    points themselves come from placement_score."""
    colours = [tile[0], tile[1]]
    radius = view_["radius"]
    occ = {tuple(c["cell"]): c["colour"] for c in view_.get("cells", [])}
    halves = ((tuple(cell_a), tuple(cell_b), colours[0]), (tuple(cell_b), tuple(cell_a), colours[1]))
    out = []
    for half, (here, partner, colour) in enumerate(halves):
        for dq, dr in DIRECTIONS:
            if (here[0] + dq, here[1] + dr) == partner:
                continue
            q, r = here[0] + dq, here[1] + dr
            while max(abs(q), abs(r), abs(q + r)) <= radius and occ.get((q, r)) == colour:
                out.append({"cell": [q, r], "colour": colour, "half": half})
                q, r = q + dq, r + dr
    return out
