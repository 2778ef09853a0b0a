"""Composing an Ingenious move with buttons: tile → numbered placement → preview → confirm.

1. The tile: rack tiles as buttons under the rack picture (skipped when the tile to place was
   drawn from the bag, or when the rack holds one kind of tile only).
2. The placement: every legal placement of that tile (both orientations of a non-double tile are
   separate placements), best first for this player (:func:`ranked`), 9 to a page. The picture
   (render.genial.candidates) gives each of the page's placements a panel of its own, three to a
   row: its number, its cells and points, the board around it with the tile drawn on its two
   cells; the list in the caption names each one's cells with their colours beside its points
   («3 · 🟣 I5 🟡 I6 → 🟡 +1 🟣 +3»: no two lines alike). The buttons are those numbers, three
   to a row as the panels are, "▶ more" / "◀ 1–9" between pages and "◀️ Back" to the tiles.
3. The preview (render.genial.preview and the points per colour): "✅ Confirm" applies the move,
   "◀️ Back" returns to the same page.

The step lives in the navigation path (without the leading "~"), at most 11 characters:

    ""          choose a rack tile (a drawn tile: its first page of placements)
    "rb"        the red-blue tile: its first page of placements
    "rb2"       its third page (pages count from 0)
    "rb2F7F8"   the preview of red on F7 and blue on F8, a placement shown on page 2

The tile is named by its colours (engine letters, in the tile's own order), so a path means the
same thing whichever rack slot it came from. A path is checked against the current position: a
tile that is not there to place, a page past the last one, or a placement that is not legal or not
on that page any more (the board changed) shows the first step instead. So the final Place always
applies. Works on the seat's view (private message) or on the public view (the solo table, where
the drawn tile is public).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache, partial

from engines import genial as engine
from render import genial as drawing
from render.common import picture_of
from bot.outgoing import keyboard
from bot.games.base import Ctx, image_key
from bot.games.colours import EMOJI, colour
from bot.words.i18n import labels, nt, t
from bot.outgoing.keyboard import Button

PER_PAGE = 9  # three rows of three panels (render.genial.CAND_COLS)
_CELL = r"[A-O]\d{1,2}"
PATH_RE = re.compile(rf"^(?:([roygbp]{{2}})(\d{{1,3}})?(?:({_CELL})({_CELL}))?)?$")
LETTER = dict(zip(engine.COLOURS, engine.LETTERS))
COLOUR_OF = dict(zip(engine.LETTERS, engine.COLOURS))


def tile_emoji(tile) -> str:
    return "".join(EMOJI.get(c, "?") for c in tile)


def tile_words(tile, lang: str) -> str:
    """"🔴 red + 🔵 blue" (a double: "🔴 red + 🔴 red")."""
    return f"{colour(tile[0], lang)} + {colour(tile[1], lang)}"


def tile_code(tile) -> str:
    """"rb": the tile's colours as engine letters, in its own order."""
    return LETTER[tile[0]] + LETTER[tile[1]]


@dataclass
class Step:
    lines: list[str]
    rows: list[list[Button]]
    image: object
    key: str


@dataclass(frozen=True)
class Candidate:
    """One legal placement: ``first`` colour on ``cell_a``, ``second`` on ``cell_b``."""

    first: str
    second: str
    cell_a: tuple[int, int]
    cell_b: tuple[int, int]
    points: dict
    labels: tuple[str, str]

    @property
    def code(self) -> str:
        return self.labels[0] + self.labels[1]

    @property
    def action(self) -> engine.Place:
        return engine.Place(self.first, self.second, self.cell_a, self.cell_b)


@dataclass
class Choice:
    tile: tuple[str, str] | None  # colours of the tile being placed (None: choose one)
    page: int
    cells: tuple[str, str] | None  # labels of the placement to preview (first colour on [0])


def placeable(view: dict) -> list[tuple[str, str]]:
    """The distinct tiles the seat may place now: the drawn tile, or the rack's, in rack order."""
    if view.get("drawn"):
        return [(view["drawn"][0], view["drawn"][1])]
    out: list[tuple[str, str]] = []
    for tl in view.get("rack") or []:
        if (tl[0], tl[1]) not in out:
            out.append((tl[0], tl[1]))
    return out


def parse_path(path: str, view: dict) -> Choice | None:
    """The choice a path encodes, or None if it cannot be read or names a tile not there to place.
    (Pages and placements are checked by :func:`compose`, which knows the placements.)"""
    m = PATH_RE.match(path or "")
    if not m:
        return None
    code, page, cell_a, cell_b = m.groups()
    tiles = placeable(view)
    if code is None:
        return Choice(tiles[0] if len(tiles) == 1 else None, 0, None)
    tile = (COLOUR_OF[code[0]], COLOUR_OF[code[1]])
    if tile not in tiles:
        return None
    return Choice(tile, int(page or 0), (cell_a, cell_b) if cell_a else None)


