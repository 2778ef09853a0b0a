"""Numbers typed by people (``bots=2``, ``/turntimer 10``) or carried in buttons.

Python's ``int()`` reads more than people mean: other scripts' digits (``٢``, ``３``),
underscores (``1_0``), spaces and signs. A number here is ASCII digits only, nothing else.
"""
from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,9}")


def ascii_int(text: object) -> int | None:
    """The number ``text`` spells in ASCII digits (at most 9 of them), else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    return int(text)


def has_foreign_digits(text: str) -> bool:
    """Whether ``text`` holds a digit that is not ASCII (``٣``, ``３``, ``³``)."""
    return any(ch.isdigit() and not "0" <= ch <= "9" for ch in text)
