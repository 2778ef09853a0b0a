"""How text is fitted and written where Telegram shows it: an HTML text as the text it shows and
its length as Telegram counts it, a photo's caption within its limit, a press's toast within its
200 characters (:func:`toast`), a link to a message, the medals of the first places, and series
points as people write them. Pure."""
from __future__ import annotations

import html
import re

from telegram.constants import MessageLimit

from bot.words.names import ELLIPSIS, FSI, PDI, TRAILING

CAPTION_LIMIT = MessageLimit.CAPTION_LENGTH  # in UTF-16 units of the text after its HTML is parsed
CAPTION_BUDGET = 1000  # what a table's caption aims at, a little under the limit


def plain_text(text: str) -> str:
    """An HTML text as the text it shows (its tags dropped, its entities read)."""
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def plain_len(text: str) -> int:
    """Length of an HTML text as Telegram counts it (UTF-16 units of what is shown)."""
    return len(plain_text(text).encode("utf-16-le")) // 2


def fits_caption(text: str) -> bool:
    """Whether an HTML text may be a photo's caption."""
    return plain_len(text) <= CAPTION_LIMIT


def fit_caption(head: list[str], story: list[str], tail: list[str], *, max_story: int = 6) -> str:
    """head + the newest story lines that fit + tail, within a photo caption's limit.

    Should even head and tail be too long (names of 64 characters each at a full table), the
    caption falls back to its plain text, cut, rather than have Telegram refuse the message.
    """
    story = list(story)[-max_story:]
    while True:
        text = "\n".join(head + story + tail)
        if plain_len(text) <= CAPTION_BUDGET:
            return text
        if not story:
            break
        story.pop(0)
    units = html.unescape(re.sub(r"<[^>]*>", "", text)).encode("utf-16-le")[:2 * (CAPTION_BUDGET - 1)]
    return html.escape(units.decode("utf-16-le", "ignore"), quote=False) + "…"


def message_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a message of a supergroup (plain groups and private chats have none)."""
    text = str(chat_id)
    if message_id is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{message_id}"


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def medal(place: int) -> str:
    """🥇 🥈 🥉 for the first three places, then "4."."""
    return MEDALS.get(place, f"{place}.")


def whole(value: float) -> float:
    """A number of series points as an int when it is whole (2.0 -> 2), so JSON and text stay plain."""
    return int(value) if value == int(value) else value


def points_text(value: float) -> str:
    """"3", "1½", "½": series points as people write them."""
    units = int(value)
    if value == units:
        return str(units)
    return (str(units) if units else "") + "½"


# ---- a press's toast ------------------------------------------------------------------------
# A button press is answered by a toast of at most 200 characters (Telegram's limit for
# answerCallbackQuery). What a move did may say more than that (long names, a bank that
# completes colours and grants bonus turns, the game's end). Cut at the 200th character, it read
# "…⁨Vika⁩ gets 2 bon…", "…reaches 18, bo…" (in Russian). :func:`toast` keeps whole events instead,
# and when one event alone is too long, ends it at a word.
#
# Which events: the newest. The presser knows what they pressed; what it led to (the bust, the
# colour completed, the bonus turn, the win) comes last and is the news, as the table's caption
# keeps its newest story lines (:func:`fit_caption`). They stay in the order they happened,
# behind a «…» that says something came before.

TOAST_LIMIT = 200  # telegram.constants.CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
TOAST_MARK = "✓ "
_TRAILING = TRAILING + FSI  # (nor with a name's opening isolate)


def utf16_len(text: str) -> int:
    """A plain text's length as Telegram counts it: UTF-16 code units (an emoji is two)."""
    return len(text.encode("utf-16-le")) // 2


def _closed(text: str) -> str:
    """``text`` with every isolate it opened closed (else what follows reads inside a name)."""
    return text + PDI * max(0, text.count(FSI) - text.count(PDI))


def at_word(text: str, most: int) -> str:
    """``text`` whole if it fits in ``most`` units, else its longest beginning that ends at a
    word and fits with «…» after it (isolates closed). A break outside a name is preferred
    (a name is not cut when an earlier space allows); one word longer than ``most`` by itself
    is cut where it must be."""
    if utf16_len(text) <= most:
        return text
    room = most - utf16_len(ELLIPSIS)
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
        if utf16_len(head) > room:
            break
        best = head
        if depth == 0:
            best_outside = head
    head = best_outside or best
    if not head:  # a single word longer than the room: cut it, keeping isolates whole
        head = text
        while head and utf16_len(_closed(head)) > room:
            head = head[:-1].rstrip(FSI)
        head = _closed(head)
    return head + ELLIPSIS


def toast(lines: list[str], most: int = TOAST_LIMIT, mark: str = TOAST_MARK) -> str:
    """A press's pop-up from the plain-text lines of what happened (oldest first): all of them
    if they fit; else the newest that fit whole, after «…»; else the newest alone, ended at a
    word. Never more than ``most`` UTF-16 units."""
    lines = [line.strip() for line in lines if line.strip()]
    whole = mark + " ".join(lines)
    if utf16_len(whole) <= most:
        return whole
    lead = mark + ELLIPSIS + " "
    for first in range(1, len(lines)):
        text = lead + " ".join(lines[first:])
        if utf16_len(text) <= most:
            return text
    newest = lines[-1] if lines else ""
    prefix = mark if len(lines) == 1 else lead
    return prefix + at_word(newest, most - utf16_len(prefix))
