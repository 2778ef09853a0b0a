"""Totally Genial (Knizia's push-your-luck token game, published in German as
*Wer zu viel riskiert, verliert*): the rules of the publisher's rulebook (seed 000;
002 is a copy) as settled by ``docs/rules.md``, section ``lucky``.

126 tokens, 21 in each of six colours (red, orange, yellow, green, blue, purple), lie face down
in the reserve; three are revealed into the centre. Target T per colour: 7 with 2 players,
6 with 3 (7 with the ``seven_for_three`` option), 5 with 4.

At the start of every turn (normal, bonus or alternative) the centre is refilled to three
tokens from the reserve. A turn is then either

* **Draw** (repeatable): reveal the top reserve token into the collection zone. Success when
  the centre has that colour and the zone did not; otherwise a bust (*no match*: the centre
  lacks the colour; *conflict*: the zone already had it): the whole zone goes to the centre
  and the turn ends.
* **Bank** (only right after a success): the zone plus every centre token of a zone colour
  go into the player's collection.
* **Take** (the alternative move, the whole turn, before any draw): allowed when exactly one
  colour is strictly the fewest in the collection and the centre has it; one such token
  moves from the centre to the collection.

A collection holds at most T of a colour; the excess taken in a turn goes back into the
reserve (shuffled) at the end of that turn, before any bonus turn. Each colour reaching T
gives one immediate bonus turn (several at once, several turns). Completing all six wins at
once; everyone else is ranked by the weakest colour, then the next weakest
(:func:`engines.base.rank_weakest_first`); a player's victory points for a series are the
weakest-colour count (T for the winner).

Our rules (docs/rules.md) so that every game ends:

* Empty reserve: when a token must be revealed and the reserve is empty, every centre token
  but three chosen at random is shuffled back into the reserve first. When a turn starts and
  the centre cannot be refilled to three, or the player to act can neither draw (reserve
  empty, at most three tokens in the centre) nor take, the game ends (``reserve_empty``).
  Draw is offered only while a token can be revealed.
* Stall: after 20 full rounds (20 × players consecutive turns, bonus turns included) in which
  no collection grew, the game ends (``stall``).

Seat 0 starts; play passes to seat + 1. The reserve is kept in draw order (index 0 is drawn
next) so that tests can build exact situations with :func:`with_tokens`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from engines.base import (
    require_seat,
    GameInfo,
    GameOver,
    InvalidAction,
    NotYourTurn,
    Option,
    SERIES,
    Outcome,
    rank_weakest_first,
    rng,
)

# --------------------------------------------------------------------------- constants

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
LETTERS = "roygbp"  # one letter per colour, for the compact JSON form of token rows
_LETTER_INDEX = {ch: i for i, ch in enumerate(LETTERS)}
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
PER_COLOUR = 21
TOTAL = PER_COLOUR * len(COLOURS)  # 126
CENTRE_MIN = 3
STALL_ROUNDS = 20

REASON_COMPLETED = "completed"
REASON_RESERVE_EMPTY = "reserve_empty"
REASON_STALL = "stall"

SUCCESS = "success"
BUST_NO_MATCH = "bust_no_match"
BUST_CONFLICT = "bust_conflict"

INFO = GameInfo(
    id="lucky",
    name_en="Totally Genial",
    min_players=2,
    max_players=4,
    hidden_info=False,
    aliases=("lucky", "totally genial", "totally", "genial tokens", "tokens", "wer zu viel riskiert"),
    options=(
        Option("seven_for_three", False, players=(3,)),
        SERIES,
    ),
)


@dataclass(frozen=True)
class Options:
    """``seven_for_three``: target 7 instead of 6 with three players (the Russian text).
    ``series``: games in a series, handled by the bot: 0 = none, 1 = as many games as players
    (the rulebook's suggestion: everyone starts once), n >= 2 = n games; ignored here."""

    seven_for_three: bool = False
    series: int = 0


def target_for(players: int, options: Options | None = None) -> int:
    """T, the most of one colour a collection holds (and the goal per colour)."""
    if players == 2:
        return 7
    if players == 3:
        return 7 if options is not None and options.seven_for_three else 6
    return 5


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Draw:
    """Reveal the top reserve token into the collection zone."""


@dataclass(frozen=True)
class Bank:
    """Take the zone and the matching centre tokens into the collection (after a success)."""


@dataclass(frozen=True)
class Take:
    """The alternative move: take one token of the unique fewest colour from the centre."""

    colour: str


Action = Draw | Bank | Take


def encode_action(action: Action) -> str:
    """``draw``, ``bank`` or ``take-<colour>``."""
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Bank):
        return "bank"
    if isinstance(action, Take) and action.colour in _COLOUR_INDEX:
        return f"take-{action.colour}"
    raise InvalidAction(f"not a lucky action: {action!r}")


