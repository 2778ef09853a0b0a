"""A following seat's best reply per tile kind, after each of several candidate placements.

Hard looks at what the next seats could score once its candidate is on the board. Recomputing
every kind's best placement over the whole board for every candidate is the cost of the
level, so :class:`ReplyField` prices the present board once, ranking each kind's edges that are
worth anything, best first, and then, per candidate, looks again only where the placement
changed something: a kind is worth its best ranked edge that the candidate left alone
(neither cell covered nor re-priced; nothing if there is none), or more if an edge touching a
re-priced cell now does better.

Seats still bound by the first-tile rule (a placement can close a printed symbol to them) are
always recomputed in full by the caller; tests compare the results with a full recomputation.
"""
from __future__ import annotations

from itertools import compress
from operator import add

from engines.genial.core import KINDS
from engines.genial.geometry import Board
from engines.ai.genial.values import cell_tables


class ReplyField:
    """Best reply values per kind for one holder's deltas, on the board ``occ``/``gains``."""

    def __init__(self, bd: Board, occ: list[int], gains: list, deltas: list[list[float]],
                 edges: list[tuple[int, int]]) -> None:
        self.bd = bd
        self.deltas = deltas
        self.raw_at, self.value_at = cell_tables(deltas, gains)
        firsts = [i for i, _ in edges]
        seconds = [j for _, j in edges]
        heads, tails = firsts + seconds, seconds + firsts
        # per kind: (value per edge, first cells, second cells, the edges worth more than
        # nothing, best first)
        self.ranked: list[tuple[list[float], list[int], list[int], list[int]]] = []
        for a, b in KINDS:
            if a == b:
                values = self._double_values(a, self.raw_at[a], firsts, seconds)
                pairs = (firsts, seconds)
            else:
                values = list(map(add, map(self.value_at[a].__getitem__, heads),
                                  map(self.value_at[b].__getitem__, tails)))
                pairs = (heads, tails)
            worth = list(compress(range(len(values)), values))
            worth.sort(key=values.__getitem__, reverse=True)
            self.ranked.append((values, pairs[0], pairs[1], worth))

    def _double_values(self, colour: int, raws: list[int], firsts: list[int], seconds: list[int]) -> list[float]:
        both = map(add, map(raws.__getitem__, firsts), map(raws.__getitem__, seconds))
        return list(map(self.deltas[colour].__getitem__, both))

    def after(self, occ2: list[int], gains2: list, changed: list[int], covered: tuple[int, int]) -> list[float]:
        """Best reply value per kind once a tile covers ``covered``; ``changed``: the empty cells
        whose raw points were recomputed (gains.after_placement)."""
        dirty = set(changed)
        dirty.update(covered)
        raw_at = [list(r) for r in self.raw_at]
        value_at = [list(v) for v in self.value_at]
        for cell in changed:
            g = gains2[cell]
            for c in range(6):
                raw_at[c][cell] = g[c]
                value_at[c][cell] = self.deltas[c][g[c]]
        nbr = self.bd.nbr
        heads: list[int] = []  # edges touching a re-priced cell
        tails: list[int] = []
        for cell in changed:
            for other in nbr[cell]:
                if other >= 0 and occ2[other] == -1:
                    heads.append(cell)
                    tails.append(other)
        out = []
        for kind, (a, b) in enumerate(KINDS):
            values, firsts, seconds, worth = self.ranked[kind]
            best = 0.0  # every edge left alone may be worth nothing
            for k in worth:
                if firsts[k] not in dirty and seconds[k] not in dirty:
                    best = values[k]
                    break
            if heads:
                local = self._best_on(a, b, raw_at, value_at, heads, tails)
                if local > best:
                    best = local
            out.append(best)
        return out

    def _best_on(self, a: int, b: int, raw_at: list[list[int]], value_at: list[list[float]],
                 firsts: list[int], seconds: list[int]) -> float:
        """Best value of kind (a, b) over the edges (firsts[k], seconds[k]), either way round."""
        if not firsts:
            return 0.0
        if a == b:
            return max(self._double_values(a, raw_at[a], firsts, seconds))
        va, vb = value_at[a].__getitem__, value_at[b].__getitem__
        return max(max(map(add, map(va, firsts), map(vb, seconds))),
                   max(map(add, map(va, seconds), map(vb, firsts))))
