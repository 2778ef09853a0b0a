"""cones: the hidden-goal cones game (published as Kabaleo).

Rules from the publisher's rulebook (seed 001), settled by docs/rules.md, section ``cones``.

Components per colour: 1 goal cone, 4 bases, 6 chips. Colours in play = players + 2 (2p: 4,
3p: 5, 4p: 6), chosen at random from the six colours; every other piece is removed.

Setup: each player secretly draws a goal colour; two goals always stay undrawn and unknown to
everyone until the end. The bases of the colours in play stand as numbered piles 1..N (16 / 20 /
24) in a shuffled order. Chips are dealt and every supply is public:
  - random (default): all chips in a bag, each player draws 12 (2p), 10 (3p) or 9 (4p);
  - option ``equal`` (2-3 players only): 3 of each colour (2p) or 2 of each colour (3p).
The first player is chosen at random; play passes to the next seat.

A turn: play one chip from your supply onto a pile (``Play(colour, pile)``, code ``"b7"``):
  - onto a bare base: only if the colours differ; the pile takes the chip's colour;
  - onto a pile topped by a chip of another colour: the pile takes the new colour;
  - onto a pile topped by a chip of the same colour: both chips leave the game and the pile
    shows what is below (a chip or the base). Bases are never removed; no height limit.
  - option ``no_same_pile``: not on the pile the previous move was played on.
A legal move always exists (at least 12 piles have a base of another colour).

End: when every chip has been played. A pile's colour is its top chip, or its base if bare. Each
player scores the piles of their goal colour; ties: more piles of that colour with at least one
chip, then the tallest pile of that colour (chip count); still tied: shared place. The undrawn
(neutral) colours never win, however many piles they hold.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from engines.base import (
    require_seat,
    GameInfo,
    GameOver,
    InvalidAction,
    NotYourTurn,
    Option,
    SERIES,
    Outcome,
    places_from_keys,
    rng,
)

# The six colours (ids of render.common.COLOURS / SYMBOLS) in canonical order, with the one-letter
# codes used in action codes.
ALL_COLOURS: tuple[str, ...] = ("orange", "yellow", "green", "blue", "purple", "pink")
LETTER: dict[str, str] = {
    "orange": "o", "yellow": "y", "green": "g", "blue": "b", "purple": "v", "pink": "p",
}
COLOUR_OF_LETTER: dict[str, str] = {v: k for k, v in LETTER.items()}
BASES_PER_COLOUR = 4
CHIPS_PER_COLOUR = 6
RANDOM_DEAL = {2: 12, 3: 10, 4: 9}
EQUAL_DEAL = {2: 3, 3: 2}

# Played.result values
COVERED_BASE = "covered_base"
RECOLOURED = "recoloured"
CANCELLED = "cancelled"

# Outcome.reason values
REASON_PILES = "most_piles"
REASON_WITH_CHIPS = "piles_with_chips"
REASON_TALLEST = "tallest_pile"
REASON_SHARED = "shared"

INFO = GameInfo(
    id="cones",
    name_en="Cones",
    min_players=2,
    max_players=4,
    hidden_info=True,
    aliases=("kabaleo", "cones", "cone"),
    options=(
        Option("equal", False, players=(2, 3)),
        Option("no_same_pile", False),
        SERIES,
    ),
)


@dataclass(frozen=True)
class Options:
    equal: bool = False  # deal chips evenly (2-3 players only)
    no_same_pile: bool = False  # never on the pile the previous move was played on
    # Games in a series, handled by the bot (0 = none, 1 = one game per player, n = n games).
    series: int = 0


@dataclass(frozen=True)
class Play:
    """Play one chip of ``colour`` from your supply onto pile number ``pile`` (1-based)."""

    colour: str
    pile: int


# Shared immutable Play values for every (colour, pile): legal_actions hands these out instead
# of building ~100 new objects per call.
_PLAYS: dict[str, tuple[Play, ...]] = {
    c: tuple(Play(c, p) for p in range(BASES_PER_COLOUR * len(ALL_COLOURS) + 1))
    for c in ALL_COLOURS
}


# ---------------------------------------------------------------- events (public narration)

@dataclass(frozen=True)
class Played:
    """``seat`` played ``colour`` on ``pile``.

    result: "covered_base" (the bare ``base`` is covered), "recoloured" (the pile showed
    ``before``, now ``colour``) or "cancelled" (two chips of ``colour`` left the game; the pile
    shows ``after`` again). ``height`` is the pile's chip count afterwards.
    """

    seat: int
    colour: str
    pile: int
    result: str
    before: str
    after: str
    base: str
    height: int


@dataclass(frozen=True)
class NextTurn:
    seat: int
    turn: int


@dataclass(frozen=True)
class GameEnded:
    """The end; goals are revealed in view() (never in an event)."""

    places: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


# ---------------------------------------------------------------- state

@dataclass(frozen=True)
class State:
    players: int
    options: Options
    seed: int
    counter: int
    colours: tuple[str, ...]  # colours in play, canonical order
    goals: tuple[str, ...]  # secret goal per seat
    undrawn: tuple[str, ...]  # the two goals nobody drew
    bases: tuple[str, ...]  # base colour of pile i+1
    stacks: tuple[tuple[str, ...], ...]  # chips on pile i+1, bottom -> top
    supplies: tuple[tuple[int, ...], ...]  # per seat, counts aligned with ``colours``
    removed: tuple[int, ...]  # cancelled chips per colour, aligned with ``colours``
    first: int  # seat that moved first
    turn: int  # actions applied so far
    last_pile: int | None  # pile (1-based) of the previous move


def _over(state: State) -> bool:
    return not any(any(s) for s in state.supplies)


def _to_move(state: State) -> int | None:
    if _over(state):
        return None
    return (state.first + state.turn) % state.players


def _top(state: State, index: int) -> str:
    stack = state.stacks[index]
    return stack[-1] if stack else state.bases[index]


# ---------------------------------------------------------------- contract

def setup(players: int, options: Options | None = None, seed: int = 0) -> State:
    """A new game: colours, goals, shuffled numbered piles, chips dealt, random first player."""
    if options is None:
        options = Options()
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise InvalidAction(f"cones is for 2-4 players, not {players!r}")
    if not isinstance(options, Options):
        raise InvalidAction("options must be cones.Options")
    if options.equal and players not in EQUAL_DEAL:
        raise InvalidAction("equal dealing is for 2 or 3 players")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidAction("seed must be an int")
    r = rng(seed, 0)
    picked = set(r.sample(ALL_COLOURS, players + 2))
    colours = tuple(c for c in ALL_COLOURS if c in picked)
    goal_cones = list(colours)
    r.shuffle(goal_cones)
    goals = tuple(goal_cones[:players])
    undrawn = tuple(c for c in colours if c in goal_cones[players:])
    bases = [c for c in colours for _ in range(BASES_PER_COLOUR)]
    r.shuffle(bases)
    if options.equal:
        per = EQUAL_DEAL[players]
        supplies = tuple(tuple(per for _ in colours) for _ in range(players))
    else:
        bag = [i for i in range(len(colours)) for _ in range(CHIPS_PER_COLOUR)]
        r.shuffle(bag)
        n = RANDOM_DEAL[players]
        supplies = []
        for seat in range(players):
            counts = [0] * len(colours)
            for i in bag[seat * n:(seat + 1) * n]:
                counts[i] += 1
            supplies.append(tuple(counts))
        supplies = tuple(supplies)
    first = r.randrange(players)
    return State(
        players=players, options=options, seed=seed, counter=1, colours=colours,
        goals=goals, undrawn=undrawn, bases=tuple(bases),
        stacks=tuple(() for _ in bases), supplies=supplies,
        removed=tuple(0 for _ in colours), first=first, turn=0, last_pile=None,
    )


def current_player(state: State) -> int | None:
    """The seat to act, None when the game is over."""
    return _to_move(state)


def turn(state: State) -> int:
    """Number of actions applied so far."""
    return state.turn


def _blocked(state: State) -> int | None:
    """The pile (1-based) the ``no_same_pile`` option forbids now, if any."""
    return state.last_pile if state.options.no_same_pile else None


def _piles_for(state: State, colour: str) -> list[int]:
    blocked = _blocked(state)
    bases = state.bases
    return [
        i for i, stack in enumerate(state.stacks, 1)
        if (stack or bases[i - 1] != colour) and i != blocked
    ]


def legal_piles(state: State, seat: int, colour: str) -> list[int]:
    """Pile numbers (ascending) where ``seat`` may play ``colour`` now ([] if none / not its turn)."""
    if _to_move(state) != seat or colour not in state.colours:
        return []
    if not state.supplies[seat][state.colours.index(colour)]:
        return []
    return _piles_for(state, colour)


def legal_actions(state: State, seat: int) -> list[Play]:
    """Every legal Play: colours in canonical order, then piles ascending."""
    if _to_move(state) != seat:
        return []
    out: list[Play] = []
    for colour, count in zip(state.colours, state.supplies[seat]):
        if count:
            plays = _PLAYS[colour]
            out.extend([plays[p] for p in _piles_for(state, colour)])
    return out


def apply(state: State, seat: int, action: Any) -> tuple[State, list]:
    """Play a chip; returns the new state and the events. Never mutates ``state``."""
    if _over(state):
        raise GameOver("the game is over")
    if not isinstance(action, Play) or not isinstance(action.colour, str) \
            or not isinstance(action.pile, int) or isinstance(action.pile, bool):
        raise InvalidAction(f"not a cones action: {action!r}")
    require_seat(seat, state.players)
    to_move = _to_move(state)
    if seat != to_move:
        raise NotYourTurn(f"seat {seat!r} may not act; seat {to_move} is to move")
    colour, pile = action.colour, action.pile
    if colour not in state.colours:
        raise InvalidAction(f"{colour!r} is not in play")
    ci = state.colours.index(colour)
    if not state.supplies[seat][ci]:
        raise InvalidAction(f"seat {seat} has no {colour} chip")
    if not 1 <= pile <= len(state.bases):
        raise InvalidAction(f"there is no pile {pile}")
    index = pile - 1
    stack = state.stacks[index]
    base = state.bases[index]
    if not stack and base == colour:
        raise InvalidAction(f"pile {pile} is a bare {colour} base")
    if pile == _blocked(state):
        raise InvalidAction(f"pile {pile} was played on by the previous move")

    removed = state.removed
    before = stack[-1] if stack else base
    if not stack:
        result, new_stack = COVERED_BASE, (colour,)
    elif stack[-1] != colour:
        result, new_stack = RECOLOURED, stack + (colour,)
    else:
        result, new_stack = CANCELLED, stack[:-1]
        removed = removed[:ci] + (removed[ci] + 2,) + removed[ci + 1:]
    after = new_stack[-1] if new_stack else base
    supply = state.supplies[seat]
    supply = supply[:ci] + (supply[ci] - 1,) + supply[ci + 1:]
    new = replace(
        state,
        stacks=state.stacks[:index] + (new_stack,) + state.stacks[index + 1:],
        supplies=state.supplies[:seat] + (supply,) + state.supplies[seat + 1:],
        removed=removed, turn=state.turn + 1, last_pile=pile,
    )
    events: list = [Played(seat=seat, colour=colour, pile=pile, result=result, before=before,
                           after=after, base=base, height=len(new_stack))]
    nxt = _to_move(new)
    if nxt is None:
        res = outcome(new)
        events.append(GameEnded(places=res.places, winners=res.winners, reason=res.reason))
    else:
        events.append(NextTurn(seat=nxt, turn=new.turn))
    return new, events


# ---------------------------------------------------------------- scoring

def pile_colours(state: State) -> list[str]:
    """The colour each pile shows (top chip or bare base), by pile number - 1."""
    return [s[-1] if s else b for s, b in zip(state.stacks, state.bases)]


def colour_figures(state: State, colour: str) -> dict[str, int]:
    """piles / piles_with_chips / tallest (chip count) for one colour."""
    piles = with_chips = tallest = 0
    for stack, base in zip(state.stacks, state.bases):
        top = stack[-1] if stack else base
        if top == colour:
            piles += 1
            if stack:
                with_chips += 1
                tallest = max(tallest, len(stack))
    return {"piles": piles, "piles_with_chips": with_chips, "tallest": tallest}


def _scores(state: State) -> list[dict[str, Any]]:
    return [{"goal": g, **colour_figures(state, g)} for g in state.goals]


def outcome(state: State) -> Outcome | None:
    """Places by (piles, piles with chips, tallest pile) of each player's goal colour."""
    if not _over(state):
        return None
    scores = _scores(state)
    keys = [(s["piles"], s["piles_with_chips"], s["tallest"]) for s in scores]
    places = places_from_keys(keys)
    winners = [seat for seat, p in enumerate(places) if p == 1]
    if len(winners) > 1:
        reason = REASON_SHARED
    else:
        best = keys[winners[0]]
        runner = max(k for seat, k in enumerate(keys) if seat != winners[0])
        if best[0] != runner[0]:
            reason = REASON_PILES
        elif best[1] != runner[1]:
            reason = REASON_WITH_CHIPS
        else:
            reason = REASON_TALLEST
    return Outcome(places=places, reason=reason, scores=tuple(scores))


