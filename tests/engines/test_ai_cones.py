"""Computer player for cones (engines/ai/cones.py): legal, deterministic, blind to others'
goals, takes a decisive last move, and does not show its goal with its first move."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import ai, cones
from engines.ai import cones as cones_ai
from engines.cones import Options, Play, State

LEVELS = ai.LEVELS


def positions(players: int, seed: int, every: int):
    """States met in a game played by the rule of thumb (a mix of levels), every ``every`` turns."""
    state = cones.setup(players, Options(), seed)
    picker = random.Random(seed)
    while (seat := cones.current_player(state)) is not None:
        if state.turn % every == 0:
            yield state
        level = picker.choice(("easy", "normal"))
        action = ai.choose("cones", cones.view(state, seat), seat, level, picker.getrandbits(32))
        state, _ = cones.apply(state, seat, action)


def choose(state: State, level: str, seed: int) -> Play:
    seat = cones.current_player(state)
    return ai.choose("cones", cones.view(state, seat), seat, level, seed)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_every_level_plays_legal_moves(players, seed):
    for k, state in enumerate(positions(players, seed, every=7)):
        seat = cones.current_player(state)
        legal = cones.legal_actions(state, seat)
        for level in LEVELS:
            assert choose(state, level, seed * 100 + k) in legal


def test_legal_with_the_no_same_pile_option():
    state = cones.setup(3, Options(no_same_pile=True), 5)
    while (seat := cones.current_player(state)) is not None:
        level = LEVELS[state.turn % 3] if state.turn % 5 == 0 else "normal"
        action = choose(state, level, state.turn)
        assert action in cones.legal_actions(state, seat)
        state, _ = cones.apply(state, seat, action)


def test_determinize_matches_the_view_and_deals_goals_as_the_rules_do():
    state = next(s for s in positions(4, 9, every=1) if s.turn == 10)
    seat = cones.current_player(state)
    view = cones.view(state, seat)
    seen = set()
    for k in range(60):
        world = cones_ai.determinize(view, seat, random.Random(k))
        assert cones.view(world, seat) == view
        assert world.goals[seat] == state.goals[seat]
        assert len(set(world.goals + world.undrawn)) == len(world.colours) == 6
        seen.add(world.goals)
    assert len(seen) > 20  # the other goals really are sampled


def test_same_view_level_and_seed_give_the_same_move():
    for state in list(positions(3, 11, every=9))[:3]:
        for level in LEVELS:
            first = [choose(state, level, seed) for seed in (1, 2, 3)]
            again = [choose(state, level, seed) for seed in (1, 2, 3)]
            assert first == again


def _other_deal(state: State, seat: int, rng: random.Random) -> State:
    """The same table with the other goals (and the undrawn pair) dealt differently."""
    rest = [c for c in state.colours if c != state.goals[seat]]
    while True:
        rng.shuffle(rest)
        goals = list(state.goals)
        others = [s for s in range(state.players) if s != seat]
        for s, colour in zip(others, rest):
            goals[s] = colour
        undrawn = tuple(c for c in state.colours if c not in goals)
        if tuple(goals) != state.goals:
            return replace(state, goals=tuple(goals), undrawn=undrawn, seed=state.seed + 1)


@pytest.mark.parametrize("players,seed", [(2, 21), (4, 22)])
def test_choices_do_not_depend_on_the_other_goals(players, seed):
    rng = random.Random(seed)
    for state in list(positions(players, seed, every=6))[1:4]:
        seat = cones.current_player(state)
        other = _other_deal(state, seat, rng)
        assert other.goals != state.goals
        assert cones.view(other, seat) == cones.view(state, seat)
        for level in LEVELS:
            assert choose(state, level, 7) == choose(other, level, 7)


def _last_move_table() -> State:
    """Seat 1 plays the last chip of a 2-player game: one green, its goal.

    Green shows on 4 piles (bare bases), blue on 5 (all with chips), orange on 4, pink on 3.
    Green over a blue pile wins whatever seat 0's goal is (5 against at most 4). Green over
    orange or pink ties blue at 5, and blue wins that tie on piles with chips, so it loses
    whenever seat 0's goal is blue, the likeliest colour by the table."""
    colours = ("orange", "green", "blue", "pink")
    bases = tuple(c for c in colours for _ in range(4))
    stacks = (
        (), (), (), ("blue",),                                # orange bases
        (), (), (), (),                                       # green bases
        ("pink", "blue"), ("orange", "blue"), ("pink", "blue"), ("orange",),  # blue bases
        (), (), (), ("blue",),                                # pink bases
    )
    return State(players=2, options=Options(), seed=0, counter=1, colours=colours,
                 goals=("blue", "green"), undrawn=("orange", "pink"), bases=bases,
                 stacks=stacks, supplies=((0, 0, 0, 0), (0, 1, 0, 0)), removed=(0, 0, 0, 0),
                 first=0, turn=23, last_pile=1)


def test_takes_the_decisive_last_move():
    state = _last_move_table()
    assert cones.current_player(state) == 1
    blue_piles = {p for p, top in enumerate(cones.pile_colours(state), 1) if top == "blue"}
    for level in ("normal", "hard"):
        for seed in range(3):
            action = choose(state, level, seed)
            assert action.colour == "green" and action.pile in blue_piles, (level, action)
            end, _ = cones.apply(state, 1, action)
            assert cones.outcome(end).winners == (1,)


def _shows_goal(state: State, action: Play) -> bool:
    """What a simple observer reads from a move: the colour it played or left on top."""
    after, _ = cones.apply(state, cones.current_player(state), action)
    seat = cones.current_player(state)
    return state.goals[seat] in (action.colour, cones.pile_colours(after)[action.pile - 1])


def test_first_move_does_not_give_the_goal_away():
    """Over many games, a simple observer who guesses "the colour played or shown by the first
    move" is right for easy most of the time, but for normal and hard no more often than a
    guess among the colours of the table would be (1/4, with 4 colours in a 2-player game)."""
    games = 32
    shown = {level: 0 for level in LEVELS}
    for seed in range(games):
        state = cones.setup(2, Options(), 1000 + seed)
        for level in LEVELS:
            shown[level] += _shows_goal(state, choose(state, level, seed))
    assert shown["easy"] >= games * 0.6  # the observer works: easy plays its goal openly
    assert shown["normal"] <= games * 0.3
    assert shown["hard"] <= games * 0.3
