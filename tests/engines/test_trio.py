"""Scenario tests for engines/trio.py (seed 004, docs/rules.md "trio")."""
from __future__ import annotations

import json
import random

import pytest

from engines import trio
from engines.base import GameOver, InvalidAction, NotYourTurn, event_dict
from engines.trio import Draw, Lay, State, TILES, tile_id


def T(a: str, b: str) -> int:
    return tile_id(a, b)


def build(board, hands, die="star", pool=None, strict=False, current=0, passes=0) -> State:
    """A position: board = [(sym_a, sym_b, cell_a, cell_b), ...] (first is the start tile)."""
    entries = []
    used = set()
    for i, (sa, sb, a, b) in enumerate(board):
        lay = Lay((sa, sb), a, b)
        assert lay.tile not in used
        used.add(lay.tile)
        entries.append((lay.tile, *lay.cell_a, *lay.cell_b, -1 if i == 0 else 0))
    hands = tuple(tuple(h) for h in hands)
    for h in hands:
        assert not used & set(h)
        used |= set(h)
    if pool is None:
        pool = tuple(t for t in range(36) if t not in used)
    return State(players=len(hands), options=trio.Options(strict_lines=strict), seed=1, counter=5,
                 pool=tuple(pool), hands=hands, board=tuple(entries), current=current, die=die,
                 passes=passes, turn=0, over=None)


def legal(state: State, sa: str, sb: str, a, b) -> bool:
    lay = Lay((sa, sb), a, b)
    return (lay.cell_a, lay.cell_b) in trio._placements_of(state, lay.tile)


# ----------------------------------------------------------------- sets

@pytest.mark.parametrize("syms,kind", [
    (("red-hexagon", "blue-circle", "yellow-star"), "all_different"),
    (("red-star", "blue-star", "yellow-star"), "same_shape"),
    (("blue-hexagon", "blue-circle", "blue-star"), "same_colour"),
    (("yellow-circle", "red-hexagon", "blue-star"), "all_different"),
])
def test_every_kind_of_set(syms, kind):
    assert trio.is_set(syms)
    assert trio.set_kind(syms) == kind
    assert trio.set_kind(syms[::-1]) == kind


@pytest.mark.parametrize("syms", [
    ("red-hexagon", "red-circle", "blue-star"),     # two colours alike
    ("red-hexagon", "blue-hexagon", "yellow-circle"),  # two shapes alike
    ("red-hexagon", "red-hexagon", "blue-circle"),  # two identical
    ("red-star", "red-star", "red-star"),           # three identical
    ("red-star", "blue-star"),                      # two symbols
    ("red-star", "blue-star", "yellow-star", "red-circle"),  # four
])
def test_non_sets(syms):
    assert not trio.is_set(syms)
    assert trio.set_kind(syms) is None


def test_symbols_and_tiles():
    assert len(trio.SYMBOLS) == 9 and len(set(trio.SYMBOLS)) == 9
    assert len(TILES) == 36 and len(set(TILES)) == 36
    assert all(a < b for a, b in TILES)
    # every symbol is on 8 tiles
    for s in range(9):
        assert sum(s in t for t in TILES) == 8
    assert trio.tile_symbols(T("yellow-star", "red-circle")) == ("red-circle", "yellow-star")
    assert T("ys", "rc") == T("red-circle", "yellow-star") == T(8, 1)
    with pytest.raises(InvalidAction):
        T("red-star", "red-star")
    with pytest.raises(InvalidAction):
        T("green-star", "red-star")


# ----------------------------------------------------------------- runs on the board

def row_board():
    # row y=0: red-hexagon, blue-circle ; the pair completes with yellow-star at (2,0)
    return [("red-hexagon", "blue-circle", (0, 0), (1, 0))]


