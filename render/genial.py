"""Pictures of «Гениально» (Ingenious): the table, a player's rack, numbered candidate
placements, a placement preview.

Pure functions of an ``engines.genial.view`` dict. Each tile half is drawn as its colour's
symbol (render.common.SYMBOLS) on a dark tile, the two halves of a tile joined; every row has
its letter at both ends. The table's cells carry no coordinates (they cannot be read on a
phone): moves are entered by numbered markers (:func:`candidates`). Names only through
safe_text; at most 1280 px on the long side; the smallest text is legible at 400 px wide.

    table(view, *, lang, names, highlight=None) -> PIL.Image      1080 x 1132 (1-2 tracks) or 1240
    rack(tiles, *, lang) -> PIL.Image                              tiles numbered 1..n
    candidates(view, cands, *, lang, names) -> PIL.Image           numbered ghost placements
    preview(view, tile, cell_a, cell_b, points, *, lang) -> PIL.Image

Speed: the empty board with its letters and printed symbols is a cached layer per board; every
tile is one paste of a cached sprite (per size, direction and colours).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from engines.genial.geometry import ROW_LETTERS, cell_label
from engines.genial.views import scoring_cells
from render.common import (
    BACKGROUND, COLOURS, HIGHLIGHT, INK, LEGIBLE_PX, MUTED, PHONE_WIDTH, SYMBOLS, draw_shape, fit, layer_copy,
    min_font, new_canvas, note_symbol, paste_box, paste_flat_symbol, paste_sprite, paste_symbol, put_text,
    safe_text, shape_sprite, stored_layer, text_width,
)

WORDS = {
    "en": {"turn": "Turn", "bag": "bag", "bonus": "bonus placement", "swap": "swap or keep?",
           "over": "Game over", "wins": "wins", "min": "lowest", "team": "team", "solo": "solo",
           "genial": "Ingenious!", "lost": "lost", "points": "points", "first": "first tile: by a free symbol",
           "nothing": "no points", "rack": "rack", "drawn": "drawn tile",
           "choose": "Choose a number", "none": "no place for this tile"},
    "ru": {"turn": "Ход", "bag": "мешок", "bonus": "бонусный ход", "swap": "обмен или оставить?",
           "over": "Игра окончена", "wins": "побеждает", "min": "самый слабый", "team": "команда", "solo": "соло",
           "genial": "Гениально!", "lost": "сгорает", "points": "очки", "first": "первый тайл: к свободному символу",
           "nothing": "нет очков", "rack": "подставка", "drawn": "вытянутый тайл",
           "choose": "Выберите номер", "none": "этому тайлу некуда лечь"},
}

W = 1080
SQRT3 = math.sqrt(3)
HEADER_H = 64
BOARD_TOP = HEADER_H
BOARD_H = 900
SIDE = 46  # room for the row letters on each side
BOARD_BG = (222, 212, 190)
EMPTY = (253, 250, 242)
EMPTY_EDGE = (196, 186, 164)
TILE = (48, 46, 54)
TILE_GHOST = (92, 88, 104)
PRINTED_BG = (240, 232, 214)
PANEL = (253, 251, 246)
PANEL_EDGE = (200, 192, 175)
TURN_BG = (255, 238, 176)
LOW_BG = (250, 214, 206)
LOW_MARK = (180, 30, 30)  # 4.5:1 (WCAG) on LOW_BG, as its figures need
MAX_BG = (212, 236, 200)
SCORING_RING = (255, 255, 255)
GAP = 3.2  # inset of every hex, so tiles show their outline
ORDER = ("red", "orange", "yellow", "green", "blue", "purple")
SYMBOL_K = 0.56  # a tile half's symbol: its radius in hex sizes
LAST_RIM_AT_400 = 4.0  # the last move's rim on the table, px when it is shown 400 px wide

TEXT = min_font(W)  # 30: the smallest text on the table (11 px at 400 px wide)


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


# ------------------------------------------------------------------------------ geometry

class _Grid:
    """Pixel layout of a board: hex size ``s`` and the pixel centre of cell (0, 0)."""

    def __init__(self, radius: int, s: float, ox: float, oy: float) -> None:
        self.radius, self.s, self.ox, self.oy = radius, s, ox, oy

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return (self.ox + self.s * SQRT3 * (q + r / 2), self.oy + 1.5 * self.s * r)

    def cells(self) -> Iterable[tuple[int, int]]:
        R = self.radius
        for r in range(-R, R + 1):
            for q in range(max(-R, -R - r), min(R, R - r) + 1):
                yield q, r


def _table_grid(radius: int) -> _Grid:
    width = W - 2 * SIDE - 8
    s = min(width / ((2 * radius + 1) * SQRT3), (BOARD_H - 16) / (3 * radius + 2))
    return _Grid(radius, s, W / 2, BOARD_TOP + BOARD_H / 2)


def _hex(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [(cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def _pt(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    return (cx + r * math.cos(math.radians(deg)), cy + r * math.sin(math.radians(deg)))


def _tile_shape(draw: ImageDraw.ImageDraw, c1: tuple[float, float], c2: tuple[float, float],
                s: float, fill, gap: float = GAP) -> None:
    """Two joined hexes: both inset by ``gap``, with the gap between them filled."""
    r = s - gap
    draw.polygon(_hex(*c1, r), fill=fill)
    draw.polygon(_hex(*c2, r), fill=fill)
    theta = math.degrees(math.atan2(c2[1] - c1[1], c2[0] - c1[0]))
    draw.polygon([_pt(*c1, r, theta - 30), _pt(*c1, r, theta + 30),
                  _pt(*c2, r, theta + 150), _pt(*c2, r, theta + 210)], fill=fill)


def _halo(draw: ImageDraw.ImageDraw, c1, c2, s: float, colour, width: float) -> None:
    """A coloured rim around a tile (drawn before the tile)."""
    r = s - GAP + width
    for c in (c1, c2):
        draw.polygon(_hex(*c, r), fill=colour)
    theta = math.degrees(math.atan2(c2[1] - c1[1], c2[0] - c1[0]))
    draw.polygon([_pt(*c1, r, theta - 30), _pt(*c1, r, theta + 30),
                  _pt(*c2, r, theta + 150), _pt(*c2, r, theta + 210)], fill=colour)


def _last_move_rim(draw: ImageDraw.ImageDraw, c1, c2, s: float) -> None:
    """The last move's rim on the table: a yellow band (bright on the dark tiles around) in a
    black line (dark on the light board and empty cells), LAST_RIM_AT_400 px at 400 px wide.
    It covers a few pixels of the neighbours' edges, never their symbols."""
    total = LAST_RIM_AT_400 * W / PHONE_WIDTH
    _halo(draw, c1, c2, s, INK, total)
    _halo(draw, c1, c2, s, HIGHLIGHT, total * 2 / 3)


