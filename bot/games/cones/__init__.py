"""Cones (Kabaleo) on the bot's side: the adapter (``ui``), the page's moves (``page``) and its
board on the page (``board.js``); the rules are ``engines/cones.py``, the pictures ``render/cones.py``."""
from __future__ import annotations

import pathlib

from engines import cones as engine
from engines.ai import cones as ai
from bot.games.cones import feats, page
from bot.games.cones.ui import UI
from bot.games.kit import GameKit

KIT = GameKit(
    engine=engine, ai=ai, ui=UI(),
    blurb="make the piles yours without giving your colour away; 2-4 players",
    tag="a secret colour",
    look=("red", "triangle"),
    board=pathlib.Path(__file__).with_name("board.js"),
    page_play=page.play,
    achievements=feats.ACHIEVEMENTS, feats=feats.feats,
)
