"""Cones's own achievements, and which seats earned each in one game (pure: the game's
events in order, as ``engines.base.event_dict`` makes them, and its outcome); the achievements
every game has are the records' (``bot/records/achievements/``)."""
from __future__ import annotations

from bot.games.achievement import Achievement as A, Events, Feats, Outcome, first_places

ACHIEVEMENTS = (
    A("cones_three_towers", "🔺", "Three towers", "End a game with three towers of your goal colour topped by your "
                                                 "own chips.", "cones", computers=True),
    A("cones_pairs", "🧹", "Pair after pair", "Send two chips out of the game three times in one game.", "cones",
      computers=True),
    A("cones_poker_face", "🎭", "Poker face", "Win without playing a single chip of your goal colour.", "cones",
      computers=True),
    A("cones_landslide", "🏔", "Landslide", "Win with four towers or more, at least twice as many as anyone else.",
      "cones", computers=True),
)


def feats(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
    out: Feats = {"cones_three_towers": set(), "cones_pairs": set(), "cones_poker_face": set(),
                  "cones_landslide": set()}
    scores = outcome.get("scores") or []
    goals = [s.get("goal") for s in scores]
    piles: dict[int, list[tuple[int, str]]] = {}  # each tower's chips, bottom to top: (who, colour)
    pairs = [0] * players
    own_colour = [False] * players
    for e in events:
        if e.get("kind") != "Played":
            continue
        seat, chips = e["seat"], piles.setdefault(e["pile"], [])
        if e["result"] == "cancelled":
            chips.pop()  # the chip below goes with the one played
            pairs[seat] += 1
        else:
            chips.append((seat, e["colour"]))
        if seat < len(goals) and e["colour"] == goals[seat]:
            own_colour[seat] = True
    winners = first_places(outcome, players)
    for seat in range(min(players, len(goals))):
        if sum(1 for chips in piles.values() if chips and chips[-1] == (seat, goals[seat])) >= 3:
            out["cones_three_towers"].add(seat)
        if pairs[seat] >= 3:
            out["cones_pairs"].add(seat)
        if seat in winners and not own_colour[seat]:
            out["cones_poker_face"].add(seat)
        mine = scores[seat]["piles"]
        others = [s["piles"] for i, s in enumerate(scores) if i != seat]
        if seat in winners and mine >= 4 and all(2 * other <= mine for other in others):
            out["cones_landslide"].add(seat)
    return out
