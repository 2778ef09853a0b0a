"""Ingenious's own achievements, and which seats earned each in one game (pure: the game's
events in order, as ``engines.base.event_dict`` makes them, and its outcome); the achievements
every game has are the records' (``bot/records/achievements/``)."""
from __future__ import annotations

from bot.games.achievement import Achievement as A, Events, Feats, Outcome, first_places

ACHIEVEMENTS = (
    A("genial_chain", "✨", "Ingenious!", "Earn a bonus placement with a bonus placement: two «Ingenious!» in a "
                                          "chain.", "genial", computers=True),
    A("genial_instant", "🌟", "Instant win", "Win at once: all six colours at the end of the track.", "genial",
      computers=True),
    A("genial_new_rack", "🔄", "New rack", "Swap your rack and still win.", "genial", computers=True),
    A("genial_balance", "⚖️", "Balance", "End a game without teams with 14 points or more in every colour.",
      "genial", computers=True),
)


def feats(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
    out: Feats = {"genial_chain": set(), "genial_instant": set(), "genial_new_rack": set(), "genial_balance": set()}
    bonus_by = None  # the seat whose bonus placement came last, until the next placement
    swapped = set()
    for e in events:
        kind = e.get("kind")
        if kind == "Placed":
            bonus_by = e["seat"] if e["bonus"] else None
        elif kind == "Genial" and bonus_by == e["seat"]:
            out["genial_chain"].add(e["seat"])
        elif kind == "InstantWin":
            out["genial_instant"] |= set(e["seats"])
        elif kind == "Swapped":
            swapped.add(e["seat"])
    winners = first_places(outcome, players)
    out["genial_new_rack"] = swapped & winners
    if players > 1 and not options.get("team"):
        out["genial_balance"] = {seat for seat, vector in enumerate(outcome.get("scores") or [])
                                 if vector and min(vector) >= 14}
    return out