def _legible_s(width: float) -> int:
    """The smallest hex whose symbols stay LEGIBLE_PX across on a picture ``width`` px wide."""
    return math.ceil(LEGIBLE_PX * width / PHONE_WIDTH / (2 * SYMBOL_K))


def _symbol_on(draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, s: float, k: float = 1) -> None:
    """A tile half's symbol, drawn on a canvas ``k`` times larger than the picture."""
    draw_shape(draw, SYMBOLS[colour], cx, cy, s * SYMBOL_K * k, fill=COLOURS[colour], outline=(20, 20, 20),
               width=max(1, int(s / 22)) * k)


_SS = 3  # sprites are drawn 3 x larger and reduced


SPRITE_CACHE_S = 60  # sprites of larger hexes (zoomed pictures) are drawn each time, not kept


def _make_symbol_sprite(colour: str, s: float) -> Image.Image:
    half = math.ceil(s * SYMBOL_K + s / 22 + 2)
    img = Image.new("RGBA", (2 * half * _SS,) * 2, (20, 20, 20, 0))
    _symbol_on(ImageDraw.Draw(img), colour, half * _SS, half * _SS, s, _SS)
    return img.reduce(_SS)


def _body_centres(s: float, dq: int, dr: int, w: float, h: float):
    """The centres of a tile's two halves in a ``w`` x ``h`` picture centred on the tile, its
    second half (dq, dr) from its first."""
    dx, dy = s * SQRT3 * (dq + dr / 2), 1.5 * s * dr
    return (w / 2 - dx / 2, h / 2 - dy / 2), (w / 2 + dx / 2, h / 2 + dy / 2)


def _tile_body(s: float, dq: int, dr: int, body=TILE) -> Image.Image:
    """A tile's body without symbols (RGBA, antialiased) whose second half lies (dq, dr) from
    its first, centred on the middle of the two cells."""
    dx, dy = s * SQRT3 * (dq + dr / 2), 1.5 * s * dr
    w, h = 2 * math.ceil(abs(dx) / 2 + s + 1), 2 * math.ceil(abs(dy) / 2 + s + 1)
    img = Image.new("RGBA", (w * _SS, h * _SS), tuple(body) + (0,))
    c1, c2 = _body_centres(s * _SS, dq, dr, w * _SS, h * _SS)
    _tile_shape(ImageDraw.Draw(img), c1, c2, s * _SS, tuple(body), gap=GAP * _SS)
    return img.reduce(_SS)


# Tiles are cached as bodies and symbols apart, not as whole tiles: a whole tile for every
# size, direction and pair of colours came to 30-40 MB in the drawing process; these are well
# under one, for half a millisecond more per table.
_cached_symbol_sprite = lru_cache(maxsize=48)(_make_symbol_sprite)
_cached_tile_body = lru_cache(maxsize=64)(_tile_body)
# Zoomed pictures come in many sizes: their symbols are kept apart, and few, not in common's cache.
_zoomed_symbol_sprite = lru_cache(maxsize=24)(shape_sprite.__wrapped__)


def _symbol_sprite(colour: str, s: float) -> Image.Image:
    if s <= SPRITE_CACHE_S:
        return _cached_symbol_sprite(colour, s)
    r = round(s * SYMBOL_K * 2) / 2
    return _zoomed_symbol_sprite(SYMBOLS[colour], r, COLOURS[colour], (20, 20, 20), max(1, int(s / 22)))


def _halves(cell_a, cell_b, first, second):
    """The same tile turned, if need be, so that its second half lies in one of three
    directions from the first (three bodies per size, not six)."""
    dq, dr = cell_b[0] - cell_a[0], cell_b[1] - cell_a[1]
    if (dq, dr) in ((1, 0), (0, 1), (-1, 1)):
        return dq, dr, cell_a, cell_b, first, second
    return -dq, -dr, cell_b, cell_a, second, first


def _paste_symbols(img: Image.Image, s: float, c1, c2, first: str | None, second: str | None) -> None:
    """A tile's symbols on its halves centred at c1 and c2 (None: no symbol)."""
    for colour, c in ((first, c1), (second, c2)):
        if colour is not None:
            note_symbol(2 * SYMBOL_K * s)
            paste_sprite(img, _symbol_sprite(colour, s), *c)


def _paste_whole_tile(img: Image.Image, s: float, c1, c2, dq: int, dr: int, first: str | None,
                      second: str | None, body=TILE) -> None:
    """A tile from cached sprites: its body centred between c1 and c2, then its symbols."""
    paste_sprite(img, _cached_tile_body(s, dq, dr, tuple(body)), (c1[0] + c2[0]) / 2, (c1[1] + c2[1]) / 2)
    _paste_symbols(img, s, c1, c2, first, second)


def _paste_tile(img: Image.Image, grid: _Grid, cell_a, cell_b, first: str | None, second: str | None,
                body=TILE) -> None:
    """A tile, antialiased: cached sprites at table sizes; on zoomed pictures the body is
    drawn (its steps vanish when a phone shrinks the picture) and the symbols are sprites."""
    s = round(grid.s, 2)
    if s > SPRITE_CACHE_S:
        c1, c2 = grid.centre(*cell_a), grid.centre(*cell_b)
        _tile_shape(ImageDraw.Draw(img), c1, c2, s, tuple(body))
        _paste_symbols(img, s, c1, c2, first, second)
        return
    dq, dr, cell_a, cell_b, first, second = _halves(cell_a, cell_b, first, second)
    _paste_whole_tile(img, s, grid.centre(*cell_a), grid.centre(*cell_b), dq, dr, first, second, body)


