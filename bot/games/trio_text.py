"""Trio symbols, tiles and events as caption text (emoji + shape glyphs), in the reader's language.

A symbol is its colour emoji followed by its shape glyph ("🔴⬢", "🔵●", "🟡★"); a tile is its two
symbols in the engine's (lo, hi) order joined by "+" ("🔴⬢+🔵★"), so a tile is always written the
same way wherever it appears.
"""
from __future__ import annotations

from engines import trio as engine
from bot.games.base import Ctx
from bot.games.colours import EMOJI, colour
from bot.i18n import nt, t

GLYPH = {"hexagon": "⬢", "circle": "●", "star": "★"}


def sym_text(name: str) -> str:
    """"🔴⬢" for "red-hexagon"."""
    col, shape = name.split("-")
    return EMOJI[col] + GLYPH[shape]


def tile_text(tile: int) -> str:
    """"🔴⬢+🔵★" for a tile id (lo symbol first)."""
    lo, hi = engine.tile_symbols(tile)
    return f"{sym_text(lo)}+{sym_text(hi)}"


def hand_text(tiles) -> str:
    return ", ".join(tile_text(x) for x in tiles)


def shape_name(shape: str, lang: str) -> str:
    return {"hexagon": t(lang, "hexagon"), "circle": t(lang, "circle"), "star": t(lang, "star")}[shape]


def face_text(face: str, lang: str) -> str:
    """A die face in words: "🔴 red" or "★ star"."""
    if face in GLYPH:
        return f"{GLYPH[face]} {shape_name(face, lang)}"
    return colour(face, lang)


def sets_text(sets) -> str:
    """Sets (each three symbol names) as "🔴⬢ 🔵⬢ 🟡⬢; ..."."""
    return "; ".join(" ".join(sym_text(s) for s in three) for three in sets)


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
                      name=ctx.name(e["seat"]), tile=tile_text(e["tile"]), sets=sets_text(e["sets"]))
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
