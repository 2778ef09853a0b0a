"""Ingenious (genial) in the chat: the board on the group table, racks by private message.

The group sees the table (render.genial.table of the public view, the latest placement rimmed)
with a caption narrating placements and their points per colour, «Ingenious!» bonuses, swaps
(never a rack) and the end. Each player's private message shows their rack and, on their turn,
the move entry of bot/games/genial/entry.py (tile → numbered placement on a picture → preview →
confirm) or the Swap / Keep decision. Moves may also be typed there ("3 F7 F8").

Solo (one player, usually in the private chat): there is no rack, the drawn tile is public, so
the table itself carries the move entry and private() is None.
"""
from __future__ import annotations

import re
from functools import partial

from engines import genial as engine
from engines import registry
from render import genial as drawing
from render.common import picture_of
from bot.games.base import Act, Alert, Ctx, GameUI, Reply, View, cancelled, cancelled_line, image_key, points_by_place, series_rule
from bot.words.format import fit_caption
from bot.games.colours import EMOJI, colour
from bot.games.genial.entry import compose, picture_words, rack_image, tile_emoji, tile_words
from bot.games.genial.text import move_error, narrate_events, private_detail, results_text
from bot.words.i18n import nt, t
from bot.outgoing.keyboard import Button
from bot.words.numbers import has_foreign_digits
from bot.words.refusals import Refused
from bot.words.texts import game_name, option_label

# (a row letter may be Latin or Cyrillic: U+0401, U+0410-U+044F, U+0451)
MOVE_RE = re.compile(r"^\s*(\d+\s*[,;.\-–—/]?\s*)?[A-Za-z\u0401\u0410-\u044f\u0451]\s*\d{1,2}\b")