def _ghost_body(img: Image.Image, grid: _Grid, cell_a, cell_b, colour, alpha: int) -> None:
    """A tile's body in ``colour`` at ``alpha`` over what is there (ghosts may overlap)."""
    c1, c2 = grid.centre(*cell_a), grid.centre(*cell_b)
    s = grid.s
    x0, y0 = int(min(c1[0], c2[0]) - s - 2), int(min(c1[1], c2[1]) - s - 2)
    x1, y1 = int(max(c1[0], c2[0]) + s + 3), int(max(c1[1], c2[1]) + s + 3)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    _tile_shape(ImageDraw.Draw(mask), (c1[0] - x0, c1[1] - y0), (c2[0] - x0, c2[1] - y0), s, alpha)
    img.paste(tuple(colour), (x0, y0), mask)


@lru_cache(maxsize=16)
def _flat_body(s: float, dq: int, dr: int) -> tuple[Image.Image, Image.Image]:
    """A table's tile body flattened on the board's colour, with a 1-bit mask of its two
    cells' whole hexes (gap included): pasting it costs a third of blending the sprite, and it
    covers exactly what an empty pair of cells showed (the gap around a tile is the board's
    colour). Only the table uses these (three hex sizes)."""
    sprite = _tile_body(s, dq, dr)
    return _flattened(sprite, BOARD_BG, [_hex(cx, cy, s + 0.6) for cx, cy in _body_centres(s, dq, dr, *sprite.size)])


@lru_cache(maxsize=32)
def _flat_symbol(colour: str, s: float) -> tuple[Image.Image, Image.Image]:
    """A symbol flattened on the tile's colour, with a 1-bit mask of the tile's hex: pasted
    over a tile body it needs no blending."""
    sprite = _cached_symbol_sprite(colour, s)
    return _flattened(sprite, TILE, [_hex(sprite.width / 2, sprite.height / 2, s - GAP)])


def _flattened(sprite: Image.Image, bg, hexes) -> tuple[Image.Image, Image.Image]:
    """``sprite`` blended once onto ``bg``, and a 1-bit mask of ``hexes``: what a paste covers."""
    flat = Image.new("RGB", sprite.size, bg)
    flat.paste(sprite, (0, 0), sprite)
    mask = Image.new("1", sprite.size, 0)
    draw = ImageDraw.Draw(mask)
    for points in hexes:
        draw.polygon(points, fill=1)
    return flat, mask


def _paste_flat(img: Image.Image, patch: tuple[Image.Image, Image.Image], cx: float, cy: float) -> None:
    flat, mask = patch
    img.paste(flat, (round(cx - flat.width / 2), round(cy - flat.height / 2)), mask)


def _paste_flat_tile(img: Image.Image, grid: _Grid, cell_a, cell_b, first: str, second: str) -> None:
    """:func:`_paste_tile` for a tile surrounded by the board's gap (the table's tiles)."""
    dq, dr, cell_a, cell_b, first, second = _halves(cell_a, cell_b, first, second)
    s = round(grid.s, 2)
    (x1, y1), (x2, y2) = grid.centre(*cell_a), grid.centre(*cell_b)
    _paste_flat(img, _flat_body(s, dq, dr), (x1 + x2) / 2, (y1 + y2) / 2)
    _paste_flat(img, _flat_symbol(first, s), x1, y1)
    _paste_flat(img, _flat_symbol(second, s), x2, y2)
    note_symbol(2 * SYMBOL_K * s)


def _paste_symbol(img: Image.Image, colour: str, cx: float, cy: float, s: float) -> None:
    note_symbol(2 * SYMBOL_K * s)
    paste_sprite(img, _symbol_sprite(colour, round(s, 2)), cx, cy)


def _board_outline(grid: _Grid) -> list[tuple[float, float]]:
    R, s = grid.radius, grid.s
    corners = [(R, 0), (R, -R), (0, -R), (-R, 0), (-R, R), (0, R)]
    pts = []
    for q, r in corners:
        x, y = grid.centre(q, r)
        dx, dy = x - grid.ox, y - grid.oy
        d = math.hypot(dx, dy)
        pts.append((x + dx / d * s * 1.25, y + dy / d * s * 1.25))
    return pts


def _draw_empty_board(img: Image.Image, grid: _Grid, *, labels: str | None = None,
                      cells: set[tuple[int, int]] | None = None, letters: int = 0,
                      label_size: int = 0) -> None:
    """Board shape, empty cells (with full labels such as "F7" when ``labels == "full"``), and
    with ``letters`` (a font size) the row letters at both ends of every row."""
    draw = ImageDraw.Draw(img)
    s = grid.s
    draw.polygon(_board_outline(grid), fill=BOARD_BG)
    R = grid.radius
    for q, r in grid.cells():
        if cells is not None and (q, r) not in cells:
            continue
        cx, cy = grid.centre(q, r)
        draw.polygon(_hex(cx, cy, s - GAP), fill=EMPTY, outline=EMPTY_EDGE)
        if labels == "full":
            number = q - max(-R, -R - r) + 1
            put_text(img, (cx, cy), f"{ROW_LETTERS[r + R]}{number}", label_size, fill=MUTED, anchor="mm")
    if letters:
        for r in range(-R, R + 1):
            q0, q1 = max(-R, -R - r), min(R, R - r)
            for q, side in ((q0, -1), (q1, 1)):
                cx, cy = grid.centre(q, r)
                x = cx + side * s * SQRT3 * 0.5 + side * max(s * 0.62, letters * 0.62)
                if -letters < x < img.width + letters and -letters < cy < img.height + letters:
                    put_text(img, (x, cy), ROW_LETTERS[r + R], letters, bold=True, anchor="mm")


def _draw_printed(img: Image.Image, grid: _Grid, printed: Sequence[Mapping[str, Any]],
                  only: set | None = None) -> None:
    draw = ImageDraw.Draw(img)
    s = grid.s
    for p in printed:
        q, r = p["cell"]
        if only is not None and (q, r) not in only:
            continue
        cx, cy = grid.centre(q, r)
        draw.polygon(_hex(cx, cy, s - GAP), fill=PRINTED_BG, outline=COLOURS[p["colour"]],
                     width=max(2, int(s / 10)))
        _paste_symbol(img, p["colour"], cx, cy, s)


