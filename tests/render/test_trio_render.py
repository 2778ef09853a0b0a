"""Render tests for render/trio.py: sizes, a few colours, highlights change pixels."""
from __future__ import annotations

import random

import pytest
from PIL import Image

from engines import trio
from render import trio as R
from render.common import COLOURS, encode_png
from tests.render.words import words

NAMES = ["Борис", "Alice 🎲🎲", "Очень-длинное-имя-игрока-здесь", "D"]


def play(players=3, seed=5, turns=None):
    s = trio.setup(players, None, seed)
    rng = random.Random(seed)
    while not s.over and (turns is None or s.turn < turns):
        s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
    return s


def count(img: Image.Image, colour) -> int:
    colours = dict((c, n) for n, c in img.convert("RGB").getcolors(1 << 20))
    return colours.get(tuple(colour), 0)


def busy_state():
    """A mid-game state whose player holds a tile with several placements."""
    for seed in range(100):
        s = trio.setup(2, None, seed)
        rng = random.Random(seed)
        while not s.over:
            for t in s.hands[s.current]:
                if len(trio.legal_placements(s, s.current, t)) >= 5 and len(s.board) > 4:
                    return s, t
            s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
    raise AssertionError("no busy state found")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_table_sizes_and_png(players):
    for s in (trio.setup(players, None, 1), play(players, 2, turns=12), play(players, 3)):
        img = R.table(trio.view(s, None), words=words("trio", "ru"), names=NAMES[:players])
        assert max(img.size) <= 1280 and min(img.size) >= 500
        data = encode_png(img)
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 400_000


def test_table_shows_symbols_last_tile_and_die():
    s = play(3, 5, turns=8)
    v = trio.view(s, None)
    img = R.table(v, words=words("trio", "en"), names=NAMES)
    for colour in ("red", "blue", "yellow"):
        assert count(img, COLOURS[colour]) > 200
    assert count(img, R.LAST_RING) > 100          # the last tile is ringed
    assert v["last"]["sets"] and count(img, R.SET_LINE) > 50   # its sets are lined
    fresh = R.table(trio.view(trio.setup(3, None, 5), None), words=words("trio", "en"), names=NAMES)
    assert count(fresh, R.LAST_RING) == 0         # no last tile before the first move


def test_table_die_face_and_turn_change_pixels():
    s = play(3, 5, turns=8)
    v = trio.view(s, None)
    base = R.table(v, words=words("trio", "en"), names=NAMES)
    faces = {}
    for face in trio.DIE_FACES:
        img = R.table({**v, "die": face}, words=words("trio", "en"), names=NAMES)
        faces[face] = img.tobytes()
    assert len(set(faces.values())) == 6
    other = R.table({**v, "current": (v["current"] + 1) % 3}, words=words("trio", "en"), names=NAMES)
    assert other.size == base.size and other.tobytes() != base.tobytes()


def test_table_highlight_changes_pixels():
    s = play(2, 7, turns=6)
    v = trio.view(s, None)
    cells = [c[:2] for c in v["cells"][:3]]
    plain = R.table(v, words=words("trio", "en"), names=NAMES)
    lined = R.table(v, words=words("trio", "en"), names=NAMES, highlight=[cells])
    ringed = R.table(v, words=words("trio", "en"), names=NAMES, highlight=cells)
    assert plain.tobytes() != lined.tobytes() and plain.tobytes() != ringed.tobytes()
    assert count(lined, R.SET_LINE) > count(plain, R.SET_LINE)


def test_table_after_the_end_reveals_hands_and_places():
    s = play(4, 3)
    v = trio.view(s, None)
    img = R.table(v, words=words("trio", "ru"), names=NAMES)
    hidden = {**v, "hands_symbols": [[] for _ in range(4)]}
    assert img.size != R.table(hidden, words=words("trio", "ru"), names=NAMES).size or \
        img.tobytes() != R.table(hidden, words=words("trio", "ru"), names=NAMES).tobytes()
    assert max(img.size) <= 1280


@pytest.mark.parametrize("face", trio.DIE_FACES)
def test_die_faces(face):
    img = R.die(face)
    assert img.size == (180, 180)
    if face in trio.COLOURS:
        assert count(img, COLOURS[face]) > 1500
        others = [c for c in trio.COLOURS if c != face]
        assert all(count(img, COLOURS[c]) == 0 for c in others)
    else:
        assert all(count(img, COLOURS[c]) > 300 for c in trio.COLOURS)
    assert R.die(face, size=90).size == (90, 90)


def test_die_faces_differ():
    assert len({R.die(f).tobytes() for f in trio.DIE_FACES}) == 6
    with pytest.raises(ValueError):
        R.die("green")


def test_hand():
    one = R.hand([3], words=words("trio", "en"))
    five = R.hand([0, 1, 2, 3, 4], words=words("trio", "ru"))
    seven = R.hand([0, 1, 2, 3, 4, 5, 6], words=words("trio", "ru"))
    assert five.width > one.width and seven.height > five.height
    assert max(seven.size) <= 1280
    # symbol pairs and ids draw the same
    assert R.hand([("red-hexagon", "blue-circle")]).tobytes() == R.hand(
        [trio.tile_id("red-hexagon", "blue-circle")]).tobytes()
    faded = R.hand([0, 1, 2], playable=[1])
    assert faded.tobytes() != R.hand([0, 1, 2]).tobytes()
    assert count(faded, COLOURS["red"]) < count(R.hand([0, 1, 2]), COLOURS["red"])
    empty = R.hand([], words=words("trio", "ru"))
    assert empty.size[0] > 100
    big = R.hand(list(range(30)))
    assert max(big.size) <= 1280


def test_placements_numbered_and_paged():
    s, t = busy_state()
    v = trio.view(s, None)
    places = trio.legal_placements(s, s.current, t)
    img0 = R.placements(v, t, places, words=words("trio", "ru"), page=0, per_page=3)
    img1 = R.placements(v, t, places, words=words("trio", "ru"), page=1, per_page=3)
    assert max(img0.size) <= 1280 and img0.size == img1.size   # the frame stays put
    assert img0.tobytes() != img1.tobytes()
    assert count(img0, R.BADGE_FILL) > 100
    none = R.placements(v, t, [], words=words("trio", "ru"))
    assert count(none, R.BADGE_FILL) < count(img0, R.BADGE_FILL)
    # one page per placement changes pixels for every page
    pages = {R.placements(v, t, places, page=p, per_page=1).tobytes() for p in range(len(places))}
    assert len(pages) == len(places)
    # out-of-range pages clamp
    assert R.placements(v, t, places, page=99, per_page=3).size == img0.size


def test_confirm_draws_the_tile_and_its_sets():
    s, t = busy_state()
    v = trio.view(s, None)
    a, b = trio.legal_placements(s, s.current, t)[0]
    img = R.confirm(v, t, a, b)
    assert max(img.size) <= 1280
    assert count(img, R.GHOST_RING) > 100
    assert count(img, R.SET_LINE) > 50     # a legal placement always forms a set
    swapped = R.confirm(v, t, b, a)
    assert swapped.tobytes() != img.tobytes()


def test_confirm_far_from_the_board_grows_the_frame():
    v = trio.view(trio.setup(2, None, 0), None)
    near = R.confirm(v, 0, (2, 0), (3, 0))
    far = R.confirm(v, 0, (9, 5), (9, 6))
    assert near.tobytes() != far.tobytes()
    assert count(far, R.GHOST_RING) > 100 and count(far, R.SET_LINE) == 0
