"""Scenario tests for «Гениально» (engines/genial): every rule of docs/rules.md `genial` and the
rulebook's worked examples (seed 003)."""
from __future__ import annotations

import json
import random

import pytest

from engines import genial as g
from engines.base import GameOver, InvalidAction, NotYourTurn, event_dict
from engines.genial.core import KIND_COUNT, KIND_INDEX

RED, ORANGE, YELLOW, GREEN, BLUE, PURPLE = g.COLOURS


def kinds(events):
    return [type(e).__name__ for e in events]


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def raw(state, seat, tile, a, b):
    return {c: v["raw"] for c, v in g.placement_score(state, seat, tile, a, b).items()}


def at5(label):
    """Cells are labelled as on the R = 5 board in these tests (axial cells are the same on
    every board; labels are not)."""
    return g.parse_cell(label, 5) if isinstance(label, str) else label


def pos(players, tiles=(), **kw):
    """g.position with R = 5 labels."""
    return g.position(players, tiles=[(s, t, at5(a), at5(b)) for s, t, a, b in tiles], **kw)


def place(state, seat, tile, a, b):
    """Apply tile (first colour on a) on cells a, b (R = 5 labels)."""
    ca, cb = at5(a), at5(b)
    return g.apply(state, seat, g.Place(g.COLOURS["roygbp".index(tile[0])],
                                        g.COLOURS["roygbp".index(tile[1])], ca, cb))


def pending_bonus(state, drawn, pending=1):
    """The same position with a «Гениально!» bonus pending and ``drawn`` drawn from the bag."""
    data = g.to_json(state)
    a, b = "roygbp".index(drawn[0]), "roygbp".index(drawn[1])
    data["bag"][KIND_INDEX[(min(a, b), max(a, b))]] -= 1
    data.update(drawn=drawn, phase="bonus", bonus_pending=pending)
    return g.from_json(data)


def scores_of(state, holder):
    return dict(zip(g.COLOURS, state.scores[holder]))


# ------------------------------------------------------------------ board and components

def test_board_sizes_and_free_cells():
    for players, radius, cells, free in ((1, 5, 91, 85), (2, 5, 91, 85), (3, 6, 127, 121), (4, 7, 169, 163)):
        state = g.setup(players, g.Options(), 3)
        assert state.radius == radius == g.view(state)["radius"]
        assert g.board(radius).size == cells
        assert state.occ.count(-1) == free


def test_printed_symbols_sit_on_the_r5_corners_for_every_size():
    expected = {(5, 0): RED, (5, -5): ORANGE, (0, -5): YELLOW, (-5, 0): GREEN, (-5, 5): BLUE, (0, 5): PURPLE}
    for players in (1, 2, 3, 4):
        v = g.view(g.setup(players, g.Options(), 0))
        assert {tuple(p["cell"]): p["colour"] for p in v["printed"]} == expected
    assert [p["label"] for p in g.view(g.setup(2, g.Options(), 0))["printed"]] == \
        ["F11", "A6", "A1", "F1", "K1", "K6"]


def test_labels_rows_lettered_cells_numbered():
    assert g.cell_label((0, 0), 5) == "F6"
    assert g.cell_label((0, 0), 7) == "H8"
    assert g.cell_label((0, -5), 5) == "A1"
    assert g.cell_label((5, -5), 5) == "A6"
    assert g.cell_label((-5, 1), 5) == "G1"
    assert g.parse_cell("f7", 5) == (1, 0)
    assert g.parse_cell(" а1 ", 5) == (0, -5)  # Cyrillic а typed for A
    for radius in (5, 6, 7):
        bd = g.board(radius)
        assert len(set(bd.labels)) == bd.size
        for cell in bd.cells:
            assert g.parse_cell(g.cell_label(cell, radius), radius) == cell
    for bad in ("F12", "L1", "Z1", "", "F", "7F", "F0"):
        with pytest.raises(g.MoveError) as err:
            g.parse_cell(bad, 5)
        assert err.value.code == "bad_cell"


