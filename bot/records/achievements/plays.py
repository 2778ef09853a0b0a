"""What happened in one game, as the achievements of its game read it (pure): from the game's
events, in order (each engine's events as ``engines.base.event_dict`` makes them, the same the
bot stores with each move) and its outcome (``Game.outcome``: places, reason, scores).

``feats(kind, events, outcome, players, options)`` says, for each achievement of that game,
which seats earned it. The events come from the game as the bot heard it being played, or, for a
game this process did not see from its start (a restart in between, or a record of an older
version), from a replay of its log (``replayed``: the engine again from its seed, in a worker
process, ``bot/workers/pool.py``). The bot's own achievements, which read the record and a
person's games, are ``ledger.py``'s.
"""
from __future__ import annotations

import json
from typing import Any, Callable

Events = list[dict[str, Any]]
Outcome = dict[str, Any]
Feats = dict[str, set[int]]


def _winners(outcome: Outcome, players: int) -> set[int]:
    """The seats in first place (nobody wins a game on one's own)."""
    places = outcome.get("places") or []
    return {seat for seat, place in enumerate(places) if place == 1} if players > 1 else set()


def _lucky(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
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


def _cones(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
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
    winners = _winners(outcome, players)
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


def _genial(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
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
    winners = _winners(outcome, players)
    out["genial_new_rack"] = swapped & winners
    if players > 1 and not options.get("team"):
        out["genial_balance"] = {seat for seat, vector in enumerate(outcome.get("scores") or [])
                                 if vector and min(vector) >= 14}
    return out


def _trio(events: Events, outcome: Outcome, players: int, options: dict) -> Feats:
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


GAMES: dict[str, Callable[[Events, Outcome, int, dict], Feats]] = {
    "lucky": _lucky, "cones": _cones, "genial": _genial, "trio": _trio}


def feats(kind: str, events: Events, outcome: Outcome | None, players: int, options: dict) -> Feats:
    """Which seats earned each achievement of the game ``kind`` ({} for a game without any)."""
    decide = GAMES.get(kind)
    if decide is None or outcome is None:
        return {}
    return {code: seats for code, seats in decide(events, outcome, players, options or {}).items() if seats}


def replayed(kind: str, players: int, options: dict, seed: int, log: list[tuple[int, str]]) -> Feats | None:
    """``feats`` of a game replayed from its seed and log (None: the log does not replay, or
    the game it leads to is not over)."""
    from engines import registry
    from engines.base import event_dict, options_from_dict
    eng = registry.engine(kind)
    try:
        state = eng.setup(players, options_from_dict(eng.Options, options), seed)
        events: Events = []
        for seat, code in log:
            state, happened = eng.apply(state, seat, eng.decode_action(code))
            events += [event_dict(e) for e in happened]
    except ValueError:  # IllegalAction, or a code that does not decode: not this game's log
        return None
    result = eng.outcome(state)
    if result is None:
        return None
    outcome = {"places": list(result.places), "reason": result.reason,
               "scores": json.loads(json.dumps(list(result.scores)))}
    return feats(kind, events, outcome, players, options)


def replayed_many(games: list[tuple[str, int, dict, int, list[tuple[int, str]]]]) -> list[Feats | None]:
    """``replayed`` for several games at once: one job for the worker process."""
    return [replayed(*game) for game in games]
