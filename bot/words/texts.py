"""Shared wording: game and option names, the games' lines in the menu and the greeting.
Game-specific text lives in bot/games; /help is made from the commands' declarations (bot/updates/help.py)."""
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


# One line per game for the menu and the greeting: what it is like and for how many.
GAME_BLURBS: dict[str, tuple[str, str]] = {
    "lucky": ("🎲", "draw while the tokens match, bank before you bust; 2-4 players"),
    "cones": ("🔺", "make the piles yours without giving your colour away; 2-4 players"),
    "genial": ("⬢", "six colour tracks, your lowest colour counts; 1-4 players, teams"),
    "trio": ("🔷", "make them on a growing grid, with a die; 2-4 players"),
}

# A few words beside a game's name wherever a person chooses one: the publishers' titles
# «Совершенно гениально» and «Гениально» are one word apart, so each says what it is played with.
GAME_TAGS: dict[str, str] = {
    "lucky": "push your luck with tokens",
    "cones": "a secret colour",
    "genial": "hex tiles on a board",
    "trio": "sets of three",
}


def game_sign(kind: str) -> str:
    """The game's sign (🎲 🔺 ⬢ 🔷): the same in the menu, the lobby, the table and private messages."""
    return GAME_BLURBS[kind][0]


def game_tag(kind: str, lang: str) -> str:
    """"hex tiles on a board": what tells the game apart from the others at a glance."""
    return t(lang, GAME_TAGS[kind])


def game_button(info: GameInfo, lang: str) -> str:
    """A game's sign, name and tag: «🎲 Совершенно гениально · жетоны на удачу» and «⬢ Гениально ·
    тайлы на поле» differ at a glance."""
    return f"{GAME_BLURBS[info.id][0]} {game_name(info, lang)} · {game_tag(info.id, lang)}"


def games_list(infos: list[GameInfo], lang: str) -> str:
    """A line per game: sign, name, tag, what it is like, how many play."""
    return "\n".join(f"{GAME_BLURBS[gi.id][0]} <b>{game_name(gi, lang)}</b> · {game_tag(gi.id, lang)} — "
                     f"{t(lang, GAME_BLURBS[gi.id][1])}" for gi in infos)


def greeting(lang: str, infos: list[GameInfo]) -> str:
    """What the bot says once, when it is added to a group."""
    return (t(lang, "👋 Hello! I host board games for this group.") + "\n\n" + games_list(infos, lang) + "\n\n"
            + t(lang, "Tap a game below or write /new and its name; friends tap <b>Join</b>, the host taps "
                      "<b>Start</b>. Short of players? Add 🤖 computer players in the lobby. /help for more."))
