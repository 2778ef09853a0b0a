"""Computer players of trio (engines/ai/trio): legal, deterministic, blind to other seats'
hands and the pool, and playing the race: keep the easy tile for last, block a player who is
one tile from winning."""
from __future__ import annotations

import dataclasses
import random

import pytest

from engines import ai, trio
from engines.ai import trio as at

LEVELS = ai.LEVELS


def game_states(players, options, seed, every, level="normal"):
    """Every ``every``-th state of a game played by ``level`` (and the seat to act)."""
    state = trio.setup(players, options, seed)
    chooser = random.Random(seed)
    step = 0
    while not state.over:
        seat = state.current
        if step % every == 0:
            yield state, seat
        state, _ = trio.apply(state, seat, at.choose(trio.view(state, seat), seat, level, chooser))
        step += 1


GAMES = [(players, trio.Options(strict_lines=strict), seed)
         for players in (2, 3, 4) for strict in (False, True) for seed in range(3)]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_every_level_returns_a_legal_action(players, options, seed):
    draws = 0
    for state, seat in game_states(players, options, seed, every=2, level=LEVELS[seed % 3]):
        legal = trio.legal_actions(state, seat)
        view = trio.view(state, seat)
        draws += isinstance(legal[0], trio.Draw)
        for level in LEVELS:
            assert at.choose(view, seat, level, random.Random(seed)) in legal
        assert ai.choose("trio", view, seat, "random", seed) in legal


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_seat_level_and_seed_give_the_same_action(level):
    for state, seat in game_states(3, trio.Options(), 4, every=1):
        view = trio.view(state, seat)
        assert ai.choose("trio", view, seat, level, 77) == ai.choose("trio", view, seat, level, 77)


