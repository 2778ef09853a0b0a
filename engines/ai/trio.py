"""Computer players for trio (engines/trio), under the contract of engines/ai.

A seat sees the board, its own hand, the others' hand sizes, the pool's size and the die.
The tiles it has not seen (36 less the board and its hand) are, as far as it knows, spread at
random over the other hands and the pool: ``determinize`` deals them so.

Trio is a race: whoever lays their last tile first wins, and a roll with no legal tile costs a
draw. The die cannot be helped, so a move is judged by the board and hand it leaves, counted
over the six faces of the next roll:

- mine: on how many faces I could lay one of the tiles I keep, and (finer, a tie-breaker) how
  many tile-and-face pairs fit; this keeps the tile that is easiest to place for the end, when
  one tile is left and half of all rolls fail;
- theirs: on how many faces each opponent could lay, their hand being as many tiles as they
  hold drawn from the unseen ones: a hypergeometric chance, exact for what the seat knows
  (sampling hands gives the same mean, with noise).

Which tiles fit where under which face comes from the engine's fast queries
(``trio.frontier``, ``trio.tiles_fitting``), recomputed per candidate only near the two cells
it fills.

Levels (deterministic; nothing is bounded by the clock, a decision is one pass over the legal
lays):

- easy: a beginner's rule: the tile that fits in the most places now, where it makes the most
  sets. It plays sensibly but keeps no options and blocks nobody.
- normal: keeps its own options for the next roll (mine).
- hard: mine against every opponent's chance (theirs): it also blocks.

Against uniform random play in 2-player games (800 games a figure) these come to about 50 %,
59 % and 68 %. Trio is mostly luck: in the same test a player who was told the opponent's hand
reached about 75 % with the same one-move judgement, and a second ply over sampled opponent
hands was weaker than the exact chances (noisy, and far over the time budget in Python).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Any

from engines import trio
from engines.trio import DIE_FACES, Draw, Lay, Options, State, frontier, tiles_fitting

FACES = len(DIE_FACES)
Cell = tuple[int, int]


# ------------------------------------------------------------------ what a seat knows

def _board_from(view: dict[str, Any]) -> tuple[tuple[int, int, int, int, int, int], ...]:
    return tuple((t["tile"], *t["cells"][0], *t["cells"][1], -1 if t["seat"] is None else t["seat"])
                 for t in view["tiles"])


def unseen_tiles(view: dict[str, Any]) -> list[int]:
    """Tile ids the seat has not seen: not on the board, not in its hand (ascending)."""
    seen = {t["tile"] for t in view["tiles"]} | set(view["hand"])
    return [t for t in range(36) if t not in seen]


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full state consistent with ``seat``'s view: the unseen tiles dealt at random into the
    other hands (sizes are public) and the pool, with a fresh seed for the future rolls."""
    if view.get("seat") != seat:
        raise ValueError("a computer player needs the view of its own seat")
    unseen = unseen_tiles(view)
    rng.shuffle(unseen)
    hands = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(tuple(view["hand"]))
        else:
            hands.append(tuple(unseen[:size]))
            del unseen[:size]
    outcome = view["outcome"]
    over = None if outcome is None else ("won" if outcome["reason"] == "empty_hand" else "stalemate")
    return State(players=view["players"], options=Options(**view["options"]),
                 seed=rng.getrandbits(62), counter=rng.randrange(1, 1 << 20), pool=tuple(unseen),
                 hands=tuple(hands), board=_board_from(view),
                 current=view["current"] if view["current"] is not None else seat,
                 die=view["die"], passes=view["passes"], turn=view["turn"], over=over)


# ------------------------------------------------------------------ which tiles fit where

class FitMap:
    """For one board: per die face, the tiles (bitmask by id) that have a legal place.

    ``fits`` keeps, per frontier pair, the tiles that may go there (rules 2-3); a board one
    tile further on reuses every pair farther than three cells from the new tile, since no
    rule looks further than a run of three plus the cell that would make it four.
    """

    def __init__(self, grid: dict, strict: bool, base: "FitMap | None" = None,
                 new_cells: tuple[Cell, ...] = ()) -> None:
        pairs = frontier(grid)
        self.fits: dict[tuple[Cell, Cell], int] = {}
        by_face = [0] * FACES
        for pair, faces in pairs.items():
            fits = None
            if base is not None and not _near(pair, new_cells):
                fits = base.fits.get(pair)
            if fits is None:
                fits = tiles_fitting(grid, pair[0], pair[1], strict)
            self.fits[pair] = fits
            if fits:
                for f in range(FACES):
                    if (faces >> f) & 1:
                        by_face[f] |= fits
        self.by_face = by_face

    def faces_for(self, hand_mask: int) -> int:
        """On how many faces some tile of ``hand_mask`` fits."""
        return sum(1 for m in self.by_face if m & hand_mask)

    def ways_for(self, hand_mask: int) -> int:
        """Tile-and-face combinations of ``hand_mask`` that fit (a finer count)."""
        return sum((m & hand_mask).bit_count() for m in self.by_face)


