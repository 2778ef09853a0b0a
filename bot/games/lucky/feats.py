"""Totally Genial's own achievements, and which seats earned each in one game (pure: the game's
events in order, as ``engines.base.event_dict`` makes them, and its outcome); the achievements
every game has are the records' (``bot/records/achievements/``)."""
from __future__ import annotations

from bot.games.achievement import Achievement as A, Events, Feats, Outcome

ACHIEVEMENTS = (
    A("lucky_full_hand", "🍀", "Full hand", "Bank a zone of five colours or more.", "lucky", computers=True),
    A("lucky_big_haul", "💰", "Big haul", "Bank 10 tokens or more into your collection at once.", "lucky",
      computers=True),
    A("lucky_every_colour", "🌈", "Every colour", "Win by completing every colour.", "lucky", computers=True),
    A("lucky_double_bonus", "🎁", "Double prize", "Earn two bonus turns at once.", "lucky", computers=True),
)


def feats(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
    out: Feats = {"lucky_full_hand": set(), "lucky_big_haul": set(), "lucky_every_colour": set(),
                  "lucky_double_bonus": set()}
    for e in events:
        kind = e.get("kind")
        if kind == "Banked":
            if len(e["gained"]) >= 5:  # one entry per colour of the zone
                out["lucky_full_hand"].add(e["seat"])
            if e["kept"] >= 10:
                out["lucky_big_haul"].add(e["seat"])
        elif kind == "BonusTurnsGranted" and e["count"] >= 2:
            out["lucky_double_bonus"].add(e["seat"])
        elif kind == "GameEnded" and e["reason"] == "completed":
            out["lucky_every_colour"] |= set(e["winners"])
    return out
