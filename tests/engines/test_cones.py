"""Scenario tests for engines/cones.py (seed 001, docs/rules.md `cones`)."""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import cones
from engines.base import GameOver, InvalidAction, NotYourTurn, event_dict
from engines.cones import (
    CANCELLED, COVERED_BASE, RECOLOURED, GameEnded, NextTurn, Options, Play, Played, State,
)
from render.common import COLOURS, SYMBOLS

FOUR = ("orange", "green", "blue", "pink")  # canonical order


def build(*, colours=FOUR, bases=None, stacks=None, supplies=None, goals=("orange", "green"),
          undrawn=("blue", "pink"), first=0, turn=0, last_pile=None, options=Options(),
          removed=None) -> State:
    """A hand-made state (not necessarily conserving chips; for scenario tests)."""
    if bases is None:
        bases = tuple(c for c in colours for _ in range(4))
    if stacks is None:
        stacks = tuple(() for _ in bases)
    if supplies is None:
        supplies = tuple(tuple(1 for _ in colours) for _ in goals)
    if removed is None:
        removed = tuple(0 for _ in colours)
    return State(players=len(goals), options=options, seed=0, counter=1, colours=tuple(colours),
                 goals=tuple(goals), undrawn=tuple(undrawn), bases=tuple(bases),
                 stacks=tuple(tuple(s) for s in stacks), supplies=tuple(supplies),
                 removed=tuple(removed), first=first, turn=turn, last_pile=last_pile)


def final(stacks, bases, goals, undrawn, colours=None) -> State:
    """A finished state: every supply empty."""
    colours = colours or tuple(c for c in cones.ALL_COLOURS if c in set(goals) | set(undrawn))
    return build(colours=colours, bases=bases, stacks=stacks, goals=goals, undrawn=undrawn,
                 supplies=tuple(tuple(0 for _ in colours) for _ in goals))


def playout(players, seed, options=Options(), chooser_seed=0):
    state = cones.setup(players, options, seed)
    chooser = random.Random(chooser_seed)
    states, events = [state], []
    while cones.current_player(state) is not None:
        seat = cones.current_player(state)
        action = chooser.choice(cones.legal_actions(state, seat))
        state, evs = cones.apply(state, seat, action)
        states.append(state)
        events.extend(evs)
    return states, events


# ---------------------------------------------------------------- info and setup

def test_info():
    info = cones.INFO
    assert (info.id, info.name_en) == ("cones", "Cones")  # its Russian name: tests/bot/test_wording.py
    assert (info.min_players, info.max_players, info.hidden_info) == (2, 4, True)
    assert "kabaleo" in info.aliases
    assert info.option("equal").players == (2, 3) and info.option("equal").default is False
    assert info.option("no_same_pile").default is False
    assert {f.name for f in dataclasses.fields(Options)} == {o.key for o in info.options}


def test_colours_have_render_symbols():
    assert len(cones.ALL_COLOURS) == 6
    for colour in cones.ALL_COLOURS:
        assert colour in COLOURS and colour in SYMBOLS
    assert len(set(cones.LETTER.values())) == 6


@pytest.mark.parametrize("players,piles,deal", [(2, 16, 12), (3, 20, 10), (4, 24, 9)])
@pytest.mark.parametrize("seed", range(5))
def test_setup_components(players, piles, deal, seed):
    s = cones.setup(players, Options(), seed)
    assert len(s.colours) == players + 2
    assert list(s.colours) == [c for c in cones.ALL_COLOURS if c in s.colours]
    assert len(s.bases) == piles and Counter(s.bases) == {c: 4 for c in s.colours}
    assert all(stack == () for stack in s.stacks)
    assert len(s.goals) == players and len(s.undrawn) == 2
    assert sorted(s.goals + s.undrawn) == sorted(s.colours)
    assert [sum(sup) for sup in s.supplies] == [deal] * players
    for ci in range(len(s.colours)):
        assert sum(sup[ci] for sup in s.supplies) == 6
    assert cones.piece_count(s) == cones.piece_total(players, Options()) == 6 * (players + 2)
    assert cones.turn(s) == 0 and cones.current_player(s) == s.first
    assert s.last_pile is None