def decode_action(text: str) -> Action:
    if text == "draw":
        return Draw()
    if text == "bank":
        return Bank()
    if isinstance(text, str) and text.startswith("take-") and text[5:] in _COLOUR_INDEX:
        return Take(text[5:])
    raise InvalidAction(f"not a lucky action: {text!r}")


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class CentreRefilled:
    """Start of a turn: ``tokens`` were revealed from the reserve into the centre."""

    tokens: tuple[str, ...]


@dataclass(frozen=True)
class ReserveReshuffled:
    """Empty-reserve rule: ``returned`` centre tokens went back into the reserve (shuffled);
    ``kept`` stayed in the centre."""

    returned: int
    kept: tuple[str, ...]


@dataclass(frozen=True)
class Drew:
    """``seat`` revealed ``colour``. ``result``: success / bust_no_match / bust_conflict.
    ``zone``: the zone after the draw (on a bust: the tokens that went to the centre, whose
    number is ``to_centre``; 0 on a success)."""

    seat: int
    colour: str
    result: str
    zone: tuple[str, ...]
    to_centre: int


@dataclass(frozen=True)
class Banked:
    """``seat`` banked. ``gained``: (colour, count) taken from zone + centre; ``returned``:
    (colour, count) above the cap, back into the reserve; ``kept`` = tokens the collection grew by."""

    seat: int
    gained: tuple[tuple[str, int], ...]
    returned: tuple[tuple[str, int], ...]
    kept: int


@dataclass(frozen=True)
class Took:
    """Alternative move: ``seat`` took one ``colour`` token from the centre."""

    seat: int
    colour: str


@dataclass(frozen=True)
class ColourCompleted:
    """``seat`` now has T tokens of ``colour``."""

    seat: int
    colour: str
    target: int


@dataclass(frozen=True)
class BonusTurnsGranted:
    """``seat`` earned ``count`` bonus turns now; ``pending`` bonus turns are owed in all."""

    seat: int
    count: int
    pending: int


@dataclass(frozen=True)
class BonusTurnStarted:
    """``seat`` plays a bonus turn; ``remaining`` more are owed after this one."""

    seat: int
    remaining: int


@dataclass(frozen=True)
class TurnPassed:
    """A normal turn of ``seat`` begins."""

    seat: int


@dataclass(frozen=True)
class GameEnded:
    """``reason``: completed / reserve_empty / stall. ``places`` 1-based per seat,
    ``points`` the victory points per seat (weakest-colour count)."""

    reason: str
    winners: tuple[int, ...]
    places: tuple[int, ...]
    points: tuple[int, ...]


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State:
    """The whole game. Colours are indices into :data:`COLOURS`.

    reserve: token colours in draw order (index 0 next); centre: count per colour;
    zone: the current collection zone in draw order; collections: per seat, count per colour;
    counter: how many random draws (shuffles) were made, for :func:`engines.base.rng`;
    bonus_pending: bonus turns owed to ``current`` after this turn; in_bonus: this turn is one;
    stall: consecutive turns without any collection growing; ended: the end reason or None.
    """

    players: int
    options: Options
    seed: int
    target: int
    reserve: tuple[int, ...]
    centre: tuple[int, ...]
    zone: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]
    current: int
    counter: int = 0
    bonus_pending: int = 0
    in_bonus: bool = False
    stall: int = 0
    turn: int = 0
    ended: str | None = None


