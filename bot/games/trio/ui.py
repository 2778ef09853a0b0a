"""Trio in the chat: the board on the group table, each hand and the move in the private chat.

The group table (built from the public view only) shows the board, the die, every hand size and
whose turn; its caption narrates the last events and its URL button opens the private chat.
The player to act composes the move in their private message, one step per nav path:

    ""          the hand, one button per playable tile         (unplayable tiles are faded)
    "t<id>"     that tile's legal placements, numbered          ("t<id>p<page>": another page)
    "t<id>c<k>" placement k (1-based, as numbered) drawn in     Confirm = the engine's Lay

A player who cannot lay any tile draws (or passes) automatically (``UI.forced_move``).
"""
from __future__ import annotations

import re
from functools import partial

from engines import trio as engine
from render import trio as drawing
from render.common import picture_of
from bot.outgoing import keyboard
from bot.games.base import Alert, Ctx, GameUI, Reply, View, cancelled, cancelled_line, image_key, points_by_place, series_rule
from bot.words.format import fit_caption, medal
from bot.games.trio.text import (
    face_text, hand_text, narrate, picture_words, sets_at, sets_text, stalemate_line, tile_text,
)
from bot.words.i18n import nt, t
from bot.outgoing.keyboard import Button
from bot.words.texts import option_label

PER_PAGE = 10
_PATH = re.compile(r"t(\d{1,2})(?:p(\d{1,3})|c(\d{1,4}))?")


