"""Pictures of Ingenious (genial): the table, a player's rack, numbered candidate
placements, a placement preview.

Pure functions of an ``engines.genial.view`` dict. Each tile half is drawn as its colour's
symbol (render.common.SYMBOLS) on a dark tile, the two halves of a tile joined; every row has
its letter at both ends. The table's cells carry no coordinates (they cannot be read on a
phone): moves are chosen by number from panels of candidate placements (:func:`candidates`).
Names only through safe_text; at most 1280 px on the long side; the smallest text is legible
at 400 px wide.

    table(view, *, words, names, highlight=None) -> PIL.Image     1080 x 1132 (1-2 tracks) or 1240
    rack(tiles) -> PIL.Image                                       tiles numbered 1..n
    candidates(view, cands, *, words, names) -> PIL.Image          a numbered panel per placement
    preview(view, tile, cell_a, cell_b, points, *, words) -> PIL.Image

``words`` are the labels (:data:`LABELS`) in the reader's language (English without them).

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

# The pictures' words, in English (the msgids of their catalogue entries under "picture:genial"):
# the bot hands each function them in the reader's language.
LABELS = {"turn": "Turn", "bag": "bag", "bonus": "bonus placement", "swap": "swap or keep?",
          "over": "Game over", "wins": "wins", "min": "lowest", "genial": "Ingenious!", "lost": "lost",
          "first": "first tile: by a free symbol", "nothing": "no points",
          "choose": "Choose a number", "none": "no place for this tile"}

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


def _w(words: Mapping[str, str] | None) -> Mapping[str, str]:
    """The labels to draw: ``words`` where it has them, else English."""
    return {**LABELS, **words} if words else LABELS


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
           view: Mapping[str, Any], holder: Mapping[str, Any], name: str, current: bool,
           words: Mapping[str, str], place: int | None) -> None:
    """One player's (or team's) six tracks: symbol, value, a bar; lowest colour(s) in red."""
    x0, y0, x1, y1 = box
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
                 names: Sequence[str], words: Mapping[str, str], top_y: int) -> None:
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
               is_current, words, place)


def _header(img: Image.Image, view: Mapping[str, Any], names: Sequence[str], words: Mapping[str, str]) -> None:
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

def table(view: Mapping[str, Any], *, words: Mapping[str, str] | None = None, names: Sequence[str] = (),
          highlight: Iterable[Sequence[int]] | None = None) -> Image.Image:
    """The group's picture: header (whose turn, pending decision, bag), the board with printed
    symbols and tiles (the latest turn's tiles rimmed), row letters, and the six tracks of
    every player or team (lowest colour marked, current player framed).
    highlight: extra cells to rim (e.g. cells under discussion); words: the labels
    (:data:`LABELS`) in the reader's language."""
    words = _w(words)
    grid = _table_grid(view["radius"])
    img = layer_copy(_empty_table(view["radius"], _table_height(len(view["scores"])),
                                  _printed_key(view["printed"])))
    draw = ImageDraw.Draw(img)
    _header(img, view, names, words)
    _draw_tiles(img, grid, view["tiles"], set(view.get("recent", [])), flat=True)
    for cell in highlight or ():
        cx, cy = grid.centre(*cell)
        draw.polygon(_hex(cx, cy, grid.s - 1), outline=HIGHLIGHT, width=max(3, int(grid.s / 9)))
    _draw_panels(img, draw, view, names, words, BOARD_TOP + BOARD_H + 6)
    return img


def rack(tiles: Sequence[Sequence[str]]) -> Image.Image:
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


# ------------------------------------------------------------------------------ zoomed windows

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



# ------------------------------------------------------------------------------ candidates

# One panel per candidate, three to a row, the buttons under the picture laid out the same way.
# A panel is a strip (the number to press, the two cells, the points) over the board around
# its placement, zoomed the same in every panel, the tile drawn there with its colours as it
# would lie. Candidates of a page often share a cell, or lie both ways round on the same two:
# drawn on one board, their numbers covered each other and the tile's halves were 5 px at
# 400 px wide; apart, nothing covers anything.
CAND_COLS = 3
CAND_HEAD = 92           # the strip above the panels: the tile and what to do
CAND_PAD = 16            # around the panels
CAND_GAP = 12            # between two panels
CAND_PANEL_W = 381       # three panels: a picture 1200 px wide
CAND_STRIP = 88          # a panel's strip: the number beside two lines, the cells and the points
CAND_CROP = 270          # a panel's board, below its strip
CAND_S = 50              # hex size in a panel: a tile half's symbol 19 px across at 400 px wide
BADGE = HIGHLIGHT        # the number's box: yellow, black number and rim
CAND_TEXT = min_font(2 * CAND_PAD + CAND_COLS * CAND_PANEL_W + (CAND_COLS - 1) * CAND_GAP)  # 33
CAND_NUMBER = 56  # 18 px at 400 px wide: the number to press, the biggest text of a panel
CAND_DOT = math.ceil(CAND_TEXT * 0.55)  # a points' colour symbol: its radius (as tall as the text)


def _items(cands):
    """(number, first colour, second colour, first cell, second cell, points) of each candidate;
    points: ((colour, gained), ...) or () when none were given."""
    out = []
    for cand in cands:
        n, c1, c2, a, b = cand[:5]
        points = tuple((str(c), int(g)) for c, g in (cand[5] if len(cand) > 5 else ()))
        out.append((int(n), str(c1), str(c2), (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), points))
    return out


def candidates_size(count: int) -> tuple[int, int]:
    """The size of :func:`candidates`' picture for ``count`` candidates (3 panels to a row; none:
    the strip that says so, two panels wide)."""
    cols = max(1, min(CAND_COLS, count)) if count else 2
    rows = -(-count // CAND_COLS)
    width = 2 * CAND_PAD + cols * CAND_PANEL_W + (cols - 1) * CAND_GAP
    height = CAND_HEAD + 2 * CAND_PAD + rows * (CAND_STRIP + CAND_CROP) + max(0, rows - 1) * CAND_GAP
    return width, height


def candidate_panels(count: int) -> list[tuple[int, int, int, int]]:
    """Each candidate's panel (x0, y0, x1, y1) in reading order: its strip on top, its board below."""
    boxes = []
    for k in range(count):
        row, col = divmod(k, CAND_COLS)
        x0 = CAND_PAD + col * (CAND_PANEL_W + CAND_GAP)
        y0 = CAND_HEAD + CAND_PAD + row * (CAND_STRIP + CAND_CROP + CAND_GAP)
        boxes.append((x0, y0, x0 + CAND_PANEL_W, y0 + CAND_STRIP + CAND_CROP))
    return boxes


def candidate_grid(view: Mapping[str, Any], cell_a, cell_b) -> _Grid:
    """The grid of a panel's board (pixels of the panel's board area), centred on the placement."""
    (qa, ra), (qb, rb) = cell_a, cell_b
    mx = CAND_S * SQRT3 * ((qa + qb) / 2 + (ra + rb) / 4)
    my = 1.5 * CAND_S * (ra + rb) / 2
    return _Grid(view["radius"], CAND_S, CAND_PANEL_W / 2 - mx, CAND_CROP / 2 - my)


def _cand_board(view: Mapping[str, Any], item) -> Image.Image:
    """A panel's board: the cells around the placement, and the tile on them, rimmed in yellow,
    each half's symbol on its cell (as :func:`preview` draws it)."""
    _, c1, c2, a, b, _ = item
    img, draw = new_canvas(CAND_PANEL_W, CAND_CROP)
    grid = candidate_grid(view, a, b)
    _draw_window(img, view, grid, (0, 0, CAND_PANEL_W, CAND_CROP), letters=CAND_TEXT + 3)
    _halo(draw, grid.centre(*a), grid.centre(*b), CAND_S, HIGHLIGHT, CAND_S * 0.16)
    _paste_tile(img, grid, a, b, c1, c2, body=TILE_GHOST)
    return img


def reading_order(a, b) -> tuple:
    """Two cells as one reads them on the board: the upper row first, then the left one."""
    return tuple(sorted((a, b), key=lambda c: (c[1], c[0])))


def _cand_strip(img: Image.Image, item, box, radius: int) -> None:
    """The strip of a panel: the number in its yellow box; beside it the two cells as one reads
    them («I5–I6»: which colour goes where, the tile below shows) and the points per colour,
    as the list under the picture says them."""
    n, c1, c2, a, b, points = item
    x0, y0, x1, _ = box
    label = str(n)
    w = max(CAND_STRIP - 10, text_width(label, CAND_NUMBER, True) + 24)
    paste_box(img, (x0 + 6, y0 + 6, x0 + 6 + w, y0 + CAND_STRIP - 2), 12, BADGE, INK, 3, bg=PANEL)
    put_text(img, (x0 + 6 + w / 2, y0 + CAND_STRIP / 2 + 2), label, CAND_NUMBER, bold=True, anchor="mm")
    x = x0 + 6 + w + 14
    top, bottom = y0 + CAND_STRIP * 0.3 + 2, y0 + CAND_STRIP * 0.72 + 2
    first, second = reading_order(a, b)
    put_text(img, (x, top), f"{cell_label(first, radius)}–{cell_label(second, radius)}", CAND_TEXT, bold=True,
             anchor="lm")
    if not points:
        put_text(img, (x, bottom), "+0", CAND_TEXT, bold=True, fill=MUTED, anchor="lm")
    for colour, gained in points:
        _small_symbol(img, colour, x + CAND_DOT, bottom, CAND_DOT)
        note_symbol(2 * CAND_DOT)
        x += 2 * CAND_DOT + 4
        put_text(img, (x, bottom), f"+{gained}", CAND_TEXT, bold=True, anchor="lm")
        x += text_width(f"+{gained}", CAND_TEXT, True) + 16


def candidates(view: Mapping[str, Any], cands: Sequence[Sequence[Any]], *,
               words: Mapping[str, str] | None = None, names: Sequence[str] = ()) -> Image.Image:
    """Numbered candidate placements of one tile, each in a panel of its own, for choosing by
    number (up to 9 in a picture 1200 px wide, three to a row).

    cands: ``(number, colour_first, colour_second, cell_first, cell_second[, points])`` each,
    colours and cells as :func:`preview` takes them, ``points`` ((colour, gained), ...) in the
    tile's order. A panel shows the number on yellow, the two cells («I5–I6», first colour's
    cell first) and the points, over the board around the placement with the tile drawn on it.
    names: accepted like :func:`table`'s; the picture names nobody.
    """
    words = _w(words)
    items = _items(cands)
    width, height = candidates_size(len(items))
    img, _ = new_canvas(width, height)
    for item, box in zip(items, candidate_panels(len(items))):
        x0, y0, x1, y1 = box
        paste_box(img, box, 12, PANEL, PANEL_EDGE, 2)
        img.paste(_cand_board(view, item), (x0, y0 + CAND_STRIP))
        ImageDraw.Draw(img).rectangle(box, outline=PANEL_EDGE, width=2)
        _cand_strip(img, item, box, view["radius"])
    _cand_header(img, items, words)
    return img


def _cand_header(img: Image.Image, items, words) -> None:
    """The strip above the panels: the tile and what to do."""
    width = img.width
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width, CAND_HEAD), fill=BACKGROUND)
    draw.line((0, CAND_HEAD, width, CAND_HEAD), fill=PANEL_EDGE, width=2)
    head = max(min_font(width) + 4, CAND_TEXT)  # (as big as the panels' words on a narrow picture)
    x = CAND_PAD
    if items:
        mini = max(_legible_s(width), 18)
        _mini_tile(img, x + SQRT3 * mini + 4, CAND_HEAD / 2, mini, (items[0][1], items[0][2]))
        x += 2 * SQRT3 * mini + 30
        nums = sorted(it[0] for it in items)
        label = f"{words['choose']}: {nums[0]}–{nums[-1]}" if len(nums) > 1 else f"{words['choose']}: {nums[0]}"
    else:
        label = words["none"]
    while head > min_font(width) + 4 and text_width(label, head, True) > width - x - CAND_PAD:
        head -= 1
    put_text(img, (x, CAND_HEAD / 2), fit(label, head, width - x - CAND_PAD, True), head, bold=True,
             anchor="lm")


# ------------------------------------------------------------------------------ preview

PREVIEW_W, PREVIEW_BOARD_H, PREVIEW_S = 900, 660, 58
PREVIEW_TEXT = min_font(PREVIEW_W)  # 25


def preview(view: Mapping[str, Any], tile: Sequence[str], cell_a: Sequence[int], cell_b: Sequence[int],
            points: Mapping[str, Any], *, words: Mapping[str, str] | None = None) -> Image.Image:
    """The board around a proposed placement, zoomed: empty cells show their full labels, the
    proposed tile is drawn rimmed, cells that would score are ringed in their colour; below, the
    points per colour (gained, lost at the cap, «Ingenious!»).

    points: placement_score's dict (colour -> {"raw", "gained", "lost", "bonus", ...}) or
    colour -> int."""
    words = _w(words)
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
