"""Render tests for render/genial.py: sizes, a few pixels, highlighting (never byte-exact)."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engines import genial as g
from render import genial as rg
from render.common import COLOURS, HIGHLIGHT, LEGIBLE_PX, PHONE_WIDTH, contrast, encode_png
from tests.render.words import words

NAMES = ["Маша", "Alexander the Great of Macedon", "kate 🎲🎲", "Игорь"]


def play(players, seed, steps, options=None):
    s = g.setup(players, options or g.Options(), seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        seat = g.current_player(s)
        if seat is None:
            break
        s, _ = g.apply(s, seat, chooser.choice(g.legal_actions(s, seat)))
    return s


def centre(view, cell):
    return rg._table_grid(view["radius"]).centre(*cell)


def pixel(image, xy):
    return image.getpixel((int(round(xy[0])), int(round(xy[1]))))


@pytest.mark.parametrize("players,options", [(1, None), (2, None), (3, None), (4, None),
                                             (4, g.Options(team=True))])
@pytest.mark.parametrize("steps", [0, 25, 9999])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_table_sizes(players, options, steps, lang):
    view = g.view(play(players, players, steps, options))
    image = rg.table(view, words=words("genial", lang), names=NAMES[:players])
    assert image.mode == "RGB" and image.width == 1080
    assert max(image.size) <= 1280
    png = encode_png(image)
    assert Image.open(io.BytesIO(png)).size == image.size


def test_printed_symbols_and_tiles_are_drawn_in_their_colours():
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]])
    view = g.view(state)
    image = rg.table(view, words=words("genial", "ru"), names=NAMES[:2])
    s = rg._table_grid(5).s
    for p in view["printed"]:
        x, y = centre(view, p["cell"])
        box = image.crop((int(x - s * 0.4), int(y - s * 0.4), int(x + s * 0.4), int(y + s * 0.4)))
        hits = sum(n for n, c in box.getcolors(10000) if c == COLOURS[p["colour"]])
        assert hits > box.width * box.height * 0.2, p
    # a tile: dark body near the edge of the hex, its symbols' colours inside
    cx, cy = centre(view, (0, 0))
    assert pixel(image, (cx, cy - s * 0.8)) in (rg.TILE, HIGHLIGHT)
    assert pixel(image, (cx, cy - s * 0.4)) == COLOURS["blue"]  # the ring of blue
    assert pixel(image, centre(view, (1, 0))) == COLOURS["purple"]
    # the bridge between the halves is tile-coloured: no gap inside a tile
    mx = (cx + centre(view, (1, 0))[0]) / 2
    assert pixel(image, (mx, cy)) == rg.TILE
    # an empty cell is light
    assert pixel(image, centre(view, (-2, 2)))[0] > 200


def test_last_turn_is_rimmed_and_highlight_changes_pixels():
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]])
    view = g.view(state)
    assert view["recent"] == [0]
    image = rg.table(view, words=words("genial", "en"), names=NAMES[:2])
    cx, cy = centre(view, (0, 0))
    s = rg._table_grid(5).s
    assert pixel(image, (cx, cy - s + 1)) == HIGHLIGHT
    plain = rg.table({**view, "recent": []}, words=words("genial", "en"), names=NAMES[:2])
    assert pixel(plain, (cx, cy - s + 1)) != HIGHLIGHT
    marked = rg.table(view, words=words("genial", "en"), names=NAMES[:2], highlight=[(-3, 2)])
    assert ImageChops.difference(image, marked).getbbox() is not None


def test_last_move_rim_is_thick_and_stands_out_at_400_px():
    """The last move's rim, across its edge, is at least 3 px at 400 px wide and holds a colour
    that stands out (3:1, WCAG for marks) from the light board and cells, and one that stands
    out from the dark tiles around it (the old yellow rim was 1.6 px and 1.3:1 on the board)."""
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]])
    view = g.view(state)
    image = rg.table(view, words=words("genial", "en"), names=NAMES[:2])
    plain = rg.table({**view, "recent": []}, words=words("genial", "en"), names=NAMES[:2])
    cx, cy = centre(view, (0, 0))
    s = rg._table_grid(5).s
    # leftwards from the first half's centre: across its left edge, away from the second half
    ray = [(cx - t, cy) for t in range(int(s * 0.5), int(s * 1.4))]
    rim = [pixel(image, p) for p in ray if pixel(image, p) != pixel(plain, p)]
    assert len(rim) * PHONE_WIDTH / image.width >= 3, f"{len(rim)} px on {image.width} px"
    for around in (rg.BOARD_BG, rg.EMPTY, rg.TILE):
        assert max(contrast(c, around) for c in rim) >= 3, around


def test_current_player_and_lowest_colour_are_marked():
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]], current=1,
                       scores=[[3, 5, 5, 5, 5, 5], [0, 0, 0, 0, 0, 0]])
    view = g.view(state)
    image = rg.table(view, words=words("genial", "ru"), names=NAMES[:2])
    top = rg.BOARD_TOP + rg.BOARD_H + 6
    # seat 1's panel (right) has the turn colour, seat 0's does not
    assert pixel(image, (1080 - 40, top + 8)) == rg.TURN_BG
    assert pixel(image, (40, top + 8)) == rg.PANEL
    # seat 0's red (lowest) cell is tinted; all six tied (seat 1) are not marked
    assert pixel(image, (12 + 12, top + 60)) == rg.LOW_BG
    assert pixel(image, (1080 // 2 + 20, top + 60)) != rg.LOW_BG


def test_rack_numbers_tiles_and_grows_with_them():
    six = rg.rack([["red", "blue"], ["green", "green"], ["yellow", "purple"], ["orange", "red"],
                   ["blue", "blue"], ["purple", "yellow"]])
    one = rg.rack([["red", "blue"]])
    empty = rg.rack([])
    assert six.width > one.width and max(six.size) <= 1280
    assert empty.size[0] > 0
    colours = {six.getpixel((x, y)) for x in range(0, six.width, 3) for y in range(0, six.height, 3)}
    for c in ("red", "blue", "green", "yellow", "purple", "orange"):
        assert COLOURS[c] in colours


def test_preview_shows_the_ghost_tile_and_the_points():
    state = g.position(2, tiles=[(0, "bb", (-1, 0), (-2, 0)), (0, "bg", (1, -1), (2, -2))],
                       racks=[["bb"], ["gg"]])
    view = g.view(state, 0)
    pts = g.placement_score(state, 0, "bb", (0, 0), (1, 0))
    assert pts["blue"]["gained"] == 4
    image = rg.preview(view, ["blue", "blue"], (0, 0), (1, 0), pts, words=words("genial", "ru"))
    assert max(image.size) <= 1280
    # the proposed tile sits in the middle of the board area, rimmed
    mid = (rg.PREVIEW_W / 2, rg.PREVIEW_BOARD_H / 2)
    s = rg.PREVIEW_S
    assert image.getpixel((int(mid[0]), int(mid[1]))) == rg.TILE_GHOST
    assert image.getpixel((int(mid[0] - s * 0.866), int(mid[1] - s * 0.45))) == COLOURS["blue"]
    none = rg.preview(view, ["blue", "blue"], (0, 0), (1, 0), {"blue": 0}, words=words("genial", "ru"))
    strip = (0, rg.PREVIEW_BOARD_H + 4, rg.PREVIEW_W, none.height)
    assert ImageChops.difference(image.crop(strip), none.crop(strip)).getbbox() is not None
    # near the edge of a 4-player board the window stays on the board
    big = g.view(g.setup(4, g.Options(), 1))
    edge = rg.preview(big, ["red", "red"], (0, -7), (1, -7), {"red": {"gained": 0, "lost": 0}},
                      words=words("genial", "en"))
    assert max(edge.size) <= 1280


def test_names_are_made_safe_and_the_end_is_drawn():
    final = play(3, 5, 9999)
    view = g.view(final)
    assert view["over"]
    image = rg.table(view, words=words("genial", "ru"), names=["🎲🎲🎲", "", "x" * 200])
    assert image.width == 1080


# ------------------------------------------------------------------------------ candidates

def count(image, colour, box=None):
    region = image.crop(box) if box else image
    return sum(n for n, c in region.getcolors(1 << 22) if c == tuple(colour))


def mid_position():
    state = play(4, 11, 30)
    seat = g.current_player(state)
    tile = next(t for t in state.racks[seat] if t[0] != t[1])
    colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
    return state, seat, colours, g.legal_placements(state, seat, tile)


def on_board(box, grid, cell):
    """Where a cell of a panel's board lies in the whole picture."""
    x, y = grid.centre(*cell)
    return box[0] + x, box[1] + rg.CAND_STRIP + y


