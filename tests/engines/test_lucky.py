"""Scenario tests for «Совершенно гениально» (engines/lucky.py): the seed's worked examples,
the alternative-move examples, the ranking example, cap, bonus turns, our end rules."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from engines import lucky as L
from engines.base import GameOver, InvalidAction, NotYourTurn

R, O, Y, G, B, P = L.COLOURS  # red, orange, yellow, green, blue, purple


def empty(players=4, **options):
    """A fresh game whose tokens the test then places with ``with_tokens``."""
    return L.setup(players, L.Options(**options), seed=1)


def col(**counts):
    """A collection as six counts from keyword counts: col(red=2, blue=1)."""
    return [counts.get(c, 0) for c in L.COLOURS]


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def act(state, action):
    """Apply ``action`` for whoever is to act."""
    return L.apply(state, L.current_player(state), action)


# --------------------------------------------------------------------- setup and basics


def test_setup_counts_and_targets():
    for players, t in [(2, 7), (3, 6), (4, 5)]:
        s = L.setup(players, L.Options(), seed=3)
        assert s.target == t
        assert sum(s.centre) == 3 and len(s.reserve) == 123 and s.zone == ()
        assert L.piece_count(s) == L.piece_total(players, L.Options()) == 126
        assert L.current_player(s) == 0
        for c in range(6):
            assert s.reserve.count(c) + s.centre[c] == 21


def test_seven_for_three_option():
    assert L.setup(3, L.Options(seven_for_three=True), 0).target == 7
    assert L.setup(3, L.Options(), 0).target == 6
    # only meaningful with three players
    assert L.setup(2, L.Options(seven_for_three=True), 0).target == 7
    assert L.setup(4, L.Options(seven_for_three=True), 0).target == 5
    assert L.INFO.option("seven_for_three").players == (3,)
    # with seven_for_three a colour completes at 7, not 6
    s = L.with_tokens(empty(3, seven_for_three=True), centre=[R, B, G],
                      reserve=[R], collections=[col(red=5), col(), col()])
    s, ev = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    assert s.collections[0][0] == 7 and not of(ev, L.Banked)[0].returned
    assert of(ev, L.ColourCompleted) == [L.ColourCompleted(0, R, 7)]
    s6 = L.with_tokens(empty(3), centre=[R, B, G], reserve=[R],
                       collections=[col(red=5), col(), col()])
    s6, ev6 = act(s6, L.Draw())
    s6, ev6 = act(s6, L.Bank())
    assert s6.collections[0][0] == 6
    assert of(ev6, L.Banked)[0].returned == ((R, 1),)


def test_info_and_options():
    assert L.INFO.id == "lucky"  # its Russian name and aliases: tests/bot/test_wording.py
    assert L.INFO.name_en == "Totally Genial"
    assert (L.INFO.min_players, L.INFO.max_players, L.INFO.hidden_info) == (2, 4, False)
    for alias in ("lucky", "tokens"):
        assert alias in L.INFO.aliases
    assert L.INFO.default_options() == {"seven_for_three": False, "series": 0}
    series = L.INFO.option("series")
    assert (series.kind, series.minimum, series.maximum) == ("int", 0, 8)
    assert {f for f in L.Options.__dataclass_fields__} == {"seven_for_three", "series"}


def test_action_codec():
    for action, code in [(L.Draw(), "draw"), (L.Bank(), "bank"), (L.Take(P), "take-purple")]:
        assert L.encode_action(action) == code
        assert L.decode_action(code) == action
    for bad in ["", "take-", "take-pink", "Draw", "take-red ", "t", None, 3]:
        with pytest.raises(InvalidAction):
            L.decode_action(bad)
    with pytest.raises(InvalidAction):
        L.encode_action("draw")


def test_refusals():
    s = L.with_tokens(empty(), centre=[R, B, Y], reserve=[G])
    with pytest.raises(NotYourTurn):
        L.apply(s, 1, L.Draw())
    with pytest.raises(InvalidAction):
        L.apply(s, 0, "draw")
    with pytest.raises(InvalidAction):  # no success yet
        L.apply(s, 0, L.Bank())
    with pytest.raises(InvalidAction):  # all colours tied at 0
        L.apply(s, 0, L.Take(R))
    assert L.legal_actions(s, 1) == []
    over = replace(s, ended=L.REASON_STALL)
    with pytest.raises(GameOver):
        L.apply(over, 0, L.Draw())
    assert L.legal_actions(over, 0) == [] and L.current_player(over) is None


# --------------------------------------------------------------------- the seed's worked examples

EXAMPLE_RESERVE = [B, P, Y, G, R, P, R, G, R]


def test_worked_examples_chained():
    """Examples 1-4 of the seed follow one another exactly (4 players, seats 0-3)."""
    s = L.with_tokens(empty(4), centre=[R, B, Y], reserve=EXAMPLE_RESERVE)
    assert L.legal_actions(s, 0) == [L.Draw()]
    # 1. centre red, blue, yellow; draws blue: success; banks 2 blue.
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(0, B, L.SUCCESS, (B,), 0)]
    assert L.legal_actions(s, 0) == [L.Draw(), L.Bank()]
    s, ev = act(s, L.Bank())
    assert s.collections[0] == tuple(col(blue=2))
    assert ev[0] == L.Banked(0, ((B, 2),), (), 2)
    # 2. next player: centre red, yellow (2): refill reveals purple.
    assert ev[1:] == [L.TurnPassed(1), L.CentreRefilled((P,))]
    assert s.centre == tuple(col(red=1, yellow=1, purple=1))
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(1, Y, L.SUCCESS, (Y,), 0)]
    s, ev = act(s, L.Draw())
    assert ev[0] == L.Drew(1, G, L.BUST_NO_MATCH, (Y, G), 2)
    # 3. now 5 in the centre: red, purple, green, 2 yellow; no refill.
    assert ev[1:] == [L.TurnPassed(2)]
    assert s.centre == tuple(col(red=1, purple=1, green=1, yellow=2)) and s.zone == ()
    assert s.collections[1] == (0,) * 6
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(2, R, L.SUCCESS, (R,), 0)]
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(2, P, L.SUCCESS, (R, P), 0)]
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(2, R, L.BUST_CONFLICT, (R, P, R), 3), L.TurnPassed(3)]
    # 4. centre 3 red, 2 purple, 2 yellow, green; green then red succeed; bank 2 green, 4 red.
    assert s.centre == tuple(col(red=3, purple=2, yellow=2, green=1))
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Draw())
    assert ev == [L.Drew(3, R, L.SUCCESS, (G, R), 0)]
    s, ev = act(s, L.Bank())
    assert ev[0] == L.Banked(3, ((R, 4), (G, 2)), (), 6)
    assert s.collections[3] == tuple(col(red=4, green=2))
    assert s.centre == tuple(col(purple=2, yellow=2))
    assert L.piece_count(s) == 126


def test_example_3_alone():
    s = L.with_tokens(empty(3), centre=[R, P, G, Y, Y], reserve=[R, P, R])
    s, ev = act(s, L.Draw())
    assert ev[0].result == L.SUCCESS
    s, ev = act(s, L.Draw())
    assert ev[0].result == L.SUCCESS
    s, ev = act(s, L.Draw())
    assert ev[0] == L.Drew(0, R, L.BUST_CONFLICT, (R, P, R), 3)
    assert s.centre == tuple(col(red=3, purple=2, yellow=2, green=1))
    assert L.current_player(s) == 1 and s.collections[0] == (0,) * 6
    # no banking after a bust: the next player starts afresh
    assert L.Bank() not in L.legal_actions(s, 1)


def test_example_4_alone():
    s = L.with_tokens(empty(2), centre=col(red=3, purple=2, yellow=2, green=1), reserve=[G, R])
    s, _ = act(s, L.Draw())
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    assert s.collections[0] == tuple(col(green=2, red=4))
    assert of(ev, L.Banked)[0].kept == 6


def test_refill_happens_after_a_bust_too():
    s = L.with_tokens(empty(2), centre=[R, B, Y], reserve=[G, O, O])
    s, ev = act(s, L.Draw())  # green: no match, the centre gets it (4 tokens)
    assert ev[0].result == L.BUST_NO_MATCH and sum(s.centre) == 4
    assert not of(ev, L.CentreRefilled)


# --------------------------------------------------------------------- the alternative move

@pytest.mark.parametrize("collection,centre,allowed", [
    # seed example 1: red (0) fewest -> allowed
    (col(red=0, orange=1, yellow=2, green=1, blue=3, purple=1), [R, B, Y], R),
    # seed example 2: green (2) fewest -> allowed
    (col(red=3, orange=4, yellow=3, green=2, blue=5, purple=3), [G, B, Y], G),
    # seed example 3: green and blue tied at 0 -> not allowed
    (col(red=1, orange=2, yellow=1, green=0, blue=0, purple=3), [G, B, Y], None),
    # seed example 4: green and yellow tied at 2 -> not allowed
    (col(red=3, orange=4, yellow=2, green=2, blue=3, purple=4), [G, Y, B], None),
    # unique fewest but not in the centre -> not allowed
    (col(red=0, orange=1, yellow=2, green=1, blue=3, purple=1), [O, B, Y], None),
])
def test_alternative_move_examples(collection, centre, allowed):
    s = L.with_tokens(empty(4), centre=centre, reserve=[O],
                      collections=[collection, col(), col(), col()])
    actions = L.legal_actions(s, 0)
    takes = [a for a in actions if isinstance(a, L.Take)]
    assert L.view(s)["take"] == allowed
    if allowed is None:
        assert takes == []
        for c in L.COLOURS:
            with pytest.raises(InvalidAction):
                L.apply(s, 0, L.Take(c))
        return
    assert takes == [L.Take(allowed)]
    before = s
    s, ev = L.apply(s, 0, L.Take(allowed))
    i = L.COLOURS.index(allowed)
    assert ev[0] == L.Took(0, allowed)
    assert s.collections[0][i] == before.collections[0][i] + 1
    assert s.centre[i] == before.centre[i] - 1
    assert L.current_player(s) == 1  # the alternative move is the whole turn
    # the next turn starts with a refill to 3
    assert ev[1:] == [L.TurnPassed(1), L.CentreRefilled((O,))]


def test_take_wrong_colour_and_not_after_drawing():
    s = L.with_tokens(empty(2), centre=[R, B, Y], reserve=[B],
                      collections=[col(orange=1, yellow=1, green=1, blue=1, purple=1), col()])
    with pytest.raises(InvalidAction):
        L.apply(s, 0, L.Take(B))
    s, _ = L.apply(s, 0, L.Draw())  # blue: success
    assert L.legal_actions(s, 0) == [L.Draw(), L.Bank()]
    with pytest.raises(InvalidAction):
        L.apply(s, 0, L.Take(R))


def test_refill_comes_before_the_take_check():
    # the fewest colour (red) is not in the centre until the refill reveals it
    s = L.with_tokens(empty(2), centre=[B, Y, G], reserve=[B, R],
                      collections=[col(), col(orange=1, yellow=1, green=1, blue=1, purple=1)])
    s, ev = act(s, L.Draw())  # blue success
    s, ev = act(s, L.Bank())  # takes both blues: centre yellow, green + refill red
    assert ev[-1] == L.CentreRefilled((R,))
    assert L.Take(R) in L.legal_actions(s, 1)


# --------------------------------------------------------------------- cap, bonus turns, winning


def test_cap_returns_excess_to_reserve_before_the_bonus_turn():
    s = L.with_tokens(empty(4), centre=col(red=3, blue=1, green=1), reserve=[R],
                      collections=[col(red=4), col(), col(), col()])
    reserve_before = len(s.reserve)
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    banked = of(ev, L.Banked)[0]
    assert banked.gained == ((R, 4),) and banked.returned == ((R, 3),) and banked.kept == 1
    assert s.collections[0][0] == 5
    # 3 excess back in the reserve (shuffled: the counter moved), then the bonus turn's refill
    refill = of(ev, L.CentreRefilled)[0]
    assert len(s.reserve) == reserve_before - 1 + 3 - len(refill.tokens)
    assert s.counter == 2
    assert [type(e) for e in ev] == [L.Banked, L.ColourCompleted, L.BonusTurnsGranted,
                                     L.BonusTurnStarted, L.CentreRefilled]
    assert L.current_player(s) == 0 and s.in_bonus and L.view(s)["bonus"]
    assert L.piece_count(s) == 126
    # a colour already at T takes nothing more and gives no second bonus
    s = L.with_tokens(empty(4), centre=col(red=2, blue=1, green=1), reserve=[R],
                      collections=[col(red=5), col(), col(), col()])
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    assert of(ev, L.Banked)[0] == L.Banked(0, ((R, 3),), ((R, 3),), 0)
    assert not of(ev, L.ColourCompleted) and not of(ev, L.BonusTurnsGranted)
    assert L.current_player(s) == 1 and s.collections[0][0] == 5


def test_two_colours_completed_in_one_bank_give_two_bonus_turns():
    s = L.with_tokens(empty(4), centre=[R, B, G], reserve=[R, B, O, O, O, O, O, O],
                      collections=[col(red=4, blue=4), col(), col(), col()])
    s, _ = act(s, L.Draw())
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    assert of(ev, L.Banked)[0] == L.Banked(0, ((R, 2), (B, 2)), ((R, 1), (B, 1)), 2)
    assert of(ev, L.ColourCompleted) == [L.ColourCompleted(0, R, 5), L.ColourCompleted(0, B, 5)]
    assert of(ev, L.BonusTurnsGranted) == [L.BonusTurnsGranted(0, 2, 2)]
    assert of(ev, L.BonusTurnStarted) == [L.BonusTurnStarted(0, 1)]
    assert L.current_player(s) == 0 and s.bonus_pending == 1
    assert L.view(s)["bonus_pending"] == 1
    # force busts to use up the bonus turns
    s = L.with_tokens(s, centre=[G, G, G], reserve=[P, O], fill_reserve=False)
    s, ev = act(s, L.Draw())
    assert ev[0].result == L.BUST_NO_MATCH
    assert ev[1:] == [L.BonusTurnStarted(0, 0)]
    assert L.current_player(s) == 0
    s, ev = act(s, L.Draw())
    assert ev[1:] == [L.TurnPassed(1)]
    assert L.current_player(s) == 1 and not s.in_bonus


def test_completing_by_the_alternative_move():
    """The alternative move completes a colour too (docs/rules.md). Since it only takes the
    unique fewest colour, the colour it completes is always the last one: the player wins."""
    s = L.with_tokens(empty(4), centre=[P, B, G], reserve=[O],
                      collections=[col(red=5, orange=5, yellow=5, green=5, blue=5, purple=4),
                                   col(red=3, orange=5, yellow=4, green=3, blue=4, purple=4),
                                   col(red=5, orange=5, yellow=4, green=4, blue=3, purple=3),
                                   col(red=5, orange=5, yellow=2, green=4, blue=4, purple=5)])
    assert L.legal_actions(s, 0) == [L.Draw(), L.Take(P)]
    s, ev = L.apply(s, 0, L.Take(P))
    assert ev[:2] == [L.Took(0, P), L.ColourCompleted(0, P, 5)]
    assert isinstance(ev[-1], L.GameEnded) and not of(ev, L.BonusTurnsGranted)


def test_ranking_example_with_victory_points():
    """Seed: A completes; B weakest green 3 then 4; C blue and purple 3; D yellow 2.
    Places A, B, C, D; victory points A=5, B=3, C=3, D=2."""
    s = L.with_tokens(empty(4), centre=[R, B, G, O], reserve=[G],
                      collections=[col(red=5, orange=5, yellow=5, green=4, blue=5, purple=5),
                                   col(red=5, orange=5, yellow=4, green=3, blue=4, purple=4),
                                   col(red=5, orange=4, yellow=4, green=4, blue=3, purple=3),
                                   col(red=4, orange=5, yellow=2, green=5, blue=5, purple=4)])
    assert L.outcome(s) is None
    s, _ = L.apply(s, 0, L.Draw())  # green: success
    s, ev = L.apply(s, 0, L.Bank())  # 2 green: 1 kept, 1 excess; all six complete
    assert of(ev, L.ColourCompleted) == [L.ColourCompleted(0, G, 5)]
    assert ev[-1] == L.GameEnded(L.REASON_COMPLETED, (0,), (1, 2, 3, 4), (5, 3, 3, 2))
    assert not of(ev, L.BonusTurnsGranted) and not of(ev, L.TurnPassed)
    result = L.outcome(s)
    assert result.places == (1, 2, 3, 4) and result.winners == (0,)
    assert result.reason == "completed" and result.scores == (5, 3, 3, 2)
    assert L.victory_points(s) == [5, 3, 3, 2]
    assert L.current_player(s) is None and L.legal_actions(s, 0) == []
    assert L.piece_count(s) == 126  # the excess green went back to the reserve
    v = L.view(s)
    assert v["over"] and v["places"] == [1, 2, 3, 4] and v["winners"] == [0]
    assert v["points"] == [5, 3, 3, 2] and v["current"] is None


def test_ties_share_places():
    s = L.with_tokens(empty(3), collections=[col(red=2, blue=3), col(red=3, blue=2), col(green=1)],
                      fill_reserve=False)
    s = replace(s, ended=L.REASON_STALL)
    assert L.outcome(s).places == (1, 1, 3)
    s = L.with_tokens(s, collections=[[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 5], [1, 2, 3, 4, 6, 6]],
                      fill_reserve=False)
    assert L.outcome(s).places == (2, 3, 1)
    assert L.outcome(s).scores == (1, 1, 1)


# --------------------------------------------------------------------- our end rules


def test_empty_reserve_reshuffles_the_centre_but_three():
    s = L.with_tokens(empty(2), centre=col(red=2, blue=2, green=1), reserve=[], fill_reserve=False)
    assert L.legal_actions(s, 0) == [L.Draw()]
    total = L.piece_count(s)
    s, ev = act(s, L.Draw())
    shuffled = ev[0]
    assert isinstance(shuffled, L.ReserveReshuffled) and shuffled.returned == 2
    assert len(shuffled.kept) == 3
    drew = ev[1]
    assert isinstance(drew, L.Drew)
    assert L.piece_count(s) == total
    if drew.result == L.SUCCESS:
        assert sum(s.centre) == 3 and len(s.reserve) == 1
    else:
        assert sum(s.centre) == 4


def test_empty_reserve_only_bank_after_success_when_nothing_can_be_revealed():
    s = L.with_tokens(empty(2), centre=[R, B, G], reserve=[R], fill_reserve=False)
    s, ev = act(s, L.Draw())
    assert ev[0].result == L.SUCCESS and s.reserve == ()
    assert L.legal_actions(s, 0) == [L.Bank()]
    assert not L.view(s)["can_draw"] and L.view(s)["can_bank"]
    with pytest.raises(InvalidAction):
        L.apply(s, 0, L.Draw())


def test_empty_reserve_refill_impossible_ends_the_game():
    s = L.with_tokens(empty(2), centre=[R, B, G], reserve=[], fill_reserve=False,
                      collections=[col(orange=1, yellow=1, green=1, blue=1, purple=1), col(red=1)])
    assert L.legal_actions(s, 0) == [L.Take(R)]  # no draw: nothing can be revealed
    s, ev = L.apply(s, 0, L.Take(R))
    assert ev[-1] == L.GameEnded(L.REASON_RESERVE_EMPTY, (0,), (1, 2), (1, 0))
    assert L.outcome(s).reason == "reserve_empty"


def test_empty_reserve_player_who_cannot_move_ends_the_game():
    # after seat 0 banks, the centre holds exactly 3, the reserve is empty and seat 1 cannot take
    s = L.with_tokens(empty(2), centre=[R, B, G, Y], reserve=[R], fill_reserve=False)
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())
    assert ev[1] == L.TurnPassed(1)
    assert isinstance(ev[-1], L.GameEnded) and ev[-1].reason == L.REASON_RESERVE_EMPTY
    assert L.current_player(s) is None


def test_stall_rule_counts_turns_without_growth():
    players = 3
    s = L.with_tokens(empty(players), centre=[R, B, Y], reserve=[G] * 60, fill_reserve=False)
    limit = L.STALL_ROUNDS * players
    assert L.view(s)["stall_limit"] == limit
    for i in range(limit - 1):
        s = L.with_tokens(s, centre=[R, B, Y], fill_reserve=False)
        s, ev = act(s, L.Draw())  # green: bust every time
        assert s.stall == i + 1 and L.current_player(s) is not None
    s = L.with_tokens(s, centre=[R, B, Y], fill_reserve=False)
    s, ev = act(s, L.Draw())
    assert ev[-1].reason == L.REASON_STALL and L.outcome(s).reason == "stall"


def test_stall_counter_resets_on_growth_only():
    s = L.with_tokens(empty(2), centre=[R, B, Y], reserve=[R, O, B],
                      collections=[col(red=7), col()])
    s = replace(s, stall=10)
    s, _ = act(s, L.Draw())
    s, ev = act(s, L.Bank())  # only excess red: nothing kept, no growth
    assert of(ev, L.Banked)[0].kept == 0 and s.stall == 11
    s, _ = act(s, L.Draw())  # seat 1 draws blue: success
    s, _ = act(s, L.Bank())
    assert s.stall == 0


# --------------------------------------------------------------------- view and JSON


def test_view_shape():
    s = L.with_tokens(empty(3), centre=[R, R, B], reserve=[R], zone=[], collections=[
        col(red=1, orange=2, yellow=2, green=2, blue=2, purple=2), col(blue=6), col()])
    v = L.view(s)
    assert v == L.view(s, 1)  # nothing hidden
    json.dumps(v)
    assert v["centre"] == {"red": 2, "orange": 0, "yellow": 0, "green": 0, "blue": 1, "purple": 0}
    assert v["centre_total"] == 3 and v["zone"] == [] and v["target"] == 6
    assert v["collections"][1]["blue"] == 6 and v["completed"] == [[], ["blue"], []]
    assert v["weakest"][0] == ["red"] and v["weakest"][2] == list(L.COLOURS)
    assert v["current"] == 0 and v["take"] == "red" and v["can_draw"] and not v["can_bank"]
    assert v["reserve"] == len(s.reserve) and v["bonus"] is False and v["bonus_pending"] == 0
    s, _ = act(s, L.Draw())
    v = L.view(s)
    assert v["zone"] == ["red"] and v["can_bank"] and v["take"] is None


def test_json_round_trip_and_validation():
    s = L.with_tokens(empty(4), centre=[R, B, Y], reserve=[B], collections=[col(red=2), col(), col(), col()])
    s, _ = act(s, L.Draw())
    data = json.loads(json.dumps(L.to_json(s)))
    assert data["v"] == 1
    assert L.from_json(data) == s
    for key, bad in [("reserve", data["reserve"] + "r"), ("reserve", "xyz"), ("centre", [1, 2]),
                     ("current", 7), ("target", 6), ("zone", "bb"), ("ended", "bored"),
                     ("collections", [[6, 0, 0, 0, 0, 0]] * 4), ("players", 5), ("options", None),
                     ("in_bonus", 1), ("seed", "x")]:
        broken = dict(data)
        broken[key] = bad
        with pytest.raises(InvalidAction):
            L.from_json(broken)
    for junk in [None, [], {"v": 2}, {"v": 1}]:
        with pytest.raises(InvalidAction):
            L.from_json(junk)


# --------------------------------------------------------------------- properties over random play


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), seven=st.booleans())
def test_random_games_keep_invariants(players, seed, seven):
    opts = L.Options(seven_for_three=seven)
    s = L.setup(players, opts, seed)
    chooser = random.Random(seed)
    while L.current_player(s) is not None:
        seat = L.current_player(s)
        actions = L.legal_actions(s, seat)
        assert actions
        action = chooser.choice(actions)
        before = s
        s, ev = L.apply(s, seat, action)
        assert L.piece_count(s) == 126
        assert all(max(c) <= s.target for c in s.collections)
        assert len(set(s.zone)) == len(s.zone)
        if L.current_player(s) is not None and not s.zone:
            assert sum(s.centre) >= 3  # refilled at the start of every turn
        if isinstance(action, L.Take):
            assert not of(ev, L.BonusTurnsGranted)
        for c in of(ev, L.ColourCompleted):
            assert before.collections[seat][L.COLOURS.index(c.colour)] < s.target
        json.dumps([L.view(s)])
    result = L.outcome(s)
    if result.reason == L.REASON_COMPLETED:
        assert [min(c) for c in s.collections].count(s.target) == 1
        assert result.scores[result.winners[0]] == s.target