def test_completing_a_row_set_is_legal_and_reports_the_set():
    s = build(row_board(), [[T("yellow-star", "blue-hexagon")], [T("red-star", "red-circle")]],
              die="circle")
    assert legal(s, "yellow-star", "blue-hexagon", (2, 0), (2, 1))
    lay = Lay(("yellow-star", "blue-hexagon"), (2, 0), (2, 1))
    new, events = trio.apply(s, 0, lay)
    laid = events[0]
    assert isinstance(laid, trio.Laid)
    assert laid.sets == (("red-hexagon", "blue-circle", "yellow-star"),)
    assert laid.cells == ((2, 1), (2, 0)) and laid.symbols == ("blue-hexagon", "yellow-star")
    assert laid.set_cells == (((0, 0), (1, 0), (2, 0)),)
    assert trio.view(new, None)["last"]["sets"] == [[[0, 0], [1, 0], [2, 0]]]


def test_two_alike_run_is_illegal():
    s = build(row_board(), [[T("red-star", "blue-hexagon")], [T("red-circle", "yellow-hexagon")]],
              die="circle")
    # red-hexagon, blue-circle, red-star: colours R B R
    assert not legal(s, "red-star", "blue-hexagon", (2, 0), (2, 1))
    assert trio.check_lay(s, T("red-star", "blue-hexagon"), (2, 1), (2, 0)) == ["bad_run", "no_set"]


def test_three_identical_run_is_illegal():
    board = [("red-star", "blue-hexagon", (0, 0), (0, 1)),
             ("red-star", "yellow-circle", (1, 0), (1, 1))]
    # laying a third red-star at (2,0) makes red-star x3 in row 0
    s = build(board, [[T("red-star", "blue-circle")], [T("yellow-star", "blue-star")]], die="star")
    assert "bad_run" in trio.check_lay(s, T("red-star", "blue-circle"), (2, 0), (2, -1))
    assert all((2, 0) not in p for p in trio._placements_of(s, T("red-star", "blue-circle")))
    # a blue-star there makes red-star, red-star, blue-star: two alike, also refused
    assert "bad_run" in trio.check_lay(s, T("blue-star", "blue-circle"), (2, 0), (2, -1))


def test_run_of_two_alone_forms_no_set():
    s = build([("red-hexagon", "blue-circle", (0, 0), (1, 0))],
              [[T("yellow-star", "blue-star")], [T("red-star", "red-circle")]], die="red")
    # below the start tile, vertical pairs of length 2 only
    assert trio.check_lay(s, T("yellow-star", "blue-star"), (0, 1), (1, 1)) == ["no_set"]
    assert not legal(s, "yellow-star", "blue-star", (0, 1), (1, 1))


def test_run_of_four_alone_forms_no_set_but_is_allowed_inside_a_legal_lay():
    # row y=0: red-hexagon blue-circle yellow-star (already a set); extend to four
    board = [("red-hexagon", "blue-circle", (0, 0), (1, 0)),
             ("yellow-star", "blue-hexagon", (2, 0), (2, -1))]
    s = build(board, [[T("red-circle", "blue-star")], [T("yellow-circle", "red-star")]], die="star")
    # red-circle at (3,0) -> run of 4 in row 0; blue-star at (4,0) -> run of 5. No set.
    assert trio.check_lay(s, T("red-circle", "blue-star"), (3, 0), (4, 0)) == ["no_set"]
    # red-circle at (3,0), blue-star at (3,1): row of 4 and a lone pair: still no set
    assert trio.check_lay(s, T("red-circle", "blue-star"), (3, 0), (3, 1)) == ["no_set"]


def strict_board():
    return [("blue-hexagon", "blue-circle", (0, 0), (1, 0)),
            ("blue-star", "yellow-hexagon", (2, 0), (2, 1)),
            ("red-circle", "yellow-circle", (1, 1), (1, 2))]


