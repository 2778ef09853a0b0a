"""Benchmarks for lucky: rendering a mid-game 4-player table, random playouts per second."""
from __future__ import annotations

import random
import time

from engines import lucky as L
from render import lucky as RL
from render.common import encode_png

NAMES = ["Борис", "Alice", "Катерина", "Dmitry"]


def _midgame(players: int = 4, seed: int = 5, steps: int = 110):
    state = L.setup(players, L.Options(), seed)
    chooser = random.Random(seed)
    events: list = []
    for _ in range(steps):
        seat = L.current_player(state)
        if seat is None:
            break
        state, events = L.apply(state, seat, chooser.choice(L.legal_actions(state, seat)))
    return state, events


def _playout(players: int, seed: int) -> int:
    state = L.setup(players, L.Options(), seed)
    chooser = random.Random(seed)
    steps = 0
    while (seat := L.current_player(state)) is not None:
        state, _ = L.apply(state, seat, chooser.choice(L.legal_actions(state, seat)))
        steps += 1
    return steps


def figures() -> list[tuple[str, float, str]]:
    state, events = _midgame()
    view = L.view(state)
    RL.table(view, lang="ru", names=NAMES, last=events)  # warm caches and fonts
    runs = 10
    t0 = time.perf_counter()
    for _ in range(runs):
        image = RL.table(view, lang="ru", names=NAMES, last=events)
    render_ms = (time.perf_counter() - t0) * 1000 / runs
    t0 = time.perf_counter()
    png = encode_png(image)
    encode_ms = (time.perf_counter() - t0) * 1000

    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        steps += _playout(4, games)
        games += 1
    elapsed = time.perf_counter() - t0
    return [
        ("lucky: render 4-player mid-game table", render_ms, "ms"),
        ("lucky: encode that table as PNG", encode_ms, "ms"),
        ("lucky: PNG size of that table", len(png) / 1024, "KiB"),
        ("lucky: random 4-player playouts", games / elapsed, "games/s"),
        ("lucky: actions applied in playouts", steps / elapsed, "actions/s"),
    ]


if __name__ == "__main__":
    for label, value, unit in figures():
        print(f"{label}: {value:.1f} {unit}")
