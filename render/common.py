"""Shared drawing helpers: the font and cached text, colours with their symbols, sprites, encoding.

Pillow only. The font is Roboto (Cyrillic included), regular and bold, kept in ``render/fonts/``
(Apache-2.0, licence beside it), never taken from the system. Colours always travel with a shape
(colour-blind players), see ``draw_symbol``.

Speed: a table is redrawn after every move, so the costly pieces are drawn once and pasted:
text masks (:func:`put_text`), antialiased shapes and boxes (:func:`paste_shape`,
:func:`paste_flat_shape`, :func:`paste_box`), and each game's static layers (cached in its
module). Caches are small and bounded, keyed by what the piece depends on (size, colour,
words), never by a game's state. Pictures go out as palette PNG (:func:`picture_of`): our
pictures are flat colours and their antialiased edges, which 64 colours hold without a visible
change, at a third of the bytes of JPEG q90 and half of a full-colour PNG, in under 10 ms.

Legibility: every picture keeps its smallest text at least ``LEGIBLE_PX`` (11) px tall when
scaled to 400 px wide (a phone); :func:`min_font` gives the size, :func:`font_sizes` checks it.
Symbols a player reads follow the same rule (:func:`symbol_sizes`), and text colours keep 4.5:1
against what is under them (:func:`text_colours`, :func:`contrast`).
"""
from __future__ import annotations

import io
import math
import os
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import ContextManager, Iterator

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

BACKGROUND = (246, 241, 228)
INK = (40, 40, 40)
MUTED = (105, 100, 92)  # grey labels: 4.5:1 (WCAG, body text) on every panel they are drawn on
HIGHLIGHT = (255, 196, 0)
GRID = (205, 198, 180)

# The six colours of the Knizia games (genial, lucky) and cones, each with its symbol.
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (214, 48, 49),
    "orange": (240, 140, 20),
    "yellow": (240, 200, 30),
    "green": (46, 160, 67),
    "blue": (40, 110, 200),
    "purple": (140, 70, 170),
    "white": (250, 250, 250),
    "black": (35, 35, 35),
    "pink": (235, 120, 170),
}
SYMBOLS: dict[str, str] = {
    "red": "circle",
    "orange": "star",
    "yellow": "sun",
    "green": "hexagon",
    "blue": "ring",
    "purple": "diamond",
    "white": "square",
    "black": "cross",
    "pink": "triangle",
}


# ---------------------------------------------------------------------------- text

# Every picture must stay legible when a phone shows it 400 px wide: its smallest text at least
# LEGIBLE_PX there, i.e. a font of LEGIBLE_PX * width / 400 px on the picture (30 px on 1080).
PHONE_WIDTH = 400
LEGIBLE_PX = 11

_RECORDERS: list[list[int]] = []


@contextmanager
def _noting(recorders: list) -> Iterator[list]:
    """A list that collects what is noted into ``recorders`` while the block runs (nested
    blocks each get everything noted inside them)."""
    seen: list = []
    recorders.append(seen)
    try:
        yield seen
    finally:
        recorders.remove(seen)


class _Font(ImageFont.FreeTypeFont):
    """Roboto that notes every size it draws with (see :func:`font_sizes`)."""

    def getmask2(self, text, *args, **kwargs):  # type: ignore[override]
        if _RECORDERS:
            _note(int(self.size))
        return super().getmask2(text, *args, **kwargs)


def _note(size: int) -> None:
    for sizes in _RECORDERS:
        sizes.append(size)


# Symbols a player reads (a colour's shape on a chip, a tile, a badge) follow the text's rule:
# at least LEGIBLE_PX across at 400 px wide. A symbol's size is the diameter of the circle it is
# drawn in, as a font's size is its em. Renderers note them while drawing (:func:`note_symbol`).
_SYMBOL_RECORDERS: list[list[float]] = []


def note_symbol(size: float) -> None:
    """Note a symbol a player reads, ``size`` px across (see :func:`symbol_sizes`)."""
    for sizes in _SYMBOL_RECORDERS:
        sizes.append(float(size))


def symbol_sizes() -> ContextManager[list[float]]:
    """The sizes (px across) of every symbol noted inside the block, like :func:`font_sizes`."""
    return _noting(_SYMBOL_RECORDERS)


# Text colours against what lies under them, noted while drawing (:func:`text_colours`): labels
# are held to WCAG's 4.5:1 for body text, greys included.
_COLOUR_RECORDERS: list[list[tuple[str, tuple, tuple]]] = []


def text_colours() -> ContextManager[list[tuple[str, tuple, tuple]]]:
    """``(text, fill, background)`` of every text drawn by :func:`put_text` inside the block; the
    background is the commonest colour under the text's box before it was drawn."""
    return _noting(_COLOUR_RECORDERS)


