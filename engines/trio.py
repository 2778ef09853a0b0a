"""trio: the 36-tile game of sets of three (seed 004, rules docs/rules.md "trio").

Nine symbols: three shapes (hexagon, circle, star) in three colours (red, blue, yellow).
36 tiles, dominoes of two cells: one tile for every unordered pair of two different symbols.
Each player (2-4) holds 5 tiles, hidden; one tile from the shuffled pool starts the board.
The board is an unbounded square grid; only occupied cells are stored.

A set is exactly three symbols contiguous in one straight line (horizontal, vertical or either
diagonal) that are all different colours and all different shapes, or all different colours with
the same shape, or the same colour with all different shapes. Two alike, or three identical, is
not a set.

A turn: the engine rolls the six-faced die (red, blue, yellow, hexagon, circle, star) from the
seeded generator at the start of every turn. The player lays one tile of their hand on two empty
edge-adjacent cells so that
  1. one of its cells touches by an edge an existing symbol with the rolled colour or shape
     (that symbol need not be part of the new set: seed figure 2);
  2. every maximal straight run of exactly three symbols through a newly laid symbol is a valid
     set (seed figure 3); runs of 2 are fine; runs of 4 or more are allowed and are not sets
     (option ``strict_lines`` forbids runs longer than 3);
  3. at least one valid set of exactly three is formed that includes a newly laid symbol.
A player who cannot lay any tile must Draw: take one tile from the pool if it has any; the turn
ends. The first player with an empty hand wins. If the pool is empty and a whole round passes
with nobody able to lay a tile (as many empty-pool draws in a row as there are players), the game
ends: fewest tiles in hand wins, ties share the place. Seat 0 starts.

The state keeps the public history of the game, every finished turn as (seat, rolled face,
tiles on the board at the roll, whether a tile was laid), as the bot narrates it: a computer
player learns from a draw that none of that seat's tiles then fitted. It never names a tile.

Coordinates: a cell is (x, y), x to the right, y DOWNWARDS (screen order). The starting tile
lies on (0, 0)-(1, 0). Tile ids 0..35 index ``TILES``, each a pair (lo, hi) of symbol indices
with lo < hi; ``Lay(tile, cell_a, cell_b)`` puts the tile's lo symbol on cell_a and its hi symbol
on cell_b. Symbol index = colour * 3 + shape; names look like "red-hexagon".

Action codes: ``D`` (Draw), ``L<tile><dir><x>,<y>`` (Lay; x,y = cell_a; dir = where cell_b is
from cell_a: r right, l left, d down, u up), e.g. ``L12r-3,4``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Iterator

from engines.base import (
    require_seat,
    GameInfo,
    GameOver,
    InvalidAction,
    NotYourTurn,
    Option,
    SERIES,
    Outcome,
    options_from_dict,
    places_from_keys,
    rng,
)

# --------------------------------------------------------------------------- constants

COLOURS = ("red", "blue", "yellow")
SHAPES = ("hexagon", "circle", "star")
SYMBOLS = tuple(f"{c}-{s}" for c in COLOURS for s in SHAPES)  # index = colour * 3 + shape
SYMBOL_CODES = tuple(f"{c[0]}{s[0]}" for c in COLOURS for s in SHAPES)  # "rh", "bc", "ys", ...
TILES: tuple[tuple[int, int], ...] = tuple(combinations(range(9), 2))  # 36 tiles, (lo, hi)
TILE_INDEX = {pair: i for i, pair in enumerate(TILES)}
DIE_FACES = ("red", "blue", "yellow", "hexagon", "circle", "star")
HAND_SIZE = 5
START_CELLS = ((0, 0), (1, 0))

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))  # the four line directions
DIR_LETTER = {(1, 0): "r", (-1, 0): "l", (0, 1): "d", (0, -1): "u"}
LETTER_DIR = {v: k for k, v in DIR_LETTER.items()}

INFO = GameInfo(
    id="trio",
    name_en="Trio",
    min_players=2,
    max_players=4,
    hidden_info=True,
    aliases=("sets", "set", "trio game"),
    options=(
        Option("strict_lines", False),
        SERIES,
    ),
)


def colour_of(sym: int) -> int:
    return sym // 3


def shape_of(sym: int) -> int:
    return sym % 3


def _valid3(a: int, b: int, c: int) -> bool:
    cols = {a // 3, b // 3, c // 3}
    shps = {a % 3, b % 3, c % 3}
    if len(cols) == 2 or len(shps) == 2:
        return False  # two alike
    return not (len(cols) == 1 and len(shps) == 1)  # three identical


# VALID[a][b] = bitmask of symbols c such that (a, b, c) is a set.
VALID = tuple(
    tuple(sum(1 << c for c in range(9) if _valid3(a, b, c)) for b in range(9)) for a in range(9)
)


def is_set(symbols) -> bool:
    """Whether three symbols (indices or names, any order) form a valid set."""
    syms = [symbol_index(s) for s in symbols]
    return len(syms) == 3 and _valid3(*syms)


def set_kind(symbols) -> str | None:
    """The kind of set: "all_different", "same_shape", "same_colour"; None if not a set."""
    if not is_set(symbols):
        return None
    syms = [symbol_index(s) for s in symbols]
    if len({colour_of(s) for s in syms}) == 1:
        return "same_colour"
    if len({shape_of(s) for s in syms}) == 1:
        return "same_shape"
    return "all_different"


def symbol_index(sym: Any) -> int:
    """A symbol from its index 0..8, name "red-hexagon" or code "rh"."""
    if isinstance(sym, bool):
        raise InvalidAction(f"not a symbol: {sym!r}")
    if isinstance(sym, int):
        if 0 <= sym < 9:
            return sym
    elif isinstance(sym, str):
        if sym in SYMBOLS:
            return SYMBOLS.index(sym)
        if sym in SYMBOL_CODES:
            return SYMBOL_CODES.index(sym)
    raise InvalidAction(f"not a symbol: {sym!r}")


def tile_id(sym_a: Any, sym_b: Any) -> int:
    """The id of the tile bearing these two (different) symbols."""
    a, b = symbol_index(sym_a), symbol_index(sym_b)
    if a == b:
        raise InvalidAction("a tile has two different symbols")
    return TILE_INDEX[(min(a, b), max(a, b))]


def tile_symbols(tile: int) -> tuple[str, str]:
    """Names of a tile's (lo, hi) symbols."""
    lo, hi = TILES[tile]
    return SYMBOLS[lo], SYMBOLS[hi]