def test_120_tiles_racks_of_six_and_a_seeded_bag():
    assert sum(KIND_COUNT) == 120 == g.piece_total(4)
    assert sorted(KIND_COUNT) == [5] * 6 + [6] * 15
    for players, bag in ((2, 108), (3, 102), (4, 96)):
        state = g.setup(players, g.Options(), 11)
        assert [len(r) for r in state.racks] == [6] * players
        assert g.view(state)["bag"] == bag
        assert g.piece_count(state) == 120
    assert g.to_json(g.setup(3, g.Options(), 5)) == g.to_json(g.setup(3, g.Options(), 5))
    assert g.to_json(g.setup(3, g.Options(), 5)) != g.to_json(g.setup(3, g.Options(), 6))
    firsts = {g.setup(4, g.Options(), seed).current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


# ------------------------------------------------------------------ scoring (rulebook captions)

CAPTIONS = [
    # (tiles already on the board, tile placed, cells, points) — positions rebuilt for the six
    # scoring figures of the rulebook (seed 003).
    ([(1, "by", "F5", "F4")], "bg", "F6", "F7", {BLUE: 1, GREEN: 0}),
    ([(1, "bb", "F5", "F4")], "bg", "F6", "F7", {BLUE: 2, GREEN: 0}),
    ([(1, "ry", "F5", "F4"), (1, "bb", "F8", "F9")], "rb", "F6", "F7", {RED: 1, BLUE: 2}),
    ([(1, "bb", "F5", "F4"), (1, "bb", "F8", "F9")], "bb", "F6", "F7", {BLUE: 4}),
    ([(1, "rr", "F5", "F4"), (1, "bb", "F8", "F9"), (1, "bb", "E7", "D7")], "rb", "F6", "F7",
     {RED: 2, BLUE: 4}),
    # a green double with both shoulder cells (E6, G6) green: each counts twice
    ([(1, "gg", "F5", "F4"), (1, "gg", "F8", "F9"), (1, "gg", "E6", "D6"), (1, "gg", "G6", "H6"),
      (1, "gy", "E5", "D4"), (1, "gr", "D5", "C4")], "gg", "F6", "F7", {GREEN: 12}),
]


@pytest.mark.parametrize("tiles,tile,a,b,points", CAPTIONS)
def test_rulebook_scoring_captions(tiles, tile, a, b, points):
    state = pos(2, tiles=tiles, racks=[[tile], []], current=0)
    assert raw(state, 0, tile, a, b) == points
    new, events = place(state, 0, tile, a, b)
    (placed,) = of(events, g.Placed)
    assert {p.colour: p.raw for p in placed.points} == points
    assert {p.colour: p.gained for p in placed.points} == points
    assert scores_of(new, 0) == {c: points.get(c, 0) for c in g.COLOURS}
    assert placed.labels == (a, b) and placed.seat == 0 and not placed.bonus


def test_shoulder_cell_counts_twice_on_a_double():
    state = pos(2, tiles=[(1, "bg", "E6", "D6")], racks=[["bb", "gb"], []])
    assert raw(state, 0, "bb", "F6", "F7") == {BLUE: 2}  # E6 touches F6 and F7
    assert raw(state, 0, "bg", "F6", "F7") == {BLUE: 1, GREEN: 0}  # only the blue half sees it


def test_lines_stop_at_empty_cells_other_symbols_and_the_edge():
    state = pos(2, tiles=[(1, "bb", "F5", "F4"), (1, "bb", "F2", "F3")], racks=[["bg"], []])
    assert raw(state, 0, "bg", "F6", "G6") == {BLUE: 4, GREEN: 0}  # F5 F4 F3 F2, then green F1
    state = pos(2, tiles=[(1, "bb", "F5", "F4"), (1, "yy", "F3", "E3")], racks=[["bg"], []])
    assert raw(state, 0, "bg", "F6", "G6") == {BLUE: 2, GREEN: 0}
    state = pos(2, tiles=[(1, "bb", "F5", "F4")], racks=[["bg"], []])
    assert raw(state, 0, "bg", "F6", "F7") == {BLUE: 2, GREEN: 0}  # F3 empty
    # the partner's direction is never counted
    assert raw(state, 0, "gb", "F6", "F5".replace("F5", "G6")) == {GREEN: 0, BLUE: 0}


def test_printed_symbols_count_when_scoring():
    state = pos(2, tiles=[(1, "ry", "E1", "D1")], racks=[["gr"], []])
    assert raw(state, 0, "gr", "F2", "F3") == {GREEN: 1, RED: 0}  # F1 is a printed green
    state = pos(2, tiles=[(1, "go", "F2", "G2")], racks=[["gr"], []])
    assert raw(state, 0, "gr", "F3", "F4") == {GREEN: 2, RED: 0}  # F2 tile, then printed F1


# ------------------------------------------------------------------ cap, «Гениально!», instant win

SIX_GREEN = CAPTIONS[5][0]
SOLO_SIX_GREEN = [(0, *rest) for _, *rest in SIX_GREEN]


def test_cap_at_18_loses_the_excess_and_gives_a_bonus_tile_from_the_bag():
    state = pos(2, tiles=SIX_GREEN, racks=[["gg"], []], scores=[{GREEN: 10}, {}])
    score = g.placement_score(state, 0, "gg", "F6", "F7")
    assert score == {GREEN: {"raw": 12, "gained": 8, "lost": 4, "bonus": 1, "total": 18}}
    new, events = place(state, 0, "gg", "F6", "F7")
    assert kinds(events) == ["Placed", "Genial", "TileDrawn"]
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 8, 4, 18),)
    assert of(events, g.Genial)[0] == g.Genial(0, GREEN, 18, 1)
    drawn = of(events, g.TileDrawn)[0]
    assert drawn.purpose == "bonus" and drawn.seat == 0
    assert new.scores[0][3] == 18
    pub = g.view(new)
    assert pub["pending"] == "bonus" and pub["current"] == 0 and pub["drawn"] == list(drawn.tile)
    assert pub["rack_sizes"][0] == 0  # no refill before the bonus placement
    acts = g.legal_actions(new, 0)
    assert acts and all({a.a, a.b} == set(drawn.tile) for a in acts)
    assert g.piece_count(new) == 120
    # the green track never moves past 18
    state2 = pos(2, tiles=SIX_GREEN, racks=[["gg"], []], scores=[{GREEN: 18}, {}])
    assert g.placement_score(state2, 0, "gg", "F6", "F7")[GREEN] == \
        {"raw": 12, "gained": 0, "lost": 12, "bonus": 0, "total": 18}


