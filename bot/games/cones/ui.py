"""The cones game (Kabaleo) in the chat: goals by private message, moves on the group table.

The player to move taps one of their chip colours, then a pile: the chip is played (the toast
says what it did). Only where two chips of that colour would leave the game does the pile show a
preview first, to confirm with ✅ Play (◀️ Back at each step). Piles the chip may not go on stay
on the keyboard as «🚫 7»: a tap answers why (its bare base has the chip's colour; the option
«Not the same pile» and the last move). Navigation paths (without the leading "~"):

    ""          choose a chip colour
    "c.b"       blue chosen: choose a pile (a pile's button is the engine's action "b7", or
                the preview's path below)
    "c.b.7"     blue on a blue pile 7: the preview, ✅ Play (the engine's action "b7") or ◀️ Back

The **My goal** button shows the presser's own goal as a pop-up; anyone else learns nothing.
Goals appear nowhere else until the end.
"""
from __future__ import annotations

import re
from functools import lru_cache, partial

from engines import cones as engine
from render import cones as drawing
from render.common import picture_of
from bot.outgoing import keyboard
from bot.games.base import Alert, Ctx, GameUI, Nav, Reply, View, cancelled, cancelled_line, image_key, points_by_place, series_rule
from bot.words.format import medal
from bot.games.colours import colour, colour_name
from bot.words.i18n import labels, nt, t
from bot.outgoing.keyboard import Button
from bot.words.refusals import Refused
from bot.words.texts import option_label

_PATH = re.compile(r"c\.([a-z])(?:\.(\d{1,2}))?")
_REFUSED = re.compile(r"x\.([a-z])\.(\d{1,2})")  # a 🚫 pile: the press only explains
GOAL = "?goal"  # 🔒 My goal: the presser's own goal as a pop-up


@lru_cache(maxsize=None)
def picture_words(lang: str) -> dict[str, str]:
    """The pictures' labels and the colours' names in ``lang`` (one dict per language: the
    replay's frames share it)."""
    return labels(lang, "picture:cones", drawing.LABELS) | {c: colour_name(c, lang) for c in engine.ALL_COLOURS}


def piles_text(lang: str, n: int) -> str:
    return nt(lang, "{n} pile", "{n} piles", n)