def die_matches(face: str, sym: int) -> bool:
    i = DIE_FACES.index(face)
    return colour_of(sym) == i if i < 3 else shape_of(sym) == i - 3


# --------------------------------------------------------------------------- options, actions

@dataclass(frozen=True)
class Options:
    strict_lines: bool = False
    # Games in a series, handled by the bot (0 = none, 1 = one game per player, n = n games).
    series: int = 0


def _cell(value: Any) -> tuple[int, int]:
    if (isinstance(value, (tuple, list)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
    raise InvalidAction(f"not a cell: {value!r}")


@dataclass(frozen=True)
class Lay:
    """Lay a tile: its lo symbol on cell_a, its hi symbol on cell_b.

    ``tile`` may be given as an id 0..35 or as a pair of symbols (in which case the first symbol
    goes on cell_a); it is normalised to the id with the cells swapped if needed.
    """

    tile: int
    cell_a: tuple[int, int]
    cell_b: tuple[int, int]

    def __post_init__(self) -> None:
        tile, a, b = self.tile, _cell(self.cell_a), _cell(self.cell_b)
        if isinstance(tile, (tuple, list)):
            if len(tile) != 2:
                raise InvalidAction(f"not a tile: {tile!r}")
            first = symbol_index(tile[0])
            tid = tile_id(tile[0], tile[1])
            if TILES[tid][0] != first:
                a, b = b, a
            tile = tid
        if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < 36:
            raise InvalidAction(f"not a tile: {tile!r}")
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "cell_a", a)
        object.__setattr__(self, "cell_b", b)


@dataclass(frozen=True)
class Draw:
    """Draw one tile from the pool (or pass if it is empty): only when no tile can be laid."""


Action = Lay | Draw

_LAY_RE = re.compile(r"L(\d{1,2})([rlud])(-?\d{1,5}),(-?\d{1,5})")


def encode_action(action: Action) -> str:
    if isinstance(action, Draw):
        return "D"
    if isinstance(action, Lay):
        (ax, ay), (bx, by) = action.cell_a, action.cell_b
        letter = DIR_LETTER.get((bx - ax, by - ay))
        if letter is None:
            raise InvalidAction("cells of a tile must be edge-adjacent")
        return f"L{action.tile}{letter}{ax},{ay}"
    raise InvalidAction(f"not a trio action: {action!r}")


def decode_action(text: str) -> Action:
    if not isinstance(text, str):
        raise InvalidAction("action code must be text")
    if text == "D":
        return Draw()
    m = _LAY_RE.fullmatch(text)
    if not m:
        raise InvalidAction(f"bad trio action code {text!r}")
    tile = int(m.group(1))
    if tile >= 36:
        raise InvalidAction(f"no tile {tile}")
    dx, dy = LETTER_DIR[m.group(2)]
    ax, ay = int(m.group(3)), int(m.group(4))
    return Lay(tile, (ax, ay), (ax + dx, ay + dy))


# --------------------------------------------------------------------------- events

@dataclass(frozen=True)
class Rolled:
    """The die was rolled for ``seat``'s turn."""
    seat: int
    face: str


@dataclass(frozen=True)
class Laid:
    """``seat`` laid ``tile``: ``symbols[i]`` on ``cells[i]``; ``sets`` lists each new set's three symbols."""
    seat: int
    tile: int
    symbols: tuple[str, str]
    cells: tuple[tuple[int, int], tuple[int, int]]
    sets: tuple[tuple[str, str, str], ...]
    set_cells: tuple[tuple[tuple[int, int], ...], ...]  # the cells of each set, same order
    hand_size: int


@dataclass(frozen=True)
class Drew:
    """``seat`` could not lay a tile: ``drew`` is False when the pool was empty (a pass)."""
    seat: int
    drew: bool
    pool: int
    passes: int  # empty-pool passes in a row after this one


@dataclass(frozen=True)
class TurnPassed:
    seat: int
    next_seat: int


@dataclass(frozen=True)
class Won:
    """``seat`` emptied their hand. ``places`` ranks everyone (others by fewest tiles)."""
    seat: int
    hand_sizes: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class StalemateEnd:
    """Pool empty and a whole round without a tile laid: fewest tiles wins, ties share."""
    hand_sizes: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]