def test_setup_is_deterministic_and_varies_with_seed():
    assert cones.to_json(cones.setup(3, Options(), 42)) == cones.to_json(cones.setup(3, Options(), 42))
    boards = {cones.setup(4, Options(), seed).bases for seed in range(20)}
    assert len(boards) > 15  # shuffled order
    firsts = {cones.setup(3, Options(), seed).first for seed in range(30)}
    assert firsts == {0, 1, 2}  # random first player
    colour_sets = {cones.setup(2, Options(), seed).colours for seed in range(30)}
    assert len(colour_sets) > 3  # removed colours vary


@pytest.mark.parametrize("players,per", [(2, 3), (3, 2)])
def test_equal_dealing(players, per):
    for seed in range(5):
        s = cones.setup(players, Options(equal=True), seed)
        assert all(sup == tuple(per for _ in s.colours) for sup in s.supplies)
        assert cones.piece_count(s) == 6 * (players + 2)


def test_equal_dealing_refused_for_four_players():
    with pytest.raises(InvalidAction):
        cones.setup(4, Options(equal=True), 0)


@pytest.mark.parametrize("players", [0, 1, 5, "2"])
def test_setup_rejects_bad_player_counts(players):
    with pytest.raises(InvalidAction):
        cones.setup(players, Options(), 0)


# ---------------------------------------------------------------- the seed's examples

def test_orange_on_green_base_makes_an_orange_pile():
    bases = ("green",) + ("orange",) * 4 + ("green",) * 3 + ("blue",) * 4 + ("pink",) * 4
    s = build(bases=bases)
    s2, events = cones.apply(s, 0, Play("orange", 1))
    assert cones.view(s2, None)["piles"][0] == {
        "number": 1, "base": "green", "chips": ["orange"], "top": "orange", "height": 1}
    assert events[0] == Played(seat=0, colour="orange", pile=1, result=COVERED_BASE,
                               before="green", after="orange", base="green", height=1)
    assert events[1] == NextTurn(seat=1, turn=1)


def test_blue_on_orange_makes_blue_and_blue_on_blue_cancels():
    bases = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4
    s = build(bases=bases, stacks=[("orange",)] + [()] * 15, turn=1, first=1,
              supplies=[(0, 1, 1, 1), (1, 1, 2, 1)])
    assert cones.current_player(s) == 0
    s, events = cones.apply(s, 0, Play("blue", 1))
    assert s.stacks[0] == ("orange", "blue")
    assert cones.view(s, None)["piles"][0]["top"] == "blue"
    assert events[0].result == RECOLOURED and events[0].before == "orange"
    assert events[0].after == "blue" and events[0].height == 2
    s, events = cones.apply(s, 1, Play("blue", 1))
    assert s.stacks[0] == ("orange",)
    pile = cones.view(s, None)["piles"][0]
    assert (pile["top"], pile["height"], pile["base"]) == ("orange", 1, "green")
    assert events[0] == Played(seat=1, colour="blue", pile=1, result=CANCELLED, before="blue",
                               after="orange", base="green", height=1)
    assert cones.view(s, None)["removed"] == 2
    assert cones.view(s, None)["removed_by_colour"]["blue"] == 2
    assert s.supplies[1] == (1, 1, 1, 1)


def test_cancelling_the_only_chip_bares_the_base_which_stays():
    bases = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4
    s = build(bases=bases, stacks=[("blue",)] + [()] * 15)
    s, events = cones.apply(s, 0, Play("blue", 1))
    assert s.stacks[0] == () and s.bases[0] == "green" and len(s.bases) == 16
    assert events[0].result == CANCELLED and events[0].after == "green" and events[0].height == 0
    # the bare green base again refuses green
    assert 1 not in cones.legal_piles(s, 1, "green")


def test_a_bare_base_refuses_its_own_colour():
    bases = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4
    s = build(bases=bases)
    with pytest.raises(InvalidAction):
        cones.apply(s, 0, Play("green", 1))
    assert cones.legal_piles(s, 0, "green") == list(range(5, 17))
    assert Play("green", 1) not in cones.legal_actions(s, 0)
    # but green goes onto a green base once a chip covers it
    s2 = build(bases=bases, stacks=[("orange",)] + [()] * 15)
    assert 1 in cones.legal_piles(s2, 0, "green")
    s3, ev = cones.apply(s2, 0, Play("green", 1))
    assert s3.stacks[0] == ("orange", "green") and ev[0].result == RECOLOURED


