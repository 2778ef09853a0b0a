"""How much points are worth: a weakest-colour utility and the value of tiles and bonuses.

Knizia's ranking compares the weakest colour first, so a point on a colour near the bottom is
worth much more than one on a colour near the top, and nothing once the track is full. The
utility of a track value s is concave,

    u(s) = top / p * (1 - (1 - s / top) ** p),

worth about one per point at 0 and falling to nothing at the end of the track; p sets how much
the player cares for balance (p = 1 would be raw points). A placement is worth the change of
u on each colour it touches plus, for each «Ingenious!» it earns, the value of the bonus
placement it brings.

A tile kind is worth its best placement on the present board (``kind_values``): that prices a
bonus tile from the bag (the mean over unseen tiles), what keeping a rack tile is worth, and an
opponent's best reply (the best tile of a rack sampled from the unseen tiles).
"""
from __future__ import annotations

from operator import add

from engines.genial.core import KINDS

CAP = 18
RAW_LIMIT = 160  # no placement can count more (two halves, five rays of at most 14 cells each)


def advance(old: int, raw: int, two_boards: bool, solo: bool) -> tuple[int, int]:
    """(new track value, bonuses earned) for a track at ``old`` counting ``raw``, as the engine
    does: the first board stops at 18 for this placement; two-board tracks go on to 36; solo
    earns no bonus."""
    if raw <= 0:
        return old, 0
    if old < CAP:
        if old + raw >= CAP:
            return CAP, 0 if solo else 1
        return old + raw, 0
    if not two_boards:
        return old, 0
    top = 2 * CAP
    new = min(top, old + raw)
    return new, 1 if old < top and new == top and not solo else 0


def utility_table(top: int, power: float) -> list[float]:
    return [top / power * (1 - (1 - s / top) ** power) for s in range(top + 1)]


def delta_tables(values: list[int], utility: list[float], bonus: float, two_boards: bool,
                 solo: bool) -> list[list[float]]:
    """deltas[c][raw]: what counting ``raw`` points of colour c is worth to a holder at
    ``values`` (utility gained, plus ``bonus`` per bonus placement earned)."""
    tables = []
    for old in values:
        row = []
        base = utility[old]
        for raw in range(2 * CAP + 1):
            new, bonuses = advance(old, raw, two_boards, solo)
            row.append(utility[new] - base + bonus * bonuses)
        row.extend([row[-1]] * (RAW_LIMIT - len(row)))
        tables.append(row)
    return tables


def cell_tables(deltas: list[list[float]], gains: list) -> tuple[list[list[int]], list[list[float]]]:
    """raw_at[c][cell]: raw points of colour c on that cell (0 if occupied); value_at[c][cell]:
    what a half of colour c is worth there."""
    raw_at = []
    value_at = []
    for c in range(6):
        raws = [g[c] if g is not None else 0 for g in gains]
        raw_at.append(raws)
        value_at.append(list(map(deltas[c].__getitem__, raws)))
    return raw_at, value_at


def kind_values(deltas: list[list[float]], gains: list, edges: list[tuple[int, int]]) -> list[float]:
    """Per tile kind (KINDS order): the value of its best placement on ``edges`` (0 if none).

    The hot loop of every level: each kind is a max over the directed edges done with
    ``map`` over prepared index lists, so the work stays in C.
    """
    if not edges:
        return [0.0] * len(KINDS)
    firsts = [i for i, _ in edges]
    seconds = [j for _, j in edges]
    heads = firsts + seconds  # both orientations of every edge
    tails = seconds + firsts
    raw_at, value_at = cell_tables(deltas, gains)
    out = []
    for a, b in KINDS:
        if a == b:
            raws = raw_at[a]
            both = map(add, map(raws.__getitem__, firsts), map(raws.__getitem__, seconds))
            out.append(max(map(deltas[a].__getitem__, both)))
        else:
            out.append(max(map(add, map(value_at[a].__getitem__, heads), map(value_at[b].__getitem__, tails))))
    return out


def mean_value(values: list[float], counts: list[int]) -> float:
    """The mean value of a tile drawn from ``counts`` (per kind)."""
    total = sum(counts)
    return sum(v * n for v, n in zip(values, counts)) / total if total else 0.0