def _draw_tiles(img: Image.Image, grid: _Grid, tiles: Sequence[Mapping[str, Any]],
                recent: set[int], only: set | None = None, flat: bool = False) -> None:
    draw = ImageDraw.Draw(img)
    s = grid.s
    order = [k for k in range(len(tiles)) if k not in recent] + sorted(recent)
    for k in order:
        t = tiles[k]
        a, b = (tuple(c) for c in t["cells"])
        if only is not None and a not in only and b not in only:
            continue
        if k in recent:
            _last_move_rim(draw, grid.centre(*a), grid.centre(*b), s)
            _paste_tile(img, grid, a, b, t["colours"][0], t["colours"][1])
        elif flat:
            _paste_flat_tile(img, grid, a, b, t["colours"][0], t["colours"][1])
        else:
            _paste_tile(img, grid, a, b, t["colours"][0], t["colours"][1])


PANEL_H, PANEL_GAP, PANEL_MARGIN = 124, 10, 12


def _table_height(holders: int) -> int:
    rows = 1 if holders <= 2 else 2
    return BOARD_TOP + BOARD_H + 6 + rows * PANEL_H + (rows - 1) * PANEL_GAP + PANEL_MARGIN


def _printed_key(printed: Sequence[Mapping[str, Any]]) -> tuple:
    return tuple((tuple(p["cell"]), p["colour"]) for p in printed)


@lru_cache(maxsize=6)
def _empty_table(radius: int, height: int, printed: tuple = ()) -> Image.Image:
    """The static layer of a table: background, board, row letters, printed symbols (kept as a
    :func:`stored_layer`: 1.3 MB, not 5.4)."""
    img, _ = new_canvas(W, height)
    grid = _table_grid(radius)
    _draw_empty_board(img, grid, letters=max(TEXT + 2, int(grid.s * 0.62)))
    _draw_printed(img, grid, [{"cell": c, "colour": colour} for c, colour in printed])
    return stored_layer(img)


# ------------------------------------------------------------------------------ tracks

def _holder_name(view: Mapping[str, Any], holder: Mapping[str, Any], names: Sequence[str]) -> str:
    parts = [safe_text(names[x] if x < len(names) else f"#{x + 1}", 14) for x in holder["seats"]]
    return " + ".join(parts)


def _panel(img: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
           view: Mapping[str, Any], holder: Mapping[str, Any], name: str, current: bool, lang: str,
           place: int | None) -> None:
    """One player's (or team's) six tracks: symbol, value, a bar; lowest colour(s) in red."""
    x0, y0, x1, y1 = box
    words = _w(lang)
    bg = TURN_BG if current else PANEL
    paste_box(img, box, 12, bg, HIGHLIGHT if current else PANEL_EDGE, 5 if current else 2)
    label = name if place is None else f"{place}. {name}"
    tx = x0 + 14
    if current:
        draw.polygon([(x0 + 12, y0 + 12), (x0 + 12, y0 + 36), (x0 + 31, y0 + 24)], fill=INK)
        tx = x0 + 38
    low = min(holder["values"].values())
    low_text = f"{words['min']} {low}"
    low_w = text_width(low_text, TEXT, True)
    put_text(img, (x1 - 14, y0 + 24), low_text, TEXT, fill=LOW_MARK, bold=True, anchor="rm")
    put_text(img, (tx, y0 + 24), fit(label, TEXT, x1 - 28 - low_w - tx, True), TEXT, bold=True,
             anchor="lm")
    top = view["track_max"]
    cw = (x1 - x0 - 16) / 6
    cy = y0 + 72
    for k, colour in enumerate(ORDER):
        value = holder["values"][colour]
        left = x0 + 8 + k * cw
        lowest = colour in holder["lowest"] and len(holder["lowest"]) < 6
        cbg = bg
        if lowest:
            cbg = LOW_BG
            paste_box(img, (left + 2, y0 + 48, left + cw - 2, y1 - 6), 8, LOW_BG, LOW_MARK, 2, bg=bg)
        elif value >= top:
            cbg = MAX_BG
            paste_box(img, (left + 2, y0 + 48, left + cw - 2, y1 - 6), 8, MAX_BG, bg=bg)
        sym_x = left + min(22, cw * 0.27)
        paste_flat_symbol(img, colour, sym_x, cy, 15, cbg, width=1)
        put_text(img, (sym_x + 19, cy + 1), str(value), TEXT + 2, fill=LOW_MARK if lowest else INK,
                 bold=True, anchor="lm")
        bx0, bx1, by = left + 9, left + cw - 9, y1 - 18
        draw.rectangle((bx0, by - 4, bx1, by + 4), fill=(230, 222, 205))
        if value:
            draw.rectangle((bx0, by - 4, bx0 + (bx1 - bx0) * min(value, top) / top, by + 4),
                           fill=COLOURS[colour])
        if top > 18:  # the second board of a two-board track starts at 18
            mx = (bx0 + bx1) / 2
            draw.line((mx, by - 7, mx, by + 7), fill=INK, width=2)


def _small_symbol(img: Image.Image, colour: str, cx: float, cy: float, r: float) -> None:
    paste_symbol(img, colour, cx, cy, r, width=max(1, round(r / 11)))


def _draw_panels(img: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any],
                 names: Sequence[str], lang: str, top_y: int) -> None:
    holders = view["scores"]
    n = len(holders)
    cols = 1 if n == 1 else 2
    margin, gap, ph = PANEL_MARGIN, PANEL_GAP, PANEL_H
    pw = (W - 2 * margin - gap * (cols - 1)) // cols if n > 1 else 640
    current = view.get("current")
    places = None
    if view.get("outcome"):
        places = view["outcome"]["places"]
    for h, holder in enumerate(holders):
        row, col = divmod(h, cols)
        x0 = margin + col * (pw + gap) if n > 1 else (W - pw) // 2
        y0 = top_y + row * (ph + gap)
        is_current = current is not None and current in holder["seats"]
        place = places[holder["seats"][0]] if places else None
        _panel(img, draw, (x0, y0, x0 + pw, y0 + ph), view, holder, _holder_name(view, holder, names),
               is_current, lang, place)


