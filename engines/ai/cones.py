"""Computer player for cones (the hidden-goal cones game, engines/cones.py).

The board and every supply are public; the only secret is each player's goal colour. A
computer knows its own goal and nothing else, so wherever it looks ahead it samples the other
goals, dealt as the cones were: each other seat one of the remaining colours, two left over.

* ``hard``: flat information-set Monte Carlo, the root of single-observer ISMCTS (Cowling,
  Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012):
  each iteration samples the other goals, picks a candidate move by UCB1 and plays the game
  out with the ``normal`` rule of thumb for every seat, each seat knowing only its own goal
  (the others now and then play at random). The statistics are shared across samples, so a
  move is judged over the whole information set rather than in one guessed world.
  The samples are weighted by what the table says about the other goals (there is no move
  history in the view, so the evidence is the table itself): a colour on many piles is
  likelier to be somebody's, and a colour a seat still holds much of is likelier that seat's,
  since good players keep their goal chips for the end. Candidates are the moves that differ
  in effect (piles with the same top over the same colour are alike), the most promising by
  a quick score; the quick score also nudges the results (a progressive bias, Chaslot et al.,
  "Progressive strategies for Monte-Carlo tree search", 2008), which settles near-ties early
  in the game, where playouts cannot tell moves apart. The game's very last move is judged
  exactly over every way the other goals can lie.
* ``normal``: the rule of thumb: hold the chips of your goal colour for late in the game,
  where they are less likely to be covered again; meanwhile cover the strongest colour that
  is not yours (the likeliest threat) with a chip of a weak colour, or cancel it with its own
  colour when that uncovers yours.
* ``easy``: greedy for the move's immediate effect on its own colour, with noise; it plays
  its goal openly and early, which a watchful player can read and punish.

Hiding the goal: ``normal`` and ``hard`` open (the first third of the game) without playing
their goal chips or making their goal colour a pile's top, while any other move is legal. So
that the gap itself is no tell, they treat one more colour the same way, a decoy drawn from
the public pile layout and the seat: stable for the whole game and independent of the goal.

Thinking is bounded by counts (simulated moves, playouts), never by the clock, and depends
only on the seat's view and the ``random.Random`` it is given. The knobs (:data:`SEARCH`) were
tuned in the arena (``python -m bench arena --game cones``).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from engines import cones as game

# ----------------------------------------------------------------------------- the board


class Board:
    """A fast mutable model of the table for looking ahead, colours as indices.

    tops[i] is the colour pile i shows; counts[c] how many piles show c; supplies[seat][c]
    the chips a seat holds; ``blocked`` the pile the no_same_pile option forbids (or -1).
    """

    __slots__ = ("bases", "stacks", "tops", "counts", "supplies", "to_move", "players",
                 "left", "blocked", "no_same_pile")

    def __init__(self, bases, stacks, supplies, to_move, players, blocked, no_same_pile):
        self.bases = bases
        self.stacks = stacks
        self.tops = [s[-1] if s else b for s, b in zip(stacks, bases)]
        self.counts = [0] * len(supplies[0])
        for t in self.tops:
            self.counts[t] += 1
        self.supplies = supplies
        self.to_move = to_move
        self.players = players
        self.left = sum(sum(s) for s in supplies)
        self.blocked = blocked
        self.no_same_pile = no_same_pile

    def copy(self) -> "Board":
        new = Board.__new__(Board)
        new.bases = self.bases
        new.stacks = [s[:] for s in self.stacks]
        new.tops = self.tops[:]
        new.counts = self.counts[:]
        new.supplies = [s[:] for s in self.supplies]
        new.to_move = self.to_move
        new.players = self.players
        new.left = self.left
        new.blocked = self.blocked
        new.no_same_pile = self.no_same_pile
        return new

    def allowed(self, colour: int, pile: int) -> bool:
        return pile != self.blocked and (self.stacks[pile] or self.bases[pile] != colour)

    def below(self, pile: int) -> int:
        """The colour a pile would show if its top chip were cancelled (-1: a bare base)."""
        stack = self.stacks[pile]
        if not stack:
            return -1
        return stack[-2] if len(stack) > 1 else self.bases[pile]

    def after(self, colour: int, pile: int) -> int:
        """The colour pile ``pile`` shows once ``colour`` is played on it."""
        return self.below(pile) if self.tops[pile] == colour else colour

    def legal(self) -> list[tuple[int, int]]:
        supply = self.supplies[self.to_move]
        return [(c, p) for c in range(len(supply)) if supply[c]
                for p in range(len(self.tops)) if self.allowed(c, p)]

    def play(self, colour: int, pile: int) -> None:
        stack = self.stacks[pile]
        before = self.tops[pile]
        if stack and before == colour:
            stack.pop()
            now = stack[-1] if stack else self.bases[pile]
        else:
            stack.append(colour)
            now = colour
        self.tops[pile] = now
        self.counts[before] -= 1
        self.counts[now] += 1
        self.supplies[self.to_move][colour] -= 1
        self.left -= 1
        self.blocked = pile if self.no_same_pile else -1
        self.to_move = (self.to_move + 1) % self.players

    def standing(self, colour: int) -> tuple[int, int, int]:
        """The ranking key of a goal colour: piles, piles with chips, tallest pile."""
        piles = with_chips = tallest = 0
        for stack, top in zip(self.stacks, self.tops):
            if top == colour:
                piles += 1
                if stack:
                    with_chips += 1
                    tallest = max(tallest, len(stack))
        return piles, with_chips, tallest

    def share(self, goals: list[int], seat: int) -> float:
        """The seat's result once the game is over: 1 / (number sharing first place), or 0."""
        counts = self.counts
        piles = [counts[g] for g in goals]
        most = max(piles)
        if piles[seat] != most:
            return 0.0
        if piles.count(most) == 1:
            return 1.0
        keys = [self.standing(g) if n == most else (n,) for g, n in zip(goals, piles)]
        best = max(keys)
        if keys[seat] != best:
            return 0.0
        return 1.0 / keys.count(best)


