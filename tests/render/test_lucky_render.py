"""Render tests for the lucky table: sizes, a few pixels, highlighting changes pixels."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from engines import lucky as L
from engines.base import event_dict
from render import lucky as RL
from render.common import COLOURS, HIGHLIGHT
from tests.render.words import words

NAMES = ["Борис", "Alice 🎲", "Катерина Великая", "Dmitry"]


def state(players=4, **kw):
    s = L.setup(players, L.Options(), seed=2)
    return L.with_tokens(s, **kw)


def near(pixel, colour, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(pixel, colour))


def count_near(img, box, colour, tol=40):
    data = img.crop(box).convert("RGB").tobytes()
    return sum(1 for i in range(0, len(data), 3) if near(data[i:i + 3], colour, tol))


def diff_box(a, b):
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


@pytest.mark.parametrize("players,seven", [(2, False), (3, False), (3, True), (4, False)])
def test_size_within_limits(players, seven):
    s = L.setup(players, L.Options(seven_for_three=seven), seed=1)
    img = RL.table(L.view(s), words=words("lucky", "ru"), names=NAMES[:players])
    assert img.width == RL.WIDTH and img.height <= RL.MAX_HEIGHT
    assert max(img.size) <= 1280
    # every panel fits in the picture
    for box in RL._layout(players, s.target)["panels"]:
        assert box[3] <= img.height and box[2] <= img.width


def test_png_encodes():
    s = L.setup(4, L.Options(), seed=1)
    data = RL.table_png(L.view(s), words=words("lucky", "en"), names=NAMES)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.size[0] == RL.WIDTH and len(data) < 400_000


def test_centre_tokens_drawn_in_their_colours():
    s = state(centre={"red": 4}, zone=[], reserve=["blue"])
    img = RL.table(L.view(s), words=words("lucky", "en"), names=NAMES)
    x0, y0, x1, y1 = (int(v) for v in RL.CENTRE)
    slot = (x1 - x0) / 6
    red_slot = (x0, y0, int(x0 + slot), y1)
    blue_slot = (int(x0 + 4 * slot), y0, int(x0 + 5 * slot), y1)
    assert count_near(img, red_slot, COLOURS["red"]) > 500
    assert count_near(img, blue_slot, COLOURS["blue"]) == 0
    # a token in the centre of a colour changes that colour's slot
    s2 = L.with_tokens(s, centre={"red": 4, "blue": 1}, fill_reserve=False)
    img2 = RL.table(L.view(s2), words=words("lucky", "en"), names=NAMES)
    assert count_near(img2, blue_slot, COLOURS["blue"]) > 200


def test_current_player_panel_is_highlighted():
    s = state(centre=["red", "blue", "green"])
    lay = RL._layout(4, s.target)
    img0 = RL.table(L.view(s), words=words("lucky", "en"), names=NAMES)
    img1 = RL.table(L.view(replace(s, current=1)), words=words("lucky", "en"), names=NAMES)
    p0 = tuple(int(v) for v in lay["panels"][0])
    p1 = tuple(int(v) for v in lay["panels"][1])
    # the border of the player to act is drawn in the highlight colour
    assert near(img0.getpixel((p0[0] + 2, (p0[1] + p0[3]) // 2)), HIGHLIGHT, 30)
    assert not near(img0.getpixel((p1[0] + 2, (p1[1] + p1[3]) // 2)), HIGHLIGHT, 30)
    assert near(img1.getpixel((p1[0] + 2, (p1[1] + p1[3]) // 2)), HIGHLIGHT, 30)
    box = diff_box(img0, img1)
    assert box is not None


def test_completed_and_weakest_columns_marked():
    base = state(collections=[[2, 2, 2, 2, 2, 2], [0] * 6, [0] * 6, [0] * 6])
    varied = L.with_tokens(base, collections=[[5, 3, 3, 3, 3, 1], [0] * 6, [0] * 6, [0] * 6])
    lay = RL._layout(4, base.target)
    p0 = tuple(int(v) for v in lay["panels"][0])
    a = RL.table(L.view(base), words=words("lucky", "en"), names=NAMES)
    b = RL.table(L.view(varied), words=words("lucky", "en"), names=NAMES)
    col_w = lay["col_w"]
    red_col = (p0[0] + RL.PAD, p0[1] + lay["head_h"], int(p0[0] + RL.PAD + col_w), p0[3])
    purple_col = (int(p0[0] + RL.PAD + 5 * col_w), p0[1] + lay["head_h"], int(p0[0] + RL.PAD + 6 * col_w), p0[3])
    assert count_near(b, red_col, RL.DONE_TINT, 6) > 300      # completed: green tint
    assert count_near(a, red_col, RL.DONE_TINT, 6) == 0
    assert count_near(b, purple_col, RL.WEAK_TINT, 6) > 300   # weakest: red tint
    # with every colour tied, every column is the weakest
    assert count_near(a, red_col, RL.WEAK_TINT, 6) > 300


def test_zone_shows_tokens_bank_gain_and_bust():
    s = state(centre=["red", "blue", "yellow"], reserve=["blue", "green"])
    zone_box = tuple(int(v) for v in RL.ZONE)
    before = RL.table(L.view(s), words=words("lucky", "en"), names=NAMES)
    s1, _ = L.apply(s, 0, L.Draw())  # blue: success
    after = RL.table(L.view(s1), words=words("lucky", "en"), names=NAMES)
    assert count_near(after, zone_box, COLOURS["blue"]) > 300
    assert count_near(before, zone_box, COLOURS["blue"]) == 0
    s2, events = L.apply(s1, 0, L.Draw())  # green: bust
    plain = RL.table(L.view(s2), words=words("lucky", "en"), names=NAMES)
    with_bust = RL.table(L.view(s2), words=words("lucky", "en"), names=NAMES, last=events)
    as_dicts = RL.table(L.view(s2), words=words("lucky", "en"), names=NAMES, last=[event_dict(e) for e in events])
    assert count_near(with_bust, zone_box, RL.BUST_INK, 20) > 100
    assert count_near(plain, zone_box, RL.BUST_INK, 20) == 0
    assert diff_box(with_bust, as_dicts) is None


def test_take_hint_and_bonus_and_languages():
    s = state(centre=["red", "blue", "yellow"],
              collections=[[0, 1, 1, 1, 1, 1], [0] * 6, [0] * 6, [0] * 6])
    v = L.view(s)
    assert v["take"] == "red"
    zone_box = tuple(int(v_) for v_ in RL.ZONE)
    img = RL.table(v, words=words("lucky", "ru"), names=NAMES)
    assert count_near(img, zone_box, COLOURS["red"]) > 200
    en = RL.table(v, words=words("lucky", "en"), names=NAMES)
    assert diff_box(img, en) is not None
    bonus = RL.table(L.view(replace(s, in_bonus=True)), words=words("lucky", "ru"), names=NAMES)
    status = (0, 0, RL.WIDTH, RL.TOP)
    assert count_near(bonus, status, HIGHLIGHT, 20) > 300
    assert count_near(img, status, HIGHLIGHT, 20) == 0


def test_game_over_and_odd_names():
    s = state(centre=["red", "blue", "green", "orange"], reserve=["green"],
              collections=[[5, 5, 5, 4, 5, 5], [5, 5, 4, 3, 4, 4], [5, 4, 4, 4, 3, 3], [4, 5, 2, 5, 5, 4]])
    s, _ = L.apply(s, 0, L.Draw())
    s, _ = L.apply(s, 0, L.Bank())
    assert L.view(s)["over"]
    img = RL.table(L.view(s), words=words("lucky", "ru"), names=["🎲🎲", "", "x" * 80, "Zoë\u202e"])
    assert img.width == RL.WIDTH
    # fewer names than seats does not fail either
    RL.table(L.view(s), words=words("lucky", "en"), names=[])


def test_empty_places_show_the_symbol_they_wait_for():
    """A column without tokens is still labelled: its empty places are outlines of its symbol,
    tinted with its colour (so columns read by shape as well as colour)."""
    s = state(collections=[[0] * 6, [0] * 6, [0] * 6, [0] * 6])
    lay = RL._layout(4, s.target)
    img = RL.table(L.view(s), words=words("lucky", "en"), names=NAMES)
    p0 = tuple(int(v) for v in lay["panels"][0])
    col_w = lay["col_w"]
    body = (p0[1] + lay["head_h"], p0[1] + lay["head_h"] + s.target * lay["slot_h"])

    def column(i):
        return img.crop((int(p0[0] + RL.PAD + i * col_w), body[0], int(p0[0] + RL.PAD + (i + 1) * col_w), body[1]))

    def hue_count(region, test):
        data = region.tobytes()
        return sum(1 for k in range(0, len(data), 3) if test(*data[k:k + 3]))

    reds = [hue_count(column(i), lambda r, g, b: r - g > 50 and r - b > 40) for i in range(6)]
    blues = [hue_count(column(i), lambda r, g, b: b - r > 50 and b - g > 20) for i in range(6)]
    assert reds[0] > 100 and blues[4] > 100
    assert reds[0] > 3 * max(reds[2:5]) and blues[4] > 3 * max(blues[:4])
    # the shapes differ too: the circle column and the diamond column are not the same picture
    assert ImageChops.difference(column(0).convert("L"), column(5).convert("L")).getbbox() is not None
