"""Computer players of «Гениально» (engines/ai/genial): legal, deterministic, blind to other
seats' secrets, and playing like someone who knows the ranking goes by the weakest colour."""
from __future__ import annotations

import random

import pytest

from engines import ai
from engines import genial as g
from engines.ai import genial as ag
from engines.ai.genial.gains import after_placement, gain_table
from engines.ai.genial.replies import ReplyField
from engines.ai.genial.sight import read
from engines.ai.genial.values import advance, delta_tables, kind_values, utility_table
from engines.genial.core import KIND_INDEX, KINDS

LEVELS = ai.LEVELS


def kind(text):
    """The tile kind of a two-letter tile text ("ob" = orange/blue)."""
    a, b = ("roygbp".index(ch) for ch in text)
    return (min(a, b), max(a, b))


def text(tile):
    return "roygbp"[tile[0]] + "roygbp"[tile[1]]
LOW = dict(red=8, green=8, blue=8, purple=8)


def game_states(players, options, seed, every):
    """Every ``every``-th state of a game played by the easy level (it reaches bonuses and
    swaps), with the seat to act."""
    state = g.setup(players, options, seed)
    chooser = random.Random(seed)
    step = 0
    while (seat := g.current_player(state)) is not None:
        if step % every == 0:
            yield state, seat
        action = ag.choose(g.view(state, seat), seat, "easy", chooser)
        state, _ = g.apply(state, seat, action)
        step += 1


GAMES = [
    (1, g.Options(), 0), (2, g.Options(), 1), (2, g.Options(bonus_from_rack=True), 2),
    (3, g.Options(), 3), (4, g.Options(), 4), (4, g.Options(team=True), 5),
]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_every_level_returns_a_legal_action(players, options, seed):
    phases = set()
    for state, seat in game_states(players, options, seed, every=7 if players < 4 else 11):
        legal = g.legal_actions(state, seat)
        view = g.view(state, seat)
        phases.add(state.phase)
        for level in LEVELS:
            assert ag.choose(view, seat, level, random.Random(seed)) in legal, (level, state)
        assert ai.choose("genial", view, seat, "random", seed) in legal
    assert "place" in phases


def test_the_positions_cover_bonus_and_swap_decisions():
    """The legality test above must meet the rarer decisions too, not only plain placements."""
    phases = {state.phase for players, options, seed in GAMES[1:3]
              for state, _ in game_states(players, options, seed, every=1)}
    assert {"place", "bonus", "swap"} <= phases


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_seat_level_and_seed_give_the_same_action(level):
    for state, seat in game_states(3, g.Options(), 8, every=9):
        view = g.view(state, seat)
        first = ai.choose("genial", view, seat, level, 1234)
        assert ai.choose("genial", view, seat, level, 1234) == first
        assert ag.choose(view, seat, level, random.Random(99)) == ag.choose(view, seat, level, random.Random(99))


def other_secrets(state, seat, rng):
    """The same game as ``seat`` sees it, with every other rack refilled from the bag and
    another seed for the bag's future draws."""
    data = g.to_json(state)
    pool = [KINDS[k] for k, n in enumerate(data["bag"]) for _ in range(n)]
    for s, rack in enumerate(data["racks"]):
        if s != seat:
            pool += [kind(t) for t in rack]
    rng.shuffle(pool)
    for s, rack in enumerate(data["racks"]):
        if s != seat:
            data["racks"][s] = [text(pool.pop()) for _ in rack]
    data["bag"] = [0] * len(KINDS)
    for t in pool:
        data["bag"][KIND_INDEX[t]] += 1
    data["seed"] += 1 + rng.randrange(1000)
    data["counter"] += 1
    return g.from_json(data)


@pytest.mark.parametrize("players,options", [(2, g.Options()), (4, g.Options(team=True)), (3, g.Options())])
def test_no_choice_depends_on_another_seats_secret(players, options):
    rng = random.Random(players)
    changed = 0
    for state, seat in game_states(players, options, 21, every=13):
        twin = other_secrets(state, seat, rng)
        changed += any(twin.racks[s] != state.racks[s] for s in range(players) if s != seat)
        view = g.view(state, seat)
        assert g.view(twin, seat) == view
        for level in LEVELS:
            for seed in (5, 6):
                assert ai.choose("genial", g.view(twin, seat), seat, level, seed) == \
                    ai.choose("genial", view, seat, level, seed)
    assert changed >= 3  # the twins really hid other racks