@dataclass(frozen=True)
class Table:
    """The view, translated: colour names, the seat's goal index, the board."""

    colours: tuple[str, ...]
    seat: int
    goal: int
    board: Board
    turn: int
    total_moves: int


def table(view: dict[str, Any], seat: int) -> Table:
    colours = tuple(view["colours"])
    index = {c: i for i, c in enumerate(colours)}
    bases = [index[p["base"]] for p in view["piles"]]
    stacks = [[index[c] for c in p["chips"]] for p in view["piles"]]
    supplies = [[s[c] for c in colours] for s in view["supplies"]]
    blocked = view["blocked_pile"] - 1 if view["blocked_pile"] else -1
    board = Board(bases, stacks, supplies, view["to_move"] if view["to_move"] is not None else seat,
                  view["players"], blocked, view["options"]["no_same_pile"])
    total = game.CHIPS_PER_COLOUR * len(colours)
    return Table(colours, seat, index[view["goal"]], board, view["turn"], total)


# ----------------------------------------------------------------------------- hidden goals


def sample_goals(players: int, seat: int, goal: int, colours: int, rng: random.Random,
                 weights: list[list[float]] | None = None) -> list[int]:
    """Goals for every seat: ours, and the other cones dealt as at setup (each other seat one
    of the remaining colours, two left undrawn): uniformly, or seat by seat (in random order)
    with ``weights[s][c]``, how much the table suggests that seat s holds colour c."""
    rest = [c for c in range(colours) if c != goal]
    goals = [goal] * players
    others = [s for s in range(players) if s != seat]
    if weights is None:
        rng.shuffle(rest)
        for s in others:
            goals[s] = rest.pop()
        return goals
    rng.shuffle(others)
    for s in others:
        odds = weights[s]
        pick = rng.random() * sum(odds[c] for c in rest)
        for i, c in enumerate(rest):
            pick -= odds[c]
            if pick < 0:
                break
        goals[s] = rest.pop(i)
    return goals


