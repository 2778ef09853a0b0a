"""Every picture stays legible on a phone: scaled to 400 px wide, its smallest text is at least
11 px (render.common.LEGIBLE_PX), the size of the smallest captions phones use, and so is every
symbol a player reads (a chip's colour, a tile's halves, a badge's orientation); every text,
greys included, has a contrast of at least 4.5:1 (WCAG, body text) with what lies under it.
Each kind of picture is checked at its widest and busiest (4 players, late game, long names, the end).

The size is the font size in px (Roboto's em), recorded while drawing (render.common.font_sizes);
a symbol's, the diameter of the circle it is drawn in (render.common.symbol_sizes); colours are
recorded by render.common.text_colours.
"""
from __future__ import annotations

import random

import pytest

from bot.games import kit_for
from engines import cones, genial as g, lucky as L, trio
from engines.base import random_steps
from render import chart as rch, common, cones as rc, genial as rg, lucky as rl, trio as rt
from render.common import LEGIBLE_PX, PHONE_WIDTH, contrast, font_sizes, min_font, symbol_sizes, text_colours
from tests.render.words import words

NAMES = ["Катерина Великая", "Alexander the Great", "Борис", "kate 🎲🎲"]
TRIO = words("trio", "ru")



def genial_mid():
    state, _ = random_steps(g, 4, g.Options(), 11, 30)
    seat = g.current_player(state)
    tile = next(t for t in state.racks[seat] if t[0] != t[1])
    return state, seat, tile


def lucky_case(players, steps, seven=False):
    state, events = random_steps(L, players, L.Options(seven_for_three=seven), 4, steps)
    return lambda: rl.table(L.view(state), words=words("lucky", "ru"), names=NAMES[:players], last=events)


def cones_case(players, steps):
    state, _ = random_steps(cones, players, cones.Options(), 6, steps)
    return lambda: rc.table(cones.view(state, None), words=words("cones", "ru"), names=NAMES[:players])


def genial_table(players, steps, options=None):
    state, _ = random_steps(g, players, options or g.Options(), 7, steps)
    return lambda: rg.table(g.view(state), words=words("genial", "ru"), names=NAMES[:players],
                            highlight=[(0, 0), (1, 0)])


def genial_candidates(spread: bool):
    state, seat, tile = genial_mid()
    colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
    places = g.legal_placements(state, seat, tile)
    chosen = random.Random(1).sample(places, 9) if spread else places[:9]  # a page (genial_entry.PER_PAGE)
    cands = [(k + 1, colours[0], colours[1], a, b) for k, (a, b) in enumerate(chosen)]
    return lambda: rg.candidates(g.view(state, seat), cands, words=words("genial", "ru"), names=NAMES)


def genial_preview():
    state, seat, tile = genial_mid()
    a, b = g.legal_placements(state, seat, tile)[0]
    colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
    return lambda: rg.preview(g.view(state, seat), colours, a, b, g.placement_score(state, seat, tile, a, b),
                              words=words("genial", "ru"))


def trio_case(players, turns):
    state = trio.setup(players, None, 3)
    chooser = random.Random(3)
    while not state.over and (turns is None or state.turn < turns):
        state, _ = trio.apply(state, state.current, chooser.choice(trio.legal_actions(state, state.current)))
    return state


def trio_placements():
    for seed in range(100):
        state = trio.setup(2, None, seed)
        chooser = random.Random(seed)
        while not state.over:
            for t in state.hands[state.current]:
                places = trio.legal_placements(state, state.current, t)
                if len(places) >= 5 and len(state.board) > 6:
                    return lambda: rt.placements(trio.view(state, None), t, places, words=words("trio", "ru"))
            state, _ = trio.apply(state, state.current, chooser.choice(trio.legal_actions(state, state.current)))
    raise AssertionError("no busy position")


def rating_chart(games: dict[str, int]):
    """A person's rating chart with a line per game of ``games[kind]`` rated games."""
    lines = []
    for k, (kind, n) in enumerate(games.items()):
        steps = random.Random(k)
        figures = [1500]
        for _ in range(n):
            figures.append(figures[-1] + steps.randint(-40, 70))
        provisional = tuple(i < 5 for i in range(n + 1))
        lines.append(rch.Line(kit_for(kind).look, f"Игра {kind}", tuple(figures), provisional, f"{figures[-1]}{'?' if n < 5 else ''}"))
    return lambda: rch.rating_chart(lines, title="Рейтинг: " + NAMES[0], axis="рейтинговые партии",
                                    provisional_note="пунктир: предварительный")