# ---------------------------------------------------------------- views

def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None = the group). Goals only in the owner's view, all after the end."""
    colours = list(state.colours)
    tops = pile_colours(state)
    over = _over(state)
    data: dict[str, Any] = {
        "game": "cones",
        "players": state.players,
        "options": {"equal": state.options.equal, "no_same_pile": state.options.no_same_pile},
        "colours": colours,
        "piles": [
            {"number": i + 1, "base": state.bases[i], "chips": list(state.stacks[i]),
             "top": tops[i], "height": len(state.stacks[i])}
            for i in range(len(state.bases))
        ],
        "piles_by_colour": {c: tops.count(c) for c in colours},
        "supplies": [dict(zip(colours, s)) for s in state.supplies],
        "supply_left": [sum(s) for s in state.supplies],
        "to_move": _to_move(state),
        "turn": state.turn,
        "last_pile": state.last_pile,
        "blocked_pile": None if over else _blocked(state),
        "removed": sum(state.removed),
        "removed_by_colour": dict(zip(colours, state.removed)),
        "over": over,
    }
    if over:
        res = outcome(state)
        data["goals"] = list(state.goals)
        data["undrawn"] = list(state.undrawn)
        data["scores"] = [dict(s) for s in res.scores]
        data["places"] = list(res.places)
        data["winners"] = list(res.winners)
        data["reason"] = res.reason
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise InvalidAction(f"no seat {seat!r}")
        data["seat"] = seat
        data["goal"] = state.goals[seat]
    return data


