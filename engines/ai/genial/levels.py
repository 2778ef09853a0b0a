"""The three computer levels of Ingenious: one evaluation, three depths.

Every level looks at every legal placement of every tile it may place, scoring it with the
table of raw points per cell (gains.py) and a weakest-colour utility (values.py):

- easy: a mildly concave utility (it prefers low colours, a little), no thought for bonuses
  beyond their points, for the tiles it keeps or for the swap; always swaps when offered; a
  noisy pick among the good moves. Sensible, beatable.
- normal: a strongly concave utility; an «Ingenious!» is worth a bonus placement (the mean best
  placement of an unseen tile, or of a rack tile with ``bonus_from_rack``); playing a rack tile
  costs part of what that tile could score later (rack management), and a placement that leaves
  a rack without the lowest colour is credited with the swap it opens; swaps when the expected
  fresh rack is worth more than the rack it holds.
- hard: normal, then for its best candidates the best reply of each following seat (opponents
  subtract, a team partner adds), over racks sampled from the unseen tiles: it avoids opening
  long lines of an opponent's weak colour and blocks them where it costs little. It also
  counts a share of its own best next placement with the tiles it keeps.

All thinking is bounded by counts (candidates, sampled racks), never by the clock; the only
randomness is the ``rng`` the caller seeds per decision.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from heapq import nlargest
from operator import add

from engines.genial.core import COLOURS, KIND_INDEX, PLACE, RACK_SIZE, SWAP, Keep, Place, Swap
from engines.ai.genial.gains import after_placement, gain_table
from engines.ai.genial.replies import ReplyField
from engines.ai.genial.sight import Sight
from engines.ai.genial.values import (
    advance,
    cell_tables,
    delta_tables,
    kind_values,
    mean_value,
    utility_table,
)


@dataclass(frozen=True)
class Style:
    """How a level thinks.

    power: concavity of the utility (balance). bonus: share of a bonus placement's estimated
    value credited when a colour reaches the end of a board. keep: share of a rack tile's best
    placement value that keeping it is worth. swap_credit: credit placements that open a swap.
    noise: standard deviation added to every candidate's value (easy's mistakes).
    shortlist: candidates re-examined in detail (an instant win, the swap a placement opens). replies: candidates whose opponents' best
    replies are looked at (0: none); reply_seats: how many following seats; reply_weight: how
    much their gain counts; reply_racks: racks sampled per seat; own_next: share of my own best
    next placement (with the rack I keep) counted for each of those candidates.
    """

    power: float
    bonus: float
    keep: float
    swap_credit: bool
    noise: float = 0.0
    shortlist: int = 24
    replies: int = 0
    reply_seats: int = 1
    reply_weight: float = 0.0
    reply_racks: int = 0
    own_next: float = 0.0


STYLES: dict[str, Style] = {
    "easy": Style(power=1.5, bonus=0.0, keep=0.0, swap_credit=False, noise=0.6, shortlist=8),
    "normal": Style(power=3.0, bonus=1.0, keep=0.3, swap_credit=True),
    "hard": Style(power=3.0, bonus=1.0, keep=0.3, swap_credit=True, replies=12, reply_seats=2,
                  reply_weight=0.7, reply_racks=12, own_next=0.3),
}

INSTANT_WIN = 1000.0
REPLY_EDGES = 240  # free edges of an empty two-player board, about


@dataclass
class Candidate:
    """A placement: colour a on cell i and b on cell j, of ``tile`` (from the rack, or drawn)."""

    value: float
    order: int
    a: int
    b: int
    i: int
    j: int
    tile: tuple[int, int]
    from_rack: bool

    def action(self, sight: Sight) -> Place:
        cells = sight.bd.cells
        return Place(COLOURS[self.a], COLOURS[self.b], cells[self.i], cells[self.j])


class Thinker:
    """One decision of one seat at one level: the tables shared by every candidate."""

    def __init__(self, sight: Sight, style: Style, rng: random.Random) -> None:
        self.sight = sight
        self.style = style
        self.rng = rng
        bd = sight.bd
        self.gains = gain_table(bd, sight.occ)
        self.edges = sight.free_edges(sight.occ, sight.seat)
        self.utility = utility_table(sight.top, style.power)
        mine = sight.scores[sight.me]
        plain = delta_tables(mine, self.utility, 0.0, sight.two_boards, sight.solo)
        needs_values = style.bonus > 0 or style.keep > 0
        self.kind_values = kind_values(plain, self.gains, self.edges) if needs_values else None
        self.bonus_value = style.bonus * self._bonus_estimate() if style.bonus > 0 else 0.0
        self.deltas = (delta_tables(mine, self.utility, self.bonus_value, sight.two_boards, sight.solo)
                       if self.bonus_value else plain)
        self.raw_at, self.value_at = cell_tables(self.deltas, self.gains)
        # Keeping tiles is worth less as the board fills: fewer turns remain to use them.
        self.keep_share = style.keep * min(1.0, len(self.edges) / 60)

    # ----------------------------------------------------------------- estimates

    def _bonus_estimate(self) -> float:
        """A bonus placement is worth about the best placement of the tile it brings."""
        kv = self.kind_values
        assert kv is not None
        if self.sight.solo:
            return 0.0
        if self.sight.bonus_from_rack:
            return max((kv[KIND_INDEX[t]] for t in self.sight.rack), default=0.0) * 0.8
        return mean_value(kv, self.sight.unseen)

    def keep_value(self, tile: tuple[int, int]) -> float:
        if self.kind_values is None:
            return 0.0
        return self.keep_share * self.kind_values[KIND_INDEX[tile]]

    def fresh_tile_value(self) -> float:
        if self.kind_values is None:
            return 0.0
        return self.keep_share * mean_value(self.kind_values, self.sight.unseen)

    def swap_gain(self, rack: list[tuple[int, int]]) -> float:
        """What swapping ``rack`` for a fresh one is expected to add (negative: keep it)."""
        return len(rack) * self.fresh_tile_value() - sum(self.keep_value(t) for t in rack)

    # ----------------------------------------------------------------- candidates

    def candidates(self, limit: int) -> list[Candidate]:
        """The ``limit`` best legal placements by one-move value, best first (ties: the order
        of tiles, orientations and edges). Values are computed a tile orientation at a time
        with ``map`` over the edge lists, so only the kept ones become objects."""
        sight = self.sight
        firsts = [i for i, _ in self.edges]
        seconds = [j for _, j in self.edges]
        from_rack = sight.drawn is None
        segments = []  # (values per edge, tile, a, b, a on the edge's second cell)
        for tile in sight.placeable():
            a, b = tile
            if a == b:
                raws, d = self.raw_at[a], self.deltas[a]
                both = map(add, map(raws.__getitem__, firsts), map(raws.__getitem__, seconds))
                rows = [(list(map(d.__getitem__, both)), False)]
            else:
                va, vb = self.value_at[a].__getitem__, self.value_at[b].__getitem__
                rows = [(list(map(add, map(va, firsts), map(vb, seconds))), False),
                        (list(map(add, map(va, seconds), map(vb, firsts))), True)]
            cost = self.keep_value(tile) if from_rack else 0.0
            for values, flipped in rows:
                if cost:
                    values = [v - cost for v in values]
                segments.append((values, tile, a, b, flipped))
        flat = [v for values, *_ in segments for v in values]
        if self.style.noise:
            gauss, noise = self.rng.gauss, self.style.noise
            flat = [v + gauss(0.0, noise) for v in flat]
        width = len(self.edges)
        out = []
        for k in nlargest(limit, range(len(flat)), key=flat.__getitem__):
            _, tile, a, b, flipped = segments[k // width]
            i, j = firsts[k % width], seconds[k % width]
            if flipped:
                i, j = j, i
            out.append(Candidate(flat[k], k, a, b, i, j, tile, from_rack))
        return out

    def new_values(self, cand: Candidate) -> tuple[list[int], int]:
        """My track values after ``cand`` and the bonuses it earns."""
        sight = self.sight
        vals = list(sight.scores[sight.me])
        gi, gj = self.gains[cand.i], self.gains[cand.j]
        per = [(cand.a, gi[cand.a] + gj[cand.a])] if cand.a == cand.b else [(cand.a, gi[cand.a]), (cand.b, gj[cand.b])]
        bonuses = 0
        for colour, raw in per:
            vals[colour], earned = advance(vals[colour], raw, sight.two_boards, sight.solo)
            bonuses += earned
        return vals, bonuses

    def refine(self, cand: Candidate) -> float:
        """Extras that depend on the whole score vector: an instant win, a swap it opens."""
        sight = self.sight
        vals, bonuses = self.new_values(cand)
        extra = 0.0
        if not sight.solo and all(v >= sight.top for v in vals):
            extra += INSTANT_WIN
        if self.style.swap_credit and not bonuses and not sight.solo and sight.bag >= RACK_SIZE:
            rack = list(sight.rack)
            if cand.from_rack:
                rack.remove(cand.tile)
            low = min(vals)
            lowest = {c for c in range(6) if vals[c] == low}
            if rack and not any(a in lowest or b in lowest for a, b in rack):
                extra += max(0.0, self.swap_gain(rack))
        return extra

    # ----------------------------------------------------------------- replies

    def reply_values(self, shortlist: list[Candidate]) -> list[float]:
        """For each candidate: the following seats' expected best replies, signed (an opponent's
        gain counts against, a partner's for) and weighted, on the board after it."""
        sight = self.sight
        style = self.style
        followers = []
        for k in range(1, sight.players):
            s = (sight.seat + k) % sight.players
            if sight.rack_sizes[s] == 0:
                continue
            h = sight.holder_of[s]
            followers.append((s, h, 1.0 if h == sight.me else -1.0, 0.6 ** len(followers)))
            if len(followers) >= style.reply_seats:
                break
        fields: dict[int, ReplyField] = {}
        for s, h, _, _ in followers:
            if h not in fields and sight.started[s]:
                deltas = delta_tables(sight.scores[h], self.utility, self.bonus_value,
                                      sight.two_boards, sight.solo)
                edges = sight.free_edges(sight.occ, s)
                fields[h] = ReplyField(sight.bd, sight.occ, self.gains, deltas, edges)
        unseen = [k for k, n in enumerate(sight.unseen) for _ in range(n)]
        racks: dict[int, list[list[int]]] = {s: [] for s, _, _, _ in followers}
        for _ in range(style.reply_racks):  # the followers' racks, dealt together each time
            dealt = self.rng.sample(unseen, min(len(unseen), sum(sight.rack_sizes[s] for s in racks)))
            for s in racks:
                size = sight.rack_sizes[s]
                racks[s].append(dealt[:size] or [0])
                del dealt[:size]
        out = []
        for cand in shortlist:
            occ2, gains2, changed = after_placement(sight.bd, sight.occ, self.gains,
                                                    cand.a, cand.b, cand.i, cand.j)
            total = 0.0
            for s, h, sign, weight in followers:
                if sight.started[s]:
                    kv = fields[h].after(occ2, gains2, changed, (cand.i, cand.j))
                else:  # the first-tile rule: the candidate may close a printed symbol to s
                    deltas = delta_tables(sight.scores[h], self.utility, self.bonus_value,
                                          sight.two_boards, sight.solo)
                    kv = kind_values(deltas, gains2, sight.free_edges(occ2, s, extra=(cand.i, cand.j)))
                expected = sum(max(kv[k] for k in rack) for rack in racks[s]) / len(racks[s])
                total += sign * weight * expected
            value = style.reply_weight * total
            if style.own_next:
                value += style.own_next * self._own_next(cand, occ2, gains2, changed, fields)
            out.append(value)
        return out

    def _own_next(self, cand: Candidate, occ2: list[int], gains2: list, changed: list[int],
                  fields: dict[int, ReplyField]) -> float:
        """My best placement next turn with the tiles I keep, on the board after ``cand`` (solo:
        the mean over the tile drawn next)."""
        sight = self.sight
        me = sight.me
        if me not in fields:  # once this tile is down the first-tile rule no longer binds me
            free = [(i, j) for i, j, _ in sight.bd.edges if sight.occ[i] == -1 and sight.occ[j] == -1]
            fields[me] = ReplyField(sight.bd, sight.occ, self.gains, self.deltas, free)
        kv = fields[me].after(occ2, gains2, changed, (cand.i, cand.j))
        if sight.solo:
            return mean_value(kv, sight.unseen)
        rack = list(sight.rack)
        if cand.from_rack:
            rack.remove(cand.tile)
        return max((kv[KIND_INDEX[t]] for t in rack), default=0.0)

    # ----------------------------------------------------------------- decisions

    def best_placement(self) -> Place:
        """The best of the shortlist once refined (and, for hard, once the replies are in)."""
        style = self.style
        short = self.candidates(style.shortlist)
        for c in short:
            c.value += self.refine(c)
        short.sort(key=lambda c: (-c.value, c.order))
        if style.replies:
            short = short[:self.reply_count()]
            for c, reply in zip(short, self.reply_values(short)):
                c.value += reply
            short.sort(key=lambda c: (-c.value, c.order))
        return short[0].action(self.sight)

    def reply_count(self) -> int:
        """How many candidates get the reply look-ahead: ``style.replies`` on a board with up
        to REPLY_EDGES free edges (a two-player board), proportionally fewer on bigger ones, so
        a decision costs about the same at every table size."""
        edges = max(1, len(self.edges))
        return max(4, min(self.style.replies, self.style.replies * REPLY_EDGES // edges))

    def swap_or_keep(self) -> Swap | Keep:
        if self.kind_values is None or self.swap_gain(self.sight.rack) > 0:
            return Swap()
        return Keep()


def decide(sight: Sight, level: str, rng: random.Random) -> Place | Swap | Keep | None:
    """The level's action, or None when the seat has no placement (the caller falls back)."""
    thinker = Thinker(sight, STYLES[level], rng)
    if sight.phase == SWAP:
        return thinker.swap_or_keep()
    if sight.phase not in (PLACE, "bonus") or not thinker.edges or not sight.placeable():
        return None
    return thinker.best_placement()
