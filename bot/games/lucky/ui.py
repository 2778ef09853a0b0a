"""Totally Genial (lucky) in the chat: everything is public, so the whole game runs on the table.

Buttons Draw / Bank / Take <colour> are pressed by the player whose turn it is; the caption
narrates the last events in the group's language.
"""
from __future__ import annotations

from functools import lru_cache, partial

from engines import lucky as engine
from render import lucky as drawing
from render.common import picture_of
from bot.games.base import Ctx, GameUI, View, cancelled, cancelled_line, image_key
from bot.words.format import medal
from bot.games.colours import EMOJI, colour
from bot.words.i18n import labels, nt, t
from bot.outgoing.keyboard import Button
from bot.words.texts import option_label

QUIET = {"CentreRefilled", "TurnPassed"}


@lru_cache(maxsize=None)
def picture_words(lang: str) -> dict[str, str]:
    """The table's labels in ``lang`` (one dict per language: the replay's frames share it)."""
    return labels(lang, "picture:lucky", drawing.LABELS)

# "2 blue" with the noun agreeing (a Russian colour word takes three forms after 1, 2 and 5):
# literal calls, so that the catalogue extraction sees every pair.
_COUNTED = {
    "red": lambda lang, n: nt(lang, "{n} red", "{n} red", n),
    "orange": lambda lang, n: nt(lang, "{n} orange", "{n} orange", n),
    "yellow": lambda lang, n: nt(lang, "{n} yellow", "{n} yellow", n),
    "green": lambda lang, n: nt(lang, "{n} green", "{n} green", n),
    "blue": lambda lang, n: nt(lang, "{n} blue", "{n} blue", n),
    "purple": lambda lang, n: nt(lang, "{n} purple", "{n} purple", n),
}


def tokens_text(counts, lang: str) -> str:
    """"🔵 2 blue, 🔴 1 red" for [(colour, n), ...]."""
    return ", ".join(f"{EMOJI[c]} {_COUNTED[c](lang, n)}" for c, n in counts)


