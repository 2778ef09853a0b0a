"""Composing a «Гениально» move with buttons: tile → row → cell → direction → preview → confirm.

The step lives in the navigation path (without the leading "~"):

    ""              choose a rack tile (skipped when the tile to place was drawn from the bag)
    "t2"            tile 2 of the rack chosen: choose a row
    "t2rF"          row F: choose a cell
    "t2cF7"         cell F7: choose the partner cell and the orientation of the tile
    "t2cF7dF8o1"    preview of tile 2 with its second colour on F7 and first on F8: confirm

A drawn tile has no "t" part ("rF", "cF7", "cF7dF8o0"). Every step only offers legal choices
(engines.genial.legal_placements), so the final Place always applies. Works on the seat's view
(private message) or on the public view (solo table: the drawn tile is public there).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from engines import genial as engine
from render import genial as drawing
from render.common import png_of
from bot import keyboard
from bot.games.base import Ctx, image_key
from bot.games.colours import EMOJI, colour
from bot.i18n import t
from bot.keyboard import Button

PATH_RE = re.compile(r"^(?:t(\d))?(?:r([A-O]))?(?:c([A-O]\d{1,2}))?(?:d([A-O]\d{1,2})o([01]))?$")


def tile_emoji(tile) -> str:
    return "".join(EMOJI.get(c, "?") for c in tile)


def tile_words(tile, lang: str) -> str:
    """"🔴 red + 🔵 blue" (a double: "🔴 red + 🔴 red")."""
    return f"{colour(tile[0], lang)} + {colour(tile[1], lang)}"


@dataclass
class Step:
    lines: list[str]
    rows: list[list[Button]]
    image: object
    key: str


@dataclass
class Choice:
    tile: tuple[str, str] | None  # colours of the tile being placed
    tok: str  # "t2" or "" (drawn tile)
    row: str | None
    cell: str | None
    partner: str | None
    orient: int | None


def parse_path(path: str, view: dict) -> Choice | None:
    """The choice a path encodes, or None if it does not fit the view any more."""
    m = PATH_RE.match(path or "")
    if not m:
        return None
    k, row, cell, partner, orient = m.groups()
    drawn = view.get("drawn")
    if drawn is not None:
        if k is not None:
            return None
        tile, tok = (drawn[0], drawn[1]), ""
    elif k is None:
        if row or cell:
            return None
        tile, tok = None, ""
    else:
        rack = view.get("rack") or []
        if not 1 <= int(k) <= len(rack):
            return None
        tile, tok = (rack[int(k) - 1][0], rack[int(k) - 1][1]), f"t{k}"
    if cell is not None:
        row = cell[0]
    return Choice(tile, tok, row, cell, partner, None if orient is None else int(orient))


def placements(ctx: Ctx, seat: int, view: dict, tile) -> list[tuple[tuple[int, int], tuple[int, int], str, str]]:
    """Legal (cell_a, cell_b, label_a, label_b) for ``tile`` (first colour on cell_a)."""
    R = view["radius"]
    return [(tuple(a), tuple(b), engine.cell_label(tuple(a), R), engine.cell_label(tuple(b), R))
            for a, b in engine.legal_placements(ctx.state, seat, list(tile))]


def options_at(legal, cell: str, double: bool) -> list[tuple[str, int]]:
    """(partner label, orientation) for a cell: o=0 puts the tile's first colour on the cell."""
    out: list[tuple[str, int]] = []
    for _, _, la, lb in legal:
        if la == cell:
            opt = (lb, 0)
        elif lb == cell:
            opt = (la, 0 if double else 1)
        else:
            continue
        if opt not in out:
            out.append(opt)
    return out


def action_for(view: dict, tile, cell: str, partner: str, orient: int) -> engine.Place:
    R = view["radius"]
    x, p = engine.parse_cell(cell, R), engine.parse_cell(partner, R)
    first, second = (tile[0], tile[1]) if orient == 0 else (tile[1], tile[0])
    return engine.Place(first, second, x, p)


def _board(view: dict, lang: str, names: list[str], cells) -> tuple[object, str]:
    cells = [list(c) for c in cells]
    return (partial(png_of, drawing.table, view, lang=lang, names=names, highlight=cells),
            image_key("genial-board", view, names, lang, cells))


def rack_image(view: dict, lang: str) -> tuple[object, str]:
    rack = view.get("rack") or []
    return partial(png_of, drawing.rack, rack, lang=lang), image_key("genial-rack", rack, lang)


