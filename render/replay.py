"""A whole game as one animated GIF: a frame per position, each the game's own table picture.

    animation(frames, *, words, width) -> bytes
    seconds(count) -> int        how long the replay of ``count`` positions lasts

``frames`` are picklable callables (``functools.partial`` of a game's ``table``), one per
position, opening first; each returns the table as a ``PIL.Image``. The job runs in the drawing
process (bot/workers/pool.py) like any picture.

Its length: about a minute at most, however long the game (a 150-move lucky game took 141 s at
a fixed pace). A short game goes at MOVE_MS a move; a longer one faster, down to FASTEST_MS;
beyond that only every second (third…) position of the middle is shown. The opening, the last
few moves (at MOVE_MS: the end can be followed) and the final position (held) are always shown
(:func:`schedule`).

Why a GIF of one shared palette: our tables are flat colours and their antialiased edges, which
a palette of the board's own colours holds without a visible change (see
``common.encode_picture``); with one palette for every frame, a frame after the first stores
only the pixels that changed (the rest transparent), so a 100-move game is a few hundred KB
and encodes in well under a second. MP4 would need a codec Pillow does not have.

Every frame gets a band above the table: the move number and a progress bar, so that a frame
that changed little (a swap) is still a frame of its own (GIF writers merge identical frames),
and a viewer knows where they are. Frames may differ in size (trio's board grows): each is
scaled to ``width`` and the canvas is as tall as the tallest; the shorter ones are padded.
"""
from __future__ import annotations

import io
import math
from typing import Callable, Mapping, Sequence

from PIL import Image

from render.common import BACKGROUND, GRID, HIGHLIGHT, INK, MUTED, min_font, put_text

# px: half of the 1080 px tables (lucky, cones, genial), which a box filter halves exactly, sharp
# and ten times faster than resampling to any other width (640 px made a long genial replay take
# 1.5 times as long); still more than a phone shows (~400 px), and legible there by the same rule
# as every picture (``min_font``: the text keeps its proportion).
WIDTH = 540
NARROW = 400  # px: the width tried when the first result exceeds ``max_bytes``
MAX_BYTES = 4 * 1024 * 1024  # far below Telegram's 50 MB for an animation
MOVE_MS = 900  # each position of a short game, and the last few of any game
FASTEST_MS = 250  # the quickest a move goes by (a GIF's delay is in hundredths of a second)
LENGTH_MS = 60_000  # a replay lasts about this long at most
SLOW_END = 3  # moves before the final position shown at MOVE_MS
FIRST_MS = 1500  # the opening: a moment to see who plays
FINAL_MS = 6000  # the final position, held (a GIF loops: this is the pause before it starts again)
COLOURS = 255  # one index is left for the transparency of unchanged pixels
_SAMPLE = 3  # the palette is chosen from every 3rd pixel of every 3rd row of a few frames

# The band's words, in English (the msgids of their catalogue entries under "picture"): the bot
# hands :func:`animation` them in the reader's language.
LABELS = {"start": "Start", "move": "Move {n} of {total}", "final": "Final position"}


def band_height(width: int) -> int:
    """The band above each table: a legible line (``min_font``) and the progress bar."""
    return min_font(width, 13) + min_font(width, 13) // 2 + 14


def _band(width: int, index: int, total: int, words: Mapping[str, str]) -> Image.Image:
    """"Move 12 of 45" and a bar that fills as the game goes on (``total`` moves)."""
    height = band_height(width)
    band = Image.new("RGB", (width, height), BACKGROUND)
    size = min_font(width, 13)
    if index == 0:
        label = words["start"]
    elif index == total:
        label = f"{words['final']} · " + words["move"].format(n=total, total=total)
    else:
        label = words["move"].format(n=index, total=total)
    put_text(band, (12, 5), label, size, fill=INK, bold=True)
    bar_top = height - 8
    band.paste(GRID, (12, bar_top, width - 12, bar_top + 4))
    done = 12 + round((width - 24) * (index / total if total else 1))
    if done > 12:
        band.paste(HIGHLIGHT if index < total else MUTED, (12, bar_top, done, bar_top + 4))
    return band


