"""Shared wording: game and option names. What a game says of itself (its sign, its line in the
menu) is its kit's (bot/games); /help is made from the commands' declarations (bot/updates/help.py)."""
from __future__ import annotations

from engines.base import GameInfo, Option
from bot.words.i18n import t


def game_name(info: GameInfo, lang: str) -> str:
    return info.name_ru if lang == "ru" else info.name_en


# Labels and explanations of lobby options, by key (msgids are English).
OPTION_LABELS: dict[str, tuple[str, str]] = {
    "equal": ("Equal chips", "everyone gets the same chips, for 2-3 players"),
    "no_same_pile": ("Not the same pile", "no move on the pile just played"),
    "team": ("Teams 2 v 2", "exactly 4 players; seats 1+3 against 2+4"),
    "bonus_from_rack": ("Bonus from rack", "a «Genial!» bonus placement uses a tile from your rack"),
    "seven_for_three": ("7 with 3 players", "the goal is 7 of each colour, not 6"),
    "series": ("Series", "several games in a row, their points add up"),
    "strict_lines": ("Strict lines", "no lines longer than three"),
}


def option_label(key: str, lang: str) -> str:
    label = OPTION_LABELS.get(key, (key, ""))[0]
    return t(lang, label)


def option_hint(key: str, lang: str) -> str:
    hint = OPTION_LABELS.get(key, ("", ""))[1]
    return t(lang, hint) if hint else ""


def option_value_text(opt: Option, value, lang: str, players: int | None = None) -> str:
    if opt.kind == "bool":
        return "✅" if value else "▫️"
    if opt.key == "series":
        if not value:
            return t(lang, "off")
        if value == 1:
            return t(lang, "one game per player")
        return t(lang, "{n} games", n=value)
    return str(value)
