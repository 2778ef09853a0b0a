"""trio benchmarks: late-board render, legal placements of a hand, random playouts."""
from __future__ import annotations

import dataclasses
import random
import time

from engines import trio


def _late_state():
    """The last position before the end of the longest of a few random 4-player games."""
    best = None
    for seed in range(40):
        s = trio.setup(4, None, seed)
        rng = random.Random(seed)
        prev = s
        while not s.over:
            prev = s
            s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
        if best is None or len(prev.board) > len(best.board):
            best = prev
    return best


def _playouts(players: int, seconds: float) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = trio.setup(players, None, games)
        rng = random.Random(games)
        while not s.over:
            s, _ = trio.apply(s, s.current, rng.choice(trio.legal_actions(s, s.current)))
        games += 1
    return games / (time.perf_counter() - start)


def figures() -> list[tuple[str, float, str]]:
    from bench.lucky import refresh_figures
    from render import trio as render
    from bot.games.trio.ui import picture_words
    from render.common import encode_picture

    late = _late_state()
    view = trio.view(late, None)
    names = ["Anna", "Boris", "Clara", "Dmitry"]
    rows = refresh_figures("trio", f"late table ({len(late.board)} tiles)",
                           lambda: render.table(view, words=picture_words("ru"), names=names))
    n = 10

    tile = max(late.hands[late.current], key=lambda x: len(trio._placements_of(late, x)))
    places = trio.legal_placements(late, late.current, tile)
    t = time.perf_counter()
    for _ in range(n):
        encode_picture(render.placements(view, tile, places, words=picture_words("ru")))
    rows.append(("trio: draw + encode of the placements picture",
                 round((time.perf_counter() - t) / n * 1000, 1), "ms"))

    # legal placements of a 5-tile hand (topped up from the pool) on a fresh, uncached copy
    # of the late board
    seat = late.current
    cards = (late.hands[seat] + late.pool)[:5]
    hands = tuple(cards if i == seat else h for i, h in enumerate(late.hands))
    hand = len(cards)
    reps = 300
    t = time.perf_counter()
    for _ in range(reps):
        fresh = dataclasses.replace(late, hands=hands)  # the cache starts empty
        trio.legal_actions(fresh, seat)
    us = (time.perf_counter() - t) / reps * 1e6
    rows.append((f"trio: legal placements of a {hand}-tile hand, late board", round(us, 1), "us"))

    for players in (2, 4):
        rows.append((f"trio: random playouts, {players} players",
                     round(_playouts(players, 1.5), 1), "games/s"))
    return rows


if __name__ == "__main__":
    for label, value, unit in figures():
        print(f"{label:60s} {value:>10} {unit}")