# ---------------------------------------------------------------- codec

_CODE = re.compile(r"([a-z])([1-9][0-9]?)")


def encode_action(action: Play) -> str:
    """``Play("blue", 7)`` -> ``"b7"``."""
    if not isinstance(action, Play) or action.colour not in LETTER:
        raise InvalidAction(f"not a cones action: {action!r}")
    return f"{LETTER[action.colour]}{action.pile}"


def decode_action(text: str) -> Play:
    """``"b7"`` -> ``Play("blue", 7)``; InvalidAction on anything else."""
    if not isinstance(text, str):
        raise InvalidAction("action code must be a string")
    m = _CODE.fullmatch(text)
    if not m or m.group(1) not in COLOUR_OF_LETTER:
        raise InvalidAction(f"bad cones action code {text!r}")
    return Play(COLOUR_OF_LETTER[m.group(1)], int(m.group(2)))


# ---------------------------------------------------------------- JSON

def to_json(state: State) -> dict[str, Any]:
    colours = list(state.colours)
    return {
        "v": 1,
        "players": state.players,
        "options": {"equal": state.options.equal, "no_same_pile": state.options.no_same_pile,
                    "series": state.options.series},
        "seed": state.seed,
        "counter": state.counter,
        "colours": colours,
        "goals": list(state.goals),
        "undrawn": list(state.undrawn),
        "bases": list(state.bases),
        "stacks": [list(s) for s in state.stacks],
        "supplies": [dict(zip(colours, s)) for s in state.supplies],
        "removed": dict(zip(colours, state.removed)),
        "first": state.first,
        "turn": state.turn,
        "last_pile": state.last_pile,
    }