def compose(ctx: Ctx, seat: int, view: dict, path: str) -> Step:
    """The move-entry step for the seat to act (pending "place" or "bonus")."""
    lang = ctx.lang
    names = ctx.plain_names
    back = t(lang, "◀️ Back")
    choice = parse_path(path, view) or parse_path("", view)
    if choice.tile is None:
        rack = view.get("rack") or []
        buttons = [Button(f"{k + 1} {tile_emoji(tl)}", f"~t{k + 1}") for k, tl in enumerate(rack)]
        image, key = rack_image(view, lang)
        return Step([t(lang, "Choose a tile from your rack (numbered as in the picture).")],
                    keyboard.chunk(buttons, 3), image, key)
    tile = choice.tile
    tok = choice.tok
    double = tile[0] == tile[1]
    legal = placements(ctx, seat, view, tile)
    where: dict[str, tuple[int, int]] = {}
    for ca, cb, la, lb in legal:
        where[la], where[lb] = ca, cb
    head = t(lang, "Tile: {tile}", tile=tile_words(tile, lang))
    back_first = [Button(back, "~")] if tok else []

    def order(lab: str) -> tuple[str, int]:
        return lab[0], int(lab[1:])

    if choice.row is None or not any(lab[0] == choice.row for lab in where):
        rows = sorted({lab[0] for lab in where})
        buttons = [Button(r, f"~{tok}r{r}") for r in rows]
        image, key = _board(view, lang, names, where.values())
        return Step([head, t(lang, "Choose a row (the letters at the sides of the board); "
                                   "the rimmed cells can take this tile.")],
                    keyboard.chunk(buttons, 8) + [back_first], image, key)
    if choice.cell is None or choice.cell not in where:
        in_row = sorted((lab for lab in where if lab[0] == choice.row), key=order)
        buttons = [Button(lab, f"~{tok}c{lab}") for lab in in_row]
        image, key = _board(view, lang, names, [where[lab] for lab in in_row])
        return Step([head, t(lang, "Row {row}: choose the cell for one half of the tile.", row=choice.row)],
                    keyboard.chunk(buttons, 8) + [[Button(back, f"~{tok}")]], image, key)
    opts = options_at(legal, choice.cell, double)
    if choice.partner is None or (choice.partner, choice.orient) not in opts:
        buttons = []
        for partner, o in opts:
            here, there = (tile[0], tile[1]) if o == 0 else (tile[1], tile[0])
            buttons.append(Button(f"{choice.cell}{EMOJI.get(here, '')} {partner}{EMOJI.get(there, '')}",
                                  f"~{tok}c{choice.cell}d{partner}o{o}"))
        R = view["radius"]
        image, key = _board(view, lang, names, [where[choice.cell]] + [engine.parse_cell(p, R) for p, _ in opts])
        return Step([head, t(lang, "Cell {cell}: choose where the other half goes and which colour lies where.",
                             cell=choice.cell)],
                    keyboard.chunk(buttons, 2) + [[Button(back, f"~{tok}r{choice.row}")]], image, key)
    action = action_for(view, tile, choice.cell, choice.partner, choice.orient)
    points = engine.placement_score(ctx.state, seat, [action.a, action.b], action.cell_a, action.cell_b)
    R = view["radius"]
    lines = [t(lang, "Place {first} on {a} and {second} on {b}?", first=colour(action.a, lang),
               a=engine.cell_label(action.cell_a, R), second=colour(action.b, lang),
               b=engine.cell_label(action.cell_b, R))]
    lines.append(points_text(points, lang))
    rows = [[Button(t(lang, "✅ Confirm"), engine.encode_action(action)),
             Button(back, f"~{tok}c{choice.cell}")]]
    pv = partial(png_of, drawing.preview, view, [action.a, action.b], list(action.cell_a), list(action.cell_b),
                 points, lang=lang)
    return Step(lines, rows, pv, image_key("genial-preview", view, action, lang))


def points_text(points: dict, lang: str) -> str:
    """"+3 🔴 red (now 7), +2 🔵 blue (now 2, 1 lost at the cap) «Ingenious!»"."""
    parts = []
    for c, p in points.items():
        gained = p.get("gained", 0)
        part = t(lang, "+{n} {colour} (now {total})", n=gained, colour=colour(c, lang), total=p.get("total", 0))
        if p.get("lost"):
            part += " " + t(lang, "({n} lost at the end of the track)", n=p["lost"])
        if p.get("bonus"):
            part += " " + t(lang, "«Ingenious!»")
        parts.append(part)
    if not any(p.get("gained", 0) or p.get("lost", 0) for p in points.values()):
        return t(lang, "This placement scores nothing.")
    return ", ".join(parts)
