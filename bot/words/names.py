"""The name the bot shows for a person (and the title of a group): one function for every place.

A Telegram name is whatever its owner typed, so it can try to forge the bot's lines:
- bidi controls (U+202E, or a U+2069 that closes the bot's own isolate) reverse what follows;
- a line or paragraph separator (U+2028) starts a line of the bot's own, «🏆 Winner: Eve»;
- a run of combining marks (zalgo) paints over the lines around it;
- an invisible name (spaces, a Hangul filler) leaves a blank where a player should be;
- «@someone», «/start@bot», «example.com» become a live mention, command or link of somebody
  else's choosing in the bot's message;
- two people called «Victor» (one of them with U+0441, a Cyrillic letter drawn as c) are told
  apart by nobody.

``clean`` takes all of that out; ``person_name`` adds the fallbacks; ``tell_apart`` gives names
that would look alike a suffix; ``in_text`` is a name inside one of the bot's HTML texts: escaped,
unable to become a link, wrapped in an isolate it cannot close. Pictures draw ``clean`` names.
"""
from __future__ import annotations

import html
import re
import unicodedata

MAX_LEN = 64
MAX_MARKS = 2  # combining marks kept on one character (Vietnamese stacks two; zalgo dozens)
FSI, PDI = "\u2068", "\u2069"  # first-strong isolate … pop directional isolate
WORD_JOINER = "\u2060"  # invisible; breaks Telegram's detection of mentions, commands and links
ELLIPSIS = "…"
TRAILING = " ,;:—–-("  # what a text cut at a word should not end with (before its «…»)

# Format characters that a name needs: joiners inside emoji and Persian words, and the tags of
# subdivision flags (🏴 + tag letters). Every other format character (bidi controls, zero-width
# spaces, invisible operators) goes.
_KEPT_FORMAT = {"\u200c", "\u200d"} | {chr(c) for c in range(0xE0020, 0xE0080)}
# Letters that draw nothing: a name made of them looks blank.
_INVISIBLE = set("\u115f\u1160\u3164\uffa0\u2800\u180e") | {chr(c) for c in range(0xE0100, 0xE01F0)}

# Letters of other scripts drawn like Latin ones (for telling names apart, never for showing).
_LOOKALIKE = str.maketrans({
    # Cyrillic: a, ve, ie, io, ka, em, en, o, er, es, te, u, ha, Ukrainian i and yi, je, dze,
    # Komi de, qa, we
    "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "e", "\u043a": "k", "\u043c": "m",
    "\u043d": "h", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0442": "t", "\u0443": "y",
    "\u0445": "x", "\u0456": "i", "\u0457": "i", "\u0458": "j", "\u0455": "s", "\u0501": "d",
    "\u051b": "q", "\u051d": "w",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "0": "o", "1": "l", "|": "l",
})

# What Telegram turns into a live entity in a sent text: @mentions, /commands, #hashtags,
# $cashtags (a word joiner after the sign breaks them), and links (one before each dot of a
# domain and after "://").
_SIGNS = re.compile(r"([@#$]|(?<![\w<>/])/)(?=\w)")  # not the slash of «</b>» or «AC/DC»
_DOTS = re.compile(r"(?<=\w)\.(?=\w)")
_SCHEME = re.compile(r":(?=//)")


def clean(text: str | None, limit: int = MAX_LEN) -> str:
    """``text`` with nothing that could forge a line: no control, format or bidi characters, no
    line breaks of any kind, at most two combining marks per character, single spaces; cut to
    ``limit`` characters at a word, with «…». '' when nothing printable is left."""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text or ""):
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS or not out:
                continue
        else:
            marks = 0
        if cat.startswith("Z") or cat == "Cc":  # spaces, line and paragraph separators, tabs, newlines
            ch = " "
        elif (cat == "Cf" and ch not in _KEPT_FORMAT) or cat in ("Cs", "Co", "Cn") or ch in _INVISIBLE:
            continue
        if ch == " " and (not out or out[-1] == " "):
            continue
        out.append(ch)
    name = _cut("".join(out).strip(), limit)
    return name if any(unicodedata.category(c)[0] in "LNPS" for c in name) else ""


def _cut(name: str, limit: int) -> str:
    """``name`` whole if it has at most ``limit`` characters, else its beginning with «…»: at
    the last space when that keeps at least half, never between a letter and its marks, inside
    an emoji sequence (joiners, skin tones, variation selectors, flag tags) or between a flag's
    two letters."""
    if len(name) <= limit:
        return name
    end = limit - 1
    while end > 1 and (_continues(name[end]) or name[end - 1] == "\u200d"):
        end -= 1
    regional = 0
    while regional < end and "\U0001f1e6" <= name[end - 1 - regional] <= "\U0001f1ff":
        regional += 1
    end -= regional % 2  # an odd run of a flag's letters: its last one belongs with the cut-off
    head = name[:end]
    space = head.rfind(" ")
    if space >= limit // 2:
        head = head[:space]
    return head.rstrip(TRAILING) + ELLIPSIS


def _continues(ch: str) -> bool:
    """Whether ``ch`` belongs to the character before it (a mark, a joiner, a modifier)."""
    return (unicodedata.category(ch) in ("Mn", "Me") or ch in "\u200c\u200d\ufe0e\ufe0f"
            or "\U000e0020" <= ch <= "\U000e007f" or "\U0001f3fb" <= ch <= "\U0001f3ff")


def person_name(first: str | None, last: str | None = None, username: str | None = None) -> str:
    """The name to show for a Telegram user: first and last name, else either one, else the
    username; '' when none has anything printable (the caller says "Player N")."""
    whole = clean(" ".join(p for p in (first, last) if p))
    return whole or clean(first) or clean(last) or clean(username)


def likeness(name: str) -> str:
    """A key that two names a reader could mistake for each other share."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    return " ".join(folded.split())


def tell_apart(names: list[str], fixed: list[bool] | None = None) -> list[str]:
    """``names`` with a suffix « (2)», « (3)»… on each that looks like an earlier one. Names marked
    ``fixed`` (a computer's) keep theirs; the others give way to them."""
    fixed = fixed or [False] * len(names)
    taken = {likeness(n) for n, f in zip(names, fixed) if f}
    out = list(names)
    for i, name in enumerate(names):
        if fixed[i]:
            continue
        base, n, candidate = clean(name, MAX_LEN - 4), 1, name
        while likeness(candidate) in taken:
            n += 1
            candidate = f"{base} ({n})"
        taken.add(likeness(candidate))
        out[i] = candidate
    return out


def unlinked(text: str) -> str:
    """``text`` that Telegram shows as typed but never as a mention, command, hashtag or link."""
    return _SCHEME.sub(":" + WORD_JOINER, _DOTS.sub(WORD_JOINER + ".", _SIGNS.sub(r"\1" + WORD_JOINER, text)))


def in_text(name: str | None) -> str:
    """A name (or a group's title, or a word someone typed) inside an HTML text of the bot:
    cleaned, escaped, unable to become a link, in an isolate it cannot close."""
    return FSI + html.escape(unlinked(clean(name)), quote=False) + PDI


def in_plain(name: str | None) -> str:
    """The same for a plain text (a button press's pop-up): no escaping."""
    return FSI + unlinked(clean(name)) + PDI
