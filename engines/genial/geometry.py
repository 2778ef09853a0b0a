"""Board geometry of Ingenious: hexagons of hexagonal cells in axial coordinates.

A cell is ``(q, r)`` with ``s = -q - r``; it is on the board of radius R if
``max(|q|, |r|, |s|) <= R``. Rows are the lines of constant ``r`` (pointy-top hexes, rows drawn
horizontally): row ``A`` is the top row (``r = -R``), cells in a row are numbered 1.. from the left
(smallest ``q``). So on the R = 5 board the printed symbols sit on A1, A6, F1, F11, K1, K6.

Everything here is precomputed once per radius (:func:`board`) so the engine looks cells up in
flat lists instead of copying or hashing boards.
"""
from __future__ import annotations

from functools import lru_cache

Cell = tuple[int, int]

# The six colours in the engine's order (ids of render.common.COLOURS) and their code letters.
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
LETTERS: str = "roygbp"
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}

# Axial directions: E, NE, NW, W, SW, SE (y grows downwards); the opposite of d is (d + 3) % 6.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# The printed symbols: corners of the R = 5 hexagon, one per colour (docs/rules.md, genial).
SYMBOL_CELLS: tuple[tuple[Cell, int], ...] = (
    ((5, 0), 0), ((5, -5), 1), ((0, -5), 2), ((-5, 0), 3), ((-5, 5), 4), ((0, 5), 5),
)

RADII = (5, 6, 7)
ROW_LETTERS = "ABCDEFGHIJKLMNO"
# Cyrillic capitals that look like Latin row letters (people type them on a Russian keyboard):
# A, VE, ES, IE, EN, KA, EM, O, HA.
_HOMOGLYPHS = str.maketrans("\u0410\u0412\u0421\u0415\u041d\u041a\u041c\u041e\u0425", "ABCEHKMOX")


class Board:
    """Precomputed tables of one board radius.

    cells[i]      the i-th cell in reading order (rows top to bottom, left to right)
    index[cell]   its index
    nbr[i]        six neighbour indices (-1 off the board), by DIRECTIONS
    rays[i][d]    indices along direction d from cell i (excluding i) up to the edge
    edges         (i, j, d): adjacent pairs with i < j, d the direction from i to j
    symbols       (index, colour) of the printed symbols
    """

    def __init__(self, radius: int) -> None:
        self.radius = radius
        cells: list[Cell] = []
        for r in range(-radius, radius + 1):
            for q in range(max(-radius, -radius - r), min(radius, radius - r) + 1):
                cells.append((q, r))
        self.cells: tuple[Cell, ...] = tuple(cells)
        self.index: dict[Cell, int] = {c: i for i, c in enumerate(cells)}
        self.size = len(cells)
        nbr = []
        rays = []
        for q, r in cells:
            row_n = []
            row_r = []
            for dq, dr in DIRECTIONS:
                row_n.append(self.index.get((q + dq, r + dr), -1))
                ray = []
                k = 1
                while (q + k * dq, r + k * dr) in self.index:
                    ray.append(self.index[(q + k * dq, r + k * dr)])
                    k += 1
                row_r.append(tuple(ray))
            nbr.append(tuple(row_n))
            rays.append(tuple(row_r))
        self.nbr: tuple[tuple[int, ...], ...] = tuple(nbr)
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        edges = []
        for i in range(self.size):
            for d, j in enumerate(self.nbr[i]):
                if j > i:
                    edges.append((i, j, d))
        edges.sort()
        self.edges: tuple[tuple[int, int, int], ...] = tuple(edges)
        self.edge_index: dict[tuple[int, int], int] = {(i, j): k for k, (i, j, _) in enumerate(edges)}
        self.symbols: tuple[tuple[int, int], ...] = tuple((self.index[c], col) for c, col in SYMBOL_CELLS)
        self.symbol_nbrs: tuple[frozenset[int], ...] = tuple(
            frozenset(j for j in self.nbr[i] if j >= 0) for i, _ in self.symbols)
        self.labels: tuple[str, ...] = tuple(_label(c, radius) for c in cells)
        self.label_index: dict[str, int] = {lab: i for i, lab in enumerate(self.labels)}
        self.row_lengths: tuple[int, ...] = tuple(
            sum(1 for c in cells if c[1] == r) for r in range(-radius, radius + 1))

    def empty_occupancy(self) -> list[int]:
        """-1 for every empty cell, the colour index on printed symbols."""
        occ = [-1] * self.size
        for i, colour in self.symbols:
            occ[i] = colour
        return occ


def _label(cell: Cell, radius: int) -> str:
    q, r = cell
    return f"{ROW_LETTERS[r + radius]}{q - max(-radius, -radius - r) + 1}"


@lru_cache(maxsize=None)
def board(radius: int) -> Board:
    """The precomputed board of radius 5, 6 or 7."""
    if radius not in RADII:
        raise ValueError(f"no board of radius {radius}")
    return Board(radius)


def radius_for(players: int) -> int:
    """R = 5 for 1-2 players, 6 for 3, 7 for 4."""
    return {1: 5, 2: 5, 3: 6, 4: 7}[players]


def on_board(cell: Cell, radius: int) -> bool:
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= radius


def adjacent(a: Cell, b: Cell) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


def cell_label(cell: Cell, radius: int) -> str:
    """Human label of a cell: row letter from the top, cell number from the left ("F7")."""
    if not on_board(cell, radius):
        raise ValueError(f"cell {cell} is not on the board of radius {radius}")
    return _label(cell, radius)


def normalise_label(text: str) -> str:
    return text.strip().upper().translate(_HOMOGLYPHS)


def parse_cell(label: str, radius: int) -> Cell:
    """The cell of a label such as "F7" (case-insensitive; Cyrillic look-alike letters accepted).

    Raises engines.base.InvalidAction (a :class:`MoveError` with code "bad_cell") when the label
    names no cell of this board.
    """
    from engines.genial.errors import MoveError  # local: errors imports nothing from here

    b = board(radius)
    key = normalise_label(label) if isinstance(label, str) else ""
    if key in b.label_index:
        return b.cells[b.label_index[key]]
    raise MoveError("bad_cell", f"no cell {label!r} on this board (rows A-{ROW_LETTERS[2 * radius]})",
                    cell=str(label)[:8])
