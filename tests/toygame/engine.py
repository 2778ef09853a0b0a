"""Sticks: a row of sticks; on your turn take 1, 2 or 3; whoever takes the last stick wins.

The engine contract (engines/base.py), stdlib only: nothing is hidden, nothing is random.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engines.base import SERIES, GameInfo, GameOver, InvalidAction, NotYourTurn, Outcome

STICKS = 13
MOST = 3

INFO = GameInfo(id="sticks", name_en="Sticks", min_players=2, max_players=2, hidden_info=False,
                aliases=("nim",), options=(SERIES,))


@dataclass(frozen=True)
class Options:
    series: int = 0


@dataclass(frozen=True)
class Take:
    count: int


@dataclass(frozen=True)
class Took:
    seat: int
    count: int
    left: int


@dataclass(frozen=True)
class GameEnded:
    winner: int


@dataclass(frozen=True)
class State:
    left: int
    current: int
    moves: int = 0
    taken: tuple[int, int] = (0, 0)
    winner: int | None = None


def setup(players: int, options: Options | None = None, seed: int = 0) -> State:
    if players != 2:
        raise InvalidAction("two players")
    return State(left=STICKS, current=seed % 2)


def current_player(state: State) -> int | None:
    return None if state.winner is not None else state.current


def turn(state: State) -> int:
    return state.moves


def legal_actions(state: State, seat: int) -> list[Take]:
    if current_player(state) != seat:
        return []
    return [Take(n) for n in range(1, min(MOST, state.left) + 1)]


def apply(state: State, seat: int, action: Any) -> tuple[State, list]:
    if state.winner is not None:
        raise GameOver()
    if seat != state.current:
        raise NotYourTurn()
    if not isinstance(action, Take) or action not in legal_actions(state, seat):
        raise InvalidAction(f"cannot take {action!r}")
    left = state.left - action.count
    taken = tuple(t + action.count if s == seat else t for s, t in enumerate(state.taken))
    events: list = [Took(seat, action.count, left)]
    winner = seat if left == 0 else None
    if winner is not None:
        events.append(GameEnded(winner))
    return replace(state, left=left, current=1 - seat, moves=state.moves + 1, taken=taken, winner=winner), events


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {"left": state.left, "to_move": current_player(state), "taken": list(state.taken),
            "over": state.winner is not None, "winner": state.winner,
            "places": [1 if s == state.winner else 2 for s in range(2)] if state.winner is not None else None}


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    places = tuple(1 if s == state.winner else 2 for s in range(2))
    return Outcome(places=places, reason="last_stick", scores=tuple({"taken": t} for t in state.taken))


def encode_action(action: Take) -> str:
    return f"t{action.count}"


def decode_action(text: str) -> Take:
    if len(text) != 2 or text[0] != "t" or text[1] not in "123":
        raise ValueError(text)
    return Take(int(text[1]))


def to_json(state: State) -> dict[str, Any]:
    return {"v": 1, "left": state.left, "current": state.current, "moves": state.moves,
            "taken": list(state.taken), "winner": state.winner}


def from_json(data: Any) -> State:
    if not isinstance(data, dict) or data.get("v") != 1:
        raise ValueError("not a Sticks state")
    return State(left=int(data["left"]), current=int(data["current"]), moves=int(data["moves"]),
                 taken=tuple(int(t) for t in data["taken"]), winner=data["winner"])