def other_secrets(state, seat, rng):
    """The same game as ``seat`` sees it, with the other hands and the pool dealt again from
    the same tiles (sizes kept) and another seed for the rolls to come."""
    hidden = list(state.pool) + [t for s, h in enumerate(state.hands) if s != seat for t in h]
    rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[:len(hand)]))
            del hidden[:len(hand)]
    return dataclasses.replace(state, hands=tuple(hands), pool=tuple(hidden), seed=state.seed + 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_choice_depends_on_another_seats_secret(players):
    rng = random.Random(players)
    changed = 0
    for seed in range(2):
        for state, seat in game_states(players, trio.Options(), seed, every=2):
            twin = other_secrets(state, seat, rng)
            changed += twin.hands != state.hands
            view = trio.view(state, seat)
            assert trio.view(twin, seat) == view
            for level in LEVELS:
                assert ai.choose("trio", trio.view(twin, seat), seat, level, seed) == \
                    ai.choose("trio", view, seat, level, seed)
    assert changed > 5


def test_determinize_deals_unseen_tiles_behind_the_same_view():
    for players in (2, 3, 4):
        for state, seat in game_states(players, trio.Options(), players, every=3):
            view = trio.view(state, seat)
            samples = [at.determinize(view, seat, random.Random(k)) for k in range(4)]
            for sample in samples:
                assert trio.view(sample, seat) == view
                assert trio.to_json(trio.from_json(trio.to_json(sample))) == trio.to_json(sample)
            if len(state.pool) > 1:
                assert len({(s.hands, s.pool) for s in samples}) > 1


def test_the_history_in_a_view_holds_no_tile_of_a_hand():
    """A view's history is who rolled which face, how many tiles lay on the board then and
    whether a tile was laid: nothing that names a tile, so nothing of a hand or the pool."""
    for players in (2, 3, 4):
        for state, seat in game_states(players, trio.Options(), players + 10, every=1, level="hard"):
            view = trio.view(state, seat)
            assert len(view["history"]) == state.turn
            for k, entry in enumerate(view["history"]):
                assert set(entry) == {"seat", "face", "tiles", "laid"}
                assert entry["seat"] == k % players and entry["face"] in trio.DIE_FACES
                assert isinstance(entry["laid"], bool) and 1 <= entry["tiles"] <= len(state.board)
            twin = other_secrets(state, seat, random.Random(state.turn))
            assert trio.view(twin, seat)["history"] == view["history"]


def test_guessed_hands_obey_every_draw():
    """After a seat drew, the tiles it then held fitted nowhere under the rolled face: a guess
    of its hand holds at most one tile that fitted then (the one drawn), as the true hand does."""
    checked = 0
    for seed in range(40):
        state = trio.setup(2, None, seed)
        rng = random.Random(seed)
        while not state.over and checked < 12:
            seat = state.current
            actions = trio.legal_actions(state, seat)
            if seat == 1 and isinstance(actions[0], trio.Draw) and state.pool:
                fitted = at.FitMap(state.grid, False).by_face[trio.DIE_FACES.index(state.die)]
                state, _ = trio.apply(state, seat, actions[0])
                guesses = at.sample_hands(trio.view(state, 0), 0, random.Random(seed), 50)
                assert abs(sum(w for w, _ in guesses) - 1) < 1e-9
                assert (sum(1 << t for t in state.hands[1]) & fitted).bit_count() <= 1
                for _, hands in guesses:
                    assert hands[0] == 0 and hands[1].bit_count() == len(state.hands[1])
                    assert (hands[1] & fitted).bit_count() <= 1
                checked += 1
                break
            state, _ = trio.apply(state, seat, rng.choice(actions))
    assert checked >= 5


# ------------------------------------------------------------------ how it plays

# Game seed 260 after seven random moves: seat 1 holds tiles 9 and 23, the die shows circle,
# and both tiles can be laid. Laying 9 leaves 23 with no face to fit next turn; laying 23
# leaves 9 fitting under most faces.
KEEP_FOR_LAST = {
    "v": 1, "players": 2, "options": {"strict_lines": False}, "seed": 260, "counter": 9,
    "pool": [31, 21, 4, 13, 18, 15, 28, 22, 29, 10, 8, 1, 30, 20, 11, 3, 2, 0, 34, 32, 16, 35, 19, 25],
    "hands": [[7, 33, 14], [9, 23]],
    "board": [[24, 0, 0, 1, 0, -1], [17, -1, 0, -1, 1, 0], [12, -2, 1, -3, 1, 1], [5, 0, 1, 0, 2, 0],
              [26, -1, 3, -1, 2, 1], [27, 0, 4, 0, 3, 0], [6, -3, 2, -4, 2, 1]],
    "current": 1, "die": "circle", "passes": 0, "turn": 7, "over": None,
}


def faces_fitting(state, seat, tile):
    """Under how many die faces ``seat`` could lay ``tile`` on this board (engine rules)."""
    count = 0
    for face in trio.DIE_FACES:
        probe = dataclasses.replace(state, die=face, current=seat, hands=tuple(
            (tile,) if s == seat else h for s, h in enumerate(state.hands)), over=None)
        count += isinstance(trio.legal_actions(probe, seat)[0], trio.Lay)
    return count


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_keeps_the_tile_that_fits_more_rolls_for_last(level):
    state = trio.from_json(KEEP_FOR_LAST)
    for tile, kept in ((9, 23), (23, 9)):  # the premise, checked with the engine's own rules
        after, _ = trio.apply(state, 1, next(a for a in trio.legal_actions(state, 1) if a.tile == tile))
        assert (faces_fitting(after, 1, kept) >= 4) == (kept == 9)
    for seed in range(3):
        action = at.choose(trio.view(state, 1), 1, level, random.Random(seed))
        assert action.tile == 23


def test_lays_the_last_tile_and_wins():
    data = dict(KEEP_FOR_LAST, hands=[[7, 33, 14], [23]], pool=KEEP_FOR_LAST["pool"] + [9])
    state = trio.from_json(data)
    for level in LEVELS:
        action = at.choose(trio.view(state, 1), 1, level, random.Random(0))
        after, _ = trio.apply(state, 1, action)
        assert trio.outcome(after).winners == (1,)


# Game seed 46, turn 16: seat 0 (three tiles) to lay under red; seat 1 holds one tile and wins
# with any legal lay on its next roll.
BLOCK = {
    "v": 1, "players": 2, "options": {"strict_lines": False}, "seed": 46, "counter": 18,
    "pool": [14, 13, 4, 29, 1, 31, 10, 35, 9, 23, 11, 6, 32, 19, 3, 5, 7, 12, 22, 24],
    "hands": [[28, 21, 15], [17]],
    "board": [[20, 0, 0, 1, 0, -1], [30, -1, 0, -1, -1, 1], [27, 1, 1, 2, 1, 1], [8, -1, 1, 0, 1, 1],
              [25, 1, 3, 1, 2, 0], [33, 2, 2, 3, 2, 1], [26, -1, 3, -1, 2, 0], [16, -3, -1, -2, -1, 0],
              [2, -2, 2, -2, 1, 1], [18, -2, -3, -2, -2, 0], [34, -4, 1, -3, 1, 0], [0, 3, 1, 4, 1, 1]],
    "current": 0, "die": "red", "passes": 0, "turn": 16, "over": None,
}


def opponent_chance(state, action):
    """The chance that seat 1, whose one tile is any tile seat 0 has not seen, can lay it on
    its next roll after seat 0's ``action`` (counted with the engine's rules)."""
    after, _ = trio.apply(state, 0, action)
    unseen = at.unseen_tiles(trio.view(after, 0))
    return sum(faces_fitting(after, 1, t) for t in unseen) / (6 * len(unseen))


def test_hard_blocks_a_player_one_tile_from_winning():
    state = trio.from_json(BLOCK)
    view = trio.view(state, 0)
    hard = at.choose(view, 0, "hard", random.Random(0))
    normal = at.choose(view, 0, "normal", random.Random(0))
    assert opponent_chance(state, hard) < opponent_chance(state, normal) - 0.2
    kept = [t for t in state.hands[0] if t != hard.tile]
    after, _ = trio.apply(state, 0, hard)
    assert all(faces_fitting(after, 0, t) > 0 for t in kept)  # not at the price of its own tiles


def test_unknown_level_is_refused():
    state = trio.setup(2, None, 0)
    with pytest.raises(ValueError):
        at.choose(trio.view(state, 0), 0, "genius", random.Random(0))