def test_no_height_limit():
    bases = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4
    tall = ("orange", "blue") * 10
    s = build(bases=bases, stacks=[tall] + [()] * 15)
    s, ev = cones.apply(s, 0, Play("orange", 1))
    assert len(s.stacks[0]) == 21 and ev[0].height == 21


# ---------------------------------------------------------------- legality

def test_legal_actions_are_complete_and_ordered():
    for players in (2, 3, 4):
        states, _ = playout(players, seed=players)
        for s in states[:-1:3]:
            seat = cones.current_player(s)
            acts = cones.legal_actions(s, seat)
            brute = []
            for ci, colour in enumerate(s.colours):
                if not s.supplies[seat][ci]:
                    continue
                for pile in range(1, len(s.bases) + 1):
                    try:
                        cones.apply(s, seat, Play(colour, pile))
                    except InvalidAction:
                        continue
                    brute.append(Play(colour, pile))
            assert acts == brute
            for colour in s.colours:
                assert cones.legal_piles(s, seat, colour) == [a.pile for a in acts if a.colour == colour]
            for other in range(players):
                if other != seat:
                    assert cones.legal_actions(s, other) == []
                    assert cones.legal_piles(s, other, s.colours[0]) == []


def test_legal_piles_for_colours_not_held_or_not_in_play():
    s = build(supplies=[(1, 0, 1, 1), (1, 1, 1, 1)])
    assert cones.legal_piles(s, 0, "green") == []
    assert cones.legal_piles(s, 0, "purple") == []
    assert cones.legal_piles(s, 0, "nonsense") == []
    with pytest.raises(InvalidAction):
        cones.apply(s, 0, Play("green", 1))
    with pytest.raises(InvalidAction):
        cones.apply(s, 0, Play("purple", 1))


@pytest.mark.parametrize("pile", [0, 17, -1, 99])
def test_pile_out_of_range(pile):
    with pytest.raises(InvalidAction):
        cones.apply(build(), 0, Play("orange", pile))


def test_turn_order_and_wrong_seat():
    s = build(goals=("orange", "green", "blue"), undrawn=("pink", "yellow"),
              colours=("orange", "yellow", "green", "blue", "pink"),
              bases=tuple(c for c in ("orange", "yellow", "green", "blue", "pink") for _ in range(4)),
              first=2)
    assert cones.current_player(s) == 2
    with pytest.raises(NotYourTurn):
        cones.apply(s, 0, Play("green", 1))
    s, ev = cones.apply(s, 2, Play("green", 1))
    assert cones.current_player(s) == 0 and ev[-1] == NextTurn(seat=0, turn=1)
    s, ev = cones.apply(s, 0, Play("green", 2))
    assert cones.current_player(s) == 1


@pytest.mark.parametrize("bad", ["b7", ("blue", 7), None, Play("blue", "7"), Play(3, 7),
                                 Play("blue", True)])
def test_apply_rejects_non_actions(bad):
    with pytest.raises(InvalidAction):
        cones.apply(build(), 0, bad)


def test_no_same_pile_option():
    bases = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4
    supplies = [(2, 2, 2, 2), (2, 2, 2, 2)]
    on = build(bases=bases, supplies=supplies, options=Options(no_same_pile=True))
    off = build(bases=bases, supplies=supplies)
    on, _ = cones.apply(on, 0, Play("orange", 1))
    off, _ = cones.apply(off, 0, Play("orange", 1))
    assert cones.view(on, None)["blocked_pile"] == 1
    assert cones.view(off, None)["blocked_pile"] is None
    assert 1 not in cones.legal_piles(on, 1, "blue")
    assert all(a.pile != 1 for a in cones.legal_actions(on, 1))
    with pytest.raises(InvalidAction):
        cones.apply(on, 1, Play("blue", 1))
    assert 1 in cones.legal_piles(off, 1, "blue")
    cones.apply(off, 1, Play("blue", 1))
    # only the previous move's pile is blocked, not older ones
    on, _ = cones.apply(on, 1, Play("blue", 2))
    assert 1 in cones.legal_piles(on, 0, "blue") and 2 not in cones.legal_piles(on, 0, "blue")


@pytest.mark.parametrize("players,options", [(2, Options(no_same_pile=True)),
                                             (3, Options(equal=True, no_same_pile=True)),
                                             (4, Options(no_same_pile=True)),
                                             (2, Options(equal=True))])