@pytest.mark.parametrize("strict", [False, True])
def test_strict_lines(strict):
    hand = [T("yellow-star", "blue-star"), T("red-hexagon", "red-star")]
    s = build(strict_board(), [hand, [T("yellow-star", "red-circle")]], die="star", strict=strict)
    lay = Lay(("yellow-star", "blue-star"), (3, 0), (3, 1))
    # row 0 becomes four long; row 1 red-circle yellow-hexagon blue-star and the anti-diagonal
    # yellow-circle yellow-hexagon yellow-star are sets
    if strict:
        assert lay not in trio.legal_actions(s, 0)
        assert "long_run" in trio.check_lay(s, lay.tile, lay.cell_a, lay.cell_b)
        with pytest.raises(InvalidAction):
            trio.apply(s, 0, lay)
    else:
        assert lay in trio.legal_actions(s, 0)
        _, events = trio.apply(s, 0, lay)
        assert sorted(events[0].sets) == sorted([
            ("red-circle", "yellow-hexagon", "blue-star"),
            ("yellow-circle", "yellow-hexagon", "yellow-star"),
        ])


# ----------------------------------------------------------------- seed figures

def figure2_board():
    return [("blue-star", "yellow-circle", (0, 0), (-1, 0)),
            ("red-hexagon", "blue-circle", (2, 1), (2, 0))]


FIG2_LAY = ("yellow-hexagon", "blue-hexagon", (0, 1), (1, 1))


@pytest.mark.parametrize("face,ok", [
    ("star", True),      # (0,1) touches the blue star above it
    ("blue", True),      # the same blue star
    ("hexagon", True),   # (1,1) touches the red hexagon at (2,1)
    ("red", True),       # the same red hexagon
    ("yellow", False),   # the yellow circle at (-1,0) only touches diagonally
    ("circle", False),   # no circle next to the new tile by an edge
])
def test_figure2_matched_symbol_need_not_be_in_the_set_and_each_die_face(face, ok):
    hand = [T("yellow-hexagon", "blue-hexagon")]
    s = build(figure2_board(), [hand, [T("red-star", "red-circle")]], die=face)
    assert legal(s, *FIG2_LAY) is ok
    lay = Lay(FIG2_LAY[:2], *FIG2_LAY[2:])
    if ok:
        _, events = trio.apply(s, 0, lay)
        # the one set is the row of hexagons, without the star the die asked for
        assert events[0].sets == (("yellow-hexagon", "blue-hexagon", "red-hexagon"),)
        assert all("star" not in sym for st in events[0].sets for sym in st)
    else:
        assert trio.check_lay(s, lay.tile, lay.cell_a, lay.cell_b) == ["no_touch"]
        with pytest.raises(InvalidAction):
            trio.apply(s, 0, lay)


def figure3_board():
    return [("yellow-hexagon", "blue-circle", (0, 0), (-1, 0)),
            ("yellow-circle", "red-star", (1, 1), (1, 0)),
            ("red-circle", "blue-hexagon", (4, 2), (4, 3))]


def test_figure3_two_yellows_in_line_with_a_red_circle_is_illegal():
    tile = T("yellow-star", "yellow-hexagon")
    s = build(figure3_board(), [[tile], [T("red-star", "blue-star")]], die="circle")
    # yellow-star on (2,2) finishes the yellow diagonal, but yellow-hexagon on (3,2) lines up
    # yellow-star, yellow-hexagon, red-circle in row 2
    bad = Lay(("yellow-star", "yellow-hexagon"), (2, 2), (3, 2))
    assert trio.check_lay(s, bad.tile, bad.cell_a, bad.cell_b) == ["bad_run"]
    assert bad not in trio.legal_actions(s, 0)
    with pytest.raises(InvalidAction):
        trio.apply(s, 0, bad)
    good = Lay(("yellow-star", "yellow-hexagon"), (2, 2), (2, 1))
    assert good in trio.legal_actions(s, 0)
    _, events = trio.apply(s, 0, good)
    assert events[0].sets == (("yellow-hexagon", "yellow-circle", "yellow-star"),)


