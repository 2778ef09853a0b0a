"""Computer players for trio (engines/trio), under the contract of engines/ai.

A seat sees the board, its own hand, the others' hand sizes, the pool's size, the die and the
public history of turns (who rolled what, and who laid or had to draw). The tiles it has not
seen (36 less the board and its hand) are spread over the other hands and the pool.

Trio is a race: whoever lays their last tile first wins, and a roll with no legal tile costs a
draw. The die cannot be helped, so a move is judged by the board and hand it leaves, counted
over the six faces of the next roll:

- mine: on how many faces I could lay one of the tiles I keep, and (finer, a tie-breaker) how
  many tile-and-face pairs fit; this keeps the tile that is easiest to place for the end, when
  one tile is left and a third of all rolls fail;
- theirs: on how many faces each opponent could lay on their next turn, their hand guessed
  from what the seat knows (``sample_hands``): a draw is public, and when a player drew, none
  of the tiles they then held fitted anywhere under the rolled face. Such tiles are likely
  still in hand, so a hand that has drawn is weighted towards tiles that are hard to place.

With two players, hard turns the two into a chance of winning the race: the opponent lays
with chance theirs/6 (and wins if it was their last tile), then I lay with chance mine/6,
and after that both lay at the rates a hand of that size had in measured games (``RACE``).
This weighs blocking by how near the opponent is to winning and my options by how near I am.

Which tiles fit where under which face comes from the engine's fast queries
(``trio.frontier``, ``trio.tiles_fitting``), recomputed per candidate only for the pairs that
a new cell can change.

Levels (deterministic; nothing is bounded by the clock, a decision is one pass over the legal
lays with a fixed number of sampled hands):

- easy: a beginner's rule: the tile that fits in the most places now, where it makes the most
  sets. It plays sensibly but keeps no options and blocks nobody.
- normal: keeps its own options for the next roll (mine).
- hard: mine against every opponent's chance (theirs), from their guessed hands: it blocks.

Measured in 2-player games (``python -m bench arena``, 1000 games a figure unless said):
against uniform random play easy, normal and hard come to about 49 %, 62 % and 69-70 % (hard:
0.700 and 0.689 with seeds 1 and 2; 0.682 over 8000 more games, where hard before the history
and the race scored 0.649 on the same games), at 4 ms a move (p50; p99 11 ms). Hard beats
normal 55-56 % (3000 games), normal beats easy 61-64 %.

Trio is mostly luck, and what skill there is lies in the hidden hand: the same judgement told
the opponent's hand reaches 79-80 %, told it only once the opponent holds two tiles or fewer
75 %, one tile 72 %. The history recovers little of it: the opponent's true last tile gets
about twice the chance a blind deal gives it (2.7 times if its lays are also taken for
uniform random ones), where knowing it would be twenty times; all of it is worth about 1.5
points. Tried and no better: taking the opponent's lays for uniform random ones too (+0.4,
noise, and it would mislead against any other player), planning all my tiles on the board as
it stands (65.7 %), 600 guesses instead of 300 or a larger tie-breaker (67.8 %, 67.4 %
against 68.2 % on the same 8000 games), and Monte Carlo search in the end game (my hand 3
tiles or fewer, or theirs 2; top 4 lays, 100 guessed worlds each): with hard's judgement in
the playouts about +2 points over 800 games at about a second a move, with a cheap playout
policy nothing.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
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
                 die=view["die"], passes=view["passes"], turn=view["turn"], over=over,
                 history=tuple((h["seat"], h["face"], h["tiles"], h["laid"])
                               for h in view.get("history", ())))


# ------------------------------------------------------------------ what the draws tell

def _turns_of_others(view: dict[str, Any], seat: int) -> dict[int, list[tuple]]:
    """Per other seat, its turns in order: ("lay", tile) or ("draw", tiles on the board then,
    face index, whether a tile was taken). No turns when the history does not go back to the
    start (a game saved before the engine kept it)."""
    players = view["players"]
    history = view.get("history", ())
    out: dict[int, list[tuple]] = {s: [] for s in range(players) if s != seat}
    if len(history) != view["turn"]:
        return out
    pool = 36 - trio.HAND_SIZE * players - 1
    for h in history:
        if h["laid"]:
            turn = ("lay", view["tiles"][h["tiles"]]["tile"])
        else:
            turn = ("draw", h["tiles"], DIE_FACES.index(h["face"]), pool > 0)
            pool -= pool > 0
        if h["seat"] in out:
            out[h["seat"]].append(turn)
    return out


def sample_hands(view: dict[str, Any], seat: int, rng: random.Random,
                 count: int) -> list[tuple[float, list[int]]]:
    """``count`` weighted guesses of the other hands: (weight, a bitmask of tiles per seat,
    0 for ``seat``), weights summing to 1.

    Each seat's turns are walked back from now: a laid tile rejoins the hand; at a draw one
    tile of the hand, chosen at random as the pool's order would, is the one drawn, and every
    other tile, known or not, must not have fitted the board of then under the rolled face.
    The unknown tiles are then dealt from the unseen ones that obey their constraints, and
    the weight (how many tiles each could have been) keeps the guesses as likely as the deal.
    """
    strict = view["options"]["strict_lines"]
    unseen = unseen_tiles(view)
    board = _board_from(view)
    fit_at: dict[tuple[int, int], int] = {}

    def fitting(tiles: int, face: int) -> int:
        """The tiles that fitted under ``face`` on the board of the first ``tiles`` tiles."""
        if (tiles, face) not in fit_at:
            by_face = FitMap(trio.grid_of(board[:tiles]), strict).by_face
            for f in range(FACES):
                fit_at[(tiles, f)] = by_face[f]
        return fit_at[(tiles, face)]

    sizes = view["hand_sizes"]
    out = _guess(_turns_of_others(view, seat), sizes, unseen, fitting, rng, count)
    if not out:  # every guess contradicted a draw (too few guesses): guess blind
        out = _guess({s: [] for s in range(len(sizes)) if s != seat}, sizes, unseen, fitting, rng, count)
    total = sum(w for w, _ in out)
    return [(w / total, hands) for w, hands in out]


def _guess(turns, sizes, unseen, fitting, rng, count) -> list[tuple[float, list[int]]]:
    """The guesses of ``sample_hands`` before their weights are scaled (see there)."""
    out = []
    for _ in range(count):
        weight = 1.0
        forbidden: list[int] = []  # per unknown tile: the tiles it cannot be
        owner: list[int] = []
        for other, history in turns.items():
            hand = [-1 - len(forbidden) - k for k in range(sizes[other])]  # < 0: unknown
            forbidden += [0] * sizes[other]
            owner += [other] * sizes[other]
            for turn in reversed(history):
                if turn[0] == "lay":
                    hand.append(turn[1])
                    continue
                _, tiles, face, drew = turn
                fit = fitting(tiles, face)
                if drew:
                    # A known tile that fitted then must be the one drawn.
                    must = [i for i, x in enumerate(hand) if x >= 0 and (fit >> x) & 1]
                    if len(must) > 1:
                        weight = 0.0
                        break
                    if must:
                        weight /= len(hand)
                        hand.pop(must[0])
                    else:
                        hand.pop(rng.randrange(len(hand)))
                for x in hand:
                    if x >= 0:
                        if (fit >> x) & 1:
                            weight = 0.0
                    else:
                        forbidden[-1 - x] |= fit
                if not weight:
                    break
        hands = [0] * len(sizes)
        left = unseen[:]
        for k in sorted(range(len(forbidden)), key=lambda k: -forbidden[k].bit_count()):
            allowed = [t for t in left if not (forbidden[k] >> t) & 1] if weight else []
            if not allowed:
                weight = 0.0
                break
            weight *= len(allowed)
            tile = allowed[rng.randrange(len(allowed))]
            left.remove(tile)
            hands[owner[k]] |= 1 << tile
        if weight:
            out.append((weight, hands))
    return out


# ------------------------------------------------------------------ which tiles fit where

class FitMap:
    """For one board: per die face, the tiles (bitmask by id) that have a legal place.

    ``fits`` keeps, per frontier pair, the tiles that may go there (rules 2-3); a board one
    tile further on reuses every pair that no new cell can change (``_near``).
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
    """Whether a new cell can change what fits on ``pair``: the rules look only along the
    four lines through a cell, at most three cells away (a run of three plus the cell that
    would make it four)."""
    for p in pair:
        for c in cells:
            dx, dy = abs(p[0] - c[0]), abs(p[1] - c[1])
            if (dx == 0 or dy == 0 or dx == dy) and max(dx, dy) <= 3:
                return True
    return False


