"""Computer player for lucky (Totally Genial, engines/lucky.py).

Nothing in lucky is secret but the order of the face-down reserve, and its make-up is public
knowledge: 21 tokens of each colour, minus every token in sight. So the odds of every draw are
exact, and within one turn the only thing that changes is which colours are in the zone (a
colour drawn twice busts): a whole turn is a tree of at most 2^6 zone sets, searched exactly.
This is the turn-level expectimax Neller and Presser use for Pig ("Optimal Play of the Dice
Game Pig", The UMAP Journal 25(1), 2004); the levels differ in what they take a turn's result
to be worth. Their finding for Pig holds here too: in a game this full of luck, a good
heuristic loses only a little to the best play, so the levels are a few points apart.

* ``hard``: a concave utility of the collection (a token for a short colour is worth more than
  one for a colour close to its target, tokens above the target nothing, a lone weakest colour
  a little, for it opens the alternative move), because players are ranked by their weakest
  colour; a completed colour is worth the extra turn it gives; and what a turn leaves in the
  centre (a bust drops the zone there, a bank empties its colours) is charged at what it
  offers the next player, whose draw or alternative move would feed on it.
* ``normal``: the same exact search, counting tokens plainly (up to the target): the most
  tokens this turn, blind to the weakest colour, the bonus turn and the next player.
* ``easy``: a rule of thumb with noise: draw again while the bust risk, as a casual player
  counts it (colours, not tokens), is under a threshold drawn at random each time; now and
  then take the alternative move.

Thinking is bounded by the size of the turn tree, never by the clock, and uses only the seat's
view and the ``random.Random`` it is given, so the same (view, seat, level, seed) gives the
same move. Parameters were tuned in the arena (``python -m bench arena --game lucky``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from engines import lucky as game

COLOURS = game.COLOURS
SIX = range(len(COLOURS))
WIN = 1_000.0  # completing all six colours ends the game: no utility of a collection comes near


# ----------------------------------------------------------------------------- the position


@dataclass(frozen=True)
class Position:
    """What a seat knows, in the engine's colour indices: everything but the reserve order.

    ``reserve`` is the reserve's make-up (six counts): 21 of a colour minus every visible one.
    """

    seat: int
    players: int
    target: int
    collections: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]
    zone: tuple[int, ...]
    reserve: tuple[int, ...]
    bonus_pending: int


def _six(counts: dict[str, int]) -> tuple[int, ...]:
    return tuple(int(counts[c]) for c in COLOURS)


def position(view: dict[str, Any], seat: int) -> Position:
    """The public position of ``view``, from the point of view of ``seat``."""
    collections = tuple(_six(col) for col in view["collections"])
    centre = _six(view["centre"])
    zone = tuple(COLOURS.index(c) for c in view["zone"])
    reserve = tuple(
        game.PER_COLOUR - centre[c] - zone.count(c) - sum(col[c] for col in collections) for c in SIX
    )
    if any(n < 0 for n in reserve) or sum(reserve) != view["reserve"]:
        raise ValueError("the view's tokens do not add up to 21 of each colour")
    return Position(
        seat=seat,
        players=view["players"],
        target=view["target"],
        collections=collections,
        centre=centre,
        zone=zone,
        reserve=reserve,
        bonus_pending=view["bonus_pending"],
    )


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> game.State:
    """A full state matching ``view``: the reserve's known make-up in an order drawn by ``rng``."""
    pos = position(view, seat)
    reserve = [c for c in SIX for _ in range(pos.reserve[c])]
    rng.shuffle(reserve)
    seven_for_three = pos.players == 3 and pos.target == 7
    return game.State(
        players=pos.players,
        options=game.Options(seven_for_three=seven_for_three),
        seed=rng.getrandbits(62),
        target=pos.target,
        reserve=tuple(reserve),
        centre=pos.centre,
        zone=pos.zone,
        collections=pos.collections,
        current=view["current"] if view["current"] is not None else seat,
        counter=0,
        bonus_pending=view["bonus_pending"],
        in_bonus=bool(view["bonus"]),
        stall=view["stall"],
        turn=view["turn"],
        ended=view["reason"] if view["over"] else None,
    )


# ----------------------------------------------------------------------------- utilities


@dataclass(frozen=True)
class Style:
    """How a level values a collection and what it looks at.

    deficit_power: a collection is worth ``-sum(deficit ** power)`` over the colours (deficit =
    tokens still missing to the target); above 1, the shorter a colour the more a token for it
    is worth, which is what ranking by the weakest colour asks for.
    weakest_weight: extra worth per token of the weakest colour.
    bonus_turn: worth of the extra turn a completed colour gives, in expected turns.
    rival_weight: how much the next player's chances from the centre we leave count against
    us (0: ignore the next player); their chances are measured by :func:`expected_first_bank`,
    which undervalues a turn, hence a weight well above 1.
    lone_weakest: worth of having one colour strictly fewest (the alternative move needs it).
    rival_take: also count the alternative move among the next player's chances.
    """

    deficit_power: float
    weakest_weight: float
    bonus_turn: float
    rival_weight: float
    lone_weakest: float = 0.0
    rival_take: bool = False