def _finish_bonus_turn(state, seat=0):
    """Place drawn bonus tiles far from anything until the turn passes; return all events."""
    events_all = []
    while g.current_player(state) == seat and state.phase == "bonus":
        acts = g.legal_actions(state, seat)
        state, events = g.apply(state, seat, acts[0])
        events_all += events
    return state, events_all


def test_two_bonuses_from_one_tile():
    tiles = CAPTIONS[4][0]  # 2 red + 4 blue
    state = pos(2, tiles=tiles, racks=[["rb", "oo"], ["yy"]], scores=[{RED: 16, BLUE: 14}, {}])
    new, events = place(state, 0, "rb", "F6", "F7")
    assert kinds(events) == ["Placed", "Genial", "Genial", "TileDrawn"]
    assert [(e.colour, e.pending) for e in of(events, g.Genial)] == [(RED, 1), (BLUE, 2)]
    assert new.bonus_pending == 2 and new.phase == "bonus"
    # first bonus tile: placed in the top corner area where it scores little
    first = g.legal_actions(new, 0)[0]
    new, events = g.apply(new, 0, first)
    assert of(events, g.Placed)[0].bonus
    assert "TileDrawn" in kinds(events) and new.bonus_pending == 1
    new, events = g.apply(new, 0, g.legal_actions(new, 0)[0])
    assert kinds(events)[-2:] == ["RackRefilled", "TurnPassed"]
    assert of(events, g.RackRefilled)[0].count == 5  # rack had "oo" left
    assert new.current == 1 and len(new.racks[0]) == 6
    v = g.view(new)
    assert v["recent"] == [len(new.tiles) - 3, len(new.tiles) - 2, len(new.tiles) - 1]


def test_chained_bonus_placements():
    state = pos(2, tiles=[(1, "oy", "A3", "A4")], racks=[["pp"], []], scores=[{RED: 17}, {}])
    state = pending_bonus(state, "rr")
    assert g.view(state)["drawn"] == [RED, RED]
    with pytest.raises(g.MoveError) as err:
        place(state, 0, "pp", "C5", "C6")
    assert err.value.code == "no_tile"
    new, events = place(state, 0, "rr", "F10", "F9")  # F10 touches the printed red F11
    assert kinds(events) == ["Placed", "Genial", "TileDrawn"]
    assert of(events, g.Placed)[0].bonus and of(events, g.Genial)[0].pending == 1
    assert new.phase == "bonus" and new.bonus_pending == 1


def test_instant_win_with_six_colours_at_18():
    base = {c: 18 for c in g.COLOURS}
    state = pos(3, tiles=[(1, "rr", "G4", "G5")], racks=[["ro"], [], []],
                       scores=[{**base, RED: 17}, {RED: 3}, {RED: 5}])
    new, events = place(state, 0, "ro", "G6", "G7")
    assert kinds(events)[-2:] == ["InstantWin", "GameEnded"]
    assert of(events, g.InstantWin)[0].seats == (0,)
    result = g.outcome(new)
    assert result.reason == "instant_win" and result.places == (1, 3, 2)
    assert g.current_player(new) is None and g.legal_actions(new, 0) == []
    with pytest.raises(GameOver):
        g.apply(new, 0, g.Keep())


# ------------------------------------------------------------------ swap

NO_RED_BLUE = ["oy", "gp", "oo", "yg", "pp", "og"]


def test_swap_offered_when_no_tile_shows_the_tied_lowest_colours():
    scores = [{RED: 2, BLUE: 2, ORANGE: 5, YELLOW: 5, GREEN: 5, PURPLE: 5}, {}]
    state = pos(2, tiles=[(1, "rr", "A3", "A4")], racks=[NO_RED_BLUE, ["yy"]], scores=scores)
    new, events = place(state, 0, "oy", "J3", "J4")
    assert kinds(events) == ["Placed", "SwapOffered"]
    assert of(events, g.SwapOffered)[0].lowest == (RED, BLUE)
    assert g.legal_actions(new, 0) == [g.Swap(), g.Keep()]
    assert g.view(new, 0)["swap_allowed"] and g.view(new)["pending"] == "swap"
    assert g.swap_allowed(new, 0)
    bag = g.view(new)["bag"]
    swapped, events = g.apply(new, 0, g.Swap())
    assert kinds(events) == ["Swapped", "TurnPassed"]
    shown = of(events, g.Swapped)[0]
    assert sorted(map(list, shown.shown)) == sorted(g.view(new, 0)["rack"]) and shown.count == 6
    assert len(swapped.racks[0]) == 6 and g.view(swapped)["bag"] == bag - 6 + 5
    assert g.piece_count(swapped) == 120 and swapped.current == 1
    kept, events = g.apply(new, 0, g.Keep())
    assert kinds(events) == ["SwapDeclined", "RackRefilled", "TurnPassed"]
    assert of(events, g.RackRefilled)[0].count == 1
    assert kept.racks[0][:5] == new.racks[0]


