"""Totally Genial on the bot's side: the adapter (``ui``), the page's moves (``page``) and its
board on the page (``board.js``); the rules are ``engines/lucky.py``, the pictures ``render/lucky.py``."""
from __future__ import annotations

import pathlib

from engines import lucky as engine
from engines.ai import lucky as ai
from bot.games.kit import GameKit
from bot.games.lucky import feats, page
from bot.games.lucky.ui import UI

KIT = GameKit(
    engine=engine, ai=ai, ui=UI(),
    blurb="draw while the tokens match, bank before you bust; 2-4 players",
    tag="push your luck with tokens",
    look=("orange", "square"),
    board=pathlib.Path(__file__).with_name("board.js"),
    page_play=page.play,
    achievements=feats.ACHIEVEMENTS, feats=feats.feats,
)