def luminance(colour) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def font_sizes() -> ContextManager[list[int]]:
    """The font sizes (px) of every text drawn inside the block, in drawing order.

    ``with font_sizes() as sizes: img = table(...)``; then ``min(sizes) * 400 / img.width`` is
    the smallest text's size on a phone showing the picture 400 px wide."""
    return _noting(_RECORDERS)


def smallest_text(draw_fn, *args, **kwargs) -> tuple[Image.Image, int]:
    """``draw_fn(*args, **kwargs)`` and the smallest font size (px) it drew text with (0: none)."""
    with font_sizes() as sizes:
        image = draw_fn(*args, **kwargs)
    return image, min(sizes, default=0)


def min_font(width: float, at_400: float = LEGIBLE_PX) -> int:
    """The smallest font (px) that a picture ``width`` px wide may use: ``at_400`` px when the
    picture is scaled to 400 px wide."""
    return math.ceil(at_400 * width / PHONE_WIDTH - 1e-9)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = FONT_DIR / ("Roboto-Bold.ttf" if bold else "Roboto-Regular.ttf")
    return _Font(os.fspath(path), int(size))


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in px."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=768)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, x0, y0


def put_text(image: Image.Image, xy: tuple[float, float], text: str, size: int, fill=INK,
             bold: bool = False, anchor: str = "la") -> None:
    """Draw ``text`` on ``image`` like ``ImageDraw.text`` with Roboto at ``size`` px, from a
    cache of rendered masks (drawing the same label again costs a paste, not a FreeType run)."""
    if not text:
        return
    size = int(size)
    if _RECORDERS:
        _note(size)
    mask, x0, y0 = _text_mask(text, size, bold, anchor)
    at = (round(xy[0]) + x0, round(xy[1]) + y0)
    if _COLOUR_RECORDERS:
        _note_colours(image, text, fill, (*at, at[0] + mask.width, at[1] + mask.height))
    image.paste(fill, at, mask)