def _near(pair: tuple[Cell, Cell], cells: tuple[Cell, ...]) -> bool:
    return any(max(abs(p[0] - c[0]), abs(p[1] - c[1])) <= 3 for p in pair for c in cells)


def chance_any(unseen: int, fitting: int, hand: int) -> float:
    """The chance that ``hand`` tiles drawn from ``unseen`` include one of ``fitting``."""
    if hand <= 0:
        return 0.0
    if unseen - fitting < hand:
        return 1.0
    return 1.0 - comb(unseen - fitting, hand) / comb(unseen, hand)


# ------------------------------------------------------------------ levels

@dataclass(frozen=True)
class Style:
    """beginner: the beginner's rule instead of a judgement; ways: weight of the finer count of
    my options (tile and face combinations) beside the faces; theirs: weight of the
    opponents' chances to lay on their next turn (0: ignore them)."""

    beginner: bool = False
    ways: float = 0.0
    theirs: float = 0.0


STYLES: dict[str, Style] = {
    "easy": Style(beginner=True),
    "normal": Style(ways=0.02),
    "hard": Style(ways=0.02, theirs=1.0),
}


class Judge:
    """Values the board and hand a candidate lay leaves, from the seat's knowledge."""

    def __init__(self, view: dict[str, Any], seat: int, style: Style, grid: dict) -> None:
        self.style = style
        self.strict = view["options"]["strict_lines"]
        unseen = unseen_tiles(view)
        self.unseen_mask = sum(1 << t for t in unseen)
        self.unseen_count = len(unseen)
        players = view["players"]
        self.opponent_sizes = [view["hand_sizes"][(seat + k) % players] for k in range(1, players)]
        self.base = FitMap(grid, self.strict)

    def value(self, grid: dict, cells: tuple[Cell, Cell], hand_after: list[int]) -> float:
        """My faces (and ways) on ``grid`` with ``hand_after``, less the opponents' expected
        faces, each opponent's hand drawn from the unseen tiles."""
        style = self.style
        fit = FitMap(grid, self.strict, self.base, cells)
        hand_mask = sum(1 << t for t in hand_after)
        value = fit.faces_for(hand_mask) + style.ways * fit.ways_for(hand_mask)
        if style.theirs:
            fitting = [(m & self.unseen_mask).bit_count() for m in fit.by_face]
            theirs = sum(chance_any(self.unseen_count, n, size)
                         for size in self.opponent_sizes for n in fitting)
            value -= style.theirs * theirs / len(self.opponent_sizes)
        return value


def choose(view: dict[str, Any], seat: int, level: str, rng: random.Random) -> Any:
    """The action of ``seat`` at ``level`` ("easy", "normal", "hard") from its own view."""
    if level not in STYLES:
        raise ValueError(f"unknown level {level!r}")
    style = STYLES[level]
    # The engine lists the legal lays; they depend only on the board, the die and this
    # seat's hand, never on the hands and pool the sample dealt.
    state = determinize(view, seat, rng)
    actions = trio.legal_actions(state, seat)
    if not actions:
        raise ValueError("no legal action for this seat")
    if len(actions) == 1 or isinstance(actions[0], Draw) or len(view["hand"]) == 1:
        return actions[0]  # forced, or the last tile: any lay wins
    grid = state.grid
    if style.beginner:
        return _beginner(actions, grid)
    judge = Judge(view, seat, style, grid)
    hand = list(view["hand"])
    best, best_value = actions[0], None
    for action in actions:
        value = judge.value(_after(grid, action), (action.cell_a, action.cell_b),
                            [t for t in hand if t != action.tile])
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _after(grid: dict, action: Lay) -> dict:
    after = dict(grid)
    lo, hi = trio.TILES[action.tile]
    after[action.cell_a], after[action.cell_b] = lo, hi
    return after


def _sets_made(grid: dict, action: Lay) -> int:
    after = _after(grid, action)
    runs = trio.runs_of_three(after, (action.cell_a, action.cell_b))
    return sum(1 for run in runs if trio.is_set([after[c] for c in run]))


def _beginner(actions: list[Lay], grid: dict) -> Lay:
    """A beginner's move: the tile that fits in the most places now (ties: hand order), where
    it makes the most sets (ties: the engine's order)."""
    places: dict[int, list[Lay]] = {}
    for action in actions:
        places.setdefault(action.tile, []).append(action)
    eager = max(places.values(), key=len)
    return max(eager, key=lambda a: _sets_made(grid, a))