def ranked(ctx: Ctx, seat: int, view: dict, tile) -> list[Candidate]:
    """Every legal placement of ``tile`` for the seat, best first: the points it brings to the
    seat's lowest colour(s) now (Knizia: the score is the lowest colour), then all its points,
    then «Ingenious!» bonuses; equal ones in reading order of their cells, so that later pages
    show neighbouring placements (a closer picture) and both ways round of a pair side by side."""
    R = view["radius"]
    values = view["scores"][view["holder_of"][seat]]["values"]
    low = min(values.values())
    lowest = {c for c, v in values.items() if v == low}
    keyed = []
    for a, b, points in engine.scored_placements(ctx.state, seat, list(tile)):
        a, b = tuple(a), tuple(b)
        on_low = sum(p["gained"] for c, p in points.items() if c in lowest)
        total = sum(p["gained"] for p in points.values())
        bonus = sum(p.get("bonus", 0) for p in points.values())
        pair = sorted(((a[1], a[0]), (b[1], b[0])))
        keyed.append(((-on_low, -total, -bonus, pair, (a[1], a[0])),
                      Candidate(tile[0], tile[1], a, b, points,
                                (engine.cell_label(a, R), engine.cell_label(b, R)))))
    keyed.sort(key=lambda kc: kc[0])
    return [c for _, c in keyed]


@lru_cache(maxsize=None)
def picture_words(lang: str) -> dict[str, str]:
    """The pictures' labels in ``lang`` (one dict per language: the replay's frames share it)."""
    return labels(lang, "picture:genial", drawing.LABELS)


def rack_image(view: dict) -> tuple[object, str]:
    """The rack's picture and its key (it has no words: the same in every language)."""
    rack = view.get("rack") or []
    return partial(picture_of, drawing.rack, rack), image_key("genial-rack", rack)


def _typing_hint(view: dict, lang: str) -> str:
    if view.get("drawn"):
        return t(lang, "Or type the two cells, such as «F7 F8» (rows are the letters at the sides of the board, "
                       "cells are counted from the left).")
    return t(lang, "Or type a move such as «3 F7 F8»: tile 3, its first colour on F7 (rows are the letters "
                   "at the sides of the board, cells are counted from the left).")


