"""Every text a person reads, in their language, through gettext catalogues (compiled ``.mo``
files, read with the standard library's ``gettext``): the chat, the pictures' labels, the Mini
App's page and the words people may type.

English is the source language: a msgid is the English text with ``{placeholders}``. A language
is a folder ``bot/words/locales/<lang>/LC_MESSAGES/`` of ``<domain>.po`` catalogues, one domain
per part of the bot (core, and one per game) so that they can be edited independently; each is
compiled to the ``.mo`` beside it (committed, shipped in the package), and the domains of a
language are merged at load. After editing a .po: ``python -m tests.catalogues`` (Babel, the
``test`` extra); a test names any .mo left out of date.

A msgctxt says where a text is shown when the same English may read differently there:
``picture:<game>`` a game's pictures, ``picture`` the replay's band, ``page`` the Mini App's page
around the boards, ``page:<game>`` a game's board on the page (a tile of one game and of another
may be two words), ``game`` a game's name, ``typed`` what people may type (comma-separated: the
msgid's own words are the English ones), ``language`` a language's name in itself.

A text a catalogue lacks (untranslated, fuzzy, a plural form missing) shows in English.
Language is always passed explicitly (asyncio: no global "current locale").
"""
from __future__ import annotations

import gettext
import pathlib
import unicodedata
from functools import lru_cache

DEFAULT_LANG = "en"
LOCALE_DIR = pathlib.Path(__file__).with_name("locales")
# English, then every language that has a folder of catalogues.
LANGS = (DEFAULT_LANG, *sorted(folder.parent.name for folder in LOCALE_DIR.glob("*/LC_MESSAGES")
                               if folder.parent.name != DEFAULT_LANG))
# Readers of these mostly read Russian better than English.
READ_RUSSIAN = {"uk", "be", "kk", "ky", "uz", "tg", "hy", "az", "ka"}


def normalize_lang(code: str | None) -> str:
    """Map a Telegram language_code ("ru", "ru-RU", "uk", None) to one of LANGS."""
    if not code:
        return DEFAULT_LANG
    base = code.lower().split("-")[0].split("_")[0]
    if base in LANGS:
        return base
    if base in READ_RUSSIAN and "ru" in LANGS:
        return "ru"
    return DEFAULT_LANG


@lru_cache(maxsize=None)
def _domains(lang: str) -> tuple[gettext.GNUTranslations, ...]:
    """The compiled catalogues of ``lang``, one per domain."""
    out = []
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        with path.open("rb") as fh:
            out.append(gettext.GNUTranslations(fh))
    return tuple(out)


@lru_cache(maxsize=None)
def _translations(lang: str) -> gettext.NullTranslations:
    """Every domain of ``lang``, merged: the first catalogue, the others behind it as fallbacks
    (a msgid lives in one domain, or means the same in each: a test keeps them agreeing)."""
    merged = gettext.NullTranslations()
    for domain in _domains(lang):
        merged.add_fallback(domain)
    return merged


def t(lang: str, msgid: str, **kw) -> str:
    """The text in ``lang``, formatted with ``kw`` (values are inserted as they are)."""
    # "" would be the catalogue's header, not a text
    text = msgid if lang == DEFAULT_LANG or not msgid else _translations(lang).gettext(msgid)
    return text.format(**kw) if kw else text


def pt(lang: str, context: str, msgid: str, **kw) -> str:
    """As :func:`t`, for the entry of ``msgid`` under msgctxt ``context``."""
    text = msgid if lang == DEFAULT_LANG or not msgid else _translations(lang).pgettext(context, msgid)
    return text.format(**kw) if kw else text


def nt(lang: str, singular: str, plural: str, n: int, **kw) -> str:
    """Plural-aware text; ``n`` is also available as ``{n}``."""
    if lang == DEFAULT_LANG:
        text = singular if n == 1 else plural
    else:
        text = _translations(lang).ngettext(singular, plural, n)
    return text.format(n=n, **kw)


def labels(lang: str, context: str, english: dict[str, str]) -> dict[str, str]:
    """``english`` (key → msgid) in ``lang``, under ``context``: a picture's words, which its
    drawing module keeps in English (``render/`` knows no language)."""
    return {key: pt(lang, context, msgid) for key, msgid in english.items()}


@lru_cache(maxsize=None)
def entries(lang: str, context: str) -> dict[str, str]:
    """Every translated entry of ``context`` in ``lang`` (msgid → text; none in English, whose
    text is the msgid): what the Mini App's page is sent."""
    found: dict[str, str] = {}
    prefix = context + "\x04"  # how a .mo keys an entry with a msgctxt
    for domain in reversed(_domains(lang)):  # the first domain wins, as in the merged lookup
        # (``_catalog`` is GNUTranslations' table of entries: it offers no other way to list them)
        found.update({key[len(prefix):]: text for key, text in domain._catalog.items()
                      if isinstance(key, str) and key.startswith(prefix)})
    return found


def language_name(lang: str) -> str:
    """A language's name in itself ("English", "Deutsch"): what its button says to everyone."""
    return pt(lang, "language", "English")


def fold(text: str) -> str:
    """A typed word as it is compared: lower case, without accents or marks (é reads as e, and
    the Russian yo as ye), without guillemets or outer spaces."""
    decomposed = unicodedata.normalize("NFD", text.replace("«", "").replace("»", "").strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=None)
def typed(msgid: str) -> frozenset[str]:
    """What people may type for ``msgid`` in any language, folded: its own comma-separated
    English words and each catalogue's entry of it under ``typed`` (comma-separated too)."""
    said = [msgid] + [pt(lang, "typed", msgid) for lang in LANGS if lang != DEFAULT_LANG]
    return frozenset(fold(word) for text in said for word in text.split(",") if word.strip())