# --------------------------------------------------------------------------- state

@dataclass(frozen=True)
class State:
    players: int
    options: Options
    seed: int
    counter: int                                  # die rolls so far (rng counter)
    pool: tuple[int, ...]                         # draw from the end
    hands: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, int, int, int, int, int], ...]  # (tile, ax, ay, bx, by, seat|-1)
    current: int
    die: str
    passes: int
    turn: int
    over: str | None                              # None, "won" or "stalemate"
    # (seat, face, tiles on the board, laid) per finished turn (see the module docstring);
    # empty in states saved before it was kept.
    history: tuple[tuple[int, str, int, bool], ...] = ()
    # Derived data (the grid) of this very state; init=False so that ``replace`` starts it empty.
    cache: dict = field(default_factory=dict, init=False, compare=False, repr=False, hash=False)

    @property
    def grid(self) -> dict[tuple[int, int], int]:
        g = self.cache.get("grid")
        if g is None:
            g = self.cache["grid"] = grid_of(self.board)
        return g


def grid_of(board) -> dict[tuple[int, int], int]:
    """Cell -> symbol index for ``board`` entries (tile, ax, ay, bx, by, seat)."""
    g = {}
    for tile, ax, ay, bx, by, _ in board:
        g[(ax, ay)], g[(bx, by)] = TILES[tile]
    return g


def _roll(seed: int, counter: int) -> str:
    return DIE_FACES[rng(seed, counter).randrange(6)]