def goal_weights(board: Board, piles: float, held: float) -> list[list[float]] | None:
    """Inference from the table, per seat and colour: ``exp(piles * piles showing the colour
    + held * share of the seat's chips in that colour)``.

    Players push their own colour, so a colour on many piles is likelier someone's goal; and
    good players keep their goal chips for the end, so a colour a seat still holds much of is
    likelier that seat's goal. A player who does neither (a random one) leaves both signals
    flat, and the weights then change little.
    """
    if not piles and not held:
        return None
    out = []
    for supply in board.supplies:
        left = sum(supply) or 1
        out.append([math.exp(piles * n + held * k / left) for n, k in zip(board.counts, supply)])
    return out


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> game.State:
    """A full state matching ``view``: the other goals dealt at random from the cones left."""
    colours = tuple(view["colours"])
    players = view["players"]
    if view["over"]:
        goals = tuple(view["goals"])
    else:
        t = table(view, seat)
        goals = tuple(colours[g] for g in sample_goals(players, seat, t.goal, len(colours), rng))
    undrawn = tuple(c for c in colours if c not in goals)
    to_move = view["to_move"]
    first = (to_move - view["turn"]) % players if to_move is not None else 0
    return game.State(
        players=players,
        options=game.Options(**view["options"]),
        seed=rng.getrandbits(62),
        counter=1,
        colours=colours,
        goals=goals,
        undrawn=undrawn,
        bases=tuple(p["base"] for p in view["piles"]),
        stacks=tuple(tuple(p["chips"]) for p in view["piles"]),
        supplies=tuple(tuple(s[c] for c in colours) for s in view["supplies"]),
        removed=tuple(view["removed_by_colour"][c] for c in colours),
        first=first,
        turn=view["turn"],
        last_pile=view["last_pile"],
    )


# ----------------------------------------------------------------------------- the rule of thumb


def threat(board: Board, goal: int, rng: random.Random) -> int:
    """The strongest colour that is not ``goal`` (ties broken at random): the one to cover."""
    counts = board.counts
    best = max(n for c, n in enumerate(counts) if c != goal)
    tied = [c for c, n in enumerate(counts) if n == best and c != goal]
    return tied[0] if len(tied) == 1 else tied[int(rng.random() * len(tied))]


def thumb_move(board: Board, goal: int, rng: random.Random,
               hidden: frozenset[int] = frozenset()) -> tuple[int, int]:
    """The rule of thumb for the seat to move, whose goal is ``goal``.

    Cover the strongest other colour; with a chip of its own colour when that uncovers ours
    (a cancel), else with our goal chip when the time has come (the fewer moves we have left
    per goal chip, the likelier), else with the weakest colour we hold, so as not to raise a
    new rival. Never covers our own colour unless nothing else is allowed. ``hidden`` colours
    (the opening's goal and decoy) are neither played nor shown while another move exists.
    """
    if hidden:
        return _thumb_hiding(board, goal, rng, hidden)
    supply = board.supplies[board.to_move]
    tops = board.tops
    enemy = threat(board, goal, rng)
    if supply[enemy]:
        for p, top in enumerate(tops):
            if top == enemy and board.below(p) == goal and p != board.blocked:
                return enemy, p
    left = sum(supply)
    own = supply[goal]
    if own and (own >= left or rng.random() * left * left < own * own):
        chip = goal
    else:
        chip, low = -1, 1 << 30
        for c, n in enumerate(supply):
            if n and c != goal and c != enemy and board.counts[c] < low:
                chip, low = c, board.counts[c]
        if chip < 0:
            chip = enemy if supply[enemy] else goal
    piles = [p for p, top in enumerate(tops) if top == enemy]
    if chip == enemy or board.blocked >= 0:
        piles = [p for p in piles if board.allowed(chip, p)]
    if not piles:
        piles = [p for p, top in enumerate(tops) if top != goal and board.allowed(chip, p)]
    if piles:
        return chip, piles[int(rng.random() * len(piles))]
    return rng.choice(board.legal())


