"""The engine contract shared by every game (docs/architecture.md, engines/).

Every game is one module in ``engines/`` exposing the same module-level functions:

    INFO: GameInfo
    Options                                   frozen dataclass of the game's variants
    setup(players, options, seed) -> State
    current_player(state) -> int | None       seat to act, None when the game is over
    legal_actions(state, seat) -> list        deterministic order, complete
    apply(state, seat, action) -> (State, list[Event])    never mutates its input
    view(state, seat | None) -> dict          None = public view; secrets only in the owner's
    outcome(state) -> Outcome | None
    to_json(state) -> dict / from_json(data) -> State      JSON-safe, "v": 1, validated
    encode_action(action) -> str / decode_action(text) -> action   short, ASCII, <= 40 bytes
    turn(state) -> int                        number of actions applied so far
    piece_count(state) -> int / piece_total(players, options) -> int   conservation check

Events are frozen dataclasses; they are public narration (never put a secret in one) and
the bot turns them into captions through ``event_dict``. Engines hold no human text.
Randomness comes from ``rng(seed, counter)`` so the state stays small and JSON-safe.

Making the next state (one idiom, so that adding a field never breaks a construction):
- a one-step change: ``dataclasses.replace(state, field=...)``, keywords only;
- a change in several steps: a mutable working copy that ``freeze()``s into the next state
  (lucky's ``_Game``: boardgame.io's immer, by hand);
- never a positional ``State(...)``: it silently shifts when a field is added.
genial keeps a mutable ``__slots__`` State with ``copy()`` because its fast placement queries
need in-place updates; ``apply`` still copies first and never mutates its input.
Every ``apply`` first refuses a seat that is not a plain ``int`` of the table (``require_seat``).
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence


class IllegalAction(ValueError):
    """Base of every refusal by an engine."""


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class GameOver(IllegalAction):
    """The game has ended; nothing more applies."""


class InvalidAction(IllegalAction):
    """The action is malformed or breaks a rule."""


def require_seat(seat: Any, players: int) -> None:
    """Refuse anything but a plain ``int`` seat of this table: ``0.0``, ``True``, ``"1"`` and 7
    are callers' mistakes, answered with the engine's own error rather than a TypeError later."""
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidAction(f"not a seat of this game: {seat!r}")


@dataclass(frozen=True)
class Outcome:
    """Final ranking. ``places[seat]`` is 1-based; tied seats share a place (1, 1, 3)."""

    places: tuple[int, ...]
    reason: str
    # Per-seat JSON-safe figures the bot may show beside the places (e.g. sorted scores).
    scores: tuple[Any, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)


def places_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranking: a higher key is better, equal keys share a place (1, 1, 3)."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def weakest_first(values: Iterable[int]) -> tuple[int, ...]:
    """The "lowest value first, then the next" key: the ascending-sorted vector.

    Comparing these tuples ranks players by their weakest value, ties by the next weakest,
    and so on (genial, lucky). A higher tuple is better.
    """
    return tuple(sorted(values))


def rank_weakest_first(vectors: Sequence[Iterable[int]]) -> tuple[int, ...]:
    """Places for per-seat value vectors ranked by :func:`weakest_first`."""
    return places_from_keys([weakest_first(v) for v in vectors])


def rng(seed: int, counter: int) -> random.Random:
    """A generator for the ``counter``-th random event of a game with ``seed``.

    Keeping (seed, counter) in the state instead of a Mersenne Twister's 625-word state
    keeps states small, and ``apply`` stays a pure function of (state, action).
    """
    return random.Random(f"{seed}:{counter}")


def random_steps(eng: Any, players: int, options: Any, seed: int, steps: int) -> tuple[Any, list]:
    """A game ``steps`` random legal moves in (fewer if it ends), chosen by ``seed``: the state
    and the last move's events. For pictures, figures and tests that need a game in progress."""
    state = eng.setup(players, options, seed)
    chooser = random.Random(seed)
    events: list = []
    for _ in range(steps):
        seat = eng.current_player(state)
        if seat is None:
            break
        state, events = eng.apply(state, seat, chooser.choice(eng.legal_actions(state, seat)))
    return state, events


def event_dict(event: Any) -> dict[str, Any]:
    """A JSON-safe dict of an event: ``{"kind": ClassName, **fields}``."""
    data = dataclasses.asdict(event)
    return {"kind": type(event).__name__, **data}


@dataclass(frozen=True)
class Option:
    """A lobby variant. ``players`` lists the player counts where it may be switched on."""

    key: str
    default: Any = False
    kind: str = "bool"  # "bool" or "int"
    players: tuple[int, ...] | None = None
    minimum: int = 0
    maximum: int = 0
    switched_on: Any = None  # the value a bare ``/new game key`` sets (None: True, or an int's maximum)


# Games in a series, which the bot plays (0 = none, 1 = one game per player, n = n games): every
# game declares it, and its engine only keeps it in the options.
SERIES = Option("series", 0, kind="int", minimum=0, maximum=8, switched_on=1)


@dataclass(frozen=True)
class GameInfo:
    id: str
    name_en: str  # in other languages: the bot's catalogues (msgctxt "game"), with what people type ("typed")
    min_players: int
    max_players: int
    hidden_info: bool
    aliases: tuple[str, ...] = ()
    options: tuple[Option, ...] = field(default=())

    def option(self, key: str) -> Option:
        for opt in self.options:
            if opt.key == key:
                return opt
        raise KeyError(key)

    def default_options(self) -> dict[str, Any]:
        return {opt.key: opt.default for opt in self.options}


def options_from_dict(options_cls: type, data: dict[str, Any] | None) -> Any:
    """Build an engine's Options dataclass from stored JSON, ignoring unknown keys."""
    if data is None:
        return options_cls()
    if isinstance(data, options_cls):
        return data
    names = {f.name for f in dataclasses.fields(options_cls)}
    return options_cls(**{k: v for k, v in data.items() if k in names})
