"""Raw points per empty cell and colour: the table that makes every placement a look-up.

A half of colour c put on empty cell i scores, along each of i's directions, the run of c that
starts at i's neighbour. The direction towards the partner half starts at an empty cell (the
partner is not on the board yet), so it adds nothing by itself: the half's raw points are just
``gains[i][c]``, whatever the partner cell. A placement (a on i, b on j) scores
``gains[i][a]`` and ``gains[j][b]`` (a double: their sum for one colour), exactly as the engine
counts (tests compare with ``placement_score``).

After a tile is put down only the first empty cell along each ray from its two cells can see a
different run, so a look-ahead updates a dozen cells instead of rebuilding the table.
"""
from __future__ import annotations

from engines.genial.geometry import Board

Gains = list  # per cell index: [six raw values] for an empty cell, None for an occupied one


def cell_gains(bd: Board, occ: list[int], i: int) -> list[int]:
    """Raw points each colour would score on the empty cell ``i``."""
    out = [0, 0, 0, 0, 0, 0]
    for ray in bd.rays[i]:
        if ray:
            colour = occ[ray[0]]
            if colour >= 0:
                run = 0
                for k in ray:
                    if occ[k] != colour:
                        break
                    run += 1
                out[colour] += run
    return out


def gain_table(bd: Board, occ: list[int]) -> Gains:
    return [cell_gains(bd, occ, i) if occ[i] == -1 else None for i in range(bd.size)]


def after_placement(bd: Board, occ: list[int], gains: Gains, a: int, b: int, i: int, j: int
                    ) -> tuple[list[int], Gains, list[int]]:
    """The board and gain table once colour ``a`` lies on ``i`` and ``b`` on ``j`` (new lists),
    and the empty cells whose raw points were recomputed."""
    occ2 = list(occ)
    occ2[i], occ2[j] = a, b
    gains2 = list(gains)
    gains2[i] = gains2[j] = None
    changed: list[int] = []
    for cell in (i, j):
        for ray in bd.rays[cell]:
            for k in ray:
                if occ2[k] == -1:
                    if k not in changed:
                        changed.append(k)
                        gains2[k] = cell_gains(bd, occ2, k)
                    break
    return occ2, gains2, changed

