"""Benchmarks for lucky: refreshing a mid-game 4-player table, random playouts per second.

:func:`refresh_figures` (used by every game's section) times what the bot pays per table edit:
drawing the picture and encoding it as the JPEG it sends, repeated, as p50 and p99 of wall
time (other processes share this machine: the p99 shows them) and the p50 of the thread's
own CPU time (what the picture costs when nothing else runs).
"""
from __future__ import annotations

import random
import time

from bench.measure import names, percentile
from engines import lucky as L
from engines.base import random_steps
from render import lucky as RL
from bot.games.lucky.ui import picture_words
from render.common import encode_jpeg, encode_picture

NAMES = names("lucky")


def _midgame(players: int = 4, seed: int = 5, steps: int = 110):
    return random_steps(L, players, L.Options(), seed, steps)


def _playout(players: int, seed: int) -> int:
    state = L.setup(players, L.Options(), seed)
    chooser = random.Random(seed)
    steps = 0
    while (seat := L.current_player(state)) is not None:
        state, _ = L.apply(state, seat, chooser.choice(L.legal_actions(state, seat)))
        steps += 1
    return steps


def refresh_figures(game: str, what: str, draw, runs: int = 80) -> list[tuple[str, float, str]]:
    """Figures of ``draw()`` + encoding (what the bot sends: palette PNG), repeated ``runs`` times
    after a warm-up; JPEG q90 of the same picture for comparison."""
    image = draw()  # warm the static layers, sprites and text masks
    total, drawing, encoding, cpu = [], [], [], []
    data = b""
    for _ in range(runs):
        c0, t0 = time.thread_time(), time.perf_counter()
        image = draw()
        t1 = time.perf_counter()
        data = encode_picture(image)
        t2, c1 = time.perf_counter(), time.thread_time()
        total.append((t2 - t0) * 1000)
        drawing.append((t1 - t0) * 1000)
        encoding.append((t2 - t1) * 1000)
        cpu.append((c1 - c0) * 1000)
    t0 = time.perf_counter()
    jpeg = encode_jpeg(image)
    jpeg_ms = (time.perf_counter() - t0) * 1000
    w, h = image.size
    return [
        (f"{game}: refresh {what} (draw + encode), p50", percentile(total, 0.5), "ms"),
        (f"{game}: refresh {what} (draw + encode), p99", percentile(total, 0.99), "ms"),
        (f"{game}:   of which drawing, p50 / p99", percentile(drawing, 0.5), f"ms / {percentile(drawing, 0.99):.1f} ms"),
        (f"{game}:   of which encoding, p50 / p99", percentile(encoding, 0.5), f"ms / {percentile(encoding, 0.99):.1f} ms"),
        (f"{game}:   CPU time of a refresh (no contention), p50", percentile(cpu, 0.5), "ms"),
        (f"{game}:   size ({w}x{h}, palette PNG)", len(data) / 1024, "KiB"),
        (f"{game}:   the same picture as JPEG q90: encode, size", jpeg_ms, f"ms, {len(jpeg) / 1024:.0f} KiB"),
    ]


def figures() -> list[tuple[str, float, str]]:
    state, events = _midgame()
    view = L.view(state)
    rows = refresh_figures("lucky", "4-player mid-game table",
                           lambda: RL.table(view, words=picture_words("ru"), names=NAMES, last=events))

    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        steps += _playout(4, games)
        games += 1
    elapsed = time.perf_counter() - t0
    return rows + [
        ("lucky: random 4-player playouts", games / elapsed, "games/s"),
        ("lucky: actions applied in playouts", steps / elapsed, "actions/s"),
    ]


if __name__ == "__main__":
    for label, value, unit in figures():
        print(f"{label}: {value:.1f} {unit}")
