"""The «Совершенно гениально» table: centre, collection zone, reserve and every collection.

``table(view, *, lang, names, last=None)`` draws the public view of engines.lucky (everything
is public in this game) as one picture, 1080 px wide and at most 1280 px tall. It is drawn at
twice the size and scaled down once, so the token symbols come out smooth.
"""
from __future__ import annotations

from dataclasses import asdict, is_dataclass
from functools import lru_cache
from typing import Any, Sequence

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
    draw_symbol,
    encode_png,
    font,
    safe_text,
)

ORDER = ("red", "orange", "yellow", "green", "blue", "purple")
WIDTH = 1080
MAX_HEIGHT = 1280
SS = 2  # supersampling factor

PANEL = (253, 251, 246)
PANEL_TURN = (255, 246, 214)
BOX = (238, 231, 214)
DONE_TINT = (214, 236, 208)
DONE_INK = (46, 140, 60)
WEAK_TINT = (250, 220, 212)
WEAK_INK = (200, 60, 50)
BUST_INK = (200, 40, 40)
FACE_DOWN = (120, 104, 88)

WORDS = {
    "centre": {"ru": "Центр", "en": "Centre"},
    "zone": {"ru": "Зона сбора", "en": "Zone"},
    "reserve": {"ru": "Резерв", "en": "Reserve"},
    "turn": {"ru": "Ход", "en": "Turn"},
    "bonus": {"ru": "призовой ход", "en": "bonus turn"},
    "more": {"ru": "ещё", "en": "more"},
    "over": {"ru": "Игра окончена", "en": "Game over"},
    "take": {"ru": "можно взять", "en": "may take"},
    "bank": {"ru": "забрать", "en": "bank"},
    "bust": {"ru": "осечка", "en": "bust"},
    "empty": {"ru": "пусто", "en": "empty"},
    "min": {"ru": "мин", "en": "min"},
    "target": {"ru": "цель", "en": "goal"},
    "completed": {"ru": "собрал всё", "en": "completed"},
    "reserve_empty": {"ru": "резерв пуст", "en": "reserve empty"},
    "stall": {"ru": "нет прогресса", "en": "no progress"},
}


def _w(key: str, lang: str) -> str:
    return WORDS[key].get(lang, WORDS[key]["en"])