def setup(players: int, options: Options | None = None, seed: int = 0) -> State:
    """Shuffle the 126 tokens into the reserve and reveal three into the centre."""
    if not isinstance(players, int) or not INFO.min_players <= players <= INFO.max_players:
        raise InvalidAction(f"lucky is for 2-4 players, not {players!r}")
    options = options if isinstance(options, Options) else Options()
    tokens = [c for c in range(len(COLOURS)) for _ in range(PER_COLOUR)]
    rng(seed, 0).shuffle(tokens)
    centre = [0] * 6
    for c in tokens[:CENTRE_MIN]:
        centre[c] += 1
    return State(
        players=players,
        options=options,
        seed=seed,
        target=target_for(players, options),
        reserve=tuple(tokens[CENTRE_MIN:]),
        centre=tuple(centre),
        zone=(),
        collections=tuple((0,) * 6 for _ in range(players)),
        current=0,
        counter=1,
    )


def _indices(colours: Iterable[str]) -> list[int]:
    out = []
    for c in colours:
        if c not in _COLOUR_INDEX:
            raise ValueError(f"unknown colour {c!r}")
        out.append(_COLOUR_INDEX[c])
    return out


def _counts(value: Any) -> tuple[int, ...]:
    """Six counts from a {colour: n} dict, a six-int sequence, or a list of colour names."""
    if isinstance(value, dict):
        counts = [0] * 6
        for c, n in value.items():
            counts[_indices([c])[0]] += int(n)
        return tuple(counts)
    value = list(value)
    if value and all(isinstance(v, str) for v in value):
        counts = [0] * 6
        for c in _indices(value):
            counts[c] += 1
        return tuple(counts)
    if len(value) == 0:
        return (0,) * 6
    if len(value) != 6 or not all(isinstance(v, int) and v >= 0 for v in value):
        raise ValueError(f"expected six counts, got {value!r}")
    return tuple(value)


def with_tokens(
    state: State,
    *,
    centre: Any = None,
    reserve: Sequence[str] | None = None,
    zone: Sequence[str] | None = None,
    collections: Sequence[Any] | None = None,
    current: int | None = None,
    fill_reserve: bool = True,
) -> State:
    """A copy of ``state`` with chosen tokens, for tests and examples.

    centre: colour names (``["red", "red", "blue"]``), a {colour: n} dict or six counts.
    reserve: colour names in draw order (first drawn first). zone: colour names in draw order.
    collections: one entry per seat, each a {colour: n} dict or six counts.
    Anything not given is kept from ``state``. With ``fill_reserve`` (default) the reserve is
    rebuilt: the given ``reserve`` (or nothing) followed by every token not placed anywhere
    else (in a fixed shuffled order), so that the 126 tokens are all there; a colour used more
    than 21 times raises ValueError. Without it the reserve is exactly ``reserve`` (or kept).
    """
    new_centre = _counts(centre) if centre is not None else state.centre
    new_zone = tuple(_indices(zone)) if zone is not None else state.zone
    if collections is not None:
        if len(collections) != state.players:
            raise ValueError("one collection per seat")
        new_collections = tuple(_counts(c) for c in collections)
    else:
        new_collections = state.collections
    if reserve is not None:
        new_reserve = tuple(_indices(reserve))
    else:
        new_reserve = () if fill_reserve else state.reserve
    if fill_reserve:
        used = [new_centre[c] + new_zone.count(c) + new_reserve.count(c)
                + sum(col[c] for col in new_collections) for c in range(6)]
        if any(u > PER_COLOUR for u in used):
            raise ValueError(f"more than {PER_COLOUR} tokens of a colour: {used}")
        rest = [c for c in range(6) for _ in range(PER_COLOUR - used[c])]
        rng(state.seed, -1).shuffle(rest)
        new_reserve = new_reserve + tuple(rest)
    return replace(
        state,
        centre=new_centre,
        zone=new_zone,
        collections=new_collections,
        reserve=new_reserve,
        current=state.current if current is None else current,
    )


