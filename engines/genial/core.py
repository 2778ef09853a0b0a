"""Rules of Ingenious: state, actions, events, scoring and the flow of a turn.

See the package docstring (engines/genial/__init__.py) for the rules summary.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from engines.base import (
    require_seat,
    GameInfo,
    GameOver,
    InvalidAction,
    NotYourTurn,
    Option,
    SERIES,
    Outcome,
    places_from_keys,
    rank_weakest_first,
    rng,
    weakest_first,
)
from engines.genial.errors import MoveError
from engines.genial.geometry import (
    COLOUR_INDEX,
    COLOURS,
    LETTERS,
    Board,
    Cell,
    board,
    parse_cell,
    radius_for,
)

INFO = GameInfo(
    id="genial",
    name_en="Ingenious",
    min_players=1,
    max_players=4,
    hidden_info=True,
    aliases=("ingenious", "genial", "einfach genial", "genial!", "ingenius", "knizia ingenious"),
    options=(
        Option("team", False, players=(4,)),
        Option("bonus_from_rack", False),
        replace(SERIES, players=(2, 3, 4)),
    ),
)


@dataclass(frozen=True)
class Options:
    team: bool = False  # 4 players, seats 0+2 v 1+3, shared two-board tracks 0..36
    bonus_from_rack: bool = False  # bonus tiles come from the rack instead of the bag
    # Games in a series, handled by the bot (0 = none, 1 = one game per player, n = n games).
    series: int = 0


RACK_SIZE = 6
TILE_TOTAL = 120
CAP = 18
# Tile kinds: the 15 two-colour pairs and 6 doubles, as (a, b) with a <= b.
KINDS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6) for b in range(a, 6))
KIND_INDEX: dict[tuple[int, int], int] = {k: i for i, k in enumerate(KINDS)}
KIND_COUNT: tuple[int, ...] = tuple(5 if a == b else 6 for a, b in KINDS)

# phases (the pending decision of the current player)
PLACE = "place"  # place a tile from the rack (solo: the drawn tile)
BONUS = "bonus"  # an «Ingenious!» bonus placement (the drawn tile, or from the rack)
SWAP = "swap"  # decide Swap or Keep before the refill
OVER = "over"
PHASES = (PLACE, BONUS, SWAP, OVER)

# Outcome.reason / GameEnded.reason values
BOARD_FULL = "board_full"  # no two adjacent empty cells remain
INSTANT_WIN = "instant_win"  # all six colours at the end of the track
NO_TILES = "no_tiles"  # nobody holds a tile any more (cannot happen with 120 tiles; kept safe)

# BonusForfeited.reason values
BAG_EMPTY = "bag_empty"
RACK_EMPTY = "rack_empty"


# ------------------------------------------------------------------------------ tiles

def tile_text(tile: tuple[int, int]) -> str:
    """Two code letters of a tile ("rb" = red/blue)."""
    return LETTERS[tile[0]] + LETTERS[tile[1]]


def tile_names(tile: tuple[int, int]) -> list[str]:
    return [COLOURS[tile[0]], COLOURS[tile[1]]]


def _tile_from(value: Any) -> tuple[int, int]:
    """A tile (sorted pair of colour indices) from "rb", ("red", "blue") or (0, 4)."""
    a, b = _ordered(value)
    return (a, b) if a <= b else (b, a)


def _ordered(value: Any) -> tuple[int, int]:
    """Colour indices of a tile in the given order, from "rb", ("red", "blue") or (0, 4)."""
    if isinstance(value, str) and len(value) == 2 and all(ch in LETTERS for ch in value):
        a, b = LETTERS.index(value[0]), LETTERS.index(value[1])
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        idx = []
        for part in value:
            if isinstance(part, str) and part in COLOUR_INDEX:
                idx.append(COLOUR_INDEX[part])
            elif isinstance(part, int) and not isinstance(part, bool) and 0 <= part < 6:
                idx.append(part)
            else:
                raise InvalidAction(f"not a tile: {value!r}")
        a, b = idx
    else:
        raise InvalidAction(f"not a tile: {value!r}")
    return a, b


# ------------------------------------------------------------------------------ actions

@dataclass(frozen=True)
class Place:
    """Put a tile with colour ``a`` on ``cell_a`` and colour ``b`` on ``cell_b`` (axial cells).

    The tile comes from the rack, or is the drawn tile (solo, or a bonus drawn from the bag).
    Normalised on construction so that ``cell_a`` comes first in reading order (row, then
    column); Place("red", "blue", X, Y) == Place("blue", "red", Y, X).
    Code: "P" + colour letters + cells, each coordinate -7..7 as a letter a..o: "Prbhfig".
    """

    a: str
    b: str
    cell_a: Cell
    cell_b: Cell

    def __post_init__(self) -> None:
        try:
            swap = (self.cell_b[1], self.cell_b[0]) < (self.cell_a[1], self.cell_a[0])
        except (TypeError, IndexError, KeyError):
            return
        if swap:
            a, b, ca, cb = self.b, self.a, self.cell_b, self.cell_a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)
            object.__setattr__(self, "cell_a", ca)
            object.__setattr__(self, "cell_b", cb)

    @property
    def tile(self) -> tuple[str, str]:
        return (self.a, self.b)


@dataclass(frozen=True)
class Swap:
    """Show the rack, draw 6 new tiles, return the old ones to the bag (code "S")."""


@dataclass(frozen=True)
class Keep:
    """Decline the offered swap (code "K")."""


Action = Place | Swap | Keep

_CODE_RE = re.compile(r"P([roygbp])([roygbp])([a-o])([a-o])([a-o])([a-o])")


def _coord_letter(v: int) -> str:
    return chr(ord("a") + v + 7)


def encode_action(action: Action) -> str:
    if isinstance(action, Swap):
        return "S"
    if isinstance(action, Keep):
        return "K"
    if isinstance(action, Place):
        try:
            return ("P" + LETTERS[COLOUR_INDEX[action.a]] + LETTERS[COLOUR_INDEX[action.b]]
                    + "".join(_coord_letter(v) for v in (*action.cell_a, *action.cell_b)))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    raise InvalidAction(f"not a genial action: {action!r}")


def decode_action(text: str) -> Action:
    if not isinstance(text, str):
        raise InvalidAction("action code must be text")
    if text == "S":
        return Swap()
    if text == "K":
        return Keep()
    m = _CODE_RE.fullmatch(text)
    if not m:
        raise InvalidAction(f"unreadable genial action code {text[:40]!r}")
    a, b, qa, ra, qb, rb = m.groups()
    val = [ord(x) - ord("a") - 7 for x in (qa, ra, qb, rb)]
    return Place(COLOURS[LETTERS.index(a)], COLOURS[LETTERS.index(b)], (val[0], val[1]), (val[2], val[3]))


# Placements are cached per (radius, a, b, i, j): legal_actions builds thousands of them.
_PLACE_CACHE: dict[tuple[int, int, int, int, int], Place] = {}


def _place(bd: Board, a: int, b: int, i: int, j: int) -> Place:
    key = (bd.radius, a, b, i, j)
    p = _PLACE_CACHE.get(key)
    if p is None:
        p = _PLACE_CACHE[key] = Place(COLOURS[a], COLOURS[b], bd.cells[i], bd.cells[j])
    return p


# ------------------------------------------------------------------------------ events

@dataclass(frozen=True)
class Points:
    """What one colour of a placed tile scored: ``raw`` counted along the lines, ``gained`` moved
    the track, ``lost`` fell off at a cap (18, or 36 on two-board tracks), ``total`` after."""

    colour: str
    raw: int
    gained: int
    lost: int
    total: int


@dataclass(frozen=True)
class Placed:
    """``seat`` put tile ``colours`` (first on ``cells[0]``) on ``cells`` (``labels``).

    bonus: it was an «Ingenious!» bonus placement. points: one entry per distinct colour of the
    tile (a double has one), in tile order. team: the team (0/1) that scored, or -1.
    """

    seat: int
    colours: tuple[str, str]
    cells: tuple[tuple[int, int], tuple[int, int]]
    labels: tuple[str, str]
    bonus: bool
    points: tuple[Points, ...]
    team: int = -1


@dataclass(frozen=True)
class Genial:
    """«Ingenious!»: ``colour`` reached ``value`` (18, or 36 on the second team board); ``seat``
    earns a bonus placement. ``pending``: bonus placements now owed in all."""

    seat: int
    colour: str
    value: int
    pending: int


@dataclass(frozen=True)
class TileDrawn:
    """A tile drawn from the bag to be placed at once, shown to everyone.

    purpose: "bonus" (an «Ingenious!» bonus tile) or "solo" (the solo game's next tile)."""

    seat: int
    tile: tuple[str, str]
    purpose: str


@dataclass(frozen=True)
class BonusForfeited:
    """``count`` owed bonus placements are lost: reason "bag_empty" or "rack_empty"."""

    seat: int
    count: int
    reason: str


@dataclass(frozen=True)
class SwapOffered:
    """``seat`` holds none of their lowest colour(s) ``lowest`` and may swap the rack."""

    seat: int
    lowest: tuple[str, ...]


@dataclass(frozen=True)
class Swapped:
    """``seat`` showed the rack ``shown`` (now back in the bag) and drew ``count`` new tiles
    (never named)."""

    seat: int
    shown: tuple[tuple[str, str], ...]
    count: int


@dataclass(frozen=True)
class SwapDeclined:
    seat: int


@dataclass(frozen=True)
class RackRefilled:
    """``seat`` drew ``count`` tiles (never named); ``bag`` tiles remain."""

    seat: int
    count: int
    bag: int


@dataclass(frozen=True)
class Skipped:
    """``seat`` holds no tile and the bag is empty: the turn goes on (reason "no_tiles")."""

    seat: int
    reason: str


@dataclass(frozen=True)
class TurnPassed:
    """It is now ``seat``'s turn (``previous`` played before)."""

    seat: int
    previous: int


@dataclass(frozen=True)
class InstantWin:
    """``seats`` (a player, or a team's two seats) reached the end of all six tracks."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    """reason: "board_full", "instant_win" or "no_tiles"; places per seat (1-based, shared on a
    full tie); scores per seat: the six values sorted ascending (the ranking key)."""

    reason: str
    places: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]


# ------------------------------------------------------------------------------ state

class State:
    """A game position. Treat as immutable: apply() works on a copy."""

    __slots__ = ("players", "options", "seed", "counter", "radius", "occ", "tiles", "bag",
                 "racks", "scores", "current", "phase", "bonus_pending", "drawn", "turns",
                 "end", "winners", "turn_start", "started")

    players: int
    options: Options
    seed: int
    counter: int
    radius: int
    occ: list[int]  # colour index per cell, -1 empty (printed symbols filled)
    tiles: list[tuple[int, int, int, int, int, bool]]  # (a, b, cell i, cell j, seat, bonus)
    bag: list[int]  # count per tile kind (KINDS)
    racks: list[list[tuple[int, int]]]
    scores: list[list[int]]  # per score holder (player, or team in team play), per colour
    current: int
    phase: str
    bonus_pending: int
    drawn: tuple[int, int] | None
    turns: int
    end: str | None
    winners: tuple[int, ...]
    turn_start: int  # index in tiles of the first tile of the latest turn
    started: list[bool]  # per seat: has placed a tile (the first-round rule is over for it)

    def copy(self) -> "State":
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.occ = list(self.occ)
        s.tiles = list(self.tiles)
        s.bag = list(self.bag)
        s.racks = [list(r) for r in self.racks]
        s.scores = [list(v) for v in self.scores]
        s.started = list(self.started)
        return s

    @property
    def board(self) -> Board:
        return board(self.radius)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def team(self) -> bool:
        return self.options.team

    @property
    def two_boards(self) -> bool:
        """Tracks 0..36 (team and solo play)."""
        return self.options.team or self.players == 1

    def holder(self, seat: int) -> int:
        return seat % 2 if self.options.team else seat

    def __repr__(self) -> str:
        return f"<genial State players={self.players} turn={self.turns} phase={self.phase}>"


def track_max(state: State) -> int:
    return 2 * CAP if state.two_boards else CAP


def _draw(state: State, count: int) -> list[tuple[int, int]]:
    """Draw up to ``count`` random tiles from the bag (fewer if it runs out)."""
    total = sum(state.bag)
    count = min(count, total)
    if count <= 0:
        return []
    gen = rng(state.seed, state.counter)
    state.counter += 1
    out = []
    for _ in range(count):
        pick = gen.randrange(total)
        for k, n in enumerate(state.bag):
            if pick < n:
                state.bag[k] -= 1
                out.append(KINDS[k])
                break
            pick -= n
        total -= 1
    return out


def _options(options: Any) -> Options:
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    if isinstance(options, dict):
        return Options(team=bool(options.get("team", False)),
                       bonus_from_rack=bool(options.get("bonus_from_rack", False)),
                       series=int(options.get("series", 0) or 0))
    raise InvalidAction(f"bad options {options!r}")


def setup(players: int, options: Options | None = None, seed: int = 0) -> State:
    """A new game: empty board for the player count, racks of 6 (none in solo), a random first
    player; in solo the first tile is drawn at once."""
    if not isinstance(players, int) or not INFO.min_players <= players <= INFO.max_players:
        raise InvalidAction(f"genial takes 1-4 players, not {players!r}")
    opts = _options(options)
    if opts.team and players != 4:
        raise InvalidAction("the team game needs exactly 4 players")
    s = State.__new__(State)
    s.players = players
    s.options = opts
    s.seed = int(seed)
    s.counter = 0
    s.radius = radius_for(players)
    s.occ = board(s.radius).empty_occupancy()
    s.tiles = []
    s.bag = list(KIND_COUNT)
    s.racks = [[] for _ in range(players)]
    s.scores = [[0] * 6 for _ in range(2 if opts.team else players)]
    s.phase = PLACE
    s.bonus_pending = 0
    s.drawn = None
    s.turns = 0
    s.end = None
    s.winners = ()
    s.turn_start = 0
    s.started = [False] * players
    gen = rng(s.seed, s.counter)
    s.counter += 1
    s.current = gen.randrange(players)
    if players == 1:
        (s.drawn,) = _draw(s, 1)
    else:
        for seat in range(players):
            s.racks[seat] = _draw(s, RACK_SIZE)
    return s


def position(players: int = 2, *, options: Options | dict | None = None, seed: int = 0,
             tiles: Iterable[Sequence[Any]] = (), racks: Sequence[Sequence[Any]] | None = None,
             scores: Sequence[Any] | None = None, current: int = 0,
             drawn: Any = None, started: Sequence[bool] | None = None) -> State:
    """A hand-built position (tests, puzzles, examples), tiles conserved.

    tiles: (seat, tile, cell_a, cell_b) with tile as "rb" / ("red", "blue") and cells as labels
    of this board ("F7") or axial pairs; the first colour goes on cell_a. racks: tiles per seat (default: drawn
    at random to 6). scores: per holder six values (list, or dict colour -> value). started: which
    seats are past their first tile (default: those who have a tile on the board, and everyone
    once any tile lies on the board). drawn: the pending tile (solo; default drawn at random).
    """
    s = setup(players, options, seed)
    bd = s.board
    s.bag = list(KIND_COUNT)
    s.racks = [[] for _ in range(players)]
    s.drawn = None
    s.current = current
    for seat, tile, ca, cb in tiles:
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidAction(f"no seat {seat!r}")
        a, b = _ordered(tile)
        t = (a, b) if a <= b else (b, a)
        cell_a, cell_b = _cell_of(ca, s.radius), _cell_of(cb, s.radius)
        if cell_a not in bd.index or cell_b not in bd.index:
            raise InvalidAction(f"cell off the board: {ca} {cb}")
        i, j = bd.index[cell_a], bd.index[cell_b]
        if s.occ[i] != -1 or s.occ[j] != -1 or j not in bd.nbr[i]:
            raise InvalidAction(f"cannot put {tile} on {ca} {cb}")
        _take_from_bag(s, t)
        s.occ[i], s.occ[j] = a, b
        if i > j:
            i, j, a, b = j, i, b, a
        s.tiles.append((a, b, i, j, seat, False))
    s.turn_start = max(0, len(s.tiles) - 1)
    if started is None:
        any_tile = bool(s.tiles)
        s.started = [any_tile for _ in range(players)]
    else:
        s.started = [bool(x) for x in started]
    for t in s.tiles:
        s.started[t[4]] = True
    if scores is not None:
        for h, vals in enumerate(scores):
            if isinstance(vals, dict):
                s.scores[h] = [int(vals.get(c, 0)) for c in COLOURS]
            else:
                s.scores[h] = [int(v) for v in vals]
    if players == 1:
        if drawn is not None:
            t = _tile_from(drawn)
            _take_from_bag(s, t)
            s.drawn = t
        else:
            (s.drawn,) = _draw(s, 1)
    else:
        for seat in range(players):
            if racks is not None and seat < len(racks):
                for tile in racks[seat]:
                    t = _tile_from(tile)
                    _take_from_bag(s, t)
                    s.racks[seat].append(t)
            else:
                s.racks[seat] = _draw(s, RACK_SIZE)
    return s


def _cell_of(value: Any, radius: int) -> Cell:
    if isinstance(value, str):
        return parse_cell(value, radius)
    return (int(value[0]), int(value[1]))


def _take_from_bag(s: State, tile: tuple[int, int]) -> None:
    k = KIND_INDEX[tile]
    if s.bag[k] <= 0:
        raise InvalidAction(f"no {tile_text(tile)} tile left in the bag")
    s.bag[k] -= 1


# ------------------------------------------------------------------------------ queries

def current_player(state: State) -> int | None:
    return None if state.phase == OVER else state.current


def turn(state: State) -> int:
    return state.turns


def piece_count(state: State) -> int:
    """Tiles in the bag + racks + on the board + the drawn tile waiting to be placed."""
    return (sum(state.bag) + sum(len(r) for r in state.racks) + len(state.tiles)
            + (1 if state.drawn is not None else 0))


def piece_total(players: int, options: Options | None = None) -> int:
    return TILE_TOTAL


def _half_points(occ: list[int], rays: tuple[tuple[int, ...], ...], colour: int, skip: int) -> int:
    total = 0
    for d in range(6):
        if d == skip:
            continue
        for k in rays[d]:
            if occ[k] != colour:
                break
            total += 1
    return total


def _raw(bd: Board, occ: list[int], a: int, b: int, i: int, j: int) -> tuple[int, int]:
    """Points of colour a on cell i and colour b on cell j (adjacent, both empty)."""
    d = bd.nbr[i].index(j)
    return (_half_points(occ, bd.rays[i], a, d), _half_points(occ, bd.rays[j], b, (d + 3) % 6))


def _advance(old: int, raw: int, two_boards: bool) -> tuple[int, int, int]:
    """(new value, lost excess, bonuses earned) for a track at ``old`` gaining ``raw``."""
    if raw <= 0:
        return old, 0, 0
    if old < CAP:
        if old + raw >= CAP:
            return CAP, old + raw - CAP, 1
        return old + raw, 0, 0
    if not two_boards:
        return old, raw, 0
    top = 2 * CAP
    new = min(top, old + raw)
    return new, old + raw - new, 1 if old < top and new == top else 0


def _tile_points(state: State, seat: int, a: int, b: int, i: int, j: int) -> list[tuple[int, int, int, int, int]]:
    """[(colour, raw, gained, lost, bonuses)] per distinct colour, in tile order."""
    ra, rb = _raw(state.board, state.occ, a, b, i, j)
    vals = state.scores[state.holder(seat)]
    per = [(a, ra)] if a != b else [(a, ra + rb)]
    if a != b:
        per.append((b, rb))
    out = []
    for colour, raw in per:
        new, lost, bonus = _advance(vals[colour], raw, state.two_boards)
        if state.players == 1:
            bonus = 0
        out.append((colour, raw, new - vals[colour], lost, bonus))
    return out


def _check_seat(state: State, seat: int) -> None:
    if state.phase == OVER:
        raise GameOver("the game is over")
    require_seat(seat, state.players)
    if seat != state.current:
        raise NotYourTurn(f"it is seat {state.current}'s turn, not {seat!r}'s")


def _resolve_tile(state: State, tile: Any, seat: int) -> tuple[int, int]:
    if isinstance(tile, int) and not isinstance(tile, bool):
        rack = state.racks[seat] if 0 <= seat < state.players else []
        if not 0 <= tile < len(rack):
            raise MoveError("bad_tile_number", f"rack has no tile index {tile}", number=tile,
                            rack=len(rack))
        return rack[tile]
    return _ordered(tile)


def _allowed_cells(state: State, seat: int) -> frozenset[int] | None:
    """Cells the seat's first tile may touch, or None when it may go anywhere."""
    if state.started[seat]:
        return None
    bd = state.board
    allowed: set[int] = set()
    for s_idx, nbrs in enumerate(bd.symbol_nbrs):
        if not any(t[4] != seat and (t[2] in nbrs or t[3] in nbrs) for t in state.tiles):
            allowed |= nbrs
    return frozenset(allowed)


def _free_edges(state: State, seat: int) -> list[tuple[int, int]]:
    occ = state.occ
    allowed = _allowed_cells(state, seat)
    out = []
    for i, j, _ in state.board.edges:
        if occ[i] == -1 and occ[j] == -1 and (allowed is None or i in allowed or j in allowed):
            out.append((i, j))
    return out


def _has_space(state: State) -> bool:
    occ = state.occ
    for i, j, _ in state.board.edges:
        if occ[i] == -1 and occ[j] == -1:
            return True
    return False


def legal_placements(state: State, seat: int, tile: Any) -> list[tuple[Cell, Cell]]:
    """All (cell_a, cell_b) where ``tile``'s first colour may go on cell_a and its second on
    cell_b, for ``seat`` now (respects the first-round rule; ignores whose turn it is and whether
    the seat holds the tile). A double lists each pair of cells once; other tiles both ways.
    tile: "rb", ("red", "blue"), or an int index (0-based) into the seat's rack.
    """
    a, b = _resolve_tile(state, tile, seat)
    cells = state.board.cells
    return [(cells[i], cells[j]) for i, j in _placement_indices(state, seat, a, b)]


def _placement_indices(state: State, seat: int, a: int, b: int):
    """The (cell index of colour a, of colour b) of every placement of tile (a, b): each free
    pair of neighbours both ways, a double's once."""
    for i, j in _free_edges(state, seat):
        yield i, j
        if a != b:
            yield j, i


def placement_score(state: State, seat: int, tile: Any, cell_a: Cell | str,
                    cell_b: Cell | str) -> dict[str, dict[str, int]]:
    """What putting ``tile`` (first colour on cell_a) would earn ``seat``, without applying it.

    Returns {colour: {"raw": counted along the lines, "gained": what the track moves,
    "lost": excess lost at the cap, "bonus": bonus placements earned, "total": value after}},
    one entry per distinct colour of the tile. Cells may be axial pairs or labels.
    Raises MoveError if the cells are not two adjacent empty cells of this board.
    """
    a, b = _resolve_tile(state, tile, seat)
    i, j = _cell_indices(state, cell_a, cell_b)
    return _points_by_colour(state, seat, a, b, i, j)


def _points_by_colour(state: State, seat: int, a: int, b: int, i: int, j: int) -> dict[str, dict[str, int]]:
    """``placement_score``'s dict for tile (a, b) on cells i, j (checked by the caller)."""
    vals = state.scores[state.holder(seat)]
    return {COLOURS[c]: {"raw": raw, "gained": g, "lost": lost, "bonus": bonus, "total": vals[c] + g}
            for c, raw, g, lost, bonus in _tile_points(state, seat, a, b, i, j)}


def scored_placements(state: State, seat: int, tile: Any) -> list[tuple[Cell, Cell, dict[str, dict[str, int]]]]:
    """Every placement of ``legal_placements`` with what it would earn (``placement_score``'s
    dict), in one pass: the bot lists all of a tile's placements, best first, at every step of
    a player's move; under many busy groups that list was a sixth of its time, half of it in
    scoring one checked call at a time."""
    a, b = _resolve_tile(state, tile, seat)
    cells = state.board.cells
    return [(cells[i], cells[j], _points_by_colour(state, seat, a, b, i, j))
            for i, j in _placement_indices(state, seat, a, b)]


def _cell_indices(state: State, cell_a: Any, cell_b: Any) -> tuple[int, int]:
    bd = state.board
    idx = []
    for cell in (cell_a, cell_b):
        if isinstance(cell, str):
            c = parse_cell(cell, state.radius)
        elif (isinstance(cell, (tuple, list)) and len(cell) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
            c = (cell[0], cell[1])
        else:
            raise MoveError("bad_cell", f"not a cell: {cell!r}", cell=str(cell)[:8])
        if c not in bd.index:
            raise MoveError("bad_cell", f"cell {c} is not on this board", cell=str(c))
        idx.append(bd.index[c])
    i, j = idx
    if i == j:
        raise MoveError("same_cell", "both halves on the same cell", cell=bd.labels[i])
    if j not in bd.nbr[i]:
        raise MoveError("not_adjacent", f"{bd.labels[i]} and {bd.labels[j]} are not neighbours",
                        cells=[bd.labels[i], bd.labels[j]])
    for k in (i, j):
        if state.occ[k] != -1:
            raise MoveError("occupied", f"{bd.labels[k]} is not empty", cell=bd.labels[k])
    return i, j


def _placeable_tiles(state: State) -> list[tuple[int, int]]:
    """Distinct tiles the current player may place now, in rack order."""
    if state.phase not in (PLACE, BONUS):
        return []
    if state.drawn is not None:
        return [state.drawn]
    seen: list[tuple[int, int]] = []
    for t in state.racks[state.current]:
        if t not in seen:
            seen.append(t)
    return seen


def swap_allowed(state: State, seat: int) -> bool:
    """Whether ``seat``'s rack holds none of its lowest colour(s) and a swap could be done now
    (a non-empty rack, at least 6 tiles in the bag; never in solo)."""
    if state.players == 1 or not state.racks[seat] or sum(state.bag) < RACK_SIZE:
        return False
    low = _lowest(state.scores[state.holder(seat)])
    return not any(a in low or b in low for a, b in state.racks[seat])


def _lowest(values: Sequence[int]) -> set[int]:
    m = min(values)
    return {c for c, v in enumerate(values) if v == m}


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (empty unless it is that seat's turn)."""
    if state.phase == OVER or seat != state.current:
        return []
    if state.phase == SWAP:
        return [Swap(), Keep()]
    bd = state.board
    edges = _free_edges(state, seat)
    out: list[Action] = []
    for a, b in _placeable_tiles(state):
        for i, j in edges:
            out.append(_place(bd, a, b, i, j))
            if a != b:
                out.append(_place(bd, b, a, i, j))
    return out


# ------------------------------------------------------------------------------ apply

def apply(state: State, seat: int, action: Action) -> tuple[State, list[Any]]:
    """Apply one action of ``seat``; never mutates ``state``."""
    _check_seat(state, seat)
    if isinstance(action, Place):
        return _apply_place(state, seat, action)
    if isinstance(action, (Swap, Keep)):
        if state.phase != SWAP:
            raise MoveError("wrong_phase", f"no swap decision pending (phase {state.phase})",
                            phase=state.phase)
        s = state.copy()
        s.turns += 1
        events: list[Any] = []
        if isinstance(action, Swap):
            old = s.racks[seat]
            new = _draw(s, RACK_SIZE)
            for t in old:
                s.bag[KIND_INDEX[t]] += 1
            s.racks[seat] = new
            events.append(Swapped(seat, tuple(tuple(tile_names(t)) for t in old), len(new)))
        else:
            events.append(SwapDeclined(seat))
            _refill(s, seat, events)
        _next_player(s, events)
        return s, events
    raise InvalidAction(f"not a genial action: {action!r}")


def _colour_index(value: Any) -> int:
    if isinstance(value, str) and value in COLOUR_INDEX:
        return COLOUR_INDEX[value]
    raise MoveError("not_tile", f"not a colour: {value!r}", colour=str(value)[:12])


def _apply_place(state: State, seat: int, action: Place) -> tuple[State, list[Any]]:
    if state.phase not in (PLACE, BONUS):
        raise MoveError("wrong_phase", f"no placement pending (phase {state.phase})", phase=state.phase)
    a, b = _colour_index(action.a), _colour_index(action.b)
    tile = (a, b) if a <= b else (b, a)
    i, j = _cell_indices(state, action.cell_a, action.cell_b)
    bd = state.board
    if state.drawn is not None:
        if tile != state.drawn:
            raise MoveError("no_tile", f"place the drawn tile {tile_text(state.drawn)}, not {tile_text(tile)}",
                            tile=tile_names(tile), drawn=tile_names(state.drawn))
    elif tile not in state.racks[seat]:
        raise MoveError("no_tile", f"no {tile_text(tile)} tile in the rack", tile=tile_names(tile))
    allowed = _allowed_cells(state, seat)
    if allowed is not None and i not in allowed and j not in allowed:
        raise MoveError("first_round", "the first tile must touch a printed symbol that no other "
                        "player's tile touches yet", cells=[bd.labels[i], bd.labels[j]])

    s = state.copy()
    s.turns += 1
    events: list[Any] = []
    is_bonus = state.phase == BONUS
    if s.drawn is not None:
        s.drawn = None
    else:
        s.racks[seat].remove(tile)
    scored = _tile_points(s, seat, a, b, i, j)
    h = s.holder(seat)
    earned = 0
    points = []
    for colour, raw, gained, lost, bonus in scored:
        s.scores[h][colour] += gained
        earned += bonus
        points.append(Points(COLOURS[colour], raw, gained, lost, s.scores[h][colour]))
    s.occ[i], s.occ[j] = a, b
    if not is_bonus:
        s.turn_start = len(s.tiles)
    if i < j:
        s.tiles.append((a, b, i, j, seat, is_bonus))
    else:
        s.tiles.append((b, a, j, i, seat, is_bonus))
    s.started[seat] = True
    events.append(Placed(seat, (COLOURS[a], COLOURS[b]), (bd.cells[i], bd.cells[j]),
                         (bd.labels[i], bd.labels[j]), is_bonus, tuple(points),
                         h if s.team else -1))
    if is_bonus:
        s.bonus_pending -= 1
    for colour, raw, gained, lost, bonus in scored:
        if bonus:
            s.bonus_pending += 1
            events.append(Genial(seat, COLOURS[colour], s.scores[h][colour], s.bonus_pending))

    if s.players > 1 and all(v == track_max(s) for v in s.scores[h]):
        seats = tuple(x for x in range(s.players) if s.holder(x) == h)
        events.append(InstantWin(seats))
        _finish(s, INSTANT_WIN, events, seats)
        return s, events
    if not _has_space(s):
        _finish(s, BOARD_FULL, events)
        return s, events
    if s.players == 1:
        _next_player(s, events)
        return s, events
    if s.bonus_pending > 0:
        if s.options.bonus_from_rack:
            if s.racks[seat]:
                s.phase = BONUS
                return s, events
            reason = RACK_EMPTY
        else:
            drawn = _draw(s, 1)
            if drawn:
                s.drawn = drawn[0]
                s.phase = BONUS
                events.append(TileDrawn(seat, tuple(tile_names(s.drawn)), "bonus"))
                return s, events
            reason = BAG_EMPTY
        events.append(BonusForfeited(seat, s.bonus_pending, reason))
        s.bonus_pending = 0
    _end_of_turn(s, seat, events)
    return s, events


def _end_of_turn(s: State, seat: int, events: list[Any]) -> None:
    """After the placements: offer the swap if allowed, else refill and pass the turn."""
    if swap_allowed(s, seat):
        s.phase = SWAP
        low = _lowest(s.scores[s.holder(seat)])
        events.append(SwapOffered(seat, tuple(COLOURS[c] for c in sorted(low))))
        return
    _refill(s, seat, events)
    _next_player(s, events)


def _refill(s: State, seat: int, events: list[Any]) -> None:
    need = RACK_SIZE - len(s.racks[seat])
    got = _draw(s, need)
    s.racks[seat].extend(got)
    if need > 0:
        events.append(RackRefilled(seat, len(got), sum(s.bag)))


def _next_player(s: State, events: list[Any]) -> None:
    previous = s.current
    s.phase = PLACE
    s.bonus_pending = 0
    if s.players == 1:
        drawn = _draw(s, 1)
        if not drawn:
            _finish(s, NO_TILES, events)
            return
        s.drawn = drawn[0]
        events.append(TileDrawn(0, tuple(tile_names(s.drawn)), "solo"))
        return
    seat = previous
    for _ in range(s.players):
        seat = (seat + 1) % s.players
        if s.racks[seat]:
            s.current = seat
            events.append(TurnPassed(seat, previous))
            return
        events.append(Skipped(seat, NO_TILES))
    _finish(s, NO_TILES, events)


def _finish(s: State, reason: str, events: list[Any], winners: tuple[int, ...] = ()) -> None:
    s.phase = OVER
    s.end = reason
    s.winners = winners
    s.bonus_pending = 0
    result = outcome(s)
    assert result is not None
    events.append(GameEnded(reason, result.places, result.scores))


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    vectors = [state.scores[state.holder(seat)] for seat in range(state.players)]
    scores = tuple(weakest_first(v) for v in vectors)
    if state.winners:
        others = [seat for seat in range(state.players) if seat not in state.winners]
        sub = places_from_keys([scores[x] for x in others])
        places = [1] * state.players
        for seat, p in zip(others, sub):
            places[seat] = len(state.winners) + p
        return Outcome(tuple(places), state.end or INSTANT_WIN, scores)
    return Outcome(rank_weakest_first(vectors), state.end or BOARD_FULL, scores)
