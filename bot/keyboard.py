"""The one place where inline keyboards and callback_data are built and checked.

callback_data is ``<game>:<turn>:<action>``: the game's short id (base 36), the engine's turn
number (``-`` where a button does not depend on the turn, e.g. lobby buttons) and a short
action. Telegram allows 1-64 bytes, 8 buttons a row and 100 a keyboard; we check here so a
bad keyboard fails in our code, not in front of players.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

MAX_DATA_BYTES = 64
MAX_ROW = 8
MAX_BUTTONS = 100

_DATA_RE = re.compile(r"^([0-9a-z]{1,12}):(-|\d{1,9}):([\x21-\x7e]{1,48})$")


@dataclass(frozen=True)
class Press:
    """Parsed callback data."""

    game: str
    turn: int | None
    action: str


def data(game: str, turn: int | None, action: str) -> str:
    text = f"{game}:{'-' if turn is None else turn}:{action}"
    if len(text.encode()) > MAX_DATA_BYTES or not _DATA_RE.match(text):
        raise ValueError(f"callback data {text!r} is not valid (≤ {MAX_DATA_BYTES} bytes, printable ASCII)")
    return text


def parse(raw: str | None) -> Press | None:
    """Parse callback data; None for anything that is not ours (garbage, foreign, too long)."""
    if not raw or len(raw.encode("utf-8", "replace")) > MAX_DATA_BYTES:
        return None
    match = _DATA_RE.match(raw)
    if not match:
        return None
    game, turn, action = match.groups()
    return Press(game, None if turn == "-" else int(turn), action)


@dataclass(frozen=True)
class Button:
    text: str
    action: str | None = None  # callback action (combined with game and turn by ``markup``)
    url: str | None = None
    turn_free: bool = False  # True: the button works on any turn (lobby, "my goal")


def markup(game: str, turn: int | None, rows: list[list[Button]]) -> InlineKeyboardMarkup | None:
    """Build an InlineKeyboardMarkup, checking Telegram's limits. Empty rows are dropped."""
    rows = [row for row in rows if row]
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
            else:
                assert b.action is not None
                out.append(InlineKeyboardButton(b.text, callback_data=data(game, None if b.turn_free else turn, b.action)))
        built.append(out)
    return InlineKeyboardMarkup(built)


def chunk(buttons: list[Button], per_row: int) -> list[list[Button]]:
    per_row = max(1, min(per_row, MAX_ROW))
    return [buttons[i:i + per_row] for i in range(0, len(buttons), per_row)]
