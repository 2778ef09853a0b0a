"""One conformance suite run over every registered engine and many seeds (docs/architecture.md, Tests).

Each game gets these checks for free: playouts end, a player always has a legal action until
the end, every legal action applies, illegal ones raise the precise error, JSON round-trips,
a replay from (seed, action log) reproduces the state, pieces are conserved, actions fit in
callback_data, and views are JSON-safe.
"""
from __future__ import annotations

import json
import random

import pytest

from engines import registry
from engines.base import GameOver, IllegalAction, InvalidAction, NotYourTurn, Outcome, options_from_dict

SEEDS = range(6)
MAX_STEPS = 6000


def player_counts(gid: str) -> list[int]:
    gi = registry.info(gid)
    return list(range(gi.min_players, gi.max_players + 1))


CASES = [(gid, n, seed) for gid in registry.game_ids() for n in player_counts(gid) for seed in SEEDS]


def playout(eng, players: int, seed: int, options=None):
    """Play random legal actions; return (initial state, log, final state)."""
    opts = options_from_dict(eng.Options, options)
    state = eng.setup(players, opts, seed)
    start = state
    chooser = random.Random(seed * 7919 + players)
    log = []
    for _ in range(MAX_STEPS):
        seat = eng.current_player(state)
        if seat is None:
            break
        actions = eng.legal_actions(state, seat)
        assert actions, "a player to act must have a legal action"
        action = chooser.choice(actions)
        state, events = eng.apply(state, seat, action)
        log.append((seat, eng.encode_action(action)))
    return start, log, state


@pytest.mark.parametrize("gid,players,seed", CASES)
def test_playout_ends_and_conserves(gid, players, seed):
    eng = registry.engine(gid)
    opts = options_from_dict(eng.Options, None)
    state = eng.setup(players, opts, seed)
    total = eng.piece_total(players, opts)
    chooser = random.Random(seed)
    for step in range(MAX_STEPS):
        assert eng.piece_count(state) == total
        seat = eng.current_player(state)
        if seat is None:
            break
        assert eng.turn(state) == step
        actions = eng.legal_actions(state, seat)
        assert actions
        before = json.dumps(eng.to_json(state), sort_keys=True)
        action = chooser.choice(actions)
        new_state, events = eng.apply(state, seat, action)
        # apply never mutates its input
        assert json.dumps(eng.to_json(state), sort_keys=True) == before
        for event in events:
            json.dumps(__import__("engines.base", fromlist=["event_dict"]).event_dict(event))
        state = new_state
    else:
        pytest.fail(f"{gid} with {players} players did not end in {MAX_STEPS} steps")
    result = eng.outcome(state)
    assert isinstance(result, Outcome)
    assert len(result.places) == players
    assert min(result.places) == 1
    assert eng.legal_actions(state, 0) == []
    with pytest.raises(GameOver):
        eng.apply(state, 0, actions[0])


@pytest.mark.parametrize("gid,players,seed", [c for c in CASES if c[2] < 2])
def test_replay_and_json_round_trip(gid, players, seed):
    eng = registry.engine(gid)
    start, log, final = playout(eng, players, seed)
    state = eng.setup(players, options_from_dict(eng.Options, None), seed)
    assert eng.to_json(state) == eng.to_json(start)
    for i, (seat, code) in enumerate(log):
        if i % 17 == 0:  # round-trip through JSON text at many points of the game
            state = eng.from_json(json.loads(json.dumps(eng.to_json(state))))
        state, _ = eng.apply(state, seat, eng.decode_action(code))
    assert eng.to_json(state) == eng.to_json(final)
    assert eng.to_json(state)["v"] == 1


@pytest.mark.parametrize("gid,players,seed", [c for c in CASES if c[2] == 0])
def test_illegal_actions_raise_precisely(gid, players, seed):
    eng = registry.engine(gid)
    state = eng.setup(players, options_from_dict(eng.Options, None), seed)
    seat = eng.current_player(state)
    action = eng.legal_actions(state, seat)[0]
    if players > 1:
        other = (seat + 1) % players
        with pytest.raises(NotYourTurn):
            eng.apply(state, other, action)
        assert eng.legal_actions(state, other) == []
    with pytest.raises(IllegalAction):
        eng.apply(state, seat, "not an action")
    # Only a plain int seat of this table is a seat: not 0.0, True, "0", None or one past the end.
    for not_a_seat in [float(seat), seat == 1, str(seat), None, players, -1]:
        with pytest.raises(InvalidAction):
            eng.apply(state, not_a_seat, action)
    for garbage in ["", "zz", "\x00", "9" * 40, "é"]:
        try:
            decoded = eng.decode_action(garbage)
        except InvalidAction:
            continue
        if decoded not in eng.legal_actions(state, seat):
            with pytest.raises(IllegalAction):
                eng.apply(state, seat, decoded)
    with pytest.raises(InvalidAction):
        eng.from_json({"v": 999})


@pytest.mark.parametrize("gid,players,seed", [c for c in CASES if c[2] < 2])
def test_actions_encode_short_and_views_are_json(gid, players, seed):
    eng = registry.engine(gid)
    state = eng.setup(players, options_from_dict(eng.Options, None), seed)
    chooser = random.Random(seed)
    for _ in range(40):
        seat = eng.current_player(state)
        if seat is None:
            break
        for action in eng.legal_actions(state, seat):
            code = eng.encode_action(action)
            assert code.isascii() and 0 < len(code.encode()) <= 40 and ":" not in code
            assert eng.decode_action(code) == action
        for who in [None, *range(players)]:
            json.dumps(eng.view(state, who))
        state, _ = eng.apply(state, seat, chooser.choice(eng.legal_actions(state, seat)))


def test_every_game_says_how_many_play_and_its_options():
    """(A game found by any of its names, in any language: tests/bot/test_wording.py.)"""
    for gi in registry.all_infos():
        assert 1 <= gi.min_players <= gi.max_players <= 4
        for key, value in gi.default_options().items():
            assert gi.option(key).default == value