STYLES: dict[str, Style] = {
    "normal": Style(deficit_power=1.0, weakest_weight=0.0, bonus_turn=0.0, rival_weight=0.0),
    "hard": Style(deficit_power=1.6, weakest_weight=1.0, bonus_turn=1.0, rival_weight=8.0,
                  lone_weakest=2.0, rival_take=True),
}


def utility(collection: tuple[float, ...], target: int, style: Style) -> float:
    """Worth of a collection: concave in each colour, capped at the target."""
    if all(n >= target for n in collection):
        return WIN
    worth = -sum((target - min(n, target)) ** style.deficit_power for n in collection)
    low = min(collection)
    worth += style.weakest_weight * min(low, target)
    if style.lone_weakest and collection.count(low) == 1:
        worth += style.lone_weakest
    return worth


def gain(collection: tuple[int, ...], added: dict[int, float], target: int, style: Style) -> float:
    """How much ``added`` tokens (colour -> count) raise the utility of ``collection``."""
    after = tuple(n + added.get(c, 0) for c, n in enumerate(collection))
    return utility(after, target, style) - utility(collection, target, style)


def completed(collection: tuple[int, ...], added: dict[int, float], target: int) -> int:
    """How many colours ``added`` brings to the target (each gives a bonus turn)."""
    return sum(1 for c, k in added.items() if collection[c] < target <= collection[c] + k)


# ----------------------------------------------------------------------------- the turn tree


class TurnSearch:
    """Exact expectimax over one turn: draw (chance node over the reserve's make-up), bank, take.

    A node is the set of zone colours (a bit mask). Drawn tokens leave the reserve, so the odds
    below a node use the reserve minus the tokens drawn since the search began.
    """

    def __init__(self, pos: Position, style: Style):
        self.pos = pos
        self.style = style
        self.mine = pos.collections[pos.seat]
        self.root_zone = sum(1 << c for c in pos.zone)
        self.memo: dict[int, float] = {}
        self.rival_memo: dict[tuple[float, ...], float] = {}
        self.bonus_worth = 0.0
        if style.bonus_turn:
            self.bonus_worth = style.bonus_turn * max(0.0, self._fresh_turn_worth())

    # -- leaves

    def _rival_loss(self, centre: tuple[float, ...], turn_goes_on: bool) -> float:
        """What the next player may expect from ``centre``, weighted; 0 when we play again."""
        pos, style = self.pos, self.style
        if not style.rival_weight or turn_goes_on or pos.bonus_pending:
            return 0.0
        if centre not in self.rival_memo:
            rival = pos.collections[(pos.seat + 1) % pos.players]
            worth = expected_first_bank(rival, centre, pos.reserve, pos.target, style)
            if style.rival_take:
                c = game.take_colour(rival, [n > 0 for n in centre])
                if c is not None:
                    worth = max(worth, gain(rival, {c: 1}, pos.target, style))
            self.rival_memo[centre] = style.rival_weight * worth
        return self.rival_memo[centre]

    def bank_value(self, zone: int) -> float:
        pos = self.pos
        added = {c: 1 + pos.centre[c] for c in SIX if zone >> c & 1}
        value = gain(self.mine, added, pos.target, self.style)
        bonus = completed(self.mine, added, pos.target)
        left = tuple(0 if zone >> c & 1 else n for c, n in enumerate(pos.centre))
        return value + bonus * self.bonus_worth - self._rival_loss(left, bonus > 0)

    def bust_value(self, zone: int, colour: int) -> float:
        pos = self.pos
        left = tuple(n + (zone >> c & 1) + (c == colour) for c, n in enumerate(pos.centre))
        return -self._rival_loss(left, False)

    def take_value(self, colour: int) -> float:
        pos = self.pos
        added = {colour: 1}
        value = gain(self.mine, added, pos.target, self.style)
        bonus = completed(self.mine, added, pos.target)
        left = tuple(n - (c == colour) for c, n in enumerate(pos.centre))
        return value + bonus * self.bonus_worth - self._rival_loss(left, bonus > 0)

    # -- inner nodes

    def draw_value(self, zone: int) -> float | None:
        """Expected worth of drawing now (None when the model has nothing left to draw)."""
        drawn = zone & ~self.root_zone
        left = [n - (drawn >> c & 1) for c, n in enumerate(self.pos.reserve)]
        total = sum(left)
        if total <= 0:
            return None
        value = 0.0
        for c in SIX:
            if not left[c]:
                continue
            if self.pos.centre[c] and not zone >> c & 1:
                outcome = self.value(zone | 1 << c)
            else:
                outcome = self.bust_value(zone, c)
            value += left[c] / total * outcome
        return value

    def value(self, zone: int) -> float:
        """Worth of standing with ``zone`` after a success: the better of banking and drawing."""
        if zone not in self.memo:
            bank = self.bank_value(zone)
            draw = self.draw_value(zone)
            self.memo[zone] = bank if draw is None else max(bank, draw)
        return self.memo[zone]

    def _fresh_turn_worth(self) -> float:
        """What a turn from this centre is worth to us, without bonus or rival terms."""
        plain = replace(self.style, bonus_turn=0.0, rival_weight=0.0, rival_take=False)
        pos = self.pos
        fresh = Position(pos.seat, pos.players, pos.target, pos.collections, pos.centre, (),
                         tuple(n + pos.zone.count(c) for c, n in enumerate(pos.reserve)), 1)
        search = TurnSearch(fresh, plain)
        return search.draw_value(0) or 0.0

    # -- the root

    def action_values(self, actions: list[Any]) -> list[float]:
        out = []
        for action in actions:
            if isinstance(action, game.Draw):
                out.append(self.draw_value(self.root_zone) or 0.0)
            elif isinstance(action, game.Bank):
                out.append(self.bank_value(self.root_zone))
            else:
                out.append(self.take_value(COLOURS.index(action.colour)))
        return out