class UI(GameUI):
    kind = "trio"
    sign = "🔷"
    low_score_wins = True
    has_private = True
    moves_in_private = True

    def score(self, outcome: dict, seat: int) -> int | None:
        """Tiles left in hand (fewer is better)."""
        return int(outcome["scores"][seat])

    def best_score_text(self, best: int, lang: str) -> str:
        return nt(lang, "best: {n} tile left in hand at the end", "best: {n} tiles left in hand at the end", best)

    def forced_move(self, state):
        """A player who cannot lay a tile under the die draws: nobody has to press for it."""
        return engine.Draw() if engine.must_draw(state) else None

    # ---- the group table ---------------------------------------------------------------

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lang = ctx.lang
        head = [t(lang, "🔷 <b>Trio</b> · tiles in the pool: {n}", n=view["pool"])]
        # Every roll is an event (the set-up's too: ``opening_events``), so the story tells it.
        story = self.story(ctx, ctx.game.last_events)
        rows: list[list[Button]] = []
        current = view["current"]
        tail = []
        if cancelled(ctx):
            tail.append(cancelled_line(lang))
        elif current is not None:
            tail.append(t(lang, "Now: {name}: choose a tile in the private chat.", name=ctx.mention(current)))
            rows.append([Button(t(lang, "🔒 My tiles"), url=ctx.private_link(f"g{ctx.game.short_id}"))])
        else:
            tail.append(t(lang, "Game over: every hand is revealed."))
        names = ctx.plain_names
        return View(fit_caption(head, story, tail), rows,
                    image=partial(picture_of, self.table_picture(view, names, lang, [])),
                    image_key=image_key("trio", view, names, lang))

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]):
        return partial(drawing.table, view, words=picture_words(lang), names=names)  # the view rings the last tile

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        return narrate(ctx, events)

    def opening_events(self, ctx: Ctx) -> list[dict]:
        """The set-up rolls the die for the first player: narrate it, even if the bot draws for them."""
        view = ctx.public_view()
        return [{"kind": "Rolled", "seat": view["current"], "face": view["die"]}]

    def start_notice(self, ctx: Ctx) -> str:
        return t(ctx.lang, "Hands were dealt privately: open the private chat with me to see yours.")

    # ---- the private message -----------------------------------------------------------

    def private(self, ctx: Ctx, seat: int, path: str = "") -> View | None:
        view = ctx.seat_view(seat)
        lang = ctx.lang
        hand = view["hand"]
        if cancelled(ctx):
            return self._hand_view(ctx, view, cancelled_line(lang))
        if view["over"]:
            mine = self.private_result(ctx, seat)
            return self._hand_view(ctx, view, "\n".join(
                [t(lang, "🔷 <b>Trio</b>: the game is over, the results are in the group.")] + ([mine] if mine else [])))
        if view["current"] != seat:
            text = nt(lang, "🔷 <b>Trio</b>: your hand, {n} tile.", "🔷 <b>Trio</b>: your hand, {n} tiles.", len(hand))
            notice = self._own_last_turn(ctx, seat)
            return self._hand_view(ctx, view, "\n".join(
                [text] + ([notice] if notice else [])
                + [t(lang, "Waiting for {name}.", name=ctx.name(view["current"]))]))
        playable = view["playable"]
        m = _PATH.fullmatch(path)
        if m and int(m.group(1)) in playable:
            tile = int(m.group(1))
            places = engine.legal_placements(ctx.state, seat, tile)
            if m.group(3) is not None and 1 <= int(m.group(3)) <= len(places):
                return self._confirm_view(ctx, view, tile, places, int(m.group(3)))
            page = int(m.group(2) or 0)
            return self._placements_view(ctx, view, tile, places, page)
        return self._choose_tile_view(ctx, view)

    def _own_last_turn(self, ctx: Ctx, seat: int) -> str:
        """A reminder when the bot drew or passed for this seat on its last turn."""
        for e in reversed(ctx.game.last_events):
            if e.get("seat") == seat and e["kind"] in ("Laid", "Drew"):
                if e["kind"] == "Drew":
                    return t(ctx.lang, "You could not lay a tile, so I drew one for you.") if e["drew"] \
                        else t(ctx.lang, "You could not lay a tile and the pool is empty, so you passed.")
                return ""
        return ""

    @staticmethod
    def _hand_view(ctx: Ctx, view: dict, text: str, rows=None, playable=None) -> View:
        tiles = view["hand"]
        lang = ctx.lang
        marks = None if playable is None else [i for i, x in enumerate(tiles) if x in playable]
        return View(text, rows or [],
                    image=partial(picture_of, drawing.hand, tiles, words=picture_words(lang), playable=marks),
                    image_key=image_key("trio-hand", tiles, marks, lang))

    def _choose_tile_view(self, ctx: Ctx, view: dict) -> View:
        lang = ctx.lang
        face = face_text(view["die"], lang)
        lines = [ctx.your_turn(t(lang, "🔷 <b>Trio</b>: your turn! The die shows {face}.", face=face)),
                 t(lang, "Lay a tile touching a symbol with {face} so that it forms a set. Choose a tile:",
                   face=face)]
        playable = view["playable"]
        if not playable:  # the bot draws for the player; shown only for a moment, if at all
            lines[1] = t(lang, "You cannot lay any tile.")
        # A tile with one place goes straight to its ✅ (a list of one place would only repeat it).
        buttons = [Button(f"{i + 1}: {tile_text(x, lang)}",
                          f"~t{x}c1" if len(engine.legal_placements(ctx.state, view["current"], x)) == 1 else f"~t{x}")
                   for i, x in enumerate(view["hand"]) if x in playable]
        return self._hand_view(ctx, view, "\n".join(lines), keyboard.chunk(buttons, 1), playable)

    def _placements_view(self, ctx: Ctx, view: dict, tile: int, places: list, page: int) -> View:
        lang = ctx.lang
        pages = max(1, (len(places) + PER_PAGE - 1) // PER_PAGE)
        page = max(0, min(page, pages - 1))
        first = page * PER_PAGE
        numbers = range(first + 1, min(len(places), first + PER_PAGE) + 1)
        text = nt(lang, "🔷 <b>Trio</b>: {tile} fits in {n} place. Tap its number.",
                  "🔷 <b>Trio</b>: {tile} fits in {n} places. Tap a number.", len(places), tile=tile_text(tile, lang))
        if pages > 1:
            text += "\n" + t(lang, "Page {page} of {pages}.", page=page + 1, pages=pages)
        rows = keyboard.chunk([Button(str(k), f"~t{tile}c{k}") for k in numbers], 5)
        turn_pages = []
        if page > 0:
            turn_pages.append(Button("◀", f"~t{tile}p{page - 1}"))
        if page < pages - 1:
            turn_pages.append(Button("▶", f"~t{tile}p{page + 1}"))
        rows.append(turn_pages)
        rows.append([Button(t(lang, "◀️ Back"), "~")])
        public = ctx.public_view()
        return View(text, rows,
                    image=partial(picture_of, drawing.placements, public, tile, places, words=picture_words(lang),
                                  page=page, per_page=PER_PAGE),
                    image_key=image_key("trio-places", public["tiles"], public["die"], tile, page, lang))

    def _confirm_view(self, ctx: Ctx, view: dict, tile: int, places: list, k: int) -> View:
        lang = ctx.lang
        a, b = places[k - 1]
        sets = sets_at(view, tile, a, b)
        text = nt(lang, "🔷 <b>Trio</b>: lay {tile} at place {k}? It forms a set: {sets}.",
                  "🔷 <b>Trio</b>: lay {tile} at place {k}? It forms {n} sets: {sets}.", len(sets),
                  tile=tile_text(tile, lang), k=k, sets=sets_text(sets, lang))
        rows = [[Button(t(lang, "✅ Confirm"), engine.encode_action(engine.Lay(tile, a, b))),
                 Button(t(lang, "◀️ Back"), f"~t{tile}p{(k - 1) // PER_PAGE}" if len(places) > 1 else "~")]]
        public = ctx.public_view()
        # (the picture has no words: one for every language)
        return View(text, rows,
                    image=partial(picture_of, drawing.confirm, public, tile, a, b),
                    image_key=image_key("trio-confirm", public["tiles"], public["die"], tile, a, b))

    def press(self, ctx: Ctx, seat: int | None, where: str, action: str) -> Reply:
        if seat is not None and where == "table":
            return Alert(t(ctx.lang, "Choose your tile in the private chat: tap 🔒 My tiles."))
        return super().press(ctx, seat, where, action)

    # ---- the end -----------------------------------------------------------------------

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lang = ctx.lang
        out = view["outcome"]
        places = out["places"]
        lines = [t(lang, "🏁 <b>Trio</b>: results")]
        if out["reason"] == "empty_hand":
            winner = next(s for s, h in enumerate(view["hands"]) if not h)
            lines.append(t(lang, "{name} laid their last tile.", name=ctx.name(winner)))
        else:
            lines.append(stalemate_line(lang))
        winners = [s for s in range(view["players"]) if places[s] == 1]
        lines.append(nt(lang, "🏆 Winner: {names}", "🏆 Winners: {names}", len(winners),
                        names=", ".join(ctx.name(s) for s in winners)))
        lines.append("")
        for s in sorted(range(view["players"]), key=lambda s: (places[s], s)):
            hand = view["hands"][s]
            detail = nt(lang, "{n} tile: {tiles}", "{n} tiles: {tiles}", len(hand), tiles=hand_text(hand, lang)) \
                if hand else t(lang, "no tiles left")
            lines.append(f"{medal(places[s])} {ctx.name(s)}: {detail}")
        return "\n".join(lines)

    def private_result(self, ctx: Ctx, seat: int) -> str | None:
        view = ctx.public_view()
        if view["outcome"] is None or cancelled(ctx):
            return None
        lang = ctx.lang
        places = view["outcome"]["places"]
        left = len(view["hands"][seat])
        if not left:
            detail = t(lang, "no tiles left")
        elif view["outcome"]["reason"] == "empty_hand":
            detail = nt(lang, "{n} tile left in hand", "{n} tiles left in hand", left)
        else:
            detail = nt(lang, "{n} tile left in hand (the fewest win)", "{n} tiles left in hand (the fewest win)",
                        left)
        return self.private_line(ctx, places[seat], places, detail)

    def series_points(self, state, seats: int) -> list[float]:
        """By place (docs/series.md): the rulebook keeps no score beyond the winner."""
        return points_by_place(list(engine.outcome(state).places))

    def rules(self, lang: str) -> str:
        return t(lang, TRIO_RULES, strict_lines=option_label("strict_lines", lang)) + "\n" + series_rule(lang)


TRIO_RULES = (
    "<b>Trio</b> (2-4 players)\n"
    "36 tiles, dominoes of two symbols: every pair of two different symbols among 9 (hexagon, circle, "
    "star in red, blue, yellow). Each player holds 5 tiles, hidden (I send yours privately); one tile "
    "from the pool starts the board, an unbounded square grid.\n"
    "A <b>set</b> is exactly three symbols in a straight line (across, down or diagonal), side by side: "
    "all different colours and all different shapes; or all different colours with the same shape; or "
    "the same colour with all different shapes. Two alike, or three identical, is not a set.\n"
    "On your turn I roll the die (red, blue, yellow, hexagon, circle, star). Lay one tile on two empty "
    "cells side by side so that:\n"
    "• one of its cells touches by an edge a symbol with the rolled colour or shape (that symbol need not "
    "be in the new set);\n"
    "• every line of exactly three symbols through a new symbol is a set (lines of 2 are fine; lines of "
    "4 or more are allowed and are not sets; the option «{strict_lines}» forbids them);\n"
    "• at least one new set of three is formed.\n"
    "If you cannot lay any tile, I draw one from the pool for you (if any) and your turn ends.\n"
    "The first player with no tiles wins. If the pool is empty and a whole round passes with nobody able "
    "to lay a tile, the fewest tiles in hand wins; ties share the place."
)