def test_playouts_with_options_conserve_and_end(players, options):
    for seed in range(4):
        states, events = playout(players, seed, options, chooser_seed=seed)
        total = 6 * (players + 2)
        for prev, s in zip(states, states[1:]):
            assert cones.piece_count(s) == total
            assert all(r % 2 == 0 for r in s.removed)
            if options.no_same_pile:
                assert s.last_pile != prev.last_pile
        assert cones.outcome(states[-1]) is not None
        assert states[-1].turn == sum(len(st_) for st_ in states[-1].stacks) + sum(states[-1].removed)
        assert isinstance(events[-1], GameEnded)
        assert cones.from_json(json.loads(json.dumps(cones.to_json(states[-1])))) == states[-1]


# ---------------------------------------------------------------- scoring and ties

BASES4 = ("green",) * 4 + ("orange",) * 4 + ("blue",) * 4 + ("pink",) * 4


def test_most_piles_wins():
    # orange: 4 bare bases + 1 chip pile = 5; green: 3 bare
    stacks = [("orange",)] + [()] * 15
    s = final(stacks, BASES4, goals=("orange", "green"), undrawn=("blue", "pink"))
    res = cones.outcome(s)
    assert res.places == (1, 2) and res.winners == (0,) and res.reason == "most_piles"
    assert res.scores == ({"goal": "orange", "piles": 5, "piles_with_chips": 1, "tallest": 1},
                          {"goal": "green", "piles": 3, "piles_with_chips": 0, "tallest": 0})


def test_tie_broken_by_piles_with_chips():
    # piles 1-4 green bases, 5-8 orange, 9-12 blue, 13-16 pink
    stacks = [("orange",), ("orange",), (), (), ("green",), ("green",)] + [()] * 10
    s = final(stacks, BASES4, goals=("orange", "green"), undrawn=("blue", "pink"))
    assert cones.outcome(s).places == (1, 1)  # 4 piles, 2 with chips, tallest 1 each
    stacks = [()] * 16
    stacks[0] = ("orange", "green")  # green: 1, 2 with chips + 3, 4 bare
    stacks[1] = ("blue", "green")
    stacks[7] = ("pink",)  # orange: 5, 6, 7 bare + a tall pile 9
    stacks[8] = ("orange", "blue", "orange", "pink", "orange")
    s = final(stacks, BASES4, goals=("orange", "green"), undrawn=("blue", "pink"))
    res = cones.outcome(s)
    o, g = res.scores
    assert (o["piles"], o["piles_with_chips"], o["tallest"]) == (4, 1, 5)
    assert (g["piles"], g["piles_with_chips"], g["tallest"]) == (4, 2, 2)
    assert res.places == (2, 1) and res.winners == (1,) and res.reason == "piles_with_chips"


def test_tie_broken_by_tallest_pile():
    stacks = [()] * 16
    stacks[0] = ("orange",)  # green base 1 -> orange
    stacks[4] = ("green", "blue", "green")  # orange base 5 -> green, 3 chips
    s = final(stacks, BASES4, goals=("orange", "green"), undrawn=("blue", "pink"))
    res = cones.outcome(s)
    o, g = res.scores
    assert (o["piles"], o["piles_with_chips"], o["tallest"]) == (4, 1, 1)
    assert (g["piles"], g["piles_with_chips"], g["tallest"]) == (4, 1, 3)
    assert res.places == (2, 1) and res.winners == (1,) and res.reason == "tallest_pile"


def test_full_tie_shares_the_place():
    stacks = [()] * 16
    stacks[0] = ("orange", "blue", "orange")
    stacks[4] = ("green", "pink", "green")
    s = final(stacks, BASES4, goals=("orange", "green"), undrawn=("blue", "pink"))
    res = cones.outcome(s)
    assert res.places == (1, 1) and res.winners == (0, 1) and res.reason == "shared"


def test_three_players_shared_first_then_third():
    colours = ("orange", "yellow", "green", "blue", "pink")
    bases = tuple(c for c in colours for _ in range(4))
    s = final([()] * 20, bases, goals=("orange", "green", "blue"), undrawn=("yellow", "pink"),
              colours=colours)
    assert cones.outcome(s).places == (1, 1, 1)
    stacks = [()] * 20
    stacks[0] = ("pink",)  # an orange base turns pink: orange drops to 3
    s = final(stacks, bases, goals=("orange", "green", "blue"), undrawn=("yellow", "pink"),
              colours=colours)
    res = cones.outcome(s)
    assert res.places == (3, 1, 1) and res.reason == "shared"


