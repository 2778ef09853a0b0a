"""Sticks' table picture (Pillow only, as render/ is): the sticks left, the sticks each player took."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import new_canvas, put_text

WIDTH, HEIGHT = 800, 360


def table(view: dict, *, names: list[str], words: dict[str, str]) -> Image.Image:
    """``words``: the picture's labels in the reader's language ("left", "took")."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    put_text(image, (30, 30), f"{words['left']}: {view['left']}", 40, bold=True)
    for n in range(view["left"]):
        x = 40 + n * 56
        draw.rounded_rectangle((x, 110, x + 24, 250), 8, fill=(150, 100, 50))
    for seat, name in enumerate(names):
        put_text(image, (30 + seat * 400, 290), f"{name} · {words['took']}: {view['taken'][seat]}", 30)
    return image
