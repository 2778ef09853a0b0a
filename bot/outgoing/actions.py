"""The actions of the platform's own buttons, each named once: whoever draws a button and whoever
answers it use the same :class:`Action` (as aiogram's ``CallbackData``: a prefix and typed
fields, packed into the action part of callback data, ``bot/outgoing/keyboard.py``).

A game's own buttons (a move, a step of composing one, its pop-ups) are the game's
(``bot/games/<game>/``); these are the lobby's, the table's and the results'.
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.words.numbers import ascii_int


@dataclass(frozen=True)
class Action:
    """A button's action: ``code`` (``!join``; ``!`` for a lobby or seat button, ``?`` for a
    pop-up: both work on any turn) and the names of its fields (``!away.<seat>``)."""

    code: str
    fields: tuple[str, ...] = ()

    def __call__(self, *values: object) -> str:
        """The action with these values: ``AWAY(2)`` is ``"!away.2"``."""
        if len(values) != len(self.fields):
            raise TypeError(f"{self.code} takes {self.fields}")
        return ".".join([self.code, *map(str, values)])

    def read(self, action: str) -> tuple[str, ...] | None:
        """The values of ``action`` if it is this one (``()`` when it has no fields), else None."""
        if not self.fields:
            return () if action == self.code else None
        head, _, rest = action.partition(".")
        values = tuple(rest.split(".", len(self.fields) - 1)) if rest else ()
        return values if head == self.code and len(values) == len(self.fields) else None

    def number(self, action: str) -> int | None:
        """The one number an action of this kind carries (a seat, minutes), or None."""
        values = self.read(action)
        return ascii_int(values[0]) if values and len(values) == 1 else None


# The lobby (bot/lobby/lobby.py answers them; bot/showing/lobby_view.py draws them; the Mini App
# joins with JOIN).
JOIN = Action("!join")
LEAVE = Action("!leave")
START = Action("!start")
CANCEL = Action("!cancel")
OPTION = Action("!o", ("key", "value"))
TURN_TIMER = Action("!turn", ("minutes",))
ADD_COMPUTER = Action("!bot+")
REMOVE_COMPUTER = Action("!bot-", ("seat",))
COMPUTER_LEVEL = Action("!lvl", ("seat",))

# A running game's seats (bot/updates/door.py answers them): take one's seat back from the
# computer; hand an absent player's seat to one (the turn reminder's button, bot/showing/pings.py).
BACK = Action("!back")
AWAY = Action("!away", ("seat",))

# 📖 on the lobby and the table: the game in a line, the full rules in private (the door).
RULES = Action("?rules")

# Under the results (bot/ending/results.py draws them; bot/updates/results.py answers).
REPLAY = Action("!replay")
REMATCH = Action("!rematch")