def _header(img: Image.Image, view: Mapping[str, Any], names: Sequence[str], lang: str) -> None:
    words = _w(lang)
    y = HEADER_H / 2
    bag_text = f"{words['bag']}: {view['bag']}"
    right = W - 16 - text_width(bag_text, TEXT) - 18
    put_text(img, (W - 16, y), bag_text, TEXT, fill=MUTED, anchor="rm")
    if view.get("over"):
        out = view.get("outcome") or {}
        winners = out.get("winners", [])
        who = ", ".join(safe_text(names[x] if x < len(names) else f"#{x + 1}", 14) for x in winners)
        text = f"{words['over']}: {who} {words['wins']}" if who and view["players"] > 1 else words["over"]
        put_text(img, (16, y), fit(text, TEXT, right - 16, True), TEXT, bold=True, anchor="lm")
        return
    cur = view.get("current")
    who = safe_text(names[cur] if cur is not None and cur < len(names) else f"#{(cur or 0) + 1}", 18)
    text = fit(f"{words['turn']}: {who}", TEXT, 480, True)
    put_text(img, (16, y), text, TEXT, bold=True, anchor="lm")
    x = 16 + text_width(text, TEXT, True) + 18
    pending = view.get("pending")
    note = None
    if pending == "bonus":
        note = f"«{words['genial']}» {words['bonus']}"
        if view.get("bonus_pending", 0) > 1:
            note += f" ×{view['bonus_pending']}"
    elif pending == "swap":
        note = words["swap"]
    elif view.get("first_round") and cur in view.get("needs_first", []):
        note = words["first"]
    drawn = view.get("drawn")
    mini = _legible_s(W)
    if drawn:
        right -= 2 * SQRT3 * mini + 14
    if note:
        note = fit(note, TEXT, right - x)
        put_text(img, (x, y), note, TEXT, fill=LOW_MARK, anchor="lm")
        x += text_width(note, TEXT) + 18
    if drawn:
        _mini_tile(img, x + SQRT3 * mini + 4, y, mini, drawn)


def _mini_tile(img: Image.Image, cx: float, cy: float, s: float, colours: Sequence[str]) -> None:
    c1 = (cx - s * SQRT3 / 2, cy)
    c2 = (cx + s * SQRT3 / 2, cy)
    _halo(ImageDraw.Draw(img), c1, c2, s, HIGHLIGHT, 3)
    _paste_whole_tile(img, float(s), c1, c2, 1, 0, colours[0], colours[1])


# ------------------------------------------------------------------------------ public

def table(view: Mapping[str, Any], *, lang: str = "ru", names: Sequence[str] = (),
          highlight: Iterable[Sequence[int]] | None = None) -> Image.Image:
    """The group's picture: header (whose turn, pending decision, bag), the board with printed
    symbols and tiles (the latest turn's tiles rimmed), row letters, and the six tracks of
    every player or team (lowest colour marked, current player framed).
    highlight: extra cells to rim (e.g. cells under discussion)."""
    grid = _table_grid(view["radius"])
    img = layer_copy(_empty_table(view["radius"], _table_height(len(view["scores"])),
                                  _printed_key(view["printed"])))
    draw = ImageDraw.Draw(img)
    _header(img, view, names, lang)
    _draw_tiles(img, grid, view["tiles"], set(view.get("recent", [])), flat=True)
    for cell in highlight or ():
        cx, cy = grid.centre(*cell)
        draw.polygon(_hex(cx, cy, grid.s - 1), outline=HIGHLIGHT, width=max(3, int(grid.s / 9)))
    _draw_panels(img, draw, view, names, lang, BOARD_TOP + BOARD_H + 6)
    return img


def rack(tiles: Sequence[Sequence[str]], *, lang: str = "ru") -> Image.Image:
    """A rack: tiles side by side (first colour left), numbered 1..n above as the buttons are."""
    s = 42
    tile_w = 2 * SQRT3 * s
    gap = 26
    n = max(1, len(tiles))
    width = int(max(360, n * tile_w + (n + 1) * gap))
    height = 64 + 2 * s + 20
    img, draw = new_canvas(width, height)
    if not tiles:
        put_text(img, (width / 2, height / 2), "—", 34, fill=MUTED, bold=True, anchor="mm")
        return img
    for k, colours in enumerate(tiles):
        x = gap + k * (tile_w + gap)
        cy = 64 + s
        cx = x + tile_w / 2
        _paste_whole_tile(img, float(s), (cx - s * SQRT3 / 2, cy), (cx + s * SQRT3 / 2, cy), 1, 0,
                          colours[0], colours[1])
        put_text(img, (x + tile_w / 2, 32), str(k + 1), 34, bold=True, anchor="mm")
    return img


# ------------------------------------------------------------------------------ candidates

CAND_MAX = 1280          # the long side of a candidates picture
CAND_MIN_W, CAND_MIN_H = 1040, 820
CAND_HEAD = 92
CAND_PAD = 24
CAND_S_MAX = 150         # the largest hex (a few candidates close together)
BADGE = HIGHLIGHT        # number badges: yellow, black number, black and white rims
GHOST_ALPHA = 170
PILL_OFF, PILL_END = 1.6, 0.74  # a pill badge: its ends (the colours) from the number, their radius
BADGE_INK = 3  # a badge's black rim outside its radius (a pill's ends: 3 px around them)
BADGE_GAP = 3  # between two badges' black rims: their white rims (5 px) may touch, never the numbers


def _window(view: Mapping[str, Any], cells: Sequence[tuple[int, int]], max_w: float, max_h: float,
            min_w: float, min_h: float, s_max: float, margin: float = 1.35):
    """Hex size and pixel window showing ``cells`` with ``margin`` cells around, zoomed as far as
    ``s_max`` allows, kept on the board. Returns (s, width, height, centre_x_u, centre_y_u) with
    the centre in units of s relative to the board's centre."""
    R = view["radius"]
    xs = [SQRT3 * (q + r / 2) for q, r in cells]
    ys = [1.5 * r for q, r in cells]
    mx, my = SQRT3 * margin, 1.5 * margin + 0.4
    ux0, ux1, uy0, uy1 = min(xs) - mx, max(xs) + mx, min(ys) - my, max(ys) + my
    s = float(math.floor(min(s_max, max_w / (ux1 - ux0), max_h / (uy1 - uy0))))  # whole px: sprites repeat
    width = int(min(max_w, max(min_w, (ux1 - ux0) * s)))
    height = int(min(max_h, max(min_h, (uy1 - uy0) * s)))
    cx, cy = (ux0 + ux1) / 2, (uy0 + uy1) / 2
    ext_x, ext_y = SQRT3 * (R + 0.5) + 1.2, 1.5 * R + 1.4  # the board with its row letters
    half_x, half_y = width / 2 / s, height / 2 / s
    cx = max(-ext_x + half_x, min(ext_x - half_x, cx)) if ext_x > half_x else 0.0
    cy = max(-ext_y + half_y, min(ext_y - half_y, cy)) if ext_y > half_y else 0.0
    return s, width, height, cx, cy