def test_touch_must_be_by_an_edge_with_an_existing_symbol():
    s = build(figure2_board(), [[T("yellow-hexagon", "blue-hexagon")], [T("red-star", "red-circle")]],
              die="yellow")
    assert all(not legal(s, "yellow-hexagon", "blue-hexagon", a, b)
               for a, b in [((0, 1), (1, 1)), ((1, 1), (0, 1))])
    # the new tile's own yellow does not count
    assert trio.check_lay(s, T("yellow-hexagon", "blue-hexagon"), (0, 1), (1, 1))[0] == "no_touch"


def test_occupied_and_non_adjacent_cells_are_refused():
    s = build(row_board(), [[T("yellow-star", "blue-hexagon")], [T("red-star", "red-circle")]])
    for lay in [Lay(T("yellow-star", "blue-hexagon"), (1, 0), (2, 0)),
                Lay(T("yellow-star", "blue-hexagon"), (2, 0), (4, 0)),
                Lay(T("red-star", "red-circle"), (2, 0), (3, 0))]:  # not in hand
        with pytest.raises(InvalidAction):
            trio.apply(s, 0, lay)


# ----------------------------------------------------------------- draw, win, stalemate

def stuck_hands():
    # no tile here completes a set with red-hexagon/red-circle, none is red-star
    return [[T("blue-hexagon", "blue-circle"), T("yellow-hexagon", "yellow-circle")],
            [T("blue-hexagon", "yellow-circle"), T("blue-circle", "yellow-hexagon"),
             T("blue-hexagon", "blue-star")]]


def stuck_board():
    return [("red-hexagon", "red-circle", (0, 0), (1, 0))]


@pytest.mark.parametrize("face", trio.DIE_FACES)
def test_forced_draw(face):
    s = build(stuck_board(), stuck_hands(), die=face)
    assert trio.must_draw(s)
    assert trio.legal_actions(s, 0) == [Draw()]
    assert trio.playable_tiles(s, 0) == []
    pool_before = len(s.pool)
    new, events = trio.apply(s, 0, Draw())
    assert len(new.hands[0]) == 3 and new.hands[0][:2] == s.hands[0]
    assert len(new.pool) == pool_before - 1
    assert isinstance(events[0], trio.Drew) and events[0].drew and events[0].pool == pool_before - 1
    assert new.passes == 0 and new.current == 1
    assert [type(e).__name__ for e in events] == ["Drew", "TurnPassed", "Rolled"]
    assert events[2].seat == 1 and events[2].face == new.die
    # the drawn tile is never in an event
    assert all("tile" not in event_dict(e) for e in events)


def test_draw_is_refused_when_a_tile_can_be_laid():
    s = build(row_board(), [[T("yellow-star", "blue-hexagon")], [T("red-star", "red-circle")]],
              die="circle")
    assert not trio.must_draw(s)
    assert Draw() not in trio.legal_actions(s, 0)
    with pytest.raises(InvalidAction):
        trio.apply(s, 0, Draw())


def test_stalemate_fewest_tiles_wins():
    s = build(stuck_board(), stuck_hands(), die="red", pool=())
    s, ev = trio.apply(s, 0, Draw())
    assert ev[0] == trio.Drew(0, False, 0, 1) and s.passes == 1
    assert trio.current_player(s) == 1
    # whatever the die, seat 1 is stuck too
    assert trio.legal_actions(s, 1) == [Draw()]
    s, ev = trio.apply(s, 1, Draw())
    assert isinstance(ev[-1], trio.StalemateEnd)
    assert ev[-1].hand_sizes == (2, 3) and ev[-1].places == (1, 2) and ev[-1].winners == (0,)
    assert trio.current_player(s) is None
    res = trio.outcome(s)
    assert res.places == (1, 2) and res.reason == "stalemate" and res.winners == (0,)
    assert trio.legal_actions(s, 0) == []
    with pytest.raises(GameOver):
        trio.apply(s, 0, Draw())
    # all hands revealed after the end
    pub = trio.view(s, None)
    assert pub["hands"] == [list(h) for h in s.hands]