# ------------------------------------------------------------------ the race

# Lay rates by hand size (index) in hard-against-random games: mine, an opponent's.
RACE_MINE = (0.0, 0.70, 0.80, 0.85, 0.86, 0.69, 0.75, 0.76, 0.80, 0.80)
RACE_THEIRS = (0.0, 0.52, 0.72, 0.75, 0.78, 0.70, 0.72, 0.68, 0.80, 0.80)
CAP = len(RACE_MINE) - 1  # larger hands count as this many tiles


def _race_after_my_turn() -> list[list[float]]:
    """RACE[a][b]: my chance to win with a tiles against b, the opponent to move, when both
    lay at the RACE_* rates and a failed roll draws a tile (fixed point of the two turns)."""
    me = [[0.5] * (CAP + 1) for _ in range(CAP + 1)]
    op = [[0.5] * (CAP + 1) for _ in range(CAP + 1)]
    for _ in range(200):
        for a in range(1, CAP + 1):
            for b in range(1, CAP + 1):
                p, q = RACE_MINE[a], RACE_THEIRS[b]
                me[a][b] = p * (1.0 if a == 1 else op[a - 1][b]) + (1 - p) * op[min(a + 1, CAP)][b]
                op[a][b] = q * (0.0 if b == 1 else me[a][b - 1]) + (1 - q) * me[a][min(b + 1, CAP)]
    return op


