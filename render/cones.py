"""Pictures of the cones game (Kabaleo): the table for the group and a goal card for a player.

Pure functions of an ``engines.cones.view`` dict. Every colour is drawn with its symbol
(render.common.SYMBOLS); names only through safe_text; at most 1280 px on the long side.

    table(view, *, lang, names, highlight_pile=None) -> PIL.Image
    goal(colour, *, lang) -> PIL.Image
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND, COLOURS, HIGHLIGHT, INK, MUTED, SYMBOLS, draw_shape, draw_symbol, font,
    new_canvas, safe_text,
)

WORDS = {
    "en": {"removed": "removed", "goal": "goal", "your_goal": "Your goal",
           "piles": "piles", "with_chips": "with chips", "tallest": "tallest",
           "neutral": "nobody's", "turn": "turn", "place": "#{n}"},
    "ru": {"removed": "убрано", "goal": "цель", "your_goal": "Ваша цель",
           "piles": "башни", "with_chips": "с фишками", "tallest": "высота",
           "neutral": "ничьи", "turn": "ход", "place": "#{n}"},
}
COLOUR_NAMES = {
    "en": {"orange": "orange", "yellow": "yellow", "green": "green", "blue": "blue",
           "purple": "purple", "pink": "pink", "red": "red", "white": "white", "black": "black"},
    "ru": {"orange": "оранжевый", "yellow": "жёлтый", "green": "зелёный", "blue": "синий",
           "purple": "фиолетовый", "pink": "розовый", "red": "красный", "white": "белый",
           "black": "чёрный"},
}

MARGIN = 16
GAP = 10
CELL = 196  # pile cell, square
HEADER_H = 64
CARD_HEAD = 58  # name row of a player card
CARD_ROW = 52  # one row of chip counts
CARD_END_H = 150  # a card after the end (goal and figures)
CARD_GAP = 10
PANEL = (253, 251, 246)
GRID_LINE = (200, 192, 175)
TURN_BG = (255, 238, 176)
BAND_H = 26  # one chip in a tower
BASE_H = 40
BASE_W = 136
CHIP_W = 110  # the lowest chip; each one above is CHIP_STEP narrower
CHIP_STEP = 8


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _mix(colour: tuple[int, int, int], other: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """``t`` of colour, ``1 - t`` of other."""
    return tuple(round(a * t + b * (1 - t)) for a, b in zip(colour, other))


def _tint(name: str, t: float = 0.42) -> tuple[int, int, int]:
    return _mix(COLOURS[name], (255, 255, 255), t)


def _dark(name: str) -> tuple[int, int, int]:
    if name in ("white", "yellow"):
        return _mix(COLOURS[name], INK, 0.55)
    return _mix(COLOURS[name], INK, 0.7)


def _per_row(colours: int) -> int:
    return 3 if colours > 4 else colours


def _layout(piles: int, colours: int, over: bool) -> dict[str, int]:
    cols = max(4, (piles + 3) // 4)
    rows = (piles + cols - 1) // cols
    grid_w = cols * CELL + (cols - 1) * GAP
    width = grid_w + 2 * MARGIN
    if over:
        card_h = CARD_END_H
    else:
        card_h = CARD_HEAD + CARD_ROW * -(-colours // _per_row(colours)) + 6
    height = MARGIN + HEADER_H + rows * CELL + (rows - 1) * GAP + GAP * 2 + card_h + MARGIN
    return {"cols": cols, "rows": rows, "width": width, "height": height, "card_h": card_h,
            "grid_top": MARGIN + HEADER_H, "cards_top": height - MARGIN - card_h}


@lru_cache(maxsize=16)
def _empty(width: int, height: int) -> Image.Image:
    """The static background layer (cached)."""
    image, _ = new_canvas(width, height, BACKGROUND)
    return image


# ---------------------------------------------------------------- towers

def _trapezoid(cx: float, bottom: float, w_bottom: float, w_top: float, h: float):
    return [(cx - w_bottom / 2, bottom), (cx + w_bottom / 2, bottom),
            (cx + w_top / 2, bottom - h), (cx - w_top / 2, bottom - h)]


def _band(draw: ImageDraw.ImageDraw, colour: str, cx: float, bottom: float, w_bottom: float,
          w_top: float, h: float, r: float) -> None:
    draw.polygon(_trapezoid(cx, bottom, w_bottom, w_top, h), fill=COLOURS[colour], outline=INK,
                 width=2)
    draw_shape(draw, SYMBOLS[colour], cx, bottom - h / 2, r, fill=(255, 255, 255), outline=INK,
               width=1)


def _tower(draw: ImageDraw.ImageDraw, base: str, chips: Sequence[str], cx: float, bottom: float,
           room: float) -> None:
    """A base (wide, tall band) with the chips stacked above, narrowing upwards.

    When the stack does not fit in ``room`` px, the bottom chips fold into a "+k" band.
    """
    _band(draw, base, cx, bottom, BASE_W, BASE_W - 14, BASE_H, 14)
    y = bottom - BASE_H
    w = CHIP_W
    fit = max(1, int((room - BASE_H) // BAND_H))
    shown = list(chips)
    hidden = 0
    if len(shown) > fit:
        hidden = len(shown) - (fit - 1)
        shown = shown[hidden:]
        draw.rounded_rectangle((cx - w / 2, y - BAND_H + 2, cx + w / 2, y - 1), radius=6,
                               fill=(255, 255, 255), outline=INK, width=2)
        draw.text((cx, y - BAND_H / 2), f"+{hidden}", font=font(20, True), fill=INK, anchor="mm")
        y -= BAND_H
        w -= CHIP_STEP
    for chip in shown:
        _band(draw, chip, cx, y, w, w - CHIP_STEP, BAND_H, 10)
        y -= BAND_H
        w -= CHIP_STEP


def _pile(draw: ImageDraw.ImageDraw, pile: dict[str, Any], x: int, y: int, lit: bool) -> None:
    top = pile["top"]
    if lit:
        draw.rounded_rectangle((x - 6, y - 6, x + CELL + 6, y + CELL + 6), radius=18,
                               fill=HIGHLIGHT)
    draw.rounded_rectangle((x, y, x + CELL, y + CELL), radius=14, fill=_tint(top),
                           outline=_dark(top), width=3)
    # pile number, top-left, always legible
    num = str(pile["number"])
    draw.rounded_rectangle((x + 7, y + 7, x + 54, y + 44), radius=9,
                           fill=HIGHLIGHT if lit else (255, 255, 255),
                           outline=INK if lit else _dark(top), width=3 if lit else 2)
    draw.text((x + 30.5, y + 26), num, font=font(26, True), fill=INK, anchor="mm")
    # the pile's colour, big, top-right
    draw_symbol(draw, top, x + CELL - 30, y + 30, 21, width=2)
    # chip count, bottom-right (no number for a bare base)
    _tower(draw, pile["base"], pile["chips"], x + CELL / 2 - 6, y + CELL - 10, CELL - 20)
    if pile["height"]:
        draw.text((x + CELL - 8, y + CELL - 10), str(pile["height"]), font=font(24, True),
                  fill=INK, anchor="rs")


# ---------------------------------------------------------------- header and cards

def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int, lang: str) -> None:
    words = _w(lang)
    x = MARGIN + 4
    cy = MARGIN + HEADER_H / 2 - 4
    undrawn = set(view.get("undrawn", ()))
    for colour in view["colours"]:
        draw_symbol(draw, colour, x + 18, cy, 18)
        n = view["piles_by_colour"][colour]
        draw.text((x + 42, cy), f"{n}", font=font(30, True), fill=INK, anchor="lm")
        if colour in undrawn:
            draw.line((x + 2, cy + 24, x + 78, cy + 24), fill=MUTED, width=3)
        x += 100
    right = width - MARGIN - 4
    text = f"{words['removed']}: {view['removed']}"
    draw.text((right, cy), text, font=font(24), fill=MUTED, anchor="rm")
    if undrawn:
        tw = draw.textlength(text, font=font(24))
        xx = right - tw - 30
        for colour in sorted(undrawn, key=view["colours"].index, reverse=True):
            draw_symbol(draw, colour, xx - 14, cy, 14)
            xx -= 36
        draw.text((xx, cy), words["neutral"] + ":", font=font(24), fill=MUTED, anchor="rm")


def _mini_tower(draw: ImageDraw.ImageDraw, right: float, bottom: float) -> None:
    """A small grey stack of chips: the icon beside a player's count of chips left."""
    cx = right - 12
    for i in range(3):
        w = 24 - i * 5
        draw.polygon(_trapezoid(cx, bottom - i * 8, w, w - 4, 7), fill=(225, 220, 208),
                     outline=MUTED, width=1)


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    pts = [(x, y + s), (x, y + s * 0.25), (x + s * 0.3, y + s * 0.6), (x + s * 0.5, y),
           (x + s * 0.7, y + s * 0.6), (x + s, y + s * 0.25), (x + s, y + s)]
    draw.polygon(pts, fill=HIGHLIGHT, outline=INK, width=2)


