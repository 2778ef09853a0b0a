"""Pictures for trio (engines/trio.py): the table, the die, a hand, numbered placements, a confirm.

Pure functions of the engine's view dicts to PIL images, at most 1280 px on the long side.
Symbols are coloured shapes (hexagon, circle, star in red, blue, yellow), tiles are dominoes.
Grid coordinates: x to the right, y downwards, as in the engine.

The table is the board with a strip under it (die, players, pool), 900-950 px wide so that its
text is legible on a phone; each board tile is a cached antialiased patch pasted without a mask.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from engines import trio as engine
from render.common import (
    BACKGROUND,
    COLOURS,
    GRID,
    HIGHLIGHT,
    INK,
    MUTED,
    draw_shape,
    fit,
    min_font,
    new_canvas,
    note_symbol,
    paste_sprite,
    put_text,
    safe_text,
    shape_sprite,
    text_centered,
)

MAX_SIDE = 1280
BOARD_MAX = 950          # board area fits in BOARD_MAX x BOARD_MAX
MAX_CELL = 110
TILE_FILL = (253, 251, 244)
TILE_EDGE = (95, 85, 72)
SHADOW = (214, 206, 188)
BOARD_BG = (236, 229, 212)
LAST_RING = (255, 150, 0)
BADGE_FILL = (30, 30, 30)
BADGE_TEXT = (255, 255, 255)
GHOST_RING = (0, 150, 90)
SET_LINE = (255, 196, 90)

# The pictures' words, in English (the msgids of their catalogue entries under "picture:trio"):
# the bot hands each function them in the reader's language, with the die's faces by name
# ("red", "star"; English without them).
LABELS = {"pool": "pool", "page": "page", "passes": "passes", "no_tiles": "no tiles"}


def _w(words: Mapping[str, str] | None) -> Mapping[str, str]:
    """The labels to draw: ``words`` where it has them, else English."""
    return {**LABELS, **words} if words else LABELS


def _sym(name: str) -> tuple[str, str]:
    colour, shape = name.split("-")
    return colour, shape


def _tile_syms(tile: Any) -> tuple[str, str]:
    """Symbol names of a tile given as an id, a pair of names, or a view dict."""
    if isinstance(tile, dict):
        return tuple(tile["symbols"])  # type: ignore[return-value]
    if isinstance(tile, int):
        return engine.tile_symbols(tile)
    a, b = tile
    return engine.SYMBOLS[engine.symbol_index(a)], engine.SYMBOLS[engine.symbol_index(b)]


# --------------------------------------------------------------------------- primitives

def draw_symbol_at(draw: ImageDraw.ImageDraw, name: str, cx: float, cy: float, r: float) -> None:
    colour, shape = _sym(name)
    width = max(2, round(r / 12))
    rr = r * (1.08 if shape == "star" else 0.9 if shape == "circle" else 0.98)
    draw_shape(draw, shape, cx, cy, rr, fill=COLOURS[colour], outline=INK, width=width)


def _domino_box(a, b, c: float) -> tuple[float, float, float, float]:
    inset = c * 0.07
    return (min(a[0], b[0]) - c / 2 + inset, min(a[1], b[1]) - c / 2 + inset,
            max(a[0], b[0]) + c / 2 - inset, max(a[1], b[1]) + c / 2 - inset)


def draw_domino_body(draw: ImageDraw.ImageDraw, a, b, c: float, *, ring=None,
                     ring_width: int = 0, fill=TILE_FILL) -> None:
    """The domino without its symbols (cell centres a, b; cell size c)."""
    x0, y0, x1, y1 = _domino_box(a, b, c)
    rad = c * 0.16
    if ring is not None:
        g = ring_width
        draw.rounded_rectangle((x0 - g, y0 - g, x1 + g, y1 + g), radius=rad + g, fill=ring)
    else:
        sh = max(2, c * 0.04)
        draw.rounded_rectangle((x0 + sh, y0 + sh, x1 + sh, y1 + sh), radius=rad, fill=SHADOW)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=rad, fill=fill, outline=TILE_EDGE,
                           width=max(2, round(c / 40)))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    half = c * 0.28
    lw = max(1, round(c / 60))
    if a[1] == b[1]:
        draw.line((mx, my - half, mx, my + half), fill=SHADOW, width=lw)
    else:
        draw.line((mx - half, my, mx + half, my), fill=SHADOW, width=lw)


def draw_domino(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
                c: float, syms: Sequence[str], *, ring=None, ring_width: int = 0) -> None:
    """A domino on the two cell centres a and b (cell size c), syms[0] on a, syms[1] on b."""
    draw_domino_body(draw, a, b, c, ring=ring, ring_width=ring_width)
    for (cx, cy), name in zip((a, b), syms):
        note_symbol(2 * c * 0.3)
        draw_symbol_at(draw, name, cx, cy, c * 0.3)


def _striped_shape(size: int, shape: str) -> Image.Image:
    """A shape filled with red/blue/yellow bands ("this shape, any colour"), RGBA."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    mask = Image.new("L", (size, size), 0)
    md = ImageDraw.Draw(mask)
    r = size * 0.46
    draw_shape(md, shape, size / 2, size / 2, r * (1.05 if shape == "star" else 0.95), fill=255,
               outline=255, width=1)
    bands = Image.new("RGBA", (size, size))
    bd = ImageDraw.Draw(bands)
    third = size / 3
    for i, colour in enumerate(engine.COLOURS):
        bd.rectangle((i * third, 0, (i + 1) * third + 1, size), fill=COLOURS[colour] + (255,))
    img.paste(bands, (0, 0), mask)
    od = ImageDraw.Draw(img)
    draw_shape(od, shape, size / 2, size / 2, r * (1.05 if shape == "star" else 0.95), fill=None,
               outline=INK + (255,), width=max(2, size // 30))
    return img


@lru_cache(maxsize=32)
def _die_cached(face: str, size: int) -> Image.Image:
    img = Image.new("RGB", (size, size), BACKGROUND)
    d = ImageDraw.Draw(img)
    pad = size * 0.06
    rad = size * 0.18
    d.rounded_rectangle((pad + 4, pad + 6, size - pad + 4, size - pad + 6), radius=rad, fill=SHADOW)
    d.rounded_rectangle((pad, pad, size - pad, size - pad), radius=rad, fill=(255, 255, 255),
                        outline=INK, width=max(3, size // 40))
    if face in engine.COLOURS:
        # a colour face: the three shapes in that colour ("any shape, this colour")
        r = size * 0.15
        fill = COLOURS[face]
        for shape, (fx, fy) in zip(engine.SHAPES, ((0.5, 0.31), (0.30, 0.67), (0.70, 0.67))):
            rr = r * (1.12 if shape == "star" else 0.95)
            draw_shape(d, shape, size * fx, size * fy, rr, fill=fill, outline=INK,
                       width=max(2, size // 60))
    elif face in engine.SHAPES:
        inner = int(size * 0.66)
        sprite = _striped_shape(inner, face)
        off = (size - inner) // 2
        img.paste(sprite, (off, off), sprite)
    else:
        raise ValueError(f"unknown die face {face!r}")
    return img


def die(face: str, *, size: int = 180) -> Image.Image:
    """A die face: a colour face shows the three shapes in that colour; a shape face shows the
    shape in red/blue/yellow bands."""
    return _die_cached(face, size).copy()


# --------------------------------------------------------------------------- board

class _Frame:
    """Maps grid cells to pixels for a board drawn inside a box."""

    def __init__(self, bounds: tuple[int, int, int, int], box: tuple[int, int, int, int],
                 max_cell: float = MAX_CELL):
        x0, y0, x1, y1 = bounds
        bx0, by0, bx1, by1 = box
        self.cols = x1 - x0 + 1
        self.rows = y1 - y0 + 1
        self.c = min(max_cell, (bx1 - bx0) / self.cols, (by1 - by0) / self.rows)
        self.gx = x0
        self.gy = y0
        self.ox = bx0 + ((bx1 - bx0) - self.cols * self.c) / 2
        self.oy = by0 + ((by1 - by0) - self.rows * self.c) / 2

    def centre(self, cell) -> tuple[float, float]:
        x, y = cell
        return (self.ox + (x - self.gx + 0.5) * self.c, self.oy + (y - self.gy + 0.5) * self.c)

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return (self.ox, self.oy, self.ox + self.cols * self.c, self.oy + self.rows * self.c)


def _bounds(view: dict, extra: Iterable = (), margin: int = 1) -> tuple[int, int, int, int]:
    xs = [c[0] for c in view["cells"]] + [c[0] for c in extra]
    ys = [c[1] for c in view["cells"]] + [c[1] for c in extra]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def _board_size(bounds, max_w: float, max_h: float) -> tuple[int, int, float]:
    x0, y0, x1, y1 = bounds
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    c = min(MAX_CELL, max_w / cols, max_h / rows)
    return int(cols * c), int(rows * c), c


def _is_cell(item) -> bool:
    return len(item) == 2 and all(isinstance(v, int) for v in item)


PATCH_PAD = 2  # a domino patch stops this far inside its cells: the grid lines stay


@lru_cache(maxsize=64)  # 64 KB each; boards of other sizes draw their own anyway
def _domino_patch(c: float, vertical: bool, syms: tuple[str, str]) -> Image.Image:
    """A domino with its symbols (first at the left or top) and shadow, antialiased, flattened
    on the board's colour: it stays inside its two cells, so it pastes without a mask."""
    ss = 3
    pad = PATCH_PAD
    w, h = (c, 2 * c) if vertical else (2 * c, c)
    w, h = int(w) - 2 * pad, int(h) - 2 * pad
    img = Image.new("RGB", (w * ss, h * ss), BOARD_BG)
    draw = ImageDraw.Draw(img)
    k = c * ss
    a = ((c / 2 - pad) * ss, (c / 2 - pad) * ss)
    b = (a[0], a[1] + k) if vertical else (a[0] + k, a[1])
    draw_domino_body(draw, a, b, k)
    for (cx, cy), name in zip((a, b), syms):
        draw_symbol_at(draw, name, cx, cy, k * 0.3)
    return img.reduce(ss)


def _paste_domino(img: Image.Image, frame: "_Frame", cell_a, cell_b, syms) -> None:
    a, b = tuple(cell_a), tuple(cell_b)
    syms = tuple(syms)
    if (a[1] == b[1] and a[0] > b[0]) or (a[0] == b[0] and a[1] > b[1]):
        a, b, syms = b, a, syms[::-1]
    c = frame.c
    # whole-pixel cells: fewer patches as the board grows (a patch is up to 1 px smaller than
    # its cells, inside the PATCH_PAD margin)
    patch = _domino_patch(float(math.floor(c)), a[0] == b[0], syms)
    note_symbol(2 * math.floor(c) * 0.3)
    x, y = frame.centre(a)
    img.paste(patch, (round(x - c / 2) + PATCH_PAD, round(y - c / 2) + PATCH_PAD))


@lru_cache(maxsize=64)
def _symbol_sprite(name: str, r: float) -> Image.Image:
    colour, shape = _sym(name)
    width = max(2, round(r / 12))
    rr = r * (1.08 if shape == "star" else 0.9 if shape == "circle" else 0.98)
    return shape_sprite(shape, round(rr * 2) / 2, COLOURS[colour], INK, width)


def _draw_board(img: Image.Image, view: dict, frame: _Frame, *,
                highlight: Iterable = (), last: bool = True, extra_tiles: Sequence = ()) -> None:
    """Grid, tiles, set lines. ``highlight``: runs of cells (a line is drawn through each, e.g.
    a set) or single cells (ringed). With ``last`` the last tile is ringed and its sets lined.
    ``extra_tiles``: (cell_a, cell_b, symbols) drawn in with a green ring (a proposal)."""
    draw = ImageDraw.Draw(img)
    c = frame.c
    x0, y0, x1, y1 = frame.rect
    draw.rectangle((x0, y0, x1, y1), fill=BOARD_BG)
    for i in range(frame.cols + 1):
        x = x0 + i * c
        draw.line((x, y0, x, y1), fill=GRID, width=1)
    for j in range(frame.rows + 1):
        y = y0 + j * c
        draw.line((x0, y, x1, y), fill=GRID, width=1)
    last_tile = view.get("last") if last else None
    runs = []
    cells = []
    for item in highlight:
        (cells if _is_cell(item) else runs).append(item)
    if last_tile:
        runs.extend(last_tile.get("sets") or [])
    ringed = []  # (cell_a, cell_b, symbols, ring colour): drawn the slow way, over the grid
    for t in view["tiles"]:
        if last_tile is not None and t["cells"] == last_tile["cells"]:
            ringed.append((t["cells"][0], t["cells"][1], t["symbols"], LAST_RING, max(4, round(c * 0.08))))
        else:
            _paste_domino(img, frame, t["cells"][0], t["cells"][1], t["symbols"])
    for ca, cb, syms in extra_tiles:
        ringed.append((ca, cb, syms, GHOST_RING, max(5, round(c * 0.09))))
    for ca, cb, syms, ring, width in ringed:
        draw_domino_body(draw, frame.centre(ca), frame.centre(cb), c, ring=ring, ring_width=width)
    lw = max(6, round(c * 0.2))
    lined = set()
    for run in runs:
        p0, p1 = frame.centre(run[0]), frame.centre(run[-1])
        draw.line((p0, p1), fill=SET_LINE, width=lw)
        for p in (p0, p1):
            draw.ellipse((p[0] - lw / 2, p[1] - lw / 2, p[0] + lw / 2, p[1] + lw / 2), fill=SET_LINE)
        lined.update(tuple(cell[:2]) for cell in run)
    for cell in cells:
        cx, cy = frame.centre(cell)
        r = c * 0.44
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=LAST_RING, width=max(3, round(c / 16)))
    # symbols over the set lines: those of the ringed tiles and of every lined cell
    names = {(x, y): name for x, y, name in view["cells"]}
    for ca, cb, syms, _, _ in ringed:
        names[tuple(ca)], names[tuple(cb)] = syms[0], syms[1]
    for cell in lined | {tuple(t[0]) for t in ringed} | {tuple(t[1]) for t in ringed}:
        if cell in names:
            note_symbol(2 * c * 0.3)
            paste_sprite(img, _symbol_sprite(names[cell], round(c * 0.3, 1)), *frame.centre(cell))


# --------------------------------------------------------------------------- table

def _domino_icon(draw: ImageDraw.ImageDraw, x: float, y: float, c: float, back: bool = True) -> None:
    """A small face-down tile (top-left x, y; cells of size c, standing upright)."""
    draw.rounded_rectangle((x, y, x + c, y + 2 * c), radius=c * 0.2, fill=(120, 105, 88),
                           outline=INK, width=2)
    draw.line((x + c * 0.2, y + c, x + c * 0.8, y + c), fill=(160, 145, 125), width=2)


MINI = 38          # cell size of the revealed hands' mini tiles: their symbols 11 px at 400 px wide
MIN_W = 900        # the table is at least this wide (its text at least min_font of it)
MIN_BOARD_H = 420
DIE = 150
ROW_H = 58         # one player in the strip under the board
STRIP_PAD = 14


def _revealed(view: dict) -> list:
    """Each seat's tiles (symbol pairs) once the game is over, else []."""
    return view.get("hands_symbols") or [] if view.get("over") else []


def _strip_layout(view: dict, width: int) -> dict[str, Any]:
    """Where the die, the players and the pool go in the strip under the board."""
    players = view["players"]
    over = bool(view.get("over"))
    left = STRIP_PAD if over else STRIP_PAD * 2 + DIE + 16
    cols = 1 if over or players == 1 else 2
    rows = -(-players // cols)
    revealed = _revealed(view)
    per_line = max(1, int((width - left - 430) // (2 * MINI + 9)))
    heights = []
    for seat in range(players):
        n = len(revealed[seat]) if revealed else 0
        lines = max(1, -(-n // per_line))
        heights.append(ROW_H + (lines - 1) * (MINI + 14))
    body = sum(heights[::cols]) if cols == 1 else rows * ROW_H
    height = STRIP_PAD + max(body + ROW_H, 0 if over else DIE + 48) + STRIP_PAD
    return {"left": left, "cols": cols, "heights": heights, "height": height, "per_line": per_line}


def _strip(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, top: int, *, words: Mapping[str, str],
           names: Sequence[str]) -> None:
    """Under the board: the die, every player (whose turn, tiles in hand; after the end the
    places and the hands), the pool."""
    width = img.width
    lay = _strip_layout(view, width)
    size = min_font(width)
    draw.rectangle((0, top, width, img.height), fill=BACKGROUND)
    draw.line((0, top, width, top), fill=GRID, width=2)
    over = view.get("over")
    if not over:
        face = view["die"]
        img.paste(die(face, size=DIE), (STRIP_PAD * 2, top + STRIP_PAD))
        put_text(img, (STRIP_PAD * 2 + DIE / 2, top + STRIP_PAD + DIE + 22), words.get(face, face), size,
                 bold=True, anchor="mm")
    players = view["players"]
    current = view.get("current")
    sizes = view["hand_sizes"]
    places = (view.get("outcome") or {}).get("places")
    revealed = _revealed(view)
    cols = lay["cols"]
    cell_w = (width - lay["left"] - STRIP_PAD) / cols
    y = top + STRIP_PAD
    for seat in range(players):
        row, col = divmod(seat, cols)
        x0 = lay["left"] + col * cell_w
        row_h = lay["heights"][seat]
        if cols == 1:
            y0 = y
            y += row_h
        else:
            y0 = top + STRIP_PAD + row * ROW_H
        mid = y0 + ROW_H / 2
        if seat == current or (places and places[seat] == 1):
            draw.rounded_rectangle((x0 + 2, y0 + 3, x0 + cell_w - 8, y0 + row_h - 3), radius=14,
                                   fill=(255, 232, 150), outline=HIGHLIGHT, width=3)
        nx = x0 + 14
        if seat == current:
            draw.polygon([(nx, mid - 12), (nx, mid + 12), (nx + 18, mid)], fill=INK)
            nx += 28
        if places:
            put_text(img, (nx + 10, mid), str(places[seat]), size + 2, bold=True, anchor="mm")
            nx += 34
        count_x = x0 + (cell_w - 80 if cols == 2 else 330)
        name = safe_text(names[seat] if seat < len(names) else f"#{seat + 1}", 16)
        put_text(img, (nx, mid), fit(name, size + 2, count_x - nx - 10, seat == current), size + 2,
                 bold=seat == current, anchor="lm")
        _domino_icon(draw, count_x, mid - 20, 20)
        put_text(img, (count_x + 30, mid), str(sizes[seat]), size + 4, bold=True, anchor="lm")
        if revealed:
            tx0 = count_x + 80
            for n, syms in enumerate(revealed[seat]):
                line, k = divmod(n, lay["per_line"])
                tx = tx0 + k * (2 * MINI + 9) + MINI / 2
                ty = mid + line * (MINI + 14)
                draw_domino(draw, (tx, ty), (tx + MINI, ty), MINI * 1.15, syms)
    # the pool: a stack of face-down tiles and the count (and the passes when it is empty)
    py = (y if cols == 1 else top + STRIP_PAD + (-(-players // cols)) * ROW_H) + ROW_H / 2
    px = lay["left"] + 14
    for k in range(3):
        _domino_icon(draw, px + k * 10, py - 22 - k * 3, 20)
    text = f"{words['pool']}: {view['pool']}"
    if view.get("passes") and view["pool"] == 0 and not over:
        text += f"   {words['passes']}: {view['passes']}/{players}"
    put_text(img, (px + 64, py), text, size + 2, anchor="lm")


def table(view: dict, *, words: Mapping[str, str] | None = None, names: Sequence[str] = (),
          highlight: Iterable | None = None) -> Image.Image:
    """The board cropped to the tiles plus a margin, the last tile ringed with a line through
    each set it formed; under it the die, hand sizes, pool count and whose turn; after the end,
    places and every hand. ``highlight``: extra runs of cells to line ([[x, y], ...]) or cells
    to ring; ``words`` the labels (:data:`LABELS`) in the reader's language. 900-950 px wide,
    at most 1280 px tall."""
    highlight = list(highlight or ())
    bounds = _bounds(view, margin=1)
    bw, bh, _ = _board_size(bounds, BOARD_MAX, BOARD_MAX)
    width = max(bw, MIN_W)
    board_h = max(bh, MIN_BOARD_H)
    strip = _strip_layout(view, width)["height"]
    img, draw = new_canvas(width, min(MAX_SIDE, board_h + strip), BOARD_BG)
    frame = _Frame(bounds, (0, 0, width, board_h))
    _draw_board(img, view, frame, highlight=highlight)
    _strip(img, draw, view, board_h, words=_w(words), names=names)
    return img


# --------------------------------------------------------------------------- hand

def hand(tiles: Sequence[Any], *, words: Mapping[str, str] | None = None, per_row: int = 5,
         playable: Iterable[int] | None = None) -> Image.Image:
    """A player's hand, tiles (ids, symbol pairs or view dicts) numbered 1..n, per_row a row.

    ``playable``: 0-based positions in ``tiles`` that can be laid now; the others are faded
    (None: nothing faded)."""
    c = 100
    gap = 34
    label_h = 54
    if not tiles:
        img, draw = new_canvas(420, 160)
        text_centered(draw, (210, 80), _w(words)["no_tiles"], 36, fill=MUTED)
        return img
    n = len(tiles)
    ok = None if playable is None else set(playable)
    cols = min(per_row, n)
    rows = (n + per_row - 1) // per_row
    cell_w = 2 * c + gap
    width = cols * cell_w + gap
    height = rows * (c + label_h + gap) + gap
    img, draw = new_canvas(width, height)
    for i, tile in enumerate(tiles):
        r, k = divmod(i, per_row)
        x = gap + k * cell_w
        y = gap + r * (c + label_h + gap)
        text_centered(draw, (x + c, y + label_h / 2 - 4), str(i + 1), 40, bold=True)
        a = (x + c / 2, y + label_h + c / 2)
        b = (x + 1.5 * c, y + label_h + c / 2)
        draw_domino(draw, a, b, c, _tile_syms(tile))
        if ok is not None and i not in ok:
            box = (int(x), int(y), int(x + 2 * c + 6), int(y + label_h + c + 6))
            region = img.crop(box)
            veil = Image.new("RGB", region.size, BACKGROUND)
            img.paste(Image.blend(region, veil, 0.62), box[:2])
    if max(img.size) > MAX_SIDE:
        img.thumbnail((MAX_SIDE, MAX_SIDE))
    return img


# --------------------------------------------------------------------------- placements

def _badge_geometry(frame: _Frame, a, b, shift: float):
    """Centre, pill box and the two symbol spots (a's first) of a placement's badge."""
    c = frame.c
    pa, pb = frame.centre(a), frame.centre(b)
    horizontal = a[1] == b[1]
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    if horizontal:
        my += shift * c
    else:
        mx += shift * c
    thick = c * 0.42
    length = c * 1.14
    if horizontal:
        box = (mx - length / 2, my - thick / 2, mx + length / 2, my + thick / 2)
    else:
        box = (mx - thick / 2, my - length / 2, mx + thick / 2, my + length / 2)
    off = length / 2 - thick / 2
    ends = ((mx - off, my), (mx + off, my)) if horizontal else ((mx, my - off), (mx, my + off))
    if (horizontal and a[0] > b[0]) or (not horizontal and a[1] > b[1]):
        ends = ends[::-1]
    return (mx, my), box, ends, thick


def _badges(img: Image.Image, draw: ImageDraw.ImageDraw, frame: _Frame, chosen, syms) -> None:
    """Numbered mini-dominoes over the edge between each placement's cells, drawn in layers
    (pills, then symbols, then numbers) so that no number is hidden. The numbers stay legible
    on a phone (min_font of the picture's width) however small the cells are."""
    c = frame.c
    least = min_font(img.width)
    by_pair: dict = {}
    for i, (a, b) in chosen:
        by_pair.setdefault(frozenset((a, b)), []).append(i)
    shapes = []
    for i, (a, b) in chosen:
        group = by_pair[frozenset((a, b))]
        shift = 0.0 if len(group) == 1 else (-0.25 if group.index(i) == 0 else 0.25)
        shapes.append((i + 1, *_badge_geometry(frame, a, b, shift)))
    for _, _, box, _, thick in shapes:
        draw.rounded_rectangle(box, radius=thick / 2, fill=(255, 255, 255), outline=BADGE_FILL,
                               width=max(2, round(c / 35)))
    for _, _, _, ends, thick in shapes:
        for (ex, ey), name in zip(ends, syms):
            note_symbol(2 * thick * 0.3)
            draw_symbol_at(draw, name, ex, ey, thick * 0.3)
    for number, (mx, my), _, _, _ in shapes:
        k = 1.45 if number < 10 else 1.15 if number < 100 else 0.85
        rnum = max(c * 0.25, least / k)
        draw.ellipse((mx - rnum, my - rnum, mx + rnum, my + rnum), fill=BADGE_FILL,
                     outline=(255, 255, 255), width=max(2, round(c / 40)))
        put_text(img, (mx, my), str(number), max(least, int(rnum * k)), fill=BADGE_TEXT, bold=True,
                 anchor="mm")


def _header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, tile, height: int,
            text: str) -> None:
    draw.rectangle((0, 0, img.width, height), fill=BACKGROUND)
    draw.line((0, height, img.width, height), fill=GRID, width=2)
    c = height * 0.62
    y = height / 2
    draw_domino(draw, (20 + c / 2, y), (20 + 1.5 * c, y), c, _tile_syms(tile))
    face = view.get("die")
    if face:
        size = int(height * 0.86)
        dimg = die(face, size=size)
        img.paste(dimg, (img.width - size - 14, int((height - size) / 2)))
    if text:
        put_text(img, (40 + 2 * c, y), text, max(int(height * 0.3), min_font(img.width)), anchor="lm")


def _canvas_for(view: dict, extra_cells, header_h: int) -> tuple[Image.Image, ImageDraw.ImageDraw, _Frame]:
    bounds = _bounds(view, extra_cells, margin=1)
    bw, bh, _ = _board_size(bounds, MAX_SIDE, MAX_SIDE - header_h)
    width = max(bw, 640)
    height = max(bh, 360) + header_h
    img, draw = new_canvas(width, height, BOARD_BG)
    frame = _Frame(bounds, (0, header_h, width, height))
    return img, draw, frame


def placements(view: dict, tile: Any, placements: Sequence, *, words: Mapping[str, str] | None = None,
               page: int = 0, per_page: int = 10) -> Image.Image:
    """The board with ``tile``'s legal placements (engine.legal_placements order) numbered.

    Page convention: page p (0-based) numbers placements[p*per_page:(p+1)*per_page] with their
    GLOBAL 1-based numbers (p*per_page + 1 ...), so button "k" always means placements[k - 1].
    The frame covers the board and every placement (all pages), so it stays put between pages.
    Each number sits on a mini-domino over the two cells, the tile's symbols at their ends.
    """
    placements = [(tuple(a), tuple(b)) for a, b in placements]
    syms = _tile_syms(tile)
    pages = max(1, (len(placements) + per_page - 1) // per_page)
    page = max(0, min(page, pages - 1))
    chosen = list(enumerate(placements))[page * per_page:(page + 1) * per_page]
    extra = [cell for p in placements for cell in p]
    header_h = 110
    img, draw, frame = _canvas_for(view, extra, header_h)
    _draw_board(img, view, frame, last=True)
    # faint outlines of the cells used on this page
    for _, (a, b) in chosen:
        for cell in (a, b):
            cx, cy = frame.centre(cell)
            h = frame.c / 2 - 2
            draw.rectangle((cx - h, cy - h, cx + h, cy + h), outline=GHOST_RING, width=2)
    _badges(img, draw, frame, chosen, syms)
    text = f"{_w(words)['page']} {page + 1}/{pages}" if pages > 1 else ""
    _header(img, draw, view, tile, header_h, text)
    return img


def confirm(view: dict, tile: Any, cell_a, cell_b) -> Image.Image:
    """The board with ``tile`` drawn in on (cell_a, cell_b) (its lo symbol, or the first of a
    symbol pair, on cell_a), ringed green, with a line through each set it would form."""
    a, b = tuple(cell_a), tuple(cell_b)
    syms = _tile_syms(tile)
    header_h = 110
    img, draw, frame = _canvas_for(view, [a, b], header_h)
    grid = {(x, y): engine.symbol_index(name) for x, y, name in view["cells"]}
    grid[a], grid[b] = engine.symbol_index(syms[0]), engine.symbol_index(syms[1])
    runs = [run for run in engine.runs_of_three(grid, (a, b))
            if engine.is_set([grid[c] for c in run])]
    _draw_board(img, view, frame, highlight=runs, last=False, extra_tiles=[(a, b, syms)])
    _header(img, draw, view, tile, header_h, "")
    return img
