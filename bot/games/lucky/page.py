"""Totally Genial on the page: Draw, Bank and Take as the engine offers them, with what Bank and
Take would bring (the engine's events of that very move: tokens gained, those over the limit
going back, colours completed, bonus turns) and the chance that a draw matches.

The chance is public knowledge: every token is in sight but those of the reserve, so the reserve
holds, of each colour, 21 less those in sight; a draw matches when its colour is in the centre
and not yet in the zone (docs/rules.md, lucky)."""
from __future__ import annotations

from typing import Any

from engines import lucky as engine


def play(state, seat: int) -> dict[str, Any] | None:
    if engine.current_player(state) != seat:
        return None
    out: dict[str, Any] = {}
    for action in engine.legal_actions(state, seat):
        code = engine.encode_action(action)
        if isinstance(action, engine.Draw):
            out["draw"] = {"code": code, "chance": _match_chance(engine.view(state, None))}
        else:
            out["bank" if isinstance(action, engine.Bank) else "take"] = {"code": code, **_brings(state, seat, action)}
    return out


def _brings(state, seat: int, action) -> dict[str, Any]:
    """What a Bank or a Take would do, from the engine's events of it."""
    _, events = engine.apply(state, seat, action)
    gained: dict[str, int] = {}
    back: dict[str, int] = {}
    completed: list[str] = []
    bonus = 0
    for e in events:
        if isinstance(e, engine.Banked):
            gained.update(dict(e.gained))
            back.update(dict(e.returned))
        elif isinstance(e, engine.Took):
            gained[e.colour] = gained.get(e.colour, 0) + 1
        elif isinstance(e, engine.ColourCompleted) and e.seat == seat:
            completed.append(e.colour)
        elif isinstance(e, engine.BonusTurnsGranted) and e.seat == seat:
            bonus += e.count
    won = any(isinstance(e, engine.GameEnded) and seat in e.winners for e in events)
    return {"gains": gained, "back": back, "completed": completed, "bonus": bonus, "wins": won}


def _match_chance(view: dict) -> int | None:
    """Per cent chance that the next token drawn matches (None when the reserve is empty: the
    centre is shuffled back into it first)."""
    if not view["reserve"]:
        return None
    seen = {c: view["centre"][c] + view["zone"].count(c) + sum(col[c] for col in view["collections"])
            for c in view["colours"]}
    hidden = {c: engine.PER_COLOUR - n for c, n in seen.items()}
    good = sum(n for c, n in hidden.items() if view["centre"][c] and c not in view["zone"])
    return round(100 * good / max(1, sum(hidden.values())))
