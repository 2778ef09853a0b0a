"""One Russian word for each thing of a game, shared by its rules, buttons, captions and pictures.

A player who reads «башня» in the rules and «стопка» on a button wonders whether they are two
things. Each game has its glossary here: the term chosen (as a word stem, so that every case
matches) and the variants that must not appear anywhere in that game's Russian text. The choice
follows the seed rulebook in ``shared/seeds/`` where it is explicit, and ``shared/RULES.md``:

- cones (seed 001): «башня» on an «основание», made of «фишки»;
- genial (seed 003): «тайл» on a «подставка», drawn from the «мешок», «бонусный ход»;
- lucky (seed 000/002): «жетон» from the «резерв», «призовой ход»;
- trio (seed 004): «жетон», drawn from the «резерв» (the seed's «пул» is jargon), «сет».

The colour a score is decided by, in «Гениально» and «Совершенно гениально» alike, is «самый
слабый цвет» (the pictures say «самый слабый»): it was also «минимум», «мин» and «слабейший цвет».

``tests/bot/test_wording.py`` reads every Russian string of a game (its catalogue, the lobby
options and menu line that belong to it, the labels of its pictures) and fails on a forbidden
variant.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """``chosen``: the stem to use; ``forbidden``: regular expressions (matched at a word's
    start, case-insensitively) of the variants that must not be used for the same thing."""

    chosen: str
    forbidden: tuple[str, ...]


WEAKEST = Term(r"сам\w+ слаб", ("миним", r"мин\b", "слабейш", "наименьш"))

GLOSSARY: dict[str, tuple[Term, ...]] = {
    "cones": (
        Term("башн", ("стопк", "столбик", "кучк")),
        Term("фишк", ("жетон", "тайл")),
        Term("основани", ("подставк",)),
    ),
    "genial": (
        Term("тайл", ("фишк", "плитк", "жетон", "домино")),
        Term("бонусн", ("призов",)),
        Term("мешк|мешок", ("пул", "резерв", "мешоч")),
        Term("подставк", (r"из (?:своей )?подставки",)),
        WEAKEST,
    ),
    "lucky": (
        Term("жетон", ("фишк", "тайл")),
        Term("призов", ("бонусн",)),
        Term("резерв", ("пул", "мешок", "мешк", "мешоч")),
        Term("вместо того чтобы тянуть", ("альтернативн",)),
        WEAKEST,
    ),
    "trio": (
        Term("жетон", ("фишк", "тайл", "плитк")),
        Term("резерв", ("пул", "мешок", "мешк", "мешоч")),
        Term("сет", ("тройк",)),
    ),
}