def _thumb_hiding(board: Board, goal: int, rng: random.Random,
                  hidden: frozenset[int]) -> tuple[int, int]:
    """The rule of thumb restricted to moves that neither play nor show a hidden colour."""
    enemy = threat(board, goal, rng)
    best, choice = None, None
    for c, p in board.legal():
        after = board.after(c, p)
        if c in hidden or after in hidden:
            continue
        before = board.tops[p]
        score = (2 * (before == enemy) - 2 * (before == goal) + (after == goal)
                 - board.counts[after] * 0.1 + rng.random() * 0.01)
        if best is None or score > best:
            best, choice = score, (c, p)
    return choice if choice is not None else thumb_move(board, goal, rng)


def play_out(world: Board, goals: list[int], rng: random.Random, seat: int = -1,
             noise: float = 0.0) -> int:
    """Play ``world`` to the end with :func:`thumb_move` for every seat, each by its own goal,
    except that seats other than ``seat`` make a random move with chance ``noise`` (people
    are not all alike); returns the number of moves played.

    The same rule as :func:`thumb_move`, written out in one loop over local variables and
    per-colour lists of piles: playouts are where the search spends its time.
    """
    tops, counts, stacks, bases = world.tops, world.counts, world.stacks, world.bases
    supplies, players, no_same_pile = world.supplies, world.players, world.no_same_pile
    colours = range(len(counts))
    where: list[list[int]] = [[] for _ in colours]
    for p, top in enumerate(tops):
        where[top].append(p)
    blocked, to_move, left = world.blocked, world.to_move, world.left
    moves = left
    rand = rng.random
    while left:
        supply = supplies[to_move]
        if noise and to_move != seat and rand() < noise:
            chip = int(rand() * sum(supply))
            for c in colours:
                chip -= supply[c]
                if chip < 0:
                    chip = c
                    break
            pile = int(rand() * len(tops))
            while pile == blocked or not (stacks[pile] or bases[pile] != chip):
                pile = int(rand() * len(tops))
        else:
            goal = goals[to_move]
            best = enemy = -1
            tied = 0
            for c in colours:
                if c != goal:
                    n = counts[c]
                    if n > best:
                        best, enemy, tied = n, c, 1
                    elif n == best:
                        tied += 1
                        if rand() * tied < 1:  # a uniform pick among the tied, one pass
                            enemy = c
            targets = where[enemy]
            chip = pile = -1
            if supply[enemy]:
                for p in targets:
                    stack = stacks[p]
                    if stack and p != blocked and (stack[-2] if len(stack) > 1 else bases[p]) == goal:
                        chip, pile = enemy, p
                        break
            if chip < 0:
                mine = (left + players - 1) // players  # every seat holds as many chips, or one fewer
                own = supply[goal]
                if own and (own >= mine or rand() * mine * mine < own * own):
                    chip = goal
                else:
                    low = 1 << 30
                    for c in colours:
                        if supply[c] and c != goal and c != enemy and counts[c] < low:
                            chip, low = c, counts[c]
                    if chip < 0:
                        chip = enemy if supply[enemy] else goal
                piles = targets
                if chip == enemy or blocked >= 0:
                    piles = [p for p in piles if p != blocked and (stacks[p] or bases[p] != chip)]
                if not piles:
                    piles = [p for p, top in enumerate(tops) if top != goal and p != blocked
                             and (stacks[p] or bases[p] != chip)]
                if not piles:
                    piles = [p for p in range(len(tops)) if p != blocked and (stacks[p] or bases[p] != chip)]
                pile = piles[int(rand() * len(piles))]
        stack = stacks[pile]
        before = tops[pile]
        if stack and before == chip:
            stack.pop()
            now = stack[-1] if stack else bases[pile]
        else:
            stack.append(chip)
            now = chip
        tops[pile] = now
        counts[before] -= 1
        counts[now] += 1
        where[before].remove(pile)
        where[now].append(pile)
        supply[chip] -= 1
        left -= 1
        blocked = pile if no_same_pile else -1
        to_move = (to_move + 1) % players
    world.blocked, world.to_move, world.left = blocked, to_move, left
    return moves


# ----------------------------------------------------------------------------- candidates