class _Pen:
    """Drawing in design pixels on a canvas SS times larger."""

    def __init__(self, width: int, height: int, base: Image.Image | None = None):
        self.image = base.copy() if base is not None else Image.new(
            "RGB", (width * SS, height * SS), BACKGROUND)
        self.d = ImageDraw.Draw(self.image)

    def rect(self, box, fill=None, outline=None, width=1, radius=0):
        x0, y0, x1, y1 = (v * SS for v in box)
        self.d.rounded_rectangle((x0, y0, x1, y1), radius=radius * SS, fill=fill,
                                 outline=outline, width=width * SS if outline else 0)

    def text(self, xy, text, size, fill=INK, bold=False, anchor="la"):
        self.d.text((xy[0] * SS, xy[1] * SS), text, font=font(size * SS, bold), fill=fill,
                    anchor=anchor)

    def text_width(self, text, size, bold=False) -> float:
        return self.d.textlength(text, font=font(size * SS, bold)) / SS

    def token(self, colour, cx, cy, r):
        draw_symbol(self.d, colour, cx * SS, cy * SS, r * SS, width=max(2, round(r * SS / 9)))

    def ghost(self, colour, cx, cy, r, outline=GRID):
        draw_shape(self.d, SYMBOLS[colour], cx * SS, cy * SS, r * SS, fill=None, outline=outline,
                   width=max(2, round(r * SS / 11)))

    def slot(self, cx, cy, r, fill=None):
        self.d.ellipse(((cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS),
                       fill=fill, outline=GRID, width=SS)

    def face_down(self, cx, cy, r):
        self.d.ellipse(((cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS),
                       fill=FACE_DOWN, outline=INK, width=2 * SS)
        ri = r * 0.62
        self.d.ellipse(((cx - ri) * SS, (cy - ri) * SS, (cx + ri) * SS, (cy + ri) * SS),
                       outline=(170, 152, 132), width=SS * 2)

    def check(self, cx, cy, size, fill=DONE_INK):
        pts = [(cx - size * 0.5, cy), (cx - size * 0.12, cy + size * 0.38), (cx + size * 0.55, cy - size * 0.4)]
        self.d.line([(x * SS, y * SS) for x, y in pts], fill=fill, width=max(2, round(size * SS / 5)),
                    joint="curve")

    def triangle_down(self, cx, cy, size, fill=WEAK_INK):
        pts = [(cx - size, cy - size * 0.6), (cx + size, cy - size * 0.6), (cx, cy + size * 0.7)]
        self.d.polygon([(x * SS, y * SS) for x, y in pts], fill=fill)

    def cross(self, cx, cy, r, fill=BUST_INK):
        w = max(3, round(r * SS / 5))
        self.d.line(((cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS), fill=fill, width=w)
        self.d.line(((cx - r) * SS, (cy + r) * SS, (cx + r) * SS, (cy - r) * SS), fill=fill, width=w)

    def finish(self) -> Image.Image:
        return self.image.reduce(SS)  # 2 x 2 box average: smooth edges, fast


def _events(last: Any) -> list[dict[str, Any]]:
    """Events as dicts ({"kind": ..., fields}) whether given as dataclasses or event_dicts."""
    out = []
    for e in last or []:
        if isinstance(e, dict):
            out.append(e)
        elif is_dataclass(e):
            out.append({"kind": type(e).__name__, **asdict(e)})
    return out


# ---------------------------------------------------------------------------- layout

PAD = 14
TOP = 62                                   # status bar
CENTRE = (PAD, TOP, WIDTH - PAD, TOP + 196)
ZONE = (PAD, CENTRE[3] + PAD, 720, CENTRE[3] + PAD + 112)
RESERVE = (ZONE[2] + PAD, ZONE[1], WIDTH - PAD, ZONE[3])
PANELS_TOP = ZONE[3] + PAD


@lru_cache(maxsize=16)
def _layout(players: int, target: int) -> dict[str, Any]:
    """Panel rectangles and sizes for a player count and target (design pixels)."""
    cols = players if players <= 3 else 2
    rows = 1 if players <= 3 else 2
    panel_w = (WIDTH - PAD * (cols + 1)) / cols
    col_w = (panel_w - 2 * PAD) / 6
    slot_h = min(48, max(34, int(col_w * 0.8)))
    head_h = 52
    foot_h = 34
    room = (MAX_HEIGHT - PANELS_TOP - rows * PAD) / rows - head_h - foot_h - 10
    slot_h = min(slot_h, int(room / target))
    panel_h = head_h + target * slot_h + foot_h + 10
    panels = []
    for seat in range(players):
        r, c = divmod(seat, cols)
        x = PAD + c * (panel_w + PAD)
        y = PANELS_TOP + r * (panel_h + PAD)
        panels.append((x, y, x + panel_w, y + panel_h))
    height = int(PANELS_TOP + rows * (panel_h + PAD))
    return {"panels": panels, "col_w": col_w, "slot_h": slot_h, "head_h": head_h,
            "height": min(height, MAX_HEIGHT)}


# ---------------------------------------------------------------------------- parts


def _status(pen: _Pen, view: dict, names: Sequence[str], lang: str) -> None:
    cur = view.get("current")
    if view.get("over"):
        winners = view.get("winners") or []
        text = _w("over", lang)
        reason = view.get("reason")
        if reason in ("reserve_empty", "stall"):
            text += f" · {_w(reason, lang)}"
        pen.text((PAD + 4, TOP / 2), text, 30, bold=True, anchor="lm")
        if winners:
            who = ", ".join(_name(names, s) for s in winners)
            pen.text((WIDTH - PAD - 4, TOP / 2), f"1: {who}", 28, bold=True, anchor="rm")
        return
    if cur is None:
        return
    label = f"{_w('turn', lang)}: "
    pen.text((PAD + 4, TOP / 2), label, 30, fill=MUTED, anchor="lm")
    x = PAD + 4 + pen.text_width(label, 30)
    name = _name(names, cur)
    pen.text((x, TOP / 2), name, 30, bold=True, anchor="lm")
    x += pen.text_width(name, 30, bold=True) + 16
    if view.get("bonus"):
        tag = _w("bonus", lang)
        if view.get("bonus_pending"):
            tag += f" (+{view['bonus_pending']})"
        tw = pen.text_width(tag, 24, bold=True)
        pen.rect((x, TOP / 2 - 19, x + tw + 58, TOP / 2 + 19), fill=HIGHLIGHT, radius=19)
        draw_shape(pen.d, "star", (x + 22) * SS, TOP / 2 * SS, 13 * SS, fill=INK, outline=INK, width=1)
        pen.text((x + 42, TOP / 2), tag, 24, bold=True, anchor="lm")


def _name(names: Sequence[str], seat: int) -> str:
    raw = names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"
    return safe_text(str(raw), 14)


def _centre(pen: _Pen, view: dict, lang: str) -> None:
    x0, y0, x1, y1 = CENTRE
    pen.text((x1 - 16, y0 + 12), str(view.get("centre_total", 0)), 24, fill=MUTED, anchor="ra")
    centre = view.get("centre", {})
    zone = set(view.get("zone") or [])
    slot_w = (x1 - x0 - 24) / 6
    pile_mid = (y0 + 40 + y1 - 48) / 2
    for i, colour in enumerate(ORDER):
        n = int(centre.get(colour, 0))
        cx = x0 + 12 + slot_w * (i + 0.5)
        if colour in zone:  # what a bank would collect (and a conflict risk)
            pen.rect((cx - slot_w / 2 + 4, y0 + 38, cx + slot_w / 2 - 4, y1 - 8), fill=(255, 240, 200),
                     outline=HIGHLIGHT, width=3, radius=14)
        if n == 0:
            pen.ghost(colour, cx, pile_mid, 28)
            pen.text((cx, y1 - 28), "0", 32, fill=GRID, bold=True, anchor="mm")
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
                pen.text((tx, ty), f"+{extra}", 22, bold=True, anchor="mm")
            else:
                pen.token(colour, tx, ty, r)
        pen.text((cx, y1 - 28), str(n), 32, bold=True, anchor="mm")


def _zone(pen: _Pen, view: dict, lang: str, events: list[dict], names: Sequence[str]) -> None:
    x0, y0, x1, y1 = ZONE
    zone = list(view.get("zone") or [])
    bust = None
    for e in events:
        if e.get("kind") == "Drew" and str(e.get("result", "")).startswith("bust"):
            bust = e
    showing_bust = not zone and bust is not None
    can_bank = bool(view.get("can_bank"))
    pen.rect(ZONE, fill=(255, 240, 200) if can_bank else BOX, radius=16,
             outline=HIGHLIGHT if can_bank else None, width=3)
    pen.text((x0 + 16, y0 + 10), _w("zone", lang), 24, bold=True)
    tokens = zone if zone else list(bust.get("zone") or []) if showing_bust else []
    r = 24
    step = 58
    cy = y0 + 72
    if tokens:
        for k, colour in enumerate(tokens):
            if colour in COLOURS:
                pen.token(colour, x0 + 16 + r + k * step, cy, r)
        if showing_bust:
            pen.cross(x0 + 16 + r + (len(tokens) - 1) * step, cy, r + 4)
            pen.text((x1 - 16, cy), _w("bust", lang), 28, fill=BUST_INK, bold=True, anchor="rm")
            seat = bust.get("seat")
            if isinstance(seat, int):
                pen.text((x1 - 16, y0 + 12), _name(names, seat), 20, fill=MUTED, anchor="ra")
        elif can_bank:
            centre = view.get("centre", {})
            gain = len(zone) + sum(int(centre.get(c, 0)) for c in set(zone))
            pen.text((x1 - 16, cy), f"+{gain}", 34, bold=True, anchor="rm")
            pen.text((x1 - 16, y0 + 12), _w("bank", lang), 20, fill=MUTED, anchor="ra")
    elif view.get("take"):
        label = _w("take", lang)
        pen.text((x0 + 16, cy), label, 26, fill=INK, anchor="lm")
        pen.token(view["take"], x0 + 16 + pen.text_width(label, 26) + 14 + r, cy, r)
    else:
        pen.text((x0 + 16, cy), "—", 28, fill=MUTED, anchor="lm")


def _reserve(pen: _Pen, view: dict, lang: str) -> None:
    x0, y0, x1, y1 = RESERVE
    cy = (y0 + y1) / 2
    n = int(view.get("reserve", 0))
    right = x1 - 16
    pen.text((right, cy), str(n), 32, bold=True, anchor="rm")
    w = pen.text_width(str(n), 32, bold=True)
    for k in range(3 if n >= 3 else n):
        pen.face_down(right - w - 26 - k * 8, cy + k * -3, 18)


def _panel(pen: _Pen, view: dict, seat: int, box, lay: dict, names: Sequence[str], lang: str) -> None:
    x0, y0, x1, y1 = box
    target = int(view.get("target", 5))
    col = (view.get("collections") or [{}])[seat]
    completed = set((view.get("completed") or [[]] * (seat + 1))[seat])
    weakest = set((view.get("weakest") or [[]] * (seat + 1))[seat])
    over = bool(view.get("over"))
    is_turn = view.get("current") == seat and not over
    places = view.get("places")
    winner = over and places is not None and places[seat] == 1
    pen.rect(box, fill=PANEL_TURN if is_turn else PANEL, radius=18,
             outline=HIGHLIGHT if is_turn or winner else GRID, width=6 if is_turn or winner else 2)
    head = lay["head_h"]
    # header: (place) name ... weakest count
    x = x0 + 16
    if over and places is not None:
        place = places[seat]
        badge = HIGHLIGHT if place == 1 else GRID
        pen.d.ellipse(((x) * SS, (y0 + 10) * SS, (x + 32) * SS, (y0 + 42) * SS), fill=badge)
        pen.text((x + 16, y0 + 26), str(place), 22, bold=True, anchor="mm")
        x += 42
    elif is_turn:
        pen.d.polygon([((x) * SS, (y0 + 14) * SS), ((x + 20) * SS, (y0 + 26) * SS),
                       ((x) * SS, (y0 + 38) * SS)], fill=INK)
        x += 28
    points = view.get("points")
    pts = points[seat] if points else min(int(col.get(c, 0)) for c in ORDER)
    right_text = f"{_w('min', lang)} {pts}/{target}"
    rw = pen.text_width(right_text, 22, bold=True)
    pen.text((x1 - 16, y0 + 27), right_text, 22, fill=MUTED if pts < target else DONE_INK,
             bold=True, anchor="rm")
    name = _name(names, seat)
    size = 28
    while size > 16 and pen.text_width(name, size, bold=True) > x1 - 24 - rw - x:
        size -= 2
    pen.text((x, y0 + 27), name, size, bold=True, anchor="lm")
    # six columns of tokens against the target
    col_w, slot_h = lay["col_w"], lay["slot_h"]
    r = min(col_w * 0.36, slot_h * 0.42)
    body_top = y0 + head
    body_bot = body_top + target * slot_h
    for i, colour in enumerate(ORDER):
        n = int(col.get(colour, 0))
        cx = x0 + PAD + col_w * (i + 0.5)
        bx0, bx1 = cx - col_w / 2 + 3, cx + col_w / 2 - 3
        done = colour in completed
        weak = colour in weakest and not done
        if done:
            pen.rect((bx0, body_top - 4, bx1, body_bot + 34), fill=DONE_TINT, radius=12)
        elif weak:
            pen.rect((bx0, body_top - 4, bx1, body_bot + 34), fill=WEAK_TINT, radius=12,
                     outline=WEAK_INK, width=2)
        for k in range(target):
            cy = body_bot - slot_h * (k + 0.5)
            if k < n:
                pen.token(colour, cx, cy, r)
            else:
                pen.slot(cx, cy, r * 0.55)
        label_y = body_bot + 17
        if done:
            pen.check(cx, label_y, 22)
        else:
            pen.text((cx, label_y), str(n), 24, bold=True, fill=WEAK_INK if weak else INK, anchor="mm")


@lru_cache(maxsize=24)
def _static(players: int, target: int, lang: str) -> Image.Image:
    """The layer that never changes for a table size: background, centre and reserve boxes."""
    pen = _Pen(WIDTH, _layout(players, target)["height"])
    pen.rect(CENTRE, fill=BOX, radius=16)
    pen.text((CENTRE[0] + 16, CENTRE[1] + 10), _w("centre", lang), 24, bold=True)
    pen.rect(RESERVE, fill=BOX, radius=16)
    pen.text((RESERVE[0] + 16, (RESERVE[1] + RESERVE[3]) / 2), _w("reserve", lang), 24, bold=True,
             anchor="lm")
    return pen.image


def _board(view: dict, names: Sequence[str], lang: str, events: list[dict]) -> Image.Image:
    players = int(view.get("players") or len(view.get("collections") or []) or 2)
    target = int(view.get("target", 5))
    lay = _layout(players, target)
    pen = _Pen(WIDTH, lay["height"], _static(players, target, lang))
    _status(pen, view, names, lang)
    _centre(pen, view, lang)
    _zone(pen, view, lang, events, names)
    _reserve(pen, view, lang)
    for seat, box in enumerate(lay["panels"]):
        _panel(pen, view, seat, box, lay, names, lang)
    return pen.finish()


def table(view: dict, *, lang: str = "ru", names: Sequence[str] = (), last: Any = None) -> Image.Image:
    """The whole table as an image (1080 px wide, at most 1280 px tall).

    view: engines.lucky.view(state, None). names: player names by seat (drawn through
    safe_text). last: the events of the last action (dataclasses or event_dict dicts); a bust
    among them shows the busted tokens in the zone box.
    """
    return _board(view, list(names), lang if lang in ("ru", "en") else "en", _events(last))


def table_png(view: dict, *, lang: str = "ru", names: Sequence[str] = (), last: Any = None) -> bytes:
    """:func:`table` encoded as PNG bytes."""
    return encode_png(table(view, lang=lang, names=names, last=last))
