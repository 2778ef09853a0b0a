"""What one seat knows of an Ingenious game, read from its view, and states sampled from it.

A computer player never holds the engine state: it reads ``engines.genial.view(state, seat)``.
:class:`Sight` turns that JSON into flat lists (occupancy by cell index, score tracks, the rack
as colour pairs) and counts the tiles that seat has not seen, which is public arithmetic: the
120 tiles less the board, its own rack and a drawn tile. :func:`determinize` deals those unseen
tiles at random into the other racks and the bag, giving a full engine state whose view for
the seat is the view it was built from.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engines.genial.codec import from_json
from engines.genial.core import KIND_COUNT, KIND_INDEX, KINDS, OVER, State, tile_text
from engines.genial.geometry import COLOUR_INDEX, Board, board

Tile = tuple[int, int]  # colour indices, a <= b (a kind of KINDS)


def _tile(names: Any) -> Tile:
    a, b = COLOUR_INDEX[names[0]], COLOUR_INDEX[names[1]]
    return (a, b) if a <= b else (b, a)


@dataclass
class Sight:
    """The seat's knowledge, flattened for fast look-ups.

    occ: colour index per cell index, -1 empty (printed symbols filled). scores: one six-value
    track per holder (a player, or a team). unseen: per tile kind, how many the seat has not
    seen (other racks + bag). allowed: cells the seat's first tile may touch, None when free.
    """

    seat: int
    players: int
    bd: Board
    occ: list[int]
    scores: list[list[int]]
    holder_of: list[int]
    rack: list[Tile]
    drawn: Tile | None
    phase: str
    bonus_from_rack: bool
    top: int
    two_boards: bool
    unseen: list[int]
    bag: int
    rack_sizes: list[int]
    started: list[bool]
    touched: dict[int, tuple[int, ...]]  # printed symbol colour -> seats whose tiles touch it

    @property
    def me(self) -> int:
        return self.holder_of[self.seat]

    @property
    def solo(self) -> bool:
        return self.players == 1

    def placeable(self) -> list[Tile]:
        """Distinct tiles the seat may place now (the drawn tile, or the rack's), rack order."""
        if self.drawn is not None:
            return [self.drawn]
        out: list[Tile] = []
        for t in self.rack:
            if t not in out:
                out.append(t)
        return out

    def allowed_cells(self, seat: int, extra: tuple[int, ...] = ()) -> frozenset[int] | None:
        """Cells ``seat``'s first tile may touch (None once it has placed one): the neighbours
        of printed symbols no other seat's tile touches; ``extra`` cells were just covered by
        the seat to move (``self.seat``), as in a look-ahead."""
        if self.started[seat]:
            return None
        cells: set[int] = set()
        for (sym, colour), nbrs in zip(self.bd.symbols, self.bd.symbol_nbrs):
            others = [s for s in self.touched[colour] if s != seat]
            if extra and seat != self.seat and any(c in nbrs for c in extra):
                others.append(self.seat)
            if not others:
                cells |= nbrs
        return frozenset(cells)

    def free_edges(self, occ: list[int], seat: int, extra: tuple[int, ...] = ()) -> list[tuple[int, int]]:
        """(i, j) of two adjacent empty cells where ``seat`` may put a tile on board ``occ``."""
        allowed = self.allowed_cells(seat, extra)
        return [(i, j) for i, j, _ in self.bd.edges
                if occ[i] == -1 and occ[j] == -1 and (allowed is None or i in allowed or j in allowed)]


def read(view: dict[str, Any], seat: int) -> Sight:
    """The Sight of ``seat`` from its own view (which must carry its rack)."""
    if view.get("seat") != seat:
        raise ValueError("a computer player needs the view of its own seat")
    bd = board(view["radius"])
    occ = [-1] * bd.size
    for cell in view["cells"]:
        occ[bd.index[tuple(cell["cell"])]] = COLOUR_INDEX[cell["colour"]]
    unseen = list(KIND_COUNT)
    for t in view["tiles"]:
        unseen[KIND_INDEX[_tile(t["colours"])]] -= 1
    rack = [_tile(t) for t in view["rack"]]
    for t in rack:
        unseen[KIND_INDEX[t]] -= 1
    drawn = _tile(view["drawn"]) if view["drawn"] is not None else None
    if drawn is not None:
        unseen[KIND_INDEX[drawn]] -= 1
    players = view["players"]
    needs_first = set(view["needs_first"])
    return Sight(
        seat=seat, players=players, bd=bd, occ=occ,
        scores=[[h["values"][c] for c in COLOUR_INDEX] for h in view["scores"]],
        holder_of=list(view["holder_of"]), rack=rack, drawn=drawn,
        phase=view["pending"] if view["pending"] is not None else OVER,
        bonus_from_rack=view["bonus_from_rack"], top=view["track_max"],
        two_boards=view["two_boards"], unseen=unseen, bag=view["bag"],
        rack_sizes=list(view["rack_sizes"]),
        started=[x not in needs_first for x in range(players)],
        touched={COLOUR_INDEX[c]: tuple(s) for c, s in view["symbols_touched"].items()},
    )


def deal(sight: Sight, rng: random.Random) -> tuple[list[list[Tile]], list[int]]:
    """Other seats' racks sampled from the unseen tiles (sizes are public); the rest is the bag."""
    pool = [KINDS[k] for k, n in enumerate(sight.unseen) for _ in range(n)]
    rng.shuffle(pool)
    racks: list[list[Tile]] = []
    for s in range(sight.players):
        if s == sight.seat:
            racks.append(list(sight.rack))
        else:
            racks.append(pool[:sight.rack_sizes[s]])
            del pool[:sight.rack_sizes[s]]
    bag = [0] * len(KINDS)
    for t in pool:
        bag[KIND_INDEX[t]] += 1
    return racks, bag


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full engine state consistent with ``seat``'s view: the unseen tiles dealt at random into
    the other racks and the bag, and a fresh random seed for the bag's future draws."""
    sight = read(view, seat)
    racks, bag = deal(sight, rng)
    outcome = view["outcome"]
    data = {
        "v": 1,
        "players": sight.players,
        "options": {"team": view["team"], "bonus_from_rack": view["bonus_from_rack"]},
        "seed": rng.getrandbits(62),
        "counter": rng.randrange(1, 1 << 20),
        "tiles": [[tile_text((COLOUR_INDEX[t["colours"][0]], COLOUR_INDEX[t["colours"][1]])),
                   *t["cells"][0], *t["cells"][1], t["seat"], t["bonus"]] for t in view["tiles"]],
        "bag": bag,
        "racks": [[tile_text(t) for t in r] for r in racks],
        "scores": [list(v) for v in sight.scores],
        "current": view["current"] if view["current"] is not None else seat,
        "phase": sight.phase,
        "bonus_pending": view["bonus_pending"],
        "drawn": tile_text(sight.drawn) if sight.drawn is not None else None,
        "turns": view["turn"],
        "end": outcome["reason"] if outcome else None,
        "winners": _instant_winners(outcome),
        "turn_start": view["recent"][0] if view["recent"] else len(view["tiles"]),
        "started": list(sight.started) if not view["over"] else [True] * sight.players,
    }
    return from_json(data)


def _instant_winners(outcome: dict[str, Any] | None) -> list[int]:
    if outcome and outcome["reason"] == "instant_win":
        return list(outcome["winners"])
    return []