def candidates(board: Board) -> list[tuple[int, int]]:
    """One move per distinct effect: piles showing the same colour over the same colour
    (or bare bases of one colour) take a chip alike, now and after."""
    seen: dict[tuple[int, int, int], tuple[int, int]] = {}
    supply = board.supplies[board.to_move]
    for c, n in enumerate(supply):
        if not n:
            continue
        for p, top in enumerate(board.tops):
            if board.allowed(c, p):
                key = (c, top, board.below(p))
                if key not in seen:
                    seen[key] = (c, p)
    return list(seen.values())


def quick_score(board: Board, goal: int, enemy: int, colour: int, pile: int) -> float:
    """A cheap judgement of a move, for pruning and as the search's prior: what it does to our
    colour and to the colours that threaten it (scaled by their piles against the strongest),
    and a cost for spending a goal chip while many moves remain."""
    before, after = board.tops[pile], board.after(colour, pile)
    strongest = max(board.counts[enemy], 1)

    def menace(c: int) -> float:
        return 0.0 if c == goal else board.counts[c] / strongest

    score = (after == goal) - (before == goal) + menace(before) - menace(after)
    if colour == goal:
        supply = board.supplies[board.to_move]
        left = sum(supply)
        score -= (left - supply[goal]) / left
    return score


def shortlist(board: Board, goal: int, moves: list[tuple[int, int]], keep: int,
              rng: random.Random, hidden: frozenset[int]) -> list[tuple[int, int]]:
    """The ``keep`` most promising moves by :func:`quick_score`, plus the rule of thumb's."""
    if len(moves) <= keep:
        return moves
    enemy = threat(board, goal, rng)
    ranked = sorted(moves, key=lambda m: -quick_score(board, goal, enemy, *m))[:keep]
    thumb = thumb_move(board, goal, rng, hidden)
    key = (thumb[0], board.tops[thumb[1]], board.below(thumb[1]))
    if all((c, board.tops[p], board.below(p)) != key for c, p in ranked):
        ranked.append(thumb)
    return ranked


def decoy(view: dict[str, Any], seat: int) -> int:
    """A colour the seat hides like its goal in the opening. It is a hash of the public pile
    layout and the seat (not a draw from the decision's generator), so it stays the same all
    game, and it says nothing about the goal."""
    layout = ",".join(p["base"] for p in view["piles"])
    return random.Random(f"cones-decoy:{layout}:{seat}").randrange(len(view["colours"]))


def hidden_colours(t: Table, view: dict[str, Any]) -> frozenset[int]:
    """The colours the seat keeps out of sight now: its goal and its decoy in the opening
    (the first third of the game), none afterwards."""
    if t.turn >= t.total_moves // 3:
        return frozenset()
    return frozenset({t.goal, decoy(view, t.seat)})


def hide(board: Board, moves: list[tuple[int, int]],
         hidden: frozenset[int]) -> list[tuple[int, int]]:
    """The moves that neither play nor show a hidden colour (all of them if none is left)."""
    if not hidden:
        return moves
    kept = [(c, p) for c, p in moves if c not in hidden and board.after(c, p) not in hidden]
    return kept or moves


# ----------------------------------------------------------------------------- levels


def choose_easy(t: Table, rng: random.Random) -> tuple[int, int]:
    """Greedy for the immediate effect on its own colour, plus noise: plays its goal early."""
    board = t.board
    enemy = threat(board, t.goal, rng)
    best, choice = None, None
    for c, p in candidates(board):
        after, before = board.after(c, p), board.tops[p]
        score = ((after == t.goal) - (before == t.goal) + 0.5 * (before == enemy)
                 + rng.random() * 0.8)
        if best is None or score > best:
            best, choice = score, (c, p)
    return choice


@dataclass(frozen=True)
class Search:
    """Budget of the Monte Carlo search and its knobs.

    nodes: simulated moves to spend, each playout also charged :data:`PLAYOUT_COST` (a playout
    from early in the game costs more than one near the end, so the budget buys more playouts
    as the game shortens), at most ``max_playouts`` playouts; keep: candidate moves searched; exploration: UCB1's constant;
    piles_evidence, held_evidence: weights of the table's evidence about the other goals
    (:func:`goal_weights`); noise: how often the other seats play at random in playouts;
    prior: weight of :func:`quick_score` beside the playouts' results.
    """

    nodes: int
    max_playouts: int = 3000
    keep: int = 16
    exploration: float = 0.7
    piles_evidence: float = 0.5
    held_evidence: float = 1.0
    noise: float = 0.3
    prior: float = 0.03


