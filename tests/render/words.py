"""The pictures' words in a language, as the bot hands them to the drawing functions: each
game's ``picture_words`` (bot/games/<game>/ui.py), the replay's band from the catalogue."""
from __future__ import annotations

import importlib

from bot.words.i18n import labels
from render import replay


def words(kind: str, lang: str) -> dict[str, str]:
    """The labels of ``render.<kind>`` in ``lang`` ("replay": the band's)."""
    if kind == "replay":
        return labels(lang, "picture", replay.LABELS)
    return importlib.import_module(f"bot.games.{kind}.ui").picture_words(lang)