def expected_first_bank(collection: tuple[int, ...], centre: tuple[float, ...],
                        reserve: tuple[int, ...], target: int, style: Style) -> float:
    """A quick measure of what a centre offers the player who moves next: the worth of
    drawing once and banking on a success.

    The centre is first topped up to three with the reserve's average make-up, as the next
    turn would. It undervalues the turn (a player may draw on), which the weight absorbs;
    it is cheap enough for every leaf of the turn tree.
    """
    total = sum(reserve)
    if total <= 0:
        return 0.0
    missing = max(0.0, game.CENTRE_MIN - sum(centre))
    worth = 0.0
    for c in SIX:
        if not reserve[c]:
            continue
        expected = centre[c] + missing * reserve[c] / total
        if expected > 0:
            present = min(1.0, expected)
            worth += reserve[c] / total * present * gain(collection, {c: 1 + expected}, target, style)
    return max(0.0, worth)


# ----------------------------------------------------------------------------- levels


def legal(view: dict[str, Any]) -> list[Any]:
    """The seat's legal actions, read from the view in the engine's order."""
    actions: list[Any] = []
    if view["can_draw"]:
        actions.append(game.Draw())
    if view["can_bank"]:
        actions.append(game.Bank())
    if view["take"] is not None:
        actions.append(game.Take(view["take"]))
    return actions


def bust_chance(pos: Position) -> float:
    """Chance that the next draw busts (no match in the centre, or a colour already drawn)."""
    total = sum(pos.reserve)
    if total <= 0:
        return 1.0
    good = sum(n for c, n in enumerate(pos.reserve) if pos.centre[c] and c not in pos.zone)
    return 1.0 - good / total


def rough_risk(pos: Position) -> float:
    """The bust risk as a casual player sees it: the share of the six colours that would not
    succeed now (missing from the centre, or already drawn), blind to the reserve's make-up."""
    good = sum(1 for c in SIX if pos.centre[c] and c not in pos.zone)
    return 1.0 - good / len(COLOURS)


def choose_easy(pos: Position, actions: list[Any], rng: random.Random) -> Any:
    """A rule of thumb: draw again while the rough risk is under a threshold drawn at random;
    take the alternative move now and then."""
    kinds = {type(a): a for a in actions}
    if game.Take in kinds and rng.random() < 0.3:
        return kinds[game.Take]
    if game.Bank in kinds:
        if game.Draw not in kinds or rough_risk(pos) > rng.uniform(0.3, 0.8):
            return kinds[game.Bank]
    if game.Draw in kinds:
        return kinds[game.Draw]
    return actions[0]


def choose(view: dict[str, Any], seat: int, level: str, rng: random.Random) -> Any:
    """The move of ``seat`` at ``level`` ("easy", "normal" or "hard") from its view."""
    if view["over"] or view["current"] != seat:
        raise ValueError("not this seat's turn")
    actions = legal(view)
    pos = position(view, seat)
    if len(actions) == 1:
        return actions[0]
    if level == "easy":
        return choose_easy(pos, actions, rng)
    search = TurnSearch(pos, STYLES[level])
    values = search.action_values(actions)
    best = max(values)
    ties = [a for a, v in zip(actions, values) if v >= best - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)
