"""Render tests for render/genial.py: sizes, a few pixels, highlighting (never byte-exact)."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engines import genial as g
from render import genial as rg
from render.common import COLOURS, HIGHLIGHT, LEGIBLE_PX, PHONE_WIDTH, contrast, encode_png

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
    image = rg.table(view, lang=lang, names=NAMES[:players])
    assert image.mode == "RGB" and image.width == 1080
    assert max(image.size) <= 1280
    png = encode_png(image)
    assert Image.open(io.BytesIO(png)).size == image.size


def test_printed_symbols_and_tiles_are_drawn_in_their_colours():
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]])
    view = g.view(state)
    image = rg.table(view, lang="ru", names=NAMES[:2])
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
    image = rg.table(view, lang="en", names=NAMES[:2])
    cx, cy = centre(view, (0, 0))
    s = rg._table_grid(5).s
    assert pixel(image, (cx, cy - s + 1)) == HIGHLIGHT
    plain = rg.table({**view, "recent": []}, lang="en", names=NAMES[:2])
    assert pixel(plain, (cx, cy - s + 1)) != HIGHLIGHT
    marked = rg.table(view, lang="en", names=NAMES[:2], highlight=[(-3, 2)])
    assert ImageChops.difference(image, marked).getbbox() is not None


def test_last_move_rim_is_thick_and_stands_out_at_400_px():
    """The last move's rim, across its edge, is at least 3 px at 400 px wide and holds a colour
    that stands out (3:1, WCAG for marks) from the light board and cells, and one that stands
    out from the dark tiles around it (the old yellow rim was 1.6 px and 1.3:1 on the board)."""
    state = g.position(2, tiles=[(0, "bp", (0, 0), (1, 0))], racks=[["rr"], ["gg"]])
    view = g.view(state)
    image = rg.table(view, lang="en", names=NAMES[:2])
    plain = rg.table({**view, "recent": []}, lang="en", names=NAMES[:2])
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
    image = rg.table(view, lang="ru", names=NAMES[:2])
    top = rg.BOARD_TOP + rg.BOARD_H + 6
    # seat 1's panel (right) has the turn colour, seat 0's does not
    assert pixel(image, (1080 - 40, top + 8)) == rg.TURN_BG
    assert pixel(image, (40, top + 8)) == rg.PANEL
    # seat 0's red (lowest) cell is tinted; all six tied (seat 1) are not marked
    assert pixel(image, (12 + 12, top + 60)) == rg.LOW_BG
    assert pixel(image, (1080 // 2 + 20, top + 60)) != rg.LOW_BG


def test_rack_numbers_tiles_and_grows_with_them():
    six = rg.rack([["red", "blue"], ["green", "green"], ["yellow", "purple"], ["orange", "red"],
                   ["blue", "blue"], ["purple", "yellow"]], lang="ru")
    one = rg.rack([["red", "blue"]], lang="en")
    empty = rg.rack([], lang="en")
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
    image = rg.preview(view, ["blue", "blue"], (0, 0), (1, 0), pts, lang="ru")
    assert max(image.size) <= 1280
    # the proposed tile sits in the middle of the board area, rimmed
    mid = (rg.PREVIEW_W / 2, rg.PREVIEW_BOARD_H / 2)
    s = rg.PREVIEW_S
    assert image.getpixel((int(mid[0]), int(mid[1]))) == rg.TILE_GHOST
    assert image.getpixel((int(mid[0] - s * 0.866), int(mid[1] - s * 0.45))) == COLOURS["blue"]
    none = rg.preview(view, ["blue", "blue"], (0, 0), (1, 0), {"blue": 0}, lang="ru")
    strip = (0, rg.PREVIEW_BOARD_H + 4, rg.PREVIEW_W, none.height)
    assert ImageChops.difference(image.crop(strip), none.crop(strip)).getbbox() is not None
    # near the edge of a 4-player board the window stays on the board
    big = g.view(g.setup(4, g.Options(), 1))
    edge = rg.preview(big, ["red", "red"], (0, -7), (1, -7), {"red": {"gained": 0, "lost": 0}}, lang="en")
    assert max(edge.size) <= 1280


def test_names_are_made_safe_and_the_end_is_drawn():
    final = play(3, 5, 9999)
    view = g.view(final)
    assert view["over"]
    image = rg.table(view, lang="ru", names=["🎲🎲🎲", "", "x" * 200])
    assert image.width == 1080


# ------------------------------------------------------------------------------ candidates

def count(image, colour, box=None):
    region = image.crop(box) if box else image
    return sum(n for n, c in region.getcolors(1 << 22) if c == tuple(colour))


def frame(view, cands):
    """The grid (hex size, where cells are) and size of candidates()'s picture."""
    return rg._candidates_frame(view, [cell for c in cands for cell in c[3:5]])


def mid_position():
    state = play(4, 11, 30)
    seat = g.current_player(state)
    tile = next(t for t in state.racks[seat] if t[0] != t[1])
    colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
    return state, seat, colours, g.legal_placements(state, seat, tile)


