"""Pictures of «Гениально» (Ingenious): the table, a player's rack, a placement preview.

Pure functions of an ``engines.genial.view`` dict. Each tile half is drawn as its colour's
symbol (render.common.SYMBOLS) on a dark tile, the two halves of a tile joined; empty cells
carry their number and every row its letter at both ends, so "F7" can be read off the picture.
Names only through safe_text; at most 1280 px on the long side.

    table(view, *, lang, names, highlight=None) -> PIL.Image      1080 x 1132 (1-2 tracks) or 1280
    rack(tiles, *, lang) -> PIL.Image                              tiles numbered 1..n
    preview(view, tile, cell_a, cell_b, points, *, lang) -> PIL.Image
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from engines.genial.geometry import ROW_LETTERS, cell_label
from engines.genial.views import scoring_cells
from render.common import (
    BACKGROUND, COLOURS, HIGHLIGHT, INK, MUTED, draw_symbol, font, new_canvas,
    safe_text,
)

WORDS = {
    "en": {"turn": "Turn", "bag": "bag", "bonus": "bonus placement", "swap": "swap or keep?",
           "over": "Game over", "wins": "wins", "min": "min", "team": "team", "solo": "solo",
           "genial": "Ingenious!", "lost": "lost", "points": "points", "first": "first tile: by a free symbol",
           "nothing": "no points", "rack": "rack", "drawn": "drawn tile"},
    "ru": {"turn": "Ход", "bag": "мешок", "bonus": "бонусный ход", "swap": "обмен или оставить?",
           "over": "Игра окончена", "wins": "побеждает", "min": "мин", "team": "команда", "solo": "соло",
           "genial": "Гениально!", "lost": "сгорает", "points": "очки", "first": "первый тайл: к свободному символу",
           "nothing": "нет очков", "rack": "подставка", "drawn": "вытянутый тайл"},
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
LOW_MARK = (200, 40, 40)
MAX_BG = (212, 236, 200)
SCORING_RING = (255, 255, 255)
GAP = 3.2  # inset of every hex, so tiles show their outline


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
                s: float, fill) -> None:
    """Two joined hexes: both inset by GAP, with the gap between them filled."""
    r = s - GAP
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


def _symbol(draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, s: float) -> None:
    draw_symbol(draw, colour, cx, cy, s * 0.56, outline=(20, 20, 20), width=max(1, int(s / 22)))


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


def _draw_empty_board(img: Image.Image, grid: _Grid, *, labels: str = "numbers",
                      cells: set[tuple[int, int]] | None = None, letters: bool = True) -> None:
    """Board shape, empty cells with their numbers (or full labels), row letters."""
    draw = ImageDraw.Draw(img)
    s = grid.s
    draw.polygon(_board_outline(grid), fill=BOARD_BG)
    R = grid.radius
    num_font = font(max(11, int(s * 0.5)))
    lab_font = font(max(11, int(s * 0.36)))
    for q, r in grid.cells():
        if cells is not None and (q, r) not in cells:
            continue
        cx, cy = grid.centre(q, r)
        draw.polygon(_hex(cx, cy, s - GAP), fill=EMPTY, outline=EMPTY_EDGE)
        number = q - max(-R, -R - r) + 1
        if labels == "numbers":
            draw.text((cx, cy), str(number), font=num_font, fill=MUTED, anchor="mm")
        elif labels == "full":
            draw.text((cx, cy), f"{ROW_LETTERS[r + R]}{number}", font=lab_font, fill=MUTED, anchor="mm")
    if letters:
        let_font = font(max(14, int(s * 0.62)), bold=True)
        for r in range(-R, R + 1):
            q0, q1 = max(-R, -R - r), min(R, R - r)
            for q, side in ((q0, -1), (q1, 1)):
                cx, cy = grid.centre(q, r)
                draw.text((cx + side * s * SQRT3 * 0.5 + side * s * 0.62, cy), ROW_LETTERS[r + R],
                          font=let_font, fill=INK, anchor="mm")


PANEL_H, PANEL_GAP, PANEL_MARGIN = 124, 10, 12


def _table_height(holders: int) -> int:
    rows = 1 if holders <= 2 else 2
    return BOARD_TOP + BOARD_H + 6 + rows * PANEL_H + (rows - 1) * PANEL_GAP + PANEL_MARGIN


@lru_cache(maxsize=8)
def _empty_table(radius: int, height: int) -> Image.Image:
    img, _ = new_canvas(W, height)
    _draw_empty_board(img, _table_grid(radius))
    return img


def _draw_printed(draw: ImageDraw.ImageDraw, grid: _Grid, printed: Sequence[Mapping[str, Any]],
                  only: set | None = None) -> None:
    s = grid.s
    for p in printed:
        q, r = p["cell"]
        if only is not None and (q, r) not in only:
            continue
        cx, cy = grid.centre(q, r)
        draw.polygon(_hex(cx, cy, s - GAP), fill=PRINTED_BG, outline=COLOURS[p["colour"]],
                     width=max(2, int(s / 10)))
        _symbol(draw, p["colour"], cx, cy, s)


def _draw_tiles(draw: ImageDraw.ImageDraw, grid: _Grid, tiles: Sequence[Mapping[str, Any]],
                recent: set[int], only: set | None = None) -> None:
    s = grid.s
    order = [k for k in range(len(tiles)) if k not in recent] + sorted(recent)
    for k in order:
        t = tiles[k]
        (qa, ra), (qb, rb) = t["cells"]
        if only is not None and (qa, ra) not in only and (qb, rb) not in only:
            continue
        c1, c2 = grid.centre(qa, ra), grid.centre(qb, rb)
        if k in recent:
            _halo(draw, c1, c2, s, HIGHLIGHT, max(3.0, s * 0.13))
        _tile_shape(draw, c1, c2, s, TILE)
        _symbol(draw, t["colours"][0], *c1, s)
        _symbol(draw, t["colours"][1], *c2, s)


# ------------------------------------------------------------------------------ tracks

def _holder_name(view: Mapping[str, Any], holder: Mapping[str, Any], names: Sequence[str]) -> str:
    parts = [safe_text(names[x] if x < len(names) else f"#{x + 1}", 14) for x in holder["seats"]]
    return " + ".join(parts)


def _panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], view: Mapping[str, Any],
           holder: Mapping[str, Any], name: str, current: bool, lang: str, place: int | None) -> None:
    """One player's (or team's) six tracks: symbol, value, a bar; lowest colour(s) in red."""
    x0, y0, x1, y1 = box
    words = _w(lang)
    draw.rounded_rectangle(box, radius=12, fill=TURN_BG if current else PANEL,
                           outline=HIGHLIGHT if current else PANEL_EDGE, width=5 if current else 2)
    label = name if place is None else f"{place}. {name}"
    tx = x0 + 14
    if current:
        draw.polygon([(x0 + 12, y0 + 12), (x0 + 12, y0 + 34), (x0 + 30, y0 + 23)], fill=INK)
        tx = x0 + 38
    draw.text((tx, y0 + 23), label, font=font(26, bold=True), fill=INK, anchor="lm")
    low = min(holder["values"].values())
    draw.text((x1 - 14, y0 + 23), f"{words['min']} {low}", font=font(24, bold=True), fill=LOW_MARK,
              anchor="rm")
    top = view["track_max"]
    cw = (x1 - x0 - 16) / 6
    val_font = font(30, bold=True)
    cy = y0 + 70
    for k, colour in enumerate(("red", "orange", "yellow", "green", "blue", "purple")):
        value = holder["values"][colour]
        left = x0 + 8 + k * cw
        lowest = colour in holder["lowest"] and len(holder["lowest"]) < 6
        if lowest:
            draw.rounded_rectangle((left + 2, y0 + 46, left + cw - 2, y1 - 6), radius=8, fill=LOW_BG,
                                   outline=LOW_MARK, width=2)
        elif value >= top:
            draw.rounded_rectangle((left + 2, y0 + 46, left + cw - 2, y1 - 6), radius=8, fill=MAX_BG)
        draw_symbol(draw, colour, left + 24, cy, 15, width=1)
        draw.text((left + 44, cy + 1), str(value), font=val_font, fill=LOW_MARK if lowest else INK,
                  anchor="lm")
        bx0, bx1, by = left + 9, left + cw - 9, y1 - 20
        draw.rectangle((bx0, by - 4, bx1, by + 4), fill=(230, 222, 205))
        if value:
            draw.rectangle((bx0, by - 4, bx0 + (bx1 - bx0) * min(value, top) / top, by + 4),
                           fill=COLOURS[colour])
        if top > 18:  # the second board of a two-board track starts at 18
            mx = (bx0 + bx1) / 2
            draw.line((mx, by - 7, mx, by + 7), fill=INK, width=2)


def _draw_panels(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: Sequence[str], lang: str,
                 top_y: int) -> None:
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
        _panel(draw, (x0, y0, x0 + pw, y0 + ph), view, holder, _holder_name(view, holder, names),
               is_current, lang, place)


def _header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: Sequence[str], lang: str) -> None:
    words = _w(lang)
    f = font(30, bold=True)
    small = font(24)
    y = HEADER_H / 2
    if view.get("over"):
        out = view.get("outcome") or {}
        winners = out.get("winners", [])
        who = ", ".join(safe_text(names[x] if x < len(names) else f"#{x + 1}", 14) for x in winners)
        text = f"{words['over']}: {who} {words['wins']}" if who and view["players"] > 1 else words["over"]
        draw.text((16, y), text, font=f, fill=INK, anchor="lm")
    else:
        cur = view.get("current")
        who = safe_text(names[cur] if cur is not None and cur < len(names) else f"#{(cur or 0) + 1}", 18)
        text = f"{words['turn']}: {who}"
        draw.text((16, y), text, font=f, fill=INK, anchor="lm")
        x = 16 + draw.textlength(text, font=f) + 18
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
        if note:
            draw.text((x, y), note, font=small, fill=LOW_MARK, anchor="lm")
            x += draw.textlength(note, font=small) + 18
        drawn = view.get("drawn")
        if drawn:
            _mini_tile(draw, x + 34, y, 19, drawn)
    bag_text = f"{words['bag']}: {view['bag']}"
    draw.text((W - 16, y), bag_text, font=small, fill=MUTED, anchor="rm")


def _mini_tile(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colours: Sequence[str]) -> None:
    c1 = (cx - s * SQRT3 / 2, cy)
    c2 = (cx + s * SQRT3 / 2, cy)
    _halo(draw, c1, c2, s, HIGHLIGHT, 3)
    _tile_shape(draw, c1, c2, s, TILE)
    _symbol(draw, colours[0], *c1, s)
    _symbol(draw, colours[1], *c2, s)


# ------------------------------------------------------------------------------ public

def table(view: Mapping[str, Any], *, lang: str = "ru", names: Sequence[str] = (),
          highlight: Iterable[Sequence[int]] | None = None) -> Image.Image:
    """The group's picture: header (whose turn, pending decision, bag), the board with printed
    symbols and tiles (the latest turn's tiles rimmed), row letters and cell numbers, and the
    six tracks of every player or team (lowest colour marked, current player framed).
    highlight: extra cells to rim (e.g. cells under discussion)."""
    grid = _table_grid(view["radius"])
    img = _empty_table(view["radius"], _table_height(len(view["scores"]))).copy()
    draw = ImageDraw.Draw(img)
    _header(draw, view, names, lang)
    _draw_printed(draw, grid, view["printed"])
    _draw_tiles(draw, grid, view["tiles"], set(view.get("recent", [])))
    for cell in highlight or ():
        cx, cy = grid.centre(*cell)
        draw.polygon(_hex(cx, cy, grid.s - 1), outline=HIGHLIGHT, width=max(3, int(grid.s / 9)))
    _draw_panels(draw, view, names, lang, BOARD_TOP + BOARD_H + 6)
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
    num_font = font(34, bold=True)
    if not tiles:
        draw.text((width / 2, height / 2), "—", font=num_font, fill=MUTED, anchor="mm")
        return img
    for k, colours in enumerate(tiles):
        x = gap + k * (tile_w + gap)
        cy = 64 + s
        c1 = (x + tile_w / 4, cy)
        c2 = (x + 3 * tile_w / 4, cy)
        _tile_shape(draw, c1, c2, s, TILE)
        _symbol(draw, colours[0], *c1, s)
        _symbol(draw, colours[1], *c2, s)
        draw.text((x + tile_w / 2, 32), str(k + 1), font=num_font, fill=INK, anchor="mm")
    return img


PREVIEW_W, PREVIEW_BOARD_H, PREVIEW_S = 900, 660, 58


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
    visible = set()
    for q, r in grid.cells():
        cx, cy = grid.centre(q, r)
        if -s * 2 < cx < PREVIEW_W + s * 2 and -s * 2 < cy < PREVIEW_BOARD_H + s * 2:
            visible.add((q, r))
    n_rows = 1 if len(points) <= 2 else 2
    img, draw = new_canvas(PREVIEW_W, PREVIEW_BOARD_H + 30 + 74 * n_rows)
    board_img = Image.new("RGB", (PREVIEW_W, PREVIEW_BOARD_H), BACKGROUND)
    _draw_empty_board(board_img, grid, labels="full", cells=visible, letters=True)
    bdraw = ImageDraw.Draw(board_img)
    _draw_printed(bdraw, grid, view["printed"], only=visible)
    _draw_tiles(bdraw, grid, view["tiles"], set(), only=visible)
    # cells that would score
    ring = max(4, int(s / 10))
    for item in scoring_cells(view, tile, cell_a, cell_b):
        cx, cy = grid.centre(*item["cell"])
        bdraw.polygon(_hex(cx, cy, s - GAP), outline=INK, width=ring + 3)
        bdraw.polygon(_hex(cx, cy, s - GAP - 2), outline=SCORING_RING, width=ring)
    c1, c2 = grid.centre(qa, ra), grid.centre(qb, rb)
    _halo(bdraw, c1, c2, s, HIGHLIGHT, s * 0.16)
    _tile_shape(bdraw, c1, c2, s, TILE_GHOST)
    _symbol(bdraw, tile[0], *c1, s)
    _symbol(bdraw, tile[1], *c2, s)
    img.paste(board_img, (0, 0))
    draw.line((0, PREVIEW_BOARD_H, PREVIEW_W, PREVIEW_BOARD_H), fill=PANEL_EDGE, width=2)
    # points per colour, and the cells of the placement at the right
    big = font(40, bold=True)
    small = font(24)
    where = f"{cell_label(tuple(cell_a), view['radius'])} {cell_label(tuple(cell_b), view['radius'])}"
    draw.text((PREVIEW_W - 24, PREVIEW_BOARD_H + 20 + 37), where, font=font(34, bold=True), fill=INK,
              anchor="rm")
    y = PREVIEW_BOARD_H + 20 + 37
    x = 30
    items = list(points.items())
    if not items or all(_gained(v) == 0 and _lost(v) == 0 for _, v in items):
        draw.text((PREVIEW_W / 2, y), words["nothing"], font=big, fill=MUTED, anchor="mm")
        return img
    for k, (colour, value) in enumerate(items):
        if k == 2:
            x, y = 30, y + 74
        draw_symbol(draw, colour, x + 24, y, 22)
        text = f"+{_gained(value)}"
        draw.text((x + 58, y), text, font=big, fill=INK, anchor="lm")
        x += 58 + draw.textlength(text, font=big) + 14
        extra = []
        if _lost(value):
            extra.append(f"−{_lost(value)} {words['lost']}")
        if isinstance(value, Mapping) and value.get("bonus"):
            extra.append(f"«{words['genial']}»")
        if extra:
            etext = ", ".join(extra)
            draw.text((x, y), etext, font=small, fill=LOW_MARK, anchor="lm")
            x += draw.textlength(etext, font=small) + 14
        x += 30
    return img


def _gained(value: Any) -> int:
    if isinstance(value, Mapping):
        return int(value.get("gained", value.get("raw", 0)))
    return int(value)


def _lost(value: Any) -> int:
    return int(value.get("lost", 0)) if isinstance(value, Mapping) else 0
