"""Russian and English text through gettext catalogues (compiled ``.mo`` files, read with the
standard library's ``gettext``).

English is the source language: a msgid is the English text with ``{placeholders}``.
Russian catalogues live in ``bot/words/locales/ru/LC_MESSAGES/<domain>.po``, one domain per part of
the bot (core, and one per game) so that they can be edited independently; each is compiled to
the ``.mo`` beside it (committed, shipped in the package), and the domains of a language are
merged at load. After editing a .po: ``python -m tests.catalogues`` (Babel, the ``test`` extra);
a test names any .mo left out of date. Extract new strings with
``pybabel extract -k t:2 -k nt:2,3 -o messages.pot bot``.
Language is always passed explicitly (asyncio: no global "current locale").
"""
from __future__ import annotations

import gettext
import pathlib
from functools import lru_cache

LANGS = ("en", "ru")
DEFAULT_LANG = "en"
LOCALE_DIR = pathlib.Path(__file__).with_name("locales")


def normalize_lang(code: str | None) -> str:
    """Map a Telegram language_code ("ru", "ru-RU", "uk", None) to one of LANGS."""
    if not code:
        return DEFAULT_LANG
    base = code.lower().split("-")[0].split("_")[0]
    if base in LANGS:
        return base
    # Speakers of these mostly read Russian better than English.
    if base in {"uk", "be", "kk", "ky", "uz", "tg", "hy", "az", "ka"}:
        return "ru"
    return DEFAULT_LANG


@lru_cache(maxsize=None)
def _translations(lang: str) -> gettext.NullTranslations:
    """Every domain of ``lang``, merged: the first catalogue, the others behind it as fallbacks
    (a msgid lives in one domain, or means the same in each: a test keeps them agreeing)."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    merged = gettext.NullTranslations()
    for path in sorted(folder.glob("*.mo")) if folder.is_dir() else []:
        with path.open("rb") as fh:
            merged.add_fallback(gettext.GNUTranslations(fh))
    return merged


def t(lang: str, msgid: str, **kw) -> str:
    """The text in ``lang``, formatted with ``kw`` (values are inserted as they are)."""
    # "" would be the catalogue's header, not a text
    text = msgid if lang == DEFAULT_LANG or not msgid else _translations(lang).gettext(msgid)
    return text.format(**kw) if kw else text


def nt(lang: str, singular: str, plural: str, n: int, **kw) -> str:
    """Plural-aware text; ``n`` is also available as ``{n}``."""
    if lang == DEFAULT_LANG:
        text = singular if n == 1 else plural
    else:
        text = _translations(lang).ngettext(singular, plural, n)
    return text.format(n=n, **kw)
