"""Shared wording: game and option names, the help text. Game-specific text lives in bot/games."""
from __future__ import annotations

from engines.base import GameInfo, Option
from bot.i18n import t


def game_name(info: GameInfo, lang: str) -> str:
    return info.name_ru if lang == "ru" else info.name_en


# Labels and explanations of lobby options, by key (msgids are English).
OPTION_LABELS: dict[str, tuple[str, str]] = {
    "equal": ("Equal chips", "everyone gets the same chips (2-3 players)"),
    "no_same_pile": ("Not the same pile", "no move on the pile just played"),
    "team": ("Teams 2 v 2", "exactly 4 players; seats 1+3 against 2+4"),
    "bonus_from_rack": ("Bonus from rack", "a «Genial!» bonus tile comes from your rack"),
    "seven_for_three": ("7 with 3 players", "target 7 per colour instead of 6 with 3 players"),
    "series": ("Series", "several games in a row, victory points add up"),
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


def help_text(lang: str, bot_username: str) -> str:
    return t(lang,
             "<b>tablebot</b> hosts board games in this chat.\n\n"
             "/new <i>game</i> — open a lobby (lucky, cones, genial, trio); friends tap <b>Join</b>, "
             "the host taps <b>Start</b>\n"
             "/rules <i>game</i> — the rules in short\n"
             "/board — post the table again at the bottom of the chat\n"
             "/cancel — stop the game here (host or admin)\n"
             "/lang — language of this chat (host or admin) or, in private, your own\n"
             "/notify on or off — whether I ping you when it is your turn\n"
             "/lobbytimeout <i>minutes</i> — close idle lobbies after this long (admins)\n"
             "/turntimer <i>minutes</i> or off — time for a move; then a reminder, and I move for "
             "whoever is away (admins)\n\n"
             "Secrets (a goal colour, a rack, a hand) come by private message: open "
             "@{bot} and press START once.").replace("{bot}", bot_username)
