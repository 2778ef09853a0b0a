"""genial: Reiner Knizia's Ingenious (Einfach Genial).

Rules from the publisher's rulebook (seed 003), settled by docs/rules.md, section ``genial``.

Board: a hexagon of hex cells in axial coordinates (q, r), radius R = 5 for 1-2 players (91
cells), 6 for 3 (127), 7 for 4 (169). Six printed symbols on the R = 5 corners (5,0) red,
(5,-5) orange, (0,-5) yellow, (-5,0) green, (-5,5) blue, (0,5) purple count as occupied cells.
Labels: rows lettered A.. from the top, cells numbered 1.. from the left ("F7"), see geometry.

Tiles: 120 (6 of each of the 15 two-colour pairs, 5 of each of the 6 doubles) in a bag; racks of
6, private. Random first player, then seat order.

A turn (pending decisions: "place", then possibly "bonus" placements, then possibly "swap"):
1. Place a rack tile on two adjacent empty cells (``Place``). A seat's first tile must touch a
   printed symbol that no other seat's tile touches yet.
2. Each half scores, for its colour, the run of same-colour cells (tiles or printed) along each
   of its 5 directions away from its partner; a cell touching both halves can count twice.
   Tracks stop at 18; the excess is lost.
3. «Ingenious!»: each colour reaching 18 gives one bonus placement at once, chained and several
   at once. Default: the bonus tile is drawn from the bag (public, ``TileDrawn``) and must be
   placed; option ``bonus_from_rack``: any rack tile. A bonus that cannot be had (bag or rack
   empty) is forfeited. Six colours at 18: instant win.
4. Swap ("swap" decision, ``Swap`` / ``Keep``), offered only when the rack holds no tile showing
   any of the seat's lowest colour(s), the rack is not empty and the bag holds at least 6 tiles
   (our choice: the rule draws 6 new tiles before returning the old ones).
5. Refill to 6. End when no two adjacent empty cells remain; rank by the ascending-sorted score
   vector (engines.base.rank_weakest_first), a full tie shares the place.

Team (option ``team``, 4 players): seats 0+2 v 1+3 share tracks 0..36; reaching 18 stops the
colour at 18 for that placement (excess lost) and gives a bonus, reaching 36 gives another; the
swap looks at the team's lowest colours; six colours at 36 win at once (our choice).
Solo (1 player): R = 5, no rack: a tile is drawn (public) and placed, again and again; tracks
0..36 without bonuses; the first tile must touch a printed symbol; final score = lowest colour;
ends when no tile fits.

Actions (codes <= 7 bytes): ``Place(a, b, cell_a, cell_b)`` "P" + colour letters (r o y g b p)
+ the four coordinates as letters a..o (-7..7), e.g. "Prbhfig"; ``Swap()`` "S"; ``Keep()`` "K".
Queries for the bot and computer players: legal_placements, placement_score, scored_placements,
swap_allowed, parse_move, cell_label, parse_cell.
"""
from engines.genial.codec import from_json, to_json
from engines.genial.core import (
    BONUS,
    INFO,
    KINDS,
    OVER,
    PLACE,
    RACK_SIZE,
    SWAP,
    TILE_TOTAL,
    BonusForfeited,
    GameEnded,
    Genial,
    InstantWin,
    Keep,
    Options,
    Place,
    Placed,
    Points,
    RackRefilled,
    Skipped,
    State,
    Swap,
    SwapDeclined,
    SwapOffered,
    Swapped,
    TileDrawn,
    TurnPassed,
    apply,
    current_player,
    decode_action,
    encode_action,
    legal_actions,
    legal_placements,
    outcome,
    piece_count,
    piece_total,
    placement_score,
    position,
    scored_placements,
    setup,
    swap_allowed,
    track_max,
    turn,
)
from engines.genial.views import parse_move, scoring_cells, view
from engines.genial.errors import MoveError
from engines.genial.geometry import (
    COLOURS,
    DIRECTIONS,
    LETTERS,
    SYMBOL_CELLS,
    adjacent,
    board,
    cell_label,
    on_board,
    parse_cell,
    radius_for,
)

__all__ = [
    "BONUS", "INFO", "KINDS", "OVER", "PLACE", "RACK_SIZE", "SWAP", "TILE_TOTAL",
    "BonusForfeited", "GameEnded", "Genial", "InstantWin", "Keep", "Options", "Place", "Placed",
    "Points", "RackRefilled", "Skipped", "State", "Swap", "SwapDeclined", "SwapOffered", "Swapped",
    "TileDrawn", "TurnPassed", "apply", "current_player", "decode_action", "encode_action",
    "legal_actions", "legal_placements", "outcome", "parse_move", "piece_count", "piece_total",
    "placement_score", "position", "scored_placements", "scoring_cells", "setup", "swap_allowed",
    "track_max", "turn", "view",
    "MoveError", "COLOURS", "DIRECTIONS", "LETTERS", "SYMBOL_CELLS", "adjacent", "board",
    "cell_label", "on_board", "parse_cell", "radius_for", "from_json", "to_json",
]