def test_swap_refused_when_a_tile_shows_one_of_the_tied_lowest_colours():
    scores = [{RED: 2, BLUE: 2, ORANGE: 5, YELLOW: 5, GREEN: 5, PURPLE: 5}, {}]
    state = pos(2, tiles=[(1, "rr", "A3", "A4")], racks=[NO_RED_BLUE[:5] + ["gb"], ["yy"]],
                       scores=scores)
    new, events = place(state, 0, "oy", "J3", "J4")
    assert kinds(events) == ["Placed", "RackRefilled", "TurnPassed"]
    assert not g.swap_allowed(new, 0) or new.current != 0
    with pytest.raises(g.MoveError) as err:
        g.apply(state, 0, g.Swap())
    assert err.value.code == "wrong_phase"


def test_swap_looks_at_the_lowest_after_the_placement():
    # red is the only lowest before; the placement lifts red, leaving purple lowest
    scores = [{RED: 0, ORANGE: 5, YELLOW: 5, GREEN: 5, BLUE: 5, PURPLE: 1}, {}]
    state = pos(2, tiles=[(1, "rr", "F9", "F8")], racks=[["ry", "oo", "gg", "yy", "bb", "pp"], []],
                       scores=scores)
    new, events = place(state, 0, "ry", "F10", "G10")  # red scores 2 (F9 F8) + printed F11
    assert "SwapOffered" not in kinds(events)  # purple is lowest now and "pp" is in the rack
    state = pos(2, tiles=[(1, "rr", "F9", "F8")], racks=[["ry", "oo", "gg", "yy", "bb", "og"], []],
                       scores=scores)
    new, events = place(state, 0, "ry", "F10", "G10")
    assert of(events, g.SwapOffered)[0].lowest == (PURPLE,)


# ------------------------------------------------------------------ first round

def _touches(cells, symbol):
    return any(g.adjacent(c, symbol) for c in cells)


def test_first_round_each_first_tile_touches_a_symbol_nobody_else_touches():
    state = g.setup(3, g.Options(), 4)
    symbols = [c for c, _ in g.SYMBOL_CELLS]
    seat = state.current
    for a, b in g.legal_placements(state, seat, 0):
        assert any(_touches((a, b), s) for s in symbols)
    # the first player touches yellow (0,-5)
    yellow = (0, -5)
    act = next(x for x in g.legal_actions(state, seat) if _touches((x.cell_a, x.cell_b), yellow))
    state, _ = g.apply(state, seat, act)
    nxt = g.current_player(state)
    assert g.view(state)["symbols_touched"][YELLOW] == [seat]
    assert g.view(state)["needs_first"] == sorted({0, 1, 2} - {seat})
    opts = g.legal_actions(state, nxt)
    assert opts and not any(_touches((x.cell_a, x.cell_b), yellow) for x in opts)
    assert all(any(_touches((x.cell_a, x.cell_b), s) for s in symbols) for x in opts)
    forbidden = next(
        (a, b) for a, b in g.legal_placements(g.setup(3, g.Options(), 4), 0, "rr")
        if _touches((a, b), yellow) and state.occ[state.board.index[a]] == -1
        and state.occ[state.board.index[b]] == -1)
    tile = state.racks[nxt][0]
    with pytest.raises(g.MoveError) as err:
        g.apply(state, nxt, g.Place(g.COLOURS[tile[0]], g.COLOURS[tile[1]], *forbidden))
    assert err.value.code == "first_round"
    # the first player's own next tile may go anywhere
    assert g.view(state, seat)["first_tile_rule"] is False
    assert g.view(state, nxt)["first_tile_rule"] is True


def test_first_placements_golden_count_on_the_empty_two_player_board():
    state = g.setup(2, g.Options(), 0)
    # 9 free edges touch each corner symbol on the R=5 board: 54 pairs, both ways for a pair
    assert len(g.legal_placements(state, state.current, "rb")) == 108
    assert len(g.legal_placements(state, state.current, "rr")) == 54
    distinct = set(state.racks[state.current])
    doubles = sum(1 for a, b in distinct if a == b)
    assert len(g.legal_actions(state, state.current)) == 108 * (len(distinct) - doubles) + 54 * doubles


# ------------------------------------------------------------------ end of the game and ranking

