"""A person's rating over time: one line per game they have rated games in, x = their rated
games in order, y = the figure shown (``bot/records/rating.py``), the provisional part dashed
and lighter, the figure now labelled at each line's end, a legend of the games' signs.

Pure drawing: the bot hands over the figures, each game's look (a colour with its shape) and
every word already in the reader's language (title, game names, axis, the provisional note),
the name in the title already cleaned (``bot.words.names.clean``); nothing here knows a game,
a language or a rule of the rating.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND, COLOURS, GRID, INK, MUTED, fit, min_font, mix, new_canvas, paste_box, paste_shape, put_text,
    text_width,
)

WIDTH, HEIGHT = 800, 520
PAD = 24
SMALL = min_font(WIDTH)  # 22 px: ticks and the axis, 11 px on a phone
TEXT = SMALL + 2  # the legend and the figures at the lines' ends
TITLE = SMALL + 8
MARK = 12  # radius of a game's sign (24 px across: 12 at 400 px wide)
LINE = 4
DASH, GAP = 14, 9  # the provisional part
SS = 3  # lines are drawn 3 x larger and reduced: smooth slopes
FADE = 0.55  # the provisional part: this much of the game's colour, the rest the background

@dataclass(frozen=True)
class Line:
    """One game's line: ``look`` its colour (a name of ``common.COLOURS``) and shape, never
    colour alone; ``figures[0]`` before the first rated game, ``figures[i]`` after the i-th;
    ``provisional[i]``: ``figures[i]`` was provisional; ``end``: the label at its end."""

    look: tuple[str, str]
    label: str
    figures: tuple[int, ...]
    provisional: tuple[bool, ...]
    end: str


def style(line: Line) -> tuple[tuple[int, int, int], str]:
    colour, shape = line.look
    return COLOURS[colour], shape


def nice_step(span: float, most: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) that cuts ``span`` into ``most`` parts or fewer."""
    raw = max(span, 1e-9) / most
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _y_range(lines: list[Line]) -> tuple[int, int, int]:
    values = [v for line in lines for v in line.figures]
    lo, hi = min(values), max(values)
    step = max(10, int(nice_step(max(hi - lo, 40), 4)))
    return math.floor((lo - step * 0.2) / step) * step, math.ceil((hi + step * 0.2) / step) * step, step


