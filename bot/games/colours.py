"""Colour words for captions: an emoji plus the name, so colour-blind players read the word.

Every emoji here is Unicode 12 (2019) or older, so phones of recent years all show it; pink is a
cherry blossom 🌸 (Unicode 6: the pink heart 🩷 is Unicode 15, 2022, and shows as a box on many
phones), pink everywhere and a shape of its own beside the round red and purple.
"""
from __future__ import annotations

from bot.words.i18n import t

EMOJI = {
    "red": "🔴", "orange": "🟠", "yellow": "🟡", "green": "🟢", "blue": "🔵", "purple": "🟣",
    "white": "⚪", "black": "⚫", "pink": "🌸",
}
NAMES = {
    "red": "red", "orange": "orange", "yellow": "yellow", "green": "green", "blue": "blue",
    "purple": "purple", "white": "white", "black": "black", "pink": "pink",
}


def colour_name(colour: str, lang: str) -> str:
    return t(lang, NAMES.get(colour, colour))


def colour(colour: str, lang: str) -> str:
    """"🔵 blue" in the reader's language."""
    return f"{EMOJI.get(colour, '')} {colour_name(colour, lang)}".strip()
