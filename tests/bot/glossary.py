"""The glossary of a language's catalogues (``bot/words/locales/<lang>/glossary.toml``): for each
game, the word chosen for each thing and the variants that must not be used for it."""
from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass

LOCALES = pathlib.Path(__file__).resolve().parents[2] / "bot" / "words" / "locales"


@dataclass(frozen=True)
class Term:
    """``chosen``: the stem to use; ``forbidden``: regular expressions (matched at a word's
    start, case-insensitively) of the variants that must not be used for the same thing."""

    chosen: str
    forbidden: tuple[str, ...]


def glossary(lang: str) -> dict[str, tuple[Term, ...]]:
    """Each game's terms, by game id."""
    with (LOCALES / lang / "glossary.toml").open("rb") as fh:
        table = tomllib.load(fh)
    return {kind: tuple(Term(term["chosen"], tuple(term["forbidden"])) for term in terms)
            for kind, terms in table.items()}


GLOSSARY = glossary("ru")
