"""render/common.py: encoders, the picture job for a worker process, text and sprite helpers."""
from __future__ import annotations

import io
import pickle
from functools import partial

from PIL import Image, ImageDraw

from render import common
from render.common import (
    BACKGROUND, COLOURS, INK, draw_symbol, encode_jpeg, encode_picture, font, font_sizes, min_font,
    paste_box, paste_flat_symbol, paste_symbol, picture_of, png_of, put_text, smallest_text,
)


def _card(width: int = 320, height: int = 200, colour: str = "red") -> Image.Image:
    img = Image.new("RGB", (width, height), BACKGROUND)
    paste_symbol(img, colour, 60, 60, 30)
    put_text(img, (110, 60), "Ход: Катерина", 24, bold=True, anchor="lm")
    return img


def test_picture_of_is_a_palette_png_that_keeps_flat_colours_and_hues():
    data = picture_of(_card, 333, 222)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    back = Image.open(io.BytesIO(data))
    assert back.format == "PNG" and back.mode == "P" and back.size == (333, 222)
    rgb = back.convert("RGB")
    # a flat area keeps its colour exactly enough to be the same colour, the symbol its hue
    assert all(abs(a - b) <= 6 for a, b in zip(rgb.getpixel((300, 190)), BACKGROUND))
    r, g, b = rgb.getpixel((60, 60))
    assert r > 180 and g < 90 and b < 90
    # and it is smaller than JPEG q90 of the same picture, which is what it is for
    assert len(data) < len(encode_jpeg(_card(333, 222)))
    png = png_of(_card, 333, 222)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and Image.open(io.BytesIO(png)).size == (333, 222)


def test_a_picture_with_many_colours_keeps_each_of_them_close():
    """Every symbol (nine colours), their edges on a dark tile and on the background: nothing
    drifts far."""
    img = Image.new("RGB", (100 * len(COLOURS), 200), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 100, img.width, 200), fill=(48, 46, 54))
    for k, colour in enumerate(COLOURS):
        draw_symbol(draw, colour, 50 + k * 100, 50, 36)
        draw_symbol(draw, colour, 50 + k * 100, 150, 36)
    back = Image.open(io.BytesIO(encode_picture(img))).convert("RGB")
    worst = max(max(abs(a - b) for a, b in zip(img.getpixel((x, y)), back.getpixel((x, y))))
                for x in range(0, img.width, 3) for y in range(0, 200, 3))
    assert worst <= 20, worst
    for k, colour in enumerate(COLOURS):  # where a symbol is its own colour, it still is
        inside = next((x, y) for x in range(20 + k * 100, 80 + k * 100) for y in range(20, 80)
                      if img.getpixel((x, y)) == COLOURS[colour])
        assert all(abs(a - b) <= 12 for a, b in zip(back.getpixel(inside), COLOURS[colour])), colour


def test_picture_jobs_pickle_for_the_drawing_process():
    job = partial(picture_of, _card, 100, 80, colour="blue")
    again = pickle.loads(pickle.dumps(job))
    assert Image.open(io.BytesIO(again())).size == (100, 80)


def test_font_sizes_records_what_is_drawn_not_what_is_measured():
    img = Image.new("RGB", (200, 100), BACKGROUND)
    with font_sizes() as sizes:
        font(9).getlength("measured, not drawn")
        put_text(img, (10, 10), "put", 31)
        put_text(img, (10, 50), "put again (cached mask)", 31)
        ImageDraw.Draw(img).text((10, 80), "direct", font=font(17), fill=INK)
    assert 9 not in sizes and min(sizes) == 17 and sizes.count(31) >= 2
    image, smallest = smallest_text(_card)
    assert smallest == 24 and image.size == (320, 200)
    assert smallest_text(Image.new, "RGB", (10, 10))[1] == 0  # no text at all


def test_min_font_is_11_px_at_400_px_wide():
    assert min_font(400) == 11
    assert min_font(1080) == 30 and 30 * 400 / 1080 >= 11 > 29 * 400 / 1080
    assert min_font(1280) == 36
    assert min_font(1280, 14) == 45


def test_put_text_anchors_like_image_draw():
    a = Image.new("RGB", (300, 80), BACKGROUND)
    b = a.copy()
    put_text(a, (150, 40), "Центр 10", 30, bold=True, anchor="mm")
    ImageDraw.Draw(b).text((150, 40), "Центр 10", font=font(30, True), fill=INK, anchor="mm")
    assert a.getbbox() == b.getbbox()
    diff = [abs(x - y) for x, y in zip(a.tobytes(), b.tobytes())]
    assert max(diff) <= 64 and sum(diff) / len(diff) < 2
    put_text(a, (0, 0), "", 30)  # nothing to draw


def test_sprites_are_antialiased_and_flat_ones_match_blended_ones():
    blended = Image.new("RGB", (80, 80), BACKGROUND)
    paste_symbol(blended, "green", 40, 40, 25)
    colours = {c for _, c in blended.getcolors(10000)}
    assert COLOURS["green"] in colours and len(colours) > 10  # smooth edges, not two colours
    flat = Image.new("RGB", (80, 80), BACKGROUND)
    paste_flat_symbol(flat, "green", 40, 40, 25, BACKGROUND)
    assert flat.tobytes() == blended.tobytes()
    boxed = Image.new("RGB", (120, 90), BACKGROUND)
    paste_box(boxed, (10, 10, 110, 80), 14, (255, 240, 200), INK, 2)
    assert boxed.getpixel((60, 45)) == (255, 240, 200) and boxed.getpixel((11, 11)) != INK
    assert common.box_corners.cache_info().currsize >= 1
    # pasted from its cached corners, a box is the box drawn whole, antialiased, pixel for pixel
    for size, radius, line, outline in (((100, 70), 14, 2, INK), ((31, 300), 12, 0, None), ((8, 8), 6, 3, INK)):
        whole = Image.new("RGB", size, BACKGROUND)
        whole.paste(common._drawn_box(*size, radius, (255, 240, 200), outline, line, BACKGROUND))
        pasted = Image.new("RGB", size, BACKGROUND)
        paste_box(pasted, (0, 0, *size), radius, (255, 240, 200), outline, line)
        assert pasted.tobytes() == whole.tobytes()
