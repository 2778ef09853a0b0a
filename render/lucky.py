"""The Totally Genial (lucky) table: centre, collection zone, reserve and every collection.

``table(view, *, words, names, last=None)`` draws the public view of engines.lucky (everything
is public in this game) as one picture, 1080 px wide and at most 1280 px tall. Every token is
its colour's symbol; an empty place in a collection shows the outline of the symbol it waits
for, so each column is labelled by its shape even when empty. The smallest text is 30 px
(11 px when the picture is shown 400 px wide).

Speed: the boxes that never change are a cached layer; tokens, panels and tints are cached
antialiased tiles pasted without masks; text comes from render.common's mask cache.
"""
from __future__ import annotations

from dataclasses import asdict, is_dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    COLOURS,
    GRID,
    HIGHLIGHT,
    INK,
    MUTED,
    SYMBOLS,
    draw_shape,
    encode_png,
    fit,
    min_font,
    mix,
    paste_box,
    paste_flat_shape,
    paste_flat_symbol,
    paste_symbol,
    put_text,
    safe_text,
    text_width,
)

ORDER = ("red", "orange", "yellow", "green", "blue", "purple")
WIDTH = 1080
MAX_HEIGHT = 1280
TEXT = min_font(WIDTH)  # 30 px: the smallest text (11 px at 400 px wide)
GHOST_R = TEXT / 2  # an empty place's symbol is smaller than a token, but as legible as the text

PANEL = (253, 251, 246)
PANEL_TURN = (255, 246, 214)
BOX = (238, 231, 214)
BOX_BANK = (255, 240, 200)
DONE_TINT = (214, 236, 208)
DONE_INK = (30, 118, 46)  # text colours: 4.5:1 (WCAG) on the panels and tints they sit on
WEAK_TINT = (250, 220, 212)
WEAK_INK = (176, 44, 36)
BUST_INK = (180, 30, 30)
FACE_DOWN = (120, 104, 88)

# The picture's words, in English (the msgids of their catalogue entries under "picture:lucky"):
# the bot hands :func:`table` them in the reader's language.
LABELS = {"centre": "Centre", "zone": "Zone", "reserve": "Reserve", "turn": "Turn", "bonus": "bonus turn",
          "over": "Game over", "take": "may take", "bank": "bank", "bust": "bust", "min": "weakest",
          "reserve_empty": "reserve empty", "stall": "no progress"}


def _events(last: Any) -> list[dict[str, Any]]:
    """Events as dicts ({"kind": ..., fields}) whether given as dataclasses or event_dicts."""
    out = []
    for e in last or []:
        if isinstance(e, dict):
            out.append(e)
        elif is_dataclass(e):
            out.append({"kind": type(e).__name__, **asdict(e)})
    return out


def _token(img: Image.Image, colour: str, cx: float, cy: float, r: float, bg) -> None:
    paste_flat_symbol(img, colour, cx, cy, r, bg, width=max(2, round(r / 9)))


def _ghost(img: Image.Image, colour: str, cx: float, cy: float, r: float, bg, outline=None) -> None:
    """The outline of a colour's symbol: an empty place waiting for that colour."""
    edge = COLOURS[colour] if colour not in ("yellow", "white") else mix(COLOURS[colour], INK, 0.7)
    paste_flat_shape(img, SYMBOLS[colour], cx, cy, r, mix(COLOURS[colour], bg, 0.16), bg,
                     outline=outline or mix(edge, bg, 0.7), width=max(2, round(r / 10)))


# ---------------------------------------------------------------------------- layout

PAD = 14
TOP = 64                                   # status bar
CENTRE = (PAD, TOP, WIDTH - PAD, TOP + 200)
ZONE = (PAD, CENTRE[3] + PAD, 720, CENTRE[3] + PAD + 112)
RESERVE = (ZONE[2] + PAD, ZONE[1], WIDTH - PAD, ZONE[3])
PANELS_TOP = ZONE[3] + PAD


@lru_cache(maxsize=16)
def _layout(players: int, target: int) -> dict[str, Any]:
    """Panel rectangles and sizes for a player count and target (pixels).

    Two panels a row (a third one centred below): each column of tokens is wide enough for
    its count in a legible size."""
    cols = 1 if players == 1 else 2
    rows = (players + cols - 1) // cols
    panel_w = (WIDTH - PAD * (cols + 1)) / cols
    col_w = (panel_w - 2 * PAD) / 6
    head_h = 58
    foot_h = 44
    room = (MAX_HEIGHT - PANELS_TOP - rows * PAD) / rows - head_h - foot_h - 10
    slot_h = min(52, int(room / target))
    panel_h = head_h + target * slot_h + foot_h + 10
    panels = []
    for seat in range(players):
        r, c = divmod(seat, cols)
        in_row = min(cols, players - r * cols)
        x = PAD + c * (panel_w + PAD) + (cols - in_row) * (panel_w + PAD) / 2
        y = PANELS_TOP + r * (panel_h + PAD)
        panels.append((round(x), round(y), round(x + panel_w), round(y + panel_h)))
    height = int(PANELS_TOP + rows * (panel_h + PAD))
    return {"panels": panels, "col_w": col_w, "slot_h": slot_h, "head_h": head_h,
            "height": min(height, MAX_HEIGHT)}


