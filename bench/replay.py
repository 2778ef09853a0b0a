"""The replay (🎞 under the results) of a long 4-player Ingenious game: the time to make it and
its size (goal: at most 2 s and 2 MB). Made as the bot makes it: positions rebuilt from the
action log, each drawn by the adapter's table picture, the GIF encoded (``render/replay.py``);
in the bot the drawing and encoding run in the drawing process, the same code."""
from __future__ import annotations

import random
import time

from bench.measure import names
from bot.games import kit_for
from engines import genial as g
from engines.replay import public_views
from render.replay import LABELS, animation
from bot.words.i18n import labels

NAMES = names("genial")


def _long_game(players: int = 4, seeds: range = range(30)) -> tuple[int, list[tuple[int, str]]]:
    """The seed and action log of the longest random game among ``seeds``."""
    best: tuple[int, list] = (0, [])
    for seed in seeds:
        state, chooser, log = g.setup(players, g.Options(), seed), random.Random(seed), []
        while (seat := g.current_player(state)) is not None:
            action = chooser.choice(g.legal_actions(state, seat))
            log.append((seat, g.encode_action(action)))
            state, _ = g.apply(state, seat, action)
        if len(log) > len(best[1]):
            best = (seed, log)
    return best


def make(seed: int, log: list, lang: str = "ru") -> bytes:
    ui = kit_for("genial").ui
    steps = public_views("genial", 4, None, seed, log)
    return animation([ui.table_picture(s.view, NAMES, lang, s.events) for s in steps],
                     words=labels(lang, "picture", LABELS))


def figures() -> list[tuple[str, float, str]]:
    seed, log = _long_game()
    make(seed, log[:3])  # warm the static layers and fonts, as a drawing process that drew tables has
    walls, cpus, data = [], [], b""
    for _ in range(3):
        c0, t0 = time.process_time(), time.perf_counter()
        data = make(seed, log)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return [
        ("replay: long 4-player genial game, moves (frames = moves + 1)", float(len(log)), "moves"),
        ("replay: made (rebuild + draw + scale + GIF), best of 3", min(walls) * 1000, "ms"),
        ("replay:   CPU time of it", min(cpus) * 1000, "ms"),
        ("replay: GIF size", len(data) / 1024, "KB"),
        ("replay: per frame", min(walls) * 1000 / (len(log) + 1), "ms"),
    ]
