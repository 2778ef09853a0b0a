"""Trio on the bot's side: the adapter (``ui``), its words for tiles and symbols (``text``), the
page's moves (``page``) and its board on the page (``board.js``); the rules are ``engines/trio.py``,
the pictures ``render/trio.py``."""
from __future__ import annotations

import pathlib

from engines import trio as engine
from engines.ai import trio as ai
from bot.games.kit import GameKit
from bot.games.trio import feats, page
from bot.games.trio.ui import UI

KIT = GameKit(
    engine=engine, ai=ai, ui=UI(),
    blurb="make them on a growing grid, with a die; 2-4 players",
    tag="sets of three",
    look=("blue", "diamond"),
    board=pathlib.Path(__file__).with_name("board.js"),
    page_play=page.play,
    achievements=feats.ACHIEVEMENTS, feats=feats.feats,
)