def _scaled(image: Image.Image, width: int) -> Image.Image:
    """``image`` at ``width`` px wide: halved (``reduce``, exact and cheap) while it is at
    least twice as wide, then resampled with a box filter (area averaging: no ringing on flat
    colours) for what is left."""
    image = image.convert("RGB")
    while image.width >= 2 * width:
        image = image.reduce(2)
    if image.width != width:
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.Resampling.BOX)
    return image


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for the whole animation, chosen from a sample of the opening, the middle and
    the final frame (together they hold every colour the game uses)."""
    picks = sorted({0, len(frames) // 2, len(frames) - 1})
    samples = [f.resize((max(1, f.width // _SAMPLE), max(1, f.height // _SAMPLE)), Image.Resampling.NEAREST)
               for f in (frames[i] for i in picks)]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)), BACKGROUND)
    y = 0
    for s in samples:
        sheet.paste(s, (0, y))
        y += s.height
    return sheet.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def frames_of(frames: Sequence[Callable[[], Image.Image]], *, words: Mapping[str, str] | None = None,
              width: int = WIDTH,
              shown: Sequence[int] | None = None) -> list[Image.Image]:
    """The positions ``shown`` (default: every one) drawn, scaled to ``width``, under their band
    (which counts every position), on canvases of one size (RGB)."""
    total = len(frames) - 1
    shown = range(len(frames)) if shown is None else shown
    tables = [_scaled(frames[i](), width) for i in shown]
    band = band_height(width)
    height = band + max(t.height for t in tables)
    out = []
    for i, table in zip(shown, tables):
        # Padding takes the colour of the table's bottom edge, so a short frame looks finished.
        canvas = Image.new("RGB", (width, height), table.getpixel((0, table.height - 1)))
        canvas.paste(_band(width, i, total, {**LABELS, **words} if words else LABELS), (0, 0))
        canvas.paste(table, (0, band))
        out.append(canvas)
    return out


def schedule(count: int) -> list[tuple[int, int]]:
    """(position, milliseconds) of each frame of a replay of ``count`` positions: the opening a
    little longer, the middle as fast as it must be for about LENGTH_MS in all (every k-th
    position once FASTEST_MS is not enough), the last SLOW_END moves at MOVE_MS, the final
    position held."""
    last = count - 1
    if last <= 0:
        return [(0, FINAL_MS)]
    end = list(range(max(1, last - SLOW_END), last))
    middle = list(range(1, end[0] if end else last))
    room = LENGTH_MS - FIRST_MS - FINAL_MS - MOVE_MS * len(end)
    pace = MOVE_MS
    if middle:
        middle = middle[::max(1, math.ceil(len(middle) * FASTEST_MS / room))]
        pace = max(FASTEST_MS, min(MOVE_MS, room // len(middle) // 10 * 10))  # whole hundredths
    return [(0, FIRST_MS)] + [(i, pace) for i in middle] + [(i, MOVE_MS) for i in end] + [(last, FINAL_MS)]


def seconds(count: int) -> int:
    """How long a replay of ``count`` positions lasts, in whole seconds (said in its caption)."""
    return round(sum(ms for _, ms in schedule(count)) / 1000)


def durations(count: int) -> list[int]:
    """Milliseconds each frame of a replay of ``count`` positions shows (see :func:`schedule`)."""
    return [ms for _, ms in schedule(count)]


def encode_gif(frames: Sequence[Image.Image], durations_ms: Sequence[int]) -> bytes:
    """A looping GIF of RGB ``frames`` (of one size) in one shared palette, without dithering
    (it would only add noise to flat areas, and defeat the unchanged-pixel transparency)."""
    palette = _palette(frames)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    buf = io.BytesIO()
    indexed[0].save(buf, format="GIF", save_all=True, append_images=indexed[1:], duration=list(durations_ms),
                    loop=0, optimize=True, disposal=1)
    return buf.getvalue()


def animation(frames: Sequence[Callable[[], Image.Image]], *, words: Mapping[str, str] | None = None,
              width: int = WIDTH, max_bytes: int = MAX_BYTES) -> bytes:
    """The GIF of a whole game (see the module's docstring); narrower when it would exceed
    ``max_bytes``. ``words``: the band's labels (:data:`LABELS`) in the reader's language."""
    if not frames:
        raise ValueError("a replay needs at least the opening position")
    plan = schedule(len(frames))
    drawn = frames_of(frames, words=words, width=width, shown=[i for i, _ in plan])  # the skipped: never drawn
    ms = [d for _, d in plan]
    data = encode_gif(drawn, ms)
    if len(data) > max_bytes and width > NARROW:
        # The frames made smaller, not drawn again (drawing is most of the cost); the band's
        # text is sized in proportion to the width, so it shrinks with them.
        data = encode_gif([_scaled(frame, NARROW) for frame in drawn], ms)
    return data
