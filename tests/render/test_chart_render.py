"""The rating chart: its size, a line per game in the game's colour, the provisional part dashed
and lighter, the figure now at each line's end."""
from __future__ import annotations

from bot.games import kit_for, kits
from render import chart
from render.common import BACKGROUND, COLOURS, font_sizes, mix


def line(kind: str, figures: list[int], end: str) -> chart.Line:
    return chart.Line(kit_for(kind).look, kind.title(), tuple(figures), tuple(i < 5 for i in range(len(figures))), end)


def draw(*lines: chart.Line):
    return chart.rating_chart(list(lines), title="Rating: Anna", axis="rated games", provisional_note="dashed")


def pixels_near(image, colour, tolerance: int = 12) -> int:
    rgb = image.convert("RGB")
    return sum(n for n, c in rgb.getcolors(rgb.width * rgb.height)
               if all(abs(a - b) <= tolerance for a, b in zip(c, colour)))


def test_the_chart_is_phone_sized_and_labels_each_line_end():
    with font_sizes() as sizes:
        image = draw(line("cones", [1500, 1560, 1540, 1600, 1650, 1700, 1720, 1690], "1690"),
                     line("trio", [1500, 1470, 1510], "1510?"))
    assert image.size == (chart.WIDTH, chart.HEIGHT)
    assert sizes and min(sizes) * 400 / image.width >= 11


def test_the_settled_part_is_solid_in_the_games_colour_and_the_provisional_part_lighter():
    red, faded = COLOURS["red"], mix(COLOURS["red"], BACKGROUND, chart.FADE)
    settled = draw(line("cones", [1500] * 5 + [1600] * 10, "1600"))
    provisional = draw(line("cones", [1500, 1550, 1600], "1600?"))
    assert pixels_near(settled, red) > 2000  # five solid steps and the sign
    assert pixels_near(provisional, faded) > 300
    assert pixels_near(provisional, red) < pixels_near(settled, red) / 3  # only the sign at its end


def test_every_game_has_its_own_colour_and_shape():
    looks = [kit.look for kit in kits()]
    assert len(set(looks)) == 4
    assert len({c for c, _ in looks}) == 4 and len({s for _, s in looks}) == 4


def test_round_steps():
    assert chart.nice_step(40, 4) == 10 and chart.nice_step(300, 4) == 100 and chart.nice_step(9, 6) == 2