def _visible(grid: _Grid, box: tuple[float, float, float, float]) -> set[tuple[int, int]]:
    x0, y0, x1, y1 = box
    s = grid.s
    out = set()
    for q, r in grid.cells():
        cx, cy = grid.centre(q, r)
        if x0 - s < cx < x1 + s and y0 - s < cy < y1 + s:
            out.add((q, r))
    return out


def _draw_window(img: Image.Image, view: Mapping[str, Any], grid: _Grid, box, *,
                 labels: str | None = None, label_size: int = 0, letters: int = 0) -> set:
    """The board inside ``box`` of ``img``, a new canvas: empty cells, printed symbols, tiles.
    What is drawn across the box's edges is wiped outside it (not drawn on a layer and cut
    out: two more pictures of the whole size were most of a zoomed picture's memory)."""
    visible = _visible(grid, box)
    _draw_empty_board(img, grid, labels=labels, cells=visible, letters=letters, label_size=label_size)
    _draw_printed(img, grid, view["printed"], only=visible)
    _draw_tiles(img, grid, view["tiles"], set(), only=visible)
    x0, y0, x1, y1 = (int(v) for v in box)
    w, h = img.size
    for left, top, right, bottom in ((0, 0, w, y0), (0, y1, w, h), (0, y0, x0, y1), (x1, y0, w, y1)):
        if right > left and bottom > top:
            img.paste(BACKGROUND, (left, top, right, bottom))
    return visible


def _badge_circles(kind: str, cx: float, cy: float, r: float, axis: tuple[float, float]):
    """Circles covering what a badge draws in ink (its white rim aside): a disc, or a pill's
    number, its two ends and the bar between them."""
    if kind == "disc":
        return [(cx, cy, r + BADGE_INK)]
    ux, uy = axis
    off, end = r * PILL_OFF, r * PILL_END + BADGE_INK + 1
    return [(cx, cy, r + BADGE_INK)] + [(cx + ux * off * t, cy + uy * off * t, end) for t in (-1, -0.5, 0.5, 1)]


def _collides(circles, placed, box) -> tuple[float, float]:
    """How much ``circles`` overlap the placed ones (their white rims may touch), and how much
    they leave ``box``: (0, 0) is a free place."""
    x0, y0, x1, y1 = box
    overlap = outside = 0.0
    for cx, cy, r in circles:
        outside += max(0.0, x0 - (cx - r)) + max(0.0, (cx + r) - x1) + max(0.0, y0 - (cy - r)) + max(0.0, (cy + r) - y1)
        for px, py, pr in placed:
            overlap += max(0.0, pr + r + BADGE_GAP - math.hypot(cx - px, cy - py))
    return overlap, outside


def _badge_tries(kind: str, mx: float, my: float, r: float, s: float, axis, j: int, same: int):
    """Where a badge may go, best first (lazily: most badges take one of the first): beside its
    tile if it would hide the tile's colours, side by side with the badges of the same cells,
    on the tile, then rings further out."""
    perp = (-axis[1], axis[0])
    step = r * 2 + 2 * BADGE_INK + BADGE_GAP
    if kind == "disc" and s < 1.75 * r:  # a badge on the tile would hide its colours
        d_off = 0.8 * s + 0.75 * r
        yield mx + perp[0] * d_off, my + perp[1] * d_off
        yield mx - perp[0] * d_off, my - perp[1] * d_off
    if same > 1:  # side by side across the pair
        first = (j - (same - 1) / 2) * step
        yield mx + perp[0] * first, my + perp[1] * first
    yield mx, my
    if kind == "pill":  # a pill stays parallel to its tile, beside it
        for k2 in (0.5, 1, 1.5, 2, 2.5, 3):
            yield mx + perp[0] * step * k2, my + perp[1] * step * k2
            yield mx - perp[0] * step * k2, my - perp[1] * step * k2
    for ring in range(1, 9):  # far enough that a crowd of ten always finds free places
        n = 12 if ring < 3 else 24
        for t in range(n):
            ang = math.radians(t * 360 / n + (15 if ring % 2 else 0))
            yield mx + math.cos(ang) * ring * r * 1.3, my + math.sin(ang) * ring * r * 1.3


def _layout_badges(items, grid: _Grid, width: int, height: int, size: int, on_cell) -> list:
    """Each candidate's badge: (number, colours, kind, centre, tile's middle, radius, axis), in
    free places (no two overlap) when the picture has room: a free place inside the picture
    first, then one that leaves it least, then the least overlap."""
    pairs: dict[frozenset, list[int]] = {}
    for k, (_, _, _, a, b) in enumerate(items):
        pairs.setdefault(frozenset((a, b)), []).append(k)
    placed: list[tuple[float, float, float]] = []
    badges = []
    area = (4, CAND_HEAD + 4, width - 4, height - 4)
    for ks in pairs.values():
        for j, k in enumerate(ks):
            n, c1, c2, a, b = items[k]
            (xa, ya), (xb, yb) = grid.centre(*a), grid.centre(*b)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            d = math.hypot(xb - xa, yb - ya) or 1.0
            axis = ((xb - xa) / d, (yb - ya) / d)
            kind = "pill" if len(ks) > 1 or len(on_cell[a]) > 1 or len(on_cell[b]) > 1 else "disc"
            r = max(size * 0.72, (text_width(str(n), size, True) + size * 0.45) / 2)
            best, best_bad = None, (float("inf"), float("inf"))
            for px, py in _badge_tries(kind, mx, my, r, grid.s, axis, j, len(ks)):
                bad = _collides(_badge_circles(kind, px, py, r, axis), placed, area)
                if bad < best_bad:
                    best, best_bad = (px, py), bad
                if bad == (0.0, 0.0):
                    break
            placed += _badge_circles(kind, *best, r, axis)
            badges.append((n, c1, c2, kind, best, (mx, my), r, axis))
    return badges


