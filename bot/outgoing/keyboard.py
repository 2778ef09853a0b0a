"""The one place where inline keyboards and callback_data are built and checked.

callback_data is ``<game>:<turn>:<action>``: the game's short id (base 36), the engine's turn
number (``-`` where a button does not depend on the turn) and a short action. Turn-free
actions start with ``!`` (lobby, rematch) or ``?`` (a pop-up such as "my goal"); every other
action is a move or a step of composing one and carries the turn it was drawn for. The menu's
buttons use the game id ``0``. Telegram allows 1-64 bytes, 8 buttons a row and 100 a keyboard
(``telegram.constants``); we check here so a bad keyboard fails in our code, not in front of players.

Data is checked against anchored patterns (``MENU_PATTERN``, ``LOBBY_PATTERN``, ``GAME_PATTERN``;
``\\Z`` rather than ``$``, which would also match before a trailing newline); each feature routes
its own menu buttons by a pattern of its own (``menu_pattern``).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import InlineKeyboardButtonLimit, InlineKeyboardMarkupLimit

MAX_DATA_BYTES = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
MAX_ROW = InlineKeyboardMarkupLimit.BUTTONS_PER_ROW
MAX_BUTTONS = InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER

MENU = "0"  # the "game id" of the game menu's buttons (real ids start at 1)

_GAME = r"[0-9a-z]{1,12}"
_ACTION = r"[\x21-\x7e]{1,48}"
MENU_PATTERN = re.compile(rf"^{MENU}:-:[a-z]{{1,2}}\.[0-9a-z.]{{1,24}}\Z")  # a feature's menu button (its own pattern)
LOBBY_PATTERN = re.compile(rf"^{_GAME}:-:!{_ACTION}\Z")  # lobby buttons and Rematch
GAME_PATTERN = re.compile(rf"^{_GAME}:(?:[0-9]{{1,9}}:(?![!?])|-:\?){_ACTION}\Z")  # moves and pop-ups
_DATA_RE = re.compile(rf"({_GAME}):(-|[0-9]{{1,9}}):({_ACTION})")


@dataclass(frozen=True)
class Press:
    """Parsed callback data."""

    game: str
    turn: int | None
    action: str


def menu_pattern(action: str) -> re.Pattern:
    r"""The anchored pattern of a feature's menu buttons whose action matches ``action`` (such as
    ``n\.[a-z]{1,12}``: the game menu's). Each feature owns its actions."""
    return re.compile(rf"^{MENU}:-:(?:{action})\Z")


def data(game: str, turn: int | None, action: str) -> str:
    text = f"{game}:{'-' if turn is None else turn}:{action}"
    if len(text.encode()) > MAX_DATA_BYTES or parse(text) is None:
        raise ValueError(f"callback data {text!r} is not valid (≤ {MAX_DATA_BYTES} bytes, printable ASCII, "
                         "a turn on every button but turn-free ones)")
    return text


def parse(raw: str | None) -> Press | None:
    """Parse callback data; None for anything that is not ours (garbage, foreign, too long, a
    move without its turn)."""
    if not raw or len(raw.encode("utf-8", "replace")) > MAX_DATA_BYTES:
        return None
    if not (MENU_PATTERN.match(raw) or LOBBY_PATTERN.match(raw) or GAME_PATTERN.match(raw)):
        return None
    game, turn, action = _DATA_RE.fullmatch(raw).groups()
    return Press(game, None if turn == "-" else int(turn), action)


@dataclass
class Answer:
    """How to answer a button press: a toast, a pop-up (``alert``), or a link to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None
    outcome: str = ""  # "joined" / "already" (the deep-link join), "moved" (a move applied: the page)


@dataclass(frozen=True)
class Button:
    text: str
    action: str | None = None  # callback action (combined with game and turn by ``markup``)
    url: str | None = None
    turn_free: bool = False  # True: the button works on any turn (lobby, "my goal")
    web_app: str | None = None  # opens this page as a Mini App (Telegram allows it in private chats only)
    # Types "@bot <this>" in the message field of the same chat (inline mode: a new lobby there).
    switch_inline: str | None = None


def markup(game: str, turn: int | None, rows: list[list[Button]]) -> InlineKeyboardMarkup | None:
    """Build an InlineKeyboardMarkup, checking Telegram's limits. Empty rows are dropped."""
    return _markup(game, turn, tuple(tuple(row) for row in rows if row))


# The same keyboards come back again and again (a table's buttons at each turn, a lobby's), and
# python-telegram-bot's objects are slow to build (every attribute set is checked): under many
# busy groups building them was 4 % of the bot's time. They are immutable, so one is shared.
@functools.lru_cache(maxsize=4096)
def _markup(game: str, turn: int | None, rows: tuple[tuple[Button, ...], ...]) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    total = sum(len(r) for r in rows)
    if total > MAX_BUTTONS:
        raise ValueError(f"keyboard has {total} buttons (max {MAX_BUTTONS})")
    built = []
    for row in rows:
        if len(row) > MAX_ROW:
            raise ValueError(f"keyboard row has {len(row)} buttons (max {MAX_ROW})")
        out = []
        for b in row:
            if not b.text:
                raise ValueError("button without text")
            if b.url:
                out.append(InlineKeyboardButton(b.text, url=b.url))
            elif b.web_app:
                out.append(InlineKeyboardButton(b.text, web_app=WebAppInfo(b.web_app)))
            elif b.switch_inline is not None:
                out.append(InlineKeyboardButton(b.text, switch_inline_query_current_chat=b.switch_inline))
            else:
                assert b.action is not None
                out.append(InlineKeyboardButton(b.text, callback_data=data(game, None if b.turn_free else turn, b.action)))
        built.append(out)
    return InlineKeyboardMarkup(built)


def chunk(buttons: list[Button], per_row: int) -> list[list[Button]]:
    per_row = max(1, min(per_row, MAX_ROW))
    return [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