class UI(GameUI):
    kind = "lucky"
    sign = "🎲"

    def score(self, outcome: dict, seat: int) -> int | None:
        """Victory points (the rulebook's series scoring)."""
        return int(outcome["scores"][seat])

    def best_score_text(self, best: int, lang: str) -> str:
        return nt(lang, "best: {n} token of the weakest colour", "best: {n} tokens of the weakest colour", best)

    def series_points(self, state, seats: int) -> list[int]:
        """Victory points: the rulebook's series scoring."""
        return engine.victory_points(state)

    def table(self, ctx: Ctx, path: str = "") -> View:
        view = ctx.public_view()
        lang = ctx.lang
        lines = [t(lang, "🎲 <b>Totally Genial</b> · goal: {target} of each colour", target=view["target"])]
        story = self.story(ctx, ctx.game.last_events)
        lines += story[-4:]
        rows: list[list[Button]] = []
        current = view["current"]
        if cancelled(ctx):
            lines.append(cancelled_line(lang))
        elif current is not None:
            prompt = t(lang, "Now: {name}", name=ctx.mention(current))
            if view["bonus"]:
                prompt += " " + t(lang, "(bonus turn)")
            if view["can_bank"]:  # the one place that asks: the story only tells what happened
                prompt += " · " + t(lang, "draw again or bank?")
            lines.append(prompt)
            first = []
            if view["can_draw"]:
                first.append(Button(t(lang, "🎲 Draw"), "draw"))
            if view["can_bank"]:
                first.append(Button(t(lang, "💰 Bank"), "bank"))
            rows.append(first)
            if view["take"]:
                rows.append([Button(t(lang, "✋ Take {colour}", colour=colour(view["take"], lang)),
                                    f"take-{view['take']}")])
        elif not any(e.get("kind") == "GameEnded" and e.get("reason") != engine.REASON_COMPLETED
                     for e in ctx.game.last_events):
            lines.append(t(lang, "Game over."))  # (else the story's last line says so: «…: the game ends.»)
        names = ctx.plain_names
        last = ctx.game.last_events[-6:]
        key = image_key("lucky", view, names, lang, [e for e in last if e["kind"] == "Drew"][-1:])
        return View("\n".join(lines), rows, image=partial(picture_of, self.table_picture(view, names, lang, last)),
                    image_key=key)

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]):
        return partial(drawing.table, view, words=picture_words(lang), names=names, last=events)  # a bust among them shows

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
                    out.append(t(lang, "{name} drew {colour}: match!", name=who, colour=c))
                elif e["result"] == engine.BUST_NO_MATCH:
                    out.append(t(lang, "{name} drew {colour}: not in the centre. Bust!", name=who, colour=c) + " "
                               + nt(lang, "{n} token goes to the centre.", "{n} tokens go to the centre.",
                                    e["to_centre"]))
                else:
                    out.append(t(lang, "{name} drew {colour}: already in the zone. Bust!", name=who, colour=c) + " "
                               + nt(lang, "{n} token goes to the centre.", "{n} tokens go to the centre.",
                                    e["to_centre"]))
            elif kind == "Banked":
                gained = tokens_text(e["gained"], lang)
                line = t(lang, "{name} banked {tokens}.", name=ctx.name(e["seat"]), tokens=gained)
                if e["returned"]:
                    back = tokens_text(e["returned"], lang)
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
                out.append(self._end_reason(ctx, e["reason"], e["winners"]))
        return out

    @staticmethod
    def _end_reason(ctx: Ctx, reason: str, winners) -> str:
        lang = ctx.lang
        if reason == engine.REASON_COMPLETED and winners:
            return t(lang, "🏆 {name} has every colour complete and wins!",
                     name=", ".join(ctx.name(s) for s in winners))
        if reason == engine.REASON_STALL:
            return t(lang, "Nobody's collection grew for 20 rounds: the game ends.")
        return t(lang, "The reserve is empty: the game ends.")

    @staticmethod
    def _ranking(view: dict) -> tuple[list[int], list[int], dict[int, list[int]]]:
        """Places (every seat), seats best first, and each seat's counts weakest first."""
        places = view["places"] or [1] * view["players"]
        order = sorted(range(view["players"]), key=lambda s: (places[s], s))
        vectors = {s: sorted(view["collections"][s].values()) for s in order}
        return places, order, vectors

    @staticmethod
    def _decider(vectors: dict[int, list[int]], a: int, b: int) -> int | None:
        """Where the next-weakest comparison broke a tie on the weakest colour between two
        seats: the index of the first count that differs (None: no tie, or a full tie)."""
        va, vb = vectors[a], vectors[b]
        if va[0] != vb[0] or va == vb:
            return None
        return next(k for k in range(len(va)) if va[k] != vb[k])

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lang = ctx.lang
        places, order, vectors = self._ranking(view)
        lines = [t(lang, "🏁 <b>Totally Genial</b>: results"),
                 self._end_reason(ctx, view["reason"] or "", view["winners"])]
        if view["reason"] != engine.REASON_COMPLETED:
            lines.append(t(lang, "Places go by the weakest colour."))
        elif view["players"] > 2:
            lines.append(t(lang, "The others are placed by their weakest colour."))
        lines.append("")
        for s in order:
            low = vectors[s][0]
            if low >= view["target"]:
                detail = t(lang, "all six colours complete")
            else:
                detail = t(lang, "weakest colour {n} ({colours})", n=low,
                           colours=", ".join(colour(c, lang) for c in view["weakest"][s]))
            lines.append(f"{medal(places[s])} {ctx.name(s)}: {detail}")
        # Only where the weakest colour tied: what the next colours decided.
        for a, b in zip(order, order[1:]):
            i = self._decider(vectors, a, b)
            if i is not None:
                lines.append(t(lang, "{a} is ahead of {b}: both have {low} at the weakest, then {x} against {y}.",
                               a=ctx.name(a), b=ctx.name(b), low=vectors[a][0], x=vectors[a][i], y=vectors[b][i]))
            elif vectors[a] == vectors[b]:
                lines.append(t(lang, "{a} and {b} tie exactly and share the place.", a=ctx.name(a), b=ctx.name(b)))
        return "\n".join(lines)

    def private_result(self, ctx: Ctx, seat: int) -> str | None:
        view = ctx.public_view()
        if not view["over"] or cancelled(ctx):
            return None
        lang = ctx.lang
        places, order, vectors = self._ranking(view)
        low = vectors[seat][0]
        if low >= view["target"]:
            detail = t(lang, "all six colours complete")
        else:
            detail = t(lang, "weakest colour {n}", n=low)
            k = order.index(seat)
            for other in order[max(0, k - 1):k] + order[k + 1:k + 2]:
                i = self._decider(vectors, seat, other)
                if i is not None:
                    detail += "; " + t(lang, "level with {name} on the weakest colour, the next colour decided: "
                                             "{x} against {y}",
                                       name=ctx.name(other), x=vectors[seat][i], y=vectors[other][i])
        return self.private_line(ctx, places[seat], places, detail)

    def rules(self, lang: str) -> str:
        return t(lang, LUCKY_RULES, seven_for_three=option_label("seven_for_three", lang))


LUCKY_RULES = (
    "<b>Totally Genial</b> (2-4 players)\n"
    "126 tokens, 21 of each of six colours, lie face down in the reserve; 3 are face up in the centre. "
    "Goal per colour: 7 with 2 players, 6 with 3 (7 with the option «{seven_for_three}»), 5 with 4.\n"
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