def candidate_badges(view: Mapping[str, Any], cands: Sequence[Sequence[Any]]) -> list[tuple[int, list]]:
    """Each badge of :func:`candidates` as (number, circles covering its ink), for tests."""
    items = _items(cands)
    grid, width, height = _candidates_frame(view, [cell for it in items for cell in it[3:5]])
    badges = _layout_badges(items, grid, width, height, _badge_size(width, grid.s), _on_cell(items))
    return [(n, _badge_circles(kind, *at, r, axis)) for n, _, _, kind, at, _, r, axis in badges]


def _items(cands):
    return [(int(n), str(c1), str(c2), (int(a[0]), int(a[1])), (int(b[0]), int(b[1])))
            for n, c1, c2, a, b in cands]


def _on_cell(items) -> dict[tuple[int, int], set[str]]:
    """What each covered cell would show: the colours candidates put on it."""
    on_cell: dict[tuple[int, int], set[str]] = {}
    for _, c1, c2, a, b in items:
        on_cell.setdefault(a, set()).add(c1)
        on_cell.setdefault(b, set()).add(c2)
    return on_cell


def _badge_size(width: int, s: float) -> int:
    """The badges' numbers: big enough for a phone (14 px at 400 px wide)."""
    return max(min_font(width, 14.5), min(58, int(s * 0.42)))


def _candidates_frame(view: Mapping[str, Any], cells: Sequence[tuple[int, int]]) -> tuple[_Grid, int, int]:
    """The grid and picture size of :func:`candidates` for candidates on ``cells``."""
    s, bw, bh, ucx, ucy = _window(view, list(cells) or [(0, 0)], CAND_MAX - 2 * CAND_PAD,
                                  CAND_MAX - CAND_HEAD - 2 * CAND_PAD, CAND_MIN_W - 2 * CAND_PAD,
                                  CAND_MIN_H - CAND_HEAD - 2 * CAND_PAD, CAND_S_MAX)
    width, height = bw + 2 * CAND_PAD, bh + 2 * CAND_PAD + CAND_HEAD
    grid = _Grid(view["radius"], s, width / 2 - ucx * s, CAND_HEAD + (height - CAND_HEAD) / 2 - ucy * s)
    return grid, width, height


def candidates(view: Mapping[str, Any], cands: Sequence[Sequence[Any]], *, lang: str = "ru",
               names: Sequence[str] = ()) -> Image.Image:
    """The board around numbered candidate placements of one tile, for choosing by number.

    cands: ``(number, colour_first, colour_second, cell_first, cell_second)`` each, with colours
    and cells as :func:`preview` takes them (up to about 10). The picture (1040-1280 px wide,
    at most 1280 px tall) zooms on the part of the board that holds every candidate; each is a
    ghost of the tile on its two cells (its symbols shown where no other candidate puts another
    colour) with a big yellow numbered badge on the edge between the cells. Candidates on the
    same pair of cells get badges that carry the two colours in order, set side by side;
    badges that would overlap are moved to a free place, with a leader line to a dot on their
    tile (no two badges overlap: see :func:`_layout_badges`).
    names: accepted like :func:`table`'s; the picture names nobody.
    """
    words = _w(lang)
    items = _items(cands)
    grid, width, height = _candidates_frame(view, [cell for it in items for cell in it[3:5]])
    s = grid.s
    img, draw = new_canvas(width, height)
    box = (0, CAND_HEAD, width, height)
    letters = max(min_font(width), int(s * 0.55))
    _draw_window(img, view, grid, box, letters=letters)
    if not items:
        _cand_header(img, items, words)
        return img
    on_cell = _on_cell(items)
    # ghosts: the bodies first (one per pair of cells), then the symbols every candidate agrees on
    for a, b in {frozenset((it[3], it[4])): (it[3], it[4]) for it in items}.values():
        _halo(draw, grid.centre(*a), grid.centre(*b), s, (255, 255, 255), max(3.0, s * 0.09))
        _ghost_body(img, grid, a, b, TILE_GHOST, GHOST_ALPHA)
    for cell, colours in on_cell.items():
        if len(colours) == 1:
            _paste_symbol(img, next(iter(colours)), *grid.centre(*cell), s * 0.92)
    size = _badge_size(width, s)
    badges = _layout_badges(items, grid, width, height, size, on_cell)
    dot = max(8.0, min_font(width) / 2)  # the end of a leader: the tile it numbers, legible too
    for _, _, _, _, (px, py), (mx, my), r, _ in badges:  # leaders under every badge
        if math.hypot(px - mx, py - my) > r * 0.6:
            draw.line((px, py, mx, my), fill=(255, 255, 255), width=7)
            draw.line((px, py, mx, my), fill=INK, width=3)
            draw.ellipse((mx - dot, my - dot, mx + dot, my + dot), fill=INK, outline=(255, 255, 255), width=3)
            note_symbol(2 * dot)
    for n, c1, c2, kind, (px, py), _, r, (ux, uy) in badges:
        if kind == "pill":
            off = r * PILL_OFF
            p0, p1 = (px - ux * off, py - uy * off), (px + ux * off, py + uy * off)
            re = r * PILL_END
            draw.line((p0, p1), fill=INK, width=int(2 * re + 6))
            for ex, ey in (p0, p1):
                draw.ellipse((ex - re - 3, ey - re - 3, ex + re + 3, ey + re + 3), fill=INK)
            draw.line((p0, p1), fill=(255, 255, 255), width=int(2 * re))
            for (ex, ey), colour in ((p0, c1), (p1, c2)):
                draw.ellipse((ex - re, ey - re, ex + re, ey + re), fill=(255, 255, 255))
                _small_symbol(img, colour, ex, ey, re * 0.78)
        draw.ellipse((px - r - 5, py - r - 5, px + r + 5, py + r + 5), fill=(255, 255, 255))
        draw.ellipse((px - r - 2, py - r - 2, px + r + 2, py + r + 2), fill=INK)
        draw.ellipse((px - r + 2, py - r + 2, px + r - 2, py + r - 2), fill=BADGE)
        put_text(img, (px, py), str(n), size, bold=True, anchor="mm")
    _cand_header(img, items, words)
    return img


