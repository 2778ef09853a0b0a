"""Computer player for lucky (engines/ai/lucky.py): legal, deterministic, blind to the reserve
order, exact about the odds, and sensible about when to stop drawing."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines import ai, lucky as L
from engines.ai import lucky as lucky_ai

LEVELS = ai.LEVELS
R, O, Y, G, B, P = L.COLOURS


def positions(players: int, seed: int, every: int, limit: int = 400):
    """States met in a game between mixed levels, every ``every`` actions."""
    state = L.setup(players, L.Options(), seed)
    picker = random.Random(seed)
    while (seat := L.current_player(state)) is not None and state.turn < limit:
        if state.turn % every == 0:
            yield state
        level = picker.choice(LEVELS)
        action = ai.choose("lucky", L.view(state, seat), seat, level, picker.getrandbits(32))
        state, _ = L.apply(state, seat, action)


def choose(state: L.State, level: str, seed: int):
    seat = L.current_player(state)
    return ai.choose("lucky", L.view(state, seat), seat, level, seed)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_every_level_plays_legal_moves(players, seed):
    checked = 0
    for k, state in enumerate(positions(players, seed, every=5, limit=200)):
        legal = L.legal_actions(state, L.current_player(state))
        for level in LEVELS:
            assert choose(state, level, seed * 1000 + k) in legal
        checked += 1
    assert checked > 20


def test_a_game_between_computers_ends():
    state = L.setup(3, L.Options(), 3)
    levels = ("hard", "normal", "easy")
    while (seat := L.current_player(state)) is not None:
        state, _ = L.apply(state, seat, choose(state, levels[seat], state.turn))
    assert L.outcome(state) is not None


def test_determinize_keeps_the_view_and_the_reserve_make_up():
    state = list(positions(3, 8, every=5))[6]
    seat = L.current_player(state)
    view = L.view(state, seat)
    orders = set()
    for k in range(10):
        world = lucky_ai.determinize(view, seat, random.Random(k))
        assert L.view(world, seat) == view
        assert sorted(world.reserve) == sorted(state.reserve)
        orders.add(world.reserve)
    assert len(orders) == 10


def test_same_view_level_and_seed_give_the_same_move():
    for state in list(positions(2, 9, every=11))[:8]:
        for level in LEVELS:
            assert [choose(state, level, s) for s in range(4)] == [choose(state, level, s) for s in range(4)]


@pytest.mark.parametrize("players,seed", [(2, 31), (4, 32)])
def test_choices_do_not_depend_on_the_reserve_order(players, seed):
    rng = random.Random(seed)
    for state in list(positions(players, seed, every=4))[:15]:
        seat = L.current_player(state)
        reserve = list(state.reserve)
        rng.shuffle(reserve)
        other = replace(state, reserve=tuple(reserve), seed=state.seed + 1, counter=state.counter + 5)
        assert other.reserve != state.reserve
        assert L.view(other, seat) == L.view(state, seat)
        for level in LEVELS:
            for s in range(3):
                assert choose(state, level, s) == choose(other, level, s)


def test_the_odds_are_exact_from_what_is_visible():
    state = L.with_tokens(L.setup(2, L.Options(), 1), centre={R: 2, B: 1}, zone=[R],
                          collections=[{G: 4}, {B: 6, Y: 3}])
    pos = lucky_ai.position(L.view(state, 0), 0)
    assert pos.reserve == tuple(21 - n for n in (3, 0, 3, 4, 7, 0))
    assert sum(pos.reserve) == len(state.reserve) == 109
    # a success needs blue (in the centre, not yet drawn): 14 of the 109 reserve tokens
    assert lucky_ai.bust_chance(pos) == pytest.approx(1 - 14 / 109)


def test_banks_when_the_next_draw_almost_surely_busts_with_much_at_stake():
    # zone red over a centre of 6 red and 1 blue: banking now gives 7 red; the next draw
    # succeeds only on blue (about one in seven)
    state = L.with_tokens(L.setup(2, L.Options(), 2), centre={R: 6, B: 1}, zone=[R])
    assert L.Bank() in L.legal_actions(state, 0)
    for level in LEVELS:
        for seed in range(5):
            assert choose(state, level, seed) == L.Bank(), level


def test_keeps_drawing_when_the_next_draw_cannot_bust():
    # every red token is out of the reserve and every other colour lies in the centre, so
    # the next draw succeeds for sure; banking now would already give 7 red
    state = L.with_tokens(L.setup(2, L.Options(), 3), centre={R: 13, O: 1, Y: 1, G: 1, B: 1, P: 1},
                          zone=[R], collections=[{}, {R: 7}])
    pos = lucky_ai.position(L.view(state, 0), 0)
    assert lucky_ai.bust_chance(pos) == 0
    for level in LEVELS:
        for seed in range(5):
            assert choose(state, level, seed) == L.Draw(), level


def test_hard_stops_where_the_exact_expectation_says():
    """A completed colour gains nothing: with red full (for both players, so taking red away
    from the centre denies nobody), banking red is worth nothing and hard draws on, while with
    red empty it banks the same 3 red rather than risk them at about 5 in 6."""
    full = L.with_tokens(L.setup(2, L.Options(), 4), centre={R: 2, B: 1}, zone=[R],
                         collections=[{R: 7}, {R: 7}])
    assert choose(full, "hard", 0) == L.Draw()
    empty = L.with_tokens(L.setup(2, L.Options(), 4), centre={R: 2, B: 1}, zone=[R])
    assert choose(empty, "hard", 0) == L.Bank()


def test_hard_takes_its_weakest_colour_when_drawing_is_poor():
    # the centre offers one colour only (2 purple): a draw succeeds about one time in six;
    # the alternative move surely adds the weakest colour, purple
    state = L.with_tokens(L.setup(2, L.Options(), 5), centre={P: 3},
                          collections=[{R: 5, O: 5, Y: 5, G: 5, B: 5, P: 2}, {}])
    assert L.Take(P) in L.legal_actions(state, 0)
    assert choose(state, "hard", 0) == L.Take(P)