# --------------------------------------------------------------------------- queries


def current_player(state: State) -> int | None:
    return None if state.ended is not None else state.current


def turn(state: State) -> int:
    return state.turn


def piece_count(state: State) -> int:
    return (len(state.reserve) + sum(state.centre) + len(state.zone)
            + sum(sum(col) for col in state.collections))


def piece_total(players: int, options: Options | None = None) -> int:
    return TOTAL


def take_colour(collection: Sequence[int], centre: Sequence[int]) -> int | None:
    """The colour the alternative move would take, or None when it is not allowed: exactly
    one colour strictly fewest in ``collection`` and present in ``centre``."""
    low = min(collection)
    if collection.count(low) != 1:
        return None
    c = collection.index(low)
    return c if centre[c] > 0 else None


def _can_reveal(state: State) -> bool:
    return bool(state.reserve) or sum(state.centre) > CENTRE_MIN


def legal_actions(state: State, seat: int) -> list[Action]:
    """[Draw] while a token can be revealed, Bank after a success, Take(c) before drawing."""
    if state.ended is not None or seat != state.current:
        return []
    out: list[Action] = []
    if _can_reveal(state):
        out.append(Draw())
    if state.zone:
        out.append(Bank())
    else:
        c = take_colour(state.collections[seat], state.centre)
        if c is not None:
            out.append(Take(COLOURS[c]))
    return out


def victory_points(state: State) -> list[int]:
    """Per seat, the weakest-colour count (the series victory points; T for a winner)."""
    return [min(col) for col in state.collections]


def outcome(state: State) -> Outcome | None:
    if state.ended is None:
        return None
    return Outcome(
        places=rank_weakest_first(state.collections),
        reason=state.ended,
        scores=tuple(victory_points(state)),
    )


# --------------------------------------------------------------------------- apply


