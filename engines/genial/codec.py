"""JSON form of a genial State (``"v": 1``), validated on load."""
from __future__ import annotations

from typing import Any

from engines.base import SERIES, InvalidAction
from engines.genial.core import (
    BONUS,
    BOARD_FULL,
    INSTANT_WIN,
    KIND_COUNT,
    KIND_INDEX,
    KINDS,
    NO_TILES,
    OVER,
    PHASES,
    PLACE,
    RACK_SIZE,
    Options,
    State,
    tile_text,
    track_max,
)
from engines.genial.geometry import LETTERS, board, radius_for

VERSION = 1


def to_json(state: State) -> dict[str, Any]:
    bd = state.board
    return {
        "v": VERSION,
        "players": state.players,
        "options": {"team": state.options.team, "bonus_from_rack": state.options.bonus_from_rack,
                    "series": state.options.series},
        "seed": state.seed,
        "counter": state.counter,
        "tiles": [[tile_text((a, b)), *bd.cells[i], *bd.cells[j], seat, bonus]
                  for a, b, i, j, seat, bonus in state.tiles],
        "bag": list(state.bag),
        "racks": [[tile_text(t) for t in rack] for rack in state.racks],
        "scores": [list(v) for v in state.scores],
        "current": state.current,
        "phase": state.phase,
        "bonus_pending": state.bonus_pending,
        "drawn": None if state.drawn is None else tile_text(state.drawn),
        "turns": state.turns,
        "end": state.end,
        "winners": list(state.winners),
        "turn_start": state.turn_start,
        "started": list(state.started),
    }


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise InvalidAction(f"bad {what}: {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidAction(f"bad {what}: {value!r}")
    return value


def _pair(text: Any, what: str) -> tuple[int, int]:
    """Colour indices of a tile text in the given order."""
    if not isinstance(text, str) or len(text) != 2 or any(ch not in LETTERS for ch in text):
        raise InvalidAction(f"bad {what}: {text!r}")
    return LETTERS.index(text[0]), LETTERS.index(text[1])


def _kind(text: Any, what: str) -> tuple[int, int]:
    a, b = _pair(text, what)
    return (a, b) if a <= b else (b, a)


def from_json(data: Any) -> State:
    """A State from to_json output; InvalidAction on anything malformed or inconsistent."""
    try:
        return _load(data)
    except InvalidAction:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidAction(f"malformed genial state: {exc!r}") from exc


def _load(data: Any) -> State:
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise InvalidAction("not a genial state of version 1")
    s = State.__new__(State)
    s.players = players = _int(data["players"], 1, 4, "players")
    opts = data["options"]
    if not isinstance(opts, dict):
        raise InvalidAction("bad options")
    s.options = Options(team=_bool(opts.get("team", False), "team"),
                        bonus_from_rack=_bool(opts.get("bonus_from_rack", False), "bonus_from_rack"),
                        series=_int(opts.get("series", 0), 0, SERIES.maximum, "series"))
    if s.options.team and players != 4:
        raise InvalidAction("team play needs 4 players")
    s.seed = _int(data["seed"], -(2 ** 63), 2 ** 63, "seed")
    s.counter = _int(data["counter"], 0, 10 ** 9, "counter")
    s.radius = radius_for(players)
    bd = board(s.radius)
    s.occ = bd.empty_occupancy()
    used = [0] * len(KINDS)
    s.tiles = []
    if not isinstance(data["tiles"], list):
        raise InvalidAction("bad tiles")
    for rec in data["tiles"]:
        if not isinstance(rec, list) or len(rec) != 7:
            raise InvalidAction(f"bad tile record {rec!r}")
        a, b = _pair(rec[0], "tile")
        ca = (_int(rec[1], -7, 7, "q"), _int(rec[2], -7, 7, "r"))
        cb = (_int(rec[3], -7, 7, "q"), _int(rec[4], -7, 7, "r"))
        if ca not in bd.index or cb not in bd.index:
            raise InvalidAction(f"tile off the board: {rec!r}")
        i, j = bd.index[ca], bd.index[cb]
        if i >= j or j not in bd.nbr[i] or s.occ[i] != -1 or s.occ[j] != -1:
            raise InvalidAction(f"bad tile placement: {rec!r}")
        seat = _int(rec[5], 0, players - 1, "tile seat")
        bonus = _bool(rec[6], "tile bonus flag")
        s.occ[i], s.occ[j] = a, b
        s.tiles.append((a, b, i, j, seat, bonus))
        used[KIND_INDEX[(min(a, b), max(a, b))]] += 1
    bag = data["bag"]
    if not isinstance(bag, list) or len(bag) != len(KINDS):
        raise InvalidAction("bad bag")
    s.bag = [_int(n, 0, 6, "bag count") for n in bag]
    racks = data["racks"]
    if not isinstance(racks, list) or len(racks) != players:
        raise InvalidAction("bad racks")
    s.racks = []
    for rack in racks:
        if not isinstance(rack, list) or len(rack) > RACK_SIZE or (players == 1 and rack):
            raise InvalidAction("bad rack")
        tiles = []
        for t in rack:
            k = _kind(t, "rack tile")
            used[KIND_INDEX[k]] += 1
            tiles.append(k)
        s.racks.append(tiles)
    holders = 2 if s.options.team else players
    top = 2 * 18 if (s.options.team or players == 1) else 18
    scores = data["scores"]
    if not isinstance(scores, list) or len(scores) != holders:
        raise InvalidAction("bad scores")
    s.scores = []
    for vals in scores:
        if not isinstance(vals, list) or len(vals) != 6:
            raise InvalidAction("bad score track")
        s.scores.append([_int(v, 0, top, "score") for v in vals])
    s.current = _int(data["current"], 0, players - 1, "current")
    phase = data["phase"]
    if phase not in PHASES:
        raise InvalidAction(f"bad phase {phase!r}")
    s.phase = phase
    s.bonus_pending = _int(data["bonus_pending"], 0, 100, "bonus_pending")
    drawn = data["drawn"]
    s.drawn = None if drawn is None else _kind(drawn, "drawn tile")
    if s.drawn is not None:
        used[KIND_INDEX[s.drawn]] += 1
    needs_drawn = phase != OVER and ((players == 1 and phase == PLACE)
                                     or (phase == BONUS and not s.options.bonus_from_rack))
    if needs_drawn != (s.drawn is not None):
        raise InvalidAction("drawn tile does not match the phase")
    if (phase == BONUS) != (s.bonus_pending > 0):
        raise InvalidAction("bonus_pending does not match the phase")
    if players == 1 and phase not in (PLACE, OVER):
        raise InvalidAction("solo has no bonus or swap")
    s.turns = _int(data["turns"], 0, 10 ** 6, "turns")
    end = data["end"]
    if (phase == OVER) != (end is not None) or end not in (None, BOARD_FULL, INSTANT_WIN, NO_TILES):
        raise InvalidAction(f"bad end {end!r}")
    s.end = end
    winners = data["winners"]
    if not isinstance(winners, list):
        raise InvalidAction("bad winners")
    s.winners = tuple(_int(w, 0, players - 1, "winner") for w in winners)
    s.turn_start = _int(data["turn_start"], 0, max(0, len(s.tiles)), "turn_start")
    started = data["started"]
    if not isinstance(started, list) or len(started) != players:
        raise InvalidAction("bad started")
    s.started = [_bool(x, "started") for x in started]
    for a, b, i, j, seat, bonus in s.tiles:
        if not s.started[seat]:
            raise InvalidAction("a seat with a tile on the board must be marked started")
    for k, n in enumerate(KIND_COUNT):
        if used[k] + s.bag[k] != n:
            raise InvalidAction(f"tiles not conserved for {tile_text(KINDS[k])}")
    assert track_max(s) == top
    return s
