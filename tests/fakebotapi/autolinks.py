"""What Telegram finds by itself in a sent text: @mentions, /commands, #hashtags, $cashtags,
e-mail addresses and links become live entities (tdlib's find_mentions, find_bot_commands,
find_hashtags, find_cashtags, find_urls), whatever the parse mode.

Simplified (any TLD of two or more letters counts, usernames of 3 to 32 characters), which errs
on the side of finding more: a name that survives this cannot become a link in Telegram either.
Nothing is found inside code, pre, a link or a mention the sender made.
"""
from __future__ import annotations

import re

from .htmlparse import utf16_len

_PATTERNS = [
    ("email", re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}(?!\w)")),
    ("url", re.compile(r"(?<![\w@/.-])(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?(?:[\w-]+\.)+[^\W\d_]{2,}(?![\w@])"
                       r"(?::\d+)?(?:[/?#][^\s<>\"]*)?")),
    ("mention", re.compile(r"(?<![\w@])@[A-Za-z0-9_]{3,32}(?!\w)")),
    ("bot_command", re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?!\w)")),
    ("hashtag", re.compile(r"(?<![\w#])#\w*[^\W\d]\w*")),
    ("cashtag", re.compile(r"(?<![\w$])\$[A-Z]{1,8}(?![\w])")),
]
_SENDER_MADE = {"code", "pre", "text_link", "text_mention", "url", "mention", "custom_emoji"}


def auto_entities(plain: str, entities: list[dict]) -> list[dict]:
    """The entities Telegram adds to ``plain`` beside the sender's ``entities`` (UTF-16 offsets)."""
    taken = [(e["offset"], e["offset"] + e["length"]) for e in entities if e.get("type") in _SENDER_MADE]
    found: list[dict] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(plain):
            start = utf16_len(plain[:m.start()])
            end = start + utf16_len(m.group())
            if any(start < b and a < end for a, b in taken):
                continue
            taken.append((start, end))
            found.append({"type": kind, "offset": start, "length": end - start})
    return found