class UI(GameUI):
    kind = "genial"
    sign = "⬢"
    has_private = True
    moves_in_private = True
    moves_on_page = True

    def score(self, outcome: dict, seat: int) -> int | None:
        """The lowest colour (what places are decided by first)."""
        return int(outcome["scores"][seat][0])

    def best_score_text(self, best: int, lang: str) -> str:
        return nt(lang, "best: {n} point in the lowest colour", "best: {n} points in the lowest colour", best)

    def teams(self, options: dict, seats: int) -> list[int]:
        """Partners sit opposite: players 1+3 against 2+4 (the engine's ``holder``)."""
        return [s % 2 for s in range(seats)] if options.get("team") else list(range(seats))

    # ---- group table ---------------------------------------------------------------------

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lang = ctx.lang
        solo = view["solo"]
        head = t(lang, "⬢ <b>Ingenious</b> · bag: {n}", n=view["bag"])
        if view["team"]:
            head += " · " + t(lang, "teams")
        story = self.story(ctx, ctx.game.last_events)
        tail: list[str] = []
        rows: list[list[Button]] = []
        names = ctx.plain_names
        image = partial(picture_of, self.table_picture(view, names, lang, []))
        key = image_key("genial-table", view, names, lang)
        current = view["current"]
        if cancelled(ctx):
            tail.append(cancelled_line(lang))
        elif current is None:
            if not any(e.get("kind") in ("GameEnded", "InstantWin") for e in ctx.game.last_events):
                tail.append(t(lang, "Game over."))  # (else the story's last line already says how it ended)
        elif solo:
            tail.append(self._tracks_line(view, 0, lang))
            step = compose(ctx, 0, view, path)
            tail += step.lines
            rows = step.rows
            image, key = step.image, step.key
        else:
            prompt = t(lang, "Now: {name}", name=ctx.mention(current))
            if view["pending"] == engine.BONUS:
                if view["drawn"]:
                    prompt += " · " + t(lang, "bonus placement of {tile} drawn from the bag",
                                        tile=tile_words(view["drawn"], lang))
                else:
                    prompt += " · " + t(lang, "bonus placement from the rack")
            elif view["pending"] == engine.SWAP:
                prompt += " · " + t(lang, "swap the rack or keep it?")
            elif view["first_round"] and current in view["needs_first"]:
                prompt += " · " + t(lang, "first tile: next to a printed symbol nobody touches yet")
            tail.append(prompt)
            tail.append(t(lang, "Moves are made in the private chat with me."))
            rows = [[Button(t(lang, "💬 Open the private chat"),
                            url=ctx.private_link(f"g{ctx.game.short_id}"))]]
        text = fit_caption([head], story, [x for x in tail if x])
        return View(text, rows, image=image, image_key=key)

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]):
        """The latest placement rimmed."""
        highlight = [list(c) for c in view["last"]["cells"]] if view["last"] else []
        return partial(drawing.table, view, words=picture_words(lang), names=names, highlight=highlight)

    @staticmethod
    def _tracks_line(view: dict, holder: int, lang: str) -> str:
        values = view["scores"][holder]["values"]
        track = " ".join(f"{EMOJI[c]}{v}" for c, v in values.items())
        return t(lang, "Tracks: {track} · lowest: {n}", track=track, n=min(values.values()))

    # ---- private message -----------------------------------------------------------------

    def private(self, ctx: Ctx, seat: int, path: str = "") -> View | None:
        if len(ctx.game.seats) <= 1:
            return None
        view = ctx.seat_view(seat)
        lang = ctx.lang
        rack = view["rack"]
        listing = " · ".join(f"{k + 1} {tile_emoji(tl)}" for k, tl in enumerate(rack)) or "—"
        if view["my_turn"] and not view["over"] and not cancelled(ctx):
            lines = [ctx.your_turn(self.your_turn_line(ctx)), t(lang, "🔒 <b>Your rack</b>: {tiles}", tiles=listing)]
        else:
            lines = [t(lang, "🔒 <b>Your rack</b> in Ingenious: {tiles}", tiles=listing)]
        lines.append(self._tracks_line(view, view["holder_of"][seat], lang))
        if view["team"]:
            partner = next((s for s in view["scores"][view["holder_of"][seat]]["seats"] if s != seat), None)
            if partner is not None:
                lines[-1] += " " + t(lang, "(shared with {name})", name=ctx.name(partner))
        rows: list[list[Button]] = []
        image, key = rack_image(view)
        if cancelled(ctx):
            lines.append(cancelled_line(lang))
        elif view["over"]:
            lines.append(self.private_result(ctx, seat) or t(lang, "Game over."))
        elif not view["my_turn"]:
            lines.append(t(lang, "Now playing: {name}. I will write when it is your turn.",
                           name=ctx.name(view["current"])))
        elif view["pending"] == engine.SWAP:
            low = ", ".join(colour(c, lang) for c in view["scores"][view["holder_of"][seat]]["lowest"])
            lines.append(t(lang, "Your rack has no tile with your lowest colour ({colours}). "
                                 "Swap the whole rack for 6 new tiles, or keep it?", colours=low))
            rows = [[Button(t(lang, "🔄 Swap"), engine.encode_action(engine.Swap())),
                     Button(t(lang, "✋ Keep"), engine.encode_action(engine.Keep()))]]
        else:
            if view["pending"] == engine.BONUS:
                if view["drawn"]:
                    lines.append(t(lang, "🎉 Bonus placement: place {tile}, drawn from the bag.",
                                   tile=tile_words(view["drawn"], lang)))
                else:
                    lines.append(t(lang, "🎉 Bonus placement: place one more tile from your rack."))
            elif view["first_tile_rule"]:
                lines.append(t(lang, "Your first tile goes next to a printed symbol that has no other "
                                     "player's tile beside it yet."))
            step = compose(ctx, seat, view, path)
            lines += step.lines
            rows = step.rows
            image, key = step.image, step.key
        return View(fit_caption(lines, [], []), rows, image=image, image_key=key)

    # ---- typed moves ---------------------------------------------------------------------

    def typed(self, ctx: Ctx, seat: int, text: str) -> Reply | None:
        if not MOVE_RE.match(text or ""):
            return None
        view = ctx.seat_view(seat)
        lang = ctx.lang
        if view["over"]:
            return None
        if not view["my_turn"]:
            raise Refused("not_your_turn", name=ctx.game.seats[view["current"]].name)
        if has_foreign_digits(text):  # «٣ F٧ F٨»: numbers are ASCII digits
            return Alert(move_error(engine.MoveError("bad_text", ""), view, lang))
        if view["pending"] == engine.SWAP:
            return Alert(t(lang, "First decide whether to swap your rack: use the buttons."))
        try:
            move = engine.parse_move(text, view)
        except engine.MoveError as error:
            return Alert(move_error(error, view, lang))
        legal = {(tuple(a), tuple(b)) for a, b in engine.legal_placements(ctx.state, seat, [move.a, move.b])}
        if (move.cell_a, move.cell_b) not in legal and not (
                move.a == move.b and (move.cell_b, move.cell_a) in legal):
            return Alert(move_error(engine.MoveError("first_round", ""), view, lang))
        return Act(move)

    # ---- captions ------------------------------------------------------------------------

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        return narrate_events(ctx, events)

    def results(self, ctx: Ctx) -> str:
        return results_text(ctx)

    def private_result(self, ctx: Ctx, seat: int) -> str | None:
        if cancelled(ctx) or ctx.public_view()["outcome"] is None:
            return None
        place, places, detail = private_detail(ctx, seat)
        if len(places) == 1:  # solo: a score, no place
            return f"🏁 <b>{game_name(registry.info(self.kind), ctx.lang)}</b>: {detail}"
        return self.private_line(ctx, place, places, detail)

    def series_points(self, state, seats: int) -> list[float]:
        """By place (docs/series.md); in team play a team is one player of the ranking and both
        partners get its points."""
        places = list(engine.outcome(state).places)
        holders = [state.holder(seat) for seat in range(seats)]
        team_place = {h: places[seat] for seat, h in enumerate(holders)}
        teams = sorted(team_place)
        points = dict(zip(teams, points_by_place([team_place[h] for h in teams])))
        return [points[h] for h in holders]

    def rules(self, lang: str) -> str:
        return (t(lang, GENIAL_RULES, team=option_label("team", lang),
                  bonus_from_rack=option_label("bonus_from_rack", lang)) + "\n" + series_rule(lang)
                + " " + t(lang, "In team play a team counts as one player, and both partners get its points."))

    def start_notice(self, ctx: Ctx) -> str:
        if len(ctx.game.seats) <= 1:
            return ""
        return t(ctx.lang, "Racks were sent privately.")


