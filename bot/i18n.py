"""Russian and English text through gettext catalogues (.po files read with Babel).

English is the source language: a msgid is the English text with ``{placeholders}``.
Russian catalogues live in ``bot/locales/ru/LC_MESSAGES/<domain>.po``, one domain per part of
the bot (core, and one per game) so that they can be edited independently; they are merged
at load. Extract new strings with ``pybabel extract -k t:2 -k nt:2,3 -o messages.pot bot``.
Language is always passed explicitly (asyncio: no global "current locale").
"""
from __future__ import annotations

import gettext
import pathlib
from functools import lru_cache
from typing import Callable

from babel.messages.pofile import read_po

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


class _Catalog:
    def __init__(self, singular: dict[str, str], plural: dict[tuple[str, str], list[str]],
                 plural_fn: Callable[[int], int]):
        self.singular = singular
        self.plural = plural
        self.plural_fn = plural_fn


@lru_cache(maxsize=None)
def _catalog(lang: str) -> _Catalog:
    singular: dict[str, str] = {}
    plural: dict[tuple[str, str], list[str]] = {}
    plural_fn: Callable[[int], int] = lambda n: 0 if n == 1 else 1
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    for path in sorted(folder.glob("*.po")) if folder.is_dir() else []:
        with path.open("rb") as fh:
            cat = read_po(fh, locale=lang)
        plural_fn = gettext.c2py(cat.plural_expr)
        for message in cat:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple):
                forms = [s for s in message.string if s]
                if len(forms) == len(message.string):
                    plural[(message.id[0], message.id[1])] = list(message.string)
            elif message.string:
                singular[message.id] = message.string
    return _Catalog(singular, plural, plural_fn)


def t(lang: str, msgid: str, **kw) -> str:
    """The text in ``lang``, formatted with ``kw`` (values are inserted as they are)."""
    text = msgid if lang == DEFAULT_LANG else _catalog(lang).singular.get(msgid, msgid)
    return text.format(**kw) if kw else text


def nt(lang: str, singular: str, plural: str, n: int, **kw) -> str:
    """Plural-aware text; ``n`` is also available as ``{n}``."""
    if lang == DEFAULT_LANG:
        text = singular if n == 1 else plural
    else:
        cat = _catalog(lang)
        forms = cat.plural.get((singular, plural))
        text = forms[cat.plural_fn(n)] if forms else (singular if n == 1 else plural)
    return text.format(n=n, **kw)


def missing(lang: str, msgids: list[str]) -> list[str]:
    """The msgids with no translation in ``lang`` (tests use it to keep catalogues complete)."""
    cat = _catalog(lang)
    return [m for m in msgids if m not in cat.singular]