def fill_board(radius, keep):
    """Domino-fill the board except the cells in ``keep``: tiles (seat 0, round-robin kinds)
    and the isolated holes left. Leftover cells are never adjacent to each other."""
    bd = g.board(radius)
    free = [i for i in range(bd.size) if bd.cells[i] not in keep and i not in dict(bd.symbols)]
    taken = set()
    tiles, holes = [], []
    counts = list(KIND_COUNT)
    k = 0
    for i in free:
        if i in taken:
            continue
        partner = next((j for j in (bd.nbr[i][0], bd.nbr[i][5], bd.nbr[i][4])
                        if j in free and j not in taken and j > i), None)
        if partner is None:
            holes.append(bd.cells[i])
            continue
        taken |= {i, partner}
        while counts[k % 21] == 0:
            k += 1
        counts[k % 21] -= 1
        a, b = g.KINDS[k % 21]
        k += 1
        tiles.append((0, g.LETTERS[a] + g.LETTERS[b], bd.cells[i], bd.cells[partner]))
    return tiles, holes


def test_game_ends_when_no_two_adjacent_empty_cells_remain_even_with_holes():
    last = ((0, 0), (1, 0))
    tiles, holes = fill_board(5, set(last))
    assert holes  # isolated holes stay empty
    state = pos(2, tiles=tiles, racks=[["oy"], ["gg"]], current=1)
    assert g.legal_placements(state, 1, "gg") == [last]
    new, events = g.apply(state, 1, g.Place(GREEN, GREEN, *last))
    assert kinds(events)[-1] == "GameEnded"
    ended = events[-1]
    assert ended.reason == "board_full" and len(ended.places) == 2
    assert g.current_player(new) is None
    assert g.legal_actions(new, 0) == g.legal_actions(new, 1) == []
    assert g.view(new)["over"] and g.view(new)["outcome"]["reason"] == "board_full"
    assert sum(1 for c in new.occ if c == -1) == len(holes)


def test_three_player_ranking_example():
    # Маша lowest 10 wins; Витя 9 (then 12, 14) beats Игорь 9 (then 12, 13)
    masha = [10, 12, 13, 15, 16, 17]
    vitya = [9, 12, 14, 16, 17, 18]
    igor = [14, 9, 12, 13, 18, 17]
    last = ((0, 0), (1, 0))
    tiles, _ = fill_board(6, set(last))
    probe = pos(3, tiles=tiles, racks=[["pp"], [], []], current=0)
    gain = g.placement_score(probe, 0, "pp", *last)[PURPLE]["gained"]
    masha_before = masha[:5] + [masha[5] - gain]
    state = pos(3, tiles=tiles, racks=[["pp"], [], []], current=0,
                       scores=[masha_before, vitya, igor])
    new, events = g.apply(state, 0, g.Place(PURPLE, PURPLE, *last))
    result = g.outcome(new)
    assert result.places == (1, 2, 3)
    assert result.scores == (tuple(sorted(masha)), tuple(sorted(vitya)), tuple(sorted(igor)))
    assert events[-1] == g.GameEnded("board_full", (1, 2, 3), result.scores)


def test_a_full_tie_shares_the_place():
    last = ((0, 0), (1, 0))
    tiles, _ = fill_board(5, set(last))
    probe = pos(2, tiles=tiles, racks=[["pp"], []])
    gain = g.placement_score(probe, 0, "pp", *last)[PURPLE]["gained"]
    state = pos(2, tiles=tiles, racks=[["pp"], []],
                       scores=[[7, 8, 9, 10, 11, 12 - gain], [12, 11, 10, 9, 8, 7]])
    new, _ = g.apply(state, 0, g.Place(PURPLE, PURPLE, *last))
    assert g.outcome(new).places == (1, 1)


# ------------------------------------------------------------------ team and solo

def test_team_shares_a_two_board_track_and_gets_bonuses_at_18_and_36():
    opts = g.Options(team=True)
    state = pos(4, options=opts, tiles=SIX_GREEN, racks=[[], [], ["gg"], []], current=2,
                       scores=[{GREEN: 10}, {}])
    assert state.radius == 7
    v = g.view(state)
    assert [h["seats"] for h in v["scores"]] == [[0, 2], [1, 3]] and v["track_max"] == 36
    new, events = place(state, 2, "gg", "F6", "F7")
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 8, 4, 18),)
    assert of(events, g.Placed)[0].team == 0
    assert of(events, g.Genial)[0] == g.Genial(2, GREEN, 18, 1)
    assert new.scores == [[0, 0, 0, 18, 0, 0], [0] * 6]
    # on the second board: from 18 up to 36, another bonus at the end, excess lost
    state = pos(4, options=opts, tiles=SIX_GREEN, racks=[[], [], ["gg"], []], current=2,
                       scores=[{GREEN: 20}, {}])
    _, events = place(state, 2, "gg", "F6", "F7")
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 12, 0, 32),)
    assert not of(events, g.Genial)
    state = pos(4, options=opts, tiles=SIX_GREEN, racks=[[], [], ["gg"], []], current=2,
                       scores=[{GREEN: 30}, {}])
    _, events = place(state, 2, "gg", "F6", "F7")
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 6, 6, 36),)
    assert of(events, g.Genial)[0] == g.Genial(2, GREEN, 36, 1)


