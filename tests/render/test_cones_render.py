"""Render tests for render/cones.py: sizes, a few pixels, highlighting (never byte-exact)."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import cones
from render import cones as rc
from render.common import BACKGROUND, COLOURS, HIGHLIGHT, encode_png
from tests.render.words import words

NAMES = ["Boris", "Анастасия Петровна-Длинная", "kate 🎲🎲", "Li"]


def play(players, seed, steps, options=cones.Options()):
    s = cones.setup(players, options, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        seat = cones.current_player(s)
        if seat is None:
            break
        s, _ = cones.apply(s, seat, chooser.choice(cones.legal_actions(s, seat)))
    return s


def cell_origin(view, number):
    lay = rc._layout(len(view["piles"]), len(view["colours"]), bool(view.get("over")))
    row, col = divmod(number - 1, lay["cols"])
    return rc.MARGIN + col * (rc.CELL + rc.GAP), lay["grid_top"] + row * (rc.CELL_H + rc.GAP)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [0, 13, 999])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_table_sizes(players, steps, lang):
    view = cones.view(play(players, players, steps), None)
    image = rc.table(view, words=words("cones", lang), names=NAMES[:players])
    assert image.mode == "RGB"
    assert max(image.size) <= 1280 and min(image.size) >= 600
    png = encode_png(image)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 600_000
    assert Image.open(io.BytesIO(png)).size == image.size


def test_each_pile_is_tinted_with_its_top_colour():
    view = cones.view(play(4, 1, 20), None)
    image = rc.table(view, words=words("cones", "en"), names=NAMES)
    for pile in view["piles"]:
        x, y = cell_origin(view, pile["number"])
        assert image.getpixel((x + 100, y + 12)) == rc._tint(pile["top"])
        # the big symbol of the top colour, top-right, is filled with the colour itself
        corner = image.crop((x + rc.CELL - 56, y + 7, x + rc.CELL - 8, y + 55))
        counts = {c: n for n, c in corner.getcolors(maxcolors=corner.width * corner.height)}
        assert counts.get(COLOURS[pile["top"]], 0) > 250


def test_base_and_top_chip_are_drawn_in_their_colours():
    view = cones.view(play(2, 5, 9), None)
    image = rc.table(view, words=words("cones", "en"), names=NAMES[:2])
    for pile in view["piles"]:
        x, y = cell_origin(view, pile["number"])
        cx = x + rc.TOWER_X
        bottom = y + rc.TOWER_BOTTOM
        # the base band, left of its symbol
        assert image.getpixel((int(cx - 36), int(bottom - rc.BASE_H / 2))) == COLOURS[pile["base"]]
        if pile["chips"]:
            first = bottom - rc.BASE_H - rc.BAND_H / 2
            assert image.getpixel((int(cx - 30), int(first))) == COLOURS[pile["chips"][0]]


def test_last_pile_is_highlighted_and_highlight_can_move():
    view = cones.view(play(4, 2, 7), None)
    last = view["last_pile"]
    assert last is not None
    image = rc.table(view, words=words("cones", "en"), names=NAMES)
    x, y = cell_origin(view, last)
    assert image.getpixel((x - 3, y + rc.CELL_H // 2)) == HIGHLIGHT
    other = 1 if last != 1 else 2
    ox, oy = cell_origin(view, other)
    assert image.getpixel((ox - 3, oy + rc.CELL_H // 2)) == BACKGROUND
    moved = rc.table(view, words=words("cones", "en"), names=NAMES, highlight_pile=other)
    assert moved.getpixel((ox - 3, oy + rc.CELL_H // 2)) == HIGHLIGHT
    assert moved.getpixel((x - 3, y + rc.CELL_H // 2)) == BACKGROUND
    assert moved.tobytes() != image.tobytes()


def test_whose_turn_changes_the_cards():
    s = play(3, 4, 5)
    view = cones.view(s, None)
    image = rc.table(view, words=words("cones", "en"), names=NAMES[:3])
    lay = rc._layout(20, len(view["colours"]), False)
    card_w = (lay["width"] - 2 * rc.MARGIN - 2 * rc.CARD_GAP) / 3
    seat = view["to_move"]
    x0 = round(rc.MARGIN + seat * (card_w + rc.CARD_GAP))
    inside = (x0 + 2, lay["cards_top"] + lay["card_h"] // 2)
    assert image.getpixel(inside) == HIGHLIGHT
    view2 = dict(view, to_move=(seat + 1) % 3)
    image2 = rc.table(view2, words=words("cones", "en"), names=NAMES[:3])
    assert image2.getpixel(inside) != HIGHLIGHT


def test_end_of_game_shows_goals_and_differs_from_running_view():
    s = play(4, 6, 999)
    end = cones.view(s, None)
    assert end["over"]
    image = rc.table(end, words=words("cones", "ru"), names=NAMES)
    running = {k: v for k, v in end.items()
               if k not in ("goals", "undrawn", "scores", "places", "winners", "reason")}
    plain = rc.table(running, words=words("cones", "ru"), names=NAMES)
    assert image.size[0] == plain.size[0]
    assert image.tobytes() != plain.tobytes()
    # each card shows its goal symbol filled with the goal colour
    lay = rc._layout(24, 6, True)
    card_w = (lay["width"] - 2 * rc.MARGIN - 3 * rc.CARD_GAP) / 4
    for seat, colour in enumerate(end["goals"]):
        x0 = round(rc.MARGIN + seat * (card_w + rc.CARD_GAP))
        box = image.crop((x0, lay["cards_top"], round(x0 + card_w), lay["cards_top"] + lay["card_h"]))
        counts = {c: n for n, c in box.getcolors(maxcolors=box.width * box.height)}
        assert counts.get(COLOURS[colour], 0) > 250


def test_tall_stacks_fold_and_names_are_safe():
    s = play(2, 0, 0)
    bases = list(s.bases)
    view = cones.view(s, None)
    other = next(c for c in view["colours"] if c != bases[0])
    chips = [other, bases[0]] * 15  # 30 chips, alternating
    view["piles"][0] = {"number": 1, "base": bases[0], "chips": chips, "top": chips[-1],
                        "height": 30}
    image = rc.table(view, words=words("cones", "en"), names=["\u202e\u0000" + "x" * 200, "🎲"])
    assert max(image.size) <= 1280


def test_goal_card():
    for colour in cones.ALL_COLOURS:
        for lang in ("en", "ru"):
            image = rc.goal(colour, words=words("cones", lang))
            assert image.size == (520, 300)
            assert image.getpixel((122, 250)) == COLOURS[colour]
    assert rc.goal("blue").tobytes() != rc.goal("pink").tobytes()
    with pytest.raises(ValueError):
        rc.goal("mauve", words=words("cones", "en"))


@pytest.mark.parametrize("lang, per_colour, left", [("ru", "Башни по цветам:", "фишек: {n}"),
                                                    ("en", "Piles by colour:", "chips left: {n}")])
def test_the_header_counts_and_a_players_chips_left_say_what_they_count(lang, per_colour, left):
    """«★3 ☀6 ⬢2» and «⏏5» had no word on the picture; the Mini App labels them."""
    from render.common import text_colours
    for players in (2, 3, 4):
        view = cones.view(play(players, players, 5), None)
        with text_colours() as seen:
            image = rc.table(view, words=words("cones", lang), names=NAMES[:players])
        texts = [text for text, _, _ in seen]
        assert per_colour in texts
        assert all(left.format(n=view["supply_left"][s]) in texts for s in range(players)), texts
        assert max(image.size) <= 1280