PLAYOUT_COST = 10  # copying the table, dealing goals and scoring cost about as much as 10 moves
SEARCH = {
    2: Search(nodes=8_000),
    3: Search(nodes=9_000, keep=12, prior=0.045),
    4: Search(nodes=10_000, keep=12, prior=0.045),
}


def final_move(t: Table, budget: Search) -> tuple[int, int]:
    """The game's last move: judged exactly over every way the other goals can lie, each way
    weighted by the table's evidence (:func:`goal_weights`)."""
    board = t.board
    weights = goal_weights(board, budget.piles_evidence, budget.held_evidence)
    others = [s for s in range(board.players) if s != t.seat]
    rest = [c for c in range(len(t.colours)) if c != t.goal]
    worlds = []
    for dealt in permutations(rest, len(others)):
        goals = [t.goal] * board.players
        likelihood = 1.0
        for s, g in zip(others, dealt):
            goals[s] = g
            likelihood *= weights[s][g] if weights else 1.0
        worlds.append((likelihood, goals))
    best, choice = -1.0, None
    for c, p in board.legal():
        after = board.copy()
        after.play(c, p)
        score = sum(w * after.share(goals, t.seat) for w, goals in worlds)
        if score > best + 1e-12:
            best, choice = score, (c, p)
    return choice


def search(t: Table, moves: list[tuple[int, int]], budget: Search,
           rng: random.Random) -> tuple[int, int]:
    """Flat information-set Monte Carlo with UCB1 over ``moves``.

    Each move's mean result is nudged by ``budget.prior`` times its :func:`quick_score` (a fixed
    progressive bias, Chaslot et al. 2008): early in the game the playouts find most moves
    about equal, and the nudge then settles for the sensible one.
    """
    board, seat, goal = t.board, t.seat, t.goal
    n = len(moves)
    enemy = threat(board, goal, rng)
    bias = [budget.prior * quick_score(board, goal, enemy, c, p) for c, p in moves]
    visits = [0] * n
    total = [0.0] * n
    colours = len(t.colours)
    weights = goal_weights(board, budget.piles_evidence, budget.held_evidence)
    spent = i = 0
    while i < n or (spent < budget.nodes and i < budget.max_playouts):
        if i < n:
            k = i
        else:
            spread = budget.exploration * math.sqrt(math.log(i))
            k, top = 0, -1e9
            for j in range(n):
                score = total[j] / visits[j] + bias[j] + spread / math.sqrt(visits[j])
                if score > top:
                    k, top = j, score
        goals = sample_goals(board.players, seat, goal, colours, rng, weights)
        world = board.copy()
        world.play(*moves[k])
        spent += PLAYOUT_COST + 1 + play_out(world, goals, rng, seat, budget.noise)
        visits[k] += 1
        total[k] += world.share(goals, seat)
        i += 1
    best = max(range(n), key=lambda j: total[j] / visits[j] + bias[j])
    return moves[best]


def choose(view: dict[str, Any], seat: int, level: str, rng: random.Random) -> game.Play:
    """The move of ``seat`` at ``level`` ("easy", "normal" or "hard") from its view."""
    if view["over"] or view["to_move"] != seat:
        raise ValueError("not this seat's turn")
    t = table(view, seat)
    if level == "easy":
        c, p = choose_easy(t, rng)
    elif t.board.left == 1:
        c, p = final_move(t, SEARCH[t.board.players])
    elif level == "normal":
        c, p = thumb_move(t.board, t.goal, rng, hidden_colours(t, view))
    else:
        budget = SEARCH[t.board.players]
        hidden = hidden_colours(t, view)
        moves = hide(t.board, candidates(t.board), hidden)
        c, p = search(t, shortlist(t.board, t.goal, moves, budget.keep, rng, hidden), budget, rng)
    return game.Play(t.colours[c], p + 1)