def _card(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, name: str,
          box: tuple[int, int, int, int], lang: str) -> None:
    words = _w(lang)
    x0, y0, x1, y1 = box
    over = bool(view.get("over")) and "goals" in view
    active = view.get("to_move") == seat
    won = over and view["places"][seat] == 1
    draw.rounded_rectangle(box, radius=14, fill=TURN_BG if active else PANEL,
                           outline=HIGHLIGHT if active or won else GRID_LINE,
                           width=6 if active or won else 2)
    nx = x0 + 16
    if active:
        draw.polygon([(x0 + 14, y0 + 16), (x0 + 14, y0 + 42), (x0 + 34, y0 + 29)], fill=INK)
        nx = x0 + 42
    name_font = font(28, True)
    label = safe_text(name, 16)
    max_w = x1 - nx - 96
    while draw.textlength(label, font=name_font) > max_w and len(label) > 2:
        label = label[:-2] + "…"
    draw.text((nx, y0 + 29), label, font=name_font, fill=INK, anchor="lm")
    if over:
        _card_result(draw, view, seat, (x0, y0, x1, y1), words)
        return
    left = view["supply_left"][seat]
    draw.text((x1 - 16, y0 + 29), str(left), font=font(28, True),
              fill=INK if left else MUTED, anchor="rm")
    _mini_tower(draw, x1 - 30 - draw.textlength(str(left), font=font(28, True)), y0 + 40)
    colours = view["colours"]
    per_row = _per_row(len(colours))
    slot = (x1 - x0 - 24) / per_row
    supply = view["supplies"][seat]
    for i, colour in enumerate(colours):
        row, col = divmod(i, per_row)
        sx = x0 + 12 + col * slot
        sy = y0 + CARD_HEAD + CARD_ROW / 2 + row * CARD_ROW
        n = supply[colour]
        if n:
            draw_symbol(draw, colour, sx + 24, sy, 19)
            draw.text((sx + 50, sy), f"×{n}", font=font(28, True), fill=INK, anchor="lm")
        else:
            draw_shape(draw, SYMBOLS[colour], sx + 24, sy, 19, fill=None, outline=GRID_LINE, width=2)
            draw.text((sx + 50, sy), "×0", font=font(28), fill=GRID_LINE, anchor="lm")


