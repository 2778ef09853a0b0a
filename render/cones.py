"""Pictures of the cones game (Kabaleo): the table for the group and a goal card for a player.

Pure functions of an ``engines.cones.view`` dict. Every colour is drawn with its symbol
(render.common.SYMBOLS); names only through safe_text; at most 1280 px on the long side.

    table(view, *, words, names, highlight_pile=None) -> PIL.Image
    goal(colour, *, words) -> PIL.Image
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND, COLOURS, HIGHLIGHT, INK, MUTED, SYMBOLS, draw_shape, draw_symbol, fit, font,
    min_font, new_canvas, note_symbol, paste_box, paste_flat_shape, paste_flat_symbol, put_text,
    safe_text, text_width,
)

# The picture's words, in English (the msgids of its catalogue entries under "picture:cones"): the
# bot hands each function them in the reader's language, and the colours' names by colour.
# "per_colour" and "chips_left" say what the header's counts and a card's total are, as the
# Mini App does, in the room a phone has.
LABELS = {"removed": "removed", "goal": "goal", "your_goal": "Your goal",
          "piles": "piles", "with_chips": "with chips", "tallest": "tallest",
          "neutral": "nobody's", "turn": "turn", "place": "#{n}",
          "per_colour": "Piles by colour:", "chips_left": "chips left: {n}"}

MARGIN = 16
GAP = 10
CELL = 196  # pile cell's width
CELL_H = 216  # and height: taller than wide, for a tower of four legible chips (4 rows fit 1280 px)
HEADER_H = 64
CARD_HEAD = 60  # name row of a player card
CARD_LEFT = 40  # the row under it: how many chips the player has left
CARD_ROW = 50  # one row of chip counts
CARD_END_H = 252  # a card after the end (goal and figures)
CARD_GAP = 10
PANEL = (253, 251, 246)
GRID_LINE = (200, 192, 175)
TURN_BG = (255, 238, 176)
TEXT = min_font(6 * CELL + 5 * GAP + 2 * MARGIN)  # 35 px: 11 px at 400 px wide on the widest table
# Every symbol a player reads is as big as the text (11 px at 400 px wide on the widest table):
# a chip's colour and what lies under it decide where to play (a same colour removes both).
SYMBOL_R = TEXT / 2
BAND_H = TEXT + 5  # one chip in a tower: its symbol and a rim
BASE_H = BAND_H
BASE_W = 100
CHIP_W = 80  # the lowest chip; each one above is CHIP_STEP narrower
CHIP_STEP = 4
TOWER_X = 100  # the tower's axis from the cell's left: between the number box and the top symbol
TOWER_BOTTOM = CELL_H - 8
TOWER_ROOM = TOWER_BOTTOM - 6  # base and four bands, up to the cell's top


def _w(words: Mapping[str, str] | None) -> Mapping[str, str]:
    """The labels to draw: ``words`` where it has them, else English."""
    return {**LABELS, **words} if words else LABELS


def _mix(colour: tuple[int, int, int], other: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """``t`` of colour, ``1 - t`` of other."""
    return tuple(round(a * t + b * (1 - t)) for a, b in zip(colour, other))


@lru_cache(maxsize=32)
def _tint(name: str, t: float = 0.42) -> tuple[int, int, int]:
    return _mix(COLOURS[name], (255, 255, 255), t)


@lru_cache(maxsize=16)
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
        card_h = CARD_HEAD + CARD_LEFT + CARD_ROW * -(-colours // _per_row(colours)) + 8
    height = MARGIN + HEADER_H + rows * CELL_H + (rows - 1) * GAP + GAP * 2 + card_h + MARGIN
    return {"cols": cols, "rows": rows, "width": width, "height": height, "card_h": card_h,
            "grid_top": MARGIN + HEADER_H, "cards_top": height - MARGIN - card_h}


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


@lru_cache(maxsize=512)
def _band_tile(colour: str | None, w_bottom: int, w_top: int, h: int, r: float, bg,
               folded: int = 0) -> Image.Image:
    """One band of a tower (a chip, the base, or the fold of ``folded`` hidden chips when colour
    is None) on the cell's tint: an RGB rectangle to paste without a mask (bands never overlap)."""
    ss = 3
    img = Image.new("RGB", ((w_bottom + 2) * ss, h * ss), bg)
    draw = ImageDraw.Draw(img)
    cx, bottom = (w_bottom + 2) * ss / 2, h * ss - 1
    if colour is None:
        draw.rounded_rectangle((cx - w_top * ss / 2, 2 * ss, cx + w_top * ss / 2, bottom - ss), radius=6 * ss,
                               fill=(255, 255, 255), outline=INK, width=2 * ss)
    else:
        draw.polygon(_trapezoid(cx, bottom, w_bottom * ss, w_top * ss, (h - 1) * ss), fill=COLOURS[colour],
                     outline=INK, width=2 * ss)
        draw_shape(draw, SYMBOLS[colour], cx, bottom - (h - 1) * ss / 2, r * ss, fill=(255, 255, 255),
                   outline=INK, width=2 * ss)
    img = img.reduce(ss)
    if colour is None:  # "+k": k more chips below (the pile's height, in its corner, counts all)
        put_text(img, (img.width / 2, h / 2), f"+{folded}", TEXT, bold=True, anchor="mm")
    return img


