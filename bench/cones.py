"""Benchmarks of the cones game: rendering a 4-player table mid-game, engine playouts."""
from __future__ import annotations

import random
import time

from bench.lucky import refresh_figures
from bench.measure import names
from engines import cones
from render import cones as render_cones
from bot.games.cones.ui import picture_words

NAMES = names("cones")


def _mid_game(players: int = 4, seed: int = 1, steps: int = 20):
    state = cones.setup(players, cones.Options(), seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        seat = cones.current_player(state)
        state, _ = cones.apply(state, seat, chooser.choice(cones.legal_actions(state, seat)))
    return state


def _playout(seed: int, players: int) -> None:
    state = cones.setup(players, cones.Options(), seed)
    chooser = random.Random(seed)
    while (seat := cones.current_player(state)) is not None:
        state, _ = cones.apply(state, seat, chooser.choice(cones.legal_actions(state, seat)))


def figures() -> list[tuple[str, float, str]]:
    view = cones.view(_mid_game(), None)
    out = refresh_figures("cones", "4-player table mid-game",
                          lambda: render_cones.table(view, words=picture_words("ru"), names=NAMES))
    for players in (2, 4):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < 1.5:
            _playout(n, players)
            n += 1
        rate = n / (time.perf_counter() - t0)
        out.append((f"cones: random playouts, {players} players", rate, "games/s"))
    state = _mid_game()
    seat = cones.current_player(state)
    calls, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        cones.legal_actions(state, seat)
        calls += 1
    out.append(("cones: legal_actions, 4 players mid-game",
                (time.perf_counter() - t0) / calls * 1e6, "µs"))
    return out


if __name__ == "__main__":
    for label, value, unit in figures():
        print(f"{label}: {value:.1f} {unit}")
