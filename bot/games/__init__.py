"""The Telegram side of each game: one adapter module per engine."""
from __future__ import annotations

import importlib
from functools import lru_cache

from bot.games.base import GameUI


@lru_cache(maxsize=None)
def adapter_for(kind: str) -> GameUI:
    module = importlib.import_module(f"bot.games.{kind}")
    return module.UI()
