"""Words of Ingenious in the chat: event narration, refusals of typed moves, results."""
from __future__ import annotations

import html

from engines import genial as engine
from engines.genial.geometry import ROW_LETTERS
from bot.games.base import Ctx
from bot.words.format import medal
from bot.games.colours import EMOJI, colour
from bot.games.genial.entry import lost_text, tile_words
from bot.words.i18n import nt, t

def _names(ctx: Ctx, seats) -> str:
    return " &amp; ".join(ctx.name(s) for s in seats)


def narrate_events(ctx: Ctx, events: list[dict]) -> list[str]:
    lang = ctx.lang
    out: list[str] = []
    for e in events:
        kind = e["kind"]
        if kind == "Placed":
            a, b = e["labels"]
            pts = []
            for p in e["points"]:
                if not (p["gained"] or p["lost"]):
                    continue  # a colour that scored nothing is not news
                part = t(lang, "+{n} {colour}", n=p["gained"], colour=colour(p["colour"], lang))
                if p["lost"]:
                    part += " " + lost_text(lang, p["lost"])
                pts.append(part)
            scored = ", ".join(pts) if any(p["gained"] or p["lost"] for p in e["points"]) \
                else t(lang, "no points")
            msg = "{name} placed {tile} on {a}–{b}: {points}." if not e["bonus"] \
                else "{name} placed the bonus tile {tile} on {a}–{b}: {points}."
            out.append(t(lang, msg, name=ctx.name(e["seat"]), tile=tile_words(e["colours"], lang),
                         a=a, b=b, points=scored))
        elif kind == "Genial":
            out.append(t(lang, "🎉 «Ingenious!» {name}: {colour} reached {value}, a bonus placement!",
                         name=ctx.name(e["seat"]), colour=colour(e["colour"], lang), value=e["value"]))
        elif kind == "TileDrawn" and e["purpose"] == "bonus":
            out.append(t(lang, "{name} drew {tile} from the bag for the bonus placement.",
                         name=ctx.name(e["seat"]), tile=tile_words(e["tile"], lang)))
        elif kind == "TileDrawn":
            out.append(t(lang, "Next tile from the bag: {tile}.", tile=tile_words(e["tile"], lang)))
        elif kind == "BonusForfeited":
            if e["reason"] == "bag_empty":
                out.append(nt(lang, "The bag is empty: {n} bonus placement is lost.",
                              "The bag is empty: {n} bonus placements are lost.", e["count"]))
            else:
                out.append(nt(lang, "The rack is empty: {n} bonus placement is lost.",
                              "The rack is empty: {n} bonus placements are lost.", e["count"]))
        elif kind == "SwapOffered":
            out.append(t(lang, "{name}: no tile of the lowest colour ({colours}) in the rack, so a swap is allowed.",
                         name=ctx.name(e["seat"]), colours=", ".join(colour(c, lang) for c in e["lowest"])))
        elif kind == "Swapped":
            out.append(nt(lang, "🔄 {name} swapped the rack: {n} new tile drawn, the old ones went back into the bag.",
                          "🔄 {name} swapped the rack: {n} new tiles drawn, the old ones went back into the bag.",
                          e["count"], name=ctx.name(e["seat"])))
        elif kind == "SwapDeclined":
            out.append(t(lang, "{name} kept the rack.", name=ctx.name(e["seat"])))
        elif kind == "Skipped":
            out.append(t(lang, "{name}: no tiles left, the turn is skipped.", name=ctx.name(e["seat"])))
        elif kind == "InstantWin":
            out.append(t(lang, "🏆 {names}: all six colours at the end of the track, an instant win!",
                         names=_names(ctx, e["seats"])))
        elif kind == "GameEnded":
            out.append(end_reason(lang, e["reason"]))
    return out


def end_reason(lang: str, reason: str) -> str:
    if reason == "instant_win":
        return t(lang, "The game ends with an instant win.")
    if reason == "no_tiles":
        return t(lang, "No tiles are left: the game ends.")
    return t(lang, "No two neighbouring cells are empty any more: the game ends.")


def move_error(error: engine.MoveError, view: dict, lang: str) -> str:
    """A typed move's refusal in the reader's language (HTML-escaped)."""
    code, params = error.code, error.params
    esc = lambda v: html.escape(str(v), quote=False)  # noqa: E731
    if code == "bad_tile_number":
        if params.get("number") is None:
            return t(lang, "Start with the tile number, then two cells, such as «3 F7 F8».")
        return t(lang, "There is no tile {number} in your rack: the tiles are numbered 1 to {count}.",
                 number=esc(params.get("number")), count=params.get("rack", 0))
    if code == "no_tile":
        return t(lang, "Place the tile drawn from the bag: name just two cells, such as «F7 F8».")
    if code == "bad_cell":
        last = ROW_LETTERS[2 * view["radius"]]
        return t(lang, "There is no cell {cell} on this board: rows go from A to {last}, cells are numbered "
                       "from the left.", cell=esc(params.get("cell", "?")), last=last)
    if code == "same_cell":
        return t(lang, "Both halves cannot go on {cell}: name two neighbouring cells.",
                 cell=esc(params.get("cell", "?")))
    if code == "not_adjacent":
        cells = params.get("cells") or ["?", "?"]
        return t(lang, "{a} and {b} do not touch: a tile covers two neighbouring cells.",
                 a=esc(cells[0]), b=esc(cells[1]))
    if code == "occupied":
        return t(lang, "Cell {cell} is not empty.", cell=esc(params.get("cell", "?")))
    if code == "first_round":
        return t(lang, "Your first tile goes next to a printed symbol that has no other player's tile beside it yet.")
    if code == "bad_text":
        return t(lang, "I could not read that move. Type the tile number and two cells, such as «3 F7 F8» "
                       "(tile 3, its first colour on F7).")
    return t(lang, "That move is not possible now.")