# ---------------------------------------------------------------------------- parts


def _name(names: Sequence[str], seat: int) -> str:
    raw = names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"
    return safe_text(str(raw), 14)


def _status(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names: Sequence[str],
            words: Mapping[str, str]) -> None:
    cur = view.get("current")
    y = TOP / 2
    size = TEXT + 2
    if view.get("over"):
        winners = view.get("winners") or []
        text = words["over"]
        reason = view.get("reason")
        if reason in ("reserve_empty", "stall"):
            text += f" · {words[reason]}"
        put_text(img, (PAD + 4, y), text, size, bold=True, anchor="lm")
        if winners:
            who = ", ".join(_name(names, s) for s in winners)
            room = WIDTH - 2 * PAD - 40 - text_width(text, size, True)
            put_text(img, (WIDTH - PAD - 4, y), fit(f"1: {who}", size, room, True), size, bold=True,
                     anchor="rm")
        return
    if cur is None:
        return
    label = f"{words['turn']}: "
    put_text(img, (PAD + 4, y), label, size, fill=MUTED, anchor="lm")
    x = PAD + 4 + text_width(label, size)
    name = _name(names, cur)
    put_text(img, (x, y), name, size, bold=True, anchor="lm")
    x += text_width(name, size, True) + 16
    if view.get("bonus"):
        tag = words["bonus"]
        if view.get("bonus_pending"):
            tag += f" (+{view['bonus_pending']})"
        tw = text_width(tag, TEXT, True)
        draw.rounded_rectangle((x, y - 22, x + tw + 62, y + 22), radius=22, fill=HIGHLIGHT)
        draw_shape(draw, "star", x + 24, y, 14, fill=INK, outline=INK, width=1)
        put_text(img, (x + 46, y), tag, TEXT, bold=True, anchor="lm")