def compose(ctx: Ctx, seat: int, view: dict, path: str) -> Step:
    """The move-entry step for the seat to act (pending "place" or "bonus")."""
    lang = ctx.lang
    choice = parse_path(path, view)
    cands: list[Candidate] = []
    if choice is not None and choice.tile is not None:
        cands = ranked(ctx, seat, view, choice.tile)
        pages = max(1, -(-len(cands) // PER_PAGE))
        on_page = cands[choice.page * PER_PAGE:(choice.page + 1) * PER_PAGE]
        if choice.page >= pages or (choice.cells is not None
                                    and not any(c.labels == choice.cells for c in on_page)):
            choice = None  # a stale path: start again
    if choice is None:
        choice = parse_path("", view)
        if choice.tile is not None:
            cands = ranked(ctx, seat, view, choice.tile)
    if choice.tile is None:
        return _tiles_step(view, lang)
    if choice.cells is None:
        return _candidates_step(view, lang, choice, cands)
    cand = next(c for c in cands[choice.page * PER_PAGE:(choice.page + 1) * PER_PAGE] if c.labels == choice.cells)
    return _preview_step(view, lang, choice, cand)


def _tiles_step(view: dict, lang: str) -> Step:
    rack = view.get("rack") or []
    buttons = [Button(f"{k + 1} {tile_emoji(tl)}", f"~{tile_code(tl)}") for k, tl in enumerate(rack)]
    image, key = rack_image(view)
    return Step([t(lang, "Choose a tile from your rack (numbered as in the picture)."), _typing_hint(view, lang)],
                keyboard.chunk(buttons, 3), image, key)


def _candidates_step(view: dict, lang: str, choice: Choice, cands: list[Candidate]) -> Step:
    tile = choice.tile
    code = tile_code(tile)
    R = view["radius"]
    first = choice.page * PER_PAGE
    page = cands[first:first + PER_PAGE]
    lines = [t(lang, "Tile: {tile}", tile=tile_words(tile, lang))]
    back = [Button(t(lang, "◀️ Back"), "~")] if len(placeable(view)) > 1 else []
    if not cands:
        lines.append(t(lang, "This tile fits nowhere now."))
        image = partial(picture_of, drawing.candidates, view, [], words=picture_words(lang))
        return Step(lines, [back], image, image_key("genial-cands", view, [], lang))
    if len(cands) > PER_PAGE:
        lines.append(t(lang, "Choose a placement by its number: the best for your lowest colour come first "
                             "({a}–{b} of {n}).", a=first + 1, b=first + len(page), n=len(cands)))
    else:
        lines.append(t(lang, "Choose a placement by its number: the best for your lowest colour come first."))
    lines += [f"<b>{first + k + 1}</b> · {cells_text(c, R)} → {gains_text(c.points, lang)}"
              for k, c in enumerate(page)]
    if choice.page == 0 and not back:  # no tile step: its hint goes here
        lines.append(_typing_hint(view, lang))
    numbers = [Button(str(first + k + 1), f"~{code}{choice.page}{c.code}") for k, c in enumerate(page)]
    paging = []
    if choice.page > 0:
        paging.append(Button(f"◀ {first - PER_PAGE + 1}–{first}", f"~{code}{choice.page - 1}"))
    if first + PER_PAGE < len(cands):
        paging.append(Button(t(lang, "▶ more"), f"~{code}{choice.page + 1}"))
    drawn = drawn_page(page, first)
    image = partial(picture_of, drawing.candidates, view, drawn, words=picture_words(lang))
    return Step(lines, keyboard.chunk(numbers, drawing.CAND_COLS) + [back + paging], image,
                image_key("genial-cands", view, drawn, lang))


def drawn_page(page: list[Candidate], first: int) -> list[tuple]:
    """A page of candidates as render.genial.candidates draws them, numbered from ``first + 1``."""
    return [(first + k + 1, c.first, c.second, list(c.cell_a), list(c.cell_b),
             [(colour_, p["gained"]) for colour_, p in c.points.items() if p.get("gained")])
            for k, c in enumerate(page)]


def _preview_step(view: dict, lang: str, choice: Choice, cand: Candidate) -> Step:
    action = cand.action  # normalised: its first cell comes first in reading order
    R = view["radius"]
    lines = [t(lang, "Place {first} on {a} and {second} on {b}?", first=colour(action.a, lang),
               a=engine.cell_label(action.cell_a, R), second=colour(action.b, lang),
               b=engine.cell_label(action.cell_b, R)),
             points_text(cand.points, lang)]
    rows = [[Button(t(lang, "✅ Confirm"), engine.encode_action(action)),
             Button(t(lang, "◀️ Back"), f"~{tile_code(choice.tile)}{choice.page}")]]
    pv = partial(picture_of, drawing.preview, view, [action.a, action.b], list(action.cell_a),
                 list(action.cell_b), cand.points, words=picture_words(lang))
    return Step(lines, rows, pv, image_key("genial-preview", view, action, lang))


def lost_text(lang: str, n: int) -> str:
    """"(2 points lost at the end of the track)"."""
    return nt(lang, "({n} point lost at the end of the track)", "({n} points lost at the end of the track)", n)


def cells_text(cand: Candidate, radius: int) -> str:
    """"🟣 I5 🟡 I6": the placement's two cells as one reads them (the picture's «I5–I6»), each
    after the colour that goes there, so that both ways round on one pair read apart."""
    on = {cand.cell_a: cand.first, cand.cell_b: cand.second}
    return " ".join(f"{EMOJI.get(on[cell], '?')} {engine.cell_label(cell, radius)}"
                    for cell in drawing.reading_order(cand.cell_a, cand.cell_b))


def gains_text(points: dict, lang: str) -> str:
    """"🔴 +3 🔵 +2" (a colour that gains nothing is left out; "🎉" for «Ingenious!»)."""
    parts = []
    for c, p in points.items():
        if not (p.get("gained") or p.get("lost")):
            continue
        part = f"{EMOJI.get(c, '')} +{p.get('gained', 0)}"
        if p.get("lost"):
            part += f" (−{p['lost']})"
        if p.get("bonus"):
            part += " 🎉"
        parts.append(part)
    return " ".join(parts) if parts else t(lang, "no points")


def points_text(points: dict, lang: str) -> str:
    """"+3 🔴 red (now 7), +2 🔵 blue (now 2, 1 lost at the cap) «Ingenious!»"."""
    parts = []
    for c, p in points.items():
        gained = p.get("gained", 0)
        part = t(lang, "+{n} {colour} (now {total})", n=gained, colour=colour(c, lang), total=p.get("total", 0))
        if p.get("lost"):
            part += " " + lost_text(lang, p["lost"])
        if p.get("bonus"):
            part += " " + t(lang, "«Ingenious!»")
        parts.append(part)
    if not any(p.get("gained", 0) or p.get("lost", 0) for p in points.values()):
        return t(lang, "This placement scores nothing.")
    return ", ".join(parts)