def test_stalemate_ties_share_the_place():
    hands = stuck_hands()
    hands[1] = hands[1][:2]
    s = build(stuck_board(), hands, die="blue", pool=())
    s, _ = trio.apply(s, 0, Draw())
    s, ev = trio.apply(s, 1, Draw())
    assert ev[-1].places == (1, 1) and ev[-1].winners == (0, 1)


def test_a_drawn_tile_resets_the_passes():
    # passes only count empty-pool draws in a row
    hands = stuck_hands()
    s = build(stuck_board(), hands, die="red", pool=(T("blue-star", "yellow-star"),), passes=1,
              current=1)
    s, ev = trio.apply(s, 1, Draw())
    assert ev[0].drew and s.passes == 0 and not s.over


def test_laying_the_last_tile_wins():
    s = build(row_board(), [[T("yellow-star", "blue-hexagon")], [T("red-star", "red-circle"),
                                                                 T("blue-star", "yellow-hexagon")]],
              die="circle")
    s, events = trio.apply(s, 0, Lay(("yellow-star", "blue-hexagon"), (2, 0), (2, 1)))
    assert [type(e).__name__ for e in events] == ["Laid", "Won"]
    assert events[1].seat == 0 and events[1].places == (1, 2) and events[1].hand_sizes == (0, 2)
    assert trio.outcome(s).reason == "empty_hand" and trio.outcome(s).winners == (0,)
    assert trio.current_player(s) is None


# ----------------------------------------------------------------- flow, codes, views

def test_setup_deals_and_rolls():
    for n in (2, 3, 4):
        s = trio.setup(n, trio.Options(), 42)
        assert [len(h) for h in s.hands] == [5] * n
        assert len(s.board) == 1 and len(s.pool) == 36 - 5 * n - 1
        assert trio.piece_count(s) == 36
        assert s.die in trio.DIE_FACES and s.current == 0
        assert trio.to_json(trio.setup(n, None, 42)) == trio.to_json(s)
    faces = {trio.setup(2, None, seed).die for seed in range(60)}
    assert faces == set(trio.DIE_FACES)
    with pytest.raises(InvalidAction):
        trio.setup(5, None, 0)


def test_every_turn_rolls_the_die_from_the_seeded_generator():
    s = trio.setup(3, None, 7)
    rng = random.Random(3)
    seen = []
    for _ in range(12):
        if s.over:
            break
        seat = s.current
        s, events = trio.apply(s, seat, rng.choice(trio.legal_actions(s, seat)))
        rolled = [e for e in events if isinstance(e, trio.Rolled)]
        if not s.over:
            assert len(rolled) == 1 and rolled[0].seat == s.current == (seat + 1) % 3
            assert rolled[0].face == s.die
            seen.append(s.die)
    assert len(seen) >= 5


def test_action_codes():
    for lay in [Lay(5, (-3, 4), (-2, 4)), Lay(35, (0, 0), (0, -1)), Lay(0, (-120, -7), (-120, -6)),
                Lay(17, (9, 9), (8, 9))]:
        code = trio.encode_action(lay)
        assert len(code) <= 40 and ":" not in code and code.isascii()
        assert trio.decode_action(code) == lay
    assert trio.encode_action(Lay(12, (-3, 4), (-2, 4))) == "L12r-3,4"
    assert trio.decode_action("D") == Draw()
    for bad in ["", "L", "L36r0,0", "L1x0,0", "L1r0", "Lar0,0", "d", "L1r0,0,", None]:
        with pytest.raises(InvalidAction):
            trio.decode_action(bad)
    with pytest.raises(InvalidAction):
        trio.encode_action("D")
    with pytest.raises(InvalidAction):
        trio.apply(trio.setup(2, None, 0), 0, "D")
    # symbols given in either order are normalised
    assert Lay(("yellow-star", "red-circle"), (0, 1), (0, 2)) == Lay(T("rc", "ys"), (0, 2), (0, 1))
    with pytest.raises(InvalidAction):
        Lay(36, (0, 0), (1, 0))
    with pytest.raises(InvalidAction):
        Lay(3, (0, 0), (1, 0, 2))