def test_determinize_deals_unseen_tiles_behind_the_same_view():
    for players, options, seed in GAMES:
        for state, seat in game_states(players, options, seed, every=17):
            view = g.view(state, seat)
            samples = [ag.determinize(view, seat, random.Random(k)) for k in range(4)]
            for sample in samples:
                assert g.view(sample, seat) == view
                assert g.piece_count(sample) == g.piece_total(players)
            if players > 1 and sum(view["rack_sizes"]) > len(view["rack"]):
                others = {tuple(map(tuple, s.racks)) for s in samples}
                assert len(others) > 1  # other racks are sampled, not copied


# ------------------------------------------------------------------ the look-up tables

def test_gain_tables_and_reply_updates_agree_with_the_engine_and_a_full_recount():
    """The players price placements from their own tables; these must count what the engine
    counts, and the look-ahead's incremental updates what a full recount gives."""
    checked = 0
    for players, options, seed in GAMES[:5]:
        rng = random.Random(seed)
        for state, seat in game_states(players, options, seed, every=9):
            if state.phase == "swap":
                continue
            sight = read(g.view(state, seat), seat)
            gains = gain_table(sight.bd, sight.occ)
            deltas = delta_tables(sight.scores[sight.me], utility_table(sight.top, 3.0), 0.5,
                                  sight.two_boards, sight.solo)
            field = ReplyField(sight.bd, sight.occ, gains, deltas, sight.free_edges(sight.occ, seat))
            legal = g.legal_actions(state, seat)
            for action in rng.sample(legal, min(6, len(legal))):
                i, j = sight.bd.index[action.cell_a], sight.bd.index[action.cell_b]
                a, b = g.COLOURS.index(action.a), g.COLOURS.index(action.b)
                engine = g.placement_score(state, seat, (action.a, action.b), action.cell_a, action.cell_b)
                raw = {action.a: gains[i][a] + gains[j][a]} if a == b else \
                    {action.a: gains[i][a], action.b: gains[j][b]}
                assert {c: v["raw"] for c, v in engine.items()} == raw
                for colour, v in engine.items():
                    old = sight.scores[sight.me][g.COLOURS.index(colour)]
                    assert advance(old, v["raw"], sight.two_boards, sight.solo) == (v["total"], v["bonus"])
                occ2, gains2, changed = after_placement(sight.bd, sight.occ, gains, a, b, i, j)
                assert gains2 == gain_table(sight.bd, occ2)
                if all(sight.started):
                    free = [(x, y) for x, y, _ in sight.bd.edges if occ2[x] == -1 and occ2[y] == -1]
                    full = kind_values(deltas, gains2, free)
                    assert field.after(occ2, gains2, changed, (i, j)) == pytest.approx(full)
                    checked += 1
    assert checked > 100


# ------------------------------------------------------------------ how it plays

def best_choice(state, level, seeds=range(3)):
    """The level's choices over a few seeds, as {colour: points gained}."""
    out = []
    for seed in seeds:
        action = ag.choose(g.view(state, 0), 0, level, random.Random(seed))
        score = g.placement_score(state, 0, (action.a, action.b), action.cell_a, action.cell_b)
        out.append({c: v["gained"] for c, v in score.items() if v["gained"]})
    return out


def best_raw(state, colour):
    return max(g.placement_score(state, 0, (a.a, a.b), a.cell_a, a.cell_b).get(colour, {"raw": 0})["raw"]
               for a in g.legal_actions(state, 0))


# A red line ends at (0, 0) and (4, 0) (with the printed red (5, 0)); an orange line of four
# ends at (-1, 0). Red and orange are far enough apart that no tile scores both.
LINES = [(1, "rr", (1, 0), (2, 0)), (1, "ry", (3, 0), (3, -1)),
         (1, "oo", (-2, 1), (-3, 2)), (1, "oo", (-4, 3), (-5, 4)), (1, "og", (-1, 1), (-1, 2))]


@pytest.mark.parametrize("level", LEVELS)
def test_raises_the_lowest_colour_rather_than_scoring_more_on_a_high_one(level):
    rack = [["rp", "oy"], ["yy"]]
    red_low = g.position(2, tiles=LINES, racks=rack, current=0, scores=[
        dict(red=2, orange=12, yellow=8, green=8, blue=8, purple=8), {}])
    assert best_raw(red_low, "red") == 4 and best_raw(red_low, "orange") == 5
    assert all(choice == {"red": 4} for choice in best_choice(red_low, level))
    # the same board with the tracks the other way round: now orange is the one to raise
    orange_low = g.position(2, tiles=LINES, racks=rack, current=0, scores=[
        dict(red=12, orange=2, yellow=8, green=8, blue=8, purple=8), {}])
    assert all(choice == {"orange": 5} for choice in best_choice(orange_low, level))