class _Game:
    """Mutable working copy used inside :func:`apply` (the input state is never touched)."""

    def __init__(self, state: State):
        self.s = state
        self.reserve = list(state.reserve)
        self.centre = list(state.centre)
        self.zone = list(state.zone)
        self.collections = [list(c) for c in state.collections]
        self.current = state.current
        self.counter = state.counter
        self.bonus_pending = state.bonus_pending
        self.in_bonus = state.in_bonus
        self.stall = state.stall
        self.ended: str | None = state.ended
        self.events: list[Any] = []

    def freeze(self) -> State:
        return replace(
            self.s,
            reserve=tuple(self.reserve),
            centre=tuple(self.centre),
            zone=tuple(self.zone),
            collections=tuple(tuple(c) for c in self.collections),
            current=self.current,
            counter=self.counter,
            bonus_pending=self.bonus_pending,
            in_bonus=self.in_bonus,
            stall=self.stall,
            turn=self.s.turn + 1,
            ended=self.ended,
        )

    # -- randomness and the reserve

    def shuffle_reserve(self) -> None:
        rng(self.s.seed, self.counter).shuffle(self.reserve)
        self.counter += 1

    def reshuffle_centre(self) -> None:
        """Empty-reserve rule: all centre tokens but three random ones back into the reserve."""
        tokens = [c for c in range(6) for _ in range(self.centre[c])]
        if len(tokens) <= CENTRE_MIN:
            return
        r = rng(self.s.seed, self.counter)
        self.counter += 1
        r.shuffle(tokens)
        kept, back = tokens[:CENTRE_MIN], tokens[CENTRE_MIN:]
        self.centre = [kept.count(c) for c in range(6)]
        self.reserve = back  # the reserve was empty; ``back`` is already in shuffled order
        self.events.append(ReserveReshuffled(len(back), tuple(COLOURS[c] for c in sorted(kept))))

    # -- turn structure

    def end_game(self, reason: str) -> None:
        self.ended = reason
        cols = self.collections
        places = rank_weakest_first(cols)
        self.events.append(GameEnded(
            reason=reason,
            winners=tuple(i for i, p in enumerate(places) if p == 1),
            places=places,
            points=tuple(min(c) for c in cols),
        ))

    def start_turn(self) -> None:
        """Refill the centre to three; end the game if it cannot go on."""
        revealed = []
        while sum(self.centre) < CENTRE_MIN:
            if not self.reserve:
                break  # the reshuffle keeps every centre token when there are fewer than 3
            c = self.reserve.pop(0)
            self.centre[c] += 1
            revealed.append(c)
        if revealed:
            self.events.append(CentreRefilled(tuple(COLOURS[c] for c in revealed)))
        if sum(self.centre) < CENTRE_MIN:
            self.end_game(REASON_RESERVE_EMPTY)
            return
        if not self.reserve and sum(self.centre) <= CENTRE_MIN:
            if take_colour(self.collections[self.current], self.centre) is None:
                self.end_game(REASON_RESERVE_EMPTY)

    def end_turn(self, grew: bool) -> None:
        """Stall bookkeeping, then the next (bonus or normal) turn starts."""
        if self.ended is not None:
            return
        self.stall = 0 if grew else self.stall + 1
        if self.stall >= STALL_ROUNDS * self.s.players:
            self.end_game(REASON_STALL)
            return
        if self.bonus_pending > 0:
            self.bonus_pending -= 1
            self.in_bonus = True
            self.events.append(BonusTurnStarted(self.current, self.bonus_pending))
        else:
            self.in_bonus = False
            self.current = (self.current + 1) % self.s.players
            self.events.append(TurnPassed(self.current))
        self.start_turn()

    def add_to_collection(self, gained: list[int]) -> tuple[list[int], list[int]]:
        """Add ``gained`` (six counts) under the cap; return (excess, newly completed colours)."""
        col = self.collections[self.current]
        t = self.s.target
        excess = [0] * 6
        completed = []
        for c in range(6):
            if not gained[c]:
                continue
            before = col[c]
            after = before + gained[c]
            if after > t:
                excess[c] = after - t
                after = t
            col[c] = after
            if before < t <= after:
                completed.append(c)
        return excess, completed

    def after_gain(self, completed: list[int]) -> None:
        seat = self.current
        for c in completed:
            self.events.append(ColourCompleted(seat, COLOURS[c], self.s.target))
        if all(v >= self.s.target for v in self.collections[seat]):
            self.end_game(REASON_COMPLETED)
            return
        if completed:
            self.bonus_pending += len(completed)
            self.events.append(BonusTurnsGranted(seat, len(completed), self.bonus_pending))

    # -- the three actions

    def draw(self) -> None:
        seat = self.current
        if not self.reserve:
            self.reshuffle_centre()
        c = self.reserve.pop(0)
        if c in self.zone:
            result = BUST_CONFLICT
        elif self.centre[c] == 0:
            result = BUST_NO_MATCH
        else:
            result = SUCCESS
        self.zone.append(c)
        zone_names = tuple(COLOURS[z] for z in self.zone)
        if result == SUCCESS:
            self.events.append(Drew(seat, COLOURS[c], result, zone_names, 0))
            return
        moved = len(self.zone)
        for z in self.zone:
            self.centre[z] += 1
        self.zone = []
        self.events.append(Drew(seat, COLOURS[c], result, zone_names, moved))
        self.end_turn(grew=False)

    def bank(self) -> None:
        seat = self.current
        gained = [0] * 6
        for z in self.zone:
            gained[z] += 1
            gained[z] += self.centre[z]
            self.centre[z] = 0
        self.zone = []
        excess, completed = self.add_to_collection(gained)
        if any(excess):
            self.reserve.extend(c for c in range(6) for _ in range(excess[c]))
            self.shuffle_reserve()
        kept = sum(gained) - sum(excess)
        self.events.append(Banked(
            seat,
            tuple((COLOURS[c], gained[c]) for c in range(6) if gained[c]),
            tuple((COLOURS[c], excess[c]) for c in range(6) if excess[c]),
            kept,
        ))
        self.after_gain(completed)
        self.end_turn(grew=kept > 0)

    def take(self, c: int) -> None:
        self.centre[c] -= 1
        gained = [0] * 6
        gained[c] = 1
        _, completed = self.add_to_collection(gained)
        self.events.append(Took(self.current, COLOURS[c]))
        self.after_gain(completed)
        self.end_turn(grew=True)