GENIAL_RULES = (
    "<b>Ingenious</b> (Reiner Knizia; 1-4 players, or two teams of two with the option «{team}»)\n"
    "The board is a hexagon of hex cells (bigger for 3 and 4 players) with six printed colour symbols. "
    "Each player has a private rack of 6 tiles; a tile covers two touching cells, one colour on each.\n"
    "On your turn place a tile on two empty neighbouring cells. Your first tile must touch a printed "
    "symbol that no other player's tile touches yet.\n"
    "Each half scores for its colour: look from it along the five other directions and count the cells "
    "of the same colour in a row. Each colour track stops at 18; the excess is lost.\n"
    "«Ingenious!»: a colour reaching 18 gives a bonus placement at once (a tile drawn from the bag; "
    "with the option «{bonus_from_rack}»: from your rack). All six at 18 wins at once.\n"
    "If your rack has no tile with your lowest colour, you may swap the whole rack. Then refill to 6.\n"
    "The game ends when no two neighbouring cells are empty. Your score is your lowest colour; "
    "ties are broken by the next lowest, and so on.\n"
    "Moves: in the private chat tap a tile, then the number of a placement on the picture (those best for "
    "your lowest colour come first), check the preview and confirm. Or type «3 F7 F8»: tile 3, its first "
    "colour on F7 (rows are the letters at the sides of the board, cells are counted from the left). "
    "Solo: place the drawn tile, again and again; tracks go to 36 and your score is your lowest colour."
)