def _note_colours(image: Image.Image, text: str, fill, box) -> None:
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(image.width, box[2]), min(image.height, box[3])
    if x1 <= x0 or y1 <= y0:
        return  # wholly outside the picture
    region = image.crop((x0, y0, x1, y1)).convert("RGB")
    under = max(region.getcolors(region.width * region.height))[1]
    for seen in _COLOUR_RECORDERS:
        seen.append((text, tuple(fill[:3]), tuple(under)))


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` px wide at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


# Scripts the bundled font draws; anything else (emoji, CJK, RTL marks) is dropped from
# names drawn in pictures. Captions carry the full, escaped name.
_DRAWABLE = ((0x20, 0x24F), (0x370, 0x3FF), (0x400, 0x52F), (0x2010, 0x206F), (0x20A0, 0x20BF))


def safe_text(text: str, limit: int = 16) -> str:
    """A name reduced to characters the font can draw, cut to ``limit`` characters."""
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        code = ord(ch)
        if any(lo <= code <= hi for lo, hi in _DRAWABLE) and unicodedata.category(ch)[0] != "C":
            kept.append(ch)
    cleaned = " ".join("".join(kept).split())
    if not cleaned:
        cleaned = "?"
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of an image (flat colours compress well; Telegram re-encodes anyway)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=3)  # 30 % faster than 6, 15 % larger
    return buf.getvalue()


JPEG_QUALITY = 90
# Chroma at half resolution: side by side with 4:4:4 at q90 nobody can tell the 30 px coloured
# text and 2 px coloured rims apart, 4:2:0 encodes 35 % faster and 25 % smaller, and Telegram
# re-encodes photos as 4:2:0 anyway, so full-resolution colour would not reach a phone.
JPEG_SUBSAMPLING = "4:2:0"


PALETTE_COLOURS = 64
_PALETTE_SAMPLE = 4  # the palette is chosen from every 4th pixel of every 4th row


def encode_picture(image: Image.Image) -> bytes:
    """PNG bytes of an image reduced to a palette of its own :data:`PALETTE_COLOURS` colours.

    Why not JPEG: sharp edges between flat colours are what JPEG does worst (ringing, and 2-3 x
    the bytes of a palette PNG of the same board); why not full-colour PNG: 1.5-2 x the bytes
    and 3 x the time. The palette is chosen from a sample of the pixels (a flat colour or an
    edge blend that covers more than a few pixels is in it); every pixel then takes the
    nearest palette colour, without dithering, which would only add noise to flat areas.
    Most of the time is zlib's (level 1: level 6 saves a quarter of the bytes for 3 x the time)."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    k = _PALETTE_SAMPLE if min(image.size) >= 16 * _PALETTE_SAMPLE else 1
    sample = image.resize((image.width // k, image.height // k), Image.Resampling.NEAREST) if k > 1 else image
    palette = sample.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def encode_jpeg(image: Image.Image, quality: int = JPEG_QUALITY) -> bytes:
    """JPEG bytes of an image: quality 90, 4:2:0, baseline (the fastest to encode)."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=quality, subsampling=JPEG_SUBSAMPLING, optimize=False)
    return buf.getvalue()


def new_canvas(width: int, height: int, colour=BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def _polygon(cx: float, cy: float, r: float, n: int, start_deg: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(start_deg + i * 360 / n)),
         cy + r * math.sin(math.radians(start_deg + i * 360 / n)))
        for i in range(n)
    ]


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + i * 180 / points)
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float,
               fill, outline=INK, width: int = 2) -> None:
    """Draw one of the named shapes centred at (cx, cy) with radius r."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    elif shape == "ring":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        ri = r * 0.45
        draw.ellipse((cx - ri, cy - ri, cx + ri, cy + ri), fill=BACKGROUND, outline=outline, width=width)
    elif shape == "star":
        draw.polygon(_star(cx, cy, r), fill=fill, outline=outline, width=width)
    elif shape == "sun":
        draw.polygon(_star(cx, cy, r, points=8), fill=fill, outline=outline, width=width)
    elif shape == "hexagon":
        draw.polygon(_polygon(cx, cy, r, 6, 30), fill=fill, outline=outline, width=width)
    elif shape == "diamond":
        draw.polygon(_polygon(cx, cy, r, 4, -90), fill=fill, outline=outline, width=width)
    elif shape == "square":
        s = r * 0.8
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill, outline=outline, width=width)
    elif shape == "triangle":
        draw.polygon(_polygon(cx, cy, r, 3, -90), fill=fill, outline=outline, width=width)
    elif shape == "cross":
        draw.polygon(_polygon(cx, cy, r, 4, -45), fill=fill, outline=outline, width=width)
        w = max(2, int(r * 0.25))
        draw.line((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=BACKGROUND, width=w)
        draw.line((cx - r * 0.5, cy + r * 0.5, cx + r * 0.5, cy - r * 0.5), fill=BACKGROUND, width=w)
    else:
        raise ValueError(f"unknown shape {shape!r}")


def draw_symbol(draw: ImageDraw.ImageDraw, colour: str, cx: float, cy: float, r: float,
                outline=INK, width: int = 2) -> None:
    """A colour drawn as its own symbol in its own colour (never colour alone)."""
    note_symbol(2 * r)
    draw_shape(draw, SYMBOLS[colour], cx, cy, r, fill=COLOURS[colour], outline=outline, width=width)


def text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill=INK, bold: bool = False) -> None:
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def png_of(draw_fn, *args, **kwargs) -> bytes:
    """PNG bytes of ``draw_fn(*args, **kwargs)``; module-level so that a partial of it can be
    sent to a worker process. Prefer :func:`picture_of`."""
    return encode_png(draw_fn(*args, **kwargs))


def picture_of(draw_fn, *args, **kwargs) -> bytes:
    """The picture ``draw_fn(*args, **kwargs)`` as bytes to send (see :func:`encode_picture`).

    Module-level, so ``functools.partial(picture_of, render.lucky.table, view, words=...)`` can
    be sent to a worker process (bot/workers/pool.py)."""
    return encode_picture(draw_fn(*args, **kwargs))


# ---------------------------------------------------------------------------- sprites

_SPRITE_SS = 4  # shapes are drawn 4 x larger and reduced: smooth edges


@lru_cache(maxsize=512)
def shape_sprite(shape: str, r: float, fill, outline=INK, width: int = 2) -> Image.Image:
    """An antialiased RGBA image of :func:`draw_shape` ``(shape, r, fill, outline, width)``,
    centred in a square of even size (cached: paste it with :func:`paste_sprite`)."""
    half = math.ceil(r + width + 2)
    ss = _SPRITE_SS
    edge = outline if outline is not None else fill
    base = tuple(edge[:3]) + (0,) if edge is not None else (0, 0, 0, 0)
    img = Image.new("RGBA", (2 * half * ss, 2 * half * ss), base)
    draw_shape(ImageDraw.Draw(img), shape, half * ss, half * ss, r * ss, fill=fill, outline=outline,
               width=width * ss)
    return img.reduce(ss)


def paste_sprite(image: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGBA sprite centred at (cx, cy)."""
    image.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)


def paste_shape(image: Image.Image, shape: str, cx: float, cy: float, r: float, fill,
                outline=INK, width: int = 2) -> None:
    """:func:`draw_shape`, antialiased, from the sprite cache (r rounded to half a pixel)."""
    note_symbol(2 * r)
    paste_sprite(image, shape_sprite(shape, round(r * 2) / 2, fill, outline, int(width)), cx, cy)


def paste_symbol(image: Image.Image, colour: str, cx: float, cy: float, r: float,
                 outline=INK, width: int = 2) -> None:
    """:func:`draw_symbol`, antialiased, from the sprite cache."""
    paste_shape(image, SYMBOLS[colour], cx, cy, r, COLOURS[colour], outline, width)


def mix(colour, other, t: float) -> tuple[int, int, int]:
    """``t`` of ``colour`` and ``1 - t`` of ``other``."""
    return tuple(round(a * t + b * (1 - t)) for a, b in zip(colour[:3], other[:3]))  # type: ignore[return-value]


@lru_cache(maxsize=512)
def flat_shape(shape: str, r: float, fill, outline, width: int, bg) -> Image.Image:
    """:func:`shape_sprite` flattened on the plain colour ``bg``: an RGB square that can be
    pasted without a mask (3-10 times cheaper) where the picture is ``bg`` all around."""
    sprite = shape_sprite(shape, r, fill, outline, width)
    flat = Image.new("RGB", sprite.size, tuple(bg))
    flat.paste(sprite, (0, 0), sprite)
    return flat


def paste_flat(image: Image.Image, flat: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGB tile centred at (cx, cy), without a mask."""
    image.paste(flat, (round(cx - flat.width / 2), round(cy - flat.height / 2)))


def paste_flat_shape(image: Image.Image, shape: str, cx: float, cy: float, r: float, fill, bg,
                     outline=INK, width: int = 2) -> None:
    """:func:`paste_shape` on a plain ``bg`` (the square around the shape must be ``bg``)."""
    note_symbol(2 * r)
    paste_flat(image, flat_shape(shape, round(r * 2) / 2, fill, outline, int(width), tuple(bg)), cx, cy)


def paste_flat_symbol(image: Image.Image, colour: str, cx: float, cy: float, r: float, bg,
                      outline=INK, width: int = 2) -> None:
    """:func:`paste_symbol` on a plain ``bg``."""
    paste_flat_shape(image, SYMBOLS[colour], cx, cy, r, COLOURS[colour], bg, outline, width)


def _drawn_box(width: int, height: int, radius: int, fill, outline, line: int, bg) -> Image.Image:
    """A rounded rectangle (antialiased corners) on ``bg``, as an RGB image to paste without a
    mask where the picture is ``bg``."""
    ss = 3
    img = Image.new("RGB", (width * ss, height * ss), tuple(bg))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, width * ss - 1, height * ss - 1), radius=radius * ss,
                                          fill=fill, outline=outline, width=line * ss if outline else 0)
    return img.reduce(ss)


@lru_cache(maxsize=256)
def box_corners(radius: int, fill, outline, line: int, bg) -> Image.Image:
    """The smallest box of this kind that holds its four corners, each ``radius + line + 1``
    px square. Only corners are kept: a whole box per size (panels, columns, badges) came to
    25 MB of the drawing process."""
    k = radius + line + 1
    return _drawn_box(2 * k, 2 * k, radius, fill, outline, line, bg)


def paste_box(image: Image.Image, box, radius: int, fill, outline=None, line: int = 0,
              bg=BACKGROUND) -> None:
    """A rounded rectangle at ``box`` (x0, y0, x1, y1, rounded to whole pixels) on a plain
    ``bg``: its straight edges and inside are plain colour, its corners come from
    :func:`box_corners` (the same pixels as drawing the whole box antialiased)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    radius, line, fill, bg = int(radius), int(line), tuple(fill), tuple(bg)
    outline = tuple(outline) if outline is not None and line else None
    k = radius + line + 1
    if x1 - x0 < 2 * k or y1 - y0 < 2 * k:
        image.paste(_drawn_box(x1 - x0, y1 - y0, radius, fill, outline, line, bg), (x0, y0))
        return
    if outline is not None:
        image.paste(outline, (x0, y0, x1, y1))
        image.paste(fill, (x0 + line, y0 + line, x1 - line, y1 - line))
    else:
        image.paste(fill, (x0, y0, x1, y1))
    corners = box_corners(radius, fill, outline, line, bg)
    for cx, cy in ((0, 0), (k, 0), (0, k), (k, k)):
        image.paste(corners.crop((cx, cy, cx + k, cy + k)), (x1 - k if cx else x0, y1 - k if cy else y0))


def stored_layer(image: Image.Image) -> Image.Image:
    """A static layer as a cache keeps it: in a palette of its own colours, a quarter of the
    memory. A layer of flat colours and their edges has about 256: up to 256 they are kept
    exactly (maximum coverage keeps each colour; the fast octree would shift them all), past
    that a few edge pixels move by one level. Use it through :func:`layer_copy`."""
    return image.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)


def layer_copy(layer: Image.Image) -> Image.Image:
    """A picture to draw on, starting from a :func:`stored_layer` (0.4 ms more than a copy)."""
    return layer.convert("RGB")