def test_not_your_turn():
    s = trio.setup(2, None, 3)
    action = trio.legal_actions(s, 0)[0]
    with pytest.raises(NotYourTurn):
        trio.apply(s, 1, action)
    assert trio.legal_placements(s, 1, s.hands[1][0]) == []
    assert trio.playable_tiles(s, 1) == []


def test_views_hide_hands_and_show_the_board():
    s = trio.setup(3, None, 11)
    rng = random.Random(1)
    for _ in range(5):
        s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
    pub = trio.view(s, None)
    text = json.dumps(pub)
    assert "hand" not in {k for k in pub if k != "hand_sizes"}
    assert pub["hand_sizes"] == [len(h) for h in s.hands]
    assert pub["pool"] == len(s.pool) and pub["die"] == s.die and pub["current"] == s.current
    assert len(pub["cells"]) == 2 * len(s.board) == 2 * len(pub["tiles"])
    assert {k: v for k, v in pub["last"].items() if k != "sets"} == pub["tiles"][-1]
    assert pub["last"]["seat"] is not None and pub["last"]["sets"]
    for run in pub["last"]["sets"]:
        assert len(run) == 3 and trio.is_set([s.grid[tuple(c)] for c in run])
    assert pub["tiles"][0]["seat"] is None
    for x, y, sym in pub["cells"]:
        assert trio.SYMBOLS[s.grid[(x, y)]] == sym
    x0, y0, x1, y1 = pub["bounds"]
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y, _ in pub["cells"])
    for seat in range(3):
        mine = trio.view(s, seat)
        assert mine["hand"] == list(s.hands[seat])
        assert mine["hand_symbols"] == [list(trio.tile_symbols(t)) for t in s.hands[seat]]
        others = [t for i, h in enumerate(s.hands) if i != seat for t in h]
        assert not set(others) & set(mine["hand"])
        assert "hands" not in mine
        if seat == s.current:
            assert mine["must_draw"] == trio.must_draw(s)
            assert mine["playable"] == trio.playable_tiles(s, seat)
    json.dumps(trio.view(s, 0))
    assert "must_draw" not in text


def test_fresh_view_has_no_last_tile():
    pub = trio.view(trio.setup(2, None, 0), None)
    assert pub["last"] is None and len(pub["tiles"]) == 1 and pub["bounds"] == [0, 0, 1, 0]


def test_from_json_rejects_garbage():
    good = trio.to_json(trio.setup(2, None, 5))
    assert trio.to_json(trio.from_json(json.loads(json.dumps(good)))) == good
    bad_cases = []
    for key, value in [("pool", [0, 0]), ("die", "green"), ("players", 7), ("current", 5),
                       ("board", []), ("hands", [[1]]), ("over", "maybe"), ("seed", "x")]:
        d = dict(good)
        d[key] = value
        bad_cases.append(d)
    d = dict(good)
    del d["pool"]
    bad_cases.append(d)
    d = json.loads(json.dumps(good))
    d["board"][0][3] = 5  # cells not adjacent
    bad_cases.append(d)
    for history in (["x"], [[0, "green", 1, False]], [[0, "red", 9, False]], [[5, "red", 1, True]],
                    [[0, "red", 1, 1]], "x"):
        bad_cases.append(dict(good, history=history))
    for case in bad_cases + [None, [], {"v": 2}]:
        with pytest.raises(InvalidAction):
            trio.from_json(case)