def bonus_pending_with(state, drawn):
    """``state`` with a «Гениально!» bonus pending and ``drawn`` drawn from the bag."""
    data = g.to_json(state)
    data["bag"][KIND_INDEX[kind(drawn)]] -= 1
    data.update(drawn=drawn, phase="bonus", bonus_pending=1)
    return g.from_json(data)


def chain_position():
    """A bonus tile orange/yellow is drawn. Orange is at 16: three orange points on (2, -2)
    reach 18 and bring another bonus placement; five yellow points on (0, 0) score more and
    lift yellow from 12 to 17. Runs of the four low colours wait for the bonus tile."""
    tiles = [(1, "yy", (0, -4), (0, -3)), (1, "yy", (0, -2), (0, -1)), (1, "oo", (4, -4), (3, -3)),
             (1, "rr", (4, 0), (3, 0)), (1, "gg", (-4, 0), (-3, 0)), (1, "bb", (-4, 4), (-3, 3)),
             (1, "pp", (0, 4), (0, 3))]
    state = g.position(2, tiles=tiles, racks=[["rg", "bp", "rb", "gp", "rp"], ["yy"]], current=0,
                       scores=[dict(LOW, orange=16, yellow=12), {}])
    return bonus_pending_with(state, "oy")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_the_bonus_chain(level):
    state = chain_position()
    assert best_raw(state, "yellow") == 5 and best_raw(state, "orange") == 3
    for seed in range(3):
        action = ag.choose(g.view(state, 0), 0, level, random.Random(seed))
        _, events = g.apply(state, 0, action)
        assert [e.colour for e in events if isinstance(e, g.Genial)] == ["orange"]
        assert isinstance(events[-1], g.TileDrawn)  # the chain goes on


def test_easy_does_not_see_the_bonus_chain():
    """The levels differ: easy plays for the points it sees."""
    state = chain_position()
    chains = 0
    for seed in range(4):
        action = ag.choose(g.view(state, 0), 0, "easy", random.Random(seed))
        _, events = g.apply(state, 0, action)
        chains += any(isinstance(e, g.Genial) for e in events)
    assert chains == 0


def swap_offered(scores, rack, tiles, placement):
    state = g.position(2, tiles=tiles, racks=[rack, ["yy"]], scores=scores, current=0)
    state, events = g.apply(state, 0, placement)
    assert isinstance(events[-1], g.SwapOffered)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_swaps_a_rack_without_its_lowest_colour(level):
    state = swap_offered([dict(red=2, orange=12, yellow=12, green=12, blue=12, purple=12), {}],
                         ["oy", "gp", "oo", "yg", "pp", "og"], [(1, "rr", (4, 0), (3, 0))],
                         g.Place("orange", "yellow", (0, -3), (1, -3)))
    assert all(ag.choose(g.view(state, 0), 0, level, random.Random(s)) == g.Swap() for s in range(3))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_keeps_a_rack_full_of_its_next_colour_when_the_bag_holds_little_better(level):
    """Red is lowest at 5 but orange is right behind at 6 with long orange lines on the
    board, and every other colour is full: four orange doubles beat a fresh rack."""
    tiles = [(1, "ob", (4, -4), (4, -3)), (1, "op", (3, -3), (3, -2)), (1, "og", (-4, 0), (-4, 1)),
             (1, "oy", (-3, 0), (-3, 1)), (1, "ob", (0, 4), (1, 4)), (1, "op", (0, 3), (1, 3))]
    state = swap_offered([dict(red=5, orange=6, yellow=18, green=18, blue=18, purple=18), {}],
                         ["oo", "oo", "oo", "oo", "og", "oy"], tiles,
                         g.Place("orange", "yellow", (1, -5), (2, -5)))
    assert all(ag.choose(g.view(state, 0), 0, level, random.Random(s)) == g.Keep() for s in range(3))


def test_solo_places_the_drawn_tile_for_its_lowest_colour():
    """Solo: red/orange drawn. Red 3 with orange 5 (2 of them kept, orange is at 34 of 36)
    scores more than red 4 alone; the lowest colour wants the 4."""
    state = g.position(1, tiles=[(0, t, a, b) for _, t, a, b in LINES], drawn="ro",
                       scores=[dict(red=3, orange=34, yellow=9, green=9, blue=9, purple=9)])
    for level in LEVELS:
        assert all(choice == {"red": 4} for choice in best_choice(state, level))


def test_unknown_level_is_refused():
    state = g.setup(2, g.Options(), 0)
    with pytest.raises(ValueError):
        ag.choose(g.view(state, state.current), state.current, "genius", random.Random(0))