def _card_result(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int,
                 box: tuple[int, int, int, int], words: dict[str, str]) -> None:
    x0, y0, x1, y1 = box
    goal_colour = view["goals"][seat]
    score = view["scores"][seat]
    place = view["places"][seat]
    gy = y0 + 92
    draw.text((x0 + 16, gy - 30), words["goal"], font=font(20), fill=MUTED, anchor="lm")
    draw_symbol(draw, goal_colour, x0 + 44, gy + 12, 27, width=3)
    draw.text((x0 + 86, gy + 12), str(score["piles"]), font=font(48, True), fill=INK, anchor="lm")
    fx = x0 + 150
    small = font(19)
    for i, (key, word) in enumerate((("piles", "piles"), ("piles_with_chips", "with_chips"),
                                     ("tallest", "tallest"))):
        draw.text((fx, gy - 24 + i * 26), f"{words[word]}: {score[key]}", font=small,
                  fill=INK if i == 0 else MUTED, anchor="lm")
    if place == 1:
        _crown(draw, x1 - 54, y0 + 12, 38)
    else:
        draw.text((x1 - 16, y0 + 29), words["place"].format(n=place), font=font(30, True),
                  fill=MUTED, anchor="rm")


# ---------------------------------------------------------------- public API

def table(view: dict[str, Any], *, lang: str = "en", names: Sequence[str] = (),
          highlight_pile: int | None = None) -> Image.Image:
    """The whole table: piles, colour counts, each player's chips, whose turn.

    ``highlight_pile`` marks one pile (default: the view's ``last_pile``, the previous move).
    After the end (the view has ``goals``) each card shows the goal, the figures and the place.
    """
    piles = view["piles"]
    players = view["players"]
    over = bool(view.get("over")) and "goals" in view
    lay = _layout(len(piles), len(view["colours"]), over)
    image = _empty(lay["width"], lay["height"]).copy()
    draw = ImageDraw.Draw(image)
    lit = view.get("last_pile") if highlight_pile is None else highlight_pile
    _header(draw, view, lay["width"], lang)
    for i, pile in enumerate(piles):
        row, col = divmod(i, lay["cols"])
        x = MARGIN + col * (CELL + GAP)
        y = lay["grid_top"] + row * (CELL + GAP)
        _pile(draw, pile, x, y, pile["number"] == lit)
    card_w = (lay["width"] - 2 * MARGIN - (players - 1) * CARD_GAP) / players
    for seat in range(players):
        name = names[seat] if seat < len(names) else f"{seat + 1}"
        x0 = round(MARGIN + seat * (card_w + CARD_GAP))
        box = (x0, lay["cards_top"], round(x0 + card_w), lay["cards_top"] + lay["card_h"])
        _card(draw, view, seat, name, box, lang)
    return image


