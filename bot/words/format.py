"""Fitting the bot's words into Telegram's limits: whole events, never half a word (pure).

A button press is answered by a toast of at most 200 characters (Telegram's limit for
``answerCallbackQuery``). What a move did may say more than that (long names, a bank that
completes colours and grants bonus turns, the game's end). Cut at the 200th character, it read
«…⁨Вика⁩ получает 2 призов…», «…достигает 18, бо…». :func:`toast` keeps whole events
instead, and when one event alone is too long, ends it at a word.

Which events: the newest. The presser knows what they pressed; what it led to (the bust, the
colour completed, the bonus turn, the win) comes last and is the news, as the table's caption
keeps its newest story lines (``bot.games.base.fit_caption``). They stay in the order they
happened, behind a «…» that says something came before.
"""
from __future__ import annotations

from bot.words.names import FSI, PDI

TOAST_LIMIT = 200  # telegram.constants.CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
TOAST_MARK = "✓ "
ELLIPSIS = "…"
_TRAILING = " ,;:—–-(" + FSI  # what a text cut at a word should not end with


def units(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji is two)."""
    return len(text.encode("utf-16-le")) // 2


def _closed(text: str) -> str:
    """``text`` with every isolate it opened closed (else what follows reads inside a name)."""
    return text + PDI * max(0, text.count(FSI) - text.count(PDI))


def at_word(text: str, most: int) -> str:
    """``text`` whole if it fits in ``most`` units, else its longest beginning that ends at a
    word and fits with «…» after it (isolates closed). A break outside a name is preferred
    (a name is not cut when an earlier space allows); one word longer than ``most`` by itself
    is cut where it must be."""
    if units(text) <= most:
        return text
    room = most - units(ELLIPSIS)
    best = ""
    best_outside = ""
    depth = 0
    for i, ch in enumerate(text):
        if ch == FSI:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        if ch != " " or i == 0:
            continue
        head = _closed(text[:i].rstrip(_TRAILING))
        if not head.strip(FSI + PDI):
            continue
        if units(head) > room:
            break
        best = head
        if depth == 0:
            best_outside = head
    head = best_outside or best
    if not head:  # a single word longer than the room: cut it, keeping isolates whole
        head = text
        while head and units(_closed(head)) > room:
            head = head[:-1].rstrip(FSI)
        head = _closed(head)
    return head + ELLIPSIS


def toast(lines: list[str], most: int = TOAST_LIMIT, mark: str = TOAST_MARK) -> str:
    """A press's pop-up from the plain-text lines of what happened (oldest first): all of them
    if they fit; else the newest that fit whole, after «…»; else the newest alone, ended at a
    word. Never more than ``most`` UTF-16 units."""
    lines = [line.strip() for line in lines if line.strip()]
    whole = mark + " ".join(lines)
    if units(whole) <= most:
        return whole
    lead = mark + ELLIPSIS + " "
    for first in range(1, len(lines)):
        text = lead + " ".join(lines[first:])
        if units(text) <= most:
            return text
    newest = lines[-1] if lines else ""
    prefix = mark if len(lines) == 1 else lead
    return prefix + at_word(newest, most - units(prefix))