def test_candidates_zoom_on_the_placements_and_number_them():
    state, seat, colours, places = mid_position()
    view = g.view(state, seat)
    spread = [places[k] for k in range(0, len(places), max(1, len(places) // 10))][:10]
    cands = [(k + 1, colours[0], colours[1], a, b) for k, (a, b) in enumerate(spread)]
    image = rg.candidates(view, cands, lang="ru", names=NAMES)
    assert 1000 <= max(image.size) <= 1280 and min(image.size) >= 800
    close = rg.candidates(view, [(1, colours[0], colours[1], *places[0])], lang="ru")
    assert 1000 <= max(close.size) <= 1280
    # a yellow badge (at least 40 px across) per candidate
    assert count(close, rg.BADGE) > 1200 and count(image, rg.BADGE) > 10 * 1200
    # a lone candidate zooms in further than ten spread over the board: bigger hexes
    assert frame(view, cands[:1])[0].s > 1.5 * frame(view, cands)[0].s


def test_candidate_ghosts_show_their_colours_on_their_cells():
    state = g.position(2, tiles=[(0, "bb", (-1, 0), (-2, 0))], racks=[["rg"], ["gg"]])
    view = g.view(state, 0)
    cands = [(1, "red", "green", (0, 0), (1, 0))]
    image = rg.candidates(view, cands, lang="en")
    grid, width, height = frame(view, cands)
    assert image.size == (width, height)
    assert pixel(image, grid.centre(0, 0)) == COLOURS["red"]
    assert pixel(image, grid.centre(1, 0)) == COLOURS["green"]
    swapped = rg.candidates(view, [(1, "green", "red", (0, 0), (1, 0))], lang="en")
    assert pixel(swapped, grid.centre(0, 0)) == COLOURS["green"]


def test_candidates_on_the_same_cells_keep_their_numbers_apart():
    state, seat, colours, places = mid_position()
    view = g.view(state, seat)
    a, b = places[0]
    one = rg.candidates(view, [(1, colours[0], colours[1], a, b)], lang="ru")
    both = rg.candidates(view, [(1, colours[0], colours[1], a, b), (2, colours[1], colours[0], a, b)],
                         lang="ru")
    assert both.size == one.size
    # two whole badges: neither number hides the other
    assert count(both, rg.BADGE) > 1.8 * count(one, rg.BADGE)
    # ten placements around one cell: ten badges, none swallowed
    cell = places[0][0]
    near = [(pa, pb) for pa, pb in places if cell in (pa, pb)]
    crowd = [(k + 1, colours[k % 2], colours[1 - k % 2], pa, pb) for k, (pa, pb) in enumerate((near * 4)[:10])]
    dense = rg.candidates(view, crowd, lang="ru")
    assert count(dense, rg.BADGE) > 9 * count(one, rg.BADGE) * 0.85


def test_candidates_without_any_place_still_draw():
    view = g.view(g.setup(2, g.Options(), 1), 0)
    image = rg.candidates(view, [], lang="ru")
    assert max(image.size) <= 1280 and count(image, rg.BADGE) == 0


def overlaps(badges):
    """Pairs of badges whose ink (numbers, rims, colour ends) overlap."""
    out = []
    for i, (n1, circles1) in enumerate(badges):
        for n2, circles2 in badges[i + 1:]:
            if any((x1 - x2) ** 2 + (y1 - y2) ** 2 < (r1 + r2) ** 2
                   for x1, y1, r1 in circles1 for x2, y2, r2 in circles2):
                out.append((n1, n2))
    return out


def test_numbered_placements_never_overlap():
    """Over many positions and pages of 8 (close together, spread, both ways round on the same
    cells), no two numbered badges overlap and every badge is inside the picture."""
    checked = 0
    for seed in range(12):
        state = play(2 + seed % 3, seed, 8 + 4 * seed)
        seat = g.current_player(state)
        if seat is None:
            continue
        view = g.view(state, seat)
        for tile in {tuple(t) for t in state.racks[seat]}:
            places = g.legal_placements(state, seat, tile)
            if len(places) < 2:
                continue
            colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
            centre_cell = places[0][0]
            near = sorted(places, key=lambda p: abs(p[0][0] - centre_cell[0]) + abs(p[0][1] - centre_cell[1]))
            pages = [near[:8], random.Random(seed).sample(places, min(8, len(places))), places[8:16]]
            for page in pages:
                if not page:
                    continue
                cands = [(k + 1, colours[0], colours[1], a, b) for k, (a, b) in enumerate(page)]
                badges = rg.candidate_badges(view, cands)
                assert len(badges) == len(cands)
                assert not overlaps(badges), (seed, tile, overlaps(badges))
                _, width, height = frame(view, cands)
                for _, circles in badges:
                    for x, y, r in circles:
                        assert r <= x <= width - r and rg.CAND_HEAD + r <= y <= height - r, (seed, tile)
                checked += 1
    assert checked > 60


def test_leader_dots_and_colour_ends_are_legible():
    """A badge moved off its tile points at it with a dot, and a pill shows the tile's colours
    in order at its ends: both at least 11 px across at 400 px wide."""
    from render.common import symbol_sizes
    state, seat, colours, places = mid_position()
    view = g.view(state, seat)
    cell = places[0][0]
    near = [(pa, pb) for pa, pb in places if cell in (pa, pb)]
    crowd = [(k + 1, colours[k % 2], colours[1 - k % 2], pa, pb) for k, (pa, pb) in enumerate((near * 4)[:10])]
    with symbol_sizes() as sizes:
        image = rg.candidates(view, crowd, lang="ru")
    assert min(sizes) * PHONE_WIDTH / image.width >= LEGIBLE_PX
