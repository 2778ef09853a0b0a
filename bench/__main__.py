"""``python -m bench``: speed figures of the platform and every game. Figures, not asserts.

``python -m bench arena --game G ...``: computer players against each other (bench/arena.py).
"""
from __future__ import annotations

import importlib
import sys
import time

from engines import registry

# section name -> module ("platform" lives in bench/presses.py: a bench/platform.py would shadow
# the standard library's platform for ``python bench/bytes.py``); then a section per game
# (bench/<game>.py, where the game has one)
SECTIONS = {"platform": "presses", **{kind: kind for kind in registry.game_ids()}, "replay": "replay"}


def main(argv: list[str]) -> int:
    if argv[:1] == ["arena"]:
        from bench import arena
        return arena.main(argv[1:])
    if argv[:1] in (["load"], ["inline"], ["fuzz"], ["faults"], ["bytes"], ["route"], ["busy"], ["records"], ["honours"], ["metrics"], ["webapp"]):  # long runs with their own arguments
        module = importlib.import_module(f"bench.{argv[0]}")
        for label, value, unit in module.figures(argv[1:]):
            print(f"{label:<78} {value:>10.2f} {unit}", flush=True)
        return 0
    wanted = [a for a in argv if a in SECTIONS] or list(SECTIONS)
    for name in wanted:
        try:
            module = importlib.import_module(f"bench.{SECTIONS[name]}")
        except ImportError as exc:
            print(f"{name}: not available ({exc})")
            continue
        started = time.perf_counter()
        for label, value, unit in module.figures():
            print(f"{label:<58} {value:>10.2f} {unit}")
        print(f"  ({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
