"""The replay's positions (engines/replay.py): one per logged move plus the opening, the same
states the game went through, and no secret in any of them before the end."""
from __future__ import annotations

import json

import pytest

from engines import registry
from engines.base import InvalidAction
from engines.replay import public_views
from tests.engines.test_conformance import playout

# What each game hides while it runs: keys of a seat's view that the public view must not have.
SECRET_KEYS = {"cones": {"goal", "goals"}, "trio": {"hand", "hands", "hand_symbols", "hands_symbols"},
               "genial": {"rack", "racks"}, "lucky": set()}
CASES = [(gid, players, seed) for gid in registry.game_ids() for players in (2, 4) for seed in (0, 1)]


@pytest.mark.parametrize("gid,players,seed", CASES)
def test_one_position_per_move_plus_the_opening_and_the_last_is_the_final_table(gid, players, seed):
    eng = registry.engine(gid)
    start, log, final = playout(eng, players, seed)
    steps = public_views(gid, players, None, seed, log)
    assert len(steps) == len(log) + 1
    assert steps[0].view == eng.view(start, None) and steps[0].seat is None and steps[0].events == []
    assert steps[-1].view == eng.view(final, None)
    assert [s.seat for s in steps[1:]] == [seat for seat, _ in log]
    assert all(isinstance(s.events, list) for s in steps)
    json.dumps([s.view for s in steps])  # picklable and JSON-safe: it goes to the drawing process


@pytest.mark.parametrize("gid,players,seed", CASES)
def test_no_secret_before_the_last_frame(gid, players, seed):
    eng = registry.engine(gid)
    start, log, final = playout(eng, players, seed)
    steps = public_views(gid, players, None, seed, log)
    for step in steps[:-1]:
        assert not SECRET_KEYS[gid] & set(step.view), (gid, sorted(step.view))
    if gid == "cones":
        # A goal is a colour, and colours are everywhere on a cones table: what must not be
        # there is the goals' list, nor a score by goal (only the end has one).
        assert all("scores" not in s.view for s in steps[:-1])
        assert steps[-1].view["goals"] == list(final.goals)
    if gid == "trio":
        assert steps[-1].view["hands"] == [list(h) for h in final.hands]
    # A seat's own view does have the secret (so the check above checks something).
    if SECRET_KEYS[gid]:
        assert SECRET_KEYS[gid] & set(eng.view(start, 0))


def test_a_log_of_another_game_does_not_replay():
    eng = registry.engine("cones")
    _, log, _ = playout(eng, 3, 0)
    with pytest.raises(InvalidAction, match="does not replay"):
        public_views("cones", 3, None, 99, log)  # another seed: other bases, other piles
    with pytest.raises(InvalidAction, match="move 1"):
        public_views("cones", 3, None, 0, [(0, "not a move")])
