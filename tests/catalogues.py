"""Compiling the translation catalogues: each ``.po`` (edited by people) to the ``.mo`` beside it
(committed and shipped; the bot reads only these, with the standard library, see ``bot/words/i18n.py``).

    python -m tests.catalogues            # recompile every .mo from its .po
    python -m tests.catalogues --check    # name the .mo files out of date with their .po; exit 1 if any

Needs Babel, which is in the ``test`` extra only: the running bot never imports this module.
A .mo holds what the bot showed when it read the .po files itself: entries marked fuzzy,
untranslated ones and plural entries with a form missing are left out, so English shows instead
(``pybabel compile`` would differ there: it refuses a catalogue whose header is marked fuzzy, as
ours are, and fills a missing plural form with the English).
"""
from __future__ import annotations

import gettext
import io
import pathlib
import sys

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = pathlib.Path(__file__).resolve().parents[1] / "bot" / "words" / "locales"


def sources() -> list[pathlib.Path]:
    """Every .po file, in a stable order."""
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def _shown(po: pathlib.Path) -> Catalog:
    """The catalogue of ``po`` keeping only the entries a player is shown."""
    with po.open("rb") as fh:
        catalogue = read_po(fh, locale=po.parent.parent.name)
    for message in list(catalogue):
        if not message.id:
            continue  # the header: kept, it carries the charset and the plural rule
        forms = message.string if isinstance(message.id, tuple) else [message.string]
        if message.fuzzy or not all(forms):
            catalogue.delete(message.id, message.context)
    return catalogue


def compiled(po: pathlib.Path) -> bytes:
    """The .mo bytes for ``po``."""
    out = io.BytesIO()
    write_mo(out, _shown(po))
    return out.getvalue()


def _entries(mo: bytes) -> tuple[dict, str]:
    """What gettext reads from ``mo``: its messages without the header, and its plural rule.
    (``_catalog`` is GNUTranslations' table of messages; compared rather than the bytes, which
    change with Babel's version.)"""
    translations = gettext.GNUTranslations(io.BytesIO(mo))
    entries = {key: text for key, text in translations._catalog.items() if key != ""}
    return entries, translations.info().get("plural-forms", "")


def _outdated() -> list[tuple[pathlib.Path, bytes]]:
    """The .po files whose .mo is missing or says something else than the .po does, each with
    the .mo it compiles to (compiled once, for the comparison and for the writing)."""
    out = []
    for po in sources():
        mo, fresh = po.with_suffix(".mo"), compiled(po)
        if not mo.is_file() or _entries(mo.read_bytes()) != _entries(fresh):
            out.append((po, fresh))
    return out


def stale() -> list[pathlib.Path]:
    """The .po files whose .mo is missing or says something else than the .po does."""
    return [po for po, _ in _outdated()]


def compile_all() -> list[pathlib.Path]:
    """Write every .mo whose content changes; returns the .mo files written."""
    written = []
    for po, fresh in _outdated():
        mo = po.with_suffix(".mo")
        mo.write_bytes(fresh)
        written.append(mo)
    return written


def main(argv: list[str]) -> int:
    root = pathlib.Path.cwd()

    def shown(path: pathlib.Path) -> str:
        return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
    if argv[:1] == ["--check"]:
        behind = stale()
        for po in behind:
            print(f"{shown(po.with_suffix('.mo'))} is out of date with {po.name}")
        return 1 if behind else 0
    for mo in compile_all():
        print(f"wrote {shown(mo)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