def test_team_swap_checks_the_teams_lowest_and_team_instant_win_at_36():
    opts = g.Options(team=True)
    scores = [{RED: 20, ORANGE: 20, YELLOW: 20, GREEN: 20, BLUE: 3, PURPLE: 20}, {BLUE: 30}]
    state = pos(4, options=opts, tiles=[(1, "rr", "A3", "A4")],
                       racks=[["bb"], [], NO_RED_BLUE, []], current=2, scores=scores)
    new, events = place(state, 2, "oy", "J3", "J4")
    assert of(events, g.SwapOffered)[0].lowest == (BLUE,)
    full = {c: 36 for c in g.COLOURS}
    state = pos(4, options=opts, tiles=[(1, "rr", "G4", "G5")], racks=[["ro"], [], [], []],
                       scores=[{**full, RED: 35}, {}])
    new, events = place(state, 0, "ro", "G6", "G7")
    assert of(events, g.InstantWin)[0].seats == (0, 2)
    assert g.outcome(new).places == (1, 3, 1, 3)


def test_team_needs_four_players():
    with pytest.raises(InvalidAction):
        g.setup(3, g.Options(team=True), 0)


def test_solo_draws_places_and_scores_on_two_board_tracks_without_bonus():
    state = g.setup(1, g.Options(), 2)
    v = g.view(state, 0)
    assert v["solo"] and v["radius"] == 5 and v["rack"] == [] and v["drawn"] is not None
    assert v["pending"] == "place" and v["track_max"] == 36
    symbols = [c for c, _ in g.SYMBOL_CELLS]
    assert all(any(_touches((x.cell_a, x.cell_b), s) for s in symbols) for x in g.legal_actions(state, 0))
    state = pos(1, tiles=SOLO_SIX_GREEN, drawn="gg", scores=[{GREEN: 10}])
    new, events = place(state, 0, "gg", "F6", "F7")
    assert kinds(events) == ["Placed", "TileDrawn"]
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 8, 4, 18),)
    assert of(events, g.TileDrawn)[0].purpose == "solo"
    assert new.drawn is not None and g.piece_count(new) == 120
    state = pos(1, tiles=SOLO_SIX_GREEN, drawn="gg", scores=[{GREEN: 30}])
    _, events = place(state, 0, "gg", "F6", "F7")
    assert of(events, g.Placed)[0].points == (g.Points(GREEN, 12, 6, 6, 36),)
    assert not of(events, g.Genial)


def test_solo_game_ends_when_no_tile_fits_and_scores_the_lowest_colour():
    last = ((0, 0), (1, 0))
    tiles, _ = fill_board(5, set(last))
    state = pos(1, tiles=tiles, drawn="rr", scores=[[20, 9, 12, 30, 14, 22]])
    gain = g.placement_score(state, 0, "rr", *last)[RED]["gained"]
    new, events = g.apply(state, 0, g.Place(RED, RED, *last))
    assert events[-1].reason == "board_full"
    result = g.outcome(new)
    assert result.places == (1,) and result.scores[0][0] == 9
    assert new.drawn is None and g.piece_count(new) == 120
    assert gain >= 0


# ------------------------------------------------------------------ option bonus_from_rack

def test_bonus_from_rack_places_a_rack_tile_before_the_refill():
    opts = g.Options(bonus_from_rack=True)
    state = pos(2, options=opts, tiles=SIX_GREEN, racks=[["gg", "oo", "yy"], []],
                       scores=[{GREEN: 10}, {}])
    new, events = place(state, 0, "gg", "F6", "F7")
    assert kinds(events) == ["Placed", "Genial"]
    assert new.phase == "bonus" and new.drawn is None
    assert {(a.a, a.b) for a in g.legal_actions(new, 0)} == {(ORANGE, ORANGE), (YELLOW, YELLOW)}
    new, events = g.apply(new, 0, g.legal_actions(new, 0)[0])
    assert of(events, g.Placed)[0].bonus
    assert of(events, g.RackRefilled)[0].count == 5


def test_bonus_from_an_empty_rack_is_forfeited():
    opts = g.Options(bonus_from_rack=True)
    state = pos(2, options=opts, tiles=SIX_GREEN, racks=[["gg"], ["oo"]], scores=[{GREEN: 10}, {}])
    new, events = place(state, 0, "gg", "F6", "F7")
    assert kinds(events)[:3] == ["Placed", "Genial", "BonusForfeited"]
    assert of(events, g.BonusForfeited)[0] == g.BonusForfeited(0, 1, "rack_empty")
    assert new.current == 1


# ------------------------------------------------------------------ queries, codes, views, JSON

def test_placement_queries_do_not_change_the_state_and_match_legal_actions():
    state = g.setup(4, g.Options(), 8)
    chooser = random.Random(3)
    for _ in range(30):
        seat = g.current_player(state)
        state, _ = g.apply(state, seat, chooser.choice(g.legal_actions(state, seat)))
    seat = g.current_player(state)
    before = json.dumps(g.to_json(state))
    acts = set()
    for tile in state.racks[seat]:
        for a, b in g.legal_placements(state, seat, tile):
            acts.add(g.Place(g.COLOURS[tile[0]], g.COLOURS[tile[1]], a, b))
            g.placement_score(state, seat, tile, a, b)
    assert acts == set(g.legal_actions(state, seat))
    assert json.dumps(g.to_json(state)) == before


