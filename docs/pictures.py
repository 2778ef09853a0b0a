"""The pictures in docs/ (and the README): each game's table and genial's candidates, as a phone
shows them (400 px wide), Russian, 4 players, from seeded games.

    python -m docs.pictures            # rewrites docs/*.png
    python -m docs.pictures OUT_DIR    # writes them to OUT_DIR, each also at full size (*-full.png)
"""
from __future__ import annotations

import os
import sys
from types import SimpleNamespace

from PIL import Image

from engines import cones, genial as g, lucky, trio
from engines.base import event_dict, random_steps
from render import genial as rg
from render.common import PHONE_WIDTH
from bot.games import kit_for
from bot.games.genial import entry

NAMES = ["Маша", "Витя", "Игорь", "Алёна"]


def _genial_candidates() -> Image.Image:
    """The first page of placements of one tile, as the bot ranks them (best for the player's
    weakest colour first), in a crowded mid-game."""
    state, _ = random_steps(g, 4, g.Options(), 11, 30)
    seat = g.current_player(state)
    tile = next(t for t in state.racks[seat] if t[0] != t[1])
    view = g.view(state, seat)
    colours = (g.COLOURS[tile[0]], g.COLOURS[tile[1]])
    cands = entry.ranked(SimpleNamespace(state=state), seat, view, colours)
    return rg.candidates(view, entry.drawn_page(cands[:entry.PER_PAGE], 0), words=entry.picture_words("ru"))


def pictures() -> dict[str, Image.Image]:
    """Full-size pictures by file name."""
    cones_state, _ = random_steps(cones, 4, cones.Options(), 6, 20)
    genial_state, _ = random_steps(g, 4, g.Options(), 7, 60)
    lucky_state, lucky_events = random_steps(lucky, 4, lucky.Options(), 4, 110)
    trio_state, _ = random_steps(trio, 4, None, 3, 16)
    return {
        "table-cones.png": _table("cones", cones.view(cones_state, None)),
        "table-genial.png": _table("genial", g.view(genial_state)),
        "table-lucky.png": _table("lucky", lucky.view(lucky_state), [event_dict(e) for e in lucky_events]),
        "table-trio.png": _table("trio", trio.view(trio_state, None)),
        "genial-candidates.png": _genial_candidates(),
    }


def _table(kind: str, view: dict, events: list[dict] | None = None) -> Image.Image:
    """The group table's picture as the bot draws it (its adapter's ``table_picture``: genial's
    last move rimmed, lucky's bust shown)."""
    return kit_for(kind).ui.table_picture(view, NAMES, "ru", events or [])()


def at_phone(image: Image.Image) -> Image.Image:
    return image.resize((PHONE_WIDTH, round(image.height * PHONE_WIDTH / image.width)), Image.Resampling.LANCZOS)


def main(argv: list[str]) -> None:
    out = argv[0] if argv else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    for name, image in pictures().items():
        at_phone(image).save(os.path.join(out, name), optimize=True)
        if argv:
            image.save(os.path.join(out, name.replace(".png", "-full.png")))
        print(os.path.join(out, name), image.size)


if __name__ == "__main__":
    main(sys.argv[1:])