def _track(values: dict) -> str:
    return " ".join(f"{EMOJI[c]}{v}" for c, v in values.items())


def _standing(view: dict) -> tuple[list[dict], list[int], list[int]]:
    """Players or teams (holders of a track), their places among holders, holders best first."""
    result = view["outcome"] or {"places": [1] * view["players"], "reason": "", "winners": []}
    holders = view["scores"]
    seat_place = [result["places"][holder["seats"][0]] for holder in holders]
    # Places among players or teams (a team's two seats share one place).
    places = [1 + sum(1 for q in seat_place if q < p) for p in seat_place]
    order = sorted(range(len(holders)), key=lambda h: (places[h], h))
    return holders, places, order


def _decider(va: list[int], vb: list[int]) -> int | None:
    """Where the next colours broke a tie on the lowest: the first index that differs
    (None: the lowest differs already, or a full tie)."""
    if va[0] != vb[0] or va == vb:
        return None
    return next(k for k in range(len(va)) if va[k] != vb[k])


def results_text(ctx: Ctx) -> str:
    view = ctx.public_view()
    lang = ctx.lang
    result = view["outcome"] or {"places": [1] * view["players"], "reason": "", "winners": []}
    lines = [t(lang, "🏁 <b>Ingenious</b>: results"), end_reason(lang, result["reason"])]
    holders = view["scores"]
    if view["solo"]:
        h = holders[0]
        lines.append("")
        lines.append(t(lang, "Tracks: {track}", track=_track(h["values"])))
        lines.append(t(lang, "Your score: {n} (your lowest colour).", n=min(h["values"].values())))
        return "\n".join(lines)
    holders, places, order = _standing(view)
    instant = result["reason"] == "instant_win"
    if instant:
        lines.append(t(lang, "{names} filled all six tracks and won at once.",
                       names=_names(ctx, result["winners"])))
    else:
        lines.append(t(lang, "Places go by the lowest colour."))
    lines.append("")
    for h in order:
        holder = holders[h]
        lines.append(t(lang, "{medal} {names}: lowest {low} · {track}", medal=medal(places[h]),
                       names=_names(ctx, holder["seats"]), low=holder["sorted"][0], track=_track(holder["values"])))
    # Only where the lowest colour tied: what the next colours decided.
    for a, b in zip(order, order[1:]):
        va, vb = holders[a]["sorted"], holders[b]["sorted"]
        na, nb = _names(ctx, holders[a]["seats"]), _names(ctx, holders[b]["seats"])
        if va == vb:
            lines.append(t(lang, "{a} and {b} tie on every colour and share the place.", a=na, b=nb))
        elif not instant and (i := _decider(va, vb)) is not None:
            lines.append(t(lang, "{a} rank above {b}: both have {low} at the lowest; the next values decide, "
                                 "{x} against {y}.", a=na, b=nb, low=va[0], x=va[i], y=vb[i]))
    return "\n".join(lines)


def private_detail(ctx: Ctx, seat: int) -> tuple[int, list[int], str]:
    """(place, places of every player or team, what decided) for one seat's private result."""
    view = ctx.public_view()
    lang = ctx.lang
    holders, places, order = _standing(view)
    h = view["holder_of"][seat] if "holder_of" in view else next(
        k for k, holder in enumerate(holders) if seat in holder["seats"])
    mine = holders[h]["sorted"]
    if view["solo"]:
        return 1, [1], t(lang, "your score: {n} (your lowest colour)", n=mine[0])
    if (view["outcome"] or {}).get("reason") == "instant_win" and places[h] == 1:
        return places[h], places, t(lang, "all six tracks full, an instant win")
    detail = t(lang, "lowest colour {n}", n=mine[0])
    k = order.index(h)
    for other in order[max(0, k - 1):k] + order[k + 1:k + 2]:
        i = _decider(mine, holders[other]["sorted"])
        if i is not None:
            detail += "; " + t(lang, "level with {names} on the lowest colour, the next colour decided: "
                                     "{x} against {y}",
                               names=_names(ctx, holders[other]["seats"]), x=mine[i],
                               y=holders[other]["sorted"][i])
    return places[h], places, detail
