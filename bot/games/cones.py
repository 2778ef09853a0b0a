"""The cones game (Kabaleo) in the chat: goals by private message, moves on the group table.

The player to move taps one of their chip colours, then a pile among the legal ones (a Back
returns to the colours). The **My goal** button shows the presser's own goal as a pop-up;
anyone else learns nothing. Goals appear nowhere else until the end.
"""
from __future__ import annotations

from engines import cones as engine
from render import cones as drawing
from functools import partial

from render.common import picture_of
from bot import keyboard
from bot.games.base import Alert, Ctx, GameUI, Reply, View, image_key
from bot.games.colours import colour
from bot.i18n import t
from bot.keyboard import Button
from bot.refusals import Refused


class UI(GameUI):
    kind = "cones"

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lang = ctx.lang
        lines = [t(lang, "🎲 <b>Cones</b> · chips left: {n}", n=sum(view["supply_left"]))]
        lines += self.story(ctx, ctx.game.last_events)[-3:]
        rows: list[list[Button]] = []
        current = view["to_move"]
        chosen = path[2:] if path.startswith("c.") else None
        if current is not None:
            if chosen and view["supplies"][current].get(engine.COLOUR_OF_LETTER.get(chosen, ""), 0):
                col = engine.COLOUR_OF_LETTER[chosen]
                piles = engine.legal_piles(ctx.state, current, col)
                lines.append(t(lang, "{name} plays {colour}: choose a pile.", name=ctx.mention(current),
                               colour=colour(col, lang)))
                rows += keyboard.chunk([Button(str(p), engine.encode_action(engine.Play(col, p))) for p in piles], 6)
                rows.append([Button(t(lang, "◀️ Back"), "~")])
            else:
                lines.append(t(lang, "Now: {name}: choose a chip colour.", name=ctx.mention(current)))
                chips = [Button(f"{colour(c, lang)} ×{n}", f"~c.{engine.LETTER[c]}")
                         for c, n in view["supplies"][current].items() if n]
                rows += keyboard.chunk(chips, 3)
            rows.append([Button(t(lang, "🔒 My goal"), "?goal", turn_free=True)])
        else:
            lines.append(t(lang, "Game over: every goal is revealed."))
        names = ctx.plain_names
        return View("\n".join(lines), rows,
                    image=partial(picture_of, drawing.table, view, lang=lang, names=names),
                    image_key=image_key("cones", view, names, lang))

    def press(self, ctx: Ctx, seat: int | None, where: str, action: str) -> Reply:
        if action == "?goal":
            if seat is None:
                raise Refused("not_playing")
            goal = ctx.seat_view(seat)["goal"]
            return Alert(t(ctx.lang, "Your goal: {colour}. Keep it secret!", colour=colour(goal, ctx.lang)))
        return super().press(ctx, seat, where, action)

    def private(self, ctx: Ctx, seat: int, path: str = "") -> View | None:
        goal = ctx.seat_view(seat)["goal"]
        lang = ctx.lang
        text = t(lang, "🔒 Your secret goal in this game of Cones: {colour}.\n"
                       "Make it the colour of as many piles as you can, without giving it away.",
                 colour=f"<b>{colour(goal, lang)}</b>")
        return View(text, [], image=partial(picture_of, drawing.goal, goal, lang=lang),
                    image_key=image_key("cones-goal", goal, lang))

    def start_notice(self, ctx: Ctx) -> str:
        return t(ctx.lang, "Goals were sent privately.")

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

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lang = ctx.lang
        lines = [t(lang, "🏁 <b>Cones</b>: results"), ""]
        counts = sorted(view["piles_by_colour"].items(), key=lambda kv: -kv[1])
        lines.append(t(lang, "Piles per colour: {list}",
                       list=", ".join(f"{colour(c, lang)} {n}" for c, n in counts)))
        lines.append("")
        places = view["places"]
        order = sorted(range(view["players"]), key=lambda s: (places[s], s))
        for s in order:
            sc = view["scores"][s]
            medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(places[s], f"{places[s]}.")
            lines.append(t(lang, "{medal} {name}: goal {colour}, {piles} piles ({chips} with chips, tallest {tallest})",
                           medal=medal, name=ctx.name(s), colour=colour(sc["goal"], lang), piles=sc["piles"],
                           chips=sc["piles_with_chips"], tallest=sc["tallest"]))
        for a, b in zip(order, order[1:]):
            sa, sb = view["scores"][a], view["scores"][b]
            if sa["piles"] != sb["piles"]:
                continue
            if sa["piles_with_chips"] != sb["piles_with_chips"]:
                lines.append(t(lang, "{a} and {b} have {n} piles each: {a} has more piles with chips ({x} against {y}).",
                               a=ctx.name(a), b=ctx.name(b), n=sa["piles"], x=sa["piles_with_chips"],
                               y=sb["piles_with_chips"]))
            elif sa["tallest"] != sb["tallest"]:
                lines.append(t(lang, "{a} and {b} are level on piles and piles with chips: {a} has the taller pile "
                                     "({x} chips against {y}).", a=ctx.name(a), b=ctx.name(b),
                               x=sa["tallest"], y=sb["tallest"]))
            else:
                lines.append(t(lang, "{a} and {b} are level on every tie-break and share the place.",
                               a=ctx.name(a), b=ctx.name(b)))
        if view.get("undrawn"):
            lines.append(t(lang, "Nobody's colours (they never win): {list}.",
                           list=", ".join(f"{colour(c, lang)} {view['piles_by_colour'].get(c, 0)}"
                                          for c in view["undrawn"])))
        return "\n".join(lines)

    def rules(self, lang: str) -> str:
        return t(lang, CONES_RULES)


CONES_RULES = (
    "<b>Cones</b> (Kabaleo, 2-4 players)\n"
    "Colours in play: players + 2. Each player secretly gets a goal colour (I send it privately; the "
    "🔒 My goal button shows it again); two colours are nobody's. 16/20/24 numbered piles stand on bases; "
    "chips are dealt at random (12/10/9 each) or, with the option, equally (2-3 players). Supplies are public.\n"
    "On your turn play one chip on a pile:\n"
    "• on a bare base of another colour: the pile takes your colour (never on a base of its own colour);\n"
    "• on a chip of another colour: the pile takes your colour;\n"
    "• on a chip of the same colour: both chips leave the game and the pile shows what is below.\n"
    "Bases never leave; piles have no height limit. Option: not on the pile just played.\n"
    "When every chip is played, goals are revealed. Most piles of your colour wins; ties: more such piles "
    "with chips, then the tallest such pile; a colour nobody holds never wins."
)