def rating_chart(lines: list[Line], *, title: str, axis: str, provisional_note: str) -> Image.Image:
    """The chart of ``lines`` (at least one, each of two figures or more)."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    put_text(image, (PAD, PAD), fit(title, TITLE, WIDTH - 2 * PAD, bold=True), TITLE, bold=True)
    y = _legend(image, draw, lines, provisional_note, PAD + TITLE + 16)

    lo, hi, ystep = _y_range(lines)
    games = max(len(line.figures) for line in lines) - 1
    ticks = list(range(lo, hi + 1, ystep))
    ends = [line.end for line in lines]
    left = PAD + max(text_width(str(v), SMALL) for v in ticks) + 10
    right = WIDTH - PAD - max(text_width(e, TEXT, bold=True) for e in ends) - 2 * MARK - 16
    top, bottom = y + SMALL, HEIGHT - PAD - 2 * SMALL - 18  # room for the top tick's half

    def at(i: float, v: float) -> tuple[float, float]:
        return left + (right - left) * i / games, bottom - (bottom - top) * (v - lo) / (hi - lo)

    for v in ticks:
        gy = at(0, v)[1]
        draw.line((left, gy, right, gy), fill=GRID, width=1)
        put_text(image, (left - 10, gy), str(v), SMALL, fill=MUTED, anchor="rm")
    xstep = max(1, math.ceil(nice_step(games, 6)))
    for i in range(0, games + 1, xstep):
        gx = at(i, lo)[0]
        draw.line((gx, bottom, gx, bottom + 5), fill=MUTED, width=2)
        put_text(image, (gx, bottom + 8), str(i), SMALL, fill=MUTED, anchor="mt")
    draw.line((left, bottom, right, bottom), fill=MUTED, width=2)
    put_text(image, ((left + right) / 2, HEIGHT - PAD), fit(axis, SMALL, right - left), SMALL, fill=MUTED,
             anchor="md")

    _draw_lines(image, lines, at, small_steps=games <= 30)
    _label_ends(image, lines, at, top, bottom)
    return image


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, lines: list[Line], note: str, y: float) -> float:
    """Each game's sign and name, then a dashed sample and what it means, flowing onto new rows;
    returns the y under the legend."""
    row = TEXT + 8
    entries = [(line, line.label) for line in lines] + [(None, note)]
    x = PAD
    for line, label in entries:
        width = 2 * MARK + 8 + text_width(label, TEXT) if line else 34 + 8 + text_width(label, SMALL)
        if x > PAD and x + width > WIDTH - PAD:
            x, y = PAD, y + row
        cy = y + row / 2
        if line:
            colour, shape = style(line)
            paste_shape(image, shape, x + MARK, cy, MARK, colour)
            put_text(image, (x + 2 * MARK + 8, cy), fit(label, TEXT, WIDTH - 2 * PAD - 2 * MARK - 8), TEXT,
                     anchor="lm")
        else:
            for dx in (0, 14 + 6):
                draw.line((x + dx, cy, x + dx + 14, cy), fill=MUTED, width=LINE)
            put_text(image, (x + 42, cy), fit(label, SMALL, WIDTH - 2 * PAD - 42), SMALL, fill=MUTED, anchor="lm")
        x += width + 24
    return y + row


def _dashed(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], fill, width: int, phase: float) -> float:
    """A dashed polyline (the pattern runs on across its corners); returns the phase it ends at."""
    period = (DASH + GAP) * SS
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length:
            into = phase % period
            run = min((DASH * SS - into) if into < DASH * SS else (period - into), length - done)
            if into < DASH * SS:
                a, b = done / length, (done + run) / length
                draw.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                          fill=fill, width=width)
            done += run
            phase += run
    return phase


def _draw_lines(image: Image.Image, lines: list[Line], at, *, small_steps: bool) -> None:
    """Every line on one supersampled layer: provisional steps dashed and faded, the rest solid;
    a dot at each game while there are few enough to tell apart."""
    layer = Image.new("RGBA", (WIDTH * SS, HEIGHT * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    width = LINE * SS
    for line in lines:
        colour, _ = style(line)
        faded = mix(colour, BACKGROUND, FADE)
        points = [tuple(c * SS for c in at(i, v)) for i, v in enumerate(line.figures)]
        phase = 0.0
        for i in range(1, len(points)):
            # A step is provisional when the figure it leads to still was.
            if line.provisional[i]:
                phase = _dashed(draw, points[i - 1:i + 1], faded, width, phase)
            else:
                draw.line(points[i - 1:i + 1], fill=colour, width=width, joint="curve")
        if small_steps:
            r = 4 * SS
            for (px, py), soft in zip(points[:-1], line.provisional):
                draw.ellipse((px - r, py - r, px + r, py + r), fill=faded if soft else colour)
    layer = layer.reduce(SS)
    image.paste(layer, (0, 0), layer)


def _label_ends(image: Image.Image, lines: list[Line], at, top: float, bottom: float) -> None:
    """At each line's end its sign and the figure now; labels that would overlap are moved apart."""
    ends = sorted(((at(len(line.figures) - 1, line.figures[-1]), line) for line in lines), key=lambda e: e[0][1])
    gap = TEXT + 6
    ys: list[float] = []
    for (_, y), _line in ends:
        ys.append(max(y, ys[-1] + gap) if ys else y)
    overflow = ys[-1] - bottom if ys else 0
    if overflow > 0:  # pushed below the plot: shift the whole column up
        ys = [y - overflow for y in ys]
    for ((x, y), line), ly in zip(ends, ys):
        colour, shape = style(line)
        paste_shape(image, shape, x, y, MARK, colour)
        tx = x + MARK + 6
        w = text_width(line.end, TEXT, bold=True)
        paste_box(image, (tx - 2, ly - TEXT / 2 - 2, tx + w + 4, ly + TEXT / 2 + 4), 4, BACKGROUND)
        put_text(image, (tx, ly), line.end, TEXT, fill=INK, bold=True, anchor="lm")
