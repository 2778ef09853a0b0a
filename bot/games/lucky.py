"""«Совершенно гениально» in the chat: everything is public, so the whole game runs on the table.

Buttons Draw / Bank / Take <colour> are pressed by the player whose turn it is; the caption
narrates the last events in the group's language.
"""
from __future__ import annotations

from engines import lucky as engine
from render import lucky as drawing
from functools import partial

from render.common import picture_of
from bot.games.base import Ctx, GameUI, View, image_key
from bot.games.colours import colour
from bot.i18n import nt, t
from bot.keyboard import Button

QUIET = {"CentreRefilled", "TurnPassed"}


class UI(GameUI):
    kind = "lucky"

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lines = [t(ctx.lang, "🎲 <b>Totally Genial</b> · goal: {target} of each colour", target=view["target"])]
        story = self.story(ctx, ctx.game.last_events)
        lines += story[-4:]
        rows: list[list[Button]] = []
        current = view["current"]
        if current is not None:
            prompt = t(ctx.lang, "Now: {name}", name=ctx.mention(current))
            if view["bonus"]:
                prompt += " " + t(ctx.lang, "(bonus turn)")
            lines.append(prompt)
            first = []
            if view["can_draw"]:
                first.append(Button(t(ctx.lang, "🎲 Draw"), "draw"))
            if view["can_bank"]:
                first.append(Button(t(ctx.lang, "💰 Bank"), "bank"))
            rows.append(first)
            if view["take"]:
                rows.append([Button(t(ctx.lang, "✋ Take {colour}", colour=colour(view["take"], ctx.lang)),
                                    f"take-{view['take']}")])
        else:
            lines.append(t(ctx.lang, "Game over."))
        names = ctx.plain_names
        lang = ctx.lang
        last = ctx.game.last_events[-6:]
        key = image_key("lucky", view, names, lang, [e for e in last if e["kind"] == "Drew"][-1:])
        return View("\n".join(lines), rows,
                    image=partial(picture_of, drawing.table, view, lang=lang, names=names, last=last),
                    image_key=key)

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        out = []
        lang = ctx.lang
        for e in events:
            kind = e["kind"]
            if kind in QUIET:
                continue
            if kind == "Drew":
                who = ctx.name(e["seat"])
                c = colour(e["colour"], lang)
                if e["result"] == engine.SUCCESS:
                    out.append(t(lang, "{name} drew {colour}: match! Draw again or bank?", name=who, colour=c))
                elif e["result"] == engine.BUST_NO_MATCH:
                    out.append(t(lang, "{name} drew {colour}: not in the centre. Bust!", name=who, colour=c) + " "
                               + nt(lang, "{n} token goes to the centre.", "{n} tokens go to the centre.",
                                    e["to_centre"]))
                else:
                    out.append(t(lang, "{name} drew {colour}: already in the zone. Bust!", name=who, colour=c) + " "
                               + nt(lang, "{n} token goes to the centre.", "{n} tokens go to the centre.",
                                    e["to_centre"]))
            elif kind == "Banked":
                gained = ", ".join(f"{n} {colour(c, lang)}" for c, n in e["gained"])
                line = t(lang, "{name} banked {tokens}.", name=ctx.name(e["seat"]), tokens=gained)
                if e["returned"]:
                    back = ", ".join(f"{n} {colour(c, lang)}" for c, n in e["returned"])
                    line += " " + t(lang, "Over the limit, back to the reserve: {tokens}.", tokens=back)
                out.append(line)
            elif kind == "Took":
                out.append(t(lang, "{name} took one {colour} from the centre (alternative move).",
                             name=ctx.name(e["seat"]), colour=colour(e["colour"], lang)))
            elif kind == "ColourCompleted":
                out.append(t(lang, "⭐ {name} completed {colour}!", name=ctx.name(e["seat"]),
                             colour=colour(e["colour"], lang)))
            elif kind == "BonusTurnsGranted":
                out.append(nt(lang, "Bonus turn for {name}!", "{n} bonus turns for {name}!", e["count"],
                              name=ctx.name(e["seat"])))
            elif kind == "ReserveReshuffled":
                out.append(nt(lang, "The reserve ran out: {n} token from the centre went back into it.",
                              "The reserve ran out: {n} tokens from the centre went back into it.",
                              e["returned"]))
            elif kind == "GameEnded":
                out.append(self._end_reason(lang, e["reason"]))
        return out

    @staticmethod
    def _end_reason(lang: str, reason: str) -> str:
        if reason == engine.REASON_COMPLETED:
            return t(lang, "🏆 Someone has every colour complete!")
        if reason == engine.REASON_STALL:
            return t(lang, "Nobody's collection grew for 20 rounds: the game ends.")
        return t(lang, "The reserve is empty: the game ends.")

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lang = ctx.lang
        places = view["places"] or [1] * view["players"]
        order = sorted(range(view["players"]), key=lambda s: (places[s], s))
        vectors = {s: sorted(view["collections"][s].values()) for s in order}
        lines = [t(lang, "🏁 <b>Totally Genial</b>: results"), self._end_reason(lang, view["reason"] or ""), ""]
        for s in order:
            weakest = view["weakest"][s]
            low = vectors[s][0]
            if low >= view["target"]:
                detail = t(lang, "all six colours complete")
            else:
                detail = t(lang, "weakest: {n} ({colours}); sorted: {all}", n=low,
                           colours=", ".join(colour(c, lang) for c in weakest),
                           all=" ".join(str(v) for v in vectors[s]))
            medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(places[s], f"{places[s]}.")
            lines.append(f"{medal} {ctx.name(s)}: {detail}")
        # Explain every tie on the weakest colour that the next colours broke.
        for a, b in zip(order, order[1:]):
            va, vb = vectors[a], vectors[b]
            if va[0] == vb[0] and va != vb:
                i = next(k for k in range(6) if va[k] != vb[k])
                lines.append(t(lang, "{a} is ahead of {b}: both have {low} at the weakest, then {x} against {y}.",
                               a=ctx.name(a), b=ctx.name(b), low=va[0], x=va[i], y=vb[i]))
            elif va == vb:
                lines.append(t(lang, "{a} and {b} tie exactly and share the place.", a=ctx.name(a), b=ctx.name(b)))
        return "\n".join(lines)

    def rules(self, lang: str) -> str:
        return t(lang, LUCKY_RULES)


LUCKY_RULES = (
    "<b>Totally Genial</b> (2-4 players)\n"
    "126 tokens, 21 of each of six colours, lie face down in the reserve; 3 are face up in the centre. "
    "Goal per colour: 7 with 2 players, 6 with 3 (option: 7), 5 with 4.\n"
    "At the start of every turn the centre is refilled to 3.\n"
    "• <b>Draw</b>: reveal a token into your zone. A match (the centre has that colour, your zone does not) "
    "lets you draw again or bank. No match, or a colour already in your zone: bust, the whole zone goes to "
    "the centre and your turn ends.\n"
    "• <b>Bank</b> (after a match): take your zone plus every centre token of those colours.\n"
    "• <b>Take</b> (instead of drawing): if exactly one colour is your fewest and the centre has it, take one.\n"
    "You keep at most the goal of a colour; the excess goes back to the reserve at the end of the turn. "
    "Each colour you complete gives a bonus turn. Complete all six to win at once; otherwise players are ranked "
    "by their weakest colour, then the next. In a series (as many games as players, so that everyone starts "
    "once, or as many as the host chooses) your weakest colour is your victory points.\n"
    "If the reserve runs out, the centre is shuffled back except 3; 20 rounds with no progress end the game."
)
