"""Ingenious on the bot's side: the adapter (``ui``), composing a move with buttons (``entry``),
its words in the chat (``text``), the page's moves and placements (``page``) and its board on the
page (``board.js``); the rules are ``engines/genial/``, the pictures ``render/genial.py``."""
from __future__ import annotations

import pathlib

from engines import genial as engine
from engines.ai import genial as ai
from bot.games.genial import feats, page
from bot.games.genial.ui import UI
from bot.games.kit import GameKit

KIT = GameKit(
    engine=engine, ai=ai, ui=UI(),
    blurb="six colour tracks, your lowest colour counts; 1-4 players, teams",
    tag="hex tiles on a board",
    look=("green", "hexagon"),
    board=pathlib.Path(__file__).with_name("board.js"),
    page_play=page.play,
    achievements=feats.ACHIEVEMENTS, feats=feats.feats,
    page_queries={"placements": page.placements},
)