def _centre(img: Image.Image, view: dict, words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = CENTRE
    put_text(img, (x1 - 16, y0 + 10), str(view.get("centre_total", 0)), TEXT, fill=MUTED, anchor="ra")
    centre = view.get("centre", {})
    zone = set(view.get("zone") or [])
    slot_w = (x1 - x0 - 24) / 6
    pile_mid = (y0 + 44 + y1 - 50) / 2
    for i, colour in enumerate(ORDER):
        n = int(centre.get(colour, 0))
        cx = x0 + 12 + slot_w * (i + 0.5)
        bg = BOX
        if colour in zone:  # what a bank would collect (and a conflict risk)
            bg = BOX_BANK
            paste_box(img, (cx - slot_w / 2 + 4, y0 + 42, cx + slot_w / 2 - 4, y1 - 8), 14, BOX_BANK,
                      HIGHLIGHT, 3, bg=BOX)
        if n == 0:
            _ghost(img, colour, cx, pile_mid, 28, bg, outline=GRID)
            put_text(img, (cx, y1 - 30), "0", TEXT + 4, fill=MUTED, bold=True, anchor="mm")
            continue
        # a pile of up to 8 tokens, 4 per row, bottom row first; more shown as "+k"
        extra = n - 7 if n > 8 else 0
        shown = 7 if extra else n
        rows = 1 if shown + (1 if extra else 0) <= 4 else 2
        r, step = (22, 46) if shown <= 3 else (18, 37)
        bottom = pile_mid + step * (rows - 1) / 2
        for k in range(shown + (1 if extra else 0)):
            row, colk = divmod(k, 4)
            in_row = min(4, shown + (1 if extra else 0) - row * 4)
            tx = cx + (colk - (in_row - 1) / 2) * step
            ty = bottom - row * step
            if k == shown:
                put_text(img, (tx, ty), f"+{extra}", TEXT, bold=True, anchor="mm")
            else:  # tokens of a pile overlap their neighbours' squares: blend, not flat
                paste_symbol(img, colour, tx, ty, r, width=max(2, round(r / 9)))
        put_text(img, (cx, y1 - 30), str(n), TEXT + 4, bold=True, anchor="mm")


def _zone(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, words: Mapping[str, str], events: list[dict],
          names: Sequence[str]) -> None:
    x0, y0, x1, y1 = ZONE
    zone = list(view.get("zone") or [])
    bust = None
    for e in events:
        if e.get("kind") == "Drew" and str(e.get("result", "")).startswith("bust"):
            bust = e
    showing_bust = not zone and bust is not None
    can_bank = bool(view.get("can_bank"))
    bg = BOX_BANK if can_bank else BOX
    paste_box(img, ZONE, 16, bg, HIGHLIGHT if can_bank else None, 3)
    put_text(img, (x0 + 16, y0 + 10), words["zone"], TEXT, bold=True)
    tokens = zone if zone else list(bust.get("zone") or []) if showing_bust else []
    r = 24
    step = 58
    cy = y0 + 76
    if tokens:
        for k, colour in enumerate(tokens):
            if colour in COLOURS:
                _token(img, colour, x0 + 16 + r + k * step, cy, r, bg)
        if showing_bust:
            _cross(draw, x0 + 16 + r + (len(tokens) - 1) * step, cy, r + 4)
            put_text(img, (x1 - 16, cy), words["bust"], TEXT + 2, fill=BUST_INK, bold=True, anchor="rm")
            seat = bust.get("seat")
            if isinstance(seat, int):
                name = fit(_name(names, seat), TEXT, x1 - x0 - 60 - text_width(words["zone"], TEXT, True))
                put_text(img, (x1 - 16, y0 + 10), name, TEXT, fill=MUTED, anchor="ra")
        elif can_bank:
            centre = view.get("centre", {})
            gain = len(zone) + sum(int(centre.get(c, 0)) for c in set(zone))
            put_text(img, (x1 - 16, cy), f"+{gain}", 36, bold=True, anchor="rm")
            put_text(img, (x1 - 16, y0 + 10), words["bank"], TEXT, fill=MUTED, anchor="ra")
    elif view.get("take"):
        label = words["take"]
        put_text(img, (x0 + 16, cy), label, TEXT, anchor="lm")
        _token(img, view["take"], x0 + 16 + text_width(label, TEXT) + 14 + r, cy, r, bg)
    else:
        put_text(img, (x0 + 16, cy), "—", TEXT, fill=MUTED, anchor="lm")


def _cross(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill=BUST_INK) -> None:
    w = max(4, round(r / 4))
    draw.line((cx - r, cy - r, cx + r, cy + r), fill=fill, width=w)
    draw.line((cx - r, cy + r, cx + r, cy - r), fill=fill, width=w)


def _reserve(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = RESERVE
    cy = (y0 + y1) / 2
    n = int(view.get("reserve", 0))
    right = x1 - 16
    put_text(img, (right, cy), str(n), TEXT + 4, bold=True, anchor="rm")
    w = text_width(str(n), TEXT + 4, True)
    for k in range(3 if n >= 3 else n):
        cx, ccy, r = right - w - 26 - k * 8, cy + k * -3, 18
        draw.ellipse((cx - r, ccy - r, cx + r, ccy + r), fill=FACE_DOWN, outline=INK, width=2)
        ri = r * 0.62
        draw.ellipse((cx - ri, ccy - ri, cx + ri, ccy + ri), outline=(170, 152, 132), width=2)


def _check(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill=DONE_INK) -> None:
    pts = [(cx - size * 0.5, cy), (cx - size * 0.12, cy + size * 0.38), (cx + size * 0.55, cy - size * 0.4)]
    draw.line(pts, fill=fill, width=max(3, round(size / 5)), joint="curve")


def _panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, seat: int, box, lay: dict,
           names: Sequence[str], words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = box
    target = int(view.get("target", 5))
    col = (view.get("collections") or [{}])[seat]
    completed = set((view.get("completed") or [[]] * (seat + 1))[seat])
    weakest = set((view.get("weakest") or [[]] * (seat + 1))[seat])
    over = bool(view.get("over"))
    is_turn = view.get("current") == seat and not over
    places = view.get("places")
    winner = over and places is not None and places[seat] == 1
    bg = PANEL_TURN if is_turn else PANEL
    paste_box(img, box, 18, bg, HIGHLIGHT if is_turn or winner else GRID, 6 if is_turn or winner else 2)
    head = lay["head_h"]
    hy = y0 + head / 2 + 2
    # header: (place) name ... weakest count
    x = x0 + 18
    if over and places is not None:
        place = places[seat]
        draw.ellipse((x, hy - 18, x + 36, hy + 18), fill=HIGHLIGHT if place == 1 else GRID)
        put_text(img, (x + 18, hy), str(place), TEXT, bold=True, anchor="mm")
        x += 46
    elif is_turn:
        draw.polygon([(x, hy - 13), (x + 21, hy), (x, hy + 13)], fill=INK)
        x += 30
    points = view.get("points")
    pts = points[seat] if points else min(int(col.get(c, 0)) for c in ORDER)
    right_text = f"{words['min']} {pts}/{target}"
    rw = text_width(right_text, TEXT, True)
    put_text(img, (x1 - 18, hy), right_text, TEXT, fill=MUTED if pts < target else DONE_INK, bold=True,
             anchor="rm")
    put_text(img, (x, hy), fit(_name(names, seat), TEXT + 2, x1 - 30 - rw - x, True), TEXT + 2, bold=True,
             anchor="lm")
    # six columns of tokens against the target; an empty place shows the symbol it waits for
    col_w, slot_h = lay["col_w"], lay["slot_h"]
    r = min(col_w * 0.36, slot_h * 0.42)
    body_top = y0 + head
    body_bot = body_top + target * slot_h
    for i, colour in enumerate(ORDER):
        n = int(col.get(colour, 0))
        cx = x0 + 14 + col_w * (i + 0.5)
        bx0, bx1 = cx - col_w / 2 + 3, cx + col_w / 2 - 3
        done = colour in completed
        weak = colour in weakest and not done
        cbg = bg
        if done:
            cbg = DONE_TINT
            paste_box(img, (bx0, body_top - 4, bx1, body_bot + 40), 12, DONE_TINT, bg=bg)
        elif weak:
            cbg = WEAK_TINT
            paste_box(img, (bx0, body_top - 4, bx1, body_bot + 40), 12, WEAK_TINT, WEAK_INK, 2, bg=bg)
        strip = _column(colour, n, target, slot_h, round(r, 1), cbg)
        img.paste(strip, (round(cx - strip.width / 2), round(body_top)))
        label_y = body_bot + 19
        if done:
            _check(draw, cx, label_y, 24)
        else:
            put_text(img, (cx, label_y), str(n), TEXT, bold=True, fill=WEAK_INK if weak else INK, anchor="mm")


def _column(colour: str, n: int, target: int, slot_h: int, r: float, bg) -> Image.Image:
    """One colour of a collection: ``n`` tokens from the bottom, the other places waiting (the
    symbol's outline), on ``bg``; as narrow as a token, so it pastes inside a tinted column.
    Not cached: in a busy bot every table's columns differ, and a cache of them held 15 MB to
    save 0.4 ms a table."""
    half = int(r) + 5
    strip = Image.new("RGB", (2 * half, target * slot_h), bg)
    for k in range(target):
        cy = target * slot_h - slot_h * (k + 0.5)
        if k < n:
            _token(strip, colour, half, cy, r, bg)
        else:
            _ghost(strip, colour, half, cy, max(r * 0.8, GHOST_R), bg)
    return strip


def _static(players: int, target: int, words: Mapping[str, str]) -> Image.Image:
    """What never changes for a table size: background, centre and reserve boxes (drawn each
    time: as cheap as copying a kept layer, and 5 MB less to keep per size and language)."""
    img = Image.new("RGB", (WIDTH, _layout(players, target)["height"]), BACKGROUND)
    paste_box(img, CENTRE, 16, BOX)
    put_text(img, (CENTRE[0] + 16, CENTRE[1] + 10), words["centre"], TEXT, bold=True)
    paste_box(img, RESERVE, 16, BOX)
    put_text(img, (RESERVE[0] + 16, (RESERVE[1] + RESERVE[3]) / 2), words["reserve"], TEXT, bold=True,
             anchor="lm")
    return img


def _board(view: dict, names: Sequence[str], words: Mapping[str, str], events: list[dict]) -> Image.Image:
    players = int(view.get("players") or len(view.get("collections") or []) or 2)
    target = int(view.get("target", 5))
    lay = _layout(players, target)
    img = _static(players, target, words)
    draw = ImageDraw.Draw(img)
    _status(img, draw, view, names, words)
    _centre(img, view, words)
    _zone(img, draw, view, words, events, names)
    _reserve(img, draw, view, words)
    for seat, box in enumerate(lay["panels"]):
        _panel(img, draw, view, seat, box, lay, names, words)
    return img


def table(view: dict, *, words: Mapping[str, str] | None = None, names: Sequence[str] = (),
          last: Any = None) -> Image.Image:
    """The whole table as an image (1080 px wide, at most 1280 px tall).

    view: engines.lucky.view(state, None). names: player names by seat (drawn through
    safe_text). last: the events of the last action (dataclasses or event_dict dicts); a bust
    among them shows the busted tokens in the zone box. words: the labels (:data:`LABELS`) in
    the reader's language (English where it has none).
    """
    return _board(view, list(names), {**LABELS, **words} if words else LABELS, _events(last))


def table_png(view: dict, *, words: Mapping[str, str] | None = None, names: Sequence[str] = (),
              last: Any = None) -> bytes:
    """:func:`table` encoded as PNG bytes."""
    return encode_png(table(view, words=words, names=names, last=last))
