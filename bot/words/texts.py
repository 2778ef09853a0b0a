"""Shared wording: game and option names, and a game found by any of its names. What a game says
of itself (its sign, its line in the menu) is its kit's (bot/games); /help is made from the
commands' declarations (bot/updates/help.py)."""
from __future__ import annotations

from functools import lru_cache

from engines import registry
from engines.base import GameInfo, Option
from bot.words.i18n import LANGS, fold, pt, t, typed


def game_name(info: GameInfo, lang: str) -> str:
    """The game's name in ``lang`` (its catalogue's msgctxt "game" entry; English: the engine's)."""
    return pt(lang, "game", info.name_en)


def kind_name(kind: str, lang: str) -> str:
    """The name of the game ``kind`` in ``lang``; a game no longer installed (a record of it
    kept) by its id."""
    return game_name(registry.info(kind), lang) if kind in registry.game_ids() else kind


@lru_cache(maxsize=None)
def _names(info: GameInfo) -> frozenset[str]:
    """Everything that names the game, folded: its id, its English name and aliases (the
    engine's), its name in every language and what people type for it there (msgctxt "typed")."""
    return frozenset(fold(n) for n in (info.id, *info.aliases, *(game_name(info, lang) for lang in LANGS))) \
        | typed(info.name_en)


def find_game(text: str) -> GameInfo | None:
    """A game by any of its names, in any language the catalogues have (``/new cones`` and its
    Russian name alike), case, accents and guillemets aside."""
    wanted = fold(text)
    if not wanted:
        return None
    return next((info for info in registry.all_infos() if wanted in _names(info)), None)


def games_named(text: str) -> list[GameInfo]:
    """The games one of whose names holds ``text`` (``@bot gen``: Ingenious and Totally Genial),
    in the registry's order; none for a text that names nothing, or none at all."""
    wanted = fold(text)
    if not wanted:
        return []
    return [info for info in registry.all_infos() if any(wanted in name for name in _names(info))]


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
