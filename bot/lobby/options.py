"""What ``/new <game> …`` and the lobby's buttons may set: the game's options typed after its
name, computer players (``bots=N level=L``), options this number of players cannot play, and the
times the lobby's ⏰ button offers. Pure: words in, values (or what is wrong) out."""
from __future__ import annotations

from engines.ai import DEFAULT_LEVEL
from engines.base import GameInfo
from bot.table.players import typed_level
from bot.words.i18n import fold, typed
from bot.words.numbers import ascii_int
from bot.words.refusals import Refused


def parse_options(info: GameInfo, words: list[str]) -> tuple[dict, str | None]:
    """Options typed after ``/new game``: ``equal``, ``no_same_pile``, ``series=3``, ``-equal``."""
    options = info.default_options()
    for word in words:
        word = word.strip().lower().replace("-", "_")
        if not word:
            continue
        value: object = True
        key = word
        if "=" in word:
            key, raw = word.split("=", 1)
            value = raw
        elif word.startswith("no_") and word[3:] in options:
            key, value = word[3:], False
        elif word.startswith("_"):
            key, value = word[1:], False
        if key not in options:
            return options, key
        opt = info.option(key)
        if opt.kind == "int":
            number = ascii_int(value) if value is not True else (
                opt.switched_on if opt.switched_on is not None else opt.maximum)
            if number is None or not opt.minimum <= number <= opt.maximum:
                return options, word
            options[key] = number
        else:
            options[key] = value if isinstance(value, bool) else str(value) in ("1", "true", "on", "yes")
    return options, None


def parse_computers(info: GameInfo, words: list[str], *, private: bool) -> tuple[list[str], list[str], str | None]:
    """``bots=N`` and ``level=L`` among the words after ``/new game``: (levels of the computer
    seats, the other words, a problem). A private game has one computer unless told otherwise."""
    count, level, rest = (1 if private else 0), DEFAULT_LEVEL, []
    for word in words:
        key, _, value = word.partition("=")
        if fold(key) in typed("bots, bot"):
            number = ascii_int(value)
            if number is None or not 0 <= number <= info.max_players - (0 if private else 1):
                return [], rest, "bots"
            count = number
        elif fold(key) in typed("level"):
            level = typed_level(value)
            if level is None:
                return [], rest, "level"
        else:
            rest.append(word)
    return [level] * count, rest, None


def option_problem(info: GameInfo, options: dict, players: int) -> Refused | None:
    """An option switched on that this number of players cannot play."""
    for opt in info.options:
        value = options.get(opt.key, opt.default)
        if opt.players is not None and value != opt.default and players not in opt.players:
            return Refused("option_players", option=opt.key, counts=", ".join(str(n) for n in opt.players))
    return None


TURN_MINUTES = (1, 3, 5, 10, 30, 60, 0)  # what the lobby's timer button cycles through (0: off)


def next_turn_minutes(now: float) -> int:
    """The lobby's timer button: off → 1 → 3 → 5 → 10 → 30 → 60 → off."""
    if now <= 0:
        return TURN_MINUTES[0]
    return next((m for m in TURN_MINUTES if m > now), 0)
