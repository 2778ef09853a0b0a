"""Trio's own achievements, and which seats earned each in one game (pure: the game's
events in order, as ``engines.base.event_dict`` makes them, and its outcome); the achievements
every game has are the records' (``bot/records/achievements/``)."""
from __future__ import annotations

from bot.games.achievement import Achievement as A, Events, Feats, Outcome

ACHIEVEMENTS = (
    A("trio_no_draw", "🎯", "No draws", "Win without drawing a tile from the reserve.", "trio", computers=True),
    A("trio_double_set", "✌️", "Double set", "Lay a tile that forms two sets at once.", "trio", computers=True),
    A("trio_runaway", "🚀", "Runaway", "Win while everyone else still holds three tiles or more.", "trio",
      computers=True),
)


def feats(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
    out: Feats = {"trio_no_draw": set(), "trio_double_set": set(), "trio_runaway": set()}
    drew = set()
    for e in events:
        kind = e.get("kind")
        if kind == "Drew" and e["drew"]:
            drew.add(e["seat"])
        elif kind == "Laid" and len(e["sets"]) >= 2:
            out["trio_double_set"].add(e["seat"])
        elif kind == "Won":
            seat = e["seat"]
            if seat not in drew:
                out["trio_no_draw"].add(seat)
            if all(held >= 3 for other, held in enumerate(e["hand_sizes"]) if other != seat):
                out["trio_runaway"].add(seat)
    return out
