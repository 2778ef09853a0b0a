"""The Telegram side of each game: one adapter module per engine (``base.py`` holds the contract
they share: what an adapter turns an engine's views and events into), found by the game's id.

It may use ``words``, ``outgoing`` (buttons) and ``storage`` (the game's record).
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from engines import registry
from bot.games.base import GameUI
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import game_name


@lru_cache(maxsize=None)
def adapter_for(kind: str) -> GameUI:
    module = importlib.import_module(f"bot.games.{kind}")
    return module.UI()


def rules_text(words: list[str], lang: str) -> str:
    """/rules <game>: the rules in short, or which games there are when it names none."""
    info = registry.find(" ".join(words)) or (registry.find(words[0]) if words else None)
    if info is None:
        names = ", ".join(f"{gi.id} ({game_name(gi, lang)})" for gi in registry.all_infos())
        which = t(lang, "Which rules? Write /rules and a game: {names}.", names=names)
        if not words:
            return which
        unknown = t(lang, "I don't know the game «{name}».", name=in_text(" ".join(words)[:40]))
        return unknown + "\n" + which
    return adapter_for(info.id).rules(lang)