def setup(players: int, options: Options | dict | None = None, seed: int = 0) -> State:
    if not isinstance(players, int) or not INFO.min_players <= players <= INFO.max_players:
        raise InvalidAction(f"trio takes 2-4 players, not {players!r}")
    opts = options_from_dict(Options, options)
    tiles = list(range(36))
    rng(seed, 0).shuffle(tiles)
    hands = tuple(tuple(tiles[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(players))
    start = tiles[players * HAND_SIZE]
    pool = tuple(tiles[players * HAND_SIZE + 1:])
    (ax, ay), (bx, by) = START_CELLS
    return State(
        players=players, options=opts, seed=seed, counter=2, pool=pool, hands=hands,
        board=((start, ax, ay, bx, by, -1),), current=0, die=_roll(seed, 1), passes=0,
        turn=0, over=None,
    )


def current_player(state: State) -> int | None:
    return None if state.over else state.current


def turn(state: State) -> int:
    return state.turn


def piece_total(players: int, options: Any = None) -> int:
    return 36


def piece_count(state: State) -> int:
    return len(state.pool) + sum(len(h) for h in state.hands) + len(state.board)


# --------------------------------------------------------------------------- legality

def _ray(grid, x, y, dx, dy):
    """Up to 3 symbols met walking from (x, y) (exclusive) along (dx, dy)."""
    out = []
    x += dx
    y += dy
    while len(out) < 3:
        s = grid.get((x, y))
        if s is None:
            break
        out.append(s)
        x += dx
        y += dy
    return out


def _cell_masks(grid, cell, strict, skip):
    """(allowed, makes_set) bitmasks of symbols for ``cell`` over the line directions but ``skip``.

    A symbol is allowed when every run through the cell (ignoring the other new cell, which
    never lies on these lines) is of length 2, of length 3 and a set, or longer (unless strict).
    """
    allowed = 0x1FF
    makes = 0
    x, y = cell
    for d in LINES:
        if d == skip:
            continue
        back = _ray(grid, x, y, -d[0], -d[1])
        fwd = _ray(grid, x, y, d[0], d[1])
        n = 1 + len(back) + len(fwd)
        if n == 3:
            two = back + fwd
            m = VALID[two[0]][two[1]]
            allowed &= m
            makes |= m
        elif n > 3 and strict:
            return 0, 0
    return allowed, makes


def _pair_masks(grid, p, q, strict):
    """What rules 2-3 allow on the empty pair p, q, with p, q put in axis order (q = p + a
    positive axis): (swapped, allow_p, set_p, allow_q, set_q, third, axis_bad), where ``third``
    is the symbol that makes a run of exactly three along the axis (None if none) and
    ``axis_bad`` says the axis run is too long under ``strict_lines``."""
    axis = (q[0] - p[0], q[1] - p[1])
    if axis[0] < 0 or axis[1] < 0:
        p, q, swapped = q, p, True
        axis = (-axis[0], -axis[1])
    else:
        swapped = False
    allow_p, set_p = _cell_masks(grid, p, strict, axis)
    allow_q, set_q = _cell_masks(grid, q, strict, axis)
    back = _ray(grid, p[0], p[1], -axis[0], -axis[1])
    fwd = _ray(grid, q[0], q[1], axis[0], axis[1])
    n = 2 + len(back) + len(fwd)
    third = (back + fwd)[0] if n == 3 else None
    return swapped, allow_p, set_p, allow_q, set_q, third, n > 3 and strict


def _pair_checker(grid, p, q, strict):
    """A function (s_p, s_q) -> (legal, forms_set) for symbols laid on p and q = p + axis."""
    swapped, allow_p, set_p, allow_q, set_q, third, axis_bad = _pair_masks(grid, p, q, strict)

    def check(sp: int, sq: int) -> tuple[bool, bool]:
        if swapped:
            sp, sq = sq, sp
        if axis_bad or not (allow_p >> sp) & 1 or not (allow_q >> sq) & 1:
            return False, False
        forms = bool((set_p >> sp) & 1 or (set_q >> sq) & 1)
        if third is not None:
            if not (VALID[third][sp] >> sq) & 1:
                return False, False
            forms = True
        return True, forms

    return check


# --------------------------------------------------------------------------- fast queries

# TILE_BIT[a][b]: the bit of the tile bearing symbols a and b (0 when a == b).
TILE_BIT = tuple(tuple(0 if a == b else 1 << TILE_INDEX[(min(a, b), max(a, b))] for b in range(9))
                 for a in range(9))


def face_bits(sym: int) -> int:
    """The die faces a symbol answers (bit i = DIE_FACES[i]): its colour and its shape."""
    return (1 << colour_of(sym)) | (1 << (3 + shape_of(sym)))


def frontier(grid: dict) -> dict[tuple[tuple[int, int], tuple[int, int]], int]:
    """Every pair of empty edge-adjacent cells with a cell touching the board (first cell
    top/left), with the die faces (bit i = DIE_FACES[i]) that let a tile go there (rule 1).
    With :func:`tiles_fitting` it tells computer players which tiles fit under which roll."""
    pairs: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}
    for cell, sym in grid.items():
        faces = face_bits(sym)
        for key in _empty_pairs_beside(grid, cell):
            pairs[key] = pairs.get(key, 0) | faces
    return pairs


def _empty_pairs_beside(grid: dict, cell) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of edge-adjacent empty cells whose first cell touches ``cell``, each as
    (top/left cell, other cell)."""
    x, y = cell
    for dx, dy in ORTHO:
        a = (x + dx, y + dy)
        if a in grid:
            continue
        for ex, ey in ORTHO:
            b = (a[0] + ex, a[1] + ey)
            if b not in grid:
                yield (a, b) if (a[1], a[0]) < (b[1], b[0]) else (b, a)


def tiles_fitting(grid: dict, p, q, strict_lines: bool = False) -> int:
    """The tiles (bit i = tile id i) that may be laid on the empty pair p, q, one way round or
    the other, by rules 2 and 3 (the die's rule 1 aside): the same test as legal placements."""
    _, allow_p, set_p, allow_q, set_q, third, axis_bad = _pair_masks(grid, p, q, strict_lines)
    if axis_bad:
        return 0
    fits = 0
    for sp in range(9):
        if not (allow_p >> sp) & 1:
            continue
        row = allow_q
        if third is not None:
            row &= VALID[third][sp]
        elif not (set_p >> sp) & 1:
            row &= set_q  # no set yet: the other symbol must make one
        bits = TILE_BIT[sp]
        for sq in range(9):
            if (row >> sq) & 1:
                fits |= bits[sq]
    return fits


def _candidate_pairs(state: State) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Unordered empty edge-adjacent cell pairs touching a die-matching symbol, sorted
    top-to-bottom then left-to-right by the edge between them (each pair once, first cell
    top/left)."""
    cached = state.cache.get("pairs")
    if cached is not None:
        return cached
    grid = state.grid
    face = DIE_FACES.index(state.die)
    if face < 3:
        match = [c for c, s in grid.items() if s // 3 == face]
    else:
        match = [c for c, s in grid.items() if s % 3 == face - 3]
    pairs = {pair for cell in match for pair in _empty_pairs_beside(grid, cell)}
    out = sorted(pairs, key=lambda ab: (ab[0][1] + ab[1][1], ab[0][0] + ab[1][0]))
    state.cache["pairs"] = out
    return out


def _placements_of(state: State, tile: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    key = ("tile", tile)
    cached = state.cache.get(key)
    if cached is not None:
        return cached
    checkers = state.cache.get("checkers")
    grid = state.grid
    strict = state.options.strict_lines
    pairs = _candidate_pairs(state)
    if checkers is None:
        checkers = state.cache["checkers"] = [_pair_checker(grid, p, q, strict) for p, q in pairs]
    lo, hi = TILES[tile]
    out = []
    for (p, q), check in zip(pairs, checkers):
        ok, forms = check(lo, hi)
        if ok and forms:
            out.append((p, q))
        ok, forms = check(hi, lo)
        if ok and forms:
            out.append((q, p))
    state.cache[key] = out
    return out


def legal_placements(state: State, seat: int, tile: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every (cell_a, cell_b) where ``seat`` may lay ``tile`` now (lo symbol on cell_a).

    Order: by the edge between the two cells, top row first, then left to right; for the same
    two cells, the orientation with cell_a top/left first. Empty if it is not the seat's turn
    or the tile is not in the seat's hand.
    """
    if state.over or seat != state.current or tile not in state.hands[seat]:
        return []
    return list(_placements_of(state, tile))


def playable_tiles(state: State, seat: int) -> list[int]:
    """Tiles of ``seat``'s hand that have a legal placement now (hand order)."""
    if state.over or seat != state.current:
        return []
    return [t for t in state.hands[seat] if _placements_of(state, t)]


def must_draw(state: State) -> bool:
    """Whether the player to act has no tile to lay (their only action is Draw)."""
    if state.over:
        return False
    return not any(_placements_of(state, t) for t in state.hands[state.current])


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.over or seat != state.current:
        return []
    out: list[Action] = []
    for t in state.hands[seat]:
        out.extend(Lay(t, a, b) for a, b in _placements_of(state, t))
    return out or [Draw()]


def check_lay(state: State, tile: int, a, b) -> list[str]:
    """Reasons (possibly several) why laying ``tile`` lo on a, hi on b breaks a rule; [] if legal.

    Reasons: "occupied", "not_adjacent", "no_touch" (no edge-neighbour matches the die),
    "bad_run" (a run of three that is not a set), "long_run" (strict_lines), "no_set".
    """
    grid = state.grid
    if a in grid or b in grid:
        return ["occupied"]
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        return ["not_adjacent"]
    reasons = []
    touch = False
    for cx, cy in (a, b):
        for dx, dy in ORTHO:
            s = grid.get((cx + dx, cy + dy))
            if s is not None and die_matches(state.die, s):
                touch = True
    if not touch:
        reasons.append("no_touch")
    g = dict(grid)
    lo, hi = TILES[tile]
    g[a], g[b] = lo, hi
    any_set = False
    for x, y in (a, b):
        for dx, dy in LINES:
            n = 1 + len(_ray(g, x, y, dx, dy)) + len(_ray(g, x, y, -dx, -dy))
            if n == 3:
                run = _ray(g, x, y, -dx, -dy)[::-1] + [g[(x, y)]] + _ray(g, x, y, dx, dy)
                if _valid3(*run):
                    any_set = True
                elif "bad_run" not in reasons:
                    reasons.append("bad_run")
            elif n > 3 and state.options.strict_lines and "long_run" not in reasons:
                reasons.append("long_run")
    if not any_set:
        reasons.append("no_set")
    return reasons


# --------------------------------------------------------------------------- apply

def runs_of_three(grid: dict, cells) -> list[tuple[tuple[int, int], ...]]:
    """Maximal straight runs of exactly three occupied cells of ``grid`` through any of ``cells``
    (each run once, as its cells in line order). Sets formed = those whose symbols are a set."""
    found: list[tuple[tuple[int, int], ...]] = []
    for x, y in cells:
        for dx, dy in LINES:
            back = []
            cx, cy = x - dx, y - dy
            while (cx, cy) in grid and len(back) < 4:
                back.append((cx, cy))
                cx, cy = cx - dx, cy - dy
            fwd = []
            cx, cy = x + dx, y + dy
            while (cx, cy) in grid and len(fwd) < 4:
                fwd.append((cx, cy))
                cx, cy = cx + dx, cy + dy
            run = tuple(back[::-1] + [(x, y)] + fwd)
            if len(run) == 3 and run not in found:
                found.append(run)
    return found


def _outcome_places(hands) -> tuple[int, ...]:
    return places_from_keys([-len(h) for h in hands])


def apply(state: State, seat: int, action: Action) -> tuple[State, list]:
    if not isinstance(action, (Lay, Draw)):
        raise InvalidAction(f"not a trio action: {action!r}")
    if state.over:
        raise GameOver("the game is over")
    require_seat(seat, state.players)
    if seat != state.current:
        raise NotYourTurn(f"it is seat {state.current}'s turn")
    events: list = []
    hands = list(state.hands)
    pool = state.pool
    board = state.board
    passes = state.passes
    history = state.history + ((seat, state.die, len(state.board), isinstance(action, Lay)),)
    hand = state.hands[seat]
    if isinstance(action, Lay):
        tile, a, b = action.tile, action.cell_a, action.cell_b
        if tile not in hand:
            raise InvalidAction("that tile is not in your hand")
        if (a, b) not in _placements_of(state, tile):
            reasons = check_lay(state, tile, a, b)
            raise InvalidAction("illegal placement: " + ", ".join(reasons or ["illegal"]))
        hands[seat] = tuple(t for t in hand if t != tile)
        board = board + ((tile, a[0], a[1], b[0], b[1], seat),)
        grid = dict(state.grid)
        lo, hi = TILES[tile]
        grid[a], grid[b] = lo, hi
        runs = tuple(run for run in runs_of_three(grid, (a, b)) if _valid3(*(grid[c] for c in run)))
        sets = tuple(tuple(SYMBOLS[grid[c]] for c in run) for run in runs)
        passes = 0
        events.append(Laid(seat, tile, tile_symbols(tile), (a, b), sets, runs, len(hands[seat])))
        if not hands[seat]:
            sizes = tuple(len(h) for h in hands)
            places = _outcome_places(hands)
            events.append(Won(seat, sizes, places))
            new = replace(state, pool=pool, hands=tuple(hands), board=board, current=seat,
                          passes=passes, turn=state.turn + 1, over="won", history=history)
            new.cache["grid"] = grid
            return new, events
    else:
        if not must_draw(state):
            raise InvalidAction("you can lay a tile, so you may not draw")
        if pool:
            hands[seat] = hand + (pool[-1],)
            pool = pool[:-1]
            passes = 0
            events.append(Drew(seat, True, len(pool), passes))
        else:
            passes += 1
            events.append(Drew(seat, False, 0, passes))
            if passes >= state.players:
                sizes = tuple(len(h) for h in hands)
                places = _outcome_places(hands)
                winners = tuple(i for i, p in enumerate(places) if p == 1)
                events.append(StalemateEnd(sizes, places, winners))
                new = replace(state, pool=pool, hands=tuple(hands), board=board, current=seat,
                              passes=passes, turn=state.turn + 1, over="stalemate", history=history)
                new.cache["grid"] = state.grid
                return new, events
    nxt = (seat + 1) % state.players
    face = _roll(state.seed, state.counter)
    events.append(TurnPassed(seat, nxt))
    events.append(Rolled(nxt, face))
    new = replace(state, counter=state.counter + 1, pool=pool, hands=tuple(hands), board=board,
                  current=nxt, die=face, passes=passes, turn=state.turn + 1, over=None, history=history)
    if board is state.board:
        new.cache["grid"] = state.grid
    else:
        new.cache["grid"] = grid
    return new, events


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    places = _outcome_places(state.hands)
    reason = "empty_hand" if state.over == "won" else "stalemate"
    return Outcome(places=places, reason=reason, scores=tuple(len(h) for h in state.hands))


# --------------------------------------------------------------------------- view

def _tile_view(entry) -> dict[str, Any]:
    tile, ax, ay, bx, by, seat = entry
    return {
        "tile": tile,
        "cells": [[ax, ay], [bx, by]],
        "symbols": list(tile_symbols(tile)),
        "seat": None if seat < 0 else seat,
    }


def _set_runs(grid: dict, cells) -> list[list[list[int]]]:
    return [[list(c) for c in run] for run in runs_of_three(grid, cells)
            if _valid3(*(grid[c] for c in run))]


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """Public view (seat None) or a seat's view (adds "seat", "hand", "hand_symbols",
    "playable", "must_draw"). After the end every view holds "hands" (all revealed)."""
    grid = state.grid
    xs = [c[0] for c in grid]
    ys = [c[1] for c in grid]
    res = outcome(state)
    out: dict[str, Any] = {
        "game": "trio",
        "players": state.players,
        "options": {"strict_lines": state.options.strict_lines},
        "turn": state.turn,
        "current": current_player(state),
        "die": state.die,
        "pool": len(state.pool),
        "hand_sizes": [len(h) for h in state.hands],
        "passes": state.passes,
        "cells": [[x, y, SYMBOLS[s]] for (x, y), s in sorted(grid.items(), key=lambda i: (i[0][1], i[0][0]))],
        "tiles": [_tile_view(e) for e in state.board],
        "last": None if len(state.board) < 2 else {
            **_tile_view(state.board[-1]),
            "sets": _set_runs(grid, [tuple(c) for c in _tile_view(state.board[-1])["cells"]])},
        "bounds": [min(xs), min(ys), max(xs), max(ys)],
        "over": state.over is not None,
        "outcome": None if res is None else {
            "places": list(res.places), "reason": res.reason, "winners": list(res.winners)},
        "history": [{"seat": who, "face": face, "tiles": tiles, "laid": laid}
                    for who, face, tiles, laid in state.history],
    }
    if state.over:
        out["hands"] = [list(h) for h in state.hands]
        out["hands_symbols"] = [[list(tile_symbols(t)) for t in h] for h in state.hands]
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise InvalidAction(f"no seat {seat!r}")
        out["seat"] = seat
        out["hand"] = list(state.hands[seat])
        out["hand_symbols"] = [list(tile_symbols(t)) for t in state.hands[seat]]
        mine = not state.over and seat == state.current
        out["playable"] = playable_tiles(state, seat) if mine else []
        out["must_draw"] = must_draw(state) if mine else False
    return out


# --------------------------------------------------------------------------- json

def to_json(state: State) -> dict[str, Any]:
    return {
        "v": 1,
        "players": state.players,
        "options": {"strict_lines": state.options.strict_lines, "series": state.options.series},
        "seed": state.seed,
        "counter": state.counter,
        "pool": list(state.pool),
        "hands": [list(h) for h in state.hands],
        "board": [list(e) for e in state.board],
        "current": state.current,
        "die": state.die,
        "passes": state.passes,
        "turn": state.turn,
        "over": state.over,
        "history": [list(h) for h in state.history],
    }


def _int(v: Any, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidAction(f"expected an integer, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise InvalidAction(f"integer out of range: {v!r}")
    return v


def from_json(data: Any) -> State:
    try:
        if not isinstance(data, dict) or data.get("v") != 1:
            raise InvalidAction("unknown trio state version")
        players = _int(data["players"], 2, 4)
        opts_raw = data["options"]
        if not isinstance(opts_raw, dict) or not isinstance(opts_raw.get("strict_lines", False), bool):
            raise InvalidAction("bad options")
        _int(opts_raw.get("series", 0), 0, SERIES.maximum)
        options = options_from_dict(Options, opts_raw)
        seed = _int(data["seed"])
        counter = _int(data["counter"], 0)
        pool = tuple(_int(t, 0, 35) for t in data["pool"])
        hands_raw = data["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != players:
            raise InvalidAction("bad hands")
        hands = tuple(tuple(_int(t, 0, 35) for t in h) for h in hands_raw)
        board = []
        cells = set()
        for e in data["board"]:
            if not isinstance(e, list) or len(e) != 6:
                raise InvalidAction("bad board entry")
            tile = _int(e[0], 0, 35)
            ax, ay, bx, by = (_int(v) for v in e[1:5])
            who = _int(e[5], -1, players - 1)
            if abs(ax - bx) + abs(ay - by) != 1 or (ax, ay) in cells or (bx, by) in cells:
                raise InvalidAction("bad board cells")
            cells.update({(ax, ay), (bx, by)})
            board.append((tile, ax, ay, bx, by, who))
        if not board:
            raise InvalidAction("empty board")
        every = list(pool) + [t for h in hands for t in h] + [e[0] for e in board]
        if sorted(every) != list(range(36)):
            raise InvalidAction("tiles are not the 36 tiles exactly once")
        current = _int(data["current"], 0, players - 1)
        die = data["die"]
        if die not in DIE_FACES:
            raise InvalidAction("bad die face")
        passes = _int(data["passes"], 0, players)
        turn_no = _int(data["turn"], 0)
        over = data["over"]
        if over not in (None, "won", "stalemate"):
            raise InvalidAction("bad end marker")
        if over is None and not all(hands):
            raise InvalidAction("an empty hand must have ended the game")
        history = []
        for e in data.get("history", []):  # absent in states saved before the history
            if not isinstance(e, list) or len(e) != 4 or e[1] not in DIE_FACES or not isinstance(e[3], bool):
                raise InvalidAction("bad history entry")
            history.append((_int(e[0], 0, players - 1), e[1], _int(e[2], 1, len(board)), e[3]))
    except (KeyError, TypeError) as exc:
        raise InvalidAction(f"malformed trio state: {exc!r}") from None
    return State(players=players, options=options, seed=seed, counter=counter, pool=pool, hands=hands,
                 board=tuple(board), current=current, die=die, passes=passes, turn=turn_no, over=over,
                 history=tuple(history))
