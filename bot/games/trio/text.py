"""Trio symbols, tiles and events as caption text, in the reader's language.

A symbol is its colour and shape in words ("red star"; in Russian the colour agrees with the
shape): one thing to read, colour-blind safe, where an emoji pair such as "🔴●" read as two
circles. A tile is its two
symbols in the engine's (lo, hi) order joined by "+" ("red hexagon + blue star"), so a tile is
always written the same way wherever it appears.
"""
from __future__ import annotations

from functools import lru_cache

from engines import trio as engine
from render import trio as drawing
from bot.games.base import Ctx
from bot.games.colours import colour
from bot.words.i18n import labels, nt, t

GLYPH = {"hexagon": "⬢", "circle": "●", "star": "★"}

# Literal calls, so that the catalogue extraction sees them (Russian agrees colour with shape).
_SYMBOLS = {
    "red-hexagon": lambda lang: t(lang, "red hexagon"),
    "red-circle": lambda lang: t(lang, "red circle"),
    "red-star": lambda lang: t(lang, "red star"),
    "blue-hexagon": lambda lang: t(lang, "blue hexagon"),
    "blue-circle": lambda lang: t(lang, "blue circle"),
    "blue-star": lambda lang: t(lang, "blue star"),
    "yellow-hexagon": lambda lang: t(lang, "yellow hexagon"),
    "yellow-circle": lambda lang: t(lang, "yellow circle"),
    "yellow-star": lambda lang: t(lang, "yellow star"),
}


@lru_cache(maxsize=None)
def picture_words(lang: str) -> dict[str, str]:
    """The pictures' labels and the die's faces in ``lang`` (one dict per language: the
    replay's frames share it)."""
    return labels(lang, "picture:trio", drawing.LABELS) | {face: t(lang, face) for face in engine.DIE_FACES}


def sym_text(name: str, lang: str) -> str:
    """"red hexagon" for "red-hexagon"."""
    return _SYMBOLS[name](lang)


def tile_text(tile: int, lang: str) -> str:
    """"red hexagon + blue star" for a tile id (lo symbol first)."""
    lo, hi = engine.tile_symbols(tile)
    return f"{sym_text(lo, lang)} + {sym_text(hi, lang)}"


def hand_text(tiles, lang: str) -> str:
    return "; ".join(tile_text(x, lang) for x in tiles)


def shape_name(shape: str, lang: str) -> str:
    return {"hexagon": t(lang, "hexagon"), "circle": t(lang, "circle"), "star": t(lang, "star")}[shape]


def face_text(face: str, lang: str) -> str:
    """A die face in words: "🔴 red" or "★ star"."""
    if face in GLYPH:
        return f"{GLYPH[face]} {shape_name(face, lang)}"
    return colour(face, lang)


def sets_text(sets, lang: str) -> str:
    """Sets (each three symbol names) as "red hexagon, blue hexagon, yellow hexagon; ..."."""
    return "; ".join(", ".join(sym_text(s, lang) for s in three) for three in sets)


def sets_at(view: dict, tile: int, cell_a, cell_b) -> list[list[str]]:
    """The sets laying ``tile`` (lo on cell_a) would form on the board of ``view``."""
    grid = {(x, y): engine.symbol_index(name) for x, y, name in view["cells"]}
    lo, hi = engine.TILES[tile]
    a, b = tuple(cell_a), tuple(cell_b)
    grid[a], grid[b] = lo, hi
    return [[engine.SYMBOLS[grid[c]] for c in run] for run in engine.runs_of_three(grid, (a, b))
            if engine.is_set([grid[c] for c in run])]


def rolled_line(ctx: Ctx, seat: int, face: str) -> str:
    return t(ctx.lang, "🎲 {name} rolled {face}.", name=ctx.name(seat), face=face_text(face, ctx.lang))


def narrate(ctx: Ctx, events: list[dict]) -> list[str]:
    """Caption lines for events, oldest first (TurnPassed is implied by the next roll)."""
    out = []
    lang = ctx.lang
    for e in events:
        kind = e["kind"]
        if kind == "Rolled":
            out.append(rolled_line(ctx, e["seat"], e["face"]))
        elif kind == "Laid":
            n = len(e["sets"])
            line = nt(lang, "{name} laid {tile} and formed a set: {sets}.",
                      "{name} laid {tile} and formed {n} sets: {sets}.", n,
                      name=ctx.name(e["seat"]), tile=tile_text(e["tile"], lang), sets=sets_text(e["sets"], lang))
            if e["hand_size"]:
                line += " " + nt(lang, "{n} tile left in hand.", "{n} tiles left in hand.", e["hand_size"])
            out.append(line)
        elif kind == "Drew":
            who = ctx.name(e["seat"])
            if e["drew"]:
                out.append(nt(lang, "{name} cannot lay a tile and draws one ({n} tile left in the pool).",
                              "{name} cannot lay a tile and draws one ({n} tiles left in the pool).",
                              e["pool"], name=who))
            else:
                out.append(t(lang, "{name} cannot lay a tile and the pool is empty: {name} passes "
                                   "({passes} of {players} passes in a row).",
                             name=who, passes=e["passes"], players=len(ctx.game.seats)))
        elif kind == "Won":
            out.append(t(lang, "🏆 {name} laid their last tile and wins!", name=ctx.name(e["seat"])))
        elif kind == "StalemateEnd":
            out.append(stalemate_line(lang))
    return out


def stalemate_line(lang: str) -> str:
    return t(lang, "The pool is empty and nobody could lay a tile for a whole round: "
                   "the fewest tiles in hand wins.")
