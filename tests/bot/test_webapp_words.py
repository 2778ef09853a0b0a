"""The page's words (the catalogues' entries under msgctxt "page" and "page:<game>", which the
server sends the page: bot/webapp/views.py page_words) agree with the bot's: each game's section
keeps to that game's glossary (bot/words/locales/ru/glossary.toml: «тайл» and «подставка» in «Гениально»,
«резерв» in lucky and trio…), the words around the boards name no game's piece at all, and every
word the page's scripts ask for (read with Babel's JavaScript extractor) has its Russian."""
from __future__ import annotations

import pathlib
import re

import pytest
from babel.messages.extract import extract

from bot.games import kits
from bot.webapp.views import page_words
from tests.bot.glossary import GLOSSARY

STATIC = pathlib.Path(__file__).resolve().parents[2] / "bot" / "webapp" / "static"


def russian() -> dict[str, dict[str, str]]:
    """The words the page is sent in Russian, by section: "page", and each game's by its id."""
    return {section.removeprefix("page:"): words for section, words in page_words("ru").items()}


def scripts() -> list[tuple[str, pathlib.Path]]:
    """Every script of the page, by its name: the page's own and each game's board."""
    return [(p.stem, p) for p in sorted(STATIC.rglob("*.js"))] + [(kit.id, kit.board) for kit in kits()]


def asked(path: pathlib.Path) -> set[str]:
    """The msgids of the script's t("…") calls (t("…", {…}) too, and inside `${…}`)."""
    with path.open("rb") as fh:
        found = extract("javascript", fh, keywords={"t": None}, options={"parse_template_string": True})
        return {message for _, message, _, _ in found if isinstance(message, str)}


def forbidden(kind: str, texts) -> list[str]:
    problems = []
    for term in GLOSSARY[kind]:
        for variant in term.forbidden:
            pattern = re.compile(rf"(?<!\w){variant}", re.IGNORECASE)
            problems += [f"{kind}: «{variant}» instead of «{term.chosen}» in {s!r}" for s in texts if pattern.search(s)]
    return problems


@pytest.mark.parametrize("kind", sorted(GLOSSARY))
def test_each_games_words_on_the_page_keep_to_its_glossary(kind):
    words = russian()[kind]
    assert not forbidden(kind, words.values()), "\n".join(forbidden(kind, words.values()))
    # The page names the game's own pieces by the chosen terms.
    chosen = {"genial": "тайл", "cones": "башн", "lucky": "жетон", "trio": "жетон"}[kind]
    assert any(chosen in s.lower() for s in words.values()), kind


def test_the_words_around_the_boards_belong_to_no_game():
    page = russian()["page"].values()
    problems = [p for kind in GLOSSARY for p in forbidden(kind, page)]
    pieces = re.compile(r"(?<!\w)(тайл|жетон|фишк|башн|подставк|резерв|мешк|мешок)", re.IGNORECASE)
    problems += [s for s in page if pieces.search(s)]
    assert not problems, problems


def test_every_word_the_page_asks_for_has_its_russian():
    table = russian()
    missing = []
    for stem, path in scripts():
        sections = ["page"] + ([stem] if stem in table else [])
        if stem == "common":
            sections = ["page"] + sorted(GLOSSARY)  # shared by every board: each game's words must have it
            missing += [f"{path.name}: {w!r} ({s})" for w in asked(path) for s in sorted(GLOSSARY)
                        if w not in table["page"] and w not in table[s]]
            continue
        missing += [f"{path.name}: {w!r}" for w in asked(path) if not any(w in table[s] for s in sections)]
    assert not missing, "\n".join(missing)
    # Every section's msgid is asked for somewhere (no word left behind); colours and symbols are
    # asked by name (t(colour)).
    used = set().union(*(asked(p) for _, p in scripts()))
    named = re.compile(r"^(red|orange|yellow|green|blue|purple|pink|hexagon|circle|star)( \w+)?$")
    unused = [w for section in table.values() for w in section if w not in used and not named.match(w)]
    assert not unused, unused