class UI(GameUI):
    kind = "cones"
    sign = "🔺"
    has_private = True

    def score(self, outcome: dict, seat: int) -> int | None:
        """Piles of the player's goal colour."""
        return int(outcome["scores"][seat]["piles"])

    def best_score_text(self, best: int, lang: str) -> str:
        return nt(lang, "best: {n} pile of your colour", "best: {n} piles of your colour", best)

    # ---- the table ---------------------------------------------------------------------

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lang = ctx.lang
        lines = [t(lang, "🔺 <b>Cones</b> · chips left: {n}", n=sum(view["supply_left"]))]
        lines += self.story(ctx, ctx.game.last_events)[-3:]
        rows: list[list[Button]] = []
        current = view["to_move"]
        if cancelled(ctx):
            lines.append(cancelled_line(lang))
        elif current is not None:
            col, pile = self._choice(ctx, view, path)
            if col is not None and pile is not None:
                lines.append(self._preview(ctx, view, current, col, pile))
                rows.append([Button(t(lang, "✅ Play"), engine.encode_action(engine.Play(col, pile))),
                             Button(t(lang, "◀️ Back"), f"~c.{engine.LETTER[col]}")])
            elif col is not None:
                letter = engine.LETTER[col]
                legal = set(engine.legal_piles(ctx.state, current, col))
                lines.append(t(lang, "{name} · chip {colour}: choose a pile.", name=ctx.mention(current),
                               colour=colour(col, lang)))
                piles = [Button(str(p["number"]), self._pile_action(col, p)) if p["number"] in legal
                         else Button(f"🚫 {p['number']}", f"x.{letter}.{p['number']}")
                         for p in view["piles"]]
                rows += keyboard.chunk(piles, 6)
                rows.append([Button(t(lang, "◀️ Back"), "~")])
            else:
                lines.append(t(lang, "Now: {name}: choose a chip colour.", name=ctx.mention(current)))
                chips = [Button(f"{colour(c, lang)} ×{n}", f"~c.{engine.LETTER[c]}")
                         for c, n in view["supplies"][current].items() if n]
                rows += keyboard.chunk(chips, 3)
            rows.append([Button(t(lang, "🔒 My goal"), GOAL, turn_free=True)])
        else:
            lines.append(t(lang, "Game over: every goal is revealed."))
        names = ctx.plain_names
        return View("\n".join(lines), rows, image=partial(picture_of, self.table_picture(view, names, lang, [])),
                    image_key=image_key("cones", view, names, lang))

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]):
        return partial(drawing.table, view, words=picture_words(lang), names=names)  # the view marks the last pile

    @staticmethod
    def _choice(ctx: Ctx, view: dict, path: str) -> tuple[str | None, int | None]:
        """(colour, pile) a path names, each None when not chosen or no longer possible: a
        colour must be in the mover's supply, a pile legal for it (else: back to the piles)."""
        m = _PATH.fullmatch(path or "")
        current = view["to_move"]
        if not m or current is None:
            return None, None
        col = engine.COLOUR_OF_LETTER.get(m.group(1))
        if col is None or not view["supplies"][current].get(col, 0):
            return None, None
        pile = int(m.group(2)) if m.group(2) else None
        if pile is not None and pile not in engine.legal_piles(ctx.state, current, col):
            pile = None
        return col, pile

    @staticmethod
    def _pile_action(col: str, pile: dict) -> str:
        """A pile's button: the move itself where what the chip does is plain (it covers the base
        or turns the pile its colour); the preview and ✅ where two chips of a colour leave the
        game, which is worth a second look."""
        if pile["chips"] and pile["top"] == col:
            return f"~c.{engine.LETTER[col]}.{pile['number']}"
        return engine.encode_action(engine.Play(col, pile["number"]))

    @staticmethod
    def _preview(ctx: Ctx, view: dict, seat: int, col: str, number: int) -> str:
        """What the chip will do on that pile, with the question."""
        lang = ctx.lang
        pile = view["piles"][number - 1]
        chip = colour(col, lang)
        if not pile["chips"]:
            effect = t(lang, "it covers the {base} base and the pile becomes {colour}.",
                       base=colour(pile["base"], lang), colour=chip)
        elif pile["top"] != col:
            effect = t(lang, "the pile turns from {before} to {colour}.", before=colour(pile["top"], lang),
                       colour=chip)
        else:
            below = pile["chips"][-2] if len(pile["chips"]) > 1 else pile["base"]
            effect = t(lang, "both {colour} chips leave the game and the pile is {after} again.",
                       colour=chip, after=colour(below, lang))
        return t(lang, "{name} · {colour} on pile {pile}: {effect} Play it?", name=ctx.mention(seat),
                 colour=chip, pile=number, effect=effect)

    def press(self, ctx: Ctx, seat: int | None, where: str, action: str) -> Reply:
        lang = ctx.lang
        if action == GOAL:
            if seat is None:
                raise Refused("not_playing")
            goal = ctx.seat_view(seat)["goal"]
            return Alert(t(lang, "Your goal: {colour}. Keep it secret!", colour=colour(goal, lang)))
        refused = _REFUSED.fullmatch(action)
        if refused:
            if seat is None:
                raise Refused("not_playing")
            view = ctx.public_view()
            if seat != view["to_move"]:
                raise Refused("not_your_turn", name=ctx.game.seats[view["to_move"]].name)
            col = engine.COLOUR_OF_LETTER.get(refused.group(1))
            number = int(refused.group(2))
            if col is None or not 1 <= number <= len(view["piles"]):
                raise Refused("bad_button")
            if number in engine.legal_piles(ctx.state, seat, col):
                return Nav(f"c.{refused.group(1)}.{number}")
            return Alert(self._why_not(view, col, number, lang))
        return super().press(ctx, seat, where, action)

    @staticmethod
    def _why_not(view: dict, col: str, number: int, lang: str) -> str:
        pile = view["piles"][number - 1]
        if view["blocked_pile"] == number:
            return t(lang, "🚫 Pile {pile} was played on just now: with the option «{option}» it must wait a turn.",
                     pile=number, option=option_label("no_same_pile", lang))
        if not pile["chips"] and pile["base"] == col:
            return t(lang, "🚫 Pile {pile} is a bare {colour} base: a chip never goes on a base of its own colour.",
                     pile=number, colour=colour(col, lang))
        return t(lang, "🚫 No chip of that colour can go on pile {pile} now.", pile=number)

    # ---- private -----------------------------------------------------------------------

    def private(self, ctx: Ctx, seat: int, path: str = "") -> View | None:
        goal = ctx.seat_view(seat)["goal"]
        lang = ctx.lang
        text = t(lang, "🔒 Your secret goal in this game of Cones: {colour}.\n"
                       "Make it the colour of as many piles as you can, without giving it away.",
                 colour=f"<b>{colour(goal, lang)}</b>")
        if cancelled(ctx):
            text += "\n" + cancelled_line(lang)
        elif (mine := self.private_result(ctx, seat)) is not None:
            text += "\n\n" + mine
        return View(text, [], image=partial(picture_of, drawing.goal, goal, words=picture_words(lang)),
                    image_key=image_key("cones-goal", goal, lang))

    def start_notice(self, ctx: Ctx) -> str:
        return t(ctx.lang, "Goals were sent privately.")

    # ---- captions ----------------------------------------------------------------------

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        out = []
        lang = ctx.lang
        for e in events:
            if e["kind"] == "Played":
                who, c, pile = ctx.name(e["seat"]), colour(e["colour"], lang), e["pile"]
                if e["result"] == "covered_base":
                    out.append(t(lang, "{name} played {colour} on pile {pile}: the {base} base is covered.",
                                 name=who, colour=c, pile=pile, base=colour(e["base"], lang)))
                elif e["result"] == "recoloured":
                    out.append(t(lang, "{name} played {colour} on pile {pile}: {before} becomes {colour}.",
                                 name=who, colour=c, pile=pile, before=colour(e["before"], lang)))
                else:
                    out.append(t(lang, "{name} played {colour} on pile {pile}: {colour} cancels {colour}, "
                                       "pile {pile} is {after} again.",
                                 name=who, colour=c, pile=pile, after=colour(e["after"], lang)))
            elif e["kind"] == "GameEnded":
                out.append(t(lang, "All chips are played."))
        return out

    # ---- the end -----------------------------------------------------------------------

    @staticmethod
    def _order(view: dict) -> list[int]:
        places = view["places"]
        return sorted(range(view["players"]), key=lambda s: (places[s], s))

    @staticmethod
    def _tie_break(sa: dict, sb: dict) -> str | None:
        """What separates two players level on piles: "chips", "tallest", "none" (a full tie);
        None when the piles already differ."""
        if sa["piles"] != sb["piles"]:
            return None
        if sa["piles_with_chips"] != sb["piles_with_chips"]:
            return "chips"
        if sa["tallest"] != sb["tallest"]:
            return "tallest"
        return "none"

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lang = ctx.lang
        places, scores = view["places"], view["scores"]
        order = self._order(view)
        winners = [s for s in order if places[s] == 1]
        lines = [t(lang, "🏁 <b>Cones</b>: results")]
        if len(winners) > 1:
            lines.append(t(lang, "🏆 A shared win: {names}.", names=", ".join(ctx.name(s) for s in winners)))
        else:
            w = winners[0]
            lines.append(nt(lang, "🏆 {name} wins: {n} pile of {colour}.", "🏆 {name} wins: {n} piles of {colour}.",
                            scores[w]["piles"], name=ctx.name(w), colour=colour(scores[w]["goal"], lang)))
        lines.append("")
        for s in order:
            lines.append(t(lang, "{medal} {name}: goal {colour}, {piles}", medal=medal(places[s]), name=ctx.name(s),
                           colour=colour(scores[s]["goal"], lang), piles=piles_text(lang, scores[s]["piles"])))
        # Tie-break figures only where piles were level.
        for a, b in zip(order, order[1:]):
            sa, sb = scores[a], scores[b]
            decided = self._tie_break(sa, sb)
            if decided == "chips":
                lines.append(nt(lang, "{a} and {b} have {n} pile each; piles with chips decide: {a} {x}, {b} {y}.",
                                "{a} and {b} have {n} piles each; piles with chips decide: {a} {x}, {b} {y}.",
                                sa["piles"], a=ctx.name(a), b=ctx.name(b), x=sa["piles_with_chips"],
                                y=sb["piles_with_chips"]))
            elif decided == "tallest":
                lines.append(t(lang, "{a} and {b} are level on piles and on piles with chips; the tallest pile "
                                     "decides: {a} {x} chips, {b} {y}.", a=ctx.name(a), b=ctx.name(b),
                               x=sa["tallest"], y=sb["tallest"]))
            elif decided == "none":
                lines.append(t(lang, "{a} and {b} are level on every tie-break and share the place.",
                               a=ctx.name(a), b=ctx.name(b)))
        lines.append("")
        counts = sorted(view["piles_by_colour"].items(), key=lambda kv: -kv[1])
        lines.append(t(lang, "Piles per colour: {list}",
                       list=", ".join(f"{colour(c, lang)} {n}" for c, n in counts)))
        if view.get("undrawn"):
            lines.append(t(lang, "Colours without an owner (they never win): {list}.",
                           list=", ".join(colour(c, lang) for c in view["undrawn"])))
        return "\n".join(lines)

    def private_result(self, ctx: Ctx, seat: int) -> str | None:
        view = ctx.public_view()
        if not view["over"] or cancelled(ctx):
            return None
        lang = ctx.lang
        places, scores = view["places"], view["scores"]
        mine = scores[seat]
        detail = t(lang, "goal {colour}: {piles}", colour=colour(mine["goal"], lang),
                   piles=piles_text(lang, mine["piles"]))
        order = self._order(view)
        k = order.index(seat)
        for other in order[max(0, k - 1):k] + order[k + 1:k + 2]:
            decided = self._tie_break(mine, scores[other])
            if decided == "chips":
                detail += "; " + t(lang, "level with {name} on piles, piles with chips decided: {x} against {y}",
                                   name=ctx.name(other), x=mine["piles_with_chips"],
                                   y=scores[other]["piles_with_chips"])
            elif decided == "tallest":
                detail += "; " + t(lang, "level with {name} on piles and piles with chips, the tallest pile "
                                         "decided: {x} against {y}", name=ctx.name(other), x=mine["tallest"],
                                   y=scores[other]["tallest"])
        return self.private_line(ctx, places[seat], places, detail)

    def series_points(self, state, seats: int) -> list[float]:
        """By place (docs/series.md): the rulebook keeps no score beyond the winner."""
        return points_by_place(list(engine.outcome(state).places))

    def rules(self, lang: str) -> str:
        return t(lang, CONES_RULES, equal=option_label("equal", lang),
                 no_same_pile=option_label("no_same_pile", lang)) + "\n" + series_rule(lang)


CONES_RULES = (
    "<b>Cones</b> (Kabaleo, 2-4 players)\n"
    "Colours in play: players + 2. Each player secretly gets a goal colour (I send it privately; the "
    "🔒 My goal button shows it again); two colours have no owner. 16/20/24 numbered piles stand on bases; "
    "chips are dealt at random (12/10/9 each) or, with the option «{equal}», equally (2-3 players). "
    "Supplies are public.\n"
    "On your turn play one chip on a pile:\n"
    "• on a bare base of another colour: the pile takes the chip's colour (never on a base of its own colour);\n"
    "• on a chip of another colour: the pile takes the chip's colour;\n"
    "• on a chip of the same colour: both chips leave the game and the pile shows what is below.\n"
    "Bases never leave; piles have no height limit. With the option «{no_same_pile}» nobody plays on the "
    "pile the previous move was played on.\n"
    "Tap a chip colour, then a pile, then ✅ Play; a pile marked 🚫 tells you why it is closed.\n"
    "When every chip is played, goals are revealed. Most piles of your goal colour wins; ties: more such "
    "piles with chips, then the tallest such pile; a colour without an owner never wins."
)
