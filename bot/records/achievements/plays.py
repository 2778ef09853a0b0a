"""What happened in one game, as the achievements of its game read it (pure; each game's own
rules are its kit's, ``bot/games/<game>/feats.py``): from the game's events, in order (each
engine's events as ``engines.base.event_dict`` makes them, the same the bot stores with each
move) and its outcome (``Game.outcome``: places, reason, scores).

``feats(kind, events, outcome, players, options)`` says, for each achievement of that game,
which seats earned it. The events come from the game as the bot heard it being played, or, for a
game this process did not see from its start (a restart in between, or a record of an older
version), from a replay of its log (``replayed``: the engine again from its seed, in a worker
process, ``bot/workers/pool.py``). The bot's own achievements, which read the record and a
person's games, are ``ledger.py``'s.
"""
from __future__ import annotations

import json

from bot.games import kit_for, kits
from bot.games.achievement import Events, Feats, Outcome


def games() -> dict:
    """The games that decide achievements of their own, by id: their kits' ``feats``."""
    return {kit.id: kit.feats for kit in kits() if kit.feats is not None}


def feats(kind: str, events: Events, outcome: Outcome | None, players: int, options: dict) -> Feats:
    """Which seats earned each achievement of the game ``kind`` ({} for a game without any)."""
    try:
        decide = kit_for(kind).feats
    except KeyError:  # a game this process does not know (one added elsewhere)
        return {}
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
