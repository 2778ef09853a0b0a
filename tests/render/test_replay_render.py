"""The replay's GIF (render/replay.py): a frame per position, one size, one palette, the final
position held, each frame the table of its public view, legible on a phone."""
from __future__ import annotations

import io
import pickle
from functools import partial

from PIL import Image, ImageChops, ImageStat

from engines import registry
from engines.replay import public_views
from render import cones as cones_drawing
from render import replay
from render import trio as trio_drawing
from render.common import LEGIBLE_PX, PHONE_WIDTH, font_sizes
from tests.engines.test_conformance import playout
from tests.render.words import words

NAMES = ["Anna", "Борис", "Clara", "Dan"]


def steps_of(gid: str, players: int, seed: int):
    _, log, _ = playout(registry.engine(gid), players, seed)
    return public_views(gid, players, None, seed, log)


def gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for i in range(im.n_frames):
            im.seek(i)
            out.append((im.convert("RGB"), im.info["duration"]))
    return out


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two pictures of one size (0-255)."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_a_frame_per_position_of_one_size_and_the_final_one_held():
    steps = steps_of("trio", 3, 0)  # trio's board grows: its tables differ in size
    frames = [partial(trio_drawing.table, s.view, words=words("trio", "en"), names=NAMES[:3]) for s in steps]
    assert len({f().size for f in frames[::5]}) > 1
    data = replay.animation(frames, words=words("replay", "en"))
    shown = gif_frames(data)
    assert len(shown) == len(steps)
    assert {im.size for im, _ in shown} == {shown[0][0].size} and shown[0][0].width == replay.WIDTH
    durations = [d for _, d in shown]
    assert durations == replay.durations(len(steps)) and durations[-1] >= 5 * durations[1]
    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "GIF" and im.mode == "P" and im.info.get("loop") == 0


def test_each_frame_is_the_table_of_its_public_view_and_the_last_reveals_the_goals():
    steps = steps_of("cones", 3, 1)
    frames = [partial(cones_drawing.table, s.view, words=words("cones", "en"), names=NAMES[:3]) for s in steps]
    shown = gif_frames(replay.animation(frames, words=words("replay", "en")))
    band = replay.band_height(replay.WIDTH)
    for i in (0, len(steps) // 2, len(steps) - 2, len(steps) - 1):
        table = replay._scaled(frames[i](), replay.WIDTH)
        frame = shown[i][0].crop((0, band, replay.WIDTH, band + table.height))
        assert difference(frame, table) < 2.0, i  # the palette moves edges a little, nothing more
        if i < len(steps) - 1:  # and it is not the final table (with the goals) drawn early
            final = replay._scaled(frames[-1](), replay.WIDTH).crop((0, 0, replay.WIDTH, table.height))
            assert difference(frame, final) > 2.0, i


def test_the_band_is_legible_on_a_phone_and_says_where_the_game_is():
    for lang in ("en", "ru"):
        with font_sizes() as sizes:
            replay._band(replay.WIDTH, 3, 10, words("replay", lang))
        assert min(sizes) * PHONE_WIDTH / replay.WIDTH >= LEGIBLE_PX
    # «Шаг», not «Ход»: the table below says «Ход: Аня» (whose turn), another meaning of «ход»
    assert words("replay", "ru")["move"].format(n=3, total=10) == "Шаг 3 из 10"


def test_too_big_a_gif_is_made_narrower_and_the_job_pickles():
    steps = steps_of("cones", 2, 0)[:6]
    frames = [partial(cones_drawing.table, s.view, words=words("cones", "ru"), names=NAMES[:2]) for s in steps]
    job = pickle.loads(pickle.dumps(partial(replay.animation, frames, words=words("replay", "ru"), max_bytes=1)))
    shown = gif_frames(job())
    assert len(shown) == 6 and shown[0][0].width == replay.NARROW


def test_a_long_game_plays_in_about_a_minute_its_end_at_a_pace_one_can_follow():
    """lucky's 150 moves took 141 s at 0.9 s a move. Any game now lasts about a minute at most,
    faster the longer it is; the opening, the last few moves and the held end are always there."""
    previous = float("inf")  # seconds of replay per move of the game
    for moves in (5, 40, 65, 150, 199, 400, 1200):
        plan = replay.schedule(moves + 1)
        shown = [i for i, _ in plan]
        ms = [d for _, d in plan]
        assert shown == sorted(set(shown)) and shown[0] == 0 and shown[-1] == moves  # in order, opening to end
        assert shown[-1 - replay.SLOW_END:] == list(range(moves - replay.SLOW_END, moves + 1))
        assert ms[-1] == replay.FINAL_MS and ms[-1 - replay.SLOW_END:-1] == [replay.MOVE_MS] * replay.SLOW_END
        assert sum(ms) <= replay.LENGTH_MS + 1000, (moves, sum(ms))
        assert replay.seconds(moves + 1) == round(sum(ms) / 1000)
        assert all(replay.FASTEST_MS <= d <= replay.MOVE_MS and d % 10 == 0 for d in ms[1:-1]), (moves, ms[1])
        assert sum(ms) / moves < previous, moves  # the longer the game, the faster it goes by
        previous = sum(ms) / moves
        if moves <= 150:  # ~200 moves fit at the fastest pace: only longer games skip positions
            assert len(plan) == moves + 1
    assert replay.seconds(151) >= 55 and len(replay.schedule(1201)) < 220


def test_a_long_game_draws_only_the_positions_it_shows():
    drawn = []

    def frame(i):
        drawn.append(i)
        return Image.new("RGB", (1080, 60), (i % 256, 100, 200))

    count = 600
    data = replay.animation([partial(frame, i) for i in range(count)], words=words("replay", "ru"))
    shown = gif_frames(data)
    plan = replay.schedule(count)
    assert drawn == [i for i, _ in plan] and len(shown) == len(plan) < count
    assert [d for _, d in shown] == [d for _, d in plan]