def test_each_candidate_has_a_panel_with_its_number_and_its_tile():
    """«the numbers 3, 4, 1 and 5 sit around one cell, and the tile's two halves are 5 px across»:
    now each of a page's nine has a panel of its own, its number in its own box, its tile drawn on
    its two cells with each half's colour, at a phone's size legible."""
    state, seat, colours, places = mid_position()
    view = g.view(state, seat)
    cell = places[0][0]
    near = [(a, b) for a, b in places if cell in (a, b)][:9]  # crowded round one cell, as the issue saw
    cands = [(k + 1, colours[0], colours[1], a, b, [(colours[0], 1)]) for k, (a, b) in enumerate(near)]
    from render.common import symbol_sizes
    with symbol_sizes() as sizes:
        image = rg.candidates(view, cands, words=words("genial", "ru"))
    assert image.size == rg.candidates_size(len(cands)) and max(image.size) <= 1280
    boxes = rg.candidate_panels(len(cands))
    for k, box in enumerate(boxes):
        # no two panels share a pixel, and each has its yellow number box in its strip
        assert all(box[2] <= o[0] or o[2] <= box[0] or box[3] <= o[1] or o[3] <= box[1]
                   for o in boxes[k + 1:])
        assert count(image, rg.BADGE, (box[0], box[1], box[2], box[1] + rg.CAND_STRIP)) > 2000
    # a tile half's symbol (which way the tile lies) is 18 px across or more on a phone, not 5
    halves = [size for size in sizes if size >= 2 * rg.SYMBOL_K * rg.CAND_S - 1]
    assert len(halves) >= 2 * len(cands) and min(halves) * PHONE_WIDTH / image.width >= 18