def apply(state: State, seat: int, action: Any) -> tuple[State, list[Any]]:
    """Apply ``action`` by ``seat``; returns the new state and the public events."""
    if state.ended is not None:
        raise GameOver("the game is over")
    if not isinstance(action, (Draw, Bank, Take)):
        raise InvalidAction(f"not a lucky action: {action!r}")
    require_seat(seat, state.players)
    if seat != state.current:
        raise NotYourTurn(f"it is seat {state.current}'s turn")
    game = _Game(state)
    if isinstance(action, Draw):
        if not _can_reveal(state):
            raise InvalidAction("no token can be revealed")
        game.draw()
    elif isinstance(action, Bank):
        if not state.zone:
            raise InvalidAction("bank only right after a success")
        game.bank()
    else:
        if state.zone:
            raise InvalidAction("the alternative move replaces drawing")
        c = take_colour(state.collections[seat], state.centre)
        if c is None or COLOURS[c] != action.colour:
            raise InvalidAction(f"the alternative move may not take {action.colour!r}")
        game.take(c)
    return game.freeze(), game.events


# --------------------------------------------------------------------------- view


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """Everything is public in this game, so every seat sees the public view.

    Keys: game, players, target, colours (the six ids in order), centre {colour: n},
    centre_total, zone [colours in draw order], reserve (count), collections [{colour: n}],
    completed [[colours]], weakest [[colours]] (fewest of each seat), points [weakest count],
    current (seat or None), bonus (this turn is a bonus turn), bonus_pending,
    can_draw, can_bank, take (colour or None), turn, stall, stall_limit,
    over, reason, places (list or None), winners (list).
    """
    t = state.target
    actions = legal_actions(state, state.current)
    take = next((a.colour for a in actions if isinstance(a, Take)), None)
    res = outcome(state)
    return {
        "game": INFO.id,
        "players": state.players,
        "target": t,
        "colours": list(COLOURS),
        "centre": {COLOURS[c]: state.centre[c] for c in range(6)},
        "centre_total": sum(state.centre),
        "zone": [COLOURS[c] for c in state.zone],
        "reserve": len(state.reserve),
        "collections": [{COLOURS[c]: col[c] for c in range(6)} for col in state.collections],
        "completed": [[COLOURS[c] for c in range(6) if col[c] >= t] for col in state.collections],
        "weakest": [[COLOURS[c] for c in range(6) if col[c] == min(col)] for col in state.collections],
        "points": victory_points(state),
        "current": current_player(state),
        "bonus": state.in_bonus and state.ended is None,
        "bonus_pending": state.bonus_pending if state.ended is None else 0,
        "can_draw": any(isinstance(a, Draw) for a in actions),
        "can_bank": any(isinstance(a, Bank) for a in actions),
        "take": take,
        "turn": state.turn,
        "stall": state.stall,
        "stall_limit": STALL_ROUNDS * state.players,
        "over": state.ended is not None,
        "reason": state.ended,
        "places": list(res.places) if res else None,
        "winners": list(res.winners) if res else [],
    }


# --------------------------------------------------------------------------- JSON


def _row_to_text(row: Iterable[int]) -> str:
    return "".join(LETTERS[c] for c in row)