def _cand_header(img: Image.Image, items, words) -> None:
    """The strip above the board: the tile and what to do."""
    width = img.width
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width, CAND_HEAD), fill=BACKGROUND)
    draw.line((0, CAND_HEAD, width, CAND_HEAD), fill=PANEL_EDGE, width=2)
    head = min_font(width) + 4
    x = CAND_PAD
    if items:
        mini = _legible_s(width)
        _mini_tile(img, x + SQRT3 * mini + 4, CAND_HEAD / 2, mini, (items[0][1], items[0][2]))
        x += 2 * SQRT3 * mini + 30
        nums = sorted(it[0] for it in items)
        label = f"{words['choose']}: {nums[0]}–{nums[-1]}" if len(nums) > 1 else f"{words['choose']}: {nums[0]}"
    else:
        label = words["none"]
    put_text(img, (x, CAND_HEAD / 2), fit(label, head, width - x - CAND_PAD, True), head, bold=True,
             anchor="lm")


# ------------------------------------------------------------------------------ preview

PREVIEW_W, PREVIEW_BOARD_H, PREVIEW_S = 900, 660, 58
PREVIEW_TEXT = min_font(PREVIEW_W)  # 25


def preview(view: Mapping[str, Any], tile: Sequence[str], cell_a: Sequence[int], cell_b: Sequence[int],
            points: Mapping[str, Any], *, lang: str = "ru") -> Image.Image:
    """The board around a proposed placement, zoomed: empty cells show their full labels, the
    proposed tile is drawn rimmed, cells that would score are ringed in their colour; below, the
    points per colour (gained, lost at the cap, «Гениально!»).

    points: placement_score's dict (colour -> {"raw", "gained", "lost", "bonus", ...}) or
    colour -> int."""
    words = _w(lang)
    s = PREVIEW_S
    (qa, ra), (qb, rb) = cell_a, cell_b
    mid_q, mid_r = (qa + qb) / 2, (ra + rb) / 2
    mx, my = s * SQRT3 * (mid_q + mid_r / 2), 1.5 * s * mid_r
    R = view["radius"]
    half_w = s * SQRT3 * (R + 0.5) + SIDE  # the board's extent around its centre
    half_h = s * (1.5 * R + 1) + 8
    mx = max(-half_w + PREVIEW_W / 2, min(half_w - PREVIEW_W / 2, mx)) if half_w > PREVIEW_W / 2 else 0
    my = max(-half_h + PREVIEW_BOARD_H / 2, min(half_h - PREVIEW_BOARD_H / 2, my)) \
        if half_h > PREVIEW_BOARD_H / 2 else 0
    grid = _Grid(view["radius"], s, PREVIEW_W / 2 - mx, PREVIEW_BOARD_H / 2 - my)
    n_rows = 1 if len(points) <= 2 else 2
    img, draw = new_canvas(PREVIEW_W, PREVIEW_BOARD_H + 30 + 74 * n_rows)
    _draw_window(img, view, grid, (0, 0, PREVIEW_W, PREVIEW_BOARD_H), labels="full",
                 label_size=PREVIEW_TEXT + 1, letters=max(PREVIEW_TEXT + 4, int(s * 0.62)))
    # cells that would score
    ring = max(4, int(s / 10))
    for item in scoring_cells(view, tile, cell_a, cell_b):
        cx, cy = grid.centre(*item["cell"])
        draw.polygon(_hex(cx, cy, s - GAP), outline=INK, width=ring + 3)
        draw.polygon(_hex(cx, cy, s - GAP - 2), outline=SCORING_RING, width=ring)
    c1, c2 = grid.centre(qa, ra), grid.centre(qb, rb)
    _halo(draw, c1, c2, s, HIGHLIGHT, s * 0.16)
    _paste_tile(img, grid, (qa, ra), (qb, rb), tile[0], tile[1], body=TILE_GHOST)
    draw.rectangle((0, PREVIEW_BOARD_H, PREVIEW_W, img.height), fill=BACKGROUND)
    draw.line((0, PREVIEW_BOARD_H, PREVIEW_W, PREVIEW_BOARD_H), fill=PANEL_EDGE, width=2)
    # points per colour, and the cells of the placement at the right
    big, small = 40, PREVIEW_TEXT + 1
    where = f"{cell_label(tuple(cell_a), view['radius'])} {cell_label(tuple(cell_b), view['radius'])}"
    put_text(img, (PREVIEW_W - 24, PREVIEW_BOARD_H + 20 + 37), where, 34, bold=True, anchor="rm")
    y = PREVIEW_BOARD_H + 20 + 37
    x = 30
    items = list(points.items())
    if not items or all(_gained(v) == 0 and _lost(v) == 0 for _, v in items):
        put_text(img, (PREVIEW_W / 2, y), words["nothing"], big, fill=MUTED, bold=True, anchor="mm")
        return img
    for k, (colour, value) in enumerate(items):
        if k == 2:
            x, y = 30, y + 74
        _small_symbol(img, colour, x + 24, y, 22)
        text = f"+{_gained(value)}"
        put_text(img, (x + 58, y), text, big, bold=True, anchor="lm")
        x += 58 + text_width(text, big, True) + 14
        extra = []
        if _lost(value):
            extra.append(f"−{_lost(value)} {words['lost']}")
        if isinstance(value, Mapping) and value.get("bonus"):
            extra.append(f"«{words['genial']}»")
        if extra:
            etext = ", ".join(extra)
            put_text(img, (x, y), etext, small, fill=LOW_MARK, anchor="lm")
            x += text_width(etext, small) + 14
        x += 30
    return img


def _gained(value: Any) -> int:
    if isinstance(value, Mapping):
        return int(value.get("gained", value.get("raw", 0)))
    return int(value)


def _lost(value: Any) -> int:
    return int(value.get("lost", 0)) if isinstance(value, Mapping) else 0