RACE = _race_after_my_turn()


def race(mine: float, theirs: float, a: int, b: int) -> float:
    """My chance to win holding ``a`` tiles against ``b`` after my lay, when the opponent lays
    next with chance ``theirs`` and I then with chance ``mine``; the RACE table after that."""
    a, b = min(a, CAP), min(b, CAP)

    def my_turn(b2: int) -> float:
        return mine * (1.0 if a == 1 else RACE[a - 1][b2]) + (1 - mine) * RACE[min(a + 1, CAP)][b2]

    return theirs * (0.0 if b == 1 else my_turn(b - 1)) + (1 - theirs) * my_turn(min(b + 1, CAP))


# ------------------------------------------------------------------ levels

@dataclass(frozen=True)
class Style:
    """beginner: the beginner's rule instead of a judgement; ways: weight of the finer count of
    my options (tile and face combinations) beside the faces; theirs: weight of the
    opponents' chances to lay on their next turn (0: ignore them), from ``samples`` guessed
    hands; race: with two players, judge by the chance to win the race instead (``race``)."""

    beginner: bool = False
    ways: float = 0.0
    theirs: float = 0.0
    samples: int = 300
    race: bool = False


STYLES: dict[str, Style] = {
    "easy": Style(beginner=True),
    "normal": Style(ways=0.02),
    "hard": Style(ways=0.02, theirs=1.0, race=True),
}
RACE_WAYS = 0.001  # in the race, the finer count of my options only breaks ties


class Judge:
    """Values the board and hand a candidate lay leaves, from the seat's knowledge."""

    def __init__(self, view: dict[str, Any], seat: int, style: Style, grid: dict,
                 rng: random.Random) -> None:
        self.style = style
        self.strict = view["options"]["strict_lines"]
        players = view["players"]
        self.opponent_sizes = [view["hand_sizes"][(seat + k) % players] for k in range(1, players)]
        self.guesses = sample_hands(view, seat, rng, style.samples) if style.theirs else []
        self.base = FitMap(grid, self.strict)

    def value(self, grid: dict, cells: tuple[Cell, Cell], hand_after: list[int]) -> float:
        """My faces (and ways) on ``grid`` with ``hand_after`` less the opponents' expected
        faces over the guessed hands; or, racing, my chance to win from these."""
        style = self.style
        fit = FitMap(grid, self.strict, self.base, cells)
        hand_mask = sum(1 << t for t in hand_after)
        mine = fit.faces_for(hand_mask)
        if not style.theirs:
            return mine + style.ways * fit.ways_for(hand_mask)
        theirs = 0.0
        for weight, hands in self.guesses:
            theirs += weight * sum(1 for m in fit.by_face for h in hands if m & h)
        theirs /= len(self.opponent_sizes)
        if style.race and len(self.opponent_sizes) == 1:
            return (race(mine / FACES, theirs / FACES, len(hand_after), self.opponent_sizes[0])
                    + RACE_WAYS * fit.ways_for(hand_mask))
        return mine + style.ways * fit.ways_for(hand_mask) - style.theirs * theirs


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
    judge = Judge(view, seat, style, grid, rng)
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