@lru_cache(maxsize=32)
def _goal_cached(colour: str, lang: str) -> Image.Image:
    words = _w(lang)
    width, height = 520, 300
    image, draw = new_canvas(width, height, BACKGROUND)
    draw.rounded_rectangle((8, 8, width - 8, height - 8), radius=22, fill=_tint(colour, 0.35),
                           outline=_dark(colour), width=5)
    # a goal cone: a tall cone in the colour with its symbol on a white disc
    cx, bottom = 122, 264
    draw.polygon([(cx - 80, bottom), (cx + 80, bottom), (cx + 18, bottom - 220),
                  (cx - 18, bottom - 220)], fill=COLOURS[colour], outline=INK, width=3)
    draw.ellipse((cx - 50, bottom - 154, cx + 50, bottom - 54), fill=(255, 255, 255),
                 outline=INK, width=2)
    draw_symbol(draw, colour, cx, bottom - 104, 38, width=3)
    tx, room = 236, width - 236 - 26
    draw.text((tx, 112), words["your_goal"], font=font(34), fill=INK, anchor="lm")
    name = COLOUR_NAMES.get(lang, COLOUR_NAMES["en"]).get(colour, colour)
    size = 46
    while size > 20 and draw.textlength(name, font=font(size, True)) > room:
        size -= 2
    draw.text((tx, 172), name, font=font(size, True), fill=_dark(colour), anchor="lm")
    return image


def goal(colour: str, *, lang: str = "en") -> Image.Image:
    """A small card showing a goal colour (for its owner's private message)."""
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}")
    return _goal_cached(colour, lang).copy()