def test_neutral_colour_with_most_piles_never_wins():
    # pink (undrawn) holds 13 piles; the players' best colour still wins
    stacks = [("pink",)] * 4 + [("pink",)] * 3 + [()] + [("pink",)] * 2 + [()] * 6
    s = final(stacks, BASES4, goals=("orange", "blue"), undrawn=("green", "pink"))
    v = cones.view(s, None)
    assert v["piles_by_colour"]["pink"] == 4 + 9 == max(v["piles_by_colour"].values())
    res = cones.outcome(s)
    # orange: base 8 bare = 1; blue: bases 11-12 bare = 2
    assert [sc["piles"] for sc in res.scores] == [1, 2]
    assert res.places == (2, 1) and res.winners == (1,)
    assert v["winners"] == [1] and v["places"] == [2, 1]


def test_outcome_is_none_while_running():
    assert cones.outcome(cones.setup(2, Options(), 0)) is None


def test_game_ends_when_all_chips_are_played_and_then_refuses():
    states, events = playout(2, 3)
    end = states[-1]
    assert len(states) == 25  # 24 chips, one per turn
    assert all(sum(s) == 0 for s in end.supplies)
    assert cones.current_player(end) is None
    assert cones.legal_actions(end, 0) == [] and cones.legal_piles(end, 0, end.colours[0]) == []
    with pytest.raises(GameOver):
        cones.apply(end, 0, Play(end.colours[0], 1))
    ended = events[-1]
    res = cones.outcome(end)
    assert ended == GameEnded(places=res.places, winners=res.winners, reason=res.reason)
    assert sum(isinstance(e, Played) for e in events) == 24
    assert sum(isinstance(e, NextTurn) for e in events) == 23


# ---------------------------------------------------------------- hidden information

def _swap_goals(state: State) -> State:
    """The same game with seat 0's goal exchanged with an undrawn colour."""
    goals = (state.undrawn[0],) + state.goals[1:]
    undrawn = tuple(sorted((state.goals[0], state.undrawn[1]), key=cones.ALL_COLOURS.index))
    return dataclasses.replace(state, goals=goals, undrawn=undrawn)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_goals_exist_only_in_the_owners_view(players):
    states, _ = playout(players, seed=11)
    for s in states[:-1]:
        other = _swap_goals(s)
        assert cones.view(s, None) == cones.view(other, None)
        pub = cones.view(s, None)
        assert "goal" not in pub and "goals" not in pub and "undrawn" not in pub
        assert "scores" not in pub and "places" not in pub
        for seat in range(1, players):
            assert cones.view(s, seat) == cones.view(other, seat)
            assert cones.view(s, seat)["goal"] == s.goals[seat]
            assert "goals" not in cones.view(s, seat)
        own, own2 = cones.view(s, 0), cones.view(other, 0)
        assert own["goal"] == s.goals[0] and own2["goal"] == other.goals[0]
        assert {k: v for k, v in own.items() if k != "goal"} == \
               {k: v for k, v in own2.items() if k != "goal"}
        assert cones.legal_actions(s, cones.current_player(s)) == \
            cones.legal_actions(other, cones.current_player(other))


@pytest.mark.parametrize("players", [2, 4])
def test_events_and_codes_never_depend_on_goals(players):
    a = cones.setup(players, Options(), 5)
    b = _swap_goals(a)
    chooser = random.Random(1)
    while cones.current_player(a) is not None:
        seat = cones.current_player(a)
        action = chooser.choice(cones.legal_actions(a, seat))
        a, ev_a = cones.apply(a, seat, action)
        b, ev_b = cones.apply(b, seat, action)
        for e in ev_a:
            d = event_dict(e)
            assert "goal" not in d and "goals" not in d and "scores" not in d
        assert ev_a[0] == ev_b[0]
        if not isinstance(ev_a[-1], GameEnded):
            assert ev_a == ev_b
        code = cones.encode_action(action)
        assert code == f"{cones.LETTER[action.colour]}{action.pile}"