def _int(value: Any, lo: int, hi: int | None, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo \
            or (hi is not None and value > hi):
        raise InvalidAction(f"bad {what}: {value!r}")
    return value


def _str_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InvalidAction(f"bad {what}")
    return value


def _counts(value: Any, colours: tuple[str, ...], what: str) -> tuple[int, ...]:
    if not isinstance(value, dict) or set(value) != set(colours):
        raise InvalidAction(f"bad {what}")
    return tuple(_int(value[c], 0, CHIPS_PER_COLOUR, what) for c in colours)


def from_json(data: Any) -> State:
    """A state from to_json output; InvalidAction on anything malformed or inconsistent."""
    try:
        return _from_json(data)
    except InvalidAction:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidAction(f"bad cones state: {exc}") from exc


def _from_json(data: Any) -> State:
    if not isinstance(data, dict) or data.get("v") != 1:
        raise InvalidAction("bad cones state version")
    players = _int(data["players"], 2, 4, "players")
    opts = data["options"]
    # "series" came later: a state saved before it has none.
    if not isinstance(opts, dict) or not {"equal", "no_same_pile"} <= set(opts) <= {"equal", "no_same_pile", "series"} \
            or not isinstance(opts["equal"], bool) or not isinstance(opts["no_same_pile"], bool):
        raise InvalidAction("bad options")
    options = Options(opts["equal"], opts["no_same_pile"], _int(opts.get("series", 0), 0, SERIES.maximum, "series"))
    if options.equal and players not in EQUAL_DEAL:
        raise InvalidAction("equal dealing is for 2 or 3 players")
    seed = _int(data["seed"], -(2 ** 63), None, "seed")
    counter = _int(data["counter"], 0, None, "counter")
    colours = tuple(_str_list(data["colours"], "colours"))
    if len(colours) != players + 2 or len(set(colours)) != len(colours) \
            or colours != tuple(c for c in ALL_COLOURS if c in colours):
        raise InvalidAction("bad colours")
    goals = tuple(_str_list(data["goals"], "goals"))
    undrawn = tuple(_str_list(data["undrawn"], "undrawn"))
    if len(goals) != players or len(undrawn) != 2 or sorted(goals + undrawn) != sorted(colours):
        raise InvalidAction("bad goals")
    bases = tuple(_str_list(data["bases"], "bases"))
    if sorted(bases) != sorted(c for c in colours for _ in range(BASES_PER_COLOUR)):
        raise InvalidAction("bad bases")
    raw_stacks = data["stacks"]
    if not isinstance(raw_stacks, list) or len(raw_stacks) != len(bases):
        raise InvalidAction("bad stacks")
    stacks = []
    for base, raw in zip(bases, raw_stacks):
        stack = tuple(_str_list(raw, "stack"))
        if any(c not in colours for c in stack):
            raise InvalidAction("bad chip colour")
        below = (base,) + stack
        if any(below[i] == below[i + 1] for i in range(len(stack))):
            raise InvalidAction("a chip lies on its own colour")
        stacks.append(stack)
    raw_supplies = data["supplies"]
    if not isinstance(raw_supplies, list) or len(raw_supplies) != players:
        raise InvalidAction("bad supplies")
    supplies = tuple(_counts(s, colours, "supply") for s in raw_supplies)
    removed = _counts(data["removed"], colours, "removed")
    if any(r % 2 for r in removed):
        raise InvalidAction("removed chips come in pairs")
    for ci, c in enumerate(colours):
        held = sum(s[ci] for s in supplies)
        placed = sum(stack.count(c) for stack in stacks)
        if held + placed + removed[ci] != CHIPS_PER_COLOUR:
            raise InvalidAction(f"{c} chips are not conserved")
    total = sum(len(s) for s in stacks) + sum(removed)
    turn_ = _int(data["turn"], 0, None, "turn")
    if turn_ != total:
        raise InvalidAction("turn does not match the chips played")
    per_seat = CHIPS_PER_COLOUR * len(colours) // players
    first = _int(data["first"], 0, players - 1, "first")
    for seat, s in enumerate(supplies):
        played = (turn_ - (seat - first) % players + players - 1) // players
        if sum(s) != per_seat - played:
            raise InvalidAction("supplies do not match the turn")
    last_pile = data["last_pile"]
    if last_pile is not None:
        _int(last_pile, 1, len(bases), "last_pile")
    if (last_pile is None) != (turn_ == 0):
        raise InvalidAction("bad last_pile")
    return State(
        players=players, options=options, seed=seed, counter=counter, colours=colours,
        goals=goals, undrawn=undrawn, bases=bases, stacks=tuple(stacks), supplies=supplies,
        removed=removed, first=first, turn=turn_, last_pile=last_pile,
    )


# ---------------------------------------------------------------- conservation

def piece_count(state: State) -> int:
    """Chips in supplies + on piles + removed (always the same total)."""
    return (sum(sum(s) for s in state.supplies) + sum(len(s) for s in state.stacks)
            + sum(state.removed))


def piece_total(players: int, options: Options | None = None) -> int:
    return CHIPS_PER_COLOUR * (players + 2)