CASES = {
    "rating chart, four games": rating_chart({"lucky": 40, "cones": 7, "genial": 3, "trio": 2}),
    "rating chart, two games of one": rating_chart({"trio": 2}),
    "lucky table, 4 players": lucky_case(4, 110),
    "lucky table, 3 players to 7": lucky_case(3, 60, seven=True),
    "lucky table, 2 players": lucky_case(2, 40),
    "lucky table, the end": lucky_case(4, 9999),
    "cones table, 4 players": cones_case(4, 20),
    "cones table, the end": cones_case(4, 9999),
    "cones table, 3 players": cones_case(3, 10),
    "cones goal": lambda: rc.goal("purple", words=words("cones", "ru")),
    "genial table, 4 players late": genial_table(4, 60),
    "genial table, teams": genial_table(4, 20, g.Options(team=True)),
    "genial table, the end": genial_table(3, 9999),
    "genial table, solo": genial_table(1, 20),
    "genial rack of 6": lambda: rg.rack([["red", "blue"], ["green", "green"], ["yellow", "purple"],
                                          ["orange", "red"], ["blue", "blue"], ["purple", "yellow"]]),
    "genial rack of 1": lambda: rg.rack([["red", "blue"]]),
    "genial preview": genial_preview(),
    "genial candidates, spread": genial_candidates(spread=True),
    "genial candidates, close together": genial_candidates(spread=False),
    "trio table, 4 players late": lambda: rt.table(trio.view(trio_case(4, 16), None), words=TRIO, names=NAMES),
    "trio table, the end": lambda: rt.table(trio.view(trio_case(4, None), None), words=TRIO, names=NAMES),
    "trio table, the start": lambda: rt.table(trio.view(trio_case(3, 0), None), words=TRIO, names=NAMES[:3]),
    "trio hand of 7": lambda: rt.hand([0, 5, 9, 14, 20, 27, 33], words=words("trio", "ru"), playable=[1, 2]),
    "trio placements": trio_placements(),
}


def forget_drawings() -> None:
    """Empty every cache of drawn pieces (static layers, labels, whole cards), so that the
    text inside them is drawn, and measured, again."""
    for module in (common, rch, rc, rg, rl, rt):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.mark.parametrize("kind", list(CASES))
def test_smallest_text_is_legible_at_400_px(kind):
    forget_drawings()
    with font_sizes() as sizes:
        image = CASES[kind]()
    assert sizes, f"{kind}: no text drawn"
    assert max(image.size) <= 1280
    at_phone = min(sizes) * PHONE_WIDTH / image.width
    assert at_phone >= LEGIBLE_PX, f"{kind}: {min(sizes)} px on {image.width} px = {at_phone:.1f} px at 400"


@pytest.mark.parametrize("spread", [True, False])
def test_candidate_numbers_are_big_on_a_phone(spread):
    """The numbers to choose from are at least 14 px when the picture is 400 px wide."""
    with font_sizes() as sizes:
        image = genial_candidates(spread)()
    big = [s for s in sizes if s >= min_font(image.width, 14)]
    assert len(big) >= 9


@pytest.mark.parametrize("kind", list(CASES))
def test_smallest_symbol_is_legible_at_400_px(kind):
    """Symbols are held to the text's rule: a symbol a player needs is at least 11 px across at
    400 px wide (the chips in a cones tower were 5 px, genial's drawn tile 8 px, trio's revealed
    hands 8 px)."""
    forget_drawings()
    with symbol_sizes() as sizes:
        image = CASES[kind]()
    assert sizes, f"{kind}: no symbol noted"
    at_phone = min(sizes) * PHONE_WIDTH / image.width
    assert at_phone >= LEGIBLE_PX, f"{kind}: {min(sizes)} px on {image.width} px = {at_phone:.1f} px at 400"


@pytest.mark.parametrize("kind", list(CASES))
def test_every_text_contrasts_with_its_background(kind):
    """Grey labels («убрано», «мешок», «забрать») and coloured figures read like the rest: 4.5:1.
    (Text drawn by put_text; the goal card and trio's hand draw theirs, black on light, directly.)"""
    forget_drawings()
    with text_colours() as seen:
        CASES[kind]()
    low = sorted({(round(contrast(fill, under), 2), text, fill, under) for text, fill, under in seen
                  if contrast(fill, under) < 4.5})
    assert not low, f"{kind}: {low[:5]}"