def test_all_goals_revealed_after_the_end():
    states, _ = playout(3, seed=2)
    end = states[-1]
    pub = cones.view(end, None)
    assert pub["over"] is True and pub["to_move"] is None
    assert pub["goals"] == list(end.goals) and pub["undrawn"] == list(end.undrawn)
    assert sorted(pub["goals"] + pub["undrawn"]) == sorted(pub["colours"])
    res = cones.outcome(end)
    assert pub["scores"] == list(res.scores) and pub["places"] == list(res.places)
    assert pub["reason"] == res.reason
    assert sum(pub["piles_by_colour"].values()) == 20
    assert cones.view(end, 1)["goal"] == end.goals[1]


def test_public_view_shape():
    s = cones.setup(4, Options(), 3)
    seat = cones.current_player(s)
    s, _ = cones.apply(s, seat, cones.legal_actions(s, seat)[0])
    v = cones.view(s, None)
    assert set(v) == {"game", "players", "options", "colours", "piles", "piles_by_colour",
                      "supplies", "supply_left", "to_move", "turn", "last_pile", "blocked_pile",
                      "removed", "removed_by_colour", "over"}
    assert len(v["piles"]) == 24 and [p["number"] for p in v["piles"]] == list(range(1, 25))
    assert v["supplies"][seat] == dict(zip(s.colours, s.supplies[seat]))
    assert v["supply_left"] == [8 if i == seat else 9 for i in range(4)]
    assert v["last_pile"] == cones.legal_actions(cones.setup(4, Options(), 3), seat)[0].pile
    assert v["to_move"] == (seat + 1) % 4 and v["turn"] == 1
    mine = cones.view(s, 2)
    assert mine["seat"] == 2 and mine["goal"] == s.goals[2]
    with pytest.raises(InvalidAction):
        cones.view(s, 4)


# ---------------------------------------------------------------- codec and JSON

def test_action_codes():
    assert cones.encode_action(Play("blue", 7)) == "b7"
    assert cones.encode_action(Play("purple", 24)) == "v24"
    for colour, letter in cones.LETTER.items():
        for pile in (1, 9, 10, 24):
            assert cones.decode_action(f"{letter}{pile}") == Play(colour, pile)
    for bad in ["", "b", "7", "b07", "b0", "x7", "B7", "b100", "b 7", "bb7", 7, None, "b7:"]:
        with pytest.raises(InvalidAction):
            cones.decode_action(bad)


def test_json_round_trip_and_validation():
    states, _ = playout(3, seed=4)
    mid = states[9]
    data = json.loads(json.dumps(cones.to_json(mid)))
    assert cones.from_json(data) == mid

    def broken(**changes):
        d = json.loads(json.dumps(data))
        for key, value in changes.items():
            d[key] = value
        return d

    goals = data["goals"]
    bad = [
        {"v": 2}, None, [], broken(players=5), broken(goals=[goals[0]] * 3),
        broken(colours=data["colours"][::-1]), broken(turn=data["turn"] + 1),
        broken(first=3), broken(last_pile=0), broken(last_pile=None),
        broken(options={"equal": "yes", "no_same_pile": False}),
        broken(bases=data["bases"][:-1]), broken(stacks=[[]] * 20),
        broken(removed={c: 1 for c in data["colours"]}),
        broken(supplies=data["supplies"][:2]),
    ]
    tampered = json.loads(json.dumps(data))
    i = next(k for k, stack in enumerate(tampered["stacks"]) if stack)
    tampered["stacks"][i].append(tampered["stacks"][i][-1])  # a chip on its own colour
    bad.append(tampered)
    for d in bad:
        with pytest.raises(InvalidAction):
            cones.from_json(d)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2 ** 40), equal=st.booleans(),
       nsp=st.booleans(), steps=st.integers(0, 36))
def test_property_states_stay_valid(players, seed, equal, nsp, steps):
    options = Options(equal=equal and players < 4, no_same_pile=nsp)
    s = cones.setup(players, options, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        seat = cones.current_player(s)
        if seat is None:
            break
        acts = cones.legal_actions(s, seat)
        assert acts
        s, _ = cones.apply(s, seat, chooser.choice(acts))
    assert cones.from_json(json.loads(json.dumps(cones.to_json(s)))) == s
    v = cones.view(s, None)
    for pile in v["piles"]:
        column = [pile["base"], *pile["chips"]]
        assert all(x != y for x, y in zip(column, column[1:]))
        assert pile["top"] == column[-1] and pile["height"] == len(pile["chips"])
    assert sum(v["piles_by_colour"].values()) == len(v["piles"])