def test_history_is_every_turn_as_the_events_tell_it():
    """The public history: per turn the seat, the face it rolled, the tiles on the board at the
    roll and whether it laid, exactly what the Rolled, Laid and Drew events narrate."""
    for players in (2, 3, 4):
        s = trio.setup(players, None, players)
        rng = random.Random(players)
        told, face, draws = [], s.die, 0
        while not s.over:
            seat, tiles = s.current, len(s.board)
            s, events = trio.apply(s, seat, rng.choice(trio.legal_actions(s, seat)))
            laid = any(isinstance(e, trio.Laid) for e in events)
            draws += not laid
            told.append({"seat": seat, "face": face, "tiles": tiles, "laid": laid})
            face = next((e.face for e in events if isinstance(e, trio.Rolled)), None)
            assert trio.view(s, None)["history"] == told
            assert trio.view(s, seat)["history"] == told
        assert draws > 0
        assert trio.to_json(trio.from_json(json.loads(json.dumps(trio.to_json(s))))) == trio.to_json(s)


def test_a_state_saved_before_the_history_still_loads_and_plays():
    s = trio.setup(2, None, 8)
    rng = random.Random(8)
    for _ in range(6):
        s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
    old = trio.to_json(s)
    del old["history"]
    loaded = trio.from_json(old)
    assert loaded.history == () and trio.view(loaded, 0)["history"] == []
    after, _ = trio.apply(loaded, loaded.current, trio.legal_actions(loaded, loaded.current)[0])
    assert len(after.history) == 1 and after.history[0][:3] == (s.current, s.die, len(s.board))


# ----------------------------------------------------------------- the fast query agrees

def _brute(state: State, tile: int):
    grid = state.grid
    near = set()
    for (x, y) in grid:
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                if (x + dx, y + dy) not in grid:
                    near.add((x + dx, y + dy))
    out = set()
    for a in near:
        for d in trio.ORTHO:
            b = (a[0] + d[0], a[1] + d[1])
            if b in grid:
                continue
            if not trio.check_lay(state, tile, a, b):
                out.add((a, b))
    return out


@pytest.mark.parametrize("strict", [False, True])
def test_fast_placements_match_the_rule_by_rule_check(strict):
    rng = random.Random(99 + strict)
    checked = 0
    for seed in range(6):
        s = trio.setup(2 + seed % 3, trio.Options(strict_lines=strict), seed)
        while not s.over:
            if rng.random() < 0.3:
                for tile in rng.sample(range(36), 4):
                    fast = trio._placements_of(s, tile)
                    assert len(fast) == len(set(fast))
                    assert set(fast) == _brute(s, tile)
                    checked += 1
            s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
    assert checked > 20


def test_placement_order_is_deterministic_and_by_position():
    s = trio.setup(2, None, 4)
    for tile in s.hands[0]:
        places = trio.legal_placements(s, 0, tile)
        keys = [(a[1] + b[1], a[0] + b[0]) for a, b in places]
        assert keys == sorted(keys)
        assert places == trio.legal_placements(trio.from_json(trio.to_json(s)), 0, tile)
        for a, b in places:
            assert Lay(tile, a, b) in trio.legal_actions(s, 0)
    total = sum(len(trio.legal_placements(s, 0, t)) for t in s.hands[0])
    assert total == len(trio.legal_actions(s, 0)) or trio.legal_actions(s, 0) == [Draw()]


def test_playouts_conserve_tiles_and_end_both_ways():
    reasons = set()
    for strict in (False, True):
        for seed in range(25):
            s = trio.setup(2 + seed % 3, trio.Options(strict_lines=strict), seed)
            rng = random.Random(seed)
            for _ in range(400):
                if s.over:
                    break
                assert trio.piece_count(s) == 36
                s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
            assert s.over
            reasons.add(trio.outcome(s).reason)
    assert reasons == {"empty_hand", "stalemate"}


def test_info():
    assert trio.INFO.id == "trio" and trio.INFO.hidden_info  # its Russian name: tests/bot/test_wording.py
    assert "sets" in trio.INFO.aliases
    assert trio.INFO.default_options() == {"strict_lines": False, "series": 0}
    assert (trio.INFO.min_players, trio.INFO.max_players) == (2, 4)
