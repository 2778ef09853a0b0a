"""How text is fitted and written where Telegram shows it: an HTML text as the text it shows and
its length as Telegram counts it, a photo's caption within its limit, a link to a message, the
medals of the first places, and series points as people write them. Pure."""
from __future__ import annotations

import html
import re

from telegram.constants import MessageLimit

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