def _text_to_row(text: Any) -> tuple[int, ...]:
    if not isinstance(text, str) or any(ch not in _LETTER_INDEX for ch in text):
        raise InvalidAction("malformed token row")
    return tuple(_LETTER_INDEX[ch] for ch in text)


def to_json(state: State) -> dict[str, Any]:
    return {
        "v": 1,
        "players": state.players,
        "options": {"seven_for_three": state.options.seven_for_three, "series": state.options.series},
        "seed": state.seed,
        "target": state.target,
        "reserve": _row_to_text(state.reserve),
        "centre": list(state.centre),
        "zone": _row_to_text(state.zone),
        "collections": [list(c) for c in state.collections],
        "current": state.current,
        "counter": state.counter,
        "bonus_pending": state.bonus_pending,
        "in_bonus": state.in_bonus,
        "stall": state.stall,
        "turn": state.turn,
        "ended": state.ended,
    }


def _int(data: dict, key: str, lo: int, hi: int | None = None) -> int:
    v = data.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        raise InvalidAction(f"bad {key!r}")
    return v


def _six(value: Any, hi: int) -> tuple[int, ...]:
    if (not isinstance(value, list) or len(value) != 6
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= hi for v in value)):
        raise InvalidAction("malformed counts")
    return tuple(value)


def from_json(data: Any) -> State:
    """Load and validate a state written by :func:`to_json`; InvalidAction on anything wrong."""
    if not isinstance(data, dict) or data.get("v") != 1:
        raise InvalidAction("unknown lucky state version")
    try:
        players = _int(data, "players", INFO.min_players, INFO.max_players)
        opts = data.get("options")
        if (not isinstance(opts, dict) or not isinstance(opts.get("seven_for_three"), bool)
                or not isinstance(opts.get("series"), int) or isinstance(opts.get("series"), bool)
                or not 0 <= opts["series"] <= SERIES.maximum):
            raise InvalidAction("bad options")
        options = Options(opts["seven_for_three"], opts["series"])
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidAction("bad seed")
        target = _int(data, "target", 1, PER_COLOUR)
        if target != target_for(players, options):
            raise InvalidAction("target does not match players and options")
        reserve = _text_to_row(data.get("reserve"))
        zone = _text_to_row(data.get("zone"))
        if len(set(zone)) != len(zone):
            raise InvalidAction("zone holds a colour twice")
        centre = _six(data.get("centre"), TOTAL)
        cols = data.get("collections")
        if not isinstance(cols, list) or len(cols) != players:
            raise InvalidAction("bad collections")
        collections = tuple(_six(c, target) for c in cols)
        current = _int(data, "current", 0, players - 1)
        counter = _int(data, "counter", 0)
        bonus_pending = _int(data, "bonus_pending", 0, 6)
        in_bonus = data.get("in_bonus")
        if not isinstance(in_bonus, bool):
            raise InvalidAction("bad in_bonus")
        stall = _int(data, "stall", 0, STALL_ROUNDS * players)
        turn_no = _int(data, "turn", 0)
        ended = data.get("ended")
        if ended not in (None, REASON_COMPLETED, REASON_RESERVE_EMPTY, REASON_STALL):
            raise InvalidAction("bad end reason")
        for c in range(6):
            n = reserve.count(c) + zone.count(c) + centre[c] + sum(col[c] for col in collections)
            if n != PER_COLOUR:
                raise InvalidAction(f"{COLOURS[c]} tokens do not add up to {PER_COLOUR}")
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        if isinstance(exc, InvalidAction):
            raise
        raise InvalidAction(f"malformed lucky state: {exc}") from exc
    return State(
        players=players, options=options, seed=seed, target=target, reserve=reserve, centre=centre,
        zone=zone, collections=collections, current=current, counter=counter,
        bonus_pending=bonus_pending, in_bonus=in_bonus, stall=stall, turn=turn_no, ended=ended,
    )
