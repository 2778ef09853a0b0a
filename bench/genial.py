"""Benchmarks of Ingenious: refreshing a late 4-player table, the move-entry pictures, listing
placements, playouts."""
from __future__ import annotations

import random
import time

from bench.lucky import refresh_figures
from bench.measure import names as table_names
from engines import genial as g
from render import genial as rg
from bot.games.genial.ui import picture_words


def _late(players: int, seed: int, filled: float) -> g.State:
    """A position with ``filled`` of the free cells covered (random play)."""
    state = g.setup(players, g.Options(), seed)
    chooser = random.Random(seed)
    free = state.occ.count(-1)
    while (seat := g.current_player(state)) is not None and state.occ.count(-1) > free * (1 - filled):
        state, _ = g.apply(state, seat, chooser.choice(g.legal_actions(state, seat)))
    return state


def _timed(fn, repeat: int) -> float:
    """Best-of-3 mean time of ``fn`` in milliseconds."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - t0) / repeat)
    return best * 1000


def _playouts(players: int, seconds: float) -> float:
    done, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = g.setup(players, g.Options(), seed)
        chooser = random.Random(seed)
        while (seat := g.current_player(state)) is not None:
            state, _ = g.apply(state, seat, chooser.choice(g.legal_actions(state, seat)))
        done += 1
        seed += 1
    return done / (time.perf_counter() - t0)


def figures() -> list[tuple[str, float, str]]:
    rows: list[tuple[str, float, str]] = []
    late = _late(4, 7, 0.8)
    view = g.view(late)
    names = table_names("genial")
    rows += refresh_figures("genial", "late 4-player table",
                            lambda: rg.table(view, words=picture_words("ru"), names=names))

    mid = _late(4, 11, 0.45)
    seat = g.current_player(mid)
    rack = mid.racks[seat]
    rows.append(("genial: legal_actions, 6-tile rack, mid 4p",
                 _timed(lambda: g.legal_actions(mid, seat), 20), "ms"))
    rows.append(("genial: legal_actions count there", float(len(g.legal_actions(mid, seat))), "actions"))

    def place_and_score():
        for tile in rack:
            for a, b in g.legal_placements(mid, seat, tile):
                g.placement_score(mid, seat, tile, a, b)

    rows.append(("genial: placements + scores of a 6-tile rack, mid 4p",
                 _timed(place_and_score, 3), "ms"))
    tile = rack[0]
    a, b = g.legal_placements(mid, seat, tile)[0]
    view_mid = g.view(mid, seat)
    colours = [g.COLOURS[tile[0]], g.COLOURS[tile[1]]]
    cands = [(k + 1, colours[0], colours[1], pa, pb)
             for k, (pa, pb) in enumerate(g.legal_placements(mid, seat, tile)[:9])]
    rows.append(("genial: candidates picture, a page of 9 placements", _timed(
        lambda: rg.candidates(view_mid, cands, words=picture_words("ru"), names=names), 3), "ms"))
    rows.append(("genial: preview render", _timed(
        lambda: rg.preview(g.view(mid, seat), [g.COLOURS[tile[0]], g.COLOURS[tile[1]]], a, b,
                           g.placement_score(mid, seat, tile, a, b), words=picture_words("ru")), 5), "ms"))
    rows.append(("genial: random playouts, 2 players", _playouts(2, 1.5), "games/s"))
    rows.append(("genial: random playouts, 4 players", _playouts(4, 1.5), "games/s"))
    return rows


if __name__ == "__main__":
    for label, value, unit in figures():
        print(f"{label:70s} {value:10.2f} {unit}")