def test_action_codes():
    p = g.Place(RED, BLUE, (0, 0), (1, 0))
    assert g.encode_action(p) == "Prbhhih"
    assert g.decode_action("Prbhhih") == p
    assert g.Place(BLUE, RED, (1, 0), (0, 0)) == p  # normalised: same tile, same cells
    assert g.encode_action(g.Swap()) == "S" and g.decode_action("K") == g.Keep()
    for garbage in ("", "P", "Pxbhhih", "Prbhhihh", "Prbhhzh", "s", None, 7):
        with pytest.raises(InvalidAction):
            g.decode_action(garbage)
    with pytest.raises(InvalidAction):
        g.encode_action("Prbhhih")


def test_illegal_placements_raise_precise_errors():
    state = pos(2, tiles=[(1, "bb", "F5", "F4")], racks=[["rb"], ["yy"]])
    cases = [
        (g.Place(RED, BLUE, (0, 0), (2, 0)), "not_adjacent"),
        (g.Place(RED, BLUE, (-1, 0), (0, 0)), "occupied"),
        (g.Place(RED, BLUE, (0, 0), (0, 0)), "same_cell"),
        (g.Place(RED, BLUE, (0, 0), (6, 0)), "bad_cell"),
        (g.Place(RED, RED, (0, 0), (1, 0)), "no_tile"),
        (g.Place("pink", BLUE, (0, 0), (1, 0)), "not_tile"),
    ]
    for action, code in cases:
        with pytest.raises(g.MoveError) as err:
            g.apply(state, 0, action)
        assert err.value.code == code, action
    with pytest.raises(NotYourTurn):
        g.apply(state, 1, g.Place(YELLOW, YELLOW, (0, 0), (1, 0)))
    with pytest.raises(InvalidAction):
        g.apply(state, 0, "Prbhhih")


def test_parse_move():
    state = pos(2, tiles=[(1, "bb", "F5", "F4")], racks=[["rb", "oy", "gg"], ["yy"]])
    v = g.view(state, 0)
    assert g.parse_move("1 F6 F7", v) == g.Place(RED, BLUE, (0, 0), (1, 0))
    assert g.parse_move("1 f7-f6", v) == g.Place(BLUE, RED, (0, 0), (1, 0))
    assert g.parse_move("  2, F6, G6 ", v) == g.Place(ORANGE, YELLOW, (0, 0), (0, 1))
    assert g.parse_move("3 F 6 F 7", v) == g.Place(GREEN, GREEN, (0, 0), (1, 0))
    errors = {
        "9 F6 F7": "bad_tile_number", "0 F6 F7": "bad_tile_number", "F6 F7": "bad_tile_number",
        "1 F6 F8": "not_adjacent", "1 Z1 F7": "bad_cell", "1 F6 F6": "same_cell",
        "1 F5 F6": "occupied", "hello": "bad_text", "1 F6": "bad_text", "F6 1 F7": "bad_text",
        "": "bad_text",
    }
    for text, code in errors.items():
        with pytest.raises(g.MoveError) as err:
            g.parse_move(text, v)
        assert err.value.code == code, text
    bonus = pending_bonus(state, "pp")
    vb = g.view(bonus, 0)
    assert g.parse_move("F6 F7", vb) == g.Place(PURPLE, PURPLE, (0, 0), (1, 0))
    with pytest.raises(g.MoveError) as err:
        g.parse_move("1 F6 F7", vb)
    assert err.value.code == "no_tile"
    solo = pos(1, drawn="oy")
    assert g.parse_move("A2 B2", g.view(solo, 0)) == g.Place(ORANGE, YELLOW, (1, -5), (0, -4))


def test_views_hide_racks_and_show_the_public_table():
    state = g.setup(3, g.Options(), 9)
    seat = state.current
    state, events = g.apply(state, seat, g.legal_actions(state, seat)[0])
    pub = g.view(state)
    assert "rack" not in pub and "seat" not in pub
    text = json.dumps(pub) + json.dumps([event_dict(e) for e in events])
    for other in range(3):
        own = g.view(state, other)
        assert own["rack"] == [list(g.COLOURS[c] for c in t) for t in state.racks[other]]
        assert set(own) - set(pub) == {"seat", "rack", "swap_allowed", "first_tile_rule", "my_turn"}
        assert {k: v for k, v in own.items() if k in pub} == pub
    assert '"rack"' not in text
    assert pub["rack_sizes"] == [6, 6, 6] and pub["bag"] == 102 - 1
    assert pub["last"]["seat"] == seat and len(pub["tiles"]) == 1
    assert len([c for c in pub["cells"] if not c["printed"]]) == 2
    assert pub["current"] == (seat + 1) % 3 and pub["pending"] == "place"
    assert pub["first_round"] and seat not in pub["needs_first"]
    for h in pub["scores"]:
        assert set(h["values"]) == set(g.COLOURS) and h["lowest"]


