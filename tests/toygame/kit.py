"""Sticks on the bot's side: the adapter (the table's caption, buttons and picture, the end),
what the page may do (``page_play``) and its board there (``board.js``), in one ``GameKit``."""
from __future__ import annotations

import pathlib
from functools import partial
from typing import Any

from bot.games.base import Ctx, GameUI, View, cancelled, cancelled_line, image_key, points_by_place
from bot.games.kit import GameKit
from bot.outgoing.keyboard import Button
from bot.words.format import medal
from bot.words.i18n import t
from render.common import picture_of
from tests.toygame import engine, picture, players


class UI(GameUI):
    kind = "sticks"
    sign = "🥢"

    def table(self, ctx: Ctx, path: str = "") -> View:
        view, lang = ctx.public_view(), ctx.lang
        lines = [t(lang, "🥢 <b>Sticks</b> · left: {n}", n=view["left"])] + self.story(ctx, ctx.game.last_events)[-2:]
        rows: list[list[Button]] = []
        if cancelled(ctx):
            lines.append(cancelled_line(lang))
        elif view["to_move"] is not None:
            lines.append(t(lang, "Now: {name}: take 1, 2 or 3.", name=ctx.mention(view["to_move"])))
            rows.append([Button(str(a.count), engine.encode_action(a))
                         for a in engine.legal_actions(ctx.state, view["to_move"])])
        names = ctx.plain_names
        return View("\n".join(lines), rows, image=partial(picture_of, self.table_picture(view, names, lang, [])),
                    image_key=image_key("sticks", view, names, lang))

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]):
        words = {"left": t(lang, "left"), "took": t(lang, "took")}
        return partial(picture.table, view, names=names, words=words)

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        return [t(ctx.lang, "{name} took {n}: {left} left.", name=ctx.name(e["seat"]), n=e["count"], left=e["left"])
                for e in events if e["kind"] == "Took"]

    def results(self, ctx: Ctx) -> str:
        view = ctx.public_view()
        lines = [t(ctx.lang, "🏁 <b>Sticks</b>: {name} took the last stick and wins.", name=ctx.name(view["winner"]))]
        lines += [f"{medal(view['places'][s])} {ctx.name(s)}" for s in sorted(range(2), key=lambda s: view["places"][s])]
        return "\n".join(lines)

    def series_points(self, state: Any, seats: int) -> list[float]:
        return points_by_place(list(engine.outcome(state).places))

    def score(self, outcome: dict, seat: int) -> int | None:
        return int(outcome["scores"][seat]["taken"])

    def rules(self, lang: str) -> str:
        return t(lang, "<b>Sticks</b> (2 players): take 1, 2 or 3 sticks from the row; whoever takes the last one wins.")


def page_play(state: engine.State, seat: int) -> dict | None:
    """The takes the seat may make now, and whether each wins at once."""
    takes = [{"count": a.count, "code": engine.encode_action(a), "wins": a.count == state.left}
             for a in engine.legal_actions(state, seat)]
    return {"takes": takes} if takes else None


KIT = GameKit(engine=engine, ai=players, ui=UI(), blurb="take 1, 2 or 3, the last stick wins; 2 players",
              tag="a row of sticks", look=("purple", "circle"),
              board=pathlib.Path(__file__).with_name("board.js"), page_play=page_play)