def _tower(img: Image.Image, base: str, chips: Sequence[str], cx: float, bottom: float,
           room: float, bg) -> None:
    """A base (the widest band) with the chips stacked above, narrowing upwards.

    When the stack does not fit in ``room`` px, the bottom chips fold into a band "+k" (the
    pile's height, in its corner, still counts them): the top chips, which the next moves
    uncover, stay legible."""
    def put(colour, w_bottom, w_top, h, top, folded=0):
        tile = _band_tile(colour, int(w_bottom), int(w_top), h, SYMBOL_R, bg, folded)
        if colour is not None:
            note_symbol(2 * SYMBOL_R)
        img.paste(tile, (round(cx - tile.width / 2), round(top)))

    put(base, BASE_W, BASE_W - 8, BASE_H, bottom - BASE_H)
    y = bottom - BASE_H
    w = CHIP_W
    fit_n = max(1, int((room - BASE_H) // BAND_H))
    shown = list(chips)
    if len(shown) > fit_n:
        shown = shown[len(shown) - (fit_n - 1):]
        put(None, w, w - CHIP_STEP, BAND_H, y - BAND_H, len(chips) - len(shown))
        y -= BAND_H
        w -= CHIP_STEP
    for chip in shown:
        put(chip, w, w - CHIP_STEP, BAND_H, y - BAND_H)
        y -= BAND_H
        w -= CHIP_STEP


@lru_cache(maxsize=16)
def _pile_frame(top: str, lit: bool) -> Image.Image:
    """A pile's cell: tinted with its top colour, rimmed (yellow around the last move's pile),
    the top colour's symbol at the top right."""
    pad = 6 if lit else 0
    size = (CELL + 2 * pad, CELL_H + 2 * pad)
    img = Image.new("RGB", size, BACKGROUND)
    if lit:
        paste_box(img, (0, 0, *size), 18, HIGHLIGHT)
    paste_box(img, (pad, pad, pad + CELL, pad + CELL_H), 14, _tint(top), _dark(top), 3,
              bg=HIGHLIGHT if lit else BACKGROUND)
    paste_flat_symbol(img, top, pad + CELL - 32, pad + 31, 22, _tint(top))
    return img


@lru_cache(maxsize=160)
def _pile_number(number: int, top: str, lit: bool) -> Image.Image:
    """The pile's number in its white box (yellow for the last move's pile), on the cell's tint."""
    num = str(number)
    w = max(58, int(text_width(num, TEXT, True)) + 18)
    img = Image.new("RGB", (w, 48), _tint(top))
    paste_box(img, (0, 0, w, 48), 10, HIGHLIGHT if lit else (255, 255, 255), INK if lit else _dark(top),
              3 if lit else 2, bg=_tint(top))
    put_text(img, (w / 2, 24), num, TEXT, bold=True, anchor="mm")
    return img


def _pile(img: Image.Image, pile: dict[str, Any], x: int, y: int, lit: bool) -> None:
    top = pile["top"]
    pad = 6 if lit else 0
    img.paste(_pile_frame(top, lit), (x - pad, y - pad))
    # the tower, then the pile number (top-left) over it
    _tower(img, pile["base"], pile["chips"], x + TOWER_X, y + TOWER_BOTTOM, TOWER_ROOM, _tint(top))
    img.paste(_pile_number(pile["number"], top, lit), (x + 7, y + 7))
    # chip count, bottom-right (no number for a bare base)
    if pile["height"]:
        put_text(img, (x + CELL - 10, y + CELL_H - 10), str(pile["height"]), TEXT, bold=True, anchor="rs")


# ---------------------------------------------------------------- header and cards

def _header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int,
            words: Mapping[str, str]) -> None:
    x = MARGIN + 4
    cy = MARGIN + HEADER_H / 2 - 4
    undrawn = set(view.get("undrawn", ()))
    put_text(img, (x, cy), words["per_colour"], TEXT, fill=MUTED, anchor="lm")
    x += text_width(words["per_colour"], TEXT) + 14
    for colour in view["colours"]:
        paste_flat_symbol(img, colour, x + 18, cy, 18, BACKGROUND)
        n = view["piles_by_colour"][colour]
        put_text(img, (x + 42, cy), f"{n}", TEXT, bold=True, anchor="lm")
        if colour in undrawn:
            draw.line((x + 2, cy + 25, x + 70, cy + 25), fill=MUTED, width=3)
        x += 84
    right = width - MARGIN - 4
    text = f"{words['removed']}: {view['removed']}"
    put_text(img, (right, cy), text, TEXT, fill=MUTED, anchor="rm")
    xx = right - text_width(text, TEXT) - 30
    # At the end, the colours nobody drew, with their word, where there is room (they are
    # underlined above either way, and the results name them).
    if undrawn and xx - 42 * len(undrawn) - text_width(words["neutral"] + ":", TEXT) > x:
        for colour in sorted(undrawn, key=view["colours"].index, reverse=True):
            paste_flat_symbol(img, colour, xx - 18, cy, 18, BACKGROUND)
            xx -= 42
        put_text(img, (xx, cy), words["neutral"] + ":", TEXT, fill=MUTED, anchor="rm")


def _mini_tower(draw: ImageDraw.ImageDraw, right: float, bottom: float) -> None:
    """A small grey stack of chips: the icon beside a player's count of chips left."""
    cx = right - 14
    for i in range(3):
        w = 28 - i * 6
        draw.polygon(_trapezoid(cx, bottom - i * 9, w, w - 5, 8), fill=(225, 220, 208),
                     outline=MUTED, width=1)


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    pts = [(x, y + s), (x, y + s * 0.25), (x + s * 0.3, y + s * 0.6), (x + s * 0.5, y),
           (x + s * 0.7, y + s * 0.6), (x + s, y + s * 0.25), (x + s, y + s)]
    draw.polygon(pts, fill=HIGHLIGHT, outline=INK, width=2)


def _card(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, name: str,
          box: tuple[int, int, int, int], words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = box
    over = bool(view.get("over")) and "goals" in view
    active = view.get("to_move") == seat
    won = over and view["places"][seat] == 1
    fill = TURN_BG if active else PANEL
    paste_box(img, box, 14, fill, HIGHLIGHT if active or won else GRID_LINE, 6 if active or won else 2)
    hy = y0 + 31
    nx = x0 + 16
    if active:
        draw.polygon([(x0 + 15, hy - 13), (x0 + 15, hy + 13), (x0 + 35, hy)], fill=INK)
        nx = x0 + 42
    right = x1 - 66 if over else x1 - 16
    put_text(img, (nx, hy), fit(safe_text(name, 16), TEXT, right - nx, True), TEXT, bold=True, anchor="lm")
    if over:
        _card_result(img, draw, view, seat, (x0, y0, x1, y1), words)
        return
    left = view["supply_left"][seat]
    ly = y0 + CARD_HEAD + CARD_LEFT / 2 - 6
    _mini_tower(draw, x0 + 44, ly + 12)
    put_text(img, (x0 + 52, ly), fit(words["chips_left"].format(n=left), TEXT, x1 - x0 - 68), TEXT,
             fill=INK if left else MUTED, anchor="lm")
    colours = view["colours"]
    per_row = _per_row(len(colours))
    slot = (x1 - x0 - 20) / per_row
    supply = view["supplies"][seat]
    for i, colour in enumerate(colours):
        row, col = divmod(i, per_row)
        sx = x0 + 10 + col * slot
        sy = y0 + CARD_HEAD + CARD_LEFT + CARD_ROW / 2 + row * CARD_ROW
        item = _supply_item(colour, supply[colour], fill)
        img.paste(item, (round(sx), round(sy - item.height / 2)))


@lru_cache(maxsize=160)
def _supply_item(colour: str, n: int, bg) -> Image.Image:
    """"(symbol) ×n" of a player's chips of one colour; at zero an empty outline and a grey
    "×0" (grey that still reads: 4.5:1 on the card)."""
    img = Image.new("RGB", (max(92, 45 + int(text_width(f"×{n}", TEXT, True))), CARD_ROW), bg)
    cy = CARD_ROW / 2
    if n:
        paste_flat_symbol(img, colour, 20, cy, 18, bg)
        put_text(img, (41, cy), f"×{n}", TEXT, bold=True, anchor="lm")
    else:
        paste_flat_shape(img, SYMBOLS[colour], 20, cy, 18, None, bg, outline=MUTED, width=2)
        put_text(img, (41, cy), "×0", TEXT, fill=MUTED, anchor="lm")
    return img


def _card_result(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int,
                 box: tuple[int, int, int, int], words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = box
    goal_colour = view["goals"][seat]
    score = view["scores"][seat]
    place = view["places"][seat]
    won = place == 1
    gy = y0 + 96
    label = f"{words['goal']}:"
    put_text(img, (x0 + 16, gy), label, TEXT, fill=MUTED, anchor="lm")
    gx = x0 + 16 + text_width(label, TEXT) + 34
    paste_flat_symbol(img, goal_colour, gx, gy, 26, TURN_BG if view.get("to_move") == seat else PANEL,
                      width=3)
    put_text(img, (gx + 38, gy), str(score["piles"]), 48, bold=True, anchor="lm")
    for i, (key, word) in enumerate((("piles", "piles"), ("piles_with_chips", "with_chips"),
                                     ("tallest", "tallest"))):
        put_text(img, (x0 + 16, gy + 50 + i * 42), fit(f"{words[word]}: {score[key]}", TEXT, x1 - x0 - 28),
                 TEXT, fill=INK if i == 0 else MUTED, anchor="lm")
    if won:
        _crown(draw, x1 - 56, y0 + 12, 40)
    else:
        put_text(img, (x1 - 16, y0 + 31), words["place"].format(n=place), TEXT, bold=True, fill=MUTED,
                 anchor="rm")


# ---------------------------------------------------------------- public API

def table(view: dict[str, Any], *, words: Mapping[str, str] | None = None, names: Sequence[str] = (),
          highlight_pile: int | None = None) -> Image.Image:
    """The whole table: piles, colour counts, each player's chips, whose turn; ``words`` the
    labels (:data:`LABELS`) in the reader's language.

    ``highlight_pile`` marks one pile (default: the view's ``last_pile``, the previous move).
    After the end (the view has ``goals``) each card shows the goal, the figures and the place.
    """
    piles = view["piles"]
    players = view["players"]
    over = bool(view.get("over")) and "goals" in view
    lay = _layout(len(piles), len(view["colours"]), over)
    image, _ = new_canvas(lay["width"], lay["height"], BACKGROUND)
    draw = ImageDraw.Draw(image)
    lit = view.get("last_pile") if highlight_pile is None else highlight_pile
    words = _w(words)
    _header(image, draw, view, lay["width"], words)
    for i, pile in enumerate(piles):
        row, col = divmod(i, lay["cols"])
        x = MARGIN + col * (CELL + GAP)
        y = lay["grid_top"] + row * (CELL_H + GAP)
        _pile(image, pile, x, y, pile["number"] == lit)
    card_w = (lay["width"] - 2 * MARGIN - (players - 1) * CARD_GAP) / players
    for seat in range(players):
        name = names[seat] if seat < len(names) else f"{seat + 1}"
        x0 = round(MARGIN + seat * (card_w + CARD_GAP))
        box = (x0, lay["cards_top"], round(x0 + card_w), lay["cards_top"] + lay["card_h"])
        _card(image, draw, view, seat, name, box, words)
    return image


@lru_cache(maxsize=32)
def _goal_cached(colour: str, your_goal: str, name: str) -> Image.Image:
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
    draw.text((tx, 112), your_goal, font=font(34), fill=INK, anchor="lm")
    size = 46
    while size > 20 and draw.textlength(name, font=font(size, True)) > room:
        size -= 2
    draw.text((tx, 172), name, font=font(size, True), fill=_dark(colour), anchor="lm")
    return image


def goal(colour: str, *, words: Mapping[str, str] | None = None) -> Image.Image:
    """A small card showing a goal colour (for its owner's private message); ``words`` has
    the labels and the colour's name (by colour: English without it)."""
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}")
    words = _w(words)
    return _goal_cached(colour, words["your_goal"], words.get(colour, colour)).copy()