def test_json_round_trip_and_validation():
    state = pos(2, tiles=SIX_GREEN, racks=[["gg"], []], scores=[{GREEN: 10}, {}])
    state, _ = place(state, 0, "gg", "F6", "F7")
    data = json.loads(json.dumps(g.to_json(state)))
    assert data["v"] == 1 and data["phase"] == "bonus"
    assert g.to_json(g.from_json(data)) == data
    bad = []
    for key, value in [("v", 2), ("players", 5), ("phase", "dance"), ("drawn", None), ("current", 7),
                       ("bag", [0] * 21), ("scores", [[0] * 6]), ("started", [True]),
                       ("racks", [["zz"], []])]:
        broken = json.loads(json.dumps(data))
        broken[key] = value
        bad.append(broken)
    overlap = json.loads(json.dumps(data))
    overlap["tiles"].append(list(overlap["tiles"][0]))
    bad += [overlap, None, [], {"v": 1}]
    for broken in bad:
        with pytest.raises(InvalidAction):
            g.from_json(broken)


def test_placement_score_matches_an_independent_count():
    """Random mid-game positions: every legal placement's raw points equal a naive recount."""
    dirs = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = g.setup(players, g.Options(), seed)
        chooser = random.Random(seed)
        for _ in range(12 * players):
            seat = g.current_player(state)
            state, _ = g.apply(state, seat, chooser.choice(g.legal_actions(state, seat)))
        seat = g.current_player(state)
        v = g.view(state)
        board_cells = {tuple(c["cell"]): c["colour"] for c in v["cells"]}
        R = v["radius"]
        for action in g.legal_actions(state, seat):
            counts = {}
            for here, partner, colour in ((action.cell_a, action.cell_b, action.a),
                                          (action.cell_b, action.cell_a, action.b)):
                for dq, dr in dirs:
                    if (here[0] + dq, here[1] + dr) == partner:
                        continue
                    k = 1
                    while board_cells.get((here[0] + k * dq, here[1] + k * dr)) == colour:
                        k += 1
                    counts[colour] = counts.get(colour, 0) + k - 1
            got = g.placement_score(state, seat, (action.a, action.b), action.cell_a, action.cell_b)
            assert {c: x["raw"] for c, x in got.items()} == counts
            assert all(max(abs(q), abs(r), abs(q + r)) <= R for q, r in (action.cell_a, action.cell_b))


def greedy_playout(players, options, seed):
    """Greedy play (weighted by how low each colour is): reaches 18s, bonuses and swaps."""
    state = g.setup(players, options, seed)
    chooser = random.Random(seed)
    seen = set()
    steps = 0
    while (seat := g.current_player(state)) is not None:
        acts = g.legal_actions(state, seat)
        if isinstance(acts[0], g.Place):
            vals = state.scores[state.holder(seat)]
            def value(a):
                sc = g.placement_score(state, seat, (a.a, a.b), a.cell_a, a.cell_b)
                return sum(x["gained"] * (40 - vals[g.COLOURS.index(c)]) for c, x in sc.items())
            action = max(acts, key=lambda a: (value(a), chooser.random()))
        else:
            action = chooser.choice(acts)
        new, events = g.apply(state, seat, action)
        assert g.piece_count(new) == 120
        for e in events:
            json.dumps(event_dict(e))
            seen.add(type(e).__name__)
        if steps % 7 == 0:
            assert g.to_json(g.from_json(json.loads(json.dumps(g.to_json(new))))) == g.to_json(new)
            for who in [None, *range(players)]:
                json.dumps(g.view(new, who))
        state = new
        steps += 1
    return state, seen


@pytest.mark.parametrize("players,options", [
    (2, g.Options()), (3, g.Options()), (4, g.Options(bonus_from_rack=True)),
    (4, g.Options(team=True)), (1, g.Options()),
])
def test_greedy_playouts_reach_bonuses_and_conserve_tiles(players, options):
    seen = set()
    for seed in range(2 if players < 4 else 1):
        final, kinds_seen = greedy_playout(players, options, seed)
        seen |= kinds_seen
        assert g.outcome(final) is not None
    if players > 1:
        assert {"Placed", "Genial", "SwapOffered", "GameEnded"} <= seen
    else:
        assert {"Placed", "TileDrawn", "GameEnded"} <= seen


@pytest.mark.parametrize("players,seed", [(1, 5), (2, 3), (3, 8), (4, 1)])
def test_scored_placements_are_every_legal_placement_with_its_score(players, seed):
    """The one-pass listing the bot pages through is exactly legal_placements, each with what
    placement_score says it earns, at every turn of a game played at random."""
    rng = random.Random(seed)
    state = g.setup(players, seed=seed)
    for _ in range(40):
        seat = g.current_player(state)
        if seat is None:
            break
        tiles = [state.drawn] if state.drawn is not None else list(dict.fromkeys(state.racks[seat]))
        for tile in tiles:
            names = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
            expected = [(a, b, g.placement_score(state, seat, names, a, b))
                        for a, b in g.legal_placements(state, seat, names)]
            assert g.scored_placements(state, seat, names) == expected
        state, _ = g.apply(state, seat, rng.choice(g.legal_actions(state, seat)))