def test_a_panel_draws_its_tile_with_each_colour_on_its_cell_both_ways_round():
    state = g.position(2, tiles=[(0, "bb", (-1, 0), (-2, 0))], racks=[["rg"], ["gg"]])
    view = g.view(state, 0)
    cands = [(1, "red", "green", (0, 0), (1, 0)), (2, "green", "red", (0, 0), (1, 0))]
    image = rg.candidates(view, cands, words=words("genial", "en"))
    first, second = rg.candidate_panels(2)
    grid = rg.candidate_grid(view, (0, 0), (1, 0))  # the same pair: the same place in both panels
    assert pixel(image, on_board(first, grid, (0, 0))) == COLOURS["red"]
    assert pixel(image, on_board(first, grid, (1, 0))) == COLOURS["green"]
    assert pixel(image, on_board(second, grid, (0, 0))) == COLOURS["green"]
    assert pixel(image, on_board(second, grid, (1, 0))) == COLOURS["red"]
    # and the tile is rimmed in yellow, as the preview rims it
    ring = on_board(first, grid, (0, 0))
    assert count(image, HIGHLIGHT, (ring[0] - 2 * rg.CAND_S, ring[1] - 2 * rg.CAND_S,
                                    ring[0] + 3 * rg.CAND_S, ring[1] + 2 * rg.CAND_S)) > 1500


def test_a_page_of_candidates_says_their_cells_and_points():
    from render.common import text_colours
    state = g.position(2, tiles=[(0, "bb", (-1, 0), (-2, 0))], racks=[["rg"], ["gg"]])
    view = g.view(state, 0)
    a, b = (1, 0), (0, 0)  # given second cell first: the strip reads them as one reads the board
    with text_colours() as seen:
        rg.candidates(view, [(4, "red", "green", a, b, [("red", 3), ("green", 1)])],
                      words=words("genial", "ru"))
    texts = [text for text, _, _ in seen]
    labels = sorted((g.cell_label(a, view["radius"]), g.cell_label(b, view["radius"])),
                    key=lambda label: (label[0], int(label[1:])))
    assert "4" in texts and f"{labels[0]}–{labels[1]}" in texts and "+3" in texts and "+1" in texts


def test_pages_of_every_size_fit_and_none_still_draws():
    view = g.view(g.setup(2, g.Options(), 1), 0)
    for n in range(0, 10):
        width, height = rg.candidates_size(n)
        assert max(width, height) <= 1280 and width / height < 20
    image = rg.candidates(view, [], words=words("genial", "ru"))
    assert image.size == rg.candidates_size(0) and count(image, rg.BADGE) == 0
